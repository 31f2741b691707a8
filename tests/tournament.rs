//! Tournaments through the binary: end to end, determinism across jobs and shards,
//! resuming after `kill -9`, malformed files, hostile bots, gauntlets.

use crate::tournament_run as run;
use crate::{arena, arena_bin};
use arena_tests::{bots, hostile, root, stderr, stdout};
use std::path::{Path, PathBuf};

fn sorted_lines(dir: &Path) -> String {
    let mut lines: Vec<(u64, String)> = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "jsonl") {
            for line in std::fs::read_to_string(&path).unwrap().lines() {
                let game: serde_json::Value = serde_json::from_str(line).unwrap();
                lines.push((game["game"].as_u64().unwrap(), line.to_owned()));
            }
        }
    }
    lines.sort();
    lines.into_iter().map(|(_, l)| l + "\n").collect()
}

fn small() -> PathBuf {
    root().join("tournaments/small.toml")
}

#[test]
fn a_small_tournament_runs_end_to_end_with_a_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results");
    let output = run(dir.path(), &small(), &out, &["--jobs", "2"]);
    let text = stdout(&output);
    assert!(
        !text.contains("overall"),
        "no ranking across modes:\n{text}"
    );
    for words in [
        "standings — battle",
        "standings — tcg",
        "results matrix",
        "statistics — battle",
        "damage_dealt",
    ] {
        assert!(text.contains(words), "`{words}` in:\n{text}");
    }
    let plan = arena(
        dir.path(),
        &["tournament", "plan", small().to_str().unwrap(), "--json"],
    );
    let plan: serde_json::Value = serde_json::from_slice(&plan.stdout).unwrap();
    let planned = plan["games"].as_array().unwrap().len();
    // battle: wat-bot, random, heuristic (3 pairings); tcg: random, greedy (1): 2 games each.
    assert_eq!(planned, (3 + 1) * 2);
    assert_eq!(sorted_lines(&out).lines().count(), planned);

    let picture = std::fs::read_to_string(out.join("standings.svg")).unwrap();
    assert!(picture.starts_with("<svg"), "{picture}");
    for bot in ["wat-bot", "random", "heuristic", "greedy"] {
        assert!(
            picture.contains(&format!(". {bot}</text>")),
            "{bot} is drawn"
        );
    }
    for format in ["json", "csv", "md", "svg"] {
        let report = arena(
            dir.path(),
            &[
                "tournament",
                "report",
                out.to_str().unwrap(),
                "--format",
                format,
            ],
        );
        assert!(report.status.success(), "{format}: {}", stderr(&report));
        let text = stdout(&report);
        match format {
            "json" => {
                let value: serde_json::Value = serde_json::from_str(&text).unwrap();
                assert_eq!(value["played"], planned);
                assert!(value["modes"][0]["rows"][0]["elo"].as_f64().is_some());
                assert!(value.get("overall").is_none(), "no ranking across modes");
            }
            "csv" => assert!(
                text.starts_with("scope,rank,bot,games,wins,draws,losses"),
                "{text}"
            ),
            "svg" => assert_eq!(text, picture),
            _ => assert!(text.contains("| bot "), "{text}"),
        }
    }
}

/// Every replay file of a results directory, by name.
fn replay_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir.join("replays"))
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// The workers write the replays in parallel, each before its game's line: the files and
/// the log are the same at any concurrency.
#[test]
fn replays_are_identical_for_any_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("jobs1");
    let three = dir.path().join("jobs3");
    run(
        dir.path(),
        &small(),
        &one,
        &["--jobs", "1", "--replays", "--quiet"],
    );
    run(
        dir.path(),
        &small(),
        &three,
        &["--jobs", "3", "--replays", "--quiet"],
    );
    let reference = replay_files(&one);
    let games = sorted_lines(&one).lines().count();
    assert_eq!(reference.len(), games, "one replay per game");
    assert!(reference.iter().all(|(name, _)| name.ends_with(".json")));
    assert_eq!(reference, replay_files(&three));
    assert_eq!(sorted_lines(&one), sorted_lines(&three));
}

