//! The same starter strategy in Rust and in Go, in every mode: what a bot's language costs
//! in the sandbox. Each starter plays seat 0 against the mode's weakest built-in (native)
//! on the same seeds; the table gives, per language, the first call (instantiation,
//! `_initialize` for Go, and the start request), each turn's fuel and time — in the binary
//! encoding both SDKs pick, and in JSON (`--encoding json`) — and the bot's
//! memory at the end of the match, with Go's figures as ratios of Rust's measured in the
//! same run.
//!
//! A second table does the same for JavaScript: the committed `sample-bots/js-starter`
//! module (QuickJS with the script packed in; it speaks JSON) against the Rust starter in
//! either encoding, and — with `node` installed — the same script run natively by Node.js
//! on the requests the sandboxed bot was sent (`sdk/js/node-harness.js`). A third does it
//! for Python: `sample-bots/python-starter` (CPython in a component; JSON), and — with
//! `python3` installed — the same bot run natively on the same requests
//! (`tests/benches/python-harness.py`).
//!
//! Run with `cargo bench --profile dev --workspace --bench languages` (or `--release`);
//! `ARENA_LANGUAGES_SEEDS=N` plays N seeds per mode (default 6). Without Go the Go column
//! is the committed build of `sample-bots/go-starter`.

use arena_builtins::Builtins;
use arena_engine::{CallReport, Fault, MatchConfig, NativePlayer, Player, Ruleset, run_match};
use arena_sandbox::{Limits, Sandbox, WasmBot};
use arena_sdk::protocol::RequestRef;
use arena_sdk::{Game, MatchEnd, MatchStart};
use arena_tests::{bots, median, root};
use std::path::Path;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Call {
    Start,
    Setup,
    Turn,
    End,
}

/// A player that times each call of `inner` and records the fuel the engine reads back.
struct Meter {
    inner: WasmBot,
    call: Call,
    elapsed: Duration,
    starts: Vec<(u64, Duration)>,
    turns: Vec<(u64, Duration)>,
    /// The JSON of every request, when recording (for the Node.js run).
    requests: Option<Vec<String>>,
}

impl Meter {
    fn record<G: Game>(&mut self, request: RequestRef<'_, G>) {
        if let Some(requests) = &mut self.requests {
            requests.push(serde_json::to_string(&request).unwrap());
        }
    }

    fn timed<T>(&mut self, call: Call, f: impl FnOnce(&mut WasmBot) -> T) -> T {
        self.call = call;
        let started = Instant::now();
        let out = f(&mut self.inner);
        self.elapsed = started.elapsed();
        out
    }
}

impl<G: Game> Player<G> for Meter
where
    WasmBot: Player<G>,
{
    fn start(&mut self, start: &MatchStart<G>) -> Result<(), Fault> {
        self.record(RequestRef::Start(start));
        self.timed(Call::Start, |bot| Player::<G>::start(bot, start))
    }
    fn setup(&mut self, request: &G::SetupRequest) -> Result<G::SetupChoice, Fault> {
        self.record(RequestRef::<G>::Setup(request));
        self.timed(Call::Setup, |bot| Player::<G>::setup(bot, request))
    }
    fn act(&mut self, observation: &G::Observation) -> Result<G::Action, Fault> {
        self.record(RequestRef::<G>::Turn(observation));
        self.timed(Call::Turn, |bot| Player::<G>::act(bot, observation))
    }
    fn end(&mut self, end: &MatchEnd) {
        self.record(RequestRef::<G>::End(end));
        self.timed(Call::End, |bot| Player::<G>::end(bot, end))
    }
    fn last_call(&mut self) -> CallReport {
        let report = Player::<G>::last_call(&mut self.inner);
        match self.call {
            Call::Start => self.starts.push((report.fuel, self.elapsed)),
            Call::Turn => self.turns.push((report.fuel, self.elapsed)),
            Call::Setup | Call::End => {}
        }
        report
    }
}

/// Medians over every game: first-call fuel and µs, turn fuel and µs, memory in KiB.
struct Figures {
    start_fuel: f64,
    start_us: f64,
    turn_fuel: f64,
    turn_us: f64,
    memory_kib: f64,
    turns: usize,
    /// Every request of the first game, as JSON lines (when recording).
    requests: Vec<String>,
}

