//! The map file of mode `conquest`: the original game's configuration file
//! (docs/rules/conquest.md, "Maps").
//!
//! ```text
//! Frame: 5x5
//! Water: 0 0 4 4
//! Wood: 2 0 2 4
//! Food: 0 3 4 1
//! Gold: 3 2 1 2
//! ```
//!
//! Exactly five non-blank lines, in this order: `Frame: WxH`, then `Water:`, `Wood:`,
//! `Food:` and `Gold:`, each followed by pairs of whole numbers `x y` (none is fine).
//! Checks, in this order, each failing with the 1-based line it found the problem on:
//!
//! 1. the number of lines (missing or extra lines);
//! 2. the labels, line by line (each line starts with the label expected at its place);
//! 3. the frame's format (`Frame: WxH`, two whole numbers joined by `x`);
//! 4. the frame's range (5 to `max_frame`, 7 in the document, each way);
//! 5. then each of the four position lines in turn, all checks for one line before the
//!    next line: a token that is not a whole number; an odd number of numbers; a position
//!    off the map; a position on a home base or one of its four neighbours; a position
//!    already given (on this line or an earlier one).

use arena_sdk::conquest::{DIRECTIONS, MIN_FRAME, Pos, Resource, Terrain};

/// The labels of the five lines, in order.
pub const LABELS: [&str; 5] = ["Frame:", "Water:", "Wood:", "Food:", "Gold:"];

/// A valid map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Map {
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// Water tiles, in file order.
    pub water: Vec<Pos>,
    /// Wood tiles, in file order.
    pub wood: Vec<Pos>,
    /// Food tiles, in file order.
    pub food: Vec<Pos>,
    /// Gold tiles, in file order.
    pub gold: Vec<Pos>,
}

impl Map {
    /// Home bases of seat 0 (Player 1) and seat 1 (Player 2): (1,1) and (w−2,h−2).
    pub fn homes(&self) -> [Pos; 2] {
        homes(self.width, self.height)
    }

    /// What lies on `p` at the start of a game.
    pub fn terrain(&self, p: Pos) -> Terrain {
        let homes = self.homes();
        if p == homes[0] {
            Terrain::Home(0)
        } else if p == homes[1] {
            Terrain::Home(1)
        } else if self.water.contains(&p) {
            Terrain::Water
        } else if self.wood.contains(&p) {
            Terrain::Resource(Resource::Wood)
        } else if self.food.contains(&p) {
            Terrain::Resource(Resource::Food)
        } else if self.gold.contains(&p) {
            Terrain::Resource(Resource::Gold)
        } else {
            Terrain::Plain
        }
    }
}

/// Home bases on a `width`×`height` map.
pub fn homes(width: u8, height: u8) -> [Pos; 2] {
    [
        Pos::new(1, 1),
        Pos::new(width.saturating_sub(2), height.saturating_sub(2)),
    ]
}

/// Why a map file is not a valid map, and on which (1-based) line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct MapError {
    /// 1-based line of the file.
    pub line: usize,
    /// What is wrong.
    pub kind: MapErrorKind,
}

/// The kinds of [`MapError`], one per check of the module docs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapErrorKind {
    /// Fewer than five non-blank lines.
    #[error(
        "missing the `{expected}` line: a map has exactly five lines (Frame, Water, Wood, Food, Gold), this one has {found}"
    )]
    MissingLine {
        /// The label of the first missing line.
        expected: &'static str,
        /// Non-blank lines found.
        found: usize,
    },
    /// More than five non-blank lines.
    #[error("extra line: a map has exactly five lines (Frame, Water, Wood, Food, Gold)")]
    ExtraLine,
    /// A line does not start with the label expected at its place.
    #[error(
        "expected a line starting with `{expected}`, found `{found}` (the lines are Frame, Water, Wood, Food, Gold, in this order)"
    )]
    WrongLabel {
        /// The label expected.
        expected: &'static str,
        /// The first word found.
        found: String,
    },
    /// The frame is not `Frame: WxH`.
    #[error("the frame should be in the format `Frame: WxH` (e.g. `Frame: 5x7`), found `{0}`")]
    BadFrame(String),
    /// Width or height out of range.
    #[error(
        "width and height should range from {MIN_FRAME} to {max}, this frame is {width}x{height}"
    )]
    FrameOutOfRange {
        /// Width asked for.
        width: u64,
        /// Height asked for.
        height: u64,
        /// The largest side allowed by the rules.
        max: u8,
    },
    /// A token that is not a whole number.
    #[error("{label} contains `{token}`, which is not a whole number")]
    NotAnInteger {
        /// The line's label (without the colon).
        label: &'static str,
        /// The token.
        token: String,
    },
    /// An odd count of numbers.
    #[error("{label} has an odd number of numbers ({count}); positions are pairs `x y`")]
    OddCount {
        /// The line's label.
        label: &'static str,
        /// Numbers on the line.
        count: usize,
    },
    /// A position off the map.
    #[error("{label} contains the position ({x},{y}), which is out of the {width}x{height} map")]
    OffMap {
        /// The line's label.
        label: &'static str,
        /// Column given.
        x: i128,
        /// Row given.
        y: i128,
        /// The frame's width.
        width: u8,
        /// The frame's height.
        height: u8,
    },
    /// A position on a home base or next to one.
    #[error(
        "{label} occupies {pos}: the home bases (1,1) and {home2} and the four positions next to each must stay free"
    )]
    HomeOccupied {
        /// The line's label.
        label: &'static str,
        /// The position.
        pos: Pos,
        /// Player 2's home on this map.
        home2: Pos,
    },
    /// A position given twice.
    #[error("{label} repeats the position {pos}, already given on line {first_line}")]
    Duplicate {
        /// The line's label.
        label: &'static str,
        /// The position.
        pos: Pos,
        /// Where it was first given.
        first_line: usize,
    },
}

