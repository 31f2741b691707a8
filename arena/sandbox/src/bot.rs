//! [`WasmBot`]: one bot instance for one match, speaking ABI v1 (docs/abi.md) in the
//! encoding the bot picked (`wire`).

use crate::Sandbox;
use crate::state::{BotLimiter, BotState, Refused, Wasi};
use crate::text::bounded;
use arena_engine::{CallReport, Fault, FaultKind, Player};
use arena_sdk::protocol::RequestRef;
use arena_sdk::{Encoding, Game, MatchEnd, MatchStart};
use serde::de::DeserializeOwned;
use wasmtime::{Caller, Engine, Func, Instance, InstancePre, Linker, Memory, Store, Trap, ValRaw};

/// The host functions a bot may import: `arena::log`, `arena::fuel_left`,
/// `arena::fuel_budget` and the WASI subset (`wasi.rs`). A
/// log call costs
/// [`LOG_FUEL_BASE`](crate::LOG_FUEL_BASE) plus [`LOG_FUEL_PER_BYTE`](crate::LOG_FUEL_PER_BYTE)
/// per byte it reads, so spinning on the host is paid for like any other work; calls past
/// the per-call cap are dropped but still pay the base.
pub(crate) fn linker(engine: &Engine) -> wasmtime::Result<Linker<BotState>> {
    let mut linker = Linker::new(engine);
    linker.func_wrap(
        "arena",
        "log",
        |mut caller: Caller<'_, BotState>, ptr: i32, len: i32| -> wasmtime::Result<()> {
            let state = caller.data_mut();
            state.count_log_call();
            let room = state.log_room();
            let (start, len) = (ptr as u32 as usize, len as u32 as usize);
            let take = len.min(room);
            let cost = crate::LOG_FUEL_BASE + crate::LOG_FUEL_PER_BYTE * take as u64;
            crate::state::pay(&mut caller, cost)?;
            if take == 0 {
                return Ok(());
            }
            let Some(memory) = caller.get_export("memory").and_then(|e| e.into_memory()) else {
                return Ok(());
            };
            let (data, state) = memory.data_and_store_mut(&mut caller);
            // An out-of-bounds log call is ignored: logging must never fault a bot.
            let Some(bytes) = data.get(start..start.saturating_add(len)) else {
                return Ok(());
            };
            state.append(&bytes[..take], false);
            Ok(())
        },
    )?;
    linker.func_wrap(
        "arena",
        FUEL_LEFT,
        |mut caller: Caller<'_, BotState>| -> wasmtime::Result<i64> {
            Ok(crate::state::fuel_left(&mut caller)? as i64)
        },
    )?;
    linker.func_wrap(
        "arena",
        FUEL_BUDGET,
        |mut caller: Caller<'_, BotState>| -> wasmtime::Result<i64> {
            Ok(crate::state::fuel_budget(&mut caller)? as i64)
        },
    )?;
    crate::wasi::add_to_linker(&mut linker)?;
    Ok(linker)
}

/// `arena::fuel_left` `(func (result i64))`: the fuel the current call has left.
pub(crate) const FUEL_LEFT: &str = "fuel_left";
/// `arena::fuel_budget` `(func (result i64))`: the fuel the current call started with.
pub(crate) const FUEL_BUDGET: &str = "fuel_budget";

/// The code a [`WasmBot`] instantiates: a core module's or a component's.
pub(crate) enum Pre {
    Core(InstancePre<BotState>),
    Component(wasmtime::component::InstancePre<BotState>),
}

/// What a bot's instance is called through.
enum Exports {
    Core {
        memory: Memory,
        alloc: AbiFunc<1>,
        call: AbiFunc<2>,
    },
    /// A component's `call` (`component.rs`).
    Component {
        call: wasmtime::component::TypedFunc<(String,), (String,)>,
    },
}

/// Where a response lies: in the bot's memory, or (a component's) in `WasmBot::owned`.
enum Response {
    Memory(std::ops::Range<usize>),
    Owned,
}

