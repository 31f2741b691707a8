//! Unit tests of `dungeon`, with the numbers of the document (docs/rules/dungeon.md).

use super::play::{Run, RunEnd, Step};
use super::rules::{
    CommandError, check_command, gain_xp, initiative, legal_commands, new_hero, new_monster,
};
use super::*;
use crate::{MatchConfig, NativePlayer, Player, Ruleset, ScriptedPlayer, run_match};
use arena_sdk::Bot;
use arena_sdk::dungeon::{
    Ability, Action, Class, Family, MonsterKind, Observation, Stats, Target, monster_max_hp,
    monster_stats, monster_xp, power, xp_for_next_level,
};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn stats(strength: u32, constitution: u32, intelligence: u32, speed: u32) -> Stats {
    Stats {
        strength,
        constitution,
        intelligence,
        speed,
    }
}

/// A run of one wave of `monsters` (at their levels) against a party of `classes` at
/// level 1, the wave started but nobody has acted.
fn battle(classes: &[Class], monsters: &[(MonsterKind, u32)]) -> Run {
    let wave = monsters
        .iter()
        .map(|&(kind, level)| WaveMonster { kind, level })
        .collect();
    let mut run = Run::new(
        0,
        build_party(classes, 1),
        vec![wave],
        100,
        ChaCha8Rng::seed_from_u64(1),
    );
    run.start_wave(1);
    run.take_events();
    run
}

fn lines(run: &mut Run) -> Vec<String> {
    run.take_events().iter().map(describe_event).collect()
}

// ---- heroes ----------------------------------------------------------------------------

#[test]
fn every_class_at_level_1_has_the_documents_stats_hp_and_mp() {
    let cases = [
        (Class::Warrior, stats(7, 8, 4, 5), 104, 52),
        (Class::Mage, stats(4, 4, 9, 6), 102, 54),
        (Class::Cleric, stats(6, 7, 6, 5), 103, 53),
        (Class::Rogue, stats(7, 4, 5, 8), 102, 52),
    ];
    for (class, want, hp, mp) in cases {
        let hero = new_hero(0, class, 1);
        assert_eq!(hero.stats, want, "{class:?}");
        assert_eq!(
            (hero.hp, hero.max_hp, hero.mp, hero.max_mp),
            (hp, hp, mp, mp)
        );
        assert_eq!((hero.level, hero.xp), (1, 0));
        assert_eq!(hero.class.abilities()[0], Ability::Fight);
    }
}

#[test]
fn every_class_at_level_2_gains_one_per_stat_plus_positive_modifiers() {
    // Warrior +1 str, +2 con: gains 2 str, 3 con, 1 int, 1 spd; maxhp + 11/2, maxmp + 5/2.
    let cases = [
        (Class::Warrior, stats(9, 11, 5, 6), 109, 54),
        (Class::Mage, stats(5, 5, 13, 7), 104, 60),
        (Class::Cleric, stats(7, 9, 7, 6), 107, 56),
        (Class::Rogue, stats(9, 5, 6, 11), 104, 55),
    ];
    for (class, want, hp, mp) in cases {
        let hero = new_hero(0, class, 2);
        assert_eq!(hero.stats, want, "{class:?}");
        assert_eq!((hero.max_hp, hero.max_mp), (hp, mp), "{class:?}");
    }
    let warrior = new_hero(0, Class::Warrior, 3);
    assert_eq!(warrior.stats, stats(11, 14, 6, 7));
    assert_eq!((warrior.max_hp, warrior.max_mp), (116, 57));
}

#[test]
fn levelling_up_carries_excess_xp_and_fills_hp_and_mp() {
    let mut hero = new_hero(0, Class::Mage, 1);
    hero.hp = 5;
    hero.mp = 1;
    assert_eq!(xp_for_next_level(1), 10);
    assert!(gain_xp(&mut hero, 9).is_empty());
    assert_eq!((hero.level, hero.xp, hero.hp), (1, 9, 5));
    let reached = gain_xp(&mut hero, 4);
    assert_eq!(reached.len(), 1);
    assert_eq!((hero.level, hero.xp), (2, 3));
    assert_eq!((hero.hp, hero.mp), (104, 60));
    // 3 + 50 = 53: level 3 at 20 (33 left), level 4 at 30 (3 left).
    let reached = gain_xp(&mut hero, 50);
    assert_eq!(reached.iter().map(|h| h.level).collect::<Vec<_>>(), [3, 4]);
    assert_eq!((hero.level, hero.xp), (4, 3));
    assert_eq!(hero, new_hero_with_xp(Class::Mage, 4, 3));
}

fn new_hero_with_xp(class: Class, level: u32, xp: u32) -> arena_sdk::dungeon::Hero {
    let mut hero = new_hero(0, class, level);
    hero.xp = xp;
    hero
}

#[test]
fn hero_abilities_at_level_1_and_higher() {
    let w = new_hero(0, Class::Warrior, 1);
    assert_eq!(power(Ability::Fight, w.stats, 1), 7);
    assert_eq!(power(Ability::ShieldSlam, w.stats, 1), 10); // 1.5 × 7 = 10.5
    assert_eq!(power(Ability::RecklessCharge, w.stats, 1), 14);
    let m = new_hero(0, Class::Mage, 1);
    assert_eq!(power(Ability::Fireball, m.stats, 1), 10); // 6 + 9/2
    assert_eq!(power(Ability::Frostbolt, m.stats, 1), 4); // 3 + level
    let m3 = new_hero(0, Class::Mage, 3);
    assert_eq!(m3.stats.intelligence, 17);
    assert_eq!(power(Ability::Fireball, m3.stats, 3), 14);
    assert_eq!(power(Ability::Frostbolt, m3.stats, 3), 6);
    let c = new_hero(0, Class::Cleric, 1);
    assert_eq!(power(Ability::Heal, c.stats, 1), 7);
    assert_eq!(power(Ability::Smite, c.stats, 1), 10); // 4 + (6 + 7)/2
    let r = new_hero(0, Class::Rogue, 1);
    assert_eq!(power(Ability::Backstab, r.stats, 1), 14);
    assert_eq!(power(Ability::RapidStrike, r.stats, 1), 12);
    let r2 = new_hero(0, Class::Rogue, 2);
    assert_eq!(power(Ability::RapidStrike, r2.stats, 2), 15);
    let costs = [
        (Ability::Fight, 0),
        (Ability::ShieldSlam, 5),
        (Ability::RecklessCharge, 0),
        (Ability::Fireball, 8),
        (Ability::Frostbolt, 3),
        (Ability::Heal, 4),
        (Ability::Smite, 7),
        (Ability::Backstab, 0),
        (Ability::RapidStrike, 5),
    ];
    for (ability, cost) in costs {
        assert_eq!(ability.mp_cost(), cost, "{ability}");
    }
}

// ---- monsters --------------------------------------------------------------------------

#[test]
fn every_monster_type_at_level_1() {
    let cases = [
        (MonsterKind::RedDragon, stats(16, 16, 12, 8), 100, 13),
        (MonsterKind::GreenDragon, stats(12, 16, 8, 12), 100, 12),
        (MonsterKind::Vampire, stats(8, 2, 16, 8), 30, 8),
        (MonsterKind::Skeleton, stats(10, 2, 2, 4), 10, 4),
        (MonsterKind::Troll, stats(14, 12, 8, 8), 20, 10),
        (MonsterKind::Orc, stats(14, 8, 8, 8), 16, 15),
    ];
    for (kind, want, hp, xp) in cases {
        let m = new_monster(0, kind, 1);
        assert_eq!(m.stats, want, "{kind:?}");
        assert_eq!((m.hp, m.max_hp, m.xp_value), (hp, hp, xp), "{kind:?}");
        assert_eq!(m.queue, kind.command_queue().to_vec());
    }
}

