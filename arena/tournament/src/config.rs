//! Tournament files (TOML; docs/tournaments.md): parsed into a validated [`Tournament`].
//! Errors name the file, the line and what to fix.

use crate::bots::BotSpec;
use crate::{game, modes};
use arena_engine::DeckFormat;
use arena_sdk::Mode;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The tournament formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every bot plays every other bot of each mode.
    RoundRobin,
    /// The challengers play every other bot; the others do not play each other.
    Gauntlet,
}

/// Allowed fuel per turn or setup: enough for any bot, small enough that a call ends in
/// seconds (the CLI's `--fuel-per-*` flags take the same range).
pub const FUEL_RANGE: std::ops::RangeInclusive<u64> = 1_000..=10_000_000_000;
/// Allowed memory per bot in MiB (a 32-bit memory holds at most 4 GiB).
pub const MEMORY_MIB_RANGE: std::ops::RangeInclusive<u64> = 1..=4096;
/// Allowed games per pairing and mode (positive and even besides).
pub const GAMES_PER_PAIRING_MAX: u32 = 10_000;
/// Most games one tournament plan may hold.
pub const PLANNED_GAMES_MAX: u64 = 1_000_000;
/// Allowed parallel games.
pub const CONCURRENCY_RANGE: std::ops::RangeInclusive<usize> = 1..=1024;
/// Allowed faults before a forfeit.
pub const MAX_FAULTS_RANGE: std::ops::RangeInclusive<u32> = 1..=1000;
/// Allowed rejected answers before a forfeit.
pub const MAX_REJECTIONS_RANGE: std::ops::RangeInclusive<u32> = 1..=1_000_000;

/// Sandbox limits a tournament sets for its wasm bots (unset: the arena's defaults).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsConfig {
    /// Fuel per turn.
    pub fuel_per_turn: Option<u64>,
    /// Fuel for instantiation + start, and for setup.
    pub fuel_per_setup: Option<u64>,
    /// Memory per bot in MiB.
    pub memory_mib: Option<u64>,
    /// The encodings offered to bots: only from the command line (`--encoding`), never in
    /// the plan, since results must not depend on it.
    #[serde(skip)]
    pub encoding: arena_sandbox::EncodingPolicy,
}

impl LimitsConfig {
    /// These limits applied over the defaults (values out of range — see
    /// [`LimitsConfig::check`] — are clamped into it, never wrapped).
    pub fn limits(&self) -> arena_sandbox::Limits {
        let mut limits = arena_sandbox::Limits::default();
        let clamp = |v: u64, r: &std::ops::RangeInclusive<u64>| v.clamp(*r.start(), *r.end());
        if let Some(fuel) = self.fuel_per_turn {
            limits.fuel_per_turn = clamp(fuel, &FUEL_RANGE);
        }
        if let Some(fuel) = self.fuel_per_setup {
            limits.fuel_per_setup = clamp(fuel, &FUEL_RANGE);
        }
        if let Some(mib) = self.memory_mib {
            limits.memory_bytes = (clamp(mib, &MEMORY_MIB_RANGE) << 20) as usize;
        }
        limits.encoding = self.encoding;
        limits
    }

