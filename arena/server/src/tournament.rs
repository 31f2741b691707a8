//! Round-robin tournaments over submitted bots, run by the organizer from a tournament file
//! (`POST /api/tournaments` or `arena serve tournament run FILE`).
//!
//! The file is a tournament file (docs/tournaments.md) in the server's form: it names only
//! what the server holds — built-ins (`builtin:NAME`), uploaded bots (`NAME`, `NAME@N`)
//! and rules given inline — never a path. The server checks it ([`Posted::parse`]), writes
//! the uploaded modules into the tournament's directory beside the database and writes
//! the complete tournament file there itself, so the run (the CLI's: resumable, same
//! report) reads nothing but what the server wrote.

use crate::App;
use crate::accounts::check_name;
use crate::error::ApiError;
use crate::store::Store;
use arena_sdk::Mode;
use arena_tournament::config::{LimitsConfig, Tournament};
use arena_tournament::{plan, report, results, run};
use axum::http::StatusCode;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The most bytes of a tournament file the server reads from disk: the organizer's file of
/// `arena serve tournament run FILE`, and a tournament's own file when it resumes.
pub const FILE_BYTES_MAX: u64 = 4 << 20;

/// A tournament that could not be prepared or run.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// The file: what is wrong with what the organizer sent (safe to show them).
    #[error("{0}")]
    File(String),
    /// The database.
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    /// Writing modules.
    #[error("{path}: {error}")]
    Io {
        /// The path.
        path: String,
        /// The error.
        error: std::io::Error,
    },
    /// The run.
    #[error(transparent)]
    Run(#[from] run::RunError),
    /// Reading results.
    #[error(transparent)]
    Results(#[from] results::ResultsError),
}

/// A prepared tournament: the server's complete file, parsed.
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
    move |error| TournamentError::Io {
        path: path.display().to_string(),
        error,
    }
}

/// Read at most [`FILE_BYTES_MAX`] bytes of text from `path`, which must be a regular
/// file: a device or a pipe named by mistake is refused before it is opened (a FIFO would
/// block the open, `/dev/zero` never ends), and a larger file is refused after reading one
/// byte past the bound.
pub fn read_file(path: &Path) -> std::io::Result<String> {
    let invalid = |message: String| std::io::Error::new(std::io::ErrorKind::InvalidData, message);
    if !std::fs::metadata(path)?.is_file() {
        return Err(invalid("not a regular file".to_owned()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(FILE_BYTES_MAX + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > FILE_BYTES_MAX {
        return Err(invalid(format!(
            "larger than {FILE_BYTES_MAX} bytes, the most a tournament file may have"
        )));
    }
    String::from_utf8(bytes).map_err(|_| invalid("not UTF-8 text".to_owned()))
}

/// Read the server's own file `path` (in its data directory) as [`read_file`] does, never
/// through a symbolic link: neither the file nor its directory may be one (a data
/// directory tampered with must not make the server read, or show, a file elsewhere).
pub fn read_own_file(path: &Path) -> std::io::Result<String> {
    read_own(path, FILE_BYTES_MAX)
}

/// The largest replay of a tournament game the server reads back for its viewer.
pub const REPLAY_BYTES_MAX: u64 = 64 << 20;

/// Read the server's own file `path` as [`read_own_file`] does, with at most `max` bytes.
pub fn read_own(path: &Path, max: u64) -> std::io::Result<String> {
    use std::os::unix::fs::OpenOptionsExt;
    let invalid = |message: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, message);
    if let Some(dir) = path.parent()
        && !std::fs::symlink_metadata(dir)?.is_dir()
    {
        return Err(invalid(
            "its directory is not a directory (a symbolic link?)",
        ));
    }
    if !std::fs::symlink_metadata(path)?.is_file() {
        return Err(invalid("not a regular file (a symbolic link?)"));
    }
    // O_NOFOLLOW: a link put in place after the check is refused by the open itself;
    // O_NONBLOCK: nor does a FIFO block it.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(invalid("not a regular file"));
    }
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(invalid(
            "larger than the most the server reads of its own files",
        ));
    }
    String::from_utf8(bytes).map_err(|_| invalid("not UTF-8 text"))
}

/// The keys of a tournament file's top level the server passes on as they are (the
/// tournament crate checks their values); `modes` and `bots` it reads itself.
const HEADER_KEYS: [&str; 9] = [
    "name",
    "seed",
    "format",
    "challengers",
    "games_per_pairing",
    "concurrency",
    "max_faults",
    "max_rejections",
    "limits",
];

/// The prefix of a built-in's spec and of its entry's name.
const BUILTIN: &str = "builtin:";

/// What a `[[bots]]` entry of a server tournament plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A built-in (`builtin:NAME`), named `builtin:NAME` in the tournament.
    Builtin(String),
    /// An uploaded bot's latest version (`NAME`), named `NAME`.
    Latest(String),
    /// A version of an uploaded bot (`NAME@N`), named `NAME@N`.
    Version(String, i64),
}

