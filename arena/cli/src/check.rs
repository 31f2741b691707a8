//! `arena check` (the checks are `arena_tournament::check`; this prints them) and
//! `arena builtins`.

use crate::SandboxArgs;
use anyhow::{Context, Result};
use arena_engine::FaultKind;
use arena_sandbox::LoadedBot;
use arena_sdk::{Encoding, Mode};
use arena_tournament::check::{self, ModeCheck};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The bot: a .wasm or .wat file (any language's build: Rust, C, Zig, AssemblyScript,
    /// WAT…), or a bot directory (a Rust crate, a Go module, a Python, JavaScript or
    /// TypeScript bot), built first.
    bot: PathBuf,
    /// Print the findings as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Serialize)]
struct Report<'a> {
    bot: String,
    ok: bool,
    error: Option<String>,
    /// Things that work but should be fixed (a debug build).
    warnings: Vec<String>,
    module: Option<&'a arena_sandbox::ModuleInfo>,
    /// The encoding the bot chose (`json`, `binary`): the same in every mode, as
    /// `arena_encoding` is asked before the mode is known; `None` if no mode instantiated.
    encoding: Option<&'static str>,
    modes: Vec<ModeCheck>,
}

pub fn check(args: CheckArgs, sandbox_args: &SandboxArgs) -> Result<ExitCode> {
    let sandbox = sandbox_args.sandbox()?;
    let spec: arena_tournament::bots::BotSpec = args
        .bot
        .to_str()
        .context("bot path is not UTF-8")?
        .parse()
        .or_else(|error| match error {
            // A bot's source file is not a module: say which directory to give.
            arena_tournament::bots::BotError::SourceFile { .. } => Err(anyhow::Error::new(error)),
            // Anything else is read as a module, and the load says what it is not.
            _ => Ok(arena_tournament::bots::BotSpec::Module(args.bot.clone())),
        })?;
    let loaded = match arena_tournament::bots::Contestant::resolve(&spec, &sandbox) {
        Ok(arena_tournament::bots::Contestant::Wasm(bot)) => Ok(bot),
        Ok(arena_tournament::bots::Contestant::Builtin(name)) => {
            anyhow::bail!("builtin:{name} is a built-in AI; `arena check` checks wasm bots")
        }
        Err(error) => Err(error.to_string()),
    };
    // The checks are the library's (the server runs the same ones on every upload).
    let checked = match &loaded {
        Ok(bot) => Some(check::check(bot, &sandbox)?),
        Err(_) => None,
    };
    let ok = checked.as_ref().is_some_and(|c| c.ok);
    let error = match (&loaded, &checked) {
        (Err(e), _) => Some(e.clone()),
        (Ok(_), Some(c)) => c.error.clone(),
        (Ok(_), None) => None,
    };
    let modes = checked.map(|c| c.modes).unwrap_or_default();
    let warnings = match (&spec, &loaded) {
        (arena_tournament::bots::BotSpec::Module(path), Ok(_)) => {
            debug_build_warning(path).into_iter().collect()
        }
        _ => Vec::new(),
    };
    let encoding = modes.iter().find_map(|m| m.encoding).map(Encoding::name);
    let report = Report {
        bot: args.bot.display().to_string(),
        ok,
        error,
        warnings,
        module: loaded.as_ref().ok().map(LoadedBot::info),
        encoding,
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
    // A core module (version 1), not a component (a Python bot's CPython, built by
    // componentize-py, whose size is the interpreter's).
    if !bytes.starts_with(b"\0asm\x01\0\0\0") {
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

/// The imports by module, names only (`MODULE::NAME: TYPE` each in `imports`), and only
/// counted past four: a JavaScript or Python runner imports a score of WASI functions,
/// whose types the load already checked.
fn imports_summary(imports: &[String]) -> String {
    if imports.is_empty() {
        return "none".to_owned();
    }
    let mut modules: Vec<(&str, Vec<&str>)> = Vec::new();
    for import in imports {
        let name = import
            .split_once(": ")
            .map_or(import.as_str(), |(name, _)| name);
        // A component's imports have no module: each is said whole, with its type.
        let (module, function) = name.split_once("::").unwrap_or(("", import));
        match modules.iter_mut().find(|(m, _)| *m == module) {
            Some((_, functions)) => functions.push(function),
            None => modules.push((module, vec![function])),
        }
    }
    modules
        .iter()
        .map(|(module, functions)| match functions.as_slice() {
            few if module.is_empty() => few.join(", "),
            [one] => format!("{module}::{one}"),
            few if few.len() <= 4 => format!("{module}: {}", few.join(", ")),
            many => format!(
                "{module}: {} functions (`arena check --json` lists them)",
                many.len()
            ),
        })
        .collect::<Vec<_>>()
        .join("; ")
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
        _ = writeln!(out, "imports: {}", imports_summary(&info.imports));
        _ = writeln!(out, "exports:");
        for export in &info.exports {
            _ = writeln!(out, "  {export}");
        }
        let chooses = info
            .exports
            .iter()
            .any(|e| e.starts_with("arena_encoding:"));
        match (report.encoding, chooses) {
            (Some(encoding), _) if info.component => {
                _ = writeln!(
                    out,
                    "encoding: {encoding} (a component: components speak JSON)"
                )
            }
            (Some(encoding), true) => {
                _ = writeln!(out, "encoding: {encoding} (chosen by arena_encoding)")
            }
            (Some(encoding), false) => {
                _ = writeln!(out, "encoding: {encoding} (no arena_encoding export)")
            }
            (None, _) => _ = writeln!(out, "encoding: none (the bot was not instantiated)"),
        }
    }
    // A fault every mode gives alike (a script that does not load: no mode accepted) is
    // said once.
    let said = |check: &arena_tournament::check::ModeCheck| {
        (check.trial.is_none() && check.fault.is_some()).then(|| {
            (
                check.fault.as_ref().map(ToString::to_string),
                check.log.clone(),
            )
        })
    };
    let alike = report.modes.len() > 1
        && report
            .modes
            .iter()
            .all(|m| said(m).is_some() && said(m) == said(&report.modes[0]));
    for check in &report.modes {
        if alike && check.mode != report.modes[0].mode {
            continue;
        }
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
            if t.faults > 0 && !t.forfeited {
                _ = writeln!(
                    out,
                    "  {} of the game's {} turns faulted (each played as the mode's default) and the bot {} the game: it plays {}, but fix the fault",
                    t.faults, t.turns, t.result, check.mode
                );
            }
            if let Some(rejection) = &t.first_rejection {
                _ = writeln!(out, "  first rejected answer: {rejection}");
            }
        }
    }
    if alike {
        let rest: Vec<&str> = report.modes[1..].iter().map(|m| m.mode.name()).collect();
        _ = writeln!(
            out,
            "start ({}): the same as {}",
            rest.join(", "),
            report.modes[0].mode
        );
    }
    for warning in &report.warnings {
        _ = writeln!(out, "warning: {warning}");
    }
    match &report.error {
        None => {
            let plays: Vec<&str> = report
                .modes
                .iter()
                .filter(|m| m.trial.as_ref().is_some_and(|t| !t.forfeited))
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
