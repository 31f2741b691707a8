//! The edit–run loop of a bot author in each built language: how long from saving a file
//! to the next game's result. For the Python, JavaScript and Go starters (a copy in a
//! fresh directory, with no shared build cache and a fresh module cache) it times three
//! rounds of build + load (compile, or the module cache) + one battle game against
//! `builtin:random`:
//!
//! - cold: nothing built yet;
//! - unchanged: the same sources again (the directory's build and the module cache hit);
//! - edited: one line added to the bot's main file, as an author's edit does.
//!
//! Run with `cargo bench --profile dev --workspace --bench edit_loop`.
//! Languages whose toolchain is missing are left out (and say so).

use arena_builtins::Builtins;
use arena_engine::{MatchConfig, NativePlayer, run_match};
use arena_sandbox::{Limits, ModuleCache, Sandbox};
use arena_sdk::battle::Battle;
use arena_tests::root;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

type Build = fn(&Path) -> Result<PathBuf, String>;

/// Copy the regular files of `from` (and its `lib/`) to `to`.
fn copy_bot(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        if path.is_file() && name != "bot.wasm" {
            std::fs::copy(&path, to.join(name)).unwrap();
        } else if name == "lib" {
            copy_bot(&path, &to.join("lib"));
        }
    }
}

/// One round: build, load and play a battle game; the time it took.
fn round(sandbox: &Sandbox, dir: &Path, build: Build) -> Duration {
    let began = Instant::now();
    let module = build(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let bot = sandbox.load(&module).unwrap();
    let mut player = bot.player(sandbox);
    let mut other = NativePlayer::new(<Battle as Builtins>::create("random").unwrap());
    let record = run_match(
        &MatchConfig::<Battle>::new(Default::default(), 1),
        [&mut player, &mut other],
    );
    assert_eq!(record.outcome.seats[0].faults, 0, "{}", dir.display());
    began.elapsed()
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    // Builds must not come from a cache shared with the tests (.cargo/config.toml sets
    // one): run again without it.
    let shared = "ARENA_BUILD_CACHE_DIR";
    if std::env::var_os(shared).is_some_and(|v| !v.is_empty()) {
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args(std::env::args_os().skip(1))
            .env(shared, "")
            .status()
            .unwrap();
        std::process::exit(status.code().unwrap_or(1));
    }
    let languages: [(&str, &str, &str, &str, Build); 3] = [
        (
            "Python",
            "sample-bots/python-starter",
            "bot.py",
            "# an edit\n",
            |d| arena_tournament::python::build_python(d).map_err(|e| e.to_string()),
        ),
        (
            "JavaScript",
            "sample-bots/js-starter",
            "bot.js",
            "// an edit\n",
            |d| arena_tournament::javascript::build(d).map_err(|e| e.to_string()),
        ),
        (
            "Go",
            "sample-bots/go-starter",
            "main.go",
            "// an edit\n",
            |d| arena_tournament::golang::build_go(d).map_err(|e| e.to_string()),
        ),
    ];
    println!("| language | cold: build, compile, one game | unchanged | after a one-line edit |");
    println!("|---|---|---|---|");
    for (language, starter, main_file, edit, build) in languages {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().join("bot");
        copy_bot(&root().join(starter), &dir);
        if language == "Go" {
            let go_mod = std::fs::read_to_string(dir.join("go.mod")).unwrap();
            let sdk = root().join("sdk/go");
            std::fs::write(
                dir.join("go.mod"),
                go_mod.replace("=> ../../sdk/go", &format!("=> {}", sdk.display())),
            )
            .unwrap();
        }
        if build(&dir).is_err() {
            let e = build(&dir).unwrap_err();
            println!(
                "| {language} | left out: {} | | |",
                e.lines().next().unwrap_or("")
            );
            continue;
        }
        // That probe built it: start again from nothing.
        std::fs::remove_dir_all(dir.join("target")).unwrap();
        let sandbox = Sandbox::new(
            Limits::default(),
            Some(ModuleCache::new(scratch.path().join("modules"))),
        )
        .unwrap();
        let cold = round(&sandbox, &dir, build);
        let unchanged = round(&sandbox, &dir, build);
        let mut text = std::fs::read_to_string(dir.join(main_file)).unwrap();
        text += edit;
        std::fs::write(dir.join(main_file), text).unwrap();
        let edited = round(&sandbox, &dir, build);
        println!(
            "| {language} | {:.2} s | {:.2} s | {:.2} s |",
            cold.as_secs_f64(),
            unchanged.as_secs_f64(),
            edited.as_secs_f64()
        );
    }
}