impl Entry {
    /// Read an entry's `bot` value.
    fn parse(spec: &str) -> Result<Entry, String> {
        if let Some(name) = spec.strip_prefix(BUILTIN) {
            let ok = !name.is_empty()
                && name.len() <= 64
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            return if ok {
                Ok(Entry::Builtin(name.to_owned()))
            } else {
                Err(format!(
                    "`{spec}` is not a built-in's name (`arena builtins` lists them)"
                ))
            };
        }
        let not_held = || {
            format!(
                "`{spec}` is not a bot the server holds: name a built-in as `builtin:NAME`, an uploaded bot by its name (`my-bot`) or one of its versions (`my-bot@2`); a tournament on the server reads no files"
            )
        };
        let (name, version) = match spec.split_once('@') {
            Some((name, number)) => {
                let number = number
                    .parse::<i64>()
                    .ok()
                    .filter(|n| *n >= 1 && number.bytes().all(|b| b.is_ascii_digit()))
                    .ok_or_else(not_held)?;
                (name, Some(number))
            }
            None => (spec, None),
        };
        check_name("bot", name).map_err(|_| not_held())?;
        Ok(match version {
            Some(number) => Entry::Version(name.to_owned(), number),
            None => Entry::Latest(name.to_owned()),
        })
    }

    /// The entry's name in the tournament (its standings, `challengers`): a built-in's
    /// carries the `builtin:` prefix, which no uploaded bot's name can (they are `a-z`,
    /// `0-9`, `-`, `_`), so the two never collide.
    pub fn name(&self) -> String {
        match self {
            Entry::Builtin(name) => format!("{BUILTIN}{name}"),
            Entry::Latest(name) => name.clone(),
            Entry::Version(name, number) => format!("{name}@{number}"),
        }
    }
}

/// One `[[bots]]` entry of a posted file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PostedBot {
    entry: Entry,
    /// The modes it plays, if the entry lists them.
    modes: Option<Vec<String>>,
}

/// A tournament file in the server's form, checked: nothing in it names a path.
#[derive(Debug, Clone)]
pub struct Posted {
    /// The top-level keys passed on (`name`, `seed`, …; [`HEADER_KEYS`]).
    header: toml::Table,
    /// `[modes.*]`, each with its inline rules.
    modes: toml::Table,
    /// The file's own entries, in file order.
    bots: Vec<PostedBot>,
}

