//! `arena tournament plan|run|report|merge` and `arena gauntlet`.

use crate::SandboxArgs;
use crate::play::RulesArgs;
use anyhow::{Context, Result};
use arena_sandbox::Sandbox;
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
use std::io::IsTerminal;
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
    /// With --replays: also write a web page that plays each replay, beside it
    /// (`game-000001.html`).
    #[arg(long, requires = "replays")]
    html: bool,
    /// Format of the report printed at the end.
    #[arg(long, default_value = "table")]
    format: ReportFormat,
    /// Don't print the report at the end.
    #[arg(long)]
    quiet: bool,
    /// Print the standings so far every N games played (to standard error).
    #[arg(long, value_name = "N", default_value_t = 0)]
    rating_interval: usize,
}

pub fn tournament(command: TournamentCommand, sandbox: &SandboxArgs) -> Result<ExitCode> {
    match command {
        TournamentCommand::Plan { file, json } => {
            let tournament = load(&file, sandbox)?;
            let plan = plan(&tournament);
            if json {
                outln!("{}", serde_json::to_string_pretty(&plan)?)?;
                return Ok(ExitCode::SUCCESS);
            }
            outln!(
                "tournament {}: {} games, fingerprint {}",
                tournament.name,
                plan.games.len(),
                &plan.fingerprint[..16]
            )?;
            for game in &plan.games {
                let variant = tournament
                    .rotations
                    .get(&game.mode)
                    .map_or(String::new(), |r| {
                        format!("  {}", r[game.variant as usize % r.len()].0)
                    });
                outln!(
                    "{:>6}  {:<7} {} vs {}  seed {}{variant}",
                    game.game,
                    game.mode.name(),
                    tournament.bots[game.seats[0]].name,
                    tournament.bots[game.seats[1]].name,
                    game.seed
                )?;
            }
            Ok(ExitCode::SUCCESS)
        }
        TournamentCommand::Run(args) => run_command(args, sandbox),
        TournamentCommand::Report { dir, format } => {
            out!("{}", report_of(&dir, format)?)?;
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
            errln!(
                "merged {} games from {} directories into {}",
                games.len(),
                dirs.len(),
                out.display()
            );
            if !missing.is_empty() {
                errln!("missing {} games: {}", missing.len(), compact(&missing));
            }
            write_picture(&out)?;
            out!("{}", report_of(&out, format)?)?;
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

/// How a run shows its progress: a bar on a terminal; on anything else (a log file, CI),
/// a plain line every few seconds and at the end, without colour codes. With
/// `--rating-interval N`, the standings so far every N games (on standard error, so that
/// standard output stays the final report).
struct Reporter {
    bar: Option<ProgressBar>,
    started: std::time::Instant,
    last_line: std::sync::Mutex<Option<std::time::Instant>>,
    /// The last progress seen: what this run played, also when it fails.
    last: std::sync::Mutex<Option<Progress>>,
    rating_interval: usize,
    out: PathBuf,
}

/// Between two progress lines off a terminal.
const LINE_INTERVAL: std::time::Duration = std::time::Duration::from_secs(5);

impl Reporter {
    fn new(rating_interval: usize, out: &Path) -> Reporter {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(0);
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} games  {per_sec}  ETA {eta}",
                )
                .expect("valid template"),
            );
            bar
        });
        Reporter {
            bar,
            started: std::time::Instant::now(),
            last_line: std::sync::Mutex::new(None),
            last: std::sync::Mutex::new(None),
            rating_interval,
            out: out.to_owned(),
        }
    }

    fn update(&self, p: Progress) {
        let first = self
            .last
            .lock()
            .expect("no panics while locked")
            .replace(p)
            .is_none();
        if first && p.skipped > 0 {
            self.line(&format!(
                "resuming: {} games finished earlier are kept; {} to play",
                p.skipped, p.total
            ));
        }
        match &self.bar {
            Some(bar) => {
                bar.set_length(p.total as u64);
                bar.set_position(p.done as u64);
            }
            None => {
                let now = std::time::Instant::now();
                let mut last = self.last_line.lock().expect("no panics while locked");
                let due = last.is_none_or(|t| now - t >= LINE_INTERVAL);
                if p.total > 0 && (due || p.done == p.total) && (p.done > 0 || last.is_none()) {
                    *last = Some(now);
                    let elapsed = self.started.elapsed().as_secs_f64();
                    let rate = p.done as f64 / elapsed.max(1e-9);
                    let eta = if p.done > 0 {
                        format!(", ETA {:.0} s", (p.total - p.done) as f64 / rate)
                    } else {
                        String::new()
                    };
                    errln!(
                        "progress: {}/{} games ({:.0}%), {elapsed:.0} s, {rate:.1} games/s{eta}",
                        p.done,
                        p.total,
                        100.0 * p.done as f64 / p.total as f64
                    );
                }
            }
        }
        if self.rating_interval > 0 && p.done > 0 && p.done.is_multiple_of(self.rating_interval) {
            match report_of(&self.out, ReportFormat::Table) {
                Ok(report) => self.line(&format!(
                    "standings after {} of {} games:\n{}",
                    p.done + p.skipped,
                    p.total + p.skipped,
                    report.trim_end()
                )),
                Err(error) => tracing::warn!("interim standings: {error:#}"),
            }
        }
    }

    fn line(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| errln!("{text}")),
            None => errln!("{text}"),
        }
    }

    /// Games this run played so far.
    fn played(&self) -> usize {
        self.last
            .lock()
            .expect("no panics while locked")
            .map_or(0, |p| p.done)
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Read a tournament file, apply the command line's limits, and settle which modes each
/// wasm bot plays (those it accepts; a listed mode it refuses is an error here, before
/// any game).
fn load(file: &Path, sandbox_args: &SandboxArgs) -> Result<Tournament> {
    let mut tournament = read(file, sandbox_args)?;
    build_bots(&tournament).with_context(|| file.display().to_string())?;
    settle(&mut tournament, sandbox_args).with_context(|| file.display().to_string())?;
    Ok(tournament)
}

/// Build the tournament's bot directories (crates, Go, Python, JavaScript) one by one,
/// showing the build's progress on standard error: a first build of a crate compiles the
/// SDK and takes a minute. On a terminal a spinner with cargo's current line; elsewhere a
/// line per step. Loading the bots afterwards finds the builds done.
fn build_bots(tournament: &Tournament) -> Result<()> {
    let mut seen = std::collections::BTreeSet::new();
    for bot in &tournament.bots {
        if !seen.insert(bot.spec.clone()) {
            continue;
        }
        if matches!(bot.spec, BotSpec::Builtin(_) | BotSpec::Module(_)) {
            continue;
        }
        let started = std::time::Instant::now();
        let what = format!("bot `{}` ({})", bot.name, bot.spec);
        let spinner = std::io::stderr().is_terminal().then(|| {
            let spinner = ProgressBar::new_spinner();
            spinner.set_style(
                ProgressStyle::with_template("{spinner} [{elapsed}] building {prefix}: {wide_msg}")
                    .expect("valid template"),
            );
            spinner.set_prefix(what.clone());
            spinner.enable_steady_tick(std::time::Duration::from_millis(120));
            spinner
        });
        if spinner.is_none() {
            errln!("building {what} …");
        }
        let built = bot.spec.build(&mut |line: &str| match &spinner {
            Some(spinner) => spinner.set_message(crate::terminal::escape(line.trim()).into_owned()),
            None if !line.trim().is_empty() => errln!("  {}", crate::terminal::escape(line)),
            None => {}
        });
        if let Some(spinner) = &spinner {
            spinner.finish_and_clear();
        }
        if let Some(built) = built {
            built.with_context(|| format!("bot `{}`", bot.name))?;
            errln!("built {what} in {:.1} s", started.elapsed().as_secs_f64());
        }
    }
    Ok(())
}

/// Read a tournament file and apply the command line's limits; its modes are not settled.
fn read(file: &Path, sandbox_args: &SandboxArgs) -> Result<Tournament> {
    let mut tournament = Tournament::load(file)?;
    apply_cli_limits(&mut tournament.limits, sandbox_args);
    Ok(tournament)
}

/// Load the bots of `tournament` for `jobs` parallel games, once, and settle the modes
/// each plays with them; the run then plays with the same loaded bots.
/// Play `plan` with bots already loaded, the progress (and every `rating_interval` games
/// the standings) on standard error; the reporter is finished whatever the outcome. Also
/// returns the games this run played (what an error says was done before it).
fn run_reported(
    tournament: &Tournament,
    plan: &arena_tournament::plan::Plan,
    options: &RunOptions,
    rating_interval: usize,
    loaded: &run::Loaded,
) -> (Result<run::RunSummary, run::RunError>, usize) {
    let reporter = Reporter::new(rating_interval, &options.out);
    let result = run::run_loaded(
        tournament,
        plan,
        options,
        &|p: Progress| reporter.update(p),
        Some(loaded),
    );
    reporter.finish();
    (result, reporter.played())
}

fn load_bots(
    tournament: &mut Tournament,
    jobs: usize,
    sandbox_args: &SandboxArgs,
) -> Result<run::Loaded> {
    let loaded = run::load(tournament, jobs, sandbox_args.cache())?;
    arena_tournament::playable::settle_loaded(tournament, &loaded.contestants, &loaded.sandbox)?;
    Ok(loaded)
}

fn settle(tournament: &mut Tournament, sandbox_args: &SandboxArgs) -> Result<()> {
    let sandbox = Sandbox::new(tournament.limits.limits(), sandbox_args.cache())?;
    arena_tournament::playable::settle(tournament, &sandbox)?;
    Ok(())
}

fn run_command(args: RunArgs, sandbox: &SandboxArgs) -> Result<ExitCode> {
    let mut tournament = read(&args.file, sandbox)?;
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
    // A results directory another run is writing is refused before bots are built (the
    // run takes the lock itself; this only says so early).
    results::check_unlocked(&run::results_file(&out, shard))?;
    build_bots(&tournament).with_context(|| args.file.display().to_string())?;
    let loaded = load_bots(&mut tournament, jobs, sandbox)
        .with_context(|| args.file.display().to_string())?;
    let plan = plan(&tournament);
    let options = RunOptions {
        jobs,
        shard,
        replays: args.replays,
        out: out.clone(),
        cache: sandbox.cache(),
    };
    let (result, played) =
        run_reported(&tournament, &plan, &options, args.rating_interval, &loaded);
    // A lock taken between the check above and the run's own is still no stopped run.
    let result = match result {
        Err(run::RunError::Results(locked @ results::ResultsError::Locked { .. })) => {
            return Err(locked.into());
        }
        result => result,
    };
    let summary = result.with_context(|| {
        format!(
            "{}: stopped after playing {} games in this run; the results so far are kept in {} (run again to resume)",
            tournament.name,
            played,
            out.display()
        )
    })?;
    if args.html {
        let pages = write_pages(
            &out.join("replays"),
            tournament.limits.limits().fuel_per_turn,
            &summary.replays,
        )?;
        errln!(
            "{pages} replay pages written in {}",
            out.join("replays").display()
        );
        let index = write_index(&out)?;
        errln!("tournament index: {}", index.display());
    }
    errln!(
        "{}: this run played {} games; {} were finished earlier; {} of the {} games of this {} are done; results in {}",
        tournament.name,
        summary.played,
        summary.skipped,
        summary.played + summary.skipped,
        summary.planned,
        shard.map_or("tournament".to_owned(), |s| format!("shard {s}")),
        summary.results_file.display()
    );
    let picture = write_picture(&out)?;
    if !args.quiet {
        out!("{}", report_of(&out, args.format)?)?;
        errln!("ratings picture: {}", picture.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The replays in `dir` now (none when it does not exist).
fn replay_files(dir: &Path) -> Result<Vec<PathBuf>> {
    if !dir.exists() {
        return Ok(Vec::new());
    }
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    let mut replays: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    replays.sort();
    Ok(replays)
}

/// A page beside every replay in `dir` that has none yet (a resumed run adds the new
/// games' pages). The replays in `just_played` (sorted) this run wrote; every other one
/// (an earlier run's, another shard's, anyone's) is verified first. Returns how many
/// were written.
fn write_pages(dir: &Path, fuel_per_turn: u64, just_played: &[PathBuf]) -> Result<usize> {
    let mut written = 0;
    for path in replay_files(dir)? {
        let html = path.with_extension("html");
        if html.exists() {
            continue;
        }
        let bytes =
            std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let json: serde_json::Value = serde_json::from_slice(&bytes)
            .with_context(|| format!("{}: not JSON", path.display()))?;
        let trust = if just_played.binary_search(&path).is_ok() {
            crate::replay::Trust::JustPlayed
        } else {
            crate::replay::Trust::Verify
        };
        crate::replay::write_html(&json, &html, fuel_per_turn, trust)
            .with_context(|| path.display().to_string())?;
        written += 1;
    }
    Ok(written)
}

/// `replays/index.html`: the standings, the matrix and every game of the results in
/// `out` so far, each linked to its page where it has one. Returns its path.
fn write_index(out: &Path) -> Result<PathBuf> {
    let saved = results::read_plan(out)
        .with_context(|| format!("{} is not a results directory", out.display()))?;
    let games: Vec<_> = results::read_results(out, &saved.plan.fingerprint)?
        .into_values()
        .collect();
    let planned: Vec<u32> = saved.plan.games.iter().map(|g| g.game).collect();
    let report = report::build(&saved.name, &planned, &games);
    let replays = out.join("replays");
    let link = |game: &results::GameLine| {
        let page = arena_tournament::run::replay_path(out, game.game).with_extension("html");
        page.exists()
            .then(|| page.file_name().map(|n| n.to_string_lossy().into_owned()))
            .flatten()
    };
    let path = replays.join("index.html");
    std::fs::write(&path, arena_tournament::index::page(&report, &games, &link))
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn apply_cli_limits(limits: &mut LimitsConfig, sandbox: &SandboxArgs) {
    let cli = sandbox.limits_config();
    limits.fuel_per_turn = cli.fuel_per_turn.or(limits.fuel_per_turn);
    limits.fuel_per_setup = cli.fuel_per_setup.or(limits.fuel_per_setup);
    limits.memory_mib = cli.memory_mib.or(limits.memory_mib);
    limits.encoding = cli.encoding;
}

#[derive(Debug, Args)]
pub struct GauntletArgs {
    /// The bots: .wasm/.wat files or bot directories (Rust, Go, Python, JavaScript,
    /// TypeScript). Each plays every built-in of
    /// its modes (and the other bots given).
    #[arg(required = true, value_name = "BOT")]
    bots: Vec<String>,
    /// Only these modes (a bot that refuses one is an error) [default: every mode each bot
    /// plays without faults, as `arena check` finds].
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
    /// Rules (`--rules`, `--rule` need a single mode; `--map` applies to grid, `--deck` to tcg).
    #[command(flatten)]
    rules: RulesArgs,
}

pub fn gauntlet(args: GauntletArgs, sandbox_args: &SandboxArgs) -> Result<ExitCode> {
    anyhow::ensure!(
        args.games > 0 && args.games.is_multiple_of(2),
        "--games must be a positive even number (seats are swapped)"
    );
    let mut bots: Vec<BotEntry> = Vec::new();
    for text in &args.bots {
        let spec: BotSpec = text.parse()?;
        anyhow::ensure!(
            !matches!(spec, BotSpec::Builtin(_)),
            "{text}: the gauntlet is for your bots; built-ins are their opponents"
        );
        let name = spec.short_name();
        anyhow::ensure!(
            !bots.iter().any(|b| b.name == name),
            "two bots are named `{name}`; give each bot once (rename one file)"
        );
        let (modes, modes_listed) = if args.mode.is_empty() {
            (accepted_modes(&spec, sandbox_args)?, false)
        } else {
            (args.mode.clone(), true)
        };
        anyhow::ensure!(
            !modes.is_empty(),
            "{text}: the bot plays no mode without faults (run `arena check` to see why)"
        );
        bots.push(BotEntry {
            name,
            spec,
            modes,
            modes_listed,
            deck: None,
        });
    }
    let challengers: Vec<String> = bots.iter().map(|b| b.name.clone()).collect();
    let mut modes: Vec<Mode> = bots.iter().flat_map(|b| b.modes.clone()).collect();
    modes.sort();
    modes.dedup();
    anyhow::ensure!(
        !(args.rules.has_mode_independent() && modes.len() > 1),
        "--rules and --rule apply to one mode; the gauntlet plays {}: add --mode",
        modes
            .iter()
            .map(|m| m.name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    args.rules.check_modes(&modes)?;
    let mut mode_rules = Vec::new();
    for &mode in &modes {
        mode_rules.push((mode, args.rules.for_mode_lenient(mode)?));
        // Built-ins of different modes are different bots, even with the same name.
        for builtin in modes::builtins_of(mode) {
            bots.push(BotEntry {
                name: format!("{mode}/{}", builtin.name),
                spec: BotSpec::Builtin(builtin.name.to_owned()),
                modes: vec![mode],
                modes_listed: true,
                deck: None,
            });
        }
    }
    let title = challengers.join("+");
    let mut tournament = Tournament {
        name: arena_tournament::config::path_safe_name(&format!("gauntlet-{title}")),
        seed: args.seed,
        format: Format::Gauntlet,
        challengers: challengers.clone(),
        games_per_pairing: args.games,
        concurrency: args.jobs,
        max_faults: arena_engine::DEFAULT_MAX_FAULTS,
        max_rejections: arena_engine::DEFAULT_MAX_REJECTIONS,
        limits: LimitsConfig::default(),
        modes: mode_rules,
        bots,
        rotations: Default::default(),
    };
    apply_cli_limits(&mut tournament.limits, sandbox_args);
    let jobs = args.jobs.unwrap_or_else(default_jobs);
    let loaded = load_bots(&mut tournament, jobs, sandbox_args)?;
    let mut temp = None;
    let out = match &args.out {
        Some(dir) => dir.clone(),
        None => temp.insert(tempfile::tempdir()?).path().to_owned(),
    };
    let plan = plan(&tournament);
    let options = RunOptions {
        jobs,
        shard: None,
        replays: false,
        out: out.clone(),
        cache: sandbox_args.cache(),
    };
    let (result, played) = run_reported(&tournament, &plan, &options, 0, &loaded);
    if let Err(error) = result {
        // The games played so far are kept (a temporary directory too), so the run can be
        // resumed or its faults read.
        if let Some(temp) = temp {
            let _ = temp.keep();
        }
        return Err(anyhow::Error::new(error).context(format!(
            "the gauntlet stopped after playing {} games; the results so far are kept in {} (run again with --out {} to resume)",
            played,
            out.display(),
            out.display()
        )));
    }
    let games: Vec<_> = results::read_results(&out, &plan.fingerprint)?
        .into_values()
        .collect();
    let planned: Vec<u32> = plan.games.iter().map(|g| g.game).collect();
    let report = report::build(&tournament.name, &planned, &games);
    for name in &challengers {
        out!("{}", gauntlet_summary(name, &report))?;
    }
    if let Some(format) = args.format {
        out!("{}", report::render(&report, format))?;
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
                .strip_prefix(&format!("{}/", standings.scope))
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
