//! A budget the bot can read (`arena::fuel_left`, `arena::fuel_budget`; a component's
//! `fuel-left`, `fuel-budget`): every language's thinker (`tests/thinkers/`) plays battle
//! thinking until 80 % of each turn's fuel is spent, through `arena play` as a user runs it.
//! Its log must give the budget the command set, each turn's fuel in the replay must lie
//! between 80 % and 100 % of it, and no turn may fault.

use crate::arena;
use arena_tests::{bots, stderr, stdout};
use serde_json::Value;

/// The turn budget the games run with (a quarter of the default: the thinkers spend 80 %
/// of every turn, and the test should not take long).
const TURN_FUEL: u64 = 5_000_000;
/// The setup budget.
const SETUP_FUEL: u64 = 150_000_000;

/// Play `bot` (seat 0) against `builtin:random` and check what it read and spent.
fn thinks_until_80_percent(bot: &str) {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("replay.json");
    let out = arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "battle",
            bot,
            "builtin:random",
            "--seed",
            "3",
            "--fuel-per-turn",
            &TURN_FUEL.to_string(),
            "--fuel-per-setup",
            &SETUP_FUEL.to_string(),
            "--replay",
            replay.to_str().unwrap(),
        ],
    );
    assert!(
        out.status.success(),
        "{bot}: {}{}",
        stdout(&out),
        stderr(&out)
    );
    let replay: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    let seat = &replay["outcome"]["seats"][0];
    assert_eq!(seat["faults"], 0, "{bot}: {seat}");
    assert_eq!(seat["invalid_actions"], 0, "{bot}: {seat}");
    let answers: Vec<&Value> = replay["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "answer" && e["seat"] == 0)
        .collect();
    let setup = answers
        .iter()
        .find(|e| e["answer"].get("setup").is_some())
        .unwrap_or_else(|| panic!("{bot}: no setup answer"));
    assert_eq!(
        setup["log"].as_str().map(str::trim_end),
        Some(format!("thinker: setup budget {SETUP_FUEL}").as_str()),
        "{bot}: {setup}"
    );
    let turns: Vec<&&Value> = answers
        .iter()
        .filter(|e| e["answer"].get("action").is_some())
        .collect();
    assert!(turns.len() >= 5, "{bot}: {} turns", turns.len());
    for turn in turns {
        let log = turn["log"].as_str().unwrap_or_default().trim_end();
        let left: u64 = log
            .strip_prefix(&format!("thinker: budget {TURN_FUEL}, stopped at "))
            .and_then(|rest| rest.strip_suffix(" left"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{bot}: the log reads {log:?}"));
        assert!(left <= TURN_FUEL / 5, "{bot}: {left} left: {turn}");
        let fuel = turn["fuel"].as_u64().unwrap();
        assert!(
            (TURN_FUEL * 4 / 5..TURN_FUEL).contains(&fuel),
            "{bot}: the turn used {fuel} of {TURN_FUEL}: {turn}"
        );
        // What the bot read is what the host counted: the turn used at least what it had
        // spent at its last reading.
        assert!(
            fuel >= TURN_FUEL - left,
            "{bot}: {fuel} < {TURN_FUEL} - {left}"
        );
    }
}

#[test]
fn a_rust_bot_thinks_until_80_percent_of_its_turn() {
    thinks_until_80_percent(bots::THINKER_RUST);
}

#[test]
fn a_c_bot_thinks_until_80_percent_of_its_turn() {
    thinks_until_80_percent(bots::THINKER_C);
}

#[test]
fn a_zig_bot_thinks_until_80_percent_of_its_turn() {
    thinks_until_80_percent(bots::THINKER_ZIG);
}

#[test]
fn an_assemblyscript_bot_thinks_until_80_percent_of_its_turn() {
    thinks_until_80_percent(bots::THINKER_AS);
}

#[test]
fn a_wat_bot_thinks_until_80_percent_of_its_turn() {
    thinks_until_80_percent(bots::THINKER_WAT);
}

/// A copy of `tests/thinkers/LANGUAGE` in a directory of its own (the arena builds a bot
/// directory in place); a Go copy's `go.mod` names this checkout's SDK by its path.
fn thinker_copy(language: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let from = arena_tests::root().join("tests/thinkers").join(language);
    let to = dir.path().join(language);
    std::fs::create_dir(&to).unwrap();
    for entry in std::fs::read_dir(&from).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    }
    if language == "go" {
        let sdk = arena_tests::root().join("sdk/go");
        let go_mod = std::fs::read_to_string(to.join("go.mod")).unwrap();
        let go_mod = go_mod.replace("=> ../../../sdk/go", &format!("=> {}", sdk.display()));
        std::fs::write(to.join("go.mod"), go_mod).unwrap();
    }
    if language == "ts" {
        // The TypeScript compiler `npm ci` installed for the starter.
        let starter = arena_tests::root().join("sample-bots/ts-starter");
        std::fs::copy(starter.join("package.json"), to.join("package.json")).unwrap();
        std::os::unix::fs::symlink(starter.join("node_modules"), to.join("node_modules")).unwrap();
    }
    let path = to.to_string_lossy().into_owned();
    (dir, path)
}

#[test]
fn a_go_bot_thinks_until_80_percent_of_its_turn() {
    if !crate::go::go_here("a Go thinker") {
        return;
    }
    let (_dir, bot) = thinker_copy("go");
    thinks_until_80_percent(&bot);
}

#[test]
fn a_python_bot_thinks_until_80_percent_of_its_turn() {
    if !crate::python::python_here("a Python thinker") {
        return;
    }
    let (_dir, bot) = thinker_copy("python");
    thinks_until_80_percent(&bot);
}

#[test]
fn a_javascript_bot_thinks_until_80_percent_of_its_turn() {
    let (_dir, bot) = thinker_copy("js");
    thinks_until_80_percent(&bot);
}

#[test]
fn a_typescript_bot_thinks_until_80_percent_of_its_turn() {
    if !crate::javascript::typescript_here("a TypeScript thinker") {
        return;
    }
    let (_dir, bot) = thinker_copy("ts");
    thinks_until_80_percent(&bot);
}

/// A Python bot's clocks count fuel like a core bot's WASI clocks: within a call the clock
/// moves by what the bot's fuel readings say it spent (plus the readings' own cost), it
/// never goes back from call to call, and `time.time()` starts at 2025-01-01.
#[test]
fn a_python_bots_clocks_follow_its_fuel() {
    if !crate::python::python_here("a Python bot reading its clocks") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("clock");
    std::fs::create_dir(&bot).unwrap();
    std::fs::write(
        bot.join("bot.py"),
        r#"import time
import arena
from arena import battle

def setup(request):
    return battle.TeamChoice(team=request.roster[: request.team_size])

def act(observation):
    t0 = time.perf_counter_ns()
    l0 = arena.fuel_left()
    total = sum(i * i for i in range(2000))
    l1 = arena.fuel_left()
    t1 = time.perf_counter_ns()
    arena.log(f"clock {t0} {t1} fuel {l0} {l1} wall {time.time()} {total}")
    return battle.attack(observation.legal_targets[0])

arena.play_battle(setup, act)
"#,
    )
    .unwrap();
    let replay = dir.path().join("replay.json");
    let out = arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "battle",
            bot.to_str().unwrap(),
            "builtin:random",
            "--replay",
            replay.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let replay: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    let mut last_t1 = 0;
    let mut turns = 0;
    for entry in replay["log"].as_array().unwrap() {
        let Some(log) = entry["log"].as_str().filter(|_| entry["seat"] == 0) else {
            continue;
        };
        let Some(rest) = log.trim_end().strip_prefix("clock ") else {
            continue;
        };
        let n: Vec<f64> = rest.split(' ').filter_map(|w| w.parse().ok()).collect();
        let [t0, t1, l0, l1, wall, _] = n[..] else {
            panic!("{log}")
        };
        let (t0, t1, l0, l1) = (t0 as u64, t1 as u64, l0 as u64, l1 as u64);
        let spent = l0 - l1;
        assert!(spent > 100_000, "the sum costs fuel: {log}");
        // The clock's window holds the fuel window, plus the two readings around it.
        let clocked = t1 - t0;
        assert!(
            (spent..spent + 50_000).contains(&clocked),
            "{clocked} ns of clock for {spent} fuel: {log}"
        );
        assert!(t0 >= last_t1, "the clock went back: {log}");
        last_t1 = t1;
        assert!(
            (1_735_689_600.0..1_735_689_700.0).contains(&wall),
            "time.time() is 2025-01-01 plus the clock: {log}"
        );
        turns += 1;
    }
    assert!(turns >= 5, "{turns} turns logged");
}
