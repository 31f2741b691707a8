//! What one turn costs, and what the sandbox adds to it.
//!
//! - `turn/battle`: the same strategy, battle's `strong`, three ways, over the 67 real turn
//!   requests of a recorded battle (`arena_tests::fixtures::recorded_battle_turns`):
//!   `native` (the built-in called in process: the decision alone), `wasm` (the
//!   battle-strong sample bot, which exports that built-in, through `WasmBot`, in whatever
//!   encoding the SDK speaks) and `pipe` (the same built-in in a child process that reads a
//!   JSON request per line on its standard input and writes its answer as a JSON line — the
//!   design of Halite, CodinGame and Lux; the child is this bench program, re-executed).
//!   The pipe is also measured with the bench pinned to core 0 and its child pinned to the
//!   same core or the other one, the two modes an unpinned pipe falls into run by run.
//!   The per-turn overhead of a design is its turn minus the native decision. Before
//!   criterion runs, the three are timed interleaved in one run and the ratios printed,
//!   with kaggle-environments' step (0.9–2.1 ms for trivial agents, measured on this
//!   machine; there is no Python here to re-run it) as a fourth reference.
//! - `turn/modes`: per mode, one turn of a built-in natively, of its sample bot in wasm and
//!   of the `decode-only` bench bot in wasm (the SDK's decoding and answering, no decision:
//!   the path a turn takes), over seat 0's requests of a recorded game (seed 3), timed
//!   interleaved; the printed table splits the wasm turn's overhead into the path and the
//!   thinking running slower in wasm than natively, and gives a match's start (a fresh
//!   player's start and setup requests) natively and in wasm.
//! - `turn/grid-size`: a whole 1250-turn grid game (`commander` vs `coward`, who never
//!   lets it end early) on square open maps from 8×8 to the largest a map may be (32×32),
//!   native and with both seats in wasm; the printed table gives the cost per turn and how
//!   it grows with the board.
//!
//! Run with `cargo bench --profile dev --workspace --bench turn_cost` (docs/performance.md).

use arena_builtins::Builtins;
use arena_engine::{NativePlayer, Player};
use arena_sandbox::{Limits, Sandbox, WasmBot};
use arena_sdk::battle::{Action, Battle, Observation, TeamChoice};
use arena_sdk::protocol::{Request, RequestRef};
use arena_sdk::{Bot, Mode};
use arena_tests::fixtures::{battle_setup_request, battle_start, recorded_battle_turns};
use arena_tests::{bots, median, transcript};
use arena_tournament::bots::Contestant;
use arena_tournament::game::{self, GameSpec};
use criterion::{Criterion, SamplingMode, criterion_group};
use serde::de::DeserializeOwned;
use std::hint::black_box;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// Set in the environment of the re-executed bench program: be the pipe bot.
const PIPE_CHILD: &str = "ARENA_BENCH_PIPE_CHILD";
/// Set with it: the core the pipe bot runs on.
const PIPE_CPU: &str = "ARENA_BENCH_PIPE_CPU";

/// Keep the calling thread on `cpu`.
fn pin(cpu: usize) {
    let mut set = rustix::thread::CpuSet::new();
    set.set(cpu);
    rustix::thread::sched_setaffinity(None, &set).expect("pin to a core");
}

/// kaggle-environments' step for trivial agents on this machine, in microseconds.
const KAGGLE_STEP_US: (f64, f64) = (900.0, 2100.0);

/// The pipe bot: battle's built-in `strong` behind JSON lines on stdin/stdout.
fn pipe_child() {
    if let Some(cpu) = std::env::var(PIPE_CPU).ok().and_then(|c| c.parse().ok()) {
        pin(cpu);
    }
    let mut bot = <Battle as Builtins>::create("strong").expect("built-in strong");
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("a request line");
        let request: Request<Battle> = serde_json::from_str(&line).expect("a request");
        match request {
            Request::Start(start) => {
                bot.start(&start);
                out.write_all(b"{}").unwrap();
            }
            Request::Setup(setup) => serde_json::to_writer(&mut out, &bot.setup(&setup)).unwrap(),
            Request::Turn(observation) => {
                serde_json::to_writer(&mut out, &bot.act(&observation)).unwrap()
            }
            Request::End(end) => {
                bot.end(&end);
                return;
            }
        }
        out.write_all(b"\n").unwrap();
        out.flush().unwrap();
    }
}

