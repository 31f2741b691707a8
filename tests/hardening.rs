//! The failures a hostile-bot suite found, each one closed: the module cache,
//! bounded compilation, host calls that pay fuel, bounded inputs, the results log and
//! escaped bot text. Big modules are generated here, not committed.

use crate::{arena, arena_bin, arena_private_cache};
use arena_engine::{FaultKind, Player};
use arena_sandbox::{CompileLimits, Compiler, Limits, LoadError, ModuleCache, Sandbox};
use arena_sdk::battle::Battle;
use arena_tests::fixtures::{battle_observation as observation, battle_start as start};
use arena_tests::{bots, hostile, stderr, stdout};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn cached(dir: &Path) -> Sandbox {
    Sandbox::new(Limits::default(), Some(ModuleCache::new(dir))).unwrap()
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut list: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cwasm"))
        .collect();
    list.sort();
    list
}

/// The log of a bot's start request.
fn start_log(sandbox: &Sandbox, path: &Path) -> (bool, String) {
    let bot = sandbox.load(path).unwrap();
    let mut player = bot.player(sandbox);
    let started = Player::<Battle>::start(&mut player, &start()).is_ok();
    (started, Player::<Battle>::last_call(&mut player).log)
}

// ---- 1. the module cache ----

#[test]
fn a_swapped_cache_entry_is_refused_and_the_real_bot_runs() {
    let dir = tempfile::tempdir().unwrap();
    let victim = bots::WAT_BOT;
    let other = hostile("escapes.wat");
    let sandbox = cached(dir.path());
    let victim_sha = sandbox
        .load(Path::new(victim))
        .unwrap()
        .info()
        .sha256
        .clone();
    sandbox.load(&other).unwrap();
    let list = entries(dir.path());
    assert_eq!(list.len(), 2);
    let (victim_entry, other_entry) = if list[0].to_string_lossy().contains(&victim_sha) {
        (&list[0], &list[1])
    } else {
        (&list[1], &list[0])
    };
    std::fs::copy(other_entry, victim_entry).unwrap();

    let again = cached(dir.path()).load(Path::new(victim)).unwrap();
    assert!(!again.info().from_cache);
    let warning = again.info().cache_warning.as_deref().unwrap();
    assert!(warning.contains("MAC does not match"), "{warning}");
    // The victim's own code runs, not the swapped-in bot's.
    let (_, log) = start_log(&cached(dir.path()), Path::new(victim));
    assert_eq!(log, "wat-bot: hello from WebAssembly text");
    // The recompiled entry replaced the bad one and is trusted again.
    assert!(
        cached(dir.path())
            .load(Path::new(victim))
            .unwrap()
            .info()
            .from_cache
    );
}

#[test]
fn patched_compiled_functions_are_not_used_and_are_compiled_again() {
    let dir = tempfile::tempdir().unwrap();
    cached(dir.path()).load(Path::new(bots::WAT_BOT)).unwrap();
    // Every kept function patched (as another bot's code would be), and the module's own
    // entry gone, so that loading compiles again from the kept functions.
    let mut functions = Vec::new();
    for shard in std::fs::read_dir(dir.path()).unwrap().flatten() {
        if shard
            .file_name()
            .to_string_lossy()
            .starts_with("functions-")
        {
            for sub in std::fs::read_dir(shard.path()).unwrap().flatten() {
                functions.extend(
                    std::fs::read_dir(sub.path())
                        .unwrap()
                        .map(|e| e.unwrap().path()),
                );
            }
        }
    }
    assert!(!functions.is_empty(), "compiling kept its functions");
    let originals: Vec<Vec<u8>> = functions
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    for (path, original) in functions.iter().zip(&originals) {
        let mut bytes = original.clone();
        let at = bytes.len() - 1;
        bytes[at] ^= 0x5a;
        std::fs::write(path, &bytes).unwrap();
    }
    for entry in entries(dir.path()) {
        std::fs::remove_file(entry).unwrap();
    }
    let sandbox = cached(dir.path());
    let again = sandbox.load(Path::new(bots::WAT_BOT)).unwrap();
    assert!(!again.info().from_cache);
    // The bot's own code runs, and the patched functions were compiled again and their
    // entries written anew (all but the few whose Cranelift key changed between the two
    // compiles, which were not looked up).
    let (started, log) = start_log(&sandbox, Path::new(bots::WAT_BOT));
    assert!(started);
    assert_eq!(log, "wat-bot: hello from WebAssembly text");
    let rewritten = functions
        .iter()
        .zip(&originals)
        .filter(|(path, original)| &std::fs::read(path).unwrap() == *original)
        .count();
    assert!(
        rewritten * 4 >= functions.len() * 3,
        "{rewritten} of {} rewritten",
        functions.len()
    );
}

