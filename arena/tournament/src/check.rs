//! What `arena check` verifies about a wasm bot, as a library: its start request in every
//! mode, and a trial game per accepted mode against the mode's weakest built-in. The CLI
//! prints the [`CheckReport`]; the server refuses an upload whose report is not `ok`.

use crate::bots::Contestant;
use crate::game::{self, GameError};
use crate::modes;
use arena_engine::Fault;
use arena_sandbox::{LoadedBot, ModuleInfo, Sandbox};
use arena_sdk::{Encoding, Mode};
use serde::Serialize;

/// The start request in one mode, and the trial game when the start was accepted.
#[derive(Debug, Clone, Serialize)]
pub struct ModeCheck {
    /// The mode.
    pub mode: Mode,
    /// Whether the bot accepted the start request.
    pub accepted: bool,
    /// Fuel the start request used.
    pub fuel: u64,
    /// Why the start failed.
    pub fault: Option<Fault>,
    /// What the bot logged during the start.
    pub log: String,
    /// The encoding the bot chose for this mode's match (`json`, `binary`); `None` when it
    /// could not be instantiated.
    #[serde(serialize_with = "encoding_name")]
    pub encoding: Option<Encoding>,
    /// A trial game against the mode's weakest built-in, when the start was accepted.
    pub trial: Option<Trial>,
}

/// One game against a built-in: does the bot play the mode without faults?
#[derive(Debug, Clone, Serialize)]
pub struct Trial {
    /// `builtin:NAME`.
    pub opponent: String,
    /// `won`, `lost` or `draw`.
    pub result: &'static str,
    /// Why the game ended.
    pub reason: String,
    /// Turns played.
    pub turns: u32,
    /// The bot's faults: turns it answered with an error, each played as the mode's
    /// default.
    pub faults: u32,
    /// Whether the bot forfeited the game (too many faults or rejected answers): a bot that
    /// faults now and then but plays its games to their end can play.
    pub forfeited: bool,
    /// The first fault, with its turn.
    pub first_fault: Option<String>,
    /// The first answer the rules rejected, with its turn and why.
    pub first_rejection: Option<String>,
    /// The bot's rejected answers.
    pub invalid_actions: u32,
    /// Fuel of the bot's turn answers: the largest and the mean.
    pub fuel_per_turn_max: u64,
    /// See `fuel_per_turn_max`.
    pub fuel_per_turn_mean: u64,
}

/// Everything checked about one bot.
#[derive(Debug, Clone, Serialize)]
pub struct CheckReport {
    /// The bot's name.
    pub bot: String,
    /// Whether the bot plays at least one mode: its trial game there ends without its
    /// forfeit.
    pub ok: bool,
    /// Why not, when not.
    pub error: Option<String>,
    /// The module's exports, imports, size, hash.
    pub module: ModuleInfo,
    /// Per mode.
    pub modes: Vec<ModeCheck>,
}

impl CheckReport {
    /// The modes the bot plays: its trial game there ended without its forfeit.
    pub fn playable(&self) -> Vec<Mode> {
        self.modes
            .iter()
            .filter(|m| m.trial.as_ref().is_some_and(|t| !t.forfeited))
            .map(|m| m.mode)
            .collect()
    }
}

/// Check a loaded bot in every mode.
pub fn check(bot: &LoadedBot, sandbox: &Sandbox) -> Result<CheckReport, GameError> {
    let modes: Vec<ModeCheck> = Mode::ALL
        .into_iter()
        .map(|mode| {
            let mut check = start_in(mode, bot, sandbox)?;
            if check.accepted {
                check.trial = Some(trial(mode, bot, sandbox)?);
            }
            Ok(check)
        })
        .collect::<Result<_, GameError>>()?;
    let plays = |m: &ModeCheck| m.trial.as_ref().is_some_and(|t| !t.forfeited);
    let ok = modes.iter().any(plays);
    let error = (!ok).then(|| {
        match modes
            .iter()
            .find_map(|m| m.trial.as_ref().map(|t| (m.mode, t)))
        {
            Some((mode, trial)) => format!(
                "the bot forfeits its trial game in every mode it accepts; in {mode}: {} ({} turns, {} of them faulted, {} answers rejected); first {}",
                trial.reason,
                trial.turns,
                trial.faults,
                trial.invalid_actions,
                match (&trial.first_fault, &trial.first_rejection) {
                    (Some(fault), _) => format!("fault: {fault}"),
                    (None, Some(rejection)) => format!("rejected answer: {rejection}"),
                    (None, None) => "fault: ?".to_owned(),
                }
            ),
            None => match modes.first().and_then(|m| m.fault.as_ref()) {
                Some(fault) => format!(
                    "the start request failed in every mode; in {}: {fault}",
                    modes[0].mode
                ),
                None => "the start request failed in every mode".to_owned(),
            },
        }
    });
    Ok(CheckReport {
        bot: bot.name().to_owned(),
        ok,
        error,
        module: bot.info().clone(),
        modes,
    })
}

