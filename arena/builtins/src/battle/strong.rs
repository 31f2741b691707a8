//! `strong`: the strongest built-in of `battle` (see [`Strong`]).

use super::*;

use arena_sdk::battle::{
    Action, Battle, BotType, Effect, Observation, SetupRequest, Skill, TeamChoice, Unit, UnitId,
};
use arena_sdk::{Bot, Seat};

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
    /// Every unit's [`Facts`] this turn, kept for the next (a wasm bot pays fuel for every
    /// allocation).
    facts: Vec<Facts>,
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
#[cfg(test)]
pub(super) fn kill_chance(attacker: &Unit, target: &Unit) -> f64 {
    kill_value(attacker, Facts::of(attacker), target, Facts::of(target))
}

/// [`kill_chance`] with the units' [`Facts`] already read.
fn kill_value(attacker: &Unit, of_attacker: Facts, target: &Unit, of_target: Facts) -> f64 {
    let hp = f64::from(target.integrity);
    let armor = f64::from(target.armor);
    let power = f64::from(attacker.power);
    let toll = hp / of_attacker.bonus + armor;
    // Share of rolls x in [0.5, 1] with (x·power·mult − armor)·bonus ≥ hp.
    let share = |mult: f64| {
        let full = power * mult;
        if full <= 0.0 {
            return 0.0;
        }
        let needed = toll / full;
        ((1.0 - larger(needed, 0.5)) / 0.5).clamp(0.0, 1.0)
    };
    let crit = f64::from(attacker.base.critical) / 100.0;
    ((1.0 - crit) * share(1.0) + crit * share(2.0)) * of_target.landed
}

/// One turn's view for the strong play: the observation and every unit's [`Facts`], read
/// once (by index in [`Observation::units`], which is the unit's id).
struct Turn<'a> {
    observation: &'a Observation,
    facts: &'a [Facts],
    me: &'a Unit,
}

