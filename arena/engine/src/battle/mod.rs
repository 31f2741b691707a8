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
//!
//! The match has one state, [`State`], and every change of state is made by
//! [`State::apply`] on an event: the play loop builds the events (with the rolls and the
//! bots' decisions) and applies them, and the terminal picture and the browser frames fold
//! the same state over a replay's events. Every match ends with [`Event::GameEnd`].
//!
//! The files: `rules.rs` holds the document's numbers and formulas as pure functions and
//! the checks of choices and actions; `play.rs` the state and the fight (turn meters,
//! effects, the turn loop); `view.rs` the event text and the terminal picture; `frames.rs`
//! the browser frames; `tests.rs` the tests.

mod frames;
mod human;
mod play;
mod rules;
mod view;

#[cfg(test)]
mod tests;

use crate::{Finish, Ruleset, Table};
use arena_sdk::Seat;
use arena_sdk::battle::{Action, BotType, Effect, Rules, Skill, Unit, UnitId};
use serde::{Deserialize, Serialize};

pub use arena_sdk::battle::{Battle, SetupRequest};
pub use play::State;
pub use rules::{
    CONTINUOUS_REPAIR_BELOW, CONTINUOUS_REPAIR_PCT, DOCTOR_REPAIR_PCT, EffectTable, MAX_TURN_CAP,
    NURSE_REPAIR_PCT, STAT_KEYS, SkillTable, Tables, TypeTable, Whom, armor, bonus_pct, casts,
    check_action, check_team, damage, default_action, default_team, evasion, legal_targets, power,
    resistance, setup_request, skill_ready, speed, tables,
};

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

/// A percent roll and the chance it was checked against: a roll 0–99 succeeds when it is
/// below `chance` (the document's "x% chance").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// The roll, 0–99.
    pub roll: u32,
    /// The chance in percent.
    pub chance: i32,
}

/// One unit due in a tick: its turn meter after the tick and the effective speed the tick
/// added (`[unit, meter, speed]` in the replay).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Due(pub UnitId, pub i32, pub i32);

/// What a bot was offered with a turn request: the targets it may attack and whether its
/// skill is ready (`{"targets": [3, 5], "skill": true}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    /// The legal targets, by id.
    pub targets: Vec<UnitId>,
    /// Whether `skill` is a legal answer.
    pub skill: bool,
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
    /// A tick filled one or more turn meters: the units due, in the order they take their
    /// turns (shuffled when several are due in the same tick), with each one's meter and
    /// effective speed. A roll record: see [`Ruleset::is_roll`].
    Due {
        /// `[unit, meter, speed]`, in turn order.
        units: Vec<Due>,
    },
    /// A type with two negative effects picked one for this hit (`roll` indexes
    /// `options`). A roll record.
    EffectPicked {
        /// The attacker.
        source: UnitId,
        /// The effects it may inflict.
        options: Vec<Effect>,
        /// The pick, 0 to `options.len() − 1`.
        roll: u32,
        /// `options[roll]`.
        effect: Effect,
    },
    /// The attacker beat its effectivity, so its effect goes on to the target's (or, for
    /// area effects, each living enemy's) resistance. A failed roll is an
    /// [`Event::EffectFailed`] instead. A roll record.
    Effectivity {
        /// The attacker.
        source: UnitId,
        /// The unit it hit.
        target: UnitId,
        /// The effect.
        effect: Effect,
        /// The roll, below the attacker's effectivity.
        check: Roll,
    },
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
        /// See [`ActiveEffect::magnitude`](arena_sdk::battle::ActiveEffect::magnitude).
        magnitude: i32,
        /// `true` when the bearer already had it and only the duration was reset.
        refreshed: bool,
        /// For a negative effect: the bearer's resistance roll, which it failed (roll ≥
        /// chance); absent for positive effects, which are not resisted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        resistance: Option<Roll>,
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
        /// Nurse Repair: the draw for the 50% chance of Continuous Repair, a number in
        /// 0..2⁶⁴; Continuous Repair follows when it is below 2⁶³ (the top bit is clear).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        chance: Option<u64>,
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
    /// The match is over: the last event of every match (a team destroyed, the turn cap,
    /// or a forfeit).
    GameEnd {
        /// The winning seat, `None` for a draw.
        winner: Option<Seat>,
        /// Why.
        reason: String,
    },
}

impl Ruleset for Battle {
    const DRAWING: Option<&'static str> = Some(include_str!("viewer.js"));

    type Event = Event;
    type Initial = Initial;
    type Offer = Offer;

    fn is_end(event: &Event) -> bool {
        matches!(event, Event::GameEnd { .. })
    }

    fn validate(rules: &Rules) -> Result<(), String> {
        rules::validate(rules)
    }

    fn play(rules: &Rules, seed: u64, table: &mut Table<'_, Battle>) -> Finish {
        play::play(rules, seed, table)
    }

    fn describe(event: &Event) -> String {
        view::describe(event)
    }

    fn tables(rules: &Rules) -> serde_json::Value {
        serde_json::to_value(rules::tables(rules)).expect("the tables serialize")
    }

    fn offered_choices(offer: &Offer, answer: Option<&Action>) -> Vec<crate::Choice> {
        let attacks = offer.targets.iter().map(|&target| {
            crate::Choice::of(
                format!("attack #{target}"),
                &Action::Attack { target },
                answer,
            )
        });
        let skill = offer
            .skill
            .then(|| crate::Choice::of("skill", &Action::Skill, answer));
        attacks.chain(skill).collect()
    }

    fn is_roll(event: &Event) -> bool {
        matches!(
            event,
            Event::Due { .. } | Event::EffectPicked { .. } | Event::Effectivity { .. }
        )
    }

    fn sketch(initial: &Initial) -> Option<Box<dyn crate::Sketch<Event>>> {
        Some(Box::new(State::new(initial)))
    }

    fn frames(initial: &Initial, events: &[Event]) -> Option<crate::frames::Frames> {
        Some(frames::frames(initial, events))
    }
}
