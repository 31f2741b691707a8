//! Rules of `tcg` with the document's numbers, custom decks, replays and property tests.

use super::play::*;
use super::rules::*;
use super::*;
use crate::replay::{Entry, verify};
use crate::{MatchConfig, MatchRecord, NativePlayer, Player, run_match};
use arena_sdk::Seat;
use arena_sdk::tcg::Card;
use arena_sdk::tcg::{Action, DeckChoice, Observation, PlayAs, Rules, SetupRequest, Target};
use arena_sdk::{Bot, MatchStart};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

type Script = Box<dyn FnMut(&Observation) -> Action>;

/// A test bot: a fixed deck choice and a closure for actions; it keeps every
/// observation it was sent.
struct FnBot {
    deck: DeckChoice,
    act: Script,
    seen: Rc<RefCell<Vec<Observation>>>,
}

impl Bot<Tcg> for FnBot {
    fn setup(&mut self, _request: &SetupRequest) -> DeckChoice {
        self.deck.clone()
    }
    fn act(&mut self, observation: &Observation) -> Action {
        self.seen.borrow_mut().push(observation.clone());
        (self.act)(observation)
    }
}

fn fn_bot(act: impl FnMut(&Observation) -> Action + 'static) -> FnBot {
    FnBot {
        deck: DeckChoice::default(),
        act: Box::new(act),
        seen: Rc::default(),
    }
}

fn passive() -> FnBot {
    fn_bot(|_| Action::EndTurn)
}

/// Plays the first legal card at the enemy hero, as a spell, until none is left.
fn burner() -> FnBot {
    fn_bot(|o| {
        o.legal
            .iter()
            .find(|a| {
                matches!(
                    a,
                    Action::PlayCard {
                        play_as: PlayAs::Spell,
                        target: Target::Hero,
                        ..
                    }
                )
            })
            .copied()
            .unwrap_or(Action::EndTurn)
    })
}

fn run(rules: &Rules, seed: u64, a: &mut FnBot, b: &mut FnBot) -> MatchRecord<Tcg> {
    assert_eq!(validate(rules), Ok(()));
    let mut pa = NativePlayer::new(a);
    let mut pb = NativePlayer::new(b);
    let players: [&mut dyn Player<Tcg>; 2] = [&mut pa, &mut pb];
    run_match(&MatchConfig::new(rules.clone(), seed), players)
}

impl Bot<Tcg> for &mut FnBot {
    fn setup(&mut self, request: &SetupRequest) -> DeckChoice {
        (**self).setup(request)
    }
    fn act(&mut self, observation: &Observation) -> Action {
        (**self).act(observation)
    }
}

fn events(record: &MatchRecord<Tcg>) -> Vec<Event> {
    record.replay.events().cloned().collect()
}

fn rejections(record: &MatchRecord<Tcg>) -> Vec<(Seat, String)> {
    record
        .replay
        .log
        .iter()
        .filter_map(|e| match e {
            Entry::Rejected { seat, reason, .. } => Some((*seat, reason.clone())),
            _ => None,
        })
        .collect()
}

fn deck_of(id: &str) -> Vec<String> {
    vec![id.to_owned(); 20]
}

fn final_state(record: &MatchRecord<Tcg>) -> State {
    let mut state = State::new(record.replay.initial.as_ref().expect("initial recorded"));
    for event in record.replay.events() {
        state.apply(event);
    }
    state
}

#[test]
fn both_decks_are_the_documents_deck() {
    let record = run(&Rules::default(), 3, &mut passive(), &mut passive());
    let initial = record.replay.initial.clone().unwrap();
    let mut uids = BTreeSet::new();
    for deck in &initial.decks {
        let mut costs: Vec<i32> = deck.iter().map(|c| c.card.cost).collect();
        costs.sort();
        assert_eq!(
            costs,
            [0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8]
        );
        assert!(deck.iter().all(|c| c.card.damage == c.card.cost));
        uids.extend(deck.iter().map(|c| c.uid));
    }
    assert_eq!(uids.len(), 40, "uids are unique in the match");
    assert_ne!(initial.decks[0], initial.decks[1], "each deck is shuffled");
    assert_eq!(initial.starting_health, 30);
}

#[test]
fn opening_hands_of_three_and_a_draw_per_turn() {
    let mut a = passive();
    let seen = a.seen.clone();
    // `a` is never asked while it cannot play: give it cards it can always play.
    let rules = Rules {
        deck: deck_of("dud"),
        ..Rules::default()
    };
    let record = run(&rules, 1, &mut a, &mut passive());
    let first = &seen.borrow()[0];
    assert_eq!(first.turn, 1);
    assert_eq!(first.hand.len(), 4, "3 opening cards + the turn's draw");
    assert_eq!(first.heroes[1].hand_size, 3, "the second player has 3");
    assert_eq!(first.me().health, 30);
    assert_eq!(first.me().mana_slots, 1);
    let draws_before_turn_1 = events(&record)
        .iter()
        .take_while(|e| !matches!(e, Event::TurnStart { .. }))
        .filter(|e| matches!(e, Event::Draw { .. }))
        .count();
    assert_eq!(draws_before_turn_1, 6);
}

#[test]
fn mana_slots_grow_by_one_up_to_ten_and_refill() {
    let record = run(&Rules::default(), 5, &mut passive(), &mut passive());
    let slots: Vec<i32> = events(&record)
        .iter()
        .filter_map(|e| match e {
            Event::TurnStart {
                seat: 0,
                mana_slots,
                ..
            } => Some(*mana_slots),
            _ => None,
        })
        .take(13)
        .collect();
    assert_eq!(slots, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]);
    // Mana is refilled: a bot that spends everything has full mana the next turn.
    let mut spender = burner();
    let seen = spender.seen.clone();
    run(&Rules::default(), 5, &mut spender, &mut passive());
    for obs in seen.borrow().iter() {
        assert!(obs.me().mana <= obs.me().mana_slots);
    }
    let first_of_turn: Vec<_> = seen
        .borrow()
        .iter()
        .filter(|o| !o.hand.is_empty())
        .map(|o| (o.turn, o.me().mana, o.me().mana_slots))
        .collect();
    let mut last_turn = 0;
    for (turn, mana, slots) in first_of_turn {
        if turn != last_turn {
            assert_eq!(mana, slots, "turn {turn} starts with full mana");
            last_turn = turn;
        }
    }
}

