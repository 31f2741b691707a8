//! Replays (docs/replay.md): a self-contained, versioned JSON record of a match that
//! [`verify`] re-simulates from the recorded answers alone.

use crate::player::{Answer, ScriptedPlayer};
use crate::{MatchConfig, Player, Ruleset, Stats, run_match};
use arena_sdk::{Mode, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The `format` field of every replay.
pub const REPLAY_FORMAT: &str = "bot-arena-replay";
/// The replay format version this engine writes and reads.
pub const REPLAY_VERSION: u32 = 2;

/// Who played a seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotInfo {
    /// The bot's name (file stem or `builtin:NAME`).
    pub name: String,
    /// SHA-256 of the bot's module file, for wasm bots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

impl BotInfo {
    pub(crate) fn unnamed(seat: Seat) -> Self {
        BotInfo {
            name: format!("seat {seat}"),
            sha256: None,
        }
    }
}

/// How a match ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning seat; `None` is a draw.
    pub winner: Option<Seat>,
    /// Why the match ended.
    pub reason: String,
    /// The turn counter when the match ended (unit turns, card turns, hero turns …).
    pub turns: u32,
    /// Per seat.
    pub seats: [SeatOutcome; 2],
}

/// One seat's part of an [`Outcome`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatOutcome {
    /// The mode's statistics (kills, damage_dealt, …).
    pub stats: Stats,
    /// Faults (timeouts, traps, bad responses …).
    pub faults: u32,
    /// Faults by kind.
    pub fault_kinds: BTreeMap<String, u32>,
    /// Answers the rules rejected (replaced by the documented default).
    pub invalid_actions: u32,
    /// Fuel used over the match (0 for built-ins).
    pub fuel: u64,
    /// Whether the seat forfeited: its faults or rejected answers reached the limit, or its
    /// player quit.
    pub forfeited: bool,
}

/// One line of a replay's log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", bound = "")]
pub enum Entry<G: Ruleset> {
    /// A request to a bot and its answer (or fault).
    Answer {
        /// Who was asked.
        seat: Seat,
        /// The turn counter when asked.
        turn: u32,
        /// The answer.
        answer: Answer<G>,
        /// Fuel the call used.
        #[serde(default)]
        fuel: u64,
        /// What the bot logged during the call.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        log: Option<String>,
        /// The legal choices the request offered ([`Ruleset::Offer`]), where the mode
        /// records them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        offered: Option<G::Offer>,
    },
    /// The rules rejected an answer; the default was applied instead.
    Rejected {
        /// Whose answer.
        seat: Seat,
        /// The turn counter.
        turn: u32,
        /// Why.
        reason: String,
    },
    /// Something happened in the game.
    Event {
        /// The mode's event.
        event: G::Event,
    },
}

/// A whole match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Replay<G: Ruleset> {
    /// Always [`REPLAY_FORMAT`].
    pub format: String,
    /// [`REPLAY_VERSION`] when written.
    pub version: u32,
    /// The engine that played it.
    pub engine_version: String,
    /// The mode.
    pub mode: Mode,
    /// The rules in force.
    pub rules: G::Rules,
    /// The rule tables beyond the rules config ([`Ruleset::tables`]); absent when `null`.
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub tables: serde_json::Value,
    /// The match seed.
    pub seed: u64,
    /// Faults that forfeit a match.
    pub max_faults: u32,
    /// Rejected answers that forfeit a match; absent (no limit) in replays written before
    /// rejections could forfeit.
    #[serde(default = "no_rejection_limit")]
    pub max_rejections: u32,
    /// Who played each seat.
    pub bots: [BotInfo; 2],
    /// The full initial state.
    pub initial: Option<G::Initial>,
    /// Every answer, rejection and event, in order.
    pub log: Vec<Entry<G>>,
    /// How it ended.
    pub outcome: Outcome,
}

impl<G: Ruleset> Replay<G> {
    /// The mode's events, in order.
    pub fn events(&self) -> impl Iterator<Item = &G::Event> {
        self.log.iter().filter_map(|entry| match entry {
            Entry::Event { event } => Some(event),
            _ => None,
        })
    }
}

fn no_rejection_limit() -> u32 {
    u32::MAX
}

/// A player giving the answers `seat` gave in `replay`, in order.
fn scripted<G: Ruleset>(replay: &Replay<G>, seat: Seat) -> ScriptedPlayer<G> {
    ScriptedPlayer::new(replay.log.iter().filter_map(|entry| match entry {
        Entry::Answer {
            seat: s, answer, ..
        } if *s == seat => Some(answer.clone()),
        _ => None,
    }))
}

/// The match configuration `replay` was played under.
fn replay_config<G: Ruleset>(replay: &Replay<G>) -> MatchConfig<G> {
    MatchConfig {
        rules: replay.rules.clone(),
        seed: replay.seed,
        max_faults: replay.max_faults,
        max_rejections: replay.max_rejections,
    }
}