/// The host's side of the pipe design: one child per match, a JSON line each way per
/// request.
struct PipeBot {
    child: Child,
    to: BufWriter<ChildStdin>,
    from: BufReader<ChildStdout>,
    request: Vec<u8>,
    answer: String,
}

impl PipeBot {
    /// The pipe bot, on core `cpu` if given (else wherever the scheduler puts it).
    fn spawn(cpu: Option<usize>) -> PipeBot {
        let mut command = Command::new(std::env::current_exe().unwrap());
        if let Some(cpu) = cpu {
            command.env(PIPE_CPU, cpu.to_string());
        }
        let mut child = command
            .env(PIPE_CHILD, "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn the pipe bot");
        let to = BufWriter::new(child.stdin.take().unwrap());
        let from = BufReader::new(child.stdout.take().unwrap());
        let mut bot = PipeBot {
            child,
            to,
            from,
            request: Vec::with_capacity(4096),
            answer: String::with_capacity(256),
        };
        bot.ask::<serde_json::Value>(RequestRef::Start(&battle_start()));
        bot.ask::<TeamChoice>(RequestRef::Setup(&battle_setup_request()));
        bot
    }

    fn ask<T: DeserializeOwned>(&mut self, request: RequestRef<'_, Battle>) -> T {
        self.request.clear();
        serde_json::to_writer(&mut self.request, &request).unwrap();
        self.request.push(b'\n');
        self.to.write_all(&self.request).unwrap();
        self.to.flush().unwrap();
        self.answer.clear();
        self.from.read_line(&mut self.answer).unwrap();
        serde_json::from_str(&self.answer).unwrap()
    }

    fn act(&mut self, observation: &Observation) -> Action {
        self.ask(RequestRef::Turn(observation))
    }
}

impl Drop for PipeBot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn wasm_strong(sandbox: &Sandbox) -> WasmBot {
    let bot = sandbox
        .load(Path::new(bots::BATTLE_STRONG))
        .expect("battle-strong loads");
    let mut player = bot.player(sandbox);
    Player::<Battle>::start(&mut player, &battle_start()).expect("start");
    Player::<Battle>::setup(&mut player, &battle_setup_request()).expect("setup");
    player
}

fn native_strong() -> impl Player<Battle> {
    let mut player = NativePlayer::new(<Battle as Builtins>::create("strong").unwrap());
    Player::<Battle>::start(&mut player, &battle_start()).unwrap();
    Player::<Battle>::setup(&mut player, &battle_setup_request()).unwrap();
    player
}

/// Median time of one call of `turn` over every recorded turn, `rounds` rounds of `laps`
/// passes each, interleaved with the other designs by the caller.
fn per_turn(turns: &[Observation], laps: usize, mut turn: impl FnMut(&Observation)) -> f64 {
    let started = Instant::now();
    for _ in 0..laps {
        for observation in turns {
            turn(black_box(observation));
        }
    }
    started.elapsed().as_secs_f64() * 1e6 / (laps * turns.len()) as f64
}

