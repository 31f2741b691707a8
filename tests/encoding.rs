//! The binary encoding changes nothing but fuel (the regression guard of the binary encoding): a tournament
//! over every mode with the SDK sample bots (which pick the binary encoding), the C bot
//! (whose binary reader is written by hand from docs/abi.md) and the JSON-only WAT bot, run
//! once as usual and once with `--encoding json`, writes the same results log and the same
//! replays once the fuel figures are taken out. Fuel is the one honest difference — it is
//! what the binary encoding saves — so the test also checks, bot by bot, that each bot that
//! offers the binary encoding used less fuel with it, and the WAT bot exactly as much.

use arena_engine::{FaultKind, Player};
use arena_sandbox::{EncodingPolicy, Limits, Sandbox};
use arena_sdk::battle::Battle;
use arena_tests::fixtures::{battle_observation, battle_start};
use arena_tests::{bots, hostile, sandbox_offering};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

fn tournament(dir: &Path) -> std::path::PathBuf {
    let bot = |name: &str, path: &str, mode: &str| {
        format!("[[bots]]\nname = \"{name}\"\nbot = {path:?}\nmodes = [\"{mode}\"]\n\n")
    };
    let mut text = String::from(
        "name = \"encodings\"\nseed = 10\ngames_per_pairing = 2\n\n\
         [modes.battle]\nturn_cap = 200\n\n[modes.tcg]\n\n[modes.grid]\nturn_limit = 200\n\n\
         [modes.dungeon]\nwaves = 3\n\n[modes.conquest]\n\n",
    );
    for (name, path, mode) in [
        ("battle-strong", bots::BATTLE_STRONG, "battle"),
        ("digest-battle", bots::OBSERVATION_DIGEST, "battle"),
        ("wat-bot", bots::WAT_BOT, "battle"),
        ("c-bot", bots::C_BOT, "battle"),
        ("tcg-planner", bots::TCG_PLANNER, "tcg"),
        ("digest-tcg", bots::OBSERVATION_DIGEST, "tcg"),
        ("grid-commander", bots::GRID_COMMANDER, "grid"),
        ("digest-grid", bots::OBSERVATION_DIGEST, "grid"),
        ("dungeon-starter", bots::DUNGEON_STARTER, "dungeon"),
        ("digest-dungeon", bots::OBSERVATION_DIGEST, "dungeon"),
        ("conquest-starter", bots::CONQUEST_STARTER, "conquest"),
        ("digest-conquest", bots::OBSERVATION_DIGEST, "conquest"),
    ] {
        text += &bot(name, path, mode);
    }
    let file = dir.join("encodings.toml");
    std::fs::write(&file, text).unwrap();
    file
}

/// Take every `fuel` key out of a JSON value, adding up what it held.
fn strip_fuel(value: &mut Value, total: &mut u64) {
    match value {
        Value::Object(map) => {
            if let Some(fuel) = map.remove("fuel") {
                *total += fuel.as_u64().expect("fuel is a number");
            }
            map.values_mut().for_each(|v| strip_fuel(v, total));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| strip_fuel(v, total)),
        _ => {}
    }
}

/// Every file the run wrote (results log and replays), parsed, with fuel (and the results
/// lines' checksums, which cover fuel) taken out; and each bot's fuel over all its games.
fn written(out: &Path) -> (BTreeMap<String, Vec<Value>>, BTreeMap<String, u64>) {
    let mut files = BTreeMap::new();
    let mut per_bot = BTreeMap::new();
    let mut fuel = 0;
    let replays = out.join("replays");
    let paths = std::fs::read_dir(out)
        .unwrap()
        .chain(std::fs::read_dir(&replays).unwrap())
        .map(|e| e.unwrap().path());
    for path in paths {
        let name = path.strip_prefix(out).unwrap().display().to_string();
        let values: Vec<Value> = match path.extension().and_then(|e| e.to_str()) {
            Some("jsonl") => {
                let mut lines: Vec<Value> = std::fs::read_to_string(&path)
                    .unwrap()
                    .lines()
                    .map(|line| {
                        let mut value: Value = serde_json::from_str(line).unwrap();
                        value.as_object_mut().unwrap().remove("check");
                        for seat in 0..2 {
                            let bot = value["bots"][seat].as_str().unwrap().to_owned();
                            let used = value["seats"][seat]["fuel"].as_u64().unwrap();
                            *per_bot.entry(bot).or_insert(0) += used;
                        }
                        value
                    })
                    .collect();
                // Lines come in the order games finish (two jobs).
                lines.sort_by_key(|game| game["game"].as_u64());
                lines
            }
            Some("json") => vec![serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap()],
            _ => continue,
        };
        let values = values
            .into_iter()
            .map(|mut v| {
                strip_fuel(&mut v, &mut fuel);
                v
            })
            .collect();
        files.insert(name, values);
    }
    assert!(fuel > 0);
    (files, per_bot)
}

