//! The document's units as data: heroes and monsters built from the tables of the SDK
//! ([`arena_sdk::dungeon`]), levelling, the dungeon's waves, the initiative order and the
//! checks that turn a command into the document's errors.

use arena_sdk::dungeon::{
    Ability, Action, Class, Hero, Monster, MonsterKind, Rules, Target, WaveMonster, hero_max_hp_mp,
    hero_stats, level_up_stats, monster_max_hp, monster_stats, monster_xp, xp_for_next_level,
};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// A fresh hero of `class` at `level`, at full hp and mp, at position `id` of the party.
pub fn new_hero(id: u8, class: Class, level: u32) -> Hero {
    let (max_hp, max_mp) = hero_max_hp_mp(class, level);
    Hero {
        id,
        name: format!("{}{}", class.name(), u32::from(id) + 1),
        class,
        level,
        xp: 0,
        stats: hero_stats(class, level),
        hp: max_hp,
        max_hp,
        mp: max_mp,
        max_mp,
        dead: false,
    }
}

/// A fresh monster of `kind` at `level`, at position `id` of its wave.
pub fn new_monster(id: u8, kind: MonsterKind, level: u32) -> Monster {
    let stats = monster_stats(kind, level);
    let max_hp = monster_max_hp(kind, level);
    Monster {
        id,
        name: format!("{}{}", kind.name(), u32::from(id) + 1),
        kind,
        family: kind.family(),
        level,
        stats,
        hp: max_hp,
        max_hp,
        xp_value: monster_xp(stats, max_hp),
        queue: kind.command_queue().to_vec(),
        dead: false,
    }
}

/// Raise a hero one level: stats up, maxhp and maxmp up by half the new constitution and
/// intelligence, hp and mp filled.
pub fn level_up(hero: &mut Hero) {
    hero.level = hero.level.saturating_add(1);
    hero.stats = level_up_stats(hero.class, hero.stats);
    hero.max_hp = hero.max_hp.saturating_add(hero.stats.constitution / 2);
    hero.max_mp = hero.max_mp.saturating_add(hero.stats.intelligence / 2);
    hero.hp = hero.max_hp;
    hero.mp = hero.max_mp;
}

/// `gain_xp`: add `xp`, then level up while the xp reaches `xp_for_next_level`, carrying
/// the excess over each time. Returns the hero as it is after each level up, in order.
pub fn gain_xp(hero: &mut Hero, xp: u32) -> Vec<Hero> {
    hero.xp = hero.xp.saturating_add(xp);
    let mut reached = Vec::new();
    while hero.xp >= xp_for_next_level(hero.level) {
        hero.xp -= xp_for_next_level(hero.level);
        level_up(hero);
        reached.push(hero.clone());
    }
    reached
}

/// The dungeon of `rules`: every wave's monsters, rolled from `rng` (each monster's type
/// uniformly among the six).
pub fn roll_waves(rules: &Rules, rng: &mut ChaCha8Rng) -> Vec<Vec<WaveMonster>> {
    (1..=rules.waves)
        .map(|wave| {
            let level = rules.wave_level(wave);
            (0..rules.wave_size(wave))
                .map(|_| WaveMonster {
                    kind: MonsterKind::ALL[rng.random_range(0..MonsterKind::ALL.len())],
                    level,
                })
                .collect()
        })
        .collect()
}

/// The initiative queue at the start of a battle: living heroes (party order), then the
/// monsters (wave order), stably sorted by speed, fastest first — so on equal speed heroes
/// go before monsters and lower ids first.
pub fn initiative(party: &[Hero], monsters: &[Monster]) -> Vec<Target> {
    let mut units: Vec<(u32, Target)> = party
        .iter()
        .filter(|h| !h.dead)
        .map(|h| (h.stats.speed, Target::Hero(h.id)))
        .chain(
            monsters
                .iter()
                .filter(|m| !m.dead)
                .map(|m| (m.stats.speed, Target::Monster(m.id))),
        )
        .collect();
    units.sort_by_key(|unit| std::cmp::Reverse(unit.0));
    units.into_iter().map(|(_, unit)| unit).collect()
}

