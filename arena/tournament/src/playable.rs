//! Which modes a wasm bot plays: those whose start request it accepts (docs/abi.md: a bot
//! answers the start of a mode it does not play with `{"error": …}`).
//!
//! A tournament asks before it plans, so a bot is never scheduled into games it would
//! forfeit, and a bot the file forces into a mode it refuses is an error before any game.

use crate::bots::{BotError, Contestant};
use crate::config::Tournament;
use crate::for_mode;
use crate::game::{GameError, parse_rules};
use arena_engine::{Fault, FaultKind, Player};
use arena_sandbox::{LoadedBot, Sandbox};
use arena_sdk::{ABI_VERSION, Encoding, MatchStart, Mode};

/// A bot's answer to one mode's start request.
#[derive(Debug, Clone)]
pub struct StartCheck {
    /// The mode.
    pub mode: Mode,
    /// `Ok` when the bot accepts the mode; its fault (usually `bot_error`) when not.
    pub answer: Result<(), Fault>,
    /// Fuel the start used.
    pub fuel: u64,
    /// What the bot logged.
    pub log: String,
    /// The encoding the bot chose (docs/abi.md, "Encodings"); `None` when it was not
    /// instantiated.
    pub encoding: Option<Encoding>,
}

/// Send `bot` the start request of `mode` with `rules` (JSON; `null` for the defaults).
pub fn start(
    mode: Mode,
    rules: &serde_json::Value,
    bot: &LoadedBot,
    sandbox: &Sandbox,
) -> Result<StartCheck, GameError> {
    for_mode!(mode, G => {
        let rules = parse_rules::<G>(rules)?;
        let mut player = bot.player(sandbox);
        let request = MatchStart::<G> { abi: ABI_VERSION, mode, seat: 0, seed: 1, rules };
        let answer = Player::<G>::start(&mut player, &request);
        let report = Player::<G>::last_call(&mut player);
        let encoding = player.encoding();
        Ok(StartCheck { mode, answer, fuel: report.fuel, log: report.log, encoding })
    })
}

/// A bot that cannot play the modes its tournament gives it.
#[derive(Debug, thiserror::Error)]
pub enum ModesError {
    /// The bot cannot be loaded.
    #[error("bot `{name}`: {error}")]
    Bot {
        /// The bot's name.
        name: String,
        /// Why.
        error: BotError,
    },
    /// A mode's rules do not parse (config checks them first; kept for completeness).
    #[error(transparent)]
    Rules(#[from] GameError),
    /// The file lists a mode the bot refuses.
    #[error(
        "bot `{name}` is listed for mode {mode}, but refuses its start: {fault}; remove {mode} from its `modes` (or fix the bot: `arena check` shows every mode's answer)"
    )]
    Refused {
        /// The bot's name.
        name: String,
        /// The mode.
        mode: Mode,
        /// Its answer.
        fault: Fault,
    },
    /// The bot accepts none of the tournament's modes.
    #[error(
        "bot `{name}` accepts none of the tournament's modes ({refusals}); `arena check` shows every mode's answer"
    )]
    NoMode {
        /// The bot's name.
        name: String,
        /// Each mode and its refusal.
        refusals: String,
    },
}

/// Ask every wasm bot of `tournament` for the start of each of its modes (with the
/// tournament's rules). Bots without a `modes` list keep the modes they do not refuse
/// with `{"error": …}`; a bot that refuses a mode its list names is an error. Built-ins
/// are settled by the file already.
pub fn settle(tournament: &mut Tournament, sandbox: &Sandbox) -> Result<(), ModesError> {
    let mut contestants = Vec::with_capacity(tournament.bots.len());
    for entry in &tournament.bots {
        let contestant =
            Contestant::resolve(&entry.spec, sandbox).map_err(|error| ModesError::Bot {
                name: entry.name.clone(),
                error,
            })?;
        contestants.push(contestant);
    }
    settle_loaded(tournament, &contestants, sandbox)
}

/// [`settle`] with the bots already loaded into `sandbox` (`contestants` in the
/// tournament's order, as [`crate::run::load`] gives them), so a run loads each bot once.
pub fn settle_loaded(
    tournament: &mut Tournament,
    contestants: &[Contestant],
    sandbox: &Sandbox,
) -> Result<(), ModesError> {
    assert_eq!(
        contestants.len(),
        tournament.bots.len(),
        "one contestant per bot"
    );
    for (entry, contestant) in tournament.bots.iter_mut().zip(contestants) {
        let Contestant::Wasm(bot) = contestant else {
            continue;
        };
        let mut accepted = Vec::new();
        let mut refusals = Vec::new();
        for &mode in &entry.modes {
            let rules = tournament
                .modes
                .iter()
                .find(|(m, _)| *m == mode)
                .map_or(serde_json::Value::Null, |(_, r)| r.clone());
            match start(mode, &rules, bot, sandbox)?.answer {
                // Only an `{"error": …}` answer is a refusal; a bot that traps or loops
                // at start misbehaves, and plays (and forfeits) like any other.
                Err(fault) if fault.kind != FaultKind::BotError => accepted.push(mode),
                Ok(()) => accepted.push(mode),
                Err(fault) if entry.modes_listed => {
                    return Err(ModesError::Refused {
                        name: entry.name.clone(),
                        mode,
                        fault,
                    });
                }
                Err(fault) => refusals.push(format!("{mode}: {}", fault.message)),
            }
        }
        if accepted.is_empty() {
            return Err(ModesError::NoMode {
                name: entry.name.clone(),
                refusals: refusals.join("; "),
            });
        }
        if accepted.len() < entry.modes.len() {
            tracing::info!(bot = %entry.name, ?accepted, "plays only the modes it accepts");
        }
        entry.modes = accepted;
    }
    Ok(())
}
