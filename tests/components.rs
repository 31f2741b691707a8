//! Components of the `arena:bot` world (docs/abi.md, "Components") in the sandbox: small
//! components written in WAT, so that every rule is checked without an interpreter's
//! 20 MB (the Python bots' tests are in `python.rs`).

use crate::arena;
use arena_engine::{FaultKind, Player};
use arena_sandbox::{Limits, LoadError, Sandbox};
use arena_sdk::battle::Battle;
use arena_tests::fixtures::{battle_observation, battle_start};
use arena_tests::{stderr, stdout};
use std::path::{Path, PathBuf};

/// A component of the world whose core module's `call` runs `body` (WAT instructions with
/// `$ptr`, `$len` and a local `$c`, the request's fourth byte: `t` start, `e` setup, `u`
/// turn, `n` end; it must leave the response's pointer at address 0 and its length at 4).
/// The core module `$Main` gets its memory and `log` from a first module (`$Mem`) so that
/// `log` can be lowered with that memory; `extra` adds fields to `$Main`.
fn component(body: &str, extra: &str) -> String {
    format!(
        r#"(component
  (import "log" (func $log (param "msg" string)))
  (core module $Mem
    (memory (export "memory") 1)
    (func (export "realloc") (param i32 i32 i32 i32) (result i32) i32.const 1024))
  (core instance $mem (instantiate $Mem))
  (alias core export $mem "memory" (core memory $memory))
  (alias core export $mem "realloc" (core func $realloc))
  (core func $log_lower (canon lower (func $log) (memory $memory)))
  (core module $Main
    (import "env" "memory" (memory 1))
    (import "env" "log" (func $log (param i32 i32)))
    (data (i32.const 16) "{{}}\"stay\"hello")
    {extra}
    (func (export "call") (param $ptr i32) (param $len i32) (result i32)
      (local $c i32)
      (local.set $c (i32.load8_u (i32.add (local.get $ptr) (i32.const 3))))
      {body}
      (i32.const 0)))
  (core instance $env (export "memory" (memory $memory)) (export "log" (func $log_lower)))
  (core instance $main (instantiate $Main (with "env" (instance $env))))
  (func $call (param "request" string) (result string)
    (canon lift (core func $main "call") (memory $memory) (realloc $realloc)))
  (export "call" (func $call))
)"#
    )
}

/// A grid bot: an empty answer to start and end (logging "hello" at start), `{}` to
/// setup, `"stay"` to every turn — always legal.
const STAY: &str = r#"
      (i32.store (i32.const 0) (i32.const 16))
      (i32.store (i32.const 4) (i32.const 0))
      (if (i32.eq (local.get $c) (i32.const 116)) (then (call $log (i32.const 24) (i32.const 5))))
      (if (i32.eq (local.get $c) (i32.const 101)) (then (i32.store (i32.const 4) (i32.const 2))))
      (if (i32.eq (local.get $c) (i32.const 117))
        (then (i32.store (i32.const 0) (i32.const 18)) (i32.store (i32.const 4) (i32.const 6))))"#;

