//! A test bot for every mode: it plays the strategy of the mode's sample bot
//! (`battle-strong`, `tcg-planner`, `grid-commander`, `dungeon-strong`, `conquest-strong`)
//! and logs a digest of each observation it was given — every field, through its `Debug`
//! text. The bot log is in the replay, so two runs whose replays agree gave the bot the same
//! observations: `tests/encoding.rs` compares JSON (decoded afresh every turn) with the
//! binary encoding (decoded into the last turn's observation, reusing its allocations).

use arena_builtins::Builtins;
use arena_sdk::{Bot, Game, MatchStart};

/// The mode's sample-bot strategy, with a digest of each observation logged.
pub struct Digest<G: Game> {
    inner: Box<dyn Bot<G> + Send>,
}

impl<G: Game> std::fmt::Debug for Digest<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Digest")
    }
}

impl<G: Builtins> Default for Digest<G> {
    fn default() -> Self {
        let name = match G::MODE {
            arena_sdk::Mode::Tcg => "planner",
            arena_sdk::Mode::Grid => "commander",
            _ => "strong",
        };
        Digest {
            inner: G::create(name).expect("every mode has this built-in"),
        }
    }
}

/// FNV-1a, 64 bits: the same digest on every machine.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl<G: Game> Bot<G> for Digest<G> {
    fn start(&mut self, start: &MatchStart<G>) {
        self.inner.start(start)
    }
    fn setup(&mut self, request: &G::SetupRequest) -> G::SetupChoice {
        self.inner.setup(request)
    }
    fn act(&mut self, observation: &G::Observation) -> G::Action {
        let text = format!("{observation:?}");
        arena_sdk::log(&format!("observation {:016x}", fnv1a(text.as_bytes())));
        self.inner.act(observation)
    }
}

arena_sdk::export_bot!(
    battle: Digest<arena_sdk::battle::Battle>,
    tcg: Digest<arena_sdk::tcg::Tcg>,
    grid: Digest<arena_sdk::grid::Grid>,
    dungeon: Digest<arena_sdk::dungeon::Dungeon>,
    conquest: Digest<arena_sdk::conquest::Conquest>,
);
