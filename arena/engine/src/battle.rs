//! Mode `battle` — Bot Wars, sprints 1 and 2 (docs/rules/battle.md has every rule and the
//! choices the document leaves open).
//!
//! A match: both seats pick a team of three distinct robot types (blind), then the turn
//! meters run. Each tick every living unit adds its speed to its meter; the units whose
//! meter reached 1000 in that tick take their turns in a seeded random order. A turn: the
//! meter drops by 1000, the skill cooldown and the unit's effects tick (continuous damage,
//! continuous repair, bombs), a stunned unit skips, anyone else is played by its seat's bot
//! (attack a legal target or use the skill), then the effects that ran out are removed.
//! The match ends when a team is destroyed, or after `turn_cap` unit turns (more integrity
//! left, in percent of the team's maximum, wins; equal is a draw).

mod frames;

use crate::{Finish, Ruleset, Stats as SeatStats, Table};
use arena_sdk::Seat;
use arena_sdk::battle::{
    Action, ActiveEffect, BotType, Effect, Observation, Rules, Skill, TEAM_SIZE, TURN_METER_FULL,
    TeamChoice, Unit, UnitId,
};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

pub use arena_sdk::battle::{Battle, SetupRequest};

/// The most unit turns a rules file may allow.
pub const MAX_TURN_CAP: u32 = 100_000;

/// Every statistic key, reported for both seats.
pub const STAT_KEYS: [&str; 11] = [
    "kills",
    "damage_dealt",
    "damage_taken",
    "healing",
    "crits",
    "evasions",
    "effects_inflicted",
    "effects_resisted",
    "skills_used",
    "units_lost",
    "turns",
];

/// Nurse Repair: percent of the nurse's maximum integrity given to each teammate.
pub const NURSE_REPAIR_PCT: i32 = 30;
/// Continuous Repair: percent of the nurse's maximum integrity per turn.
pub const CONTINUOUS_REPAIR_PCT: i32 = 10;
/// Doctor Repair after redistributing: percent of the doctor's maximum integrity.
pub const DOCTOR_REPAIR_PCT: i32 = 10;

/// The full initial state: all six units with their full stats, seat 0's first (ids 0–2),
/// then seat 1's (ids 3–5), each team in the order it was chosen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Initial {
    /// The units, indexed by [`UnitId`].
    pub units: Vec<Unit>,
}

/// The numbers of an attack that was not evaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hit {
    /// The critical-hit roll (0–99); a crit when below the attacker's critical chance.
    pub crit_roll: u32,
    /// Whether it was a critical hit (double damage before armor).
    pub crit: bool,
    /// The damage roll in thousandths, 500–1000 (the document's random(0.5..1)).
    pub roll: u32,
    /// The attacker's power (Offense Down applied).
    pub power: i32,
    /// The target's armor (Defense Up/Down applied).
    pub armor: i32,
    /// The attacker's damage bonus in percent (100, Offense Up 150, Stealth 130, both 195).
    pub bonus_pct: i32,
    /// The damage dealt: see [`damage`].
    pub damage: i32,
    /// The target's integrity afterwards.
    pub integrity: i32,
}

/// Why a negative effect did not land.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "failed", rename_all = "snake_case")]
pub enum Failure {
    /// The attacker did not beat its own effectivity (`roll` ≥ `chance`).
    Effectivity {
        /// The roll, 0–99.
        roll: u32,
        /// The attacker's effectivity in percent.
        chance: i32,
    },
    /// The target resisted (`roll` < `chance`).
    Resistance {
        /// The roll, 0–99.
        roll: u32,
        /// The target's resistance in percent (Defense Up/Down applied).
        chance: i32,
    },
    /// Defense Down and Offense Down cannot be inflicted on a unit that already has them.
    AlreadyPresent,
}

/// Everything that happens in a match, with its numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A unit's turn begins; `meter` is its turn meter before the 1000 are taken off.
    TurnStart {
        /// The unit-turn counter (1 for the first turn of the match).
        turn: u32,
        /// Whose turn.
        unit: UnitId,
        /// Its owner.
        seat: Seat,
        /// Its type.
        kind: BotType,
        /// The meter that reached 1000.
        meter: i32,
    },
    /// Continuous Damage (`change` < 0) or Continuous Repair (`change` ≥ 0) acted at the
    /// start of the bearer's turn.
    EffectTick {
        /// The bearer.
        unit: UnitId,
        /// Which effect.
        effect: Effect,
        /// Its remaining duration after this turn's decrement.
        turns_left: u32,
        /// Integrity gained (positive) or lost (negative).
        change: i32,
        /// The bearer's integrity afterwards.
        integrity: i32,
    },
    /// A bomb reached the end of its duration and exploded.
    BombExploded {
        /// The bearer.
        unit: UnitId,
        /// The damage roll in thousandths (500–1000).
        roll: u32,
        /// The inflicter's power, stored when the bomb was planted.
        power: i32,
        /// The bearer's armor now.
        armor: i32,
        /// roll × power / 1000 − armor, at least 0.
        damage: i32,
        /// The bearer's integrity afterwards.
        integrity: i32,
    },
    /// A stunned unit misses its move.
    Stunned {
        /// The unit.
        unit: UnitId,
    },
    /// The bot gave no usable action; the default was played instead.
    DefaultAction {
        /// The acting unit.
        unit: UnitId,
        /// What was played.
        action: Action,
        /// Why ("no answer", or the rejection reason).
        reason: String,
    },
    /// An attack (or a Retribution counter-attack).
    Attack {
        /// Who attacks.
        attacker: UnitId,
        /// Who is attacked.
        target: UnitId,
        /// Whether this is a Retribution counter-attack.
        counter: bool,
        /// The evasion roll (0–99); evaded when below `evasion`.
        evasion_roll: u32,
        /// The target's evasion chance in percent (0 while stunned).
        evasion: i32,
        /// `None` when evaded.
        hit: Option<Hit>,
    },
    /// An effect was put on a unit (negative by an attack, positive by a skill).
    EffectApplied {
        /// Who caused it.
        source: UnitId,
        /// Who carries it.
        target: UnitId,
        /// Which effect.
        effect: Effect,
        /// Its duration in turns of the bearer.
        turns: u32,
        /// See [`ActiveEffect::magnitude`].
        magnitude: i32,
        /// `true` when the bearer already had it and only the duration was reset.
        refreshed: bool,
    },
    /// A negative effect did not land.
    EffectFailed {
        /// The attacker.
        source: UnitId,
        /// The unit it was meant for.
        target: UnitId,
        /// The effect.
        effect: Effect,
        /// Which check failed.
        reason: Failure,
    },
    /// A unit used its secondary skill; the effects follow as separate events.
    SkillUsed {
        /// The caster.
        unit: UnitId,
        /// The skill.
        skill: Skill,
        /// Its cooldown now.
        cooldown: u32,
    },
    /// Doctor Bot shares its team's integrity.
    Redistribute {
        /// The doctor.
        source: UnitId,
        /// The living team's total integrity before.
        total: i32,
        /// How many living units share it.
        units: u32,
        /// Each unit's share before the repair (total / units, rounded down).
        share: i32,
    },
    /// A unit's integrity was set by a skill: Nurse Repair, or Doctor Redistribute and Repair
    /// (whose change can be negative for a unit that gave integrity away).
    Repair {
        /// The caster.
        source: UnitId,
        /// The repaired unit.
        target: UnitId,
        /// The change of integrity (after capping at the maximum).
        change: i32,
        /// Its integrity afterwards.
        integrity: i32,
    },
    /// An effect ran out after its bearer's turn.
    Expired {
        /// The bearer.
        unit: UnitId,
        /// The effect.
        effect: Effect,
    },
    /// A unit reached 0 integrity and left the battle.
    Destroyed {
        /// The unit.
        unit: UnitId,
        /// Its owner.
        seat: Seat,
    },
    /// The turn cap was reached: each team's integrity left and maximum.
    TurnCap {
        /// Current integrity of each team (destroyed units count 0).
        integrity: [i32; 2],
        /// Maximum integrity of each team.
        max: [i32; 2],
    },
}

/// The damage of a hit: `roll/1000 × power` (doubled for a critical hit, before armor),
/// rounded down, minus `armor`, at least 0; then the attacker's damage bonus in percent,
/// rounded down. With no bonus a Glass Bot (power 180) hits a Tank Bot (armor 40) for 50
/// (roll 500) to 140 (roll 1000), and 140 to 320 with a crit.
pub fn damage(roll: u32, power: i32, crit: bool, armor: i32, bonus_pct: i32) -> i32 {
    let raw = i64::from(roll) * i64::from(power) * if crit { 2 } else { 1 } / 1000;
    let after_armor = (raw - i64::from(armor)).max(0);
    i32::try_from(after_armor * i64::from(bonus_pct) / 100).unwrap_or(i32::MAX)
}

fn pct(has: bool, pct: i32) -> i32 {
    if has { pct } else { 100 }
}

/// Armor with Defense Up (+50%) and Defense Down (−50%) applied, rounded down.
pub fn armor(unit: &Unit) -> i32 {
    unit.base.armor * pct(unit.has(Effect::DefenseUp), 150) * pct(unit.has(Effect::DefenseDown), 50)
        / 10_000
}

/// Resistance with Defense Up (+50%) and Defense Down (−50%) applied, rounded down.
pub fn resistance(unit: &Unit) -> i32 {
    unit.base.resistance
        * pct(unit.has(Effect::DefenseUp), 150)
        * pct(unit.has(Effect::DefenseDown), 50)
        / 10_000
}

/// Power with Offense Down (−25%) applied, rounded down.
pub fn power(unit: &Unit) -> i32 {
    unit.base.power * pct(unit.has(Effect::OffenseDown), 75) / 100
}

/// Speed with Speed Up (+25%) and Speed Down (−25%) applied, rounded down.
pub fn speed(unit: &Unit) -> i32 {
    unit.base.speed * pct(unit.has(Effect::SpeedUp), 125) * pct(unit.has(Effect::SpeedDown), 75)
        / 10_000
}

/// Evasion in percent: 0 while stunned.
pub fn evasion(unit: &Unit) -> i32 {
    if unit.has(Effect::Stun) {
        0
    } else {
        unit.base.evasion
    }
}

/// Damage bonus in percent: Offense Up ×1.5 and Stealth ×1.3, multiplied (195 with both).
pub fn bonus_pct(unit: &Unit) -> i32 {
    pct(unit.has(Effect::OffenseUp), 150) * pct(unit.has(Effect::Stealth), 130) / 100
}

