//! Loading a bot: read, check size, compile (or take from the cache), validate the ABI.

use crate::Sandbox;
use crate::bot::{Pre, WasmBot};
use crate::state::BotState;
use sha2::{Digest, Sha256};
use std::path::Path;
use std::sync::{Arc, OnceLock, Weak};
use std::time::{Duration, Instant};
use wasmtime::{ExternType, FuncType, InstancePre, Module, ValType};

/// A bot that cannot be used, and why. Every message names the bot and what to fix.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{path}: cannot read: {error}")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        error: std::io::Error,
    },
    /// The module is larger than [`Limits::module_bytes`](crate::Limits::module_bytes).
    #[error("{bot}: module is {size} bytes; the limit is {limit} bytes")]
    TooLarge {
        /// The bot.
        bot: String,
        /// Its size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// Neither a binary wasm module nor WAT text.
    #[error("{bot}: not a WebAssembly module (no `\\0asm` header, and not WAT text: {detail})")]
    NotWasm {
        /// The bot.
        bot: String,
        /// What the WAT parser said, if the file was text.
        detail: String,
    },
    /// wasmtime rejected the module.
    #[error("{bot}: invalid module: {detail}")]
    Invalid {
        /// The bot.
        bot: String,
        /// wasmtime's message.
        detail: String,
    },
    /// The module breaks a structural limit (checked before compiling).
    #[error("{bot}: rejected before compiling: {detail} (see docs/abi.md, Limits)")]
    Structure {
        /// The bot.
        bot: String,
        /// Which limit, the module's figure and the limit.
        detail: String,
    },
    /// Compiling broke a compile limit (CPU, wall time or memory of the compiler process).
    #[error("{bot}: rejected while compiling: {detail}")]
    CompileLimit {
        /// The bot.
        bot: String,
        /// What happened.
        detail: String,
    },
    /// The module breaks the ABI (imports, exports, memory).
    #[error("{bot}: {detail} (see docs/abi.md)")]
    Abi {
        /// The bot.
        bot: String,
        /// What is wrong.
        detail: String,
    },
}

/// What `arena check` reports about a module.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ModuleInfo {
    /// Size of the module file in bytes.
    pub size: usize,
    /// SHA-256 of the module file.
    pub sha256: String,
    /// Whether it is a component of the `arena:bot` world (else a core module).
    pub component: bool,
    /// Exports as `name: type`.
    pub exports: Vec<String>,
    /// Imports as `module::name: type`.
    pub imports: Vec<String>,
    /// Initial memory in bytes.
    pub initial_memory: u64,
    /// Time to compile, or to load from the cache.
    #[serde(serialize_with = "as_millis")]
    pub load_time: Duration,
    /// Whether the compiled module came from a cache: the module cache on disk, or a bot
    /// of the same bytes this sandbox still holds (whose compiled code is then shared).
    pub from_cache: bool,
    /// Why a cache entry for this module was refused (and the module recompiled).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_warning: Option<String>,
}

fn as_millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64() * 1000.0)
}

/// A compiled module or component, shared by every [`LoadedBot`] of the same bytes in one
/// sandbox.
pub(crate) struct Compiled {
    code: Code,
    /// What its first load found (a later load of the same bytes reports it, with its own
    /// load time).
    info: ModuleInfo,
}

/// The compiled code, ready to instantiate.
enum Code {
    Core {
        pre: InstancePre<BotState>,
        /// The same module in the sandbox's on-demand runtime, made the first time the
        /// pool is full when one of its bots starts a match.
        fallback: OnceLock<Result<InstancePre<BotState>, String>>,
    },
    /// A component, in the sandbox's on-demand runtime (`Sandbox::component_runtime`).
    Component(wasmtime::component::InstancePre<BotState>),
}

/// The sandbox's table of resident modules by the SHA-256 of their bytes (see
/// `Sandbox::resident`): weak references, so an entry lives only as long as some
/// [`LoadedBot`] holds its module (a running match holds the module itself, not the entry).
pub(crate) struct Resident<T>(std::sync::Mutex<ResidentTable<T>>);

