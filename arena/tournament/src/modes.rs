//! The mode registry: the one place a [`Mode`] value becomes the mode's types.
//!
//! [`for_mode!`](crate::for_mode) has one arm per mode; everything above it (games,
//! bots, tournaments, the CLI) is mode-agnostic. Both `bots` (which built-ins exist) and
//! `game` (playing, verifying, rendering) use this module, and it uses neither.

use arena_builtins::{BuiltinInfo, Builtins};
use arena_sdk::Mode;

/// Run `$body` with `$G` bound to the game type of `$mode`.
#[macro_export]
macro_rules! for_mode {
    ($mode:expr, $G:ident => $body:expr) => {
        match $mode {
            arena_sdk::Mode::Battle => {
                type $G = arena_sdk::battle::Battle;
                $body
            }
            arena_sdk::Mode::Tcg => {
                type $G = arena_sdk::tcg::Tcg;
                $body
            }
            arena_sdk::Mode::Grid => {
                type $G = arena_sdk::grid::Grid;
                $body
            }
            arena_sdk::Mode::Dungeon => {
                type $G = arena_sdk::dungeon::Dungeon;
                $body
            }
        }
    };
}

/// The built-in AIs of `mode`.
pub fn builtins_of(mode: Mode) -> &'static [BuiltinInfo] {
    for_mode!(mode, G => <G as Builtins>::builtins())
}
