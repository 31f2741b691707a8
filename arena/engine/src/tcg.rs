//! Mode `tcg`: the rules of the trading card game (docs/rules/tcg.md).
//!
//! The game is event-sourced: the rules decide what happens and emit [`Event`]s, and every
//! change of state is made by [`State::apply`] on an event. The terminal picture of a replay
//! folds the same `apply` over the recorded events, so what `--watch` shows is exactly what
//! the rules saw, and statistics are counted in the same place.

use crate::{Finish, Ruleset, Stats, Table};
use arena_sdk::Seat;
use arena_sdk::tcg::{
    Action, CardInstance, CardKind, CardPool, DeckChoice, Hero, Minion, Observation, PlayAs,
    Rules, SetupRequest, Target,
};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt::Write as _;

pub use arena_sdk::tcg::{
    Deck, DeckError, DeckErrorKind, Tcg, default_pool, parse_deck, standard_deck,
};

/// The statistics keys of `tcg`, for both seats in every match.
pub const STAT_KEYS: [&str; 10] = [
    "damage_dealt",
    "healing",
    "cards_played",
    "cards_drawn",
    "cards_discarded",
    "bleed_out_damage",
    "minions_played",
    "minions_killed",
    "mana_wasted",
    "turns",
];

/// The full initial state: who starts and both decks in draw order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Initial {
    /// The seat that plays turn 1.
    pub first_player: Seat,
    /// Each hero's starting (and maximum) health.
    pub starting_health: i32,
    /// Each seat's deck after shuffling; index 0 is drawn first.
    pub decks: [Vec<CardInstance>; 2],
    /// Whether each seat plays a deck it chose (custom decks) rather than the default.
    pub chosen_deck: [bool; 2],
}

/// Who takes damage: `{"hero": seat}` or `{"minion": id}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Victim {
    /// The hero of a seat.
    Hero(Seat),
    /// A minion.
    Minion(u32),
}

/// Why a turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnEndReason {
    /// The bot ended it.
    Chosen,
    /// Nothing but ending the turn was legal, so the bot was not asked.
    NothingToDo,
    /// The bot's action was illegal: the turn ends (the documented default).
    Rejected,
    /// The bot faulted: the turn ends.
    Fault,
}

/// Everything that happens in a match, with its numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Event {
    /// A turn begins: the active seat's mana slots grow (up to the cap) and refill.
    TurnStart {
        /// Turn number (both players' turns counted, from 1).
        turn: u32,
        /// The active seat.
        seat: Seat,
        /// Mana slots now; mana is refilled to this.
        mana_slots: i32,
    },
    /// A card goes from the deck into the hand.
    Draw {
        /// Whose.
        seat: Seat,
        /// The card's uid.
        uid: u32,
        /// The card's id.
        card: String,
    },
    /// Overload: a card drawn into a full hand is discarded.
    Overload {
        /// Whose.
        seat: Seat,
        /// The card's uid.
        uid: u32,
        /// The card's id.
        card: String,
    },
    /// A card drawer's draw found the deck empty: nothing happens.
    EmptyDeck {
        /// Whose.
        seat: Seat,
    },
    /// Bleeding out: damage instead of the turn's draw from an empty deck.
    BleedOut {
        /// Who bleeds.
        seat: Seat,
        /// The damage (1).
        damage: i32,
        /// Health afterwards.
        health: i32,
    },
    /// A card is played and paid for.
    Play {
        /// Who plays it.
        seat: Seat,
        /// The card's uid.
        uid: u32,
        /// The card's id.
        card: String,
        /// How: spell (damage spells, card drawers), minion or heal.
        play_as: PlayAs,
        /// Mana paid.
        cost: i32,
        /// Mana left.
        mana_left: i32,
    },
    /// Damage to a hero or minion.
    Damage {
        /// The seat dealing it.
        source: Seat,
        /// Who takes it.
        target: Victim,
        /// How much.
        amount: i32,
        /// The target's health afterwards.
        health: i32,
    },
    /// A hero is healed (capped at the starting health; `amount` is what was restored).
    Heal {
        /// Who.
        seat: Seat,
        /// Health restored.
        amount: i32,
        /// Health afterwards.
        health: i32,
    },
    /// A minion enters the board, asleep.
    Summon {
        /// Its owner.
        seat: Seat,
        /// Its id (its card's uid).
        minion: u32,
        /// Its card.
        card: String,
        /// Attack.
        attack: i32,
        /// Health.
        health: i32,
    },
    /// A minion attacks the enemy hero.
    MinionAttack {
        /// Its owner.
        seat: Seat,
        /// The attacker.
        minion: u32,
        /// The hero attacked.
        target: Seat,
    },
    /// A minion attacks an enemy minion; both deal their damage at once.
    Fight {
        /// The attacker's owner.
        seat: Seat,
        /// The attacker.
        attacker: u32,
        /// The defender.
        defender: u32,
    },
    /// A minion at 0 health or below leaves the board.
    MinionDied {
        /// Its owner.
        seat: Seat,
        /// Its id.
        minion: u32,
        /// Its card.
        card: String,
    },
    /// A turn ends.
    TurnEnd {
        /// Turn number.
        turn: u32,
        /// The seat whose turn it was.
        seat: Seat,
        /// Mana left unspent.
        mana_wasted: i32,
        /// Why.
        reason: TurnEndReason,
    },
}

