//! The live view: `arena play … --watch` (off a terminal, and on one through tmux),
//! `--step` driven through standard input, `arena replay show --step`, and `--clock`.

use crate::{arena, arena_bin};
use arena_tests::{stderr, stdout};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Run `arena ARGS` with `input` on standard input; it must succeed.
fn with_input(cache: &Path, args: &[&str], input: &str) -> Output {
    let out = crate::arena_with_input(cache, args, input);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    out
}

/// The prompts `--step` printed, in order.
fn step_prompts(text: &str) -> Vec<&str> {
    text.match_indices("step ")
        .filter(|(i, _)| text[*i..].contains(": Enter for the next"))
        .map(|(i, _)| {
            let rest = &text[i..];
            &rest[..rest.find(':').unwrap_or(rest.len())]
        })
        .filter(|p| p[5..].chars().all(|c| c.is_ascii_digit()))
        .collect()
}

#[test]
fn watch_off_a_terminal_prints_each_step_once_plainly_in_the_order_played() {
    let dir = tempfile::tempdir().unwrap();
    for (mode, a, b) in [
        ("battle", "builtin:strong", "builtin:random"),
        ("tcg", "builtin:random", "builtin:random"),
        ("grid", "builtin:commander", "builtin:aggressor"),
        ("dungeon", "builtin:random", "builtin:strong"),
        ("conquest", "builtin:random", "builtin:strong"),
    ] {
        let replay = dir.path().join(format!("{mode}.json"));
        let replay = replay.to_str().unwrap();
        let watch = arena(
            dir.path(),
            &["play", "--mode", mode, a, b, "--watch", "--replay", replay],
        );
        assert!(watch.status.success(), "{mode}: {}", stderr(&watch));
        let text = stdout(&watch);
        assert!(
            !text.contains('\u{1b}'),
            "{mode}: no escape codes off a terminal"
        );
        let header = format!("{mode} — {a} (seat 0) vs {b} (seat 1), seed 1");
        assert!(text.starts_with(&format!("{header}\n")), "{mode}: {text}");
        assert_eq!(text.matches(&header).count(), 1, "{mode}: the header once");

        // The steps are the game's log in order: every line `replay show` prints (the
        // events, faults, rejections) comes in the same order.
        let show = arena(dir.path(), &["replay", "show", replay]);
        let shown = stdout(&show);
        let mut rest = text.as_str();
        for line in shown.lines().skip(1).filter(|l| !l.starts_with("winner")) {
            let at = rest
                .find(&format!("{line}\n"))
                .unwrap_or_else(|| panic!("{mode}: `{line}` missing or out of order"));
            rest = &rest[at + line.len()..];
        }

        // Played live or stepped through from the file: the same steps.
        let again = arena(dir.path(), &["replay", "show", replay, "--delay", "0"]);
        let again = stdout(&again);
        let live = text.split("\n\n").next().unwrap();
        assert!(
            again.starts_with(live),
            "{mode}: replay show --delay differs from the live view"
        );
        assert!(
            again
                .trim_end()
                .ends_with(shown.trim_end().lines().last().unwrap())
        );
    }
}

#[test]
fn grid_steps_are_rounds_and_each_board_is_drawn_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "grid",
            "builtin:commander",
            "builtin:aggressor",
            "--watch",
            "--rule",
            "turn_limit=30",
        ],
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    // A board's first line is `turn T/30 …`: the board before the first move, then one per
    // round of the ten heroes, then the last (turn 29).
    let boards: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("turn ") && l.contains("/30 "))
        .collect();
    assert_eq!(
        boards
            .iter()
            .map(|b| b.split('/').next().unwrap())
            .collect::<Vec<_>>(),
        ["turn 0", "turn 9", "turn 19", "turn 29"],
        "{text}"
    );
    // Ten hero turns between two boards.
    let between = text
        .split("turn 9/30")
        .nth(1)
        .and_then(|t| t.split("turn 19/30").next())
        .unwrap();
    assert_eq!(
        between
            .lines()
            .filter(|l| l.starts_with("turn ") && l.contains(": "))
            .count(),
        10,
        "{between}"
    );
}

#[test]
fn step_waits_for_enter_and_q_runs_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("grid.json");
    let replay = replay.to_str().unwrap();
    let args = [
        "play",
        "--mode",
        "grid",
        "builtin:commander",
        "builtin:aggressor",
        "--rule",
        "turn_limit=40",
        "--replay",
        replay,
    ];
    // Two Enters, then `q`: three prompts, then no more, and the game still ends.
    let stepped = with_input(dir.path(), &[&args[..], &["--step"]].concat(), "\n\nq\n");
    let text = stdout(&stepped);
    assert_eq!(
        step_prompts(&text),
        ["step 1", "step 2", "step 3"],
        "{text}"
    );
    assert!(text.contains("turn 39/40"), "the last board: {text}");
    assert!(
        text.contains("winner: ") || text.contains("draw — "),
        "{text}"
    );
    // The end of input stops waiting too: one Enter, a second prompt, then the rest.
    let stepped = with_input(dir.path(), &["replay", "show", replay, "--step"], "\n");
    let text = stdout(&stepped);
    assert_eq!(step_prompts(&text), ["step 1", "step 2"], "{text}");
    assert!(text.contains("turn 39/40"), "{text}");
    // Without --step, nothing is asked.
    let plain = with_input(dir.path(), &["replay", "show", replay, "--delay", "0"], "");
    assert!(step_prompts(&stdout(&plain)).is_empty());
}

