//! `arena replay show|verify|html`.

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
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_slice(&bytes).with_context(|| format!("{}: not JSON", path.display()))
}

pub fn replay(command: ReplayCommand, fuel_per_turn: u64) -> Result<ExitCode> {
    match command {
        ReplayCommand::Html { file, out } => {
            let json = read(&file)?;
            let out = out.unwrap_or_else(|| file.with_extension("html"));
            write_html(&json, &out, fuel_per_turn).with_context(|| file.display().to_string())?;
            println!("{}: viewer written to {}", file.display(), out.display());
            Ok(ExitCode::SUCCESS)
        }
        ReplayCommand::Show { file, pictures } => {
            let json = read(&file)?;
            for frame in
                game::render_replay(&json, pictures).with_context(|| file.display().to_string())?
            {
                outln!("{}", crate::terminal::escape(&frame))?;
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
                    outln!(
                        "{}: verified — the recorded answers replayed by this engine give identical events and result: {result}\n(not checked: the bot names, module hashes and engine version written in the file; {version})",
                        file.display()
                    )?;
                    Ok(ExitCode::SUCCESS)
                }
                Err(error) => {
                    outln!("{}: {error}", file.display())?;
                    Ok(ExitCode::FAILURE)
                }
            }
        }
    }
}

/// The viewer page of a replay (verified first: what the page draws is what the engine
/// reproduces). `fuel_per_turn` is drawn on the fuel charts as the limit.
pub fn html_page(json: &serde_json::Value, fuel_per_turn: u64) -> Result<String> {
    game::verify_replay(json)?;
    let mode: arena_sdk::Mode = json["mode"]
        .as_str()
        .context("no `mode` field")?
        .parse()
        .map_err(anyhow::Error::msg)?;
    let options = arena_viewer::Options {
        fuel_per_turn: Some(fuel_per_turn),
    };
    arena_tournament::for_mode!(mode, G => {
        let replay: arena_engine::Replay<G> = serde_json::from_value(json.clone())?;
        Ok(arena_viewer::page(&replay, &options)?)
    })
}

/// Write the viewer page of a replay to `out`.
pub fn write_html(json: &serde_json::Value, out: &Path, fuel_per_turn: u64) -> Result<()> {
    let page = html_page(json, fuel_per_turn)?;
    std::fs::write(out, page).with_context(|| format!("cannot write {}", out.display()))
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
