//! Bots in Python (`sdk/python`, `sample-bots/python-starter`): WebAssembly components of
//! `docs/wit/arena-bot.wit` built by componentize-py. The starter plays every mode legally;
//! the same seed gives the same game; a Python bot directory is a bot wherever a path is
//! (built, kept, built again only when a file changed); a missing componentize-py and a
//! syntax error say what is wrong; hostile Python bots end in typed faults.
//!
//! With componentize-py 0.25.1 installed (`componentize-py`, or `$ARENA_COMPONENTIZE_PY`)
//! the tests build the bots from source, else they use
//! `sample-bots/python-starter/bot.wasm` and skip what needs a build — unless
//! `ARENA_REQUIRE_PYTHON` is set (CI installs componentize-py), which turns a skip into a
//! failure.

use crate::{arena, faults, play_json, replays_repeat_and_verify, seat0_answers};
use arena_tests::{bots, root, stderr, stdout};
use std::path::Path;

/// Whether componentize-py is here to build with; `false` prints why the caller skips.
pub(crate) fn python_here(what: &str) -> bool {
    if bots::PYTHON_BUILT {
        return true;
    }
    assert!(
        std::env::var_os("ARENA_REQUIRE_PYTHON").is_none(),
        "ARENA_REQUIRE_PYTHON is set but componentize-py 0.25.1 could not build the Python bots"
    );
    eprintln!("skipped: componentize-py 0.25.1 is not installed ({what} needs it)");
    false
}

const MODES: [(&str, &str); 5] = [
    ("battle", "random"),
    ("tcg", "random"),
    ("grid", "random-walker"),
    ("dungeon", "random"),
    ("conquest", "random"),
];