#[test]
fn a_patched_cache_entry_is_refused_before_it_is_deserialized() {
    let dir = tempfile::tempdir().unwrap();
    cached(dir.path()).load(Path::new(bots::WAT_BOT)).unwrap();
    let entry = entries(dir.path()).remove(0);
    let mut bytes = std::fs::read(&entry).unwrap();
    // Flip a byte well inside the compiled code.
    let at = bytes.len() / 2;
    bytes[at] ^= 0x5a;
    std::fs::write(&entry, &bytes).unwrap();
    let again = cached(dir.path()).load(Path::new(bots::WAT_BOT)).unwrap();
    assert!(!again.info().from_cache);
    assert!(
        again
            .info()
            .cache_warning
            .as_deref()
            .unwrap()
            .contains("MAC does not match")
    );
}

#[cfg(unix)]
#[test]
fn symlinked_shared_or_foreign_cache_entries_are_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    cached(dir.path()).load(Path::new(bots::WAT_BOT)).unwrap();
    let entry = entries(dir.path()).remove(0);
    let reload = || cached(dir.path()).load(Path::new(bots::WAT_BOT)).unwrap();

    // A symlink to a (valid!) entry elsewhere.
    let elsewhere = dir.path().join("elsewhere.bin");
    std::fs::rename(&entry, &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &entry).unwrap();
    let loaded = reload();
    assert!(!loaded.info().from_cache);
    assert!(
        loaded
            .info()
            .cache_warning
            .as_deref()
            .unwrap()
            .contains("symlink"),
        "{:?}",
        loaded.info().cache_warning
    );
    assert!(
        !std::fs::symlink_metadata(&entry)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the recompiled entry replaced the symlink"
    );

    // Group-writable.
    std::fs::set_permissions(&entry, std::fs::Permissions::from_mode(0o664)).unwrap();
    let loaded = reload();
    assert!(
        loaded
            .info()
            .cache_warning
            .as_deref()
            .unwrap()
            .contains("writable by group or others")
    );
    let mode = std::fs::metadata(&entry).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "entries are written owner-only");

    // Owned by someone else (only root can give a file away).
    if std::os::unix::fs::chown(&entry, Some(65534), None).is_ok() {
        let loaded = reload();
        assert!(
            loaded
                .info()
                .cache_warning
                .as_deref()
                .unwrap()
                .contains("owned by user 65534")
        );
    }

    // A cache directory others can write is not used at all.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let loaded = reload();
    assert!(!loaded.info().from_cache);
    assert!(
        loaded
            .info()
            .cache_warning
            .as_deref()
            .unwrap()
            .contains("writable by group or others")
    );
}

#[test]
fn arena_check_warns_about_a_refused_cache_entry() {
    let cache = tempfile::tempdir().unwrap();
    assert!(
        arena_private_cache(cache.path(), &["check", bots::WAT_BOT])
            .status
            .success()
    );
    let entry = entries(cache.path()).remove(0);
    let mut bytes = std::fs::read(&entry).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&entry, &bytes).unwrap();
    let out = arena_private_cache(cache.path(), &["check", bots::WAT_BOT]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.contains("warning: refused a module cache entry and recompiled")
            && text.contains("MAC does not match"),
        "{text}"
    );
    assert!(text.contains("compiled:"), "{text}");
}

