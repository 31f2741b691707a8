//! Rules of `conquest` with the document's numbers, map validation (one test per error),
//! the year counter, the turn cap, replays and property tests.

use super::rules::{MoveError, Standing, tiebreak};
use super::*;
use crate::replay::{Entry, verify};
use crate::{Answer, Fault, FaultKind, MatchConfig, MatchRecord, NativePlayer, Player, run_match};
use arena_sdk::conquest::{
    Board, DEFAULT_MAP, Move, Observation, Orders, Recruit, SetupChoice, SetupRequest,
};
use arena_sdk::{Bot, MatchEnd, MatchStart};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;

/// A 5×5 map with water at (0,4), wood at (2,0), food at (0,3), gold at (4,0).
const SMALL: &str = "Frame: 5x5\nWater: 0 4\nWood: 2 0\nFood: 0 3\nGold: 4 0\n";

fn state(map: &str) -> State {
    let setup = Setup::new(&Rules {
        map: map.to_owned(),
        ..Rules::default()
    })
    .expect("test map is valid");
    State::new(&setup.initial())
}

fn p(x: u8, y: u8) -> Pos {
    Pos::new(x, y)
}

/// One move of `seat` in a turn of its own: a new turn begins first, so each call may move
/// any army.
fn mv(state: &mut State, seat: Seat, from: Pos, to: Pos) -> (Result<bool, String>, Vec<Event>) {
    state.apply(&Event::Turn {
        year: state.year(),
        seat,
        resources: state.resources()[usize::from(seat)],
    });
    let mut events = Vec::new();
    let result = state.move_army(seat, Move { from, to }, &mut events);
    (result, events)
}

fn map_error(text: &str) -> MapError {
    parse_map(text, 7).expect_err("the map is invalid")
}

// --- Maps -------------------------------------------------------------------------------

#[test]
fn the_default_and_shipped_maps_are_valid_and_point_symmetric() {
    let map = parse_map(DEFAULT_MAP, 7).expect("default map");
    assert_eq!((map.width, map.height), (7, 7));
    assert_eq!(map.homes(), [p(1, 1), p(5, 5)]);
    let mirror = |q: Pos| p(map.width - 1 - q.x, map.height - 1 - q.y);
    for list in [&map.water, &map.wood, &map.food, &map.gold] {
        for &q in list.iter() {
            assert!(list.contains(&mirror(q)), "{q} has no mirror twin");
        }
    }
    assert_eq!(map::to_text(&map), DEFAULT_MAP);
}

#[test]
fn a_map_needs_exactly_five_lines() {
    let e = map_error("Frame: 5x5\nWater: \nWood: \nFood: \n");
    assert_eq!(e.line, 5);
    assert!(matches!(
        e.kind,
        MapErrorKind::MissingLine {
            expected: "Gold:",
            found: 4
        }
    ));
    let e = map_error("Frame: 5x5\nWater: \nWood: \nFood: \nGold: \nGold: 3 0\n");
    assert_eq!((e.line, e.kind), (6, MapErrorKind::ExtraLine));
}

#[test]
fn lines_must_come_in_the_documents_order() {
    let e = map_error("Frame: 5x5\nWood: \nWater: \nFood: \nGold: \n");
    assert_eq!(e.line, 2);
    assert_eq!(
        e.kind,
        MapErrorKind::WrongLabel {
            expected: "Water:",
            found: "Wood:".into()
        }
    );
    assert!(
        e.to_string()
            .starts_with("line 2: expected a line starting with `Water:`")
    );
}

#[test]
fn the_frame_must_be_w_x_h() {
    for bad in [
        "Frame: 5 x 5",
        "Frame: 5x",
        "Frame: 5*5",
        "Frame: ax5",
        "Frame: 5x5x5",
        "Frame:5x5",
    ] {
        let e = map_error(&format!("{bad}\nWater: \nWood: \nFood: \nGold: \n"));
        assert_eq!(
            (e.line, e.kind),
            (1, MapErrorKind::BadFrame(bad.into())),
            "{bad}"
        );
    }
}

#[test]
fn the_frame_is_5_to_7_unless_the_rules_allow_more() {
    let text = "Frame: 8x5\nWater: \nWood: \nFood: \nGold: \n";
    let e = map_error(text);
    assert_eq!(
        (e.line, e.kind),
        (
            1,
            MapErrorKind::FrameOutOfRange {
                width: "8".into(),
                height: "5".into(),
                max: 7
            }
        )
    );
    assert!(matches!(
        map_error("Frame: 5x4\nWater: \nWood: \nFood: \nGold: \n").kind,
        MapErrorKind::FrameOutOfRange { .. }
    ));
    assert_eq!(parse_map(text, 8).unwrap().width, 8);
    let e = Setup::new(&Rules {
        map: text.into(),
        ..Rules::default()
    })
    .unwrap_err();
    assert_eq!(
        e,
        "map: line 1: width and height should range from 5 to 7, this frame is 8x5"
    );
}

#[test]
fn positions_must_be_whole_numbers() {
    let e = map_error("Frame: 5x5\nWater: 0 4\nWood: 2 0.5\nFood: \nGold: \n");
    assert_eq!(
        (e.line, e.kind),
        (
            3,
            MapErrorKind::NotAnInteger {
                label: "Wood",
                token: "0.5".into()
            }
        )
    );
}

#[test]
fn positions_come_in_pairs() {
    let e = map_error("Frame: 5x5\nWater: 0 4 3\nWood: \nFood: \nGold: \n");
    assert_eq!(
        (e.line, e.kind),
        (
            2,
            MapErrorKind::OddCount {
                label: "Water",
                count: 3
            }
        )
    );
}

#[test]
fn positions_must_lie_on_the_map() {
    let e = map_error("Frame: 5x6\nWater: \nWood: \nFood: 4 5 0 6\nGold: \n");
    assert_eq!(e.line, 4);
    assert_eq!(
        e.kind,
        MapErrorKind::OffMap {
            label: "Food",
            x: "0".into(),
            y: "6".into(),
            width: 5,
            height: 6
        }
    );
}

#[test]
fn home_bases_and_their_neighbours_stay_free() {
    // (1,1) is Player 1's home; (3,2) is next to Player 2's home (3,3) on a 5x5 map.
    for (pos, line) in [("1 1", 2), ("0 1", 2), ("3 3", 2), ("3 2", 2), ("4 3", 2)] {
        let e = map_error(&format!(
            "Frame: 5x5\nWater: {pos}\nWood: \nFood: \nGold: \n"
        ));
        assert_eq!(e.line, line);
        assert!(
            matches!(e.kind, MapErrorKind::HomeOccupied { label: "Water", home2, .. } if home2 == p(3, 3)),
            "{pos}"
        );
    }
}

#[test]
fn a_position_is_given_once() {
    let e = map_error("Frame: 5x5\nWater: 0 4\nWood: 2 0\nFood: 4 0\nGold: 0 4\n");
    assert_eq!(
        (e.line, e.kind),
        (
            5,
            MapErrorKind::Duplicate {
                label: "Gold",
                pos: p(0, 4),
                first_line: 2
            }
        )
    );
    let e = map_error("Frame: 5x5\nWater: 0 4 0 4\nWood: \nFood: \nGold: \n");
    assert!(matches!(
        e.kind,
        MapErrorKind::Duplicate { first_line: 2, .. }
    ));
}

#[test]
fn checks_run_line_by_line_in_the_documented_order() {
    // Line 2 is off the map and line 3 not a number: line 2 is reported first.
    let e = map_error("Frame: 5x5\nWater: 9 9\nWood: x 1\nFood: \nGold: \n");
    assert_eq!(e.line, 2);
    // Within a line, a non-number is found before the odd count.
    let e = map_error("Frame: 5x5\nWater: 0 x 1\nWood: \nFood: \nGold: \n");
    assert!(matches!(e.kind, MapErrorKind::NotAnInteger { .. }));
    // A blank line is found before a wrong label on a later line.
    let e = map_error("Frame: 5x5\n\nWood: \nWater: \nFood: \nGold: \n");
    assert_eq!((e.line, e.kind), (2, MapErrorKind::BlankLine));
}

