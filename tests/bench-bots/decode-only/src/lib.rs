//! A bench bot that plays every mode without deciding anything: each request goes through
//! the SDK's decoding and the answer through its encoding, exactly as in the sample bots,
//! but `act` returns the action the mode's sample-bot strategy chose on the first turn, over
//! and over. Its fuel per turn (after the first) is what reading a request and answering
//! costs; a sample bot's fuel minus it is the bot's own thinking (`formats` bench,
//! docs/performance.md "Where the fuel goes").

use arena_builtins::Builtins;
use arena_sdk::{Bot, Game, MatchStart};

/// The strategy of the mode's sample bot (`battle-strong`, `tcg-planner`, …): it answers
/// setup, and the first turn only.
pub struct Fixed<G: Game> {
    inner: Box<dyn Bot<G> + Send>,
    action: Option<G::Action>,
}

impl<G: Game> std::fmt::Debug for Fixed<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fixed")
            .field("action", &self.action)
            .finish()
    }
}

impl<G: Builtins> Default for Fixed<G> {
    fn default() -> Self {
        let name = match G::MODE {
            arena_sdk::Mode::Tcg => "planner",
            arena_sdk::Mode::Grid => "commander",
            _ => "strong",
        };
        Fixed {
            inner: G::create(name).expect("every mode has this built-in"),
            action: None,
        }
    }
}

impl<G: Game> Bot<G> for Fixed<G> {
    fn start(&mut self, start: &MatchStart<G>) {
        self.inner.start(start)
    }
    fn setup(&mut self, request: &G::SetupRequest) -> G::SetupChoice {
        self.inner.setup(request)
    }
    fn act(&mut self, observation: &G::Observation) -> G::Action {
        match &self.action {
            Some(action) => action.clone(),
            None => self.action.insert(self.inner.act(observation)).clone(),
        }
    }
}

arena_sdk::export_bot!(
    battle: Fixed<arena_sdk::battle::Battle>,
    tcg: Fixed<arena_sdk::tcg::Tcg>,
    grid: Fixed<arena_sdk::grid::Grid>,
    dungeon: Fixed<arena_sdk::dungeon::Dungeon>,
    conquest: Fixed<arena_sdk::conquest::Conquest>,
);
