//! Rules of `battle` with the document's numbers, effects, replays and property tests.

use super::play::{Fight, State};
use super::*;
use crate::replay::{Entry, Replay};
use crate::{MatchConfig, NativePlayer, Player, run_match};
use arena_sdk::Bot;
use arena_sdk::battle::BotType::*;
use arena_sdk::battle::Stats;
use arena_sdk::battle::{
    Action, ActiveEffect, BotType, Effect, Observation, Rules, Skill, TeamChoice, Unit, UnitId,
};
use proptest::prelude::*;
use rand::seq::IndexedRandom;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn fight(team0: [BotType; 3], team1: [BotType; 3], seed: u64) -> Fight {
    Fight::new(
        &[team0.to_vec(), team1.to_vec()],
        ChaCha8Rng::seed_from_u64(seed),
    )
}

/// Destroy unit `id` as a fatal hit would.
fn wreck(f: &mut Fight, id: UnitId) {
    f.state.units[usize::from(id)].integrity = 0;
    let seat = f.state.units[usize::from(id)].owner;
    f.emit(Event::Destroyed { unit: id, seat });
}

fn count(unit: &Unit, effect: Effect) -> usize {
    unit.effects.iter().filter(|e| e.effect == effect).count()
}

#[test]
fn stat_table_matches_the_document() {
    // (integrity, power, speed, armor, evasion, critical, resistance, effectivity)
    let table = [
        (Aggro, (800, 100, 40, 20, 0, 10, 10, 30)),
        (Stealth, (500, 70, 90, 20, 20, 20, 0, 40)),
        (Glass, (300, 180, 20, 0, 30, 10, 5, 65)),
        (Tank, (1200, 50, 30, 40, 5, 10, 20, 25)),
        (Beaverette, (1000, 70, 35, 30, 5, 15, 10, 0)),
        (Kamikaze, (500, 50, 40, 0, 0, 20, 0, 65)),
        (Nurse, (700, 80, 50, 15, 15, 10, 20, 30)),
        (Doctor, (950, 30, 35, 25, 10, 10, 25, 0)),
    ];
    for (kind, (integrity, power, speed, armor, evasion, critical, resistance, effectivity)) in
        table
    {
        assert_eq!(
            kind.stats(),
            Stats {
                integrity,
                power,
                speed,
                armor,
                evasion,
                critical,
                resistance,
                effectivity
            },
            "{}",
            kind.name()
        );
    }
}

#[test]
fn effect_and_skill_tables_match_the_document() {
    use Effect::{Bomb, ContinuousDamage, DefenseDown, OffenseDown, SpeedDown, Stun};
    let negative = [
        (Aggro, vec![DefenseDown, Stun], 1, false),
        (Stealth, vec![SpeedDown, OffenseDown], 2, false),
        (Glass, vec![ContinuousDamage], 2, true),
        (Tank, vec![Bomb], 3, false),
        (Beaverette, vec![], 0, false),
        (Kamikaze, vec![Bomb], 2, true),
        (Nurse, vec![SpeedDown], 1, false),
        (Doctor, vec![], 0, false),
    ];
    for (kind, effects, turns, all) in negative {
        assert_eq!(kind.inflicts(), effects.as_slice(), "{}", kind.name());
        assert_eq!(kind.inflict_turns(), turns, "{}", kind.name());
        assert_eq!(kind.inflicts_all(), all, "{}", kind.name());
    }
    let positive = [
        (Aggro, Some((Skill::OffenseUp, 4, 2))),
        (Stealth, Some((Skill::Stealth, 4, 3))),
        (Glass, None),
        (Tank, Some((Skill::Taunt, 3, 2))),
        (Beaverette, Some((Skill::TeamBoost, 3, 2))),
        (Kamikaze, Some((Skill::Retribution, 4, 1))),
        (Nurse, Some((Skill::Repair, 4, 2))),
        (Doctor, Some((Skill::Redistribute, 5, 0))),
    ];
    for (kind, skill) in positive {
        let got = kind.skill().map(|s| (s, s.cooldown(), s.turns()));
        assert_eq!(got, skill, "{}", kind.name());
    }
}

#[test]
fn damage_formula_bounds() {
    // Glass Bot (power 180) against Tank Bot (armor 40).
    assert_eq!(damage(500, 180, false, 40, 100), 50);
    assert_eq!(damage(1000, 180, false, 40, 100), 140);
    // Critical hits double before armor.
    assert_eq!(damage(500, 180, true, 40, 100), 140);
    assert_eq!(damage(1000, 180, true, 40, 100), 320);
    // Damage never goes below 0: Doctor (power 30) against Tank.
    assert_eq!(damage(500, 30, false, 40, 100), 0);
    assert_eq!(damage(1000, 30, false, 40, 100), 0);
    // Fractions are dropped: 0.733 × 100 = 73.3 → 73.
    assert_eq!(damage(733, 100, false, 20, 100), 53);
    // Offense Up +50%, Stealth +30%, both ×1.95, applied after armor.
    assert_eq!(damage(1000, 100, false, 20, 150), 120);
    assert_eq!(damage(1000, 100, false, 20, 130), 104);
    assert_eq!(damage(1000, 100, false, 20, 195), 156);
}

#[test]
fn attacks_follow_the_formula() {
    let mut f = fight([Glass, Aggro, Nurse], [Tank, Doctor, Beaverette], 1);
    let mut crits = 0;
    for _ in 0..400 {
        f.state.units[3].integrity = 1200;
        f.state.units[3].effects.clear();
        f.events.clear();
        f.attack(0, 3, false);
        let Event::Attack { hit, evasion, .. } = &f.events[0] else {
            panic!("an attack comes first: {:?}", f.events);
        };
        assert_eq!(*evasion, 5);
        let Some(hit) = hit else { continue };
        assert_eq!((hit.power, hit.armor, hit.bonus_pct), (180, 40, 100));
        assert_eq!(hit.damage, damage(hit.roll, 180, hit.crit, 40, 100));
        assert_eq!(hit.crit, hit.crit_roll < 10);
        if hit.crit {
            crits += 1;
            assert!((140..=320).contains(&hit.damage), "{hit:?}");
        } else {
            assert!((50..=140).contains(&hit.damage), "{hit:?}");
        }
        assert_eq!(hit.integrity, 1200 - hit.damage);
        assert_eq!(f.state.units[3].integrity, 1200 - hit.damage);
    }
    assert!(crits > 10, "about 10% of hits are critical: {crits}");
}

#[test]
fn integrity_floors_at_zero_and_destroyed_units_leave_at_once() {
    let mut f = fight([Aggro, Glass, Nurse], [Kamikaze, Tank, Doctor], 2);
    f.state.units[3].integrity = 10;
    f.attack(0, 3, false); // Kamikaze never evades: a hit of at least 30.
    assert_eq!(f.state.units[3].integrity, 0);
    assert!(f.state.units[3].destroyed);
    assert!(f.events.contains(&Event::Destroyed { unit: 3, seat: 1 }));
    assert_eq!(legal_targets(&f.state.units, 0), vec![4, 5]);
    assert_eq!(f.state.stats[0]["kills"], 1);
    assert_eq!(f.state.stats[1]["units_lost"], 1);
    assert_eq!(
        f.state.stats[0]["damage_dealt"], 10,
        "only the integrity it had counts"
    );
    // A destroyed unit's meter no longer fills and it never becomes ready.
    for _ in 0..30 {
        assert!(!f.next_ready().contains(&3));
    }
}

#[test]
fn turn_meter_order_follows_the_pseudo_code() {
    // Speeds: #0 Stealth 90, #1 Nurse 50, #2 Aggro 40, #3 Tank 30, #4 Beaverette 35,
    // #5 Glass 20. Ready at ticks: Stealth 12, 23, 34, 45, 56; Nurse 20, 40;
    // Aggro 25, 50; Beaverette 29; Tank 34; Glass 50.
    let mut f = fight([Stealth, Nurse, Aggro], [Tank, Beaverette, Glass], 3);
    let expected: [&[UnitId]; 9] = [&[0], &[1], &[0], &[2], &[4], &[0, 3], &[1], &[0], &[2, 5]];
    for (step, want) in expected.iter().enumerate() {
        let mut got = f.next_ready();
        for &id in &got {
            f.begin_turn(id);
        }
        got.sort_unstable();
        assert_eq!(got, *want, "step {step}");
    }
    // Stealth's first turn came at tick 12 with 1080; after −1000 it kept 80.
    // The tick is recorded: Stealth due with 1080 and speed 90 (12 ticks × 90).
    let mut f = fight([Stealth, Nurse, Aggro], [Tank, Beaverette, Glass], 3);
    assert_eq!(f.next_ready(), vec![0]);
    assert_eq!(
        f.events,
        vec![Event::Due {
            units: vec![Due(0, 1080, 90)]
        }]
    );
    f.begin_turn(0);
    assert!(matches!(f.events[1], Event::TurnStart { meter: 1080, .. }));
    assert_eq!(f.state.units[0].turn_meter, 80);
}