pub(crate) struct ResidentTable<T> {
    entries: std::collections::HashMap<String, Weak<T>>,
    /// The size at which the entries whose module is gone are next swept out: twice the
    /// entries left by the last sweep, and at least [`RESIDENT_SWEEP_FLOOR`].
    sweep_at: usize,
}

/// The smallest table that is swept.
const RESIDENT_SWEEP_FLOOR: usize = 16;

impl<T> Default for Resident<T> {
    fn default() -> Self {
        Resident(std::sync::Mutex::new(ResidentTable {
            entries: std::collections::HashMap::new(),
            sweep_at: RESIDENT_SWEEP_FLOOR,
        }))
    }
}

impl<T> Resident<T> {
    fn table(&self) -> std::sync::MutexGuard<'_, ResidentTable<T>> {
        // Nothing done under the lock can leave the table inconsistent.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The live module of the bytes with this SHA-256, if a bot still holds it.
    pub(crate) fn get(&self, sha256: &str) -> Option<Arc<T>> {
        self.table().entries.get(sha256).and_then(Weak::upgrade)
    }

    /// Enter `module` under `sha256`, unless a live module of the same bytes got there
    /// first (two loads of them at once both compiled): then that one, so the bots of
    /// these bytes still share one copy. Swept so that dead entries never make up more
    /// than half the table once it reaches [`RESIDENT_SWEEP_FLOOR`].
    pub(crate) fn adopt(&self, sha256: &str, module: Arc<T>) -> Arc<T> {
        let mut table = self.table();
        if let Some(live) = table.entries.get(sha256).and_then(Weak::upgrade) {
            return live;
        }
        if table.entries.len() >= table.sweep_at {
            table.entries.retain(|_, module| module.strong_count() > 0);
            table.sweep_at = (2 * table.entries.len()).max(RESIDENT_SWEEP_FLOOR);
        }
        table
            .entries
            .insert(sha256.to_owned(), Arc::downgrade(&module));
        module
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.table().entries.len()
    }
}

/// A validated, compiled bot, ready to be instantiated for any number of matches. Cheap to
/// share between threads.
#[derive(Clone)]
pub struct LoadedBot {
    name: String,
    info: ModuleInfo,
    compiled: Arc<Compiled>,
}

impl std::fmt::Debug for LoadedBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoadedBot")
            .field("name", &self.name)
            .field("info", &self.info)
            .finish()
    }
}

impl LoadedBot {
    /// The bot's name (its file stem unless given).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What was found while loading.
    pub fn info(&self) -> &ModuleInfo {
        &self.info
    }

    /// Whether `other` runs the very same compiled code: a bot loaded again from the same
    /// bytes by the same sandbox while this one is alive shares its module.
    pub fn same_code(&self, other: &LoadedBot) -> bool {
        Arc::ptr_eq(&self.compiled, &other.compiled)
    }

    /// Bytes of memory the compiled module takes (its code and data image): what keeping
    /// it loaded costs, for caches that bound it. Bots sharing a module (`same_code`) each
    /// report its whole size, so a sum over bots may count it more than once.
    pub fn compiled_bytes(&self) -> usize {
        let image = match &self.compiled.code {
            Code::Core { pre, .. } => pre.module().image_range(),
            Code::Component(pre) => pre.component().image_range(),
        };
        (image.end as usize).saturating_sub(image.start as usize)
    }

    /// Whether the bot is a component (a Python or JavaScript bot) rather than a core
    /// module.
    pub fn is_component(&self) -> bool {
        matches!(self.compiled.code, Code::Component(_))
    }

