//! The built-in `strong` AI of mode `battle` as a wasm bot: team Glass, Tank and Nurse,
//! focus fire by threat and kill chance, timed skills (see `arena_builtins::battle::Strong`).
//!
//! Build: `cargo build --release --target wasm32-unknown-unknown -p battle-strong`.

arena_sdk::export_bot!(battle: arena_builtins::battle::Strong);
