//! `arena` — the Bot Arena command line. The only crate that parses arguments and prints.

#[macro_use]
mod out;

mod check;
mod human;
mod input;
mod live;
mod matches;
mod native;
mod new;
mod play;
mod replay;
mod serve;
mod terminal;
mod tournament;

use anyhow::{Context, Result};
use arena_sandbox::{ModuleCache, Sandbox};
use clap::{Args, Parser, Subcommand};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// Bot Arena: run WebAssembly bots in five-ish game modes, safely and deterministically.
#[derive(Debug, Parser)]
#[command(name = "arena", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    sandbox: SandboxArgs,
}

/// Sandbox limits and the module cache (apply to every command that runs wasm bots).
#[derive(Debug, Args)]
struct SandboxArgs {
    /// Fuel per turn (the CPU limit; identical on every machine).
    #[arg(long, global = true, value_name = "FUEL", value_parser = fuel_range())]
    fuel_per_turn: Option<u64>,
    /// Fuel for instantiation + start, and for setup.
    #[arg(long, global = true, value_name = "FUEL", value_parser = fuel_range())]
    fuel_per_setup: Option<u64>,
    /// Memory limit per bot, in MiB.
    #[arg(long, global = true, value_name = "MIB", value_parser = memory_range())]
    memory_mib: Option<u64>,
    /// Where compiled modules are cached [default: $ARENA_CACHE_DIR, else ~/.cache/bot-arena/modules].
    #[arg(long, global = true, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    /// Compile every bot afresh; don't read or write the module cache.
    #[arg(long, global = true)]
    no_cache: bool,
    /// How to talk to wasm bots: `fastest` (the binary encoding with bots that offer it)
    /// or `json` (every bot; results and replays are the same, fuel aside).
    #[arg(
        long,
        global = true,
        value_name = "ENCODING",
        default_value = "fastest"
    )]
    encoding: arena_sandbox::EncodingPolicy,
}

fn fuel_range() -> clap::builder::RangedU64ValueParser {
    use arena_tournament::config::FUEL_RANGE;
    clap::value_parser!(u64).range(*FUEL_RANGE.start()..=*FUEL_RANGE.end())
}

fn memory_range() -> clap::builder::RangedU64ValueParser {
    use arena_tournament::config::MEMORY_MIB_RANGE;
    clap::value_parser!(u64).range(*MEMORY_MIB_RANGE.start()..=*MEMORY_MIB_RANGE.end())
}

impl SandboxArgs {
    fn cache(&self) -> Option<ModuleCache> {
        if self.no_cache {
            return None;
        }
        self.cache_dir
            .clone()
            .or_else(ModuleCache::default_location)
            .map(ModuleCache::new)
    }

    fn sandbox(&self) -> Result<Sandbox> {
        Ok(Sandbox::new(self.limits_config().limits(), self.cache())?)
    }

    /// The limits given on the command line, for tournaments (whose files may set them too).
    fn limits_config(&self) -> arena_tournament::config::LimitsConfig {
        arena_tournament::config::LimitsConfig {
            fuel_per_turn: self.fuel_per_turn,
            fuel_per_setup: self.fuel_per_setup,
            memory_mib: self.memory_mib,
            encoding: self.encoding,
        }
    }
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Load, validate and compile a bot, and run its start request for every mode.
    Check(check::CheckArgs),
    /// Create a standalone bot project that builds outside this repository: Rust, Go, Python,
    /// JavaScript or TypeScript (every mode), C, Zig, AssemblyScript or WAT (battle).
    New(new::NewArgs),
    /// Write the SDK and a runner into a Python or JavaScript bot directory
    /// (target/arena-native/) to run it under python3 or node, and their debuggers, on the
    /// requests `arena replay requests` records.
    Native(native::NativeArgs),
    /// List the built-in AIs of every mode.
    Builtins(check::BuiltinsArgs),
    /// Play one match between two bots.
    Play(play::PlayArgs),
    /// Show or verify a replay file.
    #[command(subcommand)]
    Replay(replay::ReplayCommand),
    /// Run the competition server (uploads, ladder, leaderboards); manage its users and tournaments.
    Serve(serve::ServeArgs),
    /// Upload a bot to a competition server.
    Submit(serve::SubmitArgs),
    /// Plan, run, report and merge tournaments.
    #[command(subcommand)]
    Tournament(tournament::TournamentCommand),
    /// Play two bots against each other in seat-swapped pairs: score, Elo ± error, SPRT.
    Match(matches::MatchArgs),
    /// Play a bot against every built-in AI of its modes and report its score and Elo vs each.
    Gauntlet(tournament::GauntletArgs),
    /// How to play a mode, on one screen (the same as `?` at a prompt).
    Rules {
        /// The mode.
        mode: arena_sdk::Mode,
    },
    /// Check a grid or conquest map file and draw it.
    #[command(subcommand)]
    Map(MapCommand),
    /// Check a tcg deck file against a card pool.
    #[command(subcommand)]
    Deck(DeckCommand),
}

