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
mod component;
mod functions;
mod load;
mod state;
pub mod structure;
mod text;
mod wasi;
mod wire;

pub use bot::WasmBot;
pub use cache::ModuleCache;
pub use compile::{CompileLimits, Compiler};
pub use load::{LoadError, LoadedBot, ModuleInfo};
pub use structure::StructureLimits;
pub use wasi::{RANDOM_FUEL_PER_BYTE, REALTIME_START_NS, VECTOR_FUEL, WASI_FUEL_BASE};
pub use wire::{EncodingPolicy, encode_request};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Duration;
use wasmtime::{Config, Enabled, Engine, InstanceAllocationStrategy, PoolingAllocationConfig};

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
    /// Maximum component file size, in bytes (a Python or JavaScript bot: docs/abi.md,
    /// "Components").
    pub component_bytes: usize,
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
    /// The same for one component (an interpreter: far more code than a compiled bot).
    pub component_compile: CompileLimits,
    /// The encodings offered to bots (not a limit: results never depend on it).
    pub encoding: EncodingPolicy,
}

/// Fuel an `arena::log` call costs before its bytes, so a bot that spins on the host pays
/// for the host's work like for its own.
pub const LOG_FUEL_BASE: u64 = 10_000;
/// Fuel per byte an `arena::log` call asks to write (up to what fits under the cap).
pub const LOG_FUEL_PER_BYTE: u64 = 10;
/// Fuel an `arena::fuel_left` or `arena::fuel_budget` call costs (a component's
/// `fuel-left`, `fuel-budget` too): about what the host call takes in time, so a bot
/// reading its budget in a loop pays for the reads like for its own work.
pub const FUEL_QUERY_FUEL: u64 = 100;
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
            // The Rust sample bots are 0.2–0.3 MB; a Go bot with `encoding/json` and `fmt`
            // is 4.9 MB (its runtime and reflection), so twice that leaves room.
            module_bytes: 8 << 20,
            // componentize-py's CPython with the standard library is 18–20 MB; jco's
            // QuickJS 1.6 MB.
            component_bytes: 24 << 20,
            log_bytes_per_call: 4 << 10,
            log_calls_per_call: 100,
            wall_clock: Duration::from_secs(2),
            match_wall_clock: Duration::from_secs(60),
            structure: StructureLimits::default(),
            compile: CompileLimits::default(),
            component_compile: CompileLimits::for_components(),
            encoding: EncodingPolicy::default(),
        }
    }
}

/// The epoch ticks every this often; the wall-clock backstop is counted in ticks.
const EPOCH_TICK: Duration = Duration::from_millis(10);

/// How many bot instances the sandbox keeps ready in wasmtime's pooling allocator.
///
/// A match instantiates each wasm seat afresh; from the pool that is a slot taken off a
/// free list (its memory mapped copy-on-write from the module's image) instead of a fresh
/// 4 GiB address-space reservation, guard pages and data copy per instance (see
/// docs/performance.md, "Per-match start"). Every slot reserves the address space of one
/// 32-bit memory (4 GiB plus guards: address space, not RAM), so the pool is sized from the
/// concurrency rather than made huge. Instances beyond it are not refused: they come from
/// wasmtime's on-demand allocator instead, with the same limits and the same results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pool {
    /// Instances alive at once that the pool holds; `0` turns pooling off.
    pub instances: u32,
    /// Dirty bytes of a used slot's memory (and table) reset in place when its instance
    /// is dropped, rather than handed back to the kernel: the next match in the slot then
    /// takes no page faults for them. Linux finds the dirty pages (`PAGEMAP_SCAN`); beyond
    /// this many the rest is decommitted. It bounds the memory an idle slot keeps.
    pub keep_resident: usize,
}

impl Pool {
    /// Room for `games` matches at once, two wasm seats each, plus spares for what runs
    /// beside them (an `arena check` trial game, a test's extra player).
    pub fn for_parallel_games(games: usize) -> Pool {
        let games = u32::try_from(games).unwrap_or(u32::MAX / 4);
        Pool {
            instances: games.saturating_mul(2).saturating_add(POOL_SPARE),
            keep_resident: KEEP_RESIDENT,
        }
    }

    /// No pooling: every instance from wasmtime's on-demand allocator.
    pub fn none() -> Pool {
        Pool {
            instances: 0,
            keep_resident: 0,
        }
    }
}

