//! The server's state in SQLite, behind one small interface: [`Store`]. All SQL lives here,
//! so another database can replace SQLite by reimplementing this file.
//!
//! Migrations are the numbered files in `arena/server/migrations/`, applied in order in one
//! transaction each and recorded in `PRAGMA user_version`. Writes that must not be torn (a
//! finished game with its replay and the end of its ladder job) are one transaction.

use arena_engine::SeatOutcome;
use arena_sdk::Mode;
use arena_tournament::signing::{self, PublicKey, ReplayKey, SigningError};
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

/// The schema migrations, in order: version `i + 1` is `MIGRATIONS[i]`.
const MIGRATIONS: &[&str] = &[
    include_str!("../migrations/0001_init.sql"),
    include_str!("../migrations/0002_pair_games.sql"),
];

/// A database error, with what was being done.
#[derive(Debug, thiserror::Error)]
#[error("database: {what}: {error}")]
pub struct StoreError {
    what: &'static str,
    error: Cause,
}

/// What went wrong under a [`StoreError`].
#[derive(Debug, thiserror::Error)]
enum Cause {
    #[error(transparent)]
    Sql(#[from] rusqlite::Error),
    /// The replay signing key beside the database.
    #[error(transparent)]
    Key(#[from] SigningError),
}

/// Attach what was being done to a SQLite error.
fn ctx(what: &'static str) -> impl FnOnce(rusqlite::Error) -> StoreError {
    move |error| StoreError {
        what,
        error: error.into(),
    }
}

/// The database. Cheap to share (`Arc<Store>`); every call is short. The threads that play
/// games ([`as_game_worker`]) have a connection of their own, so however many requests are
/// waiting for theirs, a game is never queued behind them: WAL lets the two read at once,
/// and write transactions begin `IMMEDIATE` (SQLite serializes them, waiting up to the busy
/// timeout). An in-memory database has one connection; there a worker's call still goes
/// before the requests', which queue behind one another (`requests`), so a worker waits for
/// at most the one call holding it.
#[derive(Debug)]
pub struct Store {
    conn: Mutex<Connection>,
    /// The game workers' connection (`None` in memory: they share `conn`).
    workers: Option<Mutex<Connection>>,
    /// Held by a request's call while it waits for and uses `conn`.
    requests: Mutex<()>,
    /// What the replays stored here are signed with ([`Store::add_game`]): the key beside
    /// the database file, or a new one for an in-memory database.
    signer: ReplayKey,
}

/// A user, as the server sees them after authentication.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct User {
    /// Row id.
    pub id: i64,
    /// Login name.
    pub name: String,
    /// May run tournaments.
    pub admin: bool,
}

/// A bot and its owner.
#[derive(Debug, Clone, Serialize)]
pub struct Bot {
    /// Row id.
    pub id: i64,
    /// Unique name.
    pub name: String,
    /// The owner's name.
    pub owner: String,
    /// The owner's id.
    #[serde(skip)]
    pub owner_id: i64,
    /// Whether the ladder schedules it.
    pub active: bool,
}

/// One accepted upload of a bot.
#[derive(Debug, Clone, Serialize)]
pub struct Version {
    /// Row id (what games refer to).
    pub id: i64,
    /// The bot's id.
    pub bot: i64,
    /// The bot's name.
    pub bot_name: String,
    /// 1, 2, … per bot.
    pub number: i64,
    /// The module's SHA-256.
    pub sha256: String,
    /// The modes it plays.
    pub modes: Vec<Mode>,
    /// Unix seconds.
    pub created: i64,
}

/// The prefix of a house bot's name (a built-in on the ladder, `builtin:NAME`). No upload
/// can take such a name: uploaded bots' names are `a-z`, `0-9`, `-`, `_`
/// ([`crate::accounts::check_name`]).
pub const HOUSE_PREFIX: &str = "builtin:";

/// The owner of the house bots: not a valid user name, so no account can be it.
pub const HOUSE_OWNER: &str = "(house)";

impl Version {
    /// The built-in this version is, if it is a house bot's (`builtin:NAME`).
    pub fn house_builtin(&self) -> Option<&str> {
        self.bot_name.strip_prefix(HOUSE_PREFIX)
    }
}

/// A ladder job: two games on one seed, seats swapped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// Row id.
    pub id: i64,
    /// The mode.
    pub mode: Mode,
    /// The seed both games use.
    pub seed: u64,
    /// The versions; game 0 seats `a` first, game 1 seats `b` first.
    pub a: i64,
    /// See `a`.
    pub b: i64,
}

/// A finished game to commit.
#[derive(Debug, Clone)]
pub struct NewGame {
    /// The mode.
    pub mode: Mode,
    /// The seed.
    pub seed: u64,
    /// The ladder job and game within it, for ladder games.
    pub job: Option<(i64, u8)>,
    /// Versions in seat order.
    pub seats: [i64; 2],
    /// The winning seat.
    pub winner: Option<u8>,
    /// Why it ended.
    pub reason: String,
    /// Turns.
    pub turns: u32,
    /// Per seat outcome.
    pub outcomes: [SeatOutcome; 2],
    /// The replay JSON.
    pub replay: Vec<u8>,
}

/// A stored game.
#[derive(Debug, Clone, Serialize)]
pub struct Game {
    /// Row id.
    pub id: i64,
    /// The mode.
    pub mode: Mode,
    /// The seed.
    pub seed: u64,
    /// Versions in seat order.
    pub seats: [i64; 2],
    /// Bot names in seat order.
    pub names: [String; 2],
    /// Version numbers in seat order.
    pub numbers: [i64; 2],
    /// Bot ids in seat order.
    pub bots: [i64; 2],
    /// The winning seat.
    pub winner: Option<u8>,
    /// Why it ended.
    pub reason: String,
    /// Turns.
    pub turns: u32,
    /// Per seat outcome.
    pub outcomes: [SeatOutcome; 2],
    /// The replay's SHA-256.
    pub replay: String,
    /// Unix seconds.
    pub created: i64,
}

/// A tournament run on the server.
#[derive(Debug, Clone, Serialize)]
pub struct TournamentRow {
    /// Row id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// `running`, `done`, `failed` or `cancelled`.
    pub status: String,
    /// Why it failed.
    pub error: Option<String>,
    /// The report as JSON.
    pub report: Option<serde_json::Value>,
    /// The report's text tables.
    pub tables: Option<String>,
    /// The report's SVG picture.
    pub svg: Option<String>,
    /// Unix seconds.
    pub created: i64,
}

