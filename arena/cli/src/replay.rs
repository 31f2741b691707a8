//! `arena replay show|verify|requests|html`.

use anyhow::{Context, Result};
use arena_tournament::bots::{BotMatch, BotSpec};
use arena_tournament::game;
use arena_tournament::signing::{self, PublicKey, Signed};
use clap::Subcommand;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, Subcommand)]
pub enum ReplayCommand {
    /// Render a replay in the terminal, event by event.
    Show {
        /// The replay file.
        file: PathBuf,
        /// Also draw the state before every decision (board, teams, hands).
        #[arg(long)]
        pictures: bool,
        /// Step through the game as `arena play --watch` shows it (a decision and what it
        /// did; grid: a round), waiting for Enter after each step (`q` runs to the end).
        #[arg(long)]
        step: bool,
        /// Play the game back step by step as `arena play --watch` shows it, pausing this
        /// long after each step, in milliseconds (0: no pause).
        #[arg(long, value_name = "MS")]
        delay: Option<u64>,
        /// Also print the roll records (the order of units due in a tick, effect picks,
        /// effectivity rolls; the first player and shuffled decks), left out by default.
        #[arg(long)]
        rolls: bool,
    },
    /// Re-simulate a replay from its recorded answers and confirm the identical result.
    Verify {
        /// The replay file.
        file: PathBuf,
        /// The bot that should have played seat 0 (builtin:NAME or a .wasm/.wat file):
        /// compared with the name and module hash the replay records.
        #[arg(long, value_name = "BOT")]
        bot0: Option<String>,
        /// The bot that should have played seat 1, as --bot0.
        #[arg(long, value_name = "BOT")]
        bot1: Option<String>,
        /// The public key the replay must be signed by (64 hex digits, or a file holding
        /// them, such as a server's DB.replay-key.pub). Without it a signature is still
        /// checked against the key it names, and an unsigned replay is reported as such.
        #[arg(long, value_name = "KEY")]
        key: Option<String>,
        /// Fail on an unsigned replay (its bot names, module hashes and engine version are
        /// then unchecked): a signature by any key must match.
        #[arg(long)]
        require_signed: bool,
    },
    /// Print the requests one seat's bot was sent, one JSON request a line, as a bot
    /// speaking JSON got them: the input of `arena native`'s runner, to run the bot again
    /// outside the sandbox, under a debugger (docs/languages.md, "Debugging natively").
    Requests {
        /// The replay file (verified first).
        file: PathBuf,
        /// The seat whose requests to print (0 or 1).
        #[arg(long, default_value_t = 0)]
        seat: u8,
        /// Write them to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Write a self-contained HTML page that plays the replay in a browser (docs/replay.md).
    Html {
        /// The replay file.
        file: PathBuf,
        /// Where to write the page [default: the replay's path with `.html`].
        #[arg(long, short, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

fn read(path: &Path) -> Result<serde_json::Value> {
    parse(path, &read_bytes(path)?)
}

fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

fn parse(path: &Path, bytes: &[u8]) -> Result<serde_json::Value> {
    serde_json::from_slice(bytes).with_context(|| format!("{}: not JSON", path.display()))
}

pub fn replay(command: ReplayCommand, fuel_per_turn: u64) -> Result<ExitCode> {
    match command {
        ReplayCommand::Html { file, out } => {
            let json = read(&file)?;
            let out = out.unwrap_or_else(|| file.with_extension("html"));
            write_html(&json, &out, fuel_per_turn, Trust::Verify)
                .with_context(|| file.display().to_string())?;
            outln!("{}: viewer written to {}", file.display(), out.display())?;
            Ok(ExitCode::SUCCESS)
        }
        ReplayCommand::Show {
            file,
            step,
            delay,
            rolls,
            ..
        } if step || delay.is_some() => {
            let json = read(&file)?;
            crate::human::show_replay(&json, crate::live::Pace::new(delay, step), rolls)
                .with_context(|| file.display().to_string())?;
            Ok(ExitCode::SUCCESS)
        }
        ReplayCommand::Show {
            file,
            pictures,
            rolls,
            ..
        } => {
            let json = read(&file)?;
            let frames = game::render_replay_with(&json, pictures, rolls)
                .with_context(|| file.display().to_string())?;
            for frame in frames {
                outln!("{}", crate::terminal::escape(&frame))?;
            }
            Ok(ExitCode::SUCCESS)
        }
        ReplayCommand::Requests { file, seat, out } => {
            anyhow::ensure!(seat < 2, "--seat is 0 or 1, not {seat}");
            let json = read(&file)?;
            let mode = game::replay_mode(&json).with_context(|| file.display().to_string())?;
            let requests = arena_tournament::for_mode!(mode, G => {
                let replay = game::verified::<G>(&json)
                    .with_context(|| file.display().to_string())?;
                arena_engine::replay::requests(&replay, seat)
            });
            let mut text = requests.join("\n");
            text.push('\n');
            match out {
                Some(out) => {
                    arena_tournament::results::write_atomic(&out, text.as_bytes())
                        .with_context(|| format!("cannot write {}", out.display()))?;
                    errln!(
                        "{} requests of seat {seat} written to {}",
                        requests.len(),
                        out.display()
                    );
                }
                None => out!("{text}")?,
            }
            Ok(ExitCode::SUCCESS)
        }
        ReplayCommand::Verify {
            file,
            bot0,
            bot1,
            key,
            require_signed,
        } => {
            let bytes = read_bytes(&file)?;
            let json = parse(&file, &bytes)?;
            // Parse the specs and the key before the (possibly long) re-simulation.
            let specs = [bot0, bot1].map(|spec| spec.map(|s| s.parse::<BotSpec>()).transpose());
            let [spec0, spec1] = specs;
            let specs = [spec0?, spec1?];
            let key = key
                .map(|k| PublicKey::from_arg(&k))
                .transpose()
                .context("--key")?;
            let (signature, signed_as_asked) = signature_line(&bytes, key.as_ref(), require_signed);
            match game::verify_replay(&json) {
                Ok(verified) => {
                    let (text, all_match) = report(&file, &verified, &specs, &signature)?;
                    outln!("{text}")?;
                    Ok(if all_match && signed_as_asked {
                        ExitCode::SUCCESS
                    } else {
                        ExitCode::FAILURE
                    })
                }
                Err(error) => {
                    outln!("{}: {error}", file.display())?;
                    Ok(ExitCode::FAILURE)
                }
            }
        }
    }
}

/// Where a replay comes from, which decides whether it is re-simulated before its page is
/// written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trust {
    /// A file: verified first, so what the page draws is what the engine reproduces (a
    /// hand-edited file cannot make a drawing index past a board).
    Verify,
    /// Played by this process a moment ago (`arena play --html`, the games of this
    /// `tournament run --html`): the engine's own record, not re-simulated.
    JustPlayed,
}

/// The viewer page of a replay. `fuel_per_turn` is drawn on the fuel charts as the limit.
pub fn html_page(json: &serde_json::Value, fuel_per_turn: u64, trust: Trust) -> Result<String> {
    let mode = game::replay_mode(json)?;
    let options = arena_viewer::Options {
        fuel_per_turn: Some(fuel_per_turn),
    };
    arena_tournament::for_mode!(mode, G => {
        let replay: arena_engine::Replay<G> = match trust {
            Trust::Verify => game::verified::<G>(json)?,
            Trust::JustPlayed => serde_json::from_value(json.clone())?,
        };
        Ok(arena_viewer::page(&replay, &options)?)
    })
}

/// Write the viewer page of a replay to `out`.
pub fn write_html(
    json: &serde_json::Value,
    out: &Path,
    fuel_per_turn: u64,
    trust: Trust,
) -> Result<()> {
    let page = html_page(json, fuel_per_turn, trust)?;
    // Whole or not at all: a tournament's `--html` skips pages that exist, so a page torn
    // by a kill would never be written again.
    arena_tournament::results::write_atomic(out, page.as_bytes())
        .with_context(|| format!("cannot write {}", out.display()))
}

/// The text of `arena replay verify`: what was re-simulated and found identical, then the
/// engine version and each seat's bot, compared where the user gave something to compare
/// with. The flag is false when a bot the user named differs from the recorded one.
fn report(
    file: &Path,
    v: &game::Verified,
    specs: &[Option<BotSpec>; 2],
    signature: &str,
) -> Result<(String, bool)> {
    use crate::terminal::escape;
    let result = match v.outcome.winner {
        Some(seat) => format!("seat {seat} wins ({})", v.outcome.reason),
        None => format!("draw ({})", v.outcome.reason),
    };
    let mut lines = vec![
        format!(
            "{}: verified — {} replay, format version {}, seed {}",
            file.display(),
            v.mode,
            v.version,
            v.seed
        ),
        format!(
            "  re-simulated by this engine from the recorded rules, seed and answers, and identical: {}{}{} log entries ({} events of which {} roll records, {} answers of which {} with the choices offered, {} rejections; fuel and bot log text not compared) and the outcome: {}",
            if v.tables {
                "the rule tables (this engine's), "
            } else {
                ""
            },
            if v.initial { "the initial state, " } else { "" },
            v.entries,
            v.events,
            v.rolls,
            v.answers,
            v.offers,
            v.rejections,
            escape(&result)
        ),
    ];
    let recorded = escape(&v.engine_version);
    lines.push(if v.engine_version == arena_engine::ENGINE_VERSION {
        format!("  engine version: matches ({recorded})")
    } else {
        format!(
            "  engine version: differs — the file says {recorded}, this arena is {}",
            arena_engine::ENGINE_VERSION
        )
    });
    lines.push(signature.to_owned());
    let mut all_match = true;
    for (seat, (bot, spec)) in v.bots.iter().zip(specs).enumerate() {
        let recorded = match &bot.sha256 {
            Some(hash) => format!("{} (module SHA-256 {})", escape(&bot.name), escape(hash)),
            None => escape(&bot.name).into_owned(),
        };
        let line = match spec {
            None => format!(
                "  seat {seat} bot: {recorded} — not checked (give --bot{seat} BOT to compare)"
            ),
            Some(spec) => match spec.compare(v.mode, &bot.name, bot.sha256.as_deref())? {
                BotMatch::SameBuiltin => {
                    format!("  seat {seat} bot: matches — {recorded}, a built-in of this arena")
                }
                BotMatch::SameModule { .. } => {
                    format!("  seat {seat} bot: matches — {spec} has the recorded hash; {recorded}")
                }
                BotMatch::Differs(how) => {
                    all_match = false;
                    format!("  seat {seat} bot: differs — {}", escape(&how))
                }
            },
        };
        lines.push(line);
    }
    Ok((lines.join("\n"), all_match))
}

/// The signature line of `arena replay verify` (docs/replay.md, "Signatures"), and whether
/// the replay is signed as asked: a signature that does not match is never, an unsigned
/// replay is not with `--require-signed` or `--key`, another key's signature is not when
/// `--key` named one.
fn signature_line(
    bytes: &[u8],
    expected: Option<&PublicKey>,
    require_signed: bool,
) -> (String, bool) {
    match (signing::check(bytes), expected) {
        (Ok(Signed::By(key)), None) => (format!("  signature: signed by {key}"), true),
        (Ok(Signed::By(key)), Some(expected)) if key == *expected => (
            format!("  signature: signed by {key}, the key given (--key)"),
            true,
        ),
        (Ok(Signed::By(key)), Some(expected)) => (
            format!("  signature: differs — signed by {key}, not by the key given ({expected})"),
            false,
        ),
        (Ok(Signed::Unsigned), None) => (
            format!(
                "  signature: unsigned — its bot names, module hashes and engine version are NOT checked: anyone can edit them and still pass this verification{}",
                if require_signed {
                    " (--require-signed: refused)"
                } else {
                    " (--require-signed or --key KEY refuses an unsigned replay)"
                }
            ),
            !require_signed,
        ),
        (Ok(Signed::Unsigned), Some(expected)) => (
            format!("  signature: unsigned — not signed by the key given ({expected})"),
            false,
        ),
        (Err(error), _) => (
            format!(
                "  signature: INVALID — {}",
                crate::terminal::escape(&error.to_string())
            ),
            false,
        ),
    }
}

/// The deck `seat` played in a replay of a mode with decks (tcg), in the deck file format
/// (docs/rules/tcg.md), with a comment saying where it came from.
pub fn deck_of(path: &Path, seat: u8) -> Result<String> {
    anyhow::ensure!(seat < 2, "--seat is 0 or 1");
    let json = read(path)?;
    let format = json["mode"]
        .as_str()
        .and_then(|m| m.parse::<arena_sdk::Mode>().ok())
        .and_then(arena_tournament::modes::decks_of);
    let Some(format) = format else {
        anyhow::bail!(
            "{}: not a {} replay (mode {})",
            path.display(),
            arena_tournament::modes::names_and(&arena_tournament::modes::deck_modes()),
            json["mode"]
        );
    };
    game::verify_replay(&json).with_context(|| path.display().to_string())?;
    anyhow::ensure!(
        !json["initial"].is_null(),
        "the replay has no initial state"
    );
    let cards = (format.played)(&json["initial"], seat)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let bot = json["bots"][usize::from(seat)]["name"]
        .as_str()
        .unwrap_or("?");
    Ok(format!(
        "# the deck of seat {seat} ({bot}) in {}, seed {}\n{}",
        path.display(),
        json["seed"],
        (format.write)(&cards)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file is re-simulated before its page is written; a game this process just played
    /// is not.
    #[test]
    fn only_a_replay_from_a_file_is_verified_for_its_page() {
        let spec = game::GameSpec {
            mode: arena_sdk::Mode::Battle,
            rules: serde_json::Value::Null,
            seed: 3,
            max_faults: 3,
            max_rejections: 10,
        };
        let sandbox = arena_sandbox::Sandbox::new(Default::default(), None).unwrap();
        let bots =
            ["strong", "random"].map(|b| arena_tournament::bots::Contestant::Builtin(b.to_owned()));
        let played = game::play(
            &spec,
            [&bots[0], &bots[1]],
            ["a", "b"],
            &sandbox,
            game::Keep::Json,
        )
        .unwrap();
        let mut json = played.replay.unwrap().into_json();
        assert!(html_page(&json, 1000, Trust::Verify).is_ok());
        // The engine would not reproduce this outcome: only verification notices.
        json["outcome"]["turns"] = serde_json::json!(1);
        let refused = html_page(&json, 1000, Trust::Verify).unwrap_err();
        assert!(refused.to_string().contains("outcome"), "{refused:#}");
        assert!(html_page(&json, 1000, Trust::JustPlayed).is_ok());
    }
}