impl Posted {
    /// Check a tournament file in the server's form. Pure: nothing is read, so no error can
    /// quote a file the sender did not send; every error names the key or entry at fault.
    pub fn parse(text: &str) -> Result<Posted, String> {
        let mut table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| format!("tournament file: {e}"))?;
        let modes = match table.remove("modes") {
            Some(toml::Value::Table(modes)) => modes,
            Some(_) => return Err("`modes` must be tables: `[modes.battle]`".to_owned()),
            None => toml::Table::new(),
        };
        for (mode, rules) in &modes {
            let toml::Value::Table(rules) = rules else {
                return Err(format!("`modes.{mode}` must be a table: `[modes.{mode}]`"));
            };
            let files: Vec<String> = rules
                .keys()
                .filter(|k| k.ends_with("_file") || k.ends_with("_files"))
                .map(|k| format!("`modes.{mode}.{k}`"))
                .collect();
            if !files.is_empty() {
                return Err(format!(
                    "a tournament on the server reads no files: {} (give a map inline as `map = \"\"\"…\"\"\"` and a deck as `deck = [\"card\", …]` in its [modes.*] table)",
                    files.join(", ")
                ));
            }
        }
        let raw_bots = match table.remove("bots") {
            Some(toml::Value::Array(bots)) => bots,
            Some(_) => {
                return Err("`bots` must be `[[bots]]` entries".to_owned());
            }
            None => Vec::new(),
        };
        let mut bots: Vec<PostedBot> = Vec::new();
        for (i, raw) in raw_bots.into_iter().enumerate() {
            let at = format!("bots[{i}]");
            let toml::Value::Table(mut raw) = raw else {
                return Err(format!("{at}: must be a table (`[[bots]]`)"));
            };
            if raw.contains_key("deck") {
                return Err(format!(
                    "{at}: `deck` names a file; a tournament on the server reads no files (give the deck inline in [modes.tcg] as `deck = [\"card\", …]`)"
                ));
            }
            let spec = match raw.remove("bot") {
                Some(toml::Value::String(spec)) => spec,
                Some(_) => return Err(format!("{at}: `bot` must be a string")),
                None => return Err(format!("{at}: missing `bot`")),
            };
            let entry = Entry::parse(&spec).map_err(|e| format!("{at}: {e}"))?;
            let name = entry.name();
            match raw.remove("name") {
                None => {}
                Some(toml::Value::String(given)) if given == name => {}
                Some(given) => {
                    return Err(format!(
                        "{at}: `name = {given}`: on the server an entry is named after what it plays, `{name}` (built-ins `builtin:NAME`, uploaded bots their own name or `NAME@VERSION`), so it can never be taken for another; leave `name` out"
                    ));
                }
            }
            let modes = match raw.remove("modes") {
                None => None,
                Some(toml::Value::Array(list)) => Some(
                    list.into_iter()
                        .map(|m| match m {
                            toml::Value::String(m) => Ok(m),
                            _ => Err(format!("{at}: `modes` must be a list of mode names")),
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                ),
                Some(_) => return Err(format!("{at}: `modes` must be a list of mode names")),
            };
            if let Some(key) = raw.keys().next() {
                return Err(format!(
                    "{at}: unknown key `{key}` (an entry has `bot` and, if it likes, `modes`)"
                ));
            }
            if let Some(j) = bots.iter().position(|b| b.entry.name() == name) {
                return Err(format!(
                    "{at}: `{name}` is already bots[{j}]; each bot plays once"
                ));
            }
            bots.push(PostedBot { entry, modes });
        }
        if let Some(key) = table.keys().find(|k| !HEADER_KEYS.contains(&k.as_str())) {
            return Err(format!("tournament file: unknown key `{key}`"));
        }
        Ok(Posted {
            header: table,
            modes,
            bots,
        })
    }

    /// The modes the file plays (names it does not know are left to the full check).
    fn mode_list(&self) -> Vec<Mode> {
        self.modes.keys().filter_map(|k| k.parse().ok()).collect()
    }

    /// Whether the file names uploaded bots (then only those play) or none (then every
    /// active uploaded bot joins).
    fn names_uploads(&self) -> bool {
        self.bots
            .iter()
            .any(|b| !matches!(b.entry, Entry::Builtin(_)))
    }
}

/// One `[[bots]]` entry of the server's complete file.
fn entry_table(name: &str, bot: &str, modes: Option<Vec<String>>) -> toml::Value {
    let mut table = toml::Table::new();
    table.insert("name".into(), toml::Value::String(name.to_owned()));
    table.insert("bot".into(), toml::Value::String(bot.to_owned()));
    if let Some(modes) = modes {
        table.insert(
            "modes".into(),
            toml::Value::Array(modes.into_iter().map(toml::Value::String).collect()),
        );
    }
    toml::Value::Table(table)
}

/// The modes `version` plays in a tournament of `modes`: those the entry lists (each one
/// its check passed) or, without a list, the tournament's modes its check passed.
fn version_modes(
    at: &str,
    listed: Option<&[String]>,
    modes: &[Mode],
    version: &crate::store::Version,
) -> Result<Vec<String>, String> {
    let Some(listed) = listed else {
        return Ok(modes
            .iter()
            .filter(|m| version.modes.contains(m))
            .map(|m| m.name().to_owned())
            .collect());
    };
    for name in listed {
        let mode: Mode = name.parse().map_err(|e| format!("{at}: {e}"))?;
        if !version.modes.contains(&mode) {
            return Err(format!(
                "{at}: `{}` version {} does not play {mode} (its check did not pass it)",
                version.bot_name, version.number
            ));
        }
    }
    Ok(listed.to_vec())
}

/// Check the file, write the uploaded bots' modules and the complete tournament file into
/// the tournament's directory, and record the tournament. Nothing outside the database and
/// that directory is read.
pub fn prepare(store: &Store, data_dir: &Path, text: &str) -> Result<Prepared, TournamentError> {
    let posted = Posted::parse(text).map_err(TournamentError::File)?;
    let modes = posted.mode_list();
    // The uploaded entries resolved to versions before anything is recorded: a name no
    // bot has is the sender's mistake, answered without a trace.
    let mut uploads = Vec::new();
    let mut entries = Vec::new();
    for (i, bot) in posted.bots.iter().enumerate() {
        let at = format!("bots[{i}]");
        let (name, number) = match &bot.entry {
            Entry::Builtin(_) => {
                entries.push((bot.entry.name(), None, bot.modes.clone()));
                continue;
            }
            Entry::Latest(name) => (name, None),
            Entry::Version(name, number) => (name, Some(*number)),
        };
        let no_such = || TournamentError::File(format!("{at}: no uploaded bot `{name}`"));
        let held = store.bot_by_name(name)?.ok_or_else(no_such)?;
        let versions = store.versions_of(held.id)?;
        let version = match number {
            None => versions.last(),
            Some(n) => versions.iter().find(|v| v.number == n),
        }
        .ok_or_else(|| {
            TournamentError::File(format!(
                "{at}: `{name}` has no version {}",
                number.unwrap_or_default()
            ))
        })?
        .clone();
        let plays = version_modes(&at, bot.modes.as_deref(), &modes, &version)
            .map_err(TournamentError::File)?;
        if plays.is_empty() {
            return Err(TournamentError::File(format!(
                "{at}: `{name}` version {} plays none of the tournament's modes",
                version.number
            )));
        }
        entries.push((bot.entry.name(), Some(uploads.len()), Some(plays)));
        uploads.push(version);
    }
    if !posted.names_uploads() {
        for version in store.latest_versions()? {
            // House bots are built-ins: a file that wants them names `builtin:NAME`.
            if version.house_builtin().is_some()
                || !store.bot(version.bot)?.is_some_and(|b| b.active)
            {
                continue;
            }
            let plays = version_modes("", None, &modes, &version).unwrap_or_default();
            if plays.is_empty() {
                continue;
            }
            entries.push((version.bot_name.clone(), Some(uploads.len()), Some(plays)));
            uploads.push(version);
        }
    }
    let name = posted
        .header
        .get("name")
        .and_then(toml::Value::as_str)
        .unwrap_or("tournament");
    let id = store.add_tournament(name, text)?;
    let dir = data_dir.join("tournaments").join(id.to_string());
    match write_own(store, &dir, entries, &uploads, &posted) {
        Ok(tournament) => Ok(Prepared {
            id,
            tournament,
            dir,
        }),
        Err(error) => {
            // Never run: no record and no directory (its id may be given again).
            let _ = std::fs::remove_dir_all(&dir);
            store.discard_tournament(id)?;
            Err(error)
        }
    }
}

/// A bot of a posted file: its name, the index of its upload (`None`: a built-in) and the
/// modes it plays (`None`: all).
type PostedEntry = (String, Option<usize>, Option<Vec<String>>);

/// Write the uploaded bots' modules and the complete tournament file into `dir`, and parse
/// that file as it will be run.
fn write_own(
    store: &Store,
    dir: &Path,
    entries: Vec<PostedEntry>,
    uploads: &[crate::store::Version],
    posted: &Posted,
) -> Result<Tournament, TournamentError> {
    // A directory left by an id given before (ids are reused) is not this tournament's.
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(io(dir))?;
    }
    let bots_dir = dir.join("bots");
    std::fs::create_dir_all(&bots_dir).map_err(io(&bots_dir))?;
    let mut bots = Vec::new();
    for (name, upload, modes) in entries {
        let spec = match upload {
            None => name.clone(),
            Some(index) => {
                let version = &uploads[index];
                let wasm = store.module_of(version.id)?.ok_or_else(|| {
                    TournamentError::File(format!("`{name}`: its module is missing"))
                })?;
                // Version ids are numbers: safe file names, one per version.
                let file = format!("bots/{}.wasm", version.id);
                let path = dir.join(&file);
                std::fs::write(&path, wasm).map_err(io(&path))?;
                file
            }
        };
        bots.push(entry_table(&name, &spec, modes));
    }
    let mut full = posted.header.clone();
    full.insert("modes".into(), toml::Value::Table(posted.modes.clone()));
    full.insert("bots".into(), toml::Value::Array(bots));
    let full = toml::to_string(&full).map_err(|e| TournamentError::File(e.to_string()))?;
    let file = dir.join("tournament.toml");
    std::fs::write(&file, &full).map_err(io(&file))?;
    parse_own(&full, &file).map_err(TournamentError::File)
}

