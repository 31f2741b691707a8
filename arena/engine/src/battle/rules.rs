//! The rules of `battle` as data and pure functions: the document's numbers, the stat
//! formulas with effects applied, and the checks of team choices and actions.

use super::*;

use crate::Stats as SeatStats;
use arena_sdk::battle::{
    Action, BotType, Effect, Rules, Skill, TEAM_SIZE, TeamChoice, Unit, UnitId,
};

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
/// Nurse Repair's 50% chance of Continuous Repair: a uniform draw in 0..2⁶⁴ lands below
/// this (rand's `random_bool(0.5)`, spelt out so the replay carries the draw).
pub const CONTINUOUS_REPAIR_BELOW: u64 = 1 << 63;

/// The rule tables of `battle` that the rules config does not hold: every robot type's
/// stats, effects and skill, each skill's cooldown and duration, each effect's kind, and
/// the fixed numbers. Written in every replay's header ([`Ruleset::tables`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tables {
    /// A unit takes a turn when its meter reaches this.
    pub turn_meter_full: i32,
    /// Units per team.
    pub team_size: u32,
    /// Every robot type (not only the roster's), in the document's order.
    pub types: Vec<TypeTable>,
    /// Every secondary skill.
    pub skills: Vec<SkillTable>,
    /// Every effect.
    pub effects: Vec<EffectTable>,
    /// Nurse Repair: percent of the nurse's maximum integrity per teammate.
    pub nurse_repair_pct: i32,
    /// Continuous Repair: percent of the nurse's maximum integrity per turn.
    pub continuous_repair_pct: i32,
    /// Nurse Repair's chance of Continuous Repair, in percent (see
    /// [`CONTINUOUS_REPAIR_BELOW`]).
    pub continuous_repair_chance_pct: i32,
    /// Doctor Repair after redistributing: percent of the doctor's maximum integrity.
    pub doctor_repair_pct: i32,
}

/// One robot type's row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TypeTable {
    /// The type.
    #[serde(rename = "type")]
    pub kind: BotType,
    /// Its base stats.
    pub stats: arena_sdk::battle::Stats,
    /// The negative effects a hit may inflict (one picked at random when there are two).
    pub inflicts: Vec<Effect>,
    /// Their duration in turns of the bearer.
    pub inflict_turns: u32,
    /// Whether they go to every living enemy (area effect) instead of the unit hit.
    pub area: bool,
    /// Its secondary skill.
    pub skill: Option<Skill>,
}

/// One skill's row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkillTable {
    /// The skill.
    pub skill: Skill,
    /// Own turns after a use until it is ready again.
    pub cooldown: u32,
    /// Duration of the effects it casts.
    pub turns: u32,
    /// What it casts: `[effect, "self" | "team"]` ([`casts`]).
    pub casts: Vec<(Effect, Whom)>,
}

/// One effect's row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EffectTable {
    /// The effect.
    pub effect: Effect,
    /// Whether it hurts its bearer (and is resisted).
    pub negative: bool,
    /// Whether several instances may sit on one unit.
    pub stacks: bool,
}

/// Whom a skill's effect goes on (`"self"` or `"team"` in the replay's tables).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Whom {
    /// The caster itself.
    #[serde(rename = "self")]
    Caster,
    /// Every living unit of the caster's team, the caster included.
    #[serde(rename = "team")]
    Team,
}

/// What a skill casts. The fight applies exactly this list (`Fight::use_skill` in
/// `play.rs`) and the replay's tables print it, so the two cannot disagree: first the
/// effects on the caster, in order, then teammate by teammate the effects on the team, in
/// order (Nurse Repair: each teammate's team effects follow its repair, on the 50% chance
/// of [`CONTINUOUS_REPAIR_BELOW`], with the Continuous Repair's per-turn amount).
pub const fn casts(skill: Skill) -> &'static [(Effect, Whom)] {
    match skill {
        Skill::OffenseUp => &[(Effect::OffenseUp, Whom::Caster)],
        Skill::Stealth => &[(Effect::Stealth, Whom::Caster)],
        Skill::Retribution => &[(Effect::Retribution, Whom::Caster)],
        Skill::Taunt => &[
            (Effect::Taunt, Whom::Caster),
            (Effect::DefenseUp, Whom::Team),
        ],
        Skill::TeamBoost => &[
            (Effect::DefenseUp, Whom::Team),
            (Effect::SpeedUp, Whom::Team),
        ],
        Skill::Repair => &[(Effect::ContinuousRepair, Whom::Team)],
        Skill::Redistribute => &[],
    }
}

/// The effects of `skill` that go on `whom`, in order.
pub(super) fn casts_on(skill: Skill, whom: Whom) -> impl Iterator<Item = Effect> {
    casts(skill)
        .iter()
        .filter(move |(_, on)| *on == whom)
        .map(|&(effect, _)| effect)
}

