//! Bot Arena's integration tests: one binary (ripgrep style) so everything links once.
//! It is registered as a test of `arena-cli` (see its Cargo.toml), so cargo builds the
//! `arena` binary for it; the sample bots come from the `arena-tests` crate.

use std::path::Path;
use std::process::{Command, Output};

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

mod check;
mod conquest;
mod deploy;
mod dungeon;
mod encoding;
mod hardening;
mod human;
mod languages;
mod live;
mod matches;
mod messages;
mod new;
mod output;
mod play;
mod sandbox;
mod scheduling;
mod server;
mod server_browser;
mod tournament;
mod viewer;