    /// A fresh player for one match (instantiated when the match starts): in a slot of
    /// the sandbox's instance pool, or from its on-demand allocator when every slot is
    /// taken (same limits, same results).
    pub fn player(&self, sandbox: &Sandbox) -> WasmBot {
        let (pre, fallback_pre) = match &self.compiled.code {
            Code::Core { pre, fallback } => (pre, fallback),
            Code::Component(pre) => {
                let (engine, _) = sandbox.component_runtime();
                return WasmBot::new(Pre::Component(pre.clone()), engine, None, sandbox);
            }
        };
        let core = |pre: &InstancePre<BotState>| Pre::Core(pre.clone());
        if let Some(slot) = sandbox.take_slot() {
            return WasmBot::new(core(pre), &sandbox.engine, Some(slot), sandbox);
        }
        let Some(fallback) = sandbox.fallback() else {
            return WasmBot::new(core(pre), &sandbox.engine, None, sandbox);
        };
        let moved = fallback_pre.get_or_init(|| {
            tracing::debug!(bot = %self.name, "instance pool full; instantiating on demand");
            on_demand(pre.module(), fallback)
        });
        match moved {
            Ok(moved) => WasmBot::new(core(moved), &fallback.engine, None, sandbox),
            Err(why) => {
                // Cannot happen short of a wasmtime bug (our own bytes, one compiler
                // configuration). The pooled runtime without a slot is then the only one
                // left: wasmtime refuses the instance if the pool is still full, and that
                // becomes the seat's `instantiation` fault, never a hang.
                tracing::error!(bot = %self.name, "cannot move the module to the on-demand runtime: {why}");
                WasmBot::new(core(pre), &sandbox.engine, None, sandbox)
            }
        }
    }
}

/// What a cache lookup gives the load: the compiled code on a hit, and why an entry was
/// refused (logged; the code is then compiled afresh).
fn taken<T>(bot: &str, lookup: Option<crate::cache::Lookup<T>>) -> (Option<T>, Option<String>) {
    match lookup {
        Some(crate::cache::Lookup::Hit(code)) => (Some(code), None),
        Some(crate::cache::Lookup::Refused(why)) => {
            tracing::warn!(bot = %bot, "refusing a module cache entry, recompiling: {why}");
            (None, Some(why))
        }
        Some(crate::cache::Lookup::Miss) | None => (None, None),
    }
}

/// `module` moved into the on-demand runtime: serialized by this process and deserialized
/// at once (pooling does not change compiled code, so both engines accept it).
fn on_demand(module: &Module, runtime: &crate::Runtime) -> Result<InstancePre<BotState>, String> {
    let bytes = module.serialize().map_err(|e| format!("{e:#}"))?;
    // SAFETY: these bytes were serialized just now, by this process, from a module that
    // this sandbox compiled or verified; the two engines share one compiler configuration.
    #[allow(unsafe_code)]
    let module =
        unsafe { Module::deserialize(&runtime.engine, &bytes) }.map_err(|e| format!("{e:#}"))?;
    runtime
        .linker
        .instantiate_pre(&module)
        .map_err(|e| format!("{e:#}"))
}

/// The ABI's exports: name and (params, results).
const REQUIRED_FUNCS: &[(&str, &[ValType], &[ValType])] = &[
    ("arena_abi_version", &[], &[ValType::I32]),
    ("arena_alloc", &[ValType::I32], &[ValType::I32]),
    ("arena_call", &[ValType::I32, ValType::I32], &[ValType::I64]),
];

/// The optional export through which a bot picks its encoding (docs/abi.md).
const OPTIONAL_ENCODING_FUNC: (&str, &[ValType], &[ValType]) =
    ("arena_encoding", &[ValType::I32], &[ValType::I32]);

/// The optional export of a WASI reactor, called once after instantiation (docs/abi.md).
const OPTIONAL_INITIALIZE_FUNC: (&str, &[ValType], &[ValType]) = ("_initialize", &[], &[]);

impl Sandbox {
    /// Load a bot from a `.wasm` or `.wat` file; its name is the file stem.
    pub fn load(&self, path: &Path) -> Result<LoadedBot, LoadError> {
        let bytes = std::fs::read(path).map_err(|error| LoadError::Io {
            path: path.display().to_string(),
            error,
        })?;
        let name = path.file_stem().map_or_else(
            || path.display().to_string(),
            |s| s.to_string_lossy().into_owned(),
        );
        self.load_bytes(&name, &bytes).map_err(|error| match error {
            // The WAT parser knows no file name; say which file the line and column are in.
            LoadError::NotWasm { bot, detail } => LoadError::NotWasm {
                bot,
                detail: detail.replace("<anon>", &path.display().to_string()),
            },
            other => other,
        })
    }