#[test]
fn every_monster_type_at_level_3_drops_fractions() {
    // 8 × m + 2 × m, fractions dropped; maxhp = base + 2 × con / 2.
    let cases = [
        (MonsterKind::RedDragon, stats(20, 20, 15, 10), 120, 16),
        (MonsterKind::GreenDragon, stats(15, 20, 10, 15), 120, 15),
        (MonsterKind::Vampire, stats(10, 2, 20, 10), 32, 12),
        (MonsterKind::Skeleton, stats(12, 2, 2, 5), 12, 7),
        (MonsterKind::Troll, stats(17, 15, 10, 10), 35, 18),
        (MonsterKind::Orc, stats(17, 10, 10, 10), 26, 17),
    ];
    for (kind, want, hp, xp) in cases {
        assert_eq!(monster_stats(kind, 3), want, "{kind:?}");
        assert_eq!(monster_max_hp(kind, 3), hp, "{kind:?}");
        assert_eq!(monster_xp(want, hp), xp, "{kind:?}");
    }
}

#[test]
fn families_and_monster_abilities() {
    use MonsterKind::*;
    assert_eq!(RedDragon.family(), Family::Dragon);
    assert_eq!(Vampire.family(), Family::Undead);
    assert_eq!(Orc.family(), Family::Humanoid);
    let red = monster_stats(RedDragon, 1);
    assert_eq!(power(Ability::FireBreath, red, 1), 30); // 2.5 × 12
    assert_eq!(power(Ability::TailSwipe, red, 1), 24); // 16 + 8
    let green = monster_stats(GreenDragon, 1);
    assert_eq!(power(Ability::PoisonBreath, green, 1), 36); // 1.5 × (8 + 16)
    let vampire = monster_stats(Vampire, 1);
    assert_eq!(power(Ability::Bite, vampire, 1), 4); // 0.5 × 8
    assert_eq!(power(Ability::LifeDrain, vampire, 1), 24); // 1.5 × 16
    let skeleton = monster_stats(Skeleton, 1);
    assert_eq!(power(Ability::Bash, skeleton, 1), 20);
    assert_eq!(power(Ability::LifeDrain, skeleton, 1), 3);
    let troll = monster_stats(Troll, 1);
    assert_eq!(power(Ability::Slash, troll, 1), 22);
    assert_eq!(power(Ability::Regenerate, troll, 1), 12);
    let orc = monster_stats(Orc, 1);
    assert_eq!(power(Ability::BloodRage, orc, 1), 28);
    assert_eq!(arena_sdk::dungeon::blood_rage_self_damage(orc), 4);
    assert_eq!(RedDragon.damage_taken(14), 9);
    assert_eq!(GreenDragon.damage_taken(4), 0);
    assert_eq!(Orc.damage_taken(4), 4);
}

// ---- abilities in battle, with the event lines -----------------------------------------

#[test]
fn fight_and_other_abilities_use_the_documents_lines() {
    let mut run = battle(&[Class::Warrior, Class::Mage], &[(MonsterKind::Troll, 1)]);
    run.resolve(Target::Hero(0), Ability::Fight, Target::Monster(0));
    run.resolve(Target::Hero(1), Ability::Fireball, Target::Monster(0));
    assert_eq!(
        lines(&mut run),
        [
            "Warrior1 attacks Troll1 for 7!",
            "Mage2 hits Troll1 with fireball for 10 damage!"
        ]
    );
    assert_eq!(run.monsters()[0].hp, 3);
}

#[test]
fn dragons_reduce_every_hit_by_five() {
    let mut run = battle(&[Class::Rogue], &[(MonsterKind::RedDragon, 1)]);
    run.resolve(Target::Hero(0), Ability::Backstab, Target::Monster(0));
    run.resolve(Target::Hero(0), Ability::Fight, Target::Monster(0));
    assert_eq!(
        lines(&mut run),
        [
            "Rogue1 hits RedDragon1 with backstab for 9 damage!",
            "Rogue1 attacks RedDragon1 for 2!"
        ]
    );
    assert_eq!(run.monsters()[0].hp, 89);
}

#[test]
fn healing_heals_heroes_up_to_maxhp_and_hurts_the_undead() {
    let mut run = battle(
        &[Class::Cleric, Class::Warrior],
        &[(MonsterKind::Skeleton, 1), (MonsterKind::Orc, 1)],
    );
    run.hero_mut(1).hp = 100;
    run.resolve(Target::Hero(0), Ability::Heal, Target::Hero(1));
    run.resolve(Target::Hero(0), Ability::Heal, Target::Monster(0));
    run.monster_mut(1).hp = 10;
    run.resolve(Target::Hero(0), Ability::Heal, Target::Monster(1));
    assert_eq!(
        lines(&mut run),
        [
            "Cleric1 heals Warrior2 with heal for 4!",
            "Cleric1 hits Skeleton1 with heal for 7 damage!",
            "Cleric1 heals Orc2 with heal for 6!",
        ]
    );
    assert_eq!(run.party()[1].hp, 104);
    assert_eq!(run.monsters()[0].hp, 3);
    assert_eq!(run.monsters()[1].hp, 16);
}

#[test]
fn life_drain_heals_the_undead_without_hurting_it() {
    let mut run = battle(&[Class::Warrior], &[(MonsterKind::Vampire, 1)]);
    run.monster_mut(0).hp = 10;
    run.resolve(Target::Monster(0), Ability::LifeDrain, Target::Hero(0));
    assert_eq!(
        lines(&mut run),
        [
            "Vampire1 hits Warrior1 with life_drain for 24 damage!",
            "Vampire1 recovers 20 hp with life_drain!"
        ]
    );
    assert_eq!((run.party()[0].hp, run.monsters()[0].hp), (80, 30));
}

#[test]
fn bite_heals_the_vampire_and_lowers_the_targets_maxhp_for_good() {
    let mut run = battle(&[Class::Rogue], &[(MonsterKind::Vampire, 1)]);
    run.monster_mut(0).hp = 20;
    run.resolve(Target::Monster(0), Ability::Bite, Target::Hero(0));
    assert_eq!(
        lines(&mut run),
        [
            "Vampire1 hits Rogue1 with bite for 4 damage!",
            "Vampire1 recovers 4 hp with bite!",
            "Rogue1's maxhp is lowered by 4 to 98!"
        ]
    );
    let rogue = &run.party()[0];
    assert_eq!((rogue.hp, rogue.max_hp), (98, 98));
    assert_eq!(run.monsters()[0].hp, 24);
}

#[test]
fn troll_regenerates_constitution_and_orc_rages_at_its_own_cost() {
    let mut run = battle(
        &[Class::Warrior],
        &[(MonsterKind::Troll, 1), (MonsterKind::Orc, 1)],
    );
    run.monster_mut(0).hp = 5;
    run.resolve(Target::Monster(0), Ability::Regenerate, Target::Hero(0));
    run.resolve(Target::Monster(1), Ability::BloodRage, Target::Hero(0));
    run.resolve(Target::Monster(0), Ability::Slash, Target::Hero(0));
    assert_eq!(
        lines(&mut run),
        [
            "Troll1 recovers 12 hp with regenerate!",
            "Orc2 hits Warrior1 with blood_rage for 28 damage!",
            "Orc2 takes 4 self-inflicted damage!",
            "Troll1 hits Warrior1 with slash for 22 damage!",
        ]
    );
    assert_eq!(run.monsters()[0].hp, 17);
    assert_eq!(run.monsters()[1].hp, 12);
    assert_eq!(run.party()[0].hp, 104 - 28 - 22);
}

#[test]
fn every_other_monster_ability_hits_for_its_formula() {
    let cases = [
        (MonsterKind::RedDragon, Ability::FireBreath, 30),
        (MonsterKind::RedDragon, Ability::TailSwipe, 24),
        (MonsterKind::GreenDragon, Ability::PoisonBreath, 36),
        (MonsterKind::Skeleton, Ability::Bash, 20),
        (MonsterKind::Orc, Ability::Fight, 14),
    ];
    for (kind, ability, damage) in cases {
        let mut run = battle(&[Class::Warrior], &[(kind, 1)]);
        run.resolve(Target::Monster(0), ability, Target::Hero(0));
        assert_eq!(run.party()[0].hp, 104 - damage, "{kind:?} {ability}");
    }
}

