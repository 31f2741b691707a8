//! The sandbox against well-behaved and hostile bots, through the engine's Player trait.

use arena_engine::{Fault, FaultKind, Player};
use arena_sandbox::{Limits, LoadError, ModuleCache, Pool, Sandbox};
use arena_sdk::battle::{Action, Battle};
use arena_tests::fixtures::{
    battle_observation as observation, battle_setup_request as setup_request, battle_start as start,
};
use arena_tests::{bots, hostile};
use std::path::Path;

fn sandbox() -> Sandbox {
    Sandbox::new(Limits::default(), None).unwrap()
}

/// Start a bot in battle and return its player (panics if start fails).
fn started(sandbox: &Sandbox, path: &str) -> arena_sandbox::WasmBot {
    let bot = sandbox
        .load(Path::new(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut player = bot.player(sandbox);
    Player::<Battle>::start(&mut player, &start()).unwrap_or_else(|e| panic!("{path}: start: {e}"));
    player
}

#[test]
fn sample_bots_in_three_languages_play_a_turn() {
    let sandbox = sandbox();
    for path in [bots::BATTLE_RANDOM, bots::C_BOT, bots::WAT_BOT] {
        let mut player = started(&sandbox, path);
        let team = Player::<Battle>::setup(&mut player, &setup_request()).unwrap();
        assert_eq!(team.team.len(), 3, "{path}");
        let action = Player::<Battle>::act(&mut player, &observation()).unwrap();
        match action {
            Action::Attack { target } => assert!([3, 4, 5].contains(&target), "{path}: {action:?}"),
            Action::Skill => panic!("{path}: skill is not ready, yet the bot used it"),
        }
        assert!(
            Player::<Battle>::last_call(&mut player).fuel > 0,
            "{path}: fuel is counted"
        );
    }
}

#[test]
fn wat_and_c_bots_pick_the_targets_their_source_says() {
    let sandbox = sandbox();
    let mut wat = started(&sandbox, bots::WAT_BOT);
    assert_eq!(
        Player::<Battle>::act(&mut wat, &observation()).unwrap(),
        Action::Attack { target: 3 }
    );
    let mut ready = observation();
    ready.skill_ready = true;
    assert_eq!(
        Player::<Battle>::act(&mut wat, &ready).unwrap(),
        Action::Skill
    );
    let mut c = started(&sandbox, bots::C_BOT);
    assert_eq!(
        Player::<Battle>::act(&mut c, &observation()).unwrap(),
        Action::Attack { target: 5 }
    );
    assert_eq!(
        Player::<Battle>::act(&mut c, &ready).unwrap(),
        Action::Skill
    );
}

#[test]
fn bot_log_is_captured_per_call() {
    let sandbox = sandbox();
    let bot = sandbox.load(Path::new(bots::WAT_BOT)).unwrap();
    let mut player = bot.player(&sandbox);
    Player::<Battle>::start(&mut player, &start()).unwrap();
    let report = Player::<Battle>::last_call(&mut player);
    assert_eq!(report.log, "wat-bot: hello from WebAssembly text");
    Player::<Battle>::act(&mut player, &observation()).unwrap();
    assert_eq!(
        Player::<Battle>::last_call(&mut player).log,
        "",
        "the log is per call"
    );
}

/// The fault a hostile bot produces on its first request (start, or a turn if it starts).
fn first_fault(sandbox: &Sandbox, name: &str) -> Fault {
    let bot = sandbox
        .load(&hostile(name))
        .unwrap_or_else(|e| panic!("{name} should load: {e}"));
    let mut player = bot.player(sandbox);
    match Player::<Battle>::start(&mut player, &start()) {
        Err(fault) => fault,
        Ok(()) => Player::<Battle>::act(&mut player, &observation()).expect_err(name),
    }
}

#[test]
fn hostile_bots_end_in_their_documented_faults() {
    let sandbox = sandbox();
    let cases = [
        ("infinite-loop.wat", FaultKind::OutOfFuel, "fuel"),
        ("start-loop.wat", FaultKind::OutOfFuel, "fuel"),
        ("memory-hog.wat", FaultKind::MemoryLimit, "could not grow"),
        ("recursion.wat", FaultKind::Trap, "stack"),
        ("trap.wat", FaultKind::Trap, "unreachable"),
        (
            "out-of-bounds.wat",
            FaultKind::OutOfBounds,
            "outside the bot's memory",
        ),
        (
            "huge-response.wat",
            FaultKind::ResponseTooLarge,
            "1073741824 bytes",
        ),
        ("bad-utf8.wat", FaultKind::NotUtf8, "not UTF-8"),
        ("bad-json.wat", FaultKind::NotJson, "key must be a string"),
        ("wrong-shape.wat", FaultKind::WrongShape, "dance"),
    ];
    for (name, kind, words) in cases {
        let fault = first_fault(&sandbox, name);
        assert_eq!(fault.kind, kind, "{name}: {fault}");
        assert!(
            fault.message.contains(words),
            "{name}: `{}` should mention `{words}`",
            fault.message
        );
    }
    // The host carries on: a good bot still plays in the same sandbox.
    let mut good = started(&sandbox, bots::BATTLE_RANDOM);
    assert!(Player::<Battle>::act(&mut good, &observation()).is_ok());
}

/// Pooled or on demand, a bot meets the same limits with the same words and fuel: the
/// pool's own limits never decide (docs/performance.md, "Per-match start").
#[test]
fn pooled_and_on_demand_instances_fault_alike() {
    let pooled = sandbox();
    let on_demand = Sandbox::with_pool(Limits::default(), None, Pool::none()).unwrap();
    for name in [
        "memory-hog.wat",
        "grow-spin.wat",
        "recursion.wat",
        "grow-then-recurse.wat",
        "start-loop.wat",
        "out-of-bounds.wat",
    ] {
        let faults = [&pooled, &on_demand].map(|sandbox| {
            let bot = sandbox.load(&hostile(name)).unwrap();
            let mut player = bot.player(sandbox);
            let fault = match Player::<Battle>::start(&mut player, &start()) {
                Err(fault) => fault,
                Ok(()) => Player::<Battle>::act(&mut player, &observation()).expect_err(name),
            };
            (fault, Player::<Battle>::last_call(&mut player).fuel)
        });
        assert_eq!(faults[0], faults[1], "{name}");
    }
}

/// A full pool is not an error: the next instance comes from the on-demand allocator and
/// plays the same; a slot freed by a finished match is taken again.
#[test]
fn a_full_pool_falls_back_to_on_demand_instances() {
    let pool = Pool {
        instances: 1,
        ..Pool::default()
    };
    let sandbox = Sandbox::with_pool(Limits::default(), None, pool).unwrap();
    let bot = sandbox.load(Path::new(bots::BATTLE_RANDOM)).unwrap();
    let mut first = bot.player(&sandbox);
    let mut second = bot.player(&sandbox);
    assert!(first.pooled());
    assert!(!second.pooled(), "the only slot is taken");
    assert_eq!(sandbox.pool_usage(), Some((1, 1)));
    let mut answers = Vec::new();
    for player in [&mut first, &mut second] {
        Player::<Battle>::start(player, &start()).unwrap();
        Player::<Battle>::setup(player, &setup_request()).unwrap();
        let action = Player::<Battle>::act(player, &observation()).unwrap();
        answers.push((action, Player::<Battle>::last_call(player).fuel));
    }
    assert_eq!(answers[0], answers[1], "same answer, same fuel");
    drop(first);
    assert_eq!(sandbox.pool_usage(), Some((1, 0)), "the slot is free again");
    assert!(bot.player(&sandbox).pooled());
    assert_eq!(
        Sandbox::with_pool(Limits::default(), None, Pool::none())
            .unwrap()
            .pool_usage(),
        None
    );
}

/// A bot whose answer counts its calls in memory that no data segment initializes: the
/// target it attacks is the number of calls before this one.
const CALL_COUNTER: &str = r#"(module
  (memory (export "memory") 1)
  (data (i32.const 0) "{\"attack\":{\"target\":0}}")
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 2048))
  (func (export "arena_call") (param i32 i32) (result i64)
    (i32.store8 (i32.const 20) (i32.add (i32.const 48) (i32.load8_u (i32.const 1000))))
    (i32.store8 (i32.const 1000) (i32.add (i32.load8_u (i32.const 1000)) (i32.const 1)))
    (i64.const 23)))