impl Ruleset for Tcg {
    type Event = Event;
    type Initial = Initial;

    fn validate(rules: &Rules) -> Result<(), String> {
        validate(rules)
    }

    fn play(rules: &Rules, seed: u64, table: &mut Table<'_, Self>) -> Finish {
        play(rules, seed, table)
    }

    fn describe(event: &Event) -> String {
        describe(event)
    }

    fn picture(initial: &Initial, events: &[Event]) -> Option<String> {
        let mut state = State::new(initial);
        for event in events {
            state.apply(event);
        }
        Some(state.picture())
    }
}

fn validate(rules: &Rules) -> Result<(), String> {
    let check = |ok: bool, message: &str| if ok { Ok(()) } else { Err(message.to_owned()) };
    check(
        (1..=1000).contains(&rules.starting_health),
        "starting_health must be 1..=1000",
    )?;
    check((1..=100).contains(&rules.max_mana), "max_mana must be 1..=100")?;
    check((1..=20).contains(&rules.max_hand), "max_hand must be 1..=20")?;
    check(
        rules.opening_hand <= rules.max_hand,
        "opening_hand must not exceed max_hand",
    )?;
    check(
        (1..=100).contains(&rules.deck_size),
        "deck_size must be 1..=100",
    )?;
    check(
        rules.deck_size > rules.opening_hand + 1,
        "deck_size must exceed opening_hand + 1",
    )?;
    check(
        (1..=20).contains(&rules.max_minions),
        "max_minions must be 1..=20",
    )?;
    check(rules.max_copies >= 1, "max_copies must be at least 1")?;
    check(
        (1..=10_000).contains(&rules.turn_cap),
        "turn_cap must be 1..=10000",
    )?;
    let mut ids = BTreeSet::new();
    for card in &rules.pool {
        let where_ = format!("pool card `{}`", card.id);
        if card.id.is_empty()
            || !card
                .id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(format!(
                "{where_}: ids use letters, digits, `-` and `_` only"
            ));
        }
        if !ids.insert(card.id.as_str()) {
            return Err(format!("{where_} appears twice in the pool"));
        }
        if card.cost < 0 || card.damage < 0 || card.heal < 0 || card.draw < 0 {
            return Err(format!("{where_}: cost and amounts must not be negative"));
        }
        let stray = match card.kind {
            CardKind::Damage => card.heal != 0 || card.draw != 0,
            CardKind::Heal => card.damage != 0 || card.draw != 0,
            CardKind::Draw => card.damage != 0 || card.heal != 0,
        };
        if stray {
            return Err(format!(
                "{where_}: only the amount of its kind may be non-zero"
            ));
        }
    }
    let pool = rules.card_pool();
    if pool.cards.is_empty() {
        return Err("no card of the pool is allowed by the variations in force".to_owned());
    }
    for id in &rules.deck {
        if pool.card(id).is_none() {
            return Err(format!(
                "default deck: card `{id}` is not in the pool in use (is its variation on?)"
            ));
        }
    }
    if rules.deck.len() != rules.deck_size as usize {
        return Err(format!(
            "default deck has {} cards, deck_size is {}",
            rules.deck.len(),
            rules.deck_size
        ));
    }
    if rules.custom_decks && pool.cards.len() as u64 * u64::from(rules.max_copies) < u64::from(rules.deck_size)
    {
        return Err("custom decks: the pool is too small to build a deck".to_owned());
    }
    Ok(())
}

/// A minion as the rules track it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct MinionState {
    id: u32,
    owner: Seat,
    card: String,
    attack: i32,
    health: i32,
    asleep: bool,
    attacked: bool,
}

/// One hero's side.
#[derive(Debug, Clone, Default, PartialEq)]
struct Side {
    health: i32,
    mana: i32,
    slots: i32,
    /// Draw order: index 0 is drawn next.
    deck: Vec<CardInstance>,
    hand: Vec<CardInstance>,
    /// Cards lost to overload.
    discarded: u32,
    /// Spells played and minions died.
    graveyard: u32,
    stats: Counters,
}