#[test]
fn units_due_in_the_same_tick_are_recorded_in_turn_order() {
    // Stealth (90) and Tank (30) are both due at tick 34: 1060 and 1020 before their
    // turns (Stealth has had 2 turns); the record lists them in the order they act.
    let mut f = fight([Stealth, Nurse, Aggro], [Tank, Beaverette, Glass], 3);
    for _ in 0..5 {
        for id in f.next_ready() {
            f.begin_turn(id);
        }
    }
    f.events.clear();
    let order = f.next_ready();
    let mut due = vec![Due(0, 3060 - 2000, 90), Due(3, 1020, 30)];
    due.sort_by_key(|d| order.iter().position(|&id| id == d.0));
    assert_eq!(f.events, vec![Event::Due { units: due }]);
}

#[test]
fn units_ready_in_the_same_tick_act_in_random_order() {
    let mut orders = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let mut f = fight([Stealth, Nurse, Aggro], [Tank, Beaverette, Glass], seed);
        for _ in 0..5 {
            for id in f.next_ready() {
                f.begin_turn(id);
            }
        }
        orders.insert(f.next_ready());
    }
    assert_eq!(
        orders,
        [vec![0, 3], vec![3, 0]].into_iter().collect(),
        "both orders occur"
    );
}

#[test]
fn effective_stats() {
    let mut tank = Unit::new(0, 0, Tank);
    let put = |u: &mut Unit, effect| {
        u.effects.push(ActiveEffect {
            effect,
            turns_left: 1,
            magnitude: 0,
        })
    };
    put(&mut tank, Effect::DefenseUp);
    assert_eq!((armor(&tank), resistance(&tank)), (60, 30));
    tank.effects.clear();
    put(&mut tank, Effect::DefenseDown);
    assert_eq!((armor(&tank), resistance(&tank)), (20, 10));
    let mut aggro = Unit::new(1, 0, Aggro);
    put(&mut aggro, Effect::OffenseDown);
    assert_eq!(power(&aggro), 75);
    put(&mut aggro, Effect::SpeedUp);
    assert_eq!(speed(&aggro), 50);
    put(&mut aggro, Effect::SpeedDown);
    assert_eq!(speed(&aggro), 37, "40 × 1.25 × 0.75 = 37.5, rounded down");
    put(&mut aggro, Effect::OffenseUp);
    assert_eq!(bonus_pct(&aggro), 150);
    put(&mut aggro, Effect::Stealth);
    assert_eq!(bonus_pct(&aggro), 195);
    let mut glass = Unit::new(2, 0, Glass);
    assert_eq!(evasion(&glass), 30);
    put(&mut glass, Effect::Stun);
    assert_eq!(evasion(&glass), 0, "a stunned bot cannot evade");
}

#[test]
fn defense_down_and_offense_down_do_not_stack() {
    let mut f = fight([Aggro, Stealth, Nurse], [Kamikaze, Stealth, Tank], 4);
    for effect in [Effect::DefenseDown, Effect::OffenseDown] {
        // Kamikaze (#3) and Stealth (#4) have 0% resistance: the first try lands.
        f.try_negative(0, 3, effect);
        assert_eq!(count(&f.state.units[3], effect), 1);
        f.events.clear();
        f.try_negative(0, 3, effect);
        assert_eq!(count(&f.state.units[3], effect), 1);
        assert_eq!(
            f.events,
            vec![Event::EffectFailed {
                source: 0,
                target: 3,
                effect,
                reason: Failure::AlreadyPresent
            }]
        );
    }
}

#[test]
fn continuous_damage_and_bombs_stack() {
    let mut f = fight([Glass, Tank, Nurse], [Kamikaze, Stealth, Aggro], 5);
    f.try_negative(0, 3, Effect::ContinuousDamage);
    f.try_negative(0, 3, Effect::ContinuousDamage);
    f.try_negative(1, 3, Effect::Bomb);
    f.try_negative(1, 3, Effect::Bomb);
    assert_eq!(count(&f.state.units[3], Effect::ContinuousDamage), 2);
    assert_eq!(count(&f.state.units[3], Effect::Bomb), 2);
    // Glass Bot's damage over time is its power, for 2 turns; Tank's bomb lasts 3.
    let dot = f.state.units[3].effects[0];
    assert_eq!((dot.magnitude, dot.turns_left), (180, 2));
    let bomb = f.state.units[3].effects[2];
    assert_eq!((bomb.magnitude, bomb.turns_left), (50, 3));
    // Two stacks hurt twice at the start of the bearer's turn.
    assert!(f.begin_turn(3));
    assert_eq!(f.state.units[3].integrity, 500 - 2 * 180);
}

#[test]
fn offense_up_raises_the_damage_of_effects_too() {
    // "Offense Up — increases all caused damage of a bot by 50%."
    let mut f = fight([Glass, Tank, Nurse], [Kamikaze, Stealth, Aggro], 5);
    f.put(0, 0, Effect::OffenseUp, 2, 0, None);
    f.put(1, 1, Effect::OffenseUp, 2, 0, None);
    f.try_negative(0, 3, Effect::ContinuousDamage);
    f.try_negative(1, 3, Effect::Bomb);
    let magnitudes: Vec<i32> = f.state.units[3]
        .effects
        .iter()
        .map(|e| e.magnitude)
        .collect();
    assert_eq!(magnitudes, vec![180 * 3 / 2, 50 * 3 / 2]);
}

#[test]
fn speed_down_and_stun_are_renewed_not_stacked() {
    let mut f = fight([Stealth, Aggro, Nurse], [Kamikaze, Stealth, Tank], 6);
    f.try_negative(0, 3, Effect::SpeedDown);
    f.begin_turn(3);
    assert_eq!(f.state.units[3].effects[0].turns_left, 1);
    f.events.clear();
    f.try_negative(0, 3, Effect::SpeedDown);
    assert_eq!(count(&f.state.units[3], Effect::SpeedDown), 1);
    assert_eq!(f.state.units[3].effects[0].turns_left, 2);
    assert!(matches!(
        f.events[0],
        Event::EffectApplied {
            refreshed: true,
            ..
        }
    ));
    f.try_negative(1, 3, Effect::Stun);
    f.try_negative(1, 3, Effect::Stun);
    assert_eq!(count(&f.state.units[3], Effect::Stun), 1);
}

#[test]
fn durations_tick_at_the_start_of_the_bearers_turns() {
    let mut f = fight([Glass, Aggro, Nurse], [Tank, Doctor, Beaverette], 7);
    f.put(0, 3, Effect::ContinuousDamage, 2, 180, None);
    assert!(f.begin_turn(3));
    assert_eq!(f.state.units[3].integrity, 1020, "armor does not reduce it");
    assert_eq!(f.state.units[3].effects[0].turns_left, 1);
    f.end_turn(3);
    assert_eq!(count(&f.state.units[3], Effect::ContinuousDamage), 1);
    assert!(f.begin_turn(3));
    assert_eq!(f.state.units[3].integrity, 840);
    assert_eq!(f.state.units[3].effects[0].turns_left, 0);
    f.events.clear();
    f.end_turn(3);
    assert!(f.state.units[3].effects.is_empty());
    assert_eq!(
        f.events,
        vec![Event::Expired {
            unit: 3,
            effect: Effect::ContinuousDamage
        }]
    );
    // Only the bearer's own turns count.
    f.put(0, 3, Effect::DefenseDown, 1, 0, None);
    f.begin_turn(4);
    f.end_turn(4);
    assert_eq!(armor(&f.state.units[3]), 20);
    f.begin_turn(3);
    assert_eq!(
        armor(&f.state.units[3]),
        20,
        "still on during its last turn"
    );
    f.end_turn(3);
    assert_eq!(armor(&f.state.units[3]), 40);
}

