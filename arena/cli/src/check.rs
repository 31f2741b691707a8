//! `arena check` and `arena builtins`.

use crate::SandboxArgs;
use anyhow::{Context, Result};
use arena_engine::{Fault, FaultKind};
use arena_sandbox::{LoadedBot, Sandbox};
use arena_sdk::Mode;
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
    /// A trial game against the mode's weakest built-in, when the start was accepted.
    trial: Option<Trial>,
}

/// One game against a built-in: does the bot play the mode without faults?
#[derive(Debug, Serialize)]
struct Trial {
    opponent: String,
    result: &'static str,
    reason: String,
    turns: u32,
    faults: u32,
    /// The first fault, with its turn.
    first_fault: Option<String>,
    /// The first answer the rules rejected, with its turn and why.
    first_rejection: Option<String>,
    invalid_actions: u32,
    /// Fuel of the bot's turn answers: the largest and the mean.
    fuel_per_turn_max: u64,
    fuel_per_turn_mean: u64,
}

#[derive(Debug, Serialize)]
struct Report<'a> {
    bot: String,
    ok: bool,
    error: Option<String>,
    /// Things that work but should be fixed (a debug build).
    warnings: Vec<String>,
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
    let modes: Vec<ModeCheck> = match &loaded {
        Ok(bot) => Mode::ALL
            .into_iter()
            .map(|mode| {
                let mut check = start_in(mode, bot, &sandbox)?;
                if check.accepted {
                    check.trial = Some(trial(mode, bot, &sandbox)?);
                }
                Ok(check)
            })
            .collect::<Result<_>>()?,
        Err(_) => Vec::new(),
    };
    let plays = |m: &ModeCheck| m.trial.as_ref().is_some_and(|t| t.faults == 0);
    let ok = loaded.is_ok() && modes.iter().any(plays);
    let error = match &loaded {
        Err(e) => Some(e.clone()),
        Ok(_) if ok => None,
        Ok(_) => Some(
            match modes
                .iter()
                .find_map(|m| m.trial.as_ref().map(|t| (m.mode, t)))
            {
                Some((mode, trial)) => format!(
                    "the bot faults in every mode it accepts; in {mode}: {}",
                    trial.first_fault.as_deref().unwrap_or("?")
                ),
                None => match modes.first().and_then(|m| m.fault.as_ref()) {
                    Some(fault) => format!(
                        "the start request failed in every mode; in {}: {fault}",
                        modes[0].mode
                    ),
                    None => "the start request failed in every mode".to_owned(),
                },
            },
        ),
    };
    let warnings = match (&spec, &loaded) {
        (arena_tournament::bots::BotSpec::Module(path), Ok(_)) => {
            debug_build_warning(path).into_iter().collect()
        }
        _ => Vec::new(),
    };
    let report = Report {
        bot: args.bot.display().to_string(),
        ok,
        error,
        warnings,
        module: loaded.as_ref().ok().map(LoadedBot::info),
        modes,
    };
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        print_report(&report)?;
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// A module with DWARF sections is a debug build (or a release build with `debug = true`):
/// several times larger, and a debug Rust build also burns far more fuel per turn.
fn debug_build_warning(path: &std::path::Path) -> Option<String> {
    let bytes = std::fs::read(path).ok()?;
    if !bytes.starts_with(b"\0asm") {
        return None;
    }
    let mut debug_bytes = 0usize;
    for payload in wasmparser::Parser::new(0).parse_all(&bytes) {
        if let Ok(wasmparser::Payload::CustomSection(section)) = payload
            && section.name().starts_with(".debug_")
        {
            debug_bytes += section.data().len();
        }
    }
    if debug_bytes == 0 {
        return None;
    }
    let rust = path
        .components()
        .any(|c| c.as_os_str() == "wasm32-unknown-unknown");
    Some(format!(
        "this module is {} KiB, {} KiB of it debug information: it looks like a debug build, \
         which is larger and slower (more fuel per turn); {}",
        bytes.len() >> 10,
        debug_bytes >> 10,
        if rust {
            "build it with `cargo build --release --target wasm32-unknown-unknown`"
        } else {
            "build it without debug information (e.g. `-O2`, no `-g`)"
        }
    ))
}

fn start_in(mode: Mode, bot: &LoadedBot, sandbox: &Sandbox) -> Result<ModeCheck> {
    let check = arena_tournament::playable::start(mode, &serde_json::Value::Null, bot, sandbox)?;
    Ok(ModeCheck {
        mode,
        accepted: check.answer.is_ok(),
        fuel: check.fuel,
        fault: check.answer.err(),
        log: check.log,
        trial: None,
    })
}

