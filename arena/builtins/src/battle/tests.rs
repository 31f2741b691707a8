//! The built-ins of `battle` against each other and against the sample starter.

use super::strong::{self, kill_chance};
use super::*;
use crate::Builtins;
use arena_sdk::Bot;
use arena_sdk::battle::{Battle, BotType, SetupRequest, Unit};

use BotType::*;
use arena_engine::{MatchConfig, NativePlayer, Player, run_match};
use arena_sdk::battle::Rules;

/// Result of `a` against `b` over `games` games, seats alternating, seeds `seed..`.
#[derive(Debug, Default)]
struct Tally {
    won: u32,
    lost: u32,
    drawn: u32,
    invalid: u32,
}

fn versus<A: Bot<Battle>, B: Bot<Battle>>(
    mut make_a: impl FnMut() -> A,
    mut make_b: impl FnMut() -> B,
    games: u64,
    seed: u64,
) -> Tally {
    let mut tally = Tally::default();
    for game in 0..games {
        let mut a = NativePlayer::new(make_a());
        let mut b = NativePlayer::new(make_b());
        let a_seat = (game % 2) as u8;
        let players: [&mut dyn Player<Battle>; 2] = if a_seat == 0 {
            [&mut a, &mut b]
        } else {
            [&mut b, &mut a]
        };
        let config = MatchConfig::new(Rules::default(), seed + game);
        let outcome = run_match::<Battle>(&config, players).outcome;
        tally.invalid += outcome.seats[usize::from(a_seat)].invalid_actions;
        match outcome.winner {
            Some(w) if w == a_seat => tally.won += 1,
            Some(_) => tally.lost += 1,
            None => tally.drawn += 1,
        }
    }
    tally
}

fn unit(kind: BotType) -> Unit {
    Unit::new(0, 0, kind)
}

fn request(roster: &[BotType]) -> SetupRequest {
    SetupRequest {
        roster: roster.to_vec(),
        stats: roster.iter().map(|k| k.stats()).collect(),
        team_size: 3,
    }
}

#[test]
fn builtins_are_listed_and_created() {
    let names: Vec<&str> = Battle::builtins().iter().map(|b| b.name).collect();
    assert_eq!(names, vec!["random", "heuristic", "strong"]);
    for name in names {
        assert!(Battle::create(name).is_some(), "{name}");
    }
    assert!(Battle::create("nope").is_none());
}

#[test]
fn expected_damage_counts_armor_crits_and_evasion() {
    // Glass (180) on Tank (armor 40, evasion 5%): 0.75·180 − 40 = 95, crit
    // 0.75·360 − 40 = 230; 10% crits; 95% of attacks hit.
    let hit = expected_hit(&unit(Glass), &unit(Tank));
    assert!(
        (hit - (0.9 * 95.0 + 0.1 * 230.0) * 0.95).abs() < 1e-9,
        "{hit}"
    );
    // Partly absorbed: Doctor (30) on Kamikaze (armor 0) is 22.5 + crits.
    assert!((mean_after_armor(30.0, 0.0) - 22.5).abs() < 1e-9);
    // Armor between half and full power: only the rolls above armor count.
    assert!((mean_after_armor(100.0, 75.0) - 6.25).abs() < 1e-9);
    assert_eq!(mean_after_armor(50.0, 60.0), 0.0);
    // Kill chances: Glass always destroys a 50-integrity Kamikaze; a 150 one 40%.
    let mut kamikaze = unit(Kamikaze);
    kamikaze.integrity = 50;
    assert!((kill_chance(&unit(Glass), &kamikaze) - 1.0).abs() < 1e-9);
    kamikaze.integrity = 150;
    let chance = kill_chance(&unit(Glass), &kamikaze);
    assert!((chance - (0.9 / 3.0 + 0.1)).abs() < 1e-9, "{chance}");
}

#[test]
fn the_strong_plays_nurse_repair_is_the_rules_default() {
    // Its own copy of the engine's constant (the built-ins compile into wasm bots without
    // the engine): they must not drift apart.
    assert_eq!(
        strong::NURSE_REPAIR_PCT,
        arena_engine::battle::NURSE_REPAIR_PCT
    );
}