#[test]
fn continuous_damage_is_credited_to_the_other_seat() {
    let mut f = fight([Glass, Aggro, Nurse], [Kamikaze, Doctor, Beaverette], 7);
    f.put(0, 3, Effect::ContinuousDamage, 2, 180, None);
    f.put(0, 3, Effect::ContinuousDamage, 2, 180, None);
    f.state.units[3].integrity = 300;
    assert!(!f.begin_turn(3));
    assert!(f.state.units[3].destroyed);
    assert_eq!(f.state.stats[0]["kills"], 1);
    assert_eq!(f.state.stats[0]["damage_dealt"], 300);
    assert_eq!(f.state.stats[1]["damage_taken"], 300);
}

#[test]
fn bombs_explode_when_they_expire() {
    for seed in 0..20 {
        let mut f = fight([Tank, Aggro, Nurse], [Aggro, Doctor, Beaverette], seed);
        f.put(0, 3, Effect::Bomb, 2, 50, None);
        f.begin_turn(3);
        f.end_turn(3);
        assert_eq!(f.state.units[3].integrity, 800);
        f.events.clear();
        f.begin_turn(3);
        let Some(Event::BombExploded {
            roll,
            power,
            armor,
            damage: dealt,
            integrity,
            ..
        }) = f.events.get(1).cloned()
        else {
            panic!("the bomb explodes: {:?}", f.events);
        };
        assert_eq!((power, armor), (50, 20));
        assert_eq!(dealt, damage(roll, 50, false, 20, 100));
        assert!((5..=30).contains(&dealt), "0.5×50−20 .. 50−20: {dealt}");
        assert_eq!(integrity, 800 - dealt);
        f.end_turn(3);
        assert!(f.state.units[3].effects.is_empty());
    }
}

#[test]
fn stunned_units_skip_their_move() {
    let mut f = fight([Aggro, Glass, Nurse], [Stealth, Doctor, Beaverette], 8);
    f.put(0, 3, Effect::Stun, 1, 0, None);
    assert!(!f.begin_turn(3));
    assert_eq!(f.events.last(), Some(&Event::Stunned { unit: 3 }));
    f.end_turn(3);
    assert!(f.begin_turn(3), "the stun lasted one turn");
}

