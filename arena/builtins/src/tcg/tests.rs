//! The built-ins of `tcg` against each other and the rules' edge cases.

use super::*;

use crate::Builtins;
use arena_sdk::tcg::{
    Action, CardInstance, DeckChoice, Observation, PlayAs, Rules, SetupRequest, Target, Tcg,
};
use arena_sdk::{Bot, MatchStart, Mode, Seat};

use arena_engine::{MatchConfig, NativePlayer, Player, run_match};

fn bot(name: &str) -> Box<dyn Bot<Tcg> + Send> {
    <Tcg as Builtins>::create(name).expect("built-in exists")
}

/// Games `a` wins against `b` out of `games`, seats alternated: (wins, draws).
fn score(a: &str, b: &str, rules: &Rules, games: u64) -> (u32, u32) {
    let (mut wins, mut draws) = (0, 0);
    for game in 0..games {
        let mut pa = NativePlayer::new(bot(a));
        let mut pb = NativePlayer::new(bot(b));
        let a_seat = (game % 2) as Seat;
        let players: [&mut dyn Player<Tcg>; 2] = if a_seat == 0 {
            [&mut pa, &mut pb]
        } else {
            [&mut pb, &mut pa]
        };
        let record = run_match(&MatchConfig::new(rules.clone(), 1000 + game / 2), players);
        match record.outcome.winner {
            Some(w) if w == a_seat => wins += 1,
            None => draws += 1,
            Some(_) => {}
        }
    }
    (wins, draws)
}

fn rate(wins: u32, games: u64) -> f64 {
    f64::from(wins) / games as f64
}

#[test]
fn planner_beats_random_in_at_least_90_percent() {
    for rules in [Rules::default(), Rules::advanced()] {
        let (wins, _) = score("planner", "random", &rules, 200);
        assert!(rate(wins, 200) >= 0.9, "{wins}/200 with {rules:?}");
    }
}

#[test]
fn planner_beats_greedy_clearly_where_there_are_decisions() {
    for rules in [
        Rules {
            minions: true,
            ..Rules::default()
        },
        Rules::advanced(),
    ] {
        let (wins, _) = score("planner", "greedy", &rules, 200);
        assert!(rate(wins, 200) >= 0.8, "{wins}/200");
    }
    // With custom decks the planner also builds the better deck.
    let custom = Rules {
        custom_decks: true,
        separate_damage: true,
        ..Rules::default()
    };
    let (wins, _) = score("planner", "greedy", &custom, 200);
    assert!(rate(wins, 200) >= 0.55, "{wins}/200");
}

/// Prints the win-rate table of docs/rules/tcg.md:
/// `cargo test -p arena-builtins tcg::tests::win_rate_table -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement (about 2 s), not a check"]
fn win_rate_table() {
    let minions = Rules {
        minions: true,
        ..Rules::default()
    };
    let custom = Rules {
        custom_decks: true,
        separate_damage: true,
        ..Rules::default()
    };
    for (name, rules) in [
        ("basic", Rules::default()),
        ("minions", minions),
        ("custom decks + separate damage", custom),
        ("advanced", Rules::advanced()),
    ] {
        let pct = |a, b| f64::from(score(a, b, &rules, 200).0) / 2.0;
        println!(
            "{name}: planner-random {}%, planner-greedy {}%, greedy-random {}%",
            pct("planner", "random"),
            pct("planner", "greedy"),
            pct("greedy", "random")
        );
    }
}

#[test]
fn greedy_beats_random() {
    let (wins, _) = score("greedy", "random", &Rules::default(), 100);
    assert!(rate(wins, 100) >= 0.8, "{wins}/100");
}

fn request(rules: &Rules) -> SetupRequest {
    SetupRequest {
        seat: 0,
        first_player: 0,
        choose_deck: true,
        pool: rules.card_pool(),
        default_deck: rules.deck.clone(),
    }
}

