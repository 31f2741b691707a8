//! `strong`: every legal command scored by the party hit points it is expected to save,
//! against the mana it spends.
//!
//! Damage to a monster saves its threat (its average hit per turn) for as long as the hit
//! shortens its life — `threat × damage ÷ party damage per round` — and a kill also saves
//! its next queued hit. A heal is worth its hit points weighted by the danger the hero is
//! in: its hp against the hardest hit the monsters have queued. Mana is priced by how long
//! it must last: little when the next level up (which refills it) is near.

use super::{effect, fallback, monster_hit, threat};
use crate::{larger, smaller};
use arena_sdk::Bot;
use arena_sdk::dungeon::{
    Ability, Action, Class, Dungeon, Hero, Observation, SetupChoice, SetupRequest, Target,
    xp_for_next_level,
};

/// The party `strong` picks, repeated for bigger parties: warriors hit hardest for their
/// cost (`reckless_charge` pays hit points, which level ups refill) and last longest; a
/// fast rogue opens on fresh monsters with a free backstab. (Measured over every party of
/// four with this play: `dungeon_parties` in the tests.)
pub const PARTY: [Class; 4] = [Class::Warrior, Class::Warrior, Class::Warrior, Class::Rogue];

/// Hit points one magic point is worth when a level up is far away.
const MP_VALUE: f64 = 0.6;

/// See the module documentation.
#[derive(Debug, Clone)]
pub struct Strong {
    party: Vec<Class>,
    /// What a turn works out once per monster, by index in the observation's monsters;
    /// kept for the next turn (a wasm bot pays fuel for every allocation).
    seen: Vec<Seen>,
    /// The legal attacks that do damage and their damage, kept likewise.
    attacks: Vec<(Action, i64)>,
}

/// What the scoring reads of a monster, worked out once a turn.
#[derive(Debug, Clone, Copy)]
struct Seen {
    /// The damage of its next queued ability.
    next_hit: u32,
    /// Its [`threat`].
    threat: f64,
    /// Its threat per hit point left (at least 1).
    threat_per_hp: f64,
}

impl Default for Strong {
    fn default() -> Self {
        Strong::with_party(&PARTY)
    }
}

impl Strong {
    /// The same play with another party (repeated to the party size).
    pub fn with_party(party: &[Class]) -> Self {
        Strong {
            party: party.to_vec(),
            seen: Vec::new(),
            attacks: Vec::new(),
        }
    }
}

impl Bot<Dungeon> for Strong {
    fn setup(&mut self, request: &SetupRequest) -> SetupChoice {
        SetupChoice {
            party: self
                .party
                .iter()
                .copied()
                .cycle()
                .take(request.party_size as usize)
                .collect(),
        }
    }

    fn act(&mut self, observation: &Observation) -> Action {
        self.best_command(observation)
            .unwrap_or_else(|| fallback(observation))
    }
}