const BLANK: &str = "Water: \nWood: \nFood: \nGold: \n";

#[test]
fn a_blank_line_between_lines_is_refused_on_its_line() {
    for text in [
        "Frame: 5x5\n\nWater: \nWood: \nFood: \nGold: \n",
        "\nFrame: 5x5\nWater: \nWood: \nFood: \nGold: \n",
        "Frame: 5x5\nWater: \nWood: \n   \nFood: \nGold: \n",
    ] {
        let e = map_error(text);
        assert_eq!(e.kind, MapErrorKind::BlankLine, "{text:?}");
    }
    assert_eq!(map_error("\nFrame: 5x5\n").line, 1);
    assert_eq!(
        map_error("Frame: 5x5\nWater: \nWood: \n   \nFood: \nGold: \n").line,
        4
    );
}

#[test]
fn empty_lines_after_the_fifth_are_ignored_and_crlf_ends_a_line() {
    let text = format!("Frame: 5x5\n{BLANK}\n\n");
    assert_eq!(parse_map(&text, 7).unwrap().width, 5);
    let crlf = "Frame: 5x5\r\nWater: 0 4\r\nWood: \r\nFood: \r\nGold: \r\n";
    assert_eq!(parse_map(crlf, 7).unwrap().water, [p(0, 4)]);
}

#[test]
fn a_label_starts_its_line_and_is_followed_by_a_space() {
    let wrong = |text: &str, line, found: &str| {
        let e = map_error(text);
        assert_eq!(e.line, line, "{text:?}");
        assert!(
            matches!(&e.kind, MapErrorKind::WrongLabel { found: f, .. } if f == found),
            "{text:?}: {e}"
        );
    };
    wrong(
        " Frame: 5x5\nWater: \nWood: \nFood: \nGold: \n",
        1,
        " Frame: 5x5",
    );
    wrong(
        "Frame: 5x5\n Water: 0 4\nWood: \nFood: \nGold: \n",
        2,
        " Water: 0 4",
    );
    wrong(
        "Frame: 5x5\n\tWater: 0 4\nWood: \nFood: \nGold: \n",
        2,
        "\\tWater:",
    );
    wrong(
        "Frame: 5x5\nWater:0 4\nWood: \nFood: \nGold: \n",
        2,
        "Water:0",
    );
    wrong(
        "Frame: 5x5\nWater:\t0 4\nWood: \nFood: \nGold: \n",
        2,
        "Water:\\t0",
    );
    let e = map_error("Frame: 5x5\nWater:0 0\nWood: \nFood: \nGold: \n");
    assert_eq!(
        e.to_string(),
        "line 2: expected a line starting with `Water:` and a space, found `Water:0` (the lines are Frame, Water, Wood, Food, Gold, in this order, each label at the start of its line)"
    );
}

#[test]
fn the_frame_has_one_space_after_its_label_and_nothing_after_it() {
    for (bad, quoted) in [
        ("Frame:  5x5", "Frame:  5x5"),
        ("Frame: 5x5 ", "Frame: 5x5 "),
        ("Frame:\t5x5", "Frame:\\t5x5"),
        ("Frame: 5x5\t", "Frame: 5x5\\t"),
        ("Frame: +5x5", "Frame: +5x5"),
    ] {
        let e = map_error(&format!("{bad}\n{BLANK}"));
        assert_eq!(
            (e.line, e.kind),
            (1, MapErrorKind::BadFrame(quoted.into())),
            "{bad:?}"
        );
    }
}

#[test]
fn a_huge_frame_is_quoted_as_written() {
    let e = map_error(&format!("Frame: 99999999999999999999999x5\n{BLANK}"));
    assert_eq!(
        e.to_string(),
        "line 1: width and height should range from 5 to 7, this frame is 99999999999999999999999x5"
    );
    // Leading zeros are digits like any other: `05x05` is 5x5.
    assert_eq!(
        parse_map(&format!("Frame: 05x05\n{BLANK}"), 7)
            .unwrap()
            .width,
        5
    );
}

#[test]
fn numbers_have_no_sign() {
    for token in ["+4", "-0", "-1"] {
        let e = map_error(&format!(
            "Frame: 5x5\nWater: 0 {token}\nWood: \nFood: \nGold: \n"
        ));
        assert_eq!(
            (e.line, e.kind),
            (
                2,
                MapErrorKind::NotAnInteger {
                    label: "Water",
                    token: token.into()
                }
            ),
            "{token}"
        );
    }
    let e = map_error("Frame: 5x5\nWater: 0\t4\nWood: \nFood: \nGold: \n");
    assert_eq!(
        e.to_string(),
        "line 2: Water contains `0\\t4`, which is not a whole number (digits only, no sign)"
    );
}

#[test]
fn numbers_are_separated_by_single_spaces() {
    let spacing = |text: &str| map_error(text).to_string();
    assert_eq!(
        spacing("Frame: 5x5\nWater: 0  4\nWood: \nFood: \nGold: \n"),
        "line 2: Water has two spaces in a row at column 10: numbers are separated by single spaces"
    );
    assert_eq!(
        spacing("Frame: 5x5\nWater:  0 4\nWood: \nFood: \nGold: \n"),
        "line 2: Water has two spaces in a row at column 8: numbers are separated by single spaces"
    );
    assert_eq!(
        spacing("Frame: 5x5\nWater: 0 4 \nWood: \nFood: \nGold: \n"),
        "line 2: Water has a space at the end of the line at column 11: numbers are separated by single spaces"
    );
}

#[test]
fn a_line_without_pairs_is_its_label_and_one_space_as_in_the_original() {
    let map = parse_map("Frame: 5x5\nWater: \nWood: 2 0\nFood: \nGold: \n", 7).unwrap();
    assert!(map.water.is_empty() && map.food.is_empty() && map.gold.is_empty());
    assert_eq!(map.wood, [Pos::new(2, 0)]);
    let e = map_error("Frame: 5x5\nWater:\nWood: \nFood: \nGold: \n");
    assert_eq!(
        e.to_string(),
        "line 2: expected a line starting with `Water:` and a space, found `Water:` (the lines are Frame, Water, Wood, Food, Gold, in this order, each label at the start of its line)"
    );
    assert_eq!(
        map_error("Frame: 5x5\nWater: \nWood:  \nFood: \nGold: \n").to_string(),
        "line 3: Wood has two spaces in a row at column 7: numbers are separated by single spaces"
    );
}

#[test]
fn a_huge_coordinate_is_quoted_as_written() {
    let big = "123456789012345678901234567890123456789012345";
    let e = map_error(&format!(
        "Frame: 5x5\nWater: {big} 0\nWood: \nFood: \nGold: \n"
    ));
    assert_eq!(
        e.to_string(),
        format!("line 2: Water contains the position ({big},0), which is out of the 5x5 map")
            .replace(big, &format!("{}…", &big[..40]))
    );
}