#[test]
fn effects_are_read_once_into_bonus_and_landing_chance() {
    use arena_sdk::battle::{ActiveEffect, Effect};
    let effect = |effect| ActiveEffect {
        effect,
        turns_left: 1,
        magnitude: 0,
    };
    // Glass: no effect, ×1 and 70% of attacks on it land (evasion 30%).
    let mut glass = unit(Glass);
    assert_eq!(
        Facts::of(&glass),
        Facts {
            bonus: 1.0,
            landed: 1.0 - 30.0 / 100.0
        }
    );
    // Offense Up ×1.5 and Stealth ×1.3: 1.95; stunned, it cannot evade.
    glass.effects = vec![
        effect(Effect::Bomb),
        effect(Effect::Stealth),
        effect(Effect::Stun),
        effect(Effect::OffenseUp),
    ];
    assert_eq!(
        Facts::of(&glass),
        Facts {
            bonus: 1.5 * 1.3,
            landed: 1.0
        }
    );
    // The stunned glass hitting a Tank: (0.9·95 + 0.1·230)·1.95·0.95; hit, every attack
    // lands on it.
    let hit = expected_hit(&glass, &unit(Tank));
    let by_hand = (0.9 * 95.0 + 0.1 * 230.0) * 1.95 * 0.95;
    assert!((hit - by_hand).abs() < 1e-9, "{hit}");
    assert_eq!(
        expected_hit(&unit(Doctor), &glass),
        expected_hit(&unit(Doctor), &unit(Kamikaze))
    );
}

#[test]
fn teams() {
    let all = request(&BotType::ALL);
    assert_eq!(Strong::default().setup(&all).team, vec![Nurse, Tank, Glass]);
    assert_eq!(
        Heuristic::default().setup(&all).team,
        vec![Aggro, Tank, Nurse]
    );
    assert_eq!(
        starter::Starter.setup(&all).team,
        vec![Aggro, Stealth, Nurse]
    );
    let small = request(&[Kamikaze, Doctor, Stealth, Beaverette]);
    assert_eq!(
        Strong::default().setup(&small).team,
        vec![Stealth, Beaverette, Doctor]
    );
    assert_eq!(
        starter::Starter.setup(&small).team,
        vec![Stealth, Kamikaze, Doctor]
    );
    let mut random = Random::default();
    let team = random.setup(&all).team;
    assert_eq!(team.len(), 3);
    assert!(team.iter().enumerate().all(|(i, k)| !team[..i].contains(k)));
}

#[test]
fn strong_beats_random_in_nine_of_ten_games() {
    let t = versus(Strong::default, Random::default, 200, 1000);
    println!("{t:?}");
    assert!(t.won >= 180, "{t:?}");
    assert_eq!(t.invalid, 0);
}

#[test]
fn strong_beats_heuristic_clearly() {
    let t = versus(Strong::default, Heuristic::default, 200, 2000);
    println!("{t:?}");
    assert!(t.won >= 160, "{t:?}");
    assert_eq!(t.invalid, 0);
}

#[test]
fn heuristic_beats_random() {
    let t = versus(Heuristic::default, Random::default, 200, 3000);
    println!("{t:?}");
    assert!(t.won >= 170, "{t:?}");
    assert_eq!(t.invalid, 0);
}

#[test]
fn starter_beats_random_in_nine_of_ten_games() {
    let t = versus(|| starter::Starter, Random::default, 200, 4000);
    println!("{t:?}");
    assert!(t.won >= 180, "{t:?}");
    assert_eq!(t.invalid, 0);
}

#[test]
#[ignore = "experiment (about 10 s in release): strong's play with each of the 56 teams against the heuristic's play with the best teams"]
fn team_survey() {
    let opponents = [
        vec![Aggro, Tank, Nurse],
        vec![Aggro, Stealth, Nurse],
        vec![Stealth, Tank, Nurse],
        vec![Stealth, Nurse, Doctor],
        vec![Stealth, Beaverette, Nurse],
        vec![Tank, Nurse, Doctor],
        vec![Tank, Beaverette, Nurse],
        vec![Stealth, Glass, Nurse],
        vec![Glass, Tank, Nurse],
    ];
    let mut scores = Vec::new();
    for a in 0..8 {
        for b in a + 1..8 {
            for c in b + 1..8 {
                let team = vec![BotType::ALL[a], BotType::ALL[b], BotType::ALL[c]];
                let row: Vec<u32> = opponents
                    .iter()
                    .map(|other| {
                        let t = versus(
                            || Strong::with_team(team.clone()),
                            || Heuristic::with_team(other.clone()),
                            20,
                            3,
                        );
                        2 * t.won + t.drawn
                    })
                    .collect();
                scores.push((row.iter().sum::<u32>(), row, team));
            }
        }
    }
    scores.sort_by_key(|s| std::cmp::Reverse(s.0));
    for (total, row, team) in scores {
        println!("{total:>4} {row:?} {team:?}");
    }
}