/// `arena ARGS` with a private module cache in `cache`, killed if it is still running after
/// `limit` (a guard against a hang, not a speed check: the limit is far above a normal run).
fn arena_unless_hung(cache: &Path, args: &[&str], limit: Duration) -> std::process::Output {
    let child = std::process::Command::new(arena_bin())
        .args(args)
        .env("ARENA_CACHE_DIR", cache)
        .env_remove("ARENA_LOG")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let (done, finished) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let output = child.wait_with_output().unwrap();
        let _ = done.send(());
        output
    });
    if finished.recv_timeout(limit).is_err() {
        let _ = std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status();
        panic!(
            "`arena {}` still ran after {limit:?}: killed",
            args.join(" ")
        );
    }
    waiter.join().unwrap()
}

#[cfg(unix)]
#[test]
fn a_fifo_at_a_cache_entry_is_refused_without_blocking_and_replaced() {
    let cache = tempfile::tempdir().unwrap();
    assert!(
        arena_private_cache(cache.path(), &["check", bots::WAT_BOT])
            .status
            .success()
    );
    let entry = entries(cache.path()).remove(0);
    std::fs::remove_file(&entry).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&entry)
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo {}", entry.display());

    let out = arena_unless_hung(
        cache.path(),
        &["check", bots::WAT_BOT],
        Duration::from_secs(120),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("warning: refused a module cache entry and recompiled")
            && text.contains("a FIFO; entries must be regular files"),
        "{text}"
    );
    assert!(
        std::fs::symlink_metadata(&entry).unwrap().is_file(),
        "the recompiled entry replaced the FIFO"
    );
}

// ---- 2. bounded compilation ----

/// A WAT module with the ABI and `body` inside it.
fn module_with(body: &str) -> String {
    format!(
        r#"(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "arena_call") (param i32 i32) (result i64) (i64.const 0))
  {body})"#
    )
}

fn structure_error(text: &str) -> String {
    match Sandbox::new(Limits::default(), None)
        .unwrap()
        .load_bytes("big", text.as_bytes())
    {
        Err(e @ LoadError::Structure { .. }) => e.to_string(),
        other => panic!("expected a structural rejection, got {other:?}"),
    }
}

#[test]
fn structural_limits_reject_compiler_bombs_by_name_before_compiling() {
    // 250k empty functions (20–37 s and 1.5 GB to compile before).
    let many = module_with(&"(func)".repeat(250_000));
    let error = structure_error(&many);
    assert!(
        error.contains("250003 functions; the limit (`functions`) is 20000"),
        "{error}"
    );

    // 40k nested `if`s (quadratic before), in flat syntax so the WAT parser stays shallow.
    let nested = module_with(&format!(
        "(func {} {})",
        "i32.const 0 if ".repeat(40_000),
        "end ".repeat(40_000)
    ));
    let error = structure_error(&nested);
    assert!(error.contains("`nesting`) is 5000"), "{error}");

    let locals = module_with(&format!("(func {})", "(local i64)".repeat(10_001)));
    assert!(structure_error(&locals).contains("`locals`"));

    // 2M functions (14 MB before) is over the module size cap first.
    let huge = format!("(module {})", "(func)".repeat(2_000_000));
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    assert!(matches!(
        sandbox.load_bytes("huge", huge.as_bytes()),
        Err(LoadError::TooLarge { limit, .. }) if limit == 8 << 20
    ));
}

fn child_sandbox(compile: CompileLimits) -> Sandbox {
    Sandbox::new(
        Limits {
            compile,
            ..Limits::default()
        },
        None,
    )
    .unwrap()
    .with_compiler(Compiler::Child(arena_bin().to_owned()))
}

