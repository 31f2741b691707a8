//! Games per second: a built-in strategy natively versus the same strategy compiled to wasm
//! (the sample bots that export a built-in), in every mode — the sandbox's cost per game.
//! Plus what one grid turn's observation costs to build, encode (host) and decode (bot).
//!
//! | case | native | wasm |
//! |---|---|---|
//! | battle | `strong` vs `random` | battle-strong.wasm vs battle-random.wasm |
//! | tcg | `planner` vs `random` | tcg-planner.wasm vs tcg-random.wasm |
//! | tcg-one-seat | `planner` vs `random` | tcg-planner.wasm vs native `random` |
//! | grid | `commander` vs `random-walker` | grid-commander.wasm vs grid-random-walker.wasm |
//! | grid-one-seat | `commander` vs `random-walker` | grid-commander.wasm vs native `random-walker` |
//! | grid-full | `commander` vs `coward` | grid-commander.wasm vs grid-coward.wasm |
//! | grid-full-one-seat | `commander` vs `coward` | grid-commander.wasm vs native `coward` |
//! | dungeon | `strong` vs `random` | dungeon-strong.wasm vs native `random` |
//! | conquest | `strong` vs `random` | conquest-strong.wasm vs native `random` |
//! | battle-mirror | `strong` vs `strong` | battle-strong.wasm vs battle-strong.wasm |
//! | tcg-mirror | `planner` vs `planner` | tcg-planner.wasm vs tcg-planner.wasm |
//! | grid-mirror | `commander` vs `commander` | grid-commander.wasm vs grid-commander.wasm |
//!
//! Both seats in wasm is what a tournament of wasm bots costs; the one-seat cases isolate
//! one bot's share, and the mirrors time the named strategies alone (every turn theirs).
//! (In dungeon the seats never meet: each plays the same dungeon alone.)
//!
//! Each iteration plays the same batch of seeds, each seed from both seats, through
//! `arena_tournament::game::play` (what a tournament runs), with default rules (grid: a
//! 1250-turn limit, which the `grid-full` and `grid-mirror` games reach). Native and wasm play identical
//! games; the setup checks that and says so. `wasm` speaks the fastest encoding each bot
//! offers (binary for these Rust bots), `wasm-json` the same bots in JSON; the setup prints
//! both encodings' fuel per turn.
//!
//! Run with `cargo bench --profile dev --workspace --bench games` (docs/performance.md);
//! `ARENA_GAMES_CASE=grid-mirror` sets up and runs that case alone (for `perf`).

use arena_builtins::Builtins;
use arena_engine::grid::{State, parse_map};
use arena_engine::{MatchConfig, NativePlayer, Outcome, Player, run_match};
use arena_sandbox::{EncodingPolicy, Limits, Sandbox};
use arena_sdk::Mode;
use arena_sdk::grid::{Grid, Observation};
use arena_sdk::protocol::{Request, RequestRef};
use arena_tests::{Recorder, bots};
use arena_tournament::bots::Contestant;
use arena_tournament::game::{self, GameSpec};
use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

