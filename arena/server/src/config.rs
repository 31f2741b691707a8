//! `server.toml`: where the server listens, its database, workers, limits and the ladder's
//! modes. Every field has a default, so `arena serve` runs without a file.

use arena_sdk::Mode;
use arena_tournament::config::LimitsConfig;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

/// The server's configuration.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerConfig {
    /// Address to listen on.
    pub listen: SocketAddr,
    /// The SQLite database file.
    pub db: PathBuf,
    /// Worker threads playing ladder games (and checking uploads).
    pub jobs: usize,
    /// Whether anyone may create an account with `POST /api/users`.
    pub open_registration: bool,
    /// Largest accepted module upload, in bytes.
    pub max_upload_bytes: usize,
    /// Seconds an upload's body may take to arrive (then 408).
    pub upload_timeout_secs: u64,
    /// Largest body of any other request, in bytes.
    pub max_body_bytes: usize,
    /// Seconds the body of any other request may take to arrive (then 408).
    pub body_timeout_secs: u64,
    /// Seconds a connection may take to send a request's headers, counted from when it
    /// connects or its previous answer was sent: an idle or trickling connection is
    /// closed after it.
    pub header_timeout_secs: u64,
    /// Connections served at once. When all are taken an idle one is closed to make room;
    /// when none is idle, more wait to be accepted until one closes.
    pub max_connections: usize,
    /// Connections one caller (client address; an IPv6 address by its /64) may hold at
    /// once: one more is answered 429 and closed.
    pub max_connections_per_client: usize,
    /// Seconds an answer may make no progress (the client reads none of it) before its
    /// connection is closed: a client pipelining requests without reading the answers.
    pub write_timeout_secs: u64,
    /// Uploads per token per hour (accepted or not: every upload costs a check).
    pub uploads_per_hour: usize,
    /// Accounts `POST /api/users` may create per hour per caller (client address; open
    /// registration only): without it one caller could mint tokens to escape the
    /// per-token upload limit.
    pub registrations_per_hour: usize,
    /// Whether the ladder plays games.
    pub ladder: bool,
    /// Whether every built-in of each ladder mode plays on the ladder as a house bot
    /// (`builtin:NAME`): a first upload plays at once, and every bot has yardsticks.
    pub house_bots: bool,
    /// The ladder's seed: game seeds derive from it and the job number.
    pub seed: u64,
    /// Faults that forfeit a ladder game.
    pub max_faults: u32,
    /// Rejected answers that forfeit a ladder game.
    pub max_rejections: u32,
    /// Sandbox limits for every game.
    pub limits: LimitsConfig,
    /// Bytes of rendered game pages kept in memory (rendering one re-simulates its game).
    pub page_cache_bytes: usize,
    /// Compiled ladder bots kept in memory, at most (the least recently played are
    /// dropped, and loaded again from `cache_dir` when their next game comes).
    pub compiled_bots: usize,
    /// The same bound in bytes of compiled code and data (`LoadedBot::compiled_bytes`).
    pub compiled_bytes: usize,
    /// Where compiled modules are cached [default: `<db>.cache/` beside the database].
    pub cache_dir: Option<PathBuf>,
    /// The ladder's modes and their rules; empty means every mode with default rules.
    pub modes: BTreeMap<String, toml::Value>,
    /// Base URL printed by `arena submit` and in API answers [default: from `listen`].
    pub public_url: Option<String>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: PathBuf::from("arena.db"),
            jobs: 2,
            open_registration: false,
            // The sandbox's cap of a component (a Python bot is 18–20 MB); a core module is
            // then held to its own 8 MiB by the check every upload gets.
            max_upload_bytes: 24 << 20,
            max_body_bytes: 256 << 10,
            body_timeout_secs: 30,
            header_timeout_secs: 30,
            max_connections: 256,
            max_connections_per_client: 32,
            write_timeout_secs: 30,
            upload_timeout_secs: 60,
            uploads_per_hour: 30,
            registrations_per_hour: 20,
            ladder: true,
            house_bots: true,
            seed: 2026,
            max_faults: arena_engine::DEFAULT_MAX_FAULTS,
            max_rejections: arena_engine::DEFAULT_MAX_REJECTIONS,
            limits: LimitsConfig::default(),
            page_cache_bytes: 64 << 20,
            compiled_bots: 64,
            compiled_bytes: 256 << 20,
            cache_dir: None,
            modes: BTreeMap::new(),
            public_url: None,
        }
    }
}

/// The longest timeout a configuration may set: a day.
const MAX_TIMEOUT_SECS: u64 = 86_400;

/// A configuration file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {message}")]
pub struct ConfigError {
    file: String,
    message: String,
}