#[test]
fn warrior_and_rogue_and_cleric_abilities_in_battle() {
    let mut run = battle(
        &[Class::Warrior, Class::Rogue, Class::Cleric],
        &[(MonsterKind::Troll, 3)],
    );
    let troll_hp = run.monsters()[0].hp;
    assert_eq!(troll_hp, 35);
    for (hero, ability) in [
        (0, Ability::ShieldSlam),
        (0, Ability::RecklessCharge),
        (1, Ability::RapidStrike),
        (2, Ability::Smite),
    ] {
        run.resolve(Target::Hero(hero), ability, Target::Monster(0));
    }
    assert_eq!(
        lines(&mut run),
        [
            "Warrior1 hits Troll1 with shield_slam for 10 damage!",
            "Warrior1 hits Troll1 with reckless_charge for 14 damage!",
            "Warrior1 takes 4 self-inflicted damage!",
            "Rogue2 hits Troll1 with rapid_strike for 12 damage!",
            "Cleric3 hits Troll1 with smite for 10 damage!",
        ]
    );
    assert_eq!(run.monsters()[0].hp, 0);
    assert_eq!(run.party()[0].hp, 100);
    let mut run = battle(&[Class::Mage], &[(MonsterKind::Orc, 1)]);
    run.resolve(Target::Hero(0), Ability::Frostbolt, Target::Monster(0));
    assert_eq!(
        lines(&mut run),
        ["Mage1 hits Orc1 with frostbolt for 4 damage!"]
    );
}

// ---- commands and errors ---------------------------------------------------------------

#[test]
fn every_error_of_the_document_and_its_order() {
    let mut run = battle(
        &[Class::Rogue, Class::Mage, Class::Cleric],
        &[(MonsterKind::Orc, 1), (MonsterKind::Skeleton, 1)],
    );
    run.monster_mut(0).hp = 10;
    let party = run.party().to_vec();
    let monsters = run.monsters().to_vec();
    let check = |hero: usize, ability, target| {
        check_command(&party[hero], Action { ability, target }, &party, &monsters)
    };
    let err = check(0, Ability::Fireball, Target::Monster(0)).unwrap_err();
    assert!(matches!(err, CommandError::InvalidCommand { .. }));
    assert_eq!(
        err.to_string(),
        "InvalidCommand: Rogue1 has no ability `fireball`"
    );
    let err = check(0, Ability::Unknown, Target::Monster(0)).unwrap_err();
    assert!(matches!(err, CommandError::InvalidCommand { .. }));
    let err = check(0, Ability::Backstab, Target::Monster(0)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "InvalidTarget: Rogue1 cannot use backstab on Orc1: backstab needs an undamaged target"
    );
    assert!(check(0, Ability::Backstab, Target::Monster(1)).is_ok());
    assert!(matches!(
        check(0, Ability::Fight, Target::Monster(7)),
        Err(CommandError::InvalidTarget { .. })
    ));
    assert!(matches!(
        check(0, Ability::Fight, Target::Hero(1)),
        Err(CommandError::InvalidTarget { .. })
    ));
    assert!(matches!(
        check(2, Ability::Heal, Target::Hero(9)),
        Err(CommandError::InvalidTarget { .. })
    ));
    assert!(check(2, Ability::Heal, Target::Hero(1)).is_ok());
    // An invalid target is reported before insufficient MP.
    let mut poor = party.clone();
    poor[1].mp = 7;
    let err = check_command(
        &poor[1],
        Action::on_monster(Ability::Fireball, 0),
        &poor,
        &monsters,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "InsufficientMP: fireball costs 8 MP, Mage2 has 7"
    );
    assert!(matches!(
        check_command(
            &poor[1],
            Action::on_hero(Ability::Fireball, 0),
            &poor,
            &monsters
        ),
        Err(CommandError::InvalidTarget { .. })
    ));
    let mut dead = monsters.clone();
    dead[1].dead = true;
    assert!(matches!(
        check_command(
            &party[0],
            Action::on_monster(Ability::Fight, 1),
            &party,
            &dead
        ),
        Err(CommandError::InvalidTarget { .. })
    ));
}

#[test]
fn a_rejected_command_costs_the_turn() {
    let mut run = battle(&[Class::Rogue], &[(MonsterKind::Skeleton, 1)]);
    assert_eq!(run.queue().front(), Some(&Target::Hero(0)));
    let error = run.hero_turn(0, Some(Action::on_monster(Ability::Smite, 0)));
    assert!(matches!(error, Some(CommandError::InvalidCommand { .. })));
    assert_eq!(
        lines(&mut run),
        [
            "Rogue1's turn!",
            "Rogue1 loses the turn: InvalidCommand: Rogue1 has no ability `smite`"
        ]
    );
    assert_eq!(run.monsters()[0].hp, 10);
    assert_eq!(run.queue().front(), Some(&Target::Monster(0)));
    assert_eq!(run.score().turns, 1);
    // A fault loses the turn too, but is not a rejected command.
    let mut run = battle(&[Class::Rogue], &[(MonsterKind::Skeleton, 1)]);
    assert_eq!(run.hero_turn(0, None), None);
    assert_eq!(
        lines(&mut run),
        ["Rogue1's turn!", "Rogue1 loses the turn: no answer"]
    );
}

#[test]
fn insufficient_mp_leaves_the_mp_and_the_target_untouched() {
    let mut run = battle(&[Class::Rogue], &[(MonsterKind::Skeleton, 1)]);
    run.hero_mut(0).mp = 4;
    let error = run.hero_turn(0, Some(Action::on_monster(Ability::RapidStrike, 0)));
    assert!(matches!(
        error,
        Some(CommandError::InsufficientMp { cost: 5, mp: 4, .. })
    ));
    assert_eq!((run.party()[0].mp, run.monsters()[0].hp), (4, 10));
    let mut run = battle(&[Class::Rogue], &[(MonsterKind::Troll, 1)]);
    assert_eq!(
        run.hero_turn(0, Some(Action::on_monster(Ability::RapidStrike, 0))),
        None
    );
    assert_eq!((run.party()[0].mp, run.monsters()[0].hp), (47, 8));
}

#[test]
fn legal_commands_are_exactly_those_the_checks_accept() {
    let mut run = battle(
        &[Class::Cleric, Class::Rogue],
        &[(MonsterKind::Orc, 1), (MonsterKind::Skeleton, 1)],
    );
    run.monster_mut(0).hp = 3;
    let legal = legal_commands(&run.party()[1], run.party(), run.monsters());
    assert_eq!(legal[0], Action::on_monster(Ability::Fight, 0));
    assert!(!legal.contains(&Action::on_monster(Ability::Backstab, 0)));
    assert!(legal.contains(&Action::on_monster(Ability::Backstab, 1)));
    assert!(legal.iter().all(|a| matches!(a.target, Target::Monster(_))));
    let cleric = legal_commands(&run.party()[0], run.party(), run.monsters());
    assert!(cleric.contains(&Action::on_hero(Ability::Heal, 1)));
    assert!(cleric.contains(&Action::on_monster(Ability::Heal, 1)));
    assert_eq!(cleric.len(), 2 + 4 + 2);
}

// ---- the battle ------------------------------------------------------------------------

