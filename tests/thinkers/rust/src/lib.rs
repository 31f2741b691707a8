//! # thinker — a Rust bot that thinks until 80 % of its turn's fuel is spent
//!
//! Every language's thinker (`tests/thinkers/`) plays battle the same way: it fields
//! Glass, Stealth and Nurse, and on each turn reads its budget, "thinks" (reads what is
//! left) until no more than a fifth of the budget is left, logs
//! `thinker: budget B, stopped at L left` and then uses the acting unit's skill when it is
//! ready, else attacks the last legal target. `tests/fuel_budget.rs` checks the logs and
//! the fuel each turn used.

use arena_sdk::battle::{Action, Battle, BotType, Observation, SetupRequest, TeamChoice};
use arena_sdk::{Bot, fuel_budget, fuel_left, log};

/// The bot (no state).
#[derive(Debug, Default)]
pub struct Thinker;

impl Bot<Battle> for Thinker {
    fn setup(&mut self, _request: &SetupRequest) -> TeamChoice {
        log(&format!("thinker: setup budget {}", fuel_budget()));
        TeamChoice {
            team: vec![BotType::Glass, BotType::Stealth, BotType::Nurse],
        }
    }

    fn act(&mut self, observation: &Observation) -> Action {
        let budget = fuel_budget();
        let stop = budget / 5;
        let mut left = fuel_left();
        while left > stop {
            left = fuel_left();
        }
        log(&format!("thinker: budget {budget}, stopped at {left} left"));
        if observation.skill_ready {
            return Action::Skill;
        }
        match observation.legal_targets.last() {
            Some(&target) => Action::Attack { target },
            None => Action::Skill,
        }
    }
}

arena_sdk::export_bot!(battle: Thinker);
