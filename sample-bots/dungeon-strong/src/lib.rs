//! The built-in `strong` of mode `dungeon` (arena/builtins/src/dungeon/strong.rs) as a wasm
//! bot: the same strategy natively and in the sandbox, so the two can be compared exactly.

arena_sdk::export_bot!(dungeon: arena_builtins::dungeon::Strong);
