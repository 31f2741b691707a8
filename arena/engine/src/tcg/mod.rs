//! Mode `tcg`: the rules of the trading card game (docs/rules/tcg.md).
//!
//! The game is event-sourced: the rules decide what happens and emit [`Event`]s, and every
//! change of state is made by [`State::apply`] on an event. The terminal picture of a replay
//! folds the same `apply` over the recorded events, so what `--watch` shows is exactly what
//! the rules saw, and statistics are counted in the same place.
//!
//! The files: `rules.rs` holds the checks of rules files and actions and the list of legal
//! actions; `play.rs` the state, the events that change it and the match loop; `view.rs` the
//! event text and the terminal picture; `tests.rs` the tests.

mod frames;
mod human;
mod play;
mod rules;
mod view;

#[cfg(test)]
mod tests;

use crate::{Finish, Ruleset, Table};
use arena_sdk::Seat;
use arena_sdk::tcg::{Action, CardInstance, PlayAs, Rules, Target};
use serde::{Deserialize, Serialize};

pub use arena_sdk::tcg::{
    Deck, DeckError, DeckErrorKind, Tcg, default_pool, parse_deck, standard_deck,
};

pub use play::State;
pub use rules::STAT_KEYS;

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

/// What a bot was offered with a turn request, compactly: the hand cards it may play and
/// how, and the minion attacks it may make. A damage spell that is offered may target the
/// enemy hero or any enemy minion; ending the turn is always legal. (`{"plays": [[12,
/// "spell"], [12, "minion"]], "attacks": [[7, "hero"], [7, {"minion": 30}]]}`.)
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    /// `[card uid, how]` for every legal way to play a hand card.
    pub plays: Vec<(u32, PlayAs)>,
    /// `[minion, target]` for every legal attack.
    pub attacks: Vec<(u32, Target)>,
}

impl Offer {
    /// The compact form of the engine's list of legal actions.
    pub fn of(legal: &[Action]) -> Offer {
        let mut offer = Offer::default();
        for action in legal {
            match *action {
                Action::PlayCard { card, play_as, .. } => {
                    if !offer.plays.contains(&(card, play_as)) {
                        offer.plays.push((card, play_as));
                    }
                }
                Action::Attack { minion, target } => offer.attacks.push((minion, target)),
                Action::EndTurn => {}
            }
        }
        offer
    }
}

/// The tables of a tcg replay's header: the card pool in force (the rules' pool without
/// the cards of variations that are off) and every variation switch by name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tables {
    /// The cards a deck may hold under these rules.
    pub pool: Vec<arena_sdk::tcg::Card>,
    /// The special rules and variations (every on/off field of the rules): name → on.
    pub switches: std::collections::BTreeMap<String, bool>,
}

/// The tables in force under `rules`. The switches are the rules' own on/off fields, read
/// from their serialized form, so a new variation appears here without being listed again.
pub fn tables(rules: &Rules) -> Tables {
    let switches = match serde_json::to_value(rules) {
        Ok(serde_json::Value::Object(fields)) => fields
            .into_iter()
            .filter_map(|(name, value)| value.as_bool().map(|on| (name, on)))
            .collect(),
        _ => std::collections::BTreeMap::new(),
    };
    Tables {
        pool: rules.card_pool().cards,
        switches,
    }
}

/// Everything that happens in a match, with its numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Event {
    /// Who plays turn 1: drawn at random (`random: true`, the roll is the seat) under
    /// `random_first_player`, else seat 0 by rule. A roll record (see
    /// [`Ruleset::is_roll`]).
    FirstPlayer {
        /// The seat.
        seat: Seat,
        /// Whether it was drawn.
        random: bool,
    },
    /// A deck after shuffling: the card uids in draw order (the first is drawn first). A
    /// roll record.
    Shuffled {
        /// Whose deck.
        seat: Seat,
        /// The uids, in draw order.
        order: Vec<u32>,
    },
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
    /// The match is over: the last event of every match.
    GameEnd {
        /// The winner, or `None` for a draw.
        winner: Option<Seat>,
        /// Why it ended.
        reason: String,
    },
}
impl Ruleset for Tcg {
    const DRAWING: Option<&'static str> = Some(include_str!("viewer.js"));

