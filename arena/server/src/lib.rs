//! # arena-server — the Bot Arena competition server
//!
//! `arena serve` in a library: an [axum] app on tokio with its state in SQLite.
//! - [`store`]: the database behind one small interface (versioned migrations, every
//!   finished game one transaction, replays content-addressed and deflated);
//! - [`accounts`]: tokens (256-bit, stored hashed, compared in constant time) and names;
//! - [`ladder`]: the scheduler and its worker threads playing ranked games;
//! - [`leaderboard`]: per-mode Bradley–Terry standings;
//! - [`api`]: the JSON API (uploads checked like `arena check`); [`pages`]: the HTML pages;
//! - [`tournament`]: round-robin tournaments over submitted bots.
//!
//! Wasm work (checks, games) runs on the ladder's threads or `spawn_blocking`, never on the
//! async executor's threads, so a hostile bot cannot stop the server from answering.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let config = arena_server::config::ServerConfig::default();
//! let server = arena_server::Server::bind(config).await?;
//! println!("listening on {}", server.url());
//! server.run(async { let _ = tokio::signal::ctrl_c().await; }).await?;
//! # Ok(()) }
//! ```

pub mod accounts;
pub mod api;
pub mod cache;
pub mod config;
pub mod connections;
mod details;
pub mod error;
pub mod ladder;
pub mod leaderboard;
pub mod pages;
pub mod store;
pub mod tournament;

use crate::config::ServerConfig;
use crate::ladder::Ladder;
use crate::store::Store;
use arena_sandbox::{ModuleCache, Pool, Sandbox};
use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The configuration.
    #[error("configuration: {0}")]
    Config(String),
    /// The database.
    #[error(transparent)]
    Store(#[from] store::StoreError),
    /// The database or a directory beside it cannot be written.
    #[error("{0}")]
    Unwritable(String),
    /// The sandbox.
    #[error(transparent)]
    Sandbox(#[from] arena_sandbox::SetupError),
    /// The listening socket.
    #[error("cannot listen on {addr}: {error}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// Why.
        error: std::io::Error,
    },
    /// Serving failed.
    #[error("serving: {0}")]
    Serve(std::io::Error),
}

/// What request handlers share.
#[derive(Debug)]
pub struct App {
    /// The configuration.
    pub config: ServerConfig,
    /// The ladder (which owns the store and the sandbox).
    pub ladder: Arc<Ladder>,
    /// Recent upload times per user, for the rate limit.
    uploads: Mutex<HashMap<i64, VecDeque<Instant>>>,
    /// Users with an upload being read or checked (one at a time each).
    uploading: Mutex<std::collections::HashSet<i64>>,
    /// Recent open registrations per caller, for their rate limit.
    registrations: Registrations,
    /// Bounds how many uploads are checked at once (each check plays games).
    checks: Arc<tokio::sync::Semaphore>,
    /// Game pages rendered (each re-simulates a replay), the least recently asked evicted
    /// past `page_cache_bytes`.
    pub(crate) pages:
        Mutex<cache::Lru<(i64, pages::GamePage), (axum::http::StatusCode, axum::body::Bytes)>>,
    /// Bots' details (`details::bot_details`) as gathered, with when: answered again within
    /// [`ladder::PAGE_STANDINGS_LAG`], forgotten at an upload or a retirement.
    pub(crate) details: Mutex<cache::Lru<i64, (std::time::Instant, serde_json::Value)>>,
    /// Bounds how many game pages are rendered at once.
    pub(crate) renders: Arc<tokio::sync::Semaphore>,
    /// Game pages rendered since the start (for `/api/status`: a page asked for again is
    /// answered from `pages`).
    pub(crate) pages_rendered: std::sync::atomic::AtomicU64,
    /// The tournament runner (at most one tournament at a time: each uses every worker).
    pub(crate) tournaments: tournament::Runner,
    /// The open connections per caller (the accept loop's; `/api/status` counts them).
    pub connections: Arc<connections::Connections>,
    /// The base URL for links in answers.
    pub base_url: String,
}

/// Bots whose details are kept for a moment ([`App::details`]).
const DETAILS_KEPT: usize = 1024;

