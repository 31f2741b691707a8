//! `arena play … human …`: a person at the terminal, driven through standard input.

use crate::arena_bin;
use arena_tests::{stderr, stdout};

use std::path::Path;
use std::process::{Command, Output};

/// Run `arena play --mode MODE A B --replay DIR/MODE.json` with `input` on standard input.
fn play(dir: &Path, mode: &str, seats: [&str; 2], input: &str) -> (Output, serde_json::Value) {
    let replay = dir.join(format!("{mode}.json"));
    let replay_arg = replay.to_str().expect("a UTF-8 temporary path");
    let out = crate::arena_with_input(
        dir,
        &[
            "play", "--mode", mode, seats[0], seats[1], "--seed", "3", "--replay", replay_arg,
        ],
        input,
    );
    assert!(
        out.status.success(),
        "stdout: {}\nstderr: {}",
        stdout(&out),
        stderr(&out)
    );
    let verify = Command::new(arena_bin())
        .args(["replay", "verify"])
        .arg(&replay)
        .output()
        .expect("run arena");
    assert!(verify.status.success(), "{}", stderr(&verify));
    let json = serde_json::from_slice(&std::fs::read(&replay).expect("replay written")).unwrap();
    (out, json)
}

/// `line` `times` times.
fn repeat(line: &str, times: usize) -> String {
    format!("{line}\n").repeat(times)
}

#[test]
fn a_person_plays_every_mode_to_its_end_and_the_replay_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        // Targets by id (the enemies are 3, 4, 5); a destroyed one is refused and re-asked.
        (
            "battle",
            "builtin:random",
            format!("1 2 3\n{}", repeat("3\n4\n5\nskill", 3000)),
        ),
        // `1` is the first legal answer: a play while one is possible, else `end`.
        ("tcg", "builtin:random", format!("\n{}", repeat("1", 3000))),
        ("grid", "builtin:random-walker", repeat("stay", 20_000)),
        (
            "dungeon",
            "builtin:random",
            format!("1 2 3 4\n{}", repeat("1", 20_000)),
        ),
        // The original's stages: no recruits, no moves, every year.
        ("conquest", "builtin:random", repeat("NO", 2000)),
    ];
    for (mode, bot, input) in cases {
        let (out, replay) = play(dir.path(), mode, ["human", bot], &input);
        let text = stdout(&out);
        let outcome = &replay["outcome"];
        assert!(
            !outcome["reason"].as_str().unwrap().contains("forfeit"),
            "{mode}: {outcome}\n{text}"
        );
        assert_eq!(outcome["seats"][0]["faults"], 0, "{mode}: {outcome}");
        assert_eq!(replay["bots"][0]["name"], "human", "{mode}");
        assert!(text.contains("you are seat 0"), "{mode}: {text}");
        assert!(text.contains("game over"), "{mode}: {text}");
    }
}

#[test]
fn the_human_takes_either_seat_and_both_in_hot_seat() {
    let dir = tempfile::tempdir().unwrap();
    let (out, replay) = play(
        dir.path(),
        "grid",
        ["builtin:random-walker", "human"],
        // North, or south where north is off the board (refused at the prompt, no strike).
        &repeat("n\ns", 10_000),
    );
    assert!(stdout(&out).contains("you are seat 1"));
    assert_eq!(replay["bots"][1]["name"], "human");
    assert_eq!(replay["outcome"]["seats"][1]["faults"], 0);

    let (out, replay) = play(dir.path(), "tcg", ["human", "human"], &repeat("1", 6000));
    let text = stdout(&out);
    assert!(
        text.contains("seat 0 choose") && text.contains("seat 1 choose"),
        "{text}"
    );
    assert_eq!(replay["outcome"]["seats"][0]["faults"], 0);
    assert_eq!(replay["outcome"]["seats"][1]["faults"], 0);
}

#[test]
fn invalid_input_re_prompts_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "battle",
            "builtin:random",
            "1 1 1\n9\nfoo\n",
            "pick exactly 3 different robots",
        ),
        (
            "tcg",
            "builtin:random",
            "\n99\nplay 42\nattack x hero\n",
            "no card 42 in your hand",
        ),
        (
            "grid",
            "builtin:random-walker",
            "up\n0\n",
            "type n, e, s, w or stay",
        ),
        (
            "dungeon",
            "builtin:random",
            "1\n1 1 1 1\njump Troll1\n",
            "`jump` is not an ability",
        ),
        (
            "conquest",
            "builtin:random",
            "X 1 1\nS 99 99\n",
            "Sorry, invalid input. Try again.",
        ),
    ];
    for (mode, bot, input, reason) in cases {
        let (out, replay) = play(dir.path(), mode, ["human", bot], &format!("{input}QUIT\n"));
        let text = stdout(&out);
        assert!(text.contains(reason), "{mode}: {text}");
        assert!(
            text.contains("invalid") || text.contains("Try again"),
            "{mode}: {text}"
        );
        // The invalid lines were refused, not sent: no rejected answers, only the quit.
        assert_eq!(
            replay["outcome"]["seats"][0]["invalid_actions"], 0,
            "{mode}"
        );
        assert_eq!(replay["outcome"]["winner"], 1, "{mode}");
    }
}