    /// Load a bot from the bytes of a `.wasm` or `.wat` file.
    pub fn load_bytes(&self, name: &str, bytes: &[u8]) -> Result<LoadedBot, LoadError> {
        let bot = name.to_owned();
        // What a module was built for, or a component's world, is its first problem: said
        // before any limit it also breaks.
        if let Some(detail) = foreign_build(bytes) {
            return Err(LoadError::Abi { bot, detail });
        }
        if crate::component::is_component(bytes)
            && let Some(detail) = crate::component::foreign_world(bytes)
        {
            return Err(LoadError::Abi { bot, detail });
        }
        // A binary's kind is in its header; WAT text may be either until parsed.
        let limit = if !bytes.starts_with(b"\0asm") {
            self.limits.module_bytes.max(self.limits.component_bytes)
        } else if crate::component::is_component(bytes) {
            self.limits.component_bytes
        } else {
            self.limits.module_bytes
        };
        let too_large = |limit: usize| LoadError::TooLarge {
            bot: name.to_owned(),
            size: bytes.len(),
            limit,
        };
        if bytes.len() > limit {
            return Err(too_large(limit));
        }
        let sha256 = hex::encode(Sha256::digest(bytes));
        // The same bytes, checked and compiled by this sandbox under the same limits and
        // compiler (`with_compiler` empties the table): share that module's code (the
        // checks below would find what they found then).
        let started = Instant::now();
        if let Some(compiled) = self.resident.get(&sha256) {
            let info = ModuleInfo {
                load_time: started.elapsed(),
                from_cache: true,
                cache_warning: None,
                ..compiled.info.clone()
            };
            return Ok(LoadedBot {
                name: bot,
                info,
                compiled,
            });
        }
        let binary = to_binary(&bot, bytes)?;
        if crate::component::is_component(&binary) {
            if let Some(detail) = crate::component::foreign_world(&binary) {
                return Err(LoadError::Abi { bot, detail });
            }
            if bytes.len() > self.limits.component_bytes {
                return Err(too_large(self.limits.component_bytes));
            }
            return self.load_component(bot, bytes, &binary, sha256);
        }
        if bytes.len() > self.limits.module_bytes {
            return Err(too_large(self.limits.module_bytes));
        }
        let shape = self.check_structure(&bot, &binary)?;
        if shape.largest_table > self.limits.table_elements as u64 {
            return Err(LoadError::Abi {
                bot,
                detail: format!(
                    "has a table of {} elements; the limit is {}",
                    shape.largest_table, self.limits.table_elements
                ),
            });
        }
        let started = Instant::now();
        let (cached, cache_warning) = taken(
            &bot,
            self.cache.as_ref().map(|c| c.get(&self.engine, &sha256)),
        );
        let from_cache = cached.is_some();
        let module = match cached {
            Some(module) => module,
            None => {
                let (module, compiled) = self.compile(&bot, &binary)?;
                if let Some(cache) = &self.cache {
                    cache.put(&self.engine, &sha256, &compiled);
                }
                module
            }
        };
        let load_time = started.elapsed();
        let initial_memory = validate(&bot, &module, self.limits.memory_bytes)?;
        let pre = self
            .linker
            .instantiate_pre(&module)
            .map_err(|e| LoadError::Abi {
                bot: bot.clone(),
                detail: format!("{e:#}"),
            })?;
        let info = ModuleInfo {
            size: bytes.len(),
            sha256,
            component: false,
            exports: module
                .exports()
                .map(|e| format!("{}: {}", e.name(), describe(&e.ty())))
                .collect(),
            imports: module
                .imports()
                .map(|i| format!("{}::{}: {}", i.module(), i.name(), describe(&i.ty())))
                .collect(),
            initial_memory,
            load_time,
            from_cache,
            cache_warning,
        };
        let compiled = self.resident.adopt(
            &info.sha256,
            Arc::new(Compiled {
                code: Code::Core {
                    pre,
                    fallback: OnceLock::new(),
                },
                info: info.clone(),
            }),
        );
        Ok(LoadedBot {
            name: bot,
            info,
            compiled,
        })
    }