/// Parse the server's own complete file (at `file`, in the tournament's directory). The
/// error is the tournament crate's message without the file and line: both are the
/// server's, not the sender's, and every message names its key or bot.
fn parse_own(text: &str, file: &Path) -> Result<Tournament, String> {
    Tournament::parse(text, file).map_err(|e| format!("tournament file: {}", e.message))
}

/// Check a tournament's own file before it resumes: only built-ins and the modules in its
/// `bots/` directory, no file keys. A file written by the server always passes; anything
/// else (a database from elsewhere, a file edited by hand) is not run by the server.
fn check_own(text: &str) -> Result<(), String> {
    let mut table: toml::Table = text.parse().map_err(|e: toml::de::Error| e.to_string())?;
    let bots = table.remove("bots");
    let specs: Vec<String> = match &bots {
        Some(toml::Value::Array(bots)) => bots
            .iter()
            .map(|b| {
                b.get("bot")
                    .and_then(toml::Value::as_str)
                    .unwrap_or("")
                    .to_owned()
            })
            .collect(),
        _ => Vec::new(),
    };
    for (i, spec) in specs.iter().enumerate() {
        let own_module = spec.strip_prefix("bots/").is_some_and(|file| {
            file.strip_suffix(".wasm").is_some_and(|stem| {
                !stem.is_empty()
                    && stem
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '@'))
            })
        });
        if !own_module && !spec.starts_with(BUILTIN) {
            return Err(format!(
                "bots[{i}] is not a built-in nor one of its modules"
            ));
        }
        if bots
            .as_ref()
            .and_then(|b| b.get(i))
            .is_some_and(|b| b.get("deck").is_some())
        {
            return Err(format!("bots[{i}] has a deck file"));
        }
    }
    table.insert("bots".into(), toml::Value::Array(Vec::new()));
    Posted::parse(&toml::to_string(&table).map_err(|e| e.to_string())?).map(drop)
}