/// Games and queued games per version, and per pair of versions (lower id first).
pub type LadderCounts = (BTreeMap<i64, u64>, BTreeMap<(i64, i64), u64>);

/// A mode's last game id, the newest version id and the number of active bots: what its
/// standings depend on (games are never deleted, so a new game means a new last id).
pub type ModeState = (i64, i64, i64);

thread_local! {
    /// Set while [`off_executor`] runs its work: this thread may wait on the database.
    static OFF_EXECUTOR: Cell<bool> = const { Cell::new(false) };
    /// Set on the threads that play games ([`as_game_worker`]).
    static GAME_WORKER: Cell<bool> = const { Cell::new(false) };
}

/// Mark this thread as one that plays games (a ladder worker, the tournament runner): its
/// database calls go before the requests' ([`Store`]), so page and API traffic cannot slow
/// the games down.
pub fn as_game_worker() {
    GAME_WORKER.set(true);
}

/// The connection, and a request's place in the queue (dropped after the connection).
struct Conn<'a> {
    conn: MutexGuard<'a, Connection>,
    _queue: Option<MutexGuard<'a, ()>>,
}

impl std::ops::Deref for Conn<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        &self.conn
    }
}

impl std::ops::DerefMut for Conn<'_> {
    fn deref_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }
}

/// Run `work` (which may call the [`Store`]) on tokio's blocking pool, never on the async
/// executor's threads: a database call waits for the connection, which a ladder worker may
/// hold through a long transaction, and an executor thread waiting there stops answering
/// every other request. In debug builds the store refuses (panics) a call made inside a
/// tokio runtime but not through here, so a handler that forgets is caught by any test
/// that reaches it.
pub async fn off_executor<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, tokio::task::JoinError> {
    tokio::task::spawn_blocking(move || {
        struct Reset(bool);
        impl Drop for Reset {
            fn drop(&mut self) {
                OFF_EXECUTOR.set(self.0);
            }
        }
        let _reset = Reset(OFF_EXECUTOR.replace(true));
        work()
    })
    .await
}

/// Whether this thread may block on the database: it is not in a tokio runtime (a ladder
/// worker, a tournament thread, the CLI), or it runs [`off_executor`]'s work.
fn may_block() -> bool {
    OFF_EXECUTOR.get() || tokio::runtime::Handle::try_current().is_err()
}

/// Seconds since the Unix epoch (timestamps shown on pages; never part of a result).
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn mode_of(text: String) -> rusqlite::Result<Mode> {
    text.parse().map_err(|e: String| {
        rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, e.into())
    })
}

fn json_of<T: serde::de::DeserializeOwned>(text: &str) -> rusqlite::Result<T> {
    serde_json::from_str(text).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, e.into())
    })
}

const GAME_COLUMNS: &str = "g.id, g.mode, g.seed, g.seat0, g.seat1, b0.name, b1.name, v0.number, \
     v1.number, g.winner, g.reason, g.turns, g.seats, g.replay, g.created, v0.bot, v1.bot \
     FROM games g JOIN versions v0 ON v0.id = g.seat0 JOIN versions v1 ON v1.id = g.seat1 \
     JOIN bots b0 ON b0.id = v0.bot JOIN bots b1 ON b1.id = v1.bot";

fn game_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Game> {
    Ok(Game {
        id: row.get(0)?,
        mode: mode_of(row.get(1)?)?,
        seed: row.get::<_, i64>(2)? as u64,
        seats: [row.get(3)?, row.get(4)?],
        names: [row.get(5)?, row.get(6)?],
        numbers: [row.get(7)?, row.get(8)?],
        winner: row.get(9)?,
        reason: row.get(10)?,
        turns: row.get(11)?,
        outcomes: json_of(&row.get::<_, String>(12)?)?,
        replay: row.get(13)?,
        created: row.get(14)?,
        bots: [row.get(15)?, row.get(16)?],
    })
}

const VERSION_COLUMNS: &str = "v.id, v.bot, b.name, v.number, v.sha256, v.modes, v.created \
     FROM versions v JOIN bots b ON b.id = v.bot";

fn version_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Version> {
    Ok(Version {
        id: row.get(0)?,
        bot: row.get(1)?,
        bot_name: row.get(2)?,
        number: row.get(3)?,
        sha256: row.get(4)?,
        modes: json_of(&row.get::<_, String>(5)?)?,
        created: row.get(6)?,
    })
}

fn mode_state_on(conn: &Connection, mode: Mode) -> Result<ModeState, StoreError> {
    conn.query_row(
                "SELECT (SELECT COALESCE(MAX(id), 0) FROM games WHERE mode = ?1), \
                 (SELECT COALESCE(MAX(id), 0) FROM versions), (SELECT COUNT(*) FROM bots WHERE active = 1)",
                [mode.name()],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
            )
            .map_err(ctx("read mode state"))
}

/// At most `limit` bots' latest versions (active or not), by bot name, from the first name
/// after `after` (from the start without it).
fn latest_versions_on(
    conn: &Connection,
    after: Option<&str>,
    limit: usize,
) -> Result<Vec<Version>, StoreError> {
    let mut stmt = conn
        .prepare_cached(&format!(
            "SELECT {VERSION_COLUMNS} WHERE v.number = (SELECT MAX(number) FROM versions WHERE bot = v.bot) \
             AND b.name > ?1 ORDER BY b.name LIMIT ?2"
        ))
        .map_err(ctx("list bots"))?;
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    stmt.query_map(rusqlite::params![after.unwrap_or(""), limit], version_row)
        .and_then(Iterator::collect)
        .map_err(ctx("list bots"))
}

/// A connection's own settings (the journal mode is the database file's): durable commits
/// in WAL mode (only an OS crash can lose the last ones, never tear them), foreign keys,
/// and waiting for another connection's write instead of failing.
fn configure(conn: &Connection) -> Result<(), StoreError> {
    conn.pragma_update(None, "synchronous", "NORMAL")
        .map_err(ctx("set synchronous"))?;
    conn.pragma_update(None, "foreign_keys", "ON")
        .map_err(ctx("enable foreign keys"))?;
    conn.busy_timeout(std::time::Duration::from_secs(10))
        .map_err(ctx("set busy timeout"))
}

fn deflate(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::new(6));
    encoder.write_all(bytes).expect("writing to a Vec");
    encoder.finish().expect("writing to a Vec")
}

