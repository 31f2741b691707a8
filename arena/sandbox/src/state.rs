//! The data of a bot's store: its limiter (memory, tables, instances, the fuel a refused
//! growth costs), the log of the current call and the WASI state (clocks, randomness). The
//! host functions (`arena::log` in `bot.rs`, the WASI subset in `wasi.rs`, the component
//! world's `log` in `component.rs`) all work on it.

use crate::text::cut;
use rand_chacha::ChaCha12Rng;
use rand_chacha::rand_core::SeedableRng;
use sha2::{Digest, Sha256};
use wasmtime::{AsContextMut, ResourceLimiter, Trap};

/// Per-store state: the limiter and the log of the current call.
pub struct BotState {
    pub(crate) limiter: BotLimiter,
    pub(crate) log: String,
    pub(crate) log_cap: usize,
    pub(crate) log_calls: u32,
    pub(crate) log_calls_cap: u32,
    /// Clocks, randomness and exit of the WASI subset (`wasi.rs`).
    pub(crate) wasi: Wasi,
    /// Whether the log's last text came from standard output or error (not `arena::log`).
    pub(crate) output_last: bool,
}

impl BotState {
    /// The fuel budget of the current call.
    pub(crate) fn fuel_budget(&self) -> u64 {
        self.limiter.fuel_budget
    }

    /// Count one call that writes to the log (kept only up to the per-call cap).
    pub(crate) fn count_log_call(&mut self) {
        self.log_calls = self.log_calls.saturating_add(1);
    }

    /// Bytes the current log call may still add: none past the per-call cap of calls.
    pub(crate) fn log_room(&self) -> usize {
        if self.log_calls <= self.log_calls_cap {
            self.log_cap.saturating_sub(self.log.len())
        } else {
            0
        }
    }

    /// The state of a fresh instance in the same match: the same limits, an empty log, and
    /// the match's clocks and randomness going on from where they are.
    pub(crate) fn fresh(&mut self) -> BotState {
        let wasi = std::mem::take(&mut self.wasi);
        let l = &self.limiter;
        BotState {
            limiter: BotLimiter {
                memory_bytes: l.memory_bytes,
                table_elements: l.table_elements,
                refused: None,
                grow_fuel: 0,
                fuel_budget: l.fuel_budget,
                memory_total: 0,
                instances: l.instances,
                memories: l.memories,
                tables: l.tables,
            },
            log: String::new(),
            log_cap: self.log_cap,
            log_calls: 0,
            log_calls_cap: self.log_calls_cap,
            wasi,
            output_last: false,
        }
    }

    /// Append text to the log, cut at its cap (invalid UTF-8 becomes U+FFFD, 3 bytes per
    /// bad byte: cut after converting). An `arena::log` call (`output: false`) is a line of
    /// its own; a program's output (standard output or error) is kept as written — the
    /// program writes its own line ends — starting a new line only after a log call's.
    pub(crate) fn append(&mut self, bytes: &[u8], output: bool) {
        let new_line = if output {
            !self.output_last
        } else {
            !self.output_last || !self.log.ends_with('\n')
        };
        if new_line && !self.log.is_empty() {
            self.log.push('\n');
        }
        self.output_last = output;
        let room = self.log_cap.saturating_sub(self.log.len());
        let text = String::from_utf8_lossy(bytes);
        self.log.push_str(cut(&text, room));
    }
}

/// A growth the limiter refused, so a trap that follows can be reported as the limit it
/// really is.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Refused {
    Memory(usize),
    Table(usize),
}

/// Memory/table limits. A refused growth costs [`GROW_FAILURE_FUEL`](crate::GROW_FAILURE_FUEL):
/// the limiter cannot reach the store's fuel, so it keeps the cost as `grow_fuel`, added to
/// the call's fuel afterwards, and traps as out of fuel once that alone exceeds the budget.
pub(crate) struct BotLimiter {
    pub(crate) memory_bytes: usize,
    pub(crate) table_elements: usize,
    pub(crate) refused: Option<Refused>,
    pub(crate) grow_fuel: u64,
    pub(crate) fuel_budget: u64,
    /// Bytes of all the store's memories together: a core bot has one, a component one
    /// per core module that defines one, and `memory_bytes` bounds their sum.
    pub(crate) memory_total: usize,
    /// Instances, memories and tables the store may hold: one core instance for a core
    /// bot, every core instance of a component (bounded at load by the structural limits).
    pub(crate) instances: usize,
    pub(crate) memories: usize,
    pub(crate) tables: usize,
}

