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
pub mod conquest;
pub mod dungeon;
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

/// `f64::max` for numbers that are never NaN: in wasm `f64::max` is a call to libm's
/// `fmax` (wasm's own `f64.max` treats NaN differently); this is a comparison. On a tie
/// (+0 and −0 included) it gives `a`, as `fmax` does, so a built-in's decisions do not
/// change.
#[inline]
pub(crate) fn larger(a: f64, b: f64) -> f64 {
    if a < b { b } else { a }
}

/// `f64::min` for numbers that are never NaN, without libm's `fmin`; on a tie (+0 and −0
/// included) it gives `b`, as `fmin` does.
#[inline]
pub(crate) fn smaller(a: f64, b: f64) -> f64 {
    if a < b { a } else { b }
}

#[cfg(test)]
mod tests {
    use super::{larger, smaller};

    #[test]
    fn larger_and_smaller_are_max_and_min_for_numbers() {
        assert_eq!(larger(1.0, 2.5), 2.5);
        assert_eq!(larger(2.5, 1.0), 2.5);
        assert_eq!(smaller(1.0, 2.5), 1.0);
        assert_eq!(smaller(2.5, 1.0), 1.0);
        assert_eq!(larger(-3.0, f64::NEG_INFINITY), -3.0);
        // Ties between zeros: `larger` keeps the first, `smaller` the second.
        assert!(larger(0.0, -0.0).is_sign_positive());
        assert!(larger(-0.0, 0.0).is_sign_negative());
        assert!(smaller(0.0, -0.0).is_sign_negative());
        assert!(smaller(-0.0, 0.0).is_sign_positive());
    }
}
