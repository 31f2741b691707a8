//! Paths of the sample and hostile bots, built by `build.rs` the way wasmtime builds its
//! test programs, plus helpers shared by the integration tests.

use std::path::{Path, PathBuf};
use std::process::Output;

/// Paths of the sample bots compiled to wasm (`BATTLE_RANDOM`, `C_BOT`, …).
pub mod bots {
    include!(concat!(env!("OUT_DIR"), "/bots.rs"));
}

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
}

/// A hostile bot from `tests/hostile/`.
pub fn hostile(name: &str) -> PathBuf {
    root().join("tests/hostile").join(name)
}

/// Stdout as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Stderr as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
