//! The built-in `random` tcg AI as a wasm bot: the same strategy natively and in the
//! sandbox, so benchmarks can put wasm in both seats of a tcg game.

arena_sdk::export_bot!(tcg: arena_builtins::tcg::Random);
