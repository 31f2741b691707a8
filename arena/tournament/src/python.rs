//! Building a Python bot directory (one with `bot.py`) into a WebAssembly component of
//! `docs/wit/arena-bot.wit` with componentize-py: CPython and the bot's modules in one
//! component that imports nothing but the world's `log` (`--stub-wasi`).
//!
//! The arena brings the Python SDK (`sdk/python`: the app module `arena_main`, which
//! imports the bot's `bot.py`) and the WIT world itself: both are compiled into this
//! binary and written out for each build. An `arena` installed away from its checkout
//! then builds Python bots as well as one run from it, always against the SDK and world
//! it was built with; a bot directory holds only the bot's own files (Go's bots name
//! their SDK in `go.mod` instead, which a Python directory has no place for).
//!
//! The build is kept in the directory's `target/arena-python/` under the SHA-256 of
//! everything it is made from — componentize-py's version, the SDK's files, the WIT world
//! and every file of the directory but its `target/`, `.git/` and `__pycache__/`
//! (componentize-py writes the latter itself while it builds) — so an unchanged bot is not
//! built again, and a changed one always is. Only the current build is kept (19 MB each).

use crate::bot_error::BotError;
use crate::build_cache::framed;
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The componentize-py release the SDK and the starter are tested with (PyPI).
pub const COMPONENTIZE_PY_VERSION: &str = "0.25.1";

/// The command that installs it.
pub const INSTALL: &str = "python3 -m pip install componentize-py==0.25.1";
/// [`INSTALL`] where the system's Python is externally managed (Debian 12, Ubuntu 23.04
/// and later refuse a plain `pip install`): a virtual environment of the arena's tools.
pub const VENV_INSTALL: &str =
    "python3 -m venv ~/.arena-tools && ~/.arena-tools/bin/pip install componentize-py==0.25.1";

/// The app module componentize-py builds: the SDK's, which imports the bot's `bot.py`.
pub const APP_MODULE: &str = "arena_main";

/// The WIT world bots are components of.
pub const WORLD: &str = "bot";

/// `(path, text)` of each file named, relative to `sdk/python`, compiled in.
macro_rules! sdk_files {
    ($($file:literal),* $(,)?) => {
        &[$(($file, include_str!(concat!("../../../sdk/python/", $file)))),*]
    };
}

/// The SDK's files (relative to `sdk/python`), as this binary was built with them; a test
/// (`tests/python.rs`) checks that they are every file of `sdk/python`.
pub const SDK_FILES: &[(&str, &str)] = sdk_files![
    "arena_main.py",
    "arena/__init__.py",
    "arena/_runtime.py",
    "arena/_wire.py",
    "arena/types.py",
    "arena/battle/__init__.py",
    "arena/battle/types.py",
    "arena/tcg/__init__.py",
    "arena/tcg/types.py",
    "arena/grid/__init__.py",
    "arena/grid/types.py",
    "arena/dungeon/__init__.py",
    "arena/dungeon/types.py",
    "arena/conquest/__init__.py",
    "arena/conquest/types.py",
];

/// `docs/wit/arena-bot.wit`, as this binary was built with it.
pub const WIT: &str = include_str!("../../../docs/wit/arena-bot.wit");

/// A build taking longer than this is stopped (a build takes 10–20 s), unless
/// `$ARENA_PYTHON_BUILD_TIMEOUT` gives another number of seconds.
pub const BUILD_TIMEOUT: Duration = Duration::from_secs(300);

/// [`BUILD_TIMEOUT`], or `$ARENA_PYTHON_BUILD_TIMEOUT` seconds.
fn build_timeout() -> Duration {
    std::env::var("ARENA_PYTHON_BUILD_TIMEOUT")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .map_or(BUILD_TIMEOUT, Duration::from_secs)
}

/// Files hashed for one build at most.
const MAX_SOURCE_FILES: usize = 20_000;

/// The arguments of a build after `-d WIT_DIR` and before `-p SDK_DIR -p BOT_DIR -o
/// OUT.wasm` (`tests/build.rs` builds the test bots the same way, which a test compares).
pub const BUILD_ARGS: [&str; 5] = ["-w", WORLD, "componentize", APP_MODULE, "--stub-wasi"];