#[test]
fn modules_compile_in_a_child_process_and_play() {
    let sandbox = child_sandbox(CompileLimits::default());
    for path in [bots::BATTLE_RANDOM, bots::C_BOT, bots::WAT_BOT] {
        let bot = sandbox.load(Path::new(path)).unwrap();
        let mut player = bot.player(&sandbox);
        Player::<Battle>::start(&mut player, &start()).unwrap();
        assert!(Player::<Battle>::act(&mut player, &observation()).is_ok());
    }
    // wasmtime's own rejections come back from the child with its message.
    let invalid = module_with("(func (result i32) (i64.const 1))");
    let error = sandbox
        .load_bytes("invalid", invalid.as_bytes())
        .unwrap_err();
    assert!(
        matches!(&error, LoadError::Invalid { detail, .. } if detail.contains("type mismatch")),
        "{error}"
    );
}

#[test]
fn the_compile_child_is_bounded_in_memory_and_wall_time() {
    let tiny_memory = child_sandbox(CompileLimits {
        memory_bytes: 24 << 20,
        ..CompileLimits::default()
    });
    let error = tiny_memory
        .load(Path::new(bots::BATTLE_RANDOM))
        .unwrap_err();
    assert!(
        matches!(&error, LoadError::CompileLimit { detail, .. } if detail.contains("memory limit of 24 MiB")),
        "{error}"
    );
    let no_time = child_sandbox(CompileLimits {
        wall: Duration::ZERO,
        ..CompileLimits::default()
    });
    let error = no_time.load(Path::new(bots::WAT_BOT)).unwrap_err();
    assert!(
        matches!(&error, LoadError::CompileLimit { detail, .. } if detail.contains("took longer than the limit")),
        "{error}"
    );
}

// ---- 3. host calls pay fuel; the match has a wall-clock budget ----

#[test]
fn log_calls_and_refused_growths_pay_fuel_and_end_out_of_fuel() {
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    for name in ["log-spin.wat", "grow-spin.wat"] {
        let bot = sandbox.load(&hostile(name)).unwrap();
        let mut player = bot.player(&sandbox);
        let fault = Player::<Battle>::start(&mut player, &start()).unwrap_err();
        assert_eq!(fault.kind, FaultKind::OutOfFuel, "{name}: {fault}");
        let report = Player::<Battle>::last_call(&mut player);
        assert_eq!(report.fuel, Limits::default().fuel_per_setup, "{name}");
        if name == "log-spin.wat" {
            // 100 calls kept, the rest dropped but paid for.
            assert_eq!(report.log.matches("spin!").count(), 100);
            assert!(
                report.log.contains("more log calls dropped"),
                "{}",
                report.log
            );
        }
    }
    // The number of log calls a budget buys is fixed: base cost plus bytes.
    let limits = Limits {
        fuel_per_setup: 1_000_000,
        log_calls_per_call: 1_000,
        ..Limits::default()
    };
    let sandbox = Sandbox::new(limits, None).unwrap();
    let bot = sandbox.load(&hostile("log-spin.wat")).unwrap();
    let calls = || {
        let mut player = bot.player(&sandbox);
        Player::<Battle>::start(&mut player, &start()).unwrap_err();
        Player::<Battle>::last_call(&mut player)
            .log
            .matches("spin!")
            .count()
    };
    let n = calls();
    let per_call = arena_sandbox::LOG_FUEL_BASE + 5 * arena_sandbox::LOG_FUEL_PER_BYTE;
    assert!(n as u64 <= 1_000_000 / per_call && n > 50, "{n}");
    assert_eq!(n, calls(), "identical on every run");
}

#[test]
fn a_spent_match_budget_turns_every_call_into_a_timeout() {
    let sandbox = Sandbox::new(
        Limits {
            match_wall_clock: Duration::ZERO,
            ..Limits::default()
        },
        None,
    )
    .unwrap();
    let bot = sandbox.load(Path::new(bots::WAT_BOT)).unwrap();
    let mut player = bot.player(&sandbox);
    let fault = Player::<Battle>::start(&mut player, &start()).unwrap_err();
    assert_eq!(fault.kind, FaultKind::Timeout);
    assert!(fault.message.contains("budget for the match"), "{fault}");
}

// ---- 7. the smaller items ----

