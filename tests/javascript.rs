//! Bots in JavaScript and TypeScript (`sdk/js`, `sample-bots/js-starter`,
//! `sample-bots/ts-starter`): the arena packs the bot's script into the QuickJS runner
//! (`arena_tournament::javascript`) with no toolchain, so a JavaScript bot directory is a
//! bot wherever a path is. The starters play every mode legally and beat the weakest
//! built-ins; the committed modules are what a build makes; the same seed gives the same
//! game, Math.random included; errors in the bot's code are answers, not dead bots; hostile
//! JavaScript bots end in typed faults.
//!
//! TypeScript needs `node` and the starter's pinned compiler (`npm ci` in
//! sample-bots/ts-starter): without them the tests of a TypeScript build are skipped —
//! unless `ARENA_REQUIRE_TS` is set (CI installs them), which turns a skip into a failure.

use crate::{arena, play_json};
use arena_tests::{root, stderr, stdout};
use arena_tournament::javascript::{self, JsError, Language};
use std::path::{Path, PathBuf};

const JS_STARTER: &str = "sample-bots/js-starter";
const TS_STARTER: &str = "sample-bots/ts-starter";

const MODES: [(&str, &str); 5] = [
    ("battle", "random"),
    ("tcg", "random"),
    ("grid", "random-walker"),
    ("dungeon", "random"),
    ("conquest", "random"),
];

fn path(relative: &str) -> String {
    root().join(relative).to_string_lossy().into_owned()
}

/// A copy of the bot directory `relative` in a fresh temporary directory (builds write
/// into the bot's `target/`; tests running at once must not share one).
pub(crate) fn copy_of(relative: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join(Path::new(relative).file_name().unwrap());
    copy_tree(&root().join(relative), &to);
    (dir, to)
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" {
            continue;
        }
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            copy_tree(&entry.path(), &to.join(&name));
        } else if kind.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(entry.path()).unwrap(), to.join(&name))
                .unwrap();
        } else {
            std::fs::copy(entry.path(), to.join(&name)).unwrap();
        }
    }
}

/// A bot directory with `bot.js` of `source`.
fn js_bot(source: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bot.js"), source).unwrap();
    let bot = dir.path().to_string_lossy().into_owned();
    (dir, bot)
}

/// Whether TypeScript is here to build with; `false` prints why the caller skips.
pub(crate) fn typescript_here(what: &str) -> bool {
    let tsc = root()
        .join(TS_STARTER)
        .join("node_modules/typescript/bin/tsc");
    let node = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if node && tsc.is_file() {
        return true;
    }
    assert!(
        std::env::var_os("ARENA_REQUIRE_TS").is_none(),
        "ARENA_REQUIRE_TS is set but node or {} is missing (npm ci in {TS_STARTER})",
        tsc.display()
    );
    eprintln!("skipped: node and `npm ci` in {TS_STARTER} are needed ({what})");
    false
}

/// `arena play --json` of seat 0 `bot` against `builtin:…` in `mode`, with `extra` flags.
fn play(cache: &Path, mode: &str, bot: &str, other: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["play", "--mode", mode, bot, other, "--json"];
    args.extend_from_slice(extra);
    play_json(cache, &args)
}

fn plays_every_mode_with_legal_moves_only(bot: &str) {
    let dir = tempfile::tempdir().unwrap();
    let check = arena(dir.path(), &["check", bot]);
    let text = stdout(&check);
    assert!(check.status.success(), "{text}{}", stderr(&check));
    for (mode, _) in MODES {
        assert!(
            text.contains(&format!("start ({mode}): ok")),
            "{mode}: {text}"
        );
    }
    for (mode, weakest) in MODES {
        for seed in ["1", "2", "3"] {
            let result = play(
                dir.path(),
                mode,
                bot,
                &format!("builtin:{weakest}"),
                &["--seed", seed],
            );
            let seat = &result["seats"][0];
            assert_eq!(seat["faults"], 0, "{mode} seed {seed}: {result}");
            assert_eq!(seat["invalid_actions"], 0, "{mode} seed {seed}: {result}");
        }
    }
}

#[test]
fn the_js_starter_directory_plays_every_mode_with_legal_moves_only() {
    let (_dir, bot) = copy_of(JS_STARTER);
    plays_every_mode_with_legal_moves_only(bot.to_str().unwrap());
}