"#;

/// A pool slot is reused by the next match, its memory is not: what one match wrote is gone
/// when the next instance starts in the same slot (the page-map scan without swap, clearing
/// with it; see `arena-sandbox`'s `pagemap_scan`).
#[test]
fn a_reused_pool_slot_starts_with_fresh_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("counter.wat");
    std::fs::write(&path, CALL_COUNTER).unwrap();
    let pool = Pool {
        instances: 1,
        ..Pool::default()
    };
    let sandbox = Sandbox::with_pool(Limits::default(), None, pool).unwrap();
    let bot = sandbox.load(&path).unwrap();
    for round in 0..3 {
        let mut player = bot.player(&sandbox);
        assert!(player.pooled(), "round {round}: the one slot, again");
        Player::<Battle>::start(&mut player, &start()).unwrap();
        // The start was call 0 of this match: turns see 1, 2, 3 — never a count carried over.
        for expected in 1..=3u8 {
            let action = Player::<Battle>::act(&mut player, &observation()).unwrap();
            assert_eq!(action, Action::Attack { target: expected }, "round {round}");
        }
    }
}

/// Where the address space is capped too low for the instance pool's reservation, bots
/// still play: instances are allocated on demand, and the run says why.
#[cfg(target_os = "linux")]
#[test]
fn a_refused_pool_reservation_falls_back_to_on_demand_instances() {
    let cache = tempfile::tempdir().unwrap();
    // 16 GiB: room for a few on-demand instances (4 GiB of address space each), not for
    // the default pool (4 GiB per slot, two slots per core plus spares).
    let script = format!(
        "ulimit -v 16777216 && exec '{}' check --json '{}'",
        crate::arena_bin().display(),
        bots::BATTLE_RANDOM
    );
    let output = std::process::Command::new("sh")
        .args(["-c", &script])
        .env("ARENA_CACHE_DIR", cache.path())
        .env("ARENA_LOG", "warn")
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", arena_tests::stderr(&output)));
    assert_eq!(report["ok"], true, "{report}");
    assert_eq!(report["modes"][0]["trial"]["faults"], 0, "{report}");
    assert!(
        arena_tests::stderr(&output).contains("cannot reserve the instance pool"),
        "{}",
        arena_tests::stderr(&output)
    );
}

