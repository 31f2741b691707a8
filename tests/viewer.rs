//! The replay viewer through the binary: `arena play --html`, `arena replay html` and
//! `arena tournament run --replays --html` (the pages themselves are tested in a browser by
//! `arena-viewer`'s tests).

use crate::arena;
use arena_tests::{bots, stderr, stdout};
use std::path::Path;

/// The JSON the page embeds.
fn page_data(path: &Path) -> serde_json::Value {
    let html = std::fs::read_to_string(path).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"), "{}", &html[..100]);
    assert!(
        !html.contains("src=\"http") && !html.contains("href=\"http"),
        "the page loads nothing from the network"
    );
    let open = r#"<script type="application/json" id="replay-data">"#;
    let start = html.find(open).expect("embedded data") + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

fn ok(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "stdout: {}\nstderr: {}",
        stdout(out),
        stderr(out)
    );
}

#[test]
fn play_and_replay_write_the_same_page_with_fuel_and_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let (replay, html) = (dir.path().join("g.json"), dir.path().join("g.html"));
    let out = arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "grid",
            bots::GRID_STARTER,
            "builtin:random-walker",
            "--seed",
            "3",
            "--replay",
            replay.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ],
    );
    ok(&out);
    assert!(
        stdout(&out).contains("viewer written to"),
        "{}",
        stdout(&out)
    );
    let data = page_data(&html);
    assert_eq!(data["mode"], "grid");
    assert_eq!(data["fuel_per_turn"], 20_000_000);
    let recorded: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    assert_eq!(data["outcome"], recorded["outcome"]);
    // The wasm bot's turns are charted with the fuel they used; the built-in's use none.
    let fuel = |seat: u64| -> Vec<u64> {
        data["lines"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["seat"] == seat && l.get("fuel").is_some())
            .map(|l| l["fuel"].as_u64().unwrap())
            .collect()
    };
    assert!(!fuel(0).is_empty() && fuel(0).iter().all(|&f| f > 0));
    assert!(fuel(1).iter().all(|&f| f == 0));

    // `replay html` writes beside the replay by default, with the limit given.
    let out = arena(
        dir.path(),
        &[
            "replay",
            "html",
            replay.to_str().unwrap(),
            "--fuel-per-turn",
            "5000000",
        ],
    );
    ok(&out);
    let again = page_data(&html);
    assert_eq!(again["fuel_per_turn"], 5_000_000);
    assert_eq!(again["steps"], data["steps"]);
    let other = dir.path().join("other.html");
    ok(&arena(
        dir.path(),
        &[
            "replay",
            "html",
            replay.to_str().unwrap(),
            "-o",
            other.to_str().unwrap(),
        ],
    ));
    assert_eq!(page_data(&other)["lines"], data["lines"]);
}

#[test]
fn a_replay_that_does_not_verify_gets_no_page() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("b.json");
    ok(&arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "battle",
            "builtin:strong",
            "builtin:random",
            "--replay",
            replay.to_str().unwrap(),
        ],
    ));
    let text = std::fs::read_to_string(&replay).unwrap();
    let tampered = text.replacen("\"integrity\":", "\"integrity\":1", 1);
    assert_ne!(tampered, text);
    std::fs::write(&replay, tampered).unwrap();
    let out = arena(dir.path(), &["replay", "html", replay.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("does not verify"), "{}", stderr(&out));
    assert!(!dir.path().join("b.html").exists());
}

#[test]
fn a_tournament_writes_a_page_beside_each_replay_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.toml");
    std::fs::write(
        &file,
        "name = \"t\"\nseed = 2\n[modes.tcg]\n[[bots]]\nname = \"a\"\nbot = \"builtin:random\"\n\
         [[bots]]\nname = \"b\"\nbot = \"builtin:greedy\"\n",
    )
    .unwrap();
    let out = dir.path().join("results");
    let run = arena(
        dir.path(),
        &[
            "tournament",
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--replays",
            "--html",
            "--quiet",
        ],
    );
    ok(&run);
    let mut json = 0;
    for entry in std::fs::read_dir(out.join("replays")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            json += 1;
            let data = page_data(&path.with_extension("html"));
            assert_eq!(data["mode"], "tcg");
        }
    }
    assert!(json > 0);
    // --html without --replays is refused.
    let refused = arena(
        dir.path(),
        &["tournament", "run", file.to_str().unwrap(), "--html"],
    );
    assert!(!refused.status.success());
}

