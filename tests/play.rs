//! `arena play`, replays and `arena builtins` through the binary, for every mode, with
//! wasm sample bots and built-ins.

use crate::arena;
use arena_tests::{bots, hostile, root, stderr, stdout};

fn json(out: &std::process::Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "stdout: {}\nstderr: {}",
        stdout(out),
        stderr(out)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn every_mode_plays_wasm_against_builtin_and_replays_verify() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("battle", bots::BATTLE_STARTER, "builtin:random"),
        ("tcg", bots::TCG_STARTER, "builtin:greedy"),
        ("grid", bots::GRID_STARTER, "builtin:random-walker"),
        ("dungeon", bots::DUNGEON_STARTER, "builtin:random"),
        ("conquest", bots::CONQUEST_STARTER, "builtin:random"),
    ];
    for (mode, wasm, builtin) in cases {
        let replay = dir.path().join(format!("{mode}.json"));
        let out = arena(
            dir.path(),
            &[
                "play",
                "--mode",
                mode,
                wasm,
                builtin,
                "--seed",
                "5",
                "--json",
                "--replay",
                replay.to_str().unwrap(),
            ],
        );
        let result = json(&out);
        assert_eq!(result["mode"], mode);
        assert!(result["reason"].as_str().is_some_and(|r| !r.is_empty()));
        assert!(
            result["seats"][0]["fuel"].as_u64().unwrap() > 0,
            "{mode}: the wasm bot's fuel is counted"
        );
        assert_eq!(
            result["seats"][1]["fuel"], 0,
            "{mode}: built-ins use no fuel"
        );
        assert_eq!(result["seats"][0]["faults"], 0, "{mode}: {result}");
        assert!(!result["seats"][0]["stats"].as_object().unwrap().is_empty());

        let verify = arena(dir.path(), &["replay", "verify", replay.to_str().unwrap()]);
        assert!(verify.status.success(), "{mode}: {}", stdout(&verify));
        assert!(stdout(&verify).contains("verified"), "{}", stdout(&verify));

        // The same seed gives the identical replay, byte for byte.
        let again = dir.path().join(format!("{mode}-again.json"));
        json(&arena(
            dir.path(),
            &[
                "play",
                "--mode",
                mode,
                wasm,
                builtin,
                "--seed",
                "5",
                "--json",
                "--replay",
                again.to_str().unwrap(),
            ],
        ));
        let strip = |p: &std::path::Path| {
            let mut v: serde_json::Value =
                serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
            v["bots"] = serde_json::Value::Null;
            v
        };
        assert_eq!(
            strip(&replay),
            strip(&again),
            "{mode}: same seed, same replay"
        );
    }
}

#[test]
fn a_tampered_replay_fails_verification() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    json(&arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "battle",
            "builtin:heuristic",
            "builtin:random",
            "--json",
            "--replay",
            replay.to_str().unwrap(),
        ],
    ));
    let mut value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    value["seed"] = serde_json::json!(value["seed"].as_u64().unwrap() + 1);
    std::fs::write(&replay, serde_json::to_vec(&value).unwrap()).unwrap();
    let out = arena(dir.path(), &["replay", "verify", replay.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stdout(&out).contains("does not verify"), "{}", stdout(&out));
}