#[test]
fn a_faulted_bot_answers_again_on_its_next_turn() {
    let sandbox = sandbox();
    let bot = sandbox.load(&hostile("wrong-shape.wat")).unwrap();
    let mut player = bot.player(&sandbox);
    Player::<Battle>::start(&mut player, &start()).unwrap();
    for _ in 0..3 {
        let fault = Player::<Battle>::act(&mut player, &observation()).unwrap_err();
        assert_eq!(fault.kind, FaultKind::WrongShape);
    }
}

#[test]
fn out_of_fuel_happens_at_the_same_fuel_count_every_run() {
    let limits = Limits {
        fuel_per_turn: 1_000_000,
        ..Limits::default()
    };
    let sandbox = Sandbox::new(limits.clone(), None).unwrap();
    let bot = sandbox.load(&hostile("infinite-loop.wat")).unwrap();
    let mut used = Vec::new();
    for _ in 0..3 {
        let mut player = bot.player(&sandbox);
        // Start also loops: it uses the whole setup budget.
        assert_eq!(
            Player::<Battle>::start(&mut player, &start())
                .unwrap_err()
                .kind,
            FaultKind::OutOfFuel
        );
        used.push(Player::<Battle>::last_call(&mut player).fuel);
    }
    assert_eq!(used, vec![limits.fuel_per_setup; 3]);

    // A real bot's fuel per request is also identical run after run.
    let rust = sandbox.load(Path::new(bots::BATTLE_RANDOM)).unwrap();
    let fuel_of_turn = || {
        let mut player = rust.player(&sandbox);
        Player::<Battle>::start(&mut player, &start()).unwrap();
        Player::<Battle>::act(&mut player, &observation()).unwrap();
        Player::<Battle>::last_call(&mut player).fuel
    };
    let first = fuel_of_turn();
    assert!(first > 1000);
    assert_eq!(first, fuel_of_turn());
}

