//! [`BotError`]: why a bot spec cannot be used, for every kind of bot (the builders of
//! each language report through it too).

use arena_sandbox::LoadError;
use arena_sdk::Mode;

/// A bot spec that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// Not a builtin, module or crate.
    #[error(
        "`{0}` is not a bot: use builtin:NAME, a .wasm/.wat file, or a bot directory (Rust: Cargo.toml, Go: go.mod, Python: bot.py, JavaScript: bot.js, TypeScript: bot.ts)"
    )]
    Unrecognized(String),
    /// A source file of a bot directory, given instead of the directory.
    #[error(
        "`{file}` is a source file of the {lang} bot in `{dir}`: give the directory (`{dir}`), which the arena builds"
    )]
    SourceFile {
        /// The file given.
        file: String,
        /// The bot's directory.
        dir: String,
        /// Its language.
        lang: &'static str,
    },
    /// No such built-in for the mode.
    #[error("no built-in AI `{name}` for mode {mode}; built-ins of {mode}: {available}")]
    UnknownBuiltin {
        /// The name asked for.
        name: String,
        /// The mode.
        mode: Mode,
        /// What exists.
        available: String,
    },
    /// The module could not be loaded.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A bot directory (a crate, a Go module, a Python or JavaScript bot) failed to build.
    #[error("cannot build the bot in {dir}: {detail}")]
    Build {
        /// The crate directory.
        dir: String,
        /// What went wrong.
        detail: String,
    },
}