    /// The first value out of range: its key and what is wrong.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        let fields = [
            ("fuel_per_turn", self.fuel_per_turn, &FUEL_RANGE),
            ("fuel_per_setup", self.fuel_per_setup, &FUEL_RANGE),
            ("memory_mib", self.memory_mib, &MEMORY_MIB_RANGE),
        ];
        for (key, value, range) in fields {
            if let Some(v) = value
                && !range.contains(&v)
            {
                return Err((
                    key,
                    format!(
                        "limits.{key} is {v}; it must be {}..={}",
                        range.start(),
                        range.end()
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// Check a name that becomes a directory or file name (the tournament's name names its
/// results directory): 1–64 letters, digits, `-`, `_` and `.`, not starting with `.`.
pub fn check_path_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "name {name:?} is not usable as a directory name: use 1–64 letters, digits, `-`, `_` and `.`, not starting with `.`"
        ))
    }
}

/// `name` made path-safe (for names derived from file names, e.g. a gauntlet's).
pub fn path_safe_name(name: &str) -> String {
    let mut safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    while safe.starts_with('.') {
        safe.replace_range(..1, "_");
    }
    if safe.is_empty() {
        safe.push('_');
    }
    safe
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLimits {
    fuel_per_turn: Option<Spanned<u64>>,
    fuel_per_setup: Option<Spanned<u64>>,
    memory_mib: Option<Spanned<u64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    name: Spanned<String>,
    seed: u64,
    #[serde(default = "default_format")]
    format: Format,
    #[serde(default)]
    challengers: Vec<Spanned<String>>,
    #[serde(default = "default_games")]
    games_per_pairing: Spanned<u32>,
    #[serde(default)]
    concurrency: Option<Spanned<u64>>,
    #[serde(default = "default_max_faults")]
    max_faults: Spanned<u64>,
    #[serde(default = "default_max_rejections")]
    max_rejections: Spanned<u64>,
    #[serde(default)]
    limits: RawLimits,
    #[serde(default)]
    modes: BTreeMap<String, toml::Table>,
    bots: Spanned<Vec<RawBot>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBot {
    name: Spanned<String>,
    bot: Spanned<String>,
    #[serde(default)]
    modes: Option<Spanned<Vec<String>>>,
    /// tcg: the bot's own deck file, played from whichever seat it has.
    #[serde(default)]
    deck: Option<Spanned<String>>,
}

fn default_format() -> Format {
    Format::RoundRobin
}
fn default_games() -> Spanned<u32> {
    Spanned::new(0..0, 2)
}
fn default_max_faults() -> Spanned<u64> {
    Spanned::new(0..0, arena_engine::DEFAULT_MAX_FAULTS.into())
}
fn default_max_rejections() -> Spanned<u64> {
    Spanned::new(0..0, arena_engine::DEFAULT_MAX_REJECTIONS.into())
}

/// One bot of a tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotEntry {
    /// Its unique name in the tournament.
    pub name: String,
    /// What to load (paths resolved against the tournament file's directory).
    pub spec: BotSpec,
    /// The modes it plays.
    pub modes: Vec<Mode>,
    /// Whether the file lists them (`modes = [...]`); if not, a wasm bot plays the modes
    /// it accepts ([`crate::playable::settle`]).
    pub modes_listed: bool,
    /// tcg: the bot's own deck (card ids, from its `deck` file), which its seat plays in
    /// place of the rules' `deck` (the `deck0`/`deck1` rule of its seat).
    pub deck: Option<Vec<String>>,
}

/// A validated tournament.
#[derive(Debug, Clone, PartialEq)]
pub struct Tournament {
    /// Its name (used for the default output directory).
    pub name: String,
    /// The tournament seed: every game's seed derives from it and the game index.
    pub seed: u64,
    /// Round-robin or gauntlet.
    pub format: Format,
    /// For gauntlets: the bots that play everyone.
    pub challengers: Vec<String>,
    /// Games per pairing and mode (even: each seed is played from both seats).
    pub games_per_pairing: u32,
    /// Default number of parallel games (`None`: all cores).
    pub concurrency: Option<usize>,
    /// Faults that forfeit a game.
    pub max_faults: u32,
    /// Rejected answers that forfeit a game.
    pub max_rejections: u32,
    /// Sandbox limits.
    pub limits: LimitsConfig,
    /// The modes, with their rules configurations in JSON form, in mode order.
    pub modes: Vec<(Mode, serde_json::Value)>,
    /// The bots, in file order.
    pub bots: Vec<BotEntry>,
    /// Per mode, the rules played in turn (`map_files`, `deck_files`; like cutechess's
    /// openings): the name of each (its file) and its complete rules. Pair `k` of every
    /// pairing plays entry `k mod len`; a mode without a rotation plays `modes`' rules.
    pub rotations: BTreeMap<Mode, Rotation>,
}

/// A mode's rotation: each entry's name (its file) and complete rules, played in turn.
pub type Rotation = Vec<(String, serde_json::Value)>;

/// A tournament file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{file}{}: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct ConfigError {
    /// The file.
    pub file: String,
    /// The 1-based line, where known.
    pub line: Option<usize>,
    /// What is wrong and what to do.
    pub message: String,
}

impl Tournament {
    /// Read and validate a tournament file.
    pub fn load(path: &Path) -> Result<Tournament, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            file: path.display().to_string(),
            line: None,
            message: format!("cannot read: {e}"),
        })?;
        Tournament::parse(&text, path)
    }

    /// Parse the text of the tournament file at `path` (relative paths in it are resolved
    /// against `path`'s directory).
    pub fn parse(text: &str, path: &Path) -> Result<Tournament, ConfigError> {
        let file = path.display().to_string();
        let line_of = |span: std::ops::Range<usize>| {
            Some(text[..span.start.min(text.len())].matches('\n').count() + 1)
        };
        let fail = |span: Option<std::ops::Range<usize>>, message: String| ConfigError {
            file: file.clone(),
            line: span.and_then(line_of),
            message,
        };
        let raw: RawFile =
            toml::from_str(text).map_err(|e| fail(e.span(), e.message().to_owned()))?;
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();

        // A span of 0..0 is a default value: no line to point at.
        let at = |span: std::ops::Range<usize>| (span != (0..0)).then_some(span);
        check_path_name(raw.name.get_ref()).map_err(|e| fail(Some(raw.name.span()), e))?;
        let games = raw.games_per_pairing.get_ref();
        if *games == 0 || !games.is_multiple_of(2) || *games > GAMES_PER_PAIRING_MAX {
            return Err(fail(
                at(raw.games_per_pairing.span()),
                format!(
                    "games_per_pairing is {games}; it must be a positive even number (each seed is played from both seats) of at most {GAMES_PER_PAIRING_MAX}"
                ),
            ));
        }
        let concurrency = match &raw.concurrency {
            None => None,
            Some(c) => Some(
                usize::try_from(*c.get_ref())
                    .ok()
                    .filter(|c| CONCURRENCY_RANGE.contains(c))
                    .ok_or_else(|| {
                        fail(
                            Some(c.span()),
                            format!(
                                "concurrency is {}; it must be {}..={}",
                                c.get_ref(),
                                CONCURRENCY_RANGE.start(),
                                CONCURRENCY_RANGE.end()
                            ),
                        )
                    })?,
            ),
        };
        let count = |key: &str, value: &Spanned<u64>, range: std::ops::RangeInclusive<u32>| {
            u32::try_from(*value.get_ref())
                .ok()
                .filter(|m| range.contains(m))
                .ok_or_else(|| {
                    fail(
                        at(value.span()),
                        format!(
                            "{key} is {}; it must be {}..={}",
                            value.get_ref(),
                            range.start(),
                            range.end()
                        ),
                    )
                })
        };
        let max_faults = count("max_faults", &raw.max_faults, MAX_FAULTS_RANGE)?;
        let max_rejections = count("max_rejections", &raw.max_rejections, MAX_REJECTIONS_RANGE)?;
        let limits = LimitsConfig {
            fuel_per_turn: raw.limits.fuel_per_turn.as_ref().map(|v| *v.get_ref()),
            fuel_per_setup: raw.limits.fuel_per_setup.as_ref().map(|v| *v.get_ref()),
            memory_mib: raw.limits.memory_mib.as_ref().map(|v| *v.get_ref()),
            encoding: arena_sandbox::EncodingPolicy::default(),
        };
        if let Err((key, message)) = limits.check() {
            let span = match key {
                "fuel_per_turn" => raw.limits.fuel_per_turn.as_ref(),
                "fuel_per_setup" => raw.limits.fuel_per_setup.as_ref(),
                _ => raw.limits.memory_mib.as_ref(),
            }
            .map(Spanned::span);
            return Err(fail(span, message));
        }
        let mut modes = Vec::new();
        let mut rotations = BTreeMap::new();
        // Tables keep no position in toml's data model; find the header in the text.
        let header_span = |name: &str| {
            let header = format!("[modes.{name}]");
            text.find(&header).map(|start| start..start + header.len())
        };
        for (name, table) in raw.modes {
            let mode: Mode = name
                .parse()
                .map_err(|e| fail(header_span(&name), format!("[modes.{name}]: {e}")))?;
            let (rules, rotation) = resolve_rules(mode, table, &base)
                .and_then(|(rules, rotation)| {
                    game::check_rules(mode, &rules).map_err(|e| e.to_string())?;
                    for (file, rules) in &rotation {
                        game::check_rules(mode, rules).map_err(|e| format!("{file}: {e}"))?;
                    }
                    Ok((rules, rotation))
                })
                .map_err(|e| fail(header_span(&name), e))?;
            modes.push((mode, rules));
            if !rotation.is_empty() {
                rotations.insert(mode, rotation);
            }
        }
        if modes.is_empty() {
            return Err(fail(
                None,
                "no modes: add a table per mode played, e.g. `[modes.battle]`".into(),
            ));
        }
        modes.sort_by_key(|(mode, _)| *mode);

        let mut bots = Vec::new();
        let bots_span = raw.bots.span();
        for raw_bot in raw.bots.into_inner() {
            let name = raw_bot.name.get_ref().clone();
            if bots.iter().any(|b: &BotEntry| b.name == name) {
                return Err(fail(
                    Some(raw_bot.name.span()),
                    format!("two bots are named `{name}`; bot names must be unique"),
                ));
            }
            let spec_text = raw_bot.bot.get_ref();
            let spec =
                parse_spec(spec_text, &base).map_err(|e| fail(Some(raw_bot.bot.span()), e))?;
            let playable = |mode: Mode| match &spec {
                BotSpec::Builtin(builtin) => {
                    modes::builtins_of(mode).iter().any(|b| b.name == builtin)
                }
                _ => true,
            };
            let bot_modes = match &raw_bot.modes {
                Some(list) => {
                    let mut out = Vec::new();
                    for m in list.get_ref() {
                        let mode: Mode = m.parse().map_err(|e| fail(Some(list.span()), e))?;
                        if !modes.iter().any(|(t, _)| *t == mode) {
                            return Err(fail(
                                Some(list.span()),
                                format!(
                                    "bot `{name}` plays {mode}, which the tournament has no [modes.{mode}] for"
                                ),
                            ));
                        }
                        if !playable(mode) {
                            return Err(fail(
                                Some(raw_bot.bot.span()),
                                format!(
                                    "`{spec_text}` is not a built-in of mode {mode}; `arena builtins --mode {mode}` lists them"
                                ),
                            ));
                        }
                        out.push(mode);
                    }
                    out.sort();
                    out
                }
                None => modes
                    .iter()
                    .map(|(m, _)| *m)
                    .filter(|m| playable(*m))
                    .collect(),
            };
            if bot_modes.is_empty() {
                return Err(fail(
                    Some(raw_bot.bot.span()),
                    format!("bot `{name}` plays none of the tournament's modes"),
                ));
            }
            let deck = match &raw_bot.deck {
                None => None,
                Some(file) => {
                    let fail_here = |message: String| fail(Some(file.span()), message);
                    let deck_modes = crate::modes::deck_modes();
                    let setting = crate::modes::names_and(&deck_modes);
                    let Some((deck_mode, rules, format)) = modes.iter().find_map(|(m, rules)| {
                        crate::modes::decks_of(*m).map(|format| (*m, rules, format))
                    }) else {
                        let tables: Vec<String> =
                            deck_modes.iter().map(|m| format!("[modes.{m}]")).collect();
                        return Err(fail_here(format!(
                            "bot `{name}`: `deck` is a {setting} setting and the tournament has no {}",
                            tables.join(" or ")
                        )));
                    };
                    if !bot_modes.contains(&deck_mode) {
                        return Err(fail_here(format!(
                            "bot `{name}`: `deck` is a {setting} setting and the bot does not play {deck_mode}"
                        )));
                    }
                    Some(read_bot_deck(format, &base, file.get_ref(), rules).map_err(fail_here)?)
                }
            };
            bots.push(BotEntry {
                name,
                spec,
                modes: bot_modes,
                modes_listed: raw_bot.modes.is_some(),
                deck,
            });
        }
        if bots.len() < 2 {
            return Err(fail(
                Some(bots_span),
                "a tournament needs at least two bots ([[bots]] entries)".into(),
            ));
        }
        let mut challengers = Vec::new();
        for c in &raw.challengers {
            if !bots.iter().any(|b| &b.name == c.get_ref()) {
                return Err(fail(
                    Some(c.span()),
                    format!("challenger `{}` is not one of the bots", c.get_ref()),
                ));
            }
            challengers.push(c.get_ref().clone());
        }
        if raw.format == Format::Gauntlet && challengers.is_empty() {
            return Err(fail(
                None,
                "format = \"gauntlet\" needs `challengers = [\"bot name\", …]`".into(),
            ));
        }
        // Bound the plan before anyone builds it: every pair of bots, every mode.
        let pairs = (bots.len() as u64) * (bots.len() as u64 - 1) / 2;
        let planned = pairs * modes.len() as u64 * u64::from(*games);
        if planned > PLANNED_GAMES_MAX {
            return Err(fail(
                at(raw.games_per_pairing.span()),
                format!(
                    "this tournament would plan up to {planned} games ({pairs} pairings × {} modes × {games}); the limit is {PLANNED_GAMES_MAX}",
                    modes.len()
                ),
            ));
        }
        Ok(Tournament {
            name: raw.name.into_inner(),
            seed: raw.seed,
            format: raw.format,
            challengers,
            games_per_pairing: *games,
            concurrency,
            max_faults,
            max_rejections,
            limits,
            modes,
            bots,
            rotations,
        })
    }

    /// The rules of one game: [`Tournament::rules_for`] plus, in tcg, the own decks of the
    /// bots in `seats` (indexes into `bots`) as `deck0`/`deck1`.
    pub fn rules_for_game(&self, mode: Mode, variant: u32, seats: [usize; 2]) -> serde_json::Value {
        let mut rules = self.rules_for(mode, variant);
        if crate::modes::decks_of(mode).is_some() {
            for (key, bot) in ["deck0", "deck1"].into_iter().zip(seats) {
                if let Some(deck) = &self.bots[bot].deck {
                    rules[key] = serde_json::json!(deck);
                }
            }
        }
        rules
    }

    /// The rules of `mode` for pair `k` of a pairing (the rotation's entry, if any).
    pub fn rules_for(&self, mode: Mode, variant: u32) -> serde_json::Value {
        if let Some(rotation) = self.rotations.get(&mode) {
            return rotation[variant as usize % rotation.len()].1.clone();
        }
        self.modes
            .iter()
            .find(|(m, _)| *m == mode)
            .map(|(_, r)| r.clone())
            .unwrap_or_default()
    }
}

