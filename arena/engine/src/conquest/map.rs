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
//! Exactly five lines, one after the other, in this order: `Frame: WxH`, then `Water:`,
//! `Wood:`, `Food:` and `Gold:`, each followed by one space and pairs of whole numbers
//! `x y` (none is fine: `Wood: `). The format is the original's, as strict as it and the
//! public implementations that reproduce it: each label at the very start of its line and
//! followed by one space (also when no pairs follow), single spaces between numbers,
//! nothing after the last, digits only (no sign). Empty
//! lines after the fifth are ignored. Checks, in this order, each failing with the 1-based
//! line it found the problem on:
//!
//! 1. a byte-order mark, a blank line among the five, the number of lines (a missing line
//!    is named by the first label not found);
//! 2. the labels, line by line (each line starts with the label expected at its place);
//! 3. the frame's format (`Frame: WxH`, two whole numbers joined by `x`);
//! 4. the frame's range (5 to `max_frame`, 7 in the document, each way);
//! 5. then each of the four position lines in turn, all checks for one line before the
//!    next line: the spacing; a token that is not a whole number; an odd number of
//!    numbers; a position off the map; a position on a home base or one of its four
//!    neighbours; a position already given (on this line or an earlier one).

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

/// The kinds of [`MapError`], one per check of the module docs. Text from the file is
/// quoted as written, with tabs and other invisible characters escaped (`\t`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapErrorKind {
    /// The file starts with a byte-order mark.
    #[error(
        "the file starts with a byte-order mark (U+FEFF): save it as UTF-8 without one, the first line starting with `Frame:`"
    )]
    ByteOrderMark,
    /// The file has no line with content.
    #[error(
        "the file is empty: a map has exactly five lines (Frame, Water, Wood, Food, Gold), starting with `Frame: WxH`"
    )]
    Empty,
    /// A blank line before the fifth line.
    #[error(
        "a blank line: a map has exactly five lines (Frame, Water, Wood, Food, Gold), one after the other"
    )]
    BlankLine,
    /// Fewer than five lines.
    #[error(
        "missing the `{expected}` line: a map has exactly five lines (Frame, Water, Wood, Food, Gold), this one has {found}"
    )]
    MissingLine {
        /// The label of the first missing line.
        expected: &'static str,
        /// Lines found.
        found: usize,
    },
    /// More than five lines.
    #[error("extra line: a map has exactly five lines (Frame, Water, Wood, Food, Gold)")]
    ExtraLine,
    /// A line does not start with the label expected at its place, followed by a space.
    #[error(
        "expected a line starting with `{expected}` and a space, found `{found}` (the lines are Frame, Water, Wood, Food, Gold, in this order, each label at the start of its line)"
    )]
    WrongLabel {
        /// The label expected.
        expected: &'static str,
        /// The start of the line, as written.
        found: String,
    },
    /// The frame is not `Frame: WxH`.
    #[error(
        "the frame should be in the format `Frame: WxH` (e.g. `Frame: 5x7`, one space, no other), found `{0}`"
    )]
    BadFrame(String),
    /// Width or height out of range.
    #[error(
        "width and height should range from {MIN_FRAME} to {max}, this frame is {width}x{height}"
    )]
    FrameOutOfRange {
        /// Width asked for, as written.
        width: String,
        /// Height asked for, as written.
        height: String,
        /// The largest side allowed by the rules.
        max: u8,
    },
    /// Not exactly one space between the label and each number.
    #[error("{label} has {what} at column {column}: numbers are separated by single spaces")]
    Spacing {
        /// The line's label (without the colon).
        label: &'static str,
        /// "two spaces in a row" or "a space at the end of the line".
        what: &'static str,
        /// 1-based column of the extra space.
        column: usize,
    },
    /// A token that is not a whole number.
    #[error("{label} contains `{token}`, which is not a whole number (digits only, no sign)")]
    NotAnInteger {
        /// The line's label (without the colon).
        label: &'static str,
        /// The token, as written.
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
        /// Column given, as written.
        x: String,
        /// Row given, as written.
        y: String,
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

/// The byte-order mark some editors put at the start of a UTF-8 file.
const BOM: char = '\u{feff}';

/// Longest stretch of a line quoted in an error.
const QUOTED_CHARS: usize = 40;

/// `text` as an error quotes it: escaped (tabs as `\t`), cut after [`QUOTED_CHARS`].
fn quoted(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(QUOTED_CHARS)
        .flat_map(char::escape_debug)
        .collect();
    if text.chars().nth(QUOTED_CHARS).is_some() {
        out.push('…');
    }
    out
}

/// The label a line starts with, if any (exactly at its start).
fn label_of(body: &str) -> Option<usize> {
    LABELS.iter().position(|label| body.starts_with(label))
}

/// Parse a map file's text with frames up to `max_frame` each way.
pub fn parse_map(text: &str, max_frame: u8) -> Result<Map, MapError> {
    let err = |line: usize, kind| MapError { line, kind };
    // 1. The lines: no byte-order mark, five one after the other, trailing empty lines
    // ignored (`lines` takes `\r\n` as a line end, as Python's text files do).
    if text.starts_with(BOM) {
        return Err(err(1, MapErrorKind::ByteOrderMark));
    }
    let all: Vec<&str> = text.lines().collect();
    let end = all
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(0, |i| i + 1);
    let lines = &all[..end];
    if lines.is_empty() {
        return Err(err(1, MapErrorKind::Empty));
    }
    if let Some(blank) = lines.iter().position(|l| l.trim().is_empty()) {
        return Err(err(blank + 1, MapErrorKind::BlankLine));
    }
    if lines.len() < LABELS.len() {
        // The first label not in its place is the missing one, when a later label stands
        // there (`Frame`, `Wood`, … lack `Water`); otherwise the line is a wrong one.
        for (k, body) in lines.iter().enumerate() {
            match label_of(body) {
                Some(found) if found == k => {}
                Some(found) if found > k => {
                    return Err(err(
                        k + 1,
                        MapErrorKind::MissingLine {
                            expected: LABELS[k],
                            found: lines.len(),
                        },
                    ));
                }
                _ => break,
            }
        }
        if lines
            .iter()
            .enumerate()
            .all(|(k, b)| label_of(b) == Some(k))
        {
            return Err(err(
                lines.len() + 1,
                MapErrorKind::MissingLine {
                    expected: LABELS[lines.len()],
                    found: lines.len(),
                },
            ));
        }
    } else if lines.len() > LABELS.len() {
        return Err(err(LABELS.len() + 1, MapErrorKind::ExtraLine));
    }
    // 2. Labels, each at the start of its line and followed by a space (a position line
    // with no pairs is its label and the space: `Wood: `, as in the original).
    // `Frame:5x5` still names the right line; its format is checked next.
    for (k, (body, expected)) in lines.iter().zip(LABELS).enumerate() {
        let rest = body.strip_prefix(expected);
        let spaced = rest.is_some_and(|r| k == 0 || r.starts_with(' '));
        if !spaced {
            let word = body.split(' ').next().unwrap_or("");
            // Quote what stands where the label should: up to its first space, or the
            // spaces before it.
            let found = if word.is_empty() { *body } else { word };
            return Err(err(
                k + 1,
                MapErrorKind::WrongLabel {
                    expected,
                    found: quoted(found),
                },
            ));
        }
    }
    // 3.–4. The frame.
    let frame = lines[0];
    let (width, height) =
        parse_frame(frame).ok_or_else(|| err(1, MapErrorKind::BadFrame(quoted(frame))))?;
    let side = |s: &str| {
        s.parse::<u8>()
            .ok()
            .filter(|v| (MIN_FRAME..=max_frame).contains(v))
    };
    let (Some(w), Some(h)) = (side(width), side(height)) else {
        return Err(err(
            1,
            MapErrorKind::FrameOutOfRange {
                width: quoted(width),
                height: quoted(height),
                max: max_frame,
            },
        ));
    };
    let (width, height) = (w, h);
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
    for (k, body) in lines[1..].iter().enumerate() {
        let line = k + 2;
        let label = LABELS[k + 1].trim_end_matches(':');
        let numbers = numbers_of(label, body, LABELS[k + 1].len()).map_err(|e| err(line, e))?;
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
            let coordinate = |s: &str, side: u8| s.parse::<u8>().ok().filter(|v| *v < side);
            let (Some(px), Some(py)) = (coordinate(x, width), coordinate(y, height)) else {
                return Err(err(
                    line,
                    MapErrorKind::OffMap {
                        label,
                        x: quoted(x),
                        y: quoted(y),
                        width,
                        height,
                    },
                ));
            };
            let pos = Pos::new(px, py);
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

/// `Frame: WxH` → (W, H) as written: one space after the label, digits only, nothing
/// else (the range is checked after).
fn parse_frame(body: &str) -> Option<(&str, &str)> {
    let value = body.strip_prefix("Frame: ")?;
    let (w, h) = value.split_once('x')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(w) && digits(h)).then_some((w, h))
}

/// The numbers of a position line after its label (`label_len` bytes) and the space the
/// label check saw, as written: none when the line ends there, else each after exactly
/// one space, digits only.
fn numbers_of<'a>(
    label: &'static str,
    body: &'a str,
    label_len: usize,
) -> Result<Vec<&'a str>, MapErrorKind> {
    let rest = &body[label_len..];
    if rest.len() == 1 {
        return Ok(Vec::new());
    }
    let mut numbers = Vec::new();
    let mut column = label_len + 2;
    let tokens: Vec<&str> = rest[1..].split(' ').collect();
    for (k, token) in tokens.iter().enumerate() {
        if token.is_empty() {
            // The space that should not be there: the one ending the line, or the second
            // of two (where this empty token starts).
            let (what, column) = if k + 1 == tokens.len() {
                ("a space at the end of the line", column - 1)
            } else {
                ("two spaces in a row", column)
            };
            return Err(MapErrorKind::Spacing {
                label,
                what,
                column,
            });
        }
        if !token.bytes().all(|b| b.is_ascii_digit()) {
            return Err(MapErrorKind::NotAnInteger {
                label,
                token: quoted(token),
            });
        }
        numbers.push(*token);
        column += token.chars().count() + 1;
    }
    Ok(numbers)
}

/// The map as the file format writes it (what `arena map check` and the tests round-trip).
pub fn to_text(map: &Map) -> String {
    let line = |label: &str, list: &[Pos]| {
        let pairs: Vec<String> = list.iter().map(|p| format!("{} {}", p.x, p.y)).collect();
        format!("{label} {}\n", pairs.join(" "))
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