#[test]
fn bleeding_out_deals_one_damage_per_turn_until_death() {
    // Two passive players: seat 0 draws its 17th and last card on its 17th turn,
    // bleeds 1 on each of its turns 18..=47 and dies on turn 2·47−1 = 93.
    let record = run(&Rules::default(), 11, &mut passive(), &mut passive());
    let bleeds: Vec<(Seat, i32, i32)> = events(&record)
        .iter()
        .filter_map(|e| match e {
            Event::BleedOut {
                seat,
                damage,
                health,
            } => Some((*seat, *damage, *health)),
            _ => None,
        })
        .collect();
    assert!(bleeds.iter().all(|&(_, damage, _)| damage == 1));
    let seat0: Vec<i32> = bleeds.iter().filter(|b| b.0 == 0).map(|b| b.2).collect();
    assert_eq!(seat0, (0..30).rev().collect::<Vec<_>>());
    assert_eq!(record.outcome.winner, Some(1));
    assert_eq!(record.outcome.turns, 93);
    assert_eq!(record.outcome.seats[0].stats["bleed_out_damage"], 30);
    assert_eq!(record.outcome.seats[1].stats["bleed_out_damage"], 29);
    assert!(record.outcome.reason.contains("seat 0"));
}

#[test]
fn overload_discards_the_card_drawn_into_a_hand_of_five() {
    // Opening 3, turn 1 → 4, turn 3 → 5, turn 5: the draw is discarded.
    let record = run(&Rules::default(), 2, &mut passive(), &mut passive());
    let mut turn = 0;
    let mut first_overload = None;
    let mut state = State::new(record.replay.initial.as_ref().unwrap());
    for e in events(&record) {
        state.apply(&e);
        assert!(state.hand_size(0) <= 5 && state.hand_size(1) <= 5);
        match e {
            Event::TurnStart { turn: t, .. } => turn = t,
            Event::Overload { seat: 0, .. } if first_overload.is_none() => {
                first_overload = Some(turn)
            }
            _ => {}
        }
    }
    assert_eq!(first_overload, Some(5));
    assert_eq!(record.outcome.seats[0].stats["cards_discarded"], 15);
    assert_eq!(record.outcome.seats[0].stats["cards_drawn"], 5);
}

#[test]
fn dud_cards_cost_nothing_and_deal_nothing() {
    let rules = Rules {
        deck: deck_of("dud"),
        turn_cap: 2,
        ..Rules::default()
    };
    let mut a = burner();
    let record = run(&rules, 1, &mut a, &mut passive());
    let evs = events(&record);
    let plays: Vec<_> = evs
        .iter()
        .filter_map(|e| match e {
            Event::Play {
                cost, mana_left, ..
            } => Some((*cost, *mana_left)),
            _ => None,
        })
        .collect();
    assert_eq!(plays, vec![(0, 1); 4], "four free duds played on turn 1");
    // A dud deals nothing, but its target (the enemy hero, the burner's default) is
    // recorded as a 0 damage event.
    let damage: Vec<_> = evs
        .iter()
        .filter_map(|e| match e {
            Event::Damage { target, amount, .. } => Some((*target, *amount)),
            _ => None,
        })
        .collect();
    assert_eq!(damage, vec![(Victim::Hero(1), 0); 4]);
    assert_eq!(record.outcome.winner, None, "equal health at the cap");
    assert_eq!(record.outcome.seats[0].stats["mana_wasted"], 1);
    assert_eq!(record.outcome.seats[0].stats["cards_played"], 4);
}

#[test]
fn a_hero_at_exactly_zero_loses_at_once() {
    // 3 health, sparks (1 mana, 1 damage): turn 1 deals 1, turn 3 deals 2 → 0.
    let rules = Rules {
        starting_health: 3,
        deck: deck_of("spark"),
        ..Rules::default()
    };
    let record = run(&rules, 4, &mut burner(), &mut passive());
    assert_eq!(record.outcome.winner, Some(0));
    assert_eq!(record.outcome.turns, 3);
    let last_damage = events(&record).iter().rev().find_map(|e| match e {
        Event::Damage { health, .. } => Some(*health),
        _ => None,
    });
    assert_eq!(last_damage, Some(0));
    assert_eq!(record.outcome.seats[0].stats["damage_dealt"], 3);
    assert!(
        !matches!(events(&record).last(), Some(Event::TurnEnd { .. })),
        "the game ends mid-turn"
    );
}

#[test]
fn every_stat_key_for_both_seats() {
    let record = run(&Rules::default(), 8, &mut burner(), &mut burner());
    for seat in &record.outcome.seats {
        let keys: Vec<&str> = seat.stats.keys().map(String::as_str).collect();
        let mut expected = STAT_KEYS.to_vec();
        expected.sort();
        assert_eq!(keys, expected);
    }
    assert!(record.outcome.seats[0].stats["turns"] >= 1);
}

#[test]
fn illegal_action_ends_the_turn_and_is_reported() {
    let mut calls = 0;
    let mut a = fn_bot(move |_| {
        calls += 1;
        if calls == 1 {
            Action::PlayCard {
                card: 999,
                play_as: PlayAs::Spell,
                target: Target::Hero,
            }
        } else {
            Action::EndTurn
        }
    });
    let seen = a.seen.clone();
    let rules = Rules {
        deck: deck_of("dud"),
        turn_cap: 4,
        ..Rules::default()
    };
    let record = run(&rules, 1, &mut a, &mut passive());
    let rejected = rejections(&record);
    assert_eq!(rejected.len(), 1);
    assert_eq!(rejected[0].0, 0);
    assert!(rejected[0].1.contains("card #999 is not in your hand"));
    let seen = seen.borrow();
    assert_eq!(seen[0].last_rejected, None);
    assert_eq!(seen[1].turn, 3, "the rejected action ended turn 1");
    assert!(seen[1].last_rejected.as_deref().unwrap().contains("#999"));
    assert_eq!(seen.get(2).and_then(|o| o.last_rejected.clone()), None);
    assert_eq!(record.outcome.seats[0].invalid_actions, 1);
    assert!(events(&record).iter().any(|e| matches!(
        e,
        Event::TurnEnd {
            turn: 1,
            reason: TurnEndReason::Rejected,
            ..
        }
    )));
}