#[test]
fn rejected_modules_say_what_is_wrong() {
    let sandbox = sandbox();
    let cases = [
        (
            "forbidden-import.wat",
            "imports env::glue_vi, wasi_unstable::fd_write",
        ),
        (
            "forbidden-import.wat",
            "bots may import only arena::log, arena::fuel_left, arena::fuel_budget and WASI preview 1",
        ),
        ("wasi-mistyped.wat", "WASI preview 1 defines it as"),
        (
            "fuel-mistyped.wat",
            "imports arena::fuel_left as (func (result i32)); it must be (func (result i64))",
        ),
        ("missing-export.wat", "missing export `arena_call`"),
        ("not-wasm.wasm", "not a WebAssembly module"),
        (
            "huge-memory.wat",
            "asks for 125 MiB of initial memory; the limit is 64 MiB",
        ),
    ];
    for (name, words) in cases {
        let error = sandbox.load(&hostile(name)).expect_err(name).to_string();
        assert!(
            error.contains(words),
            "{name}: `{error}` should contain `{words}`"
        );
        assert!(
            error.starts_with(name.split('.').next().unwrap()),
            "{name}: `{error}` names the bot"
        );
    }
    let small = Sandbox::new(
        Limits {
            module_bytes: 100,
            ..Limits::default()
        },
        None,
    )
    .unwrap();
    assert!(matches!(
        small.load(Path::new(bots::BATTLE_RANDOM)),
        Err(LoadError::TooLarge { .. })
    ));
}

#[test]
fn a_memory_limit_below_the_initial_memory_is_a_load_error() {
    let sandbox = Sandbox::new(
        Limits {
            memory_bytes: 1 << 20,
            ..Limits::default()
        },
        None,
    )
    .unwrap();
    let error = sandbox
        .load(Path::new(bots::BATTLE_RANDOM))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("initial memory; the limit is 1 MiB"),
        "{error}"
    );
    // Just over a whole MiB (the SDK's arena makes a Rust bot's initial memory 2 MiB and
    // some KiB): the message must not read "asks for 2 MiB; the limit is 2 MiB".
    let initial = sandbox_default_initial(bots::BATTLE_RANDOM);
    assert!(
        !initial.is_multiple_of(1 << 20) && initial > 1 << 20,
        "{initial}"
    );
    let limit = initial & !((1 << 20) - 1);
    let tight = Sandbox::new(
        Limits {
            memory_bytes: limit as usize,
            ..Limits::default()
        },
        None,
    )
    .unwrap();
    let error = tight
        .load(Path::new(bots::BATTLE_RANDOM))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains(&format!(
            "asks for {} KiB of initial memory; the limit is {} MiB",
            initial >> 10,
            limit >> 20
        )),
        "{error}"
    );
}

/// A bot's initial memory in bytes, loaded under the default limits.
fn sandbox_default_initial(path: &str) -> u64 {
    sandbox()
        .load(Path::new(path))
        .unwrap()
        .info()
        .initial_memory
}

#[test]
fn compiled_modules_are_cached_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let cached = || Sandbox::new(Limits::default(), Some(ModuleCache::new(dir.path()))).unwrap();
    let first = cached().load(Path::new(bots::BATTLE_RANDOM)).unwrap();
    assert!(!first.info().from_cache);
    let second = cached().load(Path::new(bots::BATTLE_RANDOM)).unwrap();
    assert!(
        second.info().from_cache,
        "the second load does not recompile"
    );
    assert_eq!(first.info().sha256, second.info().sha256);
    let entries = std::fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "cwasm")
        })
        .count();
    assert_eq!(entries, 1);
    // A cached module plays like a fresh one.
    let sandbox = cached();
    let mut player = sandbox
        .load(Path::new(bots::BATTLE_RANDOM))
        .unwrap()
        .player(&sandbox);
    Player::<Battle>::start(&mut player, &start()).unwrap();
    assert!(Player::<Battle>::act(&mut player, &observation()).is_ok());
}

