//! Compiling untrusted modules in a child process with hard limits on CPU time, memory and
//! wall time, so no module can stall or exhaust the host whatever its shape.
//!
//! The child is a program that calls [`serve_if_requested`] first thing in `main` (the
//! `arena` binary does): run with the hidden argument [`SUBCOMMAND`], it lowers its own
//! rlimits (address space, CPU seconds, no core dump), reads a wasm binary (a core module
//! or a component) on stdin, compiles it with the same engine configuration as the parent
//! and writes wasmtime's serialized module or component to stdout. The parent kills it at the wall-clock limit, and only
//! deserializes what its own child wrote (wasmtime's `Module::deserialize` trusts its
//! input, so bytes from anywhere else never reach it; see `cache.rs` for the cache).
//!
//! Which program: [`Compiler::default`] is the program that called
//! [`serve_if_requested`] (so `arena` compiles in `arena`), else `$ARENA_COMPILER` if set,
//! else in process — test binaries and benches that load only trusted sample bots.
//! A library user sets it with [`Sandbox::with_compiler`](crate::Sandbox::with_compiler).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The hidden first argument that makes a program a compile child.
pub const SUBCOMMAND: &str = "__arena-compile-module";

static SERVING_PROGRAM: OnceLock<PathBuf> = OnceLock::new();

/// Where untrusted modules are compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Compiler {
    /// In this process: bounded only by the structural limits. For trusted modules.
    InProcess,
    /// In a child process running this program (which must call [`serve_if_requested`]),
    /// under [`CompileLimits`].
    Child(PathBuf),
}

impl Default for Compiler {
    fn default() -> Self {
        if let Some(program) = SERVING_PROGRAM.get() {
            return Compiler::Child(program.clone());
        }
        match std::env::var_os("ARENA_COMPILER") {
            Some(program) if !program.is_empty() => Compiler::Child(program.into()),
            _ => Compiler::InProcess,
        }
    }
}

/// Hard bounds on compiling one module in a child process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileLimits {
    /// CPU time of the child (all its threads).
    pub cpu: Duration,
    /// Wall-clock time before the child is killed.
    pub wall: Duration,
    /// Address space of the child, in bytes.
    pub memory_bytes: u64,
}

impl Default for CompileLimits {
    fn default() -> Self {
        // A 0.3 MB sample bot compiles in well under a second and 200 MiB.
        CompileLimits {
            cpu: Duration::from_secs(20),
            wall: Duration::from_secs(40),
            memory_bytes: 2 << 30,
        }
    }
}

impl CompileLimits {
    /// The default bounds of compiling a component (a Python or JavaScript bot).
    pub fn for_components() -> Self {
        // componentize-py's CPython (19 MB, 38 core modules, 13,000 functions) takes
        // about 13 s of CPU and 1 GiB; jco's QuickJS (1.6 MB) about 1 s.
        CompileLimits {
            cpu: Duration::from_secs(60),
            wall: Duration::from_secs(120),
            memory_bytes: 4 << 30,
        }
    }
}

/// What a compile child compiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A core module.
    Module,
    /// A component.
    Component,
}

impl Kind {
    fn arg(self) -> &'static str {
        match self {
            Kind::Module => "module",
            Kind::Component => "component",
        }
    }
}

/// Compilation failed: the module is invalid, or it broke a compile limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompileError {
    /// wasmtime rejected the module (its message).
    Invalid(String),
    /// The child broke a limit or failed (what happened).
    Limit(String),
}

/// If this process was started as a compile child, compile and exit; otherwise remember
/// this program as the one to re-execute for compiling. Call it first in `main`.
pub fn serve_if_requested() {
    let mut args = std::env::args_os();
    let _program = args.next();
    if args.next().as_deref() == Some(SUBCOMMAND.as_ref()) {
        let code = match child(args.collect()) {
            Ok(()) => 0,
            Err(message) => {
                let _ = writeln!(std::io::stderr(), "{message}");
                1
            }
        };
        std::process::exit(code);
    }
    if let Ok(program) = std::env::current_exe() {
        let _ = SERVING_PROGRAM.set(program);
    }
}

fn child(args: Vec<std::ffi::OsString>) -> Result<(), String> {
    let arg = |i: usize| -> Result<u64, String> {
        args.get(i)
            .and_then(|a| a.to_str())
            .and_then(|a| a.parse().ok())
            .ok_or_else(|| {
                format!(
                    "{SUBCOMMAND}: expected STACK_BYTES CPU_SECONDS MEMORY_BYTES module|component [CACHE_DIR]"
                )
            })
    };
    let (stack_bytes, cpu_seconds, memory_bytes) = (arg(0)?, arg(1)?, arg(2)?);
    let component = match args.get(3).and_then(|a| a.to_str()) {
        Some("module") => false,
        Some("component") => true,
        _ => {
            return Err(format!(
                "{SUBCOMMAND}: expected STACK_BYTES CPU_SECONDS MEMORY_BYTES module|component [CACHE_DIR]"
            ));
        }
    };
    set_rlimits(cpu_seconds, memory_bytes)?;
    let mut binary = Vec::new();
    std::io::stdin()
        .read_to_end(&mut binary)
        .map_err(|e| format!("cannot read the module: {e}"))?;
    let mut config = crate::engine_config(stack_bytes as usize);
    // With the parent's module cache: its compiled functions (`functions.rs`).
    let functions = args.get(4).and_then(|dir| {
        crate::function_cache(
            &crate::ModuleCache::new(PathBuf::from(dir)),
            stack_bytes as usize,
        )
    });
    if let Some(functions) = &functions {
        config
            .enable_incremental_compilation(functions.clone())
            .map_err(|e| format!("cannot set up the wasm engine: {e:#}"))?;
    }
    let engine = wasmtime::Engine::new(&config)
        .map_err(|e| format!("cannot set up the wasm engine: {e:#}"))?;
    let compiled = if component {
        engine.precompile_component(&binary)
    } else {
        engine.precompile_module(&binary)
    }
    .map_err(|e| format!("{e:#}"))?;
    if let Some(functions) = &functions {
        functions.prune(crate::functions::CAP_BYTES);
    }
    std::io::stdout()
        .write_all(&compiled)
        .and_then(|()| std::io::stdout().flush())
        .map_err(|e| format!("cannot write the compiled module: {e}"))
}

