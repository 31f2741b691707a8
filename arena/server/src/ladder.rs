//! The continuous ladder: worker threads (never the async executor's) that keep playing
//! ranked games among the latest versions of active bots, per mode.
//!
//! Work is a [`Job`]: two games on one seed with the seats swapped, so neither bot gets the
//! better seat. A job is written to the database before it is played and removed in the
//! same transaction that commits its second game; every game is committed with its replay
//! in one transaction. A restart (even after `kill -9`) finds the unfinished jobs and plays
//! exactly their missing games: nothing is lost, nothing is played twice.
//!
//! Pairings are chosen to be informative: the version with the fewest games (played or
//! queued) in the mode with the fewest games first, against the opponent it has met least,
//! then the closest in rating.

use crate::cache::Lru;
use crate::leaderboard::{Leaderboard, Tally};
use crate::store::{Job, ModeState, NewGame, Store, StoreError};
use arena_engine::derive_seed;
use arena_sandbox::Sandbox;
use arena_sdk::Mode;
use arena_tournament::bots::Contestant;
use arena_tournament::game::{self, GameSpec};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// What the workers share.
#[derive(Debug)]
pub struct Ladder {
    store: Arc<Store>,
    sandbox: Arc<Sandbox>,
    modes: Vec<(Mode, serde_json::Value)>,
    seed: u64,
    max_faults: u32,
    max_rejections: u32,
    /// Jobs read at start or planned, not yet taken by a worker, with their finished games.
    queue: Mutex<VecDeque<(Job, Vec<u8>)>>,
    /// Set when there may be new work (an upload) or when stopping.
    wake: (Mutex<bool>, Condvar),
    stop: AtomicBool,
    /// Compiled modules by version id (instantiated afresh for every game), the least
    /// recently played evicted past `compiled_bots` or `compiled_bytes` (of compiled
    /// code and data): an evicted one is loaded again (from the module cache on disk) when its next
    /// game comes. Games are the same either way: a bot is instantiated afresh for each.
    contestants: Mutex<Lru<i64, Contestant>>,
    /// Per mode: the last standings published and the running totals they were fitted from.
    standings: Mutex<BTreeMap<Mode, Standings>>,
    /// Signalled when a refit ends.
    refitted: Condvar,
}

/// A mode's standings: the last published and the running totals behind them.
#[derive(Debug, Default)]
struct Standings {
    /// The last board fitted, with the database state it is for.
    published: Option<(ModeState, Arc<Leaderboard>)>,
    /// The totals of the published board's games (taken out while a refit adds to them).
    tally: Option<Tally>,
    /// A refit is under way (outside the lock).
    refitting: bool,
    /// When `published` was.
    published_at: Option<Instant>,
}

/// How far behind the ladder's games a page's or the API's standings may be (never behind
/// a new version or a retired bot). The ladder refits after every game it commits, so
/// while it plays the published standings are at most a game behind; within this window a
/// request takes them rather than refitting itself, which would make the next game wait
/// for a fit running at a request's priority.
pub const PAGE_STANDINGS_LAG: Duration = Duration::from_secs(1);

/// A refit under way; if it ends early (a database error, a panic) it still clears the
/// mark and wakes waiters, and its totals are dropped, to be rebuilt from the first game.
struct Refit<'a> {
    ladder: &'a Ladder,
    mode: Mode,
    done: bool,
}

impl Drop for Refit<'_> {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let mut all = self
            .ladder
            .standings
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let standings = all.entry(self.mode).or_default();
        standings.refitting = false;
        standings.tally = None;
        drop(all);
        self.ladder.refitted.notify_all();
    }
}

/// A worker could not go on (the database failed); the ladder stops and says why.
#[derive(Debug, thiserror::Error)]
pub enum LadderError {
    /// The database.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A game could not be set up (bad rules: the configuration was checked, so a bug).
    #[error("game of job {job}: {error}")]
    Game {
        /// The job.
        job: i64,
        /// Why.
        error: game::GameError,
    },
}