#[test]
fn a_person_sees_the_other_seats_moves_between_their_turns() {
    let dir = tempfile::tempdir().unwrap();
    let out = with_input(
        dir.path(),
        &["play", "--mode", "battle", "human", "builtin:random"],
        "1 2 3\n3\n3\n3\nQUIT\n",
    );
    let text = stdout(&out);
    // The bot's seat-1 turns are told as they happen, before the next prompt; the picture
    // (the one --watch draws) comes once per decision of the person, above it, and never
    // for the bot's turns (no header repeated).
    let bot_turn = text
        .find("(seat 1), meter")
        .unwrap_or_else(|| panic!("{text}"));
    assert!(text[bot_turn..].contains("you target id"), "{text}");
    let decisions = text.matches(": your #").count();
    assert!(decisions >= 2, "{text}");
    assert_eq!(text.matches("\nseat 0\n").count(), decisions, "{text}");
    for question in text.split(": your #").skip(1) {
        assert!(question.contains("you target id"), "{question}");
    }
    assert!(
        !text.contains("vs builtin:random (seat 1), seed 1\nturn"),
        "{text}"
    );
}

#[test]
fn a_person_out_of_time_faults_like_a_bot_and_the_replay_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("clock.json");
    let mut child = Command::new(arena_bin())
        .args([
            "play",
            "--mode",
            "battle",
            "human",
            "builtin:random",
            "--clock",
            "0.2",
            "--max-faults",
            "2",
            "--replay",
        ])
        .arg(&replay)
        .env("ARENA_CACHE_DIR", dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arena");
    // Standard input stays open and silent: the person never answers.
    let stdin = child.stdin.take();
    let mut text = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    assert!(child.wait().unwrap().success(), "{text}");
    drop(stdin);
    assert!(text.contains("time is up"), "{text}");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    let outcome = &json["outcome"];
    assert_eq!(outcome["winner"], 1, "{outcome}");
    assert_eq!(outcome["reason"], "forfeit: seat 0 faulted 2 times");
    assert_eq!(
        outcome["seats"][0]["fault_kinds"]["timeout"], 2,
        "{outcome}"
    );
    let fault = json["log"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|e| e["answer"].get("fault"))
        .unwrap();
    assert_eq!(fault["kind"], "timeout");
    assert!(
        fault["message"]
            .as_str()
            .unwrap()
            .contains("0.2 s clock (--clock)"),
        "{fault}"
    );
    let verify = arena(dir.path(), &["replay", "verify", replay.to_str().unwrap()]);
    assert!(verify.status.success(), "{}", stdout(&verify));
    // Only a person has a clock.
    let refused = arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "battle",
            "builtin:random",
            "builtin:random",
            "--clock",
            "1",
        ],
    );
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("give `human` as a seat"),
        "{}",
        stderr(&refused)
    );
}

