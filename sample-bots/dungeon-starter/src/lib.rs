//! # A starter bot for mode `dungeon` (the RPG battle system)
//!
//! Copy this crate, rename it, and change [`Starter::setup`] and [`Starter::act`]. Rules:
//! docs/rules/dungeon.md.
//!
//! How a match goes for your bot:
//!
//! * `setup` is called once with the classes (stats, abilities) and the whole dungeon: every
//!   wave's monsters and levels. Answer a party: `party_size` classes.
//! * `act` is called on every turn of one of your heroes. The observation holds the party,
//!   the wave's monsters (with each one's command queue: `queue[0]` is what it does next),
//!   who acts after you, the event lines since your last turn, and every legal command.
//!   Answer an ability and a target.
//!
//! A command the rules refuse (not your hero's ability, a bad target, too little MP) costs
//! the hero its turn; `last_rejected` tells you why. Your score: waves cleared, then total
//! XP, then fewer turns. Nothing is restored between waves, except by levelling up.
//!
//! Build for the arena: `cargo build --release --target wasm32-unknown-unknown`, then give
//! the `.wasm` file to `arena`.

use arena_sdk::Bot;
use arena_sdk::dungeon::{
    Ability, Action, Class, Dungeon, Observation, SetupChoice, SetupRequest, Target, power,
};

/// A hero below this share of its maxhp (percent) is healed by a cleric.
const HEAL_BELOW_PERCENT: u32 = 40;

/// The bot: two warriors, a cleric and a rogue; heals the badly hurt, otherwise kills what
/// it can and else hits the weakest monster as hard as it can.
#[derive(Debug, Default)]
pub struct Starter;

impl Bot<Dungeon> for Starter {
    fn setup(&mut self, request: &SetupRequest) -> SetupChoice {
        let favourites = [Class::Warrior, Class::Rogue, Class::Cleric, Class::Warrior];
        SetupChoice {
            party: favourites
                .iter()
                .copied()
                .cycle()
                .take(request.party_size as usize)
                .collect(),
        }
    }

    fn act(&mut self, observation: &Observation) -> Action {
        let me = observation.me();
        // 1. A cleric heals the most hurt hero when someone is low.
        if me.class == Class::Cleric {
            let hurt = observation
                .living_heroes()
                .filter(|h| h.hp * 100 < h.max_hp * HEAL_BELOW_PERCENT)
                .min_by_key(|h| h.hp);
            if let Some(hurt) = hurt {
                let heal = Action::on_hero(Ability::Heal, hurt.id);
                if observation.is_legal(heal) {
                    return heal;
                }
            }
        }
        // 2. Among the legal attacks, what would each do? (Dragons take 5 less.)
        let damage = |action: &Action| -> u32 {
            let Target::Monster(id) = action.target else {
                return 0;
            };
            let monster = &observation.monsters[usize::from(id)];
            if action.ability == Ability::Heal
                && monster.family != arena_sdk::dungeon::Family::Undead
            {
                return 0; // healing a monster that is not undead helps it
            }
            monster
                .kind
                .damage_taken(power(action.ability, me.stats, me.level))
        };
        let hp_of = |action: &Action| match action.target {
            Target::Monster(id) => observation.monsters[usize::from(id)].hp,
            Target::Hero(_) => u32::MAX,
        };
        let attacks = observation
            .legal
            .iter()
            .filter(|a| matches!(a.target, Target::Monster(_)) && damage(a) > 0);
        // 3. A kill if there is one (the cheapest), else the hardest hit on the weakest.
        let kill = attacks
            .clone()
            .filter(|a| damage(a) >= hp_of(a))
            .min_by_key(|a| a.ability.mp_cost());
        let hardest_on_weakest =
            attacks.min_by_key(|a| (hp_of(a), std::cmp::Reverse(damage(a)), a.ability.mp_cost()));
        // `legal` is never empty on a hero's turn; should it be, any answer only loses the turn.
        kill.or(hardest_on_weakest)
            .or(observation.legal.first())
            .copied()
            .unwrap_or(Action::on_monster(Ability::Fight, 0))
    }
}

arena_sdk::export_bot!(dungeon: Starter);

#[cfg(test)]
mod tests {
    use super::Starter;
    use arena_builtins::Builtins;
    use arena_engine::{MatchConfig, NativePlayer, Player, run_match};
    use arena_sdk::dungeon::{Dungeon, Rules};

    /// The starter, natively, beats `random` in at least 90% of 200 seat-swapped games.
    #[test]
    fn beats_random_in_90_percent_of_200_games() {
        let mut wins = 0;
        for game in 0..200u64 {
            let mut me = NativePlayer::new(Starter);
            let mut random = NativePlayer::new(Dungeon::create("random").unwrap());
            let my_seat = (game % 2) as u8;
            let players: [&mut dyn Player<Dungeon>; 2] = if my_seat == 0 {
                [&mut me, &mut random]
            } else {
                [&mut random, &mut me]
            };
            let config = MatchConfig::new(Rules::default(), 500 + game / 2);
            let outcome = run_match::<Dungeon>(&config, players).outcome;
            assert_eq!(outcome.seats[usize::from(my_seat)].invalid_actions, 0);
            if outcome.winner == Some(my_seat) {
                wins += 1;
            }
        }
        assert!(wins >= 180, "{wins} wins of 200");
    }
}