#[test]
fn initiative_is_a_stable_sort_by_speed_heroes_first_on_ties() {
    let party = build_party(&[Class::Warrior, Class::Rogue, Class::Mage], 1);
    let monsters = vec![
        new_monster(0, MonsterKind::Skeleton, 1),    // speed 4
        new_monster(1, MonsterKind::GreenDragon, 1), // speed 12
        new_monster(2, MonsterKind::Orc, 1),         // speed 8
    ];
    assert_eq!(
        initiative(&party, &monsters),
        [
            Target::Monster(1),
            Target::Hero(1),
            Target::Monster(2),
            Target::Hero(2),
            Target::Hero(0),
            Target::Monster(0),
        ]
    );
}

#[test]
fn a_cleric_healing_itself_gets_heals_line() {
    let mut run = battle(&[Class::Cleric], &[(MonsterKind::Orc, 1)]);
    run.hero_mut(0).hp = 90;
    run.resolve(Target::Hero(0), Ability::Heal, Target::Hero(0));
    assert_eq!(lines(&mut run), ["Cleric1 heals Cleric1 with heal for 7!"]);
    assert_eq!(run.party()[0].hp, 97);
}

#[test]
fn a_regenerating_troll_records_the_hero_it_drew() {
    // The troll (speed 8) acts before the warriors (speed 5), its queue turned to
    // `regenerate`; the seeded roll picks one of three living heroes.
    let mut run = battle(
        &[Class::Warrior, Class::Warrior, Class::Warrior],
        &[(MonsterKind::Troll, 1)],
    );
    run.monster_mut(0).queue = vec![Ability::Regenerate, Ability::Slash, Ability::Fight];
    run.monster_mut(0).hp = 5;
    assert_eq!(run.advance(), Step::Hero(0));
    let events = run.take_events();
    let drawn: Vec<u8> = events
        .iter()
        .filter_map(|e| match e {
            Event::TargetDrawn {
                monster: 0, hero, ..
            } => Some(*hero),
            _ => None,
        })
        .collect();
    // The same draw as an attacking monster's: the first of the stream seeded with 1.
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let expected = u8::try_from(rand::Rng::random_range(&mut rng, 0..3usize)).unwrap();
    assert_eq!(drawn, [expected]);
    assert!(events.iter().filter(|e| Dungeon::is_roll(e)).count() == 1);
    assert_eq!(
        events.iter().map(describe_event).collect::<Vec<_>>(),
        [
            format!("Troll1 draws Warrior{} as its target", expected + 1),
            "Troll1 recovers 12 hp with regenerate!".to_owned(),
        ]
    );
}

#[test]
fn a_drawn_target_is_a_roll_record_the_bot_is_not_shown() {
    let mut run = battle(&[Class::Warrior], &[(MonsterKind::Troll, 1)]);
    run.monster_mut(0).queue = vec![Ability::Regenerate];
    run.monster_mut(0).hp = 5;
    assert_eq!(run.advance(), Step::Hero(0));
    let observation = run.observation(0, None);
    assert_eq!(
        observation.events.last().map(String::as_str),
        Some("Troll1 recovers 12 hp with regenerate!")
    );
    assert!(!observation.events.iter().any(|l| l.contains("draws")));
}

#[test]
fn monsters_act_until_a_heros_turn_and_use_their_queue_in_rotation() {
    // A green dragon (speed 12) acts before a warrior (speed 5): poison_breath, tail_swipe,
    // fight, poison_breath…
    let mut run = battle(&[Class::Warrior], &[(MonsterKind::GreenDragon, 1)]);
    assert_eq!(run.advance(), Step::Hero(0));
    assert_eq!(
        lines(&mut run),
        ["GreenDragon1 hits Warrior1 with poison_breath for 36 damage!"]
    );
    let observation = run.observation(0, None);
    assert_eq!(observation.monsters[0].next_ability(), Ability::TailSwipe);
    assert_eq!(observation.initiative, [Target::Monster(0)]);
    assert_eq!(
        observation.events.last().map(String::as_str),
        Some("GreenDragon1 hits Warrior1 with poison_breath for 36 damage!")
    );
    assert!(observation.events[0].starts_with("Seat 0 enters the dungeon: Warrior1"));
    run.hero_turn(0, Some(Action::on_monster(Ability::Fight, 0)));
    assert_eq!(run.advance(), Step::Hero(0));
    run.hero_turn(0, Some(Action::on_monster(Ability::Fight, 0)));
    assert_eq!(run.advance(), Step::Hero(0));
    assert_eq!(
        lines(&mut run),
        [
            "Warrior1's turn!",
            "Warrior1 attacks GreenDragon1 for 2!",
            "GreenDragon1 hits Warrior1 with tail_swipe for 24 damage!",
            "Warrior1's turn!",
            "Warrior1 attacks GreenDragon1 for 2!",
            "GreenDragon1 attacks Warrior1 for 12!",
        ]
    );
    assert_eq!(run.party()[0].hp, 104 - 36 - 24 - 12);
}

#[test]
fn the_dead_leave_at_the_end_of_the_turn_xp_goes_to_every_living_hero() {
    // Orc (15 xp) dies: each living hero gains 15 and reaches level 2 with 5 left.
    let mut run = battle(
        &[Class::Rogue, Class::Warrior, Class::Mage],
        &[(MonsterKind::Orc, 1), (MonsterKind::Skeleton, 1)],
    );
    run.hero_mut(2).hp = 0; // a hero who fell this turn gets no XP
    run.monster_mut(0).hp = 7;
    assert_eq!(run.queue().front(), Some(&Target::Hero(0)));
    assert_eq!(
        run.hero_turn(0, Some(Action::on_monster(Ability::Fight, 0))),
        None
    );
    assert_eq!(
        lines(&mut run),
        [
            "Rogue1's turn!",
            "Rogue1 attacks Orc1 for 7!",
            "Orc1 dies!",
            "15 XP rewarded!",
            "Rogue1 is now level 2!",
            "Warrior2 is now level 2!",
            "Mage3 dies!",
        ]
    );
    assert!(!run.queue().contains(&Target::Monster(0)));
    assert!(!run.queue().contains(&Target::Hero(2)));
    let rogue = &run.party()[0];
    assert_eq!((rogue.level, rogue.xp, rogue.hp), (2, 5, 104));
    assert_eq!(run.party()[2].level, 1);
    assert_eq!(run.tally().monsters_killed, 1);
    assert_eq!(run.tally().heroes_lost, 1);
    assert_eq!(run.score().xp, 30);
    assert_eq!(run.tally().levels_gained, 2);
}

#[test]
fn victory_clears_the_wave_and_the_last_wave_ends_the_run() {
    let mut run = battle(&[Class::Rogue], &[(MonsterKind::Skeleton, 1)]);
    assert_eq!(
        run.hero_turn(0, Some(Action::on_monster(Ability::Backstab, 0))),
        None
    );
    assert_eq!(run.advance(), Step::Over(RunEnd::Cleared));
    assert_eq!(
        lines(&mut run),
        [
            "Rogue1's turn!",
            "Rogue1 hits Skeleton1 with backstab for 14 damage!",
            "Skeleton1 dies!",
            "4 XP rewarded!",
            "Victory! Wave 1 is cleared.",
        ]
    );
    assert_eq!(run.score().waves_cleared, 1);
}

#[test]
fn defeat_when_every_hero_is_dead_even_if_the_monsters_die_too() {
    let mut run = battle(&[Class::Warrior], &[(MonsterKind::Skeleton, 1)]);
    run.hero_mut(0).hp = 4;
    run.monster_mut(0).hp = 5;
    run.hero_turn(0, Some(Action::on_monster(Ability::RecklessCharge, 0)));
    assert_eq!(run.advance(), Step::Over(RunEnd::Defeat));
    assert_eq!(
        lines(&mut run),
        [
            "Warrior1's turn!",
            "Warrior1 hits Skeleton1 with reckless_charge for 14 damage!",
            "Warrior1 takes 4 self-inflicted damage!",
            // In queue order: the warrior has just moved to the back.
            "Skeleton1 dies!",
            "Warrior1 dies!",
            "Defeat! The party falls in wave 1.",
        ]
    );
}