#[derive(Debug, Clone, Default, PartialEq)]
struct Counters {
    damage_dealt: i64,
    healing: i64,
    cards_played: i64,
    cards_drawn: i64,
    cards_discarded: i64,
    bleed_out_damage: i64,
    minions_played: i64,
    minions_killed: i64,
    mana_wasted: i64,
    turns: i64,
}

impl Counters {
    fn to_stats(&self) -> Stats {
        let values = [
            self.damage_dealt,
            self.healing,
            self.cards_played,
            self.cards_drawn,
            self.cards_discarded,
            self.bleed_out_damage,
            self.minions_played,
            self.minions_killed,
            self.mana_wasted,
            self.turns,
        ];
        STAT_KEYS
            .iter()
            .zip(values)
            .map(|(k, v)| ((*k).to_owned(), v))
            .collect()
    }
}

/// The state of a match, changed only by [`State::apply`].
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    max_health: i32,
    turn: u32,
    active: Seat,
    sides: [Side; 2],
    board: Vec<MinionState>,
}

impl State {
    /// The state before any event: full health, no mana, full decks, empty hands.
    pub fn new(initial: &Initial) -> State {
        let side = |seat: usize| Side {
            health: initial.starting_health,
            deck: initial.decks[seat].clone(),
            ..Side::default()
        };
        State {
            max_health: initial.starting_health,
            turn: 0,
            active: initial.first_player,
            sides: [side(0), side(1)],
            board: Vec::new(),
        }
    }

    /// Each seat's health.
    pub fn health(&self) -> [i32; 2] {
        [self.sides[0].health, self.sides[1].health]
    }

    /// Each seat's statistics so far.
    pub fn stats(&self) -> [Stats; 2] {
        [self.sides[0].stats.to_stats(), self.sides[1].stats.to_stats()]
    }

    /// Cards of `seat` in deck, hand, discard pile, graveyard and on the board: always the
    /// deck size.
    pub fn card_count(&self, seat: Seat) -> usize {
        let side = &self.sides[usize::from(seat)];
        side.deck.len()
            + side.hand.len()
            + side.discarded as usize
            + side.graveyard as usize
            + self.board.iter().filter(|m| m.owner == seat).count()
    }

    /// `seat`'s mana and mana slots.
    pub fn mana(&self, seat: Seat) -> (i32, i32) {
        let side = &self.sides[usize::from(seat)];
        (side.mana, side.slots)
    }

    /// `seat`'s hand size.
    pub fn hand_size(&self, seat: Seat) -> usize {
        self.sides[usize::from(seat)].hand.len()
    }

    /// Minions on the board (all seats).
    pub fn minion_count(&self) -> usize {
        self.board.len()
    }

    fn side(&mut self, seat: Seat) -> &mut Side {
        &mut self.sides[usize::from(seat)]
    }

    fn minion(&self, id: u32) -> Option<&MinionState> {
        self.board.iter().find(|m| m.id == id)
    }

    fn minion_mut(&mut self, id: u32) -> Option<&mut MinionState> {
        self.board.iter_mut().find(|m| m.id == id)
    }

