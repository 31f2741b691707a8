//! Mode `dungeon` — the RPG battle system: a party of heroes against seeded waves of
//! monsters. Full rules: docs/rules/dungeon.md.
//!
//! A bot chooses its party's classes at setup ([`SetupChoice`]) and then plays every hero
//! turn with an [`Action`]: an ability and a target. Monsters act on their own (the next
//! ability of their command queue, against a random living hero). Both bots face the
//! identical dungeon, one after the other, and the better [`Score`] wins.
//!
//! The tables and formulas of the rules are here too ([`hero_stats`], [`monster_stats`],
//! [`power`] …), so a bot can predict what an ability will do:
//!
//! ```
//! use arena_sdk::dungeon::{Action, Class, Dungeon, Observation, SetupChoice, SetupRequest};
//! use arena_sdk::Bot;
//!
//! #[derive(Default)]
//! struct Brute;
//!
//! impl Bot<Dungeon> for Brute {
//!     fn setup(&mut self, request: &SetupRequest) -> SetupChoice {
//!         SetupChoice { party: vec![Class::Warrior; request.party_size as usize] }
//!     }
//!     fn act(&mut self, observation: &Observation) -> Action {
//!         // The legal commands are listed; the first is always a plain `fight`.
//!         observation.legal[0]
//!     }
//! }
//! ```

use crate::protocol::{Game, Mode};
use serde::{Deserialize, Serialize};

/// The `dungeon` mode.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dungeon;

impl Game for Dungeon {
    const MODE: Mode = Mode::Dungeon;
    type Rules = Rules;
    type SetupRequest = SetupRequest;
    type SetupChoice = SetupChoice;
    type Observation = Observation;
    type Action = Action;
}

/// A level 1 hero's base stats (before its class modifiers).
pub const HERO_BASE_STAT: u32 = 6;
/// A hero's hit points before half its constitution is added.
pub const HERO_BASE_HP: u32 = 100;
/// A hero's magic points before half its intelligence is added.
pub const HERO_BASE_MP: u32 = 50;
/// A level 1 monster's base stats (before its multipliers).
pub const MONSTER_BASE_STAT: u32 = 8;
/// A monster's base hit points unless its family or type says otherwise.
pub const MONSTER_BASE_HP: u32 = 10;
/// Damage every hit on a dragon loses.
pub const DRAGON_DAMAGE_REDUCTION: u32 = 5;
/// Hit points a warrior pays for `reckless_charge`.
pub const RECKLESS_CHARGE_HP: u32 = 4;

/// The rules configuration of `dungeon`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// Heroes in a party (default 4, 1 to 8).
    pub party_size: u32,
    /// The heroes' level when the run begins (default 1).
    pub hero_level: u32,
    /// Waves in the dungeon (default 10).
    pub waves: u32,
    /// The monsters' level in the first wave; each wave is one level higher (default 1).
    pub first_wave_level: u32,
    /// Monsters in the first wave (default 2).
    pub first_wave_size: u32,
    /// Monsters in a wave at most; a wave has one more monster every second wave
    /// (default 5).
    pub max_wave_size: u32,
    /// Hero turns a bot may play in its run; the run ends when they are used up
    /// (default 1000).
    pub turn_limit: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            party_size: 4,
            hero_level: 1,
            waves: 10,
            first_wave_level: 1,
            first_wave_size: 2,
            max_wave_size: 5,
            turn_limit: 1000,
        }
    }
}

impl Rules {
    /// How many monsters wave `wave` (from 1) has.
    pub fn wave_size(&self, wave: u32) -> u32 {
        self.first_wave_size
            .saturating_add(wave.saturating_sub(1) / 2)
            .min(self.max_wave_size)
    }

    /// The monsters' level in wave `wave` (from 1).
    pub fn wave_level(&self, wave: u32) -> u32 {
        self.first_wave_level.saturating_add(wave.saturating_sub(1))
    }
}

