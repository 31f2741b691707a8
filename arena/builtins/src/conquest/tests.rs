//! The built-ins of `conquest` play legal orders, and each beats the one below it.

use super::*;
use arena_engine::{MatchConfig, NativePlayer, run_match};
use arena_sdk::conquest::{DIRECTIONS, Rules, Terrain};

/// The shipped maps of the document's sizes (tournaments/maps/).
const MAPS: [(&str, &str); 4] = [
    (
        "default-7x7",
        include_str!("../../../../tournaments/maps/conquest-default-7x7.map"),
    ),
    (
        "small-5x5",
        include_str!("../../../../tournaments/maps/conquest-small-5x5.map"),
    ),
    (
        "wide-7x5",
        include_str!("../../../../tournaments/maps/conquest-wide-7x5.map"),
    ),
    (
        "lakes-7x7",
        include_str!("../../../../tournaments/maps/conquest-lakes-7x7.map"),
    ),
];

type Boxed = Box<dyn Bot<Conquest> + Send>;

fn play_on(map: &str, a: Boxed, b: Boxed, seed: u64) -> arena_engine::Outcome {
    let mut a = NativePlayer::new(a);
    let mut b = NativePlayer::new(b);
    let rules = Rules {
        map: map.to_owned(),
        ..Rules::default()
    };
    run_match(&MatchConfig::new(rules, seed), [&mut a, &mut b]).outcome
}

fn play(a: Boxed, b: Boxed, seed: u64) -> arena_engine::Outcome {
    play_on(&Rules::default().map, a, b, seed)
}

/// Wins and losses of `a` against `b` on the default map over `games` seeds, each played
/// from both seats.
fn wins(a: &str, b: &str, games: u64) -> (u32, u32) {
    wins_on(&Rules::default().map, a, b, games)
}

fn wins_on(map: &str, a: &str, b: &str, games: u64) -> (u32, u32) {
    let (mut won, mut lost) = (0, 0);
    for seed in 0..games {
        for swap in [false, true] {
            let (x, y) = (Conquest::create(a).unwrap(), Conquest::create(b).unwrap());
            let (outcome, me) = if swap {
                (play_on(map, y, x, seed), 1)
            } else {
                (play_on(map, x, y, seed), 0)
            };
            match outcome.winner {
                Some(w) if w == me => won += 1,
                Some(_) => lost += 1,
                None => {}
            }
        }
    }
    (won, lost)
}

#[test]
fn the_sensible_builtins_never_give_an_illegal_order() {
    for name in ["heuristic", "strong"] {
        for opponent in ["random", "heuristic", "strong"] {
            for seed in 0..3 {
                let outcome = play(
                    Conquest::create(name).unwrap(),
                    Conquest::create(opponent).unwrap(),
                    seed,
                );
                assert_eq!(
                    outcome.seats[0].invalid_actions, 0,
                    "{name} vs {opponent}: {}",
                    outcome.reason
                );
            }
        }
    }
}

#[test]
fn each_builtin_beats_the_one_below_it() {
    let (w, l) = wins("heuristic", "random", 10);
    assert!(w >= 18 && l == 0, "heuristic vs random: {w} won, {l} lost");
    let (w, l) = wins("strong", "heuristic", 10);
    assert!(w > l + 4, "strong vs heuristic: {w} won, {l} lost");
}

