//! A starting point for a `tcg` bot (docs/rules/tcg.md has the rules and the protocol).
//!
//! Copy this crate, rename it, and improve `act`. Build it with
//! `cargo build --release --target wasm32-unknown-unknown` and play the `.wasm` file
//! against the built-ins (`builtin:random`, `builtin:greedy`, `builtin:planner`) with the
//! `arena` command.
//!
//! What the bot gets each time it is asked (`Observation`): both heroes (health, mana,
//! deck and hand sizes), its own hand, the board, the list of legal actions and, if its
//! previous answer was illegal, why. An illegal answer ends the turn, so answering from
//! `observation.legal` is always safe.

use arena_sdk::tcg::{
    Action, CardKind, DeckChoice, Observation, PlayAs, SetupRequest, Target, Tcg, parse_deck,
};
use arena_sdk::{Bot, MatchStart};

/// The deck file, compiled into the bot ("saved to disk" — variation 5).
const DECK: &str = include_str!("../deck.txt");

/// The bot's state. One value is created per match.
#[derive(Debug, Default)]
pub struct Starter {
    /// Health each hero starts with (from the rules at match start).
    max_health: i32,
}

impl Bot<Tcg> for Starter {
    fn start(&mut self, start: &MatchStart<Tcg>) {
        // The rules say which variations are on (minions, healing, …).
        self.max_health = start.rules.starting_health;
    }

    fn setup(&mut self, request: &SetupRequest) -> DeckChoice {
        if !request.choose_deck {
            // Custom decks are off: everybody plays the default deck.
            return DeckChoice::default();
        }
        // Our deck file, checked against the pool in use; if it does not fit (a card of a
        // variation that is off, say), fall back to the default deck.
        match parse_deck(DECK, &request.pool) {
            Ok(deck) => DeckChoice {
                deck: Some(deck.cards),
            },
            Err(error) => {
                arena_sdk::log(&format!("deck.txt: {error}"));
                DeckChoice::default()
            }
        }
    }

    fn act(&mut self, observation: &Observation) -> Action {
        if let Some(why) = &observation.last_rejected {
            arena_sdk::log(&format!("my last action was rejected: {why}"));
        }
        let me = observation.me();

        // 1. Low on health: heal if we can.
        if me.health * 3 <= self.max_health {
            let heal = observation.legal.iter().find(|action| {
                matches!(
                    action,
                    Action::PlayCard {
                        play_as: PlayAs::Heal,
                        ..
                    }
                )
            });
            if let Some(action) = heal {
                return *action;
            }
        }

        // 2. Minions that may attack hit the enemy hero.
        let attack = observation.legal.iter().find(|action| {
            matches!(
                action,
                Action::Attack {
                    target: Target::Hero,
                    ..
                }
            )
        });
        if let Some(action) = attack {
            return *action;
        }

        // 3. Play the most expensive damage card we can afford at the enemy hero.
        //    (Ideas: play minions, kill dangerous enemy minions, spend mana exactly.)
        let best_spell = observation
            .legal
            .iter()
            .filter_map(|action| match action {
                Action::PlayCard {
                    card,
                    play_as: PlayAs::Spell,
                    target: Target::Hero,
                } => {
                    let card = observation.hand_card(*card)?;
                    (card.card.kind == CardKind::Damage).then_some((card.card.damage, *action))
                }
                _ => None,
            })
            .max_by_key(|(damage, _)| *damage);
        if let Some((_, action)) = best_spell {
            return action;
        }

        // 4. Nothing worth doing: end the turn.
        Action::EndTurn
    }
}

arena_sdk::export_bot!(tcg: Starter);