#[test]
fn chosen_decks_are_valid() {
    for rules in [
        Rules {
            custom_decks: true,
            ..Rules::default()
        },
        Rules::advanced(),
    ] {
        let req = request(&rules);
        for name in ["random", "greedy", "planner"] {
            let mut b = bot(name);
            b.start(&MatchStart {
                abi: arena_sdk::ABI_VERSION,
                mode: Mode::Tcg,
                seat: 0,
                seed: 5,
                rules: rules.clone(),
            });
            let deck = b.setup(&req).deck.expect("a deck is chosen");
            assert_eq!(req.pool.check(&deck), Ok(()), "{name}");
        }
    }
    // The planner swaps the document's duds for the cheapest real damage.
    let mut planner = Planner::default();
    let deck = planner.setup(&request(&Rules {
        custom_decks: true,
        ..Rules::default()
    }));
    let deck = deck.deck.unwrap();
    assert!(!deck.contains(&"dud".to_owned()));
    assert_eq!(deck.iter().filter(|id| *id == "spark").count(), 4);
    let off = SetupRequest {
        choose_deck: false,
        ..request(&Rules::default())
    };
    assert_eq!(Planner::default().setup(&off), DeckChoice::default());
}

fn card(uid: u32, card: arena_sdk::tcg::Card) -> CardInstance {
    CardInstance { uid, card }
}

fn observation(hand: Vec<CardInstance>, mana: i32, opp_health: i32) -> Observation {
    use arena_sdk::tcg::Hero;
    let hero = |health, mana| Hero {
        health,
        mana,
        mana_slots: mana,
        deck_size: 10,
        hand_size: 3,
    };
    let mut legal: Vec<Action> = hand
        .iter()
        .filter(|c| c.card.cost <= mana)
        .map(|c| Action::PlayCard {
            card: c.uid,
            play_as: PlayAs::Spell,
            target: Target::Hero,
        })
        .collect();
    legal.push(Action::EndTurn);
    Observation {
        turn: 9,
        turn_cap: 200,
        seat: 0,
        heroes: [hero(20, mana), hero(opp_health, 0)],
        hand,
        board: Vec::new(),
        legal,
        last_rejected: None,
    }
}

#[test]
fn planner_finds_lethal_that_greedy_misses() {
    use arena_sdk::tcg::Card;
    // 5 mana, 5 health to take: 3 + 2 kills, greedy's 4 first does not.
    let hand = vec![
        card(1, Card::damage("blast", 4, 4)),
        card(2, Card::damage("bolt", 3, 3)),
        card(3, Card::damage("zap", 2, 2)),
    ];
    let obs = observation(hand, 5, 5);
    let mut planner = Planner::default();
    let first = planner.act(&obs);
    assert!(
        matches!(first, Action::PlayCard { card: 2 | 3, .. }),
        "{first:?}"
    );
    assert!(matches!(
        Greedy::default().act(&obs),
        Action::PlayCard { card: 1, .. }
    ));
}

#[test]
fn planner_trades_with_a_threatening_minion() {
    use arena_sdk::tcg::{Card, Minion};
    let rules = Rules {
        minions: true,
        ..Rules::default()
    };
    let mut planner = Planner::with_rules(rules.clone());
    let mut obs = observation(vec![card(1, Card::damage("bolt", 3, 3))], 3, 30);
    obs.heroes[0].health = 8;
    obs.board = vec![
        Minion {
            id: 50,
            owner: 1,
            card: "meteor".into(),
            attack: 7,
            health: 3,
            asleep: false,
            can_attack: false,
        },
        Minion {
            id: 9,
            owner: 0,
            card: "zap".into(),
            attack: 2,
            health: 2,
            asleep: false,
            can_attack: true,
        },
    ];
    obs.legal = vec![
        Action::PlayCard {
            card: 1,
            play_as: PlayAs::Spell,
            target: Target::Hero,
        },
        Action::PlayCard {
            card: 1,
            play_as: PlayAs::Spell,
            target: Target::Minion(50),
        },
        Action::PlayCard {
            card: 1,
            play_as: PlayAs::Minion,
            target: Target::Hero,
        },
        Action::Attack {
            minion: 9,
            target: Target::Hero,
        },
        Action::Attack {
            minion: 9,
            target: Target::Minion(50),
        },
        Action::EndTurn,
    ];
    // The 7-attack minion would take 7 of our 8 health next turn, with their spells
    // on top: the bolt kills it (the zap alone would not).
    let action = planner.act(&obs);
    assert_eq!(
        action,
        Action::PlayCard {
            card: 1,
            play_as: PlayAs::Spell,
            target: Target::Minion(50)
        }
    );
}