#[test]
fn results_are_identical_for_any_jobs_and_for_merged_shards() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("jobs1");
    let two = dir.path().join("jobs2");
    run(dir.path(), &small(), &one, &["--jobs", "1", "--quiet"]);
    run(dir.path(), &small(), &two, &["--jobs", "2", "--quiet"]);
    let reference = sorted_lines(&one);
    assert_eq!(reference, sorted_lines(&two));

    let shards: Vec<PathBuf> = (0..3)
        .map(|k| dir.path().join(format!("shard{k}")))
        .collect();
    for (k, shard) in shards.iter().enumerate() {
        run(
            dir.path(),
            &small(),
            shard,
            &["--shard", &format!("{k}/3"), "--quiet"],
        );
    }
    let merged = dir.path().join("merged");
    let mut args = vec!["tournament", "merge"];
    args.extend(shards.iter().map(|s| s.to_str().unwrap()));
    args.extend(["--out", merged.to_str().unwrap(), "--format", "json"]);
    let output = arena(dir.path(), &args);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        reference,
        std::fs::read_to_string(merged.join("results.jsonl")).unwrap()
    );
    let report = |d: &Path| {
        stdout(&arena(
            dir.path(),
            &[
                "tournament",
                "report",
                d.to_str().unwrap(),
                "--format",
                "json",
            ],
        ))
    };
    assert_eq!(report(&one), report(&merged));

    // A merge with a shard missing lists the missing games and fails.
    let partial = dir.path().join("partial");
    let output = arena(
        dir.path(),
        &[
            "tournament",
            "merge",
            shards[0].to_str().unwrap(),
            "--out",
            partial.to_str().unwrap(),
        ],
    );
    assert!(!output.status.success());
    assert!(stderr(&output).contains("missing"), "{}", stderr(&output));
}

#[test]
fn shard_index_comes_from_the_cluster_environment() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("k8s");
    let output = std::process::Command::new(arena_bin())
        .args([
            "tournament",
            "run",
            small().to_str().unwrap(),
            "--shard",
            "2",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ])
        .env("ARENA_CACHE_DIR", dir.path())
        .env("JOB_COMPLETION_INDEX", "1")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(out.join("results-shard-1-of-2.jsonl").is_file());
    // Pairs 1 and 3 of 4: games 2, 3, 6, 7.
    let games: Vec<u64> = sorted_lines(&out)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["game"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(games, vec![2, 3, 6, 7]);
}

/// Games in [`slow_tournament`]: enough that a run is still going a few games in (a game
/// takes a few milliseconds since the binary encoding and pooled instances).
const SLOW_GAMES: usize = 80;

/// A tournament slow enough to interrupt: wasm grid bots playing full 1250-turn games.
fn slow_tournament(dir: &Path) -> PathBuf {
    let file = dir.join("slow.toml");
    let text = format!(
        "name = \"slow\"\nseed = 11\ngames_per_pairing = {SLOW_GAMES}\n[modes.grid]\n\
         [[bots]]\nname = \"starter\"\nbot = {:?}\n[[bots]]\nname = \"commander\"\nbot = {:?}\n",
        bots::GRID_STARTER,
        bots::GRID_COMMANDER
    );
    std::fs::write(&file, text).unwrap();
    file
}