#[test]
fn smaller_sandbox_items_end_in_the_right_fault() {
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    let start_fault = |name: &str| {
        let bot = sandbox.load(&hostile(name)).unwrap();
        let mut player = bot.player(&sandbox);
        Player::<Battle>::start(&mut player, &start()).unwrap_err()
    };
    let fault = start_fault("alloc-zero.wat");
    assert_eq!(fault.kind, FaultKind::MemoryLimit);
    assert!(fault.message.contains("returned 0"), "{fault}");

    let fault = start_fault("grow-then-recurse.wat");
    assert_eq!(fault.kind, FaultKind::Trap, "a stack overflow: {fault}");
    assert!(fault.message.contains("call stack exhausted"), "{fault}");

    for (name, words) in [
        (
            "big-table.wat",
            "table of 10000000 elements; the limit is 10000",
        ),
        (
            "two-memories.wat",
            "2 memories; the limit (`memories`) is 1",
        ),
    ] {
        let error = sandbox.load(&hostile(name)).unwrap_err().to_string();
        assert!(error.contains(words), "{name}: {error}");
    }

    let bot = sandbox.load(&hostile("log-bad-utf8.wat")).unwrap();
    let mut player = bot.player(&sandbox);
    let _ = Player::<Battle>::start(&mut player, &start());
    let log = Player::<Battle>::last_call(&mut player).log;
    assert!(
        !log.is_empty() && log.len() <= Limits::default().log_bytes_per_call,
        "{}",
        log.len()
    );
}

// ---- 4. range checks ----

fn tournament_error(cache: &Path, text: &str) -> String {
    let file = cache.join("t.toml");
    std::fs::write(&file, text).unwrap();
    let out = arena(cache, &["tournament", "plan", file.to_str().unwrap()]);
    assert!(!out.status.success(), "{}", stdout(&out));
    stderr(&out)
}

#[test]
fn out_of_range_tournament_values_are_errors_with_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let base = |extra: &str, name: &str| {
        format!(
            "name = \"{name}\"\nseed = 1\n{extra}\n[modes.battle]\n[[bots]]\nname = \"a\"\nbot = \"builtin:random\"\n[[bots]]\nname = \"b\"\nbot = \"builtin:greedy\"\n"
        )
    };
    let cases = [
        (base("", "../../x"), ":1:", "not usable as a directory name"),
        (
            base("games_per_pairing = 4294967294", "t"),
            ":3:",
            "at most 10000",
        ),
        (
            base("[limits]\nmemory_mib = 17592186044416", "t"),
            ":4:",
            "limits.memory_mib is 17592186044416; it must be 1..=4096",
        ),
        (
            base("[limits]\nfuel_per_turn = 1", "t"),
            ":4:",
            "limits.fuel_per_turn is 1",
        ),
        (base("max_faults = 0", "t"), ":3:", "max_faults is 0"),
        (
            base("max_rejections = 0", "t"),
            ":3:",
            "max_rejections is 0; it must be 1..=1000000",
        ),
        (base("concurrency = 0", "t"), ":3:", "concurrency is 0"),
    ];
    for (text, line, words) in cases {
        let error = tournament_error(dir.path(), &text);
        assert!(
            error.contains(line) && error.contains(words),
            "{words}: {error}"
        );
        assert_eq!(error.matches(words).count(), 1, "said once: {error}");
    }
}

