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

/// Run `arena` with `args` and a private module cache in `cache`.
pub fn arena(cache: &Path, args: &[&str]) -> Output {
    Command::new(arena_bin())
        .args(args)
        .env("ARENA_CACHE_DIR", cache)
        .env_remove("ARENA_LOG")
        .output()
        .expect("run arena")
}

/// Run `arena` with `args`, a private module cache in `cache` and `input` on standard input.
pub fn arena_with_input(cache: &Path, args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(arena_bin())
        .args(args)
        .env("ARENA_CACHE_DIR", cache)
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

/// `arena tournament run FILE --out OUT EXTRA…` with a private module cache in `cache`;
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

mod check;
mod components;
mod conquest;
mod deploy;
mod dungeon;
mod encoding;
mod go;
mod hardening;
mod human;
mod javascript;
mod languages;
mod live;
mod matches;
mod messages;
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