/// A sample bot dirties well under a megabyte in a match (Rust: its stack's top, its data
/// and the start of its heap); more is decommitted.
const KEEP_RESIDENT: usize = 4 << 20;

/// Slots beyond two per parallel game.
const POOL_SPARE: u32 = 8;

impl Default for Pool {
    /// One match per core at once.
    fn default() -> Self {
        Pool::for_parallel_games(std::thread::available_parallelism().map_or(4, |n| n.get()))
    }
}

/// The pool's admission count, shared with the bots holding a slot.
#[derive(Debug)]
struct PoolSlots {
    capacity: u32,
    taken: AtomicU32,
}

/// One slot of the pool, held by a [`WasmBot`] until its store (and so its instance) is
/// dropped.
#[derive(Debug)]
pub(crate) struct PoolSlot(Arc<PoolSlots>);

impl Drop for PoolSlot {
    fn drop(&mut self) {
        self.0.taken.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The engine and linkers of one allocation strategy.
pub(crate) struct Runtime {
    pub(crate) engine: Engine,
    pub(crate) linker: wasmtime::Linker<state::BotState>,
    /// The linker of components (`component.rs`).
    pub(crate) components: wasmtime::component::Linker<state::BotState>,
}

impl Runtime {
    fn new(config: &Config) -> Result<Runtime, SetupError> {
        let engine = Engine::new(config).map_err(|e| SetupError(format!("{e:#}")))?;
        let linker = bot::linker(&engine).map_err(|e| SetupError(format!("{e:#}")))?;
        let components = component::linker(&engine).map_err(|e| SetupError(format!("{e:#}")))?;
        Ok(Runtime {
            engine,
            linker,
            components,
        })
    }
}

/// A wasmtime engine configured for bots, with its limits and module cache.
pub struct Sandbox {
    engine: Engine,
    limits: Limits,
    cache: Option<ModuleCache>,
    compiler: Compiler,
    linker: wasmtime::Linker<state::BotState>,
    /// The component linker of `engine` (components run there only without a pool).
    component_linker: wasmtime::component::Linker<state::BotState>,
    /// With pooling: the admission count of the pool, and the on-demand runtime that
    /// takes the instances the pool has no slot for.
    pool: Option<(Arc<PoolSlots>, Runtime)>,
    ticker_stop: Arc<AtomicBool>,
    /// Ticks of the epoch thread so far: the clock of the bots' wall-clock budgets per
    /// match (`WasmBot`), read with one load where `Instant::now` was a system clock read
    /// before and after every call.
    ticks: Arc<AtomicU64>,
    /// The modules this sandbox's live [`LoadedBot`]s hold, by the SHA-256 of their file:
    /// loading the same bytes again shares the compiled code instead of compiling (or
    /// deserializing) a second copy. Weak, so a module goes when its last bot does.
    resident: load::Resident<load::Compiled>,
    /// The compiled functions kept beside `cache` (`functions.rs`), when there is one.
    functions: Option<Arc<functions::FunctionCache>>,
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
    /// with [`Compiler::default`], its instance pool sized by [`Pool::default`].
    pub fn new(limits: Limits, cache: Option<ModuleCache>) -> Result<Self, SetupError> {
        Sandbox::with_pool(limits, cache, Pool::default())
    }

    /// Like [`Sandbox::new`] with an instance pool of the given size.
    pub fn with_pool(
        limits: Limits,
        cache: Option<ModuleCache>,
        pool: Pool,
    ) -> Result<Self, SetupError> {
        let functions = cache
            .as_ref()
            .and_then(|cache| function_cache(cache, limits.stack_bytes));
        let mut on_demand = engine_config(limits.stack_bytes);
        if let Some(functions) = &functions {
            on_demand
                .enable_incremental_compilation(functions.clone())
                .map_err(|e| SetupError(format!("{e:#}")))?;
        }
        let (primary, pool) = if pool.instances == 0 {
            (Runtime::new(&on_demand)?, None)
        } else {
            let mut pooled = on_demand.clone();
            pooled.allocation_strategy(InstanceAllocationStrategy::Pooling(pooling_config(
                &limits, &pool,
            )));
            let slots = Arc::new(PoolSlots {
                capacity: pool.instances,
                taken: AtomicU32::new(0),
            });
            match Runtime::new(&pooled) {
                Ok(runtime) => (runtime, Some((slots, Runtime::new(&on_demand)?))),
                // The pool reserves its address space up front; where that is refused (a
                // `ulimit -v`), bots still run, each instance allocated on demand.
                Err(SetupError(why)) => {
                    tracing::warn!(
                        instances = pool.instances,
                        "cannot reserve the instance pool, allocating instances on demand: {why}"
                    );
                    (Runtime::new(&on_demand)?, None)
                }
            }
        };
        let ticker_stop = Arc::new(AtomicBool::new(false));
        let mut ticking = vec![primary.engine.clone()];
        ticking.extend(pool.as_ref().map(|(_, fallback)| fallback.engine.clone()));
        let stop = ticker_stop.clone();
        let ticks = Arc::new(AtomicU64::new(0));
        let ticked = ticks.clone();
        std::thread::Builder::new()
            .name("arena-epoch".into())
            .spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(EPOCH_TICK);
                    for engine in &ticking {
                        engine.increment_epoch();
                    }
                    ticked.fetch_add(1, Ordering::Relaxed);
                }
            })
            .map_err(|e| SetupError(format!("cannot start the epoch thread: {e}")))?;
        Ok(Sandbox {
            engine: primary.engine,
            limits,
            cache,
            compiler: Compiler::default(),
            linker: primary.linker,
            component_linker: primary.components,
            pool,
            ticker_stop,
            ticks,
            resident: load::Resident::default(),
            functions,
        })
    }

    /// A slot of the pool if one is free: `None` without pooling or when every slot is
    /// taken (the instance then comes from the on-demand runtime).
    pub(crate) fn take_slot(&self) -> Option<PoolSlot> {
        let (slots, _) = self.pool.as_ref()?;
        slots
            .taken
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |taken| {
                (taken < slots.capacity).then_some(taken + 1)
            })
            .ok()
            .map(|_| PoolSlot(slots.clone()))
    }

    /// The runtime for instances the pool has no slot for (`None` without pooling).
    pub(crate) fn fallback(&self) -> Option<&Runtime> {
        self.pool.as_ref().map(|(_, runtime)| runtime)
    }

    /// The engine and linker components run in: never the pooled one. The pool's slots
    /// are sized for one core instance each, and a component makes dozens (CPython's 108):
    /// components come from the on-demand allocator, whose instances need no slot.
    pub(crate) fn component_runtime(
        &self,
    ) -> (&Engine, &wasmtime::component::Linker<state::BotState>) {
        match self.fallback() {
            Some(runtime) => (&runtime.engine, &runtime.components),
            None => (&self.engine, &self.component_linker),
        }
    }

    /// The pool's size and how many of its slots are taken now (`None` without pooling).
    pub fn pool_usage(&self) -> Option<(u32, u32)> {
        self.pool
            .as_ref()
            .map(|(slots, _)| (slots.capacity, slots.taken.load(Ordering::Acquire)))
    }

    /// Compile untrusted modules with `compiler` instead of the default.
    pub fn with_compiler(mut self, compiler: Compiler) -> Self {
        self.compiler = compiler;
        // A module compiled before was checked under the other compiler's limits: the
        // next load of its bytes compiles afresh.
        self.resident = load::Resident::default();
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

    /// The per-call backstop in epoch ticks: at least one, so a call can run at all.
    fn wall_clock_ticks(&self) -> u64 {
        budget_ticks(self.limits.wall_clock).max(1)
    }

    /// The epoch thread's tick count, shared with the bots of this sandbox.
    fn tick_count(&self) -> Arc<AtomicU64> {
        self.ticks.clone()
    }
}