impl App {
    /// Forget every bot's gathered details: a bot or version changed.
    pub(crate) fn forget_details(&self) {
        self.details
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// The database.
    pub fn store(&self) -> &Arc<Store> {
        self.ladder.store()
    }

    /// Count an upload by `user`; false when they are over the hourly limit.
    pub(crate) fn allow_upload(&self, user: i64) -> bool {
        let mut uploads = self.uploads.lock().unwrap_or_else(|e| e.into_inner());
        within_hour(
            uploads.entry(user).or_default(),
            self.config.uploads_per_hour,
        )
    }

    /// Count an open registration by `caller`; false when they are over the hourly limit
    /// ([`Registrations::allow`]).
    pub(crate) fn allow_registration(&self, caller: Caller) -> bool {
        self.registrations
            .allow(caller, self.config.registrations_per_hour)
    }

    /// Give back the place of `caller`'s registration that was counted and then refused.
    pub(crate) fn unregister(&self, caller: Caller) {
        self.registrations.give_back(caller);
    }
}

/// Recent open registrations per caller, for their hourly limit.
#[derive(Debug, Default)]
pub(crate) struct Registrations(Mutex<HashMap<Caller, VecDeque<Instant>>>);

impl Registrations {
    /// Count a registration by `caller`; false when they made `limit` within the hour, or
    /// when [`CALLERS_KEPT`] other callers registered within the hour (the table of callers
    /// stays bounded). A registration refused afterwards (a taken name) gives its place
    /// back with [`Registrations::give_back`]; requests refused before (a bad body, an
    /// invalid name) are never counted, so nobody's requests use up anyone else's hour.
    pub(crate) fn allow(&self, caller: Caller, limit: usize) -> bool {
        let mut recent = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if !recent.contains_key(&caller) && recent.len() >= CALLERS_KEPT {
            let now = Instant::now();
            recent.retain(|_, times| {
                times
                    .back()
                    .is_some_and(|t| now.duration_since(*t).as_secs() < 3600)
            });
            if recent.len() >= CALLERS_KEPT {
                return false;
            }
        }
        within_hour(recent.entry(caller).or_default(), limit)
    }

    /// Give back `caller`'s latest counted registration.
    pub(crate) fn give_back(&self, caller: Caller) {
        let mut recent = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(times) = recent.get_mut(&caller) {
            times.pop_back();
        }
    }
}

/// Who a request comes from, for per-caller limits: the connection's IPv4 address, or an
/// IPv6 address's /64 prefix (one host is usually given a whole /64, so its addresses
/// count as one caller).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Caller(std::net::IpAddr);

impl Caller {
    /// The caller of a connection from `addr`.
    pub fn of(addr: std::net::IpAddr) -> Caller {
        use std::net::{IpAddr, Ipv6Addr};
        match addr {
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Caller(IpAddr::V4(v4)),
                None => {
                    let prefix = u128::from(v6) & !((1u128 << 64) - 1);
                    Caller(IpAddr::V6(Ipv6Addr::from(prefix)))
                }
            },
            v4 => Caller(v4),
        }
    }
}

/// Callers whose registrations of the last hour are kept, at most.
const CALLERS_KEPT: usize = 4096;

/// A user's upload in flight; the mark is lifted when it is dropped (answered or cut off).
pub(crate) struct Uploading {
    app: Arc<App>,
    user: i64,
}

impl Uploading {
    /// Mark `user` as uploading, unless they already are. The mark lives as long as the
    /// guard, which the upload's check takes along: a client that hangs up mid-check does
    /// not free its token for a second upload while the first is still being checked.
    pub(crate) fn claim(app: &Arc<App>, user: i64) -> Option<Uploading> {
        let fresh = app
            .uploading
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(user);
        // The guard is made after the lock is released (dropping one takes the lock), and
        // only when kept: an `Option` built eagerly and dropped would deadlock above.
        if fresh {
            Some(Uploading {
                app: Arc::clone(app),
                user,
            })
        } else {
            None
        }
    }
}

impl Drop for Uploading {
    fn drop(&mut self) {
        self.app
            .uploading
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.user);
    }
}

/// Game pages kept at most, whatever their size (`page_cache_bytes` bounds their bytes).
const PAGES_KEPT: usize = 4096;

/// Count one more event in `recent` (the times of the last hour's) if fewer than `limit`
/// happened in the last hour; whether it was counted.
fn within_hour(recent: &mut VecDeque<Instant>, limit: usize) -> bool {
    let now = Instant::now();
    while recent
        .front()
        .is_some_and(|t| now.duration_since(*t).as_secs() >= 3600)
    {
        recent.pop_front();
    }
    if recent.len() >= limit {
        return false;
    }
    recent.push_back(now);
    true
}

