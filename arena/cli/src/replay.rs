//! `arena replay show|verify`.

use anyhow::{Context, Result};
use arena_tournament::game;
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
    },
    /// Re-simulate a replay from its recorded answers and confirm the identical result.
    Verify {
        /// The replay file.
        file: PathBuf,
    },
}

fn read(path: &Path) -> Result<serde_json::Value> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_slice(&bytes).with_context(|| format!("{}: not JSON", path.display()))
}

pub fn replay(command: ReplayCommand) -> Result<ExitCode> {
    match command {
        ReplayCommand::Show { file, pictures } => {
            let json = read(&file)?;
            for frame in
                game::render_replay(&json, pictures).with_context(|| file.display().to_string())?
            {
                println!("{}", crate::terminal::escape(&frame));
            }
            Ok(ExitCode::SUCCESS)
        }
        ReplayCommand::Verify { file } => {
            let json = read(&file)?;
            match game::verify_replay(&json) {
                Ok(outcome) => {
                    let result = match outcome.winner {
                        Some(seat) => format!("seat {seat} wins ({})", outcome.reason),
                        None => format!("draw ({})", outcome.reason),
                    };
                    let recorded = json["engine_version"].as_str().unwrap_or("?");
                    let version = if recorded == arena_engine::ENGINE_VERSION {
                        format!("engine {recorded}")
                    } else {
                        format!(
                            "the file says engine {}, this arena is {}",
                            crate::terminal::escape(recorded),
                            arena_engine::ENGINE_VERSION
                        )
                    };
                    println!(
                        "{}: verified — the recorded answers replayed by this engine give identical events and result: {result}\n(not checked: the bot names, module hashes and engine version written in the file; {version})",
                        file.display()
                    );
                    Ok(ExitCode::SUCCESS)
                }
                Err(error) => {
                    println!("{}: {error}", file.display());
                    Ok(ExitCode::FAILURE)
                }
            }
        }
    }
}

/// The deck `seat` played in a tcg replay, in the deck file format (docs/rules/tcg.md),
/// with a comment saying where it came from.
pub fn deck_of(path: &Path, seat: u8) -> Result<String> {
    anyhow::ensure!(seat < 2, "--seat is 0 or 1");
    let json = read(path)?;
    anyhow::ensure!(
        json["mode"] == "tcg",
        "{}: not a tcg replay (mode {})",
        path.display(),
        json["mode"]
    );
    game::verify_replay(&json).with_context(|| path.display().to_string())?;
    let replay: arena_engine::Replay<arena_sdk::tcg::Tcg> = serde_json::from_value(json)?;
    let initial = replay.initial.context("the replay has no initial state")?;
    let cards = initial.decks[usize::from(seat)]
        .iter()
        .map(|c| c.card.id.clone())
        .collect();
    let deck = arena_sdk::tcg::Deck { cards };
    Ok(format!(
        "# the deck of seat {seat} ({}) in {}, seed {}\n{}",
        replay.bots[usize::from(seat)].name,
        path.display(),
        replay.seed,
        deck.to_text()
    ))
}