impl BotLimiter {
    fn refuse(&mut self, refused: Refused) -> wasmtime::Result<bool> {
        self.refused = Some(refused);
        self.grow_fuel = self.grow_fuel.saturating_add(crate::GROW_FAILURE_FUEL);
        if self.grow_fuel >= self.fuel_budget {
            return Err(Trap::OutOfFuel.into());
        }
        Ok(false)
    }
}

impl ResourceLimiter for BotLimiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        _max: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let total = (self.memory_total - current.min(self.memory_total)).saturating_add(desired);
        if total <= self.memory_bytes {
            self.memory_total = total;
            return Ok(true);
        }
        self.refuse(Refused::Memory(total))
    }
    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _max: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired <= self.table_elements {
            return Ok(true);
        }
        self.refuse(Refused::Table(desired))
    }
    fn instances(&self) -> usize {
        self.instances
    }
    fn tables(&self) -> usize {
        self.tables
    }
    fn memories(&self) -> usize {
        self.memories
    }
}

/// The WASI state of one bot instance.
#[derive(Debug)]
pub(crate) struct Wasi {
    pub(crate) rng: ChaCha12Rng,
    /// Fuel the bot spent in this match before the current call.
    pub(crate) fuel_before: u64,
    /// Nanoseconds the bot slept in `poll_oneoff` this match.
    pub(crate) slept_ns: u64,
}

impl Default for Wasi {
    /// The state before a match starts (`start` replaces it with the seeded one, before
    /// the bot runs a single instruction): no hashing for a player that is made and dropped.
    fn default() -> Self {
        Wasi {
            rng: ChaCha12Rng::from_seed([0; 32]),
            fuel_before: 0,
            slept_ns: 0,
        }
    }
}

impl Wasi {
    /// The state for a match in which the bot's seed is `seed`.
    pub(crate) fn seeded(seed: u64) -> Wasi {
        let mut key = Sha256::new();
        key.update(b"arena wasi random_get v1\0");
        key.update(seed.to_le_bytes());
        Wasi {
            rng: ChaCha12Rng::from_seed(key.finalize().into()),
            fuel_before: 0,
            slept_ns: 0,
        }
    }
}

/// Take `cost` fuel from the running call, or end it as out of fuel: how every host
/// function (the log, WASI, the budget readings) makes a bot pay for the host's work.
pub(crate) fn pay(
    mut store: impl AsContextMut<Data = BotState>,
    cost: u64,
) -> wasmtime::Result<()> {
    let mut store = store.as_context_mut();
    let fuel = store.get_fuel()?;
    if fuel < cost {
        store.set_fuel(0)?;
        return Err(Trap::OutOfFuel.into());
    }
    store.set_fuel(fuel - cost)?;
    Ok(())
}

/// Pay [`FUEL_QUERY_FUEL`](crate::FUEL_QUERY_FUEL) and return what the current call has
/// left: the host side of `arena::fuel_left` and of a component's `fuel-left`. Refused
/// growths are paid at the call's end; what they cost so far is not left.
pub(crate) fn fuel_left(mut store: impl AsContextMut<Data = BotState>) -> wasmtime::Result<u64> {
    pay(&mut store, crate::FUEL_QUERY_FUEL)?;
    let store = store.as_context_mut();
    Ok(store
        .get_fuel()?
        .saturating_sub(store.data().limiter.grow_fuel))
}

/// Pay [`FUEL_QUERY_FUEL`](crate::FUEL_QUERY_FUEL) and return the current call's budget:
/// the host side of `arena::fuel_budget` and of a component's `fuel-budget`.
pub(crate) fn fuel_budget(mut store: impl AsContextMut<Data = BotState>) -> wasmtime::Result<u64> {
    pay(&mut store, crate::FUEL_QUERY_FUEL)?;
    Ok(store.as_context_mut().data().fuel_budget())
}
