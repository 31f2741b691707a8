//! One game of any mode between two contestants; replay verification and rendering.
//!
//! Generic over the mode's types; [`for_mode!`](crate::for_mode) (in [`crate::modes`])
//! picks them from a [`Mode`] value.

use crate::bots::Contestant;
use crate::for_mode;
use arena_builtins::Builtins;
use arena_engine::replay::{self, BotInfo, Replay};
use arena_engine::{MatchConfig, NativePlayer, Outcome, Player, Ruleset, run_match};
use arena_sandbox::Sandbox;
use arena_sdk::Mode;

/// A game to play.
#[derive(Debug, Clone)]
pub struct GameSpec {
    /// The mode.
    pub mode: Mode,
    /// The rules configuration (JSON form of the mode's `Rules`; `null` for defaults).
    pub rules: serde_json::Value,
    /// The game seed.
    pub seed: u64,
    /// Faults that forfeit a match.
    pub max_faults: u32,
}

/// A played game.
#[derive(Debug, Clone)]
pub struct GameResult {
    /// Who won, why, statistics.
    pub outcome: Outcome,
    /// The replay as JSON, when asked for.
    pub replay: Option<serde_json::Value>,
}

/// Why a game could not be played at all (a bot's misbehaviour is never one of these).
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// The rules configuration does not fit the mode.
    #[error("rules for mode {mode}: {detail}")]
    Rules {
        /// The mode.
        mode: Mode,
        /// What is wrong.
        detail: String,
    },
    /// A built-in does not exist.
    #[error(transparent)]
    Bot(#[from] crate::bots::BotError),
}

/// Parse and validate a rules configuration for `mode`; `null` means the defaults.
pub fn parse_rules<G: Ruleset>(rules: &serde_json::Value) -> Result<G::Rules, GameError> {
    let fail = |detail: String| GameError::Rules {
        mode: G::MODE,
        detail,
    };
    let parsed: G::Rules = if rules.is_null() {
        G::Rules::default()
    } else {
        serde_path_to_error::deserialize(rules.clone()).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            fail(if path == "." {
                inner.to_string()
            } else {
                format!("{path}: {inner}")
            })
        })?
    };
    G::validate(&parsed).map_err(fail)?;
    Ok(parsed)
}

/// Check a rules configuration without playing.
pub fn check_rules(mode: Mode, rules: &serde_json::Value) -> Result<(), GameError> {
    for_mode!(mode, G => parse_rules::<G>(rules).map(drop))
}

/// Play one game. `contestants[0]` takes seat 0.
pub fn play(
    spec: &GameSpec,
    contestants: [&Contestant; 2],
    names: [&str; 2],
    sandbox: &Sandbox,
    want_replay: bool,
) -> Result<GameResult, GameError> {
    for_mode!(spec.mode, G => play_typed::<G>(spec, contestants, names, sandbox, want_replay))
}

fn player<G: Ruleset + Builtins>(
    contestant: &Contestant,
    sandbox: &Sandbox,
) -> Result<Box<dyn Player<G>>, GameError> {
    contestant.check_mode(G::MODE)?;
    Ok(match contestant {
        Contestant::Builtin(name) => {
            let bot = G::create(name).expect("check_mode found the built-in");
            Box::new(NativePlayer::new(bot))
        }
        Contestant::Wasm(bot) => Box::new(bot.player(sandbox)),
    })
}