/// The four stats every unit has.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Stats {
    /// Strength: `fight` and most physical abilities.
    pub strength: u32,
    /// Constitution: hit points, `heal`, `regenerate`.
    pub constitution: u32,
    /// Intelligence: magic points and spells.
    pub intelligence: u32,
    /// Speed: initiative (faster acts first), `rapid_strike`, `bite`, `tail_swipe`, `slash`.
    pub speed: u32,
}

/// A hero class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// Strong and durable: `shield_slam`, `reckless_charge`.
    Warrior,
    /// Spells: `fireball`, `frostbolt`.
    Mage,
    /// Healer: `heal`, `smite`.
    Cleric,
    /// Fast: `backstab`, `rapid_strike`.
    Rogue,
}

impl Class {
    /// Every class.
    pub const ALL: [Class; 4] = [Class::Warrior, Class::Mage, Class::Cleric, Class::Rogue];

    /// The class's name as in event lines ("Warrior").
    pub const fn name(self) -> &'static str {
        match self {
            Class::Warrior => "Warrior",
            Class::Mage => "Mage",
            Class::Cleric => "Cleric",
            Class::Rogue => "Rogue",
        }
    }

    /// Stat modifiers: `[strength, constitution, intelligence, speed]`.
    pub const fn modifiers(self) -> [i32; 4] {
        match self {
            Class::Warrior => [1, 2, -2, -1],
            Class::Mage => [-2, -2, 3, 0],
            Class::Cleric => [0, 1, 0, -1],
            Class::Rogue => [1, -2, -1, 2],
        }
    }

    /// The class's abilities, `fight` first.
    pub const fn abilities(self) -> [Ability; 3] {
        match self {
            Class::Warrior => [Ability::Fight, Ability::ShieldSlam, Ability::RecklessCharge],
            Class::Mage => [Ability::Fight, Ability::Fireball, Ability::Frostbolt],
            Class::Cleric => [Ability::Fight, Ability::Heal, Ability::Smite],
            Class::Rogue => [Ability::Fight, Ability::Backstab, Ability::RapidStrike],
        }
    }
}

/// Every ability of heroes and monsters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    /// Everyone: damage equal to strength.
    Fight,
    /// Warrior, 5 MP: 1.5 × strength.
    ShieldSlam,
    /// Warrior, 4 HP: 2 × strength.
    RecklessCharge,
    /// Mage, 8 MP: 6 + 0.5 × intelligence.
    Fireball,
    /// Mage, 3 MP: 3 + level.
    Frostbolt,
    /// Cleric, 4 MP: heals constitution (damages the undead).
    Heal,
    /// Cleric, 7 MP: 4 + 0.5 × (intelligence + constitution).
    Smite,
    /// Rogue, free, only on an undamaged target: 2 × strength.
    Backstab,
    /// Rogue, 5 MP: 4 + speed.
    RapidStrike,
    /// Dragons: strength + speed.
    TailSwipe,
    /// Red dragon: 2.5 × intelligence.
    FireBreath,
    /// Green dragon: 1.5 × (intelligence + constitution).
    PoisonBreath,
    /// Undead: 1.5 × intelligence, healing the user as much.
    LifeDrain,
    /// Vampire: 0.5 × speed, healing the vampire as much and lowering the target's maxhp.
    Bite,
    /// Skeleton: 2 × strength.
    Bash,
    /// Humanoids: strength + speed.
    Slash,
    /// Troll: restores constitution hit points to itself.
    Regenerate,
    /// Orc: 2 × strength, and 0.5 × constitution to itself.
    BloodRage,
    /// Any name that is not an ability (answered by a bot): always an `InvalidCommand`.
    #[serde(other)]
    Unknown,
}

