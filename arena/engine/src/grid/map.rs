//! The text map format of mode `grid` (docs/rules/grid.md, "Maps") and hero placement.
//!
//! ```text
//! ; a comment runs from `;` to the end of the line; blank lines are ignored
//! size 8 6
//! a..M....
//! a.#..W..
//! ...##...
//! ...##...
//! ..W..#.b
//! ....M..b
//! ```
//!
//! The first non-blank line is `size W H`, then exactly `H` rows of `W` tiles: `.` empty,
//! `#` impassable, `M` diamond mine, `W` health well, `a` / `b` a spawn tile (empty ground
//! where a hero of team 0 / team 1 starts). Both teams need the same number of spawns; a map
//! without spawns gets random, point-mirrored placement.

use arena_sdk::grid::MineId;
use arena_sdk::grid::{Pos, Terrain};
use rand::Rng;
use rand::seq::SliceRandom;

/// Smallest allowed width and height.
pub const MIN_SIDE: u32 = 4;
/// Largest allowed width and height.
pub const MAX_SIDE: u32 = 32;

/// A parsed map: terrain in row-major order plus the spawn tiles of each team.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Map {
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// Terrain, row-major (`y * width + x`); mines are numbered in reading order.
    pub terrain: Vec<Terrain>,
    /// Spawn tiles of team 0 (`a`) and team 1 (`b`), in reading order.
    pub spawns: [Vec<Pos>; 2],
}

/// Why a map text is not a valid map, and where (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct MapError {
    /// 1-based line of the text.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong.
    pub kind: MapErrorKind,
}

/// The kinds of [`MapError`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapErrorKind {
    /// The text has no `size W H` line.
    #[error("missing `size W H` line before the rows")]
    MissingSize,
    /// The first line is not `size W H` with two whole numbers.
    #[error("expected `size W H` (two whole numbers), found `{0}`")]
    BadSize(String),
    /// Width or height outside [`MIN_SIDE`]..=[`MAX_SIDE`].
    #[error("a map is {MIN_SIDE} to {MAX_SIDE} tiles each way, this one is {width}x{height}")]
    SizeOutOfRange {
        /// Width asked for.
        width: u32,
        /// Height asked for.
        height: u32,
    },
    /// Fewer rows than the height.
    #[error("the map has {found} rows, `size` says {expected}")]
    TooFewRows {
        /// Height from `size`.
        expected: u32,
        /// Rows found.
        found: u32,
    },
    /// More rows than the height.
    #[error("row beyond the {expected} rows `size` asks for")]
    TooManyRows {
        /// Height from `size`.
        expected: u32,
    },
    /// A row of the wrong length.
    #[error("the row has {found} tiles, `size` says {expected}")]
    RowLength {
        /// Width from `size`.
        expected: u32,
        /// Tiles found.
        found: u32,
    },
    /// A character that is no tile.
    #[error("unknown tile `{0}` (tiles are . # M W a b)")]
    UnknownTile(char),
    /// The teams have different numbers of spawn tiles.
    #[error(
        "{more_team} has more spawn tiles than {fewer_team} ({more} against {fewer}); this is the first extra one"
    )]
    SpawnCountMismatch {
        /// `a` or `b`: the team with more spawns.
        more_team: char,
        /// `a` or `b`: the team with fewer spawns.
        fewer_team: char,
        /// Spawns of `more_team`.
        more: usize,
        /// Spawns of `fewer_team`.
        fewer: usize,
    },
}

/// Parse a map text (format in the module docs). Pure; the error says line and column.
pub fn parse_map(text: &str) -> Result<Map, MapError> {
    let err = |line: usize, column: usize, kind| MapError { line, column, kind };
    let mut size: Option<(u32, u32)> = None;
    let mut terrain = Vec::new();
    let mut spawns: [Vec<Pos>; 2] = [Vec::new(), Vec::new()];
    // Where each spawn was written, to point at the first surplus one.
    let mut spawn_at: [Vec<(usize, usize)>; 2] = [Vec::new(), Vec::new()];
    let mut rows = 0u32;
    let mut last_line = 0;
    let mut mine_count: usize = 0;

    for (line_idx, raw) in text.lines().enumerate() {
        let line = line_idx + 1;
        last_line = line;
        let content = raw.split(';').next().unwrap_or("").trim_end();
        let indent = content.chars().take_while(|c| c.is_whitespace()).count();
        let body = content.trim_start();
        if body.is_empty() {
            continue;
        }
        let Some((width, height)) = size else {
            size = Some(
                parse_size(body).map_err(|(offset, kind)| err(line, indent + offset + 1, kind))?,
            );
            continue;
        };
        if rows == height {
            return Err(err(
                line,
                indent + 1,
                MapErrorKind::TooManyRows { expected: height },
            ));
        }
        let y = rows as u8;
        let mut x = 0u32;
        for (offset, c) in body.chars().enumerate() {
            let column = indent + offset + 1;
            if x == width {
                let found = u32::try_from(body.chars().count()).unwrap_or(u32::MAX);
                return Err(err(
                    line,
                    column,
                    MapErrorKind::RowLength {
                        expected: width,
                        found,
                    },
                ));
            }
            let pos = Pos::new(x as u8, y);
            let tile = match c {
                '.' => Terrain::Empty,
                '#' => Terrain::Wall,
                'W' => Terrain::Well,
                'M' => {
                    let id = MineId::try_from(mine_count).unwrap_or(MineId::MAX);
                    mine_count += 1;
                    Terrain::Mine(id)
                }
                'a' | 'b' => {
                    let team = usize::from(c == 'b');
                    spawns[team].push(pos);
                    spawn_at[team].push((line, column));
                    Terrain::Empty
                }
                other => return Err(err(line, column, MapErrorKind::UnknownTile(other))),
            };
            terrain.push(tile);
            x += 1;
        }
        if x < width {
            let column = indent + body.chars().count() + 1;
            return Err(err(
                line,
                column,
                MapErrorKind::RowLength {
                    expected: width,
                    found: x,
                },
            ));
        }
        rows += 1;
    }

    let Some((width, height)) = size else {
        return Err(err(last_line.max(1), 1, MapErrorKind::MissingSize));
    };
    if rows < height {
        return Err(err(
            last_line + 1,
            1,
            MapErrorKind::TooFewRows {
                expected: height,
                found: rows,
            },
        ));
    }
    let (a, b) = (spawns[0].len(), spawns[1].len());
    if a != b {
        let (more, fewer) = if a > b { (0, 1) } else { (1, 0) };
        let (line, column) = spawn_at[more][spawns[fewer].len()];
        let names = ['a', 'b'];
        return Err(err(
            line,
            column,
            MapErrorKind::SpawnCountMismatch {
                more_team: names[more],
                fewer_team: names[fewer],
                more: spawns[more].len(),
                fewer: spawns[fewer].len(),
            },
        ));
    }
    Ok(Map {
        width: width as u8,
        height: height as u8,
        terrain,
        spawns,
    })
}

