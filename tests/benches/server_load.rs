//! A bounded local load test of the competition server's API: an in-process server on
//! 127.0.0.1 with three battle bots and ladder games stored, then `CLIENTS` threads sending
//! `REQUESTS` requests each, over the read endpoints, while the ladder keeps playing on its
//! worker. Prints requests per second and latency percentiles per endpoint; then the
//! ladder's games per minute alone and under `MANY_CLIENTS` clients, and their latency.
//!
//! Run with `cargo bench --profile dev --workspace --bench server_load`
//! (docs/performance.md). The server has one ladder worker (`jobs = 1`, a core left for
//! requests on a 2-core machine); `ARENA_BENCH_JOBS=N` measures another number. Nothing leaves the machine; the database is a temporary file.

use arena_server::config::ServerConfig;
use arena_tests::bots;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const CLIENTS: usize = 8;
const REQUESTS: usize = 250;
/// The crowd: as many clients as a busy competition's pages and API users at once.
const MANY_CLIENTS: usize = 128;
const WINDOW: Duration = Duration::from_secs(5);
const ROUNDS: usize = 3;
const GAMES_FIRST: u64 = 20;

/// Lower this thread to the lowest priority: the clients stand for other machines, whose
/// own work is not the server's. `SCHED_IDLE` (`chrt --idle`, which may set it on a
/// thread of another process) runs a thread only when no other wants the core; without
/// `chrt`, nice 19.
fn nice() {
    let _ = rustix::process::setpriority_process(None, 19);
    let tid = rustix::thread::gettid().as_raw_nonzero().to_string();
    let _ = std::process::Command::new("chrt")
        .args(["--idle", "--pid", "0", &tid])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
}

/// CPU seconds the ladder's worker thread has used so far (from /proc; 0 elsewhere).
fn ladder_cpu() -> f64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0.0;
    };
    for task in tasks.flatten() {
        let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if comm.trim() != "ladder-0" {
            continue;
        }
        let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
        // Fields after the command's closing parenthesis; utime and stime are 14 and 15.
        let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
        return ticks / 100.0;
    }
    0.0
}