/// An ABI export taking `N` `i32`s and returning one integer, called with raw values.
///
/// Every bot's exports are type-checked once, at load (`load::validate`, against
/// `REQUIRED_FUNCS` and `OPTIONAL_ENCODING_FUNC`). A `TypedFunc` would check again per
/// instance and hold the function's type, a counted handle into the engine's type
/// registry: making one per match and cloning it per call made every worker thread write
/// the same shared reference counts (the types of all bots are one registry's entries),
/// which cost `--jobs 2` its scaling (docs/performance.md).
#[derive(Clone, Copy)]
struct AbiFunc<const N: usize> {
    func: Func,
}

impl<const N: usize> AbiFunc<N> {
    /// The export `name` of `instance`; `None` if there is none or it is not a function
    /// (load refused such a module, so `None` means a wrong call here).
    fn get(store: &mut Store<BotState>, instance: Instance, name: &str) -> Option<Self> {
        let func = instance.get_func(&mut *store, name)?;
        debug_assert_eq!(
            func.ty(&*store).params().len(),
            N,
            "`{name}` takes {N} parameters: checked at load"
        );
        Some(AbiFunc { func })
    }

    /// Call it; the result as the raw value (read as the export's result type).
    fn call(self, store: &mut Store<BotState>, args: [i32; N]) -> wasmtime::Result<ValRaw> {
        // Room for the parameters and then the one result (which overwrites the first).
        let mut values = [ValRaw::i32(0); 2];
        for (slot, arg) in values.iter_mut().zip(args) {
            *slot = ValRaw::i32(arg);
        }
        // SAFETY: the function belongs to this store's instance, and load checked its type:
        // `N` `i32` parameters (written above) and one `i32` or `i64` result, which fits the
        // two-value array. No reference types cross (nothing for the collector to root).
        #[allow(unsafe_code)]
        unsafe {
            self.func
                .call_unchecked(&mut *store, &mut values[..N.max(1)] as *mut [ValRaw])?;
        }
        Ok(values[0])
    }
}

/// The least a kept request buffer is asked for ([`arena_sdk::KEPT_BUFFER`]): a binary
/// turn request of any mode is well under it, so most matches call `arena_alloc` once.
const KEPT_BUFFER_BYTES: i32 = 4096;

/// One bot instance for one match. Created by [`LoadedBot::player`](crate::LoadedBot::player);
/// instantiated when the match starts; memory persists across the match's turns.
pub struct WasmBot {
    store: Store<BotState>,
    pre: Pre,
    exports: Option<Exports>,
    /// A component's last response (a core bot's stays in its memory).
    owned: String,
    /// Whether a call into the instance failed (a trap, running out of fuel, `proc_exit`):
    /// its state is then whatever the trap left (a Rust bot's `RefCell` still borrowed, Go's
    /// runtime stopped; wasmtime never enters a component again), so the next setup or
    /// turn request gets a fresh instance, started again (`WasmBot::recover`).
    broken: bool,
    /// The match's start request, encoded (in `start_encoding`): what a fresh instance is
    /// sent.
    start_request: Vec<u8>,
    start_encoding: Encoding,
    /// Whether the current call runs on an instance made after a trap (said in its log).
    restarted: bool,
    fuel_per_turn: u64,
    fuel_per_setup: u64,
    response_bytes: usize,
    deadline_ticks: u64,
    match_wall_clock: std::time::Duration,
    /// `match_wall_clock` in epoch ticks.
    match_ticks: u64,
    /// The sandbox's epoch tick count.
    clock: std::sync::Arc<std::sync::atomic::AtomicU64>,
    /// Epoch ticks counted during this bot's calls in this match. A call shorter than a
    /// tick counts one tick or none, as often as a tick falls inside it, so the sum
    /// estimates the calls' wall time without a clock read around every call.
    spent: u64,
    /// Whether the current call's epoch deadline is the match budget's (not the per-call one).
    match_deadline: bool,
    request: Vec<u8>,
    /// The encodings offered to the bot (`arena_encoding`'s argument).
    offered: i32,
    /// The encoding of this match's requests and responses, settled at instantiation.
    encoding: Encoding,
    /// Whether the bot took the kept request buffer ([`arena_sdk::KEPT_BUFFER`]).
    keeps_buffer: bool,
    /// The kept buffer once `arena_alloc` handed one out: where, and how many bytes.
    buffer: Option<(i32, usize)>,
    last: CallReport,
    /// The instance pool's slot, if the store is pooled; declared after `store`, so it is
    /// released only once the store (and its instance) is gone.
    slot: Option<crate::PoolSlot>,
}