#[test]
fn unaffordable_and_disabled_plays_are_rejected() {
    let rules = Rules {
        deck: deck_of("bolt"),
        turn_cap: 2,
        ..Rules::default()
    };
    let state_with_hand = |seat: Seat| {
        let record = run(&rules, 1, &mut passive(), &mut passive());
        let mut state = State::new(record.replay.initial.as_ref().unwrap());
        for e in events(&record)
            .iter()
            .take_while(|e| !matches!(e, Event::TurnEnd { .. }))
        {
            state.apply(e);
        }
        let uid = state.sides[usize::from(seat)].hand[0].uid;
        (state, uid)
    };
    let (state, uid) = state_with_hand(0);
    let play = |play_as, target| Action::PlayCard {
        card: uid,
        play_as,
        target,
    };
    let err = check(&rules, &state, 0, &play(PlayAs::Spell, Target::Hero)).unwrap_err();
    assert_eq!(err, format!("bolt (#{uid}) costs 3 mana, you have 1"));
    assert_eq!(legal_actions(&rules, &state, 0), vec![Action::EndTurn]);
    let mut rich = state.clone();
    rich.sides[0].mana = 3;
    assert!(check(&rules, &rich, 0, &play(PlayAs::Spell, Target::Hero)).is_ok());
    for (action, why) in [
        (play(PlayAs::Minion, Target::Hero), "minions are off"),
        (play(PlayAs::Heal, Target::Hero), "heals is off"),
        (play(PlayAs::Spell, Target::Minion(5)), "minions are off"),
    ] {
        assert!(check(&rules, &rich, 0, &action).unwrap_err().contains(why));
    }
    assert_eq!(
        legal_actions(&rules, &rich, 0).len(),
        5,
        "4 bolts + end turn"
    );
}

#[test]
fn turn_cap_goes_to_the_healthier_hero() {
    let rules = Rules {
        turn_cap: 6,
        ..Rules::default()
    };
    let record = run(&rules, 9, &mut passive(), &mut burner());
    assert_eq!(record.outcome.turns, 6);
    assert_eq!(record.outcome.winner, Some(1));
    assert!(
        record
            .outcome
            .reason
            .starts_with("turn cap: seat 1 has more health")
    );
    let record = run(&rules, 9, &mut passive(), &mut passive());
    assert_eq!(record.outcome.winner, None);
    assert_eq!(record.outcome.reason, "turn cap: equal health (30)");
}

#[test]
fn separate_damage_lets_cost_and_damage_differ() {
    let rules = Rules {
        separate_damage: true,
        deck: deck_of("cheap-shot"),
        turn_cap: 1,
        ..Rules::default()
    };
    let record = run(&rules, 1, &mut burner(), &mut passive());
    let damage: Vec<i32> = events(&record)
        .iter()
        .filter_map(|e| match e {
            Event::Damage { amount, .. } => Some(*amount),
            _ => None,
        })
        .collect();
    assert_eq!(damage, [2], "one mana buys one cheap shot of 2 damage");
    let basic = Rules {
        separate_damage: false,
        ..rules
    };
    assert!(validate(&basic).unwrap_err().contains("cheap-shot"));
}

#[test]
fn healing_cards_restore_health_up_to_the_start() {
    let rules = Rules {
        healing: true,
        starting_health: 30,
        deck: [vec!["bolt".to_owned(); 10], vec!["bandage".to_owned(); 10]].concat(),
        turn_cap: 40,
        ..Rules::default()
    };
    // Seat 0 heals whenever it can, seat 1 burns.
    let mut healer = fn_bot(|o| {
        o.legal
            .iter()
            .find(|a| {
                matches!(
                    a,
                    Action::PlayCard {
                        play_as: PlayAs::Heal,
                        ..
                    }
                )
            })
            .copied()
            .unwrap_or(Action::EndTurn)
    });
    let record = run(&rules, 6, &mut healer, &mut burner());
    let mut state = State::new(record.replay.initial.as_ref().unwrap());
    let mut heals = Vec::new();
    for e in events(&record) {
        let before = state.health()[0];
        state.apply(&e);
        assert!(state.health()[0] <= 30);
        if let Event::Heal { amount, health, .. } = e {
            assert_eq!(amount, (30 - before).min(2));
            assert_eq!(health, before + amount);
            heals.push(amount);
        }
    }
    assert!(
        heals.contains(&0),
        "a bandage at full health restores nothing"
    );
    assert!(heals.contains(&2));
    assert_eq!(
        record.outcome.seats[0].stats["healing"],
        heals.iter().map(|&h| i64::from(h)).sum::<i64>()
    );
    let off = Rules {
        healing: false,
        ..rules
    };
    assert!(validate(&off).unwrap_err().contains("bandage"));
}

#[test]
fn any_card_heals_plays_damage_cards_as_heals() {
    let rules = Rules {
        any_card_heals: true,
        deck: deck_of("spark"),
        ..Rules::default()
    };
    // Seat 1 burns; seat 0 answers every spark with a heal of 1.
    let mut healer = fn_bot(|o| {
        let heal = o.legal.iter().find(|a| {
            matches!(
                a,
                Action::PlayCard {
                    play_as: PlayAs::Heal,
                    ..
                }
            )
        });
        match heal {
            Some(a) if o.me().health < 30 => *a,
            _ => Action::EndTurn,
        }
    });
    let record = run(&rules, 2, &mut healer, &mut burner());
    let healed = record.outcome.seats[0].stats["healing"];
    assert!(healed > 0);
    assert!(events(&record).iter().any(|e| matches!(
        e,
        Event::Play {
            seat: 0,
            play_as: PlayAs::Heal,
            card,
            ..
        } if card == "spark"
    )));
}