impl ServerConfig {
    /// Read a `server.toml`.
    pub fn load(path: &Path) -> Result<ServerConfig, ConfigError> {
        let fail = |message: String| ConfigError {
            file: path.display().to_string(),
            message,
        };
        let text = std::fs::read_to_string(path).map_err(|e| fail(format!("cannot read: {e}")))?;
        let config: ServerConfig = toml::from_str(&text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
            fail(match line {
                Some(line) => format!("line {line}: {}", e.message()),
                None => e.message().to_owned(),
            })
        })?;
        config.ladder_modes().map_err(fail)?;
        config.check_limits().map_err(fail)?;
        Ok(config)
    }

    /// The connection limits must let a request through, and a timeout must be one a
    /// deadline can be computed from: each timeout 1 second to a day, at least one
    /// connection.
    pub fn check_limits(&self) -> Result<(), String> {
        for (name, secs) in [
            ("body_timeout_secs", self.body_timeout_secs),
            ("header_timeout_secs", self.header_timeout_secs),
            ("upload_timeout_secs", self.upload_timeout_secs),
            ("write_timeout_secs", self.write_timeout_secs),
        ] {
            if !(1..=MAX_TIMEOUT_SECS).contains(&secs) {
                return Err(format!(
                    "`{name}` is {secs}; it must be 1 to {MAX_TIMEOUT_SECS} seconds"
                ));
            }
        }
        if self.max_connections == 0 {
            return Err("`max_connections` must be at least 1".to_owned());
        }
        if self.max_connections_per_client == 0 {
            return Err("`max_connections_per_client` must be at least 1".to_owned());
        }
        Ok(())
    }

    /// The ladder's modes with their rules (JSON form), checked against each mode.
    pub fn ladder_modes(&self) -> Result<Vec<(Mode, serde_json::Value)>, String> {
        if self.modes.is_empty() {
            return Ok(Mode::ALL
                .into_iter()
                .map(|m| (m, serde_json::Value::Null))
                .collect());
        }
        let mut modes = Vec::new();
        for (name, rules) in &self.modes {
            let mode: Mode = name.parse().map_err(|e| format!("[modes.{name}]: {e}"))?;
            let rules = serde_json::to_value(rules).map_err(|e| format!("[modes.{name}]: {e}"))?;
            let rules = match &rules {
                serde_json::Value::Object(map) if map.is_empty() => serde_json::Value::Null,
                _ => rules,
            };
            arena_tournament::game::check_rules(mode, &rules)
                .map_err(|e| format!("[modes.{name}]: {e}"))?;
            modes.push((mode, rules));
        }
        Ok(modes)
    }

    /// The house bots of the ladder's modes: each built-in of a ladder mode with the
    /// ladder modes it plays (a name shared by several modes' built-ins is one bot playing
    /// them all), in name order.
    pub fn house_builtins(modes: &[(Mode, serde_json::Value)]) -> Vec<(&'static str, Vec<Mode>)> {
        let mut house: BTreeMap<&'static str, Vec<Mode>> = BTreeMap::new();
        for builtin in arena_builtins::all() {
            if modes.iter().any(|(m, _)| *m == builtin.mode) {
                house.entry(builtin.name).or_default().push(builtin.mode);
            }
        }
        house.into_iter().collect()
    }

    /// Where compiled modules are cached.
    pub fn cache_dir(&self) -> PathBuf {
        self.cache_dir
            .clone()
            .unwrap_or_else(|| with_suffix(&self.db, ".cache"))
    }

    /// Where tournaments keep their modules and results.
    pub fn data_dir(&self) -> PathBuf {
        with_suffix(&self.db, ".data")
    }
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_ladder_every_mode_and_a_file_can_narrow_them() {
        assert_eq!(
            ServerConfig::default().ladder_modes().unwrap().len(),
            Mode::ALL.len()
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("server.toml");
        std::fs::write(&path, "jobs = 1\n[modes.battle]\nturn_cap = 100\n").unwrap();
        let config = ServerConfig::load(&path).unwrap();
        assert_eq!(config.jobs, 1);
        let modes = config.ladder_modes().unwrap();
        assert_eq!(modes.len(), 1);
        assert_eq!(modes[0].1["turn_cap"], 100);
        std::fs::write(&path, "jobs = 1\nbogus = 2\n").unwrap();
        let error = ServerConfig::load(&path).unwrap_err().to_string();
        assert!(
            error.contains("line 2") && error.contains("bogus"),
            "{error}"
        );
        for (text, words) in [
            (
                "max_connections = 0\n",
                "`max_connections` must be at least 1",
            ),
            (
                "header_timeout_secs = 0\n",
                "`header_timeout_secs` is 0; it must be 1 to 86400 seconds",
            ),
            (
                "max_connections_per_client = 0\n",
                "`max_connections_per_client` must be at least 1",
            ),
            (
                "write_timeout_secs = 0\n",
                "`write_timeout_secs` is 0; it must be 1 to 86400 seconds",
            ),
            (
                "body_timeout_secs = 86401\n",
                "`body_timeout_secs` is 86401",
            ),
            (
                "upload_timeout_secs = 9223372036854775807\n",
                "`upload_timeout_secs` is 9223372036854775807",
            ),
        ] {
            std::fs::write(&path, text).unwrap();
            let error = ServerConfig::load(&path).unwrap_err().to_string();
            assert!(error.contains(words), "{text}: {error}");
        }
        std::fs::write(&path, "[modes.chess]\n").unwrap();
        assert!(
            ServerConfig::load(&path)
                .unwrap_err()
                .to_string()
                .contains("chess")
        );
    }
}
