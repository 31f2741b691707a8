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
