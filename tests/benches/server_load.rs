//! A bounded local load test of the competition server's API: an in-process server on
//! 127.0.0.1 with three battle bots and ladder games stored, then `CLIENTS` threads sending
//! `REQUESTS` requests each, over the read endpoints, while the ladder keeps playing on its
//! worker. Prints requests per second and latency percentiles per endpoint.
//!
//! Run with `cargo bench --profile dev --workspace --bench server_load`
//! (docs/performance.md). Nothing leaves the machine; the database is a temporary file.

use arena_server::config::ServerConfig;
use arena_tests::bots;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const CLIENTS: usize = 8;
const REQUESTS: usize = 250;
const GAMES_FIRST: u64 = 20;

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
        jobs: 1,
        uploads_per_hour: 100,
        ..ServerConfig::default()
    };
    config
        .modes
        .insert("battle".into(), toml::Value::Table(toml::Table::new()));
    config.cache_dir = Some(dir.path().join("cache"));
    let store = arena_server::store::Store::open(&config.db).unwrap();
    let (_, token) = arena_server::accounts::add_user(&store, "load", false).unwrap();
    drop(store);

    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = runtime
        .block_on(arena_server::Server::bind(config))
        .unwrap();
    let url = server.url().to_owned();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = runtime.spawn(server.run(async {
        let _ = stopped.await;
    }));

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
                            let t = Instant::now();
                            let mut response = agent
                                .get(format!("{url}{}", endpoints[which]))
                                .call()
                                .unwrap();
                            assert_eq!(response.status(), 200, "{}", endpoints[which]);
                            let _ = response.body_mut().read_to_vec().unwrap();
                            (which, t.elapsed())
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
    runtime.block_on(serving).unwrap().unwrap();

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
    let mut by_endpoint: BTreeMap<usize, Vec<Duration>> = BTreeMap::new();
    for (which, latency) in latencies.into_iter().flatten() {
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
