//! Mode `conquest` through the binary: map files (one invalid file per validation error),
//! play with the wasm starter, replays, the terminal view, check and gauntlet.

use crate::arena;
use arena_tests::{bots, root, stderr, stdout};

fn maps(name: &str) -> String {
    root()
        .join("tests/conquest-maps")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn every_invalid_map_is_refused_with_its_file_line_and_problem() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("missing-line.map", 5, "missing the `Gold:` line"),
        ("extra-line.map", 6, "extra line"),
        (
            "missing-water.map",
            2,
            "missing the `Water:` line: a map has exactly five lines (Frame, Water, Wood, Food, Gold), this one has 4",
        ),
        (
            "blank-line.map",
            2,
            "a blank line: a map has exactly five lines (Frame, Water, Wood, Food, Gold), one after the other",
        ),
        (
            "wrong-order.map",
            3,
            "expected a line starting with `Wood:` and a space, found `Food:`",
        ),
        (
            "leading-space.map",
            2,
            "expected a line starting with `Water:` and a space, found ` Water: 0 4`",
        ),
        (
            "no-space-after-label.map",
            2,
            "expected a line starting with `Water:` and a space, found `Water:0`",
        ),
        (
            "bad-frame.map",
            1,
            "the frame should be in the format `Frame: WxH`",
        ),
        (
            "frame-two-spaces.map",
            1,
            "the frame should be in the format `Frame: WxH` (e.g. `Frame: 5x7`, one space, no other), found `Frame:  5x5`",
        ),
        (
            "frame-trailing-space.map",
            1,
            "the frame should be in the format `Frame: WxH` (e.g. `Frame: 5x7`, one space, no other), found `Frame: 5x5 `",
        ),
        (
            "frame-out-of-range.map",
            1,
            "width and height should range from 5 to 7, this frame is 9x5",
        ),
        (
            "huge-frame.map",
            1,
            "width and height should range from 5 to 7, this frame is 99999999999999999999x5",
        ),
        (
            "non-integer.map",
            3,
            "Wood contains `zero`, which is not a whole number (digits only, no sign)",
        ),
        (
            "tab.map",
            2,
            "Water contains `0\\t4`, which is not a whole number (digits only, no sign)",
        ),
        (
            "plus-sign.map",
            5,
            "Gold contains `+4`, which is not a whole number (digits only, no sign)",
        ),
        (
            "minus-zero.map",
            2,
            "Water contains `-0`, which is not a whole number (digits only, no sign)",
        ),
        (
            "negative.map",
            4,
            "Food contains `-1`, which is not a whole number (digits only, no sign)",
        ),
        (
            "byte-order-mark.map",
            1,
            "the file starts with a byte-order mark (U+FEFF): save it as UTF-8 without one",
        ),
        ("odd-count.map", 4, "Food has an odd number of numbers (3)"),
        (
            "off-map.map",
            5,
            "Gold contains the position (4,5), which is out of the 5x5 map",
        ),
        ("home-occupied.map", 2, "Water occupies (3,3)"),
        ("next-to-home-occupied.map", 3, "Wood occupies (2,1)"),
        (
            "duplicate.map",
            5,
            "Gold repeats the position (2,0), already given on line 3",
        ),
    ];
    for (file, line, problem) in cases {
        let path = maps(file);
        // Told apart from a grid map by its `Frame:` line, or by --mode.
        for args in [
            vec!["map", "check", &path],
            vec!["map", "check", "--mode", "conquest", &path],
        ] {
            let out = arena(dir.path(), &args);
            assert_eq!(out.status.code(), Some(2), "{file}");
            let expected = format!("{path}: line {line}: {problem}");
            assert!(stderr(&out).contains(&expected), "{file}: {}", stderr(&out));
        }
        // The same message when the map is played.
        let out = arena(
            dir.path(),
            &[
                "play",
                "--mode",
                "conquest",
                "builtin:random",
                "builtin:random",
                "--map",
                &path,
            ],
        );
        assert!(!out.status.success());
        assert!(
            stderr(&out).contains(&format!("{path}: line {line}")),
            "{}",
            stderr(&out)
        );
    }
    let out = arena(dir.path(), &["map", "check", &maps("valid.map")]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("ok, conquest map 5x5"),
        "{}",
        stdout(&out)
    );
    // Every validation error has its file (and `empty.map` its own test).
    let files = std::fs::read_dir(root().join("tests/conquest-maps"))
        .unwrap()
        .count();
    assert_eq!(files, cases.len() + 2);
}

