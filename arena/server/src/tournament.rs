//! Round-robin tournaments over submitted bots, run by the organizer from a tournament file
//! (`POST /api/tournaments` or `arena serve tournament run FILE`).
//!
//! The file is an ordinary tournament file (docs/tournaments.md); the server appends a
//! `[[bots]]` entry for the latest version of every active submitted bot, playing the
//! file's modes that the bot's check passed. Modules are written to the tournament's
//! directory beside the database, and the run is the CLI's: resumable, same report.

use crate::App;
use crate::error::ApiError;
use crate::store::Store;
use arena_tournament::config::{LimitsConfig, Tournament};
use arena_tournament::{plan, report, results, run};
use axum::http::StatusCode;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A tournament that could not be prepared or run.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// The file.
    #[error("{0}")]
    File(String),
    /// The database.
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    /// Writing modules.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// The run.
    #[error(transparent)]
    Run(#[from] run::RunError),
    /// Reading results.
    #[error(transparent)]
    Results(#[from] results::ResultsError),
}

/// A prepared tournament: the file with the submitted bots appended, parsed.
#[derive(Debug)]
pub struct Prepared {
    /// The database row.
    pub id: i64,
    /// The parsed tournament.
    pub tournament: Tournament,
    /// Its directory (modules, results).
    pub dir: PathBuf,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> TournamentError + '_ {
    move |source| TournamentError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Check the file, write the submitted bots' modules and record the tournament.
pub fn prepare(store: &Store, data_dir: &Path, text: &str) -> Result<Prepared, TournamentError> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        TournamentError::File(format!("tournament file: {}", e.message()))
    })?;
    let modes: Vec<arena_sdk::Mode> = table
        .get("modes")
        .and_then(toml::Value::as_table)
        .map(|t| t.keys().filter_map(|k| k.parse().ok()).collect())
        .unwrap_or_default();
    let name = table
        .get("name")
        .and_then(toml::Value::as_str)
        .unwrap_or("tournament");
    let id = store.add_tournament(name, text)?;
    let dir = data_dir.join("tournaments").join(id.to_string());
    let bots_dir = dir.join("bots");
    std::fs::create_dir_all(&bots_dir).map_err(io(&bots_dir))?;
    let mut full = text.to_owned();
    for version in store.latest_versions()? {
        let bot = store.bot(version.bot)?;
        if !bot.is_some_and(|b| b.active) {
            continue;
        }
        let plays: Vec<&str> = modes
            .iter()
            .filter(|m| version.modes.contains(m))
            .map(|m| m.name())
            .collect();
        if plays.is_empty() {
            continue;
        }
        let Some(wasm) = store.module_of(version.id)? else {
            continue;
        };
        // Bot names are checked at upload (a-z, 0-9, - and _), so they are safe both as
        // file names and inside TOML strings.
        let path = bots_dir.join(format!("{}.wasm", version.bot_name));
        std::fs::write(&path, wasm).map_err(io(&path))?;
        full.push_str(&format!(
            "\n[[bots]]\nname = \"{}\"\nbot = \"bots/{}.wasm\"\nmodes = [{}]\n",
            version.bot_name,
            version.bot_name,
            plays
                .iter()
                .map(|m| format!("\"{m}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let file = dir.join("tournament.toml");
    std::fs::write(&file, &full).map_err(io(&file))?;
    let tournament = Tournament::parse(&full, &file).map_err(|e| {
        let _ = store.finish_tournament(id, Err(&e.to_string()));
        TournamentError::File(e.to_string())
    })?;
    Ok(Prepared {
        id,
        tournament,
        dir,
    })
}

/// Run a prepared tournament to the end (resuming what an earlier run finished) and store
/// its report. Blocking: call it from a thread.
pub fn run_prepared(
    store: &Store,
    prepared: &Prepared,
    jobs: usize,
    limits: &LimitsConfig,
    cache: PathBuf,
) -> Result<report::Report, TournamentError> {
    let mut tournament = prepared.tournament.clone();
    // The server's limits apply unless the file sets its own.
    if tournament.limits == LimitsConfig::default() {
        tournament.limits = limits.clone();
    }
    let plan = plan::plan(&tournament);
    let options = run::RunOptions {
        jobs,
        shard: None,
        replays: false,
        out: prepared.dir.join("results"),
        cache: Some(arena_sandbox::ModuleCache::new(cache)),
    };
    let outcome = run::run(&tournament, &plan, &options, &|_| {})
        .map_err(TournamentError::from)
        .and_then(|_| {
            let games: Vec<_> = results::read_results(&options.out, &plan.fingerprint)?
                .into_values()
                .collect();
            let planned: Vec<u32> = plan.games.iter().map(|g| g.game).collect();
            Ok(report::build(&tournament.name, &planned, &games))
        });
    match &outcome {
        Ok(report) => store.finish_tournament(
            prepared.id,
            Ok((
                &serde_json::to_value(report).expect("reports serialize"),
                &report::render(report, report::Format::Table),
                &report::svg(report),
            )),
        )?,
        Err(error) => store.finish_tournament(prepared.id, Err(&error.to_string()))?,
    }
    outcome
}

/// A tournament posted to the API names only what the server holds: built-ins
/// (`builtin:NAME`) as its own entries — the submitted bots join by themselves — and maps
/// and decks inline in its rules. Never a path: no key ending in `_file`/`_files`, no bot
/// module, crate or Go directory, no bot's own `deck` file. Checked before anything is read
/// or recorded, so no error can quote a file the organizer did not send.
pub fn check_posted(text: &str) -> Result<(), String> {
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| format!("tournament file: {}", e.message()))?;
    fn paths(value: &toml::Value, at: &str, out: &mut Vec<String>) {
        match value {
            toml::Value::Table(table) => {
                for (key, value) in table {
                    let here = if at.is_empty() {
                        key.clone()
                    } else {
                        format!("{at}.{key}")
                    };
                    if key.ends_with("_file") || key.ends_with("_files") {
                        out.push(format!("`{here}`"));
                    }
                    paths(value, &here, out);
                }
            }
            toml::Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    paths(item, &format!("{at}[{i}]"), out);
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    let whole = toml::Value::Table(table);
    paths(&whole, "", &mut found);
    if !found.is_empty() {
        return Err(format!(
            "a tournament posted to the server reads no files: {} (give a map inline as `map = \"\"\"…\"\"\"` and a deck as `deck = [\"card\", …]` in its [modes.*] table)",
            found.join(", ")
        ));
    }
    let bots = whole.get("bots").and_then(toml::Value::as_array);
    for (i, bot) in bots.into_iter().flatten().enumerate() {
        let spec = bot.get("bot").and_then(toml::Value::as_str).unwrap_or("");
        if !spec.starts_with("builtin:") {
            return Err(format!(
                "bots[{i}]: a tournament posted to the server lists only built-ins (`bot = \"builtin:NAME\"`); every submitted bot joins it by itself"
            ));
        }
        if bot.get("deck").is_some() {
            return Err(format!(
                "bots[{i}]: `deck` names a file; a tournament posted to the server reads no files"
            ));
        }
    }
    Ok(())
}

/// Start a tournament in the background; its page shows progress and then the report.
pub fn start(app: &Arc<App>, text: &str) -> Result<i64, ApiError> {
    check_posted(text).map_err(|why| ApiError::new(StatusCode::BAD_REQUEST, why))?;
    if !claim(app) {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "a tournament is running; start the next one when it has finished",
        ));
    }
    let prepared = match prepare(app.store(), &app.config.data_dir(), text) {
        Ok(p) => p,
        Err(error) => {
            release(app);
            return Err(ApiError::new(StatusCode::BAD_REQUEST, error.to_string()));
        }
    };
    let id = prepared.id;
    if let Err(error) = spawn_runs(Arc::clone(app), vec![Run::Prepared(Box::new(prepared))]) {
        release(app);
        let message = format!("cannot start the tournament's thread: {error}");
        let _ = app.store().finish_tournament(id, Err(&message));
        return Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message));
    }
    Ok(id)
}

/// Mark a tournament as running; false if one already is.
fn claim(app: &App) -> bool {
    let mut running = app
        .tournament_running
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    !std::mem::replace(&mut *running, true)
}

fn release(app: &App) {
    *app.tournament_running
        .lock()
        .unwrap_or_else(|e| e.into_inner()) = false;
}

/// A tournament for the runner thread: prepared by a request, or interrupted by a stop
/// (loaded from its directory when its turn comes).
enum Run {
    Prepared(Box<Prepared>),
    Interrupted(i64),
}

/// Run `runs` one after another on one thread, holding the "a tournament is running" mark
/// until the last has finished: each run uses `jobs` threads, so two at once would
/// oversubscribe the machine (next to the ladder's own `jobs`).
fn spawn_runs(app: Arc<App>, runs: Vec<Run>) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("tournaments".to_owned())
        .spawn(move || {
            // Released however this thread ends, a panic in a run included.
            struct Release(Arc<App>);
            impl Drop for Release {
                fn drop(&mut self) {
                    release(&self.0);
                }
            }
            let app = Release(app);
            for run in runs {
                let prepared = match run {
                    Run::Prepared(prepared) => *prepared,
                    Run::Interrupted(id) => match load_interrupted(&app.0, id) {
                        Some(prepared) => prepared,
                        None => continue,
                    },
                };
                let result = run_prepared(
                    app.0.store(),
                    &prepared,
                    app.0.config.jobs,
                    &app.0.config.limits,
                    app.0.config.cache_dir(),
                );
                if let Err(error) = result {
                    tracing::error!(%error, tournament = prepared.id, "tournament failed");
                }
            }
        })
        .map(drop)
}