#[test]
fn verify_says_what_it_checked_and_compares_engine_version_and_bots() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let path = replay.to_str().unwrap();
    json(&arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "battle",
            bots::BATTLE_STARTER,
            "builtin:random",
            "--seed",
            "3",
            "--json",
            "--replay",
            path,
        ],
    ));
    let value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    let entries = value["log"].as_array().unwrap().len();

    // Nothing to compare the bots with: said so, and the re-simulation is described.
    let out = arena(dir.path(), &["replay", "verify", path]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains(&format!("{entries} log entries")), "{text}");
    assert!(text.contains("the initial state"), "{text}");
    assert!(text.contains("engine version: matches"), "{text}");
    assert!(
        text.contains("seat 0 bot: battle_starter (module SHA-256 "),
        "{text}"
    );
    assert!(text.contains("not checked (give --bot0 BOT"), "{text}");

    // The right bots match.
    let out = arena(
        dir.path(),
        &[
            "replay",
            "verify",
            path,
            "--bot0",
            bots::BATTLE_STARTER,
            "--bot1",
            "builtin:random",
        ],
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("seat 0 bot: matches"), "{text}");
    assert!(
        text.contains("seat 1 bot: matches — builtin:random"),
        "{text}"
    );

    // Another bot, another module: the command says which seat differs and fails.
    let out = arena(
        dir.path(),
        &[
            "replay",
            "verify",
            path,
            "--bot0",
            bots::GRID_STARTER,
            "--bot1",
            "builtin:heuristic",
        ],
    );
    let text = stdout(&out);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("seat 0 bot: differs — "), "{text}");
    assert!(text.contains("the replay records"), "{text}");
    assert!(
        text.contains("seat 1 bot: differs — the replay records `builtin:random`"),
        "{text}"
    );

    // A file from another engine version still re-simulates; the difference is reported.
    let mut other = value.clone();
    other["engine_version"] = serde_json::json!("0.0.0-elsewhere");
    std::fs::write(&replay, serde_json::to_vec(&other).unwrap()).unwrap();
    let out = arena(dir.path(), &["replay", "verify", path]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("engine version: differs — the file says 0.0.0-elsewhere, this arena is"),
        "{text}"
    );
}

#[test]
fn watch_renders_the_match_turn_by_turn() {
    let dir = tempfile::tempdir().unwrap();
    for (mode, a, b) in [
        ("battle", "builtin:strong", "builtin:random"),
        ("tcg", "builtin:planner", "builtin:random"),
        ("grid", "builtin:commander", "builtin:aggressor"),
    ] {
        let out = arena(
            dir.path(),
            &[
                "play",
                "--mode",
                mode,
                a,
                b,
                "--watch",
                "--rule",
                "turn_cap=40",
                "--rule",
                "turn_limit=40",
            ],
        );
        // turn_cap / turn_limit exist in only some modes: the other is rejected by name.
        let text = stdout(&out) + &stderr(&out);
        if !out.status.success() {
            assert!(text.contains("unknown field"), "{mode}: {text}");
            continue;
        }
        assert!(text.lines().count() > 20, "{mode}: {text}");
        assert!(
            text.contains("winner") || text.contains("draw"),
            "{mode}: {text}"
        );
    }
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
            "turn_limit=12",
        ],
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        text.contains('#') || text.contains('M'),
        "the board is drawn: {text}"
    );
    // Each picture (from its header line to its legend) differs from the one before: the
    // start and setup answers used to repeat the first.
    let mut pictures = vec![String::new()];
    for line in text.lines().skip_while(|l| !l.contains("diamonds A")) {
        if line.contains("diamonds A") {
            pictures.push(String::new());
        }
        let last = pictures.last_mut().expect("one at least");
        *last += line;
    }
    assert!(pictures.len() > 3, "{text}");
    assert!(
        pictures.windows(2).all(|w| w[0] != w[1]),
        "a picture drawn twice in a row: {text}"
    );
}

#[test]
fn a_hostile_bot_forfeits_and_the_host_reports_it() {
    let dir = tempfile::tempdir().unwrap();
    let loop_bot = hostile("infinite-loop.wat");
    let result = json(&arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "battle",
            loop_bot.to_str().unwrap(),
            "builtin:random",
            "--json",
            "--fuel-per-setup",
            "5000000",
            "--fuel-per-turn",
            "1000000",
        ],
    ));
    assert_eq!(result["winner"], 1);
    assert!(
        result["reason"]
            .as_str()
            .unwrap()
            .starts_with("forfeit: seat 0 faulted 3 times"),
        "{result}"
    );
    assert_eq!(result["seats"][0]["forfeited"], true);
    // The start runs out of fuel; the setup request's fresh instance runs out of fuel in
    // its start again (the restart fails, leaving no instance), and the first turn finds
    // none: three faults forfeit.
    assert_eq!(
        result["seats"][0]["fault_kinds"],
        serde_json::json!({"out_of_fuel": 2, "instantiation": 1}),
        "{result}"
    );
    assert_eq!(result["seats"][0]["fuel"], 5_000_000 * 2, "{result}");
    // The human output lists each fault with its turn and message.
    let trap = hostile("trap.wat");
    let out = arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "battle",
            trap.to_str().unwrap(),
            "builtin:random",
        ],
    );
    let text = stdout(&out);
    assert!(
        text.contains(
            "faults:\n  seat 0, turn 0: trap: wasm trap: wasm `unreachable` instruction executed"
        ),
        "{text}"
    );
}

