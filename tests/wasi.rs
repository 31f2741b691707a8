//! The WASI preview 1 subset (docs/abi.md, "WASI"): what a bot built for `wasm32-wasip1`
//! sees — nothing of the host, randomness from its match seed, clocks from its fuel — and
//! how an exit ends it.

use arena_engine::{FaultKind, Player};
use arena_sandbox::{Limits, REALTIME_START_NS, Sandbox, WASI_FUEL_BASE};
use arena_sdk::MatchStart;
use arena_sdk::battle::Battle;
use arena_tests::fixtures::{battle_observation as observation, battle_start};
use arena_tests::{hostile, root};
use std::collections::BTreeMap;

/// The probe's line for each of its calls: `start`, then one turn.
fn probe(sandbox: &Sandbox, start: &MatchStart<Battle>) -> Vec<BTreeMap<String, u64>> {
    let bot = sandbox.load(&root().join("tests/wasi/probe.wat")).unwrap();
    let mut player = bot.player(sandbox);
    Player::<Battle>::start(&mut player, start).unwrap();
    let first = Player::<Battle>::last_call(&mut player).log;
    // The probe answers turns with nothing: a fault, after its line is written.
    assert!(Player::<Battle>::act(&mut player, &observation()).is_err());
    let second = Player::<Battle>::last_call(&mut player).log;
    [first, second]
        .iter()
        .map(|line| {
            assert!(
                line.ends_with('\n'),
                "written as it was, newline kept: {line:?}"
            );
            line.split_whitespace()
                .map(|field| {
                    let (key, hex) = field.split_once('=').unwrap();
                    (key.to_owned(), u64::from_str_radix(hex, 16).unwrap())
                })
                .collect()
        })
        .collect()
}

fn seeded(seed: u64) -> MatchStart<Battle> {
    MatchStart {
        seed,
        ..battle_start()
    }
}

#[test]
fn a_wasi_bot_sees_no_host_and_gets_errors_not_faults() {
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    let lines = probe(&sandbox, &seeded(1));
    let line = &lines[0];
    assert_eq!(line["arg"], 0, "no arguments, no environment");
    assert_eq!(line["pre"], 8, "no preopened directory: EBADF");
    assert_eq!(line["opn"], 52, "path_open: ENOSYS");
    assert_eq!(line["sck"], 52, "sockets: ENOSYS");
    assert_eq!(line["flt"], 21, "a buffer outside memory: EFAULT");
    assert_eq!(line["inp"], 0, "standard input is empty");
    assert_eq!(lines[1]["ini"], 1, "_initialize ran once, before start");
}

#[test]
fn wasi_randomness_follows_the_match_seed_and_clocks_follow_fuel() {
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    let one = probe(&sandbox, &seeded(1));
    assert_eq!(
        one,
        probe(&sandbox, &seeded(1)),
        "same seed, same bytes and times"
    );
    // In another sandbox, pooled or not, still the same.
    let unpooled =
        Sandbox::with_pool(Limits::default(), None, arena_sandbox::Pool::none()).unwrap();
    assert_eq!(one, probe(&unpooled, &seeded(1)));
    let other = probe(&sandbox, &seeded(2));
    assert_ne!(
        one[0]["rnd"], other[0]["rnd"],
        "another seed, other random bytes"
    );
    assert_ne!(
        one[0]["rnd"], one[1]["rnd"],
        "a stream, not one value per call"
    );
    assert_eq!(
        one[0]["mon"], other[0]["mon"],
        "time is fuel, whatever the seed"
    );

    // The clocks: the fuel spent so far in the match, in nanoseconds; realtime starts at a
    // fixed date; they never run backwards across calls; a sleep advances them exactly.
    let (start, turn) = (&one[0], &one[1]);
    assert!(
        start["mon"] > WASI_FUEL_BASE && start["mon"] < 1_000_000,
        "{start:?}"
    );
    assert!(start["rea"] - REALTIME_START_NS > start["mon"]);
    assert!(turn["mon"] > start["mon"] + start["slp"], "{one:?}");
    let sleep = 1_000_000_000;
    assert!(
        start["slp"] > sleep && start["slp"] < sleep + 10 * WASI_FUEL_BASE,
        "{start:?}"
    );
}