#[test]
fn an_empty_map_file_is_answered_in_no_formats_terms_without_a_mode() {
    let dir = tempfile::tempdir().unwrap();
    let path = maps("empty.map");
    let out = arena(dir.path(), &["map", "check", &path]);
    assert_eq!(out.status.code(), Some(2));
    let text = stderr(&out);
    assert!(
        text.contains(&format!(
            "{path}: the file is empty: a map file's first line tells which mode it is for (modes grid and conquest take map files)"
        )),
        "{text}"
    );
    assert!(!text.contains("size W H"), "{text}");
    let out = arena(dir.path(), &["map", "check", "--mode", "conquest", &path]);
    assert!(
        stderr(&out).contains(&format!(
            "{path}: line 1: the file is empty: a map has exactly five lines"
        )),
        "{}",
        stderr(&out)
    );
}

#[test]
fn shipped_maps_check_and_draw_in_the_original_style() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "conquest-default-7x7",
        "conquest-small-5x5",
        "conquest-wide-7x5",
        "conquest-lakes-7x7",
    ] {
        let path = root().join(format!("tournaments/maps/{name}.map"));
        let out = arena(dir.path(), &["map", "check", path.to_str().unwrap()]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        assert!(stdout(&out).contains(" Y+--"), "{}", stdout(&out));
        assert!(stdout(&out).contains("|H1|"), "{}", stdout(&out));
    }
    let large = root().join("tournaments/maps/conquest-large-9x9.map");
    let large = large.to_str().unwrap();
    let out = arena(dir.path(), &["map", "check", large]);
    assert!(
        stderr(&out).contains("line 1: width and height should range from 5 to 7"),
        "{}",
        stderr(&out)
    );
    let out = arena(
        dir.path(),
        &["map", "check", large, "--rule", "max_frame=9"],
    );
    assert!(
        stdout(&out).contains("ok, conquest map 9x9"),
        "{}",
        stdout(&out)
    );
    let out = arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "conquest",
            "builtin:strong",
            "builtin:heuristic",
            "--map",
            large,
            "--rule",
            "max_frame=9",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    // A grid map is still told apart.
    let grid = root().join("tournaments/maps/arena-8x8.map");
    let out = arena(dir.path(), &["map", "check", grid.to_str().unwrap()]);
    assert!(
        stdout(&out).contains("ok, grid map 8x8"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn the_wasm_starter_plays_a_map_and_the_replay_verifies_and_renders() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("conquest.json");
    let map = root().join("tournaments/maps/conquest-small-5x5.map");
    let out = arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "conquest",
            bots::CONQUEST_STARTER,
            "builtin:random",
            "--map",
            map.to_str().unwrap(),
            "--json",
            "--replay",
            replay.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["winner"], 0, "{result}");
    assert_eq!(result["seats"][0]["faults"], 0);
    assert_eq!(result["seats"][0]["invalid_actions"], 0);
    let stats = &result["seats"][0]["stats"];
    for key in [
        "recruited_spearman",
        "recruited_archer",
        "recruited_knight",
        "recruited_scout",
        "armies_lost",
        "enemies_destroyed",
        "resources_collected",
        "years_played",
        "home_captured",
    ] {
        assert!(stats[key].is_i64(), "{key}: {stats}");
    }
    assert_eq!(stats["home_captured"], 1, "{result}");
    let verify = arena(dir.path(), &["replay", "verify", replay.to_str().unwrap()]);
    assert!(verify.status.success(), "{}", stdout(&verify));
    let show = arena(
        dir.path(),
        &["replay", "show", replay.to_str().unwrap(), "--pictures"],
    );
    let text = stdout(&show);
    assert!(show.status.success(), "{}", stderr(&show));
    assert!(text.contains("-Year 617- +++Player 1's Stage+++"), "{text}");
    assert!(text.contains("  X00 01 02 03 04X"), "{text}");
    assert!(text.contains("captured the enemy's capital"), "{text}");
    // The same seed gives the identical replay.
    let again = dir.path().join("again.json");
    arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "conquest",
            bots::CONQUEST_STARTER,
            "builtin:random",
            "--map",
            map.to_str().unwrap(),
            "--replay",
            again.to_str().unwrap(),
        ],
    );
    assert_eq!(
        std::fs::read(&replay).unwrap(),
        std::fs::read(&again).unwrap()
    );
}