impl<'a> Turn<'a> {
    /// The living units of `seat`, with their facts, in the order of the observation.
    fn team(&self, seat: Seat) -> impl Iterator<Item = (&'a Unit, Facts)> + Clone + use<'a> {
        self.observation
            .units
            .iter()
            .zip(self.facts.iter().copied())
            .filter(move |(u, _)| u.owner == seat && !u.destroyed)
    }

    /// What one attack of `unit` is worth against the living units of `seat`, in
    /// integrity: the best direct hit plus the expected value of its negative effect (on
    /// the hit unit, or on every foe for area effects).
    fn attack_value(&self, unit: &Unit, of_unit: Facts, seat: u8) -> f64 {
        let foes = self.team(seat);
        let direct = foes
            .clone()
            .map(|(f, of_f)| hit_value(unit, of_unit, f, of_f))
            .fold(0.0, larger);
        let options = unit.kind.inflicts();
        if options.is_empty() || foes.clone().next().is_none() {
            return direct;
        }
        let turns = f64::from(unit.kind.inflict_turns());
        let worth = |(foe, of_foe): (&Unit, Facts)| {
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
            per_effect * (1.0 - f64::from(foe.resistance) / 100.0) * of_foe.landed
        };
        let effects = if unit.kind.inflicts_all() {
            foes.map(worth).sum::<f64>()
        } else {
            foes.map(worth).fold(0.0, larger)
        };
        direct + f64::from(unit.base.effectivity) / 100.0 * effects
    }

    /// What `unit` is worth to its team per tick: its attacks against the living units of
    /// seat `foes` and its repairs of those of seat `mates` (counted for the integrity they
    /// miss, plus some to come).
    fn threat(&self, unit: &Unit, of_unit: Facts, foes: Seat, mates: Seat) -> f64 {
        let repair = match unit.kind.skill() {
            Some(Skill::Repair) => {
                let each = unit.base.integrity * NURSE_REPAIR_PCT / 100;
                let (mut restores, mut count) = (0, 0_u32);
                for (m, _) in self.team(mates) {
                    restores += missing(m).min(each);
                    count += 1;
                }
                (f64::from(restores) + 0.25 * f64::from(each) * f64::from(count))
                    / f64::from(Skill::Repair.cooldown())
            }
            Some(Skill::Redistribute) => {
                let count = self.team(mates).count();
                f64::from(unit.base.integrity) * 0.1 * count as f64
                    / f64::from(Skill::Redistribute.cooldown())
            }
            _ => 0.0,
        };
        (self.attack_value(unit, of_unit, foes) + repair) * f64::from(unit.speed) / 1000.0
    }

    /// The best legal target and the expected hits it still needs.
    fn target(&self) -> Option<(UnitId, f64)> {
        let me = self.me;
        let of_me = self.facts[usize::from(self.observation.acting)];
        let score = |id: UnitId| {
            let i = usize::from(id);
            let (target, of_target) = (&self.observation.units[i], self.facts[i]);
            let per_hit = larger(hit_value(me, of_me, target, of_target), 0.5);
            let hits = larger(f64::from(target.integrity) / per_hit, 1.0);
            let now = larger(kill_value(me, of_me, target, of_target), 1.0 / hits);
            (
                self.threat(target, of_target, me.owner, 1 - me.owner) * now,
                hits,
            )
        };
        self.observation
            .legal_targets
            .iter()
            .map(|&id| (id, score(id)))
            .max_by(|(a, (sa, _)), (b, (sb, _))| sa.total_cmp(sb).then(b.cmp(a)))
            .map(|(id, (_, hits))| (id, hits))
    }

    /// Whether the acting unit's skill is worth its turn; `target`: [`Turn::target`],
    /// worked out here if the skill needs it.
    fn skill_is_useful(&self, target: &mut Option<Option<(UnitId, f64)>>) -> bool {
        let me = self.me;
        let team = self.team(me.owner).map(|(u, _)| u);
        match me.kind.skill() {
            None => false,
            Some(Skill::OffenseUp) => target
                .get_or_insert_with(|| self.target())
                .is_some_and(|(_, hits)| hits >= 3.0),
            Some(Skill::Repair) => {
                let each = me.base.integrity * NURSE_REPAIR_PCT / 100;
                let restored: i32 = team.clone().map(|u| missing(u).min(each)).sum();
                restored >= each || team.clone().any(|u| ratio(u) < 0.35)
            }
            Some(Skill::Redistribute) => {
                let (mut total, mut count) = (0, 0);
                for u in team.clone() {
                    total += u.integrity;
                    count += 1;
                }
                let share = total / count.max(1);
                team.clone()
                    .any(|u| ratio(u) < 0.4 && share - u.integrity > 200)
            }
            Some(Skill::Taunt | Skill::TeamBoost | Skill::Retribution) => true,
            Some(Skill::Stealth) => ratio(me) < 0.6,
        }
    }
}

impl Strong {
    /// The strong play with a team of your choice (for experiments and tests).
    pub fn with_team(team: Vec<BotType>) -> Self {
        Strong {
            team: Some(team),
            facts: Vec::new(),
        }
    }
}

/// Nurse Repair in percent of the nurse's maximum integrity (docs/rules/battle.md; the
/// engine's `NURSE_REPAIR_PCT`, which a bot crate cannot depend on: the built-ins compile
/// into wasm bots without the engine).
pub(super) const NURSE_REPAIR_PCT: i32 = 30;

impl Bot<Battle> for Strong {
    fn setup(&mut self, request: &SetupRequest) -> TeamChoice {
        let preferred = match &self.team {
            Some(team) => team.clone(),
            None => STRONG_PREFERENCE.to_vec(),
        };
        pick_team(request, &preferred)
    }

    fn act(&mut self, observation: &Observation) -> Action {
        self.facts.clear();
        self.facts.extend(observation.units.iter().map(Facts::of));
        let turn = Turn {
            observation,
            facts: &self.facts,
            me: observation.me(),
        };
        let mut target = None;
        if observation.skill_ready && turn.skill_is_useful(&mut target) {
            return Action::Skill;
        }
        match target.unwrap_or_else(|| turn.target()) {
            Some((target, _)) => Action::Attack { target },
            None => Action::Skill,
        }
    }
}