/// Every request seat `seat`'s bot was sent in `replay` (`start`, `setup`, each `turn`,
/// `end`), in order, each as the JSON text a bot speaking JSON got (docs/abi.md): the
/// game re-simulated from its recorded answers, as [`verify`] does (verify it first: a
/// replay that does not re-simulate gives the requests of the game its answers make).
pub fn requests<G: Ruleset>(replay: &Replay<G>, seat: Seat) -> Vec<String> {
    use arena_sdk::protocol::RequestRef;

    /// Seat `seat`'s scripted player, keeping each request it is sent.
    struct Recorder<G: Ruleset> {
        inner: ScriptedPlayer<G>,
        sent: Vec<String>,
    }
    impl<G: Ruleset> Recorder<G> {
        fn keep(&mut self, request: RequestRef<'_, G>) {
            self.sent
                .push(serde_json::to_string(&request).expect("requests encode as JSON"));
        }
    }
    impl<G: Ruleset> Player<G> for Recorder<G> {
        fn start(&mut self, start: &arena_sdk::MatchStart<G>) -> Result<(), crate::Fault> {
            self.keep(RequestRef::Start(start));
            self.inner.start(start)
        }
        fn setup(&mut self, request: &G::SetupRequest) -> Result<G::SetupChoice, crate::Fault> {
            self.keep(RequestRef::<G>::Setup(request));
            self.inner.setup(request)
        }
        fn act(&mut self, observation: &G::Observation) -> Result<G::Action, crate::Fault> {
            self.keep(RequestRef::<G>::Turn(observation));
            self.inner.act(observation)
        }
        fn end(&mut self, end: &arena_sdk::MatchEnd) {
            self.keep(RequestRef::<G>::End(end));
            self.inner.end(end);
        }
    }

    let mut recorder = Recorder {
        inner: scripted(replay, seat),
        sent: Vec::new(),
    };
    let mut other = scripted(replay, 1 - seat);
    let config = replay_config(replay);
    let players: [&mut dyn Player<G>; 2] = if seat == 0 {
        [&mut recorder, &mut other]
    } else {
        [&mut other, &mut recorder]
    };
    run_match(&config, players);
    recorder.sent
}

/// Re-simulate `replay` from its recorded answers and check that every event and the
/// outcome come out identical. The error says where the first difference is.
pub fn verify<G: Ruleset>(replay: &Replay<G>) -> Result<(), String> {
    if replay.format != REPLAY_FORMAT {
        return Err(format!("not a replay: format is `{}`", replay.format));
    }
    if replay.version != REPLAY_VERSION {
        return Err(version_problem(replay.version));
    }
    G::validate(&replay.rules)
        .map_err(|problem| format!("the replay's rules are invalid: {problem}"))?;
    let tables = G::tables(&replay.rules);
    if let Some(difference) = first_difference("tables", &replay.tables, &tables) {
        return Err(format!(
            "the replay's rule tables differ from this engine's ({difference}): the replay \
             was played under a different rules table"
        ));
    }
    let mut seat0 = scripted(replay, 0);
    let mut seat1 = scripted(replay, 1);
    let config = replay_config(replay);
    let players: [&mut dyn Player<G>; 2] = [&mut seat0, &mut seat1];
    let fresh = run_match(&config, players).replay;

    if fresh.initial != replay.initial {
        return Err("the initial state differs".to_owned());
    }
    let strip = |log: &[Entry<G>]| -> Vec<Entry<G>> {
        log.iter()
            .cloned()
            .map(|entry| match entry {
                Entry::Answer {
                    seat,
                    turn,
                    answer,
                    offered,
                    ..
                } => Entry::Answer {
                    seat,
                    turn,
                    answer,
                    fuel: 0,
                    log: None,
                    offered,
                },
                other => other,
            })
            .collect()
    };
    let (old, new) = (strip(&replay.log), strip(&fresh.log));
    if let Some(idx) = (0..old.len().max(new.len())).find(|&i| old.get(i) != new.get(i)) {
        return Err(format!(
            "log entry {idx} differs: recorded {:?}, re-simulated {:?}",
            old.get(idx),
            new.get(idx)
        ));
    }
    let mut recorded = replay.outcome.clone();
    let mut simulated = fresh.outcome;
    for seats in [&mut recorded.seats, &mut simulated.seats] {
        for seat in seats.iter_mut() {
            seat.fuel = 0;
        }
    }
    if recorded != simulated {
        return Err(format!(
            "the outcome differs: recorded {recorded:?}, re-simulated {simulated:?}"
        ));
    }
    Ok(())
}

/// Why a replay of format `version` cannot be verified, and what to do about it.
pub fn version_problem(version: u32) -> String {
    if version < REPLAY_VERSION {
        format!(
            "replay format version {version} is older than this arena's ({REPLAY_VERSION}): it \
             lacks the rolls, rule tables and offered choices this arena records and checks, \
             so it cannot be re-simulated here; play the match again with this arena (same \
             rules, seed and bots) for a version {REPLAY_VERSION} replay, or verify it with \
             the arena release that wrote it"
        )
    } else {
        format!(
            "replay format version {version} is newer than this arena's ({REPLAY_VERSION}): \
             verify it with the arena release that wrote it"
        )
    }
}

/// The first place where two JSON documents differ, as `path: the file has A, this engine
/// B`; `None` when they are equal.
fn first_difference(
    path: &str,
    file: &serde_json::Value,
    engine: &serde_json::Value,
) -> Option<String> {
    use serde_json::Value;
    match (file, engine) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            keys.into_iter().find_map(|key| {
                let (x, y) = (
                    a.get(key).unwrap_or(&Value::Null),
                    b.get(key).unwrap_or(&Value::Null),
                );
                first_difference(&format!("{path}.{key}"), x, y)
            })
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (x, y))| first_difference(&format!("{path}[{i}]"), x, y)),
        _ if file == engine => None,
        _ => Some(format!(
            "{path}: the file has {}, this engine {}",
            abbreviated(file),
            abbreviated(engine)
        )),
    }
}

/// A JSON value for a message: whole when short, else its start and `…`.
fn abbreviated(value: &serde_json::Value) -> String {
    const MAX: usize = 60;
    let text = value.to_string();
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}
