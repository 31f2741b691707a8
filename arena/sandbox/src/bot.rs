//! [`WasmBot`]: one bot instance for one match, speaking ABI v1 (docs/abi.md).

use crate::Sandbox;
use arena_engine::{CallReport, Fault, FaultKind, Player};
use arena_sdk::protocol::RequestRef;
use arena_sdk::{Game, MatchEnd, MatchStart};
use serde::de::DeserializeOwned;
use wasmtime::{
    Caller, Engine, Instance, InstancePre, Linker, Memory, ResourceLimiter, Store, Trap, TypedFunc,
};

/// Per-store state: the limiter and the log of the current call.
pub struct BotState {
    limiter: BotLimiter,
    log: String,
    log_cap: usize,
}

/// Memory/table limits that remember whether a growth was refused, so a trap that follows
/// can be reported as the memory limit it really is.
struct BotLimiter {
    memory_bytes: usize,
    table_elements: usize,
    growth_refused: bool,
}

impl ResourceLimiter for BotLimiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _max: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let ok = desired <= self.memory_bytes;
        self.growth_refused |= !ok;
        Ok(ok)
    }
    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _max: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let ok = desired <= self.table_elements;
        self.growth_refused |= !ok;
        Ok(ok)
    }
    fn instances(&self) -> usize {
        1
    }
    fn tables(&self) -> usize {
        4
    }
    fn memories(&self) -> usize {
        1
    }
}

/// The host functions a bot may import: only `arena::log`.
pub(crate) fn linker(engine: &Engine) -> wasmtime::Result<Linker<BotState>> {
    let mut linker = Linker::new(engine);
    linker.func_wrap(
        "arena",
        "log",
        |mut caller: Caller<'_, BotState>, ptr: i32, len: i32| {
            let Some(memory) = caller.get_export("memory").and_then(|e| e.into_memory()) else {
                return;
            };
            let (data, state) = memory.data_and_store_mut(&mut caller);
            let (start, len) = (ptr as u32 as usize, len as u32 as usize);
            // An out-of-bounds log call is ignored: logging must never fault a bot.
            let Some(bytes) = data.get(start..start.saturating_add(len)) else {
                return;
            };
            let room = state.log_cap.saturating_sub(state.log.len());
            if room == 0 {
                return;
            }
            if !state.log.is_empty() {
                state.log.push('\n');
            }
            let text = String::from_utf8_lossy(&bytes[..bytes.len().min(room)]);
            state.log.push_str(&text);
        },
    )?;
    Ok(linker)
}

struct Exports {
    memory: Memory,
    alloc: TypedFunc<i32, i32>,
    call: TypedFunc<(i32, i32), i64>,
}

/// One bot instance for one match. Created by [`LoadedBot::player`](crate::LoadedBot::player);
/// instantiated when the match starts; memory persists across the match's turns.
pub struct WasmBot {
    store: Store<BotState>,
    pre: InstancePre<BotState>,
    exports: Option<Exports>,
    fuel_per_turn: u64,
    fuel_per_setup: u64,
    response_bytes: usize,
    deadline_ticks: u64,
    request: Vec<u8>,
    last: CallReport,
}

impl std::fmt::Debug for WasmBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WasmBot")
            .field("instantiated", &self.exports.is_some())
            .finish()
    }
}

impl WasmBot {
    pub(crate) fn new(pre: InstancePre<BotState>, sandbox: &Sandbox) -> Self {
        let limits = sandbox.limits();
        let state = BotState {
            limiter: BotLimiter {
                memory_bytes: limits.memory_bytes,
                table_elements: limits.table_elements,
                growth_refused: false,
            },
            log: String::new(),
            log_cap: limits.log_bytes_per_call,
        };
        let mut store = Store::new(&sandbox.engine, state);
        store.limiter(|state| &mut state.limiter);
        store.epoch_deadline_trap();
        WasmBot {
            store,
            pre,
            exports: None,
            fuel_per_turn: limits.fuel_per_turn,
            fuel_per_setup: limits.fuel_per_setup,
            response_bytes: limits.response_bytes,
            deadline_ticks: sandbox.wall_clock_ticks(),
            request: Vec::with_capacity(4096),
            last: CallReport::default(),
        }
    }

