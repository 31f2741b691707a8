//! Mode `battle` — Bot Wars (the Bot Wars kata, sprints 1–2; docs/rules/battle.md).
//!
//! Two players each field a team of three robots chosen blind from a roster. Whenever one
//! of a player's robots gets its turn (its turn meter passed 1000), the player's bot is asked
//! for an [`Action`]: attack one of the legal targets, or use the robot's secondary skill.

use crate::protocol::{Game, Mode, Seat};
use serde::{Deserialize, Serialize};

/// The `battle` mode.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Battle;

impl Game for Battle {
    const MODE: Mode = Mode::Battle;
    type Rules = Rules;
    type SetupRequest = SetupRequest;
    type SetupChoice = TeamChoice;
    type Observation = Observation;
    type Action = Action;
}

/// The eight robot types of sprints 1–2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BotType {
    /// Aggro Bot: damage dealer.
    Aggro,
    /// Stealth Bot: fast, evasive.
    Stealth,
    /// Glass Bot: huge power, little integrity.
    Glass,
    /// Tank Bot: taunts and soaks.
    Tank,
    /// Beaverette Bot: team buffer.
    Beaverette,
    /// Kamikaze Bot: bombs the whole enemy team.
    Kamikaze,
    /// Nurse Bot: repairs the team.
    Nurse,
    /// Doctor Bot: redistributes integrity.
    Doctor,
}

impl BotType {
    /// Every type, in the document's order.
    pub const ALL: [BotType; 8] = [
        BotType::Aggro,
        BotType::Stealth,
        BotType::Glass,
        BotType::Tank,
        BotType::Beaverette,
        BotType::Kamikaze,
        BotType::Nurse,
        BotType::Doctor,
    ];

    /// The document's name ("Aggro Bot").
    pub fn name(self) -> &'static str {
        match self {
            BotType::Aggro => "Aggro Bot",
            BotType::Stealth => "Stealth Bot",
            BotType::Glass => "Glass Bot",
            BotType::Tank => "Tank Bot",
            BotType::Beaverette => "Beaverette Bot",
            BotType::Kamikaze => "Kamikaze Bot",
            BotType::Nurse => "Nurse Bot",
            BotType::Doctor => "Doctor Bot",
        }
    }

    /// Base stats from the document's tables (Resistance and Effectivity from sprint 2; a
    /// type without a negative effect has effectivity 0).
    pub fn stats(self) -> Stats {
        let (integrity, power, speed, armor, evasion, critical, resistance, effectivity) =
            match self {
                BotType::Aggro => (800, 100, 40, 20, 0, 10, 10, 30),
                BotType::Stealth => (500, 70, 90, 20, 20, 20, 0, 40),
                BotType::Glass => (300, 180, 20, 0, 30, 10, 5, 65),
                BotType::Tank => (1200, 50, 30, 40, 5, 10, 20, 25),
                BotType::Beaverette => (1000, 70, 35, 30, 5, 15, 10, 0),
                BotType::Kamikaze => (500, 50, 40, 0, 0, 20, 0, 65),
                BotType::Nurse => (700, 80, 50, 15, 15, 10, 20, 30),
                BotType::Doctor => (950, 30, 35, 25, 10, 10, 25, 0),
            };
        Stats {
            integrity,
            power,
            speed,
            armor,
            evasion,
            critical,
            resistance,
            effectivity,
        }
    }

    /// The negative effects a hit of this type may inflict; when there are two, one of
    /// them is picked at random. Empty for types without one.
    pub fn inflicts(self) -> &'static [Effect] {
        match self {
            BotType::Aggro => &[Effect::DefenseDown, Effect::Stun],
            BotType::Stealth => &[Effect::SpeedDown, Effect::OffenseDown],
            BotType::Glass => &[Effect::ContinuousDamage],
            BotType::Tank => &[Effect::Bomb],
            BotType::Kamikaze => &[Effect::Bomb],
            BotType::Nurse => &[Effect::SpeedDown],
            BotType::Beaverette | BotType::Doctor => &[],
        }
    }

    /// Duration (turns of the bearer) of the negative effect of [`BotType::inflicts`].
    pub fn inflict_turns(self) -> u32 {
        match self {
            BotType::Aggro | BotType::Nurse => 1,
            BotType::Stealth | BotType::Glass | BotType::Kamikaze => 2,
            BotType::Tank => 3,
            BotType::Beaverette | BotType::Doctor => 0,
        }
    }

    /// Whether the negative effect goes to every living enemy (marked (*) in the document)
    /// instead of only the unit that was hit.
    pub fn inflicts_all(self) -> bool {
        matches!(self, BotType::Glass | BotType::Kamikaze)
    }

    /// The type's secondary skill, if it has one.
    pub fn skill(self) -> Option<Skill> {
        match self {
            BotType::Aggro => Some(Skill::OffenseUp),
            BotType::Stealth => Some(Skill::Stealth),
            BotType::Glass => None,
            BotType::Tank => Some(Skill::Taunt),
            BotType::Beaverette => Some(Skill::TeamBoost),
            BotType::Kamikaze => Some(Skill::Retribution),
            BotType::Nurse => Some(Skill::Repair),
            BotType::Doctor => Some(Skill::Redistribute),
        }
    }
}

