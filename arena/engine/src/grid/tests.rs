//! Rules of `grid` with the document's numbers, map parsing, placement, replays and
//! property tests.

use super::*;
use crate::Ruleset;
use crate::replay::verify;
use crate::{MatchConfig, NativePlayer, Player, run_match};
use arena_sdk::grid::{
    Action, Direction, Grid, HeroId, MAX_HEALTH, Mine, MineId, Observation, Pos, Rules,
    SetupRequest, Terrain,
};
use arena_sdk::grid::{DEFAULT_MAP, SetupChoice};
use arena_sdk::{Bot, MatchStart};
use proptest::prelude::*;
use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A state on the map `rows` (format rows only) with heroes at `at` (by id: even ids team
/// A, odd ids team B).
fn state(rows: &[&str], at: &[(u8, u8)]) -> State {
    let text = format!(
        "size {} {}\n{}\n",
        rows[0].len(),
        rows.len(),
        rows.join("\n")
    );
    let map = parse_map(&text).expect("test map parses");
    let positions: Vec<Pos> = at.iter().map(|&(x, y)| Pos::new(x, y)).collect();
    State::new(&map, &positions, 100)
}

fn act(state: &mut State, hero: HeroId, action: Action) -> (Vec<Event>, Option<String>) {
    let mut events = Vec::new();
    let rejected = state.resolve(hero, action, &mut events);
    (events, rejected)
}

fn health(state: &State, hero: HeroId) -> u32 {
    state.heroes()[usize::from(hero)].health
}

const OPEN: [&str; 4] = ["....", "....", "....", "...."];

#[test]
fn capturing_a_mine_costs_20_health_and_the_hero_stays() {
    let mut s = state(&[".M..", "....", "....", "...."], &[(0, 0), (3, 3)]);
    let (events, rejected) = act(&mut s, 0, Action::East);
    assert_eq!(rejected, None);
    assert_eq!(
        events,
        vec![Event::MineCaptured {
            hero: 0,
            mine: 0,
            from: None,
            damage: 20,
            health: 80
        }]
    );
    assert_eq!(s.heroes()[0].pos, Pos::new(0, 0));
    assert_eq!(
        s.mines()[0],
        Mine {
            owner: Some(0),
            team: Some(0)
        }
    );
    assert_eq!(s.tally()[0].mines_captured, 1);
    // Walking into one's own mine again does nothing and costs nothing.
    let (events, _) = act(&mut s, 0, Action::East);
    assert_eq!(events, vec![Event::MineAlreadyOwned { hero: 0, mine: 0 }]);
    assert_eq!(health(&s, 0), 80);
}

#[test]
fn mines_are_captured_from_anyone_including_teammates() {
    // A0 owns the mine; teammate A2 takes it, then enemy B1 takes it from A2.
    let mut s = state(&[".M..", "..M.", "....", "...."], &[(0, 0), (1, 1), (2, 0)]);
    s.set_mine_owner(0, 0);
    let (events, _) = act(&mut s, 2, Action::West);
    assert_eq!(
        events,
        vec![Event::MineCaptured {
            hero: 2,
            mine: 0,
            from: Some(0),
            damage: 20,
            health: 80
        }]
    );
    assert_eq!(s.mines()[0].owner, Some(2));
    let mut earned = Vec::new();
    s.start_turn(0, &mut earned);
    assert!(earned.is_empty(), "A0 no longer owns a mine: {earned:?}");
    s.start_turn(2, &mut earned);
    assert_eq!(
        earned,
        vec![Event::DiamondsEarned {
            hero: 2,
            amount: 1,
            team_total: 1
        }]
    );
    let (events, _) = act(&mut s, 1, Action::North);
    assert!(matches!(
        events[0],
        Event::MineCaptured {
            hero: 1,
            from: Some(2),
            ..
        }
    ));
    assert_eq!(
        s.mines()[0],
        Mine {
            owner: Some(1),
            team: Some(1)
        }
    );
    assert_eq!(s.tally()[0].mines_captured, 1);
    assert_eq!(s.tally()[1].mines_captured, 1);
}

#[test]
fn the_mine_guardians_can_kill_and_the_mine_keeps_its_owner() {
    let mut s = state(&[".M..", "....", "....", "...."], &[(0, 0), (3, 3), (2, 0)]);
    s.set_mine_owner(0, 2);
    s.set_health(0, 20);
    let (events, _) = act(&mut s, 0, Action::East);
    assert_eq!(
        events,
        vec![
            Event::MineCaptureFailed {
                hero: 0,
                mine: 0,
                damage: 20
            },
            Event::Death {
                hero: 0,
                killer: None,
                at: Pos::new(0, 0)
            },
        ]
    );
    assert_eq!(s.mines()[0].owner, Some(2));
    assert_eq!(s.tally()[0].deaths, 1);
    assert_eq!(s.tally()[1].kills, 0);
    assert_eq!(s.graves(), &[Pos::new(0, 0)]);
}

#[test]
fn a_well_heals_30_capped_at_100() {
    let mut s = state(&["W...", "....", "....", "...."], &[(1, 0), (3, 3)]);
    s.set_health(0, 50);
    let (events, _) = act(&mut s, 0, Action::West);
    assert_eq!(
        events,
        vec![Event::WellDrink {
            hero: 0,
            amount: 30,
            health: 80
        }]
    );
    assert_eq!(s.heroes()[0].pos, Pos::new(1, 0), "drinking does not move");
    let (events, _) = act(&mut s, 0, Action::West);
    assert_eq!(
        events,
        vec![Event::WellDrink {
            hero: 0,
            amount: 20,
            health: 100
        }]
    );
    assert_eq!(s.tally()[0].health_recovered, 50);
}

#[test]
fn walking_into_an_enemy_stabs_10_then_adjacent_damage_adds_20() {
    let mut s = state(&OPEN, &[(0, 0), (1, 0)]);
    let (events, _) = act(&mut s, 0, Action::East);
    assert_eq!(
        events,
        vec![
            Event::Stab {
                hero: 0,
                target: 1,
                damage: 10,
                health: 90
            },
            Event::AdjacentDamage {
                hero: 0,
                target: 1,
                damage: 20,
                health: 70
            },
        ]
    );
    assert_eq!(s.heroes()[0].pos, Pos::new(0, 0));
    assert_eq!(s.tally()[0].damage_dealt, 30);
    assert_eq!(s.hero_tally()[0].damage_dealt, 30);
    assert_eq!(s.stats()[0]["hero0_damage_dealt"], 30);
}

#[test]
fn walking_into_a_friend_heals_40_capped_at_100() {
    let mut s = state(&OPEN, &[(0, 0), (3, 3), (1, 0)]);
    s.set_health(2, 20);
    let (events, _) = act(&mut s, 0, Action::East);
    assert_eq!(
        events,
        vec![Event::HealFriend {
            hero: 0,
            target: 2,
            amount: 40,
            health: 60
        }]
    );
    s.set_health(2, 70);
    let (events, _) = act(&mut s, 0, Action::East);
    assert_eq!(
        events,
        vec![Event::HealFriend {
            hero: 0,
            target: 2,
            amount: 30,
            health: 100
        }]
    );
    assert_eq!(s.tally()[0].health_given, 70);
    assert_eq!(s.tally()[0].health_recovered, 70);
    // Per hero: the giver gave it, the friend recovered it (the seed's per-hero statistics).
    let heroes = s.hero_tally();
    assert_eq!(
        (heroes[0].health_given, heroes[0].health_recovered),
        (70, 0)
    );
    assert_eq!(
        (heroes[2].health_given, heroes[2].health_recovered),
        (0, 70)
    );
    let stats = s.stats();
    assert_eq!(stats[0]["health_given"], 70);
    assert_eq!(stats[0]["hero0_health_given"], 70);
    assert_eq!(
        stats[0]["hero1_health_recovered"], 70,
        "hero id 2 is team 0's second"
    );
    assert_eq!(stats[1]["hero0_health_recovered"], 0);
    assert_eq!(stats[0].len(), 8 * 3, "team totals and two heroes");
}

#[test]
fn adjacent_damage_hits_every_adjacent_enemy_and_no_friend() {
    // A0 in the middle; enemies north, east and south; a friend west; an enemy diagonal.
    let mut s = state(
        &OPEN,
        &[
            (1, 1),
            (1, 0),
            (0, 1),
            (2, 1),
            (3, 3),
            (1, 2),
            (3, 2),
            (2, 2),
        ],
    );
    let (events, _) = act(&mut s, 0, Action::Stay);
    let hits: Vec<(HeroId, u32)> = events
        .iter()
        .filter_map(|e| match e {
            Event::AdjacentDamage { target, damage, .. } => Some((*target, *damage)),
            _ => None,
        })
        .collect();
    // North, east, south in that order; B7 at (2,2) is diagonal.
    assert_eq!(hits, vec![(1, 20), (3, 20), (5, 20)]);
    assert_eq!(health(&s, 2), 100);
    assert_eq!(health(&s, 7), 100);
    assert_eq!(s.tally()[0].damage_dealt, 60);
}

#[test]
fn death_leaves_a_grave_credits_the_killer_and_robbing_it_counts() {
    let mut s = state(&OPEN, &[(0, 0), (2, 0), (0, 3)]);
    s.set_health(1, 20);
    // A0 steps next to B1: adjacent damage 20 kills it.
    let (events, _) = act(&mut s, 0, Action::East);
    assert_eq!(
        events,
        vec![
            Event::Moved {
                hero: 0,
                from: Pos::new(0, 0),
                to: Pos::new(1, 0)
            },
            Event::AdjacentDamage {
                hero: 0,
                target: 1,
                damage: 20,
                health: 0
            },
            Event::Death {
                hero: 1,
                killer: Some(0),
                at: Pos::new(2, 0)
            },
        ]
    );
    assert!(s.heroes()[1].dead);
    assert_eq!(s.graves(), &[Pos::new(2, 0)]);
    assert_eq!((s.tally()[0].kills, s.tally()[1].deaths), (1, 1));
    // The grave is walkable; walking onto it robs it.
    let (events, _) = act(&mut s, 0, Action::East);
    assert_eq!(
        events[1],
        Event::GraveRobbed {
            hero: 0,
            at: Pos::new(2, 0),
            grave_of: 1
        }
    );
    assert!(s.graves().is_empty());
    assert_eq!(s.tally()[0].graves_robbed, 1);
    // Leaving the tile leaves nothing behind.
    let (events, _) = act(&mut s, 0, Action::East);
    assert_eq!(events.len(), 1);
}

#[test]
fn a_fatal_stab_kills_with_credit() {
    let mut s = state(&OPEN, &[(0, 0), (1, 0)]);
    s.set_health(1, 10);
    let (events, _) = act(&mut s, 0, Action::East);
    assert_eq!(
        events,
        vec![
            Event::Stab {
                hero: 0,
                target: 1,
                damage: 10,
                health: 0
            },
            Event::Death {
                hero: 1,
                killer: Some(0),
                at: Pos::new(1, 0)
            },
        ]
    );
    assert_eq!(
        s.tally()[0].damage_dealt,
        10,
        "no adjacent damage to a grave"
    );
}

#[test]
fn a_hero_earns_one_diamond_per_owned_mine_at_the_start_of_its_turn() {
    let mut s = state(&["MMM.", "....", "....", "...M"], &[(0, 1), (3, 2)]);
    for mine in 0..3 {
        s.set_mine_owner(mine, 0);
    }
    s.set_mine_owner(3, 1);
    let mut events = Vec::new();
    s.start_turn(0, &mut events);
    s.start_turn(0, &mut events);
    s.start_turn(1, &mut events);
    assert_eq!(
        events,
        vec![
            Event::DiamondsEarned {
                hero: 0,
                amount: 3,
                team_total: 3
            },
            Event::DiamondsEarned {
                hero: 0,
                amount: 3,
                team_total: 6
            },
            Event::DiamondsEarned {
                hero: 1,
                amount: 1,
                team_total: 1
            },
        ]
    );
    assert_eq!(s.diamonds(), [6, 1]);
    assert_eq!(s.tally()[0].diamonds_earned, 6);
}

#[test]
fn dead_owners_earn_nothing_but_keep_their_mines() {
    let mut s = state(&["M...", "....", "....", "...."], &[(0, 1), (1, 1), (3, 3)]);
    s.set_mine_owner(0, 0);
    s.set_health(0, 20);
    // B1 stays next to A0: 20 damage kills it.
    act(&mut s, 1, Action::Stay);
    assert!(s.heroes()[0].dead);
    assert_eq!(s.mines()[0].owner, Some(0));
    assert_eq!(s.next_living(0), Some(1), "dead heroes are skipped");
}

#[test]
fn a_move_off_the_board_is_rejected_but_adjacent_damage_still_happens() {
    let mut s = state(&OPEN, &[(0, 0), (1, 0)]);
    let (events, rejected) = act(&mut s, 0, Action::North);
    assert!(rejected.unwrap().contains("off the 4x4 board"));
    assert_eq!(
        events,
        vec![
            Event::Blocked {
                hero: 0,
                direction: Direction::North,
                by: Blocker::OffBoard
            },
            Event::AdjacentDamage {
                hero: 0,
                target: 1,
                damage: 20,
                health: 80
            },
        ]
    );
    assert_eq!(s.heroes()[0].pos, Pos::new(0, 0));
}

#[test]
fn walking_into_a_wall_is_no_move_but_not_rejected() {
    let mut s = state(&[".#..", "....", "....", "...."], &[(0, 0), (0, 1)]);
    let (events, rejected) = act(&mut s, 0, Action::East);
    assert_eq!(rejected, None);
    assert_eq!(events.len(), 2);
    assert_eq!(
        events[0],
        Event::Blocked {
            hero: 0,
            direction: Direction::East,
            by: Blocker::Wall
        }
    );
    assert!(matches!(
        events[1],
        Event::AdjacentDamage {
            target: 1,
            damage: 20,
            ..
        }
    ));
}

#[test]
fn health_never_goes_below_zero_and_damage_counts_only_what_was_taken() {
    let mut s = state(&OPEN, &[(0, 0), (1, 0)]);
    s.set_health(1, 5);
    act(&mut s, 0, Action::Stay);
    assert_eq!(health(&s, 1), 0);
    assert_eq!(s.tally()[0].damage_dealt, 5);
}

#[test]
fn the_game_ends_at_the_limit_and_a_diamond_tie_is_a_draw() {
    let s = state(&OPEN, &[(0, 0), (3, 3)]);
    assert_eq!(s.game_over(99), None);
    let (winner, reason) = s.game_over(100).unwrap();
    assert_eq!(winner, None);
    assert!(reason.contains("tied"), "{reason}");
    let mut s = state(&["M...", "....", "....", "...."], &[(0, 1), (3, 3)]);
    s.set_mine_owner(0, 1);
    s.start_turn(1, &mut Vec::new());
    assert_eq!(s.game_over(100).unwrap().0, Some(1));
}

#[test]
fn eliminating_a_team_wins_at_once() {
    let mut s = state(&OPEN, &[(0, 0), (1, 0)]);
    s.set_health(1, 20);
    act(&mut s, 0, Action::Stay);
    assert_eq!(
        s.game_over(3),
        Some((Some(0), "team 1 eliminated".to_owned()))
    );
}

// ---- maps ----

fn map_error(text: &str) -> (usize, usize, MapErrorKind) {
    let e = parse_map(text).unwrap_err();
    (e.line, e.column, e.kind)
}

#[test]
fn maps_parse_with_comments_and_blank_lines() {
    let map = parse_map("; hello\n\nsize 4 4 ; trailing\n.M..\n#W..\n\n..a.\n...b\n").unwrap();
    assert_eq!((map.width, map.height), (4, 4));
    assert_eq!(map.terrain_at(Pos::new(1, 0)), Terrain::Mine(0));
    assert_eq!(map.terrain_at(Pos::new(0, 1)), Terrain::Wall);
    assert_eq!(map.terrain_at(Pos::new(1, 1)), Terrain::Well);
    assert_eq!(map.terrain_at(Pos::new(2, 2)), Terrain::Empty);
    assert_eq!(map.spawns, [vec![Pos::new(2, 2)], vec![Pos::new(3, 3)]]);
}

#[test]
fn map_errors_say_line_and_column() {
    assert_eq!(map_error("; nothing\n"), (1, 1, MapErrorKind::MissingSize));
    assert_eq!(
        map_error("  siz 4 4\n"),
        (1, 3, MapErrorKind::BadSize("siz 4 4".to_owned()))
    );
    assert_eq!(
        map_error("size 4\n"),
        (1, 1, MapErrorKind::BadSize("size 4".to_owned()))
    );
    assert_eq!(
        map_error("size 3 40\n"),
        (
            1,
            6,
            MapErrorKind::SizeOutOfRange {
                width: 3,
                height: 40
            }
        )
    );
    assert_eq!(
        map_error("size 33 4\n"),
        (
            1,
            6,
            MapErrorKind::SizeOutOfRange {
                width: 33,
                height: 4
            }
        )
    );
    assert_eq!(
        map_error("size 4 4\n....\n..x.\n"),
        (3, 3, MapErrorKind::UnknownTile('x'))
    );
    assert_eq!(
        map_error("size 4 4\n....\n.....\n"),
        (
            3,
            5,
            MapErrorKind::RowLength {
                expected: 4,
                found: 5
            }
        )
    );
    assert_eq!(
        map_error("size 4 4\n....\n...\n"),
        (
            3,
            4,
            MapErrorKind::RowLength {
                expected: 4,
                found: 3
            }
        )
    );
    assert_eq!(
        map_error("size 4 4\n....\n....\n....\n....\n ....\n"),
        (6, 2, MapErrorKind::TooManyRows { expected: 4 })
    );
    assert_eq!(
        map_error("size 4 4\n....\n....\n"),
        (
            4,
            1,
            MapErrorKind::TooFewRows {
                expected: 4,
                found: 2
            }
        )
    );
    assert_eq!(
        map_error("size 4 4\na.a.\n....\n....\n...b\n"),
        (
            2,
            3,
            MapErrorKind::SpawnCountMismatch {
                more_team: 'a',
                fewer_team: 'b',
                more: 2,
                fewer: 1
            }
        )
    );
    let message = parse_map("size 4 4\n....\n..?.\n").unwrap_err().to_string();
    assert_eq!(
        message,
        "line 3, column 3: unknown tile `?` (tiles are . # M W a b)"
    );
}

const SHIPPED_MAPS: [(&str, &str); 3] = [
    (
        "default-12x12.map",
        include_str!("../../../../tournaments/maps/default-12x12.map"),
    ),
    (
        "arena-8x8.map",
        include_str!("../../../../tournaments/maps/arena-8x8.map"),
    ),
    (
        "open-16x16.map",
        include_str!("../../../../tournaments/maps/open-16x16.map"),
    ),
];

#[test]
fn shipped_maps_are_valid_and_point_symmetric() {
    assert_eq!(
        SHIPPED_MAPS[0].1, DEFAULT_MAP,
        "the default map file matches the SDK's"
    );
    for (name, text) in SHIPPED_MAPS {
        let map = parse_map(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(map.is_point_symmetric(), "{name} is not point-symmetric");
        let rules = Rules {
            map: text.to_owned(),
            ..Rules::default()
        };
        assert_eq!(Grid::validate(&rules), Ok(()), "{name}");
    }
}

#[test]
fn validate_explains_bad_rules() {
    let bad_map = Rules {
        map: "size 4 4\n....\n".to_owned(),
        ..Rules::default()
    };
    assert_eq!(
        Grid::validate(&bad_map),
        Err("map: line 3, column 1: the map has 1 rows, `size` says 4".to_owned())
    );
    let crowded = Rules {
        map: "size 4 4\n....\n####\n####\n....\n".to_owned(),
        heroes_per_team: 5,
        ..Rules::default()
    };
    assert!(
        Grid::validate(&crowded)
            .unwrap_err()
            .contains("room for only 4")
    );
    let spawns = Rules {
        map: "size 4 4\na...\n....\n....\n...b\n".to_owned(),
        heroes_per_team: 2,
        ..Rules::default()
    };
    assert!(
        Grid::validate(&spawns)
            .unwrap_err()
            .contains("1 spawn tiles a team")
    );
    let zero = Rules {
        turn_limit: 0,
        ..Rules::default()
    };
    assert!(Grid::validate(&zero).unwrap_err().contains("turn_limit"));
}

#[test]
fn random_placement_is_point_symmetric_and_seeded() {
    let map = parse_map(DEFAULT_MAP).unwrap();
    for seed in 0..50 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let placed = map.placements(5, &mut rng).unwrap();
        assert_eq!(placed.len(), 10);
        for pair in placed.chunks(2) {
            assert_eq!(pair[1], map.mirror(pair[0]), "seed {seed}");
            assert_eq!(map.terrain_at(pair[0]), Terrain::Empty);
        }
        let mut distinct = placed.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 10, "seed {seed}: heroes share a tile");
        let mut again = ChaCha8Rng::seed_from_u64(seed);
        assert_eq!(map.placements(5, &mut again).unwrap(), placed);
    }
}

