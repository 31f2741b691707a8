//! Mode `tcg` — the Trading Card Game kata (docs/rules/tcg.md), basic and special rules, with
//! every advanced variation as an option of [`Rules`].
//!
//! Two heroes with 30 health draw cards from 20-card decks. On its turn the active player
//! may play as many cards as its mana allows, attack with its minions, and end the turn;
//! the bot is asked for one [`Action`] at a time until it ends its turn. The first hero at
//! 0 health or below loses.
//!
//! Deck files (the custom decks variation) are plain text, one entry per line:
//!
//! ```text
//! # my aggro deck
//! 4x spark
//! 4 x zap
//! bolt        # one copy
//! ```
//!
//! [`parse_deck`] reads them (errors carry line numbers) and [`Deck::to_text`] writes them,
//! so a bot can embed its deck with `include_str!` and the arena can load and save them.

use crate::protocol::{Game, Mode, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The `tcg` mode.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tcg;

impl Game for Tcg {
    const MODE: Mode = Mode::Tcg;
    type Rules = Rules;
    type SetupRequest = SetupRequest;
    type SetupChoice = DeckChoice;
    type Observation = Observation;
    type Action = Action;
}

/// What a card does when played as a spell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardKind {
    /// Deals `damage` to the enemy hero or an enemy minion (or becomes a minion).
    Damage,
    /// Restores `heal` health to the own hero (variation "healing").
    Heal,
    /// Draws `draw` cards (variation "card drawers").
    Draw,
}

/// A card of the pool. The amount that matters is the one named by `kind`; the others are 0.
/// In JSON the zero amounts are left out; the binary encoding, which has no field names,
/// always carries all six fields (see the hand-written `Serialize`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    /// Short kebab-case name, used in decks and deck files ("fireball").
    pub id: String,
    /// What it does.
    pub kind: CardKind,
    /// Mana it costs.
    pub cost: i32,
    /// Damage dealt as a spell; attack and health as a minion.
    #[serde(default)]
    pub damage: i32,
    /// Health restored.
    #[serde(default)]
    pub heal: i32,
    /// Cards drawn.
    #[serde(default)]
    pub draw: i32,
}

// Not derived: `skip_serializing_if` would drop fields from the binary encoding too, whose
// reader expects every field in order. Self-describing formats (JSON) skip the zeros.
impl Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let readable = serializer.is_human_readable();
        let mut card = serializer.serialize_struct("Card", 6)?;
        card.serialize_field("id", &self.id)?;
        card.serialize_field("kind", &self.kind)?;
        card.serialize_field("cost", &self.cost)?;
        for (name, value) in [
            ("damage", self.damage),
            ("heal", self.heal),
            ("draw", self.draw),
        ] {
            if readable && value == 0 {
                card.skip_field(name)?;
            } else {
                card.serialize_field(name, &value)?;
            }
        }
        card.end()
    }
}

impl Card {
    /// A damage card.
    pub fn damage(id: &str, cost: i32, damage: i32) -> Card {
        Card {
            id: id.to_owned(),
            kind: CardKind::Damage,
            cost,
            damage,
            heal: 0,
            draw: 0,
        }
    }

    /// A healing card.
    pub fn heal(id: &str, cost: i32, heal: i32) -> Card {
        Card {
            id: id.to_owned(),
            kind: CardKind::Heal,
            cost,
            damage: 0,
            heal,
            draw: 0,
        }
    }

    /// A card drawer.
    pub fn drawer(id: &str, cost: i32, draw: i32) -> Card {
        Card {
            id: id.to_owned(),
            kind: CardKind::Draw,
            cost,
            damage: 0,
            heal: 0,
            draw,
        }
    }

    /// The amount of its kind (damage, heal or cards drawn).
    pub fn amount(&self) -> i32 {
        match self.kind {
            CardKind::Damage => self.damage,
            CardKind::Heal => self.heal,
            CardKind::Draw => self.draw,
        }
    }

    /// A dud: a damage card that does no damage (the document's 0-mana cards).
    pub fn is_dud(&self) -> bool {
        self.kind == CardKind::Damage && self.damage == 0
    }
}