    /// Apply one event. Events come from the rules (or a verified replay); one that does
    /// not fit the state (a card not in the deck …) changes nothing.
    pub fn apply(&mut self, event: &Event) {
        match event {
            Event::TurnStart {
                turn,
                seat,
                mana_slots,
            } => {
                self.turn = *turn;
                self.active = *seat;
                let side = self.side(*seat);
                side.slots = *mana_slots;
                side.mana = *mana_slots;
                side.stats.turns += 1;
                for minion in self.board.iter_mut().filter(|m| m.owner == *seat) {
                    minion.asleep = false;
                    minion.attacked = false;
                }
            }
            Event::Draw { seat, uid, .. } => {
                let side = self.side(*seat);
                if let Some(pos) = side.deck.iter().position(|c| c.uid == *uid) {
                    let card = side.deck.remove(pos);
                    side.hand.push(card);
                    side.stats.cards_drawn += 1;
                }
            }
            Event::Overload { seat, uid, .. } => {
                let side = self.side(*seat);
                if let Some(pos) = side.deck.iter().position(|c| c.uid == *uid) {
                    side.deck.remove(pos);
                    side.discarded += 1;
                    side.stats.cards_discarded += 1;
                }
            }
            Event::EmptyDeck { .. } => {}
            Event::BleedOut { seat, damage, .. } => {
                let side = self.side(*seat);
                side.health -= damage;
                side.stats.bleed_out_damage += i64::from(*damage);
            }
            Event::Play {
                seat,
                uid,
                play_as,
                cost,
                ..
            } => {
                let side = self.side(*seat);
                if let Some(pos) = side.hand.iter().position(|c| c.uid == *uid) {
                    side.hand.remove(pos);
                    side.mana -= cost;
                    side.stats.cards_played += 1;
                    if *play_as != PlayAs::Minion {
                        side.graveyard += 1;
                    }
                }
            }
            Event::Damage {
                source,
                target,
                amount,
                ..
            } => {
                match target {
                    Victim::Hero(seat) => self.side(*seat).health -= amount,
                    Victim::Minion(id) => {
                        if let Some(minion) = self.minion_mut(*id) {
                            minion.health -= amount;
                        }
                    }
                }
                self.side(*source).stats.damage_dealt += i64::from(*amount);
            }
            Event::Heal { seat, amount, .. } => {
                let side = self.side(*seat);
                side.health += amount;
                side.stats.healing += i64::from(*amount);
            }
            Event::Summon {
                seat,
                minion,
                card,
                attack,
                health,
            } => {
                self.board.push(MinionState {
                    id: *minion,
                    owner: *seat,
                    card: card.clone(),
                    attack: *attack,
                    health: *health,
                    asleep: true,
                    attacked: false,
                });
                self.side(*seat).stats.minions_played += 1;
            }
            Event::MinionAttack { minion, .. }
            | Event::Fight {
                attacker: minion, ..
            } => {
                if let Some(m) = self.minion_mut(*minion) {
                    m.attacked = true;
                }
            }
            Event::MinionDied { seat, minion, .. } => {
                if let Some(pos) = self.board.iter().position(|m| m.id == *minion) {
                    self.board.remove(pos);
                    self.side(*seat).graveyard += 1;
                    self.side(1 - *seat).stats.minions_killed += 1;
                }
            }
            Event::TurnEnd {
                seat, mana_wasted, ..
            } => {
                let side = self.side(*seat);
                side.stats.mana_wasted += i64::from(*mana_wasted);
                side.mana = 0;
            }
        }
    }

    fn public_minion(&self, m: &MinionState) -> Minion {
        Minion {
            id: m.id,
            owner: m.owner,
            card: m.card.clone(),
            attack: m.attack,
            health: m.health,
            asleep: m.asleep,
            can_attack: m.owner == self.active && !m.asleep && !m.attacked,
        }
    }

    fn hero(&self, seat: Seat) -> Hero {
        let side = &self.sides[usize::from(seat)];
        Hero {
            health: side.health,
            mana: side.mana,
            mana_slots: side.slots,
            deck_size: side.deck.len() as u32,
            hand_size: side.hand.len() as u32,
        }
    }

    /// A multi-line picture: each hero with mana, deck and hand, and the board.
    pub fn picture(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "turn {} — seat {} to play",
            self.turn.max(1),
            self.active
        );
        for seat in 0..2u8 {
            let side = &self.sides[usize::from(seat)];
            let marker = if seat == self.active { '>' } else { ' ' };
            let _ = writeln!(
                out,
                "{marker} seat {seat}  health {:>3}/{}  mana {}/{}  deck {:>2}  discarded {}",
                side.health,
                self.max_health,
                side.mana,
                side.slots,
                side.deck.len(),
                side.discarded
            );
            let hand: Vec<String> = side.hand.iter().map(|c| card_label(&c.card)).collect();
            let _ = writeln!(out, "    hand:  {}", or_dash(&hand.join(" ")));
            let minions: Vec<String> = self
                .board
                .iter()
                .filter(|m| m.owner == seat)
                .map(|m| {
                    let zz = if m.asleep { " zz" } else { "" };
                    format!("[#{} {} {}/{}{zz}]", m.id, m.card, m.attack, m.health)
                })
                .collect();
            let _ = writeln!(out, "    board: {}", or_dash(&minions.join(" ")));
        }
        out
    }
}

fn or_dash(text: &str) -> &str {
    if text.is_empty() { "-" } else { text }
}

fn card_label(card: &arena_sdk::tcg::Card) -> String {
    match card.kind {
        CardKind::Damage => format!("[{} {}:{}]", card.id, card.cost, card.damage),
        CardKind::Heal => format!("[{} {}:+{}]", card.id, card.cost, card.heal),
        CardKind::Draw => format!("[{} {}:draw {}]", card.id, card.cost, card.draw),
    }
}

