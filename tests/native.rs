//! Running a bot outside the sandbox on the requests it was sent: `arena replay requests`
//! prints them from a replay, `arena native DIR` writes the SDK and a runner into a Python
//! or JavaScript bot's directory, and `python3`/`node` run the runner on them. The Python
//! and JavaScript starters play the same strategy (`languages.rs`), so both, run natively
//! on the requests the JavaScript starter got in the sandbox, must answer exactly as it
//! did — in every mode, from either seat.

use crate::arena;
use crate::javascript::copy_of as javascript_dir_copy;
use arena_tests::{root, stderr, stdout};
use std::path::Path;

/// Whether `program --version` runs; else skipped (failing where `require` is set).
fn here(program: &str, require: &str) -> bool {
    let ok = std::process::Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os(require).is_none(),
            "{require} is set but `{program}` does not run"
        );
        eprintln!("skipped: `{program}` is not installed");
    }
    ok
}

/// The answers a seat gave in a replay, as the bot wrote them (start's is `{}`).
fn answers_in(replay: &Path, seat: u64) -> Vec<serde_json::Value> {
    let replay: serde_json::Value =
        serde_json::from_slice(&std::fs::read(replay).unwrap()).unwrap();
    replay["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "answer" && e["seat"] == seat)
        .map(|e| match &e["answer"] {
            serde_json::Value::String(s) if s == "started" => serde_json::json!({}),
            serde_json::Value::Object(one) if one.len() == 1 => {
                one.values().next().unwrap().clone()
            }
            other => panic!("an answer of another kind: {other}"),
        })
        .collect()
}

/// The answers the runner printed (`-> ANSWER` after each request), but the end's.
fn answers_printed(output: &str) -> Vec<serde_json::Value> {
    let mut answers: Vec<serde_json::Value> = output
        .lines()
        .filter_map(|line| line.strip_prefix("-> "))
        .map(|answer| serde_json::from_str(answer).unwrap())
        .collect();
    answers.pop();
    answers
}

#[test]
fn python_and_javascript_bots_run_natively_on_recorded_requests_as_in_the_sandbox() {
    let node = here("node", "ARENA_REQUIRE_TS");
    let python = here("python3", "ARENA_REQUIRE_PYTHON");
    let (dir, js) = javascript_dir_copy("sample-bots/js-starter");
    let py = dir.path().join("py");
    for file in [
        "bot.py",
        "battle.py",
        "tcg.py",
        "grid.py",
        "dungeon.py",
        "conquest.py",
    ] {
        std::fs::create_dir_all(&py).unwrap();
        std::fs::copy(
            root().join("sample-bots/python-starter").join(file),
            py.join(file),
        )
        .unwrap();
    }
    for bot in [&js, &py] {
        let out = arena(dir.path(), &["native", bot.to_str().unwrap()]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stdout(&out).contains("arena replay requests game.json --seat 0"));
    }
    assert!(
        py.join("target/arena-native/arena/battle/types.py")
            .is_file()
    );
    assert!(py.join("target/arena-native/run.py").is_file());
    assert!(js.join("target/arena-native/arena.js").is_file());

    let modes = [
        ("battle", "builtin:random"),
        ("tcg", "builtin:random"),
        ("grid", "builtin:random-walker"),
        ("dungeon", "builtin:random"),
        ("conquest", "builtin:random"),
    ];
    for (mode, other) in modes {
        for seat in [0u64, 1] {
            let replay = dir.path().join(format!("{mode}-{seat}.json"));
            let bots = if seat == 0 {
                [js.to_str().unwrap(), other]
            } else {
                [other, js.to_str().unwrap()]
            };
            let out = arena(
                dir.path(),
                &[
                    "play", "--mode", mode, bots[0], bots[1], "--seed", "5", "--replay",
                ]
                .into_iter()
                .chain([replay.to_str().unwrap()])
                .collect::<Vec<_>>(),
            );
            assert!(out.status.success(), "{}", stderr(&out));
            let requests = dir.path().join(format!("{mode}-{seat}.jsonl"));
            let seat_arg = seat.to_string();
            let out = arena(
                dir.path(),
                &[
                    "replay",
                    "requests",
                    replay.to_str().unwrap(),
                    "--seat",
                    &seat_arg,
                    "-o",
                    requests.to_str().unwrap(),
                ],
            );
            assert!(out.status.success(), "{}", stderr(&out));
            let text = std::fs::read_to_string(&requests).unwrap();
            assert!(text.starts_with("{\"start\":"), "{mode}: {text:.80}");
            assert!(text.contains(&format!("\"seat\":{seat}")), "{mode}");
            assert!(
                text.trim_end()
                    .lines()
                    .last()
                    .unwrap()
                    .starts_with("{\"end\":")
            );
            let expected = answers_in(&replay, seat);
            assert_eq!(text.lines().count(), expected.len() + 1, "{mode}");
            let mut runs = Vec::new();
            if node {
                runs.push(("node", js.join("target/arena-native/run.js")));
            }
            if python {
                runs.push(("python3", py.join("target/arena-native/run.py")));
            }
            for (program, runner) in runs {
                let run = std::process::Command::new(program)
                    .arg(&runner)
                    .arg(&requests)
                    .output()
                    .unwrap();
                assert!(run.status.success(), "{program}: {}", stderr(&run));
                let printed = answers_printed(&stdout(&run));
                assert_eq!(printed, expected, "{program} in {mode}, seat {seat}");
            }
        }
    }
}

#[test]
fn replay_requests_refuse_a_seat_past_one_and_a_replay_that_does_not_verify() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("game.json");
    let out = arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "battle",
            "builtin:random",
            "builtin:heuristic",
            "--replay",
            replay.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let file = replay.to_str().unwrap();
    let out = arena(dir.path(), &["replay", "requests", file, "--seat", "2"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("--seat is 0 or 1, not 2"),
        "{}",
        stderr(&out)
    );
    // One answer changed: the game it makes is not the recorded one.
    let text = std::fs::read_to_string(&replay).unwrap();
    let at = text.find("\"target\":").unwrap() + "\"target\":".len();
    let digit = text.as_bytes()[at];
    let other = if digit == b'3' { '4' } else { '3' };
    let tampered = format!("{}{other}{}", &text[..at], &text[at + 1..]);
    std::fs::write(&replay, tampered).unwrap();
    let out = arena(dir.path(), &["replay", "requests", file]);
    assert!(!out.status.success());
    assert!(
        stdout(&out).is_empty(),
        "no requests of a game that was not played"
    );
    assert!(stderr(&out).contains(file), "{}", stderr(&out));
}

#[test]
fn native_says_which_directories_it_runs() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena(dir.path(), &["native", dir.path().to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("has neither bot.py nor bot.js"),
        "{}",
        stderr(&out)
    );
}