#[test]
fn the_turn_limit_ends_a_run() {
    let mut run = Run::new(
        0,
        build_party(&[Class::Rogue], 1),
        vec![vec![WaveMonster {
            kind: MonsterKind::RedDragon,
            level: 1,
        }]],
        2,
        ChaCha8Rng::seed_from_u64(3),
    );
    let mut steps = 0;
    loop {
        match run.advance() {
            Step::Hero(id) => {
                run.hero_turn(id, None);
                steps += 1;
            }
            Step::Over(end) => {
                assert_eq!(end, RunEnd::TurnLimit);
                break;
            }
        }
    }
    assert_eq!((steps, run.score().turns), (2, 2));
}

// ---- rules config, setup, match ---------------------------------------------------------

#[test]
fn waves_rise_in_level_and_size() {
    let rules = Rules::default();
    let sizes: Vec<u32> = (1..=10).map(|w| rules.wave_size(w)).collect();
    assert_eq!(sizes, [2, 2, 3, 3, 4, 4, 5, 5, 5, 5]);
    let waves = rules::roll_waves(&rules, &mut ChaCha8Rng::seed_from_u64(5));
    assert_eq!(waves.len(), 10);
    for (i, wave) in waves.iter().enumerate() {
        assert_eq!(wave.len() as u32, rules.wave_size(i as u32 + 1));
        assert!(wave.iter().all(|m| m.level == i as u32 + 1));
    }
}

#[test]
fn rules_are_validated() {
    assert!(validate(&Rules::default()).is_ok());
    let bad = Rules {
        party_size: 0,
        ..Rules::default()
    };
    assert_eq!(
        validate(&bad).unwrap_err(),
        "party_size must be 1 to 8, not 0"
    );
    let bad = Rules {
        first_wave_size: 6,
        max_wave_size: 5,
        ..Rules::default()
    };
    assert_eq!(
        validate(&bad).unwrap_err(),
        "first_wave_size must be 1 to 5, not 6"
    );
}

/// Always the first legal command.
#[derive(Debug, Default)]
struct First(Vec<Class>);

impl Bot<Dungeon> for First {
    fn setup(&mut self, request: &SetupRequest) -> SetupChoice {
        let party = if self.0.is_empty() {
            vec![Class::Warrior; request.party_size as usize]
        } else {
            self.0.clone()
        };
        SetupChoice { party }
    }
    fn act(&mut self, observation: &Observation) -> Action {
        observation.legal[0]
    }
}

fn play(a: First, b: First, rules: Rules, seed: u64) -> crate::MatchRecord<Dungeon> {
    let mut a = NativePlayer::new(a);
    let mut b = NativePlayer::new(b);
    let players: [&mut dyn Player<Dungeon>; 2] = [&mut a, &mut b];
    run_match::<Dungeon>(&MatchConfig::new(rules, seed), players)
}

#[test]
fn identical_bots_face_the_identical_dungeon_and_draw() {
    let record = play(First::default(), First::default(), Rules::default(), 11);
    assert_eq!(record.outcome.winner, None, "{}", record.outcome.reason);
    assert!(record.outcome.reason.starts_with("equal scores"));
    assert_eq!(record.outcome.seats[0].stats, record.outcome.seats[1].stats);
    let runs: Vec<_> = record
        .replay
        .log
        .iter()
        .filter_map(|e| match e {
            crate::replay::Entry::Event {
                event: Event::RunEnd { score, .. },
            } => Some(*score),
            _ => None,
        })
        .collect();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0], runs[1]);
}

#[test]
fn a_party_of_the_wrong_size_is_rejected_and_the_default_party_plays() {
    let record = play(
        First(vec![Class::Mage]),
        First::default(),
        Rules::default(),
        2,
    );
    assert_eq!(record.outcome.seats[0].invalid_actions, 1);
    let initial = record.replay.initial.unwrap();
    let classes: Vec<Class> = initial.parties[0].iter().map(|h| h.class).collect();
    assert_eq!(classes, DEFAULT_PARTY);
    assert_eq!(initial.parties[1][0].name, "Warrior1");
}

#[test]
fn the_better_score_wins_and_replays_verify() {
    let rules = Rules {
        waves: 4,
        ..Rules::default()
    };
    let mut decided = 0;
    for seed in 0..8 {
        let record = play(
            First::default(),
            First(vec![Class::Mage; 4]),
            rules.clone(),
            seed,
        );
        let stats = &record.outcome.seats;
        let score = |seat: usize| {
            (
                stats[seat].stats["waves_cleared"],
                stats[seat].stats["xp"],
                -stats[seat].stats["turns"],
            )
        };
        let expected = match score(0).cmp(&score(1)) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        assert_eq!(record.outcome.winner, expected, "{}", record.outcome.reason);
        decided += usize::from(expected.is_some());
    }
    assert!(decided > 0);
    let record = play(First::default(), First::default(), rules, 1);
    let stats = &record.outcome.seats;
    for key in STAT_KEYS {
        assert!(stats[0].stats.contains_key(key), "{key}");
    }
    crate::replay::verify(&record.replay).unwrap();
    // The picture shows the run being played.
    let events: Vec<Event> = record
        .replay
        .log
        .iter()
        .filter_map(|e| match e {
            crate::replay::Entry::Event { event } => Some(event.clone()),
            _ => None,
        })
        .collect();
    let picture = Dungeon::picture(record.replay.initial.as_ref().unwrap(), &events[..3]).unwrap();
    assert!(picture.contains("seat 0 — wave 1/4"), "{picture}");
    assert!(picture.contains("Warrior1"), "{picture}");
}

/// A party of rogues that casts `fireball` every turn: each command is rejected.
#[derive(Debug, Default)]
struct Stubborn {
    seen: std::sync::Arc<std::sync::Mutex<Vec<Option<String>>>>,
}

impl Bot<Dungeon> for Stubborn {
    fn setup(&mut self, request: &SetupRequest) -> SetupChoice {
        SetupChoice {
            party: vec![Class::Rogue; request.party_size as usize],
        }
    }
    fn act(&mut self, observation: &Observation) -> Action {
        self.seen
            .lock()
            .unwrap()
            .push(observation.last_rejected.clone());
        Action::on_monster(Ability::Fireball, 0)
    }
}

#[test]
fn the_forfeiting_rejection_is_counted_like_the_others() {
    let mut a = NativePlayer::new(Stubborn::default());
    let mut b = NativePlayer::new(First::default());
    let players: [&mut dyn Player<Dungeon>; 2] = [&mut a, &mut b];
    let mut config = MatchConfig::new(Rules::default(), 1);
    config.max_rejections = 10;
    let record = run_match::<Dungeon>(&config, players);
    let seat = &record.outcome.seats[0];
    assert_eq!(
        record.outcome.reason,
        "forfeit: seat 0 had 10 answers rejected"
    );
    let logged = record
        .replay
        .log
        .iter()
        .filter(|e| matches!(e, crate::replay::Entry::Rejected { seat: 0, .. }))
        .count();
    assert_eq!(logged, 10);
    assert_eq!(seat.invalid_actions, 10);
    assert_eq!(seat.stats["rejected_commands"], 10);
    crate::replay::verify(&record.replay).unwrap();
}

#[test]
fn an_unplayable_answer_is_a_rejected_command_reported_in_the_next_observation() {
    let stubborn = Stubborn::default();
    let seen = stubborn.seen.clone();
    let mut a = NativePlayer::new(stubborn);
    let mut b = NativePlayer::new(First::default());
    let rules = Rules {
        waves: 1,
        ..Rules::default()
    };
    let players: [&mut dyn Player<Dungeon>; 2] = [&mut a, &mut b];
    let mut config = MatchConfig::new(rules, 1);
    config.max_rejections = u32::MAX;
    let record = run_match::<Dungeon>(&config, players);
    let seat = &record.outcome.seats[0];
    assert!(seat.invalid_actions > 0);
    assert_eq!(i64::from(seat.invalid_actions), seat.stats["turns"]);
    assert_eq!(seat.stats["rejected_commands"], seat.stats["turns"]);
    assert_eq!(seat.stats["heroes_lost"], 4, "the party never hits back");
    assert_eq!(record.outcome.winner, Some(1), "{}", record.outcome.reason);
    let seen = seen.lock().unwrap();
    assert_eq!(seen[0], None);
    assert_eq!(
        seen[1].as_deref(),
        Some("InvalidCommand: Rogue1 has no ability `fireball`")
    );
    crate::replay::verify(&record.replay).unwrap();
}