fn battle_turn(c: &mut Criterion) {
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    let turns = recorded_battle_turns();
    let mut native = native_strong();
    let mut wasm = wasm_strong(&sandbox);
    let mut pipe = PipeBot::spawn(None);
    // The pipe's round trip depends on where its child runs: on the bench's own core it
    // costs two context switches; on the other core, waking that core, which takes far
    // longer when it has gone idle. Both are measured with the bench pinned to core 0 (the
    // unpinned pipe lands in either mode, run by run).
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut pinned: Vec<(&str, PipeBot)> = vec![("same core", PipeBot::spawn(Some(0)))];
    if cores > 1 {
        pinned.push(("other core", PipeBot::spawn(Some(1))));
    }
    // The designs must give the same answers, or this compares different work.
    for observation in &turns {
        let n = Player::<Battle>::act(&mut native, observation).unwrap();
        let w = Player::<Battle>::act(&mut wasm, observation).unwrap();
        assert_eq!(n, w, "turn {}: native and wasm differ", observation.turn);
        for pipe in std::iter::once(&mut pipe).chain(pinned.iter_mut().map(|(_, p)| p)) {
            let p = pipe.act(observation);
            assert_eq!(n, p, "turn {}: native and pipe differ", observation.turn);
        }
    }

    // The ratios in one run: the designs timed in turn, round after round, medians kept.
    const ROUNDS: usize = 15;
    let (mut n, mut w, mut p) = (Vec::new(), Vec::new(), Vec::new());
    let mut by_core = vec![Vec::new(); pinned.len()];
    let all_cores = rustix::thread::sched_getaffinity(None).expect("this thread's cores");
    for _ in 0..ROUNDS {
        n.push(per_turn(&turns, 200, |o| {
            Player::<Battle>::act(&mut native, o).unwrap();
        }));
        w.push(per_turn(&turns, 20, |o| {
            Player::<Battle>::act(&mut wasm, o).unwrap();
        }));
        p.push(per_turn(&turns, 3, |o| {
            pipe.act(o);
        }));
        pin(0);
        for ((_, bot), times) in pinned.iter_mut().zip(&mut by_core) {
            times.push(per_turn(&turns, 3, |o| {
                bot.act(o);
            }));
        }
        rustix::thread::sched_setaffinity(None, &all_cores).expect("unpin");
    }
    let (n, w, p) = (median(&n), median(&w), median(&p));
    let (wasm_overhead, pipe_overhead) = (w - n, p - n);
    eprintln!(
        "turn/battle: {} recorded turns, medians of {ROUNDS} interleaved rounds (µs per turn):",
        turns.len()
    );
    eprintln!("| design | turn | overhead (turn − native) | overhead ÷ wasm's |");
    eprintln!("|---|---|---|---|");
    eprintln!("| native `strong` | {n:.2} | — | — |");
    eprintln!("| wasm battle-strong | {w:.2} | {wasm_overhead:.2} | 1× |");
    eprintln!(
        "| pipe, JSON lines | {p:.2} | {pipe_overhead:.2} | **{:.1}×** |",
        pipe_overhead / wasm_overhead
    );
    for ((name, _), times) in pinned.iter().zip(by_core) {
        let t = median(&times);
        eprintln!(
            "| pipe, child on the bench's {name} | {t:.2} | {:.2} | **{:.1}×** |",
            t - n,
            (t - n) / wasm_overhead
        );
    }
    eprintln!(
        "| kaggle-environments step (quoted) | {:.0}–{:.0} | ≈ the same | **{:.0}–{:.0}×** |",
        KAGGLE_STEP_US.0,
        KAGGLE_STEP_US.1,
        KAGGLE_STEP_US.0 / wasm_overhead,
        KAGGLE_STEP_US.1 / wasm_overhead
    );

    let mut group = c.benchmark_group("turn/battle");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    let (mut next, count) = (0, turns.len());
    let mut cycle = move || {
        next = (next + 1) % count;
        next
    };
    group.bench_function("native", |b| {
        b.iter(|| Player::<Battle>::act(&mut native, black_box(&turns[cycle()])).unwrap())
    });
    group.bench_function("wasm", |b| {
        b.iter(|| Player::<Battle>::act(&mut wasm, black_box(&turns[cycle()])).unwrap())
    });
    group.bench_function("pipe", |b| b.iter(|| pipe.act(black_box(&turns[cycle()]))));
    group.finish();
}

/// Board sides measured: the shipped maps' 8, 12 and 16, then up to the largest allowed.
const SIDES: [u32; 5] = [8, 12, 16, 24, 32];

/// A square open map of `side` tiles, point-symmetric like the shipped ones: about one mine
/// per 25 tiles and one well per 40, a few walls, no spawns (the seed places the heroes on mirrored tiles).
fn open_map(side: u32) -> String {
    let n = side as usize;
    let mut tiles = vec![vec![b'.'; n]; n];
    // A fixed linear congruential sequence: the same maps in every run.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d ^ u64::from(side);
    let mut next = |bound: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize % bound
    };
    let area = n * n;
    for (tile, count) in [(b'M', area / 50), (b'W', area / 80), (b'#', area / 60)] {
        let mut placed = 0;
        while placed < count.max(1) {
            // Inside the outer ring, in mirrored pairs.
            let (x, y) = (1 + next(n - 2), 1 + next(n - 2));
            let (mx, my) = (n - 1 - x, n - 1 - y);
            if tiles[y][x] == b'.' && tiles[my][mx] == b'.' && (x, y) != (mx, my) {
                tiles[y][x] = tile;
                tiles[my][mx] = tile;
                placed += 1;
            }
        }
    }
    let mut text = format!("size {side} {side}\n");
    for row in tiles {
        text.push_str(std::str::from_utf8(&row).unwrap());
        text.push('\n');
    }
    text
}