/// Recompute the effective stats shown to bots.
fn sync(unit: &mut Unit) {
    unit.armor = armor(unit);
    unit.power = power(unit);
    unit.speed = speed(unit);
    unit.resistance = resistance(unit);
}

/// The enemies `attacker` may attack: only taunting enemies if any taunt; otherwise the
/// enemies not in stealth, or every enemy when only stealthed ones remain. Sorted by id.
pub fn legal_targets(units: &[Unit], attacker: UnitId) -> Vec<UnitId> {
    let owner = units[usize::from(attacker)].owner;
    let enemies: Vec<&Unit> = units
        .iter()
        .filter(|u| u.owner != owner && !u.destroyed)
        .collect();
    let taunting: Vec<UnitId> = enemies
        .iter()
        .filter(|u| u.has(Effect::Taunt))
        .map(|u| u.id)
        .collect();
    if !taunting.is_empty() {
        return taunting;
    }
    let visible: Vec<UnitId> = enemies
        .iter()
        .filter(|u| !u.has(Effect::Stealth))
        .map(|u| u.id)
        .collect();
    if !visible.is_empty() {
        return visible;
    }
    enemies.iter().map(|u| u.id).collect()
}

/// Whether `unit` may use its skill now.
pub fn skill_ready(unit: &Unit) -> bool {
    unit.has_skill && unit.cooldown == 0 && !unit.destroyed
}

/// The request every seat gets before play.
pub fn setup_request(rules: &Rules) -> SetupRequest {
    SetupRequest {
        roster: rules.roster.clone(),
        stats: rules.roster.iter().map(|k| k.stats()).collect(),
        team_size: TEAM_SIZE as u32,
    }
}

/// Check a team choice: exactly three distinct types from the roster.
pub fn check_team(rules: &Rules, choice: &TeamChoice) -> Result<Vec<BotType>, String> {
    if choice.team.len() != TEAM_SIZE {
        return Err(format!(
            "a team has {TEAM_SIZE} bots, not {}",
            choice.team.len()
        ));
    }
    for (idx, kind) in choice.team.iter().enumerate() {
        if !rules.roster.contains(kind) {
            return Err(format!("{} is not in the roster", kind.name()));
        }
        if choice.team[..idx].contains(kind) {
            return Err(format!("{} is in the team twice", kind.name()));
        }
    }
    Ok(choice.team.clone())
}

/// The team of a seat whose choice is missing or invalid: the first three roster types.
pub fn default_team(rules: &Rules) -> Vec<BotType> {
    rules.roster.iter().take(TEAM_SIZE).copied().collect()
}

/// The action played when a bot gives none or an illegal one: attack the legal target with
/// the least integrity, the lowest id on a tie.
pub fn default_action(units: &[Unit], acting: UnitId) -> Action {
    let target = legal_targets(units, acting)
        .into_iter()
        .min_by_key(|&t| (units[usize::from(t)].integrity, t))
        .unwrap_or(acting);
    Action::Attack { target }
}

/// Check an action of the unit `acting`; the error says why it is illegal.
pub fn check_action(units: &[Unit], acting: UnitId, action: Action) -> Result<(), String> {
    let me = &units[usize::from(acting)];
    match action {
        Action::Attack { target } => {
            let legal = legal_targets(units, acting);
            if legal.contains(&target) {
                return Ok(());
            }
            let why = match units.get(usize::from(target)) {
                None => "there is no such unit".to_owned(),
                Some(t) if t.owner == me.owner => "it is on your own team".to_owned(),
                Some(t) if t.destroyed => "it is destroyed".to_owned(),
                Some(_) => "an enemy taunts, or it is in stealth".to_owned(),
            };
            Err(format!(
                "cannot attack unit {target}: {why} (legal targets: {legal:?})"
            ))
        }
        Action::Skill => match me.kind.skill() {
            None => Err(format!("{} has no secondary skill", me.kind.name())),
            Some(skill) if me.cooldown > 0 => Err(format!(
                "{} is on cooldown for {} more turns",
                skill.name(),
                me.cooldown
            )),
            Some(_) => Ok(()),
        },
    }
}

fn empty_stats() -> SeatStats {
    STAT_KEYS.iter().map(|k| ((*k).to_owned(), 0)).collect()
}

/// The state of a match in progress, with the rolls and the events so far.
#[derive(Debug)]
struct Fight {
    units: Vec<Unit>,
    rng: ChaCha8Rng,
    events: Vec<Event>,
    stats: [SeatStats; 2],
    turn: u32,
}

impl Fight {
    fn new(teams: &[Vec<BotType>; 2], rng: ChaCha8Rng) -> Self {
        let mut units = Vec::new();
        for (seat, team) in (0u8..).zip(teams) {
            for &kind in team {
                let id = UnitId::try_from(units.len()).expect("six units fit a u8");
                units.push(Unit::new(id, seat, kind));
            }
        }
        Fight {
            units,
            rng,
            events: Vec::new(),
            stats: [empty_stats(), empty_stats()],
            turn: 0,
        }
    }

    fn add(&mut self, seat: Seat, key: &str, amount: i64) {
        *self.stats[usize::from(seat)]
            .get_mut(key)
            .expect("every stat key is present") += amount;
    }

    fn unit(&self, id: UnitId) -> &Unit {
        &self.units[usize::from(id)]
    }

    fn unit_mut(&mut self, id: UnitId) -> &mut Unit {
        &mut self.units[usize::from(id)]
    }

    fn alive(&self, id: UnitId) -> bool {
        !self.unit(id).destroyed
    }

    fn team(&self, seat: Seat) -> Vec<UnitId> {
        self.units
            .iter()
            .filter(|u| u.owner == seat && !u.destroyed)
            .map(|u| u.id)
            .collect()
    }

    /// The seat whose opponent has no unit left.
    fn winner(&self) -> Option<Seat> {
        (0..2u8).find(|&seat| self.team(1 - seat).is_empty())
    }

    /// Run ticks until at least one unit's meter reached 1000; those units, shuffled.
    fn next_ready(&mut self) -> Vec<UnitId> {
        loop {
            for unit in self.units.iter_mut().filter(|u| !u.destroyed) {
                unit.turn_meter += speed(unit);
            }
            let mut ready: Vec<UnitId> = self
                .units
                .iter()
                .filter(|u| !u.destroyed && u.turn_meter >= TURN_METER_FULL)
                .map(|u| u.id)
                .collect();
            if !ready.is_empty() {
                ready.shuffle(&mut self.rng);
                return ready;
            }
        }
    }

    /// Take `amount` integrity from `target` (floored at 0), credit `by`; true if destroyed.
    fn hurt(&mut self, target: UnitId, amount: i32, by: Seat) -> bool {
        let unit = self.unit_mut(target);
        let lost = amount.min(unit.integrity).max(0);
        unit.integrity -= lost;
        let (seat, destroyed) = (unit.owner, unit.integrity == 0);
        self.add(by, "damage_dealt", i64::from(lost));
        self.add(seat, "damage_taken", i64::from(lost));
        if destroyed {
            let unit = self.unit_mut(target);
            unit.destroyed = true;
            unit.effects.clear();
            unit.turn_meter = 0;
            self.events.push(Event::Destroyed { unit: target, seat });
            self.add(by, "kills", 1);
            self.add(seat, "units_lost", 1);
        }
        destroyed
    }

    /// Add `amount` integrity to `target`, capped at its maximum; returns the gain.
    fn heal(&mut self, target: UnitId, amount: i32) -> i32 {
        let unit = self.unit_mut(target);
        let gain = amount.min(unit.base.integrity - unit.integrity).max(0);
        unit.integrity += gain;
        let seat = unit.owner;
        self.add(seat, "healing", i64::from(gain));
        gain
    }

    /// The start of `id`'s turn; true when the unit is still alive and not stunned, i.e.
    /// its bot chooses an action.
    fn begin_turn(&mut self, id: UnitId) -> bool {
        self.turn += 1;
        let turn = self.turn;
        let unit = self.unit_mut(id);
        let meter = unit.turn_meter;
        unit.turn_meter -= TURN_METER_FULL;
        unit.cooldown = unit.cooldown.saturating_sub(1);
        for effect in &mut unit.effects {
            effect.turns_left = effect.turns_left.saturating_sub(1);
        }
        let (seat, kind) = (unit.owner, unit.kind);
        self.events.push(Event::TurnStart {
            turn,
            unit: id,
            seat,
            kind,
            meter,
        });
        self.add(seat, "turns", 1);
        let mut idx = 0;
        while idx < self.unit(id).effects.len() {
            let effect = self.unit(id).effects[idx];
            idx += 1;
            match effect.effect {
                Effect::ContinuousDamage => {
                    let before = self.unit(id).integrity;
                    let integrity = (before - effect.magnitude).max(0);
                    self.events.push(Event::EffectTick {
                        unit: id,
                        effect: effect.effect,
                        turns_left: effect.turns_left,
                        change: integrity - before,
                        integrity,
                    });
                    if self.hurt(id, effect.magnitude, 1 - seat) {
                        return false;
                    }
                }
                Effect::ContinuousRepair => {
                    let gain = self.heal(id, effect.magnitude);
                    self.events.push(Event::EffectTick {
                        unit: id,
                        effect: effect.effect,
                        turns_left: effect.turns_left,
                        change: gain,
                        integrity: self.unit(id).integrity,
                    });
                }
                Effect::Bomb if effect.turns_left == 0 => {
                    let roll = self.rng.random_range(500..=1000);
                    let armor = armor(self.unit(id));
                    let damage = damage(roll, effect.magnitude, false, armor, 100);
                    let integrity = (self.unit(id).integrity - damage).max(0);
                    self.events.push(Event::BombExploded {
                        unit: id,
                        roll,
                        power: effect.magnitude,
                        armor,
                        damage,
                        integrity,
                    });
                    if self.hurt(id, damage, 1 - seat) {
                        return false;
                    }
                }
                _ => {}
            }
        }
        sync(self.unit_mut(id));
        if self.unit(id).has(Effect::Stun) {
            self.events.push(Event::Stunned { unit: id });
            return false;
        }
        true
    }

    /// The end of `id`'s turn: effects at zero are removed.
    fn end_turn(&mut self, id: UnitId) {
        if !self.alive(id) {
            return;
        }
        let (expired, kept): (Vec<ActiveEffect>, Vec<ActiveEffect>) = self
            .unit(id)
            .effects
            .iter()
            .partition(|e| e.turns_left == 0);
        self.unit_mut(id).effects = kept;
        for effect in expired {
            self.events.push(Event::Expired {
                unit: id,
                effect: effect.effect,
            });
        }
        sync(self.unit_mut(id));
    }

