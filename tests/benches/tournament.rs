//! Whole tournaments through `arena_tournament::run::run`:
//!
//! - `demo`: `tournaments/demo.toml` with 1 and with 2 parallel games (warm module cache,
//!   a fresh results directory per run). Its bot crates are replaced by the same crates'
//!   modules prebuilt by the tests' build script, so no cargo build is timed.
//! - `first-game`: a 20-bot battle tournament (20 distinct copies of battle-starter), the
//!   time until the first game is finished — loading every bot, then one game — with a
//!   cold (empty) and a warm module cache.
//!
//! Run with `cargo bench --profile dev --workspace --bench tournament`
//! (docs/performance.md).

use arena_sandbox::ModuleCache;
use arena_tests::{bots, root};
use arena_tournament::bots::BotSpec;
use arena_tournament::config::Tournament;
use arena_tournament::plan::{Plan, Shard, plan};
use arena_tournament::run::{Progress, RunOptions, run};
use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The module the tests' build script made from a sample bot crate.
fn prebuilt(crate_dir: &Path) -> PathBuf {
    let name = crate_dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let path = match name {
        "battle-random" => bots::BATTLE_RANDOM,
        "battle-starter" => bots::BATTLE_STARTER,
        "battle-strong" => bots::BATTLE_STRONG,
        "tcg-starter" => bots::TCG_STARTER,
        "tcg-planner" => bots::TCG_PLANNER,
        "grid-starter" => bots::GRID_STARTER,
        "grid-commander" => bots::GRID_COMMANDER,
        "conquest-starter" => bots::CONQUEST_STARTER,
        "conquest-strong" => bots::CONQUEST_STRONG,
        _ => panic!("no prebuilt module for bot crate {}", crate_dir.display()),
    };
    PathBuf::from(path)
}

fn demo() -> Tournament {
    let mut tournament = Tournament::load(&root().join("tournaments/demo.toml")).unwrap();
    for bot in &mut tournament.bots {
        if let BotSpec::Crate(dir) = &bot.spec {
            bot.spec = BotSpec::Module(prebuilt(dir));
        }
    }
    tournament
}

/// Run the plan into a fresh results directory; returns the time until the first game was
/// done and the total time.
fn timed_run(
    tournament: &Tournament,
    plan: &Plan,
    jobs: usize,
    shard: Option<Shard>,
    cache: &Path,
) -> (Duration, Duration) {
    let out = tempfile::tempdir().unwrap();
    let options = RunOptions {
        jobs,
        shard,
        replays: false,
        out: out.path().join("results"),
        cache: Some(ModuleCache::new(cache)),
    };
    let first = OnceLock::new();
    let started = Instant::now();
    let on_progress = |progress: Progress| {
        if progress.done >= 1 {
            first.get_or_init(|| started.elapsed());
        }
    };
    let summary = run(tournament, plan, &options, &on_progress).expect("tournament run");
    let total = started.elapsed();
    assert!(summary.played > 0);
    (*first.get().expect("a game finished"), total)
}

fn demo_jobs(c: &mut Criterion) {
    let tournament = demo();
    let plan = plan(&tournament);
    let games = plan.games.len() as u64;
    let cache = tempfile::tempdir().unwrap();
    let (_, first_run) = timed_run(&tournament, &plan, 2, None, cache.path());
    eprintln!(
        "tournament/demo: {games} games, {} bots; first run (cold cache, jobs 2) took {first_run:.2?}",
        tournament.bots.len()
    );

    let mut group = c.benchmark_group("tournament/demo");
    group
        .throughput(Throughput::Elements(games))
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10));
    for jobs in [1, 2] {
        group.bench_function(format!("jobs-{jobs}"), |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| timed_run(&tournament, &plan, jobs, None, cache.path()).1)
                    .sum()
            })
        });
    }
    group.finish();
}

/// `module` with a custom section named `name` appended: the same code, another hash.
fn with_custom_section(module: &[u8], name: &str, payload: &[u8]) -> Vec<u8> {
    fn leb128(mut value: usize, out: &mut Vec<u8>) {
        loop {
            let byte = (value & 0x7f) as u8;
            value >>= 7;
            if value == 0 {
                out.push(byte);
                return;
            }
            out.push(byte | 0x80);
        }
    }
    let mut content = Vec::new();
    leb128(name.len(), &mut content);
    content.extend_from_slice(name.as_bytes());
    content.extend_from_slice(payload);
    let mut out = module.to_vec();
    out.push(0); // custom section id
    leb128(content.len(), &mut out);
    out.extend_from_slice(&content);
    out
}

const BOTS: usize = 20;

/// A battle round robin of `BOTS` distinct modules in `dir`.
fn twenty_bots(dir: &Path) -> Tournament {
    let starter = std::fs::read(bots::BATTLE_STARTER).unwrap();
    let mut file =
        "name = \"twenty\"\nseed = 1\ngames_per_pairing = 2\n\n[modes.battle]\n".to_owned();
    for i in 0..BOTS {
        let name = format!("starter-{i:02}");
        let module = with_custom_section(&starter, "bench-copy", name.as_bytes());
        std::fs::write(dir.join(format!("{name}.wasm")), module).unwrap();
        file += &format!("\n[[bots]]\nname = \"{name}\"\nbot = \"{name}.wasm\"\n");
    }
    let path = dir.join("twenty.toml");
    std::fs::write(&path, &file).unwrap();
    Tournament::load(&path).unwrap()
}

fn first_game(c: &mut Criterion) {
    let bots_dir = tempfile::tempdir().unwrap();
    let tournament = twenty_bots(bots_dir.path());
    let plan = plan(&tournament);
    // Only the first pair of games: every bot is still loaded, but the run ends soon after
    // the game that is timed.
    let pairs = plan.games.len() as u32 / 2;
    let shard = Some(Shard {
        index: 0,
        count: pairs,
    });
    let warm = tempfile::tempdir().unwrap();
    let (cold_once, _) = timed_run(&tournament, &plan, 1, shard, warm.path());
    let entries = std::fs::read_dir(warm.path()).unwrap().count();
    eprintln!(
        "tournament/first-game: {BOTS} bots, {} planned games (timing the first of shard 0/{pairs}); {entries} cache entries; first cold run {cold_once:.2?}",
        plan.games.len()
    );

    let mut group = c.benchmark_group("tournament/first-game");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    group.bench_function("cold-cache", |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| {
                    let cold = tempfile::tempdir().unwrap();
                    timed_run(&tournament, &plan, 1, shard, cold.path()).0
                })
                .sum()
        })
    });
    group.bench_function("warm-cache", |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| timed_run(&tournament, &plan, 1, shard, warm.path()).0)
                .sum()
        })
    });
    group.finish();
}

criterion_group!(benches, demo_jobs, first_game);
criterion_main!(benches);
