//! Mode `dungeon` through the binary: play, replays, the terminal view, rules errors,
//! `arena check` and `arena gauntlet` with the wasm sample bot.

use crate::arena;
use arena_tests::{bots, stderr, stdout};

fn json(out: &std::process::Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "stdout: {}\nstderr: {}",
        stdout(out),
        stderr(out)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn dungeon_starter_beats_random_and_its_replay_verifies_and_shows_the_event_log() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("dungeon.json");
    let result = json(&arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "dungeon",
            bots::DUNGEON_STARTER,
            "builtin:random",
            "--seed",
            "3",
            "--json",
            "--replay",
            replay.to_str().unwrap(),
        ],
    ));
    assert_eq!(result["mode"], "dungeon");
    assert_eq!(result["winner"], 0, "{result}");
    let me = &result["seats"][0];
    assert_eq!(me["faults"], 0, "{result}");
    assert_eq!(me["invalid_actions"], 0, "{result}");
    assert!(me["fuel"].as_u64().unwrap() > 0);
    for key in [
        "waves_cleared",
        "monsters_killed",
        "damage_dealt",
        "damage_taken",
        "healing",
        "xp",
        "levels_gained",
        "heroes_lost",
        "rejected_commands",
        "turns",
    ] {
        assert!(me["stats"][key].is_i64(), "{key}: {result}");
    }
    assert!(
        me["stats"]["waves_cleared"].as_i64().unwrap() >= 1,
        "{result}"
    );

    let verify = arena(dir.path(), &["replay", "verify", replay.to_str().unwrap()]);
    assert!(verify.status.success(), "{}", stdout(&verify));

    let show = arena(dir.path(), &["replay", "show", replay.to_str().unwrap()]);
    let text = stdout(&show);
    assert!(show.status.success(), "{}", stderr(&show));
    for line in [
        "Seat 0 enters the dungeon: Warrior1 (level 1, 104 hp, 52 mp)",
        "Wave 1 of 10: ",
        "Warrior1's turn!",
        " XP rewarded!",
        " dies!",
        "Victory! Wave 1 is cleared.",
        "Seat 1 enters the dungeon",
        "Game over: seat 0 wins (better score: ",
    ] {
        assert!(text.contains(line), "{line:?} missing from:\n{text}");
    }
    assert!(text.contains("winner: seat 0"), "{text}");

    // A tampered answer no longer reproduces the recorded events.
    let mut value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    value["seed"] = serde_json::json!(4);
    std::fs::write(&replay, serde_json::to_vec(&value).unwrap()).unwrap();
    let verify = arena(dir.path(), &["replay", "verify", replay.to_str().unwrap()]);
    assert!(!verify.status.success());
}

#[test]
fn dungeon_watch_draws_the_party_and_the_wave() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "dungeon",
            "builtin:strong",
            "builtin:heuristic",
            "--watch",
            "--rule",
            "waves=2",
            "--rule",
            "party_size=3",
        ],
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(text.contains("seat 0 — wave 1/2"), "{text}");
    assert!(text.contains("seat 1 — wave 1/2"), "{text}");
    assert!(
        text.contains("Warrior1") && text.contains(" hp  next "),
        "{text}"
    );
    assert!(!text.contains("Warrior4"), "a party of three: {text}");
}

#[test]
fn dungeon_rules_are_checked_with_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    for (rule, words) in [
        ("party_size=0", "party_size must be 1 to 8, not 0"),
        ("waves=1000", "waves must be 1 to 100, not 1000"),
        ("dragons=3", "unknown field `dragons`"),
    ] {
        let out = arena(
            dir.path(),
            &[
                "play",
                "--mode",
                "dungeon",
                "builtin:random",
                "builtin:random",
                "--rule",
                rule,
            ],
        );
        assert!(!out.status.success(), "{rule}");
        assert!(stderr(&out).contains(words), "{rule}: {}", stderr(&out));
    }
}