#[test]
fn binary_and_json_give_the_same_results_and_replays_but_for_fuel() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament(dir.path());
    let run = |out: &str, extra: &[&str]| {
        let out = dir.path().join(out);
        let mut args = vec!["--replays", "--quiet", "--jobs", "2"];
        args.extend_from_slice(extra);
        crate::tournament_run(dir.path(), &file, &out, &args);
        written(&out)
    };
    let (binary, binary_fuel) = run("binary", &[]);
    let (json, json_fuel) = run("json", &["--encoding", "json"]);

    let replays = binary.keys().filter(|k| k.starts_with("replays")).count();
    assert_eq!(replays, 20, "one replay per game: {:?}", binary.keys());
    let modes: std::collections::BTreeSet<&str> = binary["results.jsonl"]
        .iter()
        .map(|g| g["mode"].as_str().unwrap())
        .collect();
    assert_eq!(modes.len(), 5, "every mode is played: {modes:?}");
    assert_eq!(
        binary.keys().collect::<Vec<_>>(),
        json.keys().collect::<Vec<_>>()
    );
    for (name, values) in &binary {
        assert_eq!(values.len(), json[name].len(), "{name}");
        for (k, (b, j)) in values.iter().zip(&json[name]).enumerate() {
            assert!(
                b == j,
                "{name}: entry {k} differs between the encodings:\n{b}\n{j}"
            );
        }
    }
    // Equal replays mean equal observations: the digest bot logged one per turn, in every
    // mode (JSON decodes each turn afresh, the binary encoding into the last turn's).
    let mut digested = std::collections::BTreeSet::new();
    for (name, values) in binary.iter().filter(|(k, _)| k.starts_with("replays")) {
        let text = values[0].to_string();
        if text.contains("\"digest-") {
            assert!(text.contains("observation "), "{name}: no digest logged");
            digested.insert(values[0]["mode"].as_str().unwrap().to_owned());
        }
    }
    assert_eq!(digested.len(), 5, "a digest in every mode: {digested:?}");
    for (bot, &in_json) in &json_fuel {
        let in_binary = binary_fuel[bot];
        if bot == "wat-bot" {
            assert_eq!(in_binary, in_json, "{bot} speaks JSON either way");
        } else {
            // Every bot saves, the thinkers least (the conquest starter: 1.5×).
            assert!(
                in_binary * 10 < in_json * 9,
                "{bot} reads binary and saves fuel: {in_binary} vs {in_json} in JSON"
            );
        }
    }
}

#[test]
fn a_malformed_binary_answer_is_a_typed_fault_and_a_bad_choice_fails_the_start() {
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    let garbage = sandbox.load(&hostile("binary-garbage.wat")).unwrap();
    let mut player = garbage.player(&sandbox);
    Player::<Battle>::start(&mut player, &battle_start()).unwrap();
    let fault = Player::<Battle>::act(&mut player, &battle_observation()).unwrap_err();
    assert_eq!(fault.kind, FaultKind::WrongShape, "{fault}");
    assert!(
        fault.message.contains("cannot decode the answer")
            && fault.message.contains("binary response of 2 bytes `00 07`"),
        "{fault}"
    );

    let bad_pick = sandbox.load(&hostile("encoding-not-offered.wat")).unwrap();
    let fault =
        Player::<Battle>::start(&mut bad_pick.player(&sandbox), &battle_start()).unwrap_err();
    assert_eq!(fault.kind, FaultKind::Instantiation, "{fault}");
    assert!(
        fault
            .message
            .contains("arena_encoding(0x10003) returned 0x4"),
        "{fault}"
    );

    let error = sandbox.load(&hostile("encoding-mistyped.wat")).unwrap_err();
    assert!(
        error.to_string().contains("export `arena_encoding` is"),
        "{error}"
    );

    // Offered only JSON, the garbage bot still picks binary: that is refused too.
    let json_only = sandbox_offering(EncodingPolicy::Json);
    let garbage = json_only.load(&hostile("binary-garbage.wat")).unwrap();
    let fault =
        Player::<Battle>::start(&mut garbage.player(&json_only), &battle_start()).unwrap_err();
    assert!(
        fault
            .message
            .contains("arena_encoding(0x10001) returned 0x2"),
        "{fault}"
    );
}