#[test]
fn out_of_range_flags_and_rules_are_errors_not_aborts() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena(
        dir.path(),
        &["--memory-mib", "17592186044416", "check", bots::WAT_BOT],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--memory-mib"), "{}", stderr(&out));

    let deck = dir.path().join("deck.txt");
    std::fs::write(&deck, "4294967295 x bolt\n").unwrap();
    let out = arena(
        dir.path(),
        &[
            "deck",
            "check",
            deck.to_str().unwrap(),
            "--rule",
            "max_copies=4294967295",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "an error, not an abort");
    assert!(stderr(&out).contains("deck.txt"), "{}", stderr(&out));
}

// ---- 5. the results log ----

fn tournament(dir: &Path) -> PathBuf {
    let file = dir.join("t.toml");
    std::fs::write(
        &file,
        "name = \"t\"\nseed = 3\n[modes.battle]\nturn_cap = 60\n[[bots]]\nname = \"a\"\nbot = \"builtin:random\"\n[[bots]]\nname = \"b\"\nbot = \"builtin:strong\"\n[[bots]]\nname = \"c\"\nbot = \"builtin:heuristic\"\n",
    )
    .unwrap();
    file
}

fn run(dir: &Path, out: &Path) -> std::process::Output {
    let file = tournament(dir);
    arena(
        dir,
        &[
            "tournament",
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--replays",
            "--jobs",
            "2",
        ],
    )
}

#[test]
fn damaged_or_edited_result_lines_are_reported_and_played_again() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results");
    assert!(run(dir.path(), &out).status.success());
    let file = out.join("results.jsonl");
    let original = std::fs::read(&file).unwrap();
    let mut lines: Vec<Vec<u8>> = original
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(<[u8]>::to_vec)
        .collect();
    assert_eq!(lines.len(), 6);
    // Line 2: invalid UTF-8. Line 4: an edited winner.
    lines[1][10] = 0xff;
    let edited = String::from_utf8(lines[3].clone()).unwrap();
    let flipped = if edited.contains("\"winner\":0") {
        edited.replace("\"winner\":0", "\"winner\":1")
    } else {
        edited.replacen("\"winner\":", "\"winner\":0,\"was\":", 1)
    };
    lines[3] = flipped.into_bytes();
    let damaged: Vec<u8> = lines.join(&b'\n').into_iter().chain([b'\n']).collect();
    std::fs::write(&file, damaged).unwrap();

    let report = arena(dir.path(), &["tournament", "report", out.to_str().unwrap()]);
    assert!(report.status.success(), "{}", stderr(&report));
    let warnings = stderr(&report);
    assert!(
        warnings.contains("results.jsonl:2") && warnings.contains("not UTF-8"),
        "{warnings}"
    );
    assert!(
        warnings.contains("results.jsonl:4") && warnings.contains("checksum mismatch"),
        "{warnings}"
    );

    let resumed = run(dir.path(), &out);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let games = arena_tournament::results::read_results_reporting(&out, &{
        let plan = arena_tournament::results::read_plan(&out).unwrap();
        plan.plan.fingerprint
    })
    .unwrap()
    .0;
    assert_eq!(games.len(), 6, "both damaged games were played again");
    // The re-played games are the originals.
    let text = String::from_utf8_lossy(&original).into_owned();
    for game in games.values() {
        let line = String::from_utf8(arena_tournament::results::encode_line(game)).unwrap();
        assert!(text.contains(&line), "game {} differs", game.game);
    }
}

#[test]
fn missing_replays_are_recreated_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results");
    assert!(run(dir.path(), &out).status.success());
    let replay = out.join("replays/game-000003.json");
    let original = std::fs::read(&replay).unwrap();
    std::fs::remove_file(&replay).unwrap();
    let lines = std::fs::read(out.join("results.jsonl")).unwrap();
    let resumed = run(dir.path(), &out);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_eq!(std::fs::read(&replay).unwrap(), original);
    assert_eq!(
        std::fs::read(out.join("results.jsonl")).unwrap(),
        lines,
        "no result line was added"
    );
}

#[test]
fn a_second_run_on_the_same_results_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results");
    let _held = arena_tournament::results::lock(&out.join("results.jsonl")).unwrap();
    let second = run(dir.path(), &out);
    assert!(!second.status.success());
    let text = stderr(&second);
    assert!(
        text.contains(&format!(
            "another run (pid {}) holds this lock and is writing these results",
            std::process::id()
        )),
        "{text}"
    );
    assert!(!text.contains("stopped after playing"), "{text}");
    assert!(!out.join("results.jsonl").exists(), "nothing was played");
}

// ---- 6. bot text is escaped before the terminal ----