impl std::fmt::Debug for WasmBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WasmBot")
            .field("instantiated", &self.exports.is_some())
            .finish()
    }
}

impl WasmBot {
    pub(crate) fn new(
        pre: Pre,
        engine: &Engine,
        slot: Option<crate::PoolSlot>,
        sandbox: &Sandbox,
    ) -> Self {
        let limits = sandbox.limits();
        let (instances, memories, tables) = match pre {
            Pre::Core(_) => (1, 1, limits.structure.tables.max(1) as usize),
            Pre::Component(_) => {
                let c = &limits.structure.component;
                (
                    c.core_instances as usize,
                    c.total_memories as usize,
                    (c.core_modules as usize).saturating_mul(limits.structure.tables as usize),
                )
            }
        };
        let state = BotState {
            limiter: BotLimiter {
                memory_bytes: limits.memory_bytes,
                table_elements: limits.table_elements,
                refused: None,
                grow_fuel: 0,
                fuel_budget: limits.fuel_per_setup,
                memory_total: 0,
                instances,
                memories,
                tables,
            },
            log: String::new(),
            log_cap: limits.log_bytes_per_call,
            log_calls: 0,
            log_calls_cap: limits.log_calls_per_call,
            wasi: Wasi::default(),
            output_last: false,
        };
        WasmBot {
            store: new_store(engine, state),
            pre,
            exports: None,
            owned: String::new(),
            broken: false,
            start_request: Vec::new(),
            start_encoding: Encoding::Json,
            restarted: false,
            fuel_per_turn: limits.fuel_per_turn,
            fuel_per_setup: limits.fuel_per_setup,
            response_bytes: limits.response_bytes,
            deadline_ticks: sandbox.wall_clock_ticks(),
            match_wall_clock: limits.match_wall_clock,
            match_ticks: crate::budget_ticks(limits.match_wall_clock),
            clock: sandbox.tick_count(),
            spent: 0,
            match_deadline: false,
            request: Vec::with_capacity(4096),
            offered: limits.encoding.offered(),
            encoding: Encoding::Json,
            keeps_buffer: false,
            buffer: None,
            last: CallReport::default(),
            slot,
        }
    }

    /// Whether this bot's instance lives in the sandbox's instance pool (`false`: from
    /// the on-demand allocator, because pooling is off or every slot was taken).
    pub fn pooled(&self) -> bool {
        self.slot.is_some()
    }

    /// The encoding this match speaks, once the bot is instantiated (`arena check` reports
    /// it); `None` before, or when instantiation failed.
    pub fn encoding(&self) -> Option<Encoding> {
        self.exports.as_ref().map(|_| self.encoding)
    }

    /// The size of the bot's linear memory now (`None` before it is instantiated): what it
    /// grew to beyond its module's initial memory (`ModuleInfo::initial_memory`).
    pub fn memory_bytes(&self) -> Option<usize> {
        self.exports
            .as_ref()
            .map(|_| self.store.data().limiter.memory_total)
    }

    /// Arm the limits for one call; a timeout fault if the match's wall-clock budget is
    /// spent.
    fn arm(&mut self, fuel: u64) -> Result<(), Fault> {
        self.store
            .set_fuel(fuel)
            .expect("fuel is enabled in the engine config");
        let state = self.store.data_mut();
        state.limiter.refused = None;
        state.limiter.grow_fuel = 0;
        state.limiter.fuel_budget = fuel;
        state.log.clear();
        state.output_last = false;
        state.log_calls = 0;
        let left = self.match_ticks.saturating_sub(self.spent);
        if left == 0 {
            return Err(self.match_budget_spent());
        }
        self.match_deadline = left < self.deadline_ticks;
        self.store.set_epoch_deadline(self.deadline_ticks.min(left));
        Ok(())
    }