/// The default card pool: the document's cards (damage = cost, `dud` costs 0 and does
/// nothing) and, for the variations, cards with damage different from their cost, healing
/// cards and card drawers. [`Rules::allows`] says which of them a rules set uses.
pub fn default_pool() -> Vec<Card> {
    vec![
        // The document's damage cards: damage equals cost.
        Card::damage("dud", 0, 0),
        Card::damage("spark", 1, 1),
        Card::damage("zap", 2, 2),
        Card::damage("bolt", 3, 3),
        Card::damage("blast", 4, 4),
        Card::damage("fireball", 5, 5),
        Card::damage("lava-burst", 6, 6),
        Card::damage("meteor", 7, 7),
        Card::damage("inferno", 8, 8),
        Card::damage("cataclysm", 9, 9),
        Card::damage("apocalypse", 10, 10),
        // Separate damage and cost: cheap and powerful, expensive and mediocre, useless.
        Card::damage("cheap-shot", 1, 2),
        Card::damage("ambush", 3, 5),
        Card::damage("glass-hammer", 4, 6),
        Card::damage("boulder", 6, 4),
        Card::damage("fizzle", 2, 0),
        Card::damage("pyroblast", 10, 12),
        // Healing: heal equals cost unless damage and cost are separate.
        Card::heal("bandage", 2, 2),
        Card::heal("potion", 4, 4),
        Card::heal("elixir", 6, 6),
        Card::heal("herbs", 1, 3),
        // Card drawers.
        Card::drawer("scout", 1, 1),
        Card::drawer("insight", 3, 2),
        Card::drawer("library", 5, 3),
    ]
}

/// The document's deck: 20 damage cards costing 0,0,1,1,2,2,2,3,3,3,3,4,4,4,5,5,6,6,7,8.
pub fn standard_deck() -> Vec<String> {
    let counts = [
        ("dud", 2),
        ("spark", 2),
        ("zap", 3),
        ("bolt", 4),
        ("blast", 3),
        ("fireball", 2),
        ("lava-burst", 2),
        ("meteor", 1),
        ("inferno", 1),
    ];
    counts
        .iter()
        .flat_map(|&(id, n)| std::iter::repeat_n(id.to_owned(), n))
        .collect()
}

/// The rules configuration of `tcg`. The defaults are the document's basic and special
/// rules; each advanced variation is a switch.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// Health each hero starts with, and the most healing can restore to (30).
    pub starting_health: i32,
    /// Mana slots stop growing here (10).
    pub max_mana: i32,
    /// Cards in each opening hand (3).
    pub opening_hand: u32,
    /// The second player gets one more opening card (a Hearthstone habit; off: the
    /// document deals 3 each and tournaments swap seats).
    pub second_player_extra_card: bool,
    /// Pick the first player at random (off: seat 0 starts, tournaments swap seats).
    pub random_first_player: bool,
    /// Hand size limit for overload (5).
    pub max_hand: u32,
    /// Special rule "bleeding out": 1 damage instead of a draw from an empty deck.
    pub bleeding_out: bool,
    /// Special rule "overload": a card drawn into a full hand is discarded (off: no limit).
    pub overload: bool,
    /// Variation 1: cards may have damage (and healing) different from their cost.
    pub separate_damage: bool,
    /// Variation 2: healing cards are allowed.
    pub healing: bool,
    /// Variation 2, alternative: any damage card may be played to heal its damage instead.
    pub any_card_heals: bool,
    /// Variation 3: card drawer cards are allowed.
    pub card_drawers: bool,
    /// Variation 4: damage cards may be played as minions.
    pub minions: bool,
    /// Minions a player may have on the board at once (7).
    pub max_minions: u32,
    /// Variation 5: each bot builds its deck from the pool.
    pub custom_decks: bool,
    /// Cards in a deck (20).
    pub deck_size: u32,
    /// Copies of one card a custom deck may hold (4: the document's deck has four 3s).
    pub max_copies: u32,
    /// The card pool. Cards of a variation that is off are left out (see [`Rules::allows`]).
    pub pool: Vec<Card>,
    /// The deck both players use without custom decks, and the deck of a bot that does
    /// not choose a valid one (card ids; default: the document's deck).
    pub deck: Vec<String>,
    /// Seat 0's own deck (card ids; `arena play --deck0 FILE`, or a tournament bot's
    /// `deck`), in place of `deck` for that seat; absent: `deck`.
    pub deck0: Option<Vec<String>>,
    /// Seat 1's own deck; absent: `deck`.
    pub deck1: Option<Vec<String>>,
    /// The game ends after this many turns (both players' turns counted); higher health
    /// wins, equal health is a draw.
    pub turn_cap: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            starting_health: 30,
            max_mana: 10,
            opening_hand: 3,
            second_player_extra_card: false,
            random_first_player: false,
            max_hand: 5,
            bleeding_out: true,
            overload: true,
            separate_damage: false,
            healing: false,
            any_card_heals: false,
            card_drawers: false,
            minions: false,
            max_minions: 7,
            custom_decks: false,
            deck_size: 20,
            max_copies: 4,
            pool: default_pool(),
            deck: standard_deck(),
            deck0: None,
            deck1: None,
            turn_cap: 200,
        }
    }
}