impl Ability {
    /// The ability's name as in event lines (`shield_slam`).
    pub const fn name(self) -> &'static str {
        match self {
            Ability::Fight => "fight",
            Ability::ShieldSlam => "shield_slam",
            Ability::RecklessCharge => "reckless_charge",
            Ability::Fireball => "fireball",
            Ability::Frostbolt => "frostbolt",
            Ability::Heal => "heal",
            Ability::Smite => "smite",
            Ability::Backstab => "backstab",
            Ability::RapidStrike => "rapid_strike",
            Ability::TailSwipe => "tail_swipe",
            Ability::FireBreath => "fire_breath",
            Ability::PoisonBreath => "poison_breath",
            Ability::LifeDrain => "life_drain",
            Ability::Bite => "bite",
            Ability::Bash => "bash",
            Ability::Slash => "slash",
            Ability::Regenerate => "regenerate",
            Ability::BloodRage => "blood_rage",
            Ability::Unknown => "unknown",
        }
    }

    /// Magic points the ability costs a hero (monsters use no MP).
    pub const fn mp_cost(self) -> u32 {
        match self {
            Ability::ShieldSlam | Ability::RapidStrike => 5,
            Ability::Fireball => 8,
            Ability::Frostbolt => 3,
            Ability::Heal => 4,
            Ability::Smite => 7,
            _ => 0,
        }
    }

    /// Whether the ability restores hit points rather than dealing damage.
    pub const fn heals(self) -> bool {
        matches!(self, Ability::Heal | Ability::Regenerate)
    }
}

impl std::fmt::Display for Ability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What an ability does with the user's `stats` and `level`: damage before the target's
/// damage reduction, or healing for [`Ability::heals`]. Fractions are dropped.
pub const fn power(ability: Ability, stats: Stats, level: u32) -> u32 {
    let Stats {
        strength: s,
        constitution: c,
        intelligence: i,
        speed: v,
    } = stats;
    match ability {
        Ability::Fight => s,
        Ability::ShieldSlam => s * 3 / 2,
        Ability::RecklessCharge | Ability::Backstab | Ability::Bash | Ability::BloodRage => s * 2,
        Ability::Fireball => 6 + i / 2,
        Ability::Frostbolt => 3 + level,
        Ability::Heal | Ability::Regenerate => c,
        Ability::Smite => 4 + (i + c) / 2,
        Ability::RapidStrike => 4 + v,
        Ability::TailSwipe | Ability::Slash => s + v,
        Ability::FireBreath => i * 5 / 2,
        Ability::PoisonBreath => (i + c) * 3 / 2,
        Ability::LifeDrain => i * 3 / 2,
        Ability::Bite => v / 2,
        Ability::Unknown => 0,
    }
}

/// Damage an orc's `blood_rage` deals to the orc itself: 0.5 × its constitution.
pub const fn blood_rage_self_damage(stats: Stats) -> u32 {
    stats.constitution / 2
}

/// XP a hero of level `level` needs for the next level: level × 10.
pub const fn xp_for_next_level(level: u32) -> u32 {
    level.saturating_mul(10)
}

fn modified(base: u32, modifier: i32) -> u32 {
    base.saturating_add_signed(modifier)
}

/// A hero's stats at `level` (from 1): 6 plus the class modifier at level 1, then each
/// level +1 per stat, plus the modifier where it is positive.
pub fn hero_stats(class: Class, level: u32) -> Stats {
    let [s, c, i, v] = class.modifiers();
    let mut stats = Stats {
        strength: modified(HERO_BASE_STAT, s),
        constitution: modified(HERO_BASE_STAT, c),
        intelligence: modified(HERO_BASE_STAT, i),
        speed: modified(HERO_BASE_STAT, v),
    };
    for _ in 1..level {
        stats = level_up_stats(class, stats);
    }
    stats
}