#[test]
fn maps_and_decks_from_files() {
    let dir = tempfile::tempdir().unwrap();
    let map = root().join("tournaments/maps/arena-8x8.map");
    let out = arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "grid",
            "builtin:commander",
            "builtin:coward",
            "--map",
            map.to_str().unwrap(),
            "--json",
        ],
    );
    json(&out);
    let bad_map = dir.path().join("bad.map");
    std::fs::write(&bad_map, "size 6 4\n......\n..X...\n......\n......\n").unwrap();
    let out = arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "grid",
            "builtin:commander",
            "builtin:coward",
            "--map",
            bad_map.to_str().unwrap(),
        ],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("bad.map: line 3, column 3"),
        "{}",
        stderr(&out)
    );

    let deck = root().join("sample-bots/tcg-starter/deck.txt");
    let out = arena(dir.path(), &["deck", "check", deck.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("ok, 20 cards"), "{}", stdout(&out));
    let bad_deck = dir.path().join("bad.deck");
    std::fs::write(&bad_deck, "# too few\n2x fireball-that-does-not-exist\n").unwrap();
    let out = arena(dir.path(), &["deck", "check", bad_deck.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("bad.deck: line 2: unknown card"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bad_arguments_get_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &[
                "play",
                "--mode",
                "chess",
                "builtin:random",
                "builtin:random",
            ],
            "unknown mode `chess`",
        ),
        (
            &[
                "play",
                "--mode",
                "battle",
                "builtin:nobody",
                "builtin:random",
            ],
            "no built-in AI `nobody` for mode battle",
        ),
        (
            &["play", "--mode", "battle", "bot.exe", "builtin:random"],
            "`bot.exe` is not a bot",
        ),
        (
            &[
                "play",
                "--mode",
                "battle",
                "builtin:random",
                "builtin:random",
                "--rule",
                "turn_cap=-4",
            ],
            "turn_cap",
        ),
        (
            &[
                "play",
                "--mode",
                "grid",
                "builtin:coward",
                "builtin:coward",
                "--deck",
                "x.deck",
            ],
            "--deck is for mode tcg",
        ),
    ];
    for (args, words) in cases {
        let out = arena(dir.path(), args);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains(words), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn builtins_lists_every_mode() {
    let dir = tempfile::tempdir().unwrap();
    let list = json(&arena(dir.path(), &["builtins", "--json"]));
    let list = list.as_array().unwrap();
    for (mode, name) in [
        ("battle", "strong"),
        ("tcg", "planner"),
        ("grid", "commander"),
        ("grid", "careful-assassin"),
        ("dungeon", "strong"),
        ("conquest", "strong"),
    ] {
        assert!(
            list.iter().any(|b| b["mode"] == mode && b["name"] == name),
            "{mode}/{name}"
        );
    }
    assert!(
        list.iter()
            .all(|b| !b["summary"].as_str().unwrap().is_empty())
    );
}

/// The plays of a tcg replay, with the pool card each one was.
fn tcg_plays(replay: &serde_json::Value) -> Vec<(serde_json::Value, serde_json::Value)> {
    let pool = replay["rules"]["pool"].as_array().unwrap();
    replay["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "event" && e["event"]["type"] == "play")
        .map(|e| {
            let card = pool
                .iter()
                .find(|c| c["id"] == e["event"]["card"])
                .unwrap()
                .clone();
            (e["event"].clone(), card)
        })
        .collect()
}

#[test]
fn tcg_plays_every_variation_through_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    type Check = fn(&serde_json::Value, &serde_json::Value) -> bool;
    let variations: [(&str, &[&str], Check); 7] = [
        ("basic", &[], |_, card| {
            card["kind"] == "damage"
                && card["damage"].as_i64().unwrap_or(0) == card["cost"].as_i64().unwrap()
        }),
        ("minions", &["minions=true"], |play, _| {
            play["play_as"] == "minion"
        }),
        (
            "separate_damage",
            &["separate_damage=true", "custom_decks=true"],
            |_, card| {
                card["kind"] == "damage"
                    && card["damage"].as_i64().unwrap_or(0) != card["cost"].as_i64().unwrap()
            },
        ),
        (
            "healing",
            &["healing=true", "custom_decks=true"],
            |play, card| play["play_as"] == "heal" && card["kind"] == "heal",
        ),
        ("any_card_heals", &["any_card_heals=true"], |play, card| {
            play["play_as"] == "heal" && card["kind"] == "damage"
        }),
        (
            "card_drawers",
            &["card_drawers=true", "custom_decks=true"],
            |_, card| card["kind"] == "draw",
        ),
        ("custom_decks", &["custom_decks=true"], |_, _| true),
    ];
    for (name, rules, check) in variations {
        let mut seen = false;
        for seed in 1..=4 {
            for (a, b) in [
                ("builtin:planner", "builtin:random"),
                ("builtin:random", "builtin:greedy"),
            ] {
                let replay = dir.path().join(format!("{name}-{seed}.json"));
                let mut args = vec!["play", "--mode", "tcg", a, b, "--seed"];
                let seed_text = seed.to_string();
                args.push(&seed_text);
                for rule in rules {
                    args.extend(["--rule", rule]);
                }
                args.extend(["--replay", replay.to_str().unwrap(), "--json"]);
                let result = json(&arena(dir.path(), &args));
                assert!(
                    result["winner"].is_number()
                        || result["reason"].as_str().unwrap().contains("turn cap"),
                    "{name}: {result}"
                );
                let verify = arena(dir.path(), &["replay", "verify", replay.to_str().unwrap()]);
                assert!(verify.status.success(), "{name}: {}", stdout(&verify));
                let replay: serde_json::Value =
                    serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
                if name == "custom_decks" {
                    assert_eq!(
                        replay["initial"]["chosen_deck"],
                        serde_json::json!([true, true]),
                        "bots chose their decks"
                    );
                }
                seen |= tcg_plays(&replay)
                    .iter()
                    .any(|(play, card)| check(play, card));
            }
        }
        assert!(
            seen,
            "{name}: the variation's feature never showed up in 8 games"
        );
    }
}

#[test]
fn a_bot_crate_directory_is_built_and_played() {
    let dir = tempfile::tempdir().unwrap();
    let krate = root().join("sample-bots/battle-starter");
    let result = json(&arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "battle",
            krate.to_str().unwrap(),
            "builtin:random",
            "--json",
        ],
    ));
    assert!(
        result["seats"][0]["fuel"].as_u64().unwrap() > 0,
        "it ran as wasm: {result}"
    );
    assert_eq!(result["bots"][0], "battle-starter");
}

#[test]
fn a_deck_played_in_a_replay_is_saved_and_loaded_again() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("tcg.json");
    json(&arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "tcg",
            "builtin:planner",
            "builtin:greedy",
            "--rule",
            "custom_decks=true",
            "--json",
            "--replay",
            replay.to_str().unwrap(),
        ],
    ));
    let deck = dir.path().join("planner.deck");
    let out = arena(
        dir.path(),
        &[
            "deck",
            "from-replay",
            replay.to_str().unwrap(),
            "--seat",
            "0",
            "--out",
            deck.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&deck).unwrap();
    assert!(
        text.starts_with("# the deck of seat 0 (builtin:planner)"),
        "{text}"
    );
    let out = arena(
        dir.path(),
        &[
            "deck",
            "check",
            deck.to_str().unwrap(),
            "--rule",
            "custom_decks=true",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("ok, 20 cards"), "{}", stdout(&out));
    // The saved deck is the deck both players use when custom decks are off.
    let result = json(&arena(
        dir.path(),
        &[
            "play",
            "--mode",
            "tcg",
            "builtin:random",
            "builtin:random",
            "--deck",
            deck.to_str().unwrap(),
            "--json",
        ],
    ));
    assert!(result["reason"].is_string());
    let out = arena(
        dir.path(),
        &[
            "deck",
            "from-replay",
            replay.to_str().unwrap(),
            "--seat",
            "2",
        ],
    );
    assert!(
        stderr(&out).contains("--seat is 0 or 1"),
        "{}",
        stderr(&out)
    );
}

/// `tests/replays/tcg-v1.json` was written by the arena before replay format 2
/// (`arena play -m tcg builtin:planner builtin:greedy --seed 7 --replay …`).
#[test]
fn a_version_1_replay_is_refused_with_its_version_and_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let file = root().join("tests/replays/tcg-v1.json");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains(r#""version":1"#),
        "the fixture is a version 1 replay"
    );
    for command in ["verify", "show", "html"] {
        let out = arena(dir.path(), &["replay", command, file.to_str().unwrap()]);
        assert!(!out.status.success(), "{command}");
        let said = format!("{}{}", stdout(&out), stderr(&out));
        assert!(
            said.contains("replay format version 1 is older than this arena's (2)")
                && said.contains("play the match again with this arena"),
            "{command}: {said}"
        );
    }
}