#[test]
fn strong_blocks_a_scout_running_at_its_home() {
    // Player 2's home is (5,5); an enemy scout at (5,3) would jump (5,4) -> (5,5).
    let mut board_obs = arena_sdk::conquest::Observation {
        year: 617,
        last_year: 716,
        seat: 1,
        width: 7,
        height: 7,
        homes: [Pos::new(1, 1), Pos::new(5, 5)],
        water: vec![],
        wood: vec![],
        food: vec![],
        gold: vec![],
        armies: vec![Army {
            id: 0,
            owner: 0,
            kind: Kind::Scout,
            pos: Pos::new(5, 3),
        }],
        resources: Resources::new(2, 2, 2),
        prices: arena_sdk::conquest::prices(),
        last_rejected: vec![],
    };
    let orders = Strong::default().act(&board_obs);
    assert!(
        orders.recruit.iter().any(|r| r.at == Pos::new(5, 4)),
        "{orders:?}"
    );
    // A knight two steps away meets a spearman on the tile it would step onto.
    board_obs.armies[0] = Army {
        id: 0,
        owner: 0,
        kind: Kind::Knight,
        pos: Pos::new(5, 3),
    };
    let orders = Strong::default().act(&board_obs);
    assert_eq!(
        orders.recruit[0],
        Recruit {
            kind: Kind::Spearman,
            at: Pos::new(5, 4)
        },
        "{orders:?}"
    );
}

/// Win rates of the built-ins against each other on each shipped map of the document's
/// sizes, seat-swapped, 200 games a pairing and map (docs/performance.md):
/// `cargo test -p arena-builtins conquest_win_rates -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check"]
fn conquest_win_rates() {
    let names = ["random", "heuristic", "strong"];
    for (i, a) in names.iter().enumerate() {
        for b in &names[i + 1..] {
            let mut total = (0, 0);
            for (map_name, map) in MAPS {
                let (w, l) = wins_on(map, b, a, 100);
                println!(
                    "{map_name}: {b} vs {a}: {w} won, {l} lost, {} drawn of 200",
                    200 - w - l
                );
                total = (total.0 + w, total.1 + l);
            }
            let drawn = 800 - total.0 - total.1;
            println!(
                "all maps: {b} vs {a}: {} won, {} lost, {drawn} drawn of 800",
                total.0, total.1
            );
        }
    }
}

/// The observation of seat 0's first turn on `map`.
fn first_observation(map: &str) -> Observation {
    let rules = Rules {
        map: map.to_owned(),
        max_frame: 9,
        ..Rules::default()
    };
    let setup = arena_engine::conquest::Setup::new(&rules).unwrap();
    arena_engine::conquest::State::new(&setup.initial()).observation(0, 617, 716, vec![])
}

/// The turn's field from `from`, tile by tile in reading order.
fn field_of(turn: &Turn, from: Pos) -> Vec<Option<u32>> {
    let field = turn.field(from);
    turn.board.positions().map(|p| field.get(p)).collect()
}

#[test]
fn turn_distances_are_the_boards_both_ways_and_out_of_water() {
    // `Turn::distance` reads the field of the destination; it must answer what a search
    // from the start does, for every pair of tiles, water included (a scout may end a
    // move in water, and its score still asks how far that is from its goal).
    let large = include_str!("../../../../tournaments/maps/conquest-large-9x9.map");
    let mut waters = 0;
    for map in MAPS.iter().map(|(_, m)| *m).chain([large]) {
        let turn = Turn::new(&first_observation(map));
        let tiles: Vec<Pos> = turn.board.positions().collect();
        for &from in &tiles {
            let field = turn.board.distances(from);
            assert_eq!(field_of(&turn, from), field);
            for &to in &tiles {
                let expected = field[turn.board.index(to).unwrap()];
                assert_eq!(turn.distance(from, to), expected, "{from} -> {to}");
                if turn.board.terrain(from) == Some(Terrain::Water) && expected.is_some() {
                    waters += 1;
                }
            }
        }
        assert_eq!(turn.distance(Pos::new(20, 0), Pos::new(0, 0)), None);
    }
    assert!(waters > 0, "the maps have water to start from");
}

