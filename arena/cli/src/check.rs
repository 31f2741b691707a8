//! `arena check` and `arena builtins`.

use crate::SandboxArgs;
use anyhow::{Context, Result};
use arena_engine::{Fault, FaultKind, Player};
use arena_sandbox::{LoadedBot, Sandbox};
use arena_sdk::{ABI_VERSION, MatchStart, Mode};
use arena_tournament::for_mode;
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The bot: a .wasm or .wat file, or a bot crate directory.
    bot: PathBuf,
    /// Print the findings as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Serialize)]
struct ModeCheck {
    mode: Mode,
    accepted: bool,
    fuel: u64,
    fault: Option<Fault>,
    log: String,
}

#[derive(Debug, Serialize)]
struct Report<'a> {
    bot: String,
    ok: bool,
    error: Option<String>,
    module: Option<&'a arena_sandbox::ModuleInfo>,
    modes: Vec<ModeCheck>,
}

pub fn check(args: CheckArgs, sandbox_args: &SandboxArgs) -> Result<ExitCode> {
    let sandbox = sandbox_args.sandbox()?;
    let spec: arena_tournament::bots::BotSpec = args
        .bot
        .to_str()
        .context("bot path is not UTF-8")?
        .parse()
        .or_else(|_| {
            Ok::<_, anyhow::Error>(arena_tournament::bots::BotSpec::Module(args.bot.clone()))
        })?;
    let loaded = match arena_tournament::bots::Contestant::resolve(&spec, &sandbox) {
        Ok(arena_tournament::bots::Contestant::Wasm(bot)) => Ok(bot),
        Ok(arena_tournament::bots::Contestant::Builtin(name)) => {
            anyhow::bail!("builtin:{name} is a built-in AI; `arena check` checks wasm bots")
        }
        Err(error) => Err(error.to_string()),
    };
    let modes = match &loaded {
        Ok(bot) => Mode::ALL
            .into_iter()
            .map(|mode| start_in(mode, bot, &sandbox))
            .collect(),
        Err(_) => Vec::new(),
    };
    let ok = loaded.is_ok() && modes.iter().any(|m| m.accepted);
    let error = match &loaded {
        Err(e) => Some(e.clone()),
        Ok(_) if !ok => Some(match modes.first().and_then(|m| m.fault.as_ref()) {
            Some(fault) => format!(
                "the start request failed in every mode; in {}: {fault}",
                modes[0].mode
            ),
            None => "the start request failed in every mode".to_owned(),
        }),
        Ok(_) => None,
    };
    let report = Report {
        bot: args.bot.display().to_string(),
        ok,
        error,
        module: loaded.as_ref().ok().map(LoadedBot::info),
        modes,
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_report(&report);
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn start_in(mode: Mode, bot: &LoadedBot, sandbox: &Sandbox) -> ModeCheck {
    for_mode!(mode, G => {
        let mut player = bot.player(sandbox);
        let start = MatchStart::<G> { abi: ABI_VERSION, mode, seat: 0, seed: 1, rules: Default::default() };
        let result = Player::<G>::start(&mut player, &start);
        let report = Player::<G>::last_call(&mut player);
        ModeCheck { mode, accepted: result.is_ok(), fuel: report.fuel, fault: result.err(), log: report.log }
    })
}

fn print_report(report: &Report<'_>) {
    println!("bot: {}", report.bot);
    if let Some(info) = report.module {
        println!("size: {} bytes, sha256 {}", info.size, info.sha256);
        println!(
            "{}: {:.1} ms",
            if info.from_cache {
                "loaded from cache"
            } else {
                "compiled"
            },
            info.load_time.as_secs_f64() * 1000.0
        );
        println!("initial memory: {} KiB", info.initial_memory >> 10);
        println!(
            "imports: {}",
            if info.imports.is_empty() {
                "none".to_owned()
            } else {
                info.imports.join(", ")
            }
        );
        println!("exports:");
        for export in &info.exports {
            println!("  {export}");
        }
    }
    for check in &report.modes {
        match &check.fault {
            None => println!("start ({}): ok, {} fuel", check.mode, check.fuel),
            Some(fault) if fault.kind == FaultKind::BotError => {
                println!("start ({}): not played — {}", check.mode, fault.message)
            }
            Some(fault) => println!(
                "start ({}): FAULT {fault} ({} fuel)",
                check.mode, check.fuel
            ),
        }
        if !check.log.is_empty() {
            println!("  log: {}", check.log);
        }
    }
    match &report.error {
        None => println!("ok: the bot is ready to play"),
        Some(error) => println!("REJECTED: {error}"),
    }
}

#[derive(Debug, Args)]
pub struct BuiltinsArgs {
    /// Only this mode.
    #[arg(long)]
    mode: Option<Mode>,
    /// Print as JSON.
    #[arg(long)]
    json: bool,
}

pub fn builtins(args: BuiltinsArgs) -> Result<ExitCode> {
    let list: Vec<_> = arena_builtins::all()
        .into_iter()
        .filter(|b| args.mode.is_none_or(|m| m == b.mode))
        .collect();
    if args.json {
        let rows: Vec<_> = list
            .iter()
            .map(|b| serde_json::json!({"mode": b.mode, "name": b.name, "strength": b.strength, "summary": b.summary}))
            .collect();
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        for b in &list {
            println!("{:<8} builtin:{:<24} {}", b.mode.name(), b.name, b.summary);
        }
    }
    Ok(ExitCode::SUCCESS)
}