/// The async runtime to serve with: its threads (the executor's and the blocking pool's,
/// which answer requests) run at a lower priority (nice +10) than the threads that play
/// games, which are not the runtime's: when the machine is busy, page and API traffic
/// slows down before the ladder does. Run [`Server::run`] with `block_on` on a thread of
/// normal priority (as `arena serve` does on its main thread): the game workers it starts
/// inherit that thread's priority, and a lowered one cannot be raised back.
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .on_thread_start(|| {
            // On Linux a nice value is the calling thread's own. Lowering one's own
            // priority needs no privilege; where it fails the thread keeps its priority.
            let _ = rustix::process::setpriority_process(None, REQUEST_NICE);
        })
        .build()
}

/// How much lower than the game workers the request threads run ([`runtime`]).
pub const REQUEST_NICE: i32 = 10;

/// Open the database and the sandbox of a configuration. The database, and the
/// directories beside it the server writes (tournaments, compiled modules), must be
/// writable: refused here with what to fix, rather than found out by failed writes later.
pub fn open(config: &ServerConfig) -> Result<(Arc<Store>, Arc<Sandbox>), ServerError> {
    let db = config.db.display();
    let unwritable = |what: String| {
        ServerError::Unwritable(format!(
            "the database {db} cannot be written ({what}): the server needs to write the file, the files SQLite keeps beside it (-wal, -shm) and the directories {} and {}; check their owner and permissions",
            config.data_dir().display(),
            config.cache_dir().display()
        ))
    };
    let store = Store::open(&config.db).map_err(|e| unwritable(e.to_string()))?;
    store
        .check_writable()
        .map_err(|e| unwritable(e.to_string()))?;
    for dir in [config.data_dir(), config.cache_dir()] {
        std::fs::create_dir_all(&dir)
            .and_then(|()| {
                let probe = dir.join(".write-check");
                std::fs::write(&probe, b"")?;
                std::fs::remove_file(&probe)
            })
            .map_err(|e| unwritable(format!("{}: {e}", dir.display())))?;
    }
    let store = Arc::new(store);
    let cache = ModuleCache::new(config.cache_dir());
    // Instances alive at once: the ladder's `jobs` games and up to `jobs` upload checks
    // (a check plays its trial games one at a time), two seats each.
    let sandbox = Arc::new(Sandbox::with_pool(
        config.limits.limits(),
        Some(cache),
        Pool::for_parallel_games(config.jobs.max(1).saturating_mul(2)),
    )?);
    Ok((store, sandbox))
}

/// A bound, ready server.
#[derive(Debug)]
pub struct Server {
    app: Arc<App>,
    listener: tokio::net::TcpListener,
    addr: SocketAddr,
}