#[cfg(unix)]
fn set_rlimits(cpu_seconds: u64, memory_bytes: u64) -> Result<(), String> {
    use rustix::process::{Resource, Rlimit, setrlimit};
    let set = |resource, soft: u64, hard: u64| {
        setrlimit(
            resource,
            Rlimit {
                current: Some(soft),
                maximum: Some(hard),
            },
        )
        .map_err(|e| format!("cannot set the compile limit {resource:?}: {e}"))
    };
    set(Resource::Core, 0, 0)?;
    // The soft CPU limit sends SIGXCPU (fatal); the hard one a second later SIGKILL.
    set(Resource::Cpu, cpu_seconds.max(1), cpu_seconds.max(1) + 1)?;
    set(Resource::As, memory_bytes, memory_bytes)
}

#[cfg(not(unix))]
fn set_rlimits(_cpu_seconds: u64, _memory_bytes: u64) -> Result<(), String> {
    // Elsewhere only the parent's wall-clock limit applies.
    Ok(())
}

/// Compile `binary` in a child running `program`, with the compiled functions of the
/// module cache in `cache` if given; returns wasmtime's serialized module.
pub(crate) fn in_child(
    program: &Path,
    binary: &[u8],
    kind: Kind,
    limits: &CompileLimits,
    stack_bytes: usize,
    cache: Option<&Path>,
) -> Result<Vec<u8>, CompileError> {
    let failed = |what: String| CompileError::Limit(what);
    let mut child = Command::new(program);
    child
        .arg(SUBCOMMAND)
        .arg(stack_bytes.to_string())
        .arg(limits.cpu.as_secs().max(1).to_string())
        .arg(limits.memory_bytes.to_string())
        .arg(kind.arg());
    if let Some(cache) = cache {
        child.arg(cache);
    }
    let mut child = child
        // glibc reserves 64 MiB of address space per malloc arena and thread; two arenas
        // keep that from eating the address-space limit.
        .env("MALLOC_ARENA_MAX", "2")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            failed(format!(
                "cannot start the compiler process {}: {e}",
                program.display()
            ))
        })?;
    let mut stdin = child.stdin.take().expect("piped");
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let started = Instant::now();
    let (status, output, message) = std::thread::scope(|scope| {
        scope.spawn(move || {
            // A child that dies early closes the pipe; its status says why.
            let _ = stdin.write_all(binary);
        });
        let cap = limits.memory_bytes;
        let output = scope.spawn(move || {
            let mut bytes = Vec::new();
            let _ = (&mut stdout).take(cap).read_to_end(&mut bytes);
            bytes
        });
        let message = scope.spawn(move || {
            let mut bytes = Vec::new();
            let _ = (&mut stderr).take(16 << 10).read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).trim().to_owned()
        });
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Ok(status),
                Ok(None) if started.elapsed() >= limits.wall => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break Err(failed(format!(
                        "compiling took longer than the limit of {} s",
                        limits.wall.as_secs_f64()
                    )));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(e) => {
                    let _ = child.kill();
                    break Err(failed(format!("cannot wait for the compiler process: {e}")));
                }
            }
        };
        (
            status,
            output.join().unwrap_or_default(),
            message.join().unwrap_or_default(),
        )
    });
    let status = status?;
    if status.success() && !output.is_empty() {
        return Ok(output);
    }
    let memory = format!(
        "compiling ran out of its memory limit of {} MiB",
        limits.memory_bytes >> 20
    );
    let lower = message.to_lowercase();
    if [
        "memory allocation of",
        "out of memory",
        "cannot allocate memory",
        "failed to allocate",
        "mmap",
    ]
    .iter()
    .any(|m| lower.contains(m))
    {
        return Err(failed(memory));
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        match status.signal() {
            Some(24) => {
                return Err(failed(format!(
                    "compiling used more than the limit of {} s of CPU time",
                    limits.cpu.as_secs().max(1)
                )));
            }
            Some(9) if started.elapsed() >= limits.cpu => {
                return Err(failed(format!(
                    "compiling used more than the limit of {} s of CPU time",
                    limits.cpu.as_secs().max(1)
                )));
            }
            // Allocation failures abort; a failed mmap for a thread stack or code can
            // also end in a segfault under the address-space limit.
            Some(6 | 11) => return Err(failed(memory)),
            Some(signal) => {
                return Err(failed(format!(
                    "the compiler process died of signal {signal}"
                )));
            }
            None => {}
        }
    }
    if status.code() == Some(1) && !message.is_empty() {
        return Err(CompileError::Invalid(message));
    }
    Err(failed(format!(
        "the compiler process failed ({status}){}",
        if message.is_empty() {
            String::new()
        } else {
            format!(": {message}")
        }
    )))
}