#[test]
fn replays_carry_rolls_tables_and_offers_and_show_leaves_the_rolls_out() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("battle.json");
    let out = arena(
        dir.path(),
        &[
            "play",
            "-m",
            "battle",
            "builtin:strong",
            "builtin:heuristic",
            "--seed",
            "7",
            "--replay",
            replay.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    assert_eq!(json["version"], 2);
    assert_eq!(json["tables"]["types"][3]["type"], "tank");
    assert_eq!(json["tables"]["types"][3]["inflict_turns"], 3);
    let log = json["log"].as_array().unwrap();
    let of_type = |kind: &str| {
        log.iter()
            .filter(|e| e["kind"] == "event" && e["event"]["type"] == kind)
            .count()
    };
    let turns = of_type("turn_start");
    assert!(of_type("due") > 0 && of_type("due") <= turns);
    assert!(of_type("effectivity") + of_type("effect_failed") > 0);
    let offered = log
        .iter()
        .filter(|e| e["answer"].get("action").is_some())
        .map(|e| &e["offered"])
        .collect::<Vec<_>>();
    assert!(!offered.is_empty());
    assert!(
        offered
            .iter()
            .all(|o| o["targets"].is_array() && o["skill"].is_boolean())
    );

    let verify = arena(dir.path(), &["replay", "verify", replay.to_str().unwrap()]);
    assert!(verify.status.success(), "{}", stdout(&verify));
    let said = stdout(&verify);
    assert!(
        said.contains("the rule tables (this engine's)")
            && said.contains(&format!(
                "of which {} with the choices offered",
                offered.len()
            )),
        "{said}"
    );
    let show = arena(dir.path(), &["replay", "show", replay.to_str().unwrap()]);
    assert!(show.status.success());
    let shown = stdout(&show);
    assert!(
        shown.contains("turn 1: #") && !shown.contains("due: #"),
        "{shown}"
    );
    let show = arena(
        dir.path(),
        &["replay", "show", replay.to_str().unwrap(), "--rolls"],
    );
    let shown = stdout(&show);
    assert!(
        shown.contains("due: #") && shown.contains("(meter "),
        "{shown}"
    );

    // A replay edited to another rules table is refused, naming the difference.
    let mut edited = json.clone();
    edited["tables"]["skills"][0]["cooldown"] = serde_json::json!(9);
    std::fs::write(&replay, edited.to_string()).unwrap();
    let verify = arena(dir.path(), &["replay", "verify", replay.to_str().unwrap()]);
    assert!(!verify.status.success());
    assert!(
        stdout(&verify).contains(
            "tables.skills[0].cooldown: the file has 9, this engine 4): the replay was played under a different rules table"
        ),
        "{}",
        stdout(&verify)
    );
}

#[test]
fn grid_answers_carry_the_directions_offered() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("grid.json");
    let out = arena(
        dir.path(),
        &[
            "play",
            "-m",
            "grid",
            "builtin:random-walker",
            "builtin:coward",
            "--seed",
            "3",
            "--replay",
            replay.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    let log = json["log"].as_array().unwrap();
    let mut rejected = 0;
    for (idx, entry) in log.iter().enumerate() {
        let Some(action) = entry["answer"]["action"].as_str() else {
            continue;
        };
        let offered = entry["offered"].as_str().expect("every turn has its offer");
        let letter = action[..1].to_uppercase();
        let legal = action == "stay" || offered.contains(&letter);
        let was_rejected = log.get(idx + 1).is_some_and(|e| e["kind"] == "rejected");
        assert_eq!(legal, !was_rejected, "{entry}");
        rejected += usize::from(was_rejected);
    }
    assert!(
        rejected > 0,
        "the random walker walks off the board at times"
    );
}

#[test]
fn each_seat_may_load_its_own_deck_and_battle_seats_their_own_roster() {
    let dir = tempfile::tempdir().unwrap();
    let mid = dir.path().join("mid.deck");
    std::fs::write(&mid, "4x spark\n4x zap\n4x bolt\n4x blast\n4x fireball\n").unwrap();
    let big = dir.path().join("big.deck");
    std::fs::write(
        &big,
        "2x dud\n4x bolt\n4x blast\n2x fireball\n4x lava-burst\n2x meteor\n2x inferno\n",
    )
    .unwrap();
    let replay = dir.path().join("tcg.json");
    let play = |extra: &[&str]| {
        let mut args = vec![
            "play",
            "-m",
            "tcg",
            "builtin:greedy",
            "builtin:planner",
            "--replay",
            replay.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        arena(dir.path(), &args)
    };
    let decks = || -> [Vec<String>; 2] {
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
        [0, 1].map(|seat| {
            let mut ids: Vec<String> = json["initial"]["decks"][seat]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["card"]["id"].as_str().unwrap().to_owned())
                .collect();
            ids.sort();
            ids
        })
    };
    let sorted = |path: &std::path::Path| {
        let text = std::fs::read_to_string(path).unwrap();
        let mut ids: Vec<String> = text
            .lines()
            .flat_map(|l| {
                let (n, id) = l.split_once("x ").unwrap();
                vec![id.to_owned(); n.parse().unwrap()]
            })
            .collect();
        ids.sort();
        ids
    };
    // --deck1 only: seat 0 keeps the default deck.
    let out = play(&["--deck1", mid.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let [zero, one] = decks();
    assert_eq!(one, sorted(&mid));
    assert_eq!(zero.iter().filter(|id| *id == "dud").count(), 2);
    // --deck for both, --deck0 over it for seat 0.
    let out = play(&[
        "--deck",
        mid.to_str().unwrap(),
        "--deck0",
        big.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(decks(), [sorted(&big), sorted(&mid)]);
    let verify = arena(dir.path(), &["replay", "verify", replay.to_str().unwrap()]);
    assert!(verify.status.success(), "{}", stdout(&verify));
    // Errors name the file and line; --deck0 is tcg only.
    let bad = dir.path().join("bad.deck");
    std::fs::write(&bad, "4x spark\n\n4x nosuch\n").unwrap();
    let out = play(&["--deck0", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("bad.deck: line 3: unknown card `nosuch`"),
        "{}",
        stderr(&out)
    );
    let out = arena(
        dir.path(),
        &[
            "play",
            "-m",
            "battle",
            "builtin:random",
            "builtin:random",
            "--deck1",
            mid.to_str().unwrap(),
        ],
    );
    assert!(
        stderr(&out).contains("--deck1 is for mode tcg, not battle"),
        "{}",
        stderr(&out)
    );

    // Battle: a rules file gives seat 1 its own roster; seat 0 keeps the shared one.
    let rules = dir.path().join("rules.toml");
    std::fs::write(&rules, "roster = [\"aggro\", \"tank\", \"nurse\", \"glass\"]\nroster1 = [\"kamikaze\", \"doctor\", \"stealth\"]\n").unwrap();
    let replay = dir.path().join("battle.json");
    let out = arena(
        dir.path(),
        &[
            "play",
            "-m",
            "battle",
            "builtin:random",
            "builtin:random",
            "--rules",
            rules.to_str().unwrap(),
            "--replay",
            replay.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    let kinds: Vec<&str> = json["initial"]["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds[..3]
            .iter()
            .all(|k| ["aggro", "tank", "nurse", "glass"].contains(k))
    );
    let mut seat1 = kinds[3..].to_vec();
    seat1.sort();
    assert_eq!(seat1, ["doctor", "kamikaze", "stealth"]);
    std::fs::write(
        &rules,
        "roster1 = [\"kamikaze\", \"kamikaze\", \"stealth\"]\n",
    )
    .unwrap();
    let out = arena(
        dir.path(),
        &[
            "play",
            "-m",
            "battle",
            "builtin:random",
            "builtin:random",
            "--rules",
            rules.to_str().unwrap(),
        ],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("roster1: Kamikaze Bot is listed twice"),
        "{}",
        stderr(&out)
    );
}

/// An answer the rules reject never does better than a legal one: the default played in its
/// place is the mode's most neutral action, and enough rejected answers forfeit the game.
#[test]
fn rejected_answers_are_strikes_and_their_default_plays_no_strategy() {
    let dir = tempfile::tempdir().unwrap();
    let own_goal = hostile("own-goal.wat");
    let play = |extra: &[&str]| {
        let mut args = vec![
            "play",
            "--mode",
            "battle",
            own_goal.to_str().unwrap(),
            "builtin:random",
            "--seed",
            "3",
            "--json",
        ];
        args.extend_from_slice(extra);
        json(&arena(dir.path(), &args))
    };
    // By default the tenth rejected answer forfeits, at once.
    let result = play(&[]);
    assert_eq!(result["winner"], 1, "{result}");
    assert_eq!(
        result["reason"], "forfeit: seat 0 had 10 answers rejected",
        "{result}"
    );
    assert_eq!(result["seats"][0]["invalid_actions"], 10, "{result}");
    assert_eq!(result["seats"][0]["faults"], 0, "{result}");
    assert_eq!(result["seats"][0]["forfeited"], true, "{result}");

    // With no effective limit, the default (attack the first legal target by id) plays
    // on, and the replay says which target each default attacked.
    let replay_file = dir.path().join("own-goal.json");
    let result = play(&[
        "--max-rejections",
        "1000000",
        "--replay",
        replay_file.to_str().unwrap(),
    ]);
    assert_eq!(result["seats"][0]["forfeited"], false, "{result}");
    let text = std::fs::read_to_string(&replay_file).unwrap();
    let replay: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(replay["max_rejections"], 1_000_000);
    let log = replay["log"].as_array().unwrap();
    let mut defaults = 0;
    for (i, entry) in log.iter().enumerate() {
        let default = &entry["event"];
        if default["type"] != "default_action" {
            continue;
        }
        defaults += 1;
        // The offer recorded with the rejected answer lists the legal targets; the
        // default took the lowest id.
        let offered = log[..i]
            .iter()
            .rev()
            .find_map(|e| (e["kind"] == "answer").then(|| e.get("offered")).flatten())
            .expect("the rejected answer's offer");
        let lowest = offered["targets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_u64().unwrap())
            .min()
            .unwrap();
        assert_eq!(
            default["action"]["attack"]["target"], lowest,
            "{default} after {offered}"
        );
    }
    assert!(defaults > 10, "{defaults} defaults");
    let verify = arena(
        dir.path(),
        &["replay", "verify", replay_file.to_str().unwrap()],
    );
    assert!(verify.status.success(), "{}", stdout(&verify));
}