/// A bot spec from a tournament file; relative paths are relative to the file.
fn parse_spec(text: &str, base: &Path) -> Result<BotSpec, String> {
    if let Some(name) = text.strip_prefix("builtin:") {
        return Ok(BotSpec::Builtin(name.to_owned()));
    }
    let path = base.join(text);
    if path.is_dir() {
        if path.join("Cargo.toml").is_file() {
            return Ok(BotSpec::Crate(path));
        }
        if path.join("go.mod").is_file() {
            return Ok(BotSpec::Go(path));
        }
        if path.join("bot.py").is_file() {
            return Ok(BotSpec::Python(path));
        }
        if crate::javascript::detect(&path).is_some() {
            return Ok(BotSpec::JavaScript(path));
        }
        return Err(format!(
            "`{text}` is a directory without Cargo.toml, go.mod, bot.py, bot.js or bot.ts, not a bot directory"
        ));
    }
    match path.extension().and_then(|e| e.to_str()) {
        Some("wasm" | "wat") if path.is_file() => Ok(BotSpec::Module(path)),
        Some("wasm" | "wat") => Err(format!("bot file `{}` does not exist", path.display())),
        _ => Err(format!(
            "`{text}` is not a bot: use builtin:NAME, a .wasm/.wat file, or a bot directory (Rust: Cargo.toml, Go: go.mod, Python: bot.py, JavaScript: bot.js, TypeScript: bot.ts)"
        )),
    }
}