#[test]
fn a_scripted_replay_of_garbage_answers_still_terminates() {
    let answers = (0..5)
        .map(|_| crate::Answer::Fault(crate::Fault::new(crate::FaultKind::WrongShape, "nope")));
    let mut a = ScriptedPlayer::<Dungeon>::new(answers);
    let mut b = NativePlayer::new(First::default());
    let players: [&mut dyn Player<Dungeon>; 2] = [&mut a, &mut b];
    let record = run_match::<Dungeon>(&MatchConfig::new(Rules::default(), 1), players);
    assert_eq!(record.outcome.winner, Some(1));
    assert!(record.outcome.reason.starts_with("forfeit"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Any seed, any party, random commands: the match ends, hp never exceeds maxhp, the
    /// legal commands are accepted, and the same seed gives the same replay.
    #[test]
    fn random_play_terminates_deterministically(
        seed in any::<u64>(),
        party in proptest::collection::vec(0usize..4, 1..=5),
        waves in 1u32..6,
    ) {
        let classes: Vec<Class> = party.iter().map(|&i| Class::ALL[i]).collect();
        let rules = Rules { party_size: classes.len() as u32, waves, ..Rules::default() };
        let one = play(First(classes.clone()), First(classes.clone()), rules.clone(), seed);
        let two = play(First(classes.clone()), First(classes), rules, seed);
        prop_assert_eq!(&one.outcome, &two.outcome);
        prop_assert_eq!(one.outcome.seats[0].invalid_actions, 0);
        for entry in &one.replay.log {
            if let crate::replay::Entry::Event { event: Event::Attack { hp, .. } } = entry {
                prop_assert!(*hp < 100_000);
            }
        }
        let view_ok = Dungeon::picture(
            one.replay.initial.as_ref().unwrap(),
            &one.replay.log.iter().filter_map(|e| match e {
                crate::replay::Entry::Event { event } => Some(event.clone()),
                _ => None,
            }).collect::<Vec<_>>(),
        );
        prop_assert!(view_ok.is_some());
    }

    /// Levelling from any xp keeps xp below the threshold and the stats rising.
    #[test]
    fn gain_xp_leaves_xp_below_the_next_threshold(class in 0usize..4, xp in 0u32..5_000) {
        let mut hero = new_hero(0, Class::ALL[class], 1);
        let before = hero.stats;
        gain_xp(&mut hero, xp);
        prop_assert!(hero.xp < xp_for_next_level(hero.level));
        prop_assert!(hero.stats.strength >= before.strength);
        prop_assert_eq!(hero.hp <= hero.max_hp, true);
    }
}

#[test]
fn frames_have_one_step_per_hero_turn_ending_in_the_second_run_s_final_state() {
    use crate::Ruleset;
    let record = play(First::default(), First::default(), Rules::default(), 11);
    let initial = record.replay.initial.clone().unwrap();
    let events: Vec<Event> = record.replay.events().cloned().collect();
    let frames = Dungeon::frames(&initial, &events).unwrap();
    let turns: u32 = events
        .iter()
        .filter_map(|e| match e {
            Event::RunEnd { score, .. } => Some(score.turns),
            _ => None,
        })
        .sum();
    assert!(turns > 0);
    assert_eq!(frames.steps.len() as u32, turns + 1);
    // Turns count from 0, as in the log.
    assert_eq!(frames.steps.last().unwrap().turn, turns - 1);
    assert_eq!(frames.fixed["waves"], initial.waves.len());
    let start = &frames.steps[0].state;
    assert_eq!(start["heroes"][0]["hp"], initial.parties[0][0].hp);
    assert_eq!(start["heroes"][0]["class"], "Warrior");
    let last = &frames.steps.last().unwrap().state;
    assert_eq!(last["seat"], 1);
    let second_run = events
        .iter()
        .rposition(|e| matches!(e, Event::RunStart { .. }))
        .unwrap();
    let (mut hero_deaths, mut monster_deaths, mut wave) = (0, 0, 0);
    for e in &events[second_run..] {
        match e {
            Event::Dies {
                unit: Target::Hero(_),
                ..
            } => hero_deaths += 1,
            Event::Dies {
                unit: Target::Monster(_),
                ..
            } => monster_deaths += 1,
            Event::WaveStart { wave: w, .. } => {
                (wave, monster_deaths) = (*w, 0);
            }
            _ => {}
        }
    }
    let dead = |list: &str| {
        last[list]
            .as_array()
            .unwrap()
            .iter()
            .filter(|u| u["dead"] == true)
            .count()
    };
    assert_eq!(last["wave"], wave);
    assert_eq!(dead("heroes"), hero_deaths);
    assert_eq!(dead("monsters"), monster_deaths);
    // Levels and hp as the last events left them.
    for e in &events[second_run..] {
        if let Event::LevelUp { hero, level, .. } = e {
            assert!(
                last["heroes"][usize::from(*hero)]["level"]
                    .as_u64()
                    .unwrap()
                    >= u64::from(*level)
            );
        }
    }
}

// ---- forfeits: the match stops at the forfeiting answer ---------------------------------

/// What a [`Scheduled`] player answers on one turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reply {
    /// The first legal command.
    Legal,
    /// A command no warrior has (a rejected command, not a fault).
    Illegal,
    /// No answer: a fault.
    Fault,
}

/// A party of warriors whose turns are answered by `schedule`, its last reply repeated.
#[derive(Debug)]
struct Scheduled {
    schedule: Vec<Reply>,
    turns: usize,
}

impl Scheduled {
    /// A player answering by `schedule`.
    fn new(schedule: &[Reply]) -> Scheduled {
        Scheduled {
            schedule: schedule.to_vec(),
            turns: 0,
        }
    }
}

impl Player<Dungeon> for Scheduled {
    fn start(&mut self, _: &arena_sdk::MatchStart<Dungeon>) -> Result<(), crate::Fault> {
        Ok(())
    }
    fn setup(&mut self, request: &SetupRequest) -> Result<SetupChoice, crate::Fault> {
        Ok(SetupChoice {
            party: vec![Class::Warrior; request.party_size as usize],
        })
    }
    fn act(&mut self, observation: &Observation) -> Result<Action, crate::Fault> {
        let reply = self
            .schedule
            .get(self.turns)
            .or(self.schedule.last())
            .copied()
            .unwrap_or(Reply::Legal);
        self.turns += 1;
        match reply {
            Reply::Legal => Ok(observation.legal[0]),
            Reply::Illegal => Ok(Action::on_monster(Ability::Fireball, 0)),
            Reply::Fault => Err(crate::Fault::new(
                crate::FaultKind::OutOfFuel,
                "scheduled fault",
            )),
        }
    }
    fn end(&mut self, _: &arena_sdk::MatchEnd) {}
}

/// A match of two [`Scheduled`] players with `max_faults`.
fn play_scheduled(
    zero: &[Reply],
    one: &[Reply],
    rules: Rules,
    seed: u64,
    max_faults: u32,
) -> crate::MatchRecord<Dungeon> {
    let mut config = MatchConfig::new(rules, seed);
    config.max_faults = max_faults;
    // Illegal replies play on: only faults forfeit these schedules.
    config.max_rejections = u32::MAX;
    let (mut a, mut b) = (Scheduled::new(zero), Scheduled::new(one));
    let players: [&mut dyn Player<Dungeon>; 2] = [&mut a, &mut b];
    run_match::<Dungeon>(&config, players)
}

/// The log after the answer that forfeited: asserts that the forfeiting answer is `seat`'s
/// `faults`-th fault and returns the entries after it.
fn after_forfeiting_answer(
    record: &crate::MatchRecord<Dungeon>,
    seat: Seat,
    faults: usize,
) -> Vec<crate::replay::Entry<Dungeon>> {
    use crate::replay::Entry;
    let log = &record.replay.log;
    let faulted: Vec<usize> = log
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            matches!(e, Entry::Answer { seat: s, answer: crate::Answer::Fault(_), .. } if *s == seat)
        })
        .map(|(i, _)| i)
        .collect();
    assert_eq!(faulted.len(), faults, "{:?}", record.outcome);
    log[faulted[faults - 1] + 1..].to_vec()
}