/// Run a prepared tournament to the end (resuming what an earlier run finished) and store
/// its report. Blocking: call it from a thread.
///
/// Once `cancel` is set the run stops handing out games; the games in flight finish, no
/// report is made and the tournament's row (marked `cancelled` by whoever set it) is left
/// as it is: the answer is `Ok(None)`.
pub fn run_prepared(
    store: &Store,
    prepared: &Prepared,
    jobs: usize,
    limits: &LimitsConfig,
    cache: PathBuf,
    cancel: &AtomicBool,
) -> Result<Option<report::Report>, TournamentError> {
    let mut tournament = prepared.tournament.clone();
    // The server's limits apply unless the file sets its own.
    if tournament.limits == LimitsConfig::default() {
        tournament.limits = limits.clone();
    }
    let plan = plan::plan(&tournament);
    let options = run::RunOptions {
        jobs,
        shard: None,
        // Every game of the games page links its viewer.
        replays: true,
        out: prepared.dir.join("results"),
        cache: Some(arena_sandbox::ModuleCache::new(cache)),
    };
    let outcome = run::run_until(&tournament, &plan, &options, &|_| {}, cancel)
        .map_err(TournamentError::from)
        .and_then(|_| {
            let games: Vec<_> = results::read_results(&options.out, &plan.fingerprint)?
                .into_values()
                .collect();
            let planned: Vec<u32> = plan.games.iter().map(|g| g.game).collect();
            Ok(report::build(&tournament.name, &planned, &games))
        });
    if cancel.load(Ordering::SeqCst) {
        return Ok(None);
    }
    match &outcome {
        Ok(report) => store.finish_tournament(
            prepared.id,
            Ok((
                &serde_json::to_value(report).expect("reports serialize"),
                &report::render(report, report::Format::Table),
                &report::svg(report),
            )),
        )?,
        // The tournament's page is public: a failure is shown by its incident id (its
        // message may name the server's paths); the caller gets the error itself.
        Err(error) => store.finish_tournament(
            prepared.id,
            Err(&crate::error::internal_message(&crate::error::incident(
                &format_args!("tournament {}: {error}", prepared.id),
            ))),
        )?,
    }
    outcome.map(Some)
}

/// Start a tournament in the background; its page shows progress and then the report.
pub fn start(app: &Arc<App>, text: &str) -> Result<i64, ApiError> {
    Posted::parse(text).map_err(|why| ApiError::new(StatusCode::BAD_REQUEST, why))?;
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
            return Err(match error {
                TournamentError::File(why) => ApiError::new(StatusCode::BAD_REQUEST, why),
                error => ApiError::internal(&error),
            });
        }
    };
    let id = prepared.id;
    if let Err(error) = spawn_runs(Arc::clone(app), vec![Run::Prepared(Box::new(prepared))]) {
        release(app);
        let error = ApiError::internal(&format!("cannot start tournament {id}'s thread: {error}"));
        let shown = error.body["error"].as_str().unwrap_or_default().to_owned();
        let _ = app.store().finish_tournament(id, Err(&shown));
        return Err(error);
    }
    Ok(id)
}

/// The server's tournament runner: at most one runs at a time (each uses every worker).
#[derive(Debug, Default)]
pub struct Runner {
    state: std::sync::Mutex<RunnerState>,
    /// Bumped whenever a tournament stops being played (done, failed or cancelled) or
    /// starts, for a cancel waiting for its games in flight to end.
    stopped: tokio::sync::watch::Sender<u64>,
}

impl RunnerState {
    /// Whether the runner plays tournament `id` now, or is about to: it holds it and plays
    /// no other (between claiming it and its first game).
    fn holds(&self, id: i64) -> bool {
        self.runs.contains_key(&id) && self.playing.is_none_or(|playing| playing == id)
    }
}

#[derive(Debug, Default)]
struct RunnerState {
    /// The runner thread is busy (with the tournaments in `runs`, or one being prepared).
    claimed: bool,
    /// The tournaments the runner plays now or next, with their cancel flags.
    runs: std::collections::BTreeMap<i64, Arc<AtomicBool>>,
    /// The one it plays now (the others of `runs` wait for it).
    playing: Option<i64>,
}

impl Runner {
    fn state(&self) -> std::sync::MutexGuard<'_, RunnerState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn stopped(&self) {
        self.stopped.send_modify(|n| *n += 1);
    }
}

/// Mark the runner busy; false if it already is.
fn claim(app: &App) -> bool {
    !std::mem::replace(&mut app.tournaments.state().claimed, true)
}

fn release(app: &App) {
    let mut state = app.tournaments.state();
    state.claimed = false;
    state.runs.clear();
    drop(state);
    app.tournaments.stopped();
}

/// Why a tournament could not be cancelled.
#[derive(Debug, thiserror::Error)]
pub enum CancelError {
    /// No such tournament.
    #[error("no tournament {0}")]
    NotFound(i64),
    /// It is not running (any more).
    #[error("tournament {id} is {status}, not running: only a running tournament can be cancelled")]
    NotRunning {
        /// The tournament.
        id: i64,
        /// Its status.
        status: String,
    },
    /// The database.
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
}

