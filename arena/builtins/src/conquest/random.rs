//! [`Random`]: the baseline every bot should beat.

use super::Turn;
use arena_sdk::conquest::{Conquest, Kind, Observation, Orders, SetupChoice, SetupRequest};
use arena_sdk::{Bot, MatchStart};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Recruits a random affordable kind onto each free tile next to its home with even odds,
/// then moves each army to a random legal destination (water included) or leaves it.
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

impl Bot<Conquest> for Random {
    fn start(&mut self, start: &MatchStart<Conquest>) {
        self.rng = ChaCha8Rng::seed_from_u64(start.seed);
    }

    fn setup(&mut self, _request: &SetupRequest) -> SetupChoice {
        SetupChoice::default()
    }

    fn act(&mut self, obs: &Observation) -> Orders {
        let mut turn = Turn::new(obs);
        for at in turn.board.recruit_spots(turn.seat) {
            if self.rng.random_bool(0.5) {
                let kinds: Vec<Kind> = Kind::ALL
                    .into_iter()
                    .filter(|k| turn.stock.covers(k.price()))
                    .collect();
                if let Some(&kind) = kinds.choose(&mut self.rng) {
                    turn.recruit(kind, at);
                }
            }
        }
        for army in turn.movable() {
            // The army may have fallen to an earlier order of this turn.
            let Some(current) = turn
                .board
                .armies()
                .iter()
                .find(|a| a.id == army.id)
                .copied()
            else {
                continue;
            };
            let destinations = turn.board.destinations(&current);
            if self.rng.random_bool(0.8)
                && let Some(&to) = destinations.choose(&mut self.rng)
            {
                turn.order(&current, to);
                if turn.won {
                    break;
                }
            }
        }
        turn.orders
    }
}