    fn observation(
        &mut self,
        id: UnitId,
        turn_cap: u32,
        last_rejected: Option<String>,
    ) -> Observation {
        for unit in &mut self.units {
            sync(unit);
        }
        let me = self.unit(id);
        Observation {
            turn: self.turn,
            turn_cap,
            seat: me.owner,
            acting: id,
            units: self.units.clone(),
            legal_targets: legal_targets(&self.units, id),
            skill_ready: skill_ready(me),
            last_rejected,
        }
    }

    fn perform(&mut self, id: UnitId, action: Action) {
        match action {
            Action::Attack { target } => self.attack(id, target, false),
            Action::Skill => self.use_skill(id),
        }
        for unit in &mut self.units {
            sync(unit);
        }
    }

    /// An attack: evasion first, then crit and damage, then (on a hit) the attacker's
    /// negative effect, then a Retribution counter-attack.
    fn attack(&mut self, attacker: UnitId, target: UnitId, counter: bool) {
        let evasion = evasion(self.unit(target));
        let evasion_roll = self.rng.random_range(0..100u32);
        let attacker_seat = self.unit(attacker).owner;
        if i64::from(evasion_roll) < i64::from(evasion) {
            self.events.push(Event::Attack {
                attacker,
                target,
                counter,
                evasion_roll,
                evasion,
                hit: None,
            });
            let seat = self.unit(target).owner;
            self.add(seat, "evasions", 1);
        } else {
            let crit_roll = self.rng.random_range(0..100u32);
            let crit = i64::from(crit_roll) < i64::from(self.unit(attacker).base.critical);
            let roll = self.rng.random_range(500..=1000u32);
            let power = power(self.unit(attacker));
            let armor = armor(self.unit(target));
            let bonus_pct = bonus_pct(self.unit(attacker));
            let damage = damage(roll, power, crit, armor, bonus_pct);
            let integrity = (self.unit(target).integrity - damage).max(0);
            self.events.push(Event::Attack {
                attacker,
                target,
                counter,
                evasion_roll,
                evasion,
                hit: Some(Hit {
                    crit_roll,
                    crit,
                    roll,
                    power,
                    armor,
                    bonus_pct,
                    damage,
                    integrity,
                }),
            });
            if crit {
                self.add(attacker_seat, "crits", 1);
            }
            self.hurt(target, damage, attacker_seat);
            if self.winner().is_some() {
                return;
            }
            self.inflict(attacker, target);
        }
        let retaliates = {
            let t = self.unit(target);
            !counter
                && !t.destroyed
                && t.has(Effect::Retribution)
                && !t.has(Effect::Stun)
                && self.alive(attacker)
        };
        if retaliates {
            self.attack(target, attacker, true);
        }
    }

    /// After a hit: pick the attacker's negative effect, roll its effectivity once, then
    /// try it on the target (or every living enemy for area effects).
    fn inflict(&mut self, attacker: UnitId, target: UnitId) {
        let kind = self.unit(attacker).kind;
        let options = kind.inflicts();
        let effect = match options.len() {
            0 => return,
            1 => options[0],
            n => options[self.rng.random_range(0..n)],
        };
        let chance = self.unit(attacker).base.effectivity;
        let roll = self.rng.random_range(0..100u32);
        if i64::from(roll) >= i64::from(chance) {
            self.events.push(Event::EffectFailed {
                source: attacker,
                target,
                effect,
                reason: Failure::Effectivity { roll, chance },
            });
            return;
        }
        let targets = if kind.inflicts_all() {
            self.team(1 - self.unit(attacker).owner)
        } else if self.alive(target) {
            vec![target]
        } else {
            Vec::new()
        };
        for victim in targets {
            self.try_negative(attacker, victim, effect);
        }
    }

    /// One unit's part of an inflicted effect: the stacking rule, then its resistance.
    fn try_negative(&mut self, source: UnitId, target: UnitId, effect: Effect) {
        let refused = matches!(effect, Effect::DefenseDown | Effect::OffenseDown);
        if refused && self.unit(target).has(effect) {
            self.events.push(Event::EffectFailed {
                source,
                target,
                effect,
                reason: Failure::AlreadyPresent,
            });
            return;
        }
        let chance = resistance(self.unit(target));
        let roll = self.rng.random_range(0..100u32);
        if i64::from(roll) < i64::from(chance) {
            self.events.push(Event::EffectFailed {
                source,
                target,
                effect,
                reason: Failure::Resistance { roll, chance },
            });
            let seat = self.unit(target).owner;
            self.add(seat, "effects_resisted", 1);
            return;
        }
        // Offense Up "increases all caused damage": the damage over time and the bomb of
        // a unit under it carry 150% of its power (Stealth's bonus is for attacks only).
        let magnitude = match effect {
            Effect::ContinuousDamage | Effect::Bomb => {
                let source = self.unit(source);
                power(source) * pct(source.has(Effect::OffenseUp), 150) / 100
            }
            _ => 0,
        };
        let turns = self.unit(source).kind.inflict_turns();
        self.put(source, target, effect, turns, magnitude);
        let seat = self.unit(source).owner;
        self.add(seat, "effects_inflicted", 1);
    }

    /// Put an effect on a unit: stacking effects add an instance, any other resets the
    /// duration (and magnitude) of the one already there.
    fn put(&mut self, source: UnitId, target: UnitId, effect: Effect, turns: u32, magnitude: i32) {
        let unit = self.unit_mut(target);
        let existing = unit
            .effects
            .iter_mut()
            .find(|e| e.effect == effect && !effect.stacks());
        let refreshed = match existing {
            Some(e) => {
                e.turns_left = turns;
                e.magnitude = magnitude;
                true
            }
            None => {
                unit.effects.push(ActiveEffect {
                    effect,
                    turns_left: turns,
                    magnitude,
                });
                false
            }
        };
        sync(unit);
        self.events.push(Event::EffectApplied {
            source,
            target,
            effect,
            turns,
            magnitude,
            refreshed,
        });
    }

    fn use_skill(&mut self, id: UnitId) {
        let unit = self.unit(id);
        let Some(skill) = unit.kind.skill() else {
            return;
        };
        let (seat, max) = (unit.owner, unit.base.integrity);
        self.unit_mut(id).cooldown = skill.cooldown();
        self.events.push(Event::SkillUsed {
            unit: id,
            skill,
            cooldown: skill.cooldown(),
        });
        self.add(seat, "skills_used", 1);
        let turns = skill.turns();
        match skill {
            Skill::OffenseUp => self.put(id, id, Effect::OffenseUp, turns, 0),
            Skill::Stealth => self.put(id, id, Effect::Stealth, turns, 0),
            Skill::Retribution => self.put(id, id, Effect::Retribution, turns, 0),
            Skill::Taunt => {
                self.put(id, id, Effect::Taunt, turns, 0);
                for mate in self.team(seat) {
                    self.put(id, mate, Effect::DefenseUp, turns, 0);
                }
            }
            Skill::TeamBoost => {
                for mate in self.team(seat) {
                    self.put(id, mate, Effect::DefenseUp, turns, 0);
                    self.put(id, mate, Effect::SpeedUp, turns, 0);
                }
            }
            Skill::Repair => {
                for mate in self.team(seat) {
                    let change = self.heal(mate, max * NURSE_REPAIR_PCT / 100);
                    self.events.push(Event::Repair {
                        source: id,
                        target: mate,
                        change,
                        integrity: self.unit(mate).integrity,
                    });
                    if self.rng.random_bool(0.5) {
                        let per_turn = max * CONTINUOUS_REPAIR_PCT / 100;
                        self.put(id, mate, Effect::ContinuousRepair, turns, per_turn);
                    }
                }
            }
            Skill::Redistribute => {
                let team = self.team(seat);
                let total: i32 = team.iter().map(|&m| self.unit(m).integrity).sum();
                let units = team.len() as i32;
                let share = total / units;
                self.events.push(Event::Redistribute {
                    source: id,
                    total,
                    units: units as u32,
                    share,
                });
                let repair = max * DOCTOR_REPAIR_PCT / 100;
                for mate in team {
                    let unit = self.unit_mut(mate);
                    let before = unit.integrity;
                    unit.integrity = (share + repair).min(unit.base.integrity);
                    let (change, integrity) = (unit.integrity - before, unit.integrity);
                    self.add(seat, "healing", i64::from(change.max(0)));
                    self.events.push(Event::Repair {
                        source: id,
                        target: mate,
                        change,
                        integrity,
                    });
                }
            }
        }
    }

    /// The end by turn cap: the larger share of the team's maximum integrity left wins.
    fn cap_finish(&mut self) -> (Option<Seat>, String) {
        let sum = |seat: Seat, f: fn(&Unit) -> i32| -> i32 {
            self.units.iter().filter(|u| u.owner == seat).map(f).sum()
        };
        let integrity = [sum(0, |u| u.integrity), sum(1, |u| u.integrity)];
        let max = [sum(0, |u| u.base.integrity), sum(1, |u| u.base.integrity)];
        self.events.push(Event::TurnCap { integrity, max });
        let left0 = i64::from(integrity[0]) * i64::from(max[1]);
        let left1 = i64::from(integrity[1]) * i64::from(max[0]);
        let share = |s: usize| f64::from(integrity[s]) * 100.0 / f64::from(max[s].max(1));
        let shares = format!("{:.1}% vs {:.1}%", share(0), share(1));
        match left0.cmp(&left1) {
            std::cmp::Ordering::Greater => {
                (Some(0), format!("turn cap: more integrity left ({shares})"))
            }
            std::cmp::Ordering::Less => {
                (Some(1), format!("turn cap: more integrity left ({shares})"))
            }
            std::cmp::Ordering::Equal => {
                (None, format!("turn cap: equal integrity left ({shares})"))
            }
        }
    }
}

fn flush(fight: &mut Fight, table: &mut Table<'_, Battle>) {
    for event in fight.events.drain(..) {
        table.event(event);
    }
}

impl Ruleset for Battle {
    type Event = Event;
    type Initial = Initial;

    fn validate(rules: &Rules) -> Result<(), String> {
        for (idx, kind) in rules.roster.iter().enumerate() {
            if rules.roster[..idx].contains(kind) {
                return Err(format!("roster: {} is listed twice", kind.name()));
            }
        }
        if rules.roster.len() < TEAM_SIZE {
            return Err(format!(
                "roster: a team needs {TEAM_SIZE} distinct types, the roster has {}",
                rules.roster.len()
            ));
        }
        if rules.turn_cap == 0 || rules.turn_cap > MAX_TURN_CAP {
            return Err(format!(
                "turn_cap must be between 1 and {MAX_TURN_CAP}, not {}",
                rules.turn_cap
            ));
        }
        Ok(())
    }