impl Ladder {
    /// A ladder over `modes` (with their rules), keeping at most `compiled` = (modules,
    /// bytes of module) compiled in memory. Unfinished jobs in the database are queued first.
    pub fn new(
        store: Arc<Store>,
        sandbox: Arc<Sandbox>,
        modes: Vec<(Mode, serde_json::Value)>,
        seed: u64,
        (max_faults, max_rejections): (u32, u32),
        compiled: (usize, usize),
    ) -> Result<Ladder, StoreError> {
        let queue = store.pending_jobs()?.into_iter().collect();
        Ok(Ladder {
            store,
            sandbox,
            modes,
            seed,
            max_faults,
            max_rejections,
            queue: Mutex::new(queue),
            wake: (Mutex::new(false), Condvar::new()),
            stop: AtomicBool::new(false),
            contestants: Mutex::new(Lru::new(compiled.0, compiled.1)),
            standings: Mutex::new(BTreeMap::new()),
            refitted: Condvar::new(),
        })
    }

    /// The database.
    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    /// The sandbox games run in.
    pub fn sandbox(&self) -> &Arc<Sandbox> {
        &self.sandbox
    }

    /// The ladder's modes.
    pub fn modes(&self) -> impl Iterator<Item = Mode> + '_ {
        self.modes.iter().map(|(m, _)| *m)
    }

    /// Start `jobs` worker threads.
    pub fn spawn(self: &Arc<Self>, jobs: usize) -> Vec<std::thread::JoinHandle<()>> {
        (0..jobs.max(1))
            .map(|worker| {
                let ladder = Arc::clone(self);
                std::thread::Builder::new()
                    .name(format!("ladder-{worker}"))
                    .spawn(move || {
                        crate::store::as_game_worker();
                        while let Err(error) = ladder.work() {
                            // A failing database or a bug in one job must not end the
                            // ladder for good: say so, pause, go on.
                            tracing::error!(%error, worker, "ladder worker failed; retrying");
                            std::thread::sleep(Duration::from_secs(1));
                        }
                    })
                    .expect("spawn a ladder worker")
            })
            .collect()
    }

    /// Tell idle workers there may be something new to play.
    pub fn wake(&self) {
        let (lock, condvar) = &self.wake;
        *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
        condvar.notify_all();
    }

    /// Ask the workers to stop after their current game (its job stays queued in the
    /// database and is finished by the next start).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.wake();
    }

    fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    fn work(&self) -> Result<(), LadderError> {
        while !self.stopping() {
            match self.next_job()? {
                Some((job, done)) => self.play_job(&job, &done)?,
                None => {
                    // Nothing to pair: sleep until an upload wakes us (the timeout only
                    // bounds how long a missed wake-up could matter).
                    let (lock, condvar) = &self.wake;
                    let mut woken = lock.lock().unwrap_or_else(|e| e.into_inner());
                    if !*woken && !self.stopping() {
                        woken = condvar
                            .wait_timeout(woken, Duration::from_secs(5))
                            .unwrap_or_else(|e| e.into_inner())
                            .0;
                    }
                    *woken = false;
                }
            }
        }
        Ok(())
    }

    /// Take a queued job, or plan one.
    fn next_job(&self) -> Result<Option<(Job, Vec<u8>)>, LadderError> {
        let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(job) = queue.pop_front() {
            return Ok(Some(job));
        }
        // Planning under the queue lock: two workers never plan from the same counts.
        Ok(self.plan()?.map(|job| (job, Vec::new())))
    }

    /// Choose and record the most informative next pairing, if any mode has two members
    /// one of which is uploaded: house bots play uploaded bots, never each other (they
    /// are yardsticks, and an empty server plays nothing).
    fn plan(&self) -> Result<Option<Job>, StoreError> {
        let mut best: Option<(u64, Mode, i64, i64)> = None;
        for mode in self.modes() {
            let members = self.store.ladder_members(mode)?;
            let house = |v: &crate::store::Version| v.house_builtin().is_some();
            if members.len() < 2 || members.iter().all(house) {
                continue;
            }
            let (per_version, per_pair) = self.store.ladder_counts(mode)?;
            let count = |v: i64| per_version.get(&v).copied().unwrap_or(0);
            let total: u64 = members.iter().map(|v| count(v.id)).sum();
            if best.as_ref().is_some_and(|(t, ..)| *t <= total) {
                continue;
            }
            let board = self.fresh_leaderboard(mode)?;
            let elo = |v: i64| {
                board
                    .elo
                    .get(&v)
                    .copied()
                    .unwrap_or(arena_tournament::ratings::MEAN_ELO)
            };
            let first = members
                .iter()
                .min_by_key(|v| (count(v.id), v.id))
                .expect("two members");
            let second = members
                .iter()
                .filter(|v| v.id != first.id && !(house(v) && house(first)))
                .min_by(|x, y| {
                    let met = |v: i64| {
                        per_pair
                            .get(&(v.min(first.id), v.max(first.id)))
                            .copied()
                            .unwrap_or(0)
                    };
                    met(x.id)
                        .cmp(&met(y.id))
                        .then(
                            (elo(x.id) - elo(first.id))
                                .abs()
                                .total_cmp(&(elo(y.id) - elo(first.id)).abs()),
                        )
                        .then(x.id.cmp(&y.id))
                })
                .expect("an uploaded member, or the first is one");
            best = Some((total, mode, first.id, second.id));
        }
        let Some((_, mode, a, b)) = best else {
            return Ok(None);
        };
        let seed = self.seed;
        let job = self
            .store
            .add_job(mode, a, b, |id| derive_seed(seed, id as u64))?;
        tracing::debug!(job = job.id, %mode, a, b, "planned");
        Ok(Some(job))
    }

    /// Compiled bots kept in memory now: (modules, bytes of module).
    pub fn compiled(&self) -> (usize, usize) {
        let cache = self.contestants.lock().unwrap_or_else(|e| e.into_inner());
        (cache.len(), cache.cost())
    }

    fn contestant(&self, version: i64) -> Result<Option<Contestant>, StoreError> {
        if let Some(c) = self
            .contestants
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&version)
        {
            return Ok(Some(c.clone()));
        }
        let Some(info) = self.store.version(version)? else {
            return Ok(None);
        };
        if let Some(builtin) = info.house_builtin() {
            // A house bot: native, nothing to compile or keep.
            return Ok(Some(Contestant::Builtin(builtin.to_owned())));
        }
        let Some(wasm) = self.store.module_of(version)? else {
            return Ok(None);
        };
        let name = format!("{}@v{}", info.bot_name, info.number);
        match self.sandbox.load_bytes(&name, &wasm) {
            Ok(bot) => {
                let cost = bot.compiled_bytes();
                let contestant = Contestant::Wasm(bot);
                self.contestants
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(version, contestant.clone(), cost);
                Ok(Some(contestant))
            }
            Err(error) => {
                tracing::error!(%error, version, "a stored module no longer loads");
                Ok(None)
            }
        }
    }

    fn play_job(&self, job: &Job, done: &[u8]) -> Result<(), LadderError> {
        let (Some(a), Some(b)) = (self.contestant(job.a)?, self.contestant(job.b)?) else {
            self.store.drop_job(job.id)?;
            return Ok(());
        };
        let names = |id: i64| {
            self.store.version(id).map(|v| {
                v.map_or_else(
                    || format!("version-{id}"),
                    |v| format!("{}@v{}", v.bot_name, v.number),
                )
            })
        };
        let (name_a, name_b) = (names(job.a)?, names(job.b)?);
        let rules = self
            .modes
            .iter()
            .find(|(m, _)| *m == job.mode)
            .map_or(serde_json::Value::Null, |(_, r)| r.clone());
        let spec = GameSpec {
            mode: job.mode,
            rules,
            seed: job.seed,
            max_faults: self.max_faults,
            max_rejections: self.max_rejections,
        };
        for swap in [0u8, 1] {
            if done.contains(&swap) || self.stopping() {
                continue;
            }
            let (seats, contestants, seat_names) = if swap == 0 {
                ([job.a, job.b], [&a, &b], [name_a.as_str(), name_b.as_str()])
            } else {
                ([job.b, job.a], [&b, &a], [name_b.as_str(), name_a.as_str()])
            };
            let played = game::play(
                &spec,
                contestants,
                seat_names,
                &self.sandbox,
                game::Keep::Bytes,
            )
            .map_err(|error| LadderError::Game { job: job.id, error })?;
            let replay = played.replay.expect("asked for a replay").into_bytes();
            let outcome = played.outcome;
            let id = self.store.add_game(&NewGame {
                mode: job.mode,
                seed: job.seed,
                job: Some((job.id, swap)),
                seats,
                winner: outcome.winner,
                reason: outcome.reason,
                turns: outcome.turns,
                outcomes: outcome.seats,
                replay,
            })?;
            tracing::info!(game = id, job = job.id, mode = %job.mode, "game committed");
            self.record_ratings(job.mode, &[job.a, job.b])?;
        }
        Ok(())
    }

    /// Store the current ratings of `versions` for their rating-over-time pictures.
    fn record_ratings(&self, mode: Mode, versions: &[i64]) -> Result<(), StoreError> {
        let board = self.fresh_leaderboard(mode)?;
        let elo: Vec<(i64, f64)> = versions
            .iter()
            .filter_map(|v| board.elo.get(v).map(|e| (*v, *e)))
            .collect();
        self.store.add_ratings(mode, board.games, &elo)
    }

    /// The standings of `mode` for pages and the API: the current ones, or while a refit is
    /// under way, the last published (a game or two behind, never waiting for the fit).
    pub fn leaderboard(&self, mode: Mode) -> Result<Arc<Leaderboard>, StoreError> {
        self.standings_of(mode, false)
    }

    /// The standings of `mode` with every game so far (for planning and the rating history:
    /// what the ladder decides must not depend on when a page was asked for).
    fn fresh_leaderboard(&self, mode: Mode) -> Result<Arc<Leaderboard>, StoreError> {
        self.standings_of(mode, true)
    }

    /// The standings of `mode`, refitted when the database changed since they were. The fit
    /// runs outside the lock, on a snapshot (the games since the last fit added to the
    /// running totals); at most one per mode runs at a time, and a caller that finds one
    /// under way takes the published standings (`wait` false) or waits for the new ones.
    /// Every published board is exactly the full fit of its snapshot's games.
    fn standings_of(&self, mode: Mode, wait: bool) -> Result<Arc<Leaderboard>, StoreError> {
        let lock = || self.standings.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            let key = self.store.mode_state(mode)?;
            let mut all = lock();
            let standings = all.entry(mode).or_default();
            let recent = standings
                .published_at
                .is_some_and(|at| at.elapsed() < PAGE_STANDINGS_LAG);
            // Behind by games only (the same versions and bots), and recently published.
            let games_behind = |k: &ModeState| recent && (k.1, k.2) == (key.1, key.2);
            if let Some((k, board)) = &standings.published
                && (*k == key || (!wait && (standings.refitting || games_behind(k))))
            {
                return Ok(Arc::clone(board));
            }
            if standings.refitting {
                // A refit is under way: its result (or the next) is what we want.
                drop(self.refitted.wait(all).unwrap_or_else(|e| e.into_inner()));
                continue;
            }
            standings.refitting = true;
            let mut tally = standings.tally.take().unwrap_or_default();
            drop(all);
            let mut refit = Refit {
                ladder: self,
                mode,
                done: false,
            };
            let (state, games, latest) = self.store.standings_input(mode, tally.last_game())?;
            for game in &games {
                tally.add(game);
            }
            let board = Arc::new(tally.board(mode, &latest));
            let mut all = lock();
            let standings = all.entry(mode).or_default();
            standings.published = Some((state, Arc::clone(&board)));
            standings.published_at = Some(Instant::now());
            standings.tally = Some(tally);
            standings.refitting = false;
            refit.done = true;
            drop(all);
            self.refitted.notify_all();
            return Ok(board);
        }
    }

    /// Versions with queued work (for the status answer).
    pub fn queued(&self) -> BTreeSet<i64> {
        let queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        queue.iter().flat_map(|(j, _)| [j.a, j.b]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::fixtures::{add_game, versions};
    use arena_sandbox::Limits;

    #[test]
    fn house_bots_play_uploads_and_never_each_other() {
        let store = Arc::new(Store::in_memory().unwrap());
        let house = [
            ("random", vec![Mode::Battle]),
            ("strong", vec![Mode::Battle]),
        ];
        store.set_house_bots(&house, true).unwrap();
        // Idempotent: a restart keeps the same bots and versions.
        store.set_house_bots(&house, true).unwrap();
        let sandbox = Arc::new(Sandbox::new(Limits::default(), None).unwrap());
        let ladder = Ladder::new(
            Arc::clone(&store),
            sandbox,
            vec![(Mode::Battle, serde_json::Value::Null)],
            1,
            (3, 10),
            (4, 1 << 20),
        )
        .unwrap();
        let members = store.ladder_members(Mode::Battle).unwrap();
        assert_eq!(
            members
                .iter()
                .map(|v| v.bot_name.as_str())
                .collect::<Vec<_>>(),
            ["builtin:random", "builtin:strong"]
        );
        assert_eq!(
            ladder.plan().unwrap(),
            None,
            "two house bots alone play nothing"
        );
        let [upload] = versions(&store, "alice", ["alpha"]);
        for _ in 0..4 {
            let job = ladder.plan().unwrap().expect("the upload plays");
            assert!(job.a == upload || job.b == upload, "{job:?}");
        }
        let Some(Contestant::Builtin(name)) = ladder.contestant(members[0].id).unwrap() else {
            panic!("a house bot plays as its built-in");
        };
        assert_eq!(name, "random");
        // Turned off: they leave the ladder (their games stay).
        store.set_house_bots(&house, false).unwrap();
        assert_eq!(store.ladder_members(Mode::Battle).unwrap().len(), 1);
    }

    #[test]
    fn pages_get_the_published_standings_while_a_refit_runs_and_every_board_is_a_full_fit() {
        let store = Arc::new(Store::in_memory().unwrap());
        let [a, b, c] = versions(&store, "o", ["a", "b", "c"]);
        add_game(&store, [a, b], Some(0));
        add_game(&store, [b, c], None);
        let sandbox = Arc::new(Sandbox::new(Limits::default(), None).unwrap());
        let ladder = Ladder::new(
            Arc::clone(&store),
            sandbox,
            vec![(Mode::Battle, serde_json::Value::Null)],
            1,
            (3, 10),
            (4, 1 << 20),
        )
        .unwrap();
        let full = || {
            let games = store.games_of_mode(Mode::Battle).unwrap();
            let board =
                crate::leaderboard::build(Mode::Battle, &games, &store.latest_versions().unwrap());
            serde_json::to_value(board).unwrap()
        };
        let refitting = |on: bool| {
            let mut standings = ladder.standings.lock().unwrap();
            standings.get_mut(&Mode::Battle).unwrap().refitting = on;
        };
        let first = ladder.leaderboard(Mode::Battle).unwrap();
        assert_eq!(serde_json::to_value(first.as_ref()).unwrap(), full());
        // A refit under way (as another thread would be, outside the lock): a page gets the
        // published standings at once instead of waiting, even though a game came in.
        refitting(true);
        add_game(&store, [c, a], Some(1));
        let during = ladder.leaderboard(Mode::Battle).unwrap();
        assert!(Arc::ptr_eq(&first, &during));
        assert_eq!(during.games, 2);
        // Just published and only a game behind: a page takes them too, without a refit.
        refitting(false);
        let lagging = ladder.leaderboard(Mode::Battle).unwrap();
        assert!(Arc::ptr_eq(&first, &lagging));
        // Once it has ended, the next asks for a fit with the new game: the same numbers
        // as fitting every game at once.
        refitting(false);
        let after = ladder.fresh_leaderboard(Mode::Battle).unwrap();
        assert_eq!(after.games, 3);
        assert_eq!(serde_json::to_value(after.as_ref()).unwrap(), full());
        // A new version changes the standings without a game: refitted too.
        versions(&store, "p", ["d"]);
        let with_d = ladder.leaderboard(Mode::Battle).unwrap();
        assert_eq!(with_d.rows.len(), 4);
        assert_eq!(serde_json::to_value(with_d.as_ref()).unwrap(), full());
    }
}
