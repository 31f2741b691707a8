//! Paths of the sample and hostile bots, built by `build.rs` the way wasmtime builds its
//! test programs, plus helpers shared by the integration tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

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

/// The `arena` binary of the same profile as the running tests, built if needed.
pub fn arena_bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let exe = std::env::current_exe().expect("test executable path");
        // target/<profile>/deps/tests-HASH
        let profile_dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("target/<profile>");
        let profile = match profile_dir.file_name().and_then(|n| n.to_str()) {
            Some("debug") => "dev".to_owned(),
            Some(other) => other.to_owned(),
            None => "dev".to_owned(),
        };
        let status = Command::new(env!("CARGO"))
            .args([
                "build",
                "--quiet",
                "-p",
                "arena-cli",
                "--bin",
                "arena",
                "--profile",
                &profile,
            ])
            .current_dir(root())
            .status()
            .expect("run cargo to build the arena binary");
        assert!(status.success(), "building the arena binary failed");
        profile_dir.join(format!("arena{}", std::env::consts::EXE_SUFFIX))
    })
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

/// Stdout as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Stderr as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
