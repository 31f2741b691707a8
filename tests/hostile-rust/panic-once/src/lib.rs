//! # panic-once — a Rust bot that panics on one turn of a match
//!
//! It plays battle like the starter's simplest rule (attack the first legal target) and
//! panics on its first turn numbered [`PANIC_FROM`] or later, but only in an instance that
//! saw an earlier turn. The arena answers the trap by starting a fresh instance, which
//! knows nothing of the old one (its first turn is already past [`PANIC_FROM`]), so it
//! never panics again: the match shows one trap, then turns answered by the bot.

use arena_sdk::Bot;
use arena_sdk::battle::{Action, Battle, BotType, Observation, SetupRequest, TeamChoice};

/// The turn from which an instance that started earlier panics.
pub const PANIC_FROM: u32 = 10;

/// The bot: the number of the first turn this instance saw.
#[derive(Debug, Default)]
pub struct PanicOnce {
    first_turn: Option<u32>,
}

impl Bot<Battle> for PanicOnce {
    fn setup(&mut self, request: &SetupRequest) -> TeamChoice {
        let mut team: Vec<BotType> = request.roster.clone();
        team.truncate(request.team_size as usize);
        TeamChoice { team }
    }

    fn act(&mut self, observation: &Observation) -> Action {
        let first = *self.first_turn.get_or_insert(observation.turn);
        if first < PANIC_FROM && observation.turn >= PANIC_FROM {
            panic!("panic-once: turn {}", observation.turn);
        }
        match observation.legal_targets.first() {
            Some(&target) => Action::Attack { target },
            None => Action::Skill,
        }
    }
}

arena_sdk::export_bot!(battle: PanicOnce);