#[test]
fn spawn_placement_pairs_mirrored_spawns() {
    let map = parse_map(SHIPPED_MAPS[1].1).unwrap();
    let placed = map
        .placements(5, &mut ChaCha8Rng::seed_from_u64(0))
        .unwrap();
    for pair in placed.chunks(2) {
        assert_eq!(pair[1], map.mirror(pair[0]));
    }
    assert_eq!(placed[0], Pos::new(0, 0));
    assert_eq!(placed[1], Pos::new(7, 7));
}

// ---- whole matches ----

/// Answers a random action (any of the five) from its match seed.
#[derive(Debug)]
struct Random {
    rng: ChaCha8Rng,
}

impl Default for Random {
    fn default() -> Self {
        Random {
            rng: ChaCha8Rng::seed_from_u64(0),
        }
    }
}

impl Bot<Grid> for Random {
    fn start(&mut self, start: &MatchStart<Grid>) {
        self.rng = ChaCha8Rng::seed_from_u64(start.seed);
    }
    fn setup(&mut self, _: &SetupRequest) -> SetupChoice {
        SetupChoice {}
    }
    fn act(&mut self, _: &Observation) -> Action {
        Action::ALL[self.rng.random_range(0..5)]
    }
}

/// Walks every hero towards the nearest enemy (a quick fighter for whole-match tests).
#[derive(Debug, Default)]
struct Hunter {
    board: Option<arena_sdk::grid::Board>,
}