#[test]
fn exposure_counts_what_can_reach_a_tile() {
    let mut obs = first_observation(MAPS[0].1);
    // An enemy knight at (3,3), enemy scouts at (5,1) and (3,5), a spearman of ours at
    // (1,2).
    obs.armies = vec![
        Army {
            id: 0,
            owner: 1,
            kind: Kind::Knight,
            pos: Pos::new(3, 3),
        },
        Army {
            id: 1,
            owner: 1,
            kind: Kind::Scout,
            pos: Pos::new(5, 1),
        },
        Army {
            id: 2,
            owner: 0,
            kind: Kind::Spearman,
            pos: Pos::new(1, 2),
        },
        Army {
            id: 3,
            owner: 1,
            kind: Kind::Scout,
            pos: Pos::new(3, 5),
        },
    ];
    obs.water.clear();
    let turn = Turn::new(&obs);
    let mut attackers = strong::Attackers::default();
    attackers.make(&turn);
    let exposure = |kind, x, y| attackers.exposure(kind, Pos::new(x, y));
    // Next to the knight an archer is defeated (2), a knight traded (1), a spearman safe.
    assert_eq!(exposure(Kind::Archer, 3, 2), 2);
    assert_eq!(exposure(Kind::Knight, 3, 4), 1);
    assert_eq!(exposure(Kind::Spearman, 2, 3), 0);
    // Two steps from the knight: out of its reach.
    assert_eq!(exposure(Kind::Archer, 3, 1), 0);
    // The scout reaches two tiles in a line but defeats nobody; another scout it trades.
    assert_eq!(exposure(Kind::Scout, 5, 3), 1);
    assert_eq!(exposure(Kind::Archer, 5, 3), 0);
    // Diagonal neighbours are out of reach: (4,2) touches the knight and the scout at
    // (5,1) only diagonally.
    assert_eq!(exposure(Kind::Scout, 4, 2), 0);
    // The scout at (3,5) cannot move onto its own knight's tile (3,3): a scout of ours that
    // stood there meets nobody.
    assert_eq!(exposure(Kind::Scout, 3, 3), 0);
}

#[test]
fn the_worst_of_a_set_of_kinds_is_the_fight_tables() {
    // By hand: a spearman is defeated by an archer (2) and traded by a spearman (1); a
    // knight and a scout cannot hurt it (0). A scout is defeated by all but a scout.
    let set = |kinds: &[Kind]| kinds.iter().map(|&k| 1 << k as u8).sum::<usize>();
    let worst = |kind: Kind, kinds: &[Kind]| strong::WORST[kind as usize][set(kinds)];
    assert_eq!(worst(Kind::Spearman, &[Kind::Knight, Kind::Scout]), 0);
    assert_eq!(worst(Kind::Spearman, &[Kind::Spearman, Kind::Knight]), 1);
    assert_eq!(worst(Kind::Spearman, &[Kind::Spearman, Kind::Archer]), 2);
    assert_eq!(worst(Kind::Knight, &[Kind::Spearman]), 2);
    assert_eq!(worst(Kind::Archer, &[Kind::Knight]), 2);
    assert_eq!(worst(Kind::Scout, &[Kind::Scout]), 1);
    assert_eq!(worst(Kind::Scout, &[Kind::Archer]), 2);
    assert_eq!(worst(Kind::Knight, &[]), 0);
    // And every entry is the worst fight of its set.
    for kind in Kind::ALL {
        for kinds in 0..16 {
            let expected = Kind::ALL
                .into_iter()
                .filter(|&e| kinds & (1 << e as u8) != 0)
                .map(|e| match fight(e, kind) {
                    Survivor::First => 2,
                    Survivor::Neither => 1,
                    Survivor::Second => 0,
                })
                .max()
                .unwrap_or(0);
            assert_eq!(
                strong::WORST[kind as usize][kinds],
                expected,
                "{kind:?} {kinds:04b}"
            );
        }
    }
}

/// [`strong::Attackers::exposure`] as a scan of every enemy army answers it: the move rules
/// asked for each army that could reach `p`.
fn exposure_by_scan(turn: &Turn, kind: Kind, p: Pos) -> i64 {
    let mut worst = 0;
    for e in turn.enemies_iter() {
        let d = e.pos.manhattan(p);
        if d > 2 || (d != 1 && turn.board.move_steps(e, p).is_err()) {
            continue;
        }
        worst = worst.max(match fight(e.kind, kind) {
            Survivor::First => 2,
            Survivor::Neither => 1,
            Survivor::Second => 0,
        });
    }
    worst
}