impl Store {
    /// Open (creating if needed) the database at `path` and bring its schema up to date.
    /// Replays are signed with the key in `DB.replay-key` (`signing::key_path`), created
    /// owner-only with the database.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let conn = Connection::open(path).map_err(ctx("open"))?;
        let signer =
            ReplayKey::load_or_create(&signing::key_path(path)).map_err(|error| StoreError {
                what: "replay signing key",
                error: error.into(),
            })?;
        let mut store = Store::init(conn, signer)?;
        let workers = Connection::open(path).map_err(ctx("open"))?;
        configure(&workers)?;
        store.workers = Some(Mutex::new(workers));
        Ok(store)
    }

    /// The public key the stored replays are signed with (`arena replay verify --key`).
    pub fn replay_key(&self) -> PublicKey {
        self.signer.public()
    }

    /// Fail unless the database can be written: a write transaction is committed (the
    /// schema version, set to what it is). SQLite opens a file it cannot write read-only
    /// without a word, and a directory it cannot write leaves it without its WAL files:
    /// either would let the server start, serve pages and fail every write.
    pub fn check_writable(&self) -> Result<(), StoreError> {
        let conn = self.conn();
        let version: usize = conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(ctx("read schema version"))?;
        conn.execute_batch(&format!(
            "BEGIN IMMEDIATE; PRAGMA user_version = {version}; COMMIT;"
        ))
        .map_err(|error| {
            let _ = conn.execute_batch("ROLLBACK");
            StoreError {
                what: "write",
                error: error.into(),
            }
        })
    }

    /// A private in-memory database (tests).
    pub fn in_memory() -> Result<Store, StoreError> {
        let signer = ReplayKey::generate().map_err(|error| StoreError {
            what: "replay signing key",
            error: error.into(),
        })?;
        Store::init(Connection::open_in_memory().map_err(ctx("open"))?, signer)
    }

    fn init(mut conn: Connection, signer: ReplayKey) -> Result<Store, StoreError> {
        // WAL: readers (pages) never wait for the ladder's writes; synchronous=NORMAL in WAL
        // mode keeps every committed transaction across a process kill (only an OS crash
        // can lose the last ones, never tear them).
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(ctx("set WAL mode"))?;
        configure(&conn)?;
        let version: usize = conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(ctx("read schema version"))?;
        for (index, sql) in MIGRATIONS.iter().enumerate().skip(version) {
            let tx = conn.transaction().map_err(ctx("begin migration"))?;
            tx.execute_batch(sql).map_err(ctx("migrate"))?;
            tx.pragma_update(None, "user_version", index + 1)
                .map_err(ctx("record schema version"))?;
            tx.commit().map_err(ctx("commit migration"))?;
        }
        Ok(Store {
            conn: Mutex::new(conn),
            workers: None,
            requests: Mutex::new(()),
            signer,
        })
    }

    fn conn(&self) -> Conn<'_> {
        debug_assert!(
            may_block(),
            "a database call on the async executor: run it through store::off_executor"
        );
        // A panic while holding the lock cannot leave SQLite inconsistent (transactions roll
        // back on drop), so a poisoned lock is still usable.
        let worker = GAME_WORKER.get();
        if worker && let Some(workers) = &self.workers {
            return Conn {
                conn: workers.lock().unwrap_or_else(|e| e.into_inner()),
                _queue: None,
            };
        }
        let queue = (!worker).then(|| self.requests.lock().unwrap_or_else(|e| e.into_inner()));
        Conn {
            conn: self.conn.lock().unwrap_or_else(|e| e.into_inner()),
            _queue: queue,
        }
    }

    /// The schema version.
    pub fn schema_version(&self) -> Result<usize, StoreError> {
        self.conn()
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(ctx("read schema version"))
    }

    // --- accounts

    /// Create a user with the hash of their token.
    pub fn add_user(&self, name: &str, token_hash: &[u8], admin: bool) -> Result<User, StoreError> {
        let conn = self.conn();
        conn.execute(
            "INSERT INTO users (name, token_hash, admin, created) VALUES (?1, ?2, ?3, ?4)",
            params![name, token_hash, admin, now()],
        )
        .map_err(ctx("add user"))?;
        Ok(User {
            id: conn.last_insert_rowid(),
            name: name.to_owned(),
            admin,
        })
    }

    /// Whether a user of this name exists.
    pub fn user_exists(&self, name: &str) -> Result<bool, StoreError> {
        self.conn()
            .query_row("SELECT 1 FROM users WHERE name = ?1", [name], |_| Ok(()))
            .optional()
            .map(|r| r.is_some())
            .map_err(ctx("find user"))
    }

    /// The user whose token hashes to `token_hash`, found through the column's unique index.
    pub fn user_by_token_hash(&self, token_hash: &[u8]) -> Result<Option<User>, StoreError> {
        self.conn()
            .prepare_cached("SELECT id, name, admin FROM users WHERE token_hash = ?1")
            .and_then(|mut stmt| {
                stmt.query_row([token_hash], |row| {
                    Ok(User {
                        id: row.get(0)?,
                        name: row.get(1)?,
                        admin: row.get(2)?,
                    })
                })
                .optional()
            })
            .map_err(ctx("find a token's user"))
    }

    // --- bots and versions

    /// The bot of this name.
    pub fn bot_by_name(&self, name: &str) -> Result<Option<Bot>, StoreError> {
        self.bot_where("b.name = ?1", rusqlite::types::Value::Text(name.to_owned()))
    }

    /// The bot with this id.
    pub fn bot(&self, id: i64) -> Result<Option<Bot>, StoreError> {
        self.bot_where("b.id = ?1", rusqlite::types::Value::Integer(id))
    }

    fn bot_where(
        &self,
        condition: &str,
        value: rusqlite::types::Value,
    ) -> Result<Option<Bot>, StoreError> {
        let sql = format!(
            "SELECT b.id, b.name, u.name, u.id, b.active FROM bots b JOIN users u ON u.id = b.owner WHERE {condition}"
        );
        self.conn()
            .query_row(&sql, [value], |row| {
                Ok(Bot {
                    id: row.get(0)?,
                    name: row.get(1)?,
                    owner: row.get(2)?,
                    owner_id: row.get(3)?,
                    active: row.get(4)?,
                })
            })
            .optional()
            .map_err(ctx("find bot"))
    }

    /// Store a checked upload as the next version of `bot_name`, creating the bot for
    /// `owner` if it is new. `Err(Ok(owner))` when the name belongs to someone else.
    pub fn add_version(
        &self,
        owner: &User,
        bot_name: &str,
        wasm: &[u8],
        sha256: &str,
        modes: &[Mode],
        report: &str,
    ) -> Result<Result<Version, String>, StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(ctx("begin upload"))?;
        let existing: Option<(i64, i64, String)> = tx
            .query_row(
                "SELECT b.id, b.owner, u.name FROM bots b JOIN users u ON u.id = b.owner WHERE b.name = ?1",
                [bot_name],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
            )
            .optional()
            .map_err(ctx("find bot"))?;
        let bot_id = match existing {
            Some((_, owner_id, owner_name)) if owner_id != owner.id => return Ok(Err(owner_name)),
            Some((id, _, _)) => id,
            None => {
                tx.execute(
                    "INSERT INTO bots (owner, name, created) VALUES (?1, ?2, ?3)",
                    params![owner.id, bot_name, now()],
                )
                .map_err(ctx("add bot"))?;
                tx.last_insert_rowid()
            }
        };
        tx.execute(
            "INSERT OR IGNORE INTO modules (sha256, wasm) VALUES (?1, ?2)",
            params![sha256, wasm],
        )
        .map_err(ctx("store module"))?;
        let number: i64 = tx
            .query_row(
                "SELECT COALESCE(MAX(number), 0) + 1 FROM versions WHERE bot = ?1",
                [bot_id],
                |row| row.get(0),
            )
            .map_err(ctx("number version"))?;
        let modes_json = serde_json::to_string(modes).expect("modes serialize");
        tx.execute(
            "INSERT INTO versions (bot, number, sha256, modes, report, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![bot_id, number, sha256, modes_json, report, now()],
        )
        .map_err(ctx("add version"))?;
        let id = tx.last_insert_rowid();
        tx.execute("UPDATE bots SET active = 1 WHERE id = ?1", [bot_id])
            .map_err(ctx("activate bot"))?;
        tx.commit().map_err(ctx("commit upload"))?;
        Ok(Ok(Version {
            id,
            bot: bot_id,
            bot_name: bot_name.to_owned(),
            number,
            sha256: sha256.to_owned(),
            modes: modes.to_vec(),
            created: now(),
        }))
    }

    /// Put the built-ins `house` (name, the modes it plays) on the ladder as house bots
    /// (`builtin:NAME`, owned by [`HOUSE_OWNER`]), or, with `active` false, take every
    /// house bot off it (their games stay). A house bot already there keeps its version;
    /// its modes become the ones given. One transaction.
    pub fn set_house_bots(
        &self,
        house: &[(&str, Vec<Mode>)],
        active: bool,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(ctx("begin house bots"))?;
        tx.execute(
            "UPDATE bots SET active = 0 WHERE owner IN (SELECT id FROM users WHERE name = ?1)",
            [HOUSE_OWNER],
        )
        .map_err(ctx("retire house bots"))?;
        if active {
            // A hash no token has (tokens hash to 32 bytes): nobody can act as the house.
            tx.execute(
                "INSERT OR IGNORE INTO users (name, token_hash, admin, created) VALUES (?1, ?2, 0, ?3)",
                params![HOUSE_OWNER, b"the house has no token".as_slice(), now()],
            )
            .map_err(ctx("add the house"))?;
            let owner: i64 = tx
                .query_row("SELECT id FROM users WHERE name = ?1", [HOUSE_OWNER], |r| {
                    r.get(0)
                })
                .map_err(ctx("find the house"))?;
            for (name, modes) in house {
                let bot_name = format!("{HOUSE_PREFIX}{name}");
                let modes_json = serde_json::to_string(modes).expect("modes serialize");
                tx.execute(
                    "INSERT OR IGNORE INTO bots (owner, name, created) VALUES (?1, ?2, ?3)",
                    params![owner, bot_name, now()],
                )
                .map_err(ctx("add house bot"))?;
                let bot: i64 = tx
                    .query_row("SELECT id FROM bots WHERE name = ?1", [&bot_name], |r| {
                        r.get(0)
                    })
                    .map_err(ctx("find house bot"))?;
                // Its "module" is its name: a built-in has no bytes.
                tx.execute(
                    "INSERT OR IGNORE INTO modules (sha256, wasm) VALUES (?1, x'')",
                    [&bot_name],
                )
                .map_err(ctx("add house module"))?;
                let updated = tx
                    .execute(
                        "UPDATE versions SET modes = ?2 WHERE bot = ?1 AND number = 1",
                        params![bot, modes_json],
                    )
                    .map_err(ctx("update house bot"))?;
                if updated == 0 {
                    tx.execute(
                        "INSERT INTO versions (bot, number, sha256, modes, report, created) VALUES (?1, 1, ?2, ?3, '{}', ?4)",
                        params![bot, bot_name, modes_json, now()],
                    )
                    .map_err(ctx("add house version"))?;
                }
                tx.execute("UPDATE bots SET active = 1 WHERE id = ?1", [bot])
                    .map_err(ctx("activate house bot"))?;
            }
        }
        tx.commit().map_err(ctx("commit house bots"))
    }

    /// Stop (or resume) scheduling a bot on the ladder; its games stay.
    pub fn set_active(&self, bot: i64, active: bool) -> Result<(), StoreError> {
        self.conn()
            .execute(
                "UPDATE bots SET active = ?2 WHERE id = ?1",
                params![bot, active],
            )
            .map(drop)
            .map_err(ctx("set active"))
    }

    /// The versions of a bot, oldest first.
    pub fn versions_of(&self, bot: i64) -> Result<Vec<Version>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT {VERSION_COLUMNS} WHERE v.bot = ?1 ORDER BY v.number"
            ))
            .map_err(ctx("list versions"))?;
        stmt.query_map([bot], version_row)
            .and_then(Iterator::collect)
            .map_err(ctx("list versions"))
    }

    /// A version.
    pub fn version(&self, id: i64) -> Result<Option<Version>, StoreError> {
        self.conn()
            .query_row(
                &format!("SELECT {VERSION_COLUMNS} WHERE v.id = ?1"),
                [id],
                version_row,
            )
            .optional()
            .map_err(ctx("find version"))
    }

    /// The check report of a version (JSON text).
    pub fn version_report(&self, id: i64) -> Result<Option<String>, StoreError> {
        self.conn()
            .query_row("SELECT report FROM versions WHERE id = ?1", [id], |row| {
                row.get(0)
            })
            .optional()
            .map_err(ctx("read check report"))
    }

    /// The module bytes of a version.
    pub fn module_of(&self, version: i64) -> Result<Option<Vec<u8>>, StoreError> {
        self.conn()
            .query_row(
                "SELECT m.wasm FROM versions v JOIN modules m ON m.sha256 = v.sha256 WHERE v.id = ?1",
                [version],
                |row| row.get(0),
            )
            .optional()
            .map_err(ctx("read module"))
    }

    /// The latest version of every active bot that plays `mode`, by version id.
    pub fn ladder_members(&self, mode: Mode) -> Result<Vec<Version>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT {VERSION_COLUMNS} WHERE b.active = 1 \
                 AND v.number = (SELECT MAX(number) FROM versions WHERE bot = v.bot) ORDER BY v.id"
            ))
            .map_err(ctx("list ladder members"))?;
        let all: Vec<Version> = stmt
            .query_map([], version_row)
            .and_then(Iterator::collect)
            .map_err(ctx("list ladder members"))?;
        Ok(all
            .into_iter()
            .filter(|v| v.modes.contains(&mode))
            .collect())
    }

    /// The latest version of every bot (active or not), by bot name.
    pub fn latest_versions(&self) -> Result<Vec<Version>, StoreError> {
        latest_versions_on(&self.conn(), None, usize::MAX)
    }

    /// At most `limit` bots' latest versions, by bot name, from the first name after
    /// `after` (from the start without it): a page of [`Store::latest_versions`].
    pub fn latest_versions_page(
        &self,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Version>, StoreError> {
        latest_versions_on(&self.conn(), after, limit)
    }

    // --- ladder jobs

    /// Games played plus games pending, per version, in `mode`; and per pair of versions.
    pub fn ladder_counts(&self, mode: Mode) -> Result<LadderCounts, StoreError> {
        let conn = self.conn();
        let mut per_version = BTreeMap::new();
        let mut per_pair = BTreeMap::new();
        let mut add = |a: i64, b: i64, n: u64| {
            *per_version.entry(a).or_insert(0) += n;
            *per_version.entry(b).or_insert(0) += n;
            *per_pair.entry((a.min(b), a.max(b))).or_insert(0) += n;
        };
        let mut stmt = conn
            .prepare_cached("SELECT seat0, seat1, games FROM pair_games WHERE mode = ?1")
            .map_err(ctx("count games"))?;
        let rows: Vec<(i64, i64, i64)> = stmt
            .query_map([mode.name()], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?))
            })
            .and_then(Iterator::collect)
            .map_err(ctx("count games"))?;
        for (a, b, n) in rows {
            add(a, b, n as u64);
        }
        let mut stmt = conn
            .prepare_cached("SELECT a, b FROM jobs WHERE mode = ?1")
            .map_err(ctx("count jobs"))?;
        let rows: Vec<(i64, i64)> = stmt
            .query_map([mode.name()], |row| Ok((row.get(0)?, row.get(1)?)))
            .and_then(Iterator::collect)
            .map_err(ctx("count jobs"))?;
        for (a, b) in rows {
            add(a, b, 2);
        }
        Ok((per_version, per_pair))
    }

    /// Queue a job; its seed is `seed_of(job id)`, so seeds never depend on timing.
    pub fn add_job(
        &self,
        mode: Mode,
        a: i64,
        b: i64,
        seed_of: impl Fn(i64) -> u64,
    ) -> Result<Job, StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(ctx("begin job"))?;
        tx.execute(
            "INSERT INTO jobs (mode, seed, a, b, created) VALUES (?1, 0, ?2, ?3, ?4)",
            params![mode.name(), a, b, now()],
        )
        .map_err(ctx("add job"))?;
        let id = tx.last_insert_rowid();
        let seed = seed_of(id);
        tx.execute(
            "UPDATE jobs SET seed = ?2 WHERE id = ?1",
            params![id, seed as i64],
        )
        .map_err(ctx("seed job"))?;
        tx.commit().map_err(ctx("commit job"))?;
        Ok(Job {
            id,
            mode,
            seed,
            a,
            b,
        })
    }

    /// Every unfinished job, oldest first, with the games of it already committed.
    pub fn pending_jobs(&self) -> Result<Vec<(Job, Vec<u8>)>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare_cached(
                "SELECT j.id, j.mode, j.seed, j.a, j.b, \
                 (SELECT group_concat(swap) FROM games g WHERE g.job = j.id) FROM jobs j ORDER BY j.id",
            )
            .map_err(ctx("list jobs"))?;
        stmt.query_map([], |row| {
            let done: Option<String> = row.get(5)?;
            Ok((
                Job {
                    id: row.get(0)?,
                    mode: mode_of(row.get(1)?)?,
                    seed: row.get::<_, i64>(2)? as u64,
                    a: row.get(3)?,
                    b: row.get(4)?,
                },
                done.unwrap_or_default()
                    .split(',')
                    .filter_map(|s| s.parse().ok())
                    .collect(),
            ))
        })
        .and_then(Iterator::collect)
        .map_err(ctx("list jobs"))
    }

    /// Drop a job that can no longer be played (a version's module became unloadable).
    pub fn drop_job(&self, job: i64) -> Result<(), StoreError> {
        self.conn()
            .execute("DELETE FROM jobs WHERE id = ?1", [job])
            .map(drop)
            .map_err(ctx("drop job"))
    }

    // --- games and replays

    /// Commit a finished game in one transaction: its replay (addressed by the SHA-256 of
    /// the replay as played, so the same game has the same address on every server, then
    /// signed with the store's key and deflated), the game row, and for the second game of
    /// a ladder job the end of the job.
    pub fn add_game(&self, game: &NewGame) -> Result<i64, StoreError> {
        let sha256 = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&game.replay));
        let replay = self.signer.sign(&game.replay).map_err(|error| StoreError {
            what: "sign the replay",
            error: error.into(),
        })?;
        let deflated = deflate(&replay);
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(ctx("begin game"))?;
        tx.execute(
            "INSERT OR IGNORE INTO replays (sha256, deflated) VALUES (?1, ?2)",
            params![sha256, deflated],
        )
        .map_err(ctx("store replay"))?;
        tx.execute(
            "INSERT INTO games (mode, seed, job, swap, seat0, seat1, winner, reason, turns, faults0, faults1, seats, replay, created) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
            params![
                game.mode.name(),
                game.seed as i64,
                game.job.map(|j| j.0),
                game.job.map(|j| j.1),
                game.seats[0],
                game.seats[1],
                game.winner,
                game.reason,
                game.turns,
                game.outcomes[0].faults,
                game.outcomes[1].faults,
                serde_json::to_string(&game.outcomes).expect("outcomes serialize"),
                sha256,
                now(),
            ],
        )
        .map_err(ctx("add game"))?;
        let id = tx.last_insert_rowid();
        tx.execute(
            "INSERT INTO pair_games (mode, seat0, seat1, games) VALUES (?1, ?2, ?3, 1) \
             ON CONFLICT (mode, seat0, seat1) DO UPDATE SET games = games + 1",
            params![game.mode.name(), game.seats[0], game.seats[1]],
        )
        .map_err(ctx("count game"))?;
        if let Some((job, _)) = game.job {
            let done: i64 = tx
                .query_row("SELECT COUNT(*) FROM games WHERE job = ?1", [job], |row| {
                    row.get(0)
                })
                .map_err(ctx("count job games"))?;
            if done >= 2 {
                tx.execute("DELETE FROM jobs WHERE id = ?1", [job])
                    .map_err(ctx("finish job"))?;
            }
        }
        tx.commit().map_err(ctx("commit game"))?;
        Ok(id)
    }

    /// A game.
    pub fn game(&self, id: i64) -> Result<Option<Game>, StoreError> {
        self.conn()
            .query_row(
                &format!("SELECT {GAME_COLUMNS} WHERE g.id = ?1"),
                [id],
                game_row,
            )
            .optional()
            .map_err(ctx("find game"))
    }

    /// Every game of `mode`, oldest first (for ratings).
    pub fn games_of_mode(&self, mode: Mode) -> Result<Vec<Game>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT {GAME_COLUMNS} WHERE g.mode = ?1 ORDER BY g.id"
            ))
            .map_err(ctx("list games"))?;
        stmt.query_map([mode.name()], game_row)
            .and_then(Iterator::collect)
            .map_err(ctx("list games"))
    }

    /// The games of any version of `bot`, newest first, at most `limit`.
    pub fn games_of_bot(&self, bot: i64, limit: usize) -> Result<Vec<Game>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT {GAME_COLUMNS} WHERE v0.bot = ?1 OR v1.bot = ?1 ORDER BY g.id DESC LIMIT ?2"
            ))
            .map_err(ctx("list games"))?;
        stmt.query_map(params![bot, limit as i64], game_row)
            .and_then(Iterator::collect)
            .map_err(ctx("list games"))
    }

    /// Games in which a version of `bot` faulted, newest first, at most `limit`.
    pub fn faulted_games_of_bot(&self, bot: i64, limit: usize) -> Result<Vec<Game>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT {GAME_COLUMNS} WHERE (v0.bot = ?1 AND g.faults0 > 0) OR (v1.bot = ?1 AND g.faults1 > 0) \
                 ORDER BY g.id DESC LIMIT ?2"
            ))
            .map_err(ctx("list faults"))?;
        stmt.query_map(params![bot, limit as i64], game_row)
            .and_then(Iterator::collect)
            .map_err(ctx("list faults"))
    }

    /// What a mode's standings depend on: its game count, the newest version and the
    /// number of active bots (changes invalidate cached standings).
    pub fn mode_state(&self, mode: Mode) -> Result<ModeState, StoreError> {
        mode_state_on(&self.conn(), mode)
    }

    /// What a mode's standings are computed from, read at one moment (under one hold of the
    /// connection, so no game lands between the parts): the mode's state, its games after
    /// game `after` (oldest first) and every bot's latest version.
    pub fn standings_input(
        &self,
        mode: Mode,
        after: i64,
    ) -> Result<(ModeState, Vec<Game>, Vec<Version>), StoreError> {
        let conn = self.conn();
        let state = mode_state_on(&conn, mode)?;
        let games = conn
            .prepare_cached(&format!(
                "SELECT {GAME_COLUMNS} WHERE g.mode = ?1 AND g.id > ?2 ORDER BY g.id"
            ))
            .and_then(|mut stmt| {
                stmt.query_map(params![mode.name(), after], game_row)
                    .and_then(Iterator::collect)
            })
            .map_err(ctx("list new games"))?;
        let latest = latest_versions_on(&conn, None, usize::MAX)?;
        Ok((state, games, latest))
    }

    /// Count of all games.
    pub fn game_count(&self) -> Result<u64, StoreError> {
        self.conn()
            .query_row("SELECT COUNT(*) FROM games", [], |row| row.get::<_, i64>(0))
            .map(|n| n as u64)
            .map_err(ctx("count games"))
    }

    /// The replay JSON with this hash.
    pub fn replay(&self, sha256: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let deflated: Option<Vec<u8>> = self
            .conn()
            .query_row(
                "SELECT deflated FROM replays WHERE sha256 = ?1",
                [sha256],
                |row| row.get(0),
            )
            .optional()
            .map_err(ctx("read replay"))?;
        let Some(bytes) = deflated else {
            return Ok(None);
        };
        // A stored replay that does not inflate is damage to report (a 500 naming it), not
        // a missing one.
        let mut json = Vec::new();
        flate2::read::DeflateDecoder::new(&bytes[..])
            .read_to_end(&mut json)
            .map_err(|e| {
                rusqlite::Error::FromSqlConversionFailure(
                    0,
                    rusqlite::types::Type::Blob,
                    Box::new(e),
                )
            })
            .map_err(ctx("inflate a stored replay"))?;
        Ok(Some(json))
    }

    // --- rating history

    /// Record ratings after `games` games of `mode`.
    pub fn add_ratings(
        &self,
        mode: Mode,
        games: u64,
        elo: &[(i64, f64)],
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(ctx("begin ratings"))?;
        for (version, rating) in elo {
            tx.execute(
                "INSERT OR REPLACE INTO rating_history (mode, version, games, elo) VALUES (?1, ?2, ?3, ?4)",
                params![mode.name(), version, games as i64, rating],
            )
            .map_err(ctx("add rating"))?;
        }
        tx.commit().map_err(ctx("commit ratings"))
    }

    /// A bot's rating history in `mode` over all its versions: (games of the mode, version
    /// number, Elo), oldest first, thinned to at most `points` evenly spaced points plus the
    /// latest (a row is added per game: a page drawing them all would grow without end).
    pub fn rating_history(
        &self,
        bot: i64,
        mode: Mode,
        points: usize,
    ) -> Result<Vec<(u64, i64, f64)>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare_cached(
                "SELECT games, number, elo FROM ( \
                   SELECT r.games AS games, v.number AS number, r.elo AS elo, \
                     ROW_NUMBER() OVER (ORDER BY r.games, v.number) AS n, COUNT(*) OVER () AS total \
                   FROM rating_history r JOIN versions v ON v.id = r.version \
                   WHERE v.bot = ?1 AND r.mode = ?2) \
                 WHERE (n - 1) % ((total + ?3 - 1) / ?3) = 0 OR n = total ORDER BY n",
            )
            .map_err(ctx("read rating history"))?;
        stmt.query_map(params![bot, mode.name(), points.max(1) as i64], |row| {
            Ok((row.get::<_, i64>(0)? as u64, row.get(1)?, row.get(2)?))
        })
        .and_then(Iterator::collect)
        .map_err(ctx("read rating history"))
    }

    // --- tournaments

    /// Record a tournament that starts running.
    pub fn add_tournament(&self, name: &str, config: &str) -> Result<i64, StoreError> {
        let conn = self.conn();
        conn.execute(
            "INSERT INTO tournaments (name, config, status, created) VALUES (?1, ?2, 'running', ?3)",
            params![name, config, now()],
        )
        .map_err(ctx("add tournament"))?;
        Ok(conn.last_insert_rowid())
    }

    /// Forget a tournament recorded a moment ago whose preparation failed (its file refused,
    /// a module missing): it was never run, so it leaves no record.
    pub fn discard_tournament(&self, id: i64) -> Result<(), StoreError> {
        self.conn()
            .execute(
                "DELETE FROM tournaments WHERE id = ?1 AND status = 'running'",
                params![id],
            )
            .map(drop)
            .map_err(ctx("discard tournament"))
    }

    /// Record how a tournament ended.
    pub fn finish_tournament(
        &self,
        id: i64,
        result: Result<(&serde_json::Value, &str, &str), &str>,
    ) -> Result<(), StoreError> {
        let conn = self.conn();
        match result {
            // Only a running tournament ends: one cancelled meanwhile stays cancelled.
            Ok((report, tables, svg)) => conn.execute(
                "UPDATE tournaments SET status = 'done', report = ?2, tables = ?3, svg = ?4 WHERE id = ?1 AND status = 'running'",
                params![id, report.to_string(), tables, svg],
            ),
            Err(error) => conn.execute(
                "UPDATE tournaments SET status = 'failed', error = ?2 WHERE id = ?1 AND status = 'running'",
                params![id, error],
            ),
        }
        .map(drop)
        .map_err(ctx("finish tournament"))
    }

    /// Mark a running tournament `cancelled` (it is never resumed); false if it was not
    /// running.
    pub fn cancel_tournament(&self, id: i64) -> Result<bool, StoreError> {
        self.conn()
            .execute(
                "UPDATE tournaments SET status = 'cancelled' WHERE id = ?1 AND status = 'running'",
                [id],
            )
            .map(|changed| changed == 1)
            .map_err(ctx("cancel tournament"))
    }

    /// Tournaments still marked running (the server stopped during them).
    pub fn interrupted_tournaments(&self) -> Result<Vec<(i64, String)>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare_cached(
                "SELECT id, config FROM tournaments WHERE status = 'running' ORDER BY id",
            )
            .map_err(ctx("list tournaments"))?;
        stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
            .and_then(Iterator::collect)
            .map_err(ctx("list tournaments"))
    }

    /// A tournament.
    pub fn tournament(&self, id: i64) -> Result<Option<TournamentRow>, StoreError> {
        self.conn()
            .query_row(
                "SELECT id, name, status, error, report, tables, svg, created FROM tournaments WHERE id = ?1",
                [id],
                |row| {
                    let report: Option<String> = row.get(4)?;
                    Ok(TournamentRow {
                        id: row.get(0)?,
                        name: row.get(1)?,
                        status: row.get(2)?,
                        error: row.get(3)?,
                        report: report.map(|r| json_of(&r)).transpose()?,
                        tables: row.get(5)?,
                        svg: row.get(6)?,
                        created: row.get(7)?,
                    })
                },
            )
            .optional()
            .map_err(ctx("find tournament"))
    }

    /// Every tournament, newest first (without reports).
    pub fn tournaments(&self) -> Result<Vec<(i64, String, String)>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare_cached("SELECT id, name, status FROM tournaments ORDER BY id DESC")
            .map_err(ctx("list tournaments"))?;
        stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
            .and_then(Iterator::collect)
            .map_err(ctx("list tournaments"))
    }
}

