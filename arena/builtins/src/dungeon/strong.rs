//! `strong`: every legal command scored by the party hit points it is expected to save,
//! against the mana it spends.
//!
//! Damage to a monster saves its threat (its average hit per turn) for as long as the hit
//! shortens its life — `threat × damage ÷ party damage per round` — and a kill also saves
//! its next queued hit. A heal is worth its hit points weighted by the danger the hero is
//! in: its hp against the hardest hit the monsters have queued. Mana is priced by how long
//! it must last: little when the next level up (which refills it) is near.

use super::{effect, fallback, monster_hit, threat};
use arena_sdk::Bot;
use arena_sdk::dungeon::{
    Ability, Action, Class, Dungeon, Hero, Observation, SetupChoice, SetupRequest, Target,
    xp_for_next_level,
};

/// The party `strong` picks, repeated for bigger parties: fast rogues do the killing
/// (a free backstab on every fresh monster), a cleric keeps them standing.
pub const PARTY: [Class; 4] = [Class::Rogue, Class::Cleric, Class::Rogue, Class::Rogue];

/// Hit points one magic point is worth when a level up is far away.
const MP_VALUE: f64 = 0.6;

/// See the module documentation.
#[derive(Debug, Default, Clone, Copy)]
pub struct Strong;

impl Bot<Dungeon> for Strong {
    fn setup(&mut self, request: &SetupRequest) -> SetupChoice {
        SetupChoice {
            party: PARTY
                .iter()
                .copied()
                .cycle()
                .take(request.party_size as usize)
                .collect(),
        }
    }

    fn act(&mut self, observation: &Observation) -> Action {
        best_command(observation).unwrap_or_else(|| fallback(observation))
    }
}

/// The expected damage per round of the living party: each hero's best free hit on an
/// average living monster (at least 1, so nothing divides by zero).
fn party_damage(observation: &Observation) -> f64 {
    let monsters: Vec<_> = observation.living_monsters().collect();
    let mut total = 0.0;
    for hero in observation.living_heroes() {
        let per_monster: f64 = monsters
            .iter()
            .map(|m| {
                let base = arena_sdk::dungeon::power(Ability::Fight, hero.stats, hero.level)
                    .max(arena_sdk::dungeon::power(
                        best_spell(hero.class),
                        hero.stats,
                        hero.level,
                    ));
                f64::from(m.kind.damage_taken(base))
            })
            .sum();
        total += per_monster / monsters.len().max(1) as f64;
    }
    total.max(1.0)
}

fn best_spell(class: Class) -> Ability {
    match class {
        Class::Warrior => Ability::ShieldSlam,
        Class::Mage => Ability::Fireball,
        Class::Cleric => Ability::Smite,
        Class::Rogue => Ability::RapidStrike,
    }
}

/// How dangerous the coming round is for `hero`: the hardest hit queued by any monster
/// against its hp.
fn danger(hero: &Hero, observation: &Observation) -> f64 {
    let hardest = observation
        .living_monsters()
        .map(|m| monster_hit(m, m.next_ability()))
        .max()
        .unwrap_or(0);
    let total: u32 = observation
        .living_monsters()
        .map(|m| monster_hit(m, m.next_ability()))
        .sum();
    if hero.hp <= hardest {
        2.0
    } else if hero.hp <= total {
        1.0
    } else if hero.hp * 2 <= hero.max_hp {
        0.5
    } else {
        0.1
    }
}

/// The price of one magic point for `hero`: less as its next level up (a refill) nears.
fn mp_price(hero: &Hero) -> f64 {
    let need = f64::from(xp_for_next_level(hero.level).max(1));
    let progress = f64::from(hero.xp) / need;
    let class_factor = if hero.class == Class::Cleric {
        1.5
    } else {
        1.0
    };
    MP_VALUE * class_factor * (1.0 - progress).max(0.1)
}

/// The best legal command by expected hit points saved, if any.
pub fn best_command(observation: &Observation) -> Option<Action> {
    let me = observation.me();
    let dps = party_damage(observation);
    let mut best: Option<(f64, Action)> = None;
    for &action in &observation.legal {
        let amount = effect(me, action, observation);
        let value = match action.target {
            Target::Monster(id) => {
                let m = &observation.monsters[usize::from(id)];
                if amount <= 0 {
                    continue;
                }
                let hp = f64::from(m.hp.max(1));
                let dealt = (amount as f64).min(hp);
                let kill = amount >= i64::from(m.hp);
                let mut value = threat(m) * dealt / dps;
                if kill {
                    value += f64::from(monster_hit(m, m.next_ability())) + 1.0;
                }
                value
            }
            Target::Hero(id) => {
                let h = &observation.party[usize::from(id)];
                let healed = (-amount).min(i64::from(h.max_hp - h.hp)).max(0) as f64;
                healed * danger(h, observation)
            }
        };
        let mut cost = f64::from(action.ability.mp_cost()) * mp_price(me);
        if action.ability == Ability::RecklessCharge {
            cost += f64::from(arena_sdk::dungeon::RECKLESS_CHARGE_HP);
        }
        let score = value - cost;
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, action));
        }
    }
    best.map(|(_, action)| action)
}