#[test]
fn card_drawers_draw_and_never_bleed() {
    let rules = Rules {
        card_drawers: true,
        deck: deck_of("insight"),
        overload: false,
        ..Rules::default()
    };
    let record = run(&rules, 3, &mut burner(), &mut passive());
    let evs = events(&record);
    // Turn 3 (3 mana): insight draws 2 cards after the turn's draw.
    let turn3: Vec<&Event> = evs
        .iter()
        .skip_while(|e| !matches!(e, Event::TurnStart { turn: 5, .. }))
        .take_while(|e| !matches!(e, Event::TurnEnd { turn: 5, .. }))
        .collect();
    let draws = turn3
        .iter()
        .filter(|e| matches!(e, Event::Draw { seat: 0, .. }))
        .count();
    assert_eq!(draws, 1 + 2, "turn draw plus insight's two");
    assert!(
        evs.iter()
            .any(|e| matches!(e, Event::EmptyDeck { seat: 0 }))
    );
    // Drawers draw from an empty deck without bleeding: seat 0 bleeds only on turns.
    let state = final_state(&record);
    assert_eq!(state.card_count(0), 20);
    assert_eq!(
        record.outcome.seats[0].stats["damage_dealt"], 0,
        "drawers deal no damage"
    );
}

#[test]
fn card_drawers_overload_like_any_draw() {
    let rules = Rules {
        card_drawers: true,
        deck: deck_of("library"),
        turn_cap: 12,
        ..Rules::default()
    };
    let record = run(&rules, 3, &mut burner(), &mut passive());
    let state = final_state(&record);
    assert!(record.outcome.seats[0].stats["cards_discarded"] > 0);
    assert!(state.hand_size(0) <= 5);
    assert_eq!(state.card_count(0), 20);
}

/// Custom decks with 20 copies allowed: seat 0 plays bolts (3/3), seat 1 zaps (2/2).
fn minion_rules() -> Rules {
    Rules {
        minions: true,
        custom_decks: true,
        max_copies: 20,
        ..Rules::default()
    }
}

fn with_deck(mut bot: FnBot, id: &str) -> FnBot {
    bot.deck = DeckChoice {
        deck: Some(deck_of(id)),
    };
    bot
}

fn first_card(o: &Observation) -> u32 {
    o.hand[0].uid
}

fn minion_of(o: &Observation, seat: Seat) -> Option<u32> {
    o.minions_of(seat).map(|m| m.id).next()
}

#[test]
fn minions_sleep_fight_simultaneously_and_die() {
    let summon = |o: &Observation| Action::PlayCard {
        card: first_card(o),
        play_as: PlayAs::Minion,
        target: Target::Hero,
    };
    let mut step0 = 0;
    let bolts = with_deck(
        fn_bot(move |o| {
            step0 += 1;
            match (o.turn, step0) {
                (5, _) if o.minions_of(0).count() == 0 => summon(o),
                // Turn 7: the bolt minion attacks the sleeping zap minion, then a bolt
                // spell hits the hero.
                (7, _) if o.minions_of(0).count() == 1 => Action::Attack {
                    minion: minion_of(o, 0).unwrap(),
                    target: Target::Minion(minion_of(o, 1).unwrap()),
                },
                (7, _) if o.heroes[1].health == 30 => Action::PlayCard {
                    card: first_card(o),
                    play_as: PlayAs::Spell,
                    target: Target::Hero,
                },
                // Turn 9: a spell at the zap minion: it does not strike back.
                (9, _) if minion_of(o, 1).is_some() => Action::PlayCard {
                    card: first_card(o),
                    play_as: PlayAs::Spell,
                    target: Target::Minion(minion_of(o, 1).unwrap()),
                },
                _ => Action::EndTurn,
            }
        }),
        "bolt",
    );
    let zaps = with_deck(
        fn_bot(move |o| match o.turn {
            4 if o.minions_of(1).count() == 0 => summon(o),
            // Turn 6: the zap minion attacks the bolt minion, then a new zap minion.
            6 if o.minions_of(1).count() == 1 && o.minions_of(1).all(|m| m.can_attack) => {
                Action::Attack {
                    minion: minion_of(o, 1).unwrap(),
                    target: Target::Minion(minion_of(o, 0).unwrap()),
                }
            }
            6 if o.minions_of(1).count() == 0 => summon(o),
            // Turn 8: summon, then try to attack with the sleeping minion.
            8 if o.minions_of(1).count() == 0 => summon(o),
            8 => Action::Attack {
                minion: minion_of(o, 1).unwrap(),
                target: Target::Hero,
            },
            _ => Action::EndTurn,
        }),
        "zap",
    );
    let (mut bolts, mut zaps) = (bolts, zaps);
    let zap_seen = zaps.seen.clone();
    let record = run(&minion_rules(), 12, &mut bolts, &mut zaps);
    let rejected = rejections(&record);
    assert_eq!(rejected.len(), 1);
    assert!(rejected[0].1.contains("asleep"), "{rejected:?}");
    let asleep_obs = zap_seen
        .borrow()
        .iter()
        .find(|o| o.turn == 8 && o.board.len() == 1)
        .cloned()
        .unwrap();
    assert!(asleep_obs.board[0].asleep && !asleep_obs.board[0].can_attack);
    assert!(
        !asleep_obs
            .legal
            .iter()
            .any(|a| matches!(a, Action::Attack { .. }))
    );

    let evs = events(&record);
    let summary: Vec<String> = evs
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Summon { .. }
                    | Event::Fight { .. }
                    | Event::MinionDied { .. }
                    | Event::Damage { .. }
            )
        })
        .map(|e| match e {
            Event::Summon {
                seat,
                attack,
                health,
                ..
            } => format!("summon {seat} {attack}/{health}"),
            Event::Fight { seat, .. } => format!("fight by {seat}"),
            Event::MinionDied { seat, .. } => format!("died {seat}"),
            Event::Damage {
                source,
                target,
                amount,
                health,
            } => match target {
                Victim::Hero(s) => format!("{source} hits hero {s} for {amount} → {health}"),
                Victim::Minion(_) => format!("{source} hits minion for {amount} → {health}"),
            },
            _ => unreachable!(),
        })
        .collect();
    let expected = [
        "summon 1 2/2",             // turn 4
        "summon 0 3/3",             // turn 5
        "fight by 1",               // turn 6: zap attacks bolt
        "1 hits minion for 2 → 1",  // bolt minion 3/3 takes 2
        "0 hits minion for 3 → -1", // zap minion takes 3 at the same time
        "died 1",
        "summon 1 2/2",
        "fight by 0", // turn 7: bolt (3/1) attacks the sleeping zap
        "0 hits minion for 3 → -1",
        "1 hits minion for 2 → -1", // it defends itself
        "died 1",
        "died 0",
        "0 hits hero 1 for 3 → 27", // bolt spell
        "summon 1 2/2",             // turn 8, then the rejected attack
        "0 hits minion for 3 → -1", // turn 9: spell, no retaliation
        "died 1",
    ];
    assert_eq!(summary[..expected.len()], expected);
    assert_eq!(record.outcome.seats[0].stats["minions_killed"], 3);
    assert_eq!(record.outcome.seats[1].stats["minions_killed"], 1);
    assert_eq!(record.outcome.seats[0].stats["minions_played"], 1);
    assert_eq!(record.outcome.seats[1].stats["minions_played"], 3);
    let state = final_state(&record);
    assert_eq!(state.card_count(0), 20);
    assert_eq!(state.card_count(1), 20);
}

