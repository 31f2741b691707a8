//! Who holds the server's connections, so that no one client can hold them all.
//!
//! The accept loop ([`crate::Server::run`]) registers every connection here under its
//! [`Caller`]. Three rules keep the server fair:
//! - a caller holds at most `max_connections_per_client` connections: one more is answered
//!   429 at once and closed, without a request being read ([`Connections::admit`]);
//! - when all `max_connections` are taken, an idle connection is closed to make room, that
//!   of the caller holding the most connections first, then the one that has read, written
//!   or finished a request least recently ([`Connections::shed_idle`]);
//! - an answer the client does not read (a pipelining or stalled client) is cut off after
//!   `write_timeout_secs` without progress (the stream's write timeout, in `lib.rs`).
//!
//! A connection is idle when no request is being handled and no answer waits to be
//! written ([`Watched`]): one whose client does not read is left to the write timeout.
//! It is closed through hyper's graceful shutdown: one with a request in flight (a request
//! that arrived just before the choice) finishes that request first.

use crate::Caller;
use std::collections::{BTreeMap, HashMap};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Instant;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;

/// A registered connection's number (the order it was accepted in).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConnectionId(u64);

/// The open connections, per caller.
#[derive(Debug)]
pub struct Connections {
    per_client: usize,
    table: Mutex<Table>,
    /// What activity times count from.
    epoch: Instant,
}

#[derive(Debug, Default)]
struct Table {
    next: u64,
    open: BTreeMap<ConnectionId, Open>,
    per_caller: HashMap<Caller, usize>,
}

#[derive(Debug)]
struct Open {
    caller: Caller,
    /// A request is being handled, or the connection waits for its place: not idle.
    busy: bool,
    /// An answer waits to be written (the client is not reading): not idle either; the
    /// write timeout closes it.
    writing: Arc<AtomicBool>,
    /// When it last did anything (bytes read or written, a request ended), in
    /// nanoseconds since [`Connections`]' epoch: the least recently active goes first.
    active: Arc<AtomicU64>,
    /// Notified to close the connection (gracefully).
    close: Arc<Notify>,
    /// Asked to close already: not a candidate again (another would wait for the place
    /// this one frees, and nobody would be asked to make room).
    closing: bool,
}

/// How a new connection is taken.
#[derive(Debug)]
pub enum Admission {
    /// Registered; it stays counted until the guard is dropped.
    Admitted(Registered),
    /// Its caller already holds `max_connections_per_client`.
    OverCap,
}

/// A registered connection: counted for its caller until dropped.
#[derive(Debug)]
pub struct Registered {
    connections: Arc<Connections>,
    /// Its number.
    pub id: ConnectionId,
    /// Notified when the server wants the connection closed.
    pub close: Arc<Notify>,
    writing: Arc<AtomicBool>,
    active: Arc<AtomicU64>,
}

impl Registered {
    /// The connection has its place and is being served: idle until its first request.
    /// `stream` is its socket, watched for writes that wait on the client.
    pub fn serve<T>(&self, stream: T) -> Watched<T> {
        if let Some(open) = self.connections.lock().open.get_mut(&self.id) {
            open.busy = false;
        }
        self.connections.touch(&self.active);
        Watched {
            inner: stream,
            writing: Arc::clone(&self.writing),
            active: Arc::clone(&self.active),
            connections: Arc::clone(&self.connections),
        }
    }
}

/// A connection's stream that notes whether a write is waiting on the client.
#[derive(Debug)]
pub struct Watched<T> {
    inner: T,
    writing: Arc<AtomicBool>,
    active: Arc<AtomicU64>,
    connections: Arc<Connections>,
}

impl<T> Watched<T> {
    /// Note how a write went: waiting on the client, or progress.
    fn wrote<R>(&self, poll: &Poll<std::io::Result<R>>) {
        self.writing.store(poll.is_pending(), Ordering::Relaxed);
        if poll.is_ready() {
            self.connections.touch(&self.active);
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Watched<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.connections.touch(&self.active);
        }
        poll
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Watched<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.wrote(&poll);
        poll
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.wrote(&poll);
        poll
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    // Only writes say whether the client reads: a socket's flush never waits.
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        let mut table = self.connections.lock();
        if let Some(open) = table.open.remove(&self.id)
            && let Some(count) = table.per_caller.get_mut(&open.caller)
        {
            *count -= 1;
            if *count == 0 {
                table.per_caller.remove(&open.caller);
            }
        }
    }
}

