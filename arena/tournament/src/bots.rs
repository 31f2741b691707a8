//! Bot specs and contestants.

use arena_sandbox::{LoadError, LoadedBot, Sandbox};
use arena_sdk::Mode;
use std::path::{Path, PathBuf};
use std::process::Command;

pub use crate::bot_error::BotError;

/// What a user wrote to name a bot.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BotSpec {
    /// `builtin:NAME`: a built-in AI of the mode being played.
    Builtin(String),
    /// A `.wasm` or `.wat` module.
    Module(PathBuf),
    /// A directory with a bot crate (Cargo.toml), built for wasm32-unknown-unknown.
    Crate(PathBuf),
    /// A directory with a Go bot (go.mod), built for wasip1 (`golang.rs`).
    Go(PathBuf),
    /// A directory with a Python bot (bot.py), built into a component (`python.rs`).
    Python(PathBuf),
    /// A directory with a JavaScript or TypeScript bot (bot.js or bot.ts), packed into the
    /// QuickJS runner (`javascript.rs`).
    JavaScript(PathBuf),
}

impl std::str::FromStr for BotSpec {
    type Err = BotError;
    fn from_str(s: &str) -> Result<Self, BotError> {
        if let Some(name) = s.strip_prefix("builtin:") {
            return Ok(BotSpec::Builtin(name.to_owned()));
        }
        let path = PathBuf::from(s);
        if path.is_dir() && path.join("Cargo.toml").is_file() {
            return Ok(BotSpec::Crate(path));
        }
        if path.is_dir() && path.join("go.mod").is_file() {
            return Ok(BotSpec::Go(path));
        }
        if path.is_dir() && path.join("bot.py").is_file() {
            return Ok(BotSpec::Python(path));
        }
        if path.is_dir() && crate::javascript::detect(&path).is_some() {
            return Ok(BotSpec::JavaScript(path));
        }
        match path.extension().and_then(|e| e.to_str()) {
            Some("wasm" | "wat") => Ok(BotSpec::Module(path)),
            _ => Err(source_file(&path).unwrap_or_else(|| BotError::Unrecognized(s.to_owned()))),
        }
    }
}

/// `path` as a source file of a bot directory (`bot.py` of a Python bot, …), if it is one:
/// the error that says to give the directory.
fn source_file(path: &Path) -> Option<BotError> {
    let source = ["rs", "go", "py", "js", "mjs", "ts"];
    if !path.is_file()
        || !path
            .extension()
            .is_some_and(|e| source.iter().any(|s| e == *s))
    {
        return None;
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let rust_source = path.extension().is_some_and(|e| e == "rs");
    let lang = if dir.join("Cargo.toml").is_file()
        || rust_source
            && dir
                .parent()
                .is_some_and(|up| up.join("Cargo.toml").is_file())
    {
        "Rust"
    } else if dir.join("go.mod").is_file() {
        "Go"
    } else if dir.join("bot.py").is_file() {
        "Python"
    } else if crate::javascript::detect(dir).is_some() {
        "JavaScript/TypeScript"
    } else {
        return None;
    };
    // A Rust source in `src/` belongs to the crate above it.
    let dir = if lang == "Rust" && !dir.join("Cargo.toml").is_file() {
        dir.parent().unwrap_or(dir)
    } else {
        dir
    };
    Some(BotError::SourceFile {
        file: path.display().to_string(),
        dir: dir.display().to_string(),
        lang,
    })
}

impl std::fmt::Display for BotSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotSpec::Builtin(name) => write!(f, "builtin:{name}"),
            BotSpec::Module(path)
            | BotSpec::Crate(path)
            | BotSpec::Go(path)
            | BotSpec::Python(path)
            | BotSpec::JavaScript(path) => {
                write!(f, "{}", path.display())
            }
        }
    }
}

impl BotSpec {
    /// A short name: `builtin:NAME`, or the file/crate stem.
    pub fn short_name(&self) -> String {
        match self {
            BotSpec::Builtin(name) => format!("builtin:{name}"),
            BotSpec::Module(path)
            | BotSpec::Crate(path)
            | BotSpec::Go(path)
            | BotSpec::Python(path)
            | BotSpec::JavaScript(path) => {
                path.file_stem().or_else(|| path.file_name()).map_or_else(
                    || path.display().to_string(),
                    |s| s.to_string_lossy().into_owned(),
                )
            }
        }
    }
}

/// How a bot spec compares with a bot a replay records (`arena replay verify --bot0/--bot1`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotMatch {
    /// Same built-in name, and this arena has that built-in for the mode.
    SameBuiltin,
    /// The module file's SHA-256 is the one recorded.
    SameModule {
        /// The hash.
        sha256: String,
    },
    /// They differ; the text says how.
    Differs(String),
}

