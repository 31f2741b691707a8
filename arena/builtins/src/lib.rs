//! # arena-builtins — the built-in AIs of every mode
//!
//! Each AI implements the SDK's [`Bot`] trait and sees exactly what a wasm bot sees, so it
//! can run natively (as `builtin:NAME`) or be exported to wasm by a sample bot.
//!
//! ```
//! use arena_builtins::{Builtins, all};
//! use arena_sdk::battle::Battle;
//! assert!(Battle::create("random").is_some());
//! assert!(all().iter().any(|b| b.name == "random"));
//! ```

pub mod battle;
pub mod dungeon;
pub mod conquest;
pub mod grid;
pub mod tcg;

use arena_sdk::{Bot, Game, Mode};

/// A built-in AI's name, mode and one-line description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuiltinInfo {
    /// Name, used as `builtin:NAME`.
    pub name: &'static str,
    /// The mode it plays.
    pub mode: Mode,
    /// One line for `arena builtins`.
    pub summary: &'static str,
    /// Relative strength, 1 (weakest) and up, for ordering lists.
    pub strength: u8,
}

/// The built-in AIs of a mode.
pub trait Builtins: Game {
    /// All of them, weakest first.
    fn builtins() -> &'static [BuiltinInfo];
    /// A fresh bot by name.
    fn create(name: &str) -> Option<Box<dyn Bot<Self> + Send>>;
}

/// The built-in AIs of every mode.
pub fn all() -> Vec<BuiltinInfo> {
    let mut list = Vec::new();
    list.extend_from_slice(<arena_sdk::battle::Battle as Builtins>::builtins());
    list.extend_from_slice(<arena_sdk::tcg::Tcg as Builtins>::builtins());
    list.extend_from_slice(<arena_sdk::grid::Grid as Builtins>::builtins());
    list.extend_from_slice(<arena_sdk::dungeon::Dungeon as Builtins>::builtins());
    list.extend_from_slice(<arena_sdk::conquest::Conquest as Builtins>::builtins());
    list
}
