//! The grid starter kit's `random-walker` (the built-in `builtin:random-walker`) as a wasm bot: the same
//! strategy natively and in the sandbox, so benchmarks can put wasm in both seats.

use arena_builtins::grid::{Starter, Strategy};
use arena_sdk::Bot;
use arena_sdk::grid::{Action, Grid, Observation, SetupChoice, SetupRequest};

/// `Starter` playing `Strategy::RandomWalker`; `export_bot!` needs a `Default` type.
struct RandomWalker(Starter);

impl Default for RandomWalker {
    fn default() -> Self {
        RandomWalker(Starter::new(Strategy::RandomWalker))
    }
}

impl Bot<Grid> for RandomWalker {
    fn start(&mut self, start: &arena_sdk::MatchStart<Grid>) {
        self.0.start(start)
    }
    fn setup(&mut self, request: &SetupRequest) -> SetupChoice {
        self.0.setup(request)
    }
    fn act(&mut self, observation: &Observation) -> Action {
        self.0.act(observation)
    }
}

arena_sdk::export_bot!(grid: RandomWalker);