#[test]
fn bots_only_answer_legal_actions() {
    let rules = Rules::advanced();
    for name in ["random", "greedy", "planner"] {
        let mut a = NativePlayer::new(bot(name));
        let mut b = NativePlayer::new(bot("planner"));
        let players: [&mut dyn Player<Tcg>; 2] = [&mut a, &mut b];
        let record = run_match(&MatchConfig::new(rules.clone(), 31), players);
        for seat in &record.outcome.seats {
            assert_eq!(seat.invalid_actions, 0, "{name}");
        }
    }
}

#[test]
fn best_subset_is_the_most_damage_the_mana_pays_for() {
    use arena_sdk::tcg::Card;
    // The kata's cards deal their cost in damage; duds (0/0) and heals deal none.
    let hand =
        |costs: &[i32]| -> Vec<Card> { costs.iter().map(|&c| Card::damage("x", c, c)).collect() };
    assert_eq!(best_subset(hand(&[1, 2, 3, 4]).iter(), 6), 6);
    assert_eq!(best_subset(hand(&[3, 3, 4]).iter(), 5), 4);
    assert_eq!(best_subset(hand(&[3, 3, 4]).iter(), 2), 0);
    assert_eq!(best_subset(hand(&[0, 0, 5, 8]).iter(), 10), 8);
    // A heal deals no damage however cheap.
    let mixed = [Card::heal("h", 0, 9), Card::damage("zap", 2, 2)];
    assert_eq!(best_subset(mixed.iter(), 10), 2);
    // Only the first 12 damage cards count (the search's bound).
    let many: Vec<Card> = (0..14)
        .map(|i| Card::damage("x", 1, 1 + i / 12 * 50))
        .collect();
    assert_eq!(best_subset(many.iter(), 20), 12);
    // The kata's hand of 1, 3, 4 and 4 with 6 mana: 1 + 4 is the most (no 6 exists).
    assert_eq!(best_subset(hand(&[1, 3, 4, 4]).iter(), 6), 5);
    assert_eq!(best_subset(hand(&[4, 4, 3, 1]).iter(), 7), 7);
    assert_eq!(best_subset(hand(&[2, 2, 2]).iter(), 5), 4);
    assert_eq!(best_subset(hand(&[5, 5]).iter(), 4), 0);
    assert_eq!(best_subset(hand(&[5, 5]).iter(), -1), 0);
    // The knapsack and the sums of costs (damage equal to cost: the document's cards)
    // answer what trying every subset does, on seeded random hands.
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(10);
    for round in 0..4000 {
        let n = rng.random_range(0..=14);
        let cards: Vec<Card> = (0..n)
            .map(|_| {
                let cost = rng.random_range(0..=10);
                let damage = if round % 2 == 0 {
                    cost
                } else {
                    rng.random_range(0..=10)
                };
                Card::damage("x", cost, damage)
            })
            .collect();
        let mana = rng.random_range(-2..=130);
        let pairs: Vec<(i32, i32)> = cards
            .iter()
            .filter(|c| c.damage > 0)
            .take(12)
            .map(|c| (c.cost, c.damage))
            .collect();
        assert_eq!(
            best_subset(cards.iter(), mana),
            best_subset_by_trying(&pairs, mana),
            "{pairs:?} with {mana} mana"
        );
    }
}