#[test]
fn the_rust_sdk_answers_in_the_encoding_it_was_offered() {
    for policy in [EncodingPolicy::Fastest, EncodingPolicy::Json] {
        let sandbox = sandbox_offering(policy);
        let bot = sandbox.load(bots::BATTLE_STARTER.as_ref()).unwrap();
        let mut player = bot.player(&sandbox);
        Player::<Battle>::start(&mut player, &battle_start()).unwrap();
        Player::<Battle>::act(&mut player, &battle_observation()).unwrap();
        // A mode the bot does not play is refused in the encoding in force: a bot_error.
        let mut other = bot.player(&sandbox);
        let start = arena_sdk::MatchStart::<arena_sdk::grid::Grid> {
            abi: arena_sdk::ABI_VERSION,
            mode: arena_sdk::Mode::Grid,
            seat: 0,
            seed: 1,
            rules: Default::default(),
        };
        let fault = Player::<arena_sdk::grid::Grid>::start(&mut other, &start).unwrap_err();
        assert_eq!(fault.kind, FaultKind::BotError, "{policy:?}: {fault}");
        assert!(
            fault.message.contains("does not play mode `grid`"),
            "{fault}"
        );
    }
}

/// A JSON bot that counts its `arena_alloc` calls: every call logs one `A` per allocation so
/// far, and one `B` per KiB the last allocation asked for. It speaks JSON, with the flags
/// `$flags` (an i32 expression of the offered bits, `$offered`), and hands out buffers of
/// at most `$room` bytes (0 for a larger one).
const COUNTING_BOT: &str = r#"
(module
  (import "arena" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (global $allocs (mut i32) (i32.const 0))
  (global $asked (mut i32) (i32.const 0))
  (data (i32.const 16) "\"skill\"")
  (data (i32.const 64) "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
  (data (i32.const 128) "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB")
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_encoding") (param $offered i32) (result i32)
    (i32.or (i32.const 1) $flags))
  (func (export "arena_alloc") (param $len i32) (result i32)
    (global.set $allocs (i32.add (global.get $allocs) (i32.const 1)))
    (global.set $asked (local.get $len))
    ;; A buffer of `$room` bytes at most.
    (select (i32.const 8192) (i32.const 0) (i32.le_u (local.get $len) (i32.const $room))))
  (func (export "arena_call") (param i32 i32) (result i64)
    (call $log (i32.const 64) (global.get $allocs))
    (call $log (i32.const 128) (i32.div_u (global.get $asked) (i32.const 1024)))
    (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 7)))
)"#;

