//! Mode `tcg`: the rules of the trading card game (docs/rules/tcg.md).
//!
//! The game is event-sourced: the rules decide what happens and emit [`Event`]s, and every
//! change of state is made by [`State::apply`] on an event. The terminal picture of a replay
//! folds the same `apply` over the recorded events, so what `--watch` shows is exactly what
//! the rules saw, and statistics are counted in the same place.

mod frames;

use crate::{Finish, Ruleset, Stats, Table};
use arena_sdk::Seat;
use arena_sdk::tcg::{
    Action, CardInstance, CardKind, CardPool, DeckChoice, Hero, Minion, Observation, PlayAs, Rules,
    SetupRequest, Target,
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

    fn frames(initial: &Initial, events: &[Event]) -> Option<crate::frames::Frames> {
        Some(frames::frames(initial, events))
    }
}

fn validate(rules: &Rules) -> Result<(), String> {
    let check = |ok: bool, message: &str| if ok { Ok(()) } else { Err(message.to_owned()) };
    check(
        (1..=1000).contains(&rules.starting_health),
        "starting_health must be 1..=1000",
    )?;
    check(
        (1..=100).contains(&rules.max_mana),
        "max_mana must be 1..=100",
    )?;
    check(
        (1..=20).contains(&rules.max_hand),
        "max_hand must be 1..=20",
    )?;
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
    check(
        (1..=rules.deck_size).contains(&rules.max_copies),
        "max_copies must be 1..=deck_size",
    )?;
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
        if card.draw > rules.deck_size as i32 {
            return Err(format!(
                "{where_}: draws {} cards; a deck has only {}",
                card.draw, rules.deck_size
            ));
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
    if rules.custom_decks
        && pool.cards.len() as u64 * u64::from(rules.max_copies) < u64::from(rules.deck_size)
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
        [
            self.sides[0].stats.to_stats(),
            self.sides[1].stats.to_stats(),
        ]
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
                    side.mana -= cost;
                    side.stats.cards_played += 1;
                    // A minion's card stays in hand until its `Summon` puts it on the board,
                    // so every card is somewhere after each event.
                    if *play_as != PlayAs::Minion {
                        side.hand.remove(pos);
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
                let side = self.side(*seat);
                if let Some(pos) = side.hand.iter().position(|c| c.uid == *minion) {
                    side.hand.remove(pos);
                }
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
                        if c.damage == 0 {
                            return Err(format!(
                                "`{}` does no damage, so it heals nothing: play it at the enemy hero",
                                c.id
                            ));
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
        let (ids, was_chosen) = choose_deck(rules, &pool, seat, choice, table, &mut last_rejected);
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
    for (seat, extra) in [
        (first, 0),
        (second, u32::from(rules.second_player_extra_card)),
    ] {
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
        std::cmp::Ordering::Greater => (
            Some(0),
            format!("turn cap: seat 0 has more health ({h0} to {h1})"),
        ),
        std::cmp::Ordering::Less => (
            Some(1),
            format!("turn cap: seat 1 has more health ({h1} to {h0})"),
        ),
        std::cmp::Ordering::Equal => (None, format!("turn cap: equal health ({h0})")),
    };
    Finish {
        winner,
        reason,
        stats,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{Entry, verify};
    use crate::{MatchConfig, MatchRecord, NativePlayer, Player, run_match};
    use arena_sdk::tcg::Card;
    use arena_sdk::{Bot, MatchStart};
    use proptest::prelude::*;
    use rand::seq::IndexedRandom;
    use std::cell::RefCell;
    use std::rc::Rc;

    type Script = Box<dyn FnMut(&Observation) -> Action>;

    /// A test bot: a fixed deck choice and a closure for actions; it keeps every
    /// observation it was sent.
    struct FnBot {
        deck: DeckChoice,
        act: Script,
        seen: Rc<RefCell<Vec<Observation>>>,
    }

    impl Bot<Tcg> for FnBot {
        fn setup(&mut self, _request: &SetupRequest) -> DeckChoice {
            self.deck.clone()
        }
        fn act(&mut self, observation: &Observation) -> Action {
            self.seen.borrow_mut().push(observation.clone());
            (self.act)(observation)
        }
    }

    fn fn_bot(act: impl FnMut(&Observation) -> Action + 'static) -> FnBot {
        FnBot {
            deck: DeckChoice::default(),
            act: Box::new(act),
            seen: Rc::default(),
        }
    }

    fn passive() -> FnBot {
        fn_bot(|_| Action::EndTurn)
    }

    /// Plays the first legal card at the enemy hero, as a spell, until none is left.
    fn burner() -> FnBot {
        fn_bot(|o| {
            o.legal
                .iter()
                .find(|a| {
                    matches!(
                        a,
                        Action::PlayCard {
                            play_as: PlayAs::Spell,
                            target: Target::Hero,
                            ..
                        }
                    )
                })
                .copied()
                .unwrap_or(Action::EndTurn)
        })
    }

    fn run(rules: &Rules, seed: u64, a: &mut FnBot, b: &mut FnBot) -> MatchRecord<Tcg> {
        assert_eq!(validate(rules), Ok(()));
        let mut pa = NativePlayer::new(a);
        let mut pb = NativePlayer::new(b);
        let players: [&mut dyn Player<Tcg>; 2] = [&mut pa, &mut pb];
        run_match(&MatchConfig::new(rules.clone(), seed), players)
    }

    impl Bot<Tcg> for &mut FnBot {
        fn setup(&mut self, request: &SetupRequest) -> DeckChoice {
            (**self).setup(request)
        }
        fn act(&mut self, observation: &Observation) -> Action {
            (**self).act(observation)
        }
    }

    fn events(record: &MatchRecord<Tcg>) -> Vec<Event> {
        record.replay.events().cloned().collect()
    }

    fn rejections(record: &MatchRecord<Tcg>) -> Vec<(Seat, String)> {
        record
            .replay
            .log
            .iter()
            .filter_map(|e| match e {
                Entry::Rejected { seat, reason, .. } => Some((*seat, reason.clone())),
                _ => None,
            })
            .collect()
    }

    fn deck_of(id: &str) -> Vec<String> {
        vec![id.to_owned(); 20]
    }

    fn final_state(record: &MatchRecord<Tcg>) -> State {
        let mut state = State::new(record.replay.initial.as_ref().expect("initial recorded"));
        for event in record.replay.events() {
            state.apply(event);
        }
        state
    }

    #[test]
    fn both_decks_are_the_documents_deck() {
        let record = run(&Rules::default(), 3, &mut passive(), &mut passive());
        let initial = record.replay.initial.clone().unwrap();
        let mut uids = BTreeSet::new();
        for deck in &initial.decks {
            let mut costs: Vec<i32> = deck.iter().map(|c| c.card.cost).collect();
            costs.sort();
            assert_eq!(
                costs,
                [0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8]
            );
            assert!(deck.iter().all(|c| c.card.damage == c.card.cost));
            uids.extend(deck.iter().map(|c| c.uid));
        }
        assert_eq!(uids.len(), 40, "uids are unique in the match");
        assert_ne!(initial.decks[0], initial.decks[1], "each deck is shuffled");
        assert_eq!(initial.starting_health, 30);
    }

    #[test]
    fn opening_hands_of_three_and_a_draw_per_turn() {
        let mut a = passive();
        let seen = a.seen.clone();
        // `a` is never asked while it cannot play: give it cards it can always play.
        let rules = Rules {
            deck: deck_of("dud"),
            ..Rules::default()
        };
        let record = run(&rules, 1, &mut a, &mut passive());
        let first = &seen.borrow()[0];
        assert_eq!(first.turn, 1);
        assert_eq!(first.hand.len(), 4, "3 opening cards + the turn's draw");
        assert_eq!(first.heroes[1].hand_size, 3, "the second player has 3");
        assert_eq!(first.me().health, 30);
        assert_eq!(first.me().mana_slots, 1);
        let draws_before_turn_1 = events(&record)
            .iter()
            .take_while(|e| !matches!(e, Event::TurnStart { .. }))
            .filter(|e| matches!(e, Event::Draw { .. }))
            .count();
        assert_eq!(draws_before_turn_1, 6);
    }

    #[test]
    fn mana_slots_grow_by_one_up_to_ten_and_refill() {
        let record = run(&Rules::default(), 5, &mut passive(), &mut passive());
        let slots: Vec<i32> = events(&record)
            .iter()
            .filter_map(|e| match e {
                Event::TurnStart {
                    seat: 0,
                    mana_slots,
                    ..
                } => Some(*mana_slots),
                _ => None,
            })
            .take(13)
            .collect();
        assert_eq!(slots, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]);
        // Mana is refilled: a bot that spends everything has full mana the next turn.
        let mut spender = burner();
        let seen = spender.seen.clone();
        run(&Rules::default(), 5, &mut spender, &mut passive());
        for obs in seen.borrow().iter() {
            assert!(obs.me().mana <= obs.me().mana_slots);
        }
        let first_of_turn: Vec<_> = seen
            .borrow()
            .iter()
            .filter(|o| !o.hand.is_empty())
            .map(|o| (o.turn, o.me().mana, o.me().mana_slots))
            .collect();
        let mut last_turn = 0;
        for (turn, mana, slots) in first_of_turn {
            if turn != last_turn {
                assert_eq!(mana, slots, "turn {turn} starts with full mana");
                last_turn = turn;
            }
        }
    }

    #[test]
    fn bleeding_out_deals_one_damage_per_turn_until_death() {
        // Two passive players: seat 0 draws its 17th and last card on its 17th turn,
        // bleeds 1 on each of its turns 18..=47 and dies on turn 2·47−1 = 93.
        let record = run(&Rules::default(), 11, &mut passive(), &mut passive());
        let bleeds: Vec<(Seat, i32, i32)> = events(&record)
            .iter()
            .filter_map(|e| match e {
                Event::BleedOut {
                    seat,
                    damage,
                    health,
                } => Some((*seat, *damage, *health)),
                _ => None,
            })
            .collect();
        assert!(bleeds.iter().all(|&(_, damage, _)| damage == 1));
        let seat0: Vec<i32> = bleeds.iter().filter(|b| b.0 == 0).map(|b| b.2).collect();
        assert_eq!(seat0, (0..30).rev().collect::<Vec<_>>());
        assert_eq!(record.outcome.winner, Some(1));
        assert_eq!(record.outcome.turns, 93);
        assert_eq!(record.outcome.seats[0].stats["bleed_out_damage"], 30);
        assert_eq!(record.outcome.seats[1].stats["bleed_out_damage"], 29);
        assert!(record.outcome.reason.contains("seat 0"));
    }

    #[test]
    fn overload_discards_the_card_drawn_into_a_hand_of_five() {
        // Opening 3, turn 1 → 4, turn 3 → 5, turn 5: the draw is discarded.
        let record = run(&Rules::default(), 2, &mut passive(), &mut passive());
        let mut turn = 0;
        let mut first_overload = None;
        let mut state = State::new(record.replay.initial.as_ref().unwrap());
        for e in events(&record) {
            state.apply(&e);
            assert!(state.hand_size(0) <= 5 && state.hand_size(1) <= 5);
            match e {
                Event::TurnStart { turn: t, .. } => turn = t,
                Event::Overload { seat: 0, .. } if first_overload.is_none() => {
                    first_overload = Some(turn)
                }
                _ => {}
            }
        }
        assert_eq!(first_overload, Some(5));
        assert_eq!(record.outcome.seats[0].stats["cards_discarded"], 15);
        assert_eq!(record.outcome.seats[0].stats["cards_drawn"], 5);
    }

    #[test]
    fn dud_cards_cost_nothing_and_deal_nothing() {
        let rules = Rules {
            deck: deck_of("dud"),
            turn_cap: 2,
            ..Rules::default()
        };
        let mut a = burner();
        let record = run(&rules, 1, &mut a, &mut passive());
        let evs = events(&record);
        let plays: Vec<_> = evs
            .iter()
            .filter_map(|e| match e {
                Event::Play {
                    cost, mana_left, ..
                } => Some((*cost, *mana_left)),
                _ => None,
            })
            .collect();
        assert_eq!(plays, vec![(0, 1); 4], "four free duds played on turn 1");
        assert!(!evs.iter().any(|e| matches!(e, Event::Damage { .. })));
        assert_eq!(record.outcome.winner, None, "equal health at the cap");
        assert_eq!(record.outcome.seats[0].stats["mana_wasted"], 1);
        assert_eq!(record.outcome.seats[0].stats["cards_played"], 4);
    }

    #[test]
    fn a_hero_at_exactly_zero_loses_at_once() {
        // 3 health, sparks (1 mana, 1 damage): turn 1 deals 1, turn 3 deals 2 → 0.
        let rules = Rules {
            starting_health: 3,
            deck: deck_of("spark"),
            ..Rules::default()
        };
        let record = run(&rules, 4, &mut burner(), &mut passive());
        assert_eq!(record.outcome.winner, Some(0));
        assert_eq!(record.outcome.turns, 3);
        let last_damage = events(&record).iter().rev().find_map(|e| match e {
            Event::Damage { health, .. } => Some(*health),
            _ => None,
        });
        assert_eq!(last_damage, Some(0));
        assert_eq!(record.outcome.seats[0].stats["damage_dealt"], 3);
        assert!(
            !matches!(events(&record).last(), Some(Event::TurnEnd { .. })),
            "the game ends mid-turn"
        );
    }

    #[test]
    fn every_stat_key_for_both_seats() {
        let record = run(&Rules::default(), 8, &mut burner(), &mut burner());
        for seat in &record.outcome.seats {
            let keys: Vec<&str> = seat.stats.keys().map(String::as_str).collect();
            let mut expected = STAT_KEYS.to_vec();
            expected.sort();
            assert_eq!(keys, expected);
        }
        assert!(record.outcome.seats[0].stats["turns"] >= 1);
    }

    #[test]
    fn illegal_action_ends_the_turn_and_is_reported() {
        let mut calls = 0;
        let mut a = fn_bot(move |_| {
            calls += 1;
            if calls == 1 {
                Action::PlayCard {
                    card: 999,
                    play_as: PlayAs::Spell,
                    target: Target::Hero,
                }
            } else {
                Action::EndTurn
            }
        });
        let seen = a.seen.clone();
        let rules = Rules {
            deck: deck_of("dud"),
            turn_cap: 4,
            ..Rules::default()
        };
        let record = run(&rules, 1, &mut a, &mut passive());
        let rejected = rejections(&record);
        assert_eq!(rejected.len(), 1);
        assert_eq!(rejected[0].0, 0);
        assert!(rejected[0].1.contains("card #999 is not in your hand"));
        let seen = seen.borrow();
        assert_eq!(seen[0].last_rejected, None);
        assert_eq!(seen[1].turn, 3, "the rejected action ended turn 1");
        assert!(seen[1].last_rejected.as_deref().unwrap().contains("#999"));
        assert_eq!(seen.get(2).and_then(|o| o.last_rejected.clone()), None);
        assert_eq!(record.outcome.seats[0].invalid_actions, 1);
        assert!(events(&record).iter().any(|e| matches!(
            e,
            Event::TurnEnd {
                turn: 1,
                reason: TurnEndReason::Rejected,
                ..
            }
        )));
    }

    #[test]
    fn unaffordable_and_disabled_plays_are_rejected() {
        let rules = Rules {
            deck: deck_of("bolt"),
            turn_cap: 2,
            ..Rules::default()
        };
        let state_with_hand = |seat: Seat| {
            let record = run(&rules, 1, &mut passive(), &mut passive());
            let mut state = State::new(record.replay.initial.as_ref().unwrap());
            for e in events(&record)
                .iter()
                .take_while(|e| !matches!(e, Event::TurnEnd { .. }))
            {
                state.apply(e);
            }
            let uid = state.sides[usize::from(seat)].hand[0].uid;
            (state, uid)
        };
        let (state, uid) = state_with_hand(0);
        let play = |play_as, target| Action::PlayCard {
            card: uid,
            play_as,
            target,
        };
        let err = check(&rules, &state, 0, &play(PlayAs::Spell, Target::Hero)).unwrap_err();
        assert_eq!(err, format!("bolt (#{uid}) costs 3 mana, you have 1"));
        assert_eq!(legal_actions(&rules, &state, 0), vec![Action::EndTurn]);
        let mut rich = state.clone();
        rich.sides[0].mana = 3;
        assert!(check(&rules, &rich, 0, &play(PlayAs::Spell, Target::Hero)).is_ok());
        for (action, why) in [
            (play(PlayAs::Minion, Target::Hero), "minions are off"),
            (play(PlayAs::Heal, Target::Hero), "heals is off"),
            (play(PlayAs::Spell, Target::Minion(5)), "minions are off"),
        ] {
            assert!(check(&rules, &rich, 0, &action).unwrap_err().contains(why));
        }
        assert_eq!(
            legal_actions(&rules, &rich, 0).len(),
            5,
            "4 bolts + end turn"
        );
    }

    #[test]
    fn turn_cap_goes_to_the_healthier_hero() {
        let rules = Rules {
            turn_cap: 6,
            ..Rules::default()
        };
        let record = run(&rules, 9, &mut passive(), &mut burner());
        assert_eq!(record.outcome.turns, 6);
        assert_eq!(record.outcome.winner, Some(1));
        assert!(
            record
                .outcome
                .reason
                .starts_with("turn cap: seat 1 has more health")
        );
        let record = run(&rules, 9, &mut passive(), &mut passive());
        assert_eq!(record.outcome.winner, None);
        assert_eq!(record.outcome.reason, "turn cap: equal health (30)");
    }

    #[test]
    fn separate_damage_lets_cost_and_damage_differ() {
        let rules = Rules {
            separate_damage: true,
            deck: deck_of("cheap-shot"),
            turn_cap: 1,
            ..Rules::default()
        };
        let record = run(&rules, 1, &mut burner(), &mut passive());
        let damage: Vec<i32> = events(&record)
            .iter()
            .filter_map(|e| match e {
                Event::Damage { amount, .. } => Some(*amount),
                _ => None,
            })
            .collect();
        assert_eq!(damage, [2], "one mana buys one cheap shot of 2 damage");
        let basic = Rules {
            separate_damage: false,
            ..rules
        };
        assert!(validate(&basic).unwrap_err().contains("cheap-shot"));
    }

    #[test]
    fn healing_cards_restore_health_up_to_the_start() {
        let rules = Rules {
            healing: true,
            starting_health: 30,
            deck: [vec!["bolt".to_owned(); 10], vec!["bandage".to_owned(); 10]].concat(),
            turn_cap: 40,
            ..Rules::default()
        };
        // Seat 0 heals whenever it can, seat 1 burns.
        let mut healer = fn_bot(|o| {
            o.legal
                .iter()
                .find(|a| {
                    matches!(
                        a,
                        Action::PlayCard {
                            play_as: PlayAs::Heal,
                            ..
                        }
                    )
                })
                .copied()
                .unwrap_or(Action::EndTurn)
        });
        let record = run(&rules, 6, &mut healer, &mut burner());
        let mut state = State::new(record.replay.initial.as_ref().unwrap());
        let mut heals = Vec::new();
        for e in events(&record) {
            let before = state.health()[0];
            state.apply(&e);
            assert!(state.health()[0] <= 30);
            if let Event::Heal { amount, health, .. } = e {
                assert_eq!(amount, (30 - before).min(2));
                assert_eq!(health, before + amount);
                heals.push(amount);
            }
        }
        assert!(
            heals.contains(&0),
            "a bandage at full health restores nothing"
        );
        assert!(heals.contains(&2));
        assert_eq!(
            record.outcome.seats[0].stats["healing"],
            heals.iter().map(|&h| i64::from(h)).sum::<i64>()
        );
        let off = Rules {
            healing: false,
            ..rules
        };
        assert!(validate(&off).unwrap_err().contains("bandage"));
    }

    #[test]
    fn any_card_heals_plays_damage_cards_as_heals() {
        let rules = Rules {
            any_card_heals: true,
            deck: deck_of("spark"),
            ..Rules::default()
        };
        // Seat 1 burns; seat 0 answers every spark with a heal of 1.
        let mut healer = fn_bot(|o| {
            let heal = o.legal.iter().find(|a| {
                matches!(
                    a,
                    Action::PlayCard {
                        play_as: PlayAs::Heal,
                        ..
                    }
                )
            });
            match heal {
                Some(a) if o.me().health < 30 => *a,
                _ => Action::EndTurn,
            }
        });
        let record = run(&rules, 2, &mut healer, &mut burner());
        let healed = record.outcome.seats[0].stats["healing"];
        assert!(healed > 0);
        assert!(events(&record).iter().any(|e| matches!(
            e,
            Event::Play {
                seat: 0,
                play_as: PlayAs::Heal,
                card,
                ..
            } if card == "spark"
        )));
    }

    #[test]
    fn card_drawers_draw_and_never_bleed() {
        let rules = Rules {
            card_drawers: true,
            deck: deck_of("insight"),
            overload: false,
            ..Rules::default()
        };
        let record = run(&rules, 3, &mut burner(), &mut passive());
        let evs = events(&record);
        // Turn 3 (3 mana): insight draws 2 cards after the turn's draw.
        let turn3: Vec<&Event> = evs
            .iter()
            .skip_while(|e| !matches!(e, Event::TurnStart { turn: 5, .. }))
            .take_while(|e| !matches!(e, Event::TurnEnd { turn: 5, .. }))
            .collect();
        let draws = turn3
            .iter()
            .filter(|e| matches!(e, Event::Draw { seat: 0, .. }))
            .count();
        assert_eq!(draws, 1 + 2, "turn draw plus insight's two");
        assert!(
            evs.iter()
                .any(|e| matches!(e, Event::EmptyDeck { seat: 0 }))
        );
        // Drawers draw from an empty deck without bleeding: seat 0 bleeds only on turns.
        let state = final_state(&record);
        assert_eq!(state.card_count(0), 20);
        assert_eq!(
            record.outcome.seats[0].stats["damage_dealt"], 0,
            "drawers deal no damage"
        );
    }

    #[test]
    fn card_drawers_overload_like_any_draw() {
        let rules = Rules {
            card_drawers: true,
            deck: deck_of("library"),
            turn_cap: 12,
            ..Rules::default()
        };
        let record = run(&rules, 3, &mut burner(), &mut passive());
        let state = final_state(&record);
        assert!(record.outcome.seats[0].stats["cards_discarded"] > 0);
        assert!(state.hand_size(0) <= 5);
        assert_eq!(state.card_count(0), 20);
    }

    /// Custom decks with 20 copies allowed: seat 0 plays bolts (3/3), seat 1 zaps (2/2).
    fn minion_rules() -> Rules {
        Rules {
            minions: true,
            custom_decks: true,
            max_copies: 20,
            ..Rules::default()
        }
    }

    fn with_deck(mut bot: FnBot, id: &str) -> FnBot {
        bot.deck = DeckChoice {
            deck: Some(deck_of(id)),
        };
        bot
    }

    fn first_card(o: &Observation) -> u32 {
        o.hand[0].uid
    }

    fn minion_of(o: &Observation, seat: Seat) -> Option<u32> {
        o.minions_of(seat).map(|m| m.id).next()
    }

    #[test]
    fn minions_sleep_fight_simultaneously_and_die() {
        let summon = |o: &Observation| Action::PlayCard {
            card: first_card(o),
            play_as: PlayAs::Minion,
            target: Target::Hero,
        };
        let mut step0 = 0;
        let bolts = with_deck(
            fn_bot(move |o| {
                step0 += 1;
                match (o.turn, step0) {
                    (5, _) if o.minions_of(0).count() == 0 => summon(o),
                    // Turn 7: the bolt minion attacks the sleeping zap minion, then a bolt
                    // spell hits the hero.
                    (7, _) if o.minions_of(0).count() == 1 => Action::Attack {
                        minion: minion_of(o, 0).unwrap(),
                        target: Target::Minion(minion_of(o, 1).unwrap()),
                    },
                    (7, _) if o.heroes[1].health == 30 => Action::PlayCard {
                        card: first_card(o),
                        play_as: PlayAs::Spell,
                        target: Target::Hero,
                    },
                    // Turn 9: a spell at the zap minion: it does not strike back.
                    (9, _) if minion_of(o, 1).is_some() => Action::PlayCard {
                        card: first_card(o),
                        play_as: PlayAs::Spell,
                        target: Target::Minion(minion_of(o, 1).unwrap()),
                    },
                    _ => Action::EndTurn,
                }
            }),
            "bolt",
        );
        let zaps = with_deck(
            fn_bot(move |o| match o.turn {
                4 if o.minions_of(1).count() == 0 => summon(o),
                // Turn 6: the zap minion attacks the bolt minion, then a new zap minion.
                6 if o.minions_of(1).count() == 1 && o.minions_of(1).all(|m| m.can_attack) => {
                    Action::Attack {
                        minion: minion_of(o, 1).unwrap(),
                        target: Target::Minion(minion_of(o, 0).unwrap()),
                    }
                }
                6 if o.minions_of(1).count() == 0 => summon(o),
                // Turn 8: summon, then try to attack with the sleeping minion.
                8 if o.minions_of(1).count() == 0 => summon(o),
                8 => Action::Attack {
                    minion: minion_of(o, 1).unwrap(),
                    target: Target::Hero,
                },
                _ => Action::EndTurn,
            }),
            "zap",
        );
        let (mut bolts, mut zaps) = (bolts, zaps);
        let zap_seen = zaps.seen.clone();
        let record = run(&minion_rules(), 12, &mut bolts, &mut zaps);
        let rejected = rejections(&record);
        assert_eq!(rejected.len(), 1);
        assert!(rejected[0].1.contains("asleep"), "{rejected:?}");
        let asleep_obs = zap_seen
            .borrow()
            .iter()
            .find(|o| o.turn == 8 && o.board.len() == 1)
            .cloned()
            .unwrap();
        assert!(asleep_obs.board[0].asleep && !asleep_obs.board[0].can_attack);
        assert!(
            !asleep_obs
                .legal
                .iter()
                .any(|a| matches!(a, Action::Attack { .. }))
        );

        let evs = events(&record);
        let summary: Vec<String> = evs
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Summon { .. }
                        | Event::Fight { .. }
                        | Event::MinionDied { .. }
                        | Event::Damage { .. }
                )
            })
            .map(|e| match e {
                Event::Summon {
                    seat,
                    attack,
                    health,
                    ..
                } => format!("summon {seat} {attack}/{health}"),
                Event::Fight { seat, .. } => format!("fight by {seat}"),
                Event::MinionDied { seat, .. } => format!("died {seat}"),
                Event::Damage {
                    source,
                    target,
                    amount,
                    health,
                } => match target {
                    Victim::Hero(s) => format!("{source} hits hero {s} for {amount} → {health}"),
                    Victim::Minion(_) => format!("{source} hits minion for {amount} → {health}"),
                },
                _ => unreachable!(),
            })
            .collect();
        let expected = [
            "summon 1 2/2",             // turn 4
            "summon 0 3/3",             // turn 5
            "fight by 1",               // turn 6: zap attacks bolt
            "1 hits minion for 2 → 1",  // bolt minion 3/3 takes 2
            "0 hits minion for 3 → -1", // zap minion takes 3 at the same time
            "died 1",
            "summon 1 2/2",
            "fight by 0", // turn 7: bolt (3/1) attacks the sleeping zap
            "0 hits minion for 3 → -1",
            "1 hits minion for 2 → -1", // it defends itself
            "died 1",
            "died 0",
            "0 hits hero 1 for 3 → 27", // bolt spell
            "summon 1 2/2",             // turn 8, then the rejected attack
            "0 hits minion for 3 → -1", // turn 9: spell, no retaliation
            "died 1",
        ];
        assert_eq!(summary[..expected.len()], expected);
        assert_eq!(record.outcome.seats[0].stats["minions_killed"], 3);
        assert_eq!(record.outcome.seats[1].stats["minions_killed"], 1);
        assert_eq!(record.outcome.seats[0].stats["minions_played"], 1);
        assert_eq!(record.outcome.seats[1].stats["minions_played"], 3);
        let state = final_state(&record);
        assert_eq!(state.card_count(0), 20);
        assert_eq!(state.card_count(1), 20);
    }

    #[test]
    fn minions_attack_heroes_once_per_turn_and_the_board_has_a_limit() {
        let rules = Rules {
            max_minions: 2,
            ..minion_rules()
        };
        // Seat 0 summons all it can and attacks the hero with every ready minion.
        let mut swarm = with_deck(
            fn_bot(|o| {
                let attack = o.legal.iter().find(|a| {
                    matches!(
                        a,
                        Action::Attack {
                            target: Target::Hero,
                            ..
                        }
                    )
                });
                let summon = o.legal.iter().find(|a| {
                    matches!(
                        a,
                        Action::PlayCard {
                            play_as: PlayAs::Minion,
                            ..
                        }
                    )
                });
                attack.or(summon).copied().unwrap_or(Action::EndTurn)
            }),
            "spark",
        );
        let seen = swarm.seen.clone();
        let record = run(&rules, 4, &mut swarm, &mut passive());
        for o in seen.borrow().iter() {
            assert!(o.minions_of(0).count() <= 2);
            if o.minions_of(0).count() == 2 {
                assert!(!o.legal.iter().any(|a| matches!(
                    a,
                    Action::PlayCard {
                        play_as: PlayAs::Minion,
                        ..
                    }
                )));
            }
        }
        // Turn 1: a 1/1 sleeps. Turn 3: it attacks (29), a second one is summoned. Turn 5
        // on: two attacks a turn.
        let hero_hits: Vec<(u32, i32)> = {
            let mut turn = 0;
            events(&record)
                .iter()
                .filter_map(|e| match e {
                    Event::TurnStart { turn: t, .. } => {
                        turn = *t;
                        None
                    }
                    Event::MinionAttack { .. } => Some((turn, 0)),
                    Event::Damage {
                        target: Victim::Hero(1),
                        health,
                        ..
                    } => Some((turn, *health)),
                    _ => None,
                })
                .filter(|&(_, h)| h != 0)
                .take(5)
                .collect()
        };
        assert_eq!(hero_hits, [(3, 29), (5, 28), (5, 27), (7, 26), (7, 25)]);
        assert_eq!(record.outcome.winner, Some(0));
    }

    #[test]
    fn custom_decks_are_used_checked_and_ignored_when_off() {
        let rules = Rules {
            custom_decks: true,
            ..Rules::default()
        };
        let mut good = with_deck(passive(), "spark");
        good.deck.deck.as_mut().unwrap().truncate(16);
        good.deck
            .deck
            .as_mut()
            .unwrap()
            .extend(["zap", "zap", "bolt", "bolt"].map(String::from));
        let mut too_many = with_deck(passive(), "spark");
        let too_many_seen = too_many.seen.clone();
        let record = run(&rules, 2, &mut good, &mut too_many);
        let initial = record.replay.initial.clone().unwrap();
        assert_eq!(
            initial.chosen_deck,
            [false, false],
            "16 sparks break the copy limit"
        );
        let rejected = rejections(&record);
        assert_eq!(rejected.len(), 2);
        assert!(rejected[0].1.contains("more than 4 copies of `spark`"));

        let mut legal = with_deck(passive(), "spark");
        legal.deck = DeckChoice {
            deck: Some(
                ["spark", "zap", "bolt", "blast", "fireball"]
                    .iter()
                    .flat_map(|id| vec![id.to_string(); 4])
                    .collect(),
            ),
        };
        let mut unknown = passive();
        unknown.deck = DeckChoice {
            deck: Some(vec!["frostbolt".to_owned(); 20]),
        };
        let unknown_seen = unknown.seen.clone();
        let record = run(&rules, 2, &mut legal, &mut unknown);
        let initial = record.replay.initial.clone().unwrap();
        assert_eq!(initial.chosen_deck, [true, false]);
        let mut costs: Vec<i32> = initial.decks[0].iter().map(|c| c.card.cost).collect();
        costs.sort();
        assert_eq!(costs, [[1; 4], [2; 4], [3; 4], [4; 4], [5; 4]].concat());
        let first = unknown_seen.borrow()[0].clone();
        assert!(
            first
                .last_rejected
                .unwrap()
                .contains("unknown card `frostbolt`")
        );
        assert!(too_many_seen.borrow()[0].last_rejected.is_some());

        // Off: the choice is ignored and nobody is rejected.
        let off = Rules::default();
        let record = run(
            &off,
            2,
            &mut with_deck(passive(), "frostbolt"),
            &mut passive(),
        );
        assert!(rejections(&record).is_empty());
        assert_eq!(record.replay.initial.unwrap().chosen_deck, [false, false]);
    }

    #[test]
    fn deck_files_load_and_save_against_the_rules_pool() {
        let rules = Rules::advanced();
        let pool = rules.card_pool();
        let text = "# burn\n4x cheap-shot\n4x ambush\n4 x glass-hammer\n4x potion\n2x insight\nscout\nfireball\n";
        let deck = parse_deck(text, &pool).unwrap();
        assert_eq!(pool.check(&deck.cards), Ok(()));
        assert_eq!(parse_deck(&deck.to_text(), &pool).unwrap(), deck);
        let err = parse_deck(text, &Rules::default().card_pool()).unwrap_err();
        assert_eq!(err.line, 2, "cheap-shot needs separate damage");
        let short = parse_deck("4x bolt\n\n", &pool).unwrap_err();
        assert_eq!(short.line, 2);
        assert_eq!(
            short.to_string(),
            "line 2: the deck has 4 cards, a deck needs exactly 20"
        );
    }

    #[test]
    fn second_player_extra_card_and_random_first_player() {
        let rules = Rules {
            second_player_extra_card: true,
            deck: deck_of("dud"),
            ..Rules::default()
        };
        let mut b = passive();
        let seen = b.seen.clone();
        run(&rules, 1, &mut passive(), &mut b);
        assert_eq!(
            seen.borrow()[0].hand.len(),
            5,
            "3 + 1 extra + the turn's draw"
        );

        let random = Rules {
            random_first_player: true,
            ..Rules::default()
        };
        let firsts: BTreeSet<Seat> = (0..20)
            .map(|seed| {
                run(&random, seed, &mut passive(), &mut passive())
                    .replay
                    .initial
                    .unwrap()
                    .first_player
            })
            .collect();
        assert_eq!(firsts.len(), 2);
        let record = run(&random, 3, &mut passive(), &mut passive());
        let first = record.replay.initial.as_ref().unwrap().first_player;
        assert!(matches!(
            events(&record).iter().find(|e| matches!(e, Event::TurnStart { .. })),
            Some(Event::TurnStart { seat, .. }) if *seat == first
        ));
    }

    #[test]
    fn special_rules_can_be_switched_off() {
        let rules = Rules {
            bleeding_out: false,
            overload: false,
            turn_cap: 60,
            ..Rules::default()
        };
        let record = run(&rules, 5, &mut passive(), &mut passive());
        let evs = events(&record);
        assert!(
            !evs.iter()
                .any(|e| matches!(e, Event::BleedOut { .. } | Event::Overload { .. }))
        );
        assert_eq!(final_state(&record).hand_size(0), 20);
        assert_eq!(record.outcome.winner, None);
        assert_eq!(record.outcome.turns, 60);
    }

    #[test]
    fn validate_names_what_is_wrong() {
        let bad = |r: Rules| validate(&r).unwrap_err();
        assert!(
            bad(Rules {
                deck_size: 19,
                ..Rules::default()
            })
            .contains("default deck has 20 cards")
        );
        assert!(
            bad(Rules {
                turn_cap: 0,
                ..Rules::default()
            })
            .contains("turn_cap")
        );
        let mut dup = Rules::default();
        dup.pool.push(Card::damage("bolt", 1, 1));
        assert!(bad(dup).contains("appears twice"));
        let mut odd = Rules::default();
        odd.pool.push(Card::damage("two words", 1, 1));
        assert!(bad(odd).contains("letters, digits"));
        assert_eq!(validate(&Rules::default()), Ok(()));
        assert_eq!(validate(&Rules::advanced()), Ok(()));
    }

    #[test]
    fn replay_verifies_and_is_byte_identical_for_a_seed() {
        let rules = Rules::advanced();
        let play = || {
            let mut a = random_bot(1);
            let mut b = random_bot(2);
            let mut pa = NativePlayer::new(&mut a);
            let mut pb = NativePlayer::new(&mut b);
            let players: [&mut dyn Player<Tcg>; 2] = [&mut pa, &mut pb];
            run_match(&MatchConfig::new(rules.clone(), 77), players)
        };
        let record = play();
        assert_eq!(verify(&record.replay), Ok(()));
        let once = serde_json::to_string(&record.replay).unwrap();
        let twice = serde_json::to_string(&play().replay).unwrap();
        assert_eq!(once, twice);
        let mut tampered = record.replay.clone();
        tampered.seed += 1;
        assert!(verify(&tampered).is_err());
    }

    #[test]
    fn picture_shows_heroes_mana_hands_and_board() {
        let mut a = with_deck(
            fn_bot(|o| {
                o.legal
                    .iter()
                    .find(|a| {
                        matches!(
                            a,
                            Action::PlayCard {
                                play_as: PlayAs::Minion,
                                ..
                            }
                        )
                    })
                    .copied()
                    .unwrap_or(Action::EndTurn)
            }),
            "spark",
        );
        let record = run(&minion_rules(), 1, &mut a, &mut passive());
        let evs = events(&record);
        let initial = record.replay.initial.as_ref().unwrap();
        let cut = evs
            .iter()
            .position(|e| matches!(e, Event::TurnEnd { turn: 1, .. }))
            .unwrap();
        let picture = Tcg::picture(initial, &evs[..=cut]).unwrap();
        assert!(
            picture.contains("seat 0  health  30/30  mana 0/1"),
            "{picture}"
        );
        assert!(picture.contains("[spark 1:1]"), "{picture}");
        assert!(picture.contains("spark 1/1 zz]"), "{picture}");
        assert_eq!(picture.lines().count(), 7);
        for e in &evs {
            assert!(!Tcg::describe(e).is_empty());
        }
    }

    /// A random bot for property tests: random deck when asked, random legal action, and
    /// now and then an illegal one.
    struct RandomBot {
        rng: ChaCha8Rng,
    }

    fn random_bot(seed: u64) -> RandomBot {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    impl Bot<Tcg> for RandomBot {
        fn start(&mut self, start: &MatchStart<Tcg>) {
            self.rng = ChaCha8Rng::seed_from_u64(start.seed);
        }
        fn setup(&mut self, request: &SetupRequest) -> DeckChoice {
            let ids: Vec<String> = request.pool.cards.iter().map(|c| c.id.clone()).collect();
            let mut deck = Vec::new();
            while deck.len() < request.pool.deck_size as usize {
                let id = ids.choose(&mut self.rng).unwrap().clone();
                if deck.iter().filter(|d| **d == id).count() < request.pool.max_copies as usize {
                    deck.push(id);
                }
            }
            DeckChoice { deck: Some(deck) }
        }
        fn act(&mut self, observation: &Observation) -> Action {
            if rand::Rng::random_bool(&mut self.rng, 0.03) {
                return Action::Attack {
                    minion: rand::Rng::random_range(&mut self.rng, 0..50),
                    target: Target::Hero,
                };
            }
            *observation.legal.choose(&mut self.rng).unwrap()
        }
    }

    impl Bot<Tcg> for &mut RandomBot {
        fn start(&mut self, start: &MatchStart<Tcg>) {
            (**self).start(start)
        }
        fn setup(&mut self, request: &SetupRequest) -> DeckChoice {
            (**self).setup(request)
        }
        fn act(&mut self, observation: &Observation) -> Action {
            (**self).act(observation)
        }
    }

    fn any_rules() -> impl Strategy<Value = Rules> {
        (
            proptest::collection::vec(any::<bool>(), 10),
            1..=40i32,
            prop_oneof![Just(200u32), 1..60u32],
        )
            .prop_map(|(flags, health, turn_cap)| Rules {
                separate_damage: flags[0],
                healing: flags[1],
                any_card_heals: flags[2],
                card_drawers: flags[3],
                minions: flags[4],
                custom_decks: flags[5],
                bleeding_out: flags[6],
                overload: flags[7],
                second_player_extra_card: flags[8],
                random_first_player: flags[9],
                starting_health: health,
                turn_cap,
                ..Rules::default()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        #[test]
        fn invariants_hold_in_random_games(rules in any_rules(), seed in any::<u64>()) {
            let mut a = random_bot(0);
            let mut b = random_bot(0);
            let mut pa = NativePlayer::new(&mut a);
            let mut pb = NativePlayer::new(&mut b);
            let players: [&mut dyn Player<Tcg>; 2] = [&mut pa, &mut pb];
            let record = run_match(&MatchConfig::new(rules.clone(), seed), players);

            // Every game ends, within the cap.
            prop_assert!(record.outcome.turns <= rules.turn_cap);
            let mut state = State::new(record.replay.initial.as_ref().unwrap());
            for event in record.replay.events() {
                state.apply(event);
                for seat in 0..2u8 {
                    prop_assert!(state.health()[usize::from(seat)] <= rules.starting_health);
                    let (mana, slots) = state.mana(seat);
                    prop_assert!(0 <= mana && mana <= slots && slots <= rules.max_mana);
                    prop_assert_eq!(state.card_count(seat), rules.deck_size as usize);
                    if rules.overload {
                        prop_assert!(state.hand_size(seat) <= rules.max_hand as usize);
                    }
                    let minions = state.board.iter().filter(|m| m.owner == seat).count();
                    prop_assert!(minions <= rules.max_minions as usize);
                }
                if matches!(event, Event::TurnEnd { .. }) {
                    prop_assert!(state.board.iter().all(|m| m.health > 0));
                }
                if !rules.minions {
                    prop_assert_eq!(state.minion_count(), 0);
                }
            }
            // The outcome agrees with the final state.
            let [h0, h1] = state.health();
            match record.outcome.winner {
                Some(w) if !record.outcome.reason.starts_with("turn cap") => {
                    prop_assert!(state.health()[usize::from(1 - w)] <= 0);
                }
                Some(0) => prop_assert!(h0 > h1),
                Some(_) => prop_assert!(h1 > h0),
                None => prop_assert_eq!(h0, h1),
            }
            prop_assert_eq!(&record.outcome.seats[0].stats, &state.stats()[0]);
            prop_assert_eq!(verify(&record.replay), Ok(()));
        }
    }
}
