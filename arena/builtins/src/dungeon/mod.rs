//! Built-in AIs for `dungeon`, weakest first:
//!
//! - `random` ([`Random`]): a random party; a random legal command.
//! - `heuristic` ([`Heuristic`]): a balanced party; heals the hurt, focuses the weakest
//!   monster with the hardest affordable hit, keeps the cleric's mana for healing.
//! - `strong` ([`Strong`]): three warriors and a rogue; scores every legal command by
//!   the damage it prevents (threat of the monster, kills before it acts, the monsters'
//!   queued abilities against the heroes they may hit) against the mana it costs.
//!
//! The helpers here predict what a command does with the rules' formulas, as every bot can.

mod heuristic;
mod random;
mod strong;

#[cfg(test)]
mod tests;

pub use heuristic::Heuristic;
pub use random::Random;
pub use strong::Strong;

use crate::{BuiltinInfo, Builtins};
use arena_sdk::dungeon::{
    Ability, Action, Dungeon, Family, Hero, Monster, Observation, Target, power,
};
use arena_sdk::{Bot, Mode};

const BUILTINS: &[BuiltinInfo] = &[
    BuiltinInfo {
        name: "random",
        mode: Mode::Dungeon,
        summary: "random party; a random legal command",
        strength: 1,
    },
    BuiltinInfo {
        name: "heuristic",
        mode: Mode::Dungeon,
        summary: "warrior, cleric, mage, rogue; heals the hurt, hits the weakest monster hardest, saves the cleric's mana",
        strength: 2,
    },
    BuiltinInfo {
        name: "strong",
        mode: Mode::Dungeon,
        summary: "three warriors and a rogue; scores every command by the damage it prevents, kills before monsters act, times heals",
        strength: 3,
    },
];

impl Builtins for Dungeon {
    fn builtins() -> &'static [BuiltinInfo] {
        BUILTINS
    }

    fn create(name: &str) -> Option<Box<dyn Bot<Dungeon> + Send>> {
        match name {
            "random" => Some(Box::new(Random::default())),
            "heuristic" => Some(Box::new(Heuristic)),
            "strong" => Some(Box::new(Strong::default())),
            _ => None,
        }
    }
}

/// What `action` by `hero` does to its target: damage (positive) or healing (negative),
/// with the dragons' reduction and the undead's hurt from healing.
pub fn effect(hero: &Hero, action: Action, observation: &Observation) -> i64 {
    let amount = i64::from(power(action.ability, hero.stats, hero.level));
    match action.target {
        Target::Monster(id) => {
            let Some(m) = observation.monsters.get(usize::from(id)) else {
                return 0;
            };
            if action.ability == Ability::Heal && m.family != Family::Undead {
                return -amount;
            }
            i64::from(m.kind.damage_taken(u32::try_from(amount).unwrap_or(0)))
        }
        Target::Hero(_) => -amount,
    }
}

/// Damage `ability` of `monster` does to a hero.
pub fn monster_hit(monster: &Monster, ability: Ability) -> u32 {
    match ability {
        Ability::Regenerate => 0,
        a => power(a, monster.stats, monster.level),
    }
}

/// A monster's damage per turn, averaged over its command queue.
pub fn threat(monster: &Monster) -> f64 {
    let total: u32 = monster.queue.iter().map(|&a| monster_hit(monster, a)).sum();
    f64::from(total) / monster.queue.len().max(1) as f64
}

/// The plain `fight` on the first living monster (or the first legal command): what a
/// bot answers when nothing better is found.
pub fn fallback(observation: &Observation) -> Action {
    observation
        .legal
        .first()
        .copied()
        .unwrap_or(Action::on_monster(Ability::Fight, 0))
}