/// Parse `size W H`; on error, the character offset of the culprit within `body`.
fn parse_size(body: &str) -> Result<(u32, u32), (usize, MapErrorKind)> {
    let bad = || (0, MapErrorKind::BadSize(body.to_owned()));
    let mut words = body.split_whitespace();
    if words.next() != Some("size") {
        return Err(bad());
    }
    let mut number = || words.next().and_then(|w| w.parse::<u32>().ok());
    let (Some(width), Some(height)) = (number(), number()) else {
        return Err(bad());
    };
    if words.next().is_some() {
        return Err(bad());
    }
    let side = MIN_SIDE..=MAX_SIDE;
    if !side.contains(&width) || !side.contains(&height) {
        let offset = body.find(|c: char| c.is_ascii_digit()).unwrap_or(0);
        return Err((offset, MapErrorKind::SizeOutOfRange { width, height }));
    }
    Ok((width, height))
}

impl Map {
    fn index(&self, p: Pos) -> usize {
        usize::from(p.y) * usize::from(self.width) + usize::from(p.x)
    }

    /// The terrain at `p` (must be on the map).
    pub fn terrain_at(&self, p: Pos) -> Terrain {
        self.terrain[self.index(p)]
    }

    /// Every tile position, in reading order.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }

    /// Tiles with the given terrain, in reading order.
    pub fn tiles_of(&self, wanted: fn(Terrain) -> bool) -> Vec<Pos> {
        self.positions()
            .filter(|&p| wanted(self.terrain_at(p)))
            .collect()
    }

    /// The point mirror of `p` (the tile a half turn about the centre maps it to).
    pub fn mirror(&self, p: Pos) -> Pos {
        Pos::new(self.width - 1 - p.x, self.height - 1 - p.y)
    }

    /// Whether a half turn about the centre maps the map onto itself (spawns `a` onto `b`):
    /// then neither team's side of the board is better.
    pub fn is_point_symmetric(&self) -> bool {
        let kind = |t: Terrain| match t {
            Terrain::Mine(_) => Terrain::Mine(0),
            other => other,
        };
        let terrain = self
            .positions()
            .all(|p| kind(self.terrain_at(p)) == kind(self.terrain_at(self.mirror(p))));
        let spawns = self.spawns[0].len() == self.spawns[1].len()
            && self.spawns[0]
                .iter()
                .all(|&p| self.spawns[1].contains(&self.mirror(p)));
        terrain && spawns
    }

    /// Empty tiles whose mirror is a different empty tile, one of each pair (the one first
    /// in reading order): where random placement may put a hero and its mirror twin.
    fn mirror_pairs(&self) -> Vec<Pos> {
        self.positions()
            .filter(|&p| {
                let m = self.mirror(p);
                self.index(p) < self.index(m)
                    && self.terrain_at(p) == Terrain::Empty
                    && self.terrain_at(m) == Terrain::Empty
            })
            .collect()
    }

    /// How many heroes per team this map can hold.
    pub fn capacity(&self) -> usize {
        if self.spawns[0].is_empty() {
            self.mirror_pairs().len()
        } else {
            self.spawns[0].len()
        }
    }

    /// Starting tiles by hero id (even ids team 0, odd ids team 1), `per_team` heroes a team.
    ///
    /// With spawns: team 0's `k`-th hero takes the `k`-th `a` in reading order, team 1's the
    /// `k`-th `b` in *reverse* reading order (its mirror on a symmetric map). Without: random
    /// pairs of mirrored empty tiles from `rng`, a coin flip deciding which team gets which
    /// tile of a pair. Either way hero `2k+1` stands on the mirror of hero `2k` whenever the
    /// map is point-symmetric. `None` if the map cannot hold `per_team` heroes a team.
    pub fn placements(&self, per_team: usize, rng: &mut impl Rng) -> Option<Vec<Pos>> {
        if per_team > self.capacity() {
            return None;
        }
        let mut placed = Vec::with_capacity(per_team * 2);
        if self.spawns[0].is_empty() {
            let mut pairs = self.mirror_pairs();
            pairs.shuffle(rng);
            for &p in &pairs[..per_team] {
                let (first, second) = if rng.random_bool(0.5) {
                    (p, self.mirror(p))
                } else {
                    (self.mirror(p), p)
                };
                placed.extend([first, second]);
            }
        } else {
            for k in 0..per_team {
                placed.push(self.spawns[0][k]);
                placed.push(self.spawns[1][self.spawns[1].len() - 1 - k]);
            }
        }
        Some(placed)
    }
}