#[test]
fn minions_attack_heroes_once_per_turn_and_the_board_has_a_limit() {
    let rules = Rules {
        max_minions: 2,
        ..minion_rules()
    };
    // Seat 0 summons all it can and attacks the hero with every ready minion.
    let mut swarm = with_deck(
        fn_bot(|o| {
            let attack = o.legal.iter().find(|a| {
                matches!(
                    a,
                    Action::Attack {
                        target: Target::Hero,
                        ..
                    }
                )
            });
            let summon = o.legal.iter().find(|a| {
                matches!(
                    a,
                    Action::PlayCard {
                        play_as: PlayAs::Minion,
                        ..
                    }
                )
            });
            attack.or(summon).copied().unwrap_or(Action::EndTurn)
        }),
        "spark",
    );
    let seen = swarm.seen.clone();
    let record = run(&rules, 4, &mut swarm, &mut passive());
    for o in seen.borrow().iter() {
        assert!(o.minions_of(0).count() <= 2);
        if o.minions_of(0).count() == 2 {
            assert!(!o.legal.iter().any(|a| matches!(
                a,
                Action::PlayCard {
                    play_as: PlayAs::Minion,
                    ..
                }
            )));
        }
    }
    // Turn 1: a 1/1 sleeps. Turn 3: it attacks (29), a second one is summoned. Turn 5
    // on: two attacks a turn.
    let hero_hits: Vec<(u32, i32)> = {
        let mut turn = 0;
        events(&record)
            .iter()
            .filter_map(|e| match e {
                Event::TurnStart { turn: t, .. } => {
                    turn = *t;
                    None
                }
                Event::MinionAttack { .. } => Some((turn, 0)),
                Event::Damage {
                    target: Victim::Hero(1),
                    health,
                    ..
                } => Some((turn, *health)),
                _ => None,
            })
            .filter(|&(_, h)| h != 0)
            .take(5)
            .collect()
    };
    assert_eq!(hero_hits, [(3, 29), (5, 28), (5, 27), (7, 26), (7, 25)]);
    assert_eq!(record.outcome.winner, Some(0));
}

#[test]
fn custom_decks_are_used_checked_and_ignored_when_off() {
    let rules = Rules {
        custom_decks: true,
        ..Rules::default()
    };
    let mut good = with_deck(passive(), "spark");
    good.deck.deck.as_mut().unwrap().truncate(16);
    good.deck
        .deck
        .as_mut()
        .unwrap()
        .extend(["zap", "zap", "bolt", "bolt"].map(String::from));
    let mut too_many = with_deck(passive(), "spark");
    let too_many_seen = too_many.seen.clone();
    let record = run(&rules, 2, &mut good, &mut too_many);
    let initial = record.replay.initial.clone().unwrap();
    assert_eq!(
        initial.chosen_deck,
        [false, false],
        "16 sparks break the copy limit"
    );
    let rejected = rejections(&record);
    assert_eq!(rejected.len(), 2);
    assert!(rejected[0].1.contains("more than 4 copies of `spark`"));

    let mut legal = with_deck(passive(), "spark");
    legal.deck = DeckChoice {
        deck: Some(
            ["spark", "zap", "bolt", "blast", "fireball"]
                .iter()
                .flat_map(|id| vec![id.to_string(); 4])
                .collect(),
        ),
    };
    let mut unknown = passive();
    unknown.deck = DeckChoice {
        deck: Some(vec!["frostbolt".to_owned(); 20]),
    };
    let unknown_seen = unknown.seen.clone();
    let record = run(&rules, 2, &mut legal, &mut unknown);
    let initial = record.replay.initial.clone().unwrap();
    assert_eq!(initial.chosen_deck, [true, false]);
    let mut costs: Vec<i32> = initial.decks[0].iter().map(|c| c.card.cost).collect();
    costs.sort();
    assert_eq!(costs, [[1; 4], [2; 4], [3; 4], [4; 4], [5; 4]].concat());
    let first = unknown_seen.borrow()[0].clone();
    assert!(
        first
            .last_rejected
            .unwrap()
            .contains("unknown card `frostbolt`")
    );
    assert!(too_many_seen.borrow()[0].last_rejected.is_some());

    // Off: the choice is ignored and nobody is rejected.
    let off = Rules::default();
    let record = run(
        &off,
        2,
        &mut with_deck(passive(), "frostbolt"),
        &mut passive(),
    );
    assert!(rejections(&record).is_empty());
    assert_eq!(record.replay.initial.unwrap().chosen_deck, [false, false]);
}

#[test]
fn deck_files_load_and_save_against_the_rules_pool() {
    let rules = Rules::advanced();
    let pool = rules.card_pool();
    let text = "# burn\n4x cheap-shot\n4x ambush\n4 x glass-hammer\n4x potion\n2x insight\nscout\nfireball\n";
    let deck = parse_deck(text, &pool).unwrap();
    assert_eq!(pool.check(&deck.cards), Ok(()));
    assert_eq!(parse_deck(&deck.to_text(), &pool).unwrap(), deck);
    let err = parse_deck(text, &Rules::default().card_pool()).unwrap_err();
    assert_eq!(err.line, 2, "cheap-shot needs separate damage");
    let short = parse_deck("4x bolt\n\n", &pool).unwrap_err();
    assert_eq!(short.line, 2);
    assert_eq!(
        short.to_string(),
        "line 2: the deck has 4 cards, a deck needs exactly 20"
    );
}

