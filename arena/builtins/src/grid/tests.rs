//! The starter strategies behave as in the original hero.js, and the commander beats them.

use super::*;
use crate::Builtins;
use arena_engine::{MatchConfig, NativePlayer, Player, run_match};
use arena_sdk::Seat;
use arena_sdk::grid::{Action, Board, Grid, Hero, Observation, Pos, SetupRequest};
use arena_sdk::grid::{Mine, Rules};
use arena_sdk::{Bot, Mode};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Play `games` seeded games of `a` against `b`, seats alternated; `a`'s wins, draws, losses.
fn record(a: &str, b: &str, games: u64, rules: &Rules, seed: u64) -> [u32; 3] {
    let mut tally = [0u32; 3];
    for game in 0..games {
        let a_seat: Seat = (game % 2) as u8;
        let mut bot_a = NativePlayer::new(Grid::create(a).expect("builtin exists"));
        let mut bot_b = NativePlayer::new(Grid::create(b).expect("builtin exists"));
        let players: [&mut dyn Player<Grid>; 2] = if a_seat == 0 {
            [&mut bot_a, &mut bot_b]
        } else {
            [&mut bot_b, &mut bot_a]
        };
        // Pairs of games share a seed, seats swapped.
        let config = MatchConfig::new(rules.clone(), seed + game / 2);
        let outcome = run_match::<Grid>(&config, players).outcome;
        match outcome.winner {
            Some(w) if w == a_seat => tally[0] += 1,
            None => tally[1] += 1,
            Some(_) => tally[2] += 1,
        }
    }
    tally
}

fn win_rate(tally: [u32; 3]) -> f64 {
    f64::from(tally[0]) / f64::from(tally.iter().sum::<u32>())
}

/// An observation of `heroes` on a board from `request`, hero 0 acting (also the
/// commander's tests').
pub(super) fn scene(heroes: &[(u8, u8, u32)], mines: Vec<Mine>) -> Observation {
    Observation {
        turn: 0,
        turn_limit: 100,
        team: 0,
        acting: 0,
        heroes: heroes
            .iter()
            .enumerate()
            .map(|(id, &(x, y, health))| Hero {
                id: id as u8,
                team: (id % 2) as u8,
                health,
                pos: Pos::new(x, y),
                dead: false,
            })
            .collect(),
        mines,
        graves: Vec::new(),
        diamonds: 0,
        enemy_diamonds: 0,
        last_rejected: None,
    }
}

/// A 6x6 board: well at (0,0), mines at (5,0) and (0,5).
fn request() -> SetupRequest {
    SetupRequest {
        width: 6,
        height: 6,
        walls: vec![],
        mines: vec![Pos::new(5, 0), Pos::new(0, 5)],
        wells: vec![Pos::new(0, 0)],
        heroes_per_team: 2,
        team: 0,
        turn_limit: 100,
    }
}

fn decide(strategy: Strategy, obs: &Observation) -> Action {
    let mut board = Board::new(&request());
    board.observe(obs);
    strategy.decide(&board, obs, &mut ChaCha8Rng::seed_from_u64(1))
}

#[test]
fn starters_follow_the_original_thresholds() {
    let unowned = vec![Mine::default(); 2];
    // A0 at (2,0): the well is west, mine 0 east, the enemy B1 south at (2,3).
    let at = |health| scene(&[(2, 0, health), (2, 3, 100)], unowned.clone());
    assert_eq!(decide(Strategy::Aggressor, &at(31)), Action::South);
    assert_eq!(decide(Strategy::Aggressor, &at(30)), Action::West);
    assert_eq!(decide(Strategy::UnwiseAssassin, &at(30)), Action::South);
    assert_eq!(decide(Strategy::UnwiseAssassin, &at(29)), Action::West);
    assert_eq!(decide(Strategy::HealthNut, &at(76)), Action::East);
    assert_eq!(decide(Strategy::HealthNut, &at(75)), Action::West);
    assert_eq!(decide(Strategy::Coward, &at(100)), Action::West);
    assert_eq!(decide(Strategy::Priest, &at(59)), Action::West);
    // No teammate alive but itself: the priest stays.
    assert_eq!(decide(Strategy::Priest, &at(60)), Action::Stay);
    // The careful assassin only hunts enemies weaker than itself.
    assert_eq!(decide(Strategy::CarefulAssassin, &at(100)), Action::Stay);
    let weak_enemy = scene(&[(2, 0, 90), (2, 3, 80)], unowned.clone());
    assert_eq!(
        decide(Strategy::CarefulAssassin, &weak_enemy),
        Action::South
    );
    assert_eq!(decide(Strategy::CarefulAssassin, &at(49)), Action::West);
}