    fn play(rules: &Rules, seed: u64, table: &mut Table<'_, Battle>) -> Finish {
        let mut last_rejected: [Option<String>; 2] = [None, None];
        let request = setup_request(rules);
        let mut teams: [Vec<BotType>; 2] = [Vec::new(), Vec::new()];
        for seat in 0..2u8 {
            let idx = usize::from(seat);
            teams[idx] = match table.setup(seat, &request) {
                None => default_team(rules),
                Some(choice) => match check_team(rules, &choice) {
                    Ok(team) => team,
                    Err(reason) => {
                        let reason = format!("team rejected: {reason}; playing the default team");
                        table.reject(seat, reason.clone());
                        last_rejected[idx] = Some(reason);
                        default_team(rules)
                    }
                },
            };
        }
        let mut fight = Fight::new(&teams, ChaCha8Rng::seed_from_u64(seed));
        table.set_initial(Initial {
            units: fight.units.clone(),
        });
        loop {
            if let Some(loser) = table.forfeited() {
                let stats = fight.stats.clone();
                return table.forfeit_finish(loser, stats);
            }
            for id in fight.next_ready() {
                if !fight.alive(id) {
                    continue;
                }
                table.set_turn(fight.turn + 1);
                let seat = fight.unit(id).owner;
                if fight.begin_turn(id) {
                    flush(&mut fight, table);
                    let idx = usize::from(seat);
                    let observation =
                        fight.observation(id, rules.turn_cap, last_rejected[idx].take());
                    let action = match table.act(seat, &observation) {
                        None => {
                            let action = default_action(&fight.units, id);
                            fight.events.push(Event::DefaultAction {
                                unit: id,
                                action,
                                reason: "no answer".to_owned(),
                            });
                            action
                        }
                        Some(action) => match check_action(&fight.units, id, action) {
                            Ok(()) => action,
                            Err(reason) => {
                                table.reject(seat, reason.clone());
                                let action = default_action(&fight.units, id);
                                fight.events.push(Event::DefaultAction {
                                    unit: id,
                                    action,
                                    reason: reason.clone(),
                                });
                                last_rejected[idx] = Some(reason);
                                action
                            }
                        },
                    };
                    fight.perform(id, action);
                }
                fight.end_turn(id);
                if let Some(winner) = fight.winner() {
                    flush(&mut fight, table);
                    return Finish {
                        winner: Some(winner),
                        reason: "team destroyed".to_owned(),
                        stats: fight.stats.clone(),
                    };
                }
                if let Some(loser) = table.forfeited() {
                    flush(&mut fight, table);
                    let stats = fight.stats.clone();
                    return table.forfeit_finish(loser, stats);
                }
                if fight.turn >= rules.turn_cap {
                    let (winner, reason) = fight.cap_finish();
                    flush(&mut fight, table);
                    return Finish {
                        winner,
                        reason,
                        stats: fight.stats.clone(),
                    };
                }
                flush(&mut fight, table);
            }
        }
    }

    fn describe(event: &Event) -> String {
        describe(event)
    }

    fn picture(initial: &Initial, events: &[Event]) -> Option<String> {
        let mut view = View::new(initial);
        for event in events {
            view.apply(event);
        }
        Some(view.render())
    }

    fn frames(initial: &Initial, events: &[Event]) -> Option<crate::frames::Frames> {
        Some(frames::frames(initial, events))
    }
}

fn plural_turns(n: u32) -> String {
    if n == 1 {
        "1 turn".to_owned()
    } else {
        format!("{n} turns")
    }
}

fn permille(roll: u32) -> String {
    format!("{}.{:03}", roll / 1000, roll % 1000)
}

fn describe(event: &Event) -> String {
    match event {
        Event::TurnStart {
            turn,
            unit,
            seat,
            kind,
            meter,
        } => format!(
            "turn {turn}: #{unit} {} (seat {seat}), meter {meter}",
            kind.name()
        ),
        Event::EffectTick {
            unit,
            effect,
            turns_left,
            change,
            integrity,
        } => {
            let what = if *change < 0 {
                format!("takes {} damage", -change)
            } else {
                format!("is repaired by {change}")
            };
            format!(
                "  #{unit} {what} from {} ({} left) -> {integrity}",
                effect.name(),
                plural_turns(*turns_left)
            )
        }
        Event::BombExploded {
            unit,
            roll,
            power,
            armor,
            damage,
            integrity,
        } => format!(
            "  a bomb explodes on #{unit}: {} x {power} - armor {armor} = {damage} -> {integrity}",
            permille(*roll)
        ),
        Event::Stunned { unit } => format!("  #{unit} is stunned and misses its move"),
        Event::DefaultAction {
            unit,
            action,
            reason,
        } => {
            let what = match action {
                Action::Attack { target } => format!("attack #{target}"),
                Action::Skill => "skill".to_owned(),
            };
            format!("  #{unit} plays the default ({what}): {reason}")
        }
        Event::Attack {
            attacker,
            target,
            counter,
            evasion_roll,
            evasion,
            hit,
        } => {
            let verb = if *counter {
                "counter-attacks"
            } else {
                "attacks"
            };
            match hit {
                None => format!(
                    "  #{attacker} {verb} #{target}: evaded (roll {evasion_roll} < {evasion}%)"
                ),
                Some(h) => {
                    let crit = if h.crit { " x2 crit" } else { "" };
                    let bonus = if h.bonus_pct == 100 {
                        String::new()
                    } else {
                        format!(" x{}%", h.bonus_pct)
                    };
                    format!(
                        "  #{attacker} {verb} #{target}: {} x {}{crit} - armor {}{bonus} = {} damage -> {}",
                        permille(h.roll),
                        h.power,
                        h.armor,
                        h.damage,
                        h.integrity
                    )
                }
            }
        }
        Event::EffectApplied {
            source,
            target,
            effect,
            turns,
            magnitude,
            refreshed,
        } => {
            let how = if *refreshed { "renewed on" } else { "on" };
            let strength = if *magnitude > 0 {
                format!(" ({magnitude})")
            } else {
                String::new()
            };
            format!(
                "  {}{strength} {how} #{target} for {} (by #{source})",
                effect.name(),
                plural_turns(*turns)
            )
        }
        Event::EffectFailed {
            source,
            target,
            effect,
            reason,
        } => match reason {
            Failure::Effectivity { roll, chance } => format!(
                "  #{source} fails to inflict {}: effectivity roll {roll} >= {chance}%",
                effect.name()
            ),
            Failure::Resistance { roll, chance } => format!(
                "  #{target} resists {} from #{source}: roll {roll} < {chance}%",
                effect.name()
            ),
            Failure::AlreadyPresent => format!(
                "  #{target} already has {}; #{source} cannot add it",
                effect.name()
            ),
        },
        Event::SkillUsed {
            unit,
            skill,
            cooldown,
        } => format!("  #{unit} uses {} (cooldown {cooldown})", skill.name()),
        Event::Redistribute {
            source,
            total,
            units,
            share,
        } => {
            format!("  #{source} redistributes {total} integrity over {units} units: {share} each")
        }
        Event::Repair {
            source,
            target,
            change,
            integrity,
        } => format!("  #{target} repaired {change:+} by #{source} -> {integrity}"),
        Event::Expired { unit, effect } => format!("  {} on #{unit} expires", effect.name()),
        Event::Destroyed { unit, seat } => format!("  #{unit} (seat {seat}) is destroyed"),
        Event::TurnCap { integrity, max } => format!(
            "turn cap reached: integrity left {}/{} vs {}/{}",
            integrity[0], max[0], integrity[1], max[1]
        ),
    }
}

/// The state a replay viewer can rebuild from the events alone.
struct View {
    units: Vec<Unit>,
    turn: u32,
    acting: Option<UnitId>,
}

impl View {
    fn new(initial: &Initial) -> Self {
        View {
            units: initial.units.clone(),
            turn: 0,
            acting: None,
        }
    }

    fn unit(&mut self, id: UnitId) -> Option<&mut Unit> {
        self.units.get_mut(usize::from(id))
    }

    fn set_integrity(&mut self, id: UnitId, integrity: i32) {
        if let Some(u) = self.unit(id) {
            u.integrity = integrity;
        }
    }

    /// Mirrors what the engine does for each event.
    fn apply(&mut self, event: &Event) {
        match *event {
            Event::TurnStart {
                turn, unit, meter, ..
            } => {
                self.turn = turn;
                self.acting = Some(unit);
                if let Some(u) = self.unit(unit) {
                    u.turn_meter = meter - TURN_METER_FULL;
                    u.cooldown = u.cooldown.saturating_sub(1);
                    for e in &mut u.effects {
                        e.turns_left = e.turns_left.saturating_sub(1);
                    }
                }
            }
            Event::EffectTick {
                unit, integrity, ..
            }
            | Event::BombExploded {
                unit, integrity, ..
            }
            | Event::Repair {
                target: unit,
                integrity,
                ..
            } => self.set_integrity(unit, integrity),
            Event::Attack { target, hit, .. } => {
                if let Some(hit) = hit {
                    self.set_integrity(target, hit.integrity);
                }
            }
            Event::EffectApplied {
                target,
                effect,
                turns,
                magnitude,
                refreshed,
                ..
            } => {
                if let Some(u) = self.unit(target) {
                    match u.effects.iter_mut().find(|e| e.effect == effect) {
                        Some(e) if refreshed => {
                            e.turns_left = turns;
                            e.magnitude = magnitude;
                        }
                        _ => u.effects.push(ActiveEffect {
                            effect,
                            turns_left: turns,
                            magnitude,
                        }),
                    }
                }
            }
            Event::Expired { unit, effect } => {
                if let Some(u) = self.unit(unit)
                    && let Some(pos) = u
                        .effects
                        .iter()
                        .position(|e| e.effect == effect && e.turns_left == 0)
                {
                    u.effects.remove(pos);
                }
            }
            Event::SkillUsed { unit, cooldown, .. } => {
                if let Some(u) = self.unit(unit) {
                    u.cooldown = cooldown;
                }
            }
            Event::Destroyed { unit, .. } => {
                if let Some(u) = self.unit(unit) {
                    u.integrity = 0;
                    u.destroyed = true;
                    u.effects.clear();
                }
            }
            Event::Stunned { .. }
            | Event::DefaultAction { .. }
            | Event::EffectFailed { .. }
            | Event::Redistribute { .. }
            | Event::TurnCap { .. } => {}
        }
    }

