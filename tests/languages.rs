//! The sample bots in other languages (C, Zig, AssemblyScript, WAT): each checks, plays
//! battle, and refuses the other modes at start, so a tournament schedules it into battle
//! alone.

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