/// One side of a game: a built-in by name or a sample bot's module.
#[derive(Clone, Copy)]
enum Side {
    Native(&'static str),
    Wasm(&'static str),
}

struct Case {
    name: &'static str,
    mode: Mode,
    /// Seeds per iteration; each is played from both seats.
    seeds: u64,
    native: [Side; 2],
    wasm: [Side; 2],
}

const CASES: [Case; 12] = [
    Case {
        name: "battle",
        mode: Mode::Battle,
        seeds: 8,
        native: [Side::Native("strong"), Side::Native("random")],
        wasm: [
            Side::Wasm(bots::BATTLE_STRONG),
            Side::Wasm(bots::BATTLE_RANDOM),
        ],
    },
    Case {
        name: "tcg",
        mode: Mode::Tcg,
        seeds: 4,
        native: [Side::Native("planner"), Side::Native("random")],
        wasm: [Side::Wasm(bots::TCG_PLANNER), Side::Wasm(bots::TCG_RANDOM)],
    },
    Case {
        name: "tcg-one-seat",
        mode: Mode::Tcg,
        seeds: 4,
        native: [Side::Native("planner"), Side::Native("random")],
        wasm: [Side::Wasm(bots::TCG_PLANNER), Side::Native("random")],
    },
    Case {
        name: "grid",
        mode: Mode::Grid,
        seeds: 2,
        native: [Side::Native("commander"), Side::Native("random-walker")],
        wasm: [
            Side::Wasm(bots::GRID_COMMANDER),
            Side::Wasm(bots::GRID_RANDOM_WALKER),
        ],
    },
    Case {
        name: "grid-one-seat",
        mode: Mode::Grid,
        seeds: 2,
        native: [Side::Native("commander"), Side::Native("random-walker")],
        wasm: [
            Side::Wasm(bots::GRID_COMMANDER),
            Side::Native("random-walker"),
        ],
    },
    // The commander eliminates random-walker in ~100-250 turns; against `coward` every
    // game runs to the 1250-turn limit.
    Case {
        name: "grid-full",
        mode: Mode::Grid,
        seeds: 2,
        native: [Side::Native("commander"), Side::Native("coward")],
        wasm: [
            Side::Wasm(bots::GRID_COMMANDER),
            Side::Wasm(bots::GRID_COWARD),
        ],
    },
    Case {
        name: "grid-full-one-seat",
        mode: Mode::Grid,
        seeds: 2,
        native: [Side::Native("commander"), Side::Native("coward")],
        wasm: [Side::Wasm(bots::GRID_COMMANDER), Side::Native("coward")],
    },
    // Both seats play the whole (default, ten-wave) dungeon, one after the other.
    Case {
        name: "dungeon",
        mode: Mode::Dungeon,
        seeds: 2,
        native: [Side::Native("strong"), Side::Native("random")],
        wasm: [Side::Wasm(bots::DUNGEON_STRONG), Side::Native("random")],
    },
    Case {
        name: "conquest",
        mode: Mode::Conquest,
        seeds: 8,
        native: [Side::Native("strong"), Side::Native("random")],
        wasm: [Side::Wasm(bots::CONQUEST_STRONG), Side::Native("random")],
    },
    // The named strategies of the speed targets, against themselves: every turn is theirs.
    Case {
        name: "battle-mirror",
        mode: Mode::Battle,
        seeds: 8,
        native: [Side::Native("strong"), Side::Native("strong")],
        wasm: [
            Side::Wasm(bots::BATTLE_STRONG),
            Side::Wasm(bots::BATTLE_STRONG),
        ],
    },
    Case {
        name: "tcg-mirror",
        mode: Mode::Tcg,
        seeds: 4,
        native: [Side::Native("planner"), Side::Native("planner")],
        wasm: [Side::Wasm(bots::TCG_PLANNER), Side::Wasm(bots::TCG_PLANNER)],
    },
    Case {
        name: "grid-mirror",
        mode: Mode::Grid,
        seeds: 2,
        native: [Side::Native("commander"), Side::Native("commander")],
        wasm: [
            Side::Wasm(bots::GRID_COMMANDER),
            Side::Wasm(bots::GRID_COMMANDER),
        ],
    },
];

fn contestant(side: Side, sandbox: &Sandbox) -> Contestant {
    match side {
        Side::Native(name) => Contestant::Builtin(name.to_owned()),
        Side::Wasm(path) => Contestant::Wasm(
            sandbox
                .load(Path::new(path))
                .unwrap_or_else(|e| panic!("{path}: {e}")),
        ),
    }
}

/// Play the batch: every seed with the first side in seat 0, then in seat 1.
fn play_batch(mode: Mode, seeds: u64, sides: &[Contestant; 2], sandbox: &Sandbox) -> Vec<Outcome> {
    let mut outcomes = Vec::new();
    for seed in 0..seeds {
        for seats in [[&sides[0], &sides[1]], [&sides[1], &sides[0]]] {
            let spec = GameSpec {
                mode,
                rules: serde_json::Value::Null,
                seed,
                max_faults: 3,
                max_rejections: arena_engine::DEFAULT_MAX_REJECTIONS,
            };
            let result =
                game::play(&spec, seats, ["a", "b"], sandbox, game::Keep::Nothing).expect("game");
            outcomes.push(result.outcome);
        }
    }
    outcomes
}

/// What must match between a native game and its wasm twin (fuel, of course, does not).
fn summary(outcome: &Outcome) -> (Option<u8>, u32, String, Vec<u32>) {
    let faults = outcome.seats.iter().map(|s| s.faults).collect();
    (
        outcome.winner,
        outcome.turns,
        outcome.reason.clone(),
        faults,
    )
}

fn games_per_second(c: &mut Criterion) {
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    // The same bots spoken to in JSON: `wasm-json` is the time before the binary encoding.
    let json_limits = Limits {
        encoding: EncodingPolicy::Json,
        ..Limits::default()
    };
    let json_sandbox = Sandbox::new(json_limits, None).unwrap();
    // For profiling one case (docs/performance.md, "Profiling"): only its setup runs, and
    // only its bots are loaded, so a perf map names no other module's functions.
    let only = std::env::var("ARENA_GAMES_CASE").ok();
    for case in CASES
        .iter()
        .filter(|c| only.as_deref().is_none_or(|o| o == c.name))
    {
        let native = case.native.map(|s| contestant(s, &sandbox));
        let wasm = case.wasm.map(|s| contestant(s, &sandbox));
        let wasm_json = case.wasm.map(|s| contestant(s, &json_sandbox));
        let native_games = play_batch(case.mode, case.seeds, &native, &sandbox);
        let wasm_games = play_batch(case.mode, case.seeds, &wasm, &sandbox);
        let json_games = play_batch(case.mode, case.seeds, &wasm_json, &json_sandbox);
        let same = native_games
            .iter()
            .zip(&wasm_games)
            .chain(native_games.iter().zip(&json_games))
            .all(|(n, w)| summary(n) == summary(w));
        let turns: u32 = native_games.iter().map(|o| o.turns).sum();
        let fuel_of = |games: &[Outcome]| -> u64 {
            games
                .iter()
                .flat_map(|o| o.seats.iter().map(|s| s.fuel))
                .sum()
        };
        let (fuel, json_fuel) = (fuel_of(&wasm_games), fuel_of(&json_games));
        eprintln!(
            "games/{}: {} games per iteration, {turns} turns in all; wasm fuel per turn {} in \
             binary, {} in JSON ({:.1}× less); native, wasm and wasm-json games identical: {}",
            case.name,
            native_games.len(),
            fuel / u64::from(turns.max(1)),
            json_fuel / u64::from(turns.max(1)),
            json_fuel as f64 / fuel.max(1) as f64,
            if same { "yes" } else { "NO" }
        );

        let mut group = c.benchmark_group(format!("games/{}", case.name));
        group
            .throughput(Throughput::Elements(case.seeds * 2))
            .sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(4));
        group.bench_function("native", |b| {
            b.iter(|| play_batch(case.mode, case.seeds, &native, &sandbox))
        });
        group.bench_function("wasm", |b| {
            b.iter(|| play_batch(case.mode, case.seeds, &wasm, &sandbox))
        });
        group.bench_function("wasm-json", |b| {
            b.iter(|| play_batch(case.mode, case.seeds, &wasm_json, &json_sandbox))
        });
        group.finish();
    }
}

fn recorder(name: &str) -> Recorder<Grid, impl Player<Grid>> {
    Recorder::new(NativePlayer::new(<Grid as Builtins>::create(name).unwrap()))
}

/// Every observation of a full-length default grid game (commander vs coward: 1250 turns),
/// in turn order.
fn recorded_grid_game() -> Vec<Observation> {
    let mut seat0 = recorder("commander");
    let mut seat1 = recorder("coward");
    let config = MatchConfig::<Grid>::new(Default::default(), 3);
    let record = run_match(&config, [&mut seat0, &mut seat1]);
    let mut all: Vec<Observation> = seat0.seen.into_iter().chain(seat1.seen).collect();
    all.sort_by_key(|o| o.turn);
    eprintln!(
        "grid/observation: recorded game: {} observations, {} turns, {}",
        all.len(),
        record.outcome.turns,
        record.outcome.reason
    );
    all
}

/// The host side of a turn: what `WasmBot` does with an observation.
fn encode(buffer: &mut Vec<u8>, observation: &Observation) {
    buffer.clear();
    serde_json::to_writer(&mut *buffer, &RequestRef::<Grid>::Turn(observation)).unwrap();
}

/// The bot side: what the SDK's `export_bot!` glue does with the request (natively here).
fn decode(bytes: &[u8]) -> Request<Grid> {
    serde_json::from_slice(bytes).unwrap()
}

fn grid_observation(c: &mut Criterion) {
    let game = recorded_grid_game();
    let middle = &game[game.len() / 2];
    let mut buffer = Vec::with_capacity(4096);
    encode(&mut buffer, middle);
    let sizes: Vec<usize> = game
        .iter()
        .map(|o| {
            serde_json::to_vec(&RequestRef::<Grid>::Turn(o))
                .unwrap()
                .len()
        })
        .collect();
    eprintln!(
        "grid/observation: mid-game (turn {}) request = {} bytes; whole game = {} bytes ({} requests, {} to {} bytes)",
        middle.turn,
        buffer.len(),
        sizes.iter().sum::<usize>(),
        sizes.len(),
        sizes.iter().min().unwrap(),
        sizes.iter().max().unwrap()
    );

    // The engine's own state, set up with the recorded game's starting positions.
    let rules = arena_sdk::grid::Rules::default();
    let map = parse_map(&rules.map).unwrap();
    let positions: Vec<_> = game[0].heroes.iter().map(|h| h.pos).collect();
    let mut state = State::new(&map, &positions, rules.turn_limit);

    let mut group = c.benchmark_group("grid/observation");
    group
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("build", |b| {
        b.iter(|| black_box(state.observation(black_box(7), 0, None)).turn)
    });
    group.bench_function("build+encode", |b| {
        b.iter(|| {
            let observation = state.observation(black_box(7), 0, None);
            encode(&mut buffer, observation);
            buffer.len()
        })
    });
    group.bench_function("encode-mid-game", |b| {
        b.iter(|| {
            encode(&mut buffer, black_box(middle));
            buffer.len()
        })
    });
    let bytes = {
        encode(&mut buffer, middle);
        buffer.clone()
    };
    group.bench_function("decode-mid-game", |b| b.iter(|| decode(black_box(&bytes))));
    group.finish();

    let encoded: Vec<Vec<u8>> = game
        .iter()
        .map(|o| serde_json::to_vec(&RequestRef::<Grid>::Turn(o)).unwrap())
        .collect();
    let mut group = c.benchmark_group("grid/observation-game");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("encode-all", |b| {
        b.iter(|| {
            let mut total = 0;
            for observation in &game {
                encode(&mut buffer, observation);
                total += buffer.len();
            }
            total
        })
    });
    group.bench_function("decode-all", |b| {
        b.iter(|| {
            encoded
                .iter()
                .map(|bytes| matches!(decode(bytes), Request::Turn(_)) as usize)
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, games_per_second, grid_observation);
criterion_main!(benches);
