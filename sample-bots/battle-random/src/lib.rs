//! The built-in `random` battle AI as a wasm bot: the same strategy natively and in the
//! sandbox, so benchmarks measure exactly what the sandbox costs.

arena_sdk::export_bot!(battle: arena_builtins::battle::Random);
