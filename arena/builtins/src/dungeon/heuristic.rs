//! `heuristic`: a balanced party; heal when low, focus the weakest, mana aware.

use super::{effect, fallback};
use arena_sdk::Bot;
use arena_sdk::dungeon::{
    Ability, Action, Class, Dungeon, Observation, SetupChoice, SetupRequest, Target,
};

/// A hero below this share of its maxhp (in percent) gets healed.
const HEAL_BELOW_PERCENT: u32 = 50;
/// Magic points a cleric keeps for healing: it smites only above this.
const CLERIC_RESERVE: u32 = 12;

/// Warrior, cleric, mage, rogue (repeated for bigger parties); heals a hero below half
/// health, else the hardest affordable hit on the weakest monster.
#[derive(Debug, Default, Clone, Copy)]
pub struct Heuristic;

impl Bot<Dungeon> for Heuristic {
    fn setup(&mut self, request: &SetupRequest) -> SetupChoice {
        let order = [Class::Warrior, Class::Cleric, Class::Mage, Class::Rogue];
        SetupChoice {
            party: order
                .iter()
                .copied()
                .cycle()
                .take(request.party_size as usize)
                .collect(),
        }
    }

    fn act(&mut self, observation: &Observation) -> Action {
        let me = observation.me();
        if me.class == Class::Cleric {
            let hurt = observation
                .living_heroes()
                .filter(|h| h.hp * 100 < h.max_hp * HEAL_BELOW_PERCENT)
                .min_by_key(|h| h.hp * 100 / h.max_hp.max(1));
            if let Some(hurt) = hurt {
                let heal = Action::on_hero(Ability::Heal, hurt.id);
                if observation.is_legal(heal) {
                    return heal;
                }
            }
        }
        let Some(weakest) = observation.living_monsters().min_by_key(|m| (m.hp, m.id)) else {
            return fallback(observation);
        };
        observation
            .legal
            .iter()
            .copied()
            .filter(|a| a.target == Target::Monster(weakest.id))
            .filter(|a| {
                !(me.class == Class::Cleric
                    && a.ability.mp_cost() > 0
                    && me.mp < a.ability.mp_cost() + CLERIC_RESERVE)
            })
            .filter(|a| effect(me, *a, observation) > 0)
            // The hardest hit; on a tie (or when the hit kills either way) the cheaper one.
            .max_by_key(|a| {
                let damage = effect(me, *a, observation).min(i64::from(weakest.hp));
                (damage, std::cmp::Reverse(a.ability.mp_cost()))
            })
            .unwrap_or_else(|| fallback(observation))
    }
}