#[test]
fn the_statistics_table_and_watch_show_the_mode() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "conquest",
            "builtin:random",
            "builtin:strong",
            "--seed",
            "3",
            "--watch",
        ],
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        text.contains("winner: builtin:strong (seat 1) — Player 2 captured the enemy's home base"),
        "{text}"
    );
    for key in [
        "recruited_knight",
        "armies_lost",
        "enemies_destroyed",
        "wood_collected",
        "home_captured",
        "invalid_actions",
    ] {
        assert!(text.contains(key), "{key}: {text}");
    }
    assert!(text.contains("Player 1 asset: Wood - "), "{text}");
}

#[test]
fn check_and_gauntlet_pick_the_mode_up() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena(dir.path(), &["check", bots::CONQUEST_STARTER]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("ok: the bot is ready to play conquest"),
        "{text}"
    );
    assert!(text.contains("start (conquest): ok"), "{text}");
    let out = arena(
        dir.path(),
        &["gauntlet", bots::CONQUEST_STARTER, "--games", "10"],
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(text.contains("conquest — conquest_starter"), "{text}");
    for builtin in ["conquest/random", "conquest/heuristic", "conquest/strong"] {
        assert!(text.contains(builtin), "{text}");
    }
}

/// A person as Player 1 against `builtin:random` on the default map, typing `input`; the
/// replay and what the person was shown.
fn typed_game(dir: &std::path::Path, input: &str) -> (serde_json::Value, String) {
    let replay = dir.join("conquest.json");
    let out = crate::arena_with_input(
        dir,
        &[
            "play",
            "--mode",
            "conquest",
            "human",
            "builtin:random",
            "--seed",
            "3",
            "--replay",
            replay.to_str().unwrap(),
        ],
        input,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let replay = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    (replay, arena_tests::stdout(&out))
}

/// The rejections of seat 0 in `replay`, in order.
fn rejections(replay: &serde_json::Value) -> Vec<String> {
    replay["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "rejected" && e["seat"] == 0)
        .map(|e| e["reason"].as_str().unwrap().to_owned())
        .collect()
}

const PLACE: &str = "You must place your newly recruited unit in an unoccupied position next to your home base. Try again.";

#[test]
fn a_recruit_refused_at_the_prompt_is_asked_again_and_no_strike() {
    let dir = tempfile::tempdir().unwrap();
    let (replay, shown) = typed_game(
        dir.path(),
        "S 3 3\nS 3 3\nS 3 3\nS 3 3\nK 2 1\nNO\nNO\nQUIT\n",
    );
    // Each refused as typed, with the original's message: none reaches the engine.
    assert_eq!(shown.matches(PLACE).count(), 4, "{shown}");
    assert_eq!(rejections(&replay), Vec::<String>::new());
    assert_eq!(replay["outcome"]["seats"][0]["invalid_actions"], 0);
    let recruited: Vec<&serde_json::Value> = replay["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["event"]["type"] == "recruited")
        .map(|e| &e["event"]["army"])
        .filter(|army| army["owner"] == 0)
        .collect();
    assert_eq!(recruited.len(), 1, "{recruited:?}");
    assert_eq!(recruited[0]["kind"], "knight");
    assert_eq!(recruited[0]["pos"], serde_json::json!({"x": 2, "y": 1}));
}

#[test]
fn recruit_refusals_at_the_prompt_follow_the_originals_check_order() {
    let dir = tempfile::tempdir().unwrap();
    // Two scouts spend all six resources: then no kind is affordable, whatever the tile.
    let (replay, shown) = typed_game(dir.path(), "T 2 1\nS 3 3\nT 1 2\nS 3 3\nNO\nNO\nQUIT\n");
    let place = shown
        .find(PLACE)
        .expect("the bad tile, while resources last");
    let none = shown
        .find("No resources to recruit any armies.")
        .expect("then no resources, whatever the tile");
    assert!(place < none, "{shown}");
    assert_eq!(rejections(&replay), Vec::<String>::new());
}
