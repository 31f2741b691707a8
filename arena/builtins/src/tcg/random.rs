//! `random`: a random deck (when decks are chosen), a random legal action.

use arena_sdk::tcg::{Action, DeckChoice, Observation, SetupRequest, Tcg};
use arena_sdk::{Bot, MatchStart};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// Random deck (when decks are chosen), random legal action.
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

impl Bot<Tcg> for Random {
    fn start(&mut self, start: &MatchStart<Tcg>) {
        self.rng = ChaCha8Rng::seed_from_u64(start.seed);
    }

    fn setup(&mut self, request: &SetupRequest) -> DeckChoice {
        if !request.choose_deck {
            return DeckChoice::default();
        }
        let pool = &request.pool;
        let mut copies: BTreeMap<&str, u32> = BTreeMap::new();
        let mut deck = Vec::new();
        while deck.len() < pool.deck_size as usize {
            let open: Vec<&str> = pool
                .cards
                .iter()
                .map(|c| c.id.as_str())
                .filter(|id| copies.get(id).copied().unwrap_or(0) < pool.max_copies)
                .collect();
            let Some(&id) = open.choose(&mut self.rng) else {
                return DeckChoice::default();
            };
            *copies.entry(id).or_default() += 1;
            deck.push(id.to_owned());
        }
        DeckChoice { deck: Some(deck) }
    }

    fn act(&mut self, observation: &Observation) -> Action {
        observation
            .legal
            .choose(&mut self.rng)
            .copied()
            .unwrap_or(Action::EndTurn)
    }
}
