//! Bot Arena's integration tests: one binary (ripgrep style) so everything links once.
//! It is registered as a test of `arena-cli` (see its Cargo.toml), so cargo builds the
//! `arena` binary for it; the sample bots come from the `arena-tests` crate.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The `arena` binary built for this test run.
pub fn arena_bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_arena"))
}

/// The module cache every test's `arena` shares (in cargo's scratch directory for
/// integration tests): each bot is compiled once per test run, not once per test. A test
/// of the cache itself uses a private one ([`arena_private_cache`]).
pub fn shared_cache() -> &'static Path {
    Path::new(concat!(env!("CARGO_TARGET_TMPDIR"), "/module-cache"))
}

/// Run `arena` with `args` (in the current directory; `_scratch` is the test's own
/// directory, which its paths name) and the shared module cache.
pub fn arena(_scratch: &Path, args: &[&str]) -> Output {
    arena_private_cache(shared_cache(), args)
}

/// Run `arena` with `args` and the module cache in `cache`.
pub fn arena_private_cache(cache: &Path, args: &[&str]) -> Output {
    Command::new(arena_bin())
        .args(args)
        .env("ARENA_CACHE_DIR", cache)
        .env_remove("ARENA_LOG")
        .output()
        .expect("run arena")
}

/// Run `arena` with `args`, the shared module cache and `input` on standard input.
pub fn arena_with_input(_scratch: &Path, args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(arena_bin())
        .args(args)
        .env("ARENA_CACHE_DIR", shared_cache())
        .env_remove("ARENA_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arena");
    let mut stdin = child.stdin.take().expect("piped");
    // Written from a thread: the game prints while it reads, and a full output pipe would
    // otherwise block both sides. It may end before reading everything: a closed pipe is
    // fine.
    let input = input.as_ref().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("arena ends");
    writer.join().expect("the writer does not panic");
    out
}

/// `arena tournament run FILE --out OUT EXTRA…` with the shared module cache;
/// it must succeed.
pub fn tournament_run(cache: &Path, file: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "tournament",
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let output = arena(cache, &args);
    assert!(
        output.status.success(),
        "{args:?}\n{}\n{}",
        arena_tests::stdout(&output),
        arena_tests::stderr(&output)
    );
    output
}

/// `arena ARGS` (with `--json` among them), which must succeed: its JSON output.
pub fn play_json(cache: &Path, args: &[&str]) -> serde_json::Value {
    let out = arena(cache, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        arena_tests::stderr(&out)
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", arena_tests::stdout(&out)))
}

/// Play `bot` against `opponent` in `mode` with `seed`, keeping the replay in `file`: its
/// bytes.
fn replay_of(
    cache: &Path,
    (mode, bot, opponent): (&str, &str, &str),
    seed: &str,
    file: &Path,
) -> Vec<u8> {
    let out = arena(
        cache,
        &[
            "play",
            "--mode",
            mode,
            bot,
            opponent,
            "--seed",
            seed,
            "--replay",
            file.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{bot}: {}", arena_tests::stderr(&out));
    std::fs::read(file).unwrap()
}

/// Seat 0's answers (each answer entry, faults included) in the replay of `bot` against
/// `opponent` in `mode` with `seed`.
pub fn seat0_answers(
    cache: &Path,
    (mode, bot, opponent): (&str, &str, &str),
    seed: &str,
) -> Vec<serde_json::Value> {
    let file = cache.join(format!("{mode}-{seed}.json"));
    let bytes = replay_of(cache, (mode, bot, opponent), seed, &file);
    let replay: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    replay["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "answer" && e["seat"] == 0)
        .cloned()
        .collect()
}

/// The faults among `answers` (of `seat0_answers`): kind and message.
pub fn faults(answers: &[serde_json::Value]) -> Vec<(String, String)> {
    answers
        .iter()
        .filter_map(|a| {
            let fault = &a["answer"]["fault"];
            fault.is_object().then(|| {
                (
                    fault["kind"].as_str().unwrap().to_owned(),
                    fault["message"].as_str().unwrap().to_owned(),
                )
            })
        })
        .collect()
}

/// Two games of `bot` against `opponent` in `mode` with one seed give byte-identical
/// replays, and `arena replay verify` re-simulates the first with `bot` as seat 0.
pub fn replays_repeat_and_verify(cache: &Path, mode: &str, bot: &str, opponent: &str) {
    let replays: Vec<Vec<u8>> = (0..2)
        .map(|i| {
            let file = cache.join(format!("{mode}-{i}.json"));
            replay_of(cache, (mode, bot, opponent), "9", &file)
        })
        .collect();
    assert!(replays[0] == replays[1], "{mode}: two runs, two replays");
    let file = cache.join(format!("{mode}-0.json"));
    let out = arena(
        cache,
        &["replay", "verify", file.to_str().unwrap(), "--bot0", bot],
    );
    assert!(
        out.status.success(),
        "{mode}: {}{}",
        arena_tests::stdout(&out),
        arena_tests::stderr(&out)
    );
}

mod check;
mod components;
mod conquest;
mod deploy;
mod dungeon;
mod encoding;
mod fuel_budget;
mod go;
mod hardening;
mod human;
mod javascript;
mod languages;
mod live;
mod matches;
mod messages;
mod native;
mod new;
mod output;
mod play;
mod python;
mod sandbox;
mod scheduling;
mod server;
mod server_browser;
mod tournament;
mod viewer;
mod wasi;
mod wire;