proptest::proptest! {
    /// The table answers what scanning the enemy armies answers, on every tile for every
    /// kind, also after orders defeated some of them.
    #[test]
    fn the_attackers_table_answers_like_a_scan_of_the_enemies(
        armies in proptest::collection::vec((0u8..2, 0usize..4, 0u8..7, 0u8..7), 0..14),
        map in 0usize..4,
    ) {
        let mut obs = first_observation(MAPS[map].1);
        obs.armies = armies
            .iter()
            .zip(0..)
            .map(|(&(owner, kind, x, y), id)| Army { id, owner, kind: Kind::ALL[kind], pos: Pos::new(x, y) })
            .filter(|a| a.pos.x < obs.width && a.pos.y < obs.height)
            .collect();
        let mut turn = Turn::new(&obs);
        let mut attackers = strong::Attackers::default();
        for round in 0..3 {
            attackers.refresh(&turn);
            if round == 0 {
                attackers.make(&turn);
            }
            for p in turn.board.positions().collect::<Vec<_>>() {
                for kind in Kind::ALL {
                    proptest::prop_assert_eq!(
                        attackers.exposure(kind, p),
                        exposure_by_scan(&turn, kind, p),
                        "{:?} on {:?}, round {}", kind, p, round
                    );
                }
            }
            // Defeat an enemy army if one of ours can: the table is remade.
            let fights: Vec<(Army, Pos)> = turn
                .board
                .armies()
                .iter()
                .filter(|a| a.owner == 0 && !turn.is_moved(a.id))
                .flat_map(|a| turn.board.destinations(a).into_iter().map(move |to| (*a, to)))
                .filter(|(a, to)| matches!(meets(&turn.board, a, *to), Some(Meeting::Win(_) | Meeting::Trade(_))))
                .collect();
            if let Some(&(army, to)) = fights.first() {
                let lost = turn.enemies_lost;
                proptest::prop_assert!(turn.order(&army, to));
                proptest::prop_assert_eq!(turn.enemies_lost, lost + 1);
            }
        }
    }
}

#[test]
fn a_renewed_turn_is_a_new_turn() {
    // A kept turn, planned on and renewed with each observation (the same map twice, then
    // another), answers what a fresh turn answers.
    let first = first_observation(MAPS[0].1);
    let mut later = first.clone();
    later.seat = 1;
    later.wood.pop();
    later.armies = vec![Army {
        id: 4,
        owner: 0,
        kind: Kind::Archer,
        pos: Pos::new(2, 1),
    }];
    let other = first_observation(MAPS[3].1);
    let mut kept = Turn::default();
    for obs in [&first, &later, &other, &first] {
        kept.renew(obs);
        let fresh = Turn::new(obs);
        assert_eq!(kept.board, fresh.board);
        assert_eq!(kept.resources(), fresh.resources());
        assert_eq!(
            (kept.seat, kept.stock, kept.won),
            (fresh.seat, fresh.stock, false)
        );
        assert_eq!(
            (kept.enemies_lost, kept.movable_count()),
            (0, fresh.movable_count())
        );
        assert!(kept.orders.moves.is_empty() && kept.orders.recruit.is_empty());
        for p in [Pos::new(0, 0), Pos::new(6, 6), Pos::new(3, 1)] {
            assert_eq!(
                kept.distance(p, obs.homes[1]),
                fresh.distance(p, obs.homes[1])
            );
        }
        // Plan something: recruit and move, as a turn does.
        let spot = kept.board.recruit_spots(kept.seat)[0];
        kept.recruit(Kind::Scout, spot);
        let army = kept.movable()[0];
        if let Some(to) = kept.board.destinations(&army).into_iter().next() {
            kept.order(&army, to);
        }
    }
}

