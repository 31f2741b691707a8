//! What the wasm sandbox costs per call, per match and per bot load.
//!
//! - `call`: one battle turn through `Player::act`, cycling through the real turns of a
//!   recorded game (`fixtures::recorded_battle_turns`: effects, skills, destroyed units) —
//!   the echo bot (`tests/bench-bots/echo.wat`, answers `"skill"` without reading the
//!   request) shows the host's own cost; the `battle-random` sample bot adds the bot's serde
//!   decoding of the same requests; the host's JSON encoding alone and the native built-in
//!   `random` are the floors.
//! - `instantiate`: a fresh instance and its `start` request, as every match does.
//! - `load`: compiling `battle-strong` versus loading it from a warm [`ModuleCache`].
//! - `encoding/<bot>`: a sample bot replaying every turn of a real game in JSON and in the
//!   binary encoding: the host's encoding of the request alone (`encode-*`) and the whole
//!   call (`call-*`); the setup prints fuel and request bytes per turn in each.
//!
//! Run with `cargo bench --profile dev --workspace --bench sandbox` (docs/performance.md).

use arena_builtins::Builtins;
use arena_engine::{NativePlayer, Player};
use arena_sandbox::{
    EncodingPolicy, Limits, LoadedBot, ModuleCache, Pool, Sandbox, encode_request,
};
use arena_sdk::Encoding;
use arena_sdk::battle::Battle;
use arena_sdk::protocol::RequestRef;
use arena_tests::fixtures::{
    battle_setup_request as setup_request, battle_start as start, recorded_battle_turns,
};
use arena_tests::{bots, root, transcript};
use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn echo_bot() -> PathBuf {
    root().join("tests/bench-bots/echo.wat")
}

fn load(sandbox: &Sandbox, path: &Path) -> LoadedBot {
    sandbox
        .load(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A started wasm player; `setup` too for bots that play battle for real.
fn started(sandbox: &Sandbox, bot: &LoadedBot, with_setup: bool) -> arena_sandbox::WasmBot {
    let mut player = bot.player(sandbox);
    Player::<Battle>::start(&mut player, &start()).expect("start");
    if with_setup {
        Player::<Battle>::setup(&mut player, &setup_request()).expect("setup");
    }
    player
}

/// The recorded turns one after the other, round and round (one per bench iteration).
fn cycle<'a, T>(turns: &'a [T]) -> impl FnMut() -> &'a T {
    let mut next = 0;
    move || {
        let turn = &turns[next];
        next = (next + 1) % turns.len();
        turn
    }
}

fn call(c: &mut Criterion) {
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    let turns = recorded_battle_turns();
    let sizes: Vec<usize> = turns
        .iter()
        .map(|o| {
            serde_json::to_vec(&RequestRef::<Battle>::Turn(o))
                .unwrap()
                .len()
        })
        .collect();
    eprintln!(
        "sandbox/call: {} recorded battle turn requests, {} bytes on average ({} to {})",
        turns.len(),
        sizes.iter().sum::<usize>() / sizes.len(),
        sizes.iter().min().unwrap(),
        sizes.iter().max().unwrap()
    );

    let mut group = c.benchmark_group("sandbox/call");
    group
        .sample_size(50)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (name, path, with_setup) in [
        ("echo", echo_bot(), false),
        ("battle-random", PathBuf::from(bots::BATTLE_RANDOM), true),
    ] {
        let bot = load(&sandbox, &path);
        let mut player = started(&sandbox, &bot, with_setup);
        let mut fuel = 0;
        for observation in &turns {
            Player::<Battle>::act(&mut player, observation).expect("act");
            fuel += Player::<Battle>::last_call(&mut player).fuel;
        }
        eprintln!(
            "sandbox/call/{name}: {} fuel per turn call on average",
            fuel / turns.len() as u64
        );
        let mut next = cycle(&turns);
        group.bench_function(name, |b| {
            b.iter(|| Player::<Battle>::act(&mut player, black_box(next())).unwrap())
        });
    }
    // The host's JSON encoding alone, as `WasmBot` does it for every request.
    let mut buffer = Vec::with_capacity(4096);
    let mut next = cycle(&turns);
    group.bench_function("encode-request", |b| {
        b.iter(|| {
            buffer.clear();
            serde_json::to_writer(&mut buffer, &RequestRef::<Battle>::Turn(black_box(next())))
                .unwrap();
            buffer.len()
        })
    });
    let mut native = NativePlayer::new(<Battle as Builtins>::create("random").unwrap());
    Player::<Battle>::start(&mut native, &start()).unwrap();
    let mut next = cycle(&turns);
    group.bench_function("native-random", |b| {
        b.iter(|| Player::<Battle>::act(&mut native, black_box(next())).unwrap())
    });
    group.finish();
}

fn instantiate(c: &mut Criterion) {
    let mut group = c.benchmark_group("sandbox/instantiate");
    group
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    // The sandbox's default (wasmtime's pooling allocator) against on-demand allocation.
    let decommit = Pool {
        keep_resident: 0,
        ..Pool::default()
    };
    for (allocator, pool) in [
        ("pooled", Pool::default()),
        ("pooled-decommit", decommit),
        ("on-demand", Pool::none()),
    ] {
        let sandbox = Sandbox::with_pool(Limits::default(), None, pool).unwrap();
        for (name, path) in [
            ("echo", echo_bot()),
            ("battle-strong", PathBuf::from(bots::BATTLE_STRONG)),
        ] {
            let bot = load(&sandbox, &path);
            let mut player = bot.player(&sandbox);
            assert_eq!(player.pooled(), allocator != "on-demand");
            Player::<Battle>::start(&mut player, &start()).expect("start");
            let fuel = Player::<Battle>::last_call(&mut player).fuel;
            drop(player);
            eprintln!(
                "sandbox/instantiate/{name}-{allocator}: {fuel} fuel for instantiation + start"
            );
            group.bench_function(format!("{name}-{allocator}"), |b| {
                b.iter(|| {
                    let mut player = bot.player(&sandbox);
                    Player::<Battle>::start(&mut player, &start()).unwrap();
                    player
                })
            });
        }
    }
    group.finish();
}