fn grid_game(map: &str, sides: [&Contestant; 2], sandbox: &Sandbox) -> arena_engine::Outcome {
    let spec = GameSpec {
        mode: Mode::Grid,
        rules: serde_json::json!({ "map": map }),
        seed: 5,
        max_faults: 3,
        max_rejections: arena_engine::DEFAULT_MAX_REJECTIONS,
    };
    game::play(
        &spec,
        sides,
        ["commander", "coward"],
        sandbox,
        game::Keep::Nothing,
    )
    .expect("grid game")
    .outcome
}

fn grid_size(c: &mut Criterion) {
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    let load = |path: &str| Contestant::Wasm(sandbox.load(Path::new(path)).unwrap());
    let native = [
        Contestant::Builtin("commander".into()),
        Contestant::Builtin("coward".into()),
    ];
    let wasm = [load(bots::GRID_COMMANDER), load(bots::GRID_COWARD)];
    let maps: Vec<(u32, String)> = SIDES.iter().map(|&s| (s, open_map(s))).collect();

    eprintln!(
        "turn/grid-size: one game commander vs coward per board, medians of 5 (both seats wasm):"
    );
    eprintln!(
        "| board | turns | native per turn | wasm per turn | wasm ÷ native | wasm fuel per turn | wasm per turn ÷ 8×8's |"
    );
    eprintln!("|---|---|---|---|---|---|---|---|");
    let mut smallest = None;
    for (side, map) in &maps {
        let first = grid_game(map, [&native[0], &native[1]], &sandbox);
        let twin = grid_game(map, [&wasm[0], &wasm[1]], &sandbox);
        assert_eq!(
            (first.winner, first.turns, &first.reason),
            (twin.winner, twin.turns, &twin.reason),
            "{side}x{side}: native and wasm games differ"
        );
        let time = |sides: [&Contestant; 2]| {
            median(
                &(0..5)
                    .map(|_| {
                        let started = Instant::now();
                        grid_game(map, sides, &sandbox);
                        started.elapsed().as_secs_f64() * 1e6
                    })
                    .collect::<Vec<_>>(),
            )
        };
        let n = time([&native[0], &native[1]]) / f64::from(first.turns);
        let w = time([&wasm[0], &wasm[1]]) / f64::from(first.turns);
        let fuel: u64 = twin.seats.iter().map(|s| s.fuel).sum();
        let base = *smallest.get_or_insert(w);
        eprintln!(
            "| {side}×{side} | {} ({}) | {n:.2} µs | {w:.2} µs | {:.1}× | {} | {:.2}× |",
            first.turns,
            first.reason,
            w / n,
            fuel / u64::from(first.turns),
            w / base
        );
    }

    let mut group = c.benchmark_group("turn/grid-size");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for (side, map) in &maps {
        group.bench_function(format!("native-{side}x{side}"), |b| {
            b.iter(|| grid_game(map, [&native[0], &native[1]], &sandbox))
        });
        group.bench_function(format!("wasm-{side}x{side}"), |b| {
            b.iter(|| grid_game(map, [&wasm[0], &wasm[1]], &sandbox))
        });
    }
    group.finish();
}