/// A deck file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DeckFileError {
    /// The file cannot be read.
    #[error("deck {path}: cannot read it: {error}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        error: std::io::Error,
    },
    /// The deck is not one the rules allow.
    #[error("deck {path}: {error}")]
    Bad {
        /// The file.
        path: String,
        /// What is wrong, on which line.
        error: String,
    },
}

/// Read a deck file in `format` (docs/rules/tcg.md) and check it against the card pool of
/// `rules` (the mode's rules as JSON): its card ids. The one reader of deck files: `arena play
/// --deck/--deck0/--deck1`, `arena deck check`, a tournament's `deck_file`/`deck_files` and a
/// bot's `deck`; its error names the file and, for a bad deck, the line.
pub fn read_deck(
    format: DeckFormat,
    path: &Path,
    rules: &serde_json::Value,
) -> Result<Vec<String>, DeckFileError> {
    let text = std::fs::read_to_string(path).map_err(|error| DeckFileError::Read {
        path: path.display().to_string(),
        error,
    })?;
    (format.read)(&text, rules).map_err(|error| DeckFileError::Bad {
        path: path.display().to_string(),
        error,
    })
}

/// A bot's own deck file (relative to the tournament file), checked against the card
/// pool of the tournament's rules for the mode; the error names the deck file and its line.
fn read_bot_deck(
    format: DeckFormat,
    base: &Path,
    rel: &str,
    rules: &serde_json::Value,
) -> Result<Vec<String>, String> {
    let path = base.join(rel);
    let cards = read_deck(format, &path, rules).map_err(|e| e.to_string())?;
    let size = (format.size)(rules)?;
    if cards.len() != size {
        return Err(format!(
            "deck {}: {} cards, the tournament's deck_size is {size}",
            path.display(),
            cards.len(),
        ));
    }
    Ok(cards)
}

