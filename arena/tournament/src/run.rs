//! Running a plan: bots compiled once, games in parallel, every finished game appended to
//! the results log at once, finished games skipped on a re-run.

use crate::bots::{BotError, Contestant};
use crate::config::Tournament;
use crate::game::{self, GameError, GameSpec};
use crate::plan::{Plan, PlannedGame, Shard};
use crate::results::{self, GameLine, ResultsError, ResultsWriter, SavedPlan};
use arena_sandbox::{ModuleCache, Pool, Sandbox};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// How to run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Parallel games.
    pub jobs: usize,
    /// Only this slice of the plan.
    pub shard: Option<Shard>,
    /// Also write each game's replay into `<out>/replays/`.
    pub replays: bool,
    /// The results directory.
    pub out: PathBuf,
    /// The module cache.
    pub cache: Option<ModuleCache>,
}

/// Progress of a run, reported after every game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Games finished in this run.
    pub done: usize,
    /// Games this run has to play.
    pub total: usize,
    /// Games skipped because an earlier run finished them.
    pub skipped: usize,
}

/// What a run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunSummary {
    /// Games in this run's slice of the plan.
    pub planned: usize,
    /// Games finished earlier and skipped.
    pub skipped: usize,
    /// Games played now.
    pub played: usize,
    /// The results file written.
    pub results_file: PathBuf,
    /// The replays this run wrote, sorted: pages drawn from them need not re-check them,
    /// while any other file in `<out>/replays/` (an earlier run's, another shard's) does.
    pub replays: Vec<PathBuf>,
}

/// A run that could not be completed; results written so far stay valid.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A bot cannot be used.
    #[error("bot `{name}`: {error}")]
    Bot {
        /// The bot's name.
        name: String,
        /// Why.
        error: BotError,
    },
    /// The results directory.
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// A game could not be set up.
    #[error("game {game}: {error}")]
    Game {
        /// The game index.
        game: u32,
        /// Why.
        error: GameError,
    },
    /// The sandbox.
    #[error(transparent)]
    Sandbox(#[from] arena_sandbox::SetupError),
}

/// The results file of a run: one per shard, so shards on a shared disk never write the
/// same file.
pub fn results_file(out: &Path, shard: Option<Shard>) -> PathBuf {
    match shard {
        None => out.join("results.jsonl"),
        Some(s) => out.join(format!("results-shard-{}-of-{}.jsonl", s.index, s.count)),
    }
}

/// Resolve every bot once (building crates, compiling modules), on up to `jobs` threads:
/// a cold start is one compile per bot, and they are independent. Bot crates are built
/// first, one at a time, because cargo builds them in one shared target directory.
pub fn contestants(
    tournament: &Tournament,
    sandbox: &Sandbox,
    jobs: usize,
) -> Result<Vec<Contestant>, RunError> {
    let resolve = |bot: &crate::config::BotEntry| {
        tracing::info!(bot = %bot.name, spec = %bot.spec, "loading");
        Contestant::resolve(&bot.spec, sandbox).map_err(|error| RunError::Bot {
            name: bot.name.clone(),
            error,
        })
    };
    let mut slots: Vec<Option<Result<Contestant, RunError>>> =
        tournament.bots.iter().map(|_| None).collect();
    for (slot, bot) in slots.iter_mut().zip(&tournament.bots) {
        if matches!(
            bot.spec,
            crate::bots::BotSpec::Crate(_)
                | crate::bots::BotSpec::Go(_)
                | crate::bots::BotSpec::Python(_)
                | crate::bots::BotSpec::JavaScript(_)
        ) {
            *slot = Some(resolve(bot));
        }
    }
    let next = AtomicUsize::new(0);
    let slots = Mutex::new(slots);
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, tournament.bots.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(bot) = tournament.bots.get(i) else {
                        break;
                    };
                    if slots.lock().expect("no panics while locked")[i].is_some() {
                        continue;
                    }
                    let loaded = resolve(bot);
                    slots.lock().expect("no panics while locked")[i] = Some(loaded);
                }
            });
        }
    });
    slots
        .into_inner()
        .expect("no panics while locked")
        .into_iter()
        .map(|slot| slot.expect("every bot was resolved"))
        .collect()
}

/// A tournament's bots, loaded once into the sandbox its games are played in: the CLI
/// loads them before the run to settle which modes each plays
/// ([`crate::playable::settle_loaded`]), and the run plays with them.
pub struct Loaded {
    /// The pooled sandbox: two instances per parallel game.
    pub sandbox: Sandbox,
    /// The bots, in the tournament's order.
    pub contestants: Vec<Contestant>,
    /// The parallel games the pool was sized for.
    pub jobs: usize,
}

impl std::fmt::Debug for Loaded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Loaded")
            .field("contestants", &self.contestants)
            .finish_non_exhaustive()
    }
}