fn describe(event: &Event) -> String {
    let victim = |v: &Victim| match v {
        Victim::Hero(seat) => format!("hero {seat}"),
        Victim::Minion(id) => format!("minion #{id}"),
    };
    match event {
        Event::TurnStart {
            turn,
            seat,
            mana_slots,
        } => format!("turn {turn}: seat {seat} has {mana_slots} mana"),
        Event::Draw { seat, uid, card } => format!("seat {seat} draws {card} (#{uid})"),
        Event::Overload { seat, uid, card } => {
            format!("seat {seat} overloads: {card} (#{uid}) is discarded")
        }
        Event::EmptyDeck { seat } => format!("seat {seat} has no card left to draw"),
        Event::BleedOut {
            seat,
            damage,
            health,
        } => format!("seat {seat} bleeds out: {damage} damage, health {health}"),
        Event::Play {
            seat,
            uid,
            card,
            play_as,
            cost,
            mana_left,
        } => {
            let how = match play_as {
                PlayAs::Spell => "",
                PlayAs::Minion => " as a minion",
                PlayAs::Heal => " to heal",
            };
            format!("seat {seat} plays {card} (#{uid}){how} for {cost} mana, {mana_left} left")
        }
        Event::Damage {
            source,
            target,
            amount,
            health,
        } => format!(
            "seat {source} deals {amount} damage to {}, health {health}",
            victim(target)
        ),
        Event::Heal {
            seat,
            amount,
            health,
        } => format!("seat {seat} heals {amount}, health {health}"),
        Event::Summon {
            seat,
            minion,
            card,
            attack,
            health,
        } => format!("seat {seat} summons {card} #{minion} ({attack}/{health}), asleep"),
        Event::MinionAttack {
            seat,
            minion,
            target,
        } => format!("seat {seat}'s minion #{minion} attacks hero {target}"),
        Event::Fight {
            seat,
            attacker,
            defender,
        } => format!("seat {seat}'s minion #{attacker} fights minion #{defender}"),
        Event::MinionDied { seat, minion, card } => {
            format!("seat {seat}'s {card} #{minion} dies")
        }
        Event::TurnEnd {
            turn,
            seat,
            mana_wasted,
            reason,
        } => {
            let why = match reason {
                TurnEndReason::Chosen => "",
                TurnEndReason::NothingToDo => " (nothing left to do)",
                TurnEndReason::Rejected => " (illegal action)",
                TurnEndReason::Fault => " (fault)",
            };
            format!("turn {turn}: seat {seat} ends its turn{why}, {mana_wasted} mana unspent")
        }
    }
}

/// An action the rules accepted, with everything looked up.
#[derive(Debug, Clone, PartialEq)]
enum Move {
    End,
    Spell { uid: u32, target: Victim },
    Summon { uid: u32 },
    Heal { uid: u32, amount: i32 },
    Draw { uid: u32, cards: i32 },
    AttackHero { minion: u32 },
    Fight { attacker: u32, defender: u32 },
}

/// Check `action` of the active seat against the rules; the error says what is wrong.
fn check(rules: &Rules, state: &State, seat: Seat, action: &Action) -> Result<Move, String> {
    let side = &state.sides[usize::from(seat)];
    let enemy_minion = |id: u32| match state.minion(id) {
        Some(m) if m.owner != seat => Ok(()),
        Some(_) => Err(format!("minion #{id} is your own")),
        None => Err(format!("there is no minion #{id}")),
    };
    match *action {
        Action::EndTurn => Ok(Move::End),
        Action::PlayCard {
            card,
            play_as,
            target,
        } => {
            let Some(instance) = side.hand.iter().find(|c| c.uid == card) else {
                return Err(format!("card #{card} is not in your hand"));
            };
            let c = &instance.card;
            if c.cost > side.mana {
                return Err(format!(
                    "{} (#{card}) costs {} mana, you have {}",
                    c.id, c.cost, side.mana
                ));
            }
            match c.kind {
                CardKind::Heal => Ok(Move::Heal {
                    uid: card,
                    amount: c.heal,
                }),
                CardKind::Draw => Ok(Move::Draw {
                    uid: card,
                    cards: c.draw,
                }),
                CardKind::Damage => match play_as {
                    PlayAs::Spell => match target {
                        Target::Hero => Ok(Move::Spell {
                            uid: card,
                            target: Victim::Hero(1 - seat),
                        }),
                        Target::Minion(id) => {
                            if !rules.minions {
                                return Err("minions are off in these rules".to_owned());
                            }
                            if c.damage == 0 {
                                return Err(format!(
                                    "{} does no damage: play it at the hero",
                                    c.id
                                ));
                            }
                            enemy_minion(id)?;
                            Ok(Move::Spell {
                                uid: card,
                                target: Victim::Minion(id),
                            })
                        }
                    },
                    PlayAs::Minion => {
                        if !rules.minions {
                            return Err("minions are off in these rules".to_owned());
                        }
                        if c.damage == 0 {
                            return Err(format!(
                                "{} does no damage: a minion needs at least 1 health",
                                c.id
                            ));
                        }
                        let mine = state.board.iter().filter(|m| m.owner == seat).count();
                        if mine >= rules.max_minions as usize {
                            return Err(format!(
                                "your board is full ({} minions)",
                                rules.max_minions
                            ));
                        }
                        Ok(Move::Summon { uid: card })
                    }
                    PlayAs::Heal => {
                        if !rules.any_card_heals {
                            return Err(
                                "playing damage cards as heals is off in these rules".to_owned()
                            );
                        }
                        Ok(Move::Heal {
                            uid: card,
                            amount: c.damage,
                        })
                    }
                },
            }
        }
        Action::Attack { minion, target } => {
            if !rules.minions {
                return Err("minions are off in these rules".to_owned());
            }
            let Some(m) = state.minion(minion) else {
                return Err(format!("there is no minion #{minion}"));
            };
            if m.owner != seat {
                return Err(format!("minion #{minion} is not yours"));
            }
            if m.asleep {
                return Err(format!("minion #{minion} is asleep (played this turn)"));
            }
            if m.attacked {
                return Err(format!("minion #{minion} has already attacked this turn"));
            }
            match target {
                Target::Hero => Ok(Move::AttackHero { minion }),
                Target::Minion(id) => {
                    enemy_minion(id)?;
                    Ok(Move::Fight {
                        attacker: minion,
                        defender: id,
                    })
                }
            }
        }
    }
}