/// A hero's stats after one level up.
pub fn level_up_stats(class: Class, stats: Stats) -> Stats {
    let [s, c, i, v] = class.modifiers();
    let gain = |m: i32| 1 + m.max(0).unsigned_abs();
    Stats {
        strength: stats.strength.saturating_add(gain(s)),
        constitution: stats.constitution.saturating_add(gain(c)),
        intelligence: stats.intelligence.saturating_add(gain(i)),
        speed: stats.speed.saturating_add(gain(v)),
    }
}

/// A fresh hero's maxhp and maxmp at `level`: 100 + ½ constitution and 50 + ½
/// intelligence at level 1, plus ½ the new constitution (intelligence) at each level up.
pub fn hero_max_hp_mp(class: Class, level: u32) -> (u32, u32) {
    let mut stats = hero_stats(class, 1);
    let mut hp = HERO_BASE_HP + stats.constitution / 2;
    let mut mp = HERO_BASE_MP + stats.intelligence / 2;
    for _ in 1..level {
        stats = level_up_stats(class, stats);
        hp = hp.saturating_add(stats.constitution / 2);
        mp = mp.saturating_add(stats.intelligence / 2);
    }
    (hp, mp)
}

/// A monster family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// Base HP 100, constitution ×2, damage reduction 5, `tail_swipe`.
    Dragon,
    /// Constitution ×0.25, hurt by healing, `life_drain`.
    Undead,
    /// `slash`.
    Humanoid,
}

impl Family {
    /// The family's name ("Dragon").
    pub const fn name(self) -> &'static str {
        match self {
            Family::Dragon => "Dragon",
            Family::Undead => "Undead",
            Family::Humanoid => "Humanoid",
        }
    }
}

/// A monster type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MonsterKind {
    /// Dragon: strength ×2, intelligence ×1.5, `fire_breath`.
    RedDragon,
    /// Dragon: strength ×1.5, speed ×1.5, `poison_breath`.
    GreenDragon,
    /// Undead: intelligence ×2, base HP 30, `bite`.
    Vampire,
    /// Undead: strength ×1.25, speed ×0.5, intelligence ×0.25, `bash`.
    Skeleton,
    /// Humanoid: strength ×1.75, constitution ×1.5, base HP 20, `regenerate`.
    Troll,
    /// Humanoid: strength ×1.75, base HP 16, `blood_rage`.
    Orc,
}

impl MonsterKind {
    /// Every monster type.
    pub const ALL: [MonsterKind; 6] = [
        MonsterKind::RedDragon,
        MonsterKind::GreenDragon,
        MonsterKind::Vampire,
        MonsterKind::Skeleton,
        MonsterKind::Troll,
        MonsterKind::Orc,
    ];

