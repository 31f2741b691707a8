//! The built-in `commander` of mode `grid` (arena/builtins/src/grid/commander.rs) as a wasm
//! bot: the same strategy natively and in the sandbox, so the two can be compared exactly.

arena_sdk::export_bot!(grid: arena_builtins::grid::Commander);
