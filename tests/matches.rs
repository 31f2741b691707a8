//! `arena match`: seat-swapped pairs, Elo and pentanomial statistics, SPRT early stopping
//! at the same pair for any number of threads.

use crate::arena;
use arena_tests::{bots, stderr, stdout};

fn json(out: &std::process::Output) -> serde_json::Value {
    assert!(out.status.success(), "{}\n{}", stdout(out), stderr(out));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn sprt_stops_a_clear_match_early_at_the_same_pair_for_any_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let run = |jobs: &str| {
        arena(
            dir.path(),
            &[
                "match",
                bots::BATTLE_STRONG,
                bots::BATTLE_STARTER,
                "--mode",
                "battle",
                "--games",
                "1000",
                "--sprt",
                "elo0=0 elo1=10 alpha=0.05 beta=0.05",
                "--jobs",
                jobs,
                "--json",
            ],
        )
    };
    let one = json(&run("1"));
    let three = json(&run("3"));
    assert_eq!(one, three, "the stop does not depend on threads");
    assert_eq!(one["sprt"]["decision"], "h1", "{one}");
    let games = one["games"].as_u64().unwrap();
    assert!(games < 1000 && games.is_multiple_of(2), "{one}");
    let llr = one["sprt"]["llr"].as_f64().unwrap();
    assert!(llr >= 19f64.ln(), "{one}");
    let p = &one["pentanomial"];
    let pairs: u64 = ["ll", "ld", "wl", "dd", "wd", "ww"]
        .iter()
        .map(|k| p[k].as_u64().unwrap())
        .sum();
    assert_eq!(2 * pairs, games);
    assert!(one["elo"].as_f64().unwrap() > 10.0, "{one}");

    let text = stdout(&arena(
        dir.path(),
        &[
            "match",
            bots::BATTLE_STRONG,
            bots::BATTLE_STARTER,
            "--mode",
            "battle",
            "--games",
            "1000",
            "--sprt",
            "elo0=0 elo1=10",
        ],
    ));
    for words in [
        "Elo difference: +",
        "Ptnml(0-2): [",
        "H1 accepted: battle_strong is at least 10 Elo stronger",
    ] {
        assert!(text.contains(words), "`{words}` in {text}");
    }
}

#[test]
fn a_fixed_match_plays_every_pair_and_reports_interim_results() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena(
        dir.path(),
        &[
            "match",
            "builtin:heuristic",
            "builtin:random",
            "--mode",
            "battle",
            "--games",
            "8",
            "--rating-interval",
            "2",
            "--json",
        ],
    );
    let result = json(&out);
    assert_eq!(result["games"], 8);
    assert!(result["sprt"].is_null());
    assert_eq!(
        result["wins"].as_u64().unwrap()
            + result["draws"].as_u64().unwrap()
            + result["losses"].as_u64().unwrap(),
        8
    );
    // Interim results after pairs 2 and 4.
    assert_eq!(
        stderr(&out).matches("Ptnml(0-2)").count(),
        2,
        "{}",
        stderr(&out)
    );

    let refused = arena(
        dir.path(),
        &[
            "match",
            bots::BATTLE_STARTER,
            "builtin:random",
            "--mode",
            "tcg",
        ],
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("refuses mode tcg"),
        "{}",
        stderr(&refused)
    );
    let bad = arena(
        dir.path(),
        &[
            "match",
            "builtin:random",
            "builtin:random",
            "--mode",
            "battle",
            "--sprt",
            "elo0=5 elo1=0",
        ],
    );
    assert!(
        stderr(&bad).contains("elo0 (5) must be below elo1 (0)"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn an_sprt_undecided_at_games_says_to_raise_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena(
        dir.path(),
        &[
            "match",
            "builtin:random",
            "builtin:random",
            "--mode",
            "battle",
            "--games",
            "4",
            "--sprt",
            "elo0=0 elo1=10",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("no decision within --games 4: raise it (about --games "),
        "{text}"
    );
}

#[test]
fn the_wat_starter_beats_random_over_twenty_games() {
    let dir = tempfile::tempdir().unwrap();
    let result = json(&arena(
        dir.path(),
        &[
            "match",
            bots::WAT_BOT,
            "builtin:random",
            "--mode",
            "battle",
            "--games",
            "20",
            "--json",
        ],
    ));
    let (wins, losses) = (
        result["wins"].as_u64().unwrap(),
        result["losses"].as_u64().unwrap(),
    );
    assert!(wins > 2 * losses, "{result}");
}