/// A line that is not UTF-8 is an answer not understood (re-prompted), not the end of input.
#[test]
fn a_line_that_is_not_utf8_is_re_prompted_not_taken_for_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let out = crate::arena_with_input(
        dir.path(),
        &[
            "play",
            "--mode",
            "battle",
            "human",
            "builtin:random",
            "--seed",
            "3",
        ],
        b"\xff\xfe\n1 2 3\nQUIT\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("the player typed QUIT"), "{text}");
    assert!(!text.contains("input ended"), "{text}");
}

#[test]
fn quit_and_end_of_input_forfeit_and_still_write_the_replay() {
    let dir = tempfile::tempdir().unwrap();
    for (mode, input, why) in [
        ("battle", "\nquit\n", "the player typed QUIT"),
        ("conquest", "", "the player's input ended"),
        ("dungeon", "\n1\n", "the player's input ended"),
    ] {
        let (out, replay) = play(dir.path(), mode, ["builtin:random", "human"], input);
        let text = stdout(&out);
        assert!(
            text.contains("you quit: the seat forfeits"),
            "{mode}: {text}"
        );
        // A quit reads as one: in the result line, the replay and `replay show`; it is
        // one `quit` fault, and the seat forfeits at once.
        let reason = format!("forfeit: seat 1 quit ({why})");
        assert_eq!(replay["outcome"]["reason"], reason, "{mode}");
        assert!(
            text.contains(&format!("winner: builtin:random (seat 0) — {reason}")),
            "{mode}: {text}"
        );
        assert_eq!(replay["outcome"]["seats"][1]["faults"], 1, "{mode}");
        assert_eq!(
            replay["outcome"]["seats"][1]["fault_kinds"]["quit"], 1,
            "{mode}"
        );
        let path = dir.path().join(format!("{mode}.json"));
        let show = crate::arena(dir.path(), &["replay", "show", path.to_str().unwrap()]);
        let shown = stdout(&show);
        assert!(
            shown.contains(&format!("seat 1 quit: {why}")),
            "{mode}: {shown}"
        );
        assert!(shown.contains(&reason), "{mode}: {shown}");
        assert_eq!(replay["outcome"]["winner"], 0, "{mode}");
        assert!(
            replay["outcome"]["seats"][1]["forfeited"]
                .as_bool()
                .unwrap(),
            "{mode}"
        );
        assert!(text.contains("replay written to"), "{mode}: {text}");
    }
}

#[test]
fn the_dungeon_prompt_names_a_monster_that_is_there_and_its_next_ability() {
    let dir = tempfile::tempdir().unwrap();
    let (out, _) = play(
        dir.path(),
        "dungeon",
        ["human", "builtin:random"],
        "2 2 2 2\nQUIT\n",
    );
    let text = stdout(&out);
    let example = text
        .split("(e.g. `")
        .nth(1)
        .and_then(|t| t.split('`').next())
        .unwrap_or_else(|| panic!("an example in the prompt: {text}"));
    let target = example.split_whitespace().nth(1).unwrap();
    let view = text.split("choose 1-").next().unwrap();
    // The picture --watch draws: each monster's next ability (as the monsters' command
    // queues say), each hero's stats; the choices give each ability's mana cost.
    assert!(
        view.lines().any(|l| {
            let l = l.trim_start();
            l.starts_with(&format!("{target} ")) && l.contains(" next ")
        }),
        "`{example}` names a monster of the wave: {view}"
    );
    assert!(view.contains(" str ") && view.contains(" int "), "{view}");
    assert!(
        view.lines()
            .any(|l| l.contains("frostbolt ") && l.ends_with(" mp)")),
        "{view}"
    );
}