/// Every file of `dir` (but `__pycache__/`), relative, sorted.
fn files_of(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().unwrap() != "__pycache__" {
                    stack.push(path);
                }
            } else {
                out.push(
                    path.strip_prefix(dir)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_arena_carries_the_python_sdk_and_the_wit_world_of_this_checkout() {
    use arena_tournament::python::{SDK_FILES, WIT};
    let sdk = root().join("sdk/python");
    let on_disk: Vec<String> = files_of(&sdk)
        .into_iter()
        .filter(|f| f.ends_with(".py"))
        .collect();
    let mut embedded: Vec<String> = SDK_FILES.iter().map(|(f, _)| (*f).to_owned()).collect();
    embedded.sort();
    assert_eq!(
        embedded, on_disk,
        "arena/tournament/src/python.rs's SDK_FILES must name every file of sdk/python"
    );
    for (file, text) in SDK_FILES {
        assert!(
            *text == std::fs::read_to_string(sdk.join(file)).unwrap(),
            "{file} differs from the arena's copy"
        );
    }
    assert!(WIT == std::fs::read_to_string(root().join("docs/wit/arena-bot.wit")).unwrap());
}

#[test]
fn the_tests_build_python_bots_as_the_arena_does() {
    use arena_tournament::python::{BUILD_ARGS, ENV_REMOVED, ENV_REMOVED_PREFIXES, ENV_SET};
    assert_eq!(bots::PYTHON_BUILD_ARGS, BUILD_ARGS);
    assert_eq!(bots::PYTHON_ENV_REMOVED_PREFIXES, ENV_REMOVED_PREFIXES);
    assert_eq!(bots::PYTHON_ENV_REMOVED, ENV_REMOVED);
    assert_eq!(bots::PYTHON_ENV_SET, ENV_SET);
}

#[test]
fn the_python_starter_plays_every_mode_with_legal_moves_only() {
    let dir = tempfile::tempdir().unwrap();
    let check = arena(dir.path(), &["check", bots::PYTHON_STARTER]);
    let text = stdout(&check);
    assert!(check.status.success(), "{text}{}", stderr(&check));
    for (mode, _) in MODES {
        assert!(
            text.contains(&format!("start ({mode}): ok")),
            "{mode}: {text}"
        );
    }
    for (mode, weakest) in MODES {
        for seed in ["1", "2"] {
            let builtin = format!("builtin:{weakest}");
            let result = play_json(
                dir.path(),
                &[
                    "play",
                    "--mode",
                    mode,
                    bots::PYTHON_STARTER,
                    &builtin,
                    "--seed",
                    seed,
                    "--json",
                ],
            );
            let seat = &result["seats"][0];
            assert_eq!(seat["faults"], 0, "{mode} seed {seed}: {result}");
            assert_eq!(seat["invalid_actions"], 0, "{mode} seed {seed}: {result}");
        }
    }
}

#[test]
fn a_python_bot_gives_byte_identical_replays_for_one_seed() {
    let dir = tempfile::tempdir().unwrap();
    for (mode, weakest) in [("battle", "random"), ("grid", "random-walker")] {
        replays_repeat_and_verify(
            dir.path(),
            mode,
            bots::PYTHON_STARTER,
            &format!("builtin:{weakest}"),
        );
    }
}

/// A copy of the Python starter's sources in `dir/name`.
fn starter_copy(dir: &Path, name: &str) -> std::path::PathBuf {
    let bot = dir.join(name);
    std::fs::create_dir(&bot).unwrap();
    let starter = root().join("sample-bots/python-starter");
    for file in files_of(&starter) {
        if file.ends_with(".py") {
            std::fs::copy(starter.join(&file), bot.join(&file)).unwrap();
        }
    }
    bot
}

#[test]
fn a_python_bot_directory_is_built_once_and_again_only_when_a_file_changes() {
    if !python_here("building a Python bot directory") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bot = starter_copy(dir.path(), "copy");
    let spec = bot.to_str().unwrap();
    let run = |args: &[&str]| {
        let out = arena(dir.path(), args);
        assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
        stdout(&out)
    };
    let text = run(&["check", spec]);
    for (mode, _) in MODES {
        assert!(
            text.contains(&format!("start ({mode}): ok")),
            "{mode}: {text}"
        );
    }
    // The builds kept: (file name, modification time).
    let builds = || -> Vec<(std::ffi::OsString, std::time::SystemTime)> {
        std::fs::read_dir(bot.join("target/arena-python"))
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (e.file_name(), e.metadata().unwrap().modified().unwrap())
            })
            .collect()
    };
    let first = builds();
    assert_eq!(first.len(), 1, "{first:?}");
    assert!(
        !bot.join("__pycache__").exists(),
        "the build writes nothing among the sources"
    );
    run(&["play", "--mode", "battle", spec, "builtin:random"]);
    assert_eq!(builds(), first, "unchanged files are not built again");

    // A tournament file takes the directory too (and its build).
    let tournament = dir.path().join("t.toml");
    std::fs::write(
        &tournament,
        "name = \"py\"\nseed = 1\nformat = \"round-robin\"\ngames_per_pairing = 2\n\n\
         [modes.battle]\n\n[[bots]]\nname = \"py\"\nbot = \"copy\"\n\n\
         [[bots]]\nname = \"random\"\nbot = \"builtin:random\"\n",
    )
    .unwrap();
    crate::tournament_run(
        dir.path(),
        &tournament,
        &dir.path().join("out"),
        &["--jobs", "2"],
    );
    assert_eq!(builds(), first, "the tournament used the same build");

    // A syntax error reaches the user with Python's message, the file and the line.
    let source = std::fs::read_to_string(bot.join("battle.py")).unwrap();
    std::fs::write(
        bot.join("battle.py"),
        format!("{source}\ndef broken(:\n    pass\n"),
    )
    .unwrap();
    let out = arena(dir.path(), &["check", spec]);
    let text = stdout(&out) + &stderr(&out);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("cannot build the bot in"), "{text}");
    assert!(
        text.contains("componentize-py failed: SyntaxError: invalid syntax (battle.py, line"),
        "{text}"
    );
    assert!(!text.contains("sys.exit(script())"), "{text}");

    // Mended, it is built again, and only the current build is kept.
    std::fs::write(bot.join("battle.py"), source + "\n# changed\n").unwrap();
    run(&["play", "--mode", "battle", spec, "builtin:random"]);
    let second = builds();
    assert_eq!(
        second.len(),
        1,
        "only the current build is kept: {second:?}"
    );
    assert_ne!(second[0].0, first[0].0, "a changed file is built again");
}