    /// The sandbox's epoch tick count now.
    fn now(&self) -> u64 {
        self.clock.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn match_budget_spent(&self) -> Fault {
        Fault::new(
            FaultKind::Timeout,
            format!(
                "the bot's wall-clock budget for the match ({} s) is spent",
                self.match_wall_clock.as_secs_f64()
            ),
        )
    }

    /// Fuel the current call used: what the store burnt plus refused growths.
    fn fuel_used(&self, budget: u64) -> u64 {
        (budget - self.store.get_fuel().unwrap_or(0))
            .saturating_add(self.store.data().limiter.grow_fuel)
    }

    /// After a call that returned: refused growths may have pushed it past its budget.
    fn over_budget(&self, budget: u64) -> Result<(), Fault> {
        if self.fuel_used(budget) > budget {
            return Err(out_of_fuel());
        }
        Ok(())
    }

    fn instantiate(&mut self) -> Result<(), Fault> {
        let pre = match &self.pre {
            Pre::Core(pre) => pre,
            Pre::Component(pre) => {
                let instance = pre
                    .instantiate(&mut self.store)
                    .map_err(|e| self.fault(e))?;
                // Typed at load (`component::validate`).
                let call = instance
                    .get_typed_func::<(String,), (String,)>(&mut self.store, crate::component::CALL)
                    .map_err(|e| Fault::new(FaultKind::Instantiation, format!("{e:#}")))?;
                self.encoding = Encoding::Json;
                self.exports = Some(Exports::Component { call });
                return Ok(());
            }
        };
        let instance = pre
            .instantiate(&mut self.store)
            .map_err(|e| self.fault(e))?;
        let exports = self
            .exports_of(instance)
            .map_err(|e| Fault::new(FaultKind::Instantiation, e))?;
        // A WASI reactor (Go's `c-shared`, wasi-libc's `-mexec-model=reactor`) sets up its
        // runtime here, once, before any other export is called (typed at load).
        if let Some(initialize) = AbiFunc::<0>::get(&mut self.store, instance, "_initialize") {
            initialize
                .call(&mut self.store, [])
                .map_err(|e| self.fault(e))?;
        }
        let version = AbiFunc::<0>::get(&mut self.store, instance, "arena_abi_version")
            .ok_or_else(|| wasmtime::Error::msg("no export `arena_abi_version`"))
            .and_then(|f| f.call(&mut self.store, []))
            .map_err(|e| self.fault(e))?
            .get_i32();
        if version != arena_sdk::ABI_VERSION as i32 {
            return Err(Fault::new(
                FaultKind::Instantiation,
                format!(
                    "bot speaks ABI version {version}; this arena speaks {}",
                    arena_sdk::ABI_VERSION
                ),
            ));
        }
        (self.encoding, self.keeps_buffer) = self.negotiate(instance)?;
        self.exports = Some(exports);
        Ok(())
    }

    /// The encoding of this match and whether the bot keeps its request buffer: the bot's
    /// pick among those offered, through its optional `arena_encoding` export (typed at
    /// load); JSON and no kept buffer without it.
    fn negotiate(&mut self, instance: Instance) -> Result<(Encoding, bool), Fault> {
        let Some(choose) = AbiFunc::<1>::get(&mut self.store, instance, "arena_encoding") else {
            return Ok((Encoding::Json, false));
        };
        let chosen = choose
            .call(&mut self.store, [self.offered])
            .map_err(|e| self.fault(e))?
            .get_i32();
        let flags = chosen & !arena_sdk::ENCODING_BITS;
        Encoding::from_bit(chosen & arena_sdk::ENCODING_BITS)
            .filter(|e| self.offered & e.bit() != 0 && self.offered & flags == flags)
            .map(|e| (e, flags & arena_sdk::KEPT_BUFFER != 0))
            .ok_or_else(|| {
                Fault::new(
                    FaultKind::Instantiation,
                    format!(
                        "arena_encoding({:#x}) returned {chosen:#x}, which is not one offered encoding plus offered flags",
                        self.offered
                    ),
                )
            })
    }

    fn exports_of(&mut self, instance: Instance) -> Result<Exports, String> {
        let store = &mut self.store;
        Ok(Exports::Core {
            memory: instance
                .get_memory(&mut *store, "memory")
                .ok_or("no memory export")?,
            alloc: AbiFunc::get(store, instance, "arena_alloc").ok_or("no export `arena_alloc`")?,
            call: AbiFunc::get(store, instance, "arena_call").ok_or("no export `arena_call`")?,
        })
    }

    /// Turn a wasmtime error from a bot call into a fault, its message bounded (it can
    /// quote a backtrace with the bot's own function names).
    fn fault(&mut self, error: wasmtime::Error) -> Fault {
        self.broken = true;
        let mut fault = self.classify(error);
        fault.message = bounded(&fault.message);
        fault
    }

    fn classify(&self, error: wasmtime::Error) -> Fault {
        let trap = error.downcast_ref::<Trap>().copied();
        let last_log = telling_line(&self.store.data().log)
            .map(|l| format!("; bot's log: {}", bounded(&l)))
            .unwrap_or_default();
        if let Some(crate::wasi::Exited(code)) = error.downcast_ref().copied() {
            return Fault::new(
                FaultKind::Trap,
                format!(
                    "the bot exited with code {code} (proc_exit){}",
                    exit_reason(&self.store.data().log)
                ),
            );
        }
        match (trap, self.store.data().limiter.refused) {
            (Some(Trap::OutOfFuel), Some(Refused::Memory(desired))) => Fault::new(
                FaultKind::OutOfFuel,
                format!(
                    "used its whole fuel budget for the call, after its memory could not grow to {desired} bytes (the limit is {})",
                    self.store.data().limiter.memory_bytes
                ),
            ),
            (Some(Trap::OutOfFuel), _) => out_of_fuel(),
            (Some(Trap::Interrupt), _) if self.match_deadline => self.match_budget_spent(),
            (Some(Trap::Interrupt), _) => Fault::new(
                FaultKind::Timeout,
                "the wall-clock backstop interrupted the call",
            ),
            // A stack overflow is the stack's limit, whatever growth failed before it.
            (Some(trap @ Trap::StackOverflow), _) => {
                Fault::new(FaultKind::Trap, format!("{trap}{last_log}"))
            }
            (_, Some(Refused::Memory(desired))) => Fault::new(
                FaultKind::MemoryLimit,
                format!(
                    "failed after its memory could not grow to {desired} bytes (the limit is {}): {error:#}{last_log}",
                    self.store.data().limiter.memory_bytes
                ),
            ),
            (_, Some(Refused::Table(desired))) => Fault::new(
                FaultKind::MemoryLimit,
                format!(
                    "failed after its table could not grow to {desired} elements (the limit is {}): {error:#}{last_log}",
                    self.store.data().limiter.table_elements
                ),
            ),
            (Some(trap), None) => Fault::new(FaultKind::Trap, format!("{trap}{last_log}")),
            (None, None) => Fault::new(FaultKind::Trap, format!("{error:#}{last_log}")),
        }
    }

    /// Send the request in `self.request`; returns where the (bounds-checked) response lies
    /// in the bot's memory, to be decoded in place by [`WasmBot::response`].
    fn exchange(&mut self, fuel: u64) -> Result<Response, Fault> {
        let Some(exports) = &self.exports else {
            return Err(Fault::new(
                FaultKind::Instantiation,
                "the bot was not instantiated (its start failed)",
            ));
        };
        let (memory, alloc, call) = match exports {
            Exports::Core {
                memory,
                alloc,
                call,
            } => (*memory, *alloc, *call),
            Exports::Component { call } => {
                let call = *call;
                return self.exchange_component(call, fuel);
            }
        };
        self.arm(fuel)?;
        let started = self.now();
        let result = self
            .exchange_armed(memory, alloc, call)
            .and_then(|range| self.over_budget(fuel).map(|()| Response::Memory(range)));
        self.spent += self.now() - started;
        self.last.fuel = self.fuel_used(fuel).min(fuel);
        let wasi = &mut self.store.data_mut().wasi;
        wasi.fuel_before = wasi.fuel_before.saturating_add(self.last.fuel);
        result
    }

    /// `exchange` for a component: the request (JSON) as a string in, the response out.
    fn exchange_component(
        &mut self,
        call: wasmtime::component::TypedFunc<(String,), (String,)>,
        fuel: u64,
    ) -> Result<Response, Fault> {
        // JSON from serde_json: always UTF-8.
        let request = String::from_utf8(std::mem::take(&mut self.request))
            .map_err(|_| Fault::new(FaultKind::WrongShape, "a request that is not UTF-8"))?;
        self.arm(fuel)?;
        let started = self.now();
        let result = match call.call(&mut self.store, (request,)) {
            Ok((response,)) => self.over_budget(fuel).and_then(|()| {
                if response.len() > self.response_bytes {
                    return Err(Fault::new(
                        FaultKind::ResponseTooLarge,
                        format!(
                            "response of {} bytes; the limit is {} bytes",
                            response.len(),
                            self.response_bytes
                        ),
                    ));
                }
                self.owned = response;
                Ok(Response::Owned)
            }),
            Err(error) => Err(self.fault(error)),
        };
        self.spent += self.now() - started;
        self.last.fuel = self.fuel_used(fuel).min(fuel);
        result
    }

    fn exchange_armed(
        &mut self,
        memory: Memory,
        alloc: AbiFunc<1>,
        call: AbiFunc<2>,
    ) -> Result<std::ops::Range<usize>, Fault> {
        let len = i32::try_from(self.request.len())
            .map_err(|_| Fault::new(FaultKind::WrongShape, "request too large for a 32-bit bot"))?;
        let ptr = match self.buffer {
            // The kept buffer: no call into the bot before the request itself.
            Some((ptr, room)) if self.request.len() <= room => ptr,
            _ => {
                // A kept buffer is asked big enough for every later turn of most matches;
                // a bot that cannot give that much is asked for the request's length.
                let mut ask = if self.keeps_buffer {
                    len.max(KEPT_BUFFER_BYTES)
                } else {
                    len
                };
                let mut ptr = alloc
                    .call(&mut self.store, [ask])
                    .map_err(|e| self.fault(e))?
                    .get_i32();
                if ptr == 0 && ask > len {
                    ask = len;
                    ptr = alloc
                        .call(&mut self.store, [ask])
                        .map_err(|e| self.fault(e))?
                        .get_i32();
                }
                if ptr == 0 {
                    return Err(Fault::new(
                        FaultKind::MemoryLimit,
                        format!(
                            "arena_alloc({ask}) returned 0: the bot cannot allocate the request buffer"
                        ),
                    ));
                }
                // Every write into it is bounds-checked: a buffer that was not what the
                // bot promised faults the request that finds out, and is asked for anew.
                self.buffer = self.keeps_buffer.then_some((ptr, ask as usize));
                ptr
            }
        };
        memory
            .write(&mut self.store, ptr as u32 as usize, &self.request)
            .map_err(|_| {
                self.buffer = None;
                Fault::new(
                    FaultKind::OutOfBounds,
                    format!("the request buffer at {ptr} (from arena_alloc) lies outside the bot's memory for a request of {len} bytes"),
                )
            })?;
        let packed = call
            .call(&mut self.store, [ptr, len])
            .map_err(|e| self.fault(e))?
            .get_i64();
        let (resp_ptr, resp_len) = (
            (packed as u64 >> 32) as usize,
            (packed as u64 & 0xffff_ffff) as usize,
        );
        if resp_len > self.response_bytes {
            return Err(Fault::new(
                FaultKind::ResponseTooLarge,
                format!(
                    "response of {resp_len} bytes; the limit is {} bytes",
                    self.response_bytes
                ),
            ));
        }
        let size = memory.data_size(&self.store);
        if resp_ptr.saturating_add(resp_len) > size {
            return Err(Fault::new(
                FaultKind::OutOfBounds,
                format!(
                    "response at {resp_ptr} with length {resp_len} lies outside the bot's memory of {size} bytes"
                ),
            ));
        }
        Ok(resp_ptr..resp_ptr + resp_len)
    }

    /// The response bytes `exchange` located (no copy).
    fn response(&self, at: Response) -> &[u8] {
        match (at, &self.exports) {
            (Response::Memory(range), Some(Exports::Core { memory, .. })) => {
                &memory.data(&self.store)[range]
            }
            (Response::Owned, _) => self.owned.as_bytes(),
            (Response::Memory(_), _) => unreachable!("a response in memory is a core bot's"),
        }
    }

    fn encode<G: Game>(&mut self, request: RequestRef<'_, G>) -> Result<(), Fault> {
        crate::wire::encode_request(self.encoding, request, &mut self.request)
    }

    fn ask<T: DeserializeOwned, G: Game>(
        &mut self,
        request: RequestRef<'_, G>,
        fuel: u64,
    ) -> Result<T, Fault> {
        let restart_fuel = self.recover()?;
        self.encode(request)?;
        let at = self.exchange(fuel);
        self.last.fuel += restart_fuel;
        crate::wire::decode(self.encoding, self.response(at?))
    }

    /// After a call into the instance failed: a fresh instance in a fresh store, set up
    /// as at the match's start (instantiated and sent the start request, under the setup
    /// budget; not the setup request). Returns the fuel that took; nothing to do (0)
    /// unless the instance is broken. A restart that fails is this call's fault, and
    /// leaves the bot without an instance: its later calls fault at once.
    fn recover(&mut self) -> Result<u64, Fault> {
        if !self.broken || self.exports.is_none() {
            return Ok(0);
        }
        let state = self.store.data_mut().fresh();
        let engine = self.store.engine().clone();
        // The old store goes here, and its instance with it.
        self.store = new_store(&engine, state);
        self.exports = None;
        self.buffer = None;
        self.broken = false;
        self.restarted = true;
        let setup = self.fuel_per_setup;
        let failed = |fault: Fault| Fault {
            message: format!(
                "starting a fresh instance after the trap of an earlier call: {}",
                fault.message
            ),
            ..fault
        };
        self.arm(setup).map_err(failed)?;
        let started = self.now();
        let instantiated = self.instantiate().and_then(|()| self.over_budget(setup));
        self.spent += self.now() - started;
        let used = self.fuel_used(setup).min(setup);
        let wasi = &mut self.store.data_mut().wasi;
        wasi.fuel_before = wasi.fuel_before.saturating_add(used);
        if let Err(fault) = instantiated {
            self.exports = None;
            self.last.fuel = used;
            return Err(failed(fault));
        }
        if self.encoding != self.start_encoding {
            self.exports = None;
            return Err(failed(Fault::new(
                FaultKind::Instantiation,
                "the fresh instance chose another encoding than the first",
            )));
        }
        self.request.clone_from(&self.start_request);
        let at = self.exchange(setup - used);
        let total = used + self.last.fuel;
        let acked = at.and_then(|at| crate::wire::decode_ack(self.encoding, self.response(at)));
        if let Err(fault) = acked {
            self.exports = None;
            self.last.fuel = total;
            return Err(failed(fault));
        }
        self.last.fuel = 0;
        Ok(total)
    }

    /// Like `ask` for start/end, whose responses only matter if they are errors.
    fn notify<G: Game>(&mut self, request: RequestRef<'_, G>, fuel: u64) -> Result<(), Fault> {
        self.encode(request)?;
        let at = self.exchange(fuel)?;
        crate::wire::decode_ack(self.encoding, self.response(at))
    }
}

/// A store for one instance of a bot.
fn new_store(engine: &Engine, state: BotState) -> Store<BotState> {
    let mut store = Store::new(engine, state);
    store.limiter(|state| &mut state.limiter);
    store.epoch_deadline_trap();
    store
}

/// The line of the call's log that best says why a bot failed: a runtime's fatal error
/// (Go's `panic: …` or `fatal error: …`, whose stack trace follows it; the Rust SDK's
/// `panic: panicked at FILE:LINE:` with the message on the next line), else the last line.
fn telling_line(log: &str) -> Option<String> {
    let lines: Vec<&str> = log
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let fatal = lines
        .iter()
        .position(|l| l.starts_with("panic: ") || l.starts_with("fatal error: "));
    match fatal {
        Some(i) if lines[i].ends_with(':') && i + 1 < lines.len() => {
            Some(format!("{} {}", lines[i], lines[i + 1]))
        }
        Some(i) => Some(lines[i].to_owned()),
        None => lines.last().map(|l| (*l).to_owned()),
    }
}

/// What a program that exits says about why (see [`telling_line`]).
fn exit_reason(log: &str) -> String {
    telling_line(log)
        .map(|line| format!("; it wrote: {}", bounded(&line)))
        .unwrap_or_default()
}

fn out_of_fuel() -> Fault {
    Fault::new(
        FaultKind::OutOfFuel,
        "used its whole fuel budget for the call",
    )
}

impl<G: Game> Player<G> for WasmBot {
    fn start(&mut self, start: &MatchStart<G>) -> Result<(), Fault> {
        // The WASI subset's randomness follows the bot's own seed, from the very first
        // instruction (a runtime seeds its hash maps while it initializes).
        self.store.data_mut().wasi = Wasi::seeded(start.seed);
        self.arm(self.fuel_per_setup)?;
        let started = self.now();
        let instantiated = self
            .instantiate()
            .and_then(|()| self.over_budget(self.fuel_per_setup));
        self.spent += self.now() - started;
        let used = self.fuel_used(self.fuel_per_setup).min(self.fuel_per_setup);
        self.store.data_mut().wasi.fuel_before = used;
        let result = instantiated.and_then(|()| {
            let remaining = self.fuel_per_setup - used;
            self.encode(RequestRef::<G>::Start(start))?;
            // Kept for a fresh instance after a trap (`recover`).
            self.start_request.clone_from(&self.request);
            self.start_encoding = self.encoding;
            let at = self.exchange(remaining)?;
            crate::wire::decode_ack(self.encoding, self.response(at))
        });
        self.last.fuel += used;
        result
    }