/// Make the sandbox for `jobs` parallel games of `tournament` and load its bots into it.
pub fn load(
    tournament: &Tournament,
    jobs: usize,
    cache: Option<ModuleCache>,
) -> Result<Loaded, RunError> {
    // Two seats per parallel game: the pool has a slot for every instance alive at once.
    let sandbox = Sandbox::with_pool(
        tournament.limits.limits(),
        cache,
        Pool::for_parallel_games(jobs.max(1)),
    )?;
    let contestants = contestants(tournament, &sandbox, jobs)?;
    Ok(Loaded {
        sandbox,
        contestants,
        jobs,
    })
}

/// Run (or resume) a tournament's plan, or one shard of it, loading its bots first if
/// anything is left to play.
pub fn run(
    tournament: &Tournament,
    plan: &Plan,
    options: &RunOptions,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<RunSummary, RunError> {
    run_loaded(tournament, plan, options, progress, None)
}

/// [`run`] that stops handing out games once `stop` is set: the games being played finish
/// and are logged, the rest are left unplayed (a later run resumes them), and the summary
/// says how many were played.
pub fn run_until(
    tournament: &Tournament,
    plan: &Plan,
    options: &RunOptions,
    progress: &(dyn Fn(Progress) + Sync),
    stop: &AtomicBool,
) -> Result<RunSummary, RunError> {
    run_stoppable(tournament, plan, options, progress, None, Some(stop))
}

/// [`run`] with the bots already loaded (by [`load`], for `options.jobs` parallel games).
pub fn run_loaded(
    tournament: &Tournament,
    plan: &Plan,
    options: &RunOptions,
    progress: &(dyn Fn(Progress) + Sync),
    loaded: Option<&Loaded>,
) -> Result<RunSummary, RunError> {
    run_stoppable(tournament, plan, options, progress, loaded, None)
}

fn run_stoppable(
    tournament: &Tournament,
    plan: &Plan,
    options: &RunOptions,
    progress: &(dyn Fn(Progress) + Sync),
    loaded: Option<&Loaded>,
    stop: Option<&AtomicBool>,
) -> Result<RunSummary, RunError> {
    let saved = SavedPlan {
        name: tournament.name.clone(),
        bots: tournament.bots.iter().map(|b| b.name.clone()).collect(),
        plan: plan.clone(),
    };
    let _lock = results::lock(&results_file(&options.out, options.shard))?;
    results::save_or_check_plan(&options.out, &saved)?;
    let finished = results::read_results(&options.out, &plan.fingerprint)?;
    let slice: Vec<&PlannedGame> = plan
        .games
        .iter()
        .filter(|g| options.shard.is_none_or(|s| s.contains(g)))
        .collect();
    // Finished games whose replay is missing (a run killed between the two writes of an
    // older arena, or a deleted file) are played again for the replay alone: games are
    // deterministic, so the replay is the one that run would have written.
    let replay_only: Vec<&PlannedGame> = if options.replays {
        slice
            .iter()
            .copied()
            .filter(|g| {
                finished.contains_key(&g.game) && !replay_path(&options.out, g.game).exists()
            })
            .collect()
    } else {
        Vec::new()
    };
    let todo: Vec<&PlannedGame> = slice
        .iter()
        .copied()
        .filter(|g| !finished.contains_key(&g.game))
        .collect();
    let skipped = slice.len() - todo.len();
    let to_play = todo.len();
    if !replay_only.is_empty() {
        tracing::warn!(
            games = replay_only.len(),
            "re-creating missing replays of finished games"
        );
    }
    let results_file = results_file(&options.out, options.shard);
    tracing::info!(planned = slice.len(), skipped, to_play = todo.len(), file = %results_file.display(), "starting");
    progress(Progress {
        done: 0,
        total: to_play,
        skipped,
    });
    if todo.is_empty() && replay_only.is_empty() {
        return Ok(RunSummary {
            planned: slice.len(),
            skipped,
            played: 0,
            results_file,
            replays: Vec::new(),
        });
    }

    if let Some(loaded) = loaded {
        // A pool sized for fewer games would send the rest to on-demand instances.
        assert_eq!(loaded.jobs, options.jobs, "bots loaded for another --jobs");
    }
    let loaded_here;
    let loaded = match loaded {
        Some(loaded) => loaded,
        None => {
            loaded_here = load(tournament, options.jobs, options.cache.clone())?;
            &loaded_here
        }
    };
    let (sandbox, contestants) = (&loaded.sandbox, loaded.contestants.as_slice());
    let writer = ResultsWriter::open(&results_file)?;
    if options.replays {
        let dir = options.out.join("replays");
        std::fs::create_dir_all(&dir).map_err(|error| ResultsError::Io {
            path: dir.display().to_string(),
            error,
        })?;
    }

    let todo: Vec<(&PlannedGame, bool)> = replay_only
        .iter()
        .map(|g| (*g, true))
        .chain(todo.iter().map(|g| (*g, false)))
        .collect();
    let next = AtomicUsize::new(0);
    // A worker plays a game, writes its replay (serializing and syncing it is per-game work,
    // done in parallel), then appends the game's line under the log's lock, so lines come
    // in the order games finish. No writer thread: on two cores a thread woken once per
    // game preempts a worker every time.
    let log = Mutex::new(Log {
        writer,
        played: 0,
        replays: Vec::new(),
        error: None,
    });
    let jobs = options.jobs.clamp(1, todo.len());
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let (next, todo, contestants, sandbox, log, finished) =
                (&next, &todo, &contestants, &sandbox, &log, &finished);
            scope.spawn(move || {
                loop {
                    if stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(game, replay_only)) = todo.get(i) else {
                        break;
                    };
                    let result = play_one(
                        tournament,
                        &plan.fingerprint,
                        game,
                        contestants,
                        sandbox,
                        options.replays,
                    )
                    .and_then(|(line, replay)| {
                        // The replay first, whole: a kill between the two writes leaves
                        // a replay without its line (the game is played again), never a
                        // game without replay.
                        let wrote = match replay {
                            Some(bytes) => {
                                let path = replay_path(&options.out, line.game);
                                results::write_atomic(&path, &bytes)?;
                                Some(path)
                            }
                            None => None,
                        };
                        Ok((line, wrote))
                    });
                    let result = result.map(|(line, wrote)| {
                        let bytes = results::line_of(&line);
                        (line, bytes, wrote)
                    });
                    // A poisoned lock means another worker panicked, which the scope
                    // re-raises; the log itself is whole (lines are written in one call).
                    let mut log = log.lock().unwrap_or_else(|e| e.into_inner());
                    let appended = result.and_then(|(line, bytes, wrote)| {
                        log.replays.extend(wrote);
                        if replay_only {
                            if finished.get(&line.game) != Some(&line) {
                                tracing::warn!(
                                    game = line.game,
                                    "the game played again for its replay ended differently from its results line"
                                );
                            }
                            return Ok(());
                        }
                        log.writer.append_line(&bytes)?;
                        log.played += 1;
                        tracing::debug!(game = line.game, mode = %line.mode, winner = ?line.winner, reason = %line.reason, "finished");
                        progress(Progress {
                            done: log.played,
                            total: to_play,
                            skipped,
                        });
                        Ok(())
                    });
                    if let Err(error) = appended {
                        // Stop handing out games; the workers finish (and log) the ones
                        // they hold.
                        next.store(usize::MAX / 2, Ordering::Relaxed);
                        log.error.get_or_insert(error);
                        break;
                    }
                }
            });
        }
    });
    let log = log.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(error) = log.error {
        return Err(error);
    }
    let played = log.played;
    let mut replays = log.replays;
    replays.sort();
    Ok(RunSummary {
        planned: slice.len(),
        skipped,
        played,
        results_file,
        replays,
    })
}