fn play_typed<G: Ruleset + Builtins>(
    spec: &GameSpec,
    contestants: [&Contestant; 2],
    names: [&str; 2],
    sandbox: &Sandbox,
    want_replay: bool,
) -> Result<GameResult, GameError> {
    let rules = parse_rules::<G>(&spec.rules)?;
    let mut seat0 = player::<G>(contestants[0], sandbox)?;
    let mut seat1 = player::<G>(contestants[1], sandbox)?;
    let config = MatchConfig {
        rules,
        seed: spec.seed,
        max_faults: spec.max_faults,
    };
    let mut record = run_match(&config, [seat0.as_mut(), seat1.as_mut()]);
    let replay = want_replay.then(|| {
        record.replay.bots = [0, 1].map(|seat| BotInfo {
            name: names[seat].to_owned(),
            sha256: contestants[seat].sha256().map(str::to_owned),
        });
        serde_json::to_value(&record.replay).expect("replays serialize")
    });
    Ok(GameResult {
        outcome: record.outcome,
        replay,
    })
}

/// A replay file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// Not JSON, not a replay, or an unknown mode.
    #[error("not a readable replay: {0}")]
    Format(String),
    /// Re-simulation differs.
    #[error("replay does not verify: {0}")]
    Mismatch(String),
}

fn parse_replay<G: Ruleset>(json: &serde_json::Value) -> Result<Replay<G>, ReplayError> {
    serde_json::from_value(json.clone()).map_err(|e| ReplayError::Format(e.to_string()))
}

fn mode_of(json: &serde_json::Value) -> Result<Mode, ReplayError> {
    let mode = json
        .get("mode")
        .and_then(|m| m.as_str())
        .ok_or_else(|| ReplayError::Format("no `mode` field".into()))?;
    mode.parse().map_err(ReplayError::Format)
}

/// Re-simulate a replay and check it reproduces every event and the outcome.
pub fn verify_replay(json: &serde_json::Value) -> Result<Outcome, ReplayError> {
    for_mode!(mode_of(json)?, G => {
        let replay = parse_replay::<G>(json)?;
        replay::verify(&replay).map_err(ReplayError::Mismatch)?;
        Ok(replay.outcome)
    })
}

/// Render a replay as text: a header, then every event (and, with `pictures`, the state
/// before each decision where the mode draws one). The replay must verify first.
pub fn render_replay(json: &serde_json::Value, pictures: bool) -> Result<Vec<String>, ReplayError> {
    for_mode!(mode_of(json)?, G => {
        let replay = parse_replay::<G>(json)?;
        // Only a replay the engine reproduces is drawn: its events are then the engine's
        // own, so a hand-edited file cannot make the renderer index past a board or a seat.
        replay::verify(&replay).map_err(ReplayError::Mismatch)?;
        Ok(render::<G>(&replay, pictures))
    })
}

fn render<G: Ruleset>(replay: &Replay<G>, pictures: bool) -> Vec<String> {
    use arena_engine::replay::Entry;
    let mut frames = vec![format!(
        "{} — {} (seat 0) vs {} (seat 1), seed {}",
        replay.mode, replay.bots[0].name, replay.bots[1].name, replay.seed
    )];
    let mut events = Vec::new();
    for entry in &replay.log {
        match entry {
            Entry::Event { event } => {
                frames.push(G::describe(event));
                events.push(event.clone());
            }
            Entry::Rejected { seat, turn, reason } => {
                frames.push(format!(
                    "turn {turn}: seat {seat}'s answer rejected: {reason}"
                ));
            }
            Entry::Answer {
                seat,
                turn,
                answer,
                log,
                ..
            } => {
                if let arena_engine::Answer::Fault(fault) = answer {
                    frames.push(format!("turn {turn}: seat {seat} faulted: {fault}"));
                }
                if let Some(log) = log {
                    frames.push(format!("turn {turn}: seat {seat} logs: {log}"));
                }
                if pictures
                    && let Some(picture) =
                        replay.initial.as_ref().and_then(|i| G::picture(i, &events))
                {
                    frames.push(picture);
                }
            }
        }
    }
    let outcome = &replay.outcome;
    frames.push(match outcome.winner {
        Some(seat) => format!(
            "winner: seat {seat} ({}) — {}",
            replay.bots[usize::from(seat)].name,
            outcome.reason
        ),
        None => format!("draw — {}", outcome.reason),
    });
    frames
}