impl Server {
    /// Open the database, finish interrupted work and bind the listening socket.
    pub async fn bind(config: ServerConfig) -> Result<Server, ServerError> {
        let modes = config.ladder_modes().map_err(ServerError::Config)?;
        config.check_limits().map_err(ServerError::Config)?;
        // Opening the database (migrations) and reading the unfinished jobs is blocking work.
        let opening = config.clone();
        let ladder = store::off_executor(move || -> Result<Ladder, ServerError> {
            let (store, sandbox) = open(&opening)?;
            let house = ServerConfig::house_builtins(&modes);
            store.set_house_bots(&house, opening.house_bots)?;
            Ok(Ladder::new(
                store,
                sandbox,
                modes,
                opening.seed,
                (opening.max_faults, opening.max_rejections),
                (opening.compiled_bots, opening.compiled_bytes),
            )?)
        })
        .await
        .map_err(|e| ServerError::Config(format!("opening the database: {e}")))??;
        let ladder = Arc::new(ladder);
        let listener = tokio::net::TcpListener::bind(config.listen)
            .await
            .map_err(|error| ServerError::Listen {
                addr: config.listen,
                error,
            })?;
        let addr = listener.local_addr().map_err(|error| ServerError::Listen {
            addr: config.listen,
            error,
        })?;
        let base_url = config
            .public_url
            .clone()
            .unwrap_or_else(|| format!("http://{addr}"))
            .trim_end_matches('/')
            .to_owned();
        let config_per_client = config.max_connections_per_client;
        let app = Arc::new(App {
            checks: Arc::new(tokio::sync::Semaphore::new(config.jobs.max(1))),
            pages: Mutex::new(cache::Lru::new(PAGES_KEPT, config.page_cache_bytes)),
            details: Mutex::new(cache::Lru::new(DETAILS_KEPT, usize::MAX)),
            renders: Arc::new(tokio::sync::Semaphore::new(config.jobs.max(1))),
            pages_rendered: std::sync::atomic::AtomicU64::new(0),
            config,
            ladder,
            uploads: Mutex::new(HashMap::new()),
            uploading: Mutex::new(std::collections::HashSet::new()),
            registrations: Registrations::default(),
            tournaments: tournament::Runner::default(),
            connections: connections::Connections::new(config_per_client),
            base_url,
        });
        Ok(Server {
            app,
            listener,
            addr,
        })
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The server's base URL.
    pub fn url(&self) -> &str {
        &self.app.base_url
    }

    /// Serve until `shutdown` completes; the ladder plays meanwhile (when enabled) and
    /// stops after its current games.
    pub async fn run(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServerError> {
        let workers = if self.app.config.ladder {
            self.app.ladder.spawn(self.app.config.jobs)
        } else {
            Vec::new()
        };
        let resuming = Arc::clone(&self.app);
        let _ = store::off_executor(move || tournament::resume_interrupted(&resuming)).await;
        let router = api::router(Arc::clone(&self.app));
        let connections = Arc::clone(&self.app.connections);
        let served = serve(
            self.listener,
            router,
            &self.app.config,
            connections,
            shutdown,
        )
        .await;
        self.app.ladder.stop();
        let ladder_workers = tokio::task::spawn_blocking(move || {
            for worker in workers {
                let _ = worker.join();
            }
        });
        let _ = ladder_workers.await;
        served.map_err(ServerError::Serve)
    }
}

/// Serve HTTP/1 connections on `listener` until `shutdown` completes, then let the requests
/// in flight finish. Every connection is bounded: at most `max_connections` are served at
/// once and at most `max_connections_per_client` per caller (one more is answered 429 and
/// closed); when the server is full an idle connection is closed to make room
/// ([`connections`]), and when none is idle a new one waits to be accepted until one
/// closes. A connection that does not send a request's headers within
/// `header_timeout_secs` of connecting or of its previous answer (idle keep-alive, or a
/// header trickled a byte at a time) is closed, and so is one whose answer makes no
/// progress for `write_timeout_secs` (a client pipelining requests without reading the
/// answers): holding connections open costs a client as much as it costs the server.
async fn serve(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    config: &ServerConfig,
    connections: Arc<connections::Connections>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let cap = connection_cap(config.max_connections);
    let slots = Arc::new(tokio::sync::Semaphore::new(cap));
    let header_timeout = std::time::Duration::from_secs(config.header_timeout_secs);
    let write_timeout = std::time::Duration::from_secs(config.write_timeout_secs);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors and the like: the listener itself is fine,
                    // and retrying at once would spin.
                    tracing::warn!("accepting a connection failed: {error}");
                    connections.shed_idle();
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let registered = match connections.admit(Caller::of(peer.ip())) {
            connections::Admission::Admitted(registered) => registered,
            connections::Admission::OverCap => {
                // One write into a fresh socket's empty buffer: it never waits, and
                // whatever it managed, the connection is closed.
                let _ = stream.try_write(&connections::over_cap_answer());
                tracing::debug!(%peer, "refused a connection over max_connections_per_client");
                continue;
            }
        };
        // Full: ask an idle connection to close, and ask again while no place frees (the
        // one asked may have started a request meanwhile, or closed without freeing one).
        let slot = loop {
            if let Ok(slot) = Arc::clone(&slots).try_acquire_owned() {
                break slot;
            }
            connections.shed_idle();
            tokio::select! {
                () = &mut shutdown => return shut(&connections, &slots, cap).await,
                slot = Arc::clone(&slots).acquire_owned() => {
                    break slot.expect("the connection semaphore is never closed");
                }
                () = tokio::time::sleep(std::time::Duration::from_millis(50)) => {}
            }
        };
        // Every request carries its connection's address (`ConnectInfo`), for the limits
        // counted per caller, and marks the connection busy while it is handled.
        let inner = hyper_util::service::TowerToHyperService::new(router.clone());
        let (marks, id) = (Arc::clone(&connections), registered.id);
        let table = Arc::clone(&connections);
        let service = hyper::service::service_fn(
            move |mut request: hyper::Request<hyper::body::Incoming>| {
                let in_flight = marks.busy(id);
                request
                    .extensions_mut()
                    .insert(axum::extract::ConnectInfo(peer));
                let answer = hyper::service::Service::call(&inner, request);
                async move {
                    let answer = answer.await;
                    drop(in_flight);
                    answer
                }
            },
        );
        let mut stream = tokio_io_timeout::TimeoutStream::new(stream);
        stream.set_write_timeout(Some(write_timeout));
        let stream = registered.serve(Box::pin(stream));
        let connection = http.serve_connection(TokioIo::new(stream), service);
        tokio::spawn(async move {
            tokio::pin!(connection);
            // A client that hangs up or times out is its own business, not the server's.
            tokio::select! {
                _ = connection.as_mut() => {}
                () = registered.close.notified() => {
                    // Idle (a keep-alive wait, or a header trickled in): closed now, not at
                    // its header timeout; with a request in flight, after it.
                    if !table.is_idle(registered.id) {
                        connection.as_mut().graceful_shutdown();
                        let _ = connection.await;
                    }
                }
            }
            // Out of the table before its place is free: the next connection waiting for
            // a place must not find this one as the idle one to close.
            drop(registered);
            drop(slot);
        });
    }
    shut(&connections, &slots, cap).await
}

/// Files the process keeps for itself beside its connections: the database and its
/// journal, the listener, the module cache, logs, a compile child's pipes per worker.
const RESERVED_FILES: u64 = 128;

/// `max_connections`, or fewer when the process may not open that many files: the cap
/// stays below the file limit, so the server never runs out of descriptors for its own
/// files while it is full of connections.
fn connection_cap(max_connections: usize) -> usize {
    let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile).current;
    let Some(limit) = limit else {
        return max_connections;
    };
    let room = usize::try_from(limit.saturating_sub(RESERVED_FILES)).unwrap_or(usize::MAX);
    if room < max_connections {
        tracing::warn!(
            max_connections,
            file_limit = limit,
            "max_connections is above what the file limit leaves room for: serving at most {room} connections"
        );
    }
    max_connections.min(room.max(1))
}