impl BotSpec {
    /// Compare this spec with the bot a replay of `mode` recorded (`name`, `sha256`).
    /// Module files are hashed as the sandbox hashes them (the file's bytes); a crate is
    /// refused, since building it need not give the same bytes twice.
    pub fn compare(
        &self,
        mode: Mode,
        name: &str,
        sha256: Option<&str>,
    ) -> Result<BotMatch, BotError> {
        use sha2::{Digest, Sha256};
        match self {
            BotSpec::Builtin(mine) => {
                Contestant::Builtin(mine.clone()).check_mode(mode)?;
                let recorded = name.strip_prefix("builtin:");
                Ok(if recorded == Some(mine.as_str()) && sha256.is_none() {
                    BotMatch::SameBuiltin
                } else {
                    BotMatch::Differs(format!("the replay records `{name}`, not builtin:{mine}"))
                })
            }
            BotSpec::Module(path) => {
                let io = |error| {
                    BotError::Load(LoadError::Io {
                        path: path.display().to_string(),
                        error,
                    })
                };
                // Streamed, so a huge file costs time, not memory.
                let mut hasher = Sha256::new();
                std::io::copy(&mut std::fs::File::open(path).map_err(io)?, &mut hasher)
                    .map_err(io)?;
                let mine = hex::encode(hasher.finalize());
                Ok(match sha256 {
                    Some(recorded) if recorded == mine => BotMatch::SameModule { sha256: mine },
                    Some(recorded) => BotMatch::Differs(format!(
                        "{} has SHA-256 {mine}, the replay records {recorded}",
                        path.display()
                    )),
                    None => BotMatch::Differs(format!(
                        "the replay records `{name}` with no module hash, {} is a module",
                        path.display()
                    )),
                })
            }
            BotSpec::Crate(dir)
            | BotSpec::Go(dir)
            | BotSpec::Python(dir)
            | BotSpec::JavaScript(dir) => Err(BotError::Build {
                dir: dir.display().to_string(),
                detail: "to compare with a replay, give the built .wasm module, not its directory"
                    .into(),
            }),
        }
    }
}

/// A bot ready to play: a built-in, or a compiled module.
#[derive(Debug, Clone)]
pub enum Contestant {
    /// A built-in AI, by name.
    Builtin(String),
    /// A loaded, validated, compiled wasm module.
    Wasm(LoadedBot),
}

impl Contestant {
    /// Resolve a spec: load and compile modules, build crates, Go, Python and JavaScript
    /// bots.
    pub fn resolve(spec: &BotSpec, sandbox: &Sandbox) -> Result<Contestant, BotError> {
        match spec {
            BotSpec::Builtin(name) => Ok(Contestant::Builtin(name.clone())),
            BotSpec::Module(path) => Ok(Contestant::Wasm(sandbox.load(path)?)),
            BotSpec::Crate(dir) => {
                let wasm = build_crate(dir)?;
                Ok(Contestant::Wasm(sandbox.load(&wasm)?))
            }
            BotSpec::Go(dir) => {
                let wasm = crate::golang::build_go(dir)?;
                Ok(Contestant::Wasm(sandbox.load(&wasm)?))
            }
            BotSpec::Python(dir) => {
                let wasm = crate::python::build_python(dir)?;
                Ok(Contestant::Wasm(sandbox.load(&wasm)?))
            }
            BotSpec::JavaScript(dir) => {
                let wasm = build_javascript(dir)?;
                Ok(Contestant::Wasm(sandbox.load(&wasm)?))
            }
        }
    }

    /// Check that a built-in exists for `mode` (modules are checked when they start).
    pub fn check_mode(&self, mode: Mode) -> Result<(), BotError> {
        let Contestant::Builtin(name) = self else {
            return Ok(());
        };
        let known = crate::modes::builtins_of(mode);
        if known.iter().any(|b| b.name == name) {
            return Ok(());
        }
        Err(BotError::UnknownBuiltin {
            name: name.clone(),
            mode,
            available: known.iter().map(|b| b.name).collect::<Vec<_>>().join(", "),
        })
    }

    /// SHA-256 of the module, for wasm bots.
    pub fn sha256(&self) -> Option<&str> {
        match self {
            Contestant::Builtin(_) => None,
            Contestant::Wasm(bot) => Some(&bot.info().sha256),
        }
    }
}

impl BotSpec {
    /// Build a bot directory (a crate, a Go module, a Python or JavaScript bot) into its
    /// module, telling `progress` each line of cargo's progress (`Compiling …`) for a
    /// crate; `None` for a module file or a built-in, which need no build. Builds are
    /// cached (cargo's own, `build_cache`'s), so resolving the spec afterwards is quick.
    pub fn build(&self, progress: &mut dyn FnMut(&str)) -> Option<Result<PathBuf, BotError>> {
        match self {
            BotSpec::Builtin(_) | BotSpec::Module(_) => None,
            BotSpec::Crate(dir) => Some(build_crate_reporting(dir, progress)),
            BotSpec::Go(dir) => Some(crate::golang::build_go(dir)),
            BotSpec::Python(dir) => Some(crate::python::build_python(dir)),
            BotSpec::JavaScript(dir) => Some(build_javascript(dir)),
        }
    }
}