impl Bot<Grid> for Hunter {
    fn setup(&mut self, request: &SetupRequest) -> SetupChoice {
        self.board = Some(arena_sdk::grid::Board::new(request));
        SetupChoice {}
    }
    fn act(&mut self, observation: &Observation) -> Action {
        let Some(board) = self.board.as_mut() else {
            return Action::Stay;
        };
        board.observe(observation);
        let me = observation.me();
        board
            .nearest_enemy(me.pos, me.team)
            .map(|s| s.first_step)
            .into()
    }
}

fn play(
    rules: &Rules,
    seed: u64,
    a: &mut dyn Player<Grid>,
    b: &mut dyn Player<Grid>,
) -> crate::MatchRecord<Grid> {
    run_match::<Grid>(&MatchConfig::new(rules.clone(), seed), [a, b])
}

#[test]
fn idle_teams_draw_at_the_turn_limit_and_turns_alternate() {
    #[derive(Default)]
    struct Idle;
    impl Bot<Grid> for Idle {
        fn setup(&mut self, _: &SetupRequest) -> SetupChoice {
            SetupChoice {}
        }
        fn act(&mut self, _: &Observation) -> Action {
            Action::Stay
        }
    }
    let rules = Rules {
        turn_limit: 40,
        ..Rules::default()
    };
    let record = play(
        &rules,
        3,
        &mut NativePlayer::new(Idle),
        &mut NativePlayer::new(Idle),
    );
    assert_eq!(record.outcome.winner, None);
    assert!(record.outcome.reason.contains("tied (0 to 0)"));
    let turns: Vec<(u32, HeroId)> = record
        .replay
        .events()
        .filter_map(|e| match e {
            Event::HeroTurn { turn, hero } => Some((*turn, *hero)),
            _ => None,
        })
        .collect();
    assert_eq!(turns.len(), 40);
    for (k, (turn, hero)) in turns.iter().enumerate() {
        assert_eq!(*turn as usize, k);
        assert_eq!(
            usize::from(*hero),
            k % 10,
            "heroes act in id order, teams alternating"
        );
    }
    for seat in &record.outcome.seats {
        let keys: Vec<&str> = seat.stats.keys().map(String::as_str).collect();
        // The team totals, then each of the five heroes' own.
        let mut expected: Vec<String> = STAT_KEYS.iter().map(|&k| k.to_owned()).collect();
        for hero in 0..5 {
            expected.extend(STAT_KEYS.iter().map(|k| format!("hero{hero}_{k}")));
        }
        expected.sort_unstable();
        assert_eq!(keys, expected);
    }
}