/// Mode-specific conveniences in a rules table: `map_file` (grid, conquest) and `deck_file`
/// (tcg) are read relative to the tournament file and replaced by their contents; `map_files`
/// and `deck_files` make a rotation: one complete rules value per file, played in turn.
fn resolve_rules(
    mode: Mode,
    mut table: toml::Table,
    base: &Path,
) -> Result<(serde_json::Value, Rotation), String> {
    let read = |key: &str, value: &toml::Value| -> Result<(PathBuf, String), String> {
        let rel = value
            .as_str()
            .ok_or_else(|| format!("`{key}` must be a path string"))?;
        let path = base.join(rel);
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{key} {}: {e}", path.display()))?;
        Ok((path, text))
    };
    let list = |key: &str, value: toml::Value| -> Result<Vec<toml::Value>, String> {
        match value {
            toml::Value::Array(items) if !items.is_empty() => Ok(items),
            _ => Err(format!("`{key}` must be a non-empty list of paths")),
        }
    };
    // Map limits (conquest's `max_frame`) come from the same table.
    let limits = serde_json::to_value(&table).map_err(|e| e.to_string())?;
    let read_map = |value: &toml::Value| -> Result<(String, String), String> {
        let (path, text) = read("map_file", value)?;
        crate::game::check_map(mode, &text, &limits)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok((value.as_str().unwrap_or_default().to_owned(), text))
    };
    let map_setting = |key: &str| {
        format!(
            "`{key}` is a {} setting",
            crate::modes::names_and(&crate::modes::map_modes())
        )
    };
    let deck_setting = |key: &str| {
        format!(
            "`{key}` is a {} setting",
            crate::modes::names_and(&crate::modes::deck_modes())
        )
    };
    let takes_maps = crate::modes::maps_of(mode).is_some();
    let decks = crate::modes::decks_of(mode);
    if let Some(value) = table.remove("map_file") {
        if !takes_maps {
            return Err(map_setting("map_file"));
        }
        let (_, text) = read_map(&value)?;
        table.insert("map".into(), toml::Value::String(text));
    }
    let mut maps = Vec::new();
    if let Some(value) = table.remove("map_files") {
        if !takes_maps {
            return Err(map_setting("map_files"));
        }
        for item in list("map_files", value)? {
            maps.push(read_map(&item)?);
        }
    }
    let deck_file = table.remove("deck_file");
    let deck_files = table.remove("deck_files");
    let mut json = serde_json::to_value(&table).map_err(|e| e.to_string())?;
    let settings = json.clone();
    let read_deck = |format, value: &toml::Value| -> Result<(String, serde_json::Value), String> {
        let rel = value
            .as_str()
            .ok_or_else(|| "`deck_file` must be a path string".to_owned())?;
        let cards = read_deck(format, &base.join(rel), &settings).map_err(|e| e.to_string())?;
        let cards = serde_json::to_value(cards).map_err(|e| e.to_string())?;
        Ok((value.as_str().unwrap_or_default().to_owned(), cards))
    };
    if let Some(value) = deck_file {
        let Some(format) = decks else {
            return Err(deck_setting("deck_file"));
        };
        json["deck"] = read_deck(format, &value)?.1;
    }
    let mut rotation = Vec::new();
    if let Some(value) = deck_files {
        let Some(format) = decks else {
            return Err(deck_setting("deck_files"));
        };
        for item in list("deck_files", value)? {
            let (name, cards) = read_deck(format, &item)?;
            let mut rules = json.clone();
            rules["deck"] = cards;
            rotation.push((name, rules));
        }
    }
    for (name, text) in maps {
        let mut rules = json.clone();
        rules["map"] = serde_json::Value::String(text);
        rotation.push((name, rules));
    }
    Ok((json, rotation))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_become_paths_stay_inside_their_directory() {
        for bad in [
            "../../x",
            "",
            ".hidden",
            "a/b",
            "a\\b",
            "x\u{1b}",
            &"n".repeat(65),
        ] {
            assert!(check_path_name(bad).is_err(), "{bad:?}");
        }
        for good in ["spring-cup", "cup_2026.v2", "A"] {
            check_path_name(good).unwrap();
        }
        assert_eq!(path_safe_name("gauntlet-../../x"), "gauntlet-.._.._x");
        assert_eq!(path_safe_name(".."), "_.");
        check_path_name(&path_safe_name("../x\u{1b}")).unwrap();
    }

    #[test]
    fn out_of_range_limits_are_named_and_never_wrap() {
        let huge = LimitsConfig {
            memory_mib: Some(1 << 44),
            ..Default::default()
        };
        let (key, message) = huge.check().unwrap_err();
        assert_eq!(key, "memory_mib");
        assert!(message.contains("1..=4096"), "{message}");
        assert_eq!(
            huge.limits().memory_bytes,
            4096 << 20,
            "clamped, not wrapped"
        );
    }
}
