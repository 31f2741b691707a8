//! Tournament files (TOML; docs/tournaments.md): parsed into a validated [`Tournament`].
//! Errors name the file, the line and what to fix.

use crate::bots::BotSpec;
use crate::game;
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

/// Sandbox limits a tournament sets for its wasm bots (unset: the arena's defaults).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsConfig {
    /// Fuel per turn.
    pub fuel_per_turn: Option<u64>,
    /// Fuel for instantiation + start, and for setup.
    pub fuel_per_setup: Option<u64>,
    /// Memory per bot in MiB.
    pub memory_mib: Option<usize>,
}

impl LimitsConfig {
    /// These limits applied over the defaults.
    pub fn limits(&self) -> arena_sandbox::Limits {
        let mut limits = arena_sandbox::Limits::default();
        if let Some(fuel) = self.fuel_per_turn {
            limits.fuel_per_turn = fuel;
        }
        if let Some(fuel) = self.fuel_per_setup {
            limits.fuel_per_setup = fuel;
        }
        if let Some(mib) = self.memory_mib {
            limits.memory_bytes = mib << 20;
        }
        limits
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    name: String,
    seed: u64,
    #[serde(default = "default_format")]
    format: Format,
    #[serde(default)]
    challengers: Vec<Spanned<String>>,
    #[serde(default = "default_games")]
    games_per_pairing: Spanned<u32>,
    #[serde(default)]
    concurrency: Option<usize>,
    #[serde(default = "default_max_faults")]
    max_faults: u32,
    #[serde(default)]
    limits: LimitsConfig,
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
}

fn default_format() -> Format {
    Format::RoundRobin
}
fn default_games() -> Spanned<u32> {
    Spanned::new(0..0, 2)
}
fn default_max_faults() -> u32 {
    3
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
    /// Sandbox limits.
    pub limits: LimitsConfig,
    /// The modes, with their rules configurations in JSON form, in mode order.
    pub modes: Vec<(Mode, serde_json::Value)>,
    /// The bots, in file order.
    pub bots: Vec<BotEntry>,
}

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

        let games = raw.games_per_pairing.get_ref();
        if *games == 0 || !games.is_multiple_of(2) {
            return Err(fail(
                Some(raw.games_per_pairing.span()),
                format!(
                    "games_per_pairing is {games}; it must be a positive even number (each seed is played from both seats)"
                ),
            ));
        }
        let mut modes = Vec::new();
        // Tables keep no position in toml's data model; find the header in the text.
        let header_span = |name: &str| {
            let header = format!("[modes.{name}]");
            text.find(&header).map(|start| start..start + header.len())
        };
        for (name, table) in raw.modes {
            let mode: Mode = name
                .parse()
                .map_err(|e| fail(header_span(&name), format!("[modes.{name}]: {e}")))?;
            let rules = resolve_rules(mode, table, &base)
                .and_then(|rules| {
                    game::check_rules(mode, &rules)
                        .map(|()| rules)
                        .map_err(|e| e.to_string())
                })
                .map_err(|e| fail(header_span(&name), e))?;
            modes.push((mode, rules));
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
                    game::builtins_of(mode).iter().any(|b| b.name == builtin)
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
            bots.push(BotEntry {
                name,
                spec,
                modes: bot_modes,
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
        Ok(Tournament {
            name: raw.name,
            seed: raw.seed,
            format: raw.format,
            challengers,
            games_per_pairing: *games,
            concurrency: raw.concurrency,
            max_faults: raw.max_faults,
            limits: raw.limits,
            modes,
            bots,
        })
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
        return Err(format!(
            "`{text}` is a directory without Cargo.toml, not a bot crate"
        ));
    }
    match path.extension().and_then(|e| e.to_str()) {
        Some("wasm" | "wat") if path.is_file() => Ok(BotSpec::Module(path)),
        Some("wasm" | "wat") => Err(format!("bot file `{}` does not exist", path.display())),
        _ => Err(format!(
            "`{text}` is not a bot: use builtin:NAME, a .wasm/.wat file, or a bot crate directory"
        )),
    }
}

/// Mode-specific conveniences in a rules table: `map_file` (grid, conquest) and `deck_file` (tcg)
/// are read relative to the tournament file and replaced by their contents.
fn resolve_rules(
    mode: Mode,
    mut table: toml::Table,
    base: &Path,
) -> Result<serde_json::Value, String> {
    let read = |key: &str, value: &toml::Value| -> Result<(PathBuf, String), String> {
        let rel = value
            .as_str()
            .ok_or_else(|| format!("`{key}` must be a path string"))?;
        let path = base.join(rel);
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{key} {}: {e}", path.display()))?;
        Ok((path, text))
    };
    if let Some(value) = table.remove("map_file") {
        if !matches!(mode, Mode::Grid | Mode::Conquest) {
            return Err("`map_file` is a grid and conquest setting".into());
        }
        let (path, text) = read("map_file", &value)?;
        let limits = serde_json::to_value(&table).map_err(|e| e.to_string())?;
        crate::game::check_map(mode, &text, &limits)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        table.insert("map".into(), toml::Value::String(text));
    }
    let deck_file = table.remove("deck_file");
    let mut json = serde_json::to_value(&table).map_err(|e| e.to_string())?;
    if let Some(value) = deck_file {
        if mode != Mode::Tcg {
            return Err("`deck_file` is a tcg setting".into());
        }
        let (path, text) = read("deck_file", &value)?;
        let rules: arena_sdk::tcg::Rules =
            serde_json::from_value(json.clone()).map_err(|e| e.to_string())?;
        let deck = arena_sdk::tcg::parse_deck(&text, &rules.card_pool())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        json["deck"] = serde_json::to_value(deck.cards).map_err(|e| e.to_string())?;
    }
    Ok(json)
}
