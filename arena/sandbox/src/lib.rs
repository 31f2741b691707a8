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
pub mod compile;
mod load;
pub mod structure;
mod wire;

pub use bot::WasmBot;
pub use cache::ModuleCache;
pub use compile::{CompileLimits, Compiler};
pub use load::{LoadError, LoadedBot, ModuleInfo};
pub use structure::StructureLimits;
pub use wire::{EncodingPolicy, encode_request};

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
    /// `arena::log` calls kept per call; later ones are dropped (and still pay fuel).
    pub log_calls_per_call: u32,
    /// Wall-clock backstop per call.
    pub wall_clock: Duration,
    /// Wall-clock budget of one bot for a whole match: once spent, every later call of
    /// that match is a `timeout` fault at once (so the bot soon forfeits). A backstop
    /// like `wall_clock`; fuel decides every ordinary case.
    pub match_wall_clock: Duration,
    /// The shape a module may have (checked before compiling).
    pub structure: StructureLimits,
    /// CPU, wall-clock and memory bounds of compiling one module (in a child process).
    pub compile: CompileLimits,
    /// The encodings offered to bots (not a limit: results never depend on it).
    pub encoding: EncodingPolicy,
}

/// Fuel an `arena::log` call costs before its bytes, so a bot that spins on the host pays
/// for the host's work like for its own.
pub const LOG_FUEL_BASE: u64 = 10_000;
/// Fuel per byte an `arena::log` call asks to write (up to what fits under the cap).
pub const LOG_FUEL_PER_BYTE: u64 = 10;
/// Fuel a refused `memory.grow` or `table.grow` costs.
pub const GROW_FAILURE_FUEL: u64 = 100_000;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            fuel_per_turn: 20_000_000,
            fuel_per_setup: 200_000_000,
            memory_bytes: 64 << 20,
            table_elements: 10_000,
            stack_bytes: 512 << 10,
            response_bytes: 64 << 10,
            // Sample bots are 0.2–0.3 MB; ten times that leaves room for real bots.
            module_bytes: 4 << 20,
            log_bytes_per_call: 4 << 10,
            log_calls_per_call: 100,
            wall_clock: Duration::from_secs(2),
            match_wall_clock: Duration::from_secs(60),
            structure: StructureLimits::default(),
            compile: CompileLimits::default(),
            encoding: EncodingPolicy::default(),
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
    compiler: Compiler,
    linker: wasmtime::Linker<bot::BotState>,
    ticker_stop: Arc<AtomicBool>,
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("limits", &self.limits)
            .field("cache", &self.cache)
            .field("compiler", &self.compiler)
            .finish()
    }
}

/// The sandbox could not be set up (an invalid wasmtime configuration).
#[derive(Debug, thiserror::Error)]
#[error("cannot set up the wasm engine: {0}")]
pub struct SetupError(String);

impl Sandbox {
    /// A sandbox with `limits`, caching compiled modules in `cache` if given, compiling
    /// with [`Compiler::default`].
    pub fn new(limits: Limits, cache: Option<ModuleCache>) -> Result<Self, SetupError> {
        let engine = Engine::new(&engine_config(limits.stack_bytes))
            .map_err(|e| SetupError(format!("{e:#}")))?;
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
            compiler: Compiler::default(),
            linker,
            ticker_stop,
        })
    }

    /// Compile untrusted modules with `compiler` instead of the default.
    pub fn with_compiler(mut self, compiler: Compiler) -> Self {
        self.compiler = compiler;
        self
    }

    /// Where modules are compiled.
    pub fn compiler(&self) -> &Compiler {
        &self.compiler
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
        ticks(self.limits.wall_clock)
    }
}

fn ticks(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis() / EPOCH_TICK.as_millis())
        .unwrap_or(u64::MAX)
        .max(1)
}

/// The engine configuration, shared by the sandbox and its compile child (a module
/// compiled under another configuration would not deserialize).
pub(crate) fn engine_config(stack_bytes: usize) -> Config {
    let mut config = Config::new();
    config
        .consume_fuel(true)
        .epoch_interruption(true)
        .cranelift_nan_canonicalization(true)
        .wasm_relaxed_simd(false)
        .relaxed_simd_deterministic(true)
        // One memory per module (the ABI's); threads and shared memory need the `threads`
        // cargo feature, which is off.
        .wasm_multi_memory(false)
        .wasm_memory64(false)
        .max_wasm_stack(stack_bytes);
    config
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.ticker_stop.store(true, Ordering::Relaxed);
    }
}
