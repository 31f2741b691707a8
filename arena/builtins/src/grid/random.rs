//! `random`: every hero takes one of its legal answers at random.

use arena_sdk::grid::{Action, Grid, Observation, SetupChoice, SetupRequest};
use arena_sdk::{Bot, MatchStart};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// Each turn, one of the acting hero's five answers (north, east, south, west, stay) that
/// the engine takes, chosen uniformly: never a move off the board.
#[derive(Debug, Clone)]
pub struct Random {
    size: (u8, u8),
    rng: ChaCha8Rng,
}

impl Default for Random {
    fn default() -> Self {
        Random {
            size: (0, 0),
            rng: ChaCha8Rng::seed_from_u64(0),
        }
    }
}

impl Bot<Grid> for Random {
    fn start(&mut self, start: &MatchStart<Grid>) {
        self.rng = ChaCha8Rng::seed_from_u64(start.seed);
    }

    fn setup(&mut self, request: &SetupRequest) -> SetupChoice {
        self.size = (request.width, request.height);
        SetupChoice {}
    }

    fn act(&mut self, observation: &Observation) -> Action {
        let (width, height) = self.size;
        let pos = observation.me().pos;
        let legal: Vec<Action> = Action::ALL
            .into_iter()
            .filter(|a| {
                a.direction()
                    .is_none_or(|d| pos.step(d, width, height).is_some())
            })
            .collect();
        *legal.choose(&mut self.rng).unwrap_or(&Action::Stay)
    }
}