#[test]
fn distance_fields_kept_between_turns_follow_the_map() {
    // Searches filled on the lakes map, handed to a turn on the default map (same size,
    // other water) and back: every answer is the new map's.
    let lakes = first_observation(MAPS[3].1);
    let default = first_observation(MAPS[0].1);
    assert_ne!(lakes.water, default.water);
    let mut memory = Memory::default();
    for obs in [&lakes, &default, &lakes, &default] {
        let turn = Turn::with_memory(obs, memory);
        for from in turn.board.positions() {
            assert_eq!(field_of(&turn, from), turn.board.distances(from));
        }
        memory = turn.finish().1;
    }
}

#[test]
fn a_turn_keeps_its_resource_list_as_orders_collect() {
    let mut obs = first_observation(MAPS[0].1);
    let (home, resource) = (
        obs.home(),
        *obs.wood.first().expect("the default map has wood"),
    );
    // A spearman of ours next to a wood tile, on a tile that is not water.
    let next_to = DIRECTIONS
        .iter()
        .filter_map(|&d| resource.offset(d, 1, obs.width, obs.height))
        .find(|p| {
            *p != home
                && !obs.water.contains(p)
                && !obs.food.contains(p)
                && !obs.gold.contains(p)
                && !obs.wood.contains(p)
        })
        .expect("a free tile next to the wood");
    obs.armies = vec![Army {
        id: 3,
        owner: 0,
        kind: Kind::Spearman,
        pos: next_to,
    }];
    let mut turn = Turn::new(&obs);
    assert_eq!(turn.resources(), &turn.board.resources()[..]);
    let before = turn.resources().len();
    assert!(turn.order(&obs.armies[0], resource));
    assert_eq!(turn.resources().len(), before - 1);
    assert_eq!(turn.resources(), &turn.board.resources()[..]);
    assert_eq!(
        turn.stock.wood,
        obs.resources.wood + arena_sdk::conquest::COLLECT_AMOUNT
    );
}

#[test]
fn a_quiet_step_is_ordered_as_the_board_plays_it() {
    // Turn::order steps onto a plain, empty tile next to the army without walking the
    // move: the planning board must end as `apply_move` leaves it, and the order be the
    // same.
    let mut obs = first_observation(MAPS[0].1);
    let free = |p: &Pos, obs: &Observation| {
        !obs.water.contains(p)
            && !obs.wood.contains(p)
            && !obs.food.contains(p)
            && !obs.gold.contains(p)
            && !obs.homes.contains(p)
    };
    let tiles: Vec<Pos> = Board::new(&obs).positions().collect();
    // A plain tile with plain tiles to its right and below it (the default map has one).
    let (at, right, below) = tiles
        .iter()
        .map(|&p| (p, Pos::new(p.x + 1, p.y), Pos::new(p.x, p.y + 1)))
        .find(|(p, r, b)| {
            r.x < obs.width && b.y < obs.height && [p, r, b].iter().all(|q| free(q, &obs))
        })
        .expect("three plain tiles in an L");
    let ours = Army {
        id: 7,
        owner: 0,
        kind: Kind::Knight,
        pos: at,
    };
    let theirs = Army {
        id: 8,
        owner: 1,
        kind: Kind::Archer,
        pos: below,
    };
    obs.armies = vec![theirs, ours];
    let mut turn = Turn::new(&obs);
    let mut played = turn.board.clone();
    assert!(turn.order(&ours, right));
    played.apply_move(&ours, right).unwrap();
    assert_eq!(turn.board, played);
    assert_eq!(
        turn.board.army_at(right),
        Some(&Army { pos: right, ..ours })
    );
    assert_eq!(turn.board.army_at(at), None);
    assert_eq!(
        turn.orders.moves,
        vec![Move {
            from: at,
            to: right
        }]
    );
    assert!(turn.is_moved(7));
    // Moved already: refused, the board unchanged.
    assert!(!turn.order(&ours, at));
    assert_eq!(turn.board, played);
    // A step onto an enemy army is a fight (the knight defeats the archer), not a quiet
    // step: the move is walked.
    let mut fight = Turn::new(&obs);
    assert!(fight.order(&ours, below));
    assert_eq!(fight.enemies_lost, 1);
    assert_eq!(fight.board.armies(), &[Army { pos: below, ..ours }]);
}