/// The arguments of a build before `-o OUT.wasm`, given the WIT directory, the SDK
/// directory and the bot's directory.
pub fn build_args(wit: &Path, sdk: &Path, bot: &Path) -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = vec!["-d".into(), wit.into()];
    args.extend(BUILD_ARGS.iter().map(Into::into));
    for dir in [sdk, bot] {
        args.push("-p".into());
        args.push(dir.into());
    }
    args
}

/// Variables removed from componentize-py's environment: all that start with one of
/// [`ENV_REMOVED_PREFIXES`] and those of [`ENV_REMOVED`].
///
/// componentize-py is a Python program: `PYTHONPATH` would put the caller's modules before
/// its own (a `json.py` there shadows the standard library it runs on), `PYTHONHOME` points
/// it at another Python's standard library, `PYTHONSTARTUP`, `PYTHONINSPECT` and
/// `PYTHONBREAKPOINT` run code of the caller's or wait at a prompt, `PYTHONVERBOSE`,
/// `PYTHONWARNINGS` and `PYTHONDEBUG` change what it prints (and so the error a user
/// sees) — every `PYTHON*` variable goes, so that only the files hashed make the build.
/// Its Rust side reads `RUST_BACKTRACE`, `RUST_LIB_BACKTRACE` and
/// `WASMTIME_BACKTRACE_DETAILS`, which change its error text.
pub const ENV_REMOVED_PREFIXES: [&str; 1] = ["PYTHON"];

/// Single variables removed from componentize-py's environment (see
/// [`ENV_REMOVED_PREFIXES`]).
pub const ENV_REMOVED: [&str; 3] = [
    "RUST_BACKTRACE",
    "RUST_LIB_BACKTRACE",
    "WASMTIME_BACKTRACE_DETAILS",
];

/// Variables set in componentize-py's environment: its Python writes no bytecode next to
/// its own modules.
pub const ENV_SET: [(&str, &str); 1] = [("PYTHONDONTWRITEBYTECODE", "1")];

/// Whether a variable of the caller's environment is removed from componentize-py's.
pub fn removed_from_env(name: &str) -> bool {
    ENV_REMOVED_PREFIXES.iter().any(|p| name.starts_with(p)) || ENV_REMOVED.contains(&name)
}

/// A componentize-py command with the environment cleared of what could change a build.
fn command(program: &Path) -> Command {
    let mut command = Command::new(program);
    for (name, _) in std::env::vars_os() {
        if name.to_str().is_none_or(removed_from_env) {
            command.env_remove(&name);
        }
    }
    command.envs(ENV_SET);
    command
}

/// The `componentize-py` program as an absolute path: `$ARENA_COMPONENTIZE_PY` if set,
/// else `componentize-py` in the first absolute directory of the `PATH` that has it.
/// Never a relative path: a bot directory could bring a program of that name.
pub fn program() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("ARENA_COMPONENTIZE_PY") {
        return std::path::absolute(PathBuf::from(&path))
            .map_err(|e| format!("ARENA_COMPONENTIZE_PY={}: {e}", Path::new(&path).display()));
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join("componentize-py"))
        .find(|program| program.is_file())
        .ok_or_else(|| {
            format!(
                "componentize-py is needed to build a Python bot and is not on the PATH: {}",
                install_hint()
            )
        })
}

fn install_hint() -> String {
    format!(
        "install it with `{INSTALL}` (then `componentize-py` is on the PATH) or, where the system's Python is externally managed (Debian 12, Ubuntu 23.04 and later), with `{VENV_INSTALL}` (then add `~/.arena-tools/bin` to the PATH); or point ARENA_COMPONENTIZE_PY at its `componentize-py` program"
    )
}