    /// Arm the limits for one call.
    fn arm(&mut self, fuel: u64) {
        self.store
            .set_fuel(fuel)
            .expect("fuel is enabled in the engine config");
        self.store.set_epoch_deadline(self.deadline_ticks);
        self.store.data_mut().limiter.growth_refused = false;
        self.store.data_mut().log.clear();
    }

    fn fuel_used(&self, budget: u64) -> u64 {
        budget - self.store.get_fuel().unwrap_or(0)
    }

    fn instantiate(&mut self) -> Result<(), Fault> {
        let instance = self
            .pre
            .instantiate(&mut self.store)
            .map_err(|e| self.fault(e))?;
        let exports = self
            .exports_of(instance)
            .map_err(|e| Fault::new(FaultKind::Instantiation, e))?;
        let version = instance
            .get_typed_func::<(), i32>(&mut self.store, "arena_abi_version")
            .and_then(|f| f.call(&mut self.store, ()))
            .map_err(|e| self.fault(e))?;
        if version != arena_sdk::ABI_VERSION as i32 {
            return Err(Fault::new(
                FaultKind::Instantiation,
                format!(
                    "bot speaks ABI version {version}; this arena speaks {}",
                    arena_sdk::ABI_VERSION
                ),
            ));
        }
        self.exports = Some(exports);
        Ok(())
    }

    fn exports_of(&mut self, instance: Instance) -> Result<Exports, String> {
        let store = &mut self.store;
        Ok(Exports {
            memory: instance
                .get_memory(&mut *store, "memory")
                .ok_or("no memory export")?,
            alloc: instance
                .get_typed_func(&mut *store, "arena_alloc")
                .map_err(|e| format!("{e:#}"))?,
            call: instance
                .get_typed_func(&mut *store, "arena_call")
                .map_err(|e| format!("{e:#}"))?,
        })
    }

    /// Turn a wasmtime error from a bot call into a fault.
    fn fault(&self, error: wasmtime::Error) -> Fault {
        let trap = error.downcast_ref::<Trap>().copied();
        let last_log = self
            .store
            .data()
            .log
            .lines()
            .last()
            .map(|l| format!("; bot's last log line: {l}"))
            .unwrap_or_default();
        match trap {
            Some(Trap::OutOfFuel) => Fault::new(
                FaultKind::OutOfFuel,
                "used its whole fuel budget for the call",
            ),
            Some(Trap::Interrupt) => Fault::new(
                FaultKind::Timeout,
                "the wall-clock backstop interrupted the call",
            ),
            _ if self.store.data().limiter.growth_refused => Fault::new(
                FaultKind::MemoryLimit,
                format!(
                    "failed after its memory could not grow past the limit: {error:#}{last_log}"
                ),
            ),
            Some(trap) => Fault::new(FaultKind::Trap, format!("{trap}{last_log}")),
            None => Fault::new(FaultKind::Trap, format!("{error:#}{last_log}")),
        }
    }

    /// Send the request in `self.request`; returns where the (bounds-checked) response lies
    /// in the bot's memory, to be decoded in place by [`WasmBot::response`].
    fn exchange(&mut self, fuel: u64) -> Result<std::ops::Range<usize>, Fault> {
        let Some(exports) = &self.exports else {
            return Err(Fault::new(
                FaultKind::Instantiation,
                "the bot was not instantiated (its start failed)",
            ));
        };
        let (memory, alloc, call) = (exports.memory, exports.alloc.clone(), exports.call.clone());
        self.arm(fuel);
        let result = self.exchange_armed(memory, &alloc, &call);
        self.last.fuel = self.fuel_used(fuel);
        result
    }