/// The modes whose start `bot` accepts and whose trial game it plays without a fault.
pub fn playable_modes(bot: &LoadedBot, sandbox: &Sandbox) -> Result<Vec<Mode>> {
    let mut modes = Vec::new();
    for mode in Mode::ALL {
        if start_in(mode, bot, sandbox)?.accepted && trial(mode, bot, sandbox)?.faults == 0 {
            modes.push(mode);
        }
    }
    Ok(modes)
}

/// Play one game (seed 1, default rules) against the mode's weakest built-in.
fn trial(mode: Mode, bot: &LoadedBot, sandbox: &Sandbox) -> Result<Trial> {
    use arena_tournament::bots::Contestant;
    use arena_tournament::{game, modes};
    let weakest = modes::builtins_of(mode)
        .iter()
        .min_by_key(|b| b.strength)
        .context("every mode has built-ins")?;
    let opponent = format!("builtin:{}", weakest.name);
    let spec = game::GameSpec {
        mode,
        rules: serde_json::Value::Null,
        seed: 1,
        max_faults: 3,
    };
    let me = Contestant::Wasm(bot.clone());
    let them = Contestant::Builtin(weakest.name.to_owned());
    let played = game::play(&spec, [&me, &them], [bot.name(), &opponent], sandbox, true)?;
    let outcome = &played.outcome;
    let replay = played.replay.expect("asked for a replay");
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

/// The human-readable report; it quotes the bot's own text, so it is printed escaped.
fn print_report(report: &Report<'_>) -> Result<()> {
    use std::fmt::Write;
    let mut out = String::new();
    _ = writeln!(out, "bot: {}", report.bot);
    if let Some(info) = report.module {
        _ = writeln!(out, "size: {} bytes, sha256 {}", info.size, info.sha256);
        _ = writeln!(
            out,
            "{}: {:.1} ms",
            if info.from_cache {
                "loaded from cache"
            } else {
                "compiled"
            },
            info.load_time.as_secs_f64() * 1000.0
        );
        _ = writeln!(out, "initial memory: {} KiB", info.initial_memory >> 10);
        if let Some(warning) = &info.cache_warning {
            _ = writeln!(
                out,
                "warning: refused a module cache entry and recompiled: {warning}"
            );
        }
        _ = writeln!(
            out,
            "imports: {}",
            if info.imports.is_empty() {
                "none".to_owned()
            } else {
                info.imports.join(", ")
            }
        );
        _ = writeln!(out, "exports:");
        for export in &info.exports {
            _ = writeln!(out, "  {export}");
        }
    }
    for check in &report.modes {
        match &check.fault {
            None => _ = writeln!(out, "start ({}): ok, {} fuel", check.mode, check.fuel),
            Some(fault) if fault.kind == FaultKind::BotError => {
                _ = writeln!(
                    out,
                    "start ({}): not played — {}",
                    check.mode, fault.message
                )
            }
            Some(fault) => {
                _ = writeln!(
                    out,
                    "start ({}): FAULT {fault} ({} fuel)",
                    check.mode, check.fuel
                )
            }
        }
        if !check.log.is_empty() {
            _ = writeln!(out, "  log: {}", check.log);
        }
        if let Some(t) = &check.trial {
            writeln!(
                out,
                "  trial game vs {}: {} ({}, {} turns); faults {}, rejected answers {}, fuel per turn mean {} / max {}",
                t.opponent,
                t.result,
                t.reason,
                t.turns,
                t.faults,
                t.invalid_actions,
                t.fuel_per_turn_mean,
                t.fuel_per_turn_max
            )?;
            if let Some(fault) = &t.first_fault {
                _ = writeln!(out, "  first fault: {fault}");
            }
            if let Some(rejection) = &t.first_rejection {
                _ = writeln!(out, "  first rejected answer: {rejection}");
            }
        }
    }
    for warning in &report.warnings {
        _ = writeln!(out, "warning: {warning}");
    }
    match &report.error {
        None => {
            let plays: Vec<&str> = report
                .modes
                .iter()
                .filter(|m| m.trial.as_ref().is_some_and(|t| t.faults == 0))
                .map(|m| m.mode.name())
                .collect();
            _ = writeln!(out, "ok: the bot is ready to play {}", plays.join(", "));
        }
        Some(error) => _ = writeln!(out, "REJECTED: {error}"),
    }
    out!("{}", crate::terminal::escape(&out))
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
        outln!("{}", serde_json::to_string_pretty(&rows)?)?;
    } else {
        for b in &list {
            outln!("{:<8} builtin:{:<24} {}", b.mode.name(), b.name, b.summary)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