/// componentize-py's version (`0.25.1`), or why there is no usable one.
pub fn version(program: &Path) -> Result<String, String> {
    let output = command(program)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| {
            format!(
                "componentize-py is needed to build a Python bot and {} cannot run ({e}): {}",
                program.display(),
                install_hint()
            )
        })?;
    let text = String::from_utf8_lossy(&output.stdout);
    let version = text
        .trim()
        .strip_prefix("componentize-py ")
        .map(str::to_owned);
    match version {
        Some(version) if output.status.success() && version == COMPONENTIZE_PY_VERSION => {
            Ok(version)
        }
        Some(version) if output.status.success() => Err(format!(
            "componentize-py {version} is not the tested {COMPONENTIZE_PY_VERSION} (the SDK's bindings depend on it): {}",
            install_hint()
        )),
        _ => Err(format!(
            "`{} --version` did not say its version ({}): {}",
            program.display(),
            String::from_utf8_lossy(&output.stderr).trim(),
            install_hint()
        )),
    }
}

/// Every file under `dir` but its top-level `target/`, any `.git/` and any `__pycache__/`,
/// relative to `dir` and sorted.
fn source_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut stack = vec![dir.to_path_buf()];
    let mut files = Vec::new();
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at)? {
            let entry = entry?;
            let path = entry.path();
            // A link to a directory is followed as the build would follow it.
            let is_dir = path.is_dir();
            let skipped = entry.file_name() == ".git"
                || entry.file_name() == "__pycache__"
                || path == dir.join("target");
            if is_dir && !skipped {
                stack.push(path);
            } else if !is_dir {
                if files.len() == MAX_SOURCE_FILES {
                    return Err(std::io::Error::other(format!(
                        "more than {MAX_SOURCE_FILES} files to build from"
                    )));
                }
                files.push(path.strip_prefix(dir).unwrap_or(&path).to_path_buf());
            }
        }
    }
    files.sort();
    Ok(files)
}

/// Add `files` of `dir` to `hash` by relative path and content.
fn hash_sources(dir: &Path, files: &[PathBuf], hash: &mut Sha256) -> std::io::Result<()> {
    framed(hash, &(files.len() as u64).to_le_bytes());
    for file in files {
        framed(hash, file.to_string_lossy().as_bytes());
        framed(hash, &std::fs::read(dir.join(file))?);
    }
    Ok(())
}

/// The build's key: what it is made from, hashed.
fn build_key(version: &str, dir: &Path, files: &[PathBuf]) -> std::io::Result<String> {
    let mut hash = Sha256::new();
    framed(&mut hash, b"arena python build v1");
    framed(&mut hash, version.as_bytes());
    for (name, text) in SDK_FILES {
        framed(&mut hash, name.as_bytes());
        framed(&mut hash, text.as_bytes());
    }
    framed(&mut hash, WIT.as_bytes());
    hash_sources(dir, files, &mut hash)?;
    Ok(hex::encode(hash.finalize()))
}

/// Write what one build reads under `at`: the WIT world (`at/wit/arena-bot.wit`), the SDK
/// (`at/python/…`) and a copy of the bot's `files` (`at/bot/…`), so that componentize-py
/// writes its `__pycache__/` there and not among the bot's sources.
fn write_sources(
    at: &Path,
    dir: &Path,
    files: &[PathBuf],
) -> std::io::Result<(PathBuf, PathBuf, PathBuf)> {
    let sdk = at.join("python");
    let wit = at.join("wit");
    let bot = at.join("bot");
    std::fs::create_dir_all(&wit)?;
    std::fs::write(wit.join("arena-bot.wit"), WIT)?;
    for (name, text) in SDK_FILES {
        let path = sdk.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, text)?;
    }
    for file in files {
        let path = bot.join(file);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::copy(dir.join(file), path)?;
    }
    std::fs::create_dir_all(&bot)?;
    Ok((wit, sdk, bot))
}

/// componentize-py's error made readable: the Python traceback of its own script is cut
/// (the guest's follows `AssertionError: `), and the guest's paths of the SDK (`/0/`) and
/// of the bot's directory (`/1/`) are shown as the bot's path and `<arena sdk>/`.
pub fn readable_error(stderr: &str, dir: &Path) -> String {
    let text = stderr.trim();
    let text = match (text.starts_with("Traceback"), text.find("AssertionError: ")) {
        (true, Some(at)) => &text[at + "AssertionError: ".len()..],
        _ => text,
    };
    let text = text.trim();
    // Only the cause (an exception while the bot's modules were imported, whose traceback
    // the SDK's log took): the cause alone.
    let text = match text.strip_prefix("Caused by:") {
        Some(cause) => cause
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n"),
        None => text.to_owned(),
    };
    text.replace("\"/1/", &format!("\"{}/", dir.display()))
        .replace("\"/0/", "\"<arena sdk>/")
        .trim()
        .to_owned()
}

