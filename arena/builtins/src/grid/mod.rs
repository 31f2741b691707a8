//! Built-in AIs for `grid`: the eleven strategies of the original JS Battle starter kit
//! (hero.js, using the path finding of its helpers.js, which [`Board`](arena_sdk::grid::Board) reproduces) and
//! [`Commander`], our team strategy, and [`Random`], which plays any legal answer.
//!
//! A starter strategy moves every hero of its team the same way, as in the original where
//! each hero ran one strategy; where the original's helper found nothing (no path), the hero
//! stays, as the original engine did with an `undefined` direction.
//!
//! `starter.rs` holds the starter kit's strategies, `commander.rs` the commander.

mod commander;
mod random;
mod starter;

#[cfg(test)]
mod tests;

use crate::{BuiltinInfo, Builtins};
use arena_sdk::grid::Grid;
use arena_sdk::{Bot, Mode};

pub use commander::Commander;
pub use random::Random;
pub use starter::{Starter, Strategy};

const BUILTINS: &[BuiltinInfo] = &[
    BuiltinInfo {
        name: "idle",
        mode: Mode::Grid,
        summary: "the starter kit's hero that answers nothing: every hero stays (as the original did)",
        strength: 1,
    },
    BuiltinInfo {
        name: "northerner",
        mode: Mode::Grid,
        summary: "the starter kit's Northerner: every hero walks north, and stays once it cannot",
        strength: 1,
    },
    BuiltinInfo {
        name: "priest",
        mode: Mode::Grid,
        summary: "below 60 health drinks at a well, else walks into the nearest teammate to heal it",
        strength: 1,
    },
    BuiltinInfo {
        name: "coward",
        mode: Mode::Grid,
        summary: "walks to the nearest health well and keeps drinking",
        strength: 1,
    },
    BuiltinInfo {
        name: "random-walker",
        mode: Mode::Grid,
        summary: "the starter kit's Blind Man: every hero walks north, east, south or west at random",
        strength: 2,
    },
    BuiltinInfo {
        name: "careful-assassin",
        mode: Mode::Grid,
        summary: "below 50 health drinks at a well, else hunts the nearest enemy weaker than itself",
        strength: 3,
    },
    BuiltinInfo {
        name: "selfish-diamond-miner",
        mode: Mode::Grid,
        summary: "like safe-diamond-miner but captures any mine it does not own itself, teammates' too",
        strength: 3,
    },
    BuiltinInfo {
        name: "safe-diamond-miner",
        mode: Mode::Grid,
        summary: "below 40 health (or hurt next to a well) drinks, else captures the nearest mine not its team's",
        strength: 3,
    },
    BuiltinInfo {
        name: "unwise-assassin",
        mode: Mode::Grid,
        summary: "below 30 health drinks at a well, else attacks the nearest enemy, whatever its health",
        strength: 4,
    },
    BuiltinInfo {
        name: "aggressor",
        mode: Mode::Grid,
        summary: "at 30 health or less drinks at a well, else attacks the nearest enemy",
        strength: 4,
    },
    BuiltinInfo {
        name: "health-nut",
        mode: Mode::Grid,
        summary: "at 75 health or less drinks at a well, else captures the nearest mine not its team's",
        strength: 4,
    },
    BuiltinInfo {
        name: "commander",
        mode: Mode::Grid,
        summary: "team tactics: first strikes, focus fire, well-anchored fights, retreats in time, shares out the mines",
        strength: 6,
    },
    // Last, though as weak as the first: added after the others, it leaves the order of
    // the pinned fixture games' pairings as it was.
    BuiltinInfo {
        name: "random",
        mode: Mode::Grid,
        summary: "every hero takes one of its legal answers at random (never a move off the board)",
        strength: 1,
    },
];

impl Builtins for Grid {
    fn builtins() -> &'static [BuiltinInfo] {
        BUILTINS
    }

    fn create(name: &str) -> Option<Box<dyn Bot<Grid> + Send>> {
        if name == "commander" {
            return Some(Box::new(Commander::default()));
        }
        if name == "random" {
            return Some(Box::new(Random::default()));
        }
        Strategy::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .map(|s| Box::new(Starter::new(s)) as Box<dyn Bot<Grid> + Send>)
    }
}