/// Cancel a running tournament (or one queued to resume): it is marked `cancelled` at
/// once, so no restart resumes it, and the runner stops handing out its games. Returns a
/// receiver that changes once the runner has stopped playing it (wait for it with
/// [`wait_stopped`]) — when the runner plays it, or is about to (it holds it and plays no
/// other); `None` when the runner was not playing it (queued behind another: its flag is
/// set and it is skipped when its turn comes; or a tournament some other process left
/// marked running). Blocking (the database).
pub fn cancel(
    app: &App,
    id: i64,
) -> Result<Option<tokio::sync::watch::Receiver<u64>>, CancelError> {
    let row = app
        .store()
        .tournament(id)?
        .ok_or(CancelError::NotFound(id))?;
    // Subscribed before the mark: a stop after it is seen.
    let stopped = app.tournaments.stopped.subscribe();
    if !app.store().cancel_tournament(id)? {
        return Err(CancelError::NotRunning {
            id,
            status: row.status,
        });
    }
    let state = app.tournaments.state();
    if let Some(flag) = state.runs.get(&id) {
        flag.store(true, Ordering::SeqCst);
    }
    Ok(state.holds(id).then_some(stopped))
}

/// Wait until the runner no longer plays tournament `id` (its games in flight have ended,
/// and, if it was the last, the runner is free for the next).
pub async fn wait_stopped(app: &App, id: i64, mut stopped: tokio::sync::watch::Receiver<u64>) {
    loop {
        let holds = app.tournaments.state().holds(id);
        if !holds || stopped.changed().await.is_err() {
            return;
        }
    }
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
    // Each run's cancel flag is there before the thread starts: a cancel finds it however
    // soon it comes.
    let runs: Vec<(i64, Run, Arc<AtomicBool>)> = {
        let mut state = app.tournaments.state();
        runs.into_iter()
            .map(|run| {
                let id = match &run {
                    Run::Prepared(prepared) => prepared.id,
                    Run::Interrupted(id) => *id,
                };
                let flag = Arc::new(AtomicBool::new(false));
                state.runs.insert(id, Arc::clone(&flag));
                (id, run, flag)
            })
            .collect()
    };
    std::thread::Builder::new()
        .name("tournaments".to_owned())
        .spawn(move || {
            crate::store::as_game_worker();
            // Each run ends with `done`, which frees the runner after the last; a panic in
            // a run frees it here. Only then: after the last `done` a new tournament may
            // already have claimed the runner, and releasing again would drop its claim.
            struct Release(Arc<App>);
            impl Drop for Release {
                fn drop(&mut self) {
                    if std::thread::panicking() {
                        release(&self.0);
                    }
                }
            }
            let app = Release(app);
            for (id, run, cancel) in runs {
                let prepared = match run {
                    Run::Prepared(prepared) => Some(*prepared),
                    Run::Interrupted(id) => load_interrupted(&app.0, id),
                };
                // Cancelled while it waited (or before its flag was there).
                let Some(prepared) = prepared.filter(|prepared| {
                    !cancel.load(Ordering::SeqCst) && is_running(app.0.store(), prepared.id)
                }) else {
                    done(&app.0, id);
                    continue;
                };
                app.0.tournaments.state().playing = Some(id);
                // A cancel of a tournament queued behind this one stops waiting.
                app.0.tournaments.stopped();
                let result = run_prepared(
                    app.0.store(),
                    &prepared,
                    app.0.config.jobs,
                    &app.0.config.limits,
                    app.0.config.cache_dir(),
                    &cancel,
                );
                match result {
                    Err(error) => {
                        tracing::error!(%error, tournament = prepared.id, "tournament failed");
                    }
                    Ok(None) => tracing::info!(tournament = prepared.id, "tournament cancelled"),
                    Ok(Some(_)) => {}
                }
                done(&app.0, id);
            }
        })
        .map(drop)
}

/// The runner is done with tournament `id`: after the last, it is free for the next.
fn done(app: &App, id: i64) {
    let mut state = app.tournaments.state();
    state.runs.remove(&id);
    if state.playing == Some(id) {
        state.playing = None;
    }
    if state.runs.is_empty() {
        state.claimed = false;
    }
    drop(state);
    app.tournaments.stopped();
}

/// Whether tournament `id` is still marked running (not cancelled meanwhile).
fn is_running(store: &Store, id: i64) -> bool {
    store
        .tournament(id)
        .ok()
        .flatten()
        .is_some_and(|row| row.status == "running")
}

