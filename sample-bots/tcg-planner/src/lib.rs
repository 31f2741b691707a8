//! The built-in `planner` of mode `tcg` as a wasm bot: it searches each turn's action
//! sequences (lethal detection, minion trades, healing) — see `arena_builtins::tcg::Planner`.
//! Running it in the sandbox against `builtin:planner` measures the sandbox's cost exactly.

arena_sdk::export_bot!(tcg: arena_builtins::tcg::Planner);