/// What the server's unit tests put in a store: versions of one owner's bots, battle games.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;

    /// A seat outcome with nothing in it.
    pub fn outcome() -> SeatOutcome {
        serde_json::from_value(serde_json::json!({
            "stats": {}, "faults": 0, "fault_kinds": {}, "invalid_actions": 0, "fuel": 0, "forfeited": false
        }))
        .unwrap()
    }

    /// A battle bot per name, owned by a new user `owner` (its token hash is its name);
    /// their version ids, in order.
    pub fn versions<const N: usize>(store: &Store, owner: &str, names: [&str; N]) -> [i64; N] {
        let owner = store.add_user(owner, owner.as_bytes(), false).unwrap();
        names.map(|name| {
            store
                .add_version(&owner, name, name.as_bytes(), name, &[Mode::Battle], "{}")
                .unwrap()
                .unwrap()
                .id
        })
    }

    /// Store a one-turn battle game between `seats`.
    pub fn add_game(store: &Store, seats: [i64; 2], winner: Option<u8>) {
        store
            .add_game(&NewGame {
                mode: Mode::Battle,
                seed: 1,
                job: None,
                seats,
                winner,
                reason: "r".into(),
                turns: 1,
                outcomes: [outcome(), outcome()],
                replay: b"{}".to_vec(),
            })
            .unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{add_game, outcome, versions};
    use super::*;

    #[test]
    fn a_database_opened_read_only_fails_the_write_check() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("arena.db");
        Store::open(&path).unwrap().check_writable().unwrap();
        // What SQLite falls back to, without a word, for a file it cannot write.
        let conn =
            Connection::open_with_flags(&path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
        let store = Store {
            conn: Mutex::new(conn),
            workers: None,
            requests: Mutex::new(()),
            signer: ReplayKey::generate().unwrap(),
        };
        assert_eq!(
            store.schema_version().unwrap(),
            MIGRATIONS.len(),
            "it reads"
        );
        let error = store.check_writable().unwrap_err().to_string();
        assert!(error.contains("readonly"), "{error}");
    }

    #[test]
    fn a_game_worker_is_not_queued_behind_a_request_holding_the_connection() {
        let dir = tempfile::tempdir().unwrap();
        let store = std::sync::Arc::new(Store::open(&dir.path().join("arena.db")).unwrap());
        // A request's call holds its connection (as a slow page would).
        let held = store.conn();
        let (done, finished) = std::sync::mpsc::channel();
        let worker = {
            let store = std::sync::Arc::clone(&store);
            std::thread::spawn(move || {
                as_game_worker();
                done.send(store.schema_version().unwrap()).unwrap();
            })
        };
        let version = finished.recv_timeout(std::time::Duration::from_secs(10));
        assert_eq!(
            version,
            Ok(MIGRATIONS.len()),
            "the worker's call went through"
        );
        drop(held);
        worker.join().unwrap();
        // In memory there is one connection: a worker waits for it like anyone.
        assert!(Store::in_memory().unwrap().workers.is_none());
    }

    #[test]
    fn the_store_refuses_calls_from_the_async_executor_but_not_from_its_blocking_pool() {
        let store = std::sync::Arc::new(Store::in_memory().unwrap());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        // Outside a runtime (ladder workers, the CLI) and through `off_executor`: fine.
        assert_eq!(store.game_count().unwrap(), 0);
        let shared = std::sync::Arc::clone(&store);
        let count = runtime
            .block_on(off_executor(move || shared.game_count()))
            .unwrap()
            .unwrap();
        assert_eq!(count, 0);
        // On the executor itself: refused (in debug builds, where tests run).
        let on_executor = runtime.block_on(async {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| store.game_count()))
        });
        assert_eq!(on_executor.is_err(), cfg!(debug_assertions));
        // A plain `spawn_blocking` is refused too: only `off_executor` marks the thread.
        let shared = std::sync::Arc::clone(&store);
        let plain = runtime
            .block_on(async { tokio::task::spawn_blocking(move || shared.game_count()).await });
        assert_eq!(plain.is_err(), cfg!(debug_assertions));
    }

    #[test]
    fn a_long_rating_history_is_thinned_to_evenly_spaced_points_and_the_latest() {
        let store = Store::in_memory().unwrap();
        let owner = store.add_user("o", b"h", false).unwrap();
        let v = store
            .add_version(&owner, "a", b"w", "s", &[Mode::Battle], "{}")
            .unwrap()
            .unwrap();
        for games in 1..=1000u64 {
            store
                .add_ratings(Mode::Battle, games, &[(v.id, games as f64)])
                .unwrap();
        }
        let all = store.rating_history(v.bot, Mode::Battle, 2000).unwrap();
        assert_eq!(all.len(), 1000);
        let thin = store.rating_history(v.bot, Mode::Battle, 100).unwrap();
        // Every 10th point (games 1, 11, …, 991) and the latest.
        assert_eq!(thin.len(), 101);
        assert_eq!(thin[0], (1, 1, 1.0));
        assert_eq!(thin[1].0, 11);
        assert_eq!(thin[99].0, 991);
        assert_eq!(thin[100], (1000, 1, 1000.0));
        assert!(thin.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(
            store
                .rating_history(v.bot, Mode::Grid, 100)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn the_pair_counts_migration_counts_the_games_already_stored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("arena.db");
        let store = Store::open(&path).unwrap();
        let [a, b] = versions(&store, "o", ["a", "b"]);
        for seats in [[a, b], [b, a], [a, b]] {
            add_game(&store, seats, None);
        }
        let counted = store.ladder_counts(Mode::Battle).unwrap();
        assert_eq!(counted.0[&a], 3);
        assert_eq!(counted.1[&(a, b)], 3);
        // As a database from before the table: migrated on the next start from its games.
        store
            .conn()
            .execute_batch("DROP TABLE pair_games; PRAGMA user_version = 1;")
            .unwrap();
        drop(store);
        let store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len());
        assert_eq!(store.ladder_counts(Mode::Battle).unwrap(), counted);
    }

    #[test]
    fn migrations_run_once_and_record_the_version() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("arena.db");
        assert_eq!(
            Store::open(&path).unwrap().schema_version().unwrap(),
            MIGRATIONS.len()
        );
        // Reopening does not re-run the (non-idempotent) CREATE TABLEs.
        assert_eq!(
            Store::open(&path).unwrap().schema_version().unwrap(),
            MIGRATIONS.len()
        );
    }

    #[test]
    fn a_job_ends_with_its_second_game_and_replays_are_stored_once() {
        let store = Store::in_memory().unwrap();
        let alice = store.add_user("alice", b"h", false).unwrap();
        let bob = store.add_user("bob", b"i", false).unwrap();
        let a = store
            .add_version(&alice, "a", b"wasm-a", "sa", &[Mode::Battle], "{}")
            .unwrap()
            .unwrap();
        let b = store
            .add_version(&bob, "b", b"wasm-b", "sb", &[Mode::Battle], "{}")
            .unwrap()
            .unwrap();
        assert_eq!(
            store
                .add_version(&bob, "a", b"x", "sx", &[Mode::Battle], "{}")
                .unwrap()
                .unwrap_err(),
            "alice",
            "bob cannot upload over alice's bot"
        );
        let job = store
            .add_job(Mode::Battle, a.id, b.id, |id| id as u64 * 7)
            .unwrap();
        assert_eq!(job.seed, job.id as u64 * 7);
        let game = |swap: u8| NewGame {
            mode: Mode::Battle,
            seed: job.seed,
            job: Some((job.id, swap)),
            seats: if swap == 0 {
                [a.id, b.id]
            } else {
                [b.id, a.id]
            },
            winner: Some(0),
            reason: "r".into(),
            turns: 3,
            outcomes: [outcome(), outcome()],
            replay: b"{\"same\":1}".to_vec(),
        };
        store.add_game(&game(0)).unwrap();
        assert_eq!(store.pending_jobs().unwrap(), vec![(job.clone(), vec![0])]);
        assert!(
            store.add_game(&game(0)).is_err(),
            "a game of a job is stored once"
        );
        store.add_game(&game(1)).unwrap();
        assert!(store.pending_jobs().unwrap().is_empty());
        let next = store
            .add_job(Mode::Battle, a.id, b.id, |id| id as u64)
            .unwrap();
        assert_ne!(next.id, job.id, "a finished job's id is never reused");
        let stored = store.game(1).unwrap().unwrap();
        let replay = store.replay(&stored.replay).unwrap().unwrap();
        assert!(
            replay.starts_with(b"{\"same\":1,\"signature\":"),
            "kept, then signed"
        );
        assert_eq!(
            arena_tournament::signing::check(&replay).unwrap(),
            arena_tournament::signing::Signed::By(store.replay_key())
        );
        let replays: i64 = store
            .conn()
            .query_row("SELECT COUNT(*) FROM replays", [], |r| r.get(0))
            .unwrap();
        assert_eq!(replays, 1, "content-addressed");
        let (per_version, per_pair) = store.ladder_counts(Mode::Battle).unwrap();
        // Two games played and the two of the queued next job: the planner counts both.
        assert_eq!(per_version[&a.id], 4);
        assert_eq!(per_pair[&(a.id, b.id)], 4);
    }
}
