//! The [`Player`] trait: anything that answers a bot's requests — a wasm bot in the sandbox,
//! a built-in AI ([`NativePlayer`]) or a replay's recorded answers ([`ScriptedPlayer`]).

use arena_sdk::{Bot, Game, MatchEnd, MatchStart};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Why a bot failed to answer. A fault is an outcome of the match, never a host error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{kind}: {message}")]
pub struct Fault {
    /// What kind of failure.
    pub kind: FaultKind,
    /// Details for the bot's author.
    pub message: String,
}

impl Fault {
    /// A fault of `kind` with `message`.
    pub fn new(kind: FaultKind, message: impl Into<String>) -> Self {
        Fault {
            kind,
            message: message.into(),
        }
    }
}

/// The kinds of [`Fault`]; see docs/abi.md for what the host does on each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// The call used up its fuel budget (CPU limit).
    OutOfFuel,
    /// The wall-clock backstop fired (only if fuel did not stop the bot first).
    Timeout,
    /// The bot trapped (unreachable, out-of-bounds access, stack overflow, …).
    Trap,
    /// The bot trapped after its memory could not grow past the limit, or asked for more
    /// initial memory than allowed.
    MemoryLimit,
    /// The response is longer than the limit.
    ResponseTooLarge,
    /// A pointer/length the bot returned (input buffer or response) lies outside its memory.
    OutOfBounds,
    /// The response is not UTF-8.
    NotUtf8,
    /// The response is not JSON.
    NotJson,
    /// The response is JSON but not the expected shape.
    WrongShape,
    /// The bot answered `{"error": …}`.
    BotError,
    /// The bot could not be instantiated for this match.
    Instantiation,
    /// A person at the terminal gave up (`QUIT`, or their input ended): the seat forfeits
    /// at once.
    Quit,
}

impl FaultKind {
    /// The snake_case name used in files and reports.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::OutOfFuel => "out_of_fuel",
            FaultKind::Timeout => "timeout",
            FaultKind::Trap => "trap",
            FaultKind::MemoryLimit => "memory_limit",
            FaultKind::ResponseTooLarge => "response_too_large",
            FaultKind::OutOfBounds => "out_of_bounds",
            FaultKind::NotUtf8 => "not_utf8",
            FaultKind::NotJson => "not_json",
            FaultKind::WrongShape => "wrong_shape",
            FaultKind::BotError => "bot_error",
            FaultKind::Instantiation => "instantiation",
            FaultKind::Quit => "quit",
        }
    }
}

impl std::fmt::Display for FaultKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What the last call to a player cost and printed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallReport {
    /// Fuel (wasm instructions, roughly) the call used; 0 for native players.
    pub fuel: u64,
    /// What the bot wrote to its log during the call.
    pub log: String,
}

/// Something that answers a bot's requests for mode `G`.
pub trait Player<G: Game> {
    /// The match begins.
    fn start(&mut self, start: &MatchStart<G>) -> Result<(), Fault>;
    /// Choose the setup.
    fn setup(&mut self, request: &G::SetupRequest) -> Result<G::SetupChoice, Fault>;
    /// Choose an action.
    fn act(&mut self, observation: &G::Observation) -> Result<G::Action, Fault>;
    /// The match is over; failures here do not matter.
    fn end(&mut self, end: &MatchEnd);
    /// Cost and log of the last call (and resets the log).
    fn last_call(&mut self) -> CallReport {
        CallReport::default()
    }
}

/// A [`Bot`] run natively, in the host process: the built-in AIs.
#[derive(Debug)]
pub struct NativePlayer<B> {
    bot: B,
}

impl<B> NativePlayer<B> {
    /// Wrap a bot.
    pub fn new(bot: B) -> Self {
        NativePlayer { bot }
    }
}

impl<G: Game, B: Bot<G>> Player<G> for NativePlayer<B> {
    fn start(&mut self, start: &MatchStart<G>) -> Result<(), Fault> {
        self.bot.start(start);
        Ok(())
    }
    fn setup(&mut self, request: &G::SetupRequest) -> Result<G::SetupChoice, Fault> {
        Ok(self.bot.setup(request))
    }
    fn act(&mut self, observation: &G::Observation) -> Result<G::Action, Fault> {
        Ok(self.bot.act(observation))
    }
    fn end(&mut self, end: &MatchEnd) {
        self.bot.end(end)
    }
}

/// One recorded answer of a replay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", bound = "")]
pub enum Answer<G: Game> {
    /// The start request was accepted.
    Started,
    /// A setup choice.
    Setup(G::SetupChoice),
    /// A turn's action.
    Action(G::Action),
    /// The bot faulted instead of answering.
    Fault(Fault),
}

/// Replays recorded answers in order: how `arena replay verify` re-simulates a match
/// without the bots.
#[derive(Debug)]
pub struct ScriptedPlayer<G: Game> {
    answers: VecDeque<Answer<G>>,
}

impl<G: Game> ScriptedPlayer<G> {
    /// A player that gives `answers`, in order.
    pub fn new(answers: impl IntoIterator<Item = Answer<G>>) -> Self {
        ScriptedPlayer {
            answers: answers.into_iter().collect(),
        }
    }

    fn next(&mut self, what: &str) -> Result<Answer<G>, Fault> {
        self.answers.pop_front().ok_or_else(|| {
            Fault::new(
                FaultKind::WrongShape,
                format!("replay has no recorded answer for {what}"),
            )
        })
    }
}

impl<G: Game> Player<G> for ScriptedPlayer<G> {
    fn start(&mut self, _start: &MatchStart<G>) -> Result<(), Fault> {
        match self.next("start")? {
            Answer::Started => Ok(()),
            Answer::Fault(fault) => Err(fault),
            other => Err(mismatch("start", &other)),
        }
    }
    fn setup(&mut self, _request: &G::SetupRequest) -> Result<G::SetupChoice, Fault> {
        match self.next("setup")? {
            Answer::Setup(choice) => Ok(choice),
            Answer::Fault(fault) => Err(fault),
            other => Err(mismatch("setup", &other)),
        }
    }
    fn act(&mut self, _observation: &G::Observation) -> Result<G::Action, Fault> {
        match self.next("turn")? {
            Answer::Action(action) => Ok(action),
            Answer::Fault(fault) => Err(fault),
            other => Err(mismatch("turn", &other)),
        }
    }
    fn end(&mut self, _end: &MatchEnd) {}
}

fn mismatch<G: Game>(wanted: &str, got: &Answer<G>) -> Fault {
    Fault::new(
        FaultKind::WrongShape,
        format!("replay out of step: {wanted} request, recorded answer {got:?}"),
    )
}