/// Every legal action of `seat` now, in a fixed order (hand order, then board order).
fn legal_actions(rules: &Rules, state: &State, seat: Seat) -> Vec<Action> {
    let side = &state.sides[usize::from(seat)];
    let enemies: Vec<u32> = state
        .board
        .iter()
        .filter(|m| m.owner != seat)
        .map(|m| m.id)
        .collect();
    let mut candidates = Vec::new();
    for instance in &side.hand {
        let card = instance.uid;
        let play = |play_as, target| Action::PlayCard {
            card,
            play_as,
            target,
        };
        match instance.card.kind {
            CardKind::Heal => candidates.push(play(PlayAs::Heal, Target::Hero)),
            CardKind::Draw => candidates.push(play(PlayAs::Spell, Target::Hero)),
            CardKind::Damage => {
                candidates.push(play(PlayAs::Spell, Target::Hero));
                candidates.extend(
                    enemies
                        .iter()
                        .map(|&id| play(PlayAs::Spell, Target::Minion(id))),
                );
                candidates.push(play(PlayAs::Minion, Target::Hero));
                if instance.card.damage > 0 {
                    candidates.push(play(PlayAs::Heal, Target::Hero));
                }
            }
        }
    }
    for minion in state.board.iter().filter(|m| m.owner == seat) {
        candidates.push(Action::Attack {
            minion: minion.id,
            target: Target::Hero,
        });
        candidates.extend(enemies.iter().map(|&id| Action::Attack {
            minion: minion.id,
            target: Target::Minion(id),
        }));
    }
    let mut legal: Vec<Action> = candidates
        .into_iter()
        .filter(|a| check(rules, state, seat, a).is_ok())
        .collect();
    legal.push(Action::EndTurn);
    legal
}

/// One match in progress: the rules, the state, and the table every event goes to.
struct Game<'a, 'p> {
    rules: &'a Rules,
    state: State,
    table: &'a mut Table<'p, Tcg>,
    last_rejected: [Option<String>; 2],
}

impl Game<'_, '_> {
    fn emit(&mut self, event: Event) {
        self.state.apply(&event);
        self.table.event(event);
    }

    fn health(&self, seat: Seat) -> i32 {
        self.state.sides[usize::from(seat)].health
    }

    /// Draw one card for `seat`. The turn's draw bleeds on an empty deck; a card drawer's
    /// draw does not (the document ties bleeding to "when it's his turn").
    fn draw(&mut self, seat: Seat, turn_draw: bool) {
        let side = &self.state.sides[usize::from(seat)];
        match side.deck.first() {
            None if turn_draw && self.rules.bleeding_out => {
                let damage = 1;
                let health = side.health - damage;
                self.emit(Event::BleedOut {
                    seat,
                    damage,
                    health,
                });
            }
            None => self.emit(Event::EmptyDeck { seat }),
            Some(top) => {
                let (uid, card) = (top.uid, top.card.id.clone());
                if self.rules.overload && side.hand.len() >= self.rules.max_hand as usize {
                    self.emit(Event::Overload { seat, uid, card });
                } else {
                    self.emit(Event::Draw { seat, uid, card });
                }
            }
        }
    }