/// `STAY`, but every turn runs `turn` first.
fn stay_but(turn: &str) -> String {
    format!("(if (i32.eq (local.get $c) (i32.const 117)) (then {turn})) {STAY}")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A player of the component in `path`, started in battle (the limits below act before
/// an answer is read, so the mode's answers do not matter).
fn started(sandbox: &Sandbox, path: &Path) -> arena_sandbox::WasmBot {
    let bot = sandbox.load(path).unwrap_or_else(|e| panic!("{e}"));
    assert!(bot.is_component());
    let mut player = bot.player(sandbox);
    Player::<Battle>::start(&mut player, &battle_start()).unwrap();
    player
}

#[test]
fn a_component_plays_a_whole_game_and_logs() {
    let dir = tempfile::tempdir().unwrap();
    let bot = write(dir.path(), "stay.wat", &component(STAY, ""));
    let bot = bot.to_str().unwrap();
    let cache = dir.path().join("cache");
    let out = arena(&cache, &["check", bot]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    assert!(text.contains("imports: log: func(msg: string)"), "{text}");
    assert!(
        text.contains("call: func(request: string) -> string"),
        "{text}"
    );
    assert!(text.contains("log: hello"), "{text}");
    assert!(
        text.contains("encoding: json (a component: components speak JSON)"),
        "{text}"
    );
    assert!(text.contains("ok: the bot is ready to play grid"), "{text}");
    // The second load comes from the module cache, verified like a core module's.
    let again = stdout(&arena(&cache, &["check", bot]));
    assert!(again.contains("from cache"), "{again}");

    let replay = dir.path().join("game.replay");
    let out = arena(
        &cache,
        &[
            "play",
            "--mode",
            "grid",
            "--seed",
            "3",
            bot,
            "builtin:idle",
            "--replay",
            replay.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let first = std::fs::read(&replay).unwrap();
    let out = arena(
        &cache,
        &[
            "play",
            "--mode",
            "grid",
            "--seed",
            "3",
            bot,
            "builtin:idle",
            "--replay",
            replay.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        first,
        std::fs::read(&replay).unwrap(),
        "same seed, same bytes"
    );
}

#[test]
fn after_a_trap_a_component_is_started_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let sandbox = Sandbox::new(
        Limits {
            fuel_per_turn: 100_000,
            ..Limits::default()
        },
        None,
    )
    .unwrap();
    let spin = write(
        dir.path(),
        "spin.wat",
        &component(&stay_but("(loop br 0)"), ""),
    );
    let mut player = started(&sandbox, &spin);
    let observation = battle_observation();
    let fault = Player::<Battle>::act(&mut player, &observation).unwrap_err();
    assert_eq!(fault.kind, FaultKind::OutOfFuel, "{fault}");
    assert_eq!(Player::<Battle>::last_call(&mut player).fuel, 100_000);
    // wasmtime never enters a component again after a trap: the next call is a fresh
    // instance's (which spins again).
    let fault = Player::<Battle>::act(&mut player, &observation).unwrap_err();
    assert_eq!(fault.kind, FaultKind::OutOfFuel, "{fault}");
    let report = Player::<Battle>::last_call(&mut player);
    assert!(
        report
            .log
            .starts_with("[arena: a fresh instance of the bot"),
        "{}",
        report.log
    );

    let unreachable = write(
        dir.path(),
        "trap.wat",
        &component(&stay_but("unreachable"), ""),
    );
    let mut player = started(&sandbox, &unreachable);
    let fault = Player::<Battle>::act(&mut player, &observation).unwrap_err();
    assert_eq!(fault.kind, FaultKind::Trap, "{fault}");
    assert!(fault.message.contains("unreachable"), "{fault}");
}

#[test]
fn a_components_response_and_memories_are_limited_like_a_core_bots() {
    let dir = tempfile::tempdir().unwrap();
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    let observation = battle_observation();

    // A 65,536-byte answer: over the 64 KiB response limit.
    let big = write(
        dir.path(),
        "big.wat",
        &component(
            &format!(
                "{STAY} (if (i32.eq (local.get $c) (i32.const 117)) (then \
                 (i32.store (i32.const 0) (i32.const 0)) (i32.store (i32.const 4) (i32.const 65537))))"
            ),
            "",
        )
        .replace(
            "(memory (export \"memory\") 1)",
            "(memory (export \"memory\") 2)",
        )
        .replace("(import \"env\" \"memory\" (memory 1))", "(import \"env\" \"memory\" (memory 2))"),
    );
    let mut player = started(&sandbox, &big);
    let fault = Player::<Battle>::act(&mut player, &observation).unwrap_err();
    assert_eq!(fault.kind, FaultKind::ResponseTooLarge, "{fault}");

    // Two memories of 40 MiB each: each under the 64 MiB limit, together over it.
    let grow = stay_but(
        "(drop (memory.grow $own (i32.const 640))) \
         (if (i32.eq (memory.grow $own (i32.const 0)) (i32.const 641)) (then \
           (if (i32.eq (memory.grow (i32.const 640)) (i32.const -1)) (then unreachable))))",
    );
    let two = write(
        dir.path(),
        "two.wat",
        &component(&grow, "(memory $own 1)").replace(
            "(import \"env\" \"memory\" (memory 1))",
            "(import \"env\" \"memory\" (memory $shared 1))",
        ),
    );
    let mut player = started(&sandbox, &two);
    let fault = Player::<Battle>::act(&mut player, &observation).unwrap_err();
    assert_eq!(fault.kind, FaultKind::MemoryLimit, "{fault}");
    assert!(fault.message.contains("(the limit is 67108864)"), "{fault}");
    assert!(player.memory_bytes().unwrap() <= 64 << 20);
}

#[test]
fn a_component_of_another_world_is_refused_saying_what_it_has() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let cases = [
        (
            "wasi.wat",
            component(STAY, "").replace(
                "(import \"log\" (func $log (param \"msg\" string)))",
                "(import \"log\" (func $log (param \"msg\" string))) \
                 (import \"wasi:cli/environment@0.2.0\" (instance (export \"get-arguments\" (func (result (list string))))))",
            ),
            "the component imports wasi:cli/environment@0.2.0; a component may import only `log`, `fuel-left` and `fuel-budget` (docs/wit/arena-bot.wit) (WASI: build with componentize-py's --stub-wasi",
        ),
        (
            "nocall.wat",
            component(STAY, "").replace("(export \"call\" (func $call))", "(export \"run\" (func $call))"),
            "the component does not export `call` (func(request: string) -> string",
        ),
        (
            "badlog.wat",
            component(STAY, "")
                .replace("(param \"msg\" string)", "(param \"msg\" u32)")
                .replace("(canon lower (func $log) (memory $memory))", "(canon lower (func $log))")
                .replace("(func $log (param i32 i32))", "(func $log (param i32))")
                .replace("(call $log (i32.const 24) (i32.const 5))", "(call $log (i32.const 24))"),
            "imports `log` as func(msg: u32); the arena:bot world defines it as func(msg: string)",
        ),
    ];
    for (name, text, words) in cases {
        let path = write(dir.path(), name, &text);
        let out = arena(&cache, &["check", path.to_str().unwrap()]);
        let error = format!("{}{}", stdout(&out), stderr(&out));
        assert!(!out.status.success(), "{name}");
        assert!(
            error.contains(words),
            "{name}: `{error}` should say `{words}`"
        );
    }
}

#[test]
fn a_component_of_another_world_is_told_so_before_any_limit_it_breaks() {
    let small = Sandbox::new(
        Limits {
            component_bytes: 100,
            ..Limits::default()
        },
        None,
    )
    .unwrap();
    let wasi = component(STAY, "").replace(
        "(import \"log\" (func $log (param \"msg\" string)))",
        "(import \"log\" (func $log (param \"msg\" string))) \
         (import \"wasi:cli/environment@0.2.0\" (instance (export \"get-arguments\" (func (result (list string))))))",
    );
    let no_call = component(STAY, "").replace(
        "(export \"call\" (func $call))",
        "(export \"run\" (func $call))",
    );
    let cases = [
        (
            &wasi,
            "the component imports wasi:cli/environment@0.2.0; a component may import only `log`, `fuel-left` and `fuel-budget`",
        ),
        (&no_call, "the component does not export `call`"),
    ];
    for (text, words) in cases {
        // As a binary (the size is read from its header) and as WAT text.
        let binary = wat::parse_str(text).unwrap();
        assert!(binary.len() > 100);
        for bytes in [&binary[..], text.as_bytes()] {
            let error = small.load_bytes("other", bytes).unwrap_err();
            assert!(matches!(error, LoadError::Abi { .. }), "{error}");
            assert!(
                error.to_string().contains(words),
                "`{error}` should say `{words}`"
            );
        }
    }
    // A component of the world over the same limits is refused for its size.
    let binary = wat::parse_str(component(STAY, "")).unwrap();
    assert!(matches!(
        small.load_bytes("big", &binary),
        Err(LoadError::TooLarge { limit: 100, .. })
    ));
}

/// A component of the `arena:bot` world with `items` first among its own (so a bomb is
/// checked for its limits, not refused for its world).
fn in_world(items: &str) -> String {
    let import = "(import \"log\" (func $log (param \"msg\" string)))";
    component(STAY, "").replacen(import, &format!("{import}\n  {items}"), 1)
}

#[test]
fn a_component_bomb_is_refused_before_compiling_naming_the_limit() {
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    // 300 core instances of an empty module.
    let instances = in_world(&format!(
        "(core module $m) {}",
        "(core instance (instantiate $m))".repeat(300)
    ));
    let error = sandbox
        .load_bytes("instances", instances.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("the component has 300 core instances; the limit (`core_instances`) is 256"),
        "{error}"
    );
    // Components nested six deep.
    let nested = in_world(&format!("{}{}", "(component ".repeat(5), ")".repeat(5)));
    let error = sandbox
        .load_bytes("nested", nested.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains(
            "the component has 5 levels of nested components; the limit (`component_depth`) is 4"
        ),
        "{error}"
    );
    // A core module inside is held to the core limits, and named.
    let deep = in_world(&format!(
        "(core module) (core module (func {}{}))",
        "(block ".repeat(5001),
        ")".repeat(5001)
    ));
    let error = sandbox
        .load_bytes("deep", deep.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains(
            "core module 1, function 0 has 5001 nested blocks; the limit (`nesting`) is 5000"
        ),
        "{error}"
    );
    // The size cap is the component's, not the module's.
    let small = Sandbox::new(
        Limits {
            component_bytes: 100,
            ..Limits::default()
        },
        None,
    )
    .unwrap();
    let binary = wat::parse_str(component(STAY, "")).unwrap();
    assert!(matches!(
        small.load_bytes("big", &binary),
        Err(LoadError::TooLarge { limit: 100, .. })
    ));
}