    /// The rest of [`Sandbox::load_bytes`] for a component (its file's size already
    /// checked): `bytes` is the file, `binary` the component.
    fn load_component(
        &self,
        bot: String,
        bytes: &[u8],
        binary: &[u8],
        sha256: String,
    ) -> Result<LoadedBot, LoadError> {
        let shape = self.check_structure(&bot, binary)?;
        if shape.largest_table > self.limits.table_elements as u64 {
            return Err(LoadError::Abi {
                bot,
                detail: format!(
                    "has a table of {} elements; the limit is {}",
                    shape.largest_table, self.limits.table_elements
                ),
            });
        }
        let (engine, linker) = self.component_runtime();
        let started = Instant::now();
        let (cached, cache_warning) = taken(
            &bot,
            self.cache
                .as_ref()
                .map(|c| c.get_component(engine, &sha256)),
        );
        let from_cache = cached.is_some();
        let component = match cached {
            Some(component) => component,
            None => {
                let compiled = self.compile_code(&bot, binary, crate::compile::Kind::Component)?;
                // SAFETY: `compile_code` returns what wasmtime serialized for this engine
                // configuration, in this process or in our own compile child.
                #[allow(unsafe_code)]
                let component =
                    unsafe { wasmtime::component::Component::deserialize(engine, &compiled) }
                        .map_err(|e| LoadError::Invalid {
                            bot: bot.clone(),
                            detail: format!("{e:#}"),
                        })?;
                if let Some(cache) = &self.cache {
                    cache.put(engine, &sha256, &compiled);
                }
                component
            }
        };
        let load_time = started.elapsed();
        let abi = |detail: String| LoadError::Abi {
            bot: bot.clone(),
            detail,
        };
        let (imports, exports) = crate::component::validate(engine, &component).map_err(abi)?;
        let resources = component.resources_required();
        // The largest initial memory of any of its core modules (they are limited together
        // at run time, by the store's limiter).
        let initial_memory = resources
            .and_then(|r| r.max_initial_memory_size)
            .unwrap_or(0)
            .saturating_mul(64 << 10);
        if initial_memory > self.limits.memory_bytes as u64 {
            return Err(abi(format!(
                "asks for {} of initial memory; the limit is {}",
                bytes_text(initial_memory),
                bytes_text(self.limits.memory_bytes as u64)
            )));
        }
        let pre = linker
            .instantiate_pre(&component)
            .map_err(|e| abi(format!("{e:#}")))?;
        let info = ModuleInfo {
            size: bytes.len(),
            sha256,
            component: true,
            exports,
            imports,
            initial_memory,
            load_time,
            from_cache,
            cache_warning,
        };
        let compiled = self.resident.adopt(
            &info.sha256,
            Arc::new(Compiled {
                code: Code::Component(pre),
                info: info.clone(),
            }),
        );
        Ok(LoadedBot {
            name: bot,
            info,
            compiled,
        })
    }

    /// The structural check, its problems as load errors.
    fn check_structure(
        &self,
        bot: &str,
        binary: &[u8],
    ) -> Result<crate::structure::Shape, LoadError> {
        crate::structure::check(binary, &self.limits.structure).map_err(|problem| match problem {
            crate::structure::Problem::Malformed(detail) => LoadError::Invalid {
                bot: bot.to_owned(),
                detail,
            },
            crate::structure::Problem::Limit(limit) => LoadError::Structure {
                bot: bot.to_owned(),
                detail: limit.to_string(),
            },
        })
    }
}

impl Sandbox {
    /// Compile an untrusted module with this sandbox's [`Compiler`](crate::Compiler);
    /// returns the module and its serialized form (for the cache).
    fn compile(&self, bot: &str, binary: &[u8]) -> Result<(Module, Vec<u8>), LoadError> {
        let invalid = |detail: String| LoadError::Invalid {
            bot: bot.to_owned(),
            detail,
        };
        if self.compiler == crate::Compiler::InProcess {
            let module = Module::new(&self.engine, binary);
            self.prune_functions();
            let module = module.map_err(|e| invalid(format!("{e:#}")))?;
            let compiled = module.serialize().map_err(|e| invalid(format!("{e:#}")))?;
            return Ok((module, compiled));
        }
        let compiled = self.compile_code(bot, binary, crate::compile::Kind::Module)?;
        // SAFETY: these bytes were just written by our own compile child (this program,
        // re-executed) for this engine configuration; nothing else can write into the pipe.
        #[allow(unsafe_code)]
        let module = unsafe { Module::deserialize(&self.engine, &compiled) }
            .map_err(|e| invalid(format!("{e:#}")))?;
        Ok((module, compiled))
    }