serialize_omitting_none_in_text!(Rules {
    starting_health,
    max_mana,
    opening_hand,
    second_player_extra_card,
    random_first_player,
    max_hand,
    bleeding_out,
    overload,
    separate_damage,
    healing,
    any_card_heals,
    card_drawers,
    minions,
    max_minions,
    custom_decks,
    deck_size,
    max_copies,
    pool,
    deck,
    deck0: optional,
    deck1: optional,
    turn_cap,
});

impl Rules {
    /// The deck `seat` plays unless it builds its own (custom decks): its own deck, else
    /// the shared `deck`.
    pub fn deck_of(&self, seat: crate::Seat) -> &[String] {
        let own = if seat == 0 { &self.deck0 } else { &self.deck1 };
        own.as_deref().unwrap_or(&self.deck)
    }

    /// Every advanced variation on (custom decks included) with the default pool.
    pub fn advanced() -> Rules {
        Rules {
            separate_damage: true,
            healing: true,
            any_card_heals: true,
            card_drawers: true,
            minions: true,
            custom_decks: true,
            ..Rules::default()
        }
    }

    /// Whether the variations in force allow `card`.
    pub fn allows(&self, card: &Card) -> bool {
        match card.kind {
            CardKind::Damage => self.separate_damage || card.damage == card.cost,
            CardKind::Heal => self.healing && (self.separate_damage || card.heal == card.cost),
            CardKind::Draw => self.card_drawers,
        }
    }

    /// The cards of the pool in use.
    pub fn card_pool(&self) -> CardPool {
        CardPool {
            cards: self
                .pool
                .iter()
                .filter(|c| self.allows(c))
                .cloned()
                .collect(),
            deck_size: self.deck_size,
            max_copies: self.max_copies,
        }
    }
}

/// The cards decks are built from, with the deck-building limits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardPool {
    /// The cards available.
    pub cards: Vec<Card>,
    /// Cards in a deck.
    pub deck_size: u32,
    /// Copies of one card a deck may hold.
    pub max_copies: u32,
}

impl Default for CardPool {
    /// The default rules' pool: the document's cards only, 20-card decks, 4 copies.
    fn default() -> Self {
        Rules::default().card_pool()
    }
}

impl CardPool {
    /// The card with id `id`.
    pub fn card(&self, id: &str) -> Option<&Card> {
        self.cards.iter().find(|c| c.id == id)
    }

    /// Check a deck given as card ids (a bot's setup choice): size, known cards, copies.
    pub fn check(&self, ids: &[String]) -> Result<(), String> {
        let mut copies: BTreeMap<&str, u32> = BTreeMap::new();
        for id in ids {
            if self.card(id).is_none() {
                return Err(format!("unknown card `{id}` (not in the pool in use)"));
            }
            let n = copies.entry(id).or_default();
            *n += 1;
            if *n > self.max_copies {
                return Err(format!("more than {} copies of `{id}`", self.max_copies));
            }
        }
        if ids.len() != self.deck_size as usize {
            return Err(format!(
                "the deck has {} cards, a deck needs {}",
                ids.len(),
                self.deck_size
            ));
        }
        Ok(())
    }
}

/// A deck: card ids, in the order they were listed (the arena shuffles before play).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Deck {
    /// One entry per card.
    pub cards: Vec<String>,
}