/// The secondary skills of sprint 2. Every skill targets the caster or its team, never an
/// enemy, so [`Action::Skill`] needs no target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Skill {
    /// Aggro Bot: Offense Up on itself.
    OffenseUp,
    /// Stealth Bot: Stealth on itself.
    Stealth,
    /// Tank Bot: Taunt on itself and Defense Up on the whole team.
    Taunt,
    /// Beaverette Bot: Defense Up and Speed Up on the whole team.
    TeamBoost,
    /// Kamikaze Bot: Retribution on itself.
    Retribution,
    /// Nurse Bot: repairs every teammate by 30% of the nurse's maximum integrity, each with a
    /// 50% chance of Continuous Repair (10% per turn).
    Repair,
    /// Doctor Bot: shares the team's integrity equally, then repairs each teammate by 10%
    /// of the doctor's maximum integrity.
    Redistribute,
}

impl Skill {
    /// Own turns after a use until the skill is ready again.
    pub fn cooldown(self) -> u32 {
        match self {
            Skill::OffenseUp | Skill::Stealth | Skill::Retribution | Skill::Repair => 4,
            Skill::Taunt | Skill::TeamBoost => 3,
            Skill::Redistribute => 5,
        }
    }

    /// Duration of the positive effects it casts (0 for Redistribute, which casts none).
    pub fn turns(self) -> u32 {
        match self {
            Skill::OffenseUp | Skill::Taunt | Skill::TeamBoost | Skill::Repair => 2,
            Skill::Stealth => 3,
            Skill::Retribution => 1,
            Skill::Redistribute => 0,
        }
    }

    /// A readable name.
    pub fn name(self) -> &'static str {
        match self {
            Skill::OffenseUp => "Offense Up",
            Skill::Stealth => "Stealth",
            Skill::Taunt => "Taunt and Defense Up",
            Skill::TeamBoost => "Defense Up and Speed Up",
            Skill::Retribution => "Retribution",
            Skill::Repair => "Repair",
            Skill::Redistribute => "Redistribute and Repair",
        }
    }
}

/// Units per team.
pub const TEAM_SIZE: usize = 3;

/// A unit takes a turn when its turn meter reaches this.
pub const TURN_METER_FULL: i32 = 1000;

/// The rules configuration of `battle`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// The types a player may pick from (default: all eight), unless its seat has its own
    /// (`roster0`, `roster1`).
    pub roster: Vec<BotType>,
    /// Seat 0's own pool, when it has one (the document: "both players have their own pool
    /// of Bots"); absent: `roster`.
    pub roster0: Option<Vec<BotType>>,
    /// Seat 1's own pool; absent: `roster`.
    pub roster1: Option<Vec<BotType>>,
    /// The game ends after this many unit turns (attacks, skills and stunned turns); see
    /// docs/rules/battle.md for the tiebreak.
    pub turn_cap: u32,
}

serialize_omitting_none_in_text!(Rules {
    roster,
    roster0: optional,
    roster1: optional,
    turn_cap,
});

impl Rules {
    /// The pool `seat` picks its team from: its own roster, else the shared one.
    pub fn roster_of(&self, seat: crate::Seat) -> &[BotType] {
        let own = if seat == 0 {
            &self.roster0
        } else {
            &self.roster1
        };
        own.as_deref().unwrap_or(&self.roster)
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            roster: BotType::ALL.to_vec(),
            roster0: None,
            roster1: None,
            turn_cap: 600,
        }
    }
}

/// Base stats of one robot type, straight from the document's tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Integrity (hit points) when undamaged.
    pub integrity: i32,
    /// Damage potential.
    pub power: i32,
    /// Added to the turn meter every tick.
    pub speed: i32,
    /// Subtracted from incoming damage.
    pub armor: i32,
    /// Chance in percent to evade an attack completely.
    pub evasion: i32,
    /// Chance in percent to deal double damage.
    pub critical: i32,
    /// Chance in percent to resist a negative effect.
    pub resistance: i32,
    /// Chance in percent that an attack tries to inflict the type's negative effect (0: none).
    pub effectivity: i32,
}