/// An interrupted tournament from its directory, or `None` (recorded as failed) when its
/// file no longer loads or names anything but built-ins and its own modules, or when it
/// was cancelled while it waited.
fn load_interrupted(app: &App, id: i64) -> Option<Prepared> {
    if !is_running(app.store(), id) {
        return None;
    }
    let dir = app
        .config
        .data_dir()
        .join("tournaments")
        .join(id.to_string());
    let file = dir.join("tournament.toml");
    // The server's own file: whatever is wrong with it is the server's, said in its log,
    // never quoted on the tournament's public page.
    let loaded = read_own_file(&file)
        .map_err(|e| e.to_string())
        .and_then(|text| {
            check_own(&text).map_err(|e| format!("tournament file: {e}"))?;
            parse_own(&text, &file)
        })
        .map_err(|e| {
            crate::error::internal_message(&crate::error::incident(&format_args!(
                "tournament {id}: {}: {e}",
                file.display()
            )))
        });
    match loaded {
        Ok(tournament) => Some(Prepared {
            id,
            tournament,
            dir,
        }),
        Err(error) => {
            tracing::error!(%error, tournament = id, "an interrupted tournament cannot resume");
            let message = format!("cannot resume: {error}");
            let _ = app.store().finish_tournament(id, Err(&message));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::fixtures::versions;

    const HEAD: &str = "name = \"cup\"\nseed = 7\ngames_per_pairing = 2\n[modes.battle]\n";

    fn refused(text: &str) -> String {
        Posted::parse(text).expect_err(text)
    }

    #[test]
    fn a_server_tournament_names_no_path() {
        for (text, words) in [
            (format!("{HEAD}[[bots]]\nbot = \"/etc/passwd.wasm\"\n"), "not a bot the server holds"),
            (format!("{HEAD}[[bots]]\nbot = \"../../x.wasm\"\n"), "not a bot the server holds"),
            (format!("{HEAD}[[bots]]\nbot = \"sample-bots/battle-starter\"\n"), "reads no files"),
            (format!("{HEAD}[[bots]]\nbot = \"builtin:../x\"\n"), "not a built-in's name"),
            (format!("{HEAD}[[bots]]\nbot = \"alpha@0\"\n"), "not a bot the server holds"),
            (format!("{HEAD}[[bots]]\nbot = \"alpha@+1\"\n"), "not a bot the server holds"),
            (
                "name = \"cup\"\nseed = 7\n[modes.grid]\nmap_file = \"/etc/passwd\"\n".to_owned(),
                "reads no files: `modes.grid.map_file`",
            ),
            (
                "name = \"cup\"\nseed = 7\n[modes.tcg]\ndeck_files = [\"/dev/zero\"]\n".to_owned(),
                "reads no files: `modes.tcg.deck_files`",
            ),
            (
                "name = \"cup\"\nseed = 7\n[modes.tcg]\n[[bots]]\nbot = \"builtin:random\"\ndeck = \"/etc/passwd\"\n".to_owned(),
                "bots[0]: `deck` names a file",
            ),
            (format!("{HEAD}[[bots]]\nbot = \"builtin:random\"\nname = \"house\"\n"), "named after what it plays, `builtin:random`"),
            (format!("{HEAD}[[bots]]\nbot = \"alpha\"\n[[bots]]\nbot = \"alpha\"\n"), "bots[1]: `alpha` is already bots[0]"),
            (format!("{HEAD}[[bots]]\nbot = \"alpha\"\npath = \"x\"\n"), "unknown key `path`"),
            (format!("rules_dir = \"/etc\"\n{HEAD}"), "unknown key `rules_dir`"),
        ] {
            let error = refused(&text);
            assert!(error.contains(words), "{text}: {error}");
            assert!(!error.contains("root:"), "{error}");
        }
        let posted = Posted::parse(&format!(
            "{HEAD}[[bots]]\nbot = \"builtin:random\"\nname = \"builtin:random\"\n[[bots]]\nbot = \"alpha@2\"\nmodes = [\"battle\"]\n"
        ))
        .unwrap();
        assert_eq!(
            posted
                .bots
                .iter()
                .map(|b| b.entry.name())
                .collect::<Vec<_>>(),
            ["builtin:random", "alpha@2"]
        );
    }

    #[test]
    fn entries_never_collide_with_uploaded_bots() {
        let store = Store::in_memory().unwrap();
        let data = tempfile::tempdir().unwrap();
        // Uploaded bots named like the file's built-ins.
        versions(&store, "alice", ["random", "heuristic"]);
        let text = format!(
            "{HEAD}[[bots]]\nbot = \"builtin:random\"\n[[bots]]\nbot = \"builtin:heuristic\"\n"
        );
        let prepared = prepare(&store, data.path(), &text).unwrap();
        let mut names: Vec<&str> = prepared
            .tournament
            .bots
            .iter()
            .map(|b| b.name.as_str())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["builtin:heuristic", "builtin:random", "heuristic", "random"]
        );
        // The file the run reads is the server's own, and it would resume.
        let own = std::fs::read_to_string(prepared.dir.join("tournament.toml")).unwrap();
        check_own(&own).unwrap();
        assert!(!own.contains(&data.path().display().to_string()), "{own}");
    }

    #[test]
    fn listed_uploads_play_alone_and_versions_are_named_by_number() {
        let store = Store::in_memory().unwrap();
        let data = tempfile::tempdir().unwrap();
        let [_, _] = versions(&store, "alice", ["alpha", "beta"]);
        let owner = store.user_by_token_hash(b"alice").unwrap().unwrap();
        store
            .add_version(&owner, "alpha", b"alpha2", "alpha2", &[Mode::Battle], "{}")
            .unwrap()
            .unwrap();
        let text = format!("{HEAD}[[bots]]\nbot = \"alpha@1\"\n[[bots]]\nbot = \"alpha\"\n");
        let prepared = prepare(&store, data.path(), &text).unwrap();
        let names: Vec<&str> = prepared
            .tournament
            .bots
            .iter()
            .map(|b| b.name.as_str())
            .collect();
        assert_eq!(
            names,
            ["alpha@1", "alpha"],
            "beta is not listed, so it does not join"
        );
        let modules: Vec<Vec<u8>> = prepared
            .tournament
            .bots
            .iter()
            .map(|b| match &b.spec {
                arena_tournament::bots::BotSpec::Module(path) => std::fs::read(path).unwrap(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(modules, [b"alpha".to_vec(), b"alpha2".to_vec()]);
        for (text, words) in [
            (
                format!("{HEAD}[[bots]]\nbot = \"gamma\"\n"),
                "bots[0]: no uploaded bot `gamma`",
            ),
            (
                format!("{HEAD}[[bots]]\nbot = \"alpha@3\"\n"),
                "bots[0]: `alpha` has no version 3",
            ),
            (
                format!("{HEAD}[modes.grid]\n[[bots]]\nbot = \"alpha\"\nmodes = [\"grid\"]\n"),
                "does not play grid",
            ),
        ] {
            let error = prepare(&store, data.path(), &text).unwrap_err().to_string();
            assert!(error.contains(words), "{text}: {error}");
        }
    }

    #[test]
    fn a_tournament_resumes_only_from_its_own_files() {
        for bad in [
            format!("{HEAD}[[bots]]\nname = \"x\"\nbot = \"/srv/bot.wasm\"\n"),
            format!("{HEAD}[[bots]]\nname = \"x\"\nbot = \"bots/../../x.wasm\"\n"),
            format!("{HEAD}[[bots]]\nname = \"x\"\nbot = \"crate-dir\"\n"),
            "name = \"cup\"\nseed = 7\n[modes.grid]\nmap_file = \"/etc/passwd\"\n[[bots]]\nname = \"x\"\nbot = \"builtin:random\"\n".to_owned(),
        ] {
            assert!(check_own(&bad).is_err(), "{bad}");
        }
        check_own(&format!(
            "{HEAD}[[bots]]\nname = \"house\"\nbot = \"builtin:random\"\n[[bots]]\nname = \"a\"\nbot = \"bots/12.wasm\"\n"
        ))
        .unwrap();
    }

    #[test]
    fn a_cancelled_run_plays_nothing_more_and_stays_cancelled() {
        let store = Store::in_memory().unwrap();
        let data = tempfile::tempdir().unwrap();
        let text = format!(
            "{HEAD}[[bots]]\nbot = \"builtin:random\"\n[[bots]]\nbot = \"builtin:heuristic\"\n"
        );
        let prepared = prepare(&store, data.path(), &text).unwrap();
        assert!(store.cancel_tournament(prepared.id).unwrap());
        assert!(
            !store.cancel_tournament(prepared.id).unwrap(),
            "only a running one"
        );
        let cancel = AtomicBool::new(true);
        let ran = run_prepared(
            &store,
            &prepared,
            1,
            &LimitsConfig::default(),
            data.path().join("cache"),
            &cancel,
        )
        .unwrap();
        assert!(ran.is_none(), "no report");
        let results =
            std::fs::read_to_string(prepared.dir.join("results/results.jsonl")).unwrap_or_default();
        assert_eq!(results, "", "no game played");
        // A run that ends anyway (as one cancelled mid-game does) leaves the mark alone.
        store
            .finish_tournament(prepared.id, Err("late failure"))
            .unwrap();
        let row = store.tournament(prepared.id).unwrap().unwrap();
        assert_eq!((row.status.as_str(), row.error), ("cancelled", None));
        assert!(store.interrupted_tournaments().unwrap().is_empty());
    }

    #[test]
    fn files_read_from_disk_are_bounded_and_regular() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.toml");
        std::fs::File::create(&big)
            .unwrap()
            .set_len(FILE_BYTES_MAX + 1)
            .unwrap();
        let error = read_file(&big).unwrap_err().to_string();
        assert!(error.contains("larger than"), "{error}");
        let error = read_file(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(error.contains("not a regular file"), "{error}");
        let small = dir.path().join("cup.toml");
        std::fs::write(&small, HEAD).unwrap();
        assert_eq!(read_file(&small).unwrap(), HEAD);
    }
}