    /// The type's name as in event lines ("RedDragon").
    pub const fn name(self) -> &'static str {
        match self {
            MonsterKind::RedDragon => "RedDragon",
            MonsterKind::GreenDragon => "GreenDragon",
            MonsterKind::Vampire => "Vampire",
            MonsterKind::Skeleton => "Skeleton",
            MonsterKind::Troll => "Troll",
            MonsterKind::Orc => "Orc",
        }
    }

    /// Its family.
    pub const fn family(self) -> Family {
        match self {
            MonsterKind::RedDragon | MonsterKind::GreenDragon => Family::Dragon,
            MonsterKind::Vampire | MonsterKind::Skeleton => Family::Undead,
            MonsterKind::Troll | MonsterKind::Orc => Family::Humanoid,
        }
    }

    /// Stat multipliers of family and type together, in quarters (4 = ×1):
    /// `[strength, constitution, intelligence, speed]`.
    pub const fn multipliers_x4(self) -> [u32; 4] {
        match self {
            MonsterKind::RedDragon => [8, 8, 6, 4],
            MonsterKind::GreenDragon => [6, 8, 4, 6],
            MonsterKind::Vampire => [4, 1, 8, 4],
            MonsterKind::Skeleton => [5, 1, 1, 2],
            MonsterKind::Troll => [7, 6, 4, 4],
            MonsterKind::Orc => [7, 4, 4, 4],
        }
    }

    /// Base hit points (type over family over the default 10).
    pub const fn base_hp(self) -> u32 {
        match self {
            MonsterKind::RedDragon | MonsterKind::GreenDragon => 100,
            MonsterKind::Vampire => 30,
            MonsterKind::Skeleton => MONSTER_BASE_HP,
            MonsterKind::Troll => 20,
            MonsterKind::Orc => 16,
        }
    }

    /// The command queue a fresh monster starts with.
    pub const fn command_queue(self) -> [Ability; 3] {
        match self {
            MonsterKind::RedDragon => [Ability::FireBreath, Ability::TailSwipe, Ability::Fight],
            MonsterKind::GreenDragon => [Ability::PoisonBreath, Ability::TailSwipe, Ability::Fight],
            MonsterKind::Vampire => [Ability::Fight, Ability::Bite, Ability::LifeDrain],
            MonsterKind::Skeleton => [Ability::Bash, Ability::Fight, Ability::LifeDrain],
            MonsterKind::Troll => [Ability::Slash, Ability::Fight, Ability::Regenerate],
            MonsterKind::Orc => [Ability::BloodRage, Ability::Slash, Ability::Fight],
        }
    }

    /// Damage a hit of `damage` does to this monster (dragons reduce it by 5).
    pub const fn damage_taken(self, damage: u32) -> u32 {
        match self.family() {
            Family::Dragon => damage.saturating_sub(DRAGON_DAMAGE_REDUCTION),
            _ => damage,
        }
    }
}

/// A monster's stats at `level`: 8 × multiplier + (level − 1) × multiplier, fractions dropped.
pub fn monster_stats(kind: MonsterKind, level: u32) -> Stats {
    let stat = |m4: u32| (MONSTER_BASE_STAT + level.saturating_sub(1)).saturating_mul(m4) / 4;
    let [s, c, i, v] = kind.multipliers_x4();
    Stats {
        strength: stat(s),
        constitution: stat(c),
        intelligence: stat(i),
        speed: stat(v),
    }
}

/// A monster's maxhp at `level`: base HP + (level − 1) × 0.5 × constitution, fractions dropped.
pub fn monster_max_hp(kind: MonsterKind, level: u32) -> u32 {
    let constitution = monster_stats(kind, level).constitution;
    kind.base_hp()
        .saturating_add(level.saturating_sub(1).saturating_mul(constitution) / 2)
}

/// The XP a monster is worth: the average of its four stats (fractions dropped) plus
/// maxhp % 10.
pub fn monster_xp(stats: Stats, max_hp: u32) -> u32 {
    let sum = u64::from(stats.strength)
        + u64::from(stats.constitution)
        + u64::from(stats.intelligence)
        + u64::from(stats.speed);
    u32::try_from(sum / 4).unwrap_or(u32::MAX) + max_hp % 10
}

/// A unit on the battlefield: a hero of the party or a monster of the current wave, by its
/// index in [`Observation::party`] or [`Observation::monsters`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// A hero of the party.
    Hero(u8),
    /// A monster of the current wave.
    Monster(u8),
}

/// One monster of a wave, as announced before play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaveMonster {
    /// Its type.
    pub kind: MonsterKind,
    /// Its level.
    pub level: u32,
}

/// What a class looks like at the run's starting level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassInfo {
    /// The class.
    pub class: Class,
    /// Its stats.
    pub stats: Stats,
    /// Its maxhp.
    pub max_hp: u32,
    /// Its maxmp.
    pub max_mp: u32,
    /// Its abilities.
    pub abilities: Vec<Ability>,
}