fn load_module(c: &mut Criterion) {
    let path = Path::new(bots::BATTLE_STRONG);
    let size = std::fs::metadata(path).unwrap().len();
    eprintln!("sandbox/load: battle-strong.wasm is {size} bytes");
    let uncached = Sandbox::new(Limits::default(), None).unwrap();
    let cache_dir = tempfile::tempdir().unwrap();
    let cached = Sandbox::new(Limits::default(), Some(ModuleCache::new(cache_dir.path()))).unwrap();
    assert!(
        !load(&cached, path).info().from_cache,
        "the cache starts empty"
    );
    assert!(load(&cached, path).info().from_cache, "the cache is warm");

    let mut group = c.benchmark_group("sandbox/load");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    group.bench_function("compile", |b| b.iter(|| load(&uncached, path)));
    group.bench_function("warm-cache", |b| b.iter(|| load(&cached, path)));
    group.finish();
}

/// Mean fuel per turn, request bytes and host encoding time of a sample bot replaying a real
/// game (`transcript`), in each encoding; and one turn's whole call in each.
fn encoding_of<G: Builtins + arena_engine::Ruleset>(
    c: &mut Criterion,
    bot: &str,
    builtins: [&str; 2],
) {
    let name = Path::new(bot)
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .replace('_', "-");
    let game = transcript::<G>(builtins[0], builtins[1], 3);
    let turns: Vec<&G::Observation> = game.turns.iter().map(|(o, _)| o).collect();
    let mut group = c.benchmark_group(format!("sandbox/encoding/{name}"));
    group
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2));
    let mut fuel_json = 0;
    for policy in [EncodingPolicy::Json, EncodingPolicy::Fastest] {
        let encoding = match policy {
            EncodingPolicy::Json => Encoding::Json,
            EncodingPolicy::Fastest => Encoding::Binary,
        };
        let sandbox = arena_tests::sandbox_offering(policy);
        let loaded = load(&sandbox, Path::new(bot));
        let mut player = loaded.player(&sandbox);
        Player::<G>::start(&mut player, &game.start).expect("start");
        Player::<G>::setup(&mut player, &game.setup).expect("setup");
        let (mut fuel, mut bytes, mut buffer) = (0, 0, Vec::new());
        for observation in &turns {
            Player::<G>::act(&mut player, observation).expect("act");
            fuel += Player::<G>::last_call(&mut player).fuel;
            encode_request(encoding, RequestRef::<G>::Turn(observation), &mut buffer).unwrap();
            bytes += buffer.len();
        }
        let n = turns.len() as u64;
        if policy == EncodingPolicy::Json {
            fuel_json = fuel;
        }
        eprintln!(
            "sandbox/encoding/{name}/{encoding}: {} turns, {} fuel and {} request bytes per turn{}",
            n,
            fuel / n,
            bytes as u64 / n,
            if policy == EncodingPolicy::Fastest {
                format!(
                    " ({:.1}× less fuel than JSON)",
                    fuel_json as f64 / fuel as f64
                )
            } else {
                String::new()
            }
        );
        let mut next = cycle(&turns);
        group.bench_function(format!("encode-{encoding}"), |b| {
            b.iter(|| {
                encode_request(encoding, RequestRef::<G>::Turn(*next()), &mut buffer).unwrap();
                buffer.len()
            })
        });
        let mut next = cycle(&turns);
        group.bench_function(format!("call-{encoding}"), |b| {
            b.iter(|| Player::<G>::act(&mut player, black_box(*next())).unwrap())
        });
    }
    group.finish();
}

fn encodings(c: &mut Criterion) {
    use arena_sdk::{conquest::Conquest, dungeon::Dungeon, grid::Grid, tcg::Tcg};
    encoding_of::<Battle>(c, bots::BATTLE_STRONG, ["strong", "heuristic"]);
    encoding_of::<Tcg>(c, bots::TCG_PLANNER, ["planner", "random"]);
    encoding_of::<Grid>(c, bots::GRID_COMMANDER, ["commander", "random-walker"]);
    encoding_of::<Dungeon>(c, bots::DUNGEON_STRONG, ["strong", "random"]);
    encoding_of::<Conquest>(c, bots::CONQUEST_STRONG, ["strong", "random"]);
    // Bots that barely think: their fuel is almost all reading requests and answering.
    encoding_of::<Battle>(c, bots::BATTLE_RANDOM, ["strong", "heuristic"]);
    encoding_of::<Tcg>(c, bots::TCG_RANDOM, ["planner", "random"]);
    encoding_of::<Grid>(c, bots::GRID_RANDOM_WALKER, ["commander", "random-walker"]);
    encoding_of::<Dungeon>(c, bots::DUNGEON_STARTER, ["strong", "random"]);
    encoding_of::<Conquest>(c, bots::CONQUEST_STARTER, ["strong", "random"]);
}

criterion_group!(benches, call, instantiate, load_module, encodings);
criterion_main!(benches);