#[test]
fn a_bot_that_keeps_its_request_buffer_is_asked_for_one_only_when_a_request_outgrows_it() {
    let dir = tempfile::tempdir().unwrap();
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    let counting_in = |name: &str, flags: &str, room: usize| {
        let path = dir.path().join(format!("{name}.wat"));
        let text = COUNTING_BOT
            .replace("$flags", flags)
            .replace("$room", &room.to_string());
        std::fs::write(&path, text).unwrap();
        sandbox.load(&path).unwrap()
    };
    let counting = |name: &str, flags: &str| counting_in(name, flags, 60_000);
    // Each call's log: allocations so far, then the KiB the last one asked for.
    let act = |player: &mut arena_sandbox::WasmBot, observation| {
        let action = Player::<Battle>::act(player, observation).unwrap();
        assert_eq!(action, arena_sdk::battle::Action::Skill);
        let log = Player::<Battle>::last_call(player).log;
        let (allocs, kib) = log.split_once('\n').expect("two log lines");
        (allocs.len(), kib.len())
    };
    let turns = arena_tests::fixtures::recorded_battle_turns();
    let json_len = |o| {
        serde_json::to_vec(&arena_sdk::protocol::RequestRef::<Battle>::Turn(o))
            .unwrap()
            .len()
    };
    assert!(
        turns.iter().all(|o| json_len(o) < 4096),
        "the turns fit in 4 KiB"
    );

    let keeps = counting("keeps", "(i32.and (local.get $offered) (i32.const 65536))");
    let mut player = keeps.player(&sandbox);
    Player::<Battle>::start(&mut player, &battle_start()).unwrap();
    for observation in &turns {
        // One allocation in the whole match so far (for `start`), of at least 4 KiB.
        assert_eq!(act(&mut player, observation), (1, 4));
    }
    // A request larger than the buffer: the host asks again, for that request's length.
    let mut big = turns[0].clone();
    big.last_rejected = Some("x".repeat(9000));
    assert_eq!(act(&mut player, &big), (2, json_len(&big) / 1024));
    assert_eq!(act(&mut player, &turns[1]), (2, json_len(&big) / 1024));

    // Without the flag, every request is allocated, each for its own length.
    let asks = counting("asks", "(i32.const 0)");
    let mut player = asks.player(&sandbox);
    Player::<Battle>::start(&mut player, &battle_start()).unwrap();
    for (n, observation) in turns.iter().take(5).enumerate() {
        assert_eq!(
            act(&mut player, observation),
            (n + 2, json_len(observation) / 1024)
        );
    }

    // A bot that takes the flag but cannot give 4 KiB is asked for each request's length
    // when it does not fit, and plays on.
    let small = counting_in(
        "small",
        "(i32.and (local.get $offered) (i32.const 65536))",
        3000,
    );
    let mut player = small.player(&sandbox);
    Player::<Battle>::start(&mut player, &battle_start()).unwrap();
    for observation in &turns {
        let (_, kib) = act(&mut player, observation);
        assert!(kib < 3, "asked for {kib} KiB");
    }

    // A flag the host does not offer fails the start.
    let unknown = counting("unknown", "(i32.const 131072)");
    let fault =
        Player::<Battle>::start(&mut unknown.player(&sandbox), &battle_start()).unwrap_err();
    assert_eq!(fault.kind, FaultKind::Instantiation, "{fault}");
    assert!(
        fault
            .message
            .contains("arena_encoding(0x10003) returned 0x20001"),
        "{fault}"
    );
}

/// Every request of a real game of each mode, written by the SDK's writer (what the host
/// sends a binary bot), is byte for byte what the postcard crate writes: the wire format
/// docs/abi.md describes.
#[test]
fn the_sdks_binary_writer_writes_postcards_bytes_for_every_request_of_every_mode() {
    use arena_sdk::protocol::{RequestRef, to_binary};
    use arena_sdk::{conquest::Conquest, dungeon::Dungeon, grid::Grid, tcg::Tcg};

    fn check<G: arena_builtins::Builtins + arena_engine::Ruleset>(seat0: &str, seat1: &str) {
        for seed in [1, 2] {
            let game = arena_tests::transcript::<G>(seat0, seat1, seed);
            let mut requests = vec![
                RequestRef::Start(&game.start),
                RequestRef::Setup(&game.setup),
            ];
            requests.extend(game.turns.iter().map(|(o, _)| RequestRef::Turn(o)));
            requests.push(RequestRef::End(&game.end));
            let mut ours = vec![7; 3]; // a reused buffer: to_binary appends after it
            for (i, request) in requests.iter().enumerate() {
                ours.truncate(3);
                to_binary(request, &mut ours).unwrap();
                let theirs = postcard::to_allocvec(request).unwrap();
                assert_eq!(ours[..3], [7; 3], "{} seed {seed}: request {i}", G::MODE);
                assert_eq!(ours[3..], theirs, "{} seed {seed}: request {i}", G::MODE);
            }
            for (_, action) in &game.turns {
                ours.clear();
                to_binary(action, &mut ours).unwrap();
                assert_eq!(
                    ours,
                    postcard::to_allocvec(action).unwrap(),
                    "{} answer",
                    G::MODE
                );
            }
        }
    }
    check::<Battle>("strong", "heuristic");
    check::<Tcg>("planner", "random");
    check::<Grid>("commander", "random-walker");
    check::<Dungeon>("strong", "random");
    check::<Conquest>("strong", "random");
}