impl Deck {
    /// The deck in the deck file format: one `Nx id` line per card, in order of first
    /// appearance. [`parse_deck`] reads it back.
    pub fn to_text(&self) -> String {
        let mut order: Vec<(&str, u32)> = Vec::new();
        for id in &self.cards {
            match order.iter_mut().find(|(seen, _)| *seen == id.as_str()) {
                Some((_, n)) => *n += 1,
                None => order.push((id, 1)),
            }
        }
        order.iter().map(|(id, n)| format!("{n}x {id}\n")).collect()
    }
}

/// What is wrong with a deck file; `line` is 1-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeckError {
    /// The line the error is on (for a wrong total: the last line).
    pub line: usize,
    /// What is wrong.
    pub kind: DeckErrorKind,
}

/// The kinds of [`DeckError`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeckErrorKind {
    /// The line is neither `id`, `Nx id` nor `N x id`.
    Syntax {
        /// The line, trimmed.
        text: String,
    },
    /// The count is not a positive number.
    BadCount {
        /// The count as written.
        count: String,
    },
    /// The card is not in the pool.
    UnknownCard {
        /// The id as written.
        id: String,
    },
    /// The deck holds more copies of a card than allowed.
    TooManyCopies {
        /// The card.
        id: String,
        /// Copies so far.
        count: u32,
        /// The limit.
        max: u32,
    },
    /// The deck does not have exactly the deck size.
    WrongSize {
        /// Cards in the file.
        count: usize,
        /// Cards a deck needs.
        expected: u32,
    },
}

impl std::fmt::Display for DeckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: ", self.line)?;
        match &self.kind {
            DeckErrorKind::Syntax { text } => write!(
                f,
                "cannot read `{text}`; write `card-id`, `2x card-id` or `2 x card-id`"
            ),
            DeckErrorKind::BadCount { count } => {
                write!(f, "`{count}` is not a positive number of copies")
            }
            DeckErrorKind::UnknownCard { id } => {
                write!(f, "unknown card `{id}` (not in the card pool in use)")
            }
            DeckErrorKind::TooManyCopies { id, count, max } => {
                write!(f, "{count} copies of `{id}`, at most {max} are allowed")
            }
            DeckErrorKind::WrongSize { count, expected } => write!(
                f,
                "the deck has {count} cards, a deck needs exactly {expected}"
            ),
        }
    }
}

impl std::error::Error for DeckError {}

/// Read a deck file (see the module docs for the format) against `pool`: every card must
/// be in the pool, no card more than `pool.max_copies` times, exactly `pool.deck_size`
/// cards.
pub fn parse_deck(text: &str, pool: &CardPool) -> Result<Deck, DeckError> {
    let mut cards = Vec::new();
    let mut copies: BTreeMap<String, u32> = BTreeMap::new();
    let mut last_line = 0;
    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
        last_line = line;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let err = |kind| DeckError { line, kind };
        let words: Vec<&str> = content.split_whitespace().collect();
        let (count, id) = match words.as_slice() {
            [id] => ("1", *id),
            [count, id] if count.ends_with(['x', 'X']) => (&count[..count.len() - 1], *id),
            [count, x, id] if x.eq_ignore_ascii_case("x") => (*count, *id),
            _ => {
                return Err(err(DeckErrorKind::Syntax {
                    text: content.to_owned(),
                }));
            }
        };
        let count: u32 = match count.parse() {
            Ok(n) if n > 0 => n,
            _ => {
                return Err(err(DeckErrorKind::BadCount {
                    count: count.to_owned(),
                }));
            }
        };
        if pool.card(id).is_none() {
            return Err(err(DeckErrorKind::UnknownCard { id: id.to_owned() }));
        }
        let total = copies.entry(id.to_owned()).or_default();
        // Saturating: a count near u32::MAX is reported, never wrapped or allocated.
        *total = total.saturating_add(count);
        if *total > pool.max_copies {
            return Err(err(DeckErrorKind::TooManyCopies {
                id: id.to_owned(),
                count: *total,
                max: pool.max_copies,
            }));
        }
        // Counted before anything is allocated: a deck never holds more than deck_size.
        let size = cards.len() as u64 + u64::from(count);
        if size > u64::from(pool.deck_size) {
            return Err(err(DeckErrorKind::WrongSize {
                count: usize::try_from(size).unwrap_or(usize::MAX),
                expected: pool.deck_size,
            }));
        }
        cards.extend(std::iter::repeat_n(id.to_owned(), count as usize));
    }
    if cards.len() != pool.deck_size as usize {
        return Err(DeckError {
            line: last_line.max(1),
            kind: DeckErrorKind::WrongSize {
                count: cards.len(),
                expected: pool.deck_size,
            },
        });
    }
    Ok(Deck { cards })
}

