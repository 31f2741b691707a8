//! Paths of the sample and hostile bots, built by `build.rs` the way wasmtime builds its
//! test programs, plus helpers shared by the integration tests.

use std::path::{Path, PathBuf};
use std::process::Output;

/// Paths of the sample bots compiled to wasm (`BATTLE_RANDOM`, `C_BOT`, …).
pub mod bots {
    include!(concat!(env!("OUT_DIR"), "/bots.rs"));
}

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
}

/// A hostile bot from `tests/hostile/`.
pub fn hostile(name: &str) -> PathBuf {
    root().join("tests/hostile").join(name)
}

/// Stdout as text.
/// A sandbox with the default limits that offers bots the encodings of `policy`.
pub fn sandbox_offering(policy: arena_sandbox::EncodingPolicy) -> arena_sandbox::Sandbox {
    arena_sandbox::Sandbox::new(
        arena_sandbox::Limits {
            encoding: policy,
            ..arena_sandbox::Limits::default()
        },
        None,
    )
    .expect("a sandbox with the default limits")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Stderr as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The median of `values` (the upper one of an even count), as the benches report rounds.
pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

/// Battle requests for exercising bots without a game: a start, the setup request and a
/// mid-match turn (six units, three legal targets — 1,891 bytes of JSON).
pub mod fixtures {
    use arena_sdk::battle::{Battle, BotType, Observation, SetupRequest, Stats, Unit};
    use arena_sdk::{ABI_VERSION, MatchStart};

    /// A battle start request for seat 0.
    pub fn battle_start() -> MatchStart<Battle> {
        MatchStart {
            abi: ABI_VERSION,
            mode: arena_sdk::Mode::Battle,
            seat: 0,
            seed: 9,
            rules: Default::default(),
        }
    }

    /// The setup request (every type, with one made-up stat line each).
    pub fn battle_setup_request() -> SetupRequest {
        SetupRequest {
            roster: BotType::ALL.to_vec(),
            stats: vec![stats(); 8],
            team_size: 3,
        }
    }

    fn stats() -> Stats {
        Stats {
            integrity: 800,
            power: 100,
            speed: 40,
            armor: 20,
            evasion: 0,
            critical: 10,
            resistance: 10,
            effectivity: 30,
        }
    }

    /// A mid-match turn of unit 0: targets 3, 4 and 5 are legal, the skill is not ready.
    pub fn battle_observation() -> Observation {
        let unit = |id: u8, owner: u8, kind| Unit {
            id,
            owner,
            kind,
            base: stats(),
            integrity: 800 - i32::from(id) * 10,
            armor: 20,
            power: 100,
            speed: 40,
            resistance: 10,
            turn_meter: 0,
            cooldown: 0,
            has_skill: true,
            effects: Vec::new(),
            destroyed: false,
        };
        let kinds = [BotType::Aggro, BotType::Tank, BotType::Nurse];
        let units: Vec<Unit> = (0..6u8)
            .map(|id| unit(id, id / 3, kinds[usize::from(id % 3)]))
            .collect();
        Observation {
            turn: 4,
            turn_cap: 300,
            seat: 0,
            acting: 0,
            units,
            legal_targets: vec![3, 4, 5],
            skill_ready: false,
            last_rejected: None,
        }
    }

    /// Every observation seat 0 of a real game is given: a seeded battle between the
    /// built-ins `strong` and `heuristic` (effects, skills, repairs and destroyed units, as
    /// bots see them), for benchmarks that should cost what real turns cost.
    pub fn recorded_battle_turns() -> Vec<Observation> {
        use arena_builtins::Builtins;
        use arena_engine::{MatchConfig, NativePlayer, run_match};
        let mut seat0 = super::Recorder::new(NativePlayer::new(
            <Battle as Builtins>::create("strong").expect("built-in strong"),
        ));
        let mut seat1 = NativePlayer::new(
            <Battle as Builtins>::create("heuristic").expect("built-in heuristic"),
        );
        let config = MatchConfig::<Battle>::new(Default::default(), 11);
        run_match(&config, [&mut seat0, &mut seat1]);
        seat0.seen
    }
}

/// A player that keeps a copy of every observation it is given (benchmarks replay real
/// games' requests with it).
#[derive(Debug)]
pub struct Recorder<G: arena_sdk::Game, P> {
    inner: P,
    /// The observations, in the order they came.
    pub seen: Vec<G::Observation>,
}

impl<G: arena_sdk::Game, P> Recorder<G, P> {
    /// Record what `inner` is asked.
    pub fn new(inner: P) -> Self {
        Recorder {
            inner,
            seen: Vec::new(),
        }
    }
}

impl<G: arena_sdk::Game, P: arena_engine::Player<G>> arena_engine::Player<G> for Recorder<G, P> {
    fn start(&mut self, start: &arena_sdk::MatchStart<G>) -> Result<(), arena_engine::Fault> {
        self.inner.start(start)
    }
    fn setup(&mut self, request: &G::SetupRequest) -> Result<G::SetupChoice, arena_engine::Fault> {
        self.inner.setup(request)
    }
    fn act(&mut self, observation: &G::Observation) -> Result<G::Action, arena_engine::Fault> {
        self.seen.push(observation.clone());
        self.inner.act(observation)
    }
    fn end(&mut self, end: &arena_sdk::MatchEnd) {
        self.inner.end(end)
    }
    fn last_call(&mut self) -> arena_engine::CallReport {
        self.inner.last_call()
    }
}

/// Everything seat 0 of a real game between two built-ins is sent and answers: start,
/// setup, and every turn's observation with the answer given (tests and benches replay
/// real requests with it).
#[derive(Debug)]
pub struct Transcript<G: arena_sdk::Game> {
    /// The start request.
    pub start: arena_sdk::MatchStart<G>,
    /// The setup request.
    pub setup: G::SetupRequest,
    /// Each turn's observation and the built-in's answer.
    pub turns: Vec<(G::Observation, G::Action)>,
    /// How the match ended for seat 0.
    pub end: arena_sdk::MatchEnd,
}

/// The transcript of seat 0 in a game of built-ins `seat0` against `seat1` (default rules).
pub fn transcript<G: arena_builtins::Builtins + arena_engine::Ruleset>(
    seat0: &str,
    seat1: &str,
    seed: u64,
) -> Transcript<G> {
    use arena_engine::{CallReport, Fault, MatchConfig, NativePlayer, Player, run_match};
    struct Recording<G: arena_sdk::Game> {
        start: Option<arena_sdk::MatchStart<G>>,
        setup: Option<G::SetupRequest>,
        turns: Vec<(G::Observation, G::Action)>,
        end: Option<arena_sdk::MatchEnd>,
        inner: Box<dyn Player<G>>,
    }
    impl<G: arena_sdk::Game> Player<G> for Recording<G> {
        fn start(&mut self, start: &arena_sdk::MatchStart<G>) -> Result<(), Fault> {
            self.start = Some(start.clone());
            self.inner.start(start)
        }
        fn setup(&mut self, request: &G::SetupRequest) -> Result<G::SetupChoice, Fault> {
            self.setup = Some(request.clone());
            self.inner.setup(request)
        }
        fn act(&mut self, observation: &G::Observation) -> Result<G::Action, Fault> {
            let action = self.inner.act(observation)?;
            self.turns.push((observation.clone(), action.clone()));
            Ok(action)
        }
        fn end(&mut self, end: &arena_sdk::MatchEnd) {
            self.end = Some(end.clone());
            self.inner.end(end)
        }
        fn last_call(&mut self) -> CallReport {
            self.inner.last_call()
        }
    }
    let create = |name: &str| -> Box<dyn Player<G>> {
        Box::new(NativePlayer::new(
            G::create(name).unwrap_or_else(|| panic!("no built-in {name}")),
        ))
    };
    let mut recording = Recording {
        start: None,
        setup: None,
        turns: Vec::new(),
        end: None,
        inner: create(seat0),
    };
    let mut other = create(seat1);
    run_match(
        &MatchConfig::<G>::new(Default::default(), seed),
        [&mut recording, &mut *other],
    );
    Transcript {
        start: recording.start.expect("the match started"),
        setup: recording.setup.expect("seat 0 was set up"),
        turns: recording.turns,
        end: recording.end.expect("the match ended"),
    }
}