#[test]
fn second_player_extra_card_and_random_first_player() {
    let rules = Rules {
        second_player_extra_card: true,
        deck: deck_of("dud"),
        ..Rules::default()
    };
    let mut b = passive();
    let seen = b.seen.clone();
    run(&rules, 1, &mut passive(), &mut b);
    assert_eq!(
        seen.borrow()[0].hand.len(),
        5,
        "3 + 1 extra + the turn's draw"
    );

    let random = Rules {
        random_first_player: true,
        ..Rules::default()
    };
    let firsts: BTreeSet<Seat> = (0..20)
        .map(|seed| {
            run(&random, seed, &mut passive(), &mut passive())
                .replay
                .initial
                .unwrap()
                .first_player
        })
        .collect();
    assert_eq!(firsts.len(), 2);
    let record = run(&random, 3, &mut passive(), &mut passive());
    let first = record.replay.initial.as_ref().unwrap().first_player;
    assert!(matches!(
        events(&record).iter().find(|e| matches!(e, Event::TurnStart { .. })),
        Some(Event::TurnStart { seat, .. }) if *seat == first
    ));
}

#[test]
fn special_rules_can_be_switched_off() {
    let rules = Rules {
        bleeding_out: false,
        overload: false,
        turn_cap: 60,
        ..Rules::default()
    };
    let record = run(&rules, 5, &mut passive(), &mut passive());
    let evs = events(&record);
    assert!(
        !evs.iter()
            .any(|e| matches!(e, Event::BleedOut { .. } | Event::Overload { .. }))
    );
    assert_eq!(final_state(&record).hand_size(0), 20);
    assert_eq!(record.outcome.winner, None);
    assert_eq!(record.outcome.turns, 60);
}

#[test]
fn validate_names_what_is_wrong() {
    let bad = |r: Rules| validate(&r).unwrap_err();
    assert!(
        bad(Rules {
            deck_size: 19,
            ..Rules::default()
        })
        .contains("default deck has 20 cards")
    );
    assert!(
        bad(Rules {
            turn_cap: 0,
            ..Rules::default()
        })
        .contains("turn_cap")
    );
    let mut dup = Rules::default();
    dup.pool.push(Card::damage("bolt", 1, 1));
    assert!(bad(dup).contains("appears twice"));
    let mut odd = Rules::default();
    odd.pool.push(Card::damage("two words", 1, 1));
    assert!(bad(odd).contains("letters, digits"));
    assert_eq!(validate(&Rules::default()), Ok(()));
    assert_eq!(validate(&Rules::advanced()), Ok(()));
}

#[test]
fn replay_verifies_and_is_byte_identical_for_a_seed() {
    let rules = Rules::advanced();
    let play = || {
        let mut a = random_bot(1);
        let mut b = random_bot(2);
        let mut pa = NativePlayer::new(&mut a);
        let mut pb = NativePlayer::new(&mut b);
        let players: [&mut dyn Player<Tcg>; 2] = [&mut pa, &mut pb];
        run_match(&MatchConfig::new(rules.clone(), 77), players)
    };
    let record = play();
    assert_eq!(verify(&record.replay), Ok(()));
    let once = serde_json::to_string(&record.replay).unwrap();
    let twice = serde_json::to_string(&play().replay).unwrap();
    assert_eq!(once, twice);
    let mut tampered = record.replay.clone();
    tampered.seed += 1;
    assert!(verify(&tampered).is_err());
}

#[test]
fn picture_shows_heroes_mana_hands_and_board() {
    let mut a = with_deck(
        fn_bot(|o| {
            o.legal
                .iter()
                .find(|a| {
                    matches!(
                        a,
                        Action::PlayCard {
                            play_as: PlayAs::Minion,
                            ..
                        }
                    )
                })
                .copied()
                .unwrap_or(Action::EndTurn)
        }),
        "spark",
    );
    let record = run(&minion_rules(), 1, &mut a, &mut passive());
    let evs = events(&record);
    let initial = record.replay.initial.as_ref().unwrap();
    let cut = evs
        .iter()
        .position(|e| matches!(e, Event::TurnEnd { turn: 1, .. }))
        .unwrap();
    let picture = Tcg::picture(initial, &evs[..=cut]).unwrap();
    assert!(
        picture.contains("seat 0  health  30/30  mana 0/1"),
        "{picture}"
    );
    assert!(picture.contains("[spark 1:1]"), "{picture}");
    assert!(picture.contains("spark 1/1 zz]"), "{picture}");
    assert_eq!(picture.lines().count(), 7);
    for e in &evs {
        assert!(!Tcg::describe(e).is_empty());
    }
}

/// A random bot for property tests: random deck when asked, random legal action, and
/// now and then an illegal one.
struct RandomBot {
    rng: ChaCha8Rng,
}

fn random_bot(seed: u64) -> RandomBot {
    RandomBot {
        rng: ChaCha8Rng::seed_from_u64(seed),
    }
}

impl Bot<Tcg> for RandomBot {
    fn start(&mut self, start: &MatchStart<Tcg>) {
        self.rng = ChaCha8Rng::seed_from_u64(start.seed);
    }
    fn setup(&mut self, request: &SetupRequest) -> DeckChoice {
        let ids: Vec<String> = request.pool.cards.iter().map(|c| c.id.clone()).collect();
        let mut deck = Vec::new();
        while deck.len() < request.pool.deck_size as usize {
            let id = ids.choose(&mut self.rng).unwrap().clone();
            if deck.iter().filter(|d| **d == id).count() < request.pool.max_copies as usize {
                deck.push(id);
            }
        }
        DeckChoice { deck: Some(deck) }
    }
    fn act(&mut self, observation: &Observation) -> Action {
        if rand::Rng::random_bool(&mut self.rng, 0.03) {
            return Action::Attack {
                minion: rand::Rng::random_range(&mut self.rng, 0..50),
                target: Target::Hero,
            };
        }
        *observation.legal.choose(&mut self.rng).unwrap()
    }
}

impl Bot<Tcg> for &mut RandomBot {
    fn start(&mut self, start: &MatchStart<Tcg>) {
        (**self).start(start)
    }
    fn setup(&mut self, request: &SetupRequest) -> DeckChoice {
        (**self).setup(request)
    }
    fn act(&mut self, observation: &Observation) -> Action {
        (**self).act(observation)
    }
}

