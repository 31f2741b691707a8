//! Unit tests of `dungeon`.