/// Build a bot crate for wasm32-unknown-unknown (release) and return the module's path.
pub fn build_crate(dir: &Path) -> Result<PathBuf, BotError> {
    build_crate_reporting(dir, &mut |_| {})
}

/// [`build_crate`], telling `progress` each line cargo writes while it builds.
pub fn build_crate_reporting(
    dir: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<PathBuf, BotError> {
    let fail = |detail: String| BotError::Build {
        dir: dir.display().to_string(),
        detail,
    };
    let manifest = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest)
        .map_err(|e| fail(format!("{}: {e}", manifest.display())))?;
    let table: toml::Table = text
        .parse()
        .map_err(|e| fail(format!("{}: {e}", manifest.display())))?;
    let package = table
        .get("lib")
        .and_then(|lib| lib.get("name"))
        .or_else(|| table.get("package").and_then(|p| p.get("name")))
        .and_then(|n| n.as_str())
        .ok_or_else(|| fail(format!("{}: no [package] name", manifest.display())))?
        .replace('-', "_");
    ensure_wasm_target().map_err(fail)?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let metadata = Command::new(&cargo)
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .arg("--manifest-path")
        .arg(&manifest)
        .output()
        .map_err(|e| fail(format!("cannot run cargo metadata: {e}")))?;
    if !metadata.status.success() {
        return Err(fail(
            String::from_utf8_lossy(&metadata.stderr).trim().to_owned(),
        ));
    }
    let meta: serde_json::Value = serde_json::from_slice(&metadata.stdout)
        .map_err(|e| fail(format!("cannot read cargo metadata: {e}")))?;
    let target_dir = meta["target_directory"]
        .as_str()
        .ok_or_else(|| fail("cargo metadata has no target_directory".into()))?;
    // A target directory of its own, so the build never waits for a cargo that is
    // running the arena itself.
    let target_dir = Path::new(target_dir).join("arena-bots");
    tracing::info!(dir = %dir.display(), "building bot crate for wasm32-unknown-unknown");
    let mut child = Command::new(&cargo)
        .args([
            "build",
            "--release",
            "--target",
            "wasm32-unknown-unknown",
            "--message-format",
            "short",
        ])
        .arg("--manifest-path")
        .arg(&manifest)
        .arg("--target-dir")
        .arg(&target_dir)
        // Link-time optimization in one codegen unit, whatever the crate's own release
        // profile says: the SDK's request decoding is then inlined into the bot, which
        // halves its cost per turn (docs/performance.md, "Building bots").
        .envs(BOT_PROFILE)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| fail(format!("cannot run cargo: {e}")))?;
    // cargo writes its progress and diagnostics to standard error, line by line.
    let mut written = Vec::new();
    if let Some(stderr) = child.stderr.take() {
        use std::io::BufRead;
        let mut reader = std::io::BufReader::new(stderr);
        let mut line = Vec::new();
        while reader.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
            progress(String::from_utf8_lossy(&line).trim_end());
            written.append(&mut line);
        }
    }
    let status = child
        .wait()
        .map_err(|e| fail(format!("cannot wait for cargo: {e}")))?;
    if !status.success() {
        return Err(fail(String::from_utf8_lossy(&written).trim().to_owned()));
    }
    let wasm = target_dir
        .join("wasm32-unknown-unknown/release")
        .join(format!("{package}.wasm"));
    if !wasm.is_file() {
        return Err(fail(format!(
            "built, but {} is missing (is it a cdylib?)",
            wasm.display()
        )));
    }
    Ok(wasm)
}

/// The release profile bot crates are built with (as cargo environment overrides); the
/// sample bots of the test suite are built the same way (`tests/build.rs`).
pub const BOT_PROFILE: [(&str, &str); 2] = [
    ("CARGO_PROFILE_RELEASE_LTO", "fat"),
    ("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "1"),
];

/// Install the wasm32-unknown-unknown standard library with rustup if it is missing, so a
/// fresh machine with only rustup can build bot crates.
fn ensure_wasm_target() -> Result<(), String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let sysroot = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .map_err(|e| format!("cannot run rustc: {e}"))?;
    let sysroot = std::path::PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim());
    if sysroot.join("lib/rustlib/wasm32-unknown-unknown").is_dir() {
        return Ok(());
    }
    tracing::warn!("installing the wasm32-unknown-unknown target with rustup");
    let status = Command::new("rustup")
        .args(["target", "add", "wasm32-unknown-unknown"])
        .status()
        .map_err(|e| {
            format!("the wasm32-unknown-unknown target is missing and rustup cannot run: {e}")
        })?;
    if !status.success() {
        return Err("the wasm32-unknown-unknown target is missing and `rustup target add wasm32-unknown-unknown` failed".into());
    }
    Ok(())
}

/// Build the JavaScript or TypeScript bot in `dir` (`javascript.rs`); the module's path.
pub fn build_javascript(dir: &Path) -> Result<PathBuf, BotError> {
    crate::javascript::build(dir).map_err(|e| BotError::Build {
        dir: dir.display().to_string(),
        detail: e.to_string(),
    })
}
