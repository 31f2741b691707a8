//! The mode registry: the one place a [`Mode`] value becomes the mode's types.
//!
//! [`for_mode!`](crate::for_mode) has one arm per mode; everything above it (games,
//! bots, tournaments, the CLI) is mode-agnostic. Both `bots` (which built-ins exist) and
//! `game` (playing, verifying, rendering) use this module, and it uses neither.

use arena_builtins::{BuiltinInfo, Builtins};
use arena_engine::{DeckFormat, MapFormat, Ruleset};
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
            arena_sdk::Mode::Conquest => {
                type $G = arena_sdk::conquest::Conquest;
                $body
            }
        }
    };
}

/// The built-in AIs of `mode`.
pub fn builtins_of(mode: Mode) -> &'static [BuiltinInfo] {
    for_mode!(mode, G => <G as Builtins>::builtins())
}

/// The map file format of `mode`, if it takes map files.
pub fn maps_of(mode: Mode) -> Option<MapFormat> {
    for_mode!(mode, G => <G as Ruleset>::MAPS)
}

/// The deck file format of `mode`, if it takes deck files.
pub fn decks_of(mode: Mode) -> Option<DeckFormat> {
    for_mode!(mode, G => <G as Ruleset>::DECKS)
}

/// The modes that take map files, in [`Mode::ALL`] order.
pub fn map_modes() -> Vec<Mode> {
    Mode::ALL
        .into_iter()
        .filter(|m| maps_of(*m).is_some())
        .collect()
}

/// The modes that take deck files, in [`Mode::ALL`] order.
pub fn deck_modes() -> Vec<Mode> {
    Mode::ALL
        .into_iter()
        .filter(|m| decks_of(*m).is_some())
        .collect()
}

/// `modes` in words: "mode tcg", "modes grid and conquest", "modes a, b and c".
pub fn in_words(modes: &[Mode]) -> String {
    match modes {
        [] => "no mode".to_owned(),
        [_] => format!("mode {}", names_and(modes)),
        _ => format!("modes {}", names_and(modes)),
    }
}

/// `modes` joined by "and" ("grid and conquest"), for "a grid and conquest setting".
pub fn names_and(modes: &[Mode]) -> String {
    let names: Vec<&str> = modes.iter().map(|m| m.name()).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_modes_declare_their_files_and_the_words_follow() {
        assert_eq!(map_modes(), [Mode::Grid, Mode::Conquest]);
        assert_eq!(deck_modes(), [Mode::Tcg]);
        assert_eq!(in_words(&map_modes()), "modes grid and conquest");
        assert_eq!(in_words(&deck_modes()), "mode tcg");
        assert_eq!(
            names_and(&[Mode::Battle, Mode::Tcg, Mode::Grid]),
            "battle, tcg and grid"
        );
        assert_eq!(in_words(&[]), "no mode");
    }

    #[test]
    fn a_map_without_a_mode_goes_to_the_mode_its_first_line_names() {
        let map_mode = crate::game::map_mode;
        assert_eq!(map_mode("; grid\nsize 3 2\na.b\n...\n"), Ok(Mode::Grid));
        assert_eq!(map_mode("\n; a comment\nFrame: 5x7\n"), Ok(Mode::Conquest));
        // Neither: the first map mode's check says what is wrong.
        assert_eq!(map_mode("nonsense"), Ok(Mode::Grid));
    }

    #[test]
    fn a_byte_order_mark_does_not_hide_a_maps_mode() {
        let map_mode = crate::game::map_mode;
        assert_eq!(map_mode("\u{feff}Frame: 5x5\n"), Ok(Mode::Conquest));
        let e = map_mode("\u{feff}nonsense\n").unwrap_err();
        assert!(
            e.starts_with("the file starts with a byte-order mark"),
            "{e}"
        );
    }

    #[test]
    fn an_empty_map_file_is_claimed_by_no_format() {
        for text in ["", "\n \n", "\u{feff}"] {
            let e = crate::game::map_mode(text).unwrap_err();
            assert!(e.starts_with("the file is empty: "), "{text:?}: {e}");
            assert!(e.contains("modes grid and conquest take map files"), "{e}");
        }
    }
}
