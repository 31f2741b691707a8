//! The rules of `battle` as data and pure functions: the document's numbers, the stat
//! formulas with effects applied, and the checks of team choices and actions.

use super::*;

use crate::Stats as SeatStats;
use arena_sdk::battle::{Action, BotType, Effect, Rules, TEAM_SIZE, TeamChoice, Unit, UnitId};

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

/// The damage of a hit: `roll/1000 × power` (doubled for a critical hit, before armor),
/// rounded down, minus `armor`, at least 0; then the attacker's damage bonus in percent,
/// rounded down. With no bonus a Glass Bot (power 180) hits a Tank Bot (armor 40) for 50
/// (roll 500) to 140 (roll 1000), and 140 to 320 with a crit.
pub fn damage(roll: u32, power: i32, crit: bool, armor: i32, bonus_pct: i32) -> i32 {
    let raw = i64::from(roll) * i64::from(power) * if crit { 2 } else { 1 } / 1000;
    let after_armor = (raw - i64::from(armor)).max(0);
    i32::try_from(after_armor * i64::from(bonus_pct) / 100).unwrap_or(i32::MAX)
}

pub(super) fn pct(has: bool, pct: i32) -> i32 {
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
pub(super) fn sync(unit: &mut Unit) {
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

pub(super) fn empty_stats() -> SeatStats {
    STAT_KEYS.iter().map(|k| ((*k).to_owned(), 0)).collect()
}

/// Check a rules configuration; the message says what is wrong.
pub(super) fn validate(rules: &Rules) -> Result<(), String> {
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
