//! The candidates for the ABI's binary encoding, measured on real requests (
//! "choose the format by measurement"): JSON (the default), postcard (what the SDK speaks),
//! the same format written by the postcard crate's own serializer (`postcard-crate`: the
//! SDK's writer, `arena_sdk::protocol::to_binary`, must give the same bytes faster),
//! MessagePack through rmp-serde in its compact form (structs as arrays, `to_vec`) and its
//! named form (structs as maps, `to_vec_named`), and bincode 2 (serde, standard config:
//! varints like postcard).
//!
//! Every request seat 0 received in a real game of built-ins (`arena_tests::transcript`,
//! seed 3) in every mode — start, setup, every turn, end — is encoded in each format; the
//! setup checks that each format gives the request back unchanged and prints the mean bytes
//! per turn request. Then, per mode and format, one turn request per iteration (cycling
//! through the game): `encode-*` is the host's encoding into a reused buffer, `decode-*` the
//! native decoding into the SDK's owned types, as a Rust bot does it.
//!
//! `fuel/<mode>` (printed by the setup, fuel is deterministic): where a sample bot's fuel per
//! turn goes when it replays the same game in the sandbox — the `decode-only` bench bot
//! (`tests/bench-bots/decode-only`: the SDK's decoding and answering, a fixed action, no
//! decision) against the sample bot, in each encoding; turn 0 is left out (decode-only
//! decides there).
//!
//! Run with `cargo bench --profile dev --workspace --bench formats` (docs/performance.md,
//! "Binary encoding").

use arena_builtins::Builtins;
use arena_sandbox::EncodingPolicy;
use arena_sdk::protocol::{Request, RequestRef, to_binary};
use arena_tests::{bots, transcript};
use criterion::{Criterion, criterion_group, criterion_main};
use std::fmt;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Json,
    Postcard,
    PostcardCrate,
    MsgpackCompact,
    MsgpackNamed,
    Bincode,
}

const FORMATS: [Format; 6] = [
    Format::Json,
    Format::Postcard,
    Format::PostcardCrate,
    Format::MsgpackCompact,
    Format::MsgpackNamed,
    Format::Bincode,
];

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Json => "json",
            Format::Postcard => "postcard",
            Format::PostcardCrate => "postcard-crate",
            Format::MsgpackCompact => "msgpack",
            Format::MsgpackNamed => "msgpack-named",
            Format::Bincode => "bincode",
        })
    }
}

impl Format {
    /// Encode into `out` (cleared first, its capacity kept), as the host does.
    fn encode<G: arena_sdk::Game>(self, request: &RequestRef<'_, G>, out: &mut Vec<u8>) {
        out.clear();
        match self {
            Format::Json => serde_json::to_writer(&mut *out, request).unwrap(),
            Format::Postcard => to_binary(request, out).unwrap(),
            Format::PostcardCrate => postcard::serialize_with_flavor(request, Append(out)).unwrap(),
            Format::MsgpackCompact => rmp_serde::encode::write(out, request).unwrap(),
            Format::MsgpackNamed => rmp_serde::encode::write_named(out, request).unwrap(),
            Format::Bincode => {
                bincode::serde::encode_into_std_write(request, out, bincode::config::standard())
                    .map(drop)
                    .unwrap()
            }
        }
    }

    /// Decode into the SDK's owned types, as a Rust bot does.
    fn decode<G: arena_sdk::Game>(self, bytes: &[u8]) -> Request<G> {
        match self {
            Format::Json => serde_json::from_slice(bytes).unwrap(),
            Format::Postcard | Format::PostcardCrate => postcard::from_bytes(bytes).unwrap(),
            Format::MsgpackCompact | Format::MsgpackNamed => rmp_serde::from_slice(bytes).unwrap(),
            Format::Bincode => {
                let (request, read) =
                    bincode::serde::decode_from_slice(bytes, bincode::config::standard()).unwrap();
                assert_eq!(read, bytes.len(), "bincode left bytes unread");
                request
            }
        }
    }
}

/// The output postcard's serializer wrote into before the SDK had its own writer: appends to
/// a reused buffer, a push for a one-byte varint, `extend_from_slice` for the rest.
struct Append<'a>(&'a mut Vec<u8>);

impl postcard::ser_flavors::Flavor for Append<'_> {
    type Output = ();
    #[inline]
    fn try_extend(&mut self, data: &[u8]) -> postcard::Result<()> {
        match data {
            [byte] => self.0.push(*byte),
            _ => self.0.extend_from_slice(data),
        }
        Ok(())
    }
    #[inline]
    fn try_push(&mut self, data: u8) -> postcard::Result<()> {
        self.0.push(data);
        Ok(())
    }
    fn finalize(self) -> postcard::Result<()> {
        Ok(())
    }
}

/// Every request of seat 0's game, borrowed.
fn requests<G: arena_sdk::Game>(game: &arena_tests::Transcript<G>) -> Vec<RequestRef<'_, G>> {
    let mut all = vec![
        RequestRef::Start(&game.start),
        RequestRef::Setup(&game.setup),
    ];
    all.extend(game.turns.iter().map(|(o, _)| RequestRef::Turn(o)));
    all.push(RequestRef::End(&game.end));
    all
}

fn reencoded<G: arena_sdk::Game>(request: &Request<G>) -> Vec<u8> {
    let borrowed = match request {
        Request::Start(r) => RequestRef::Start(r),
        Request::Setup(r) => RequestRef::Setup(r),
        Request::Turn(r) => RequestRef::Turn(r),
        Request::End(r) => RequestRef::End(r),
    };
    let mut out = Vec::new();
    Format::Postcard.encode(&borrowed, &mut out);
    out
}