#[test]
fn a_corrupt_cache_entry_is_recompiled() {
    let dir = tempfile::tempdir().unwrap();
    let sandbox = Sandbox::new(Limits::default(), Some(ModuleCache::new(dir.path()))).unwrap();
    sandbox.load(Path::new(bots::WAT_BOT)).unwrap();
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "cwasm") {
            std::fs::write(path, b"garbage").unwrap();
        }
    }
    let again = sandbox.load(Path::new(bots::WAT_BOT)).unwrap();
    assert!(!again.info().from_cache);
    assert!(
        again
            .info()
            .cache_warning
            .as_deref()
            .is_some_and(|w| w.contains("not a cache entry of this arena"))
    );
}

/// The SDK's allocator (sdk/src/alloc.rs) keeps a Rust bot's heap inside its initial
/// memory: over a whole real game, in either encoding, no sample bot grows its memory. (A
/// growth makes the next match in the same pool slot take the pages away again, which
/// interrupts every core the arena runs on: docs/performance.md, "Scaling".)
#[test]
fn sample_bots_play_a_whole_game_without_growing_their_memory() {
    use arena_builtins::Builtins;
    use arena_sandbox::EncodingPolicy;
    use arena_sdk::{conquest::Conquest, dungeon::Dungeon, grid::Grid, tcg::Tcg};

    fn whole_game<G: Builtins + arena_engine::Ruleset>(bot: &str, builtins: [&str; 2]) {
        let game = arena_tests::transcript::<G>(builtins[0], builtins[1], 3);
        for policy in [EncodingPolicy::Json, EncodingPolicy::Fastest] {
            let sandbox = arena_tests::sandbox_offering(policy);
            let loaded = sandbox.load(Path::new(bot)).unwrap();
            let initial = loaded.info().initial_memory as usize;
            let mut player = loaded.player(&sandbox);
            Player::<G>::start(&mut player, &game.start).unwrap();
            Player::<G>::setup(&mut player, &game.setup).unwrap();
            for (observation, _) in &game.turns {
                Player::<G>::act(&mut player, observation).unwrap();
            }
            assert!(!game.turns.is_empty());
            assert_eq!(
                player.memory_bytes(),
                Some(initial),
                "{bot} ({policy:?}) grew its memory from {initial} bytes over {} turns",
                game.turns.len()
            );
        }
    }
    whole_game::<Battle>(bots::BATTLE_STRONG, ["strong", "heuristic"]);
    whole_game::<Battle>(bots::BATTLE_STARTER, ["strong", "heuristic"]);
    whole_game::<Tcg>(bots::TCG_PLANNER, ["planner", "random"]);
    whole_game::<Grid>(bots::GRID_COMMANDER, ["commander", "random-walker"]);
    whole_game::<Dungeon>(bots::DUNGEON_STRONG, ["strong", "random"]);
    whole_game::<Conquest>(bots::CONQUEST_STRONG, ["strong", "random"]);
    whole_game::<Conquest>(bots::CONQUEST_STARTER, ["strong", "random"]);
}