/// A budget in epoch ticks, rounded up (a zero budget is spent from the start).
fn budget_ticks(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis().div_ceil(EPOCH_TICK.as_millis())).unwrap_or(u64::MAX)
}

/// The function cache of `cache` for the engine configuration (`None`, with a warning, if
/// it cannot be opened: compiling just takes longer).
fn function_cache(
    cache: &ModuleCache,
    stack_bytes: usize,
) -> Option<Arc<functions::FunctionCache>> {
    let plain = Engine::new(&engine_config(stack_bytes)).ok()?;
    let opened = cache
        .functions_dir_and_key(&plain)
        .and_then(|(dir, key)| functions::FunctionCache::open(dir, key));
    match opened {
        Ok(functions) => Some(Arc::new(functions)),
        Err(error) => {
            tracing::warn!(%error, "cannot use the compiled-function cache");
            None
        }
    }
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
        // A core bot has one memory (the structural limits say so before compiling); a
        // component's adapters between its core modules use several at once (jco's
        // QuickJS: three). Threads and shared memory need the `threads` cargo feature,
        // which is off.
        .wasm_multi_memory(true)
        .wasm_memory64(false)
        .max_wasm_stack(stack_bytes);
    // For profiling the arena with `perf`: bots' compiled functions are named in
    // `/tmp/perf-<pid>.map` (docs/performance.md, "Profiling"). Off by default: it writes a
    // file per process and a line per function of every module loaded.
    if std::env::var_os("ARENA_PERF_MAP").is_some_and(|v| v == "1") {
        config.profiler(wasmtime::ProfilingStrategy::PerfMap);
    }
    config
}