/// Sent once before play: choose a party for the dungeon ahead.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupRequest {
    /// Heroes to choose (exactly this many).
    pub party_size: u32,
    /// The heroes' starting level.
    pub hero_level: u32,
    /// The classes at that level.
    pub classes: Vec<ClassInfo>,
    /// The whole dungeon: every wave's monsters, in order (the same for both bots).
    pub waves: Vec<Vec<WaveMonster>>,
    /// Hero turns the run may last.
    pub turn_limit: u32,
}

/// The answer to the setup request: the party's classes, in order (duplicates allowed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupChoice {
    /// One class per hero.
    pub party: Vec<Class>,
}

/// A hero as seen during play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hero {
    /// Its index in the party.
    pub id: u8,
    /// Its name in event lines: class and party position from 1 ("Mage2").
    pub name: String,
    /// Its class.
    pub class: Class,
    /// Current level.
    pub level: u32,
    /// XP towards the next level.
    pub xp: u32,
    /// Current stats.
    pub stats: Stats,
    /// Current hit points (0 when dead).
    pub hp: u32,
    /// Maximum hit points.
    pub max_hp: u32,
    /// Current magic points.
    pub mp: u32,
    /// Maximum magic points.
    pub max_mp: u32,
    /// Dead heroes stay in the list (ids are stable) but never act again.
    pub dead: bool,
}

/// A monster as seen during play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Monster {
    /// Its index in the wave.
    pub id: u8,
    /// Its name in event lines: type and position in the wave from 1 ("Orc3").
    pub name: String,
    /// Its type.
    pub kind: MonsterKind,
    /// Its family.
    pub family: Family,
    /// Its level.
    pub level: u32,
    /// Its stats.
    pub stats: Stats,
    /// Current hit points (0 when dead).
    pub hp: u32,
    /// Maximum hit points.
    pub max_hp: u32,
    /// XP every living hero gains when it dies.
    pub xp_value: u32,
    /// Its command queue, the next ability first.
    pub queue: Vec<Ability>,
    /// Dead monsters stay in the list (ids are stable) but never act again.
    pub dead: bool,
}

impl Monster {
    /// The ability it uses on its next turn.
    pub fn next_ability(&self) -> Ability {
        self.queue.first().copied().unwrap_or(Ability::Fight)
    }
}

/// How a run is ranked: more waves cleared, then more XP, then fewer hero turns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Score {
    /// Waves whose monsters all died.
    pub waves_cleared: u32,
    /// XP gained by all heroes together.
    pub xp: u64,
    /// Hero turns played.
    pub turns: u32,
}

impl Ord for Score {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.waves_cleared
            .cmp(&other.waves_cleared)
            .then(self.xp.cmp(&other.xp))
            .then(other.turns.cmp(&self.turns))
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// What a bot sees on one of its heroes' turns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// The current wave, from 1.
    pub wave: u32,
    /// Waves in the dungeon.
    pub waves: u32,
    /// Hero turns this bot has played before this one.
    pub turn: u32,
    /// The hero whose turn it is.
    pub acting: u8,
    /// The party, by id.
    pub party: Vec<Hero>,
    /// The current wave's monsters, by id.
    pub monsters: Vec<Monster>,
    /// The initiative queue after the acting hero: who acts next, in order.
    pub initiative: Vec<Target>,
    /// The event lines since this bot's previous turn (the first turn: since the run began).
    pub events: Vec<String>,
    /// Every command the rules accept now.
    pub legal: Vec<Action>,
    /// The score so far.
    pub score: Score,
    /// Why this bot's previous answer was rejected, if it was.
    pub last_rejected: Option<String>,
}

impl Observation {
    /// The acting hero.
    pub fn me(&self) -> &Hero {
        &self.party[usize::from(self.acting)]
    }

    /// Living monsters.
    pub fn living_monsters(&self) -> impl Iterator<Item = &Monster> {
        self.monsters.iter().filter(|m| !m.dead)
    }

    /// Living heroes.
    pub fn living_heroes(&self) -> impl Iterator<Item = &Hero> {
        self.party.iter().filter(|h| !h.dead)
    }