fn measure<G: Ruleset + Builtins>(
    sandbox: &Sandbox,
    module: &str,
    opponent: &str,
    seeds: u64,
) -> Figures {
    measure_recording::<G>(sandbox, module, opponent, seeds, false)
}

fn measure_recording<G: Ruleset + Builtins>(
    sandbox: &Sandbox,
    module: &str,
    opponent: &str,
    seeds: u64,
    recording: bool,
) -> Figures {
    let bot = sandbox.load(Path::new(module)).unwrap();
    let (mut starts, mut turns, mut memory) = (Vec::new(), Vec::new(), Vec::new());
    let mut requests = Vec::new();
    for seed in 1..=seeds {
        let mut meter = Meter {
            inner: bot.player(sandbox),
            call: Call::End,
            elapsed: Duration::ZERO,
            starts: Vec::new(),
            turns: Vec::new(),
            requests: (recording && seed == 1).then(Vec::new),
        };
        let mut other = NativePlayer::new(<G as Builtins>::create(opponent).unwrap());
        let config = MatchConfig::<G>::new(Default::default(), seed);
        let record = run_match(&config, [&mut meter, &mut other]);
        assert_eq!(
            record.outcome.seats[0].faults, 0,
            "{module} faulted: {} ({:?})",
            record.outcome.reason, record.outcome.seats[0].fault_kinds
        );
        memory.push(meter.inner.memory_bytes().unwrap_or(0) as f64 / 1024.0);
        starts.extend(meter.starts);
        turns.extend(meter.turns);
        requests.extend(meter.requests.unwrap_or_default());
    }
    let fuel = |v: &[(u64, Duration)]| median(&v.iter().map(|x| x.0 as f64).collect::<Vec<_>>());
    let us = |v: &[(u64, Duration)]| {
        median(
            &v.iter()
                .map(|x| x.1.as_secs_f64() * 1e6)
                .collect::<Vec<_>>(),
        )
    };
    Figures {
        start_fuel: fuel(&starts),
        start_us: us(&starts),
        turn_fuel: fuel(&turns),
        turn_us: us(&turns),
        memory_kib: median(&memory),
        turns: turns.len(),
        requests,
    }
}