/// The start request of `mode` (seat 0, seed 1, default rules); `accepted` unless the bot
/// refuses or faults.
pub fn start_in(mode: Mode, bot: &LoadedBot, sandbox: &Sandbox) -> Result<ModeCheck, GameError> {
    let check = crate::playable::start(mode, &serde_json::Value::Null, bot, sandbox)?;
    Ok(ModeCheck {
        mode,
        accepted: check.answer.is_ok(),
        fuel: check.fuel,
        fault: check.answer.err(),
        log: check.log,
        encoding: check.encoding,
        trial: None,
    })
}

/// The modes whose start `bot` accepts and whose trial game it plays to its end (without
/// its forfeit).
pub fn playable_modes(bot: &LoadedBot, sandbox: &Sandbox) -> Result<Vec<Mode>, GameError> {
    let mut modes = Vec::new();
    for mode in Mode::ALL {
        if start_in(mode, bot, sandbox)?.accepted && !trial(mode, bot, sandbox)?.forfeited {
            modes.push(mode);
        }
    }
    Ok(modes)
}

/// Play one game (seed 1, default rules) against the mode's weakest built-in.
pub fn trial(mode: Mode, bot: &LoadedBot, sandbox: &Sandbox) -> Result<Trial, GameError> {
    let weakest = modes::builtins_of(mode)
        .iter()
        .min_by_key(|b| b.strength)
        .expect("every mode has built-ins");
    let opponent = format!("builtin:{}", weakest.name);
    let spec = game::GameSpec {
        mode,
        rules: serde_json::Value::Null,
        seed: 1,
        max_faults: arena_engine::DEFAULT_MAX_FAULTS,
        max_rejections: arena_engine::DEFAULT_MAX_REJECTIONS,
    };
    let me = Contestant::Wasm(bot.clone());
    let them = Contestant::Builtin(weakest.name.to_owned());
    let played = game::play(
        &spec,
        [&me, &them],
        [bot.name(), &opponent],
        sandbox,
        game::Keep::Json,
    )?;
    let outcome = &played.outcome;
    let replay = played.replay.expect("asked for a replay").into_json();
    let mut first_fault = None;
    let mut first_rejection = None;
    let mut fuels = Vec::new();
    for entry in replay["log"].as_array().into_iter().flatten() {
        if entry["kind"] == "rejected" && entry["seat"] == 0 {
            first_rejection.get_or_insert_with(|| {
                format!(
                    "turn {}: {}",
                    entry["turn"],
                    entry["reason"].as_str().unwrap_or("?")
                )
            });
        }
        if entry["kind"] != "answer" || entry["seat"] != 0 {
            continue;
        }
        // Every answer's fuel counts, faulted ones too: a bot that burns its whole budget
        // and faults is the one whose fuel matters most.
        if entry["answer"].get("fault").is_some() || entry["answer"].get("action").is_some() {
            fuels.push(entry["fuel"].as_u64().unwrap_or(0));
        }
        if let Some(fault) = entry["answer"].get("fault") {
            first_fault.get_or_insert_with(|| {
                format!(
                    "turn {}: {}: {}",
                    entry["turn"],
                    fault["kind"].as_str().unwrap_or("?"),
                    fault["message"].as_str().unwrap_or("")
                )
            });
        }
    }
    Ok(Trial {
        opponent,
        result: match outcome.winner {
            Some(0) => "won",
            Some(_) => "lost",
            None => "draw",
        },
        reason: outcome.reason.clone(),
        turns: outcome.turns,
        faults: outcome.seats[0].faults,
        forfeited: outcome.seats[0].forfeited,
        first_fault,
        first_rejection,
        invalid_actions: outcome.seats[0].invalid_actions,
        fuel_per_turn_max: fuels.iter().copied().max().unwrap_or(0),
        fuel_per_turn_mean: if fuels.is_empty() {
            0
        } else {
            fuels.iter().sum::<u64>() / fuels.len() as u64
        },
    })
}

fn encoding_name<S: serde::Serializer>(
    encoding: &Option<Encoding>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&encoding.map(Encoding::name), serializer)
}