    fn exchange_armed(
        &mut self,
        memory: Memory,
        alloc: &TypedFunc<i32, i32>,
        call: &TypedFunc<(i32, i32), i64>,
    ) -> Result<std::ops::Range<usize>, Fault> {
        let len = i32::try_from(self.request.len())
            .map_err(|_| Fault::new(FaultKind::WrongShape, "request too large for a 32-bit bot"))?;
        let ptr = alloc
            .call(&mut self.store, len)
            .map_err(|e| self.fault(e))?;
        memory
            .write(&mut self.store, ptr as u32 as usize, &self.request)
            .map_err(|_| {
                Fault::new(
                    FaultKind::OutOfBounds,
                    format!("arena_alloc({len}) returned {ptr}, a buffer outside the bot's memory"),
                )
            })?;
        let packed = call
            .call(&mut self.store, (ptr, len))
            .map_err(|e| self.fault(e))?;
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
        if resp_ptr + resp_len > size {
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
    fn response(&self, range: std::ops::Range<usize>) -> &[u8] {
        let memory = self
            .exports
            .as_ref()
            .expect("exchange succeeded, so the bot is instantiated")
            .memory;
        &memory.data(&self.store)[range]
    }

    fn encode<G: Game>(&mut self, request: RequestRef<'_, G>) -> Result<(), Fault> {
        self.request.clear();
        serde_json::to_writer(&mut self.request, &request)
            .map_err(|e| Fault::new(FaultKind::WrongShape, format!("cannot encode request: {e}")))
    }

    fn ask<T: DeserializeOwned, G: Game>(
        &mut self,
        request: RequestRef<'_, G>,
        fuel: u64,
    ) -> Result<T, Fault> {
        self.encode(request)?;
        let range = self.exchange(fuel)?;
        decode(self.response(range))
    }

    /// Like `ask` for start/end, whose responses only matter if they are errors.
    fn notify<G: Game>(&mut self, request: RequestRef<'_, G>, fuel: u64) -> Result<(), Fault> {
        self.encode(request)?;
        let range = self.exchange(fuel)?;
        let bytes = self.response(range);
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        decode::<serde_json::Value>(bytes).map(drop)
    }
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct BotErrorResponse {
    error: String,
}

/// Parse a response, telling apart bad UTF-8, bad JSON, a bot's `{"error": …}` and the
/// wrong shape.
fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Fault> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| Fault::new(FaultKind::NotUtf8, format!("response is not UTF-8: {e}")))?;
    if let Ok(BotErrorResponse { error }) = serde_json::from_str(text) {
        return Err(Fault::new(FaultKind::BotError, error));
    }
    serde_json::from_str(text).map_err(|e| {
        let kind = match e.classify() {
            serde_json::error::Category::Data => FaultKind::WrongShape,
            _ => FaultKind::NotJson,
        };
        let shown: String = text.chars().take(120).collect();
        Fault::new(kind, format!("{e} in response `{shown}`"))
    })
}

impl<G: Game> Player<G> for WasmBot {
    fn start(&mut self, start: &MatchStart<G>) -> Result<(), Fault> {
        self.arm(self.fuel_per_setup);
        let instantiated = self.instantiate();
        let used = self.fuel_used(self.fuel_per_setup);
        let result = instantiated.and_then(|()| {
            let remaining = self.fuel_per_setup - used;
            self.notify(RequestRef::<G>::Start(start), remaining)
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
        if self.exports.is_some() {
            // The match is decided; a bot failing here changes nothing.
            let _ = self.notify(RequestRef::<G>::End(end), self.fuel_per_turn);
        }
    }

    fn last_call(&mut self) -> CallReport {
        let log = std::mem::take(&mut self.store.data_mut().log);
        CallReport {
            fuel: std::mem::take(&mut self.last.fuel),
            log,
        }
    }
}