/// A request in flight on a connection; the connection is idle again when it is dropped.
#[derive(Debug)]
pub struct InFlight {
    connections: Arc<Connections>,
    id: ConnectionId,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut table = self.connections.lock();
        if let Some(open) = table.open.get_mut(&self.id) {
            open.busy = false;
            let active = Arc::clone(&open.active);
            drop(table);
            self.connections.touch(&active);
        }
    }
}

/// What a connection over its caller's cap is sent, unasked, before it is closed: nothing
/// of it is read, so it costs the server one small write. It carries the security headers
/// of every other answer.
pub fn over_cap_answer() -> Vec<u8> {
    let body = r#"{"error":"too many connections from your address (max_connections_per_client): close one and try again"}"#;
    let headers: String = crate::pages::headers::DEFAULTS
        .iter()
        .map(|(name, value)| format!("{name}: {value}\r\n"))
        .collect();
    format!(
        "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n{headers}Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

impl Connections {
    /// A table allowing `per_client` connections per caller.
    pub fn new(per_client: usize) -> Arc<Connections> {
        Arc::new(Connections {
            per_client,
            table: Mutex::new(Table::default()),
            epoch: Instant::now(),
        })
    }

    /// Note activity now.
    fn touch(&self, active: &AtomicU64) {
        let now = u64::try_from(self.epoch.elapsed().as_nanos()).unwrap_or(u64::MAX);
        active.store(now, Ordering::Relaxed);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Register a connection from `caller`, unless it holds its cap already.
    pub fn admit(self: &Arc<Self>, caller: Caller) -> Admission {
        let mut table = self.lock();
        let count = table.per_caller.get(&caller).copied().unwrap_or(0);
        if count >= self.per_client {
            return Admission::OverCap;
        }
        table.per_caller.insert(caller, count + 1);
        let id = ConnectionId(table.next);
        table.next += 1;
        let close = Arc::new(Notify::new());
        let writing = Arc::new(AtomicBool::new(false));
        let active = Arc::new(AtomicU64::new(0));
        self.touch(&active);
        table.open.insert(
            id,
            Open {
                caller,
                // Not a candidate to shed until it is served ([`Registered::serve`]): the
                // connection waiting for a place must not be the one that makes room.
                busy: true,
                close: Arc::clone(&close),
                writing: Arc::clone(&writing),
                active: Arc::clone(&active),
                closing: false,
            },
        );
        Admission::Admitted(Registered {
            connections: Arc::clone(self),
            id,
            close,
            writing,
            active,
        })
    }

    /// Mark a request in flight on `id` until the guard is dropped.
    pub fn busy(self: &Arc<Self>, id: ConnectionId) -> InFlight {
        if let Some(open) = self.lock().open.get_mut(&id) {
            open.busy = true;
        }
        InFlight {
            connections: Arc::clone(self),
            id,
        }
    }

    /// Ask the idle connection that matters least to close (see the module's rules):
    /// whether there was one. Its place is free once it has closed.
    pub fn shed_idle(&self) -> bool {
        let now = u64::try_from(self.epoch.elapsed().as_nanos()).unwrap_or(u64::MAX);
        let mut table = self.lock();
        let table = &mut *table;
        let victim = table
            .open
            .iter()
            .filter(|(_, open)| {
                !open.closing && !open.busy && !open.writing.load(Ordering::Relaxed)
            })
            .min_by_key(|(id, open)| {
                let held = table.per_caller.get(&open.caller).copied().unwrap_or(0);
                let active = open.active.load(Ordering::Relaxed);
                (std::cmp::Reverse(held), active, **id)
            })
            .map(|(id, _)| *id);
        let Some(open) = victim.and_then(|id| table.open.get_mut(&id)) else {
            return false;
        };
        tracing::debug!(
            connection = victim.map_or(0, |id| id.0),
            idle_ns = now.saturating_sub(open.active.load(Ordering::Relaxed)),
            "closing an idle connection: the server is full"
        );
        open.closing = true;
        open.close.notify_one();
        true
    }

    /// Whether connection `id` is idle (no request in flight, no answer waiting to be
    /// written): one asked to close may then be dropped at once.
    pub fn is_idle(&self, id: ConnectionId) -> bool {
        self.lock()
            .open
            .get(&id)
            .is_some_and(|open| !open.busy && !open.writing.load(Ordering::Relaxed))
    }

    /// Ask every connection to close (the server is stopping).
    pub fn close_all(&self) {
        for open in self.lock().open.values() {
            open.close.notify_one();
        }
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.lock().open.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caller(addr: &str) -> Caller {
        Caller::of(addr.parse().unwrap())
    }

    fn admitted(connections: &Arc<Connections>, addr: &str) -> Registered {
        match connections.admit(caller(addr)) {
            Admission::Admitted(registered) => registered,
            Admission::OverCap => panic!("{addr} refused"),
        }
    }

    #[test]
    fn a_caller_holds_at_most_its_cap_and_a_closed_connection_frees_a_place() {
        let connections = Connections::new(2);
        let first = admitted(&connections, "192.0.2.1");
        let _second = admitted(&connections, "192.0.2.1");
        assert!(matches!(
            connections.admit(caller("192.0.2.1")),
            Admission::OverCap
        ));
        assert!(
            matches!(
                connections.admit(caller("2001:db8::1")),
                Admission::Admitted(_)
            ),
            "another caller has its own"
        );
        drop(first);
        let _third = admitted(&connections, "192.0.2.1");
        assert_eq!(
            connections.open(),
            2,
            "the other caller's guard was dropped"
        );
    }

    #[test]
    fn an_ipv6_slash_64_is_one_caller_for_the_cap() {
        let connections = Connections::new(1);
        let _held = admitted(&connections, "2001:db8:1:2::1");
        assert!(matches!(
            connections.admit(caller("2001:db8:1:2::ffff")),
            Admission::OverCap
        ));
    }

    /// Which registered connection was asked to close: the one whose `close` has a permit.
    fn asked(all: &[&Registered]) -> Vec<ConnectionId> {
        all.iter()
            .filter(|r| {
                let notified = r.close.notified();
                tokio::pin!(notified);
                // A stored permit completes the future on its first poll.
                notified.as_mut().enable()
            })
            .map(|r| r.id)
            .collect()
    }

    #[test]
    fn the_full_server_sheds_an_idle_connection_of_the_caller_holding_most() {
        let connections = Connections::new(8);
        let lone = admitted(&connections, "192.0.2.9");
        let many: Vec<Registered> = (0..3)
            .map(|_| admitted(&connections, "192.0.2.1"))
            .collect();
        // A fourth waits for its place: never the one asked to make room.
        let waiting = admitted(&connections, "192.0.2.1");
        let _ = lone.serve(());
        many.iter().for_each(|r| drop(r.serve(())));
        // The many-holder's first connection is busy and its second's client reads none
        // of its answer: its third is the one to close.
        let in_flight = connections.busy(many[0].id);
        many[1].writing.store(true, Ordering::Relaxed);
        assert!(connections.shed_idle());
        let all: Vec<&Registered> = [&lone, &waiting].into_iter().chain(&many).collect();
        assert_eq!(asked(&all), [many[2].id]);
        drop(in_flight);
        // Nothing idle: nothing to shed.
        let _busy: Vec<InFlight> = [&lone, &many[0], &many[1], &many[2]]
            .iter()
            .map(|r| connections.busy(r.id))
            .collect();
        assert!(!connections.shed_idle());
    }

    #[test]
    fn a_connection_asked_to_close_is_not_asked_again_and_the_next_is() {
        let connections = Connections::new(8);
        let all: Vec<Registered> = (0..2)
            .map(|_| admitted(&connections, "192.0.2.1"))
            .collect();
        all.iter().for_each(|r| drop(r.serve(())));
        let refs: Vec<&Registered> = all.iter().collect();
        assert!(connections.shed_idle());
        assert_eq!(asked(&refs), [all[0].id]);
        assert!(connections.is_idle(all[0].id));
        // Still open (closing): the next shed asks the other one.
        assert!(connections.shed_idle());
        assert_eq!(asked(&refs), [all[1].id]);
        assert!(!connections.shed_idle(), "both are closing already");
    }
}
