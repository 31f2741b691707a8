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

/// Which map format `text` is in when no mode is given: a `conquest` map's first line is
/// `Frame: WxH`, anything else is read as a `grid` map.
pub fn map_mode(text: &str) -> Mode {
    let first = text
        .lines()
        .map(|l| l.split(';').next().unwrap_or("").trim())
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if first.starts_with("Frame") {
        Mode::Conquest
    } else {
        Mode::Grid
    }
}

/// A checked map: its size and a picture of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapSummary {
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// The map drawn for the terminal (grid: its text; conquest: the original game's
    /// battlefield).
    pub picture: String,
}

/// Check a map file's text for `mode`; `rules` (JSON, may be `null`) supplies limits such as
/// conquest's `max_frame`. The error names the line (and column) and the problem.
pub fn check_map(mode: Mode, text: &str, rules: &serde_json::Value) -> Result<MapSummary, String> {
    match mode {
        Mode::Grid => arena_engine::grid::parse_map(text)
            .map(|m| MapSummary {
                width: m.width,
                height: m.height,
                picture: text.to_owned(),
            })
            .map_err(|e| e.to_string()),
        Mode::Conquest => {
            use arena_sdk::conquest::{DOCUMENT_MAX_FRAME, LARGEST_FRAME};
            let max_frame = rules
                .get("max_frame")
                .and_then(serde_json::Value::as_u64)
                .map_or(DOCUMENT_MAX_FRAME, |v| {
                    u8::try_from(v.min(u64::from(LARGEST_FRAME))).unwrap_or(LARGEST_FRAME)
                });
            let map =
                arena_engine::conquest::parse_map(text, max_frame).map_err(|e| e.to_string())?;
            let initial = arena_engine::conquest::Setup {
                map: map.clone(),
                max_years: 1,
            }
            .initial();
            let state = arena_engine::conquest::State::new(&initial);
            Ok(MapSummary {
                width: map.width,
                height: map.height,
                picture: arena_engine::conquest::view::battlefield(state.board()),
            })
        }
        other => Err(format!(
            "mode {other} has no map files (grid and conquest do)"
        )),
    }
}

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
    let [a, b] = contestants;
    play_seats_keeping::<G>(
        spec,
        [Seat::Contestant(a), Seat::Contestant(b)],
        names,
        sandbox,
        want_replay,
    )
}

/// Who takes a seat in [`play_seats`]: a contestant, or a player the caller built itself
/// (the CLI's person at the terminal), which answers through the same [`Player`] path.
pub enum Seat<'a, G: Ruleset> {
    /// A built-in or a wasm bot.
    Contestant(&'a Contestant),
    /// Any other player; it has no module, so no hash in the replay.
    Player(Box<dyn Player<G> + 'a>),
}

impl<G: Ruleset> std::fmt::Debug for Seat<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Seat::Contestant(c) => f.debug_tuple("Contestant").field(c).finish(),
            Seat::Player(_) => f.write_str("Player"),
        }
    }
}

/// Play one game of mode `G` with the given seats; the replay is always kept.
pub fn play_seats<G: Ruleset + Builtins>(
    spec: &GameSpec,
    seats: [Seat<'_, G>; 2],
    names: [&str; 2],
    sandbox: &Sandbox,
) -> Result<GameResult, GameError> {
    play_seats_keeping(spec, seats, names, sandbox, true)
}

/// [`play_seats`], turning the replay into JSON only when it is wanted: a tournament
/// without `--replays` would otherwise build and drop a JSON tree per game.
fn play_seats_keeping<G: Ruleset + Builtins>(
    spec: &GameSpec,
    seats: [Seat<'_, G>; 2],
    names: [&str; 2],
    sandbox: &Sandbox,
    want_replay: bool,
) -> Result<GameResult, GameError> {
    let rules = parse_rules::<G>(&spec.rules)?;
    let [seat0, seat1] = seats;
    let (mut seat0, sha0) = seat_player(seat0, sandbox)?;
    let (mut seat1, sha1) = seat_player(seat1, sandbox)?;
    let config = MatchConfig {
        rules,
        seed: spec.seed,
        max_faults: spec.max_faults,
    };
    let mut record = run_match(&config, [seat0.as_mut(), seat1.as_mut()]);
    for (seat, sha256) in [sha0, sha1].into_iter().enumerate() {
        record.replay.bots[seat] = BotInfo {
            name: names[seat].to_owned(),
            sha256,
        };
    }
    let replay =
        want_replay.then(|| serde_json::to_value(&record.replay).expect("replays serialize"));
    Ok(GameResult {
        outcome: record.outcome,
        replay,
    })
}

type BoxedPlayer<'a, G> = Box<dyn Player<G> + 'a>;

/// The player of a seat, and its module's hash.
fn seat_player<'a, G: Ruleset + Builtins>(
    seat: Seat<'a, G>,
    sandbox: &Sandbox,
) -> Result<(BoxedPlayer<'a, G>, Option<String>), GameError> {
    Ok(match seat {
        Seat::Contestant(contestant) => (
            player::<G>(contestant, sandbox)?,
            contestant.sha256().map(str::to_owned),
        ),
        Seat::Player(player) => (player, None),
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

/// What [`verify_replay`] re-simulated and found identical, and what the file says about
/// who and what played it (which re-simulation cannot check: see [`Verified::bots`]).
#[derive(Debug, Clone)]
pub struct Verified {
    /// The mode.
    pub mode: Mode,
    /// The match seed.
    pub seed: u64,
    /// The replay format version.
    pub version: u32,
    /// The engine version written in the file.
    pub engine_version: String,
    /// The bots written in the file.
    pub bots: [BotInfo; 2],
    /// Whether the file holds an initial state (it was compared).
    pub initial: bool,
    /// Log entries compared: all of them, and by kind.
    pub entries: usize,
    /// Bot answers (and faults) among them, fed back to the engine in place of the bots.
    pub answers: usize,
    /// Rejections among them.
    pub rejections: usize,
    /// Game events among them.
    pub events: usize,
    /// The outcome, compared whole except for fuel.
    pub outcome: Outcome,
}

/// Re-simulate a replay and check it reproduces every event and the outcome.
pub fn verify_replay(json: &serde_json::Value) -> Result<Verified, ReplayError> {
    use arena_engine::replay::Entry;
    for_mode!(mode_of(json)?, G => {
        let replay = parse_replay::<G>(json)?;
        replay::verify(&replay).map_err(ReplayError::Mismatch)?;
        let count = |pick: fn(&Entry<G>) -> bool| replay.log.iter().filter(|e| pick(e)).count();
        Ok(Verified {
            mode: replay.mode,
            seed: replay.seed,
            version: replay.version,
            engine_version: replay.engine_version.clone(),
            bots: replay.bots.clone(),
            initial: replay.initial.is_some(),
            entries: replay.log.len(),
            answers: count(|e| matches!(e, Entry::Answer { .. })),
            rejections: count(|e| matches!(e, Entry::Rejected { .. })),
            events: count(|e| matches!(e, Entry::Event { .. })),
            outcome: replay.outcome,
        })
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
    let mut last_picture: Option<String> = None;
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
                // The start and setup answers come before any event: drawing after each
                // would repeat the first picture. A picture is drawn when the state changed.
                if pictures
                    && let Some(picture) =
                        replay.initial.as_ref().and_then(|i| G::picture(i, &events))
                    && last_picture.as_ref() != Some(&picture)
                {
                    frames.push(picture.clone());
                    last_picture = Some(picture);
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