/// An interrupted tournament from its directory, or `None` (recorded as failed) when its
/// file no longer loads.
fn load_interrupted(app: &App, id: i64) -> Option<Prepared> {
    let dir = app
        .config
        .data_dir()
        .join("tournaments")
        .join(id.to_string());
    match Tournament::load(&dir.join("tournament.toml")) {
        Ok(tournament) => Some(Prepared {
            id,
            tournament,
            dir,
        }),
        Err(error) => {
            tracing::error!(%error, tournament = id, "an interrupted tournament cannot resume");
            let _ = app.store().finish_tournament(id, Err(&error.to_string()));
            None
        }
    }
}

/// Finish the tournaments a stopped server left running (their results directories
/// resume), one after another on one thread, oldest first; no new tournament starts
/// before they are done. Blocking (the database): call it off the async executor.
pub fn resume_interrupted(app: &Arc<App>) {
    let interrupted = match app.store().interrupted_tournaments() {
        Ok(list) => list,
        Err(error) => {
            tracing::error!(%error, "cannot list interrupted tournaments");
            return;
        }
    };
    if interrupted.is_empty() || !claim(app) {
        return;
    }
    let runs = interrupted
        .into_iter()
        .map(|(id, _)| Run::Interrupted(id))
        .collect();
    if let Err(error) = spawn_runs(Arc::clone(app), runs) {
        release(app);
        tracing::error!(%error, "cannot start the thread resuming tournaments");
    }
}