#[test]
fn a_missing_line_is_named_by_the_first_label_not_found() {
    let e = map_error("Frame: 5x5\nWood: \nFood: \nGold: \n");
    assert_eq!(
        (e.line, e.kind),
        (
            2,
            MapErrorKind::MissingLine {
                expected: "Water:",
                found: 4
            }
        )
    );
    let e = map_error("Frame: 5x5\nWater: \nWood: \nGold: \n");
    assert!(
        matches!(
            e.kind,
            MapErrorKind::MissingLine {
                expected: "Food:",
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(e.line, 4);
}

#[test]
fn an_empty_file_or_one_with_a_byte_order_mark_says_so() {
    for text in ["", "\n\n", "  \n"] {
        assert_eq!(
            map_error(text).to_string(),
            format!("line 1: {}", MapErrorKind::Empty)
        );
    }
    let e = map_error(&format!("\u{feff}Frame: 5x5\n{BLANK}"));
    assert_eq!((e.line, e.kind), (1, MapErrorKind::ByteOrderMark));
}

// --- Rules ------------------------------------------------------------------------------

#[test]
fn homes_are_at_1_1_and_w_minus_2_h_minus_2() {
    let s = state("Frame: 7x5\nWater: \nWood: \nFood: \nGold: \n");
    assert_eq!(s.board().homes(), [p(1, 1), p(5, 3)]);
    assert_eq!(s.board().terrain(p(5, 3)), Some(Terrain::Home(1)));
}

#[test]
fn each_player_starts_with_2_wood_2_food_2_gold() {
    let s = state(SMALL);
    assert_eq!(s.resources(), [Resources::new(2, 2, 2); 2]);
    let obs = s.observation(1, 617, 716, Vec::new());
    assert_eq!(obs.resources, Resources::new(2, 2, 2));
    assert_eq!(obs.prices.len(), 4);
    assert_eq!(obs.homes, [p(1, 1), p(3, 3)]);
}

#[test]
fn recruiting_pays_the_documents_price() {
    let mut s = state(SMALL);
    let mut events = Vec::new();
    s.recruit(
        0,
        Recruit {
            kind: Kind::Scout,
            at: p(1, 0),
        },
        &mut events,
    )
    .unwrap();
    assert_eq!(s.resources()[0], Resources::new(1, 1, 1));
    s.recruit(
        0,
        Recruit {
            kind: Kind::Spearman,
            at: p(0, 1),
        },
        &mut events,
    )
    .unwrap();
    assert_eq!(s.resources()[0], Resources::new(0, 0, 1));
    // Archer needs 1 wood: none left, and one gold buys no kind.
    let e = s
        .recruit(
            0,
            Recruit {
                kind: Kind::Archer,
                at: p(2, 1),
            },
            &mut events,
        )
        .unwrap_err();
    assert_eq!(
        e,
        "recruit Archer at (2,1): No resources to recruit any armies."
    );
    assert_eq!(s.resources()[0], Resources::new(0, 0, 1));
    assert_eq!(s.tally()[0].recruited, [1, 0, 0, 1]);
    assert_eq!(events.len(), 2);
    let mut s = state(SMALL);
    s.set_resources(1, Resources::new(0, 1, 1));
    s.recruit(
        1,
        Recruit {
            kind: Kind::Knight,
            at: p(3, 4),
        },
        &mut events,
    )
    .unwrap();
    assert_eq!(s.resources()[1], Resources::new(0, 0, 0));
}

#[test]
fn recruits_go_only_onto_a_free_tile_next_to_ones_own_home() {
    let mut s = state(SMALL);
    let mut events = Vec::new();
    let place = "You must place your newly recruited unit in an unoccupied position next to your home base. Try again.";
    // Diagonal to the home, the home itself, next to the enemy home.
    for at in [p(2, 2), p(1, 1), p(3, 2)] {
        let e = s
            .recruit(
                0,
                Recruit {
                    kind: Kind::Knight,
                    at,
                },
                &mut events,
            )
            .unwrap_err();
        assert_eq!(e, format!("recruit Knight at {at}: {place}"));
    }
    s.recruit(
        0,
        Recruit {
            kind: Kind::Knight,
            at: p(1, 2),
        },
        &mut events,
    )
    .unwrap();
    let e = s
        .recruit(
            0,
            Recruit {
                kind: Kind::Spearman,
                at: p(1, 2),
            },
            &mut events,
        )
        .unwrap_err();
    assert!(e.ends_with(place));
    // An enemy army next to my home blocks the tile too.
    s.spawn(1, Kind::Archer, p(2, 1));
    assert!(
        s.recruit(
            0,
            Recruit {
                kind: Kind::Spearman,
                at: p(2, 1)
            },
            &mut events
        )
        .is_err()
    );
    let e = s
        .recruit(
            0,
            Recruit {
                kind: Kind::Spearman,
                at: p(9, 9),
            },
            &mut events,
        )
        .unwrap_err();
    // Off the map is not next to the home: the original's placement message.
    assert_eq!(e, format!("recruit Spearman at (9,9): {place}"));
    assert_eq!(s.resources()[0], Resources::new(2, 1, 1));
}

#[test]
fn an_army_moves_one_step_up_down_left_or_right() {
    let mut s = state(SMALL);
    let id = s.spawn(0, Kind::Knight, p(2, 2));
    let invalid = |detail: &str| format!("Invalid move. Try again. ({detail})");
    // Diagonal, two steps, staying put.
    for to in [p(3, 1), p(2, 4), p(2, 2)] {
        let (r, events) = mv(&mut s, 0, p(2, 2), to);
        assert!(
            r.unwrap_err()
                .ends_with(&invalid(MoveError::TooFar.detail()))
        );
        assert!(events.is_empty());
    }
    let (r, events) = mv(&mut s, 0, p(2, 2), p(3, 2));
    assert_eq!(r, Ok(false));
    assert_eq!(
        events,
        vec![Event::Moved {
            army: Army {
                id,
                owner: 0,
                kind: Kind::Knight,
                pos: p(2, 2)
            },
            to: p(3, 2)
        }]
    );
    assert_eq!(s.board().army_at(p(3, 2)).map(|a| a.id), Some(id));
    // The enemy's army cannot be ordered, nor an empty tile.
    let (r, _) = mv(&mut s, 1, p(3, 2), p(3, 1));
    assert!(r.unwrap_err().contains(MoveError::NoArmy.detail()));
}

#[test]
fn an_army_moves_once_a_turn() {
    let mut s = state(SMALL);
    s.spawn(0, Kind::Knight, p(2, 2));
    let mut events = Vec::new();
    s.move_army(
        0,
        Move {
            from: p(2, 2),
            to: p(2, 3),
        },
        &mut events,
    )
    .unwrap();
    let e = s
        .move_army(
            0,
            Move {
                from: p(2, 3),
                to: p(2, 4),
            },
            &mut events,
        )
        .unwrap_err();
    assert_eq!(
        e,
        "move (2,3) -> (2,4): Invalid move. Try again. (that army has moved this turn already)"
    );
}

#[test]
fn armies_never_move_onto_their_own_army_or_home() {
    let mut s = state(SMALL);
    s.spawn(0, Kind::Knight, p(1, 2));
    s.spawn(0, Kind::Archer, p(2, 2));
    let (r, _) = mv(&mut s, 0, p(1, 2), p(1, 1));
    assert!(r.unwrap_err().contains(MoveError::OwnTile.detail()));
    let (r, _) = mv(&mut s, 0, p(1, 2), p(2, 2));
    assert!(r.unwrap_err().contains(MoveError::OwnTile.detail()));
    let (r, _) = mv(&mut s, 0, p(1, 2), p(1, 5));
    assert!(r.unwrap_err().contains(MoveError::OffMap.detail()));
}

#[test]
fn a_scout_moves_one_or_two_steps_in_a_straight_line_passing_its_own() {
    let mut s = state(SMALL);
    let t = s.spawn(0, Kind::Scout, p(1, 2));
    s.spawn(0, Kind::Spearman, p(2, 2));
    // Over its own spearman to (3,2).
    let (r, events) = mv(&mut s, 0, p(1, 2), p(3, 2));
    assert_eq!(r, Ok(false));
    assert_eq!(events.len(), 1);
    assert_eq!(s.board().army_at(p(3, 2)).map(|a| a.id), Some(t));
    // Not diagonally, not three steps, not in an L.
    let mut s = state(SMALL);
    s.spawn(0, Kind::Scout, p(2, 2));
    for to in [p(3, 3), p(2, 5), p(3, 1), p(4, 3)] {
        let (r, _) = mv(&mut s, 0, p(2, 2), to);
        assert!(r.is_err(), "{to}");
    }
    // Over its own home: (1,0) -> (1,2).
    let mut s = state(SMALL);
    s.spawn(0, Kind::Scout, p(1, 0));
    let (r, _) = mv(&mut s, 0, p(1, 0), p(1, 2));
    assert_eq!(r, Ok(false));
    // A scout's two steps end on the destination; the middle's resource is collected.
    let mut s = state(SMALL);
    s.spawn(0, Kind::Scout, p(3, 0));
    let (r, events) = mv(&mut s, 0, p(3, 0), p(1, 0));
    assert_eq!(r, Ok(false));
    assert!(
        matches!(events[0], Event::Collected { resource: Resource::Wood, amount: 2, at, .. } if at == p(2, 0))
    );
    assert_eq!(s.resources()[0], Resources::new(4, 2, 2));
}

#[test]
fn walking_onto_a_resource_collects_2_of_it_once() {
    let mut s = state(SMALL);
    s.spawn(1, Kind::Archer, p(3, 0));
    let (r, events) = mv(&mut s, 1, p(3, 0), p(4, 0));
    assert_eq!(r, Ok(false));
    assert_eq!(s.resources()[1], Resources::new(2, 2, 4));
    assert_eq!(events.len(), 2);
    assert_eq!(s.board().terrain(p(4, 0)), Some(Terrain::Plain));
    assert_eq!(s.tally()[1].collected, Resources::new(0, 0, 2));
    // Back and forth: the tile is plain now.
    assert_eq!(mv(&mut s, 1, p(4, 0), p(3, 0)).0, Ok(false));
    assert_eq!(mv(&mut s, 1, p(3, 0), p(4, 0)).0, Ok(false));
    assert_eq!(s.resources()[1], Resources::new(2, 2, 4));
}

#[test]
fn water_drowns_the_army_that_enters_it() {
    let mut s = state(SMALL);
    let k = s.spawn(0, Kind::Knight, p(0, 3));
    let (r, events) = mv(&mut s, 0, p(0, 3), p(0, 4));
    assert_eq!(r, Ok(false));
    assert_eq!(
        events,
        vec![Event::Drowned {
            army: Army {
                id: k,
                owner: 0,
                kind: Kind::Knight,
                pos: p(0, 3)
            },
            at: p(0, 4)
        }]
    );
    assert!(s.board().armies().is_empty());
    assert_eq!(
        (s.tally()[0].armies_lost, s.tally()[0].armies_drowned),
        (1, 1)
    );
    // A scout drowns in the water it would pass.
    let mut s = state("Frame: 7x7\nWater: 3 4\nWood: \nFood: \nGold: \n");
    s.spawn(0, Kind::Scout, p(3, 3));
    let (_, events) = mv(&mut s, 0, p(3, 3), p(3, 5));
    assert!(matches!(events[..], [Event::Drowned { at, .. }] if at == p(3, 4)));
}

/// The attacker of `a` moves onto the defender `b`; the surviving kinds and positions.
fn duel(a: Kind, b: Kind) -> (Survivor, Vec<(Seat, Kind, Pos)>, [Tally; 2]) {
    let mut s = state(SMALL);
    s.spawn(0, a, p(2, 2));
    s.spawn(1, b, p(2, 3));
    let (r, events) = mv(&mut s, 0, p(2, 2), p(2, 3));
    assert_eq!(r, Ok(false));
    let Event::Fight { survivor, at, .. } = events[0] else {
        panic!("no fight: {events:?}")
    };
    assert_eq!(at, p(2, 3));
    let left = s
        .board()
        .armies()
        .iter()
        .map(|a| (a.owner, a.kind, a.pos))
        .collect();
    (survivor, left, s.tally())
}

#[test]
fn fights_follow_the_documents_table() {
    use Kind::*;
    // Spearman counters Knight: the attacker wins and takes the tile.
    let (survivor, left, tally) = duel(Spearman, Knight);
    assert_eq!(survivor, Survivor::First);
    assert_eq!(left, vec![(0, Spearman, p(2, 3))]);
    assert_eq!((tally[0].enemies_destroyed, tally[1].armies_lost), (1, 1));
    // Knight counters Archer, Archer counters Spearman.
    assert_eq!(duel(Knight, Archer).1, vec![(0, Knight, p(2, 3))]);
    assert_eq!(duel(Archer, Spearman).1, vec![(0, Archer, p(2, 3))]);
    // The countered attacker disappears; the defender stays.
    let (survivor, left, tally) = duel(Knight, Spearman);
    assert_eq!(survivor, Survivor::Second);
    assert_eq!(left, vec![(1, Spearman, p(2, 3))]);
    assert_eq!((tally[0].armies_lost, tally[1].enemies_destroyed), (1, 1));
    assert_eq!(duel(Spearman, Archer).1, vec![(1, Archer, p(2, 3))]);
    // Same types: both disappear.
    for kind in Kind::ALL {
        let (survivor, left, tally) = duel(kind, kind);
        assert_eq!((survivor, left.len()), (Survivor::Neither, 0));
        assert_eq!(tally[0].armies_lost + tally[1].armies_lost, 2);
    }
    // Everyone counters the scout, attacking or defending.
    for kind in [Spearman, Archer, Knight] {
        assert_eq!(duel(kind, Scout).1, vec![(0, kind, p(2, 3))]);
        assert_eq!(duel(Scout, kind).1, vec![(1, kind, p(2, 3))]);
    }
}

#[test]
fn a_scout_fights_where_it_meets_the_enemy() {
    let mut s = state(SMALL);
    s.spawn(0, Kind::Scout, p(2, 1));
    s.spawn(1, Kind::Archer, p(2, 2));
    let (_, events) = mv(&mut s, 0, p(2, 1), p(2, 3));
    assert!(
        matches!(events[..], [Event::Fight { at, survivor: Survivor::Second, .. }] if at == p(2, 2))
    );
    assert_eq!(s.board().armies().len(), 1);
}

#[test]
fn capturing_the_enemy_home_wins() {
    let mut s = state(SMALL);
    s.spawn(0, Kind::Spearman, p(3, 2));
    let (r, events) = mv(&mut s, 0, p(3, 2), p(3, 3));
    assert_eq!(r, Ok(true));
    assert!(matches!(events[..], [Event::Captured { home, .. }] if home == p(3, 3)));
    assert_eq!(s.tally()[0].home_captured, 1);
    // A scout two steps away captures in one move.
    let mut s = state(SMALL);
    s.spawn(0, Kind::Scout, p(3, 1));
    assert_eq!(mv(&mut s, 0, p(3, 1), p(3, 3)).0, Ok(true));
}

#[test]
fn a_turn_skips_broken_orders_and_stops_at_a_capture() {
    let mut s = state(SMALL);
    s.spawn(0, Kind::Knight, p(3, 2));
    s.spawn(0, Kind::Knight, p(2, 2));
    let orders = Orders {
        recruit: vec![
            Recruit {
                kind: Kind::Scout,
                at: p(0, 1),
            },
            Recruit {
                kind: Kind::Scout,
                at: p(1, 0),
            },
            Recruit {
                kind: Kind::Archer,
                at: p(2, 1),
            },
        ],
        moves: vec![
            Move {
                from: p(4, 4),
                to: p(4, 3),
            },
            Move {
                from: p(3, 2),
                to: p(3, 3),
            },
            Move {
                from: p(2, 2),
                to: p(2, 3),
            },
        ],
    };
    let mut events = Vec::new();
    let report = s.play_turn(0, &orders, &mut events);
    assert!(report.captured);
    assert_eq!(report.rejections.len(), 2);
    assert_eq!(
        report.rejections[0],
        "recruit Archer at (2,1): No resources to recruit any armies."
    );
    assert!(report.rejections[1].starts_with("move (4,4) -> (4,3): Invalid move."));
    // The move after the capture never happened.
    assert_eq!(
        s.board().army_at(p(2, 2)).map(|a| a.kind),
        Some(Kind::Knight)
    );
}

fn recruit_at(kind: Kind, x: u8, y: u8) -> Recruit {
    Recruit { kind, at: p(x, y) }
}

#[test]
fn floods_of_refused_orders_are_cut_at_the_refusal_bound() {
    let mut s = state(SMALL);
    let orders = Orders {
        recruit: vec![recruit_at(Kind::Spearman, 9, 9); 300],
        moves: vec![
            Move {
                from: p(0, 0),
                to: p(0, 1)
            };
            5000
        ],
    };
    let report = s.play_turn(0, &orders, &mut Vec::new());
    let bound = rules::MAX_REFUSED_ORDERS;
    assert_eq!(report.rejections.len(), bound + 1 + bound + 1);
    assert_eq!(
        report.rejections[bound],
        "44 recruit orders skipped: 256 recruit orders refused this turn, the most a turn reads"
    );
    assert_eq!(
        report.rejections.last().unwrap(),
        "4744 move orders skipped: 256 move orders refused this turn, the most a turn reads"
    );
}

#[test]
fn a_legal_recruit_after_four_refused_ones_is_carried_out() {
    let mut s = state(SMALL);
    let mut recruit = vec![recruit_at(Kind::Knight, 3, 3); 4];
    recruit.push(recruit_at(Kind::Knight, 0, 1));
    let orders = Orders {
        recruit,
        moves: Vec::new(),
    };
    let report = s.play_turn(0, &orders, &mut Vec::new());
    assert_eq!(report.rejections.len(), 4);
    assert_eq!(
        s.board().army_at(p(0, 1)).map(|a| a.kind),
        Some(Kind::Knight)
    );
}

#[test]
fn recruits_past_four_carried_out_are_skipped_as_one_rejection() {
    let mut s = state(SMALL);
    s.set_resources(0, Resources::new(9, 9, 9));
    let recruit = [(0, 1), (1, 0), (2, 1), (1, 2), (0, 1), (1, 0)]
        .map(|(x, y)| recruit_at(Kind::Spearman, x, y))
        .to_vec();
    let orders = Orders {
        recruit,
        moves: Vec::new(),
    };
    let report = s.play_turn(0, &orders, &mut Vec::new());
    assert_eq!(s.armies_of(0), 4);
    assert_eq!(
        report.rejections,
        ["2 recruit orders skipped: 4 recruits carried out this turn, the most a turn allows"]
    );
}

#[test]
fn a_player_with_no_affordable_kind_is_told_so_before_the_tile_is_checked() {
    let mut s = state(SMALL);
    // One wood: no kind costs wood alone.
    s.set_resources(0, Resources::new(1, 0, 0));
    let e = s
        .recruit(0, recruit_at(Kind::Scout, 9, 9), &mut Vec::new())
        .unwrap_err();
    assert_eq!(
        e,
        "recruit Scout at (9,9): No resources to recruit any armies."
    );
}

#[test]
fn a_full_home_is_reported_even_for_an_unaffordable_kind() {
    let mut s = state(SMALL);
    for (x, y) in [(0, 1), (1, 0), (2, 1), (1, 2)] {
        s.spawn(0, Kind::Knight, p(x, y));
    }
    // Spearmen are affordable (1 wood, 1 food), scouts (1 of each) are not.
    s.set_resources(0, Resources::new(1, 1, 0));
    let e = s
        .recruit(0, recruit_at(Kind::Scout, 0, 1), &mut Vec::new())
        .unwrap_err();
    assert_eq!(e, "recruit Scout at (0,1): No place to recruit new armies.");
}

#[test]
fn an_unaffordable_kind_is_reported_before_a_bad_tile() {
    let mut s = state(SMALL);
    s.set_resources(0, Resources::new(1, 1, 0));
    let e = s
        .recruit(0, recruit_at(Kind::Archer, 3, 3), &mut Vec::new())
        .unwrap_err();
    assert_eq!(
        e,
        "recruit Archer at (3,3): Insufficient resources. Try again."
    );
}

#[test]
fn the_tiebreak_counts_armies_then_resources() {
    let st = |armies, resources| Standing { armies, resources };
    assert_eq!(tiebreak([st(3, 0), st(2, 9)]).0, Some(0));
    assert_eq!(tiebreak([st(2, 4), st(2, 5)]).0, Some(1));
    let (winner, reason) = tiebreak([st(1, 6), st(1, 6)]);
    assert_eq!(winner, None);
    assert_eq!(reason, "year limit: armies (1) and resources (6) tied");
}

// --- Whole matches ----------------------------------------------------------------------

/// Plays a fixed script: a list of orders per turn, then passes.
#[derive(Debug, Default, Clone)]
struct Script {
    turns: Vec<Orders>,
    seen: Rc<RefCell<Vec<Observation>>>,
}

impl Bot<Conquest> for Script {
    fn setup(&mut self, _r: &SetupRequest) -> SetupChoice {
        SetupChoice::default()
    }
    fn act(&mut self, obs: &Observation) -> Orders {
        self.seen.borrow_mut().push(obs.clone());
        let k = self.seen.borrow().len() - 1;
        self.turns.get(k).cloned().unwrap_or_default()
    }
}

fn rules(map: &str, max_years: u32) -> Rules {
    Rules {
        map: map.to_owned(),
        max_years,
        ..Rules::default()
    }
}

#[test]
fn the_year_starts_at_617_and_advances_after_player_2() {
    let mut a = NativePlayer::new(Script::default());
    let mut b = NativePlayer::new(Script::default());
    let record = run_match(&MatchConfig::new(rules(SMALL, 3), 1), [&mut a, &mut b]);
    let turns: Vec<(u32, Seat)> = record
        .replay
        .events()
        .filter_map(|e| match e {
            Event::Turn { year, seat, .. } => Some((*year, *seat)),
            _ => None,
        })
        .collect();
    assert_eq!(
        turns,
        vec![(617, 0), (617, 1), (618, 0), (618, 1), (619, 0), (619, 1)]
    );
    // Nobody did anything: the tiebreak finds a draw after the third year.
    assert_eq!(record.outcome.winner, None);
    assert_eq!(
        record.outcome.reason,
        "year limit: armies (0) and resources (6) tied"
    );
    assert_eq!(record.outcome.turns, 6);
    assert_eq!(record.outcome.seats[0].stats["years_played"], 3);
}

#[test]
fn a_rush_captures_the_home_and_rejections_are_reported_back() {
    // Player 1 recruits a scout at (2,1) and steps to (3,1); next year it runs two steps
    // to (3,3), Player 2's home. Player 2 tries to recruit onto its enemy's home.
    let p1 = Script {
        turns: vec![
            Orders {
                recruit: vec![Recruit {
                    kind: Kind::Scout,
                    at: p(2, 1),
                }],
                moves: vec![Move {
                    from: p(2, 1),
                    to: p(3, 1),
                }],
            },
            Orders {
                recruit: vec![],
                moves: vec![Move {
                    from: p(3, 1),
                    to: p(3, 3),
                }],
            },
        ],
        seen: Rc::default(),
    };
    let p2 = Script {
        turns: vec![Orders {
            recruit: vec![Recruit {
                kind: Kind::Knight,
                at: p(1, 1),
            }],
            moves: vec![],
        }],
        seen: Rc::default(),
    };
    let mut a = NativePlayer::new(p1);
    let mut b = NativePlayer::new(p2);
    let record = run_match(&MatchConfig::new(rules(SMALL, 50), 1), [&mut a, &mut b]);
    assert_eq!(record.outcome.winner, Some(0));
    assert_eq!(
        record.outcome.reason,
        "Player 1 captured the enemy's home base in year 618"
    );
    assert_eq!(record.outcome.turns, 2);
    assert_eq!(record.outcome.seats[1].invalid_actions, 1);
    assert_eq!(record.outcome.seats[0].stats["home_captured"], 1);
    assert_eq!(record.outcome.seats[0].stats["recruited_scout"], 1);
    assert_eq!(record.outcome.seats[0].stats["years_played"], 2);
    verify(&record.replay).expect("the replay verifies");
    let picture = Conquest::picture(
        record.replay.initial.as_ref().unwrap(),
        &record.replay.events().cloned().collect::<Vec<_>>(),
    )
    .unwrap();
    assert!(picture.contains("03|FF|  |  |T1|  |"), "{picture}");
}

#[test]
fn a_capture_wins_though_the_same_answer_is_the_last_strike() {
    // Player 1's rush of the test above, each answer with a refused recruit (onto its own
    // home): the second answer's refusal is the last strike, its move captures.
    let refused = Recruit {
        kind: Kind::Knight,
        at: p(1, 1),
    };
    let rush = Script {
        turns: vec![
            Orders {
                recruit: vec![
                    Recruit {
                        kind: Kind::Scout,
                        at: p(2, 1),
                    },
                    refused,
                ],
                moves: vec![Move {
                    from: p(2, 1),
                    to: p(3, 1),
                }],
            },
            Orders {
                recruit: vec![refused],
                moves: vec![Move {
                    from: p(3, 1),
                    to: p(3, 3),
                }],
            },
        ],
        seen: Rc::default(),
    };
    let mut config = MatchConfig::new(rules(SMALL, 50), 1);
    config.max_rejections = 2;
    let mut a = NativePlayer::new(rush.clone());
    let mut b = NativePlayer::new(Script::default());
    let record = run_match(&config, [&mut a, &mut b]);
    let outcome = &record.outcome;
    assert_eq!(outcome.winner, Some(0));
    assert_eq!(
        outcome.reason,
        "Player 1 captured the enemy's home base in year 618"
    );
    assert!(!outcome.seats[0].forfeited);
    assert_eq!(outcome.seats[0].invalid_actions, 2);
    verify(&record.replay).expect("the replay verifies");
    // Without the capture (the last move stops short), the same strike forfeits.
    let mut short = Script {
        turns: rush.turns,
        seen: Rc::default(),
    };
    short.turns[1].moves[0].to = p(3, 2);
    let mut a = NativePlayer::new(short);
    let mut b = NativePlayer::new(Script::default());
    let record = run_match(&config, [&mut a, &mut b]);
    assert_eq!(record.outcome.winner, Some(1), "{}", record.outcome.reason);
    assert_eq!(
        record.outcome.reason,
        "forfeit: seat 0 had 2 answers rejected"
    );
    verify(&record.replay).expect("the replay verifies");
}

#[test]
fn player_2_hears_why_its_orders_were_skipped() {
    let mut a = NativePlayer::new(Script::default());
    let seen = Rc::<RefCell<Vec<Observation>>>::default();
    let mut b = NativePlayer::new(Script {
        turns: vec![Orders {
            recruit: vec![Recruit {
                kind: Kind::Knight,
                at: p(0, 0),
            }],
            moves: vec![],
        }],
        seen: seen.clone(),
    });
    let record = run_match(&MatchConfig::new(rules(SMALL, 2), 1), [&mut a, &mut b]);
    assert_eq!(record.outcome.seats[1].invalid_actions, 1);
    let seen = seen.borrow();
    assert_eq!(
        seen[1].last_rejected,
        vec![
            "recruit Knight at (0,0): You must place your newly recruited unit in an unoccupied position next to your home base. Try again."
        ]
    );
    assert_eq!(seen[0].year, 617);
    assert_eq!(seen[1].year, 618);
    assert_eq!(seen[0].last_year, 618);
}

#[test]
fn the_battlefield_is_drawn_in_the_original_style() {
    let mut s = state(SMALL);
    s.spawn(0, Kind::Spearman, p(2, 1));
    s.spawn(1, Kind::Knight, p(3, 2));
    let text = view::battlefield(s.board());
    assert_eq!(
        text,
        "  X00 01 02 03 04X\n Y+--------------+\n00|  |  |WW|  |GG|\n01|  |H1|S1|  |  |\n02|  |  |  |K2|  |\n03|FF|  |  |H2|  |\n04|~~|  |  |  |  |\n Y+--------------+\n"
    );
}

// --- Property tests ---------------------------------------------------------------------

/// Random orders: half aimed at legal moves, half anywhere (mostly broken).
#[derive(Debug)]
struct Chaos(ChaCha8Rng);

impl Bot<Conquest> for Chaos {
    fn setup(&mut self, _r: &SetupRequest) -> SetupChoice {
        SetupChoice::default()
    }
    fn act(&mut self, obs: &Observation) -> Orders {
        let board = Board::new(obs);
        let rng = &mut self.0;
        let mut orders = Orders::default();
        let any = |rng: &mut ChaCha8Rng| Pos::new(rng.random_range(0..9), rng.random_range(0..9));
        for _ in 0..rng.random_range(0..4) {
            let kind = Kind::ALL[rng.random_range(0..4)];
            let spots = board.recruit_spots(obs.seat);
            let at = if rng.random_bool(0.5) && !spots.is_empty() {
                spots[rng.random_range(0..spots.len())]
            } else {
                any(rng)
            };
            orders.recruit.push(Recruit { kind, at });
        }
        for army in obs.mine() {
            let dests = board.destinations(army);
            let to = if rng.random_bool(0.7) && !dests.is_empty() {
                dests[rng.random_range(0..dests.len())]
            } else {
                any(rng)
            };
            orders.moves.push(Move { from: army.pos, to });
        }
        orders
    }
}

const SHIPPED: [&str; 2] = [DEFAULT_MAP, SMALL];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn resources_never_go_negative_and_every_game_ends(seed in any::<u64>(), years in 1u32..60, map in 0usize..2) {
        let mut a = NativePlayer::new(Chaos(ChaCha8Rng::seed_from_u64(seed)));
        let mut b = NativePlayer::new(Chaos(ChaCha8Rng::seed_from_u64(seed ^ 1)));
        let record = run_match(&MatchConfig::new(rules(SHIPPED[map], years), seed), [&mut a, &mut b]);
        prop_assert!(record.outcome.turns <= 2 * years);
        let ended = matches!(record.replay.events().last(), Some(Event::GameEnd { .. }));
        prop_assert!(ended);
        // The books balance: what a player holds is what it started with, plus what it
        // collected, minus what it paid — at every step.
        let mut paid = [Resources::default(); 2];
        let mut collected = [Resources::default(); 2];
        for event in record.replay.events() {
            let (seat, now) = match event {
                Event::Recruited { army, resources } => {
                    let price = army.kind.price();
                    let s = usize::from(army.owner);
                    paid[s] = Resources::new(paid[s].wood + price.wood, paid[s].food + price.food, paid[s].gold + price.gold);
                    (army.owner, *resources)
                }
                Event::Collected { owner, resource, amount, resources, .. } => {
                    let s = usize::from(*owner);
                    collected[s] = collected[s].plus(*resource, *amount);
                    (*owner, *resources)
                }
                _ => continue,
            };
            let s = usize::from(seat);
            for r in Resource::ALL {
                let held = i64::from(now.get(r));
                let books = 2 + i64::from(collected[s].get(r)) - i64::from(paid[s].get(r));
                prop_assert_eq!(held, books);
                prop_assert!(held >= 0);
            }
        }
        verify(&record.replay).map_err(TestCaseError::fail)?;
        for seat in &record.outcome.seats {
            prop_assert!(seat.stats.values().all(|v| *v >= 0));
        }
    }
}

#[test]
fn frames_have_one_step_per_turn_ending_in_the_captured_home() {
    // The rush of the test above: a scout recruited at (2,1) steps to (3,1), collects
    // nothing, and next year takes Player 2's home at (3,3).
    let p1 = Script {
        turns: vec![
            Orders {
                recruit: vec![Recruit {
                    kind: Kind::Scout,
                    at: p(2, 1),
                }],
                moves: vec![Move {
                    from: p(2, 1),
                    to: p(3, 1),
                }],
            },
            Orders {
                recruit: vec![],
                moves: vec![Move {
                    from: p(3, 1),
                    to: p(3, 3),
                }],
            },
        ],
        seen: Rc::default(),
    };
    let mut a = NativePlayer::new(p1);
    let mut b = NativePlayer::new(Script::default());
    let record = run_match(&MatchConfig::new(rules(SMALL, 50), 1), [&mut a, &mut b]);
    let initial = record.replay.initial.clone().unwrap();
    let events: Vec<Event> = record.replay.events().cloned().collect();
    let frames = Conquest::frames(&initial, &events).unwrap();
    let turns = events
        .iter()
        .filter(|e| matches!(e, Event::Turn { .. }))
        .count();
    assert_eq!(turns, 3);
    assert_eq!(frames.steps.len(), 4);
    assert_eq!(frames.fixed["homes"], json!([[1, 1], [3, 3]]));
    assert_eq!(frames.fixed["water"], json!([[0, 4]]));
    let start = &frames.steps[0].state;
    assert_eq!(start["year"], 617);
    assert_eq!(start["wood"], json!([[2, 0]]));
    assert_eq!(start["armies"], json!([]));
    assert_eq!(start["resources"], json!([[2, 2, 2], [2, 2, 2]]));
    let first = &frames.steps[1].state;
    assert_eq!(first["armies"], json!([[3, 1, "T", 0]]));
    assert_eq!(first["moves"], json!([[2, 1, 3, 1]]));
    assert_eq!(first["resources"][0], json!([1, 1, 1]));
    let last = &frames.steps[3];
    assert_eq!(last.turn, 2, "turns count from 0, as in the log");
    assert_eq!(frames.steps[1].turn, 0);
    assert_eq!(last.state["year"], 618);
    assert_eq!(last.state["captured"], 0);
    assert_eq!(last.state["armies"], json!([[3, 3, "T", 0]]));
    let end = events.iter().rev().find_map(|e| match e {
        Event::GameEnd { resources, .. } => Some(*resources),
        _ => None,
    });
    let end = end.unwrap();
    assert_eq!(
        last.state["resources"],
        json!([
            [end[0].wood, end[0].food, end[0].gold],
            [end[1].wood, end[1].food, end[1].gold]
        ])
    );
}

// --- Forfeits ---------------------------------------------------------------------------

/// Faults at every request from the `from`-th action on (counting from 1), with `kind`;
/// `setup` faults the setup too. Passes otherwise.
struct Faulter {
    from: u32,
    kind: FaultKind,
    setup: bool,
    acts: u32,
}

impl Faulter {
    fn new(from: u32, kind: FaultKind) -> Faulter {
        Faulter {
            from,
            kind,
            setup: false,
            acts: 0,
        }
    }
}

impl Player<Conquest> for Faulter {
    fn start(&mut self, _: &MatchStart<Conquest>) -> Result<(), Fault> {
        Ok(())
    }
    fn setup(&mut self, _: &SetupRequest) -> Result<SetupChoice, Fault> {
        if self.setup {
            return Err(Fault::new(self.kind, "scheduled setup fault"));
        }
        Ok(SetupChoice::default())
    }
    fn act(&mut self, _: &Observation) -> Result<Orders, Fault> {
        self.acts += 1;
        if self.acts >= self.from {
            return Err(Fault::new(self.kind, "scheduled fault"));
        }
        Ok(Orders::default())
    }
    fn end(&mut self, _: &MatchEnd) {}
}

/// The log's end events, and whether the one there is is the last entry.
fn end_is_last_and_only(log: &[Entry<Conquest>]) -> bool {
    let ends = log
        .iter()
        .filter(|e| matches!(e, Entry::Event { event } if Conquest::is_end(event)))
        .count();
    let last = matches!(
        log.last(),
        Some(Entry::Event {
            event: Event::GameEnd { .. }
        })
    );
    ends == 1 && last
}

#[test]
fn a_seat_reaching_max_faults_forfeits_at_that_answer() {
    for (faulty, turn) in [(0u8, 4u32), (1, 5)] {
        // Faults from its first action: the third comes on its third turn.
        let mut faulter = Faulter::new(1, FaultKind::OutOfFuel);
        let other = Rc::<RefCell<Vec<Observation>>>::default();
        let mut passer = NativePlayer::new(Script {
            turns: Vec::new(),
            seen: other.clone(),
        });
        let mut config = MatchConfig::new(rules(SMALL, 50), 1);
        config.max_faults = 3;
        let players: [&mut dyn Player<Conquest>; 2] = if faulty == 0 {
            [&mut faulter, &mut passer]
        } else {
            [&mut passer, &mut faulter]
        };
        let record = run_match(&config, players);
        let outcome = &record.outcome;
        assert_eq!(outcome.winner, Some(1 - faulty));
        assert_eq!(
            outcome.reason,
            format!("forfeit: seat {faulty} faulted 3 times")
        );
        assert_eq!(outcome.turns, turn, "the match stops at the third fault");
        assert!(outcome.seats[usize::from(faulty)].forfeited);
        // The opponent played only the turns before the forfeiting answer.
        assert_eq!(other.borrow().len(), 2 + usize::from(faulty));
        let log = &record.replay.log;
        assert!(end_is_last_and_only(log), "{log:?}");
        let Entry::Answer {
            seat,
            turn: answered,
            answer: Answer::Fault(_),
            ..
        } = &log[log.len() - 2]
        else {
            panic!("the fault is not the last answer: {log:?}")
        };
        assert_eq!((*seat, *answered), (faulty, turn));
        let Some(Entry::Event {
            event: Event::GameEnd { winner, reason, .. },
        }) = log.last()
        else {
            unreachable!()
        };
        assert_eq!((*winner, reason), (outcome.winner, &outcome.reason));
        verify(&record.replay).expect("a forfeit replays");
    }
}

#[test]
fn a_quit_forfeits_at_once() {
    let mut quitter = Faulter::new(2, FaultKind::Quit);
    let mut passer = NativePlayer::new(Script::default());
    let record = run_match(
        &MatchConfig::new(rules(SMALL, 50), 1),
        [&mut passer, &mut quitter],
    );
    assert_eq!(record.outcome.winner, Some(0));
    assert_eq!(record.outcome.turns, 3, "Player 2's second turn");
    assert_eq!(record.outcome.seats[1].faults, 1);
    assert!(end_is_last_and_only(&record.replay.log));
    verify(&record.replay).expect("a quit replays");
}

#[test]
fn a_forfeit_at_setup_ends_the_match_before_the_other_seat_is_asked() {
    let mut faulter = Faulter::new(1, FaultKind::Trap);
    faulter.setup = true;
    let mut passer = NativePlayer::new(Script::default());
    let mut config = MatchConfig::new(rules(SMALL, 50), 1);
    config.max_faults = 1;
    let record = run_match(&config, [&mut faulter, &mut passer]);
    assert_eq!(record.outcome.winner, Some(1));
    assert_eq!(record.outcome.turns, 0);
    let log = &record.replay.log;
    let answers: Vec<(Seat, bool)> = log
        .iter()
        .filter_map(|e| match e {
            Entry::Answer { seat, answer, .. } => Some((*seat, matches!(answer, Answer::Fault(_)))),
            _ => None,
        })
        .collect();
    // The two start answers, then seat 0's faulting setup: nothing more.
    assert_eq!(answers, [(0, false), (1, false), (0, true)]);
    assert!(record.replay.initial.is_some(), "the map is recorded");
    assert!(end_is_last_and_only(log), "{log:?}");
    verify(&record.replay).expect("a setup forfeit replays");
}

// --- The one state ----------------------------------------------------------------------

/// [`run_match`] step for step, keeping the state the play loop ended in.
fn play_keeping_state(
    config: &MatchConfig<Conquest>,
    players: [&mut dyn Player<Conquest>; 2],
) -> (MatchRecord<Conquest>, State) {
    let (record, state) = crate::run_match_with(config, players, None, |rules, _, table| {
        play::play(&Setup::new(rules).expect("valid rules"), table)
    });
    (record, state.expect("valid rules"))
}

/// A built-in that sometimes faults, quits, or answers orders that break the rules
/// (random tiles) or were meant for another turn (its previous answer).
struct Mischief {
    bot: Box<dyn Bot<Conquest> + Send>,
    rng: ChaCha8Rng,
    /// Chance in 100 of each kind of mischief per action.
    odds: u32,
    last: Orders,
}

impl Player<Conquest> for Mischief {
    fn start(&mut self, start: &MatchStart<Conquest>) -> Result<(), Fault> {
        self.bot.start(start);
        Ok(())
    }
    fn setup(&mut self, request: &SetupRequest) -> Result<SetupChoice, Fault> {
        if self.rng.random_range(0..100) < self.odds / 4 {
            return Err(Fault::new(FaultKind::Trap, "setup trap"));
        }
        Ok(self.bot.setup(request))
    }
    fn act(&mut self, obs: &Observation) -> Result<Orders, Fault> {
        let orders = self.bot.act(obs);
        let roll = self.rng.random_range(0..100);
        let odds = self.odds;
        if roll < odds {
            return Err(Fault::new(FaultKind::OutOfFuel, "scheduled fault"));
        }
        if roll < odds + odds / 8 {
            return Err(Fault::new(FaultKind::Quit, "scheduled quit"));
        }
        if roll < 2 * odds {
            return Ok(std::mem::replace(&mut self.last, orders));
        }
        if roll < 3 * odds {
            let rng = &mut self.rng;
            let mut any = || Pos::new(rng.random_range(0..9), rng.random_range(0..9));
            let mut broken = orders.clone();
            broken.recruit.push(Recruit {
                kind: Kind::Knight,
                at: any(),
            });
            broken.moves.insert(
                0,
                Move {
                    from: any(),
                    to: any(),
                },
            );
            self.last = orders;
            return Ok(broken);
        }
        self.last = orders.clone();
        Ok(orders)
    }
    fn end(&mut self, end: &MatchEnd) {
        self.bot.end(end);
    }
}

/// A built-in by name, played natively.
fn builtin(name: &str) -> Box<dyn Bot<Conquest> + Send> {
    <Conquest as arena_builtins::Builtins>::create(name).expect("a built-in")
}

const BUILTINS: [&str; 3] = ["random", "heuristic", "strong"];

/// Seat `seat`'s player of a property case: the built-in, with mischief at `odds`.
fn mischief(name: &str, seed: u64, seat: u64, odds: u32) -> Mischief {
    Mischief {
        bot: builtin(name),
        rng: ChaCha8Rng::seed_from_u64(seed ^ (seat << 32)),
        odds,
        last: Orders::default(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn folding_the_replay_gives_the_play_loops_final_state(
        seed in any::<u64>(),
        names in (0usize..3, 0usize..3),
        odds in (0usize..3, 0usize..3).prop_map(|(a, b)| [[0u32, 4, 15][a], [0, 4, 15][b]]),
        max_faults in 1u32..5,
        years in 1u32..40,
        map in 0usize..2,
    ) {
        let names = [BUILTINS[names.0], BUILTINS[names.1]];
        let mut config = MatchConfig::new(rules(SHIPPED[map], years), seed);
        config.max_faults = max_faults;
        let players = |k: usize| mischief(names[k], seed, k as u64, odds[k]);
        let (mut a, mut b) = (players(0), players(1));
        let (record, state) = play_keeping_state(&config, [&mut a, &mut b]);
        let mut folded = State::new(record.replay.initial.as_ref().expect("initial recorded"));
        for event in record.replay.events() {
            folded.apply(event);
        }
        prop_assert_eq!(&folded, &state);
        prop_assert!(end_is_last_and_only(&record.replay.log));
        // The helper is the match loop: the same players give the same record.
        let (mut a, mut b) = (players(0), players(1));
        let plain = run_match(&config, [&mut a, &mut b]);
        prop_assert_eq!(&plain.replay, &record.replay);
        verify(&record.replay).map_err(TestCaseError::fail)?;
        // What the terminal picture and the frames show is that state.
        let events: Vec<Event> = record.replay.events().cloned().collect();
        let initial = record.replay.initial.as_ref().expect("initial recorded");
        prop_assert_eq!(Conquest::picture(initial, &events), Some(state.picture()));
        let frames = Conquest::frames(initial, &events).expect("conquest draws frames");
        let last = &frames.steps.last().expect("a step at least").state;
        prop_assert_eq!(&last["resources"], &json!(state.resources().map(|r| [r.wood, r.food, r.gold])));
        prop_assert_eq!(last["armies"].as_array().map(Vec::len), Some(state.board().armies().len()));
    }
}

#[test]
fn a_replay_read_back_from_json_verifies() {
    let mut a = NativePlayer::new(Script::default());
    let mut b = NativePlayer::new(Script::default());
    let record = run_match(&MatchConfig::new(rules(SMALL, 3), 1), [&mut a, &mut b]);
    let text = serde_json::to_string(&record.replay).expect("a replay serializes");
    assert!(!text.contains("\"offered\""), "conquest records no offer");
    let back: crate::Replay<Conquest> = serde_json::from_str(&text).expect("it reads back");
    verify(&back).expect("the replay read back verifies");
}

#[test]
fn an_answer_is_one_strike_however_many_of_its_orders_are_refused() {
    let refused = Recruit {
        kind: Kind::Knight,
        at: p(0, 0),
    };
    let bad_turn = Orders {
        recruit: vec![refused; 3],
        moves: vec![],
    };
    let mut a = NativePlayer::new(Script::default());
    let mut b = NativePlayer::new(Script {
        turns: vec![bad_turn.clone(), bad_turn],
        seen: Rc::default(),
    });
    let mut config = MatchConfig::new(rules(SMALL, 50), 1);
    config.max_rejections = 2;
    let record = run_match(&config, [&mut a, &mut b]);
    let outcome = &record.outcome;
    // Three refusals in each of two answers: two strikes, the second forfeits.
    assert_eq!(outcome.seats[1].invalid_actions, 6);
    assert!(outcome.seats[1].forfeited);
    assert_eq!(outcome.winner, Some(0));
    assert_eq!(outcome.reason, "forfeit: seat 1 had 2 answers rejected");
    // The forfeit comes after the answer's refusals: only the end event follows them.
    let log = &record.replay.log;
    let last_rejected = log
        .iter()
        .rposition(|e| matches!(e, crate::replay::Entry::Rejected { .. }))
        .unwrap();
    assert_eq!(log.len(), last_rejected + 2);
    verify(&record.replay).expect("the replay verifies");
}

#[test]
fn a_player_is_shown_its_own_resources_and_not_the_others() {
    let turn = |seat| Event::Turn {
        year: 617,
        seat,
        resources: Resources::new(3, 4, 5),
    };
    let mine = Conquest::describe_for(&turn(0), 0).unwrap();
    assert_eq!(mine, Conquest::describe(&turn(0)));
    assert!(mine.contains("[Your Asset:"), "{mine}");
    let theirs = Conquest::describe_for(&turn(1), 0).unwrap();
    assert_eq!(theirs, "-Year 617- +++Player 2's Stage+++");
}