#[test]
fn the_same_bytes_loaded_again_share_the_compiled_module_while_a_bot_holds_it() {
    use arena_sdk::Mode;
    use arena_tournament::bots::Contestant;
    use arena_tournament::game::{self, GameSpec, Keep};

    let sandbox = sandbox();
    let first = sandbox.load(Path::new(bots::BATTLE_STRONG)).unwrap();
    assert!(!first.info().from_cache, "no disk cache: compiled");
    let bytes = std::fs::read(bots::BATTLE_STRONG).unwrap();
    let second = sandbox.load_bytes("again", &bytes).unwrap();
    assert!(second.same_code(&first));
    assert!(second.info().from_cache, "not compiled a second time");
    assert_eq!(second.name(), "again");
    assert_eq!(second.info().sha256, first.info().sha256);
    assert_eq!(second.info().exports, first.info().exports);
    assert_eq!(second.info().initial_memory, first.info().initial_memory);
    // Other bytes, or another sandbox (its own engine and limits), compile their own.
    assert!(
        !sandbox
            .load(Path::new(bots::BATTLE_RANDOM))
            .unwrap()
            .same_code(&first)
    );
    let elsewhere = Sandbox::new(Limits::default(), None)
        .unwrap()
        .load(Path::new(bots::BATTLE_STRONG))
        .unwrap();
    assert!(!elsewhere.same_code(&first) && !elsewhere.info().from_cache);

    // Two instances of the shared code keep their own memory: the mirror game plays out as
    // the built-in the bot exports does against itself natively.
    let spec = GameSpec {
        mode: Mode::Battle,
        rules: serde_json::Value::Null,
        seed: 5,
        max_faults: 3,
        max_rejections: arena_engine::DEFAULT_MAX_REJECTIONS,
    };
    let play = |seats: [&Contestant; 2]| {
        game::play(&spec, seats, ["a", "b"], &sandbox, Keep::Nothing)
            .unwrap()
            .outcome
    };
    let (a, b) = (
        Contestant::Wasm(first.clone()),
        Contestant::Wasm(second.clone()),
    );
    let wasm = play([&a, &b]);
    let strong = Contestant::Builtin("strong".into());
    let native = play([&strong, &strong]);
    assert_eq!(
        (&wasm.winner, &wasm.reason, wasm.turns),
        (&native.winner, &native.reason, native.turns)
    );
    for (w, n) in wasm.seats.iter().zip(&native.seats) {
        assert_eq!((&w.stats, w.faults), (&n.stats, n.faults));
    }

    // The sandbox does not keep a module alive: once its last bot is gone, loading the
    // bytes compiles again.
    drop((first, second, a, b));
    assert!(
        !sandbox
            .load(Path::new(bots::BATTLE_STRONG))
            .unwrap()
            .info()
            .from_cache
    );
}

#[test]
fn after_a_trap_the_next_request_gets_a_fresh_instance() {
    let sandbox = sandbox();
    let path = hostile("trap-every-other.wat");
    let mut player = started(&sandbox, path.to_str().unwrap());
    let observation = observation();
    let mut kinds = Vec::new();
    let mut logs = Vec::new();
    for _ in 0..5 {
        let answer = Player::<Battle>::act(&mut player, &observation);
        kinds.push(answer.map_err(|fault| fault.kind));
        logs.push(Player::<Battle>::last_call(&mut player).log);
    }
    // Each instance answers its first turn and traps on its second; after each trap the
    // next turn is answered by a fresh instance, which says so in that call's log.
    assert_eq!(
        kinds,
        [
            Ok(Action::Skill),
            Err(FaultKind::Trap),
            Ok(Action::Skill),
            Err(FaultKind::Trap),
            Ok(Action::Skill)
        ]
    );
    let fresh =
        "[arena: a fresh instance of the bot, started again after the trap of an earlier call]";
    assert!(
        !logs[0].contains(fresh) && !logs[1].contains(fresh),
        "{logs:?}"
    );
    assert!(
        logs[2].starts_with(fresh) && logs[4].starts_with(fresh),
        "{logs:?}"
    );
    assert!(!logs[3].contains(fresh), "{logs:?}");
}

#[test]
fn a_rust_bot_that_panics_once_answers_its_next_turn() {
    let cache = tempfile::tempdir().unwrap();
    let answers = crate::seat0_answers(
        cache.path(),
        ("battle", bots::PANIC_ONCE, "builtin:random"),
        "1",
    );
    let faults = crate::faults(&answers);
    // One trap, quoting the bot's own panic (not a borrow error of the SDK's state).
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert_eq!(faults[0].0, "trap", "{faults:?}");
    assert!(
        faults[0].1.contains("panic-once: turn") && !faults[0].1.contains("RefCell"),
        "{faults:?}"
    );
    let trapped = answers
        .iter()
        .position(|a| a["answer"]["fault"].is_object())
        .unwrap();
    let next = answers
        .get(trapped + 1)
        .expect("the bot has turns after its trap");
    assert!(
        next["answer"]["fault"].is_null(),
        "the next turn is answered: {next}"
    );
    assert!(
        next["log"].as_str().unwrap().starts_with(
            "[arena: a fresh instance of the bot, started again after the trap of an earlier call]"
        ),
        "{next}"
    );
}