    /// Keep the compiled functions in their bound after compiling in this process (a
    /// compile child prunes them itself).
    fn prune_functions(&self) {
        if let Some(functions) = &self.functions {
            functions.prune(crate::functions::CAP_BYTES);
        }
    }

    /// Compile untrusted code of `kind` with this sandbox's [`Compiler`](crate::Compiler)
    /// under the kind's compile limits; returns wasmtime's serialized form.
    fn compile_code(
        &self,
        bot: &str,
        binary: &[u8],
        kind: crate::compile::Kind,
    ) -> Result<Vec<u8>, LoadError> {
        let invalid = |detail: String| LoadError::Invalid {
            bot: bot.to_owned(),
            detail,
        };
        match &self.compiler {
            crate::Compiler::InProcess => {
                let engine = match kind {
                    crate::compile::Kind::Module => &self.engine,
                    crate::compile::Kind::Component => self.component_runtime().0,
                };
                let compiled = match kind {
                    crate::compile::Kind::Module => engine.precompile_module(binary),
                    crate::compile::Kind::Component => engine.precompile_component(binary),
                };
                self.prune_functions();
                compiled.map_err(|e| invalid(format!("{e:#}")))
            }
            crate::Compiler::Child(program) => {
                let limits = match kind {
                    crate::compile::Kind::Module => &self.limits.compile,
                    crate::compile::Kind::Component => &self.limits.component_compile,
                };
                let cache = self.cache.as_ref().map(|cache| cache.dir());
                crate::compile::in_child(
                    program,
                    binary,
                    kind,
                    limits,
                    self.limits.stack_bytes,
                    cache,
                )
                .map_err(|e| match e {
                    crate::compile::CompileError::Invalid(detail) => invalid(detail),
                    crate::compile::CompileError::Limit(detail) => LoadError::CompileLimit {
                        bot: bot.to_owned(),
                        detail,
                    },
                })
            }
        }
    }
}

/// The build a binary was made for, when it is one the arena cannot run whatever its size
/// and shape — Go's `js/wasm`, Emscripten's JavaScript glue — with what to build instead. Reads the header and the import section only.
fn foreign_build(bytes: &[u8]) -> Option<String> {
    if !bytes.starts_with(b"\0asm") {
        return None;
    }
    for payload in wasmparser::Parser::new(0).parse_all(bytes) {
        match payload {
            Ok(wasmparser::Payload::ImportSection(section)) => {
                let mut names = Vec::new();
                for group in section {
                    let Ok(group) = group else { return None };
                    for import in group {
                        let Ok((_, import)) = import else { return None };
                        names.push((import.module.to_owned(), import.name.to_owned()));
                    }
                }
                let go_js = names.iter().find(|(module, _)| module == "gojs");
                if let Some((module, name)) = go_js {
                    return Some(format!(
                        "is Go's js/wasm build (it imports {module}::{name}, JavaScript glue): build with \
                         GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared (docs/languages.md, Go)"
                    ));
                }
                let emscripten = names.iter().find(|(module, name)| {
                    module == "env"
                        && (name.starts_with("emscripten_")
                            || name.starts_with("invoke_")
                            || name.starts_with("__syscall_"))
                });
                if let Some((module, name)) = emscripten {
                    return Some(format!(
                        "is an Emscripten build (it imports {module}::{name}, JavaScript glue): build for \
                         wasm32-wasi (clang --target=wasm32-wasi, with wasi-libc) or freestanding wasm32 \
                         instead (docs/languages.md)"
                    ));
                }
                return None;
            }
            // Imports come before any code: past them there is nothing to find.
            Ok(wasmparser::Payload::CodeSectionStart { .. }) | Err(_) => return None,
            Ok(_) => {}
        }
    }
    None
}