/// Sent once before play. Without custom decks the answer is ignored (answer `{}`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SetupRequest {
    /// The receiving bot's seat.
    pub seat: Seat,
    /// The seat that plays the first turn.
    pub first_player: Seat,
    /// Whether a deck choice is wanted (custom decks are on).
    pub choose_deck: bool,
    /// The cards in use (build decks from these).
    pub pool: CardPool,
    /// The deck used when no valid deck is chosen (and by everyone without custom decks).
    pub default_deck: Vec<String>,
}

/// A bot's deck choice. `{}` or `{"deck": null}` takes the default deck.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct DeckChoice {
    /// Card ids from the pool, exactly `deck_size` of them.
    #[serde(default)]
    pub deck: Option<Vec<String>>,
}

/// A card in a hand or deck: one physical copy, with an id unique in the match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardInstance {
    /// Unique in the match; a minion keeps its card's uid as its id.
    pub uid: u32,
    /// What the card is.
    pub card: Card,
}

/// One hero as everyone sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hero {
    /// Current health; 0 or below loses.
    pub health: i32,
    /// Unspent mana (0 outside the hero's own turn).
    pub mana: i32,
    /// Mana slots.
    pub mana_slots: i32,
    /// Cards left in the deck.
    pub deck_size: u32,
    /// Cards in hand.
    pub hand_size: u32,
}

/// A minion on the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Minion {
    /// Its id (the uid of the card it was played from).
    pub id: u32,
    /// Who owns it.
    pub owner: Seat,
    /// The card it was played from.
    pub card: String,
    /// Damage it deals when attacking or defending.
    pub attack: i32,
    /// Current health.
    pub health: i32,
    /// Played this turn: it cannot attack yet (it still defends).
    pub asleep: bool,
    /// It may attack now (owner's turn, awake, not attacked yet this turn).
    pub can_attack: bool,
}

/// What a bot sees each time it is asked for an action on its turn.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Observation {
    /// The current turn (1-based; both players' turns are counted).
    pub turn: u32,
    /// The turn cap of the rules.
    pub turn_cap: u32,
    /// The receiving bot's seat.
    pub seat: Seat,
    /// Both heroes, indexed by seat.
    pub heroes: [Hero; 2],
    /// The bot's own hand.
    pub hand: Vec<CardInstance>,
    /// Every minion on the board, in the order they were played.
    pub board: Vec<Minion>,
    /// Every legal action now ([`Action::EndTurn`] is always one).
    pub legal: Vec<Action>,
    /// Why this bot's previous answer was rejected, if it was.
    pub last_rejected: Option<String>,
}

impl Observation {
    /// The bot's own hero.
    pub fn me(&self) -> &Hero {
        &self.heroes[usize::from(self.seat)]
    }

    /// The opposing hero.
    pub fn opponent(&self) -> &Hero {
        &self.heroes[usize::from(1 - self.seat)]
    }

    /// The minions of `seat`.
    pub fn minions_of(&self, seat: Seat) -> impl Iterator<Item = &Minion> {
        self.board.iter().filter(move |m| m.owner == seat)
    }

    /// The hand card with uid `uid`.
    pub fn hand_card(&self, uid: u32) -> Option<&CardInstance> {
        self.hand.iter().find(|c| c.uid == uid)
    }
}

/// How a damage card is played.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayAs {
    /// Immediate damage to the target (healing and drawing for those card kinds).
    #[default]
    Spell,
    /// A minion with attack and health equal to the card's damage (variation 4).
    Minion,
    /// Heal the own hero by the card's damage (`any_card_heals`).
    Heal,
}

/// Who an attack or damage spell hits: `"hero"` (the enemy hero) or `{"minion": id}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// The enemy hero.
    #[default]
    Hero,
    /// An enemy minion.
    Minion(u32),
}

