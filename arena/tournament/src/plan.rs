//! The plan: a pure function from a tournament to a numbered list of games.
//!
//! For every mode and every pairing that the format schedules, `games_per_pairing` games
//! are planned as pairs: games `2p` and `2p + 1` use the same seed with the seats swapped,
//! so neither bot profits from seat 0. Game seeds derive from (tournament seed, the pair's
//! first game index). Shards take whole pairs.

use crate::config::{Format, Tournament};
use arena_engine::{ENGINE_VERSION, derive_seed};
use arena_sdk::Mode;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// One planned game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedGame {
    /// The game index (0-based, dense).
    pub game: u32,
    /// The mode.
    pub mode: Mode,
    /// Bot indices (into [`Tournament::bots`]) in seat order.
    pub seats: [usize; 2],
    /// The game seed.
    pub seed: u64,
    /// Which entry of the mode's rotation (maps, decks) it plays: pair `k` of a pairing
    /// plays entry `k mod len` ([`Tournament::rules_for`]); 0 without a rotation.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub variant: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl PlannedGame {
    /// The pair this game belongs to (games 2p and 2p+1).
    pub fn pair(&self) -> u32 {
        self.game / 2
    }
}

/// A tournament's games plus the fingerprint that identifies them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// SHA-256 (hex) over everything that decides the games' results: engine version,
    /// seeds, modes with rules, bots (specs and modes), format, limits, fault policy.
    pub fingerprint: String,
    /// Every game, by index.
    pub games: Vec<PlannedGame>,
}

/// Plan a tournament.
pub fn plan(tournament: &Tournament) -> Plan {
    let mut games = Vec::new();
    for (mode, _) in &tournament.modes {
        let playing: Vec<usize> = (0..tournament.bots.len())
            .filter(|&b| tournament.bots[b].modes.contains(mode))
            .collect();
        let is_challenger = |b: usize| tournament.challengers.contains(&tournament.bots[b].name);
        for (i, &a) in playing.iter().enumerate() {
            for &b in &playing[i + 1..] {
                if tournament.format == Format::Gauntlet && !is_challenger(a) && !is_challenger(b) {
                    continue;
                }
                let rotation = tournament.rotations.get(mode).map_or(1, Vec::len) as u32;
                for k in 0..tournament.games_per_pairing / 2 {
                    let first = games.len() as u32;
                    let seed = derive_seed(tournament.seed, u64::from(first));
                    let variant = k % rotation;
                    games.push(PlannedGame {
                        game: first,
                        mode: *mode,
                        seats: [a, b],
                        seed,
                        variant,
                    });
                    games.push(PlannedGame {
                        game: first + 1,
                        mode: *mode,
                        seats: [b, a],
                        seed,
                        variant,
                    });
                }
            }
        }
    }
    Plan {
        fingerprint: fingerprint(tournament),
        games,
    }
}

fn fingerprint(tournament: &Tournament) -> String {
    let mut identity = serde_json::json!({
        "engine": ENGINE_VERSION,
        "seed": tournament.seed,
        "format": tournament.format,
        "challengers": tournament.challengers,
        "games_per_pairing": tournament.games_per_pairing,
        "max_faults": tournament.max_faults,
        "max_rejections": tournament.max_rejections,
        "limits": tournament.limits,
        "modes": tournament.modes,
        "bots": tournament.bots.iter().map(|b| {
            let mut bot = serde_json::json!({
                "name": b.name,
                "spec": identity_of(&b.spec),
                "modes": b.modes,
            });
            // Only when there is one, so the fingerprints of existing results stay valid.
            if let Some(deck) = &b.deck {
                bot["deck"] = serde_json::json!(deck);
            }
            bot
        }).collect::<Vec<_>>(),
    });
    // Only when there is one, so the fingerprints of existing results stay valid.
    if !tournament.rotations.is_empty() {
        identity["rotations"] = serde_json::json!(tournament.rotations);
    }
    hex::encode(Sha256::digest(identity.to_string().as_bytes()))
}

/// A bot's identity for the fingerprint: module files by content, crates, Go, Python and JavaScript bots and
/// built-ins by name (a crate's build differs between machines only in embedded paths).
fn identity_of(spec: &crate::bots::BotSpec) -> String {
    match spec {
        crate::bots::BotSpec::Module(path) => match std::fs::read(path) {
            Ok(bytes) => format!("sha256:{}", hex::encode(Sha256::digest(&bytes))),
            Err(_) => spec.to_string(),
        },
        crate::bots::BotSpec::Go(path) => {
            format!(
                "go:{}",
                path.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            )
        }
        crate::bots::BotSpec::Python(path) => {
            format!(
                "python:{}",
                path.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            )
        }
        crate::bots::BotSpec::JavaScript(path) => {
            format!(
                "javascript:{}",
                path.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            )
        }
        crate::bots::BotSpec::Crate(path) => {
            format!(
                "crate:{}",
                path.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            )
        }
        crate::bots::BotSpec::Builtin(name) => format!("builtin:{name}"),
    }
}