#[test]
fn without_componentize_py_a_python_bot_directory_says_how_to_install_it() {
    let dir = tempfile::tempdir().unwrap();
    let bot = starter_copy(dir.path(), "bot");
    let check = |program: &Path| {
        let out = std::process::Command::new(crate::arena_bin())
            .args(["check", bot.to_str().unwrap()])
            .env("ARENA_CACHE_DIR", dir.path())
            .env("ARENA_COMPONENTIZE_PY", program)
            .output()
            .unwrap();
        let text = stdout(&out) + &stderr(&out);
        assert!(!out.status.success(), "{text}");
        assert!(
            text.contains("python3 -m pip install componentize-py==0.25.1"),
            "{text}"
        );
        // And the route that works on an externally managed Python (Debian 12).
        assert!(
            text.contains(
                "python3 -m venv ~/.arena-tools && ~/.arena-tools/bin/pip install componentize-py==0.25.1"
            ),
            "{text}"
        );
        text
    };
    let text = check(&dir.path().join("no-componentize-py-here"));
    assert!(
        text.contains("componentize-py is needed to build a Python bot"),
        "{text}"
    );
    // Another version is refused before it builds anything.
    let other = dir.path().join("componentize-py");
    std::fs::write(&other, "#!/bin/sh\necho componentize-py 0.19.0\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&other, std::fs::Permissions::from_mode(0o755)).unwrap();
    let text = check(&other);
    assert!(
        text.contains("componentize-py 0.19.0 is not the tested 0.25.1"),
        "{text}"
    );
    assert!(!bot.join("target").exists());
}

#[test]
fn a_python_build_that_does_not_end_is_stopped_in_time() {
    let dir = tempfile::tempdir().unwrap();
    let bot = starter_copy(dir.path(), "bot");
    // A componentize-py of the right version whose builds never end.
    let stuck = dir.path().join("componentize-py");
    std::fs::write(
        &stuck,
        "#!/bin/sh\nif [ \"$1\" = --version ]; then echo componentize-py 0.25.1; exit 0; fi\necho building >&2\nexec sleep 60\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&stuck, std::fs::Permissions::from_mode(0o755)).unwrap();
    let started = std::time::Instant::now();
    let out = std::process::Command::new(crate::arena_bin())
        .args(["check", bot.to_str().unwrap()])
        .env("ARENA_CACHE_DIR", dir.path())
        .env("ARENA_COMPONENTIZE_PY", &stuck)
        .env("ARENA_PYTHON_BUILD_TIMEOUT", "1")
        // The starter's build from the tests' shared cache would stand in for this one.
        .env_remove("ARENA_BUILD_CACHE_DIR")
        .output()
        .unwrap();
    let text = stdout(&out) + &stderr(&out);
    assert!(!out.status.success(), "{text}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert!(
        text.contains("componentize-py did not finish in 1 s and was stopped"),
        "{text}"
    );
    assert!(
        text.contains(": building"),
        "what it said comes along: {text}"
    );
    // Nothing that looks like a build is left.
    let left: Vec<_> = std::fs::read_dir(bot.join("target/arena-python"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_directory_with_bot_py_is_named_a_python_bot() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().to_str().unwrap();
    let out = arena(
        dir.path(),
        &["play", "--mode", "battle", empty, "builtin:random"],
    );
    let text = stdout(&out) + &stderr(&out);
    assert!(!out.status.success());
    assert!(text.contains("Python: bot.py"), "{text}");
}

#[test]
fn hostile_python_bots_end_in_typed_faults_and_forfeit() {
    if !python_here("the hostile Python bot") {
        return;
    }
    let bot = bots::PYTHON_HOSTILE.expect("tests/hostile-python is built");
    let dir = tempfile::tempdir().unwrap();
    let first_faults = |mode: &str| {
        let started = std::time::Instant::now();
        let weakest = MODES.iter().find(|(m, _)| *m == mode).unwrap().1;
        let opponent = format!("builtin:{weakest}");
        let answers = seat0_answers(dir.path(), (mode, bot, &opponent), "1");
        let faults = faults(&answers);
        assert_eq!(
            faults.len(),
            3,
            "{mode}: three faults forfeit the game: {faults:?}"
        );
        assert!(
            started.elapsed() < std::time::Duration::from_secs(120),
            "{mode}: {:?}",
            started.elapsed()
        );
        (answers, faults)
    };
    // An endless loop: out of fuel, on every turn (each call after a trap gets a fresh
    // instance, and spins again).
    let (_, f) = first_faults("battle");
    assert!(f.iter().all(|(kind, _)| kind == "out_of_fuel"), "{f:?}");
    // Endless allocation: the memory limit, or the fuel CPython spends filling it.
    let (_, f) = first_faults("tcg");
    assert!(
        ["out_of_fuel", "memory_limit"].contains(&f[0].0.as_str()),
        "{f:?}"
    );
    // Endless recursion with the recursion limit lifted: the stack, or the memory and fuel
    // its frames take; never an answer.
    let (_, f) = first_faults("grid");
    assert!(
        ["out_of_fuel", "memory_limit", "trap"].contains(&f[0].0.as_str()),
        "{f:?}"
    );
    // An exception on every turn: the SDK answers an error, the traceback goes to the log,
    // and the turns go on.
    let (answers, f) = first_faults("dungeon");
    assert_eq!(
        f[0],
        (
            "bot_error".to_owned(),
            "ValueError: hostile: turn 1".to_owned()
        ),
        "{f:?}"
    );
    assert_eq!(f[1].1, "ValueError: hostile: turn 2", "{f:?}");
    let failed = answers
        .iter()
        .find(|a| a["answer"]["fault"].is_object())
        .unwrap();
    assert!(
        failed["log"].as_str().unwrap_or("").contains("Traceback"),
        "{failed}"
    );
    // A flood of print(): out of fuel, its log cut at the cap.
    let (answers, f) = first_faults("conquest");
    assert_eq!(f[0].0, "out_of_fuel", "{f:?}");
    let flooded = answers
        .iter()
        .find(|a| a["answer"]["fault"].is_object())
        .unwrap();
    let log = flooded["log"].as_str().unwrap();
    assert!(log.starts_with("flood 0\nflood 1\n"), "{log}");
    assert!(log.len() <= 4096 + 200, "{} bytes", log.len());
}