fn any_rules() -> impl Strategy<Value = Rules> {
    (
        proptest::collection::vec(any::<bool>(), 10),
        1..=40i32,
        prop_oneof![Just(200u32), 1..60u32],
    )
        .prop_map(|(flags, health, turn_cap)| Rules {
            separate_damage: flags[0],
            healing: flags[1],
            any_card_heals: flags[2],
            card_drawers: flags[3],
            minions: flags[4],
            custom_decks: flags[5],
            bleeding_out: flags[6],
            overload: flags[7],
            second_player_extra_card: flags[8],
            random_first_player: flags[9],
            starting_health: health,
            turn_cap,
            ..Rules::default()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn invariants_hold_in_random_games(rules in any_rules(), seed in any::<u64>()) {
        let mut a = random_bot(0);
        let mut b = random_bot(0);
        let mut pa = NativePlayer::new(&mut a);
        let mut pb = NativePlayer::new(&mut b);
        let players: [&mut dyn Player<Tcg>; 2] = [&mut pa, &mut pb];
        let record = run_match(&MatchConfig::new(rules.clone(), seed), players);

        // Every game ends, within the cap.
        prop_assert!(record.outcome.turns <= rules.turn_cap);
        let mut state = State::new(record.replay.initial.as_ref().unwrap());
        for event in record.replay.events() {
            state.apply(event);
            for seat in 0..2u8 {
                prop_assert!(state.health()[usize::from(seat)] <= rules.starting_health);
                let (mana, slots) = state.mana(seat);
                prop_assert!(0 <= mana && mana <= slots && slots <= rules.max_mana);
                prop_assert_eq!(state.card_count(seat), rules.deck_size as usize);
                if rules.overload {
                    prop_assert!(state.hand_size(seat) <= rules.max_hand as usize);
                }
                let minions = state.board.iter().filter(|m| m.owner == seat).count();
                prop_assert!(minions <= rules.max_minions as usize);
            }
            if matches!(event, Event::TurnEnd { .. }) {
                prop_assert!(state.board.iter().all(|m| m.health > 0));
            }
            if !rules.minions {
                prop_assert_eq!(state.minion_count(), 0);
            }
        }
        // The outcome agrees with the final state.
        let [h0, h1] = state.health();
        match record.outcome.winner {
            Some(w) if !record.outcome.reason.starts_with("turn cap") => {
                prop_assert!(state.health()[usize::from(1 - w)] <= 0);
            }
            Some(0) => prop_assert!(h0 > h1),
            Some(_) => prop_assert!(h1 > h0),
            None => prop_assert_eq!(h0, h1),
        }
        prop_assert_eq!(&record.outcome.seats[0].stats, &state.stats()[0]);
        prop_assert_eq!(verify(&record.replay), Ok(()));
    }
}

#[test]
fn the_first_player_pick_and_the_shuffled_decks_are_events() {
    let rules = Rules {
        random_first_player: true,
        ..Rules::default()
    };
    let mut firsts = BTreeSet::new();
    for seed in 0..12 {
        let record = run(&rules, seed, &mut burner(), &mut passive());
        let initial = record.replay.initial.clone().unwrap();
        let evs = events(&record);
        assert_eq!(
            evs[0],
            Event::FirstPlayer {
                seat: initial.first_player,
                random: true
            }
        );
        for seat in 0..2u8 {
            let order: Vec<u32> = initial.decks[usize::from(seat)]
                .iter()
                .map(|c| c.uid)
                .collect();
            assert_eq!(evs[1 + usize::from(seat)], Event::Shuffled { seat, order });
        }
        assert!(evs[..3].iter().all(Tcg::is_roll));
        assert!(!evs[3..].iter().any(Tcg::is_roll));
        firsts.insert(initial.first_player);
    }
    assert_eq!(firsts.len(), 2, "either seat is drawn");
    let record = run(&Rules::default(), 3, &mut burner(), &mut passive());
    assert_eq!(
        events(&record)[0],
        Event::FirstPlayer {
            seat: 0,
            random: false
        }
    );
}

#[test]
fn the_replay_holds_the_pool_and_switches_and_each_requests_legal_plays() {
    let rules = Rules {
        minions: true,
        healing: true,
        any_card_heals: true,
        ..Rules::default()
    };
    // A bot that tries a random legal action most of the time and a random card id
    // (often not in its hand) otherwise.
    let rng = Rc::new(RefCell::new(ChaCha8Rng::seed_from_u64(4)));
    let mut wild = fn_bot(move |o| {
        let mut rng = rng.borrow_mut();
        if rand::Rng::random_range(&mut *rng, 0..10) == 0 {
            Action::PlayCard {
                card: rand::Rng::random_range(&mut *rng, 0..50),
                play_as: PlayAs::Minion,
                target: Target::Hero,
            }
        } else {
            *o.legal.choose(&mut *rng).unwrap()
        }
    });
    let record = run(&rules, 8, &mut wild, &mut burner());
    let replay = &record.replay;
    let tables: Tables = serde_json::from_value(replay.tables.clone()).unwrap();
    assert!(tables.switches["minions"] && tables.switches["any_card_heals"]);
    assert!(!tables.switches["card_drawers"] && tables.switches["overload"]);
    assert_eq!(tables.switches.len(), 10);
    assert_eq!(tables.pool, rules.card_pool().cards);
    let (mut rejected, mut played) = (0, 0);
    for (idx, entry) in replay.log.iter().enumerate() {
        let Entry::Answer {
            seat: 0,
            answer: crate::Answer::Action(action),
            offered,
            ..
        } = entry
        else {
            continue;
        };
        let offer = offered.as_ref().expect("turn requests record their offer");
        let legal = match *action {
            Action::PlayCard { card, play_as, .. } => offer.plays.contains(&(card, play_as)),
            Action::Attack { minion, target } => offer.attacks.contains(&(minion, target)),
            Action::EndTurn => true,
        };
        let was_rejected = matches!(replay.log.get(idx + 1), Some(Entry::Rejected { .. }));
        assert_eq!(legal, !was_rejected, "{entry:?}");
        if was_rejected {
            rejected += 1;
        } else {
            played += 1;
        }
    }
    assert!(rejected > 0 && played > 10, "{rejected} {played}");
    assert!(
        replay.log.iter().any(|e| matches!(
            e,
            Entry::Answer { offered: Some(o), .. } if !o.attacks.is_empty()
        )),
        "minions were offered attacks"
    );
    verify(replay).expect("verifies");
}

#[test]
fn each_seat_may_play_its_own_deck() {
    let rules = Rules {
        deck1: Some(deck_of("bolt")),
        ..Rules::default()
    };
    assert_eq!(rules.deck_of(0), standard_deck().as_slice());
    let requests = Rc::new(RefCell::new(Vec::new()));
    struct Asks(Rc<RefCell<Vec<Vec<String>>>>);
    impl Bot<Tcg> for Asks {
        fn setup(&mut self, request: &SetupRequest) -> DeckChoice {
            self.0.borrow_mut().push(request.default_deck.clone());
            DeckChoice::default()
        }
        fn act(&mut self, _: &Observation) -> Action {
            Action::EndTurn
        }
    }
    let mut a = NativePlayer::new(Asks(requests.clone()));
    let mut b = NativePlayer::new(Asks(requests.clone()));
    let players: [&mut dyn Player<Tcg>; 2] = [&mut a, &mut b];
    let record = run_match::<Tcg>(&MatchConfig::new(rules.clone(), 3), players);
    assert_eq!(*requests.borrow(), vec![standard_deck(), deck_of("bolt")]);
    let initial = record.replay.initial.clone().unwrap();
    assert!(initial.decks[1].iter().all(|c| c.card.id == "bolt"));
    let mut zero: Vec<String> = initial.decks[0].iter().map(|c| c.card.id.clone()).collect();
    let mut standard = standard_deck();
    zero.sort();
    standard.sort();
    assert_eq!(zero, standard);
    assert_eq!(initial.chosen_deck, [false, false]);
    verify(&record.replay).expect("verifies");

    let unknown = Rules {
        deck0: Some(deck_of("nope")),
        ..Rules::default()
    };
    assert_eq!(
        Tcg::validate(&unknown).unwrap_err(),
        "seat 0's deck (deck0): card `nope` is not in the pool in use (is its variation on?)"
    );
    let short = Rules {
        deck1: Some(vec!["bolt".to_owned(); 3]),
        ..Rules::default()
    };
    assert_eq!(
        Tcg::validate(&short).unwrap_err(),
        "seat 1's deck (deck1) has 3 cards, deck_size is 20"
    );
}

// ---- one state: the replay's events fold to the play loop's final state ----

/// A built-in that sometimes faults or answers an action it was not offered.
struct Unruly {
    bot: Box<dyn Bot<Tcg> + Send>,
    dice: u64,
    faults: u64,
    wild: u64,
}

impl Unruly {
    fn roll(&mut self) -> u64 {
        // xorshift: the test's own dice, independent of the match's.
        self.dice ^= self.dice << 13;
        self.dice ^= self.dice >> 7;
        self.dice ^= self.dice << 17;
        self.dice % 100
    }
}

impl Player<Tcg> for Unruly {
    fn start(&mut self, start: &arena_sdk::MatchStart<Tcg>) -> Result<(), crate::Fault> {
        self.bot.start(start);
        Ok(())
    }
    fn setup(&mut self, request: &SetupRequest) -> Result<DeckChoice, crate::Fault> {
        Ok(self.bot.setup(request))
    }
    fn act(&mut self, observation: &Observation) -> Result<Action, crate::Fault> {
        let roll = self.roll();
        if roll < self.faults {
            return Err(crate::Fault::new(crate::FaultKind::Trap, "unruly"));
        }
        if roll < self.faults + self.wild {
            return Ok(Action::Attack {
                minion: 9_999,
                target: Target::Hero,
            });
        }
        Ok(self.bot.act(observation))
    }
    fn end(&mut self, end: &arena_sdk::MatchEnd) {
        self.bot.end(end);
    }
}

fn unruly(pick: usize, dice: u64, faults: u64, wild: u64) -> Unruly {
    let all = <Tcg as arena_builtins::Builtins>::builtins();
    Unruly {
        bot: <Tcg as arena_builtins::Builtins>::create(all[pick % all.len()].name).unwrap(),
        dice: dice | 1,
        faults,
        wild,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn folding_the_replay_gives_the_play_loops_final_state(
        seed in any::<u64>(),
        picks in (0usize..16, 0usize..16),
        max_faults in 1u32..5,
        misbehaviour in (0u64..10, 0u64..20),
        dice in any::<u64>(),
    ) {
        let mut config = MatchConfig::<Tcg>::new(Rules::default(), seed);
        config.max_faults = max_faults;
        let (faults, wild) = misbehaviour;
        let mut zero = unruly(picks.0, dice, faults, wild);
        let mut one = unruly(picks.1, dice ^ 0x5555, 0, wild / 2);
        let (record, state) = crate::run_match_with(
            &config,
            [&mut zero, &mut one],
            None,
            super::play::play_to_end,
        );
        let state = state.expect("valid rules").expect("no forfeit at setup");
        prop_assert_eq!(&final_state(&record), &state);
        for seat in 0..2 {
            prop_assert_eq!(&state.stats()[seat], &record.outcome.seats[seat].stats);
        }
        let ends = record.replay.events().filter(|e| Tcg::is_end(e)).count();
        let last_is_end = matches!(
            record.replay.log.last(),
            Some(Entry::Event { event }) if Tcg::is_end(event)
        );
        prop_assert_eq!((ends, last_is_end), (1, true));
    }
}

#[test]
fn a_seat_is_shown_its_own_draws_and_not_the_others() {
    let draw = |seat| Event::Draw {
        seat,
        uid: 29,
        card: "bolt".to_owned(),
    };
    assert_eq!(
        Tcg::describe_for(&draw(0), 0).as_deref(),
        Some("seat 0 draws bolt (#29)")
    );
    assert_eq!(
        Tcg::describe_for(&draw(1), 0).as_deref(),
        Some("seat 1 draws a card")
    );
    let overload = Event::Overload {
        seat: 1,
        uid: 30,
        card: "bolt".to_owned(),
    };
    assert_eq!(
        Tcg::describe_for(&overload, 0).as_deref(),
        Some("seat 1 overloads: a card is discarded")
    );
    assert!(Tcg::describe_for(&overload, 1).unwrap().contains("bolt"));
    // No deck's order is seen, not even one's own.
    let shuffled = Event::Shuffled {
        seat: 0,
        order: vec![3, 1, 2],
    };
    assert_eq!(Tcg::describe_for(&shuffled, 0), None);
    // A spectator sees everything.
    assert_eq!(Tcg::describe(&draw(1)), "seat 1 draws bolt (#29)");
}