/// The match's events end in exactly one end event.
fn assert_one_end_event_last(record: &crate::MatchRecord<Dungeon>) {
    let events: Vec<&Event> = record.replay.events().collect();
    let ends = events.iter().filter(|e| Dungeon::is_end(e)).count();
    assert_eq!(ends, 1, "{events:?}");
    assert!(Dungeon::is_end(events.last().unwrap()));
    assert!(matches!(
        record.replay.log.last(),
        Some(crate::replay::Entry::Event {
            event: Event::GameEnd { .. }
        })
    ));
}

#[test]
fn a_seat_reaching_max_faults_stops_the_match_at_that_answer() {
    use Reply::{Fault, Legal};
    let schedule = [Legal, Fault, Legal, Fault, Legal, Fault, Legal];
    let record = play_scheduled(&schedule, &[Legal], Rules::default(), 3, 3);
    let outcome = &record.outcome;
    assert_eq!(outcome.winner, Some(1));
    assert_eq!(outcome.reason, "forfeit: seat 0 faulted 3 times");
    assert!(outcome.seats[0].forfeited);
    // Nothing after the third fault but the end event: its hero's turn is not played, no
    // monster acts, seat 1 never enters the dungeon.
    let after = after_forfeiting_answer(&record, 0, 3);
    assert_eq!(after.len(), 1, "{after:?}");
    assert_one_end_event_last(&record);
    let Some(Event::GameEnd { winner, scores, .. }) = record.replay.events().last() else {
        unreachable!()
    };
    assert_eq!(*winner, Some(1));
    // Five hero turns were played (the sixth answer forfeited); the run was not finished.
    assert_eq!(scores[0].turns, 5);
    assert_eq!(scores[1], Score::default());
    assert_eq!(outcome.turns, 5);
    assert!(
        !record
            .replay
            .events()
            .any(|e| matches!(e, Event::RunEnd { .. }))
    );
    crate::replay::verify(&record.replay).unwrap();
}

#[test]
fn a_seat_forfeiting_on_its_runs_last_turn_does_not_draw_on_its_score() {
    use Reply::{Fault, Illegal};
    // Three hero turns each: seat 0 loses all three to rejected commands, seat 1 to faults,
    // the third on its run's last turn. Equal scores (no wave, no xp, three turns) would be a
    // draw; the forfeit is at that answer.
    let rules = Rules {
        turn_limit: 3,
        ..Rules::default()
    };
    for seed in 0..6 {
        let record = play_scheduled(&[Illegal], &[Fault], rules.clone(), seed, 3);
        let outcome = &record.outcome;
        assert_eq!(outcome.winner, Some(0), "{}", outcome.reason);
        assert_eq!(outcome.reason, "forfeit: seat 1 faulted 3 times");
        assert_eq!(outcome.seats[0].invalid_actions, 3);
        let after = after_forfeiting_answer(&record, 1, 3);
        assert_eq!(
            after.len(),
            1,
            "no monster acts after the forfeit: {after:?}"
        );
        assert_one_end_event_last(&record);
        // Seat 0's run was finished, seat 1's was not: one run end.
        let run_ends: Vec<Seat> = record
            .replay
            .events()
            .filter_map(|e| match e {
                Event::RunEnd { seat, .. } => Some(*seat),
                _ => None,
            })
            .collect();
        assert_eq!(run_ends, [0]);
        crate::replay::verify(&record.replay).unwrap();
    }
}

#[test]
fn a_seat_forfeiting_on_its_runs_last_turns_does_not_win_on_its_better_score() {
    use Reply::{Fault, Illegal, Legal};
    // Seat 1 fights for 17 turns and faults on the last three; seat 0 never lands a blow.
    // Its better score does not count: it forfeited at its last answer.
    let rules = Rules {
        turn_limit: 20,
        ..Rules::default()
    };
    let mut schedule = vec![Legal; 17];
    schedule.extend([Fault, Fault, Fault]);
    let mut better = 0;
    for seed in 0..6 {
        let record = play_scheduled(&[Illegal], &schedule, rules.clone(), seed, 3);
        let outcome = &record.outcome;
        assert_eq!(outcome.winner, Some(0), "{}", outcome.reason);
        assert!(outcome.reason.starts_with("forfeit: seat 1"));
        assert_eq!(after_forfeiting_answer(&record, 1, 3).len(), 1);
        assert_one_end_event_last(&record);
        let Some(Event::GameEnd { scores, .. }) = record.replay.events().last() else {
            unreachable!()
        };
        assert_eq!(
            scores[1].turns, 19,
            "the forfeiting answer's turn is not played"
        );
        better += usize::from(winner_of(*scores) == Some(1));
    }
    assert!(better > 0, "some seed gives seat 1 the better score");
}

#[test]
fn no_monster_acts_after_the_forfeiting_fault() {
    use Reply::{Fault, Legal};
    // Warriors are slower than most monsters: after every hero turn of wave 1 some monster
    // would act before the next hero. After the forfeiting fault none does.
    for seed in 0..6 {
        let record = play_scheduled(&[Legal, Fault], &[Legal], Rules::default(), seed, 2);
        let after = after_forfeiting_answer(&record, 0, 2);
        assert_eq!(after.len(), 1, "{after:?}");
        assert_one_end_event_last(&record);
        // Monsters did act between the hero turns before it: the stop is the forfeit's.
        let events: Vec<&Event> = record.replay.events().collect();
        assert!(events.iter().any(|e| matches!(e, Event::HeroTurn { .. })));
        assert_eq!(record.outcome.winner, Some(1));
    }
}

#[test]
fn a_forfeit_at_setup_ends_the_match_before_anyone_enters() {
    /// Quits at setup.
    struct Quitter;
    impl Player<Dungeon> for Quitter {
        fn start(&mut self, _: &arena_sdk::MatchStart<Dungeon>) -> Result<(), crate::Fault> {
            Ok(())
        }
        fn setup(&mut self, _: &SetupRequest) -> Result<SetupChoice, crate::Fault> {
            Err(crate::Fault::new(crate::FaultKind::Quit, "no party"))
        }
        fn act(&mut self, _: &Observation) -> Result<Action, crate::Fault> {
            unreachable!("a forfeited seat is not asked")
        }
        fn end(&mut self, _: &arena_sdk::MatchEnd) {}
    }
    let mut a = Quitter;
    let mut b = Scheduled::new(&[Reply::Legal]);
    let players: [&mut dyn Player<Dungeon>; 2] = [&mut a, &mut b];
    let record = run_match::<Dungeon>(&MatchConfig::new(Rules::default(), 1), players);
    assert_eq!(record.outcome.winner, Some(1));
    assert_eq!(record.outcome.reason, "forfeit: seat 0 quit (no party)");
    let events: Vec<&Event> = record.replay.events().collect();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_one_end_event_last(&record);
    // Seat 1 was not asked for its party.
    let answers = record
        .replay
        .log
        .iter()
        .filter(|e| matches!(e, crate::replay::Entry::Answer { seat: 1, .. }))
        .count();
    assert_eq!(answers, 1, "only its start");
    assert!(record.replay.initial.is_some());
    crate::replay::verify(&record.replay).unwrap();
}