#[test]
fn miners_heal_first_and_differ_on_teammates_mines() {
    // A0 at (4,1) below-left of mine 0 (5,0); teammate A2 owns mine 0; mine 1 is free.
    let owned_by_mate = vec![
        Mine {
            owner: Some(2),
            team: Some(0),
        },
        Mine::default(),
    ];
    let obs = scene(&[(4, 0, 100), (3, 5, 100), (2, 2, 100)], owned_by_mate);
    // Selfish: the teammate's mine next door (east). Safe: the free mine far south-west.
    assert_eq!(decide(Strategy::SelfishDiamondMiner, &obs), Action::East);
    assert_eq!(decide(Strategy::SafeDiamondMiner, &obs), Action::South);
    // Below 40: the well first.
    let mut low = obs.clone();
    low.heroes[0].health = 39;
    assert_eq!(decide(Strategy::SafeDiamondMiner, &low), Action::West);
    // Hurt and next to the well: drink.
    let by_well = scene(&[(1, 0, 90), (5, 5, 100)], vec![Mine::default(); 2]);
    assert_eq!(decide(Strategy::SafeDiamondMiner, &by_well), Action::West);
    let mut full = by_well.clone();
    full.heroes[0].health = 100;
    assert_eq!(decide(Strategy::SafeDiamondMiner, &full), Action::East);
}

#[test]
fn random_walker_always_walks() {
    let obs = scene(&[(2, 2, 100), (5, 5, 100)], vec![Mine::default(); 2]);
    let mut board = Board::new(&request());
    board.observe(&obs);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..100 {
        let action = Strategy::RandomWalker.decide(&board, &obs, &mut rng);
        assert_ne!(action, Action::Stay);
        seen.insert(format!("{action:?}"));
    }
    assert_eq!(seen.len(), 4);
}

#[test]
fn a_strategy_that_does_not_read_the_board_answers_alike_without_observing() {
    // The starter skips `Board::observe` for these: with a board that never saw the turn
    // (no heroes on it), each gives the same answers from the same rng as with one that did.
    let obs = scene(&[(2, 2, 100), (2, 4, 100)], vec![Mine::default(); 2]);
    let mut observed = Board::new(&request());
    observed.observe(&obs);
    let blind = Board::new(&request());
    for strategy in Strategy::ALL {
        let answers = |board: &Board| {
            let mut rng = ChaCha8Rng::seed_from_u64(3);
            (0..20)
                .map(|_| strategy.decide(board, &obs, &mut rng))
                .collect::<Vec<_>>()
        };
        if !strategy.reads_board() {
            assert_eq!(answers(&blind), answers(&observed), "{}", strategy.name());
        }
    }
    // The check can tell: the aggressor hunts the enemy only the observed board shows.
    assert!(Strategy::Aggressor.reads_board());
    let aggressor =
        |board: &Board| Strategy::Aggressor.decide(board, &obs, &mut ChaCha8Rng::seed_from_u64(3));
    assert_eq!(aggressor(&observed), Action::South);
    assert_ne!(aggressor(&blind), Action::South);
}

#[test]
fn northerner_always_answers_north_and_idle_answers_nothing() {
    // Whatever the health and the board, as the kit's samples: no threshold, no path finding.
    for health in [1, 30, 100] {
        let obs = scene(&[(2, 2, health), (2, 3, 100)], vec![Mine::default(); 2]);
        assert_eq!(decide(Strategy::Northerner, &obs), Action::North);
        assert_eq!(decide(Strategy::Idle, &obs), Action::Stay);
    }
    assert_eq!(
        Grid::create("northerner").map(|_| ()),
        Some(()),
        "listed and creatable"
    );
    assert_eq!(Grid::create("idle").map(|_| ()), Some(()));
}

#[test]
fn commander_finishes_off_a_weak_enemy_and_backs_off_when_losing() {
    let mut commander = Commander::default();
    commander.setup(&request());
    // B1 adjacent (east) with 20 health: the stab and adjacent damage kill it.
    let obs = scene(&[(2, 2, 100), (3, 2, 20)], vec![Mine::default(); 2]);
    let action = commander.act(&obs);
    assert!(matches!(action, Action::East | Action::Stay), "{action:?}");
    // With 30 health next to a full-health enemy, it backs off towards the well.
    let obs = scene(
        &[(2, 2, 30), (3, 2, 100), (5, 5, 100)],
        vec![Mine::default(); 2],
    );
    let action = commander.act(&obs);
    assert!(matches!(action, Action::North | Action::West), "{action:?}");
}