#[test]
fn dead_heroes_are_skipped_without_using_up_turns() {
    let rules = Rules {
        turn_limit: 1250,
        ..Rules::default()
    };
    let record = play(
        &rules,
        11,
        &mut NativePlayer::new(Hunter::default()),
        &mut NativePlayer::new(Random::default()),
    );
    let mut dead = std::collections::BTreeSet::new();
    let mut turns = 0u32;
    for event in record.replay.events() {
        match event {
            Event::Death { hero, .. } => {
                dead.insert(*hero);
            }
            Event::HeroTurn { turn, hero } => {
                assert!(!dead.contains(hero), "dead hero {hero} got turn {turn}");
                assert_eq!(*turn, turns, "turn numbers count living heroes' turns only");
                turns += 1;
            }
            _ => {}
        }
    }
    assert!(!dead.is_empty(), "the hunters should kill someone");
}

#[test]
fn replays_verify_and_are_byte_identical_for_a_seed() {
    let rules = Rules {
        turn_limit: 300,
        ..Rules::default()
    };
    let run = || {
        play(
            &rules,
            99,
            &mut NativePlayer::new(Hunter::default()),
            &mut NativePlayer::new(Random::default()),
        )
    };
    let first = run();
    verify(&first.replay).expect("replay verifies");
    let a = serde_json::to_string(&first.replay).unwrap();
    let b = serde_json::to_string(&run().replay).unwrap();
    assert_eq!(a, b);
    // Rejected moves off the board were recorded and told to the bot.
    assert!(first.outcome.seats[1].invalid_actions > 0);
}