fn row<G: Ruleset + Builtins>(
    sandbox: &Sandbox,
    json: &Sandbox,
    mode: &str,
    rust: &str,
    opponent: &str,
) {
    let seeds = std::env::var("ARENA_LANGUAGES_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    let r = measure::<G>(sandbox, rust, opponent, seeds);
    let rj = measure::<G>(json, rust, opponent, seeds);
    let go = measure::<G>(sandbox, bots::GO_STARTER, opponent, seeds);
    let goj = measure::<G>(json, bots::GO_STARTER, opponent, seeds);
    let ratio = |a: f64, b: f64| format!("{:.1}×", a / b);
    println!(
        "| {mode} | {:.0} / {:.0} µs | {:.0} / {:.0} µs ({}, {}) | {:.0} / {:.1} µs | {:.0} / {:.1} µs ({}, {}) | {:.0} / {:.1} µs | {:.0} / {:.1} µs ({}, {}) | {:.0} / {:.0} KiB | {} / {} |",
        r.start_fuel,
        r.start_us,
        go.start_fuel,
        go.start_us,
        ratio(go.start_fuel, r.start_fuel),
        ratio(go.start_us, r.start_us),
        r.turn_fuel,
        r.turn_us,
        go.turn_fuel,
        go.turn_us,
        ratio(go.turn_fuel, r.turn_fuel),
        ratio(go.turn_us, r.turn_us),
        rj.turn_fuel,
        rj.turn_us,
        goj.turn_fuel,
        goj.turn_us,
        ratio(goj.turn_fuel, rj.turn_fuel),
        ratio(goj.turn_us, rj.turn_us),
        r.memory_kib,
        go.memory_kib,
        r.turns,
        go.turns,
    );
}

/// The JavaScript starter's files in script order (lib/*.js by name, then bot.js).
fn js_starter_files() -> Vec<String> {
    let dir = root().join("sample-bots/js-starter");
    let mut files: Vec<String> = std::fs::read_dir(dir.join("lib"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "js"))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    files.sort();
    files.push(dir.join("bot.js").to_string_lossy().into_owned());
    files
}

/// The median turn time (µs) of the JavaScript starter under Node.js on `requests`, if
/// `node` runs.
fn node_turn_us(requests: &[String]) -> Option<f64> {
    node_with(&[], requests)
}

/// Like [`node_turn_us`] with `node --jitless`: V8's interpreter alone, the same kind of
/// runtime as QuickJS.
fn node_jitless_turn_us(requests: &[String]) -> Option<f64> {
    node_with(&["--jitless"], requests)
}

fn node_with(options: &[&str], requests: &[String]) -> Option<f64> {
    let dir = tempfile::tempdir().ok()?;
    let file = dir.path().join("requests.jsonl");
    std::fs::write(&file, requests.join("\n") + "\n").ok()?;
    let output = std::process::Command::new("node")
        .args(options)
        .arg(root().join("sdk/js/node-harness.js"))
        .arg(&file)
        .args(js_starter_files())
        .output()
        .ok()?;
    if !output.status.success() {
        eprintln!("node: {}", String::from_utf8_lossy(&output.stderr));
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(&output.stdout).ok()?;
    v["turn_us"].as_f64()
}

/// The median turn time (µs) of the Python starter run natively by `python3` on
/// `requests` (`python-harness.py`), if `python3` runs it.
fn python_turn_us(requests: &[String]) -> Option<f64> {
    let dir = tempfile::tempdir().ok()?;
    let file = dir.path().join("requests.jsonl");
    std::fs::write(&file, requests.join("\n") + "\n").ok()?;
    let output = std::process::Command::new("python3")
        .arg(root().join("tests/benches/python-harness.py"))
        .arg(root().join("sdk/python"))
        .arg(root().join("sample-bots/python-starter"))
        .arg(&file)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .ok()?;
    if !output.status.success() {
        eprintln!("python3: {}", String::from_utf8_lossy(&output.stderr));
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(&output.stdout).ok()?;
    v["turn_us"].as_f64()
}

/// A native runtime's name and how to time the same bot under it: the median turn time
/// (µs) on the requests given, if it is installed.
type Native = (&'static str, fn(&[String]) -> Option<f64>);

/// The interpreter in the sandbox, and the native runtimes to compare it with.
type Interpreter = (&'static str, &'static [Native]);

/// An interpreted language's starter (`module`, speaking JSON) against the Rust starter in
/// either encoding, and its turn time natively (`native`, on the requests the sandboxed
/// bot was sent): one table row. `interpreter` names the interpreter in the sandbox.
fn interpreted_row<G: Ruleset + Builtins>(
    sandboxes: (&Sandbox, &Sandbox),
    mode: &str,
    (rust, opponent): (&str, &str),
    module: &str,
    (interpreter, natives): Interpreter,
) {
    let (sandbox, json) = sandboxes;
    let seeds = std::env::var("ARENA_LANGUAGES_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    let r = measure::<G>(sandbox, rust, opponent, seeds);
    let rj = measure::<G>(json, rust, opponent, seeds);
    let it = measure_recording::<G>(sandbox, module, opponent, seeds, true);
    let native = natives
        .iter()
        .map(|(_, time)| {
            time(&it.requests).map_or_else(
                || "not installed".to_owned(),
                |us| {
                    format!(
                        "{us:.1} µs ({interpreter} in the sandbox: {:.1}×)",
                        it.turn_us / us
                    )
                },
            )
        })
        .collect::<Vec<_>>()
        .join(" | ");
    let ratio = |a: f64, b: f64| format!("{:.1}×", a / b);
    println!(
        "| {mode} | {:.0} / {:.0} µs | {:.0} / {:.0} µs ({}) | {:.0} / {:.1} µs | {:.0} / {:.1} µs | {:.0} / {:.1} µs ({}, {} of binary; {}, {} of JSON) | {native} | {:.0} / {:.0} KiB | {} / {} |",
        r.start_fuel,
        r.start_us,
        it.start_fuel,
        it.start_us,
        ratio(it.start_fuel, r.start_fuel),
        r.turn_fuel,
        r.turn_us,
        rj.turn_fuel,
        rj.turn_us,
        it.turn_fuel,
        it.turn_us,
        ratio(it.turn_fuel, r.turn_fuel),
        ratio(it.turn_us, r.turn_us),
        ratio(it.turn_fuel, rj.turn_fuel),
        ratio(it.turn_us, rj.turn_us),
        r.memory_kib,
        it.memory_kib,
        r.turns,
        it.turns,
    );
}

/// The table of an interpreted language: every mode's `interpreted_row`.
fn interpreted_table(
    sandboxes: (&Sandbox, &Sandbox),
    language: &str,
    module: &str,
    interpreter: Interpreter,
) {
    use arena_sdk::{battle::Battle, conquest::Conquest, dungeon::Dungeon, grid::Grid, tcg::Tcg};
    let natives: String = interpreter
        .1
        .iter()
        .map(|(name, _)| format!(" {language} under {name}, turn time |"))
        .collect();
    println!(
        "\n| mode | first call, Rust: fuel / time | {language} (ratio) | turn, Rust binary: fuel / time (medians) | Rust JSON | {language} (ratios) |{natives} memory at the end, Rust / {language} | turns measured, Rust / {language} |"
    );
    println!(
        "|---|---|---|---|---|---|{}---|---|",
        "---|".repeat(interpreter.1.len())
    );
    let s = sandboxes;
    interpreted_row::<Battle>(
        s,
        "battle",
        (bots::BATTLE_STARTER, "random"),
        module,
        interpreter,
    );
    interpreted_row::<Tcg>(s, "tcg", (bots::TCG_STARTER, "random"), module, interpreter);
    let grid = (bots::GRID_STARTER, "random-walker");
    interpreted_row::<Grid>(s, "grid", grid, module, interpreter);
    let dungeon = (bots::DUNGEON_STARTER, "random");
    interpreted_row::<Dungeon>(s, "dungeon", dungeon, module, interpreter);
    let conquest = (bots::CONQUEST_STARTER, "random");
    interpreted_row::<Conquest>(s, "conquest", conquest, module, interpreter);
}

fn main() {
    // `cargo bench` passes `--bench`; a plain test run of benches passes nothing to do.
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let sandbox = Sandbox::new(Limits::default(), None).unwrap();
    let json = arena_tests::sandbox_offering(arena_sandbox::EncodingPolicy::Json);
    println!(
        "Go built from source: {} (else the committed build)\n",
        bots::GO_BUILT
    );
    println!(
        "| mode | first call, Rust: fuel / time | Go (ratios to Rust) | turn in binary, Rust: fuel / time (medians) | Go (ratios) | turn in JSON, Rust | Go (ratios) | memory at the end, Rust / Go | turns measured, Rust / Go |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    use arena_sdk::{battle::Battle, conquest::Conquest, dungeon::Dungeon, grid::Grid, tcg::Tcg};
    row::<Battle>(&sandbox, &json, "battle", bots::BATTLE_STARTER, "random");
    row::<Tcg>(&sandbox, &json, "tcg", bots::TCG_STARTER, "random");
    row::<Grid>(&sandbox, &json, "grid", bots::GRID_STARTER, "random-walker");
    row::<Dungeon>(&sandbox, &json, "dungeon", bots::DUNGEON_STARTER, "random");
    row::<Conquest>(
        &sandbox,
        &json,
        "conquest",
        bots::CONQUEST_STARTER,
        "random",
    );

    let js_module = root().join("sample-bots/js-starter/bot.wasm");
    interpreted_table(
        (&sandbox, &json),
        "JavaScript",
        js_module.to_str().unwrap(),
        (
            "QuickJS",
            &[
                ("Node.js", node_turn_us),
                ("node --jitless", node_jitless_turn_us),
            ],
        ),
    );
    interpreted_table(
        (&sandbox, &json),
        "Python",
        bots::PYTHON_STARTER,
        ("CPython", &[("python3", python_turn_us)]),
    );
}
