//! `random`: a random party, a random legal command.

use arena_sdk::dungeon::{Action, Class, Dungeon, Observation, SetupChoice, SetupRequest};
use arena_sdk::{Bot, MatchStart};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// Random party, random legal command.
#[derive(Debug)]
pub struct Random {
    rng: ChaCha8Rng,
}

impl Default for Random {
    fn default() -> Self {
        Random {
            rng: ChaCha8Rng::seed_from_u64(0),
        }
    }
}

impl Bot<Dungeon> for Random {
    fn start(&mut self, start: &MatchStart<Dungeon>) {
        self.rng = ChaCha8Rng::seed_from_u64(start.seed);
    }

    fn setup(&mut self, request: &SetupRequest) -> SetupChoice {
        let party = (0..request.party_size)
            .map(|_| *Class::ALL.choose(&mut self.rng).unwrap_or(&Class::Warrior))
            .collect();
        SetupChoice { party }
    }

    fn act(&mut self, observation: &Observation) -> Action {
        observation
            .legal
            .choose(&mut self.rng)
            .copied()
            .unwrap_or_else(|| super::fallback(observation))
    }
}