#[test]
fn a_killed_run_resumes_with_nothing_lost_or_counted_twice() {
    let dir = tempfile::tempdir().unwrap();
    let file = slow_tournament(dir.path());
    let clean = dir.path().join("clean");
    run(dir.path(), &file, &clean, &["--jobs", "2", "--quiet"]);

    let out = dir.path().join("interrupted");
    let mut child = std::process::Command::new(arena_bin())
        .args([
            "tournament",
            "run",
            file.to_str().unwrap(),
            "--jobs",
            "1",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ])
        .env("ARENA_CACHE_DIR", dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let results = out.join("results.jsonl");
    let finished = |p: &Path| {
        std::fs::read_to_string(p)
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    while finished(&results) < 2 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it could be interrupted"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = finished(&results);
    assert!(before < SLOW_GAMES, "interrupted mid-run");
    // A torn line, as if the kill had landed mid-write.
    let mut text = std::fs::read_to_string(&results).unwrap();
    text.push_str("{\"fingerprint\":\"abc\",\"game\":");
    std::fs::write(&results, text).unwrap();

    let output = run(dir.path(), &file, &out, &["--jobs", "2", "--quiet"]);
    assert!(
        stderr(&output).contains(&format!(
            "this run played {} games; {before} were finished earlier; {SLOW_GAMES} of the {SLOW_GAMES} games",
            SLOW_GAMES - before
        )),
        "{}",
        stderr(&output)
    );
    assert_eq!(sorted_lines(&clean), sorted_lines(&out));
    // Running again plays nothing.
    let output = run(dir.path(), &file, &out, &["--quiet"]);
    assert!(
        stderr(&output).contains("this run played 0 games"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_hostile_bot_forfeits_its_games_and_the_tournament_completes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hostile.toml");
    let text = format!(
        "name = \"hostile\"\nseed = 3\ngames_per_pairing = 2\n[limits]\nfuel_per_turn = 1_000_000\nfuel_per_setup = 5_000_000\n\
         [modes.battle]\n[[bots]]\nname = \"looper\"\nbot = {:?}\n[[bots]]\nname = \"trapper\"\nbot = {:?}\n\
         [[bots]]\nname = \"random\"\nbot = \"builtin:random\"\n",
        hostile("infinite-loop.wat"),
        hostile("trap.wat")
    );
    std::fs::write(&file, text).unwrap();
    let out = dir.path().join("results");
    run(dir.path(), &file, &out, &["--quiet"]);
    let report = arena(
        dir.path(),
        &[
            "tournament",
            "report",
            out.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    let report: serde_json::Value = serde_json::from_slice(&report.stdout).unwrap();
    let rows = report["modes"][0]["rows"].as_array().unwrap();
    let row = |name: &str| rows.iter().find(|r| r["bot"] == name).unwrap().clone();
    assert_eq!(report["played"], 6);
    assert_eq!(row("random")["wins"], 4);
    // Every game with a hostile bot ends in a forfeit: both games against random for
    // each, and one forfeit in each of their two games against each other.
    let forfeits = |name: &str| row(name)["forfeits"].as_u64().unwrap();
    assert!(
        forfeits("looper") >= 2 && forfeits("trapper") >= 2,
        "{rows:?}"
    );
    assert_eq!(forfeits("looper") + forfeits("trapper"), 6, "{rows:?}");
    // The looper runs out of fuel in its start, and again in the start of the fresh
    // instance its next request gets; with that restart failed, its third fault of a game
    // is the missing instance: at most one a game (four games), two out of fuel before it.
    let (timeouts, faults) = (
        row("looper")["timeouts"].as_u64().unwrap(),
        row("looper")["faults"].as_u64().unwrap(),
    );
    let missing = faults - timeouts;
    assert!(
        missing <= 4 && timeouts >= 2 * missing && timeouts > 0,
        "the looper runs out of fuel, or has no instance left: {rows:?}"
    );
    assert_eq!(row("trapper")["timeouts"], 0);
}

#[test]
fn malformed_tournament_files_get_file_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let two_bots = "[[bots]]\nname = \"a\"\nbot = \"builtin:random\"\n[[bots]]\nname = \"b\"\nbot = \"builtin:random\"\n";
    let cases = [
        (format!("name = \"x\"\nseed = 1\ngames_per_pairing = 3\n[modes.battle]\n{two_bots}"), ":3: games_per_pairing is 3"),
        (format!("name = \"x\"\nseed = 1\n[modes.chess]\n{two_bots}"), ":3: [modes.chess]: unknown mode `chess`"),
        (format!("name = \"x\"\nseed = 1\n[modes.battle]\nturn_cap = \"soon\"\n{two_bots}"), ":3: rules for mode battle: turn_cap"),
        ("name = \"x\"\nseed = 1\n[modes.battle]\n".to_owned(), "missing field `bots`"),
        (
            "name = \"x\"\nseed = 1\n[modes.battle]\n[[bots]]\nname = \"a\"\nbot = \"builtin:random\"\n[[bots]]\nname = \"a\"\nbot = \"builtin:strong\"\n".to_owned(),
            ":8: two bots are named `a`",
        ),
        (
            format!("name = \"x\"\nseed = 1\n[modes.battle]\n[[bots]]\nname = \"c\"\nbot = \"builtin:commander\"\nmodes = [\"battle\"]\n{two_bots}"),
            ":6: `builtin:commander` is not a built-in of mode battle",
        ),
        (format!("name = \"x\"\nseed = 1\n[modes.battle]\n[[bots]]\nname = \"m\"\nbot = \"missing.wasm\"\n{two_bots}"), ":6: bot file"),
        (format!("name = \"x\"\nseed = \"one\"\n[modes.battle]\n{two_bots}"), ":2:"),
        (format!("name = \"x\"\nseed = 1\nspeed = 3\n[modes.battle]\n{two_bots}"), "unknown field `speed`"),
        (format!("name = \"x\"\nseed = 1\n[modes.grid]\nmap_file = \"nowhere.map\"\n{two_bots}"), ":3: map_file"),
        (format!("name = \"x\"\nseed = 1\ngames_per_pairing = 2\nformat = \"gauntlet\"\n[modes.battle]\n{two_bots}"), "needs `challengers"),
    ];
    for (text, words) in cases {
        let file = dir.path().join("bad.toml");
        std::fs::write(&file, &text).unwrap();
        let out = arena(dir.path(), &["tournament", "plan", file.to_str().unwrap()]);
        assert!(!out.status.success(), "{text}");
        let error = stderr(&out);
        assert!(error.contains("bad.toml"), "names the file: {error}");
        assert!(error.contains(words), "`{words}` in: {error}");
    }
}

#[test]
fn results_of_another_plan_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results");
    run(dir.path(), &small(), &out, &["--quiet"]);
    let other = dir.path().join("other.toml");
    let text = std::fs::read_to_string(small())
        .unwrap()
        .replace("seed = 7", "seed = 8");
    std::fs::write(
        &other,
        text.replace(
            "../sample-bots",
            &root().join("sample-bots").display().to_string(),
        ),
    )
    .unwrap();
    let output = arena(
        dir.path(),
        &[
            "tournament",
            "run",
            other.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("another plan"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn gauntlet_reports_score_and_elo_against_each_builtin() {
    let dir = tempfile::tempdir().unwrap();
    let out = arena(
        dir.path(),
        &[
            "gauntlet",
            bots::BATTLE_STARTER,
            "--mode",
            "battle",
            "--games",
            "4",
        ],
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    for builtin in ["battle/random", "battle/heuristic", "battle/strong"] {
        assert!(text.contains(builtin), "{text}");
    }
    assert!(text.contains("Elo diff"), "{text}");
    assert!(text.contains("battle — battle_starter"), "{text}");
}

#[test]
fn grid_reports_show_each_heros_statistics_beside_the_team_totals() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.toml");
    std::fs::write(
        &file,
        "name = \"g\"\nseed = 2\ngames_per_pairing = 2\n[modes.grid]\nturn_limit = 60\n\
         [[bots]]\nname = \"walker\"\nbot = \"builtin:random-walker\"\n\
         [[bots]]\nname = \"north\"\nbot = \"builtin:northerner\"\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    crate::tournament_run(dir.path(), &file, &out, &["--quiet"]);
    let report = arena(dir.path(), &["tournament", "report", out.to_str().unwrap()]);
    let text = stdout(&report);
    assert!(report.status.success(), "{}", stderr(&report));
    let (teams, heroes) = text
        .split_once("statistics per hero — grid (total, per game)")
        .unwrap_or_else(|| panic!("no per-hero table: {text}"));
    assert!(teams.contains("statistics — grid"), "{text}");
    assert!(
        !teams.contains("hero0_"),
        "the team table keeps the team keys: {text}"
    );
    // Five heroes per team by default: a row per bot and hero.
    let rows = heroes
        .lines()
        .filter(|l| l.starts_with("north ") || l.starts_with("walker "))
        .count();
    assert_eq!(rows, 10, "{heroes}");
    assert!(heroes.contains("mines_captured"), "{heroes}");
}

#[test]
fn a_tcg_bot_plays_its_own_deck_from_either_seat() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("mid.deck"),
        "# no duds\n4x spark\n4x zap\n4x bolt\n4x blast\n4x fireball\n",
    )
    .unwrap();
    let file = dir.path().join("t.toml");
    let head = "name = \"t\"\nseed = 5\ngames_per_pairing = 2\n[modes.tcg]\n\n\
                [[bots]]\nname = \"own\"\nbot = \"builtin:greedy\"\n";
    std::fs::write(
        &file,
        format!(
            "{head}deck = \"mid.deck\"\n[[bots]]\nname = \"plain\"\nbot = \"builtin:greedy\"\n"
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    run(dir.path(), &file, &out, &["--replays", "--quiet"]);
    for game in 0..2u32 {
        let replay: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(out.join(format!("replays/game-{game:06}.json"))).unwrap(),
        )
        .unwrap();
        let own = replay["bots"]
            .as_array()
            .unwrap()
            .iter()
            .position(|b| b["name"] == "own")
            .unwrap();
        let ids = |seat: usize| -> Vec<String> {
            replay["initial"]["decks"][seat]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["card"]["id"].as_str().unwrap().to_owned())
                .collect()
        };
        assert!(ids(own).iter().all(|id| id != "dud"), "game {game}");
        assert_eq!(ids(1 - own).iter().filter(|id| *id == "dud").count(), 2);
        assert!(replay["rules"][format!("deck{own}")].is_array());
        assert!(replay["rules"].get(format!("deck{}", 1 - own)).is_none());
    }

    // A bad deck names the tournament file's line and the deck file's.
    std::fs::write(dir.path().join("bad.deck"), "4x spark\n\n4x nosuch\n").unwrap();
    std::fs::write(
        &file,
        format!(
            "{head}deck = \"bad.deck\"\n[[bots]]\nname = \"plain\"\nbot = \"builtin:greedy\"\n"
        ),
    )
    .unwrap();
    let out = arena(dir.path(), &["tournament", "plan", file.to_str().unwrap()]);
    assert!(!out.status.success());
    let said = stderr(&out);
    assert!(
        said.contains("t.toml:9") && said.contains("bad.deck: line 3: unknown card `nosuch`"),
        "{said}"
    );
    // `deck` on a bot that does not play tcg.
    std::fs::write(
        &file,
        "name = \"t\"\nseed = 5\n[modes.tcg]\n[modes.battle]\n\
         [[bots]]\nname = \"b\"\nbot = \"builtin:random\"\nmodes = [\"battle\"]\ndeck = \"mid.deck\"\n\
         [[bots]]\nname = \"c\"\nbot = \"builtin:random\"\n",
    )
    .unwrap();
    let out = arena(dir.path(), &["tournament", "plan", file.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("t.toml:9") && stderr(&out).contains("the bot does not play tcg"),
        "{}",
        stderr(&out)
    );
}

/// Every reader of a deck file says the same: the file and, for a bad deck, the line.
#[test]
fn deck_errors_name_the_file_and_line_wherever_a_deck_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.deck");
    std::fs::write(&bad, "4x spark\n\n4x nosuch\n").unwrap();
    let missing = dir.path().join("missing.deck");
    let said = |args: &[&str]| {
        let out = arena(dir.path(), args);
        assert!(!out.status.success(), "{args:?}");
        stderr(&out)
    };
    let (bad_s, missing_s) = (bad.to_str().unwrap(), missing.to_str().unwrap());
    let bad_line = format!("deck {bad_s}: line 3: unknown card `nosuch`");
    let unreadable = format!("deck {missing_s}: cannot read it");
    for flag in ["--deck", "--deck0", "--deck1"] {
        for (file, expected) in [(bad_s, &bad_line), (missing_s, &unreadable)] {
            let text = said(&[
                "play",
                "-m",
                "tcg",
                "builtin:random",
                "builtin:random",
                flag,
                file,
            ]);
            assert!(text.contains(expected.as_str()), "{flag}: {text}");
        }
    }
    let text = said(&["deck", "check", bad_s]);
    assert!(text.contains(&bad_line), "{text}");
    // A tournament's deck_file and a bot's own deck, named relative to the file.
    let file = dir.path().join("t.toml");
    let bots = "[[bots]]\nname = \"a\"\nbot = \"builtin:random\"\n\
                [[bots]]\nname = \"b\"\nbot = \"builtin:greedy\"\n";
    for (table, bot) in [
        ("deck_file = \"bad.deck\"\n", ""),
        ("", "deck = \"bad.deck\"\n"),
    ] {
        std::fs::write(
            &file,
            format!("name = \"t\"\nseed = 1\n[modes.tcg]\n{table}{bots}{bot}"),
        )
        .unwrap();
        let text = said(&["tournament", "plan", file.to_str().unwrap()]);
        assert!(text.contains(&bad_line), "{text}");
    }
}

/// A gauntlet that stops keeps its results and says where, to resume from.
#[test]
fn a_gauntlet_that_stops_says_where_its_results_are() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g");
    // The results file cannot be written: a directory is in its place.
    std::fs::create_dir_all(out.join("results.jsonl")).unwrap();
    let run = arena(
        dir.path(),
        &[
            "gauntlet",
            bots::BATTLE_STARTER,
            "--mode",
            "battle",
            "--games",
            "2",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(!run.status.success());
    let said = stderr(&run);
    let out = out.display();
    assert!(
        said.contains(&format!(
            "the gauntlet stopped after playing 0 games; the results so far are kept in {out} (run again with --out {out} to resume)"
        )),
        "{said}"
    );
}

/// The sample bots the tests and benches measure are built as a tournament builds a bot
/// crate (link-time optimization in one codegen unit), or their fuel would not be the
/// fuel the arena's users see.
#[test]
fn sample_bots_are_built_as_tournaments_build_bot_crates() {
    assert_eq!(bots::BOT_PROFILE, arena_tournament::bots::BOT_PROFILE);
}