/// How long a GET of `endpoint` took, answer read whole; anything but 200 stops the bench.
fn timed_get(agent: &ureq::Agent, url: &str, endpoint: &str) -> Duration {
    let t = Instant::now();
    let mut response = agent.get(format!("{url}{endpoint}")).call().unwrap();
    assert_eq!(response.status(), 200, "{endpoint}");
    let _ = response.body_mut().read_to_vec().unwrap();
    t.elapsed()
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = ServerConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        db: dir.path().join("arena.db"),
        jobs: std::env::var("ARENA_BENCH_JOBS").map_or(1, |jobs| {
            jobs.parse()
                .expect("ARENA_BENCH_JOBS is a number of ladder workers")
        }),
        uploads_per_hour: 100,
        // The clients stand for many users but all come from 127.0.0.1.
        max_connections_per_client: 2 * MANY_CLIENTS,
        ..ServerConfig::default()
    };
    config
        .modes
        .insert("battle".into(), toml::Value::Table(toml::Table::new()));
    config.cache_dir = Some(dir.path().join("cache"));
    let store = arena_server::store::Store::open(&config.db).unwrap();
    let (_, token) = arena_server::accounts::add_user(&store, "load", false).unwrap();
    drop(store);

    // The runtime `arena serve` runs on.
    let runtime = arena_server::runtime().unwrap();
    let server = runtime
        .block_on(arena_server::Server::bind(config))
        .unwrap();
    let url = server.url().to_owned();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    // As `arena serve` does: the server runs on a thread of its own priority (the game
    // workers it starts inherit it), its requests on the runtime's lowered threads.
    let handle = runtime.handle().clone();
    let serving = std::thread::spawn(move || {
        handle.block_on(server.run(async {
            let _ = stopped.await;
        }))
    });

    let upload_start = Instant::now();
    for (name, bot) in [
        ("rando", bots::BATTLE_RANDOM),
        ("starter", bots::BATTLE_STARTER),
        ("strong", bots::BATTLE_STRONG),
    ] {
        let wasm = std::fs::read(bot).unwrap();
        let response = agent()
            .post(format!("{url}/api/bots?name={name}"))
            .header("Authorization", &format!("Bearer {token}"))
            .send(&wasm[..])
            .unwrap();
        assert_eq!(response.status(), 201);
    }
    let upload_time = upload_start.elapsed();
    let games_start = Instant::now();
    loop {
        let status: serde_json::Value = agent()
            .get(format!("{url}/api/status"))
            .call()
            .unwrap()
            .body_mut()
            .read_json()
            .unwrap();
        if status["games"].as_u64().unwrap() >= GAMES_FIRST {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let games_time = games_start.elapsed();

    let endpoints = [
        "/api/leaderboard/battle",
        "/api/bots/1",
        "/api/games/3",
        "/api/games/3/replay",
        "/api/status",
        "/",
        "/bots/2",
        "/games/3",
    ];
    let games_at = || -> u64 {
        let status: serde_json::Value = agent()
            .get(format!("{url}/api/status"))
            .call()
            .unwrap()
            .body_mut()
            .read_json()
            .unwrap();
        status["games"].as_u64().unwrap()
    };
    // `clients` threads, each sending requests back to back until `until`.
    let load = |clients: usize, until: Instant| -> Vec<(usize, Duration)> {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..clients)
                .map(|client| {
                    let url = &url;
                    scope.spawn(move || {
                        nice();
                        let agent = agent();
                        let mut out = Vec::new();
                        let mut i = 0;
                        while Instant::now() < until {
                            let which = (client + i) % endpoints.len();
                            i += 1;
                            out.push((which, timed_get(&agent, url, endpoints[which])));
                        }
                        out
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect()
        })
    };

    // The ladder alone, then under many clients, over the same window, interleaved.
    let mut alone = Vec::new();
    let mut crowded = Vec::new();
    let mut crowded_latencies = Vec::new();
    let (mut alone_cpu, mut crowded_cpu) = (0.0, 0.0);
    for _ in 0..ROUNDS {
        let (before, cpu) = (games_at(), ladder_cpu());
        std::thread::sleep(WINDOW);
        alone.push((games_at() - before) as f64 / WINDOW.as_secs_f64() * 60.0);
        alone_cpu += ladder_cpu() - cpu;
        let (before, cpu) = (games_at(), ladder_cpu());
        let latencies = load(MANY_CLIENTS, Instant::now() + WINDOW);
        crowded.push((games_at() - before) as f64 / WINDOW.as_secs_f64() * 60.0);
        crowded_cpu += ladder_cpu() - cpu;
        crowded_latencies.extend(latencies);
    }
    let windows = ROUNDS as f64 * WINDOW.as_secs_f64();
    let games = |rates: &[f64]| rates.iter().sum::<f64>() / 60.0 * WINDOW.as_secs_f64();
    println!(
        "the ladder's first worker thread was on a core {:.0} % of the time alone, {:.0} % under the clients; \
         games per CPU second of it: {:.0} alone, {:.0} under the clients",
        alone_cpu / windows * 100.0,
        crowded_cpu / windows * 100.0,
        games(&alone) / alone_cpu.max(f64::EPSILON),
        games(&crowded) / crowded_cpu.max(f64::EPSILON)
    );

    let games_before = games_at();
    let start = Instant::now();
    let latencies: Vec<Vec<(usize, Duration)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..CLIENTS)
            .map(|client| {
                let url = &url;
                scope.spawn(move || {
                    let agent = agent();
                    (0..REQUESTS)
                        .map(|i| {
                            let which = (client + i) % endpoints.len();
                            (which, timed_get(&agent, url, endpoints[which]))
                        })
                        .collect()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let wall = start.elapsed();
    let games_during = games_at() - games_before;
    let _ = stop.send(());
    serving.join().unwrap().unwrap();

    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (alone_rate, crowded_rate) = (median(&mut alone), median(&mut crowded));
    let mut all: Vec<Duration> = crowded_latencies.iter().map(|(_, d)| *d).collect();
    all.sort();
    let at = |p: f64| all[((all.len() - 1) as f64 * p) as usize].as_secs_f64() * 1000.0;
    println!(
        "ladder alone {alone_rate:.0} games/min, under {MANY_CLIENTS} clients {crowded_rate:.0} games/min: {:.0} % \
         (medians of {ROUNDS} interleaved {:.0} s windows; target >= 80 %); the clients' {} requests: p50 {:.1} ms, p99 {:.1} ms (target <= 500)",
        crowded_rate / alone_rate * 100.0,
        WINDOW.as_secs_f64(),
        all.len(),
        at(0.5),
        at(0.99)
    );
    println!("under {MANY_CLIENTS} clients:");
    print_table(&endpoints, crowded_latencies);
    let total = CLIENTS * REQUESTS;
    println!(
        "3 uploads (each checked: start + trial game per mode) in {:.2} s; {GAMES_FIRST} ladder games stored {:.2} s later",
        upload_time.as_secs_f64(),
        games_time.as_secs_f64()
    );
    println!(
        "{total} requests from {CLIENTS} clients in {:.2} s: {:.0} requests/s; meanwhile the ladder committed {games_during} games ({:.0} games/s)",
        wall.as_secs_f64(),
        total as f64 / wall.as_secs_f64(),
        games_during as f64 / wall.as_secs_f64()
    );
    print_table(&endpoints, latencies.into_iter().flatten());
}

/// Requests, p50 and p99 per endpoint (`latencies`: each request's endpoint index and
/// time), as a Markdown table.
fn print_table(endpoints: &[&str], latencies: impl IntoIterator<Item = (usize, Duration)>) {
    let mut by_endpoint: BTreeMap<usize, Vec<Duration>> = BTreeMap::new();
    for (which, latency) in latencies {
        by_endpoint.entry(which).or_default().push(latency);
    }
    println!("| endpoint | requests | p50 ms | p99 ms |\n|---|---|---|---|");
    for (which, mut times) in by_endpoint {
        times.sort();
        let pct = |p: f64| times[((times.len() - 1) as f64 * p) as usize].as_secs_f64() * 1000.0;
        println!(
            "| `{}` | {} | {:.1} | {:.1} |",
            endpoints[which],
            times.len(),
            pct(0.5),
            pct(0.99)
        );
    }
}