#[test]
fn the_committed_starter_modules_play_every_mode_with_legal_moves_only() {
    for starter in [JS_STARTER, TS_STARTER] {
        plays_every_mode_with_legal_moves_only(&path(&format!("{starter}/bot.wasm")));
    }
}

#[test]
fn the_starters_beat_the_weakest_builtins_in_battle_and_grid() {
    let dir = tempfile::tempdir().unwrap();
    for starter in [JS_STARTER, TS_STARTER] {
        let bot = path(&format!("{starter}/bot.wasm"));
        for (mode, weakest) in [("battle", "random"), ("grid", "random-walker")] {
            let builtin = format!("builtin:{weakest}");
            let result = play_json(
                dir.path(),
                &[
                    "match", "--mode", mode, &bot, &builtin, "--games", "200", "--json",
                ],
            );
            let wins = result["wins"].as_u64().unwrap();
            assert!(
                wins >= 160,
                "{starter} {mode}: {wins} of 200 won (at least 80% expected): {result}"
            );
        }
    }
}

#[test]
fn the_committed_js_starter_module_is_what_a_build_makes() {
    let (_dir, bot) = copy_of(JS_STARTER);
    assert_eq!(javascript::detect(&bot), Some(Language::JavaScript));
    let built = javascript::build(&bot).unwrap();
    assert!(
        built.starts_with(bot.join("target/arena-js")),
        "{}",
        built.display()
    );
    let committed = std::fs::read(root().join(JS_STARTER).join("bot.wasm")).unwrap();
    assert!(
        std::fs::read(&built).unwrap() == committed,
        "{JS_STARTER}/bot.wasm is stale: copy {} over it",
        built.display()
    );
}

#[test]
fn the_committed_ts_starter_module_is_what_a_build_makes() {
    if !typescript_here("building the TypeScript starter") {
        return;
    }
    let (_dir, bot) = copy_of(TS_STARTER);
    // The copy's node_modules: the starter's own (a symbolic link, not a second install).
    std::fs::remove_dir_all(bot.join("node_modules")).ok();
    std::os::unix::fs::symlink(
        root().join(TS_STARTER).join("node_modules"),
        bot.join("node_modules"),
    )
    .unwrap();
    assert_eq!(javascript::detect(&bot), Some(Language::TypeScript));
    let built = javascript::build(&bot).unwrap();
    let committed = std::fs::read(root().join(TS_STARTER).join("bot.wasm")).unwrap();
    assert!(
        std::fs::read(&built).unwrap() == committed,
        "{TS_STARTER}/bot.wasm is stale: copy {} over it",
        built.display()
    );
    // `arena check` takes the directory itself.
    let cache = tempfile::tempdir().unwrap();
    let check = arena(cache.path(), &["check", bot.to_str().unwrap()]);
    assert!(
        check.status.success(),
        "{}{}",
        stdout(&check),
        stderr(&check)
    );
}