    const DECKS: Option<crate::DeckFormat> = Some(crate::DeckFormat {
        read: read_deck,
        size: |rules| Ok(rules_of(rules)?.deck_size as usize),
        write: |cards| {
            Deck {
                cards: cards.to_vec(),
            }
            .to_text()
        },
        played: |initial, seat| {
            let initial: Initial =
                serde_json::from_value(initial.clone()).map_err(|e| e.to_string())?;
            let deck = initial.decks.get(usize::from(seat)).ok_or("no such seat")?;
            Ok(deck.iter().map(|c| c.card.id.clone()).collect())
        },
    });

    type Event = Event;
    type Initial = Initial;
    type Offer = Offer;

    fn is_end(event: &Event) -> bool {
        matches!(event, Event::GameEnd { .. })
    }

    fn validate(rules: &Rules) -> Result<(), String> {
        rules::validate(rules)
    }

    fn play(rules: &Rules, seed: u64, table: &mut Table<'_, Self>) -> Finish {
        play::play(rules, seed, table)
    }

    fn describe(event: &Event) -> String {
        view::describe(event)
    }

    /// A seat sees its own hand, not the other's, and no deck's order.
    fn describe_for(event: &Event, viewer: Seat) -> Option<String> {
        match event {
            Event::Shuffled { .. } => None,
            Event::Draw { seat, .. } if *seat != viewer => {
                Some(format!("seat {seat} draws a card"))
            }
            Event::Overload { seat, .. } if *seat != viewer => {
                Some(format!("seat {seat} overloads: a card is discarded"))
            }
            _ => Some(view::describe(event)),
        }
    }

    fn tables(rules: &Rules) -> serde_json::Value {
        serde_json::to_value(tables(rules)).expect("the tables serialize")
    }

    fn offered_choices(offer: &Offer, answer: Option<&Action>) -> Vec<crate::Choice> {
        let target = |target: Target| match target {
            Target::Hero => "hero".to_owned(),
            Target::Minion(id) => format!("minion {id}"),
        };
        // A damage spell's target is the bot's pick among all enemies: the offer names the
        // card and how it is played, and so does the mark. A card offered one way only (a
        // heal or draw card) is played that way whatever `play_as` says. An answer the rules
        // then reject loses its mark where the rejection is recorded (the viewer).
        let ways = |card: u32| offer.plays.iter().filter(|&&(c, _)| c == card).count();
        let plays = offer.plays.iter().map(|&(card, how)| crate::Choice {
            text: format!("play {card} as {}", format!("{how:?}").to_lowercase()),
            chosen: matches!(answer, Some(&Action::PlayCard { card: c, play_as, .. })
                if c == card && (play_as == how || ways(card) == 1)),
        });
        let attacks = offer.attacks.iter().map(|&(minion, to)| {
            crate::Choice::of(
                format!("minion {minion} → {}", target(to)),
                &Action::Attack { minion, target: to },
                answer,
            )
        });
        let end = crate::Choice::of("end turn", &Action::EndTurn, answer);
        plays.chain(attacks).chain([end]).collect()
    }

    fn is_roll(event: &Event) -> bool {
        matches!(event, Event::FirstPlayer { .. } | Event::Shuffled { .. })
    }

    fn sketch(initial: &Initial) -> Option<Box<dyn crate::Sketch<Event>>> {
        Some(Box::new(State::new(initial)))
    }

    fn frames(initial: &Initial, events: &[Event]) -> Option<crate::frames::Frames> {
        Some(frames::frames(initial, events))
    }
}

/// The tcg rules in `rules` (JSON; `null` for the defaults).
fn rules_of(rules: &serde_json::Value) -> Result<Rules, String> {
    if rules.is_null() {
        return Ok(Rules::default());
    }
    serde_json::from_value(rules.clone()).map_err(|e| format!("tcg rules: {e}"))
}

/// A deck file's card ids, checked against the card pool of `rules`; the error names the
/// line.
fn read_deck(text: &str, rules: &serde_json::Value) -> Result<Vec<String>, String> {
    let pool = rules_of(rules)?.card_pool();
    parse_deck(text, &pool)
        .map(|deck| deck.cards)
        .map_err(|e| e.to_string())
}