/// Sent once before play: choose a team of three from the roster, blind.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SetupRequest {
    /// The types available.
    pub roster: Vec<BotType>,
    /// The base stats of each type in `roster`, same order.
    pub stats: Vec<Stats>,
    /// How many robots to pick (3).
    pub team_size: u32,
}

/// A team: distinct types from the roster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamChoice {
    /// The chosen types, in the order they are placed.
    pub team: Vec<BotType>,
}

/// Index of a unit in [`Observation::units`]; stable for the whole match.
pub type UnitId = u8;

/// The effects of sprint 2, negative and positive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Armor and resistance −50%.
    DefenseDown,
    /// Power −25%.
    OffenseDown,
    /// Loses the inflicter's power in integrity each turn (armor does not help).
    ContinuousDamage,
    /// Explodes on expiry: random(0.5..1) × inflicter's power − armor.
    Bomb,
    /// Turn meter fills 25% slower.
    SpeedDown,
    /// Skips its turns and cannot evade.
    Stun,
    /// Armor and resistance +50%.
    DefenseUp,
    /// Damage caused +50%.
    OffenseUp,
    /// Speed +25%.
    SpeedUp,
    /// Enemies must target this unit.
    Taunt,
    /// Not targetable while others are; +30% damage.
    Stealth,
    /// Counter-attacks when attacked and surviving.
    Retribution,
    /// Repairs 10% of the nurse's maximum integrity each turn.
    ContinuousRepair,
}

impl Effect {
    /// A readable name ("Defense Down").
    pub fn name(self) -> &'static str {
        match self {
            Effect::DefenseDown => "Defense Down",
            Effect::OffenseDown => "Offense Down",
            Effect::ContinuousDamage => "Continuous Damage",
            Effect::Bomb => "Bomb",
            Effect::SpeedDown => "Speed Down",
            Effect::Stun => "Stun",
            Effect::DefenseUp => "Defense Up",
            Effect::OffenseUp => "Offense Up",
            Effect::SpeedUp => "Speed Up",
            Effect::Taunt => "Taunt",
            Effect::Stealth => "Stealth",
            Effect::Retribution => "Retribution",
            Effect::ContinuousRepair => "Continuous Repair",
        }
    }

    /// Whether several instances may sit on one unit (Continuous Damage and Bomb); any
    /// other effect cast again on its bearer is refused (Defense Down, Offense Down) or
    /// has its duration reset.
    pub fn stacks(self) -> bool {
        matches!(self, Effect::ContinuousDamage | Effect::Bomb)
    }

    /// Whether the effect hurts its bearer.
    pub fn is_negative(self) -> bool {
        matches!(
            self,
            Effect::DefenseDown
                | Effect::OffenseDown
                | Effect::ContinuousDamage
                | Effect::Bomb
                | Effect::SpeedDown
                | Effect::Stun
        )
    }
}

/// An effect on a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveEffect {
    /// Which effect.
    pub effect: Effect,
    /// Turns of the bearer until it expires.
    pub turns_left: u32,
    /// For continuous damage and bombs: the inflicter's power; for continuous repair: the
    /// amount repaired per turn; otherwise 0.
    pub magnitude: i32,
}

/// One unit as seen during play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Its index in [`Observation::units`].
    pub id: UnitId,
    /// The seat of the player who owns it.
    pub owner: Seat,
    /// Its type.
    pub kind: BotType,
    /// Base stats (effects not applied).
    pub base: Stats,
    /// Current integrity; 0 means destroyed.
    pub integrity: i32,
    /// Current effective armor, power, speed and resistance (effects applied).
    pub armor: i32,
    /// See `armor`.
    pub power: i32,
    /// See `armor`.
    pub speed: i32,
    /// See `armor`.
    pub resistance: i32,
    /// Turn meter (a unit acts when it reaches 1000).
    pub turn_meter: i32,
    /// Own turns until the secondary skill can be used again (0: ready). Types without a
    /// skill always show 0 and `has_skill: false`.
    pub cooldown: u32,
    /// Whether the type has a secondary skill.
    pub has_skill: bool,
    /// Active effects.
    pub effects: Vec<ActiveEffect>,
    /// Destroyed units stay in the list (ids are stable) but take no part.
    pub destroyed: bool,
}