    /// Whether `action` is among the legal commands.
    pub fn is_legal(&self, action: Action) -> bool {
        self.legal.contains(&action)
    }
}

/// A bot's answer on its hero's turn: use `ability` on `target`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Action {
    /// The ability (one of the acting hero's class).
    pub ability: Ability,
    /// The target: a living monster for a damaging ability, any living unit for `heal`.
    pub target: Target,
}

impl Action {
    /// `ability` on monster `id`.
    pub const fn on_monster(ability: Ability, id: u8) -> Self {
        Action {
            ability,
            target: Target::Monster(id),
        }
    }

    /// `ability` on hero `id`.
    pub const fn on_hero(ability: Ability, id: u8) -> Self {
        Action {
            ability,
            target: Target::Hero(id),
        }
    }
}

/// The binary encoding's in-place reader ([`crate::wire`]) for this module's types.
mod decode {
    use super::*;
    use crate::wire::{Decode, Reader, WireError, decode_enum, decode_struct};

    decode_enum!(Class {
        Warrior,
        Mage,
        Cleric,
        Rogue
    });
    decode_enum!(Ability {
        Fight,
        ShieldSlam,
        RecklessCharge,
        Fireball,
        Frostbolt,
        Heal,
        Smite,
        Backstab,
        RapidStrike,
        TailSwipe,
        FireBreath,
        PoisonBreath,
        LifeDrain,
        Bite,
        Bash,
        Slash,
        Regenerate,
        BloodRage,
        Unknown
    } other = Unknown);
    decode_enum!(Family {
        Dragon,
        Undead,
        Humanoid
    });
    decode_enum!(MonsterKind {
        RedDragon,
        GreenDragon,
        Vampire,
        Skeleton,
        Troll,
        Orc
    });
    decode_struct!(Stats {
        strength,
        constitution,
        intelligence,
        speed
    });
    decode_struct!(Hero {
        id,
        name,
        class,
        level,
        xp,
        stats,
        hp,
        max_hp,
        mp,
        max_mp,
        dead
    });
    decode_struct!(Monster {
        id,
        name,
        kind,
        family,
        level,
        stats,
        hp,
        max_hp,
        xp_value,
        queue,
        dead
    });

    impl Decode for Target {
        #[inline(always)]
        fn decode(reader: &mut Reader<'_>) -> Self {
            match reader.u32() {
                0 => Target::Hero(reader.byte()),
                1 => Target::Monster(reader.byte()),
                _ => {
                    reader.fail(WireError::Variant("Target"));
                    Target::Hero(0)
                }
            }
        }
    }

    decode_struct!(Action { ability, target });
    decode_struct!(Score {
        waves_cleared,
        xp,
        turns
    });
    decode_struct!(Observation {
        wave,
        waves,
        turn,
        acting,
        party,
        monsters,
        initiative,
        events,
        legal,
        score,
        last_rejected
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_ranks_waves_then_xp_then_fewer_turns() {
        let s = |waves_cleared, xp, turns| Score {
            waves_cleared,
            xp,
            turns,
        };
        assert!(s(2, 0, 900) > s(1, 999, 1));
        assert!(s(1, 50, 900) > s(1, 49, 1));
        assert!(s(1, 50, 10) > s(1, 50, 11));
        assert_eq!(s(1, 50, 10).cmp(&s(1, 50, 10)), std::cmp::Ordering::Equal);
    }

    #[test]
    fn an_unknown_ability_name_decodes_as_unknown() {
        let action: Action =
            serde_json::from_str(r#"{"ability":"meteor","target":{"monster":0}}"#).unwrap();
        assert_eq!(action.ability, Ability::Unknown);
        let action: Action =
            serde_json::from_str(r#"{"ability":"heal","target":{"hero":2}}"#).unwrap();
        assert_eq!(action, Action::on_hero(Ability::Heal, 2));
    }
}