    fn render(&self) -> String {
        const BAR: i32 = 20;
        let mut out = format!("turn {}\n", self.turn);
        for seat in 0..2u8 {
            let _ = writeln!(out, "seat {seat}");
            for u in self.units.iter().filter(|u| u.owner == seat) {
                let marker = if self.acting == Some(u.id) { '>' } else { ' ' };
                let max = u.base.integrity.max(1);
                let filled = (u.integrity * BAR + max - 1) / max;
                let bar: String = (0..BAR)
                    .map(|i| if i < filled { '#' } else { '.' })
                    .collect();
                let _ = write!(
                    out,
                    "{marker}#{} {:<14} [{bar}] {:>4}/{:<4}",
                    u.id,
                    u.kind.name(),
                    u.integrity,
                    u.base.integrity
                );
                if u.destroyed {
                    out.push_str("  destroyed\n");
                    continue;
                }
                match u.kind.skill() {
                    Some(_) if u.cooldown == 0 => out.push_str("  skill ready"),
                    Some(_) => {
                        let _ = write!(out, "  cooldown {}", u.cooldown);
                    }
                    None => out.push_str("  no skill   "),
                }
                for e in &u.effects {
                    let _ = write!(out, "  {}({})", e.effect.name(), e.turns_left);
                }
                out.push('\n');
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{Entry, Replay};
    use crate::{MatchConfig, NativePlayer, Player, run_match};
    use arena_sdk::Bot;
    use arena_sdk::battle::BotType::*;
    use arena_sdk::battle::Stats;
    use proptest::prelude::*;
    use rand::Rng;
    use rand::seq::IndexedRandom;

    fn fight(team0: [BotType; 3], team1: [BotType; 3], seed: u64) -> Fight {
        Fight::new(
            &[team0.to_vec(), team1.to_vec()],
            ChaCha8Rng::seed_from_u64(seed),
        )
    }

    fn count(unit: &Unit, effect: Effect) -> usize {
        unit.effects.iter().filter(|e| e.effect == effect).count()
    }

    #[test]
    fn stat_table_matches_the_document() {
        // (integrity, power, speed, armor, evasion, critical, resistance, effectivity)
        let table = [
            (Aggro, (800, 100, 40, 20, 0, 10, 10, 30)),
            (Stealth, (500, 70, 90, 20, 20, 20, 0, 40)),
            (Glass, (300, 180, 20, 0, 30, 10, 5, 65)),
            (Tank, (1200, 50, 30, 40, 5, 10, 20, 25)),
            (Beaverette, (1000, 70, 35, 30, 5, 15, 10, 0)),
            (Kamikaze, (500, 50, 40, 0, 0, 20, 0, 65)),
            (Nurse, (700, 80, 50, 15, 15, 10, 20, 30)),
            (Doctor, (950, 30, 35, 25, 10, 10, 25, 0)),
        ];
        for (kind, (integrity, power, speed, armor, evasion, critical, resistance, effectivity)) in
            table
        {
            assert_eq!(
                kind.stats(),
                Stats {
                    integrity,
                    power,
                    speed,
                    armor,
                    evasion,
                    critical,
                    resistance,
                    effectivity
                },
                "{}",
                kind.name()
            );
        }
    }

    #[test]
    fn effect_and_skill_tables_match_the_document() {
        use Effect::{Bomb, ContinuousDamage, DefenseDown, OffenseDown, SpeedDown, Stun};
        let negative = [
            (Aggro, vec![DefenseDown, Stun], 1, false),
            (Stealth, vec![SpeedDown, OffenseDown], 2, false),
            (Glass, vec![ContinuousDamage], 2, true),
            (Tank, vec![Bomb], 3, false),
            (Beaverette, vec![], 0, false),
            (Kamikaze, vec![Bomb], 2, true),
            (Nurse, vec![SpeedDown], 1, false),
            (Doctor, vec![], 0, false),
        ];
        for (kind, effects, turns, all) in negative {
            assert_eq!(kind.inflicts(), effects.as_slice(), "{}", kind.name());
            assert_eq!(kind.inflict_turns(), turns, "{}", kind.name());
            assert_eq!(kind.inflicts_all(), all, "{}", kind.name());
        }
        let positive = [
            (Aggro, Some((Skill::OffenseUp, 4, 2))),
            (Stealth, Some((Skill::Stealth, 4, 3))),
            (Glass, None),
            (Tank, Some((Skill::Taunt, 3, 2))),
            (Beaverette, Some((Skill::TeamBoost, 3, 2))),
            (Kamikaze, Some((Skill::Retribution, 4, 1))),
            (Nurse, Some((Skill::Repair, 4, 2))),
            (Doctor, Some((Skill::Redistribute, 5, 0))),
        ];
        for (kind, skill) in positive {
            let got = kind.skill().map(|s| (s, s.cooldown(), s.turns()));
            assert_eq!(got, skill, "{}", kind.name());
        }
    }

    #[test]
    fn damage_formula_bounds() {
        // Glass Bot (power 180) against Tank Bot (armor 40).
        assert_eq!(damage(500, 180, false, 40, 100), 50);
        assert_eq!(damage(1000, 180, false, 40, 100), 140);
        // Critical hits double before armor.
        assert_eq!(damage(500, 180, true, 40, 100), 140);
        assert_eq!(damage(1000, 180, true, 40, 100), 320);
        // Damage never goes below 0: Doctor (power 30) against Tank.
        assert_eq!(damage(500, 30, false, 40, 100), 0);
        assert_eq!(damage(1000, 30, false, 40, 100), 0);
        // Fractions are dropped: 0.733 × 100 = 73.3 → 73.
        assert_eq!(damage(733, 100, false, 20, 100), 53);
        // Offense Up +50%, Stealth +30%, both ×1.95, applied after armor.
        assert_eq!(damage(1000, 100, false, 20, 150), 120);
        assert_eq!(damage(1000, 100, false, 20, 130), 104);
        assert_eq!(damage(1000, 100, false, 20, 195), 156);
    }

    #[test]
    fn attacks_follow_the_formula() {
        let mut f = fight([Glass, Aggro, Nurse], [Tank, Doctor, Beaverette], 1);
        let mut crits = 0;
        for _ in 0..400 {
            f.units[3].integrity = 1200;
            f.units[3].effects.clear();
            f.events.clear();
            f.attack(0, 3, false);
            let Event::Attack { hit, evasion, .. } = &f.events[0] else {
                panic!("an attack comes first: {:?}", f.events);
            };
            assert_eq!(*evasion, 5);
            let Some(hit) = hit else { continue };
            assert_eq!((hit.power, hit.armor, hit.bonus_pct), (180, 40, 100));
            assert_eq!(hit.damage, damage(hit.roll, 180, hit.crit, 40, 100));
            assert_eq!(hit.crit, hit.crit_roll < 10);
            if hit.crit {
                crits += 1;
                assert!((140..=320).contains(&hit.damage), "{hit:?}");
            } else {
                assert!((50..=140).contains(&hit.damage), "{hit:?}");
            }
            assert_eq!(hit.integrity, 1200 - hit.damage);
            assert_eq!(f.units[3].integrity, 1200 - hit.damage);
        }
        assert!(crits > 10, "about 10% of hits are critical: {crits}");
    }

    #[test]
    fn integrity_floors_at_zero_and_destroyed_units_leave_at_once() {
        let mut f = fight([Aggro, Glass, Nurse], [Kamikaze, Tank, Doctor], 2);
        f.units[3].integrity = 10;
        f.attack(0, 3, false); // Kamikaze never evades: a hit of at least 30.
        assert_eq!(f.units[3].integrity, 0);
        assert!(f.units[3].destroyed);
        assert!(f.events.contains(&Event::Destroyed { unit: 3, seat: 1 }));
        assert_eq!(legal_targets(&f.units, 0), vec![4, 5]);
        assert_eq!(f.stats[0]["kills"], 1);
        assert_eq!(f.stats[1]["units_lost"], 1);
        assert_eq!(
            f.stats[0]["damage_dealt"], 10,
            "only the integrity it had counts"
        );
        // A destroyed unit's meter no longer fills and it never becomes ready.
        for _ in 0..30 {
            assert!(!f.next_ready().contains(&3));
        }
    }

    #[test]
    fn turn_meter_order_follows_the_pseudo_code() {
        // Speeds: #0 Stealth 90, #1 Nurse 50, #2 Aggro 40, #3 Tank 30, #4 Beaverette 35,
        // #5 Glass 20. Ready at ticks: Stealth 12, 23, 34, 45, 56; Nurse 20, 40;
        // Aggro 25, 50; Beaverette 29; Tank 34; Glass 50.
        let mut f = fight([Stealth, Nurse, Aggro], [Tank, Beaverette, Glass], 3);
        let expected: [&[UnitId]; 9] = [&[0], &[1], &[0], &[2], &[4], &[0, 3], &[1], &[0], &[2, 5]];
        for (step, want) in expected.iter().enumerate() {
            let mut got = f.next_ready();
            for &id in &got {
                f.begin_turn(id);
            }
            got.sort_unstable();
            assert_eq!(got, *want, "step {step}");
        }
        // Stealth's first turn came at tick 12 with 1080; after −1000 it kept 80.
        let mut f = fight([Stealth, Nurse, Aggro], [Tank, Beaverette, Glass], 3);
        assert_eq!(f.next_ready(), vec![0]);
        f.begin_turn(0);
        assert!(matches!(f.events[0], Event::TurnStart { meter: 1080, .. }));
        assert_eq!(f.units[0].turn_meter, 80);
    }

    #[test]
    fn units_ready_in_the_same_tick_act_in_random_order() {
        let mut orders = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let mut f = fight([Stealth, Nurse, Aggro], [Tank, Beaverette, Glass], seed);
            for _ in 0..5 {
                for id in f.next_ready() {
                    f.begin_turn(id);
                }
            }
            orders.insert(f.next_ready());
        }
        assert_eq!(
            orders,
            [vec![0, 3], vec![3, 0]].into_iter().collect(),
            "both orders occur"
        );
    }

    #[test]
    fn effective_stats() {
        let mut tank = Unit::new(0, 0, Tank);
        let put = |u: &mut Unit, effect| {
            u.effects.push(ActiveEffect {
                effect,
                turns_left: 1,
                magnitude: 0,
            })
        };
        put(&mut tank, Effect::DefenseUp);
        assert_eq!((armor(&tank), resistance(&tank)), (60, 30));
        tank.effects.clear();
        put(&mut tank, Effect::DefenseDown);
        assert_eq!((armor(&tank), resistance(&tank)), (20, 10));
        let mut aggro = Unit::new(1, 0, Aggro);
        put(&mut aggro, Effect::OffenseDown);
        assert_eq!(power(&aggro), 75);
        put(&mut aggro, Effect::SpeedUp);
        assert_eq!(speed(&aggro), 50);
        put(&mut aggro, Effect::SpeedDown);
        assert_eq!(speed(&aggro), 37, "40 × 1.25 × 0.75 = 37.5, rounded down");
        put(&mut aggro, Effect::OffenseUp);
        assert_eq!(bonus_pct(&aggro), 150);
        put(&mut aggro, Effect::Stealth);
        assert_eq!(bonus_pct(&aggro), 195);
        let mut glass = Unit::new(2, 0, Glass);
        assert_eq!(evasion(&glass), 30);
        put(&mut glass, Effect::Stun);
        assert_eq!(evasion(&glass), 0, "a stunned bot cannot evade");
    }

    #[test]
    fn defense_down_and_offense_down_do_not_stack() {
        let mut f = fight([Aggro, Stealth, Nurse], [Kamikaze, Stealth, Tank], 4);
        for effect in [Effect::DefenseDown, Effect::OffenseDown] {
            // Kamikaze (#3) and Stealth (#4) have 0% resistance: the first try lands.
            f.try_negative(0, 3, effect);
            assert_eq!(count(&f.units[3], effect), 1);
            f.events.clear();
            f.try_negative(0, 3, effect);
            assert_eq!(count(&f.units[3], effect), 1);
            assert_eq!(
                f.events,
                vec![Event::EffectFailed {
                    source: 0,
                    target: 3,
                    effect,
                    reason: Failure::AlreadyPresent
                }]
            );
        }
    }

    #[test]
    fn continuous_damage_and_bombs_stack() {
        let mut f = fight([Glass, Tank, Nurse], [Kamikaze, Stealth, Aggro], 5);
        f.try_negative(0, 3, Effect::ContinuousDamage);
        f.try_negative(0, 3, Effect::ContinuousDamage);
        f.try_negative(1, 3, Effect::Bomb);
        f.try_negative(1, 3, Effect::Bomb);
        assert_eq!(count(&f.units[3], Effect::ContinuousDamage), 2);
        assert_eq!(count(&f.units[3], Effect::Bomb), 2);
        // Glass Bot's damage over time is its power, for 2 turns; Tank's bomb lasts 3.
        let dot = f.units[3].effects[0];
        assert_eq!((dot.magnitude, dot.turns_left), (180, 2));
        let bomb = f.units[3].effects[2];
        assert_eq!((bomb.magnitude, bomb.turns_left), (50, 3));
        // Two stacks hurt twice at the start of the bearer's turn.
        assert!(f.begin_turn(3));
        assert_eq!(f.units[3].integrity, 500 - 2 * 180);
    }

    #[test]
    fn offense_up_raises_the_damage_of_effects_too() {
        // "Offense Up — increases all caused damage of a bot by 50%."
        let mut f = fight([Glass, Tank, Nurse], [Kamikaze, Stealth, Aggro], 5);
        f.put(0, 0, Effect::OffenseUp, 2, 0);
        f.put(1, 1, Effect::OffenseUp, 2, 0);
        f.try_negative(0, 3, Effect::ContinuousDamage);
        f.try_negative(1, 3, Effect::Bomb);
        let magnitudes: Vec<i32> = f.units[3].effects.iter().map(|e| e.magnitude).collect();
        assert_eq!(magnitudes, vec![180 * 3 / 2, 50 * 3 / 2]);
    }

    #[test]
    fn speed_down_and_stun_are_renewed_not_stacked() {
        let mut f = fight([Stealth, Aggro, Nurse], [Kamikaze, Stealth, Tank], 6);
        f.try_negative(0, 3, Effect::SpeedDown);
        f.begin_turn(3);
        assert_eq!(f.units[3].effects[0].turns_left, 1);
        f.events.clear();
        f.try_negative(0, 3, Effect::SpeedDown);
        assert_eq!(count(&f.units[3], Effect::SpeedDown), 1);
        assert_eq!(f.units[3].effects[0].turns_left, 2);
        assert!(matches!(
            f.events[0],
            Event::EffectApplied {
                refreshed: true,
                ..
            }
        ));
        f.try_negative(1, 3, Effect::Stun);
        f.try_negative(1, 3, Effect::Stun);
        assert_eq!(count(&f.units[3], Effect::Stun), 1);
    }

    #[test]
    fn durations_tick_at_the_start_of_the_bearers_turns() {
        let mut f = fight([Glass, Aggro, Nurse], [Tank, Doctor, Beaverette], 7);
        f.put(0, 3, Effect::ContinuousDamage, 2, 180);
        assert!(f.begin_turn(3));
        assert_eq!(f.units[3].integrity, 1020, "armor does not reduce it");
        assert_eq!(f.units[3].effects[0].turns_left, 1);
        f.end_turn(3);
        assert_eq!(count(&f.units[3], Effect::ContinuousDamage), 1);
        assert!(f.begin_turn(3));
        assert_eq!(f.units[3].integrity, 840);
        assert_eq!(f.units[3].effects[0].turns_left, 0);
        f.events.clear();
        f.end_turn(3);
        assert!(f.units[3].effects.is_empty());
        assert_eq!(
            f.events,
            vec![Event::Expired {
                unit: 3,
                effect: Effect::ContinuousDamage
            }]
        );
        // Only the bearer's own turns count.
        f.put(0, 3, Effect::DefenseDown, 1, 0);
        f.begin_turn(4);
        f.end_turn(4);
        assert_eq!(armor(&f.units[3]), 20);
        f.begin_turn(3);
        assert_eq!(armor(&f.units[3]), 20, "still on during its last turn");
        f.end_turn(3);
        assert_eq!(armor(&f.units[3]), 40);
    }

    #[test]
    fn continuous_damage_is_credited_to_the_other_seat() {
        let mut f = fight([Glass, Aggro, Nurse], [Kamikaze, Doctor, Beaverette], 7);
        f.put(0, 3, Effect::ContinuousDamage, 2, 180);
        f.put(0, 3, Effect::ContinuousDamage, 2, 180);
        f.units[3].integrity = 300;
        assert!(!f.begin_turn(3));
        assert!(f.units[3].destroyed);
        assert_eq!(f.stats[0]["kills"], 1);
        assert_eq!(f.stats[0]["damage_dealt"], 300);
        assert_eq!(f.stats[1]["damage_taken"], 300);
    }

    #[test]
    fn bombs_explode_when_they_expire() {
        for seed in 0..20 {
            let mut f = fight([Tank, Aggro, Nurse], [Aggro, Doctor, Beaverette], seed);
            f.put(0, 3, Effect::Bomb, 2, 50);
            f.begin_turn(3);
            f.end_turn(3);
            assert_eq!(f.units[3].integrity, 800);
            f.events.clear();
            f.begin_turn(3);
            let Some(Event::BombExploded {
                roll,
                power,
                armor,
                damage: dealt,
                integrity,
                ..
            }) = f.events.get(1).cloned()
            else {
                panic!("the bomb explodes: {:?}", f.events);
            };
            assert_eq!((power, armor), (50, 20));
            assert_eq!(dealt, damage(roll, 50, false, 20, 100));
            assert!((5..=30).contains(&dealt), "0.5×50−20 .. 50−20: {dealt}");
            assert_eq!(integrity, 800 - dealt);
            f.end_turn(3);
            assert!(f.units[3].effects.is_empty());
        }
    }

    #[test]
    fn stunned_units_skip_their_move() {
        let mut f = fight([Aggro, Glass, Nurse], [Stealth, Doctor, Beaverette], 8);
        f.put(0, 3, Effect::Stun, 1, 0);
        assert!(!f.begin_turn(3));
        assert_eq!(f.events.last(), Some(&Event::Stunned { unit: 3 }));
        f.end_turn(3);
        assert!(f.begin_turn(3), "the stun lasted one turn");
    }

    #[test]
    fn effects_are_rolled_only_on_hits_and_need_both_rolls() {
        let mut f = fight([Glass, Aggro, Nurse], [Stealth, Nurse, Aggro], 9);
        let (mut evaded, mut applied, mut resisted, mut ineffective) = (0, 0, 0, 0);
        for _ in 0..300 {
            for u in &mut f.units {
                u.integrity = u.base.integrity;
                u.effects.clear();
            }
            f.events.clear();
            f.attack(0, 3, false);
            match &f.events[0] {
                Event::Attack { hit: None, .. } => {
                    evaded += 1;
                    assert_eq!(f.events.len(), 1, "no effect after an evaded attack");
                    continue;
                }
                Event::Attack { hit: Some(_), .. } => {}
                other => panic!("{other:?}"),
            }
            for event in &f.events[1..] {
                match event {
                    Event::EffectFailed {
                        reason: Failure::Effectivity { roll, chance },
                        ..
                    } => {
                        assert!(*roll >= 65 && *chance == 65);
                        ineffective += 1;
                    }
                    Event::EffectFailed {
                        reason: Failure::Resistance { roll, chance },
                        target,
                        ..
                    } => {
                        assert_eq!(*chance, f.units[usize::from(*target)].base.resistance);
                        assert!(i64::from(*roll) < i64::from(*chance));
                        resisted += 1;
                    }
                    Event::EffectApplied {
                        effect: Effect::ContinuousDamage,
                        magnitude: 180,
                        turns: 2,
                        ..
                    } => applied += 1,
                    other => panic!("unexpected {other:?}"),
                }
            }
            // Area effect: when effectivity passes every living enemy gets its own roll.
            let per_enemy = f.events[1..]
                .iter()
                .filter(|e| {
                    !matches!(
                        e,
                        Event::EffectFailed {
                            reason: Failure::Effectivity { .. },
                            ..
                        }
                    )
                })
                .count();
            assert!(per_enemy == 0 || per_enemy == 3, "{:?}", f.events);
        }
        assert!(evaded > 30 && applied > 100 && resisted > 5 && ineffective > 30);
    }

    #[test]
    fn nurse_repairs_thirty_percent_of_its_maximum() {
        let mut f = fight([Nurse, Tank, Glass], [Aggro, Doctor, Beaverette], 10);
        f.units[0].integrity = 600;
        f.units[1].integrity = 500;
        f.units[2].integrity = 200;
        f.use_skill(0);
        let changes: Vec<(UnitId, i32, i32)> = f
            .events
            .iter()
            .filter_map(|e| match *e {
                Event::Repair {
                    target,
                    change,
                    integrity,
                    ..
                } => Some((target, change, integrity)),
                _ => None,
            })
            .collect();
        // 30% of 700 = 210, capped at each unit's maximum.
        assert_eq!(changes, vec![(0, 100, 700), (1, 210, 710), (2, 100, 300)]);
        assert_eq!(f.stats[0]["healing"], 410);
        for e in f.units[..3].iter().flat_map(|u| &u.effects) {
            assert_eq!(
                (e.effect, e.turns_left, e.magnitude),
                (Effect::ContinuousRepair, 2, 70)
            );
        }
        assert_eq!(f.units[0].cooldown, 4);
        // Continuous Repair gives 10% of 700 on each of the bearer's two next turns.
        let mut some = 0;
        for seed in 0..20 {
            let mut f = fight([Nurse, Tank, Glass], [Aggro, Doctor, Beaverette], seed);
            f.units[1].integrity = 100;
            f.use_skill(0);
            if f.units[1].has(Effect::ContinuousRepair) {
                some += 1;
                f.begin_turn(1);
                assert_eq!(f.units[1].integrity, 100 + 210 + 70);
            }
        }
        assert!((3..=17).contains(&some), "a 50% chance each: {some}/20");
    }

    #[test]
    fn doctor_redistributes_then_repairs() {
        let mut f = fight([Doctor, Glass, Tank], [Aggro, Nurse, Beaverette], 11);
        f.units[0].integrity = 500;
        f.units[1].integrity = 100;
        f.units[2].integrity = 900;
        f.use_skill(0);
        assert!(f.events.contains(&Event::Redistribute {
            source: 0,
            total: 1500,
            units: 3,
            share: 500
        }));
        // 1500 / 3 = 500, + 10% of 950 = 95; the glass bot is capped at 300.
        let now: Vec<i32> = f.units[..3].iter().map(|u| u.integrity).collect();
        assert_eq!(now, vec![595, 300, 595]);
        assert_eq!(f.stats[0]["healing"], 95 + 200);

        // Destroyed units are not part of the team any more; the share is rounded down.
        let mut f = fight([Doctor, Glass, Tank], [Aggro, Nurse, Beaverette], 11);
        f.units[0].integrity = 500;
        f.units[2].integrity = 901;
        f.hurt(1, 300, 1);
        f.use_skill(0);
        assert_eq!(f.units[0].integrity, 700 + 95);
        assert_eq!(f.units[2].integrity, 700 + 95);
        assert_eq!(f.units[1].integrity, 0);
    }

    #[test]
    fn taunt_and_stealth_decide_the_legal_targets() {
        let mut f = fight([Aggro, Glass, Nurse], [Tank, Stealth, Glass], 12);
        assert_eq!(legal_targets(&f.units, 0), vec![3, 4, 5]);
        f.put(4, 4, Effect::Stealth, 3, 0);
        assert_eq!(legal_targets(&f.units, 0), vec![3, 5]);
        f.use_skill(3); // Tank: Taunt on itself, Defense Up on the team.
        assert_eq!(legal_targets(&f.units, 0), vec![3]);
        assert!(f.units[3..].iter().all(|u| u.has(Effect::DefenseUp)));
        assert_eq!(
            check_action(&f.units, 0, Action::Attack { target: 5 }).unwrap_err(),
            "cannot attack unit 5: an enemy taunts, or it is in stealth (legal targets: [3])"
        );
        // Only stealthed enemies left: they can be attacked.
        f.hurt(3, 5000, 0);
        f.hurt(5, 5000, 0);
        assert_eq!(legal_targets(&f.units, 0), vec![4]);
        // Taunt wins over stealth.
        let mut f = fight([Aggro, Glass, Nurse], [Tank, Stealth, Glass], 12);
        f.put(4, 4, Effect::Stealth, 3, 0);
        f.put(4, 4, Effect::Taunt, 2, 0);
        assert_eq!(legal_targets(&f.units, 0), vec![4]);
    }

    #[test]
    fn positive_effects_are_renewed_not_stacked() {
        let mut f = fight([Beaverette, Glass, Nurse], [Tank, Stealth, Glass], 13);
        f.use_skill(0);
        f.begin_turn(1);
        assert_eq!(f.units[1].effects[0].turns_left, 1);
        f.units[0].cooldown = 0;
        f.use_skill(0);
        assert_eq!(count(&f.units[1], Effect::DefenseUp), 1);
        assert_eq!(count(&f.units[1], Effect::SpeedUp), 1);
        assert!(f.units[1].effects.iter().all(|e| e.turns_left == 2));
        assert_eq!(speed(&f.units[1]), 25);
    }

    #[test]
    fn retribution_counter_attacks_once() {
        let (mut countered, mut stunned) = (0, 0);
        for seed in 0..60 {
            let mut f = fight([Aggro, Glass, Nurse], [Kamikaze, Stealth, Tank], seed);
            f.put(3, 3, Effect::Retribution, 1, 0);
            f.attack(0, 3, false);
            let counters: Vec<&Event> = f
                .events
                .iter()
                .filter(|e| matches!(e, Event::Attack { counter: true, .. }))
                .collect();
            if f.units[3].has(Effect::Stun) {
                stunned += 1;
                assert!(counters.is_empty(), "a stunned bot does not counter");
            } else {
                countered += 1;
                assert_eq!(counters.len(), 1);
                assert!(matches!(
                    counters[0],
                    Event::Attack {
                        attacker: 3,
                        target: 0,
                        ..
                    }
                ));
            }
        }
        assert!(countered > 0 && stunned > 0);
    }

    #[test]
    fn skills_wait_for_their_cooldown() {
        let mut f = fight([Nurse, Tank, Glass], [Aggro, Doctor, Beaverette], 14);
        assert!(skill_ready(&f.units[0]));
        f.use_skill(0);
        let mut ready = Vec::new();
        for _ in 0..4 {
            f.begin_turn(0);
            ready.push(skill_ready(&f.units[0]));
            assert_eq!(
                check_action(&f.units, 0, Action::Skill).is_ok(),
                *ready.last().unwrap()
            );
            f.end_turn(0);
        }
        assert_eq!(ready, vec![false, false, false, true]);
        assert!(
            check_action(&f.units, 2, Action::Skill)
                .unwrap_err()
                .contains("no secondary skill")
        );
    }

    #[test]
    fn default_action_attacks_the_weakest_legal_target() {
        let mut f = fight([Aggro, Glass, Nurse], [Tank, Stealth, Glass], 15);
        f.units[3].integrity = 200;
        f.units[5].integrity = 200;
        assert_eq!(default_action(&f.units, 0), Action::Attack { target: 3 });
        f.units[4].integrity = 100;
        assert_eq!(default_action(&f.units, 0), Action::Attack { target: 4 });
    }

    #[test]
    fn rules_are_validated() {
        assert!(Battle::validate(&Rules::default()).is_ok());
        let short = Rules {
            roster: vec![Aggro, Tank],
            ..Rules::default()
        };
        assert!(Battle::validate(&short).unwrap_err().contains("3 distinct"));
        let twice = Rules {
            roster: vec![Aggro, Tank, Aggro, Nurse],
            ..Rules::default()
        };
        assert!(Battle::validate(&twice).unwrap_err().contains("twice"));
        let no_cap = Rules {
            turn_cap: 0,
            ..Rules::default()
        };
        assert!(Battle::validate(&no_cap).is_err());
    }

    /// A test bot: a seeded random team and random actions, some of them illegal.
    #[derive(Default)]
    struct Chaos {
        rng: Option<ChaCha8Rng>,
        illegal_pct: u32,
        rejections_seen: u32,
    }

    impl Chaos {
        fn new(illegal_pct: u32) -> Self {
            Chaos {
                illegal_pct,
                ..Chaos::default()
            }
        }
        fn rng(&mut self) -> &mut ChaCha8Rng {
            self.rng.get_or_insert_with(|| ChaCha8Rng::seed_from_u64(0))
        }
    }

    impl Bot<Battle> for Chaos {
        fn start(&mut self, start: &arena_sdk::MatchStart<Battle>) {
            self.rng = Some(ChaCha8Rng::seed_from_u64(start.seed));
        }
        fn setup(&mut self, request: &SetupRequest) -> TeamChoice {
            let illegal = self.illegal_pct;
            let rng = self.rng();
            let mut team = request.roster.clone();
            team.shuffle(rng);
            team.truncate(3);
            if rng.random_range(0..100) < illegal {
                team[1] = team[0];
            }
            TeamChoice { team }
        }
        fn act(&mut self, observation: &Observation) -> Action {
            if observation.last_rejected.is_some() {
                self.rejections_seen += 1;
            }
            let illegal = self.illegal_pct;
            let rng = self.rng();
            if rng.random_range(0..100) < illegal {
                return if rng.random_bool(0.5) {
                    Action::Skill
                } else {
                    Action::Attack {
                        target: rng.random_range(0..8),
                    }
                };
            }
            if observation.skill_ready && rng.random_bool(0.4) {
                return Action::Skill;
            }
            let target = *observation
                .legal_targets
                .choose(rng)
                .expect("a legal target while the match runs");
            Action::Attack { target }
        }
    }

    fn play(seed: u64, rules: &Rules, illegal_pct: u32) -> crate::MatchRecord<Battle> {
        let mut a = NativePlayer::new(Chaos::new(illegal_pct));
        let mut b = NativePlayer::new(Chaos::new(illegal_pct));
        let players: [&mut dyn Player<Battle>; 2] = [&mut a, &mut b];
        run_match::<Battle>(&MatchConfig::new(rules.clone(), seed), players)
    }

    fn events(replay: &Replay<Battle>) -> Vec<Event> {
        replay.events().cloned().collect()
    }

    #[test]
    fn invalid_teams_are_rejected_and_replaced_by_the_default() {
        struct Twice {
            observations: u32,
        }
        impl Bot<Battle> for Twice {
            fn setup(&mut self, _: &SetupRequest) -> TeamChoice {
                TeamChoice {
                    team: vec![Glass, Glass, Tank],
                }
            }
            fn act(&mut self, o: &Observation) -> Action {
                self.observations += 1;
                if self.observations == 1 {
                    let told = o.last_rejected.as_deref().unwrap_or_default();
                    assert!(told.contains("in the team twice"), "{told}");
                } else {
                    assert_eq!(o.last_rejected, None);
                }
                Action::Attack {
                    target: o.legal_targets[0],
                }
            }
        }
        let mut a = NativePlayer::new(Twice { observations: 0 });
        let mut b = NativePlayer::new(Chaos::new(0));
        let players: [&mut dyn Player<Battle>; 2] = [&mut a, &mut b];
        let record = run_match::<Battle>(&MatchConfig::new(Rules::default(), 3), players);
        let rejected: Vec<&String> = record
            .replay
            .log
            .iter()
            .filter_map(|e| match e {
                Entry::Rejected {
                    seat: 0, reason, ..
                } => Some(reason),
                _ => None,
            })
            .collect();
        assert_eq!(
            rejected,
            vec!["team rejected: Glass Bot is in the team twice; playing the default team"]
        );
        let initial = record.replay.initial.expect("recorded");
        let kinds: Vec<BotType> = initial.units[..3].iter().map(|u| u.kind).collect();
        assert_eq!(kinds, vec![Aggro, Stealth, Glass]);
        assert_eq!(record.outcome.seats[0].invalid_actions, 1);
        for (team, ok) in [
            (vec![Aggro, Tank], false),
            (vec![Aggro, Tank, Nurse, Glass], false),
            (vec![Aggro, Tank, Nurse], true),
        ] {
            assert_eq!(
                check_team(&Rules::default(), &TeamChoice { team }).is_ok(),
                ok
            );
        }
        let small = Rules {
            roster: vec![Tank, Nurse, Doctor],
            ..Rules::default()
        };
        assert!(
            check_team(
                &small,
                &TeamChoice {
                    team: vec![Tank, Nurse, Glass]
                }
            )
            .unwrap_err()
            .contains("not in the roster")
        );
    }

    #[test]
    fn illegal_actions_fall_back_to_the_default_and_are_reported() {
        struct OwnGoal {
            told: u32,
        }
        impl Bot<Battle> for OwnGoal {
            fn setup(&mut self, _: &SetupRequest) -> TeamChoice {
                TeamChoice {
                    team: vec![Aggro, Tank, Nurse],
                }
            }
            fn act(&mut self, o: &Observation) -> Action {
                if let Some(reason) = &o.last_rejected {
                    assert!(reason.contains("your own team"), "{reason}");
                    self.told += 1;
                }
                Action::Attack { target: o.acting }
            }
        }
        let mut a = NativePlayer::new(OwnGoal { told: 0 });
        let mut b = NativePlayer::new(Chaos::new(0));
        let players: [&mut dyn Player<Battle>; 2] = [&mut a, &mut b];
        let record = run_match::<Battle>(&MatchConfig::new(Rules::default(), 4), players);
        let defaults = record
            .replay
            .events()
            .filter(|e| matches!(e, Event::DefaultAction { .. }))
            .count();
        assert!(defaults > 0);
        assert_eq!(record.outcome.seats[0].invalid_actions as usize, defaults);
        assert_eq!(record.outcome.seats[1].invalid_actions, 0);
        // Every default attacked the weakest legal target: the replay verifies, and
        // each default is followed by an attack on the target it names.
        let evs = events(&record.replay);
        for (idx, e) in evs.iter().enumerate() {
            if let Event::DefaultAction {
                unit,
                action: Action::Attack { target },
                ..
            } = e
            {
                assert!(matches!(
                    evs[idx + 1],
                    Event::Attack { attacker, target: t, .. } if attacker == *unit && t == *target
                ));
            }
        }
        crate::replay::verify(&record.replay).expect("verifies");
    }

    /// A player whose every turn answer is a fault.
    struct Broken;

    impl Player<Battle> for Broken {
        fn start(&mut self, _: &arena_sdk::MatchStart<Battle>) -> Result<(), crate::Fault> {
            Ok(())
        }
        fn setup(&mut self, _: &SetupRequest) -> Result<TeamChoice, crate::Fault> {
            Err(crate::Fault::new(crate::FaultKind::Trap, "setup trapped"))
        }
        fn act(&mut self, _: &Observation) -> Result<Action, crate::Fault> {
            Err(crate::Fault::new(crate::FaultKind::OutOfFuel, "no fuel"))
        }
        fn end(&mut self, _: &arena_sdk::MatchEnd) {}
    }

    #[test]
    fn faults_play_the_default_and_repeated_faults_forfeit() {
        let mut config = MatchConfig::new(Rules::default(), 8);
        config.max_faults = 10_000;
        let mut a = NativePlayer::new(Chaos::new(0));
        let mut b = Broken;
        let players: [&mut dyn Player<Battle>; 2] = [&mut a, &mut b];
        let record = run_match::<Battle>(&config, players);
        let initial = record.replay.initial.clone().expect("recorded");
        let kinds: Vec<BotType> = initial.units[3..].iter().map(|u| u.kind).collect();
        assert_eq!(kinds, vec![Aggro, Stealth, Glass], "the default team");
        let evs = events(&record.replay);
        let defaults = evs
            .iter()
            .filter(|e| matches!(e, Event::DefaultAction { reason, .. } if reason == "no answer"))
            .count();
        // Every fault after the setup's is a turn that played the default.
        let faults = record
            .replay
            .log
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Entry::Answer {
                        seat: 1,
                        answer: crate::player::Answer::Fault(_),
                        ..
                    }
                )
            })
            .count();
        assert!(defaults > 0);
        assert_eq!(defaults, faults - 1);
        assert_eq!(
            record.outcome.seats[1].invalid_actions, 0,
            "faults are not rejections"
        );
        crate::replay::verify(&record.replay).expect("verifies");

