//! Which games a tournament or gauntlet schedules for a wasm bot: only modes it accepts;
//! a mode it is forced into and refuses is an error before any game.

use crate::arena;
use arena_tests::{bots, root, stderr, stdout};

fn tournament_file(dir: &std::path::Path, starter_modes: &str) -> std::path::PathBuf {
    let file = dir.join("mine.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"mine\"\nseed = 5\n[modes.battle]\nturn_cap = 120\n[modes.tcg]\n\
             [[bots]]\nname = \"starter\"\nbot = {:?}\n{starter_modes}\n\
             [[bots]]\nname = \"random\"\nbot = \"builtin:random\"\n\
             [[bots]]\nname = \"greedy\"\nbot = \"builtin:greedy\"\n",
            bots::BATTLE_STARTER
        ),
    )
    .unwrap();
    file
}

#[test]
fn a_wasm_bot_without_modes_plays_only_the_modes_it_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament_file(dir.path(), "");
    let plan = arena(
        dir.path(),
        &["tournament", "plan", file.to_str().unwrap(), "--json"],
    );
    assert!(plan.status.success(), "{}", stderr(&plan));
    let plan: serde_json::Value = serde_json::from_slice(&plan.stdout).unwrap();
    let games = plan["games"].as_array().unwrap();
    // battle: starter, random (1 pairing); tcg: random, greedy (1 pairing); 2 games each.
    assert_eq!(games.len(), 4, "{plan}");
    for game in games {
        if game["mode"] == "tcg" {
            assert!(
                !game["seats"].as_array().unwrap().contains(&0.into()),
                "{game}"
            );
        }
    }
    let out = dir.path().join("results");
    let run = crate::tournament_run(dir.path(), &file, &out, &["--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    for mode in report["modes"].as_array().unwrap() {
        for row in mode["rows"].as_array().unwrap() {
            assert_eq!(row["faults"], 0, "{row}");
        }
    }
}

#[test]
fn a_mode_a_bot_refuses_is_an_error_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament_file(dir.path(), "modes = [\"battle\", \"tcg\"]");
    let out = dir.path().join("results");
    for args in [
        vec!["tournament", "plan", file.to_str().unwrap()],
        vec![
            "tournament",
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    ] {
        let output = arena(dir.path(), &args);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("bot `starter` is listed for mode tcg, but refuses its start"),
            "{err}"
        );
        assert!(err.contains("mine.toml"), "{err}");
    }
    assert!(!out.exists(), "no game was played");

    let gauntlet = arena(
        dir.path(),
        &[
            "gauntlet",
            bots::BATTLE_STARTER,
            "--mode",
            "tcg",
            "--games",
            "2",
        ],
    );
    let err = stderr(&gauntlet);
    assert_eq!(gauntlet.status.code(), Some(2), "{err}");
    assert!(err.contains("refuses its start"), "{err}");
    assert!(stdout(&gauntlet).is_empty());
}

#[test]
fn a_gauntlet_takes_several_bots_rules_and_a_map() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena(
        dir.path(),
        &[
            "gauntlet",
            bots::BATTLE_STARTER,
            bots::BATTLE_STRONG,
            "--mode",
            "battle",
            "--games",
            "2",
            "--rule",
            "turn_cap=100",
        ],
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    for words in [
        "battle — battle_starter",
        "battle — battle_strong",
        "battle/random",
        "battle/strong",
    ] {
        assert!(text.contains(words), "`{words}` in {text}");
    }
    // Each challenger meets the other: 3 built-ins each + 1 pairing, 2 games each.
    let json = arena(
        dir.path(),
        &[
            "gauntlet",
            bots::GRID_STARTER,
            "--mode",
            "grid",
            "--games",
            "2",
            "--map",
            root()
                .join("tournaments/maps/arena-8x8.map")
                .to_str()
                .unwrap(),
            "--format",
            "json",
        ],
    );
    assert!(json.status.success(), "{}", stderr(&json));
    let text = stdout(&json);
    let report: serde_json::Value =
        serde_json::from_str(&text[text.find("\n{").unwrap()..]).unwrap();
    assert_eq!(
        report["played"],
        2 * arena_tournament::modes::builtins_of(arena_sdk::Mode::Grid).len()
    );
    assert!(text.contains("grid/random-walker"), "{text}");

    let wrong = arena(
        dir.path(),
        &[
            "gauntlet",
            bots::BATTLE_STARTER,
            "--mode",
            "battle",
            "--deck",
            "x.txt",
        ],
    );
    assert!(
        stderr(&wrong).contains("--deck is for mode tcg"),
        "{}",
        stderr(&wrong)
    );
}

#[test]
fn maps_rotate_pair_by_pair_in_a_tournament() {
    let dir = tempfile::tempdir().unwrap();
    let maps = root().join("tournaments/maps");
    let file = dir.path().join("maps.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"maps\"\nseed = 2\ngames_per_pairing = 4\n[modes.grid]\nturn_limit = 60\n\
             map_files = [{:?}, {:?}]\n\
             [[bots]]\nname = \"walker\"\nbot = \"builtin:random-walker\"\n\
             [[bots]]\nname = \"coward\"\nbot = \"builtin:coward\"\n",
            maps.join("arena-8x8.map"),
            maps.join("open-16x16.map")
        ),
    )
    .unwrap();
    let plan = arena(dir.path(), &["tournament", "plan", file.to_str().unwrap()]);
    let text = stdout(&plan);
    assert!(plan.status.success(), "{}", stderr(&plan));
    assert_eq!(text.matches("arena-8x8.map").count(), 2, "{text}");
    assert_eq!(text.matches("open-16x16.map").count(), 2, "{text}");
    let out = dir.path().join("results");
    crate::tournament_run(dir.path(), &file, &out, &["--replays", "--quiet"]);
    let map_of = |game: u32| {
        let replay: serde_json::Value = serde_json::from_slice(
            &std::fs::read(out.join(format!("replays/game-{game:06}.json"))).unwrap(),
        )
        .unwrap();
        replay["rules"]["map"].as_str().unwrap().to_owned()
    };
    let small = std::fs::read_to_string(maps.join("arena-8x8.map")).unwrap();
    let open = std::fs::read_to_string(maps.join("open-16x16.map")).unwrap();
    // Pair 0 (games 0, 1) plays the first map, pair 1 (games 2, 3) the second.
    assert_eq!(map_of(0), small);
    assert_eq!(map_of(1), small);
    assert_eq!(map_of(2), open);
    assert_eq!(map_of(3), open);
}