    fn observation(&mut self, seat: Seat, legal: Vec<Action>) -> Observation {
        let state = &self.state;
        Observation {
            turn: state.turn,
            turn_cap: self.rules.turn_cap,
            seat,
            heroes: [state.hero(0), state.hero(1)],
            hand: state.sides[usize::from(seat)].hand.clone(),
            board: state.board.iter().map(|m| state.public_minion(m)).collect(),
            legal,
            last_rejected: self.last_rejected[usize::from(seat)].take(),
        }
    }

    fn pay(&mut self, seat: Seat, uid: u32, play_as: PlayAs) -> arena_sdk::tcg::Card {
        let side = &self.state.sides[usize::from(seat)];
        let card = side
            .hand
            .iter()
            .find(|c| c.uid == uid)
            .map(|c| c.card.clone())
            .expect("checked moves play cards from the hand");
        let mana_left = side.mana - card.cost;
        self.emit(Event::Play {
            seat,
            uid,
            card: card.id.clone(),
            play_as,
            cost: card.cost,
            mana_left,
        });
        card
    }

    fn damage(&mut self, source: Seat, target: Victim, amount: i32) {
        let health = match target {
            Victim::Hero(seat) => self.health(seat),
            Victim::Minion(id) => self.state.minion(id).map_or(0, |m| m.health),
        } - amount;
        self.emit(Event::Damage {
            source,
            target,
            amount,
            health,
        });
    }

    fn bury(&mut self, ids: &[u32]) {
        for &id in ids {
            if let Some(m) = self.state.minion(id)
                && m.health <= 0
            {
                let (seat, card) = (m.owner, m.card.clone());
                self.emit(Event::MinionDied {
                    seat,
                    minion: id,
                    card,
                });
            }
        }
    }

    fn perform(&mut self, seat: Seat, mv: Move) {
        match mv {
            Move::End => {}
            Move::Spell { uid, target } => {
                let card = self.pay(seat, uid, PlayAs::Spell);
                if card.damage > 0 {
                    self.damage(seat, target, card.damage);
                }
                if let Victim::Minion(id) = target {
                    self.bury(&[id]);
                }
            }
            Move::Summon { uid } => {
                let card = self.pay(seat, uid, PlayAs::Minion);
                self.emit(Event::Summon {
                    seat,
                    minion: uid,
                    card: card.id,
                    attack: card.damage,
                    health: card.damage,
                });
            }
            Move::Heal { uid, amount } => {
                self.pay(seat, uid, PlayAs::Heal);
                let health = self.health(seat);
                let restored = amount.min(self.state.max_health - health).max(0);
                self.emit(Event::Heal {
                    seat,
                    amount: restored,
                    health: health + restored,
                });
            }
            Move::Draw { uid, cards } => {
                self.pay(seat, uid, PlayAs::Spell);
                for _ in 0..cards {
                    self.draw(seat, false);
                }
            }
            Move::AttackHero { minion } => {
                let attack = self.state.minion(minion).map_or(0, |m| m.attack);
                self.emit(Event::MinionAttack {
                    seat,
                    minion,
                    target: 1 - seat,
                });
                self.damage(seat, Victim::Hero(1 - seat), attack);
            }
            Move::Fight { attacker, defender } => {
                let strength = |id| self.state.minion(id).map_or(0, |m| m.attack);
                let (hit, back) = (strength(attacker), strength(defender));
                self.emit(Event::Fight {
                    seat,
                    attacker,
                    defender,
                });
                // Simultaneous: both amounts were read before either is applied.
                self.damage(seat, Victim::Minion(defender), hit);
                self.damage(1 - seat, Victim::Minion(attacker), back);
                self.bury(&[defender, attacker]);
            }
        }
    }

    fn end_turn(&mut self, turn: u32, seat: Seat, reason: TurnEndReason) {
        let mana_wasted = self.state.sides[usize::from(seat)].mana.max(0);
        self.emit(Event::TurnEnd {
            turn,
            seat,
            mana_wasted,
            reason,
        });
    }

    fn win(&self, winner: Seat, reason: String) -> Finish {
        Finish {
            winner: Some(winner),
            reason,
            stats: self.state.stats(),
        }
    }

    /// The hero of `seat` is dead, if it is.
    fn death(&self, seat: Seat) -> Option<Finish> {
        let health = self.health(seat);
        (health <= 0).then(|| {
            self.win(
                1 - seat,
                format!("seat {seat}'s hero is down to {health} health"),
            )
        })
    }
}

