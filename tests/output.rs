//! Output for pipes and logs: a closed pipe ends a command quietly, a run on a non-terminal
//! prints progress lines and no colour codes.

use crate::arena_bin;
use arena_tests::{root, stderr};
use std::process::{Command, Stdio};

/// Run `arena` with its standard output a pipe whose reader is already gone, as in
/// `arena … | head -0`: the first write fails with a broken pipe.
fn with_closed_stdout(cache: &std::path::Path, args: &[&str]) -> std::process::Output {
    let mut child = Command::new(arena_bin())
        .args(args)
        .env("ARENA_CACHE_DIR", cache)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arena");
    drop(child.stdout.take());
    child.wait_with_output().expect("wait for arena")
}

#[test]
fn a_closed_pipe_ends_every_printing_command_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("game.json");
    let replay = replay.to_str().unwrap();
    let made = crate::arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "battle",
            "builtin:strong",
            "builtin:random",
            "--replay",
            replay,
        ],
    );
    assert!(made.status.success(), "{}", stderr(&made));
    let small = root().join("tournaments/small.toml");
    for args in [
        vec!["replay", "show", replay, "--pictures"],
        vec![
            "play",
            "--mode",
            "grid",
            "builtin:commander",
            "builtin:aggressor",
            "--watch",
        ],
        vec!["tournament", "plan", small.to_str().unwrap()],
        vec!["builtins"],
    ] {
        let out = with_closed_stdout(dir.path(), &args);
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?} is quiet: {err}");
    }
}

#[test]
fn a_run_off_a_terminal_prints_progress_lines_interim_standings_and_no_colour() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results");
    let small = root().join("tournaments/small.toml");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "tournament",
            "run",
            small.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ];
        args.extend_from_slice(extra);
        let output = Command::new(arena_bin())
            .args(&args)
            .env("ARENA_CACHE_DIR", dir.path())
            .env("ARENA_LOG", "info")
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", stderr(&output));
        stderr(&output)
    };
    let err = run(&["--rating-interval", "4"]);
    assert!(!err.contains('\u{1b}'), "no ANSI codes in a log: {err:?}");
    assert!(err.contains("progress: 8/8 games (100%)"), "{err}");
    assert!(err.contains("standings after 4 of 8 games"), "{err}");
    assert!(err.contains("standings after 8 of 8 games"), "{err}");
    assert!(err.contains("standings — battle"), "{err}");

    // Keep the first 5 games, as if the run had been stopped: the rerun plays the rest
    // and says so.
    let results = out.join("results.jsonl");
    let kept: String = std::fs::read_to_string(&results)
        .unwrap()
        .lines()
        .take(5)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&results, kept).unwrap();
    let err = run(&[]);
    assert!(
        err.contains("resuming: 5 games finished earlier are kept; 3 to play"),
        "{err}"
    );
    assert!(err.contains("progress: 3/3 games"), "{err}");
    assert!(
        err.contains("this run played 3 games; 5 were finished earlier; 8 of the 8 games"),
        "{err}"
    );
}

/// `G`'s pictures of a replay as `replay show --pictures` draws them (before each answer
/// and at the end, each only when it changed), every one re-derived from the start.
fn pictures_from_scratch<G: arena_engine::Ruleset>(json: &serde_json::Value) -> Vec<String> {
    use arena_engine::replay::{Entry, Replay};
    let replay: Replay<G> = serde_json::from_value(json.clone()).expect("a replay");
    let initial = replay.initial.as_ref().expect("played");
    let mut events = Vec::new();
    let mut pictures: Vec<String> = Vec::new();
    let mut draw = |events: &[G::Event]| {
        if let Some(p) = G::picture(initial, events)
            && pictures.last() != Some(&p)
        {
            pictures.push(p);
        }
    };
    for entry in &replay.log {
        match entry {
            Entry::Answer { .. } => draw(&events),
            Entry::Event { event } => events.push(event.clone()),
            Entry::Rejected { .. } => {}
        }
    }
    draw(&events);
    pictures
}

/// The pictures of `replay show --pictures` are kept up to date event by event; on long
/// games they are exactly the pictures re-derived from every event so far.
#[test]
fn replay_show_draws_each_step_as_if_from_the_start() {
    let dir = tempfile::tempdir().unwrap();
    for (mode, a, b, seed) in [
        // 1400 unit turns: seat 0 picks at random and heals on and on.
        ("battle", "builtin:random", "builtin:strong", "7"),
        ("grid", "builtin:commander", "builtin:aggressor", "3"),
        ("dungeon", "builtin:random", "builtin:strong", "2"),
        ("tcg", "builtin:planner", "builtin:greedy", "4"),
        ("conquest", "builtin:random", "builtin:strong", "1"),
    ] {
        let path = dir.path().join(format!("{mode}.json"));
        let file = path.to_str().unwrap();
        let play = crate::arena(
            dir.path(),
            &["play", "-m", mode, a, b, "--seed", seed, "--replay", file],
        );
        assert!(play.status.success(), "{}", stderr(&play));
        let show = crate::arena(dir.path(), &["replay", "show", file, "--pictures"]);
        assert!(show.status.success(), "{}", stderr(&show));
        let shown = String::from_utf8(show.stdout).unwrap();
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let expected = match mode {
            "battle" => pictures_from_scratch::<arena_sdk::battle::Battle>(&json),
            "grid" => pictures_from_scratch::<arena_sdk::grid::Grid>(&json),
            "dungeon" => pictures_from_scratch::<arena_sdk::dungeon::Dungeon>(&json),
            "tcg" => pictures_from_scratch::<arena_sdk::tcg::Tcg>(&json),
            _ => pictures_from_scratch::<arena_sdk::conquest::Conquest>(&json),
        };
        assert!(expected.len() > 5, "{mode}: {} pictures", expected.len());
        let mut rest = shown.as_str();
        for (i, picture) in expected.iter().enumerate() {
            let at = rest.find(picture.as_str()).unwrap_or_else(|| {
                panic!(
                    "{mode}: picture {i} of {} missing or out of order:\n{picture}",
                    expected.len()
                )
            });
            rest = &rest[at + picture.len()..];
        }
    }
}