#[derive(Debug, Subcommand)]
enum MapCommand {
    /// Parse a map file; print it, or say exactly what is wrong and where.
    Check {
        /// The map file.
        file: PathBuf,
        /// The map's mode [default: conquest if the first line is `Frame: WxH`, else grid].
        #[arg(long, short)]
        mode: Option<arena_sdk::Mode>,
        /// A rules setting that limits maps, as KEY=VALUE (conquest: `max_frame=9`).
        #[arg(long = "rule", value_name = "KEY=VALUE")]
        rule: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
enum DeckCommand {
    /// Parse a deck file against the card pool of the rules; print it, or say what is wrong.
    Check {
        /// The deck file.
        file: PathBuf,
        /// tcg rules file (TOML or JSON) whose card pool applies.
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
        /// Override one rules field, as KEY=VALUE.
        #[arg(long = "rule", value_name = "KEY=VALUE")]
        rule: Vec<String>,
    },
    /// Save the deck a seat played in a tcg replay as a deck file.
    FromReplay {
        /// The replay (it must verify).
        replay: PathBuf,
        /// Whose deck.
        #[arg(long)]
        seat: u8,
        /// Write the deck here instead of to standard output.
        #[arg(long, short, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    // `arena` re-executes itself to compile untrusted modules under hard limits.
    arena_sandbox::compile::serve_if_requested();
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ARENA_LOG")
                .unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        // Colour codes are noise in a log file or a CI log.
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    match run(cli) {
        Ok(code) => code,
        Err(error) if error.is::<out::Closed>() => ExitCode::SUCCESS,
        Err(error) => {
            errln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Check(args) => check::check(args, &cli.sandbox),
        Command::New(args) => new::new(args),
        Command::Native(args) => native::native(args),
        Command::Builtins(args) => check::builtins(args),
        Command::Rules { mode } => {
            outln!("{}", human::how_to_play(mode).trim_end())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Play(args) => play::play(args, &cli.sandbox),
        Command::Replay(command) => {
            replay::replay(command, cli.sandbox.limits_config().limits().fuel_per_turn)
        }
        Command::Tournament(command) => tournament::tournament(command, &cli.sandbox),
        Command::Match(args) => matches::play_match(args, &cli.sandbox),
        Command::Serve(args) => serve::serve(args),
        Command::Submit(args) => serve::submit(args),
        Command::Gauntlet(args) => tournament::gauntlet(args, &cli.sandbox),
        Command::Map(MapCommand::Check { file, mode, rule }) => {
            let rules = play::rules_json(None, &rule)?;
            let (_, mode, map) = play::read_map(&file, mode, &rules)?;
            outln!(
                "{}: ok, {mode} map {}x{}",
                file.display(),
                map.width,
                map.height
            )?;
            out!("{}", map.picture)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Deck(DeckCommand::Check { file, rules, rule }) => {
            let rules = play::rules_json(rules.as_deref(), &rule)?;
            let modes = arena_tournament::modes::deck_modes();
            let mode = *modes.first().context("no mode takes deck files")?;
            let cards = play::read_deck(mode, &file, &rules)?;
            outln!("{}: ok, {} cards", file.display(), cards.len())?;
            let format = arena_tournament::modes::decks_of(mode).context("deck files")?;
            out!("{}", (format.write)(&cards))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Deck(DeckCommand::FromReplay { replay, seat, out }) => {
            let text = replay::deck_of(&replay, seat)?;
            match out {
                Some(path) => {
                    std::fs::write(&path, &text)
                        .with_context(|| format!("cannot write {}", path.display()))?;
                    errln!("deck of seat {seat} written to {}", path.display());
                }
                None => out!("{text}")?,
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Read a JSON or TOML rules file into the JSON form the engine takes.
fn read_rules(path: &std::path::Path) -> Result<serde_json::Value> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read rules file {}", path.display()))?;
    if path.extension().is_some_and(|e| e == "json") {
        serde_json::from_str(&text).with_context(|| format!("{}: invalid JSON", path.display()))
    } else {
        let table: toml::Table = text
            .parse()
            .with_context(|| format!("{}: invalid TOML", path.display()))?;
        Ok(serde_json::to_value(table)?)
    }
}