/// The document's errors for a hero's command. A rejected command costs the hero its turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum CommandError {
    /// The ability is not one of the hero's.
    #[error("InvalidCommand: {hero} has no ability `{ability}`")]
    InvalidCommand {
        /// The acting hero's name.
        hero: String,
        /// The ability asked for.
        ability: String,
    },
    /// The target cannot take this ability.
    #[error("InvalidTarget: {hero} cannot use {ability} on {target}: {why}")]
    InvalidTarget {
        /// The acting hero's name.
        hero: String,
        /// The ability.
        ability: String,
        /// The target as named (or as asked for, when it does not exist).
        target: String,
        /// Why not.
        why: String,
    },
    /// Not enough magic points.
    #[error("InsufficientMP: {ability} costs {cost} MP, {hero} has {mp}")]
    InsufficientMp {
        /// The acting hero's name.
        hero: String,
        /// The ability.
        ability: String,
        /// Its cost.
        cost: u32,
        /// The hero's magic points.
        mp: u32,
    },
}

fn describe_target(target: Target) -> String {
    match target {
        Target::Hero(id) => format!("hero #{id}"),
        Target::Monster(id) => format!("monster #{id}"),
    }
}

/// Check `action` by `hero` against the party and the wave: first the ability
/// (InvalidCommand), then the target (InvalidTarget), then the cost (InsufficientMP).
/// Damaging abilities take a living monster; `heal` any living unit (it hurts the undead);
/// `backstab` only an undamaged monster.
pub fn check_command(
    hero: &Hero,
    action: Action,
    party: &[Hero],
    monsters: &[Monster],
) -> Result<(), CommandError> {
    let ability = action.ability;
    if !hero.class.abilities().contains(&ability) {
        return Err(CommandError::InvalidCommand {
            hero: hero.name.clone(),
            ability: ability.name().to_owned(),
        });
    }
    let invalid = |target: String, why: &str| CommandError::InvalidTarget {
        hero: hero.name.clone(),
        ability: ability.name().to_owned(),
        target,
        why: why.to_owned(),
    };
    match action.target {
        Target::Hero(id) => match party.get(usize::from(id)) {
            None => return Err(invalid(describe_target(action.target), "no such hero")),
            Some(h) if h.dead => return Err(invalid(h.name.clone(), "it is dead")),
            Some(h) if ability != Ability::Heal => {
                return Err(invalid(h.name.clone(), "heroes do not attack their party"));
            }
            Some(_) => {}
        },
        Target::Monster(id) => match monsters.get(usize::from(id)) {
            None => return Err(invalid(describe_target(action.target), "no such monster")),
            Some(m) if m.dead => return Err(invalid(m.name.clone(), "it is dead")),
            Some(m) if ability == Ability::Backstab && m.hp < m.max_hp => {
                return Err(invalid(
                    m.name.clone(),
                    "backstab needs an undamaged target",
                ));
            }
            Some(_) => {}
        },
    }
    let cost = ability.mp_cost();
    if hero.mp < cost {
        return Err(CommandError::InsufficientMp {
            hero: hero.name.clone(),
            ability: ability.name().to_owned(),
            cost,
            mp: hero.mp,
        });
    }
    Ok(())
}

/// Every command `hero` may give now, `fight` on the first living monster first.
pub fn legal_commands(hero: &Hero, party: &[Hero], monsters: &[Monster]) -> Vec<Action> {
    let targets = party
        .iter()
        .filter(|h| !h.dead)
        .map(|h| Target::Hero(h.id))
        .chain(
            monsters
                .iter()
                .filter(|m| !m.dead)
                .map(|m| Target::Monster(m.id)),
        );
    let targets: Vec<Target> = targets.collect();
    let mut legal = Vec::new();
    for ability in hero.class.abilities() {
        for &target in &targets {
            let action = Action { ability, target };
            if check_command(hero, action, party, monsters).is_ok() {
                legal.push(action);
            }
        }
    }
    // Monsters before heroes for `fight`, so `legal[0]` is an attack whenever a monster lives.
    legal.sort_by_key(|a| {
        (
            a.ability != Ability::Fight,
            matches!(a.target, Target::Hero(_)),
        )
    });
    legal
}