/// A bot's answer on its turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Play the hand card with uid `card`.
    PlayCard {
        /// The card's uid (see [`CardInstance::uid`]).
        card: u32,
        /// Spell (default), minion or heal; ignored for healing and drawer cards.
        #[serde(rename = "as", default)]
        play_as: PlayAs,
        /// For a damage spell: the enemy hero (default) or an enemy minion; otherwise
        /// ignored.
        #[serde(default)]
        target: Target,
    },
    /// Attack with the own minion `minion`.
    Attack {
        /// The attacker's id.
        minion: u32,
        /// The enemy hero or an enemy minion.
        target: Target,
    },
    /// End the turn.
    EndTurn,
}

/// The binary encoding's in-place reader ([`crate::wire`]) for this module's types.
mod decode {
    use super::*;
    use crate::wire::{Decode, Reader, WireError, decode_enum, decode_struct};

    decode_enum!(CardKind { Damage, Heal, Draw });
    decode_enum!(PlayAs {
        Spell,
        Minion,
        Heal
    });
    decode_struct!(Card {
        id,
        kind,
        cost,
        damage,
        heal,
        draw
    });
    decode_struct!(CardInstance { uid, card });
    decode_struct!(Hero {
        health,
        mana,
        mana_slots,
        deck_size,
        hand_size
    });
    decode_struct!(Minion {
        id,
        owner,
        card,
        attack,
        health,
        asleep,
        can_attack
    });

    impl Decode for Target {
        #[inline(always)]
        fn decode(reader: &mut Reader<'_>) -> Self {
            match reader.u32() {
                0 => Target::Hero,
                1 => Target::Minion(reader.u32()),
                _ => {
                    reader.fail(WireError::Variant("Target"));
                    Target::Hero
                }
            }
        }
    }

    impl Decode for Action {
        #[inline(always)]
        fn decode(reader: &mut Reader<'_>) -> Self {
            match reader.u32() {
                0 => Action::PlayCard {
                    card: reader.u32(),
                    play_as: PlayAs::decode(reader),
                    target: Target::decode(reader),
                },
                1 => Action::Attack {
                    minion: reader.u32(),
                    target: Target::decode(reader),
                },
                2 => Action::EndTurn,
                _ => {
                    reader.fail(WireError::Variant("Action"));
                    Action::EndTurn
                }
            }
        }
    }

    decode_struct!(Observation {
        turn,
        turn_cap,
        seat,
        heroes,
        hand,
        board,
        legal,
        last_rejected
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_leaves_out_zero_amounts_in_json_only() {
        let card = Card {
            id: "fireball".into(),
            kind: CardKind::Damage,
            cost: 4,
            damage: 6,
            heal: 0,
            draw: 0,
        };
        let json = serde_json::to_string(&card).unwrap();
        assert_eq!(
            json,
            r#"{"id":"fireball","kind":"damage","cost":4,"damage":6}"#
        );
        assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), card);
        let mut binary = Vec::new();
        crate::protocol::to_binary(&card, &mut binary).unwrap();
        // id (length 8 + bytes), kind 0, cost 4 → 8, damage 6 → 12, heal 0, draw 0.
        assert_eq!(&binary[9..], [0, 8, 12, 0, 0]);
        assert_eq!(postcard::from_bytes::<Card>(&binary).unwrap(), card);
    }

    #[test]
    fn a_seats_own_deck_is_left_out_of_json_when_absent_and_always_in_binary() {
        let shared = Rules::default();
        let json = serde_json::to_value(&shared).unwrap();
        assert!(json.get("deck0").is_none() && json.get("deck1").is_none());
        assert_eq!(serde_json::from_value::<Rules>(json).unwrap(), shared);
        let own = Rules {
            deck0: Some(vec!["spark".into(); 20]),
            ..Rules::default()
        };
        let json = serde_json::to_value(&own).unwrap();
        assert_eq!(json["deck0"][19], "spark");
        assert_eq!(serde_json::from_value::<Rules>(json).unwrap(), own);
        for rules in [shared, own] {
            let mut binary = Vec::new();
            crate::protocol::to_binary(&rules, &mut binary).unwrap();
            assert_eq!(postcard::from_bytes::<Rules>(&binary).unwrap(), rules);
        }
    }

    #[test]
    fn standard_deck_has_the_documents_costs() {
        let pool = CardPool::default();
        let mut costs: Vec<i32> = standard_deck()
            .iter()
            .map(|id| pool.card(id).expect("standard card in pool").cost)
            .collect();
        costs.sort();
        assert_eq!(
            costs,
            [0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8]
        );
        assert_eq!(pool.check(&standard_deck()), Ok(()));
    }