/// A person sees what their seat's observation holds, plus public events: not the other
/// seat's draws (tcg), resources (conquest) or run (dungeon); in hot-seat play each seat
/// sees its own draws, just before its own prompt.
#[test]
fn a_person_is_never_shown_what_their_seat_may_not_see() {
    let dir = tempfile::tempdir().unwrap();
    let (out, replay) = play(
        dir.path(),
        "tcg",
        ["human", "builtin:greedy"],
        &format!("\n{}", repeat("1", 3000)),
    );
    let text = stdout(&out);
    let drawn_by_them = replay["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["event"]["type"] == "draw" && e["event"]["seat"] == 1)
        .count();
    assert!(drawn_by_them > 5, "{drawn_by_them}");
    assert_eq!(
        text.matches("seat 1 draws a card").count(),
        drawn_by_them,
        "{text}"
    );
    assert_eq!(
        text.matches("seat 1 draws ").count(),
        drawn_by_them,
        "no draw of theirs named: {text}"
    );
    assert!(text.contains("seat 0 draws "), "{text}");
    assert!(!text.contains("deck after shuffling"), "{text}");

    // Hot-seat: every named draw is the draw of the seat prompted next.
    let (out, _) = play(dir.path(), "tcg", ["human", "human"], &repeat("1", 6000));
    // Piped input is not echoed: what follows a prompt starts on its line.
    let text = stdout(&out).replace("> ", ">\n");
    let mut seen = 0;
    for (i, line) in text.lines().enumerate() {
        let Some(seat) = line
            .strip_prefix("seat ")
            .and_then(|rest| rest.split_once(" draws "))
            .filter(|(_, card)| *card != "a card")
            .map(|(seat, _)| seat)
        else {
            continue;
        };
        seen += 1;
        let next_prompt = text
            .lines()
            .skip(i)
            .find_map(|l| l.strip_prefix("seat ").filter(|l| l.contains(" choose")))
            .map(|l| &l[..1]);
        if let Some(prompted) = next_prompt {
            assert_eq!(prompted, seat, "line {i}: {line}");
        }
    }
    assert!(seen > 10, "{seen} named draws");

    let (out, _) = play(
        dir.path(),
        "conquest",
        ["human", "builtin:random"],
        &repeat("NO", 2000),
    );
    let text = stdout(&out);
    assert!(
        text.contains("+++Player 1's Stage+++ [Your Asset:"),
        "{text}"
    );
    assert!(
        !text.contains("+++Player 2's Stage+++ [Your Asset"),
        "{text}"
    );
    assert!(text.contains("+++Player 2's Stage+++"), "{text}");

    let (out, _) = play(
        dir.path(),
        "dungeon",
        ["builtin:random", "human"],
        &format!("1 2 3 4\n{}", repeat("1", 20_000)),
    );
    let text = stdout(&out);
    assert!(!text.contains("Seat 0 enters the dungeon"), "{text}");
    assert!(text.contains("Seat 1 enters the dungeon"), "{text}");
}

/// `auto` hands the seat to a built-in: for the rest of the game, or N decisions and back.
#[test]
fn auto_hands_the_seat_to_a_built_in_for_the_game_or_n_decisions() {
    let dir = tempfile::tempdir().unwrap();
    let (out, replay) = play(
        dir.path(),
        "battle",
        ["human", "builtin:random"],
        "\nauto\n",
    );
    let text = stdout(&out);
    assert!(
        text.contains("auto: builtin:strong plays this seat for the rest of the game"),
        "{text}"
    );
    let outcome = &replay["outcome"];
    assert_eq!(outcome["seats"][0]["faults"], 0, "{outcome}");
    assert_eq!(outcome["seats"][0]["invalid_actions"], 0, "{outcome}");
    assert!(
        !outcome["reason"].as_str().unwrap().contains("quit"),
        "{outcome}"
    );

    let (out, replay) = play(
        dir.path(),
        "grid",
        ["human", "builtin:coward"],
        "auto nonsense\nauto 2 random-walker\nQUIT\n",
    );
    let text = stdout(&out);
    assert!(
        text.contains(
            "invalid: `nonsense` is neither a number of decisions nor a built-in of grid"
        ),
        "{text}"
    );
    assert!(
        text.contains("auto: builtin:random-walker plays this seat's next 2 decisions"),
        "{text}"
    );
    assert!(text.contains("hands the seat back to you"), "{text}");
    assert_eq!(
        replay["outcome"]["reason"], "forfeit: seat 0 quit (the player typed QUIT)",
        "{text}"
    );
    let answers = replay["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "answer" && e["seat"] == 0 && e["answer"].get("action").is_some())
        .count();
    assert_eq!(
        answers, 2,
        "the built-in's two decisions are the seat's answers"
    );
}

/// After `auto`, the end of input changes nothing: the built-in plays the seat to the end,
/// and the replay says from which decision it did.
#[test]
fn auto_then_the_end_of_input_leaves_the_seat_to_the_built_in_as_the_replay_says() {
    let dir = tempfile::tempdir().unwrap();
    let out = crate::arena_with_input(
        dir.path(),
        &[
            "play",
            "--mode",
            "grid",
            "human",
            "builtin:coward",
            "--rule",
            "turn_limit=40",
            "--replay",
            dir.path().join("grid.json").to_str().unwrap(),
        ],
        "n\nauto safe-diamond-miner\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let replay: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("grid.json")).unwrap()).unwrap();
    let outcome = &replay["outcome"];
    assert_eq!(outcome["seats"][0]["faults"], 0, "{outcome}");
    assert_eq!(outcome["seats"][0]["forfeited"], false, "{outcome}");
    assert_eq!(
        outcome["reason"].as_str().unwrap().split(':').next(),
        Some("turn limit"),
        "{outcome}"
    );
    // The seat's answers: the person's first, then the built-in's, the first of which logs
    // the hand-over (at turn 2: seat 0 moves on even turns).
    let answers: Vec<&serde_json::Value> = replay["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "answer" && e["seat"] == 0 && e["answer"].get("action").is_some())
        .collect();
    assert_eq!(
        answers.len(),
        20,
        "every one of the seat's 20 turns answered"
    );
    let logged: Vec<(u64, &str)> = answers
        .iter()
        .filter_map(|e| Some((e["turn"].as_u64()?, e["log"].as_str()?)))
        .collect();
    assert_eq!(
        logged,
        [(
            2,
            "auto: builtin:safe-diamond-miner plays this seat for the rest of the game (from this decision on)\n"
        )],
        "{answers:?}"
    );
}

/// `arena rules MODE` is one screen of how to play, and `?` at any prompt shows it.
#[test]
fn how_to_play_fits_one_screen_and_question_mark_shows_it() {
    let dir = tempfile::tempdir().unwrap();
    for mode in ["battle", "tcg", "grid", "dungeon", "conquest"] {
        let out = crate::arena(dir.path(), &["rules", mode]);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        assert!(text.starts_with(&format!("{mode} — ")), "{text}");
        assert!(text.lines().count() <= 22, "{mode}: one screen\n{text}");
        assert!(
            text.lines().all(|l| l.chars().count() <= 90),
            "{mode}\n{text}"
        );
        for part in ["A turn", "The end", "Answers", "Example"] {
            assert!(text.contains(part), "{mode} says {part}\n{text}");
        }
    }
    let (out, _) = play(
        dir.path(),
        "battle",
        ["human", "builtin:random"],
        "?\n\n?\nauto\n",
    );
    let text = stdout(&out);
    assert_eq!(text.matches("battle — Bot Wars").count(), 2, "{text}");
}

/// The picture above a person's prompt is the one `--watch` draws of the game as it
/// stands (the same code: `arena replay show` of the game draws it again), and Enter alone
/// shows the question again without answering it.
#[test]
fn the_prompt_shows_the_watch_picture_and_enter_alone_shows_it_again() {
    let dir = tempfile::tempdir().unwrap();
    for (mode, opponent, setup, own_line) in [
        ("battle", "builtin:random", "1 2 3\n", "turn 1/600: your #"),
        ("grid", "builtin:coward", "", "turn 0/1250: you move hero 0"),
        ("dungeon", "builtin:random", "1 2 3 4\n", "wave 1/10, turn "),
    ] {
        let (out, _) = play(
            dir.path(),
            mode,
            ["human", opponent],
            &format!("{setup}\nauto 1\nQUIT\n"),
        );
        let text = stdout(&out);
        // Piped input is not echoed: each prompt ends where the next output starts.
        let first = text
            .find(own_line)
            .unwrap_or_else(|| panic!("{mode}: {text}"));
        let asked = first + text[first..].find("> ").unwrap() + 2;
        let again = &text[asked..asked + text[asked..].find("> ").unwrap()];
        let picture = &again[..again
            .find(own_line)
            .unwrap_or_else(|| panic!("{mode}: {again}"))];
        assert!(picture.lines().count() >= 5, "{mode}: {again}");
        assert!(
            text[..first].ends_with(picture),
            "{mode}: the question shown again is the question: {text}"
        );
        assert!(
            text[asked..].contains("auto: builtin:"),
            "{mode}: the empty line answered nothing: {text}"
        );
        let shown = crate::arena(
            &dir.path().join("cache"),
            &[
                "replay",
                "show",
                "--delay",
                "0",
                dir.path().join(format!("{mode}.json")).to_str().unwrap(),
            ],
        );
        assert!(shown.status.success(), "{shown:?}");
        assert!(
            stdout(&shown).contains(picture.trim_end()),
            "{mode}: the prompt's picture\n{picture}\nis not the --watch picture:\n{}",
            stdout(&shown)
        );
    }
}