/// Parse a map file's text with frames up to `max_frame` each way.
pub fn parse_map(text: &str, max_frame: u8) -> Result<Map, MapError> {
    // Blank lines are skipped (as the original loader did); numbering stays the file's.
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l.trim()))
        .collect();
    let err = |line: usize, kind| MapError { line, kind };
    // 1. Line count.
    if lines.len() < LABELS.len() {
        let after = lines.last().map_or(1, |(n, _)| n + 1);
        return Err(err(
            after,
            MapErrorKind::MissingLine {
                expected: LABELS[lines.len()],
                found: lines.len(),
            },
        ));
    }
    if lines.len() > LABELS.len() {
        return Err(err(lines[LABELS.len()].0, MapErrorKind::ExtraLine));
    }
    // 2. Labels.
    for (&(line, body), expected) in lines.iter().zip(LABELS) {
        let first = body.split_whitespace().next().unwrap_or("");
        // `Frame:5x5` (no space) still names the right line; its format is checked next.
        if !first.starts_with(expected) {
            return Err(err(
                line,
                MapErrorKind::WrongLabel {
                    expected,
                    found: first.to_owned(),
                },
            ));
        }
    }
    // 3.–4. The frame.
    let (frame_line, frame) = lines[0];
    let (width, height) = parse_frame(frame)
        .ok_or_else(|| err(frame_line, MapErrorKind::BadFrame(frame.to_owned())))?;
    let side = u64::from(MIN_FRAME)..=u64::from(max_frame);
    if !side.contains(&width) || !side.contains(&height) {
        return Err(err(
            frame_line,
            MapErrorKind::FrameOutOfRange {
                width,
                height,
                max: max_frame,
            },
        ));
    }
    // In range, so both fit a byte.
    let (width, height) = (width as u8, height as u8);
    let homes = homes(width, height);
    let reserved: Vec<Pos> = homes
        .iter()
        .flat_map(|&h| {
            std::iter::once(h).chain(
                DIRECTIONS
                    .iter()
                    .filter_map(move |&d| h.offset(d, 1, width, height)),
            )
        })
        .collect();
    // 5. The four position lines.
    let mut seen: Vec<(Pos, usize)> = Vec::new();
    let mut lists: [Vec<Pos>; 4] = Default::default();
    for (k, &(line, body)) in lines[1..].iter().enumerate() {
        let label = LABELS[k + 1].trim_end_matches(':');
        let rest = &body[LABELS[k + 1].len()..];
        let mut numbers = Vec::new();
        for token in rest.split_whitespace() {
            let value = parse_whole(token).ok_or_else(|| {
                err(
                    line,
                    MapErrorKind::NotAnInteger {
                        label,
                        token: token.to_owned(),
                    },
                )
            })?;
            numbers.push(value);
        }
        if numbers.len() % 2 == 1 {
            return Err(err(
                line,
                MapErrorKind::OddCount {
                    label,
                    count: numbers.len(),
                },
            ));
        }
        for pair in numbers.chunks(2) {
            let (x, y) = (pair[0], pair[1]);
            if !(0..i128::from(width)).contains(&x) || !(0..i128::from(height)).contains(&y) {
                return Err(err(
                    line,
                    MapErrorKind::OffMap {
                        label,
                        x,
                        y,
                        width,
                        height,
                    },
                ));
            }
            // In range, so both fit a byte.
            let pos = Pos::new(x as u8, y as u8);
            if reserved.contains(&pos) {
                return Err(err(
                    line,
                    MapErrorKind::HomeOccupied {
                        label,
                        pos,
                        home2: homes[1],
                    },
                ));
            }
            if let Some(&(_, first_line)) = seen.iter().find(|(p, _)| *p == pos) {
                return Err(err(
                    line,
                    MapErrorKind::Duplicate {
                        label,
                        pos,
                        first_line,
                    },
                ));
            }
            seen.push((pos, line));
            lists[k].push(pos);
        }
    }
    let [water, wood, food, gold] = lists;
    Ok(Map {
        width,
        height,
        water,
        wood,
        food,
        gold,
    })
}

/// `Frame: WxH` → (W, H); whole numbers of any size (the range is checked after).
fn parse_frame(body: &str) -> Option<(u64, u64)> {
    let mut words = body.split_whitespace();
    let value = match (words.next()?, words.next(), words.next()) {
        ("Frame:", Some(value), None) => value,
        _ => return None,
    };
    let (w, h) = value.split_once('x')?;
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u64>().unwrap_or(u64::MAX))
    };
    Some((number(w)?, number(h)?))
}

/// A whole number with an optional sign; huge values saturate (they are off the map
/// anyway).
fn parse_whole(token: &str) -> Option<i128> {
    let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(token.parse::<i128>().unwrap_or(if token.starts_with('-') {
        i128::MIN
    } else {
        i128::MAX
    }))
}

/// The map as the file format writes it (what `arena map check` and the tests round-trip).
pub fn to_text(map: &Map) -> String {
    let line = |label: &str, list: &[Pos]| {
        let mut s = label.to_owned();
        for p in list {
            s += &format!(" {} {}", p.x, p.y);
        }
        s + "\n"
    };
    format!(
        "Frame: {}x{}\n{}{}{}{}",
        map.width,
        map.height,
        line("Water:", &map.water),
        line("Wood:", &map.wood),
        line("Food:", &map.food),
        line("Gold:", &map.gold)
    )
}