fn formats_of<G: Builtins + arena_engine::Ruleset>(c: &mut Criterion, builtins: [&str; 2]) {
    let mode = G::MODE.name();
    let game = transcript::<G>(builtins[0], builtins[1], 3);
    let all = requests(&game);
    let turns: Vec<&G::Observation> = game.turns.iter().map(|(o, _)| o).collect();
    let mut group = c.benchmark_group(format!("formats/{mode}"));
    group
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1));
    let mut line = format!(
        "formats/{mode}: {} turns; bytes per turn request",
        turns.len()
    );
    for format in FORMATS {
        let mut buffer = Vec::new();
        // Each format must carry every request of the game intact: compared through
        // postcard, which is byte-exact for the SDK types.
        for request in &all {
            format.encode(request, &mut buffer);
            let mut expected = Vec::new();
            Format::Postcard.encode(request, &mut expected);
            assert_eq!(
                reencoded(&format.decode::<G>(&buffer)),
                expected,
                "{format} changes a {mode} request"
            );
        }
        let bytes: usize = turns
            .iter()
            .map(|o| {
                format.encode(&RequestRef::<G>::Turn(o), &mut buffer);
                buffer.len()
            })
            .sum();
        line += &format!(" {format} {}", bytes / turns.len());
        let encoded: Vec<Vec<u8>> = turns
            .iter()
            .map(|o| {
                let mut out = Vec::new();
                format.encode(&RequestRef::<G>::Turn(o), &mut out);
                out
            })
            .collect();
        let mut next = 0;
        group.bench_function(format!("encode-{format}"), |b| {
            b.iter(|| {
                format.encode(&RequestRef::<G>::Turn(black_box(turns[next])), &mut buffer);
                next = (next + 1) % turns.len();
                buffer.len()
            })
        });
        let mut next = 0;
        group.bench_function(format!("decode-{format}"), |b| {
            b.iter(|| {
                let request = format.decode::<G>(black_box(&encoded[next]));
                next = (next + 1) % encoded.len();
                request
            })
        });
    }
    eprintln!("{line}");
    group.finish();
}

/// Mean fuel per turn (turns 1 on) of `bot` replaying seat 0's game in `policy`'s encoding.
fn fuel_per_turn<G: arena_sdk::Game>(
    bot: &str,
    game: &arena_tests::Transcript<G>,
    policy: EncodingPolicy,
) -> u64 {
    use arena_engine::Player;
    let sandbox = arena_tests::sandbox_offering(policy);
    let loaded = sandbox.load(Path::new(bot)).expect("load the bot");
    let mut player = loaded.player(&sandbox);
    Player::<G>::start(&mut player, &game.start).expect("start");
    Player::<G>::setup(&mut player, &game.setup).expect("setup");
    let mut fuel = 0;
    for (turn, (observation, _)) in game.turns.iter().enumerate() {
        Player::<G>::act(&mut player, observation).expect("act");
        let used = Player::<G>::last_call(&mut player).fuel;
        if turn > 0 {
            fuel += used;
        }
    }
    fuel / (game.turns.len() as u64 - 1).max(1)
}

/// The `fuel/<mode>` line: decode-only and the sample bot, in JSON and binary.
fn fuel_of<G: Builtins + arena_engine::Ruleset>(sample: &str, builtins: [&str; 2]) {
    let game = transcript::<G>(builtins[0], builtins[1], 3);
    let name = Path::new(sample)
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .replace('_', "-");
    let mut line = format!("fuel/{}: {} turns;", G::MODE.name(), game.turns.len());
    for policy in [EncodingPolicy::Json, EncodingPolicy::Fastest] {
        let reading = fuel_per_turn(bots::DECODE_ONLY, &game, policy);
        let whole = fuel_per_turn(sample, &game, policy);
        let encoding = if policy == EncodingPolicy::Json {
            "json"
        } else {
            "binary"
        };
        line += &format!(
            " {encoding}: decode-only {reading}, {name} {whole} (thinking {})",
            whole.saturating_sub(reading)
        );
    }
    eprintln!("{line}");
}

fn fuel(_: &mut Criterion) {
    use arena_sdk::{battle::Battle, conquest::Conquest, dungeon::Dungeon, grid::Grid, tcg::Tcg};
    fuel_of::<Battle>(bots::BATTLE_STRONG, ["strong", "heuristic"]);
    fuel_of::<Tcg>(bots::TCG_PLANNER, ["planner", "random"]);
    fuel_of::<Grid>(bots::GRID_COMMANDER, ["commander", "random-walker"]);
    fuel_of::<Dungeon>(bots::DUNGEON_STRONG, ["strong", "random"]);
    fuel_of::<Conquest>(bots::CONQUEST_STRONG, ["strong", "random"]);
    fuel_of::<Conquest>(bots::CONQUEST_STARTER, ["strong", "random"]);
}

fn formats(c: &mut Criterion) {
    use arena_sdk::{battle::Battle, conquest::Conquest, dungeon::Dungeon, grid::Grid, tcg::Tcg};
    formats_of::<Battle>(c, ["strong", "heuristic"]);
    formats_of::<Tcg>(c, ["planner", "random"]);
    formats_of::<Grid>(c, ["commander", "random-walker"]);
    formats_of::<Dungeon>(c, ["strong", "random"]);
    formats_of::<Conquest>(c, ["strong", "random"]);
}

criterion_group!(benches, fuel, formats);
criterion_main!(benches);