#[test]
fn escape_sequences_from_bots_never_reach_the_terminal() {
    let cache = tempfile::tempdir().unwrap();
    let out = arena(
        cache.path(),
        &["check", hostile("escapes.wat").to_str().unwrap()],
    );
    let text = stdout(&out);
    assert!(!text.contains('\u{1b}'), "raw ESC in:\n{text}");
    assert!(text.contains("\\u{1b}[2J\\u{1b}[32mok"), "{text}");

    let replay = cache.path().join("r.json");
    let out = arena(
        cache.path(),
        &[
            "play",
            "--mode",
            "battle",
            hostile("escapes.wat").to_str().unwrap(),
            "builtin:random",
            "--replay",
            replay.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stdout(&out).contains('\u{1b}'), "{}", stdout(&out));
    let shown = arena(cache.path(), &["replay", "show", replay.to_str().unwrap()]);
    assert!(shown.status.success(), "{}", stderr(&shown));
    assert!(!stdout(&shown).contains('\u{1b}'));
}

// ---- 7. replay signatures ----

/// `arena replay verify FILE EXTRA…`: whether it succeeded, and what it printed.
fn verify(cache: &Path, file: &Path, extra: &[&str]) -> (bool, String) {
    let mut args = vec!["replay", "verify", file.to_str().unwrap()];
    args.extend_from_slice(extra);
    let out = arena(cache, &args);
    (out.status.success(), stdout(&out) + &stderr(&out))
}

#[test]
fn a_server_replay_verifies_as_signed_by_the_servers_key() {
    let dir = tempfile::tempdir().unwrap();
    let server = crate::server::Server::start(dir.path(), "jobs = 1\n[modes.battle]\n");
    let alice = server.add_user("alice", false);
    for (name, bot) in [("a", bots::BATTLE_RANDOM), ("b", bots::BATTLE_STARTER)] {
        let (status, body) = server.upload(Some(&alice), name, &std::fs::read(bot).unwrap());
        assert_eq!(status, 201, "{body}");
    }
    server.wait_for_games(1);
    let (status, replay) = server.get("/api/games/1/replay");
    assert_eq!(status, 200);
    let file = dir.path().join("game1.json");
    std::fs::write(&file, &replay).unwrap();
    let key_out = arena(
        dir.path(),
        &[
            "serve",
            "replay-key",
            "--db",
            dir.path().join("arena.db").to_str().unwrap(),
        ],
    );
    assert!(key_out.status.success(), "{}", stderr(&key_out));
    let key = stdout(&key_out).trim().to_owned();
    assert_eq!(key.len(), 64, "{key}");

    let (ok, text) = verify(dir.path(), &file, &["--key", &key]);
    assert!(ok, "{text}");
    assert!(
        text.contains(&format!(
            "signature: signed by {key}, the key given (--key)"
        )),
        "{text}"
    );
    // The public key file beside the database works as --key too.
    let public = dir.path().join("arena.db.replay-key.pub");
    let (ok, text) = verify(dir.path(), &file, &["--key", public.to_str().unwrap()]);
    assert!(ok, "{text}");
}

#[test]
fn an_edited_bot_name_in_a_signed_replay_fails_verification() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let out = arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "battle",
            bots::BATTLE_STARTER,
            "builtin:random",
            "--seed",
            "3",
            "--replay",
            file.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let key = arena_tournament::signing::ReplayKey::generate().unwrap();
    let signed = key.sign(&std::fs::read(&file).unwrap()).unwrap();
    let edited = String::from_utf8(signed).unwrap().replacen(
        "\"name\":\"battle_starter\"",
        "\"name\":\"impostor\"",
        1,
    );
    assert!(edited.contains("impostor"), "the name was edited");
    std::fs::write(&file, edited).unwrap();
    let (ok, text) = verify(dir.path(), &file, &[]);
    assert!(!ok, "{text}");
    assert!(
        text.contains(&format!(
            "signature: INVALID — its signature by {} does not match: the field `bots[0].name` was changed after it was signed",
            key.public()
        )),
        "{text}"
    );
}

