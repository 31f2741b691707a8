//! The sample bots in other languages (C, Zig, AssemblyScript, WAT): each checks, plays
//! battle, and refuses the other modes at start, so a tournament schedules it into battle
//! alone. And the starters every language's `arena new` copies (Rust, Go, Python,
//! JavaScript, TypeScript) play one strategy per mode: the same answers for the same seed.

use crate::arena;
use arena_tests::{bots, stdout};

const FOREIGN: [(&str, &str); 4] = [
    ("c-bot", bots::C_BOT),
    ("zig-bot", bots::ZIG_BOT),
    ("as-bot", bots::AS_BOT),
    ("wat-bot", bots::WAT_BOT),
];

#[test]
fn bots_in_other_languages_play_battle_and_refuse_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    for (name, path) in FOREIGN {
        let out = arena(dir.path(), &["check", path]);
        let text = stdout(&out);
        assert!(out.status.success(), "{name}: {text}");
        assert!(
            text.contains("ok: the bot is ready to play battle\n"),
            "{name}: {text}"
        );
        for mode in ["tcg", "grid"] {
            assert!(
                text.contains(&format!(
                    "start ({mode}): not played — {name} plays battle only"
                )),
                "{name}: {text}"
            );
        }
        assert!(
            text.contains("imports: arena::log"),
            "{name} imports only the log: {text}"
        );
    }
}

#[test]
fn a_tournament_of_them_without_modes_schedules_battle_only() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("languages.toml");
    let mut text =
        "name = \"languages\"\nseed = 4\n[modes.battle]\nturn_cap = 200\n[modes.tcg]\n".to_owned();
    for (name, path) in FOREIGN {
        text += &format!("[[bots]]\nname = \"{name}\"\nbot = {path:?}\n");
    }
    std::fs::write(&file, text).unwrap();
    let out = dir.path().join("results");
    let run = crate::tournament_run(dir.path(), &file, &out, &["--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let modes = report["modes"].as_array().unwrap();
    assert_eq!(modes.len(), 1, "battle only: {report}");
    // 4 bots: 6 pairings of 2 games.
    assert_eq!(report["played"], 12);
    for row in modes[0]["rows"].as_array().unwrap() {
        assert_eq!(row["faults"], 0, "{row}");
    }
}

/// Every mode's Rust starter and the Go, Python, JavaScript and TypeScript starters (their
/// builds here, or their committed ones) give the same answers, turn for turn, against a
/// weak and a strong built-in over three seeds: one strategy per mode in every language,
/// so a student's choice of language changes nothing but the language.
#[test]
fn every_languages_starter_answers_as_the_rust_starter_does() {
    let root = arena_tests::root();
    let js = root.join("sample-bots/js-starter/bot.wasm");
    let ts = root.join("sample-bots/ts-starter/bot.wasm");
    let others = [
        ("go", bots::GO_STARTER.to_owned()),
        ("python", bots::PYTHON_STARTER.to_owned()),
        ("javascript", js.display().to_string()),
        ("typescript", ts.display().to_string()),
    ];
    let modes = [
        ("battle", bots::BATTLE_STARTER, ["random", "heuristic"]),
        ("tcg", bots::TCG_STARTER, ["random", "greedy"]),
        ("grid", bots::GRID_STARTER, ["random-walker", "commander"]),
        ("dungeon", bots::DUNGEON_STARTER, ["random", "heuristic"]),
        ("conquest", bots::CONQUEST_STARTER, ["random", "heuristic"]),
    ];
    let answers = |mode: &str, bot: &str, opponent: &str, seed: &str| -> Vec<serde_json::Value> {
        let dir = tempfile::tempdir().unwrap();
        crate::seat0_answers(
            dir.path(),
            (mode, bot, &format!("builtin:{opponent}")),
            seed,
        )
        .into_iter()
        .map(|a| a["answer"].clone())
        .collect()
    };
    for (mode, rust, opponents) in modes {
        for opponent in opponents {
            for seed in ["1", "2", "3"] {
                let expected = answers(mode, rust, opponent, seed);
                assert!(expected.len() > 3, "{mode}: {expected:?}");
                for (language, bot) in &others {
                    let got = answers(mode, bot, opponent, seed);
                    let first = expected.iter().zip(&got).position(|(a, b)| a != b);
                    assert!(
                        got == expected,
                        "{mode} against {opponent}, seed {seed}: the {language} starter answers \
                         otherwise than the Rust starter (first at answer {first:?} of {} / {}): \
                         {:?} / {:?}",
                        got.len(),
                        expected.len(),
                        first.map(|i| &got[i]),
                        first.map(|i| &expected[i]),
                    );
                }
            }
        }
    }
}