        // With the default tolerance the broken seat forfeits after 3 faults.
        let mut a = NativePlayer::new(Chaos::new(0));
        let mut b = Broken;
        let players: [&mut dyn Player<Battle>; 2] = [&mut a, &mut b];
        let record = run_match::<Battle>(&MatchConfig::new(Rules::default(), 8), players);
        assert_eq!(record.outcome.winner, Some(0));
        assert!(
            record.outcome.reason.starts_with("forfeit"),
            "{}",
            record.outcome.reason
        );
        assert!(record.outcome.seats[1].forfeited);
        assert_eq!(record.outcome.seats[0].stats.len(), STAT_KEYS.len());
    }

    #[test]
    fn the_turn_cap_ends_the_match_with_the_integrity_tiebreak() {
        let rules = Rules {
            turn_cap: 12,
            ..Rules::default()
        };
        let record = play(5, &rules, 0);
        assert_eq!(record.outcome.turns, 12);
        assert!(record.outcome.reason.starts_with("turn cap"));
        let evs = events(&record.replay);
        let Some(Event::TurnCap { integrity, max }) = evs.last() else {
            panic!("ends with the cap: {:?}", evs.last());
        };
        let (a, b) = (
            i64::from(integrity[0]) * i64::from(max[1]),
            i64::from(integrity[1]) * i64::from(max[0]),
        );
        let expected = match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        assert_eq!(record.outcome.winner, expected);
    }

    #[test]
    fn replays_verify_and_describe_every_event() {
        let record = play(21, &Rules::default(), 10);
        crate::replay::verify(&record.replay).expect("verifies");
        let evs = events(&record.replay);
        assert!(evs.iter().all(|e| !Battle::describe(e).trim().is_empty()));
        let initial = record.replay.initial.clone().expect("recorded");
        let picture = Battle::picture(&initial, &evs).expect("a picture");
        for unit in &initial.units {
            assert!(picture.contains(unit.kind.name()), "{picture}");
        }
        assert!(picture.contains("destroyed"), "{picture}");
        // The stats agree with the events.
        for seat in 0..2u8 {
            let stats = &record.outcome.seats[usize::from(seat)].stats;
            assert_eq!(stats.keys().map(String::as_str).collect::<Vec<_>>(), {
                let mut keys = STAT_KEYS.to_vec();
                keys.sort_unstable();
                keys
            });
            let lost = evs
                .iter()
                .filter(|e| matches!(e, Event::Destroyed { seat: s, .. } if *s == seat))
                .count() as i64;
            assert_eq!(stats["units_lost"], lost);
            assert_eq!(
                record.outcome.seats[usize::from(1 - seat)].stats["kills"],
                lost
            );
            let turns = evs
                .iter()
                .filter(|e| matches!(e, Event::TurnStart { seat: s, .. } if *s == seat))
                .count() as i64;
            assert_eq!(stats["turns"], turns);
        }
    }

    #[test]
    fn pictures_render_the_state() {
        let mut f = fight([Nurse, Tank, Glass], [Aggro, Doctor, Beaverette], 16);
        let initial = Initial {
            units: f.units.clone(),
        };
        f.units[1].integrity = 600;
        f.begin_turn(0);
        f.use_skill(0);
        let picture = Battle::picture(&initial, &f.events).expect("a picture");
        let tank_line = picture
            .lines()
            .find(|l| l.contains("Tank Bot"))
            .expect("tank line");
        assert!(
            tank_line.contains(&format!("{}/1200", f.units[1].integrity)),
            "{picture}"
        );
        let nurse_line = picture.lines().find(|l| l.contains("Nurse Bot")).unwrap();
        assert!(
            nurse_line.starts_with('>') && nurse_line.contains("cooldown 4"),
            "{picture}"
        );
    }

    /// Rebuilds every unit from the events (as `picture` does) and checks the invariants
    /// after each event.
    fn check_invariants(
        record: &crate::MatchRecord<Battle>,
        cap: u32,
    ) -> Result<(), TestCaseError> {
        let initial = record.replay.initial.clone().expect("recorded");
        let mut view = View::new(&initial);
        let mut destroyed = std::collections::BTreeSet::new();
        for event in record.replay.events() {
            if let Event::TurnStart { unit, .. } = event {
                prop_assert!(!destroyed.contains(unit), "a destroyed unit took a turn");
            }
            if let Event::Destroyed { unit, .. } = event {
                destroyed.insert(*unit);
            }
            view.apply(event);
            let boundary = matches!(event, Event::TurnStart { .. });
            for u in &view.units {
                prop_assert!(u.integrity >= 0, "negative integrity: {event:?}");
                prop_assert!(u.integrity <= u.base.integrity, "above max: {event:?}");
                prop_assert!(!u.destroyed || u.integrity == 0, "{:?}", event);
                prop_assert!(
                    !boundary || u.destroyed == (u.integrity == 0),
                    "{:?}",
                    event
                );
            }
        }
        for u in &view.units {
            prop_assert_eq!(u.destroyed, u.integrity == 0);
        }
        prop_assert!(record.outcome.turns <= cap);
        if record.outcome.reason == "team destroyed" {
            let winner = record.outcome.winner.expect("a winner");
            prop_assert!(view.units.iter().any(|u| u.owner == winner && !u.destroyed));
            prop_assert!(view.units.iter().all(|u| u.owner == winner || u.destroyed));
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn integrity_stays_in_bounds_and_matches_end(seed in any::<u64>(), cap in 1u32..700, illegal in 0u32..30) {
            let rules = Rules { turn_cap: cap, ..Rules::default() };
            let record = play(seed, &rules, illegal);
            check_invariants(&record, cap)?;
        }

        #[test]
        fn same_seed_same_replay(seed in any::<u64>()) {
            let one = serde_json::to_string(&play(seed, &Rules::default(), 5).replay).unwrap();
            let two = serde_json::to_string(&play(seed, &Rules::default(), 5).replay).unwrap();
            prop_assert_eq!(one, two);
        }
    }
}
