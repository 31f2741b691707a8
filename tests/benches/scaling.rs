//! Games per second of a tournament run with 1 and with 2 parallel games
//! (`arena_tournament::run::run`, what `arena tournament run --jobs N` calls).
//!
//! The tournament is generated: four wasm battle bots (the random, starter and strong
//! sample bots and a second copy of strong under another name), a round robin of
//! `GAMES_PER_PAIRING` games per pairing — 1,200 short games (enough that a run's start, the
//! pool and the bots loaded, is a small part of it: the bench prints how small), both seats
//! in wasm, no replays, a warm module cache, a fresh results directory per run. Before criterion runs, the two
//! are timed alternately, `ROUNDS` times, and the median games per second and their ratio
//! printed (the machine is shared: the ratio of neighbouring runs is what to read), with
//! the CPU time per game (equal at both: no contention) and how busy the machine was with
//! other work. The results of both must be identical, and the setup checks it. Then the
//! same games straight through `game::play` on 1 and 2 threads, the way they were played
//! before this bench (on-demand instances, a replay JSON tree per game) and now.
//!
//! Run with `cargo bench --profile dev --workspace --bench scaling` (docs/performance.md).

use arena_sandbox::{Limits, ModuleCache, Pool, Sandbox};
use arena_tests::{bots, median};
use arena_tournament::bots::Contestant;
use arena_tournament::config::Tournament;
use arena_tournament::game::{self, GameSpec};
use arena_tournament::plan::{Plan, plan};
use arena_tournament::results::read_results;
use arena_tournament::run::contestants;
use arena_tournament::run::{RunOptions, run};
use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const GAMES_PER_PAIRING: u32 = 200;
const ROUNDS: usize = 5;

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

/// CPU time this process has used (all threads, user and system), in seconds, from
/// `/proc/self/stat` (Linux; `None` elsewhere).
fn process_cpu() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start at the state, field 3;
    // utime and stime are fields 14 and 15, in clock ticks (100 a second on Linux).
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// CPU time the whole machine spent busy (not idle or waiting), in seconds, from
/// `/proc/stat`: with other work on the machine, what was left for the run.
fn machine_busy() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let cpu: Vec<u64> = stat
        .lines()
        .next()?
        .split_whitespace()
        .skip(1)
        .filter_map(|v| v.parse().ok())
        .collect();
    let total: u64 = cpu.iter().sum();
    let idle = cpu.get(3)? + cpu.get(4)?;
    Some((total - idle) as f64 / 100.0)
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
    // CPU seconds per game of this process, and of everything else on the machine.
    let mut ours = [Vec::new(), Vec::new()];
    let mut others = [Vec::new(), Vec::new()];
    let mut ratios = Vec::new();
    for _ in 0..ROUNDS {
        let mut round = [0.0; 2];
        for (slot, jobs) in [(0, 1), (1, 2)] {
            let (cpu, busy) = (process_cpu(), machine_busy());
            let (elapsed, _) = timed_run(&tournament, &plan, jobs, cache.path());
            round[slot] = games as f64 / elapsed.as_secs_f64();
            rates[slot].push(round[slot]);
            if let (Some(a), Some(b), Some(c), Some(d)) = (cpu, process_cpu(), busy, machine_busy())
            {
                ours[slot].push((b - a) / games as f64 * 1e3);
                others[slot].push(((d - c) - (b - a)).max(0.0) / elapsed.as_secs_f64());
            }
        }
        ratios.push(round[1] / round[0]);
    }
    eprintln!("scaling: {games} battle games (both seats wasm), {ROUNDS} rounds of jobs 1 then 2");
    eprintln!(
        "scaling: ratio jobs 2 ÷ jobs 1 per round: {}",
        shown(&ratios)
    );
    let ratio = median(&ratios);
    let (one, two) = (median(&rates[0]), median(&rates[1]));
    eprintln!(
        "scaling: median games/s: jobs 1 {one:.0}, jobs 2 {two:.0}; median ratio {ratio:.2}×"
    );
    if !ours[0].is_empty() {
        eprintln!(
            "scaling: CPU ms per game (this process): jobs 1 {:.2}, jobs 2 {:.2}; cores busy with other work during the runs: jobs 1 {:.2}, jobs 2 {:.2}",
            median(&ours[0]),
            median(&ours[1]),
            median(&others[0]),
            median(&others[1])
        );
    }

    // What a run does before its first game and after its last, once whatever the games:
    // the pooled sandbox reserved (and released), the bots loaded from the module cache.
    let mut setups = Vec::new();
    for _ in 0..ROUNDS {
        let started = Instant::now();
        let sandbox = Sandbox::with_pool(
            Limits::default(),
            Some(ModuleCache::new(cache.path())),
            Pool::for_parallel_games(2),
        )
        .unwrap();
        contestants(&tournament, &sandbox, 2).expect("bots load");
        drop(sandbox);
        setups.push(started.elapsed().as_secs_f64() * 1e3);
    }
    eprintln!(
        "scaling: a run's setup (pool, bots from the cache): median {:.1} ms, {:.1}% of a jobs-2 run",
        median(&setups),
        median(&setups) / (games as f64 / two * 1e3) * 100.0
    );

    allocators(&tournament, &plan);

    let mut group = c.benchmark_group("scaling/battle-1200");
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