/// Which shard of how many: shard `index` of `count` (0-based) plays the pairs whose
/// index is `index` modulo `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, 0-based.
    pub index: u32,
    /// Number of shards.
    pub count: u32,
}

impl Shard {
    /// Whether `game` belongs to this shard.
    pub fn contains(&self, game: &PlannedGame) -> bool {
        game.pair() % self.count == self.index
    }

    /// Parse `K/N` (0-based K), or `N` alone with K taken from the environment:
    /// `JOB_COMPLETION_INDEX` (Kubernetes Indexed Jobs) or `SLURM_ARRAY_TASK_ID` minus
    /// `SLURM_ARRAY_TASK_MIN` (Slurm arrays).
    pub fn parse(text: &str, env: impl Fn(&str) -> Option<String>) -> Result<Shard, String> {
        let (index, count) = match text.split_once('/') {
            Some((k, n)) => (
                k.trim()
                    .parse::<u32>()
                    .map_err(|_| format!("shard `{text}`: `{k}` is not a number"))?,
                n.trim()
                    .parse::<u32>()
                    .map_err(|_| format!("shard `{text}`: `{n}` is not a number"))?,
            ),
            None => {
                let count = text
                    .trim()
                    .parse::<u32>()
                    .map_err(|_| format!("shard `{text}`: expected K/N or N"))?;
                let index = Shard::index_from_env(&env).ok_or_else(|| {
                    format!("shard `{text}`: no shard index; give K/N, or set JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID")
                })??;
                (index, count)
            }
        };
        if count == 0 || index >= count {
            return Err(format!(
                "shard {index}/{count}: the index must be below the count (0-based)"
            ));
        }
        Ok(Shard { index, count })
    }

    /// The shard from the environment alone: Slurm arrays give both index and count.
    pub fn from_env(env: impl Fn(&str) -> Option<String>) -> Result<Option<Shard>, String> {
        let Some(count) = env("SLURM_ARRAY_TASK_COUNT") else {
            return Ok(None);
        };
        let count: u32 = count
            .parse()
            .map_err(|_| format!("SLURM_ARRAY_TASK_COUNT=`{count}` is not a number"))?;
        let index =
            Shard::index_from_env(&env).expect("Slurm sets SLURM_ARRAY_TASK_ID with the count")?;
        Shard::parse(&format!("{index}/{count}"), env).map(Some)
    }

    fn index_from_env(env: &impl Fn(&str) -> Option<String>) -> Option<Result<u32, String>> {
        let number = |var: &str, value: String| {
            value
                .parse::<u32>()
                .map_err(|_| format!("{var}=`{value}` is not a number"))
        };
        if let Some(value) = env("JOB_COMPLETION_INDEX") {
            return Some(number("JOB_COMPLETION_INDEX", value));
        }
        let id = env("SLURM_ARRAY_TASK_ID")?;
        let min = env("SLURM_ARRAY_TASK_MIN").unwrap_or_else(|| "0".into());
        Some(number("SLURM_ARRAY_TASK_ID", id).and_then(|id| {
            number("SLURM_ARRAY_TASK_MIN", min).and_then(|min| {
                id.checked_sub(min)
                    .ok_or_else(|| "SLURM_ARRAY_TASK_ID is below SLURM_ARRAY_TASK_MIN".into())
            })
        }))
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn shards_parse_from_flags_and_environment() {
        assert_eq!(
            Shard::parse("1/3", env(&[])),
            Ok(Shard { index: 1, count: 3 })
        );
        assert_eq!(
            Shard::parse("3", env(&[("JOB_COMPLETION_INDEX", "2")])),
            Ok(Shard { index: 2, count: 3 })
        );
        assert_eq!(
            Shard::parse(
                "4",
                env(&[("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_MIN", "1")])
            ),
            Ok(Shard { index: 2, count: 4 })
        );
        assert!(
            Shard::parse("3/3", env(&[]))
                .unwrap_err()
                .contains("below the count")
        );
        assert!(
            Shard::parse("3", env(&[]))
                .unwrap_err()
                .contains("JOB_COMPLETION_INDEX")
        );
        assert_eq!(
            Shard::from_env(env(&[
                ("SLURM_ARRAY_TASK_COUNT", "5"),
                ("SLURM_ARRAY_TASK_ID", "4")
            ])),
            Ok(Some(Shard { index: 4, count: 5 }))
        );
        assert_eq!(Shard::from_env(env(&[])), Ok(None));
    }

    #[test]
    fn a_shard_takes_whole_pairs() {
        let games: Vec<PlannedGame> = (0..12)
            .map(|game| PlannedGame {
                game,
                mode: Mode::Battle,
                seats: [0, 1],
                seed: 0,
                variant: 0,
            })
            .collect();
        let shard = Shard { index: 1, count: 3 };
        let mine: Vec<u32> = games
            .iter()
            .filter(|g| shard.contains(g))
            .map(|g| g.game)
            .collect();
        assert_eq!(mine, vec![2, 3, 8, 9]);
    }
}