    #[test]
    fn wire_format_of_actions_and_choices() {
        let play: Action = serde_json::from_str(r#"{"play_card": {"card": 7}}"#).unwrap();
        assert_eq!(
            play,
            Action::PlayCard {
                card: 7,
                play_as: PlayAs::Spell,
                target: Target::Hero
            }
        );
        let json = serde_json::to_string(&Action::Attack {
            minion: 3,
            target: Target::Minion(25),
        })
        .unwrap();
        assert_eq!(json, r#"{"attack":{"minion":3,"target":{"minion":25}}}"#);
        let play_minion = serde_json::to_string(&Action::PlayCard {
            card: 1,
            play_as: PlayAs::Minion,
            target: Target::Hero,
        })
        .unwrap();
        assert_eq!(
            play_minion,
            r#"{"play_card":{"card":1,"as":"minion","target":"hero"}}"#
        );
        assert_eq!(
            serde_json::from_str::<Action>(r#""end_turn""#).unwrap(),
            Action::EndTurn
        );
        for text in ["{}", r#"{"deck": null}"#] {
            assert_eq!(
                serde_json::from_str::<DeckChoice>(text).unwrap(),
                DeckChoice { deck: None }
            );
        }
    }

    #[test]
    fn rules_reject_unknown_fields_and_default_the_rest() {
        let rules: Rules = serde_json::from_str(r#"{"minions": true}"#).unwrap();
        assert!(rules.minions);
        assert_eq!(rules.starting_health, 30);
        assert!(serde_json::from_str::<Rules>(r#"{"minion": true}"#).is_err());
    }

    #[test]
    fn variations_filter_the_pool() {
        let basic = Rules::default().card_pool();
        assert!(basic.cards.iter().all(|c| c.kind == CardKind::Damage));
        assert!(basic.card("cheap-shot").is_none());
        let heal = Rules {
            healing: true,
            ..Rules::default()
        }
        .card_pool();
        assert!(heal.card("potion").is_some());
        assert!(
            heal.card("herbs").is_none(),
            "herbs heal more than they cost"
        );
        let all = Rules::advanced().card_pool();
        assert_eq!(all.cards.len(), default_pool().len());
    }

    #[test]
    fn deck_text_round_trips() {
        let pool = CardPool::default();
        let deck = Deck {
            cards: standard_deck(),
        };
        let text = deck.to_text();
        assert!(text.starts_with("2x dud\n2x spark\n3x zap\n"));
        assert_eq!(parse_deck(&text, &pool), Ok(deck));
    }

    #[test]
    fn deck_parse_errors_carry_line_numbers() {
        let pool = CardPool::default();
        let err = |text: &str| parse_deck(text, &pool).unwrap_err();
        let e = err("# header\n2x spark\n\n1x frostbolt\n");
        assert_eq!(e.line, 4);
        assert_eq!(
            e.kind,
            DeckErrorKind::UnknownCard {
                id: "frostbolt".into()
            }
        );
        assert!(
            e.to_string()
                .starts_with("line 4: unknown card `frostbolt`")
        );
        let e = err("4x bolt\nbolt # fifth\n");
        assert_eq!(e.line, 2);
        assert!(matches!(
            e.kind,
            DeckErrorKind::TooManyCopies {
                count: 5,
                max: 4,
                ..
            }
        ));
        let e = err("4x bolt\n4x blast\n# end\n");
        assert_eq!(e.line, 3);
        assert_eq!(
            e.kind,
            DeckErrorKind::WrongSize {
                count: 8,
                expected: 20
            }
        );
        assert_eq!(err("spark\n0x bolt\n").line, 2);
        assert!(matches!(
            err("two x bolt").kind,
            DeckErrorKind::BadCount { .. }
        ));
        assert!(matches!(
            err("spark zap bolt blast").kind,
            DeckErrorKind::Syntax { .. }
        ));
    }

    #[test]
    fn deck_file_accepts_all_count_spellings() {
        let pool = CardPool::default();
        let text = "2x dud\n2 x spark\n3X zap\n4x bolt\n3x blast\n2x fireball\n\
                    2x lava-burst # big\nmeteor\n  inferno  \n";
        let deck = parse_deck(text, &pool).unwrap();
        assert_eq!(deck.cards, standard_deck());
    }
}
