//! `arena` — the Bot Arena command line. The only crate that parses arguments and prints.

mod check;
mod play;
mod replay;
mod text;

use anyhow::{Context, Result};
use arena_sandbox::{Limits, ModuleCache, Sandbox};
use clap::{Args, Parser, Subcommand};
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
    #[arg(long, global = true, value_name = "FUEL")]
    fuel_per_turn: Option<u64>,
    /// Fuel for instantiation + start, and for setup.
    #[arg(long, global = true, value_name = "FUEL")]
    fuel_per_setup: Option<u64>,
    /// Memory limit per bot, in MiB.
    #[arg(long, global = true, value_name = "MIB")]
    memory_mib: Option<usize>,
    /// Where compiled modules are cached [default: $ARENA_CACHE_DIR, else ~/.cache/bot-arena/modules].
    #[arg(long, global = true, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    /// Compile every bot afresh; don't read or write the module cache.
    #[arg(long, global = true)]
    no_cache: bool,
}

impl SandboxArgs {
    fn limits(&self) -> Limits {
        let mut limits = Limits::default();
        if let Some(fuel) = self.fuel_per_turn {
            limits.fuel_per_turn = fuel;
        }
        if let Some(fuel) = self.fuel_per_setup {
            limits.fuel_per_setup = fuel;
        }
        if let Some(mib) = self.memory_mib {
            limits.memory_bytes = mib << 20;
        }
        limits
    }

    fn sandbox(&self) -> Result<Sandbox> {
        let cache = if self.no_cache {
            None
        } else {
            self.cache_dir.clone().or_else(ModuleCache::default_location).map(ModuleCache::new)
        };
        Ok(Sandbox::new(self.limits(), cache)?)
    }
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Load, validate and compile a bot, and run its start request for every mode.
    Check(check::CheckArgs),
    /// List the built-in AIs of every mode.
    Builtins(check::BuiltinsArgs),
    /// Play one match between two bots.
    Play(play::PlayArgs),
    /// Show or verify a replay file.
    #[command(subcommand)]
    Replay(replay::ReplayCommand),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ARENA_LOG").unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Check(args) => check::check(args, &cli.sandbox),
        Command::Builtins(args) => check::builtins(args),
        Command::Play(args) => play::play(args, &cli.sandbox),
        Command::Replay(command) => replay::replay(command),
    }
}

/// Read a JSON or TOML rules file into the JSON form the engine takes.
fn read_rules(path: &std::path::Path) -> Result<serde_json::Value> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read rules file {}", path.display()))?;
    if path.extension().is_some_and(|e| e == "json") {
        serde_json::from_str(&text).with_context(|| format!("{}: invalid JSON", path.display()))
    } else {
        let table: toml::Table = text.parse().with_context(|| format!("{}: invalid TOML", path.display()))?;
        Ok(serde_json::to_value(table)?)
    }
}