#[test]
fn picture_shows_heroes_mines_wells_walls_and_graves() {
    let rules = Rules {
        map: SHIPPED_MAPS[1].1.to_owned(),
        turn_limit: 400,
        ..Rules::default()
    };
    let record = play(
        &rules,
        5,
        &mut NativePlayer::new(Hunter::default()),
        &mut NativePlayer::new(Hunter::default()),
    );
    let initial = record.replay.initial.clone().unwrap();
    let start = Grid::picture(&initial, &[]).unwrap();
    assert!(start.contains(" A100"), "{start}");
    assert!(start.contains(" B100"), "{start}");
    assert!(start.contains(" ### ") && start.contains("  W  ") && start.contains("  M  "));
    let events: Vec<Event> = record.replay.events().cloned().collect();
    let end = Grid::picture(&initial, &events).unwrap();
    if events.iter().any(|e| matches!(e, Event::Death { .. })) {
        assert!(end.contains("dead at"), "{end}");
    }
    for event in &events {
        assert!(!Grid::describe(event).is_empty());
    }
}

#[test]
fn the_setup_request_describes_the_static_board() {
    let map = parse_map(DEFAULT_MAP).unwrap();
    let s = State::new(&map, &[Pos::new(0, 0), Pos::new(11, 11)], 1250);
    let request = s.setup_request(1, 1);
    assert_eq!((request.width, request.height, request.team), (12, 12, 1));
    assert_eq!(request.mines.len(), 8);
    assert_eq!(request.wells.len(), 4);
    assert_eq!(request.walls.len(), 8);
    for (id, p) in request.mines.iter().enumerate() {
        assert_eq!(map.terrain_at(*p), Terrain::Mine(id as MineId));
    }
}

