//! Built-in AIs for `battle`.
//!
//! - `random`: random team, random legal target, skill half the time when ready.
//! - `heuristic`: a fixed all-round team; attacks the target it expects to destroy in the
//!   fewest hits; uses a skill when a simple rule says it helps.
//! - `strong`: see [`Strong`].
//!
//! One file per AI; this one holds the list and the estimates they share (expected damage
//! of a hit, team picking).

mod heuristic;
mod random;
mod strong;

#[cfg(test)]
mod tests;

use crate::{BuiltinInfo, Builtins, larger};
use arena_sdk::battle::{Battle, BotType, Effect, SetupRequest, TeamChoice, Unit};
use arena_sdk::{Bot, Mode};

pub use heuristic::Heuristic;
pub use random::Random;
pub use strong::{STRONG_PREFERENCE, Strong};

const BUILTINS: &[BuiltinInfo] = &[
    BuiltinInfo {
        name: "random",
        mode: Mode::Battle,
        summary: "random team; attacks a random legal target, uses its skill when ready half the time",
        strength: 1,
    },
    BuiltinInfo {
        name: "heuristic",
        mode: Mode::Battle,
        summary: "Aggro, Tank, Nurse; attacks what it can destroy in the fewest hits, simple skill rules",
        strength: 2,
    },
    BuiltinInfo {
        name: "strong",
        mode: Mode::Battle,
        summary: "Glass, Tank, Nurse; focus fire by threat x kill chance (armor, evasion, crits, effects), timed skills",
        strength: 3,
    },
];

impl Builtins for Battle {
    fn builtins() -> &'static [BuiltinInfo] {
        BUILTINS
    }

    fn create(name: &str) -> Option<Box<dyn Bot<Battle> + Send>> {
        match name {
            "random" => Some(Box::new(Random::default())),
            "heuristic" => Some(Box::new(Heuristic::default())),
            "strong" => Some(Box::new(Strong::default())),
            _ => None,
        }
    }
}

/// Pick `team_size` types: the preferred ones that are in the roster, in order, then the
/// rest of the roster.
fn pick_team(request: &SetupRequest, preferred: &[BotType]) -> TeamChoice {
    let mut team: Vec<BotType> = preferred
        .iter()
        .copied()
        .filter(|k| request.roster.contains(k))
        .collect();
    for &kind in &request.roster {
        if !team.contains(&kind) {
            team.push(kind);
        }
    }
    team.truncate(request.team_size as usize);
    TeamChoice { team }
}

/// Mean of `max(0, x·power − armor)` for `x` uniform in [0.5, 1].
fn mean_after_armor(power: f64, armor: f64) -> f64 {
    let (lo, hi) = (0.5 * power, power);
    if armor <= lo {
        0.75 * power - armor
    } else if armor >= hi {
        0.0
    } else {
        (hi - armor) * (hi - armor) / (2.0 * (hi - lo))
    }
}

/// What the estimates need of a unit's effects, read in one pass over its effect list
/// (a wasm bot pays for every scan).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Facts {
    /// The damage bonus of its attacks: Offense Up ×1.5, Stealth ×1.3.
    bonus: f64,
    /// The chance that an attack on it lands: 1 − its evasion as a fraction (evasion 0
    /// while stunned).
    landed: f64,
}

impl Facts {
    fn of(unit: &Unit) -> Facts {
        let (mut offense_up, mut stealth, mut stun) = (false, false, false);
        for e in &unit.effects {
            match e.effect {
                Effect::OffenseUp => offense_up = true,
                Effect::Stealth => stealth = true,
                Effect::Stun => stun = true,
                _ => {}
            }
        }
        let mut bonus = 1.0;
        if offense_up {
            bonus *= 1.5;
        }
        if stealth {
            bonus *= 1.3;
        }
        let evasion = if stun {
            0.0
        } else {
            f64::from(unit.base.evasion) / 100.0
        };
        Facts {
            bonus,
            landed: 1.0 - evasion,
        }
    }
}

/// Expected damage of one attack of `attacker` on `target`: evasion, critical hits (double
/// before armor), armor and damage bonuses included.
pub fn expected_hit(attacker: &Unit, target: &Unit) -> f64 {
    hit_value(attacker, Facts::of(attacker), target, Facts::of(target))
}

/// [`expected_hit`] with the units' [`Facts`] already read.
#[inline]
fn hit_value(attacker: &Unit, of_attacker: Facts, target: &Unit, of_target: Facts) -> f64 {
    let power = f64::from(attacker.power);
    let armor = f64::from(target.armor);
    let crit = f64::from(attacker.base.critical) / 100.0;
    let hit =
        (1.0 - crit) * mean_after_armor(power, armor) + crit * mean_after_armor(2.0 * power, armor);
    hit * of_attacker.bonus * of_target.landed
}

fn missing(unit: &Unit) -> i32 {
    unit.base.integrity - unit.integrity
}

fn ratio(unit: &Unit) -> f64 {
    f64::from(unit.integrity) / f64::from(unit.base.integrity.max(1))
}

/// The sample bot `sample-bots/battle-starter`, compiled here so its code is checked and
/// its win rate measured by these tests.
#[cfg(test)]
#[path = "../../../../sample-bots/battle-starter/src/lib.rs"]
mod starter;