/// The plan's games played on `jobs` threads straight through `game::play` (no results
/// log): the wall time and this process's CPU seconds.
fn play_all(
    tournament: &Tournament,
    plan: &Plan,
    sandbox: &Sandbox,
    contestants: &[Contestant],
    jobs: usize,
    replay: game::Keep,
) -> (f64, f64) {
    let next = AtomicUsize::new(0);
    let cpu = process_cpu().unwrap_or(0.0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                while let Some(planned) = plan.games.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let spec = GameSpec {
                        mode: planned.mode,
                        rules: tournament.rules_for(planned.mode, planned.variant),
                        seed: planned.seed,
                        max_faults: tournament.max_faults,
                        max_rejections: tournament.max_rejections,
                    };
                    let [a, b] = planned.seats;
                    game::play(
                        &spec,
                        [&contestants[a], &contestants[b]],
                        ["a", "b"],
                        sandbox,
                        replay,
                    )
                    .expect("game");
                }
            });
        }
    });
    (
        started.elapsed().as_secs_f64(),
        process_cpu().unwrap_or(0.0) - cpu,
    )
}

/// What stopped a run from scaling, one cause at a time: the same games on 1 and 2
/// threads as they were played before (on-demand instances — a fresh 4 GiB reservation
/// mapped and unmapped per instance — and a replay JSON tree built per game), without the
/// replay tree, and from the sandbox's pool.
fn allocators(tournament: &Tournament, plan: &Plan) {
    let games = plan.games.len() as f64;
    // `replay`: the replay turned into a JSON tree as every game did before (and as
    // `--replays` still does), dropped at once.
    for (name, pool, replay) in [
        ("on-demand+replay-json", Pool::none(), game::Keep::Json),
        ("on-demand", Pool::none(), game::Keep::Nothing),
        ("pooled", Pool::for_parallel_games(2), game::Keep::Nothing),
    ] {
        let sandbox = Sandbox::with_pool(Limits::default(), None, pool).unwrap();
        let contestants = contestants(tournament, &sandbox, 2).expect("bots load");
        let mut ratios = Vec::new();
        let mut cpu = [Vec::new(), Vec::new()];
        for _ in 0..ROUNDS {
            let (one, cpu_one) = play_all(tournament, plan, &sandbox, &contestants, 1, replay);
            let (two, cpu_two) = play_all(tournament, plan, &sandbox, &contestants, 2, replay);
            ratios.push(one / two);
            cpu[0].push(cpu_one / games * 1e3);
            cpu[1].push(cpu_two / games * 1e3);
        }
        eprintln!(
            "scaling/{name}: games straight through game::play: ratio jobs 2 ÷ jobs 1 median {:.2}× (rounds: {}); CPU ms per game jobs 1 {:.2}, jobs 2 {:.2}",
            median(&ratios),
            shown(&ratios),
            median(&cpu[0]),
            median(&cpu[1])
        );
    }
}

fn shown(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| format!("{v:.2}"))
        .collect::<Vec<_>>()
        .join(" ")
}

criterion_group!(benches, jobs);
criterion_main!(benches);
