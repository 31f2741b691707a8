//! Games per second of a tournament run with 1 and with 2 parallel games
//! (`arena_tournament::run::run`, what `arena tournament run --jobs N` calls).
//!
//! The tournament is generated: four wasm battle bots (the random, starter and strong
//! sample bots and a second copy of strong under another name), a round robin of
//! `GAMES_PER_PAIRING` games per pairing — 240 short games, both seats in wasm, no replays,
//! a warm module cache, a fresh results directory per run. Before criterion runs, the two
//! are timed alternately, `ROUNDS` times, and the median games per second and their ratio
//! printed (the machine is shared: the ratio of neighbouring runs is what to read). The
//! results of both must be identical, and the setup checks it.
//!
//! Run with `cargo bench --profile dev --workspace --bench scaling` (docs/performance.md).

use arena_sandbox::ModuleCache;
use arena_tests::bots;
use arena_tournament::config::Tournament;
use arena_tournament::plan::{Plan, plan};
use arena_tournament::results::read_results;
use arena_tournament::run::{RunOptions, run};
use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use std::path::Path;
use std::time::{Duration, Instant};

const GAMES_PER_PAIRING: u32 = 40;
const ROUNDS: usize = 7;

fn tournament(dir: &Path) -> Tournament {
    let mut file = format!(
        "name = \"scaling\"\nseed = 7\ngames_per_pairing = {GAMES_PER_PAIRING}\n\n[modes.battle]\n"
    );
    for (name, path) in [
        ("random", bots::BATTLE_RANDOM),
        ("starter", bots::BATTLE_STARTER),
        ("strong", bots::BATTLE_STRONG),
        ("strong-again", bots::BATTLE_STRONG),
    ] {
        file += &format!("\n[[bots]]\nname = \"{name}\"\nbot = \"{path}\"\n");
    }
    let path = dir.join("scaling.toml");
    std::fs::write(&path, file).unwrap();
    Tournament::load(&path).unwrap()
}

/// One run into a fresh results directory: its wall time and the directory.
fn timed_run(
    tournament: &Tournament,
    plan: &Plan,
    jobs: usize,
    cache: &Path,
) -> (Duration, tempfile::TempDir) {
    let out = tempfile::tempdir().unwrap();
    let options = RunOptions {
        jobs,
        shard: None,
        replays: false,
        out: out.path().join("results"),
        cache: Some(ModuleCache::new(cache)),
    };
    let started = Instant::now();
    let summary = run(tournament, plan, &options, &|_| {}).expect("tournament run");
    let elapsed = started.elapsed();
    assert_eq!(summary.played, plan.games.len());
    (elapsed, out)
}

fn jobs(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let tournament = tournament(dir.path());
    let plan = plan(&tournament);
    let games = plan.games.len();
    let cache = tempfile::tempdir().unwrap();
    let (_, first) = timed_run(&tournament, &plan, 2, cache.path());
    let (_, second) = timed_run(&tournament, &plan, 1, cache.path());
    let results = |out: &tempfile::TempDir| {
        read_results(&out.path().join("results"), &plan.fingerprint).expect("results")
    };
    assert_eq!(
        results(&first),
        results(&second),
        "--jobs 1 and --jobs 2 must give the same results"
    );

    let mut rates = [Vec::new(), Vec::new()];
    let mut ratios = Vec::new();
    for _ in 0..ROUNDS {
        let mut round = [0.0; 2];
        for (slot, jobs) in [(0, 1), (1, 2)] {
            let (elapsed, _) = timed_run(&tournament, &plan, jobs, cache.path());
            round[slot] = games as f64 / elapsed.as_secs_f64();
            rates[slot].push(round[slot]);
        }
        ratios.push(round[1] / round[0]);
    }
    let median = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    let shown = |values: &[f64]| {
        values
            .iter()
            .map(|v| format!("{v:.2}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    eprintln!("scaling: {games} battle games (both seats wasm), {ROUNDS} rounds of jobs 1 then 2");
    eprintln!(
        "scaling: ratio jobs 2 ÷ jobs 1 per round: {}",
        shown(&ratios)
    );
    let ratio = median(&mut ratios);
    let (one, two) = (median(&mut rates[0]), median(&mut rates[1]));
    eprintln!(
        "scaling: median games/s: jobs 1 {one:.0}, jobs 2 {two:.0}; median ratio {ratio:.2}×"
    );

    let mut group = c.benchmark_group("scaling/battle-240");
    group
        .throughput(Throughput::Elements(games as u64))
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(15));
    for jobs in [1, 2] {
        group.bench_function(format!("jobs-{jobs}"), |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| timed_run(&tournament, &plan, jobs, cache.path()).0)
                    .sum()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, jobs);
criterion_main!(benches);
