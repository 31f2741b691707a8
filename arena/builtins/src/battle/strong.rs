//! `strong`: the strongest built-in of `battle` (see [`Strong`]).

use super::*;

use arena_sdk::Bot;
use arena_sdk::battle::{
    Action, Battle, BotType, Effect, Observation, SetupRequest, Skill, TeamChoice, Unit, UnitId,
};

/// The strongest built-in.
///
/// - Team: Glass, Tank and Nurse when the roster allows — the tank's Taunt and Defense Up
///   shield the fragile glass bot, whose area Continuous Damage ignores armor and breaks
///   through healing teams, and the nurse out-repairs the rest (best of all 56 teams in
///   measured play); otherwise the best available types in [`STRONG_PREFERENCE`] order.
/// - Focus fire: a unit attacks the legal target worth most per expected hit: the target's
///   threat per tick (its expected attack value against this team — evasion, critical
///   hits, armor, damage bonuses and the expected worth of its negative effect — plus its
///   repairs, times its speed) times the chance to destroy it with this hit, or one over
///   the expected hits it still needs, whichever is larger (a one-hit lookahead).
/// - Skills: Taunt and Defense Up, Defense Up and Speed Up, and Retribution as soon as
///   ready; Repair when it restores at least one full repair's worth or an ally is below
///   35%; Redistribute when an ally below 40% gains more than 200; Stealth when the stealth
///   bot is below 60%; Offense Up only before a burst — when the best target still needs
///   three hits or more, so both boosted attacks land on it (on average Offense Up is
///   neutral: a turn spent for +50% on the next two).
#[derive(Debug, Clone, Default)]
pub struct Strong {
    team: Option<Vec<BotType>>,
}

/// The types in order of preference when the favourite team is not available.
pub const STRONG_PREFERENCE: [BotType; 8] = [
    BotType::Nurse,
    BotType::Tank,
    BotType::Glass,
    BotType::Stealth,
    BotType::Aggro,
    BotType::Beaverette,
    BotType::Doctor,
    BotType::Kamikaze,
];

/// Probability that `attacker`'s next attack destroys `target`.
pub(super) fn kill_chance(attacker: &Unit, target: &Unit) -> f64 {
    let hp = f64::from(target.integrity);
    let armor = f64::from(target.armor);
    let power = f64::from(attacker.power);
    // Share of rolls x in [0.5, 1] with (x·power·mult − armor)·bonus ≥ hp.
    let share = |mult: f64| {
        let full = power * mult;
        if full <= 0.0 {
            return 0.0;
        }
        let needed = (hp / bonus(attacker) + armor) / full;
        ((1.0 - needed.max(0.5)) / 0.5).clamp(0.0, 1.0)
    };
    let crit = f64::from(attacker.base.critical) / 100.0;
    ((1.0 - crit) * share(1.0) + crit * share(2.0)) * (1.0 - evasion(target))
}

impl Strong {
    /// The strong play with a team of your choice (for experiments and tests).
    pub fn with_team(team: Vec<BotType>) -> Self {
        Strong { team: Some(team) }
    }

    /// What one attack of `unit` is worth against `foes`, in integrity: the best direct
    /// hit plus the expected value of its negative effect (on the hit unit, or on every foe
    /// for area effects).
    fn attack_value(unit: &Unit, foes: &[&Unit]) -> f64 {
        let direct = foes
            .iter()
            .map(|f| expected_hit(unit, f))
            .fold(0.0, f64::max);
        let options = unit.kind.inflicts();
        if options.is_empty() || foes.is_empty() {
            return direct;
        }
        let turns = f64::from(unit.kind.inflict_turns());
        let worth = |foe: &Unit| {
            let per_effect: f64 = options
                .iter()
                .map(|&effect| match effect {
                    Effect::ContinuousDamage => f64::from(unit.power) * turns,
                    Effect::Bomb => mean_after_armor(f64::from(unit.power), f64::from(foe.armor)),
                    Effect::Stun => 40.0,
                    Effect::DefenseDown | Effect::OffenseDown => 15.0,
                    _ => 10.0,
                })
                .sum::<f64>()
                / options.len() as f64;
            per_effect * (1.0 - f64::from(foe.resistance) / 100.0) * (1.0 - evasion(foe))
        };
        let effects = if unit.kind.inflicts_all() {
            foes.iter().map(|f| worth(f)).sum::<f64>()
        } else {
            foes.iter().map(|f| worth(f)).fold(0.0, f64::max)
        };
        direct + f64::from(unit.base.effectivity) / 100.0 * effects
    }