/// The results log shared by a run's workers.
struct Log {
    writer: ResultsWriter,
    played: usize,
    /// The replays written.
    replays: Vec<PathBuf>,
    /// The first error; the run stops handing out games.
    error: Option<RunError>,
}

/// Where the replay of `game` goes.
pub fn replay_path(out: &Path, game: u32) -> PathBuf {
    out.join("replays").join(format!("game-{game:06}.json"))
}

fn play_one(
    tournament: &Tournament,
    fingerprint: &str,
    game: &PlannedGame,
    contestants: &[Contestant],
    sandbox: &Sandbox,
    want_replay: bool,
) -> Result<(GameLine, Option<Vec<u8>>), RunError> {
    let rules = tournament.rules_for_game(game.mode, game.variant, game.seats);
    let spec = GameSpec {
        mode: game.mode,
        rules,
        seed: game.seed,
        max_faults: tournament.max_faults,
        max_rejections: tournament.max_rejections,
    };
    let [a, b] = game.seats;
    let names = [
        tournament.bots[a].name.as_str(),
        tournament.bots[b].name.as_str(),
    ];
    let result = game::play(
        &spec,
        [&contestants[a], &contestants[b]],
        names,
        sandbox,
        if want_replay {
            game::Keep::Bytes
        } else {
            game::Keep::Nothing
        },
    )
    .map_err(|error| RunError::Game {
        game: game.game,
        error,
    })?;
    let outcome = result.outcome;
    let line = GameLine {
        fingerprint: fingerprint.to_owned(),
        game: game.game,
        mode: game.mode,
        seed: game.seed,
        bots: names.map(str::to_owned),
        sha256: [
            contestants[a].sha256().map(str::to_owned),
            contestants[b].sha256().map(str::to_owned),
        ],
        winner: outcome.winner,
        reason: outcome.reason,
        turns: outcome.turns,
        seats: outcome.seats,
    };
    Ok((line, result.replay.map(game::KeptReplay::into_bytes)))
}
