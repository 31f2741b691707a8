//! [`Pos`]: a tile's coordinates on a grid map, shared by the modes played on one (`grid`
//! and `conquest`), so both speak of tiles with the same type on the wire (`{"x": …,
//! "y": …}` in JSON, two bytes in the binary encoding) and in code.
//!
//! The small accessors here and on the modes' boards are `#[inline]`: a bot crate calls
//! them in its inner loops, and across crates (a bot built without link-time
//! optimization) each would otherwise be a call, which in wasm is fuel the bot's turn pays.

use serde::{Deserialize, Serialize};

/// A tile's coordinates: `x` is the column, growing east (0 is the west edge, the left
/// column), `y` the row, growing south (0 is the north edge, the top row).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Pos {
    /// Column, from the west edge.
    pub x: u8,
    /// Row, from the north edge.
    pub y: u8,
}

impl Pos {
    /// The tile at column `x`, row `y`.
    #[inline]
    pub const fn new(x: u8, y: u8) -> Self {
        Pos { x, y }
    }

    /// Manhattan distance (ignores obstacles and water).
    #[inline]
    pub fn manhattan(self, other: Pos) -> u32 {
        u32::from(self.x.abs_diff(other.x)) + u32::from(self.y.abs_diff(other.y))
    }

    /// The tile `steps` tiles away in direction `(dx, dy)`, if it is on a `width`×`height`
    /// map.
    #[inline]
    pub fn offset(self, (dx, dy): (i32, i32), steps: i32, width: u8, height: u8) -> Option<Pos> {
        let x = i32::from(self.x) + dx * steps;
        let y = i32::from(self.y) + dy * steps;
        let on_map = (0..i32::from(width)).contains(&x) && (0..i32::from(height)).contains(&y);
        // Lossless: both lie in 0..=u8::MAX by the check above.
        on_map.then(|| Pos::new(x as u8, y as u8))
    }
}

/// Visit the tiles next to tile `i` of a `width`×`height` board indexed in reading order:
/// north, east, south, west (the order of `grid::Direction::ALL` and
/// `conquest::DIRECTIONS`). The boards' breadth-first searches call it for every tile
/// they reach.
#[inline]
pub(crate) fn for_each_neighbour(
    i: usize,
    width: usize,
    height: usize,
    mut visit: impl FnMut(usize),
) {
    let (x, y) = (i % width, i / width);
    if y > 0 {
        visit(i - width);
    }
    if x + 1 < width {
        visit(i + 1);
    }
    if y + 1 < height {
        visit(i + width);
    }
    if x > 0 {
        visit(i - 1);
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// The binary encoding's in-place reader ([`crate::wire`]) for this module's types.
mod decode {
    use super::*;
    use crate::wire::{Decode, Reader, decode_struct};

    decode_struct!(Pos { x, y });
}
