//! The built-in `strong` of mode `conquest` (arena/builtins/src/conquest/strong.rs) as a wasm
//! bot: the same strategy natively and in the sandbox, so the two can be compared exactly.

arena_sdk::export_bot!(conquest: arena_builtins::conquest::Strong);