#[test]
fn every_match_ends_in_one_end_event_normal_turn_limit_or_forfeit() {
    use Reply::{Fault, Illegal, Legal};
    let short = Rules {
        turn_limit: 4,
        ..Rules::default()
    };
    for (zero, one, rules) in [
        (&[Legal][..], &[Legal][..], Rules::default()),
        (&[Legal][..], &[Illegal][..], short.clone()),
        (&[Fault][..], &[Legal][..], short),
    ] {
        let record = play_scheduled(zero, one, rules, 5, 3);
        assert_one_end_event_last(&record);
    }
}

// ---- one state: the replay's events fold to the rules' final state ----------------------

/// A built-in that sometimes faults, answers a command that may be illegal, or answers a
/// party of the wrong size; `rng` decides.
struct Unruly {
    bot: Box<dyn Bot<Dungeon> + Send>,
    rng: ChaCha8Rng,
    /// Percent of answers that are faults.
    faults: u32,
    /// Percent of answers that are random commands (often illegal).
    wild: u32,
}

impl Player<Dungeon> for Unruly {
    fn start(&mut self, start: &arena_sdk::MatchStart<Dungeon>) -> Result<(), crate::Fault> {
        self.bot.start(start);
        Ok(())
    }
    fn setup(&mut self, request: &SetupRequest) -> Result<SetupChoice, crate::Fault> {
        use rand::Rng;
        match self.rng.random_range(0..100) {
            roll if roll < self.faults => Err(crate::Fault::new(
                crate::FaultKind::WrongShape,
                "unruly setup",
            )),
            roll if roll < self.faults + self.wild => Ok(SetupChoice { party: vec![] }),
            _ => Ok(self.bot.setup(request)),
        }
    }
    fn act(&mut self, observation: &Observation) -> Result<Action, crate::Fault> {
        use rand::Rng;
        /// The abilities a wild command picks from (warriors', mages', others', none).
        const WILD: [Ability; 6] = [
            Ability::Fight,
            Ability::Fireball,
            Ability::Backstab,
            Ability::Heal,
            Ability::ShieldSlam,
            Ability::Unknown,
        ];
        match self.rng.random_range(0..100) {
            roll if roll < self.faults => Err(crate::Fault::new(
                crate::FaultKind::OutOfFuel,
                "unruly turn",
            )),
            roll if roll < self.faults + self.wild => {
                let ability = WILD[self.rng.random_range(0..WILD.len())];
                let id = self.rng.random_range(0..6u8);
                let target = if self.rng.random_bool(0.5) {
                    Target::Hero(id)
                } else {
                    Target::Monster(id)
                };
                Ok(Action { ability, target })
            }
            _ => Ok(self.bot.act(observation)),
        }
    }
    fn end(&mut self, end: &arena_sdk::MatchEnd) {
        self.bot.end(end);
    }
}

/// A match played as [`run_match`] plays it, with the rules' final state.
fn play_keeping_state(
    config: &MatchConfig<Dungeon>,
    players: [&mut dyn Player<Dungeon>; 2],
) -> (crate::MatchRecord<Dungeon>, play::State) {
    let (record, state) = crate::run_match_with(config, players, None, play_match);
    (record, state.expect("valid rules"))
}

/// The dungeon built-in `name`.
fn builtin(name: &str) -> Box<dyn Bot<Dungeon> + Send> {
    <Dungeon as arena_builtins::Builtins>::create(name).expect("a dungeon built-in")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any seed, any two built-ins (one of them unruly, or neither), any fault tolerance:
    /// the replay's events folded over its initial state are exactly the state the rules
    /// ended on; the outcome's statistics and the picture are that state's; one end event
    /// ends the log.
    #[test]
    fn the_replays_events_fold_to_the_rules_final_state(
        seed in any::<u64>(),
        names in (0usize..3, 0usize..3),
        unruly in 0u8..3,
        faults in 0u32..25,
        wild in 0u32..40,
        max_faults in 1u32..8,
        waves in 1u32..6,
        turn_limit in 5u32..150,
    ) {
        let list = <Dungeon as arena_builtins::Builtins>::builtins();
        let (a, b) = (list[names.0].name, list[names.1].name);
        let rules = Rules { waves, turn_limit, ..Rules::default() };
        let mut config = MatchConfig::new(rules, seed);
        config.max_faults = max_faults;
        let mut players: Vec<Box<dyn Player<Dungeon>>> = [a, b]
            .into_iter()
            .zip(0u8..)
            .map(|(name, seat)| -> Box<dyn Player<Dungeon>> {
                if seat == unruly {
                    Box::new(Unruly {
                        bot: builtin(name),
                        rng: ChaCha8Rng::seed_from_u64(seed ^ 0x5eed),
                        faults,
                        wild,
                    })
                } else {
                    Box::new(NativePlayer::new(builtin(name)))
                }
            })
            .collect();
        let (zero, one) = players.split_at_mut(1);
        let (record, state) = play_keeping_state(&config, [&mut *zero[0], &mut *one[0]]);
        let initial = record.replay.initial.as_ref().expect("an initial state");
        let events: Vec<Event> = record.replay.events().cloned().collect();
        let mut folded = play::State::new(initial);
        for event in &events {
            folded.apply(event);
        }
        prop_assert_eq!(&folded, &state);
        // The mode's statistics, and the table's count of rejections.
        let mut stats = state.stats();
        for (seat, stats) in record.outcome.seats.iter().zip(&mut stats) {
            stats.insert(REJECTIONS_STAT.to_owned(), i64::from(seat.invalid_actions));
        }
        prop_assert_eq!(&record.outcome.seats[0].stats, &stats[0]);
        prop_assert_eq!(&record.outcome.seats[1].stats, &stats[1]);
        prop_assert_eq!(record.outcome.turns, state.hero_turns());
        prop_assert_eq!(
            Dungeon::picture(initial, &events),
            state.current().map(|_| state.picture())
        );
        let ends = events.iter().filter(|e| Dungeon::is_end(e)).count();
        prop_assert_eq!(ends, 1);
        let last_is_end = matches!(
            record.replay.log.last(),
            Some(crate::replay::Entry::Event { event }) if Dungeon::is_end(event)
        );
        prop_assert!(last_is_end);
        // A forfeit leaves nothing after the forfeiting answer (a fault, or an answer and
        // its rejection) but the end event.
        if let Some(loser) = (0..2u8).find(|&s| record.outcome.seats[usize::from(s)].forfeited) {
            use crate::replay::Entry;
            let log = &record.replay.log;
            let last_answer = log
                .iter()
                .rposition(|e| matches!(e, Entry::Answer { .. }))
                .expect("the forfeiting answer");
            let (faulted, rejected) = match &log[last_answer] {
                Entry::Answer { seat, answer, .. } => {
                    prop_assert_eq!(*seat, loser);
                    (
                        matches!(answer, crate::Answer::Fault(_)),
                        matches!(&log[last_answer + 1], Entry::Rejected { seat, .. } if *seat == loser),
                    )
                }
                _ => unreachable!(),
            };
            prop_assert!(faulted != rejected, "a fault or a rejection forfeits");
            prop_assert_eq!(log.len(), last_answer + 2 + usize::from(rejected));
        }
        prop_assert!(crate::replay::verify(&record.replay).is_ok());
    }
}

#[test]
fn a_seat_is_shown_its_own_run_and_the_end_only() {
    let turn = |seat| Event::HeroTurn {
        seat,
        hero: 0,
        name: "Warrior1".to_owned(),
    };
    assert_eq!(
        Dungeon::describe_for(&turn(1), 1),
        Some(Dungeon::describe(&turn(1)))
    );
    assert_eq!(Dungeon::describe_for(&turn(0), 1), None);
}