/// What to do about a module the build did not find (nothing for another error): a bot has
/// the standard library, the SDK and its own directory, where a pure-Python package can be
/// put with pip.
fn missing_module_hint(detail: &str, dir: &Path) -> String {
    if !detail.contains("ModuleNotFoundError: No module named ") {
        return String::new();
    }
    format!(
        "\n  a Python bot has Python's standard library (without ctypes), the arena SDK and \
         the modules of its own directory; put a pure-Python package there with \
         `python3 -m pip install --target {} PACKAGE` (packages with compiled extensions, \
         such as numpy, cannot be used)",
        dir.display()
    )
}

/// Run `command` to its end, or kill it after `limit`: (whether it succeeded, `None` if it
/// was stopped; its stderr).
fn run_bounded(mut command: Command, limit: Duration) -> std::io::Result<(Option<bool>, String)> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stderr = child.stderr.take().expect("piped");
    // Read while it runs, so a full pipe never stalls it.
    let read = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let reader = std::thread::spawn({
        let read = std::sync::Arc::clone(&read);
        move || {
            let mut chunk = [0u8; 8192];
            while let Ok(n) = stderr.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                read.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .extend_from_slice(&chunk[..n]);
            }
        }
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if started.elapsed() >= limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    // After a kill the pipe may stay open in a process the child started: what was read
    // so far is all there is, and the reader is left to end with that process.
    if status.is_some() {
        let _ = reader.join();
    }
    let stderr =
        String::from_utf8_lossy(&read.lock().unwrap_or_else(|e| e.into_inner())).into_owned();
    Ok((status.map(|s| s.success()), stderr))
}