    /// What `unit` is worth to its team per tick: its attacks against `foes` and its
    /// repairs of `mates` (counted for the integrity they miss, plus some to come).
    fn threat(unit: &Unit, foes: &[&Unit], mates: &[&Unit]) -> f64 {
        let repair = match unit.kind.skill() {
            Some(Skill::Repair) => {
                let each = unit.base.integrity * 3 / 10;
                let restores: i32 = mates.iter().map(|m| missing(m).min(each)).sum();
                (f64::from(restores) + 0.25 * f64::from(each) * mates.len() as f64)
                    / f64::from(Skill::Repair.cooldown())
            }
            Some(Skill::Redistribute) => {
                f64::from(unit.base.integrity) * 0.1 * mates.len() as f64
                    / f64::from(Skill::Redistribute.cooldown())
            }
            _ => 0.0,
        };
        (Self::attack_value(unit, foes) + repair) * f64::from(unit.speed) / 1000.0
    }

    /// The best legal target and the expected hits it still needs.
    fn target(observation: &Observation) -> Option<(UnitId, f64)> {
        let me = observation.me();
        let mine: Vec<&Unit> = observation.team(me.owner).collect();
        let theirs: Vec<&Unit> = observation.team(1 - me.owner).collect();
        let score = |id: UnitId| {
            let target = &observation.units[usize::from(id)];
            let per_hit = expected_hit(me, target).max(0.5);
            let hits = (f64::from(target.integrity) / per_hit).max(1.0);
            let now = kill_chance(me, target).max(1.0 / hits);
            (Strong::threat(target, &mine, &theirs) * now, hits)
        };
        observation
            .legal_targets
            .iter()
            .map(|&id| (id, score(id)))
            .max_by(|(a, (sa, _)), (b, (sb, _))| sa.total_cmp(sb).then(b.cmp(a)))
            .map(|(id, (_, hits))| (id, hits))
    }

    fn skill_is_useful(observation: &Observation) -> bool {
        let me = observation.me();
        let team: Vec<&Unit> = observation.team(me.owner).collect();
        match me.kind.skill() {
            None => false,
            Some(Skill::OffenseUp) => {
                Self::target(observation).is_some_and(|(_, hits)| hits >= 3.0)
            }
            Some(Skill::Repair) => {
                let each = me.base.integrity * NURSE_REPAIR_PCT / 100;
                let restored: i32 = team.iter().map(|u| missing(u).min(each)).sum();
                restored >= each || team.iter().any(|u| ratio(u) < 0.35)
            }
            Some(Skill::Redistribute) => {
                let total: i32 = team.iter().map(|u| u.integrity).sum();
                let share = total / team.len().max(1) as i32;
                team.iter()
                    .any(|u| ratio(u) < 0.4 && share - u.integrity > 200)
            }
            Some(Skill::Taunt | Skill::TeamBoost | Skill::Retribution) => true,
            Some(Skill::Stealth) => ratio(me) < 0.6,
        }
    }
}

/// Nurse Repair in percent of the nurse's maximum integrity (docs/rules/battle.md).
const NURSE_REPAIR_PCT: i32 = 30;

impl Bot<Battle> for Strong {
    fn setup(&mut self, request: &SetupRequest) -> TeamChoice {
        let preferred = match &self.team {
            Some(team) => team.clone(),
            None => STRONG_PREFERENCE.to_vec(),
        };
        pick_team(request, &preferred)
    }

    fn act(&mut self, observation: &Observation) -> Action {
        if observation.skill_ready && Self::skill_is_useful(observation) {
            return Action::Skill;
        }
        match Self::target(observation) {
            Some((target, _)) => Action::Attack { target },
            None => Action::Skill,
        }
    }
}