#[test]
fn a_build_is_shared_between_directories_with_the_same_sources() {
    use std::os::unix::fs::MetadataExt;
    let shared = tempfile::tempdir().unwrap();
    let built = |bot: &Path| -> PathBuf {
        let out = std::process::Command::new(crate::arena_bin())
            .args(["check", bot.to_str().unwrap()])
            .env("ARENA_CACHE_DIR", crate::shared_cache())
            .env("ARENA_BUILD_CACHE_DIR", shared.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
        let mut wasm: Vec<PathBuf> = std::fs::read_dir(bot.join("target/arena-js"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(wasm.len(), 1, "{wasm:?}");
        wasm.pop().unwrap()
    };
    let entries = || -> Vec<PathBuf> {
        std::fs::read_dir(shared.path().join("js"))
            .map(|dir| dir.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default()
    };
    let (_a, first) = copy_of(JS_STARTER);
    let first = built(&first);
    let kept = entries();
    assert_eq!(
        kept.len(),
        1,
        "the build is kept in the shared cache: {kept:?}"
    );
    assert_eq!(
        std::fs::read(&kept[0]).unwrap(),
        std::fs::read(&first).unwrap()
    );
    // Another directory, elsewhere, with the same files: its build is the shared one (the
    // same file, linked), and nothing more is kept.
    let (_b, second) = copy_of(JS_STARTER);
    let second = built(&second);
    assert_eq!(
        std::fs::metadata(&second).unwrap().ino(),
        std::fs::metadata(&kept[0]).unwrap().ino()
    );
    assert_eq!(entries(), kept);
    // Changed sources make a build of their own, kept beside the first.
    let (_c, third) = copy_of(JS_STARTER);
    let source = std::fs::read_to_string(third.join("bot.js")).unwrap();
    std::fs::write(third.join("bot.js"), source + "\n// changed\n").unwrap();
    let third = built(&third);
    assert_ne!(
        std::fs::metadata(&third).unwrap().ino(),
        std::fs::metadata(&kept[0]).unwrap().ino()
    );
    assert_eq!(entries().len(), 2);
}

#[test]
fn typescript_errors_and_a_missing_compiler_are_build_errors_that_say_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bot.ts"), "const n: number = \"no\";\n").unwrap();
    match javascript::build(dir.path()) {
        Err(JsError::Toolchain(message)) => {
            assert!(message.contains("npm ci"), "{message}");
            assert!(
                message.contains(javascript::TYPESCRIPT_VERSION),
                "{message}"
            );
        }
        other => panic!("no compiler: {other:?}"),
    }
    if !typescript_here("compiling a TypeScript bot with an error") {
        return;
    }
    std::os::unix::fs::symlink(
        root().join(TS_STARTER).join("node_modules"),
        dir.path().join("node_modules"),
    )
    .unwrap();
    match javascript::build(dir.path()) {
        Err(JsError::TypeScript(message)) => {
            assert!(message.contains("bot.ts(1,7)"), "{message}");
            assert!(message.contains("TS2322"), "{message}");
        }
        other => panic!("a type error: {other:?}"),
    }
}

#[test]
fn a_js_bot_gives_byte_identical_replays_for_one_seed_and_math_random_follows_it() {
    let cache = tempfile::tempdir().unwrap();
    // Targets picked with Math.random: the game depends on the seed's stream.
    let (_dir, bot) = js_bot(
        "arena.playBattle({\n  setup: (r) => ({ team: r.roster.slice(0, r.team_size) }),\n  \
         act: (o) => arena.battle.attack(o.legal_targets[Math.floor(Math.random() * o.legal_targets.length)]),\n});\n",
    );
    let replay = |seed: &str, i: usize| {
        let file = cache.path().join(format!("{seed}-{i}.json"));
        let out = arena(
            cache.path(),
            &[
                "play",
                "--mode",
                "battle",
                &bot,
                "builtin:random",
                "--seed",
                seed,
                "--replay",
                file.to_str().unwrap(),
            ],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let replay: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        // The seat-0 answers, the bot's choices.
        replay["log"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["seat"] == 0 && e["kind"] == "answer")
            .map(|e| e["answer"].to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(replay("9", 0), replay("9", 1), "two runs of one seed");
    let seeds: std::collections::BTreeSet<_> =
        ["1", "2", "3", "4"].iter().map(|s| replay(s, 0)).collect();
    assert!(
        seeds.len() > 1,
        "four seeds, one game: Math.random ignores the seed"
    );
}

#[test]
fn errors_in_a_js_bot_are_answers_with_the_file_and_line() {
    let cache = tempfile::tempdir().unwrap();
    // A syntax error in lib/: every start says where.
    let (dir, bot) = js_bot("arena.playGrid({ setup: () => ({}), act: () => \"stay\" });\n");
    std::fs::create_dir(dir.path().join("lib")).unwrap();
    std::fs::write(dir.path().join("lib/helpers.js"), "// helpers\nlet x = ;\n").unwrap();
    let check = arena(cache.path(), &["check", &bot]);
    let text = stdout(&check);
    assert!(!check.status.success(), "{text}");
    assert!(text.contains("SyntaxError"), "{text}");
    assert!(text.contains("lib/helpers.js:2"), "{text}");

    // A mode the bot does not play is refused at its start; a throw in act is a bot_error
    // whose stack names the bot's file and line.
    let (_dir, bot) = js_bot(
        "arena.playGrid({\n  setup: () => ({}),\n  act() {\n    return null.boom;\n  },\n});\n",
    );
    let check = arena(cache.path(), &["check", &bot]);
    let text = stdout(&check);
    assert!(
        text.contains("this bot plays grid only, not battle"),
        "{text}"
    );
    assert!(text.contains("bot_error: TypeError"), "{text}");
    let file = cache.path().join("grid.json");
    let out = arena(
        cache.path(),
        &[
            "play",
            "--mode",
            "grid",
            &bot,
            "builtin:idle",
            "--replay",
            file.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let replay = std::fs::read_to_string(&file).unwrap();
    // (QuickJS places this throw at the function's line, 3.)
    assert!(replay.contains("at act (bot.js:3"), "{replay}");
}

/// The fault kinds of seat 0 when hostile bot `name` plays battle with `extra` flags.
fn hostile(cache: &Path, name: &str, extra: &[&str]) -> serde_json::Value {
    let (_dir, bot) = copy_of(&format!("tests/hostile-js/{name}"));
    let result = play(
        cache,
        "battle",
        bot.to_str().unwrap(),
        "builtin:random",
        extra,
    );
    let seat = &result["seats"][0];
    assert_eq!(seat["forfeited"], true, "{name}: {result}");
    seat["fault_kinds"].clone()
}

#[test]
fn hostile_js_bots_end_in_typed_faults() {
    let cache = tempfile::tempdir().unwrap();
    let kinds = |name, extra: &[&str]| hostile(cache.path(), name, extra);
    assert_eq!(
        kinds("infinite-loop", &[]),
        serde_json::json!({"out_of_fuel": 3})
    );
    assert_eq!(
        kinds("log-flood", &[]),
        serde_json::json!({"out_of_fuel": 3})
    );
    // QuickJS recurses on the wasm stack, which runs out first (512 KiB).
    assert_eq!(kinds("deep-recursion", &[]), serde_json::json!({"trap": 3}));
    assert_eq!(
        kinds("throw-every-turn", &[]),
        serde_json::json!({"bot_error": 3})
    );
    // Zeroing 64 MiB costs more than a turn's fuel; under a smaller memory limit QuickJS's
    // allocation fails, and its exception is an error answer.
    assert_eq!(
        kinds("runaway-allocation", &[]),
        serde_json::json!({"out_of_fuel": 3})
    );
    assert_eq!(
        kinds("runaway-allocation", &["--memory-mib", "16"]),
        serde_json::json!({"bot_error": 3})
    );
}

/// The compiled functions kept beside a module cache (`functions-*/`), as files.
fn function_entries(cache: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for dir in std::fs::read_dir(cache).unwrap().flatten() {
        if dir.file_name().to_string_lossy().starts_with("functions-") {
            for shard in std::fs::read_dir(dir.path()).unwrap().flatten() {
                found.extend(
                    std::fs::read_dir(shard.path())
                        .unwrap()
                        .map(|e| e.unwrap().path()),
                );
            }
        }
    }
    found.sort();
    found
}

#[test]
fn an_edited_bot_compiles_from_the_kept_functions_and_plays_as_a_fresh_compile() {
    let (dir, bot) = copy_of(JS_STARTER);
    let cache = dir.path().join("cache");
    let spec = bot.to_str().unwrap();
    let replay = |cache: &Path, name: &str| {
        let file = dir.path().join(name);
        let out = crate::arena_private_cache(
            cache,
            &[
                "play",
                "--mode",
                "battle",
                spec,
                "builtin:random",
                "--seed",
                "3",
                "--replay",
            ]
            .into_iter()
            .chain([file.to_str().unwrap()])
            .collect::<Vec<_>>(),
        );
        assert!(out.status.success(), "{}", stderr(&out));
        std::fs::read(file).unwrap()
    };
    replay(&cache, "first.json");
    let kept = function_entries(&cache);
    assert!(
        kept.len() > 100,
        "the runner's functions are kept: {}",
        kept.len()
    );

    // An edit changes the script, which is data: the functions come from the cache (all
    // but the few, about 5 %, whose Cranelift key differs from one compile to the next).
    let source = std::fs::read_to_string(bot.join("bot.js")).unwrap();
    std::fs::write(bot.join("bot.js"), source + "\n// an edit\n").unwrap();
    let edited = replay(&cache, "edited.json");
    let compiled = function_entries(&cache).len() - kept.len();
    assert!(
        compiled < kept.len() / 5,
        "{compiled} of {} functions compiled again",
        kept.len()
    );
    // The module compiled from kept functions plays exactly as one compiled afresh.
    let fresh = replay(&dir.path().join("fresh-cache"), "fresh.json");
    assert_eq!(edited, fresh);
}