#[test]
fn effects_are_rolled_only_on_hits_and_need_both_rolls() {
    let mut f = fight([Glass, Aggro, Nurse], [Stealth, Nurse, Aggro], 9);
    let (mut evaded, mut applied, mut resisted, mut ineffective) = (0, 0, 0, 0);
    for _ in 0..300 {
        for u in &mut f.state.units {
            u.integrity = u.base.integrity;
            u.effects.clear();
        }
        f.events.clear();
        f.attack(0, 3, false);
        match &f.events[0] {
            Event::Attack { hit: None, .. } => {
                evaded += 1;
                assert_eq!(f.events.len(), 1, "no effect after an evaded attack");
                continue;
            }
            Event::Attack { hit: Some(_), .. } => {}
            other => panic!("{other:?}"),
        }
        for event in &f.events[1..] {
            match event {
                Event::EffectFailed {
                    reason: Failure::Effectivity { roll, chance },
                    ..
                } => {
                    assert!(*roll >= 65 && *chance == 65);
                    ineffective += 1;
                }
                Event::EffectFailed {
                    reason: Failure::Resistance { roll, chance },
                    target,
                    ..
                } => {
                    assert_eq!(*chance, f.state.units[usize::from(*target)].base.resistance);
                    assert!(i64::from(*roll) < i64::from(*chance));
                    resisted += 1;
                }
                Event::Effectivity { check, .. } => {
                    assert!(check.roll < 65 && check.chance == 65);
                }
                Event::EffectApplied {
                    effect: Effect::ContinuousDamage,
                    magnitude: 180,
                    turns: 2,
                    target,
                    resistance: Some(Roll { roll, chance }),
                    ..
                } => {
                    // The failed resistance roll is recorded with the landed effect.
                    assert_eq!(*chance, f.state.units[usize::from(*target)].base.resistance);
                    assert!(i64::from(*roll) >= i64::from(*chance));
                    applied += 1;
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        // Area effect: when effectivity passes every living enemy gets its own roll.
        let per_enemy = f.events[1..]
            .iter()
            .filter(|e| {
                !matches!(
                    e,
                    Event::EffectFailed {
                        reason: Failure::Effectivity { .. },
                        ..
                    } | Event::Effectivity { .. }
                )
            })
            .count();
        assert!(per_enemy == 0 || per_enemy == 3, "{:?}", f.events);
    }
    assert!(evaded > 30 && applied > 100 && resisted > 5 && ineffective > 30);
}

/// The fight casts what the replay's tables say (`casts`, one list for both): the caster's
/// own effects, then each living teammate's, in the table's order.
#[test]
fn a_skill_casts_what_the_tables_say() {
    let others = [Glass, Tank, Beaverette, Stealth];
    for kind in BotType::ALL {
        let Some(skill) = kind.skill() else { continue };
        let mates: Vec<BotType> = others
            .iter()
            .copied()
            .filter(|&o| o != kind)
            .take(2)
            .collect();
        let mut f = fight([kind, mates[0], mates[1]], [Aggro, Doctor, Glass], 3);
        f.state.units[2].integrity = 0;
        f.state.units[2].destroyed = true;
        f.use_skill(0);
        let applied: Vec<(UnitId, Effect)> = f
            .events
            .iter()
            .filter_map(|e| match *e {
                Event::EffectApplied { target, effect, .. } => Some((target, effect)),
                _ => None,
            })
            .collect();
        let on = |whom| {
            casts(skill)
                .iter()
                .filter(move |c| c.1 == whom)
                .map(|c| c.0)
        };
        let mut expected: Vec<(UnitId, Effect)> = on(Whom::Caster).map(|e| (0, e)).collect();
        // Unit 2 is destroyed: the team is units 0 and 1.
        for mate in [0, 1] {
            expected.extend(on(Whom::Team).map(|e| (mate, e)));
        }
        if skill == Skill::Repair {
            // Continuous Repair lands on a 50% draw per teammate: a subsequence.
            let mut rest = expected.iter();
            assert!(
                applied.iter().all(|a| rest.any(|e| e == a)),
                "{skill:?}: {applied:?} within {expected:?}"
            );
        } else {
            assert_eq!(applied, expected, "{skill:?}");
        }
    }
    assert_eq!(
        tables(&Rules::default()).skills[2].casts,
        [
            (Effect::Taunt, Whom::Caster),
            (Effect::DefenseUp, Whom::Team)
        ]
    );
    assert_eq!(
        serde_json::to_value(casts(Skill::TeamBoost)).unwrap(),
        serde_json::json!([["defense_up", "team"], ["speed_up", "team"]])
    );
}

#[test]
fn nurse_repairs_thirty_percent_of_its_maximum() {
    let mut f = fight([Nurse, Tank, Glass], [Aggro, Doctor, Beaverette], 10);
    f.state.units[0].integrity = 600;
    f.state.units[1].integrity = 500;
    f.state.units[2].integrity = 200;
    f.use_skill(0);
    let changes: Vec<(UnitId, i32, i32)> = f
        .events
        .iter()
        .filter_map(|e| match *e {
            Event::Repair {
                target,
                change,
                integrity,
                ..
            } => Some((target, change, integrity)),
            _ => None,
        })
        .collect();
    // 30% of 700 = 210, capped at each unit's maximum.
    assert_eq!(changes, vec![(0, 100, 700), (1, 210, 710), (2, 100, 300)]);
    assert_eq!(f.state.stats[0]["healing"], 410);
    for e in f.state.units[..3].iter().flat_map(|u| &u.effects) {
        assert_eq!(
            (e.effect, e.turns_left, e.magnitude),
            (Effect::ContinuousRepair, 2, 70)
        );
    }
    assert_eq!(f.state.units[0].cooldown, 4);
    // Continuous Repair gives 10% of 700 on each of the bearer's two next turns.
    let mut some = 0;
    for seed in 0..20 {
        let mut f = fight([Nurse, Tank, Glass], [Aggro, Doctor, Beaverette], seed);
        f.state.units[1].integrity = 100;
        f.use_skill(0);
        if f.state.units[1].has(Effect::ContinuousRepair) {
            some += 1;
            f.begin_turn(1);
            assert_eq!(f.state.units[1].integrity, 100 + 210 + 70);
        }
    }
    assert!((3..=17).contains(&some), "a 50% chance each: {some}/20");
}

#[test]
fn doctor_redistributes_then_repairs() {
    let mut f = fight([Doctor, Glass, Tank], [Aggro, Nurse, Beaverette], 11);
    f.state.units[0].integrity = 500;
    f.state.units[1].integrity = 100;
    f.state.units[2].integrity = 900;
    f.use_skill(0);
    assert!(f.events.contains(&Event::Redistribute {
        source: 0,
        total: 1500,
        units: 3,
        share: 500
    }));
    // 1500 / 3 = 500, + 10% of 950 = 95; the glass bot is capped at 300.
    let now: Vec<i32> = f.state.units[..3].iter().map(|u| u.integrity).collect();
    assert_eq!(now, vec![595, 300, 595]);
    assert_eq!(f.state.stats[0]["healing"], 95 + 200);

    // Destroyed units are not part of the team any more; the share is rounded down.
    let mut f = fight([Doctor, Glass, Tank], [Aggro, Nurse, Beaverette], 11);
    f.state.units[0].integrity = 500;
    f.state.units[2].integrity = 901;
    wreck(&mut f, 1);
    f.use_skill(0);
    assert_eq!(f.state.units[0].integrity, 700 + 95);
    assert_eq!(f.state.units[2].integrity, 700 + 95);
    assert_eq!(f.state.units[1].integrity, 0);
}

#[test]
fn taunt_and_stealth_decide_the_legal_targets() {
    let mut f = fight([Aggro, Glass, Nurse], [Tank, Stealth, Glass], 12);
    assert_eq!(legal_targets(&f.state.units, 0), vec![3, 4, 5]);
    f.put(4, 4, Effect::Stealth, 3, 0, None);
    assert_eq!(legal_targets(&f.state.units, 0), vec![3, 5]);
    f.use_skill(3); // Tank: Taunt on itself, Defense Up on the team.
    assert_eq!(legal_targets(&f.state.units, 0), vec![3]);
    assert!(f.state.units[3..].iter().all(|u| u.has(Effect::DefenseUp)));
    assert_eq!(
        check_action(&f.state.units, 0, Action::Attack { target: 5 }).unwrap_err(),
        "cannot attack unit 5: an enemy taunts, or it is in stealth (legal targets: [3])"
    );
    // Only stealthed enemies left: they can be attacked.
    wreck(&mut f, 3);
    wreck(&mut f, 5);
    assert_eq!(legal_targets(&f.state.units, 0), vec![4]);
    // Taunt wins over stealth.
    let mut f = fight([Aggro, Glass, Nurse], [Tank, Stealth, Glass], 12);
    f.put(4, 4, Effect::Stealth, 3, 0, None);
    f.put(4, 4, Effect::Taunt, 2, 0, None);
    assert_eq!(legal_targets(&f.state.units, 0), vec![4]);
}

#[test]
fn positive_effects_are_renewed_not_stacked() {
    let mut f = fight([Beaverette, Glass, Nurse], [Tank, Stealth, Glass], 13);
    f.use_skill(0);
    f.begin_turn(1);
    assert_eq!(f.state.units[1].effects[0].turns_left, 1);
    f.state.units[0].cooldown = 0;
    f.use_skill(0);
    assert_eq!(count(&f.state.units[1], Effect::DefenseUp), 1);
    assert_eq!(count(&f.state.units[1], Effect::SpeedUp), 1);
    assert!(f.state.units[1].effects.iter().all(|e| e.turns_left == 2));
    assert_eq!(speed(&f.state.units[1]), 25);
}

#[test]
fn retribution_counter_attacks_once() {
    let (mut countered, mut stunned) = (0, 0);
    for seed in 0..60 {
        let mut f = fight([Aggro, Glass, Nurse], [Kamikaze, Stealth, Tank], seed);
        f.put(3, 3, Effect::Retribution, 1, 0, None);
        f.attack(0, 3, false);
        let counters: Vec<&Event> = f
            .events
            .iter()
            .filter(|e| matches!(e, Event::Attack { counter: true, .. }))
            .collect();
        if f.state.units[3].has(Effect::Stun) {
            stunned += 1;
            assert!(counters.is_empty(), "a stunned bot does not counter");
        } else {
            countered += 1;
            assert_eq!(counters.len(), 1);
            assert!(matches!(
                counters[0],
                Event::Attack {
                    attacker: 3,
                    target: 0,
                    ..
                }
            ));
        }
    }
    assert!(countered > 0 && stunned > 0);
}

#[test]
fn skills_wait_for_their_cooldown() {
    let mut f = fight([Nurse, Tank, Glass], [Aggro, Doctor, Beaverette], 14);
    assert!(skill_ready(&f.state.units[0]));
    f.use_skill(0);
    let mut ready = Vec::new();
    for _ in 0..4 {
        f.begin_turn(0);
        ready.push(skill_ready(&f.state.units[0]));
        assert_eq!(
            check_action(&f.state.units, 0, Action::Skill).is_ok(),
            *ready.last().unwrap()
        );
        f.end_turn(0);
    }
    assert_eq!(ready, vec![false, false, false, true]);
    assert!(
        check_action(&f.state.units, 2, Action::Skill)
            .unwrap_err()
            .contains("no secondary skill")
    );
}

#[test]
fn default_action_attacks_the_first_legal_target_whatever_their_state() {
    let mut f = fight([Aggro, Glass, Nurse], [Tank, Stealth, Glass], 15);
    assert_eq!(
        default_action(&f.state.units, 0),
        Action::Attack { target: 3 }
    );
    // A weaker target does not draw the default: it plays no strategy.
    f.state.units[4].integrity = 1;
    f.state.units[5].integrity = 1;
    assert_eq!(
        default_action(&f.state.units, 0),
        Action::Attack { target: 3 }
    );
    // The first legal one: a destroyed unit is not.
    f.state.units[3].destroyed = true;
    assert_eq!(
        default_action(&f.state.units, 0),
        Action::Attack { target: 4 }
    );
}

#[test]
fn rules_are_validated() {
    assert!(Battle::validate(&Rules::default()).is_ok());
    let short = Rules {
        roster: vec![Aggro, Tank],
        ..Rules::default()
    };
    assert!(Battle::validate(&short).unwrap_err().contains("3 distinct"));
    let twice = Rules {
        roster: vec![Aggro, Tank, Aggro, Nurse],
        ..Rules::default()
    };
    assert!(Battle::validate(&twice).unwrap_err().contains("twice"));
    let no_cap = Rules {
        turn_cap: 0,
        ..Rules::default()
    };
    assert!(Battle::validate(&no_cap).is_err());
}

/// A test bot: a seeded random team and random actions, some of them illegal.
#[derive(Default)]
struct Chaos {
    rng: Option<ChaCha8Rng>,
    illegal_pct: u32,
    rejections_seen: u32,
}

impl Chaos {
    fn new(illegal_pct: u32) -> Self {
        Chaos {
            illegal_pct,
            ..Chaos::default()
        }
    }
    fn rng(&mut self) -> &mut ChaCha8Rng {
        self.rng.get_or_insert_with(|| ChaCha8Rng::seed_from_u64(0))
    }
}

impl Bot<Battle> for Chaos {
    fn start(&mut self, start: &arena_sdk::MatchStart<Battle>) {
        self.rng = Some(ChaCha8Rng::seed_from_u64(start.seed));
    }
    fn setup(&mut self, request: &SetupRequest) -> TeamChoice {
        let illegal = self.illegal_pct;
        let rng = self.rng();
        let mut team = request.roster.clone();
        team.shuffle(rng);
        team.truncate(3);
        if rng.random_range(0..100) < illegal {
            team[1] = team[0];
        }
        TeamChoice { team }
    }
    fn act(&mut self, observation: &Observation) -> Action {
        if observation.last_rejected.is_some() {
            self.rejections_seen += 1;
        }
        let illegal = self.illegal_pct;
        let rng = self.rng();
        if rng.random_range(0..100) < illegal {
            return if rng.random_bool(0.5) {
                Action::Skill
            } else {
                Action::Attack {
                    target: rng.random_range(0..8),
                }
            };
        }
        if observation.skill_ready && rng.random_bool(0.4) {
            return Action::Skill;
        }
        let target = *observation
            .legal_targets
            .choose(rng)
            .expect("a legal target while the match runs");
        Action::Attack { target }
    }
}

fn play(seed: u64, rules: &Rules, illegal_pct: u32) -> crate::MatchRecord<Battle> {
    let mut a = NativePlayer::new(Chaos::new(illegal_pct));
    let mut b = NativePlayer::new(Chaos::new(illegal_pct));
    let players: [&mut dyn Player<Battle>; 2] = [&mut a, &mut b];
    run_match::<Battle>(&MatchConfig::new(rules.clone(), seed), players)
}

fn events(replay: &Replay<Battle>) -> Vec<Event> {
    replay.events().cloned().collect()
}

#[test]
fn invalid_teams_are_rejected_and_replaced_by_the_default() {
    struct Twice {
        observations: u32,
    }
    impl Bot<Battle> for Twice {
        fn setup(&mut self, _: &SetupRequest) -> TeamChoice {
            TeamChoice {
                team: vec![Glass, Glass, Tank],
            }
        }
        fn act(&mut self, o: &Observation) -> Action {
            self.observations += 1;
            if self.observations == 1 {
                let told = o.last_rejected.as_deref().unwrap_or_default();
                assert!(told.contains("in the team twice"), "{told}");
            } else {
                assert_eq!(o.last_rejected, None);
            }
            Action::Attack {
                target: o.legal_targets[0],
            }
        }
    }
    let mut a = NativePlayer::new(Twice { observations: 0 });
    let mut b = NativePlayer::new(Chaos::new(0));
    let players: [&mut dyn Player<Battle>; 2] = [&mut a, &mut b];
    let record = run_match::<Battle>(&MatchConfig::new(Rules::default(), 3), players);
    let rejected: Vec<&String> = record
        .replay
        .log
        .iter()
        .filter_map(|e| match e {
            Entry::Rejected {
                seat: 0, reason, ..
            } => Some(reason),
            _ => None,
        })
        .collect();
    assert_eq!(
        rejected,
        vec!["team rejected: Glass Bot is in the team twice; playing the default team"]
    );
    let initial = record.replay.initial.expect("recorded");
    let kinds: Vec<BotType> = initial.units[..3].iter().map(|u| u.kind).collect();
    assert_eq!(kinds, vec![Aggro, Stealth, Glass]);
    assert_eq!(record.outcome.seats[0].invalid_actions, 1);
    for (team, ok) in [
        (vec![Aggro, Tank], false),
        (vec![Aggro, Tank, Nurse, Glass], false),
        (vec![Aggro, Tank, Nurse], true),
    ] {
        assert_eq!(
            check_team(&Rules::default(), 0, &TeamChoice { team }).is_ok(),
            ok
        );
    }
    let small = Rules {
        roster: vec![Tank, Nurse, Doctor],
        ..Rules::default()
    };
    assert!(
        check_team(
            &small,
            0,
            &TeamChoice {
                team: vec![Tank, Nurse, Glass]
            }
        )
        .unwrap_err()
        .contains("not in the roster")
    );
}

#[test]
fn illegal_actions_fall_back_to_the_default_and_are_reported() {
    struct OwnGoal {
        told: u32,
    }
    impl Bot<Battle> for OwnGoal {
        fn setup(&mut self, _: &SetupRequest) -> TeamChoice {
            TeamChoice {
                team: vec![Aggro, Tank, Nurse],
            }
        }
        fn act(&mut self, o: &Observation) -> Action {
            if let Some(reason) = &o.last_rejected {
                assert!(reason.contains("your own team"), "{reason}");
                self.told += 1;
            }
            Action::Attack { target: o.acting }
        }
    }
    let mut a = NativePlayer::new(OwnGoal { told: 0 });
    let mut b = NativePlayer::new(Chaos::new(0));
    let players: [&mut dyn Player<Battle>; 2] = [&mut a, &mut b];
    let mut config = MatchConfig::new(Rules::default(), 4);
    config.max_rejections = u32::MAX;
    let record = run_match::<Battle>(&config, players);
    let defaults = record
        .replay
        .events()
        .filter(|e| matches!(e, Event::DefaultAction { .. }))
        .count();
    assert!(defaults > 0);
    assert_eq!(record.outcome.seats[0].invalid_actions as usize, defaults);
    assert_eq!(record.outcome.seats[1].invalid_actions, 0);
    // Every default attacked the first legal target: the replay verifies, and
    // each default is followed by an attack on the target it names.
    let evs = events(&record.replay);
    for (idx, e) in evs.iter().enumerate() {
        if let Event::DefaultAction {
            unit,
            action: Action::Attack { target },
            ..
        } = e
        {
            assert!(matches!(
                evs[idx + 1],
                Event::Attack { attacker, target: t, .. } if attacker == *unit && t == *target
            ));
        }
    }
    crate::replay::verify(&record.replay).expect("verifies");
}

/// A player whose every turn answer is a fault.
struct Broken;

impl Player<Battle> for Broken {
    fn start(&mut self, _: &arena_sdk::MatchStart<Battle>) -> Result<(), crate::Fault> {
        Ok(())
    }
    fn setup(&mut self, _: &SetupRequest) -> Result<TeamChoice, crate::Fault> {
        Err(crate::Fault::new(crate::FaultKind::Trap, "setup trapped"))
    }
    fn act(&mut self, _: &Observation) -> Result<Action, crate::Fault> {
        Err(crate::Fault::new(crate::FaultKind::OutOfFuel, "no fuel"))
    }
    fn end(&mut self, _: &arena_sdk::MatchEnd) {}
}

#[test]
fn faults_play_the_default_and_repeated_faults_forfeit() {
    let mut config = MatchConfig::new(Rules::default(), 8);
    config.max_faults = 10_000;
    let mut a = NativePlayer::new(Chaos::new(0));
    let mut b = Broken;
    let players: [&mut dyn Player<Battle>; 2] = [&mut a, &mut b];
    let record = run_match::<Battle>(&config, players);
    let initial = record.replay.initial.clone().expect("recorded");
    let kinds: Vec<BotType> = initial.units[3..].iter().map(|u| u.kind).collect();
    assert_eq!(kinds, vec![Aggro, Stealth, Glass], "the default team");
    let evs = events(&record.replay);
    let defaults = evs
        .iter()
        .filter(|e| matches!(e, Event::DefaultAction { reason, .. } if reason == "no answer"))
        .count();
    // Every fault after the setup's is a turn that played the default.
    let faults = record
        .replay
        .log
        .iter()
        .filter(|e| {
            matches!(
                e,
                Entry::Answer {
                    seat: 1,
                    answer: crate::player::Answer::Fault(_),
                    ..
                }
            )
        })
        .count();
    assert!(defaults > 0);
    assert_eq!(defaults, faults - 1);
    assert_eq!(
        record.outcome.seats[1].invalid_actions, 0,
        "faults are not rejections"
    );
    crate::replay::verify(&record.replay).expect("verifies");

    // With the default tolerance the broken seat forfeits after 3 faults.
    let mut a = NativePlayer::new(Chaos::new(0));
    let mut b = Broken;
    let players: [&mut dyn Player<Battle>; 2] = [&mut a, &mut b];
    let record = run_match::<Battle>(&MatchConfig::new(Rules::default(), 8), players);
    assert_eq!(record.outcome.winner, Some(0));
    assert!(
        record.outcome.reason.starts_with("forfeit"),
        "{}",
        record.outcome.reason
    );
    assert!(record.outcome.seats[1].forfeited);
    assert_eq!(record.outcome.seats[0].stats.len(), STAT_KEYS.len());
}

#[test]
fn the_turn_cap_ends_the_match_with_the_integrity_tiebreak() {
    let rules = Rules {
        turn_cap: 12,
        ..Rules::default()
    };
    let record = play(5, &rules, 0);
    assert_eq!(record.outcome.turns, 12);
    assert!(record.outcome.reason.starts_with("turn cap"));
    let evs = events(&record.replay);
    let [
        ..,
        Event::TurnCap { integrity, max },
        Event::GameEnd { winner, reason },
    ] = &evs[..]
    else {
        panic!("ends with the cap, then the end: {:?}", evs.last());
    };
    assert_eq!(
        (*winner, reason),
        (record.outcome.winner, &record.outcome.reason)
    );
    let (a, b) = (
        i64::from(integrity[0]) * i64::from(max[1]),
        i64::from(integrity[1]) * i64::from(max[0]),
    );
    let expected = match a.cmp(&b) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    assert_eq!(record.outcome.winner, expected);
}

#[test]
fn replays_verify_and_describe_every_event() {
    let record = play(21, &Rules::default(), 10);
    crate::replay::verify(&record.replay).expect("verifies");
    let evs = events(&record.replay);
    assert!(evs.iter().all(|e| !Battle::describe(e).trim().is_empty()));
    let initial = record.replay.initial.clone().expect("recorded");
    let picture = Battle::picture(&initial, &evs).expect("a picture");
    for unit in &initial.units {
        assert!(picture.contains(unit.kind.name()), "{picture}");
    }
    assert!(picture.contains("destroyed"), "{picture}");
    // The stats agree with the events.
    for seat in 0..2u8 {
        let stats = &record.outcome.seats[usize::from(seat)].stats;
        assert_eq!(stats.keys().map(String::as_str).collect::<Vec<_>>(), {
            let mut keys = STAT_KEYS.to_vec();
            keys.sort_unstable();
            keys
        });
        let lost = evs
            .iter()
            .filter(|e| matches!(e, Event::Destroyed { seat: s, .. } if *s == seat))
            .count() as i64;
        assert_eq!(stats["units_lost"], lost);
        assert_eq!(
            record.outcome.seats[usize::from(1 - seat)].stats["kills"],
            lost
        );
        let turns = evs
            .iter()
            .filter(|e| matches!(e, Event::TurnStart { seat: s, .. } if *s == seat))
            .count() as i64;
        assert_eq!(stats["turns"], turns);
    }
}

#[test]
fn pictures_render_the_state() {
    let mut f = fight([Nurse, Tank, Glass], [Aggro, Doctor, Beaverette], 16);
    let initial = Initial {
        units: f.state.units.clone(),
    };
    f.state.units[1].integrity = 600;
    f.begin_turn(0);
    f.use_skill(0);
    let picture = Battle::picture(&initial, &f.events).expect("a picture");
    let tank_line = picture
        .lines()
        .find(|l| l.contains("Tank Bot"))
        .expect("tank line");
    assert!(
        tank_line.contains(&format!("{}/1200", f.state.units[1].integrity)),
        "{picture}"
    );
    let nurse_line = picture.lines().find(|l| l.contains("Nurse Bot")).unwrap();
    assert!(
        nurse_line.starts_with('>') && nurse_line.contains("cooldown 4"),
        "{picture}"
    );
}

/// Rebuilds every unit from the events (as `picture` does) and checks the invariants
/// after each event.
fn check_invariants(record: &crate::MatchRecord<Battle>, cap: u32) -> Result<(), TestCaseError> {
    let initial = record.replay.initial.clone().expect("recorded");
    let mut view = State::new(&initial);
    let mut destroyed = std::collections::BTreeSet::new();
    for event in record.replay.events() {
        if let Event::TurnStart { unit, .. } = event {
            prop_assert!(!destroyed.contains(unit), "a destroyed unit took a turn");
        }
        if let Event::Destroyed { unit, .. } = event {
            destroyed.insert(*unit);
        }
        view.apply(event);
        let boundary = matches!(event, Event::TurnStart { .. });
        for u in &view.units {
            prop_assert!(u.integrity >= 0, "negative integrity: {event:?}");
            prop_assert!(u.integrity <= u.base.integrity, "above max: {event:?}");
            prop_assert!(!u.destroyed || u.integrity == 0, "{:?}", event);
            prop_assert!(
                !boundary || u.destroyed == (u.integrity == 0),
                "{:?}",
                event
            );
        }
    }
    for u in &view.units {
        prop_assert_eq!(u.destroyed, u.integrity == 0);
    }
    prop_assert!(record.outcome.turns <= cap);
    if record.outcome.reason == "team destroyed" {
        let winner = record.outcome.winner.expect("a winner");
        prop_assert!(view.units.iter().any(|u| u.owner == winner && !u.destroyed));
        prop_assert!(view.units.iter().all(|u| u.owner == winner || u.destroyed));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn integrity_stays_in_bounds_and_matches_end(seed in any::<u64>(), cap in 1u32..700, illegal in 0u32..30) {
        let rules = Rules { turn_cap: cap, ..Rules::default() };
        let record = play(seed, &rules, illegal);
        check_invariants(&record, cap)?;
    }

    #[test]
    fn same_seed_same_replay(seed in any::<u64>()) {
        let one = serde_json::to_string(&play(seed, &Rules::default(), 5).replay).unwrap();
        let two = serde_json::to_string(&play(seed, &Rules::default(), 5).replay).unwrap();
        prop_assert_eq!(one, two);
    }
}

#[test]
fn the_nurses_repair_draw_is_recorded_and_decides_continuous_repair() {
    let (mut landed, mut missed) = (0, 0);
    for seed in 0..30 {
        let mut f = fight([Nurse, Tank, Glass], [Aggro, Doctor, Beaverette], seed);
        f.use_skill(0);
        // Each teammate's Repair carries its draw; Continuous Repair follows exactly when
        // the draw is below 2^63.
        for (idx, event) in f.events.iter().enumerate() {
            let Event::Repair { target, chance, .. } = event else {
                continue;
            };
            let draw = chance.expect("a nurse's repair records its draw");
            let follows = matches!(
                f.events.get(idx + 1),
                Some(Event::EffectApplied { target: t, effect: Effect::ContinuousRepair, .. })
                    if t == target
            );
            assert_eq!(follows, draw < 1 << 63, "{:?}", f.events);
            if follows {
                landed += 1;
            } else {
                missed += 1;
            }
        }
    }
    assert!(landed > 20 && missed > 20, "{landed} {missed}");
}

#[test]
fn the_doctors_repair_has_no_draw() {
    let mut f = fight([Doctor, Tank, Glass], [Aggro, Nurse, Beaverette], 1);
    f.use_skill(0);
    assert!(f.events.iter().all(|e| !matches!(
        e,
        Event::Repair {
            chance: Some(_),
            ..
        }
    )));
}

#[test]
fn the_pick_between_two_effects_is_recorded() {
    use Effect::{DefenseDown, Stun};
    let mut picks = std::collections::BTreeSet::new();
    for seed in 0..60 {
        let mut f = fight([Aggro, Tank, Glass], [Doctor, Nurse, Beaverette], seed);
        f.attack(0, 3, false);
        let picked = f.events.iter().find_map(|e| match e {
            Event::EffectPicked {
                source,
                options,
                roll,
                effect,
            } => Some((*source, options.clone(), *roll, *effect)),
            _ => None,
        });
        let hit = matches!(f.events[0], Event::Attack { hit: Some(_), .. });
        assert_eq!(
            picked.is_some(),
            hit,
            "a pick after every hit: {:?}",
            f.events
        );
        let Some((source, options, roll, effect)) = picked else {
            continue;
        };
        assert_eq!(
            (source, options.as_slice()),
            (0, [DefenseDown, Stun].as_slice())
        );
        assert_eq!(effect, options[roll as usize]);
        // What follows is about the picked effect.
        let next = f
            .events
            .iter()
            .skip_while(|e| !matches!(e, Event::EffectPicked { .. }));
        for e in next.skip(1) {
            match e {
                Event::Effectivity { effect: e2, .. }
                | Event::EffectFailed { effect: e2, .. }
                | Event::EffectApplied { effect: e2, .. } => assert_eq!(*e2, effect),
                other => panic!("unexpected {other:?}"),
            }
        }
        picks.insert(roll);
    }
    assert_eq!(picks.len(), 2, "both effects are picked at times");
    // A type with one effect draws no pick.
    let mut f = fight([Glass, Tank, Aggro], [Doctor, Nurse, Beaverette], 1);
    for _ in 0..20 {
        f.attack(0, 3, false);
    }
    assert!(
        f.events
            .iter()
            .all(|e| !matches!(e, Event::EffectPicked { .. }))
    );
}

#[test]
fn the_replay_holds_the_tables_and_each_requests_legal_choices() {
    let mut config = MatchConfig::new(Rules::default(), 11);
    config.max_faults = 10_000;
    let mut a = NativePlayer::new(Chaos::new(30));
    let mut b = NativePlayer::new(Chaos::new(0));
    let players: [&mut dyn Player<Battle>; 2] = [&mut a, &mut b];
    let record = run_match::<Battle>(&config, players);
    let replay = &record.replay;
    // The header's tables: the document's numbers, readable without the engine.
    let tables: Tables = serde_json::from_value(replay.tables.clone()).expect("tables");
    let row = |kind| tables.types.iter().find(|t| t.kind == kind).unwrap();
    assert_eq!(row(Tank).stats.integrity, 1200);
    assert_eq!(
        (
            row(Tank).inflicts.as_slice(),
            row(Tank).inflict_turns,
            row(Tank).area
        ),
        ([Effect::Bomb].as_slice(), 3, false)
    );
    assert!(row(Kamikaze).area && row(Glass).area && !row(Aggro).area);
    let skill = |s| tables.skills.iter().find(|t| t.skill == s).unwrap();
    assert_eq!(
        (
            skill(Skill::Redistribute).cooldown,
            skill(Skill::Stealth).turns
        ),
        (5, 3)
    );
    assert_eq!(
        skill(Skill::Taunt).casts,
        vec![
            (Effect::Taunt, Whom::Caster),
            (Effect::DefenseUp, Whom::Team)
        ]
    );
    let effect = |e| tables.effects.iter().find(|t| t.effect == e).unwrap();
    assert!(effect(Effect::Bomb).stacks && effect(Effect::Bomb).negative);
    assert!(!effect(Effect::Taunt).stacks && !effect(Effect::Taunt).negative);
    assert_eq!(
        (tables.nurse_repair_pct, tables.continuous_repair_chance_pct),
        (30, 50)
    );
    // Every turn request carries its offer; an answer outside it is rejected, one inside
    // it is played.
    let (mut rejected, mut played) = (0, 0);
    for (idx, entry) in replay.log.iter().enumerate() {
        let Entry::Answer {
            answer: crate::Answer::Action(action),
            offered,
            ..
        } = entry
        else {
            continue;
        };
        let offer = offered.as_ref().expect("turn requests record their offer");
        let legal = match action {
            Action::Attack { target } => offer.targets.contains(target),
            Action::Skill => offer.skill,
        };
        let was_rejected = matches!(replay.log.get(idx + 1), Some(Entry::Rejected { .. }));
        assert_eq!(legal, !was_rejected, "{entry:?}");
        if was_rejected {
            rejected += 1;
        } else {
            played += 1;
        }
    }
    assert!(rejected > 5 && played > 20, "{rejected} {played}");
    crate::replay::verify(replay).expect("verifies");
}

#[test]
fn verify_refuses_a_replay_from_a_different_rules_table() {
    let mut a = NativePlayer::new(Chaos::new(0));
    let mut b = NativePlayer::new(Chaos::new(0));
    let players: [&mut dyn Player<Battle>; 2] = [&mut a, &mut b];
    let mut replay = run_match::<Battle>(&MatchConfig::new(Rules::default(), 2), players).replay;
    replay.tables["skills"][5]["cooldown"] = serde_json::json!(3);
    let error = crate::replay::verify(&replay).unwrap_err();
    assert!(
        error.contains("tables.skills[5].cooldown: the file has 3, this engine 4")
            && error.contains("different rules table"),
        "{error}"
    );
    replay.tables = serde_json::Value::Null;
    let error = crate::replay::verify(&replay).unwrap_err();
    assert!(error.contains("tables: the file has null"), "{error}");
}

#[test]
fn verify_refuses_an_older_format_and_says_what_to_do() {
    let mut a = NativePlayer::new(Chaos::new(0));
    let mut b = NativePlayer::new(Chaos::new(0));
    let players: [&mut dyn Player<Battle>; 2] = [&mut a, &mut b];
    let mut replay = run_match::<Battle>(&MatchConfig::new(Rules::default(), 2), players).replay;
    replay.version = 1;
    let error = crate::replay::verify(&replay).unwrap_err();
    assert!(
        error.contains("format version 1 is older than this arena's (2)")
            && error.contains("play the match again"),
        "{error}"
    );
}

#[test]
fn each_seat_may_have_its_own_roster() {
    let rules = Rules {
        roster: vec![Aggro, Tank, Nurse, Glass],
        roster1: Some(vec![Kamikaze, Doctor, Stealth, Beaverette]),
        ..Rules::default()
    };
    assert_eq!(rules.roster_of(0), [Aggro, Tank, Nurse, Glass].as_slice());
    assert_eq!(
        setup_request(&rules, 1).roster,
        vec![Kamikaze, Doctor, Stealth, Beaverette]
    );
    assert_eq!(setup_request(&rules, 1).stats[0], Kamikaze.stats());
    let team = |kinds: Vec<BotType>| TeamChoice { team: kinds };
    assert!(check_team(&rules, 0, &team(vec![Aggro, Tank, Nurse])).is_ok());
    assert!(
        check_team(&rules, 1, &team(vec![Aggro, Tank, Nurse]))
            .unwrap_err()
            .contains("Aggro Bot is not in the roster")
    );
    assert_eq!(default_team(&rules, 1), vec![Kamikaze, Doctor, Stealth]);
    // Played: every unit comes from its seat's roster, the Chaos bots pick from what they
    // were offered.
    for seed in 0..10 {
        let record = play(seed, &rules, 0);
        let units = record.replay.initial.unwrap().units;
        for unit in units {
            assert!(rules.roster_of(unit.owner).contains(&unit.kind), "{unit:?}");
        }
    }
    let twice = Rules {
        roster0: Some(vec![Aggro, Aggro, Tank, Nurse]),
        ..Rules::default()
    };
    assert_eq!(
        Battle::validate(&twice).unwrap_err(),
        "roster0: Aggro Bot is listed twice"
    );
    let short = Rules {
        roster1: Some(vec![Aggro, Tank]),
        ..Rules::default()
    };
    assert!(
        Battle::validate(&short)
            .unwrap_err()
            .starts_with("roster1: a team needs 3")
    );
    // Without a seat's own roster the rules file is unchanged (older files still compare).
    let json = serde_json::to_value(Rules::default()).unwrap();
    assert!(json.get("roster0").is_none() && json.get("roster1").is_none());
}

/// A built-in that misbehaves on a seeded schedule: in percent of its answers it faults
/// (`fault_pct`) or answers something illegal (`illegal_pct`); its setup faults too.
struct Unruly {
    bot: Box<dyn Bot<Battle> + Send>,
    rng: ChaCha8Rng,
    fault_pct: u32,
    illegal_pct: u32,
}

impl Unruly {
    fn new(name: &str, seed: u64, fault_pct: u32, illegal_pct: u32) -> Self {
        Unruly {
            bot: <Battle as arena_builtins::Builtins>::create(name).expect("a built-in"),
            rng: ChaCha8Rng::seed_from_u64(seed),
            fault_pct,
            illegal_pct,
        }
    }

    fn fault(&mut self) -> Option<crate::Fault> {
        (self.rng.random_range(0..100) < self.fault_pct)
            .then(|| crate::Fault::new(crate::FaultKind::OutOfFuel, "scheduled fault"))
    }
}

impl Player<Battle> for Unruly {
    fn start(&mut self, start: &arena_sdk::MatchStart<Battle>) -> Result<(), crate::Fault> {
        self.bot.start(start);
        Ok(())
    }
    fn setup(&mut self, request: &SetupRequest) -> Result<TeamChoice, crate::Fault> {
        match self.fault() {
            Some(fault) => Err(fault),
            None => Ok(self.bot.setup(request)),
        }
    }
    fn act(&mut self, observation: &Observation) -> Result<Action, crate::Fault> {
        let action = self.bot.act(observation);
        if let Some(fault) = self.fault() {
            return Err(fault);
        }
        if self.rng.random_range(0..100) < self.illegal_pct {
            return Ok(Action::Attack {
                target: observation.acting,
            });
        }
        Ok(action)
    }
    fn end(&mut self, _: &arena_sdk::MatchEnd) {}
}

/// `run_match` by hand, to get the play loop's final state next to the record.
fn play_with_state(
    config: &MatchConfig<Battle>,
    players: [&mut dyn Player<Battle>; 2],
) -> (crate::MatchRecord<Battle>, Option<State>) {
    let (record, state) = crate::run_match_with(config, players, None, super::play::run);
    (record, state.flatten())
}

/// The match's log ends with its one end event, which agrees with the outcome.
fn check_end(record: &crate::MatchRecord<Battle>) -> Result<(), TestCaseError> {
    let ends = record
        .replay
        .events()
        .filter(|e| <Battle as crate::Ruleset>::is_end(e))
        .count();
    prop_assert_eq!(ends, 1);
    let Some(Entry::Event {
        event: Event::GameEnd { winner, reason },
    }) = record.replay.log.last()
    else {
        return Err(TestCaseError::fail(format!(
            "the log ends with {:?}",
            record.replay.log.last()
        )));
    };
    prop_assert_eq!(*winner, record.outcome.winner);
    prop_assert_eq!(reason, &record.outcome.reason);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn folding_the_replay_gives_the_play_loops_final_state(
        seed in any::<u64>(),
        pair in (0usize..3, 0usize..3),
        misbehaves in 0u8..2,
        fault_pct in 0u32..15,
        illegal_pct in 0u32..30,
        max_faults in 1u32..6,
        turn_cap in 1u32..700,
    ) {
        let names: Vec<&str> = <Battle as arena_builtins::Builtins>::builtins()
            .iter()
            .map(|b| b.name)
            .collect();
        prop_assume!(names.contains(&"random"));
        let pick = |i: usize| names[i % names.len()];
        let rules = Rules { turn_cap, ..Rules::default() };
        let mut config = MatchConfig::<Battle>::new(rules, seed);
        config.max_faults = max_faults;
        let unruly = |seat: u8, name: &str| {
            let (fault, illegal) = if seat == misbehaves { (fault_pct, illegal_pct) } else { (0, 0) };
            Unruly::new(name, seed ^ u64::from(seat), fault, illegal)
        };
        let mut a = unruly(0, pick(pair.0));
        let mut b = unruly(1, if pair.1 == 0 { "random" } else { pick(pair.1) });
        let (record, state) = play_with_state(&config, [&mut a, &mut b]);
        check_end(&record)?;
        crate::replay::verify(&record.replay).map_err(TestCaseError::fail)?;
        match (&record.replay.initial, state) {
            (Some(initial), Some(state)) => {
                let mut folded = State::new(initial);
                for event in record.replay.events() {
                    folded.apply(event);
                }
                prop_assert_eq!(&folded, &state);
                prop_assert_eq!(&folded.stats(), &[
                    record.outcome.seats[0].stats.clone(),
                    record.outcome.seats[1].stats.clone(),
                ]);
                let events: Vec<Event> = record.replay.events().cloned().collect();
                prop_assert_eq!(Battle::picture(initial, &events), Some(state.picture()));
            }
            (None, None) => {
                // A forfeit before the teams were set: the end is the only event.
                prop_assert!(record.outcome.reason.starts_with("forfeit"));
                prop_assert_eq!(record.replay.events().count(), 1);
            }
            (initial, state) => {
                return Err(TestCaseError::fail(format!(
                    "initial recorded: {}, final state: {}",
                    initial.is_some(),
                    state.is_some()
                )));
            }
        }
    }
}

/// Faults on every answer from its `from`-th action on; its setup is fine.
struct FaultsFrom {
    from: u32,
    answered: u32,
}

impl Player<Battle> for FaultsFrom {
    fn start(&mut self, _: &arena_sdk::MatchStart<Battle>) -> Result<(), crate::Fault> {
        Ok(())
    }
    fn setup(&mut self, r: &SetupRequest) -> Result<TeamChoice, crate::Fault> {
        Ok(TeamChoice {
            team: r.roster[..3].to_vec(),
        })
    }
    fn act(&mut self, o: &Observation) -> Result<Action, crate::Fault> {
        self.answered += 1;
        if self.answered >= self.from {
            return Err(crate::Fault::new(crate::FaultKind::Trap, "trap"));
        }
        Ok(Action::Attack {
            target: o.legal_targets[0],
        })
    }
    fn end(&mut self, _: &arena_sdk::MatchEnd) {}
}

#[test]
fn a_seat_reaching_max_faults_stops_the_match_at_that_answer() {
    for seat in 0..2u8 {
        for max_faults in [1, 3] {
            let mut config = MatchConfig::<Battle>::new(Rules::default(), 21);
            config.max_faults = max_faults;
            let mut faulty = FaultsFrom {
                from: 4,
                answered: 0,
            };
            let mut fine = NativePlayer::new(Chaos::new(0));
            let players: [&mut dyn Player<Battle>; 2] = if seat == 0 {
                [&mut faulty, &mut fine]
            } else {
                [&mut fine, &mut faulty]
            };
            let record = run_match::<Battle>(&config, players);
            let outcome = &record.outcome;
            assert_eq!(outcome.winner, Some(1 - seat), "{}", outcome.reason);
            assert_eq!(
                outcome.reason,
                format!("forfeit: seat {seat} faulted {max_faults} times")
            );
            assert_eq!(outcome.seats[usize::from(seat)].faults, max_faults);
            let log = &record.replay.log;
            // The forfeiting answer, then the end event, and nothing in between: the
            // turn is not played with the default.
            let [
                ..,
                Entry::Answer {
                    seat: who, answer, ..
                },
                Entry::Event { event },
            ] = &log[..]
            else {
                panic!("{:?}", &log[log.len() - 2..]);
            };
            assert_eq!(*who, seat);
            assert!(
                matches!(answer, crate::player::Answer::Fault(_)),
                "{answer:?}"
            );
            assert_eq!(
                *event,
                Event::GameEnd {
                    winner: Some(1 - seat),
                    reason: outcome.reason.clone(),
                }
            );
            // The defaults played were for the faults before the last one only.
            let defaults = record
                .replay
                .events()
                .filter(|e| matches!(e, Event::DefaultAction { .. }))
                .count();
            assert_eq!(defaults as u32, max_faults - 1);
            crate::replay::verify(&record.replay).expect("verifies");
        }
    }
}

#[test]
fn a_seat_that_forfeits_at_setup_ends_the_match_before_any_team_is_set() {
    struct NoSetup;
    impl Player<Battle> for NoSetup {
        fn start(&mut self, _: &arena_sdk::MatchStart<Battle>) -> Result<(), crate::Fault> {
            Ok(())
        }
        fn setup(&mut self, _: &SetupRequest) -> Result<TeamChoice, crate::Fault> {
            Err(crate::Fault::new(crate::FaultKind::Quit, "no"))
        }
        fn act(&mut self, _: &Observation) -> Result<Action, crate::Fault> {
            Err(crate::Fault::new(crate::FaultKind::Quit, "no"))
        }
        fn end(&mut self, _: &arena_sdk::MatchEnd) {}
    }
    let mut quitter = NoSetup;
    let mut fine = NativePlayer::new(Chaos::new(0));
    let players: [&mut dyn Player<Battle>; 2] = [&mut quitter, &mut fine];
    let record = run_match::<Battle>(&MatchConfig::new(Rules::default(), 3), players);
    assert_eq!(record.outcome.winner, Some(1));
    assert_eq!(record.outcome.reason, "forfeit: seat 0 quit (no)");
    assert!(record.replay.initial.is_none());
    let events: Vec<&Event> = record.replay.events().collect();
    assert_eq!(
        events,
        [&Event::GameEnd {
            winner: Some(1),
            reason: record.outcome.reason.clone()
        }]
    );
    // Seat 1 is not asked for its team once seat 0 has forfeited.
    assert!(
        !record.replay.log.iter().any(|e| matches!(
            e,
            Entry::Answer {
                seat: 1,
                answer: crate::player::Answer::Setup(_),
                ..
            }
        )),
        "{:?}",
        record.replay.log
    );
}