fn to_binary<'a>(bot: &str, bytes: &'a [u8]) -> Result<std::borrow::Cow<'a, [u8]>, LoadError> {
    if bytes.starts_with(b"\0asm") {
        return Ok(bytes.into());
    }
    let not_wasm = |detail: String| LoadError::NotWasm {
        bot: bot.to_owned(),
        detail,
    };
    let text = std::str::from_utf8(bytes).map_err(|_| not_wasm("the file is binary".into()))?;
    wat::parse_str(text)
        .map(Into::into)
        .map_err(|e| not_wasm(e.to_string()))
}

/// Check imports, exports and memory against the ABI; returns the initial memory size.
fn validate(bot: &str, module: &Module, memory_limit: usize) -> Result<u64, LoadError> {
    let abi = |detail: String| LoadError::Abi {
        bot: bot.to_owned(),
        detail,
    };
    let mut forbidden = Vec::new();
    for import in module.imports() {
        if import.module() == "arena" && import.name() == "log" {
            if !matches!(import.ty(), ExternType::Func(ref f) if same_signature(f, &[ValType::I32, ValType::I32], &[]))
            {
                return Err(abi(format!(
                    "imports arena::log as {}; it must be (func (param i32 i32))",
                    describe(&import.ty())
                )));
            }
        } else if import.module() == "arena"
            && [crate::bot::FUEL_LEFT, crate::bot::FUEL_BUDGET].contains(&import.name())
        {
            if !matches!(import.ty(), ExternType::Func(ref f) if same_signature(f, &[], &[ValType::I64]))
            {
                return Err(abi(format!(
                    "imports arena::{} as {}; it must be (func (result i64))",
                    import.name(),
                    describe(&import.ty())
                )));
            }
        } else if let Some((params, results)) = (import.module() == crate::wasi::MODULE)
            .then(|| crate::wasi::signature(import.name()))
            .flatten()
        {
            if !matches!(import.ty(), ExternType::Func(ref f) if same_signature(f, params, results))
            {
                return Err(abi(format!(
                    "imports {}::{} as {}; WASI preview 1 defines it as {}",
                    import.module(),
                    import.name(),
                    describe(&import.ty()),
                    signature(params, results)
                )));
            }
        } else {
            forbidden.push(format!("{}::{}", import.module(), import.name()));
        }
    }
    if !forbidden.is_empty() {
        // The usual cause is a toolchain's default target, which links a runtime of its own.
        let hint = if forbidden.iter().any(|i| i.starts_with("wasi")) {
            "; of WASI only preview 1 (wasi_snapshot_preview1) is available: build for wasm32-wasip1 or wasm32-unknown-unknown"
        } else if forbidden.iter().any(|i| i == "env::abort") {
            "; AssemblyScript imports env::abort: build with `--use abort=` (or point it at your own function)"
        } else if forbidden.iter().any(|i| i.starts_with("env::")) {
            "; env:: imports come from a toolchain's JavaScript glue (Emscripten, Go's js/wasm): build for wasm32-wasip1 or wasm32-unknown-unknown instead"
        } else {
            ""
        };
        return Err(abi(format!(
            "imports {}; bots may import only arena::log, arena::fuel_left, arena::fuel_budget and WASI preview 1 (docs/abi.md, WASI){hint}",
            forbidden.join(", ")
        )));
    }
    let memory = match module.get_export("memory") {
        Some(ExternType::Memory(memory)) => memory,
        Some(other) => {
            return Err(abi(format!(
                "export `memory` is a {}, expected a memory",
                describe(&other)
            )));
        }
        None => return Err(abi("missing export `memory`".into())),
    };
    if memory.is_64() || memory.is_shared() {
        return Err(abi(
            "export `memory` must be a 32-bit, unshared memory".into()
        ));
    }
    let initial_memory = memory.minimum().saturating_mul(memory.page_size());
    if initial_memory > memory_limit as u64 {
        return Err(abi(format!(
            "asks for {} of initial memory; the limit is {}",
            bytes_text(initial_memory),
            bytes_text(memory_limit as u64)
        )));
    }
    for &(name, params, results) in REQUIRED_FUNCS {
        let expected = signature(params, results);
        match module.get_export(name) {
            Some(ExternType::Func(f)) if same_signature(&f, params, results) => {}
            Some(other) => {
                return Err(abi(format!(
                    "export `{name}` is {}, expected {expected}",
                    describe(&other)
                )));
            }
            None => return Err(abi(format!("missing export `{name}` {expected}"))),
        }
    }
    // Optional, but typed: a bot that offers encodings must be callable as the ABI says,
    // and a WASI reactor's initializer is called with nothing and returns nothing.
    for (name, params, results) in [OPTIONAL_ENCODING_FUNC, OPTIONAL_INITIALIZE_FUNC] {
        match module.get_export(name) {
            Some(ExternType::Func(f)) if same_signature(&f, params, results) => {}
            Some(other) => {
                return Err(abi(format!(
                    "export `{name}` is {}, expected {}",
                    describe(&other),
                    signature(params, results)
                )));
            }
            None => {}
        }
    }
    Ok(initial_memory)
}