    fn setup(&mut self, request: &G::SetupRequest) -> Result<G::SetupChoice, Fault> {
        self.ask(RequestRef::<G>::Setup(request), self.fuel_per_setup)
    }

    fn act(&mut self, observation: &G::Observation) -> Result<G::Action, Fault> {
        self.ask(RequestRef::<G>::Turn(observation), self.fuel_per_turn)
    }

    fn end(&mut self, end: &MatchEnd) {
        // A broken instance is not restarted only to be told the match is over.
        if self.exports.is_some() && !self.broken {
            // The match is decided; a bot failing here changes nothing.
            let _ = self.notify(RequestRef::<G>::End(end), self.fuel_per_turn);
        }
    }

    fn last_call(&mut self) -> CallReport {
        let state = self.store.data_mut();
        let dropped = state.log_calls.saturating_sub(state.log_calls_cap);
        let mut log = std::mem::take(&mut state.log);
        state.output_last = false;
        if dropped > 0 {
            log += &format!(
                "\n[arena: {dropped} more log calls dropped; at most {} are kept per call]",
                state.log_calls_cap
            );
        }
        state.log_calls = 0;
        if std::mem::take(&mut self.restarted) {
            log.insert_str(
                0,
                "[arena: a fresh instance of the bot, started again after the trap of an earlier call]\n",
            );
        }
        CallReport {
            fuel: std::mem::take(&mut self.last.fuel),
            log,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fatal_error_line_tells_more_than_the_stack_after_it() {
        let go = "slept\nfatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1:\n\tmain.go:27\n";
        assert_eq!(
            telling_line(go).as_deref(),
            Some("fatal error: all goroutines are asleep - deadlock!")
        );
        let rust = "turn 3\npanic: panicked at src/lib.rs:12:9:\nindex out of bounds: the len is 3 but the index is 5";
        assert_eq!(
            telling_line(rust).as_deref(),
            Some(
                "panic: panicked at src/lib.rs:12:9: index out of bounds: the len is 3 but the index is 5"
            )
        );
        assert_eq!(telling_line("one\ntwo\n\n").as_deref(), Some("two"));
        assert_eq!(telling_line(""), None);
    }
}
