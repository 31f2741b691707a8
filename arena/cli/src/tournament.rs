//! `arena tournament plan|run|report|merge` and `arena gauntlet`.

use crate::SandboxArgs;
use anyhow::{Context, Result};
use arena_sdk::Mode;
use arena_tournament::bots::{BotSpec, Contestant};
use arena_tournament::config::{BotEntry, Format, LimitsConfig, Tournament};
use arena_tournament::modes;
use arena_tournament::plan::{Shard, plan};
use arena_tournament::report::{self, Format as ReportFormat};
use arena_tournament::results;
use arena_tournament::run::{self, Progress, RunOptions};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, Subcommand)]
pub enum TournamentCommand {
    /// Show the numbered list of games a tournament file plans.
    Plan {
        /// The tournament file (TOML).
        file: PathBuf,
        /// Print the plan as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Run (or resume) a tournament, or one shard of it, and print its report.
    Run(RunArgs),
    /// Report the results in a results directory.
    Report {
        /// The results directory.
        dir: PathBuf,
        /// table, json, csv, md or svg (a picture of the ratings).
        #[arg(long, default_value = "table")]
        format: ReportFormat,
    },
    /// Combine the results directories of shards (same plan) into one.
    Merge {
        /// The shards' results directories.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Where to write the merged results.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Format of the report printed after merging.
        #[arg(long, default_value = "table")]
        format: ReportFormat,
    },
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// The tournament file (TOML).
    file: PathBuf,
    /// Parallel games [default: the file's `concurrency`, else all cores].
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Results directory [default: results/<tournament name>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Run one slice: `K/N` (0-based K of N shards), or `N` with K from
    /// JOB_COMPLETION_INDEX (Kubernetes) or SLURM_ARRAY_TASK_ID (Slurm).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Write every game's replay to <out>/replays/.
    #[arg(long)]
    replays: bool,
    /// Format of the report printed at the end.
    #[arg(long, default_value = "table")]
    format: ReportFormat,
    /// Don't print the report at the end.
    #[arg(long)]
    quiet: bool,
}

pub fn tournament(command: TournamentCommand, sandbox: &SandboxArgs) -> Result<ExitCode> {
    match command {
        TournamentCommand::Plan { file, json } => {
            let tournament = Tournament::load(&file)?;
            let plan = plan(&tournament);
            if json {
                println!("{}", serde_json::to_string_pretty(&plan)?);
                return Ok(ExitCode::SUCCESS);
            }
            println!(
                "tournament {}: {} games, fingerprint {}",
                tournament.name,
                plan.games.len(),
                &plan.fingerprint[..16]
            );
            for game in &plan.games {
                println!(
                    "{:>6}  {:<7} {} vs {}  seed {}",
                    game.game,
                    game.mode.name(),
                    tournament.bots[game.seats[0]].name,
                    tournament.bots[game.seats[1]].name,
                    game.seed
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        TournamentCommand::Run(args) => run_command(args, sandbox),
        TournamentCommand::Report { dir, format } => {
            print!("{}", report_of(&dir, format)?);
            Ok(ExitCode::SUCCESS)
        }
        TournamentCommand::Merge { dirs, out, format } => {
            let first = results::read_plan(&dirs[0])?;
            let mut games = std::collections::BTreeMap::new();
            for dir in &dirs {
                let saved = results::read_plan(dir)?;
                anyhow::ensure!(
                    saved.plan.fingerprint == first.plan.fingerprint,
                    "{}: a different tournament plan than {} (fingerprints {}… and {}…)",
                    dir.display(),
                    dirs[0].display(),
                    &saved.plan.fingerprint[..12],
                    &first.plan.fingerprint[..12]
                );
                for (idx, game) in results::read_results(dir, &first.plan.fingerprint)? {
                    if let Some(previous) = games.get(&idx) {
                        anyhow::ensure!(
                            previous == &game,
                            "game {idx} differs between shards: the runs were not deterministic"
                        );
                    }
                    games.insert(idx, game);
                }
            }
            let _lock = results::lock(&out.join("results.jsonl"))?;
            results::save_or_check_plan(&out, &first)?;
            results::write_sorted(&out.join("results.jsonl"), &games)?;
            let missing: Vec<u32> = first
                .plan
                .games
                .iter()
                .map(|g| g.game)
                .filter(|g| !games.contains_key(g))
                .collect();
            eprintln!(
                "merged {} games from {} directories into {}",
                games.len(),
                dirs.len(),
                out.display()
            );
            if !missing.is_empty() {
                eprintln!("missing {} games: {}", missing.len(), compact(&missing));
            }
            write_picture(&out)?;
            print!("{}", report_of(&out, format)?);
            Ok(if missing.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
    }
}

/// `1 2 3 7 8` → `1-3, 7-8`.
fn compact(list: &[u32]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < list.len() {
        let mut j = i;
        while j + 1 < list.len() && list[j + 1] == list[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            list[i].to_string()
        } else {
            format!("{}-{}", list[i], list[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

/// Write the ratings picture next to the results.
fn write_picture(dir: &Path) -> Result<PathBuf> {
    let path = dir.join("standings.svg");
    std::fs::write(&path, report_of(dir, ReportFormat::Svg)?)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

fn report_of(dir: &Path, format: ReportFormat) -> Result<String> {
    let saved = results::read_plan(dir)
        .with_context(|| format!("{} is not a results directory", dir.display()))?;
    let games: Vec<_> = results::read_results(dir, &saved.plan.fingerprint)?
        .into_values()
        .collect();
    let planned: Vec<u32> = saved.plan.games.iter().map(|g| g.game).collect();
    Ok(report::render(
        &report::build(&saved.name, &planned, &games),
        format,
    ))
}

fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} games  {per_sec}  ETA {eta}",
        )
        .expect("valid template"),
    );
    bar
}

fn run_command(args: RunArgs, sandbox: &SandboxArgs) -> Result<ExitCode> {
    let mut tournament = Tournament::load(&args.file)?;
    apply_cli_limits(&mut tournament.limits, sandbox);
    let shard = match &args.shard {
        Some(text) => {
            Some(Shard::parse(text, |v| std::env::var(v).ok()).map_err(anyhow::Error::msg)?)
        }
        None => Shard::from_env(|v| std::env::var(v).ok()).map_err(anyhow::Error::msg)?,
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results").join(&tournament.name));
    let jobs = args
        .jobs
        .or(tournament.concurrency)
        .unwrap_or_else(default_jobs);
    let plan = plan(&tournament);
    let options = RunOptions {
        jobs,
        shard,
        replays: args.replays,
        out: out.clone(),
        cache: sandbox.cache(),
    };
    let bar = progress_bar();
    let summary = run::run(&tournament, &plan, &options, &|p: Progress| {
        bar.set_length(p.total as u64);
        bar.set_position(p.done as u64);
    })?;
    bar.finish_and_clear();
    eprintln!(
        "{}: played {} games, skipped {} finished earlier ({} in this {}); results in {}",
        tournament.name,
        summary.played,
        summary.skipped,
        summary.planned,
        shard.map_or("run".to_owned(), |s| format!("shard {s}")),
        summary.results_file.display()
    );
    let picture = write_picture(&out)?;
    if !args.quiet {
        print!("{}", report_of(&out, args.format)?);
        eprintln!("ratings picture: {}", picture.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn apply_cli_limits(limits: &mut LimitsConfig, sandbox: &SandboxArgs) {
    let cli = sandbox.limits_config();
    limits.fuel_per_turn = cli.fuel_per_turn.or(limits.fuel_per_turn);
    limits.fuel_per_setup = cli.fuel_per_setup.or(limits.fuel_per_setup);
    limits.memory_mib = cli.memory_mib.or(limits.memory_mib);
}

#[derive(Debug, Args)]
pub struct GauntletArgs {
    /// The bot: a .wasm/.wat file or a bot crate directory.
    bot: String,
    /// Only these modes [default: every mode the bot plays without faults, as `arena check` finds].
    #[arg(long, short)]
    mode: Vec<Mode>,
    /// Games against each built-in (even).
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// The gauntlet seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Parallel games [default: all cores].
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Keep the results here (a results directory) instead of a temporary one.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// table, json, csv, md or svg: also print the full report in this format.
    #[arg(long)]
    format: Option<ReportFormat>,
}

pub fn gauntlet(args: GauntletArgs, sandbox_args: &SandboxArgs) -> Result<ExitCode> {
    anyhow::ensure!(
        args.games > 0 && args.games.is_multiple_of(2),
        "--games must be a positive even number (seats are swapped)"
    );
    let spec: BotSpec = args.bot.parse()?;
    anyhow::ensure!(
        !matches!(spec, BotSpec::Builtin(_)),
        "the gauntlet is for your bot; built-ins are its opponents"
    );
    let modes = if args.mode.is_empty() {
        accepted_modes(&spec, sandbox_args)?
    } else {
        args.mode.clone()
    };
    anyhow::ensure!(
        !modes.is_empty(),
        "{}: the bot plays no mode without faults (run `arena check` to see why)",
        args.bot
    );
    let name = spec.short_name();
    let mut bots = vec![BotEntry {
        name: name.clone(),
        spec,
        modes: modes.clone(),
    }];
    for mode in &modes {
        for builtin in modes::builtins_of(*mode) {
            let entry_name = format!("builtin:{}", builtin.name);
            match bots.iter_mut().find(|b| b.name == entry_name) {
                Some(entry) => entry.modes.push(*mode),
                None => bots.push(BotEntry {
                    name: entry_name,
                    spec: BotSpec::Builtin(builtin.name.to_owned()),
                    modes: vec![*mode],
                }),
            }
        }
    }
    let mut tournament = Tournament {
        name: arena_tournament::config::path_safe_name(&format!("gauntlet-{name}")),
        seed: args.seed,
        format: Format::Gauntlet,
        challengers: vec![name.clone()],
        games_per_pairing: args.games,
        concurrency: args.jobs,
        max_faults: 3,
        limits: LimitsConfig::default(),
        modes: modes.iter().map(|m| (*m, serde_json::json!({}))).collect(),
        bots,
    };
    apply_cli_limits(&mut tournament.limits, sandbox_args);
    let temp;
    let out = match &args.out {
        Some(dir) => dir.clone(),
        None => {
            temp = tempfile::tempdir()?;
            temp.path().to_owned()
        }
    };
    let plan = plan(&tournament);
    let options = RunOptions {
        jobs: args.jobs.unwrap_or_else(default_jobs),
        shard: None,
        replays: false,
        out: out.clone(),
        cache: sandbox_args.cache(),
    };
    let bar = progress_bar();
    run::run(&tournament, &plan, &options, &|p: Progress| {
        bar.set_length(p.total as u64);
        bar.set_position(p.done as u64);
    })?;
    bar.finish_and_clear();
    let games: Vec<_> = results::read_results(&out, &plan.fingerprint)?
        .into_values()
        .collect();
    let planned: Vec<u32> = plan.games.iter().map(|g| g.game).collect();
    let report = report::build(&tournament.name, &planned, &games);
    print!("{}", gauntlet_summary(&name, &report));
    if let Some(format) = args.format {
        print!("{}", report::render(&report, format));
    }
    Ok(ExitCode::SUCCESS)
}

/// The challenger's score and Elo against each built-in, per mode.
fn gauntlet_summary(name: &str, report: &report::Report) -> String {
    let mut out = String::new();
    for standings in &report.modes {
        let Some(me) = standings.rows.iter().position(|r| r.bot == name) else {
            continue;
        };
        let mine = &standings.rows[me];
        out += &format!(
            "\n{} — {name}: {:.1}% score, Elo {:.0}{} in this pool\n",
            standings.scope,
            mine.score_pct,
            mine.elo,
            mine.elo_ci95.map_or(String::new(), |c| format!(" ±{c:.0}"))
        );
        let mut rows = vec![
            [
                "opponent", "strength", "games", "W", "D", "L", "score", "Elo diff", "95%",
            ]
            .map(str::to_owned)
            .to_vec(),
        ];
        for (j, other) in standings.rows.iter().enumerate() {
            let Some(cell) = standings.matrix[me][j] else {
                continue;
            };
            let strength = other
                .bot
                .strip_prefix("builtin:")
                .and_then(|b| {
                    arena_builtins::all()
                        .into_iter()
                        .find(|i| i.name == b && i.mode.name() == standings.scope)
                })
                .map_or(String::new(), |i| i.strength.to_string());
            let ci = match (mine.elo_ci95, other.elo_ci95) {
                (Some(a), Some(b)) => format!("±{:.0}", (a * a + b * b).sqrt()),
                _ => "—".to_owned(),
            };
            rows.push(vec![
                other.bot.clone(),
                strength,
                cell.games.to_string(),
                cell.wins.to_string(),
                cell.draws.to_string(),
                cell.losses.to_string(),
                format!("{:.1}%", 100.0 * cell.points / f64::from(cell.games)),
                format!("{:+.0}", mine.elo - other.elo),
                ci,
            ]);
        }
        out += &report::grid(&rows, 1, false);
    }
    out
}

/// The modes the bot plays: it accepts their start request and plays a trial game against
/// the weakest built-in without a fault (the checks of `arena check`).
fn accepted_modes(spec: &BotSpec, sandbox_args: &SandboxArgs) -> Result<Vec<Mode>> {
    let sandbox = sandbox_args.sandbox()?;
    let Contestant::Wasm(bot) = Contestant::resolve(spec, &sandbox)? else {
        return Ok(Vec::new());
    };
    Ok(arena_tournament::check::playable_modes(&bot, &sandbox)?)
}