/// The deck of `seat`: its choice if custom decks are on and the choice is valid, else the
/// default deck. Returns the card ids and whether they were chosen.
fn choose_deck(
    rules: &Rules,
    pool: &CardPool,
    seat: Seat,
    choice: Option<DeckChoice>,
    table: &mut Table<'_, Tcg>,
    last_rejected: &mut [Option<String>; 2],
) -> (Vec<String>, bool) {
    if rules.custom_decks
        && let Some(DeckChoice { deck: Some(ids) }) = choice
    {
        match pool.check(&ids) {
            Ok(()) => return (ids, true),
            Err(why) => {
                let reason = format!("deck rejected, the default deck is used: {why}");
                table.reject(seat, reason.clone());
                last_rejected[usize::from(seat)] = Some(reason);
            }
        }
    }
    (rules.deck.clone(), false)
}

fn play(rules: &Rules, seed: u64, table: &mut Table<'_, Tcg>) -> Finish {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let first: Seat = if rules.random_first_player {
        rng.random_range(0..2)
    } else {
        0
    };
    let pool = rules.card_pool();
    let mut last_rejected: [Option<String>; 2] = [None, None];
    let mut decks: [Vec<CardInstance>; 2] = [Vec::new(), Vec::new()];
    let mut chosen = [false; 2];
    for seat in 0..2u8 {
        let request = SetupRequest {
            seat,
            first_player: first,
            choose_deck: rules.custom_decks,
            pool: pool.clone(),
            default_deck: rules.deck.clone(),
        };
        let choice = table.setup(seat, &request);
        let (ids, was_chosen) =
            choose_deck(rules, &pool, seat, choice, table, &mut last_rejected);
        chosen[usize::from(seat)] = was_chosen;
        // Uids are given in list order before shuffling: seat 0 has 1..=n, seat 1 n+1..=2n.
        let base = u32::from(seat) * rules.deck_size;
        decks[usize::from(seat)] = ids
            .iter()
            .enumerate()
            .map(|(i, id)| CardInstance {
                uid: base + i as u32 + 1,
                card: pool.card(id).expect("decks hold pool cards").clone(),
            })
            .collect();
    }
    for deck in &mut decks {
        deck.shuffle(&mut rng);
    }
    let initial = Initial {
        first_player: first,
        starting_health: rules.starting_health,
        decks,
        chosen_deck: chosen,
    };
    let state = State::new(&initial);
    table.set_initial(initial);
    let mut game = Game {
        rules,
        state,
        table,
        last_rejected,
    };

    let second = 1 - first;
    for (seat, extra) in [(first, 0), (second, u32::from(rules.second_player_extra_card))] {
        for _ in 0..rules.opening_hand + extra {
            game.draw(seat, false);
        }
    }

    for turn in 1..=rules.turn_cap {
        game.table.set_turn(turn);
        if let Some(loser) = game.table.forfeited() {
            return game.table.forfeit_finish(loser, game.state.stats());
        }
        let seat = if turn % 2 == 1 { first } else { second };
        let slots = (game.state.sides[usize::from(seat)].slots + 1).min(rules.max_mana);
        game.emit(Event::TurnStart {
            turn,
            seat,
            mana_slots: slots,
        });
        game.draw(seat, true);
        if let Some(finish) = game.death(seat) {
            return finish;
        }
        loop {
            let legal = legal_actions(rules, &game.state, seat);
            if legal.len() == 1 {
                game.end_turn(turn, seat, TurnEndReason::NothingToDo);
                break;
            }
            let observation = game.observation(seat, legal);
            let Some(action) = game.table.act(seat, &observation) else {
                if let Some(loser) = game.table.forfeited() {
                    return game.table.forfeit_finish(loser, game.state.stats());
                }
                game.end_turn(turn, seat, TurnEndReason::Fault);
                break;
            };
            match check(rules, &game.state, seat, &action) {
                Ok(Move::End) => {
                    game.end_turn(turn, seat, TurnEndReason::Chosen);
                    break;
                }
                Ok(mv) => {
                    game.perform(seat, mv);
                    if let Some(finish) = game.death(1 - seat) {
                        return finish;
                    }
                }
                Err(why) => {
                    let reason = format!("turn {turn}: {why}; your turn was ended");
                    game.table.reject(seat, reason.clone());
                    game.last_rejected[usize::from(seat)] = Some(reason);
                    game.end_turn(turn, seat, TurnEndReason::Rejected);
                    break;
                }
            }
        }
    }

    let [h0, h1] = game.state.health();
    let stats = game.state.stats();
    let (winner, reason) = match h0.cmp(&h1) {
        std::cmp::Ordering::Greater => (Some(0), format!("turn cap: seat 0 has more health ({h0} to {h1})")),
        std::cmp::Ordering::Less => (Some(1), format!("turn cap: seat 1 has more health ({h1} to {h0})")),
        std::cmp::Ordering::Equal => (None, format!("turn cap: equal health ({h0})")),
    };
    Finish {
        winner,
        reason,
        stats,
    }
}