/// What a bot sees on one of its units' turns.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Observation {
    /// The number of this unit turn in the match, counting from 1 (this turn included).
    pub turn: u32,
    /// The turn cap of the rules.
    pub turn_cap: u32,
    /// The receiving bot's seat.
    pub seat: Seat,
    /// The unit whose turn it is (one of the bot's own).
    pub acting: UnitId,
    /// All six units.
    pub units: Vec<Unit>,
    /// Enemy units the acting unit may attack (taunt and stealth applied).
    pub legal_targets: Vec<UnitId>,
    /// Whether [`Action::Skill`] is allowed now.
    pub skill_ready: bool,
    /// Why this bot's previous action was rejected, if it was.
    pub last_rejected: Option<String>,
}

/// A bot's answer on its unit's turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Attack the enemy unit `target`.
    Attack {
        /// One of [`Observation::legal_targets`].
        target: UnitId,
    },
    /// Use the acting unit's secondary skill (all skills target the unit itself or its team).
    Skill,
}

impl Observation {
    /// The acting unit.
    pub fn me(&self) -> &Unit {
        &self.units[self.acting as usize]
    }

    /// Living units of the given seat.
    pub fn team(&self, seat: Seat) -> impl Iterator<Item = &Unit> {
        self.units
            .iter()
            .filter(move |u| u.owner == seat && !u.destroyed)
    }
}

impl Unit {
    /// A unit of type `kind` as it enters the battle: base stats, full integrity, empty
    /// turn meter, skill ready, no effects.
    pub fn new(id: UnitId, owner: Seat, kind: BotType) -> Unit {
        let base = kind.stats();
        Unit {
            id,
            owner,
            kind,
            base,
            integrity: base.integrity,
            armor: base.armor,
            power: base.power,
            speed: base.speed,
            resistance: base.resistance,
            turn_meter: 0,
            cooldown: 0,
            has_skill: kind.skill().is_some(),
            effects: Vec::new(),
            destroyed: false,
        }
    }

    /// Whether the unit carries `effect`.
    pub fn has(&self, effect: Effect) -> bool {
        self.effects.iter().any(|e| e.effect == effect)
    }
}

/// The binary encoding's in-place reader ([`crate::wire`]) for this module's types.
mod decode {
    use super::*;
    use crate::wire::{Decode, Reader, WireError, decode_enum, decode_struct};

    decode_enum!(BotType {
        Aggro,
        Stealth,
        Glass,
        Tank,
        Beaverette,
        Kamikaze,
        Nurse,
        Doctor
    });
    decode_enum!(Effect {
        DefenseDown,
        OffenseDown,
        ContinuousDamage,
        Bomb,
        SpeedDown,
        Stun,
        DefenseUp,
        OffenseUp,
        SpeedUp,
        Taunt,
        Stealth,
        Retribution,
        ContinuousRepair
    });
    decode_struct!(Stats {
        integrity,
        power,
        speed,
        armor,
        evasion,
        critical,
        resistance,
        effectivity
    });
    decode_struct!(ActiveEffect {
        effect,
        turns_left,
        magnitude
    });
    decode_struct!(Unit {
        id,
        owner,
        kind,
        base,
        integrity,
        armor,
        power,
        speed,
        resistance,
        turn_meter,
        cooldown,
        has_skill,
        effects,
        destroyed
    });
    decode_struct!(Observation {
        turn,
        turn_cap,
        seat,
        acting,
        units,
        legal_targets,
        skill_ready,
        last_rejected
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seats_own_roster_is_left_out_of_json_when_absent_and_always_in_binary() {
        let shared = Rules::default();
        assert_eq!(
            serde_json::to_string(&shared).unwrap(),
            r#"{"roster":["aggro","stealth","glass","tank","beaverette","kamikaze","nurse","doctor"],"turn_cap":600}"#
        );
        let own = Rules {
            roster1: Some(vec![BotType::Tank, BotType::Nurse, BotType::Doctor]),
            ..Rules::default()
        };
        let json = serde_json::to_string(&own).unwrap();
        assert!(
            json.contains(r#""roster1":["tank","nurse","doctor"]"#),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), own);
        assert_eq!(own.roster_of(0), BotType::ALL);
        assert_eq!(
            own.roster_of(1),
            [BotType::Tank, BotType::Nurse, BotType::Doctor]
        );
        for rules in [shared, own] {
            let mut binary = Vec::new();
            crate::protocol::to_binary(&rules, &mut binary).unwrap();
            // Every field is written: roster (8 types), roster0, roster1, turn_cap.
            assert_eq!(binary[0], 8);
            assert_eq!(postcard::from_bytes::<Rules>(&binary).unwrap(), rules);
        }
    }
}