#[test]
fn a_signed_replay_with_an_edited_field_fails_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let out = arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "battle",
            bots::BATTLE_STARTER,
            "builtin:random",
            "--seed",
            "3",
            "--replay",
            file.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let key = arena_tournament::signing::ReplayKey::generate().unwrap();
    let signed: serde_json::Value =
        serde_json::from_slice(&key.sign(&std::fs::read(&file).unwrap()).unwrap()).unwrap();
    let hash = signed["bots"][0]["sha256"].as_str().unwrap().to_owned();
    type Edit<'a> = &'a dyn Fn(&mut serde_json::Value);
    let edits: [(&str, Edit<'_>); 3] = [
        ("bots[0].name", &|r| {
            r["bots"][0]["name"] = "impostor".into()
        }),
        ("bots[0].sha256", &|r| {
            r["bots"][0]["sha256"] = hash.replace(&hash[..4], "0000").into()
        }),
        ("engine_version", &|r| r["engine_version"] = "0.0.1".into()),
    ];
    for (field, edit) in edits {
        let mut edited = signed.clone();
        edit(&mut edited);
        std::fs::write(&file, serde_json::to_vec(&edited).unwrap()).unwrap();
        let (ok, text) = verify(dir.path(), &file, &[]);
        assert!(!ok, "{text}");
        assert!(
            text.contains(&format!(
                "does not match: the field `{field}` was changed after it was signed"
            )),
            "{field}: {text}"
        );
    }
}

#[test]
fn an_unsigned_replay_says_so_and_fails_when_a_key_is_required() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let out = arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "battle",
            "builtin:random",
            "builtin:strong",
            "--seed",
            "3",
            "--replay",
            file.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let (ok, text) = verify(dir.path(), &file, &[]);
    assert!(ok, "{text}");
    assert!(
        text.contains(
            "signature: unsigned — its bot names, module hashes and engine version are NOT checked"
        ),
        "{text}"
    );
    let (ok, text) = verify(dir.path(), &file, &["--require-signed"]);
    assert!(!ok, "{text}");
    assert!(text.contains("(--require-signed: refused)"), "{text}");
    let key = arena_tournament::signing::ReplayKey::generate()
        .unwrap()
        .public()
        .to_string();
    let (ok, text) = verify(dir.path(), &file, &["--key", &key]);
    assert!(!ok, "{text}");
    assert!(
        text.contains(&format!(
            "signature: unsigned — not signed by the key given ({key})"
        )),
        "{text}"
    );
}

#[test]
fn an_edited_engine_version_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let out = arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "battle",
            "builtin:random",
            "builtin:strong",
            "--seed",
            "3",
            "--replay",
            file.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&file).unwrap();
    let edited = text.replacen(
        &format!("\"engine_version\":\"{}\"", arena_engine::ENGINE_VERSION),
        "\"engine_version\":\"0.0.1\"",
        1,
    );
    assert_ne!(edited, text, "the version was edited");
    std::fs::write(&file, edited).unwrap();
    let (_, text) = verify(dir.path(), &file, &[]);
    assert!(
        text.contains(&format!(
            "engine version: differs — the file says 0.0.1, this arena is {}",
            arena_engine::ENGINE_VERSION
        )),
        "{text}"
    );
}

// ---- 8. bot authors: progress while bot crates build ----

#[test]
fn tournament_plan_shows_the_progress_of_a_bot_crate_build() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.toml");
    let starter = arena_tests::root().join("sample-bots/battle-starter");
    std::fs::write(
        &file,
        format!(
            "name = \"t\"\nseed = 3\n[modes.battle]\n[[bots]]\nname = \"starter\"\nbot = {:?}\n[[bots]]\nname = \"random\"\nbot = \"builtin:random\"\n",
            starter.to_str().unwrap()
        ),
    )
    .unwrap();
    let out = arena(dir.path(), &["tournament", "plan", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stderr(&out);
    // Off a terminal: a line when the build starts, cargo's lines, and one when it is done.
    assert!(
        text.contains(&format!("building bot `starter` ({}) …", starter.display())),
        "{text}"
    );
    assert!(text.contains("  Finished"), "cargo's own lines: {text}");
    assert!(
        text.contains(&format!("built bot `starter` ({}) in ", starter.display())),
        "{text}"
    );
}