#[test]
fn check_and_gauntlet_pick_up_dungeon() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena(dir.path(), &["check", "--json", bots::DUNGEON_STARTER]);
    let report = json(&out);
    assert_eq!(report["ok"], true, "{report}");
    for mode in report["modes"].as_array().unwrap() {
        let dungeon = mode["mode"] == "dungeon";
        assert_eq!(
            mode["accepted"], dungeon,
            "the starter plays dungeon only: {report}"
        );
        if dungeon {
            let trial = &mode["trial"];
            assert_eq!(trial["opponent"], "builtin:random", "{report}");
            assert_eq!(trial["faults"], 0, "{report}");
            assert_eq!(trial["invalid_actions"], 0, "{report}");
            assert!(trial["fuel_per_turn_max"].as_u64().unwrap() > 0, "{report}");
        }
    }

    let out = arena(
        dir.path(),
        &["gauntlet", bots::DUNGEON_STARTER, "--games", "2"],
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    for builtin in ["dungeon/random", "dungeon/heuristic", "dungeon/strong"] {
        assert!(text.contains(builtin), "{text}");
    }
    assert!(text.contains("dungeon — dungeon_starter"), "{text}");
}

/// A game of `builtin:random` against itself, seed 1 (trolls regenerate, clerics heal
/// themselves), kept in `dir`; its replay's path.
fn random_game(dir: &std::path::Path) -> std::path::PathBuf {
    let replay = dir.join("dungeon.json");
    let out = arena(
        dir,
        &[
            "play",
            "--mode",
            "dungeon",
            "builtin:random",
            "builtin:random",
            "--seed",
            "1",
            "--replay",
            replay.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    replay
}

#[test]
fn a_regenerating_trolls_target_roll_is_in_the_replay_before_its_heal() {
    let dir = tempfile::tempdir().unwrap();
    let replay = random_game(dir.path());
    let value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    let events: Vec<&serde_json::Value> = value["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|entry| entry.get("event"))
        .collect();
    let mut drawn = 0;
    for (k, event) in events.iter().enumerate() {
        if event["type"] == "target_drawn" {
            drawn += 1;
            let heal = events[k + 1];
            assert_eq!(heal["type"], "heal", "{heal}");
            assert_eq!(heal["ability"], "regenerate", "{heal}");
            assert_eq!(heal["by"], serde_json::json!({"monster": event["monster"]}));
            assert!(event["hero"].as_u64().unwrap() < 4, "{event}");
        }
    }
    let regenerations = events
        .iter()
        .filter(|e| e["type"] == "heal" && e["ability"] == "regenerate")
        .count();
    assert!(drawn > 0, "seed 1 has regenerating trolls");
    assert_eq!(drawn, regenerations);
    let verify = arena(dir.path(), &["replay", "verify", replay.to_str().unwrap()]);
    assert!(verify.status.success(), "{}", stdout(&verify));
}

#[test]
fn replay_show_prints_a_drawn_target_only_with_rolls() {
    let dir = tempfile::tempdir().unwrap();
    let replay = random_game(dir.path());
    let path = replay.to_str().unwrap();
    let plain = stdout(&arena(dir.path(), &["replay", "show", path]));
    assert!(!plain.contains("as its target"), "{plain}");
    let rolls = stdout(&arena(dir.path(), &["replay", "show", "--rolls", path]));
    let line = rolls
        .lines()
        .position(|l| l.contains(" draws ") && l.ends_with(" as its target"))
        .expect("a drawn target");
    let next = rolls.lines().nth(line + 1).unwrap();
    assert!(next.contains(" hp with regenerate!"), "{next}");
}

#[test]
fn a_cleric_healing_itself_is_shown_in_the_documents_heal_line() {
    let dir = tempfile::tempdir().unwrap();
    let replay = random_game(dir.path());
    let text = stdout(&arena(
        dir.path(),
        &["replay", "show", replay.to_str().unwrap()],
    ));
    assert!(
        text.contains("Cleric2 heals Cleric2 with heal for 13!"),
        "{text}"
    );
    assert!(!text.contains("hp with heal!"), "{text}");
}