/// The replay's events of a type, as JSON.
fn events_of(replay: &serde_json::Value, kind: &str) -> Vec<serde_json::Value> {
    replay["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "event" && e["event"]["type"] == kind)
        .map(|e| e["event"].clone())
        .collect()
}

/// `arena play --html` for a mode with the starter bot against a built-in; the page's data
/// and the replay written beside it.
fn play_page(dir: &Path, mode: &str, bot: &str) -> (serde_json::Value, serde_json::Value) {
    let (replay, html) = (dir.join("g.json"), dir.join("g.html"));
    ok(&arena(
        dir,
        &[
            "play",
            "--mode",
            mode,
            bot,
            "builtin:heuristic",
            "--seed",
            "5",
            "--replay",
            replay.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ],
    ));
    let data = page_data(&html);
    let recorded: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    assert_eq!(data["mode"], mode);
    assert_eq!(data["outcome"], recorded["outcome"]);
    // `replay html` draws the same steps.
    let again = dir.join("again.html");
    ok(&arena(
        dir,
        &[
            "replay",
            "html",
            replay.to_str().unwrap(),
            "-o",
            again.to_str().unwrap(),
        ],
    ));
    assert_eq!(page_data(&again)["steps"], data["steps"]);
    (data, recorded)
}

#[test]
fn a_dungeon_page_has_one_step_per_hero_turn_ending_in_the_second_run() {
    let dir = tempfile::tempdir().unwrap();
    let (data, replay) = play_page(dir.path(), "dungeon", bots::DUNGEON_STARTER);
    let turns = events_of(&replay, "hero_turn").len();
    let steps = data["steps"].as_array().unwrap();
    assert_eq!(steps.len(), turns + 1);
    let party = &replay["initial"]["parties"][0];
    let first = &steps[0]["state"];
    assert_eq!(first["seat"], 0);
    assert_eq!(first["heroes"][0]["name"], party[0]["name"]);
    assert_eq!(first["heroes"][0]["hp"], party[0]["hp"]);
    let last = &steps.last().unwrap()["state"];
    assert_eq!(last["seat"], 1);
    let waves = events_of(&replay, "wave_start");
    let wave = waves.last().unwrap();
    assert_eq!(last["wave"], wave["wave"]);
    assert_eq!(
        last["monsters"].as_array().unwrap().len(),
        wave["monsters"].as_array().unwrap().len()
    );
}

#[test]
fn a_conquest_page_has_one_step_per_turn_ending_in_the_game_s_end() {
    let dir = tempfile::tempdir().unwrap();
    let (data, replay) = play_page(dir.path(), "conquest", bots::CONQUEST_STARTER);
    let turns = events_of(&replay, "turn");
    let steps = data["steps"].as_array().unwrap();
    assert_eq!(steps.len(), turns.len() + 1);
    assert_eq!(
        data["fixed"]["homes"][0][0],
        replay["initial"]["homes"][0]["x"]
    );
    let first = &steps[0]["state"];
    assert_eq!(first["year"], 617);
    assert_eq!(first["armies"], serde_json::json!([]));
    assert_eq!(
        first["resources"],
        serde_json::json!([[2, 2, 2], [2, 2, 2]])
    );
    let last = &steps.last().unwrap()["state"];
    assert_eq!(last["year"], turns.last().unwrap()["year"]);
    let end = events_of(&replay, "game_end").pop().unwrap();
    for seat in 0..2 {
        let r = &end["resources"][seat];
        assert_eq!(
            last["resources"][seat],
            serde_json::json!([r["wood"], r["food"], r["gold"]])
        );
        let armies = last["armies"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a[3] == seat)
            .count();
        assert_eq!(serde_json::json!(armies), end["armies"][seat]);
    }
}

#[test]
fn a_tournament_with_pages_writes_an_index_linking_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.toml");
    std::fs::write(
        &file,
        "name = \"cup-1\"\nseed = 2\n[modes.grid]\n[[bots]]\nname = \"a\"\nbot = \"builtin:random-walker\"\n\
         [[bots]]\nname = \"b\"\nbot = \"builtin:commander\"\n",
    )
    .unwrap();
    let out = dir.path().join("results");
    let run = arena(
        dir.path(),
        &[
            "tournament",
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--replays",
            "--html",
            "--quiet",
        ],
    );
    ok(&run);
    let index_path = out.join("replays").join("index.html");
    assert!(
        stderr(&run).contains(&format!("tournament index: {}", index_path.display())),
        "{}",
        stderr(&run)
    );
    let index = std::fs::read_to_string(&index_path).unwrap();
    assert!(index.contains("<h1>cup-1</h1>"));
    let games = std::fs::read_dir(out.join("replays"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "json")
        })
        .count();
    assert!(games > 1);
    assert_eq!(index.matches("<tr data-game=").count(), games);
    // Every game links its page, which is there.
    let links: Vec<&str> = index
        .split("<a href=\"")
        .skip(1)
        .map(|rest| &rest[..rest.find('"').unwrap()])
        .collect();
    assert_eq!(links.len(), games);
    for link in links {
        assert!(out.join("replays").join(link).is_file(), "{link}");
    }
    // The standings (both bots) and the matrix of the mode.
    assert_eq!(index.matches("<td class=\"bot\">").count(), 2);
    assert!(index.contains("<table class=\"matrix\" data-mode=\"grid\">"));
}
