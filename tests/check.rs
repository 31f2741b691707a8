//! `arena check` through the binary.

use crate::{arena, arena_private_cache};
use arena_tests::{bots, hostile, stdout};

#[test]
fn check_accepts_the_three_sample_bots() {
    let cache = tempfile::tempdir().unwrap();
    for bot in [bots::BATTLE_RANDOM, bots::C_BOT, bots::WAT_BOT] {
        let out = arena(cache.path(), &["check", bot]);
        let text = stdout(&out);
        assert!(out.status.success(), "{bot}: {text}");
        assert!(
            text.contains("ok: the bot is ready to play battle"),
            "{text}"
        );
        assert!(text.contains("trial game vs builtin:random"), "{text}");
        assert!(
            text.contains("arena_call: (func (param i32 i32) (result i64))"),
            "{text}"
        );
        assert!(text.contains("start (battle): ok"), "{text}");
    }
}

#[test]
fn check_json_reports_cache_hits_and_fuel() {
    let cache = tempfile::tempdir().unwrap();
    let run = || {
        let out = arena_private_cache(cache.path(), &["check", "--json", bots::BATTLE_RANDOM]);
        assert!(out.status.success());
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let first = run();
    let second = run();
    assert_eq!(first["module"]["from_cache"], false);
    assert_eq!(second["module"]["from_cache"], true);
    assert_eq!(first["modes"][0]["mode"], "battle");
    assert!(first["modes"][0]["fuel"].as_u64().unwrap() > 0);
    assert_eq!(
        first["modes"][0]["fuel"], second["modes"][0]["fuel"],
        "fuel is deterministic"
    );
}

#[test]
fn check_rejects_each_hostile_bot_with_its_own_message() {
    let cache = tempfile::tempdir().unwrap();
    let cases = [
        ("infinite-loop.wat", "out_of_fuel"),
        ("start-loop.wat", "out_of_fuel"),
        ("memory-hog.wat", "memory_limit"),
        ("recursion.wat", "call stack exhausted"),
        ("trap.wat", "unreachable"),
        ("out-of-bounds.wat", "outside the bot's memory"),
        ("huge-response.wat", "response of 1073741824 bytes"),
        ("bad-utf8.wat", "not UTF-8"),
        ("bad-json.wat", "not_json"),
        (
            "wrong-shape.wat",
            "the bot forfeits its trial game in every mode it accepts; in battle: forfeit: seat 0 faulted 3 times",
        ),
        (
            "forbidden-import.wat",
            "imports env::glue_vi, wasi_unstable::fd_write; bots may import only arena::log, arena::fuel_left, arena::fuel_budget and WASI preview 1",
        ),
        (
            "wasi-mistyped.wat",
            "imports wasi_snapshot_preview1::fd_write as (func (param i32 i32) (result i32)); WASI preview 1 defines it as (func (param i32 i32 i32 i32) (result i32))",
        ),
        ("missing-export.wat", "missing export `arena_call`"),
        ("not-wasm.wasm", "not a WebAssembly module"),
        ("huge-memory.wat", "asks for 125 MiB of initial memory"),
    ];
    for (name, words) in cases {
        let out = arena(cache.path(), &["check", hostile(name).to_str().unwrap()]);
        let text = stdout(&out);
        assert!(!out.status.success(), "{name} must be rejected: {text}");
        assert!(text.contains("REJECTED"), "{name}: {text}");
        assert!(
            text.contains(words),
            "{name}: expected `{words}` in:\n{text}"
        );
    }
}

#[test]
fn check_of_a_missing_file_names_it() {
    let cache = tempfile::tempdir().unwrap();
    let out = arena(cache.path(), &["check", "no/such/bot.wasm"]);
    assert!(!out.status.success());
    assert!(
        stdout(&out).contains("no/such/bot.wasm: cannot read"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn check_reports_the_encoding_each_bot_chose() {
    let cache = tempfile::tempdir().unwrap();
    // The Rust SDK and the C sample offer `arena_encoding` and take the binary encoding;
    // the WAT bot has no such export and is spoken to in JSON.
    for (bot, line) in [
        (
            bots::BATTLE_RANDOM,
            "encoding: binary (chosen by arena_encoding)",
        ),
        (bots::C_BOT, "encoding: binary (chosen by arena_encoding)"),
        (bots::WAT_BOT, "encoding: json (no arena_encoding export)"),
    ] {
        let out = arena(cache.path(), &["check", bot]);
        let text = stdout(&out);
        assert!(out.status.success(), "{bot}: {text}");
        assert!(text.contains(line), "{bot}: expected `{line}` in:\n{text}");
    }
    let json = |args: &[&str]| {
        let out = arena(cache.path(), args);
        assert!(out.status.success(), "{args:?}: {}", stdout(&out));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let rust = json(&["check", "--json", bots::BATTLE_RANDOM]);
    assert_eq!(rust["encoding"], "binary");
    // Every mode's instance chose, also those the bot refuses to play.
    for mode in rust["modes"].as_array().unwrap() {
        assert_eq!(mode["encoding"], "binary", "{mode}");
    }
    let wat = json(&["check", "--json", bots::WAT_BOT]);
    assert_eq!(wat["encoding"], "json");
    assert_eq!(wat["modes"][0]["encoding"], "json");
    // `--encoding json` offers only JSON: the SDK bot takes it.
    let forced = json(&["--encoding", "json", "check", "--json", bots::BATTLE_RANDOM]);
    assert_eq!(forced["encoding"], "json");
    assert_eq!(forced["modes"][0]["encoding"], "json");
}

#[test]
fn a_bots_source_file_is_refused_naming_the_directory_to_give() {
    let dir = tempfile::tempdir().unwrap();
    for (file, lang) in [
        ("sample-bots/python-starter/bot.py", "Python"),
        ("sample-bots/js-starter/bot.js", "JavaScript/TypeScript"),
        ("sample-bots/go-starter/main.go", "Go"),
        ("sample-bots/battle-starter/src/lib.rs", "Rust"),
    ] {
        let path = arena_tests::root().join(file);
        let bot_dir =
            arena_tests::root().join(file.split('/').take(2).collect::<Vec<_>>().join("/"));
        let out = arena(dir.path(), &["check", path.to_str().unwrap()]);
        assert!(!out.status.success(), "{file}");
        let text = arena_tests::stderr(&out);
        assert!(
            text.contains(&format!(
                "is a source file of the {lang} bot in `{}`: give the directory",
                bot_dir.display()
            )),
            "{file}: {text}"
        );
        assert!(
            !text.contains("WAT") && !stdout(&out).contains("WAT"),
            "{file}: {text}"
        );
    }
}

/// `arena new DIR/NAME --lang js --mode battle`: the project's directory.
fn new_js_battle_bot(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let project = dir.join(name);
    let out = arena(
        dir,
        &[
            "new",
            project.to_str().unwrap(),
            "--lang",
            "js",
            "--mode",
            "battle",
        ],
    );
    assert!(out.status.success(), "{out:?}");
    project
}

/// One exception in a trial game the bot still wins is said as such: how many turns
/// faulted and how the game ended; the bot is accepted (it plays). A JavaScript runner's
/// score of WASI imports is counted, not listed.
#[test]
fn a_bot_that_faults_once_and_wins_its_trial_is_told_so_and_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let project = new_js_battle_bot(dir.path(), "once");
    let lib = project.join("lib/battle.js");
    let source = std::fs::read_to_string(&lib).unwrap();
    let patched = source.replacen(
        "  act(observation) {\n",
        "  act(observation) {\n    if (observation.turn === 3) throw new Error(\"just this once\");\n",
        1,
    );
    assert_ne!(patched, source);
    std::fs::write(&lib, patched).unwrap();
    let out = arena(dir.path(), &["check", project.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("just this once"), "{text}");
    assert!(
        text.contains("1 of the game's")
            && text.contains(
                "turns faulted (each played as the mode's default) and the bot won the game"
            ),
        "{text}"
    );
    assert!(
        text.contains("ok: the bot is ready to play battle"),
        "{text}"
    );
    assert!(!text.contains("REJECTED"), "{text}");
    let imports = text.lines().find(|l| l.starts_with("imports: ")).unwrap();
    assert!(
        imports.contains("wasi_snapshot_preview1: 21 functions"),
        "{imports}"
    );
    assert!(!imports.contains("fd_write"), "{imports}");
}

/// A script that does not load fails alike in every mode: said once.
#[test]
fn a_load_error_is_said_once_not_once_per_mode() {
    let dir = tempfile::tempdir().unwrap();
    let project = new_js_battle_bot(dir.path(), "broken");
    let bot = project.join("bot.js");
    let mut source = std::fs::read_to_string(&bot).unwrap();
    source += "this is not javascript (\n";
    std::fs::write(&bot, source).unwrap();
    let out = arena(dir.path(), &["check", project.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(!out.status.success(), "{text}");
    assert_eq!(
        text.matches("SyntaxError: expecting").count(),
        3,
        "the fault, the log, the verdict: {text}"
    );
    assert!(
        text.contains("start (tcg, grid, dungeon, conquest): the same as battle"),
        "{text}"
    );
}