#[test]
fn proc_exit_is_a_fault_quoting_the_panic_and_ends_the_instance() {
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    let bot = sandbox.load(&hostile("wasi-exit.wat")).unwrap();
    let mut player = bot.player(&sandbox);
    let fault = Player::<Battle>::start(&mut player, &battle_start()).unwrap_err();
    assert_eq!(fault.kind, FaultKind::Trap);
    assert_eq!(
        fault.message,
        "the bot exited with code 2 (proc_exit); it wrote: panic: boom"
    );
    let log = Player::<Battle>::last_call(&mut player).log;
    assert!(log.starts_with("panic: boom\n\ngoroutine 1"), "{log}");
    // The next request gets a fresh instance, started again: this bot exits again.
    let later = Player::<Battle>::act(&mut player, &observation()).unwrap_err();
    assert_eq!(later.kind, FaultKind::Trap);
    assert_eq!(
        later.message,
        "starting a fresh instance after the trap of an earlier call: the bot exited with code 2 (proc_exit); it wrote: panic: boom"
    );
}

#[test]
fn log_lines_and_program_output_keep_their_lines_apart() {
    let module = r#"(module
  (import "arena" "log" (func $log (param i32 i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 100) "onetwo\nthreefour")
  (func $out (param $at i32) (param $len i32)
    (i32.store (i32.const 0) (local.get $at))
    (i32.store (i32.const 4) (local.get $len))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "arena_call") (param i32 i32) (result i64)
    (call $log (i32.const 100) (i32.const 3))
    (call $out (i32.const 103) (i32.const 4))
    (call $log (i32.const 107) (i32.const 5))
    (call $out (i32.const 112) (i32.const 2))
    (call $out (i32.const 114) (i32.const 2))
    (i64.const 0)))"#;
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    let bot = sandbox.load_bytes("mixed", module.as_bytes()).unwrap();
    let mut player = bot.player(&sandbox);
    Player::<Battle>::start(&mut player, &battle_start()).unwrap();
    // Output is kept as written (`fo` then `ur`: one line), a log call is a line of its own.
    assert_eq!(
        Player::<Battle>::last_call(&mut player).log,
        "one\ntwo\nthree\nfour"
    );
}

#[test]
fn a_c_bot_on_wasi_libc_prints_draws_from_its_seed_and_plays() {
    let Some(probe) = arena_tests::bots::WASI_LIBC_PROBE else {
        assert!(
            std::env::var_os("ARENA_REQUIRE_WASI_LIBC").is_none(),
            "ARENA_REQUIRE_WASI_LIBC is set but clang could not build for wasm32-wasi"
        );
        eprintln!("skipped: clang with wasi-libc is not installed");
        return;
    };
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    let bot = sandbox.load(std::path::Path::new(probe)).unwrap();
    let line = |seed: u64| {
        let mut player = bot.player(&sandbox);
        Player::<Battle>::start(&mut player, &seeded(seed)).unwrap();
        let start = Player::<Battle>::last_call(&mut player).log;
        let action = Player::<Battle>::act(&mut player, &observation()).unwrap();
        assert_eq!(action, arena_sdk::battle::Action::Attack { target: 3 });
        (start, Player::<Battle>::last_call(&mut player).log)
    };
    let (start, turn) = line(1);
    // printf reaches the log; getentropy gives the seed's bytes; the clock is the fuel.
    assert!(
        start.starts_with("rand ") && start.ends_with('\n'),
        "{start:?}"
    );
    assert_eq!((start.clone(), turn.clone()), line(1));
    assert_ne!(start, line(2).0, "another seed, another rand()");
    let clock = |log: &str| -> u64 { log.split_whitespace().nth(3).unwrap().parse().unwrap() };
    assert!(clock(&turn) > clock(&start), "{start} {turn}");
}
