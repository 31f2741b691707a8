//! # arena-sandbox — run untrusted bots under wasmtime
//!
//! [`Sandbox`] owns the wasmtime engine (configured for determinism: fuel, NaN
//! canonicalization, no threads, no relaxed SIMD), the [`Limits`] and an optional on-disk
//! [`ModuleCache`]. [`Sandbox::load`] reads, validates and compiles a bot once, giving a
//! [`LoadedBot`]; [`LoadedBot::player`] makes a fresh [`WasmBot`] for each match, which
//! implements the engine's `Player` for every mode.
//!
//! ```no_run
//! use arena_sandbox::{Limits, Sandbox};
//! let sandbox = Sandbox::new(Limits::default(), None)?;
//! let bot = sandbox.load("sample.wasm".as_ref())?;
//! println!("{} exports {:?}", bot.name(), bot.info().exports);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A bot can never make the host panic, hang or crash: every failure becomes a
//! [`Fault`](arena_engine::Fault) of the call that caused it (see docs/abi.md).

mod bot;
mod cache;
mod load;

pub use bot::WasmBot;
pub use cache::ModuleCache;
pub use load::{LoadError, LoadedBot, ModuleInfo};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use wasmtime::{Config, Engine};

/// Everything a bot is limited to. Fuel limits are what make a timeout identical on every
/// machine; `wall_clock` is only a backstop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Fuel for one turn request (including the `arena_alloc` call before it).
    pub fuel_per_turn: u64,
    /// Fuel for instantiation plus the start request, and for the setup request.
    pub fuel_per_setup: u64,
    /// Maximum linear memory of a bot, in bytes.
    pub memory_bytes: usize,
    /// Maximum table elements.
    pub table_elements: usize,
    /// Maximum wasm stack, in bytes.
    pub stack_bytes: usize,
    /// Maximum response length, in bytes (checked before the response is read).
    pub response_bytes: usize,
    /// Maximum module file size, in bytes.
    pub module_bytes: usize,
    /// Maximum log output per call, in bytes (more is cut).
    pub log_bytes_per_call: usize,
    /// Wall-clock backstop per call.
    pub wall_clock: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            fuel_per_turn: 20_000_000,
            fuel_per_setup: 200_000_000,
            memory_bytes: 64 << 20,
            table_elements: 10_000,
            stack_bytes: 512 << 10,
            response_bytes: 64 << 10,
            module_bytes: 16 << 20,
            log_bytes_per_call: 4 << 10,
            wall_clock: Duration::from_secs(2),
        }
    }
}

/// The epoch ticks every this often; the wall-clock backstop is counted in ticks.
const EPOCH_TICK: Duration = Duration::from_millis(10);

/// A wasmtime engine configured for bots, with its limits and module cache.
pub struct Sandbox {
    engine: Engine,
    limits: Limits,
    cache: Option<ModuleCache>,
    linker: wasmtime::Linker<bot::BotState>,
    ticker_stop: Arc<AtomicBool>,
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("limits", &self.limits)
            .field("cache", &self.cache)
            .finish()
    }
}

/// The sandbox could not be set up (an invalid wasmtime configuration).
#[derive(Debug, thiserror::Error)]
#[error("cannot set up the wasm engine: {0}")]
pub struct SetupError(String);

impl Sandbox {
    /// A sandbox with `limits`, caching compiled modules in `cache` if given.
    pub fn new(limits: Limits, cache: Option<ModuleCache>) -> Result<Self, SetupError> {
        let mut config = Config::new();
        config
            .consume_fuel(true)
            .epoch_interruption(true)
            .cranelift_nan_canonicalization(true)
            .wasm_relaxed_simd(false)
            .relaxed_simd_deterministic(true)
            // Threads and shared memory need the `threads` cargo feature, which is off.
            .wasm_memory64(false)
            .max_wasm_stack(limits.stack_bytes);
        let engine = Engine::new(&config).map_err(|e| SetupError(format!("{e:#}")))?;
        let linker = bot::linker(&engine).map_err(|e| SetupError(format!("{e:#}")))?;
        let ticker_stop = Arc::new(AtomicBool::new(false));
        let (ticking, stop) = (engine.clone(), ticker_stop.clone());
        std::thread::Builder::new()
            .name("arena-epoch".into())
            .spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(EPOCH_TICK);
                    ticking.increment_epoch();
                }
            })
            .map_err(|e| SetupError(format!("cannot start the epoch thread: {e}")))?;
        Ok(Sandbox {
            engine,
            limits,
            cache,
            linker,
            ticker_stop,
        })
    }

    /// The limits every bot of this sandbox runs under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The module cache, if any.
    pub fn cache(&self) -> Option<&ModuleCache> {
        self.cache.as_ref()
    }

    fn wall_clock_ticks(&self) -> u64 {
        (self.limits.wall_clock.as_millis() / EPOCH_TICK.as_millis()).max(1) as u64
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.ticker_stop.store(true, Ordering::Relaxed);
    }
}
