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
                println!("{frame}");
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
                    println!(
                        "{}: verified — identical events and result: {result}",
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