/// Stopping: idle connections close now, busy ones after their request.
async fn shut(
    connections: &connections::Connections,
    slots: &tokio::sync::Semaphore,
    cap: usize,
) -> std::io::Result<()> {
    connections.close_all();
    let all = u32::try_from(cap).unwrap_or(u32::MAX);
    let _ = slots.acquire_many(all).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::IpAddr;

    fn caller(addr: &str) -> Caller {
        Caller::of(addr.parse::<IpAddr>().unwrap())
    }

    #[test]
    fn registrations_count_per_caller_and_a_given_back_place_is_free_again() {
        let registrations = Registrations::default();
        let (a, b) = (caller("192.0.2.1"), caller("192.0.2.2"));
        assert!(registrations.allow(a, 2) && registrations.allow(a, 2));
        assert!(!registrations.allow(a, 2), "a's hour is used up");
        assert!(registrations.allow(b, 2), "b has its own");
        registrations.give_back(a);
        assert!(
            registrations.allow(a, 2),
            "a refused registration gave its place back"
        );
        assert!(!registrations.allow(a, 2));
    }

    #[test]
    fn an_ipv6_host_is_one_caller_and_the_table_of_callers_is_bounded() {
        assert_eq!(caller("2001:db8:1:2::1"), caller("2001:db8:1:2:ffff::9"));
        assert_ne!(caller("2001:db8:1:2::1"), caller("2001:db8:1:3::1"));
        assert_eq!(caller("::ffff:192.0.2.1"), caller("192.0.2.1"));
        let registrations = Registrations::default();
        for i in 0..CALLERS_KEPT as u32 {
            let addr = IpAddr::from(std::net::Ipv4Addr::from(0x0a00_0000 + i));
            assert!(registrations.allow(Caller::of(addr), 1));
        }
        assert!(
            !registrations.allow(caller("192.0.2.1"), 1),
            "no room for another caller within the hour"
        );
        assert_eq!(
            registrations.0.lock().unwrap().len(),
            CALLERS_KEPT,
            "bounded"
        );
    }
}
