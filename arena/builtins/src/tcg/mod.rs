//! Built-in AIs for `tcg`: [`Random`], [`Greedy`] and [`Planner`].
//!
//! One file per AI; this one holds the list and the deck building they share.

mod greedy;
mod planner;
#[cfg(test)]
use planner::{best_subset, best_subset_by_trying};
mod random;

#[cfg(test)]
mod tests;

use crate::{BuiltinInfo, Builtins};
use arena_sdk::tcg::{CardPool, DeckChoice, SetupRequest, Tcg};
use arena_sdk::{Bot, Mode};
use std::collections::BTreeMap;

pub use greedy::Greedy;
pub use planner::Planner;
pub use random::Random;

const BUILTINS: &[BuiltinInfo] = &[
    BuiltinInfo {
        name: "random",
        mode: Mode::Tcg,
        summary: "random deck; plays a random legal action each time (ending the turn included)",
        strength: 1,
    },
    BuiltinInfo {
        name: "greedy",
        mode: Mode::Tcg,
        summary: "most damage per mana at the enemy hero, minions attack the hero, heals when low",
        strength: 2,
    },
    BuiltinInfo {
        name: "planner",
        mode: Mode::Tcg,
        summary: "searches the turn's action sequences: lethal detection, minion trades, healing",
        strength: 3,
    },
];

impl Builtins for Tcg {
    fn builtins() -> &'static [BuiltinInfo] {
        BUILTINS
    }

    fn create(name: &str) -> Option<Box<dyn Bot<Tcg> + Send>> {
        match name {
            "random" => Some(Box::new(Random::default())),
            "greedy" => Some(Box::new(Greedy::default())),
            "planner" => Some(Box::new(Planner::default())),
            _ => None,
        }
    }
}

/// Build a deck on the cost curve of `request.default_deck`, putting in each slot the card
/// `value` likes best among those costing `cost_of_slot`, or up to one more if nothing there
/// is worth anything (`value` ≤ 0, e.g. duds).
fn curve_deck(request: &SetupRequest, value: impl Fn(&arena_sdk::tcg::Card) -> f64) -> DeckChoice {
    let pool: &CardPool = &request.pool;
    let mut slots: Vec<i32> = request
        .default_deck
        .iter()
        .filter_map(|id| pool.card(id).map(|c| c.cost))
        .collect();
    slots.sort_unstable();
    let mut copies: BTreeMap<&str, u32> = BTreeMap::new();
    let mut deck = Vec::new();
    for cost in slots {
        let pick = |lo: i32, hi: i32, copies: &BTreeMap<&str, u32>| {
            pool.cards
                .iter()
                .filter(|c| (lo..=hi).contains(&c.cost))
                .filter(|c| copies.get(c.id.as_str()).copied().unwrap_or(0) < pool.max_copies)
                .max_by(|a, b| {
                    value(a)
                        .total_cmp(&value(b))
                        .then(b.cost.cmp(&a.cost))
                        .then(b.id.cmp(&a.id))
                })
        };
        let mut card = pick(cost, cost, &copies);
        if card.is_none_or(|c| value(c) <= 0.0) {
            card = pick(cost, cost + 1, &copies).or(card);
        }
        let card = card.or_else(|| {
            pool.cards
                .iter()
                .filter(|c| copies.get(c.id.as_str()).copied().unwrap_or(0) < pool.max_copies)
                .min_by_key(|c| c.cost)
        });
        let Some(card) = card else {
            return DeckChoice::default();
        };
        *copies.entry(card.id.as_str()).or_default() += 1;
        deck.push(card.id.clone());
    }
    if deck.len() != pool.deck_size as usize {
        return DeckChoice::default();
    }
    DeckChoice { deck: Some(deck) }
}