/// Folds a match's events and checks the invariants: health within 0..=100, team diamonds
/// never shrink, the last event ends the game, the turn count stays within the limit.
fn check_invariants(record: &crate::MatchRecord<Grid>, limit: u32) -> Result<(), TestCaseError> {
    let mut diamonds = [0u32; 2];
    let mut last = None;
    let mut hero_turns = 0;
    for event in record.replay.events() {
        match event {
            Event::MineCaptured { health, .. }
            | Event::WellDrink { health, .. }
            | Event::Stab { health, .. }
            | Event::HealFriend { health, .. }
            | Event::AdjacentDamage { health, .. } => {
                prop_assert!(*health <= MAX_HEALTH);
            }
            Event::DiamondsEarned {
                hero, team_total, ..
            } => {
                let team = usize::from(team_of(*hero));
                prop_assert!(*team_total > diamonds[team]);
                diamonds[team] = *team_total;
            }
            Event::HeroTurn { turn, .. } => {
                prop_assert!(*turn < limit);
                hero_turns += 1;
            }
            _ => {}
        }
        last = Some(event);
    }
    let ended = matches!(last, Some(Event::GameEnd { .. }));
    prop_assert!(ended, "the last event ends the game");
    prop_assert!(record.outcome.turns <= limit);
    prop_assert_eq!(
        record.outcome.turns,
        hero_turns,
        "the outcome counts every turn played"
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_play_keeps_the_invariants(seed in any::<u64>(), limit in 1u32..300, map in 0usize..3) {
        let rules = Rules {
            map: SHIPPED_MAPS[map].1.to_owned(),
            turn_limit: limit,
            heroes_per_team: 5,
        };
        let record = play(
            &rules,
            seed,
            &mut NativePlayer::new(Random::default()),
            &mut NativePlayer::new(Hunter::default()),
        );
        check_invariants(&record, limit)?;
        for seat in &record.outcome.seats {
            prop_assert!(seat.stats.values().all(|v| *v >= 0));
        }
    }

    #[test]
    fn every_state_keeps_health_in_range(seed in any::<u64>(), actions in proptest::collection::vec(0usize..5, 1..200)) {
        let map = parse_map(SHIPPED_MAPS[1].1).unwrap();
        let positions = map.placements(5, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let mut s = State::new(&map, &positions, 1000);
        let mut events = Vec::new();
        let mut next = 0usize;
        let mut diamonds = [0u32; 2];
        for (turn, a) in actions.into_iter().enumerate() {
            if s.game_over(turn as u32).is_some() {
                break;
            }
            let hero = s.next_living(next).unwrap();
            next = usize::from(hero) + 1;
            s.start_turn(hero, &mut events);
            s.resolve(hero, Action::ALL[a], &mut events);
            for h in s.heroes() {
                prop_assert!(h.health <= MAX_HEALTH);
                prop_assert_eq!(h.dead, h.health == 0);
            }
            let now = s.diamonds();
            prop_assert!(now[0] >= diamonds[0] && now[1] >= diamonds[1]);
            diamonds = now;
        }
    }
}

#[test]
fn the_offer_lists_the_directions_that_stay_on_the_board() {
    let s = state(&OPEN, &[(0, 0), (3, 3), (1, 2), (3, 0)]);
    assert_eq!(s.offer(0), "ES", "north-west corner");
    assert_eq!(s.offer(1), "NW", "south-east corner");
    assert_eq!(s.offer(2), "NESW", "inside, walls and heroes do not count");
    assert_eq!(s.offer(3), "SW");
    // Exactly the directions not offered are rejected.
    for hero in 0..4u8 {
        let offered = s.offer(hero);
        for (action, letter) in [
            (Action::North, 'N'),
            (Action::East, 'E'),
            (Action::South, 'S'),
            (Action::West, 'W'),
        ] {
            let mut copy = state(&OPEN, &[(0, 0), (3, 3), (1, 2), (3, 0)]);
            let (_, rejected) = act(&mut copy, hero, action);
            assert_eq!(
                rejected.is_none(),
                offered.contains(letter),
                "{hero} {letter}"
            );
        }
    }
}

// ---- one state, folded from the events ----

/// A built-in that, by its own seeded dice, sometimes answers a direction of its own
/// (often off the board: illegal), faults, or faults at setup.
struct Unruly {
    bot: Box<dyn Bot<Grid> + Send>,
    dice: ChaCha8Rng,
    /// Chance in 100 of a fault on a turn.
    faults: u32,
    /// Chance in 100 of a random direction on a turn.
    wild: u32,
    /// Fault at setup.
    setup_fault: bool,
}

impl Unruly {
    fn new(name: &str, seed: u64, faults: u32, wild: u32, setup_fault: bool) -> Unruly {
        Unruly {
            bot: <Grid as arena_builtins::Builtins>::create(name).expect("a built-in"),
            dice: ChaCha8Rng::seed_from_u64(seed),
            faults,
            wild,
            setup_fault,
        }
    }
}

impl Player<Grid> for Unruly {
    fn start(&mut self, start: &MatchStart<Grid>) -> Result<(), crate::Fault> {
        self.bot.start(start);
        Ok(())
    }
    fn setup(&mut self, request: &SetupRequest) -> Result<SetupChoice, crate::Fault> {
        let choice = self.bot.setup(request);
        if self.setup_fault {
            return Err(crate::Fault::new(
                crate::FaultKind::Trap,
                "scheduled setup fault",
            ));
        }
        Ok(choice)
    }
    fn act(&mut self, observation: &Observation) -> Result<Action, crate::Fault> {
        let action = self.bot.act(observation);
        let roll = self.dice.random_range(0..100);
        if roll < self.faults {
            Err(crate::Fault::new(
                crate::FaultKind::OutOfFuel,
                "scheduled fault",
            ))
        } else if roll < self.faults + self.wild {
            Ok(Action::ALL[self.dice.random_range(0..5)])
        } else {
            Ok(action)
        }
    }
    fn end(&mut self, end: &arena_sdk::MatchEnd) {
        self.bot.end(end);
    }
}

/// [`crate::run_match`] by hand, to keep the final state the play loop ends with.
fn play_keeping_state(
    config: &MatchConfig<Grid>,
    players: [&mut dyn Player<Grid>; 2],
) -> (crate::MatchRecord<Grid>, Option<State>) {
    let (record, state) = crate::run_match_with(config, players, None, super::play::play_to_end);
    (record, state.flatten())
}

/// The built-in `pick` names (any of them, `random-walker` included).
fn builtin(pick: usize) -> &'static str {
    let all = <Grid as arena_builtins::Builtins>::builtins();
    all[pick % all.len()].name
}

/// The end events of a record, and whether the last log entry is one.
fn ends(record: &crate::MatchRecord<Grid>) -> (usize, bool) {
    let count = record.replay.events().filter(|e| Grid::is_end(e)).count();
    let last = matches!(
        record.replay.log.last(),
        Some(crate::replay::Entry::Event { event }) if Grid::is_end(event)
    );
    (count, last)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn folding_the_replay_gives_the_play_loops_final_state(
        seed in any::<u64>(),
        picks in (0usize..64, 0usize..64),
        limit in prop_oneof![1u32..60, 60u32..400],
        map in 0usize..3,
        max_faults in 1u32..6,
        misbehaviour in (0u32..15, 0u32..40, 0u32..20),
        dice in any::<u64>(),
    ) {
        let rules = Rules {
            map: SHIPPED_MAPS[map].1.to_owned(),
            turn_limit: limit,
            heroes_per_team: 5,
        };
        let mut config = MatchConfig::<Grid>::new(rules, seed);
        config.max_faults = max_faults;
        let (faults, wild, setup) = misbehaviour;
        let (a, b) = (builtin(picks.0), builtin(picks.1));
        let players = || {
            (
                Unruly::new(a, dice, faults, wild, setup == 0),
                Unruly::new(b, dice ^ 1, 0, wild / 2, false),
            )
        };
        let (mut zero, mut one) = players();
        let (record, state) = play_keeping_state(&config, [&mut zero, &mut one]);
        let state = state.expect("valid rules give a state");

        let mut folded = State::from_initial(record.replay.initial.as_ref().expect("an initial state"));
        for event in record.replay.events() {
            folded.apply(event);
        }
        prop_assert_eq!(&folded, &state);
        for seat in 0..2 {
            prop_assert_eq!(&folded.stats()[seat], &record.outcome.seats[seat].stats);
        }
        prop_assert_eq!(ends(&record), (1, true), "exactly one end event, the last entry");
        // The terminal picture and the browser frames fold the same state.
        let initial = record.replay.initial.as_ref().unwrap();
        let events: Vec<Event> = record.replay.events().cloned().collect();
        prop_assert_eq!(Grid::picture(initial, &events), Some(state.picture()));
        let frames = Grid::frames(initial, &events).unwrap();
        let last = &frames.steps.last().unwrap().state;
        let heroes: Vec<_> = state
            .heroes()
            .iter()
            .map(|h| serde_json::json!([h.pos.x, h.pos.y, h.health]))
            .collect();
        prop_assert_eq!(&last["heroes"], &serde_json::json!(heroes));
        prop_assert_eq!(&last["diamonds"], &serde_json::json!(state.diamonds()));

        // The hand-run match is the match `run_match` plays.
        let (mut zero, mut one) = players();
        let plain = run_match(&config, [&mut zero, &mut one]);
        prop_assert_eq!(&plain.replay, &record.replay);
    }
}

// ---- forfeits end the match at once ----

/// Answers `Stay` `answers` times, then faults on every request.
struct Breaks {
    answers: u32,
    kind: crate::FaultKind,
}

impl Player<Grid> for Breaks {
    fn start(&mut self, _: &MatchStart<Grid>) -> Result<(), crate::Fault> {
        Ok(())
    }
    fn setup(&mut self, _: &SetupRequest) -> Result<SetupChoice, crate::Fault> {
        Ok(SetupChoice {})
    }
    fn act(&mut self, _: &Observation) -> Result<Action, crate::Fault> {
        if self.answers == 0 {
            return Err(crate::Fault::new(self.kind, "broken"));
        }
        self.answers -= 1;
        Ok(Action::Stay)
    }
    fn end(&mut self, _: &arena_sdk::MatchEnd) {}
}

/// The log entries after the last answer.
fn after_last_answer(record: &crate::MatchRecord<Grid>) -> Vec<crate::replay::Entry<Grid>> {
    let log = &record.replay.log;
    let last = log
        .iter()
        .rposition(|e| matches!(e, crate::replay::Entry::Answer { .. }))
        .expect("an answer");
    log[last + 1..].to_vec()
}

#[test]
fn reaching_max_faults_stops_the_match_at_that_answer() {
    for (seat, max_faults) in [(0u8, 3u32), (1, 3), (0, 1), (1, 5)] {
        let mut config = MatchConfig::<Grid>::new(Rules::default(), 7);
        config.max_faults = max_faults;
        let mut broken = Breaks {
            answers: 4,
            kind: crate::FaultKind::OutOfFuel,
        };
        let mut hunter = NativePlayer::new(Hunter::default());
        let players: [&mut dyn Player<Grid>; 2] = if seat == 0 {
            [&mut broken, &mut hunter]
        } else {
            [&mut hunter, &mut broken]
        };
        let (record, state) = play_keeping_state(&config, players);
        let outcome = &record.outcome;
        assert_eq!(outcome.winner, Some(1 - seat), "the opponent wins");
        assert!(outcome.seats[usize::from(seat)].forfeited);
        assert_eq!(outcome.seats[usize::from(seat)].faults, max_faults);
        assert_eq!(
            outcome.reason,
            format!("forfeit: seat {seat} faulted {max_faults} times")
        );
        // The last answer is the forfeiting fault; only the end event follows it: the
        // hero does not stay, deal adjacent damage or die, and nobody else moves.
        let last_answer = record
            .replay
            .log
            .iter()
            .rev()
            .find_map(|e| match e {
                crate::replay::Entry::Answer { seat, answer, .. } => Some((*seat, answer)),
                _ => None,
            })
            .unwrap();
        assert_eq!(last_answer.0, seat);
        assert!(matches!(last_answer.1, crate::Answer::Fault(_)));
        let tail = after_last_answer(&record);
        assert_eq!(tail.len(), 1, "{tail:?}");
        assert!(matches!(
            &tail[0],
            crate::replay::Entry::Event { event: Event::GameEnd { winner, .. } } if *winner == Some(1 - seat)
        ));
        assert_eq!(ends(&record), (1, true));
        // The forfeiting hero's turn was begun: the outcome counts it.
        let hero_turns = record
            .replay
            .events()
            .filter(|e| matches!(e, Event::HeroTurn { .. }))
            .count();
        assert_eq!(outcome.turns as usize, hero_turns);
        let state = state.unwrap();
        let mut folded = State::from_initial(record.replay.initial.as_ref().unwrap());
        record.replay.events().for_each(|e| folded.apply(e));
        assert_eq!(folded, state);
        verify(&record.replay).expect("a forfeit replays");
    }
}

#[test]
fn a_quit_at_setup_ends_the_match_before_the_other_seat_is_asked() {
    struct QuitsAtSetup;
    impl Player<Grid> for QuitsAtSetup {
        fn start(&mut self, _: &MatchStart<Grid>) -> Result<(), crate::Fault> {
            Ok(())
        }
        fn setup(&mut self, _: &SetupRequest) -> Result<SetupChoice, crate::Fault> {
            Err(crate::Fault::new(
                crate::FaultKind::Quit,
                "the player typed QUIT",
            ))
        }
        fn act(&mut self, _: &Observation) -> Result<Action, crate::Fault> {
            Ok(Action::Stay)
        }
        fn end(&mut self, _: &arena_sdk::MatchEnd) {}
    }
    let config = MatchConfig::<Grid>::new(Rules::default(), 2);
    let mut quitter = QuitsAtSetup;
    let mut hunter = NativePlayer::new(Hunter::default());
    let record = run_match(&config, [&mut quitter, &mut hunter]);
    assert_eq!(record.outcome.winner, Some(1));
    assert_eq!(record.outcome.turns, 0);
    let answers: Vec<(u8, bool)> = record
        .replay
        .log
        .iter()
        .filter_map(|e| match e {
            crate::replay::Entry::Answer { seat, answer, .. } => {
                Some((*seat, matches!(answer, crate::Answer::Setup(_))))
            }
            _ => None,
        })
        .collect();
    // The two start answers, then seat 0's quit; seat 1 is never asked for its setup.
    assert_eq!(answers, [(0, false), (1, false), (0, false)]);
    assert!(record.replay.initial.is_some(), "the board is recorded");
    assert_eq!(record.replay.events().count(), 1);
    assert_eq!(ends(&record), (1, true));
    verify(&record.replay).expect("a setup quit replays");
}

#[test]
fn a_quit_mid_match_forfeits_at_once() {
    let config = MatchConfig::<Grid>::new(Rules::default(), 3);
    let mut quitter = Breaks {
        answers: 10,
        kind: crate::FaultKind::Quit,
    };
    let mut hunter = NativePlayer::new(Hunter::default());
    let record = run_match(&config, [&mut hunter, &mut quitter]);
    assert_eq!(record.outcome.winner, Some(0));
    assert_eq!(record.outcome.seats[1].faults, 1);
    assert_eq!(after_last_answer(&record).len(), 1);
    assert_eq!(ends(&record), (1, true));
}

#[test]
fn moves_off_the_board_are_reported_but_are_no_strikes() {
    // The blind walker steps off the board many times in a long game.
    let walker = || {
        NativePlayer::new(
            <Grid as arena_builtins::Builtins>::create("random-walker").expect("a built-in"),
        )
    };
    let (mut a, mut b) = (walker(), walker());
    let mut config = MatchConfig::new(Rules::default(), 3);
    config.max_rejections = 1;
    let record = run_match::<Grid>(&config, [&mut a, &mut b]);
    let seats = &record.outcome.seats;
    assert!(seats[0].invalid_actions + seats[1].invalid_actions > 1);
    assert!(
        !seats[0].forfeited && !seats[1].forfeited,
        "{}",
        record.outcome.reason
    );
}