/// The expected damage per round of the living party: each hero's best free hit on an
/// average living monster (at least 1, so nothing divides by zero).
fn party_damage(observation: &Observation) -> f64 {
    let monsters = observation.living_monsters().count();
    let mut total = 0.0;
    for hero in observation.living_heroes() {
        let base = arena_sdk::dungeon::power(Ability::Fight, hero.stats, hero.level).max(
            arena_sdk::dungeon::power(best_spell(hero.class), hero.stats, hero.level),
        );
        let per_monster: f64 = observation
            .living_monsters()
            .map(|m| f64::from(m.kind.damage_taken(base)))
            .sum();
        total += per_monster / monsters.max(1) as f64;
    }
    larger(total, 1.0)
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
/// (`hardest`; `total`: all of them together) against its hp.
fn danger(hero: &Hero, hardest: u32, total: u32) -> f64 {
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
    MP_VALUE * class_factor * larger(1.0 - progress, 0.1)
}

/// What a command costs, in hit points: its mana at `price` (the acting hero's
/// [`mp_price`]), `reckless_charge`'s hit points.
fn cost(price: f64, action: Action) -> f64 {
    let mut cost = f64::from(action.ability.mp_cost()) * price;
    if action.ability == Ability::RecklessCharge {
        cost += f64::from(arena_sdk::dungeon::RECKLESS_CHARGE_HP);
    }
    cost
}

impl Strong {
    /// The best legal command, if any: a heal where a hero is in danger and the heal is
    /// worth more than the best hit; else a kill (of the monster whose next hit is
    /// hardest, by the cheapest command that kills); else the hit that saves the most on
    /// the monster to focus (the most threat per hit point left).
    fn best_command(&mut self, observation: &Observation) -> Option<Action> {
        let me = observation.me();
        let price = mp_price(me);
        let dps = party_damage(observation);
        self.seen.clear();
        self.seen.extend(observation.monsters.iter().map(|m| {
            // The dead are never scored (nor a legal target): their queue is not read.
            if m.dead {
                return Seen {
                    next_hit: 0,
                    threat: 0.0,
                    threat_per_hp: 0.0,
                };
            }
            let threat = threat(m);
            Seen {
                next_hit: monster_hit(m, m.next_ability()),
                threat,
                threat_per_hp: threat / f64::from(m.hp.max(1)),
            }
        }));
        let seen = &self.seen;
        let attacks = &mut self.attacks;
        attacks.clear();
        attacks.extend(
            observation
                .legal
                .iter()
                .filter(|a| matches!(a.target, Target::Monster(_)))
                .map(|&a| (a, effect(me, a, observation)))
                .filter(|&(_, d)| d > 0),
        );
        let index = |a: &Action| match a.target {
            Target::Monster(id) => usize::from(id),
            Target::Hero(_) => unreachable!("attacks target monsters"),
        };
        let monster = |a: &Action| &observation.monsters[index(a)];
        // Kills first: the monster about to hit hardest, by the cheapest command.
        let kill = attacks
            .iter()
            .filter(|(a, d)| *d >= i64::from(monster(a).hp))
            .max_by(|(a, _), (b, _)| {
                let ha = seen[index(a)].next_hit;
                let hb = seen[index(b)].next_hit;
                ha.cmp(&hb)
                    .then(cost(price, *b).total_cmp(&cost(price, *a)))
                    .then(b.cmp(a))
            })
            .map(|&(a, _)| a);
        // Otherwise: focus the monster with the most threat per hit point left.
        let focus = observation
            .monsters
            .iter()
            .zip(seen)
            .filter(|(m, _)| !m.dead)
            .max_by(|(a, sa), (b, sb)| {
                sa.threat_per_hp
                    .total_cmp(&sb.threat_per_hp)
                    .then(b.id.cmp(&a.id))
            });
        let hit = focus.and_then(|(m, sm)| {
            attacks
                .iter()
                .filter(|(a, _)| a.target == Target::Monster(m.id))
                .map(|&(a, d)| {
                    let value = sm.threat * smaller(d as f64, f64::from(m.hp)) / dps;
                    (a, value - cost(price, a))
                })
                .max_by(|x, y| x.1.total_cmp(&y.1).then(y.0.cmp(&x.0)))
        });
        let attack = kill.or(hit.map(|(a, _)| a));
        let attack_value = match (kill, hit) {
            (Some(a), _) => {
                let m = &seen[index(&a)];
                f64::from(m.next_hit) + m.threat
            }
            (None, Some((_, v))) => v,
            (None, None) => 0.0,
        };
        // The hardest hit the living monsters have queued, and all of them together.
        let (mut hardest, mut total) = (0, 0);
        for (_, m) in observation
            .monsters
            .iter()
            .zip(seen)
            .filter(|(m, _)| !m.dead)
        {
            hardest = hardest.max(m.next_hit);
            total += m.next_hit;
        }
        let heal = observation
            .legal
            .iter()
            .filter(|a| matches!(a.target, Target::Hero(_)))
            .map(|&a| {
                let Target::Hero(id) = a.target else {
                    unreachable!("filtered to heroes")
                };
                let h = &observation.party[usize::from(id)];
                let healed = (-effect(me, a, observation))
                    .min(i64::from(h.max_hp - h.hp))
                    .max(0) as f64;
                (a, healed * danger(h, hardest, total) - cost(price, a))
            })
            .max_by(|x, y| x.1.total_cmp(&y.1).then(y.0.cmp(&x.0)));
        match (heal, attack) {
            (Some((h, v)), _) if v > attack_value => Some(h),
            (_, Some(a)) => Some(a),
            (Some((h, _)), None) => Some(h),
            (None, None) => None,
        }
    }
}