/// A memory size as people read it: whole MiB, else KiB (a wasm page is 64 KiB), so that
/// an initial memory just over the limit never reads as equal to it.
fn bytes_text(n: u64) -> String {
    if n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else {
        format!("{} KiB", n >> 10)
    }
}

fn same_signature(f: &FuncType, params: &[ValType], results: &[ValType]) -> bool {
    let eq = |a: ValType, b: &ValType| ValType::eq(&a, b);
    f.params().len() == params.len()
        && f.results().len() == results.len()
        && f.params().zip(params).all(|(a, b)| eq(a, b))
        && f.results().zip(results).all(|(a, b)| eq(a, b))
}

fn signature(params: &[ValType], results: &[ValType]) -> String {
    let list = |types: &[ValType]| {
        types
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = "(func".to_owned();
    if !params.is_empty() {
        out += &format!(" (param {})", list(params));
    }
    if !results.is_empty() {
        out += &format!(" (result {})", list(results));
    }
    out + ")"
}

fn describe(ty: &ExternType) -> String {
    match ty {
        ExternType::Func(f) => signature(
            &f.params().collect::<Vec<_>>(),
            &f.results().collect::<Vec<_>>(),
        ),
        ExternType::Memory(m) => format!("(memory {} pages)", m.minimum()),
        ExternType::Table(t) => format!("(table {})", t.minimum()),
        ExternType::Global(g) => format!("(global {})", g.content()),
        ExternType::Tag(_) => "(tag)".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_resident_table_shares_live_modules_and_sweeps_the_dead() {
        let table = Resident::<u32>::default();
        let first = table.adopt("a", Arc::new(1));
        // A second compile of the same bytes adopts the live module.
        let second = table.adopt("a", Arc::new(2));
        assert!(Arc::ptr_eq(&first, &second));
        assert_eq!(table.get("a").as_deref(), Some(&1));
        drop((first, second));
        assert_eq!(table.get("a"), None, "the table holds no module alive");
        let replaced = table.adopt("a", Arc::new(3));
        assert_eq!(table.get("a").as_deref(), Some(&3));

        // Thousands of modules loaded and dropped one after the other (a server's
        // uploads): the table stays at the floor.
        for i in 0..5000 {
            table.adopt(&format!("gone-{i}"), Arc::new(i));
            assert!(
                table.len() <= RESIDENT_SWEEP_FLOOR + 1,
                "{} entries",
                table.len()
            );
        }
        // With many alive, the dead never make up more than about half.
        let alive: Vec<Arc<u32>> = (0..100)
            .map(|i| table.adopt(&format!("kept-{i}"), Arc::new(i)))
            .collect();
        for i in 0..1000 {
            table.adopt(&format!("dropped-{i}"), Arc::new(i));
            assert!(
                table.len() <= 2 * (alive.len() + 1) + 1,
                "{} entries",
                table.len()
            );
        }
        assert!(alive.iter().enumerate().all(|(i, m)| {
            table
                .get(&format!("kept-{i}"))
                .is_some_and(|live| Arc::ptr_eq(&live, m))
        }));
        assert_eq!(table.get("a").as_deref(), Some(&3));
        drop(replaced);
    }
}