/// One mode's row of the `turn/modes` table: the built-in `builtin` deciding natively, its
/// sample bot `sample` in wasm, and the `decode-only` bench bot (the SDK's decoding and
/// answering, no decision) in wasm, over seat 0's requests of a recorded game against
/// `other`, timed interleaved; medians of `ROUNDS` rounds.
fn mode_turn<G: Builtins + arena_engine::Ruleset>(
    c: &mut Criterion,
    sandbox: &Sandbox,
    builtin: &str,
    other: &str,
    sample: &str,
) {
    const ROUNDS: usize = 11;
    let game = transcript::<G>(builtin, other, 3);
    let turns: Vec<&G::Observation> = game.turns.iter().map(|(o, _)| o).collect();
    let fresh = |player: &mut dyn Player<G>| {
        player.start(&game.start).expect("start");
        player.setup(&game.setup).expect("setup");
    };
    let wasm = |path: &str| {
        let mut player = sandbox.load(Path::new(path)).expect("load").player(sandbox);
        fresh(&mut player as &mut dyn Player<G>);
        player
    };
    let mut native = NativePlayer::new(G::create(builtin).expect("built-in"));
    fresh(&mut native);
    let (mut sample_bot, mut reader) = (wasm(sample), wasm(bots::DECODE_ONLY));
    for (observation, answer) in &game.turns {
        let action = Player::<G>::act(&mut sample_bot, observation).expect("act");
        assert_eq!(&action, answer, "{}: wasm and native differ", G::MODE);
        Player::<G>::act(&mut reader, observation).expect("decode-only acts");
    }
    let laps = (20_000 / turns.len()).max(1);
    let time = |player: &mut dyn Player<G>, laps: usize| {
        let started = Instant::now();
        for _ in 0..laps {
            for observation in &turns {
                black_box(player.act(black_box(observation)).unwrap());
            }
        }
        started.elapsed().as_secs_f64() * 1e6 / (laps * turns.len()) as f64
    };
    let (mut n, mut w, mut d) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        n.push(time(&mut native, laps));
        w.push(time(&mut sample_bot, laps / 4 + 1));
        d.push(time(&mut reader, laps / 4 + 1));
    }
    let (n, w, d) = (median(&n), median(&w), median(&d));
    // A match's start: a fresh player, its start and setup requests.
    let loaded = sandbox.load(Path::new(sample)).expect("load");
    let start_of = |native: bool| {
        median(
            &(0..ROUNDS)
                .map(|_| {
                    let started = Instant::now();
                    for _ in 0..20 {
                        if native {
                            let mut p = NativePlayer::new(G::create(builtin).unwrap());
                            fresh(&mut p);
                        } else {
                            let mut p = loaded.player(sandbox);
                            fresh(&mut p as &mut dyn Player<G>);
                        }
                    }
                    started.elapsed().as_secs_f64() * 1e6 / 20.0
                })
                .collect::<Vec<_>>(),
        )
    };
    let (native_start, wasm_start) = (start_of(true), start_of(false));
    eprintln!(
        "| {} | {} | {n:.2} | {w:.2} | {:.2} | {d:.2} | {:.2} | {native_start:.1} / {wasm_start:.1} |",
        G::MODE,
        turns.len(),
        w - n,
        w - d - n
    );

    let mut group = c.benchmark_group(format!("turn/modes/{}", G::MODE));
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2));
    let players: [(&str, &mut dyn Player<G>); 3] = [
        ("native", &mut native),
        ("wasm", &mut sample_bot),
        ("decode-only", &mut reader),
    ];
    for (name, player) in players {
        let mut next = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                next = (next + 1) % turns.len();
                player.act(black_box(turns[next])).unwrap()
            })
        });
    }
    group.finish();
}

/// Per mode, what a turn costs natively and in wasm, and how much of the difference is the
/// path (a wasm bot that only decodes and answers) and how much thinking slower in wasm.
fn modes(c: &mut Criterion) {
    use arena_sdk::{conquest::Conquest, dungeon::Dungeon, grid::Grid, tcg::Tcg};
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    eprintln!(
        "turn/modes: seat 0 of a recorded game (seed 3), medians of 11 interleaved rounds, µs per turn:"
    );
    eprintln!(
        "| mode | turns | native decision | wasm sample bot | overhead (wasm − native) | wasm decode-only (the path) | thinking's extra in wasm (wasm − path − native) | a match's start and setup, native / wasm |"
    );
    eprintln!("|---|---|---|---|---|---|---|---|");
    mode_turn::<Battle>(c, &sandbox, "strong", "heuristic", bots::BATTLE_STRONG);
    mode_turn::<Tcg>(c, &sandbox, "planner", "random", bots::TCG_PLANNER);
    mode_turn::<Grid>(
        c,
        &sandbox,
        "commander",
        "random-walker",
        bots::GRID_COMMANDER,
    );
    mode_turn::<Dungeon>(c, &sandbox, "strong", "random", bots::DUNGEON_STRONG);
    mode_turn::<Conquest>(c, &sandbox, "strong", "random", bots::CONQUEST_STRONG);
}

criterion_group!(benches, battle_turn, modes, grid_size);

fn main() {
    if std::env::var_os(PIPE_CHILD).is_some() {
        pipe_child();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