#[test]
fn every_builtin_is_listed_and_creatable() {
    for info in Grid::builtins() {
        assert_eq!(info.mode, Mode::Grid);
        assert!(Grid::create(info.name).is_some(), "{}", info.name);
    }
    assert_eq!(Grid::builtins().len(), 13);
    assert!(Grid::create("nobody").is_none());
}

#[test]
fn commander_beats_random_walker_in_90_percent_of_200_games() {
    let tally = record("commander", "random-walker", 200, &Rules::default(), 1_000);
    assert!(
        win_rate(tally) >= 0.9,
        "commander vs random-walker: {tally:?}"
    );
}

fn shipped_maps() -> [(&'static str, Rules); 3] {
    let with_map = |text: &str| Rules {
        map: text.to_owned(),
        ..Rules::default()
    };
    [
        ("default-12x12", Rules::default()),
        (
            "arena-8x8",
            with_map(include_str!("../../../../tournaments/maps/arena-8x8.map")),
        ),
        (
            "open-16x16",
            with_map(include_str!("../../../../tournaments/maps/open-16x16.map")),
        ),
    ]
}

#[test]
fn commander_beats_every_starter_strategy_on_every_shipped_map() {
    for (map, rules) in shipped_maps() {
        for strategy in Strategy::ALL {
            let tally = record("commander", strategy.name(), 30, &rules, 2_000);
            assert!(
                win_rate(tally) >= 0.6,
                "commander vs {} on {map}: {tally:?} (wins, draws, losses)",
                strategy.name()
            );
        }
    }
}

/// `cargo test -p arena-builtins --release -- --ignored --nocapture grid_win_rates`;
/// environment: `GRID_GAMES` (default 100), `GRID_BOT` (default commander), `GRID_MAP` and
/// `GRID_OPP` (substrings selecting maps and opponents).
#[test]
#[ignore = "measurement: prints win rates over many games"]
fn grid_win_rates() {
    let games: u64 = std::env::var("GRID_GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(100);
    let maps = shipped_maps();
    let only_map = std::env::var("GRID_MAP").unwrap_or_default();
    let only_opp = std::env::var("GRID_OPP").unwrap_or_default();
    let bot = std::env::var("GRID_BOT").unwrap_or_else(|_| "commander".to_owned());
    for (map, rules) in &maps {
        if !map.contains(&only_map) {
            continue;
        }
        for strategy in Strategy::ALL {
            if !strategy.name().contains(&only_opp) {
                continue;
            }
            let tally = record(&bot, strategy.name(), games, rules, 7_000);
            println!(
                "{map:<13} {bot} vs {:<22} W/D/L {:?}  {:.0}%",
                strategy.name(),
                tally,
                100.0 * win_rate(tally)
            );
        }
    }
}

#[test]
fn commander_never_walks_off_the_board() {
    // Stepping off the board is rejected by the rules; a strong strategy never needs it.
    for (map, rules) in shipped_maps() {
        for seed in 0..6u64 {
            let mut commander = NativePlayer::new(Grid::create("commander").unwrap());
            let mut aggressor = NativePlayer::new(Grid::create("aggressor").unwrap());
            let players: [&mut dyn Player<Grid>; 2] = [&mut commander, &mut aggressor];
            let outcome =
                run_match::<Grid>(&MatchConfig::new(rules.clone(), seed), players).outcome;
            assert_eq!(outcome.seats[0].invalid_actions, 0, "{map}, seed {seed}");
        }
    }
}

#[test]
fn random_takes_only_legal_answers_and_every_one_of_them() {
    let mut bot = Random::default();
    let setup = request();
    bot.setup(&setup);
    let obs = scene(&[(0, 0, 100), (5, 5, 100)], vec![Mine::default(); 2]);
    assert_eq!(obs.me().pos, Pos::new(0, 0));
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..200 {
        seen.insert(format!("{:?}", bot.act(&obs)));
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        ["East", "South", "Stay"]
    );
    // Whole games: never a rejected answer.
    let mut random = NativePlayer::new(Grid::create("random").expect("listed"));
    let mut other = NativePlayer::new(Grid::create("coward").expect("listed"));
    let outcome = run_match::<Grid>(
        &MatchConfig::new(Rules::default(), 3),
        [&mut random, &mut other],
    )
    .outcome;
    assert_eq!(outcome.seats[0].invalid_actions, 0, "{outcome:?}");
}