/// The tables in force (they do not depend on the rules config today; the roster says
/// which types may be picked).
pub fn tables(_rules: &Rules) -> Tables {
    const SKILLS: [Skill; 7] = [
        Skill::OffenseUp,
        Skill::Stealth,
        Skill::Taunt,
        Skill::TeamBoost,
        Skill::Retribution,
        Skill::Repair,
        Skill::Redistribute,
    ];
    const EFFECTS: [Effect; 13] = [
        Effect::DefenseDown,
        Effect::OffenseDown,
        Effect::ContinuousDamage,
        Effect::Bomb,
        Effect::SpeedDown,
        Effect::Stun,
        Effect::DefenseUp,
        Effect::OffenseUp,
        Effect::SpeedUp,
        Effect::Taunt,
        Effect::Stealth,
        Effect::Retribution,
        Effect::ContinuousRepair,
    ];
    Tables {
        turn_meter_full: arena_sdk::battle::TURN_METER_FULL,
        team_size: TEAM_SIZE as u32,
        types: BotType::ALL
            .iter()
            .map(|&kind| TypeTable {
                kind,
                stats: kind.stats(),
                inflicts: kind.inflicts().to_vec(),
                inflict_turns: kind.inflict_turns(),
                area: kind.inflicts_all(),
                skill: kind.skill(),
            })
            .collect(),
        skills: SKILLS
            .iter()
            .map(|&skill| SkillTable {
                skill,
                cooldown: skill.cooldown(),
                turns: skill.turns(),
                casts: casts(skill).to_vec(),
            })
            .collect(),
        effects: EFFECTS
            .iter()
            .map(|&effect| EffectTable {
                effect,
                negative: effect.is_negative(),
                stacks: effect.stacks(),
            })
            .collect(),
        nurse_repair_pct: NURSE_REPAIR_PCT,
        continuous_repair_pct: CONTINUOUS_REPAIR_PCT,
        // The draw's threshold as a share of all draws (2^63 of 2^64: 50).
        continuous_repair_chance_pct: ((u128::from(CONTINUOUS_REPAIR_BELOW) * 100) >> 64) as i32,
        doctor_repair_pct: DOCTOR_REPAIR_PCT,
    }
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

/// The request `seat` gets before play: its roster ([`Rules::roster_of`]).
pub fn setup_request(rules: &Rules, seat: Seat) -> SetupRequest {
    let roster = rules.roster_of(seat);
    SetupRequest {
        roster: roster.to_vec(),
        stats: roster.iter().map(|k| k.stats()).collect(),
        team_size: TEAM_SIZE as u32,
    }
}

/// Check `seat`'s team choice: exactly three distinct types from its roster.
pub fn check_team(rules: &Rules, seat: Seat, choice: &TeamChoice) -> Result<Vec<BotType>, String> {
    let roster = rules.roster_of(seat);
    if choice.team.len() != TEAM_SIZE {
        return Err(format!(
            "a team has {TEAM_SIZE} bots, not {}",
            choice.team.len()
        ));
    }
    for (idx, kind) in choice.team.iter().enumerate() {
        if !roster.contains(kind) {
            return Err(format!("{} is not in the roster", kind.name()));
        }
        if choice.team[..idx].contains(kind) {
            return Err(format!("{} is in the team twice", kind.name()));
        }
    }
    Ok(choice.team.clone())
}

/// The team of a seat whose choice is missing or invalid: the first three types of its
/// roster.
pub fn default_team(rules: &Rules, seat: Seat) -> Vec<BotType> {
    rules
        .roster_of(seat)
        .iter()
        .take(TEAM_SIZE)
        .copied()
        .collect()
}

/// The action played when a bot gives none or an illegal one, the most neutral legal one:
/// attack the legal target with the lowest id (never a choice by the targets' state, so a
/// wrong answer never plays better than a right one would).
pub fn default_action(units: &[Unit], acting: UnitId) -> Action {
    let target = legal_targets(units, acting)
        .into_iter()
        .min()
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
    let rosters = [
        ("roster", Some(&rules.roster)),
        ("roster0", rules.roster0.as_ref()),
        ("roster1", rules.roster1.as_ref()),
    ];
    for (name, roster) in rosters {
        let Some(roster) = roster else { continue };
        for (idx, kind) in roster.iter().enumerate() {
            if roster[..idx].contains(kind) {
                return Err(format!("{name}: {} is listed twice", kind.name()));
            }
        }
        if roster.len() < TEAM_SIZE {
            return Err(format!(
                "{name}: a team needs {TEAM_SIZE} distinct types, the roster has {}",
                roster.len()
            ));
        }
    }
    if rules.turn_cap == 0 || rules.turn_cap > MAX_TURN_CAP {
        return Err(format!(
            "turn_cap must be between 1 and {MAX_TURN_CAP}, not {}",
            rules.turn_cap
        ));
    }
    Ok(())
}