/// The pooling allocator for `instances` bots alive at once under `limits`. Its per-slot
/// limits are at least the sandbox's own, so the [`Limits`] (checked at load and by the
/// store's limiter, with the same messages) decide every refusal, never the pool: a module
/// that loads runs the same pooled or not.
fn pooling_config(limits: &Limits, size: &Pool) -> PoolingAllocationConfig {
    let instances = size.instances;
    let tables = limits.structure.tables.max(1);
    let memories = limits.structure.memories.max(1);
    let mut pool = PoolingAllocationConfig::new();
    pool.total_core_instances(instances)
        .total_memories(instances.saturating_mul(memories))
        .total_tables(instances.saturating_mul(tables))
        .max_memories_per_module(memories)
        .max_tables_per_module(tables)
        .table_elements(limits.table_elements.max(1))
        // The `VMContext` grows with functions, globals and imports; the structural
        // limits bound those, and this bound is far above what they allow.
        .max_core_instance_size(8 << 20)
        // A slot stays mapped to the module it last held, so the next match of the same
        // bot reuses its copy-on-write image; keep as many warm as there are slots.
        .max_unused_warm_slots(instances)
        // Returning a used slot's pages in batches saves a system call per instance.
        .decommit_batch_size(DECOMMIT_BATCH)
        .linear_memory_keep_resident(size.keep_resident)
        .table_keep_resident(size.keep_resident)
        // Without it, keeping memory resident means `memset`ting all of it, dirty or not.
        .pagemap_scan(pagemap_scan(
            std::fs::read_to_string("/proc/swaps").ok().as_deref(),
        ));
    pool
}

/// Whether to find a used slot's dirty pages with Linux's `PAGEMAP_SCAN`, given the text of
/// `/proc/swaps`. Only where nothing can be swapped out: wasmtime 48's scan resets the
/// pages that are written *and present*, so a written page the kernel had swapped out
/// would keep the last match's bytes for the next bot in the slot — one bot's memory seen
/// by another, and results that depend on memory pressure. With swap (or when it cannot be
/// told) every kept page is cleared instead: slower starts, never a leak.
fn pagemap_scan(swaps: Option<&str>) -> Enabled {
    match swaps {
        // The header line alone: no swap area is active.
        Some(swaps) if swaps.lines().skip(1).all(|l| l.trim().is_empty()) => Enabled::Auto,
        _ => Enabled::No,
    }
}

/// Instances whose memory is returned to the system in one batch.
const DECOMMIT_BATCH: usize = 8;

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.ticker_stop.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_budget_is_counted_in_whole_ticks_rounded_up() {
        assert_eq!(budget_ticks(Duration::ZERO), 0);
        assert_eq!(budget_ticks(Duration::from_millis(1)), 1);
        assert_eq!(budget_ticks(Duration::from_millis(10)), 1);
        assert_eq!(budget_ticks(Duration::from_millis(11)), 2);
        assert_eq!(budget_ticks(Duration::from_secs(60)), 6000);
    }

    #[test]
    fn dirty_pages_are_found_by_scan_only_without_swap() {
        let header = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n";
        assert!(matches!(pagemap_scan(Some(header)), Enabled::Auto));
        let swap = format!("{header}/dev/vda2  partition\t8388604\t0\t-2\n");
        assert!(matches!(pagemap_scan(Some(&swap)), Enabled::No));
        assert!(matches!(pagemap_scan(None), Enabled::No));
    }
}