/// Build the Python bot in `dir` (or reuse its build of the same sources); the
/// component's path.
pub fn build_python(dir: &Path) -> Result<PathBuf, BotError> {
    let fail = |detail: String| BotError::Build {
        dir: dir.display().to_string(),
        detail,
    };
    let io = |at: &Path, e: std::io::Error| fail(format!("{}: {e}", at.display()));
    if !dir.join("bot.py").is_file() {
        return Err(fail(
            "no bot.py: a Python bot is a directory with bot.py".into(),
        ));
    }
    let program = program().map_err(fail)?;
    let version = version(&program).map_err(fail)?;
    let files = source_files(dir).map_err(|e| io(dir, e))?;
    let key = build_key(&version, dir, &files).map_err(|e| io(dir, e))?;
    let dir = &std::path::absolute(dir).map_err(|e| io(dir, e))?;
    let out_dir = dir.join("target/arena-python");
    let wasm = out_dir.join(format!("{}.wasm", &key[..32]));
    if wasm.is_file() {
        return Ok(wasm);
    }
    std::fs::create_dir_all(&out_dir).map_err(|e| io(&out_dir, e))?;
    if crate::build_cache::from_shared("python", &key, &wasm) {
        crate::build_cache::keep_only(&out_dir, &wasm);
        return Ok(wasm);
    }
    let own = crate::build_cache::own_name(&key[..32]);
    let partial = out_dir.join(format!("{own}.partial"));
    let sources = out_dir.join(format!("{own}.sdk"));
    let (wit, sdk, bot) = write_sources(&sources, dir, &files).map_err(|e| io(&sources, e))?;
    tracing::info!(dir = %dir.display(), %version, "building Python bot with componentize-py");
    let mut build = command(&program);
    build
        .args(build_args(&wit, &sdk, &bot))
        .arg("-o")
        .arg(&partial)
        .current_dir(&sources);
    let timeout = build_timeout();
    let outcome = run_bounded(build, timeout);
    let _ = std::fs::remove_dir_all(&sources);
    let (ok, stderr) =
        outcome.map_err(|e| fail(format!("cannot run {}: {e}", program.display())))?;
    let Some(ok) = ok else {
        let _ = std::fs::remove_file(&partial);
        return Err(fail(format!(
            "componentize-py did not finish in {} s and was stopped (ARENA_PYTHON_BUILD_TIMEOUT sets the limit in seconds){}",
            timeout.as_secs(),
            match stderr.trim() {
                "" => String::new(),
                said => format!(": {said}"),
            }
        )));
    };
    if !ok || !partial.is_file() {
        let _ = std::fs::remove_file(&partial);
        let detail = readable_error(&stderr, dir);
        return Err(fail(if detail.is_empty() {
            "componentize-py failed and said nothing".into()
        } else {
            format!(
                "componentize-py failed: {detail}{}",
                missing_module_hint(&detail, dir)
            )
        }));
    }
    std::fs::rename(&partial, &wasm).map_err(|e| io(&wasm, e))?;
    crate::build_cache::to_shared("python", &key, &wasm);
    // Only the build of the current sources is kept; what a build cut short left (long
    // enough ago that it cannot be running) goes too.
    crate::build_cache::keep_only(&out_dir, &wasm);
    if let Ok(entries) = std::fs::read_dir(&out_dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            let extension = path.extension().and_then(|e| e.to_str());
            let stale = || {
                entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age > 2 * timeout)
            };
            match extension {
                Some("partial") if stale() => {
                    let _ = std::fs::remove_file(path);
                }
                Some("sdk") if stale() => {
                    let _ = std::fs::remove_dir_all(path);
                }
                _ => {}
            }
        }
    }
    Ok(wasm)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn componentize_py_errors_name_the_bot_files() {
        let stderr = "Traceback (most recent call last):\n  File \"/venv/bin/componentize-py\", line 8, in <module>\n    sys.exit(script())\nAssertionError:   File \"/1/bot.py\", line 2\n    def f(:\n          ^\nSyntaxError: invalid syntax\n\n\nCaused by:\n    SyntaxError: invalid syntax (bot.py, line 2)\n";
        let text = readable_error(stderr, Path::new("/bots/mine"));
        assert!(
            text.starts_with("File \"/bots/mine/bot.py\", line 2"),
            "{text}"
        );
        assert!(text.contains("SyntaxError: invalid syntax"), "{text}");
        assert!(!text.contains("sys.exit"), "{text}");
        let imported = "Traceback (most recent call last):\n  File \"/venv/bin/componentize-py\", line 8, in <module>\nAssertionError: \n\nCaused by:\n    SyntaxError: invalid syntax (battle.py, line 85)\n";
        assert_eq!(
            readable_error(imported, Path::new("/b")),
            "SyntaxError: invalid syntax (battle.py, line 85)"
        );
    }

    #[test]
    fn the_environment_loses_python_and_backtrace_settings() {
        for name in [
            "PYTHONPATH",
            "PYTHONHOME",
            "PYTHONSTARTUP",
            "RUST_BACKTRACE",
        ] {
            assert!(removed_from_env(name), "{name}");
        }
        for name in ["PATH", "HOME", "TMPDIR"] {
            assert!(!removed_from_env(name), "{name}");
        }
    }

    #[test]
    fn every_source_but_target_git_and_bytecode_changes_the_key() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bot.py"), "x = 1\n").unwrap();
        let key = |version: &str| {
            build_key(version, dir.path(), &source_files(dir.path()).unwrap()).unwrap()
        };
        let first = key("0.25.1");
        for ignored in [
            "target/arena-python",
            ".git",
            "__pycache__",
            "sub/__pycache__",
        ] {
            std::fs::create_dir_all(dir.path().join(ignored)).unwrap();
            std::fs::write(dir.path().join(ignored).join("f"), "?").unwrap();
        }
        assert_eq!(key("0.25.1"), first);
        assert_ne!(key("0.25.2"), first);
        std::fs::write(dir.path().join("sub/helper.py"), "").unwrap();
        assert_ne!(key("0.25.1"), first);
    }
}
