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

/// Files, sockets and `input()` raise Python exceptions whose traceback names the bot's
/// line (a `bot_error` fault: the bot plays on), instead of trapping in a missing WASI
/// call; and what a bot printed before it ran out of fuel is in that turn's log.
#[test]
fn files_and_sockets_raise_with_the_line_and_prints_survive_running_out_of_fuel() {
    if !python_here("a Python bot that opens files") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("nosy");
    std::fs::create_dir(&bot).unwrap();
    std::fs::write(
        bot.join("bot.py"),
        r#"import socket
import arena
from arena import battle

turns = 0

def setup(request):
    return battle.TeamChoice(team=request.roster[: request.team_size])

def act(observation):
    global turns
    turns += 1
    print(f"turn {turns} begins")
    if turns == 1:
        open("/etc/passwd")
    if turns == 2:
        socket.create_connection(("example.org", 80))
    if turns == 3:
        input()
    if turns == 4:
        import fractions
    if turns == 5:
        while True:
            pass
    return battle.attack(observation.legal_targets[0])

arena.play_battle(setup, act)
"#,
    )
    .unwrap();
    let replay = dir.path().join("replay.json");
    let out = arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "battle",
            bot.to_str().unwrap(),
            "builtin:random",
            // Five faults in a row: the default of 3 would forfeit before the fourth.
            "--max-faults",
            "6",
            "--replay",
            replay.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let replay: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    let answers: Vec<serde_json::Value> = replay["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "answer" && e["seat"] == 0)
        .cloned()
        .collect();
    let turns: Vec<&serde_json::Value> = answers
        .iter()
        .filter(|a| a["log"].as_str().unwrap_or("").contains("begins"))
        .collect();
    let expect = [
        (
            "turn 1 begins",
            "OSError: [Errno 52] a bot has no files, sockets or processes while it plays",
            "line 15, in act",
        ),
        (
            "turn 2 begins",
            "OSError: [Errno 52] a bot has no files, sockets or processes while it plays",
            "line 17, in act",
        ),
        (
            "turn 3 begins",
            "EOFError: a bot has no standard input in the arena: it gets its requests",
            "line 19, in act",
        ),
        (
            "turn 4 begins",
            "ModuleNotFoundError: No module named 'fractions' while the bot plays: a bot \
             reads no files then, so import fractions at the top of bot.py",
            "line 21, in act",
        ),
    ];
    for ((printed, error, line), turn) in expect.iter().zip(&turns) {
        let log = turn["log"].as_str().unwrap();
        assert!(log.starts_with(printed), "{turn}");
        assert!(log.contains(line), "the traceback names the line: {turn}");
        assert_eq!(turn["answer"]["fault"]["kind"], "bot_error", "{turn}");
        let message = turn["answer"]["fault"]["message"].as_str().unwrap();
        assert!(message.contains(error), "{message}");
    }
    assert!(turns.len() >= 5, "{turns:?}");
    // Turn 5 runs out of fuel: what it printed first is still in its log.
    let spun = turns[4];
    assert_eq!(spun["answer"]["fault"]["kind"], "out_of_fuel", "{spun}");
    assert_eq!(
        spun["log"].as_str().map(str::trim_end),
        Some("turn 5 begins")
    );
}

#[test]
fn a_missing_module_says_how_to_vendor_it_and_a_vendored_package_plays() {
    if !python_here("a Python bot that imports a package") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("vendoring");
    std::fs::create_dir(&bot).unwrap();
    std::fs::write(
        bot.join("bot.py"),
        r#"import arena
import tinypkg
from arena import battle

def setup(request):
    return battle.TeamChoice(team=request.roster[: request.team_size])

def act(observation):
    print(tinypkg.greeting())
    return battle.attack(observation.legal_targets[0])

arena.play_battle(setup, act)
"#,
    )
    .unwrap();
    let spec = bot.to_str().unwrap();

    // Without the package the build fails with Python's error and what to do about it.
    let out = arena(dir.path(), &["check", spec]);
    let text = stdout(&out) + &stderr(&out);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("ModuleNotFoundError: No module named 'tinypkg'"),
        "{text}"
    );
    let advice = format!("python3 -m pip install --target {spec} PACKAGE");
    assert!(text.contains(&advice), "{text}");
    assert!(text.contains("standard library"), "{text}");

    // A pure-Python wheel (made here, so the test needs no network), installed as the
    // advice says: the bot builds and plays with it.
    let wheel = dir.path().join("tinypkg-1.0-py3-none-any.whl");
    let made = std::process::Command::new("python3")
        .arg("-c")
        .arg(
            "import sys, zipfile\n\
             with zipfile.ZipFile(sys.argv[1], 'w') as z:\n\
             \x20   z.writestr('tinypkg/__init__.py', 'def greeting():\\n    return \"hello from a vendored package\"\\n')\n\
             \x20   z.writestr('tinypkg-1.0.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: tinypkg\\nVersion: 1.0\\n')\n\
             \x20   z.writestr('tinypkg-1.0.dist-info/WHEEL', 'Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n')\n\
             \x20   z.writestr('tinypkg-1.0.dist-info/RECORD', '')\n",
        )
        .arg(&wheel)
        .status()
        .unwrap();
    assert!(made.success());
    let pip = std::process::Command::new("python3")
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-index",
            "--target",
            spec,
        ])
        .arg(&wheel)
        .output()
        .unwrap();
    assert!(pip.status.success(), "{}", stderr(&pip));
    let answers = seat0_answers(dir.path(), ("battle", spec, "builtin:random"), "1");
    let turns: Vec<_> = answers.iter().filter(|a| a["turn"] != 0).collect();
    assert!(!turns.is_empty(), "{answers:?}");
    for turn in turns {
        assert_eq!(
            turn["log"].as_str().map(str::trim_end),
            Some("hello from a vendored package"),
            "{turn}"
        );
    }
}
