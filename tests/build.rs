//! Builds every sample bot crate in `sample-bots/` to wasm32-unknown-unknown, and the C
//! sample bot with clang, then writes their paths into `$OUT_DIR/bots.rs` — the way
//! wasmtime's `crates/test-programs/artifacts/build.rs` builds its guest programs.

use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "wasm32-unknown-unknown";

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest_dir.parent().unwrap().to_path_buf();
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").unwrap());
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    for dir in [
        "Cargo.toml",
        "sample-bots",
        "sdk/src",
        "sdk/c",
        "arena/builtins/src",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
    }

    ensure_wasm_target();
    let crates = sample_crates(&root.join("sample-bots"));
    let target_dir = out_dir.join("wasm-bots");
    let mut build = Command::new(&cargo);
    build
        .args(["build", "--release", "--target", TARGET])
        .arg("--target-dir")
        .arg(&target_dir)
        .current_dir(&root);
    for (package, _) in &crates {
        build.args(["-p", package]);
    }
    // The outer build's flags are for the host; the bots get a clean environment.
    for var in [
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_MAKEFLAGS",
    ] {
        build.env_remove(var);
    }
    let status = build.status().expect("run cargo to build the sample bots");
    assert!(
        status.success(),
        "building the sample bots for {TARGET} failed"
    );

    let mut consts = String::new();
    for (package, _) in &crates {
        let wasm = target_dir
            .join(TARGET)
            .join("release")
            .join(format!("{}.wasm", package.replace('-', "_")));
        assert!(wasm.is_file(), "{} was not built", wasm.display());
        consts += &format!(
            "/// `sample-bots/{package}` built to wasm.\npub const {}: &str = {:?};\n",
            package.replace('-', "_").to_uppercase(),
            wasm.display().to_string()
        );
    }
    let c_bot = build_c_bot(&root, &out_dir);
    consts += &format!(
        "/// `sample-bots/c-bot` built with clang.\npub const C_BOT: &str = {:?};\n",
        c_bot.display().to_string()
    );
    let wat = root.join("sample-bots/wat-bot/bot.wat");
    consts += &format!(
        "/// `sample-bots/wat-bot` (WAT text).\npub const WAT_BOT: &str = {:?};\n",
        wat.display().to_string()
    );
    std::fs::write(out_dir.join("bots.rs"), consts).unwrap();
}

/// The wasm32 standard library must be installed; rustup installs it when missing (the
/// repository's rust-toolchain.toml asks for it too).
fn ensure_wasm_target() {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let sysroot = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .expect("run rustc");
    let sysroot = PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim());
    if sysroot.join("lib/rustlib").join(TARGET).is_dir() {
        return;
    }
    println!(
        "cargo:warning=installing the {TARGET} target with rustup (needed to build sample bots)"
    );
    let status = Command::new("rustup")
        .args(["target", "add", TARGET])
        .status();
    assert!(
        matches!(status, Ok(s) if s.success()),
        "the {TARGET} target is missing and `rustup target add {TARGET}` failed; install it and rebuild"
    );
}

/// (package name, directory) of every crate in sample-bots/.
fn sample_crates(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut crates = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let manifest = path.join("Cargo.toml");
        if !manifest.is_file() {
            continue;
        }
        let text = std::fs::read_to_string(&manifest).unwrap();
        let name = text
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("name = ")
                    .map(|n| n.trim_matches('"').to_owned())
            })
            .unwrap_or_else(|| panic!("{}: no package name", manifest.display()));
        crates.push((name, path));
    }
    crates.sort();
    crates
}

/// Compile the C bot with clang for wasm32; without clang, use the committed build of the
/// same source (`sample-bots/c-bot/bot.wasm`) and say so.
fn build_c_bot(root: &Path, out_dir: &Path) -> PathBuf {
    let source = root.join("sample-bots/c-bot/bot.c");
    let output = out_dir.join("c-bot.wasm");
    let built = Command::new("clang")
        .args([
            "--target=wasm32",
            "-O2",
            "-nostdlib",
            "-Wl,--no-entry",
            "-I",
        ])
        .arg(root.join("sdk/c"))
        .arg("-o")
        .arg(&output)
        .arg(&source)
        .status();
    match built {
        Ok(status) if status.success() => output,
        _ => {
            println!(
                "cargo:warning=clang (with wasm-ld) not found: using the prebuilt sample-bots/c-bot/bot.wasm; install clang and lld to build the C bot from source"
            );
            root.join("sample-bots/c-bot/bot.wasm")
        }
    }
}