/// A private tmux server (its own socket), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// `None` (the test is skipped, with the reason printed) when tmux is not installed,
    /// unless ARENA_REQUIRE_TMUX is set (CI installs it).
    fn start(command: &str, height: u16) -> Option<Tmux> {
        let found = Command::new("tmux")
            .arg("-V")
            .output()
            .is_ok_and(|o| o.status.success());
        if !found {
            assert!(
                std::env::var_os("ARENA_REQUIRE_TMUX").is_none(),
                "ARENA_REQUIRE_TMUX is set but tmux cannot be run"
            );
            eprintln!("skipped: tmux is not installed (the live view's terminal test needs it)");
            return None;
        }
        // One server per session: a killed server's socket may linger for a moment.
        static SESSIONS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = SESSIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmux = Tmux {
            socket: format!("arena-live-{}-{n}", std::process::id()),
        };
        // The command's exit status is printed, then the pane stays for capture-pane.
        let script = format!("{command}; echo EXIT=$?; sleep 600");
        let height = height.to_string();
        tmux.run(&[
            "new-session",
            "-d",
            "-s",
            "live",
            "-x",
            "120",
            "-y",
            &height,
            "sh",
            "-c",
            &script,
        ]);
        Some(tmux)
    }

    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .env("TERM", "xterm-256color")
            .output()
            .expect("run tmux");
        assert!(out.status.success(), "tmux {args:?}: {}", stderr(&out));
        stdout(&out)
    }

    /// Type `keys` (tmux key names: `Enter` …).
    fn keys(&self, keys: &[&str]) {
        self.run(&[&["send-keys", "-t", "live"], keys].concat());
    }

    /// The screen as it is now.
    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "live"])
    }

    /// The screen once `done` holds for it; fails with the screen after a minute.
    fn wait_for(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if done(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "waiting for {what}; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

#[test]
fn on_a_terminal_a_person_plays_and_bots_are_redrawn_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let arena = arena_bin().display().to_string();
    let cache = dir.path().display().to_string();
    let replay = dir.path().join("human.json");
    let command = format!(
        "cd '{cache}' && ARENA_CACHE_DIR='{cache}' '{arena}' play -m battle human builtin:random --watch --replay human.json"
    );
    let Some(tmux) = Tmux::start(&command, 50) else {
        return;
    };
    tmux.wait_for("the team prompt", |s| s.contains("pick 3 robots by number"));
    tmux.keys(&["1 2 3", "Enter"]);
    let screen = tmux.wait_for("the first decision", |s| {
        s.contains("target id or `skill`>")
    });
    // The prompt shows the --watch picture (cooldowns, skills ready) and the acting robot.
    assert!(screen.contains("skill ready"), "{screen}");
    assert!(screen.contains("acts (armor"), "{screen}");
    tmux.keys(&["4", "Enter"]);
    // The answer went through: a second decision, or the bot's moves after the first.
    // The next question (what is typed before it is shown is dropped).
    tmux.wait_for("the next decision", |s| {
        s.matches("target id or `skill`>").count() >= 2
    });
    tmux.keys(&["QUIT", "Enter"]);
    let screen = tmux.wait_for("the result", |s| s.contains("EXIT="));
    assert!(screen.contains("EXIT=0"), "{screen}");
    assert!(
        screen.contains("forfeit: seat 0 quit (the player typed QUIT)"),
        "{screen}"
    );
    assert!(replay.exists(), "the replay is written after a quit");
    drop(tmux);

    // Bots, stepped with Enter: each step redraws the same screen instead of scrolling.
    let command = format!(
        "ARENA_CACHE_DIR='{cache}' '{arena}' play -m grid builtin:commander builtin:aggressor --step --rule turn_limit=30"
    );
    // 40 rows: a round's lines do not fit under the board; the oldest are left out.
    let Some(tmux) = Tmux::start(&command, 40) else {
        return;
    };
    let first = tmux.wait_for("step 1", |s| s.contains("step 1: Enter for the next"));
    assert!(
        first.starts_with("grid — builtin:commander (seat 0)"),
        "{first}"
    );
    assert!(
        first.contains("step 1\n") || first.contains("   step 1"),
        "{first}"
    );
    assert!(
        first.contains("turn 0/30"),
        "the board before the first round: {first}"
    );
    tmux.keys(&["Enter"]);
    let second = tmux.wait_for("step 2", |s| s.contains("step 2: Enter for the next"));
    // Redrawn from the top: the header is still the first line, the first board is gone.
    assert!(
        second.starts_with("grid — builtin:commander (seat 0)"),
        "{second}"
    );
    assert!(second.contains("turn 9/30"), "{second}");
    assert!(!second.contains("turn 0/30"), "{second}");
    assert!(!second.contains("step 1: Enter"), "{second}");
    assert!(second.contains("earlier lines of this step"), "{second}");
    assert_eq!(
        second.lines().count(),
        40,
        "the screen is full, not scrolled: {second}"
    );
    tmux.keys(&["q", "Enter"]);
    let end = tmux.wait_for("the end", |s| s.contains("EXIT="));
    assert!(end.contains("EXIT=0"), "{end}");
    assert!(
        end.contains("invalid_actions"),
        "the result follows the last screen: {end}"
    );
}

#[test]
fn keys_typed_while_the_other_seat_plays_never_answer_the_next_question() {
    let dir = tempfile::tempdir().unwrap();
    let arena = arena_bin().display().to_string();
    let cache = dir.path().display().to_string();
    // Seed 3 with Tank, Beaverette and Kamikaze: the bot plays turn 1, the person turn 2,
    // the bot turn 3 (its move shown for 1.5 s), the person turn 4.
    let command = format!(
        "cd '{cache}' && ARENA_CACHE_DIR='{cache}' '{arena}' play -m battle builtin:random human --seed 3 --delay 1500"
    );
    let Some(tmux) = Tmux::start(&command, 60) else {
        return;
    };
    tmux.wait_for("the team prompt", |s| s.contains("pick 3 robots by number"));
    tmux.keys(&["4 5 6", "Enter"]);
    tmux.wait_for("turn 2", |s| s.contains("your #5 Kamikaze Bot acts"));
    tmux.keys(&["skill", "Enter"]);
    tmux.keys(&["zzz", "Enter", "9"]);
    let typed = tmux.screen();
    assert!(
        !typed.contains("your #4 Beaverette Bot acts"),
        "typed before the question was shown: {typed}"
    );
    let asked = tmux.wait_for("turn 4", |s| s.contains("your #4 Beaverette Bot acts"));
    std::thread::sleep(Duration::from_millis(500));
    let screen = tmux.screen();
    assert!(!screen.contains("invalid"), "{screen}");
    assert_eq!(screen, asked, "the question waits, untouched");
    // What is typed now answers it.
    tmux.keys(&["QUIT", "Enter"]);
    let end = tmux.wait_for("the end", |s| s.contains("EXIT="));
    assert!(end.contains("EXIT=0"), "{end}");
    assert!(end.contains("the player typed QUIT"), "{end}");
}
