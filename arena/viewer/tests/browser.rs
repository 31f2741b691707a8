//! The viewer in a real browser: headless Chromium driven over chromedriver (WebDriver).
//! For each mode: open a generated page, check the first frame's drawing against the
//! replay, step, scrub to the end, check the final state against the replay's outcome,
//! follow a `#turn=` link, and check that no JavaScript error was logged. One screenshot per
//! mode is saved in `$TMPDIR/arena-viewer-screenshots/`.
//!
//! Without Chromium and chromedriver the test says so and passes, unless
//! `ARENA_REQUIRE_BROWSER=1` (set by `.ci/run` once it has installed them).

use arena_builtins::Builtins;
use arena_engine::replay::Entry;
use arena_engine::{
    CallReport, Fault, FaultKind, MatchConfig, NativePlayer, Player, Replay, Ruleset, run_match,
};
use arena_sdk::battle::Battle;
use arena_sdk::conquest::Conquest;
use arena_sdk::dungeon::{Dungeon, Target};
use arena_sdk::grid::Grid;
use arena_sdk::tcg::Tcg;
use arena_viewer::{Options, page};
use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

#[path = "support/chromium.rs"]
mod chromium;
use chromium::{browser, driver};

fn game<G: Ruleset + Builtins>(a: &str, b: &str, seed: u64) -> Replay<G> {
    let mut p0: Box<dyn Player<G>> = Box::new(NativePlayer::new(G::create(a).unwrap()));
    let mut p1: Box<dyn Player<G>> = Box::new(NativePlayer::new(G::create(b).unwrap()));
    let mut replay = run_match(
        &MatchConfig::new(Default::default(), seed),
        [p0.as_mut(), p1.as_mut()],
    )
    .replay;
    replay.bots[0].name = format!("builtin:{a}");
    replay.bots[1].name = format!("builtin:{b}");
    replay
}

/// A built-in that faults on its third turn and logs markup on every call, with made-up
/// fuel, as a hostile wasm bot could.
struct Flaky<G: Ruleset> {
    inner: Box<dyn Player<G>>,
    turns: u32,
}

const HOSTILE_LOG: &str = "<script>window.injected = 1</script><b>bold?</b>";

impl<G: Ruleset> Player<G> for Flaky<G> {
    fn start(&mut self, start: &arena_sdk::MatchStart<G>) -> Result<(), Fault> {
        self.inner.start(start)
    }
    fn setup(&mut self, request: &G::SetupRequest) -> Result<G::SetupChoice, Fault> {
        self.inner.setup(request)
    }
    fn act(&mut self, observation: &G::Observation) -> Result<G::Action, Fault> {
        self.turns += 1;
        if self.turns == 3 {
            return Err(Fault::new(FaultKind::Trap, "<i>unreachable</i>"));
        }
        self.inner.act(observation)
    }
    fn end(&mut self, end: &arena_sdk::MatchEnd) {
        self.inner.end(end)
    }
    fn last_call(&mut self) -> CallReport {
        CallReport {
            fuel: 1000 + u64::from(self.turns) * 997,
            log: HOSTILE_LOG.to_owned(),
        }
    }
}

fn write_page<G: Ruleset>(dir: &Path, replay: &Replay<G>) -> PathBuf {
    let path = dir.join(format!("{}.html", replay.mode));
    let html = page(
        replay,
        &Options {
            fuel_per_turn: Some(20_000_000),
        },
    )
    .unwrap();
    std::fs::write(&path, html).unwrap();
    path
}

/// Runs `script` (a function body) in the page and returns its value.
async fn js(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.expect(script)
}

async fn texts(client: &Client, selector: &str) -> Vec<String> {
    let script =
        format!("return [...document.querySelectorAll('{selector}')].map(e => e.textContent);");
    serde_json::from_value(js(client, &script).await).unwrap()
}

async fn position(client: &Client) -> (u64, u64) {
    let v = js(
        client,
        "return [Arena.player.current(), Arena.player.last];",
    )
    .await;
    (v[0].as_u64().unwrap(), v[1].as_u64().unwrap())
}

async fn no_errors(client: &Client) {
    let errors = js(client, "return window.arenaErrors;").await;
    assert_eq!(errors, json!([]), "JavaScript errors");
}

/// Grid: the commander against a random walker (off the board at times: rejected
/// answers) that faults once and logs markup on every call.
fn flaky_grid() -> Replay<Grid> {
    let mut p0: Box<dyn Player<Grid>> =
        Box::new(NativePlayer::new(Grid::create("commander").unwrap()));
    let mut p1: Box<dyn Player<Grid>> = Box::new(Flaky {
        inner: Box::new(NativePlayer::new(Grid::create("random-walker").unwrap())),
        turns: 0,
    });
    let mut replay = run_match(
        &MatchConfig::new(Default::default(), 4),
        [p0.as_mut(), p1.as_mut()],
    )
    .replay;
    replay.bots = [0, 1].map(|seat| arena_engine::replay::BotInfo {
        name: ["builtin:commander", "<b>flaky</b>"][seat].to_owned(),
        sha256: None,
    });
    replay
}

/// Open the page, check the drawing at the start (`first`), step forward with the button
/// and the keyboard, scrub to the end and check the drawing there (`last`), follow a
/// `#turn=` link, and save a screenshot of `shot_step`.
async fn exercise(
    client: &Client,
    file: &Path,
    outcome_winner: Option<u8>,
    first: impl AsyncFnOnce(&Client),
    last: impl AsyncFnOnce(&Client),
    shot_step: u64,
) {
    let url = format!("file://{}", file.display());
    client.goto(&url).await.unwrap();
    no_errors(client).await;
    assert_eq!(position(client).await.0, 0);
    // Every mode says what its colours mean.
    assert!(texts(client, "#legend .item").await.len() >= 4);
    first(client).await;
    // The result is not given away before the end.
    assert_eq!(
        js(client, "return document.getElementById('result').hidden;").await,
        true
    );

    client
        .find(Locator::Id("next"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(position(client).await.0, 1);
    let body = client.find(Locator::Css("body")).await.unwrap();
    body.send_keys(&Key::Right.to_string()).await.unwrap();
    assert_eq!(position(client).await.0, 2);
    body.send_keys(&Key::Left.to_string()).await.unwrap();
    assert_eq!(position(client).await.0, 1);

    // Scrub the timeline to its end as a drag would: value, then an input event.
    js(
        client,
        "const s = document.getElementById('scrub'); s.value = s.max; \
         s.dispatchEvent(new Event('input')); return null;",
    )
    .await;
    let (at, end) = position(client).await;
    assert_eq!(at, end);
    let result = client.find(Locator::Id("result")).await.unwrap();
    let shown = js(client, "return document.getElementById('result').hidden;").await;
    assert_eq!(shown, false);
    let winner = result.attr("data-winner").await.unwrap().unwrap();
    assert_eq!(
        winner,
        outcome_winner.map_or("draw".to_owned(), |s| s.to_string())
    );
    last(client).await;

    // Home, then a click on a line of the log jumps to its step.
    body.send_keys(&Key::Home.to_string()).await.unwrap();
    assert_eq!(position(client).await.0, 0);
    let step = js(
        client,
        "const li = document.querySelectorAll('#log li[data-step=\"3\"]')[0]; li.click(); \
         return Number(li.dataset.step);",
    )
    .await;
    assert_eq!(position(client).await.0, step.as_u64().unwrap());

    // A link to a turn opens at that turn.
    let turn = js(
        client,
        &format!("return JSON.parse(document.getElementById('replay-data').textContent).steps[{shot_step}].turn;"),
    )
    .await;
    client.goto("about:blank").await.unwrap();
    client.goto(&format!("{url}#turn={turn}")).await.unwrap();
    let (at, _) = position(client).await;
    let at_turn = js(
        client,
        &format!("return JSON.parse(document.getElementById('replay-data').textContent).steps[{at}].turn;"),
    )
    .await;
    assert_eq!(at_turn, turn);
    js(
        client,
        &format!("Arena.player.show({shot_step}); return null;"),
    )
    .await;
    let png = client.screenshot().await.unwrap();
    let dir = std::env::temp_dir().join("arena-viewer-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let shot = dir.join(file.with_extension("png").file_name().unwrap());
    std::fs::write(&shot, png).unwrap();
    eprintln!("screenshot: {}", shot.display());
    no_errors(client).await;
}

/// At the first decision: the choices its request offered, the bot's marked, as the
/// engine lists them; the roll records are in the log but hidden until the "rolls" box is
/// ticked. Saves a screenshot of the decision with the rolls shown.
async fn offers_and_rolls<G: Ruleset>(client: &Client, replay: &Replay<G>, dir: &Path) {
    let file = write_page(dir, replay);
    client
        .goto(&format!("file://{}", file.display()))
        .await
        .unwrap();
    let expected: Vec<String> = replay
        .log
        .iter()
        .find_map(|entry| match entry {
            Entry::Answer {
                answer: arena_engine::Answer::Action(action),
                offered: Some(offer),
                ..
            } => Some(G::offered_choices(offer, Some(action))),
            _ => None,
        })
        .expect("a decision with its offer")
        .into_iter()
        .map(|c| {
            if c.chosen {
                format!("\u{2713} {}", c.text)
            } else {
                c.text
            }
        })
        .collect();
    assert!(expected.len() > 1, "{expected:?}");
    js(
        client,
        "const d = JSON.parse(document.getElementById('replay-data').textContent); \
         Arena.player.show(d.lines.find(l => l.offered && l.kind === 'answer').step); return null;",
    )
    .await;
    assert_eq!(texts(client, "#calls .choice").await, expected);
    assert_eq!(texts(client, "#calls .choice.chosen").await.len(), 1);

    let rolls = replay
        .events()
        .filter(|e| G::is_roll(e))
        .map(G::describe)
        .collect::<Vec<_>>();
    assert!(!rolls.is_empty());
    let shown = "return [...document.querySelectorAll('#log li.roll')].filter(li => li.offsetParent !== null).length;";
    assert_eq!(texts(client, "#log li.roll").await, rolls);
    assert_eq!(
        js(client, shown).await,
        json!(0),
        "rolls are hidden at first"
    );
    client
        .find(Locator::Id("show-rolls"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(js(client, shown).await, json!(rolls.len()));
    let png = client.screenshot().await.unwrap();
    let shots = std::env::temp_dir().join("arena-viewer-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let shot = shots.join(format!("{}-offers-rolls.png", replay.mode));
    std::fs::write(&shot, png).unwrap();
    eprintln!("screenshot: {}", shot.display());
    no_errors(client).await;
}

#[tokio::test(flavor = "current_thread")]
async fn every_mode_plays_in_a_real_browser() {
    let driver = match driver() {
        Ok(driver) => driver,
        Err(why) => {
            assert!(
                std::env::var("ARENA_REQUIRE_BROWSER").as_deref() != Ok("1"),
                "ARENA_REQUIRE_BROWSER=1 but the browser tests cannot run: {why}"
            );
            eprintln!("SKIPPED: the viewer's browser tests need Chromium: {why}");
            return;
        }
    };
    let dir = tempfile::tempdir().unwrap();
    let client = browser(&driver).await;

    // battle: six robots with their integrity, and the loser's team destroyed at the end.
    let replay = game::<Battle>("strong", "random", 4);
    let file = write_page(dir.path(), &replay);
    let initial = replay.initial.clone().unwrap();
    let start_hp: Vec<String> = initial
        .units
        .iter()
        .map(|u| format!("{}/{}", u.integrity, u.base.integrity))
        .collect();
    let mut final_hp: Vec<i32> = initial.units.iter().map(|u| u.integrity).collect();
    for event in replay.events() {
        use arena_engine::battle::Event;
        match *event {
            Event::EffectTick {
                unit, integrity, ..
            }
            | Event::BombExploded {
                unit, integrity, ..
            }
            | Event::Repair {
                target: unit,
                integrity,
                ..
            } => final_hp[usize::from(unit)] = integrity,
            Event::Attack {
                target,
                hit: Some(hit),
                ..
            } => final_hp[usize::from(target)] = hit.integrity,
            Event::Destroyed { unit, .. } => final_hp[usize::from(unit)] = 0,
            _ => {}
        }
    }
    let end_hp: Vec<String> = initial
        .units
        .iter()
        .zip(&final_hp)
        .map(|(u, hp)| format!("{hp}/{}", u.base.integrity))
        .collect();
    let loser = replay.outcome.winner.map(|w| 1 - w);
    exercise(
        &client,
        &file,
        replay.outcome.winner,
        async |c: &Client| {
            assert_eq!(texts(c, "#layer .unit .hp").await, start_hp);
        },
        async |c: &Client| {
            assert_eq!(texts(c, "#layer .unit .hp").await, end_hp);
            let destroyed = js(
                c,
                "return [...document.querySelectorAll('#layer .unit')].map(u => u.dataset.destroyed === '1');",
            )
            .await;
            for (unit, dead) in initial.units.iter().zip(destroyed.as_array().unwrap()) {
                if Some(unit.owner) == loser {
                    assert_eq!(dead, true, "unit {} of the loser", unit.id);
                }
            }
        },
        5,
    )
    .await;
    offers_and_rolls(&client, &replay, dir.path()).await;

    // tcg: two heroes at full health; at the end their health as the engine's state has it.
    let replay = game::<Tcg>("planner", "greedy", 4);
    let file = write_page(dir.path(), &replay);
    let initial = replay.initial.clone().unwrap();
    let mut state = arena_engine::tcg::State::new(&initial);
    for event in replay.events() {
        state.apply(event);
    }
    let max = initial.starting_health;
    let health = state.health();
    exercise(
        &client,
        &file,
        replay.outcome.winner,
        async |c: &Client| {
            assert_eq!(
                texts(c, "#layer .hero .hp").await,
                vec![format!("{max}/{max}"), format!("{max}/{max}")]
            );
            assert_eq!(texts(c, "#layer .minion").await.len(), 0);
        },
        async |c: &Client| {
            assert_eq!(
                texts(c, "#layer .hero .hp").await,
                vec![
                    format!("{}/{max}", health[0]),
                    format!("{}/{max}", health[1])
                ]
            );
            assert_eq!(texts(c, "#layer .minion").await.len(), state.minion_count());
        },
        9,
    )
    .await;

    // grid: every hero at 100 on its tile; at the end the living heroes and the diamonds.
    // Seat 1 walks at random (off the board at times: rejected answers), faults once and
    // logs markup on every call.
    let replay = flaky_grid();
    let (faults, rejected) = replay.log.iter().fold((0, 0), |(f, r), entry| match entry {
        Entry::Answer {
            answer: arena_engine::Answer::Fault(_),
            ..
        } => (f + 1, r),
        Entry::Rejected { .. } => (f, r + 1),
        _ => (f, r),
    });
    assert_eq!(faults, 1);
    assert!(
        rejected > 0,
        "the random walker walks off the board at times"
    );
    let file = write_page(dir.path(), &replay);
    let initial = replay.initial.clone().unwrap();
    let heroes = initial.heroes.len();
    let deaths = replay
        .events()
        .filter(|e| matches!(e, arena_engine::grid::Event::Death { .. }))
        .count();
    let diamonds = replay
        .events()
        .find_map(|e| match e {
            arena_engine::grid::Event::GameEnd { diamonds, .. } => Some(*diamonds),
            _ => None,
        })
        .expect("a game end");
    exercise(
        &client,
        &file,
        replay.outcome.winner,
        async |c: &Client| {
            assert_eq!(
                texts(c, "#layer .hero .hp").await,
                vec!["100".to_owned(); heroes]
            );
            assert_eq!(texts(c, "#layer .mine").await.len(), initial.mines.len());
        },
        async |c: &Client| {
            assert_eq!(texts(c, "#layer .hero").await.len(), heroes - deaths);
            let scores = texts(c, "#layer .score").await;
            assert!(
                scores[0].contains(&format!("◆ {} ", diamonds[0])),
                "{scores:?}"
            );
            assert!(
                scores[1].contains(&format!("◆ {} ", diamonds[1])),
                "{scores:?}"
            );
        },
        40,
    )
    .await;
    // Faults and rejections are marked on the timeline; bot text stays text.
    assert_eq!(texts(&client, "#marks .fault").await.len(), faults);
    assert_eq!(texts(&client, "#marks .rejected").await.len(), rejected);
    // At the fault's step: the fault's message and the call's log, as text.
    js(
        &client,
        "const d = JSON.parse(document.getElementById('replay-data').textContent); \
         Arena.player.show(d.lines.find(l => l.kind === 'fault').step); return null;",
    )
    .await;
    let calls = texts(&client, "#calls .fault").await;
    assert_eq!(calls.len(), 1);
    assert!(calls[0].contains("trap: <i>unreachable</i>"), "{calls:?}");
    assert_eq!(
        texts(&client, "#calls pre").await,
        vec![HOSTILE_LOG.to_owned()]
    );
    let injected = js(
        &client,
        "return [window.injected === undefined, document.querySelectorAll('#calls script, #calls b, #seats b, #log b, #log script').length];",
    )
    .await;
    assert_eq!(injected, json!([true, 0]));
    assert!(texts(&client, "#seats").await[0].contains("seat 1: <b>flaky</b>"));
    no_errors(&client).await;

    // dungeon: seat 0's party as it enters and the first wave; at the end seat 1's run with
    // its heroes' levels and deaths and the wave it ended in, as the events have them.
    let replay = game::<Dungeon>("strong", "heuristic", 4);
    let file = write_page(dir.path(), &replay);
    let initial = replay.initial.clone().unwrap();
    let names: Vec<String> = initial.parties[0].iter().map(|h| h.name.clone()).collect();
    let events: Vec<_> = replay.events().cloned().collect();
    let second = events
        .iter()
        .rposition(|e| matches!(e, arena_engine::dungeon::Event::RunStart { .. }))
        .expect("two runs");
    let mut levels: Vec<u32> = Vec::new();
    let (mut hero_deaths, mut wave, mut monsters) = (0, 0, 0);
    for event in &events[second..] {
        use arena_engine::dungeon::Event;
        match event {
            Event::RunStart { party, .. } => levels = party.iter().map(|h| h.level).collect(),
            Event::LevelUp { hero, level, .. } => levels[usize::from(*hero)] = *level,
            Event::Dies {
                unit: Target::Hero(_),
                ..
            } => hero_deaths += 1,
            Event::WaveStart {
                wave: w,
                monsters: m,
                ..
            } => (wave, monsters) = (*w, m.len()),
            _ => {}
        }
    }
    let (waves, first_wave) = (initial.waves.len(), initial.waves[0].len());
    exercise(
        &client,
        &file,
        replay.outcome.winner,
        async |c: &Client| {
            assert_eq!(texts(c, "#layer .hero .name").await, names);
            // The start step runs up to the first hero turn: the first wave is there.
            assert_eq!(texts(c, "#layer .monster").await.len(), first_wave);
            assert_eq!(
                texts(c, "#layer .wave").await,
                vec![format!("wave 1 of {waves}")]
            );
        },
        async |c: &Client| {
            let drawn = js(
                c,
                "return [...document.querySelectorAll('#layer .hero')].map(h => [Number(h.dataset.level), h.dataset.dead === '1']);",
            )
            .await;
            let drawn: Vec<(u32, bool)> = serde_json::from_value(drawn).unwrap();
            assert_eq!(
                drawn.iter().map(|d| d.0).collect::<Vec<_>>(),
                levels,
                "levels"
            );
            assert_eq!(drawn.iter().filter(|d| d.1).count(), hero_deaths);
            assert_eq!(texts(c, "#layer .monster").await.len(), monsters);
            assert_eq!(
                texts(c, "#layer .wave").await,
                vec![format!("wave {wave} of {waves}")]
            );
            assert!(texts(c, "#layer .run").await[0].starts_with("seat 1: "));
        },
        12,
    )
    .await;
    no_errors(&client).await;

    // conquest: the map's resources and both homes, no army; at the end each side's
    // armies and resources as the game's end has them.
    let replay = game::<Conquest>("strong", "heuristic", 4);
    let file = write_page(dir.path(), &replay);
    let initial = replay.initial.clone().unwrap();
    let (armies, resources) = replay
        .events()
        .find_map(|e| match e {
            arena_engine::conquest::Event::GameEnd {
                armies, resources, ..
            } => Some((*armies, *resources)),
            _ => None,
        })
        .expect("a game end");
    exercise(
        &client,
        &file,
        replay.outcome.winner,
        async |c: &Client| {
            assert_eq!(texts(c, "#layer .army").await.len(), 0);
            assert_eq!(texts(c, "#picture .home").await.len(), 2);
            assert_eq!(texts(c, "#picture .water").await.len(), initial.water.len());
            for (class, tiles) in [
                ("wood", &initial.wood),
                ("food", &initial.food),
                ("gold", &initial.gold),
            ] {
                assert_eq!(
                    texts(c, &format!("#layer .resource.{class}")).await.len(),
                    tiles.len()
                );
            }
            assert_eq!(
                texts(c, "#layer .score").await,
                vec![
                    "P1: W 2 · F 2 · G 2 · armies 0".to_owned(),
                    "P2: W 2 · F 2 · G 2 · armies 0".to_owned()
                ]
            );
        },
        async |c: &Client| {
            let scores: Vec<String> = [0, 1]
                .map(|s| {
                    let r = resources[s];
                    format!(
                        "P{}: W {} · F {} · G {} · armies {}",
                        s + 1,
                        r.wood,
                        r.food,
                        r.gold,
                        armies[s]
                    )
                })
                .to_vec();
            assert_eq!(texts(c, "#layer .score").await, scores);
            let owners = js(
                c,
                "return [0, 1].map(s => document.querySelectorAll('#layer .army[data-owner=\"' + s + '\"]').length);",
            )
            .await;
            assert_eq!(owners, json!(armies));
        },
        6,
    )
    .await;
    no_errors(&client).await;

    client.close().await.unwrap();
}

/// Save a screenshot of the page as `$TMPDIR/arena-viewer-screenshots/NAME.png`.
async fn screenshot(client: &Client, name: &str) {
    let png = client.screenshot().await.unwrap();
    let dir = std::env::temp_dir().join("arena-viewer-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let shot = dir.join(format!("{name}.png"));
    std::fs::write(&shot, png).unwrap();
    eprintln!("screenshot: {}", shot.display());
}

/// One browser at a time for the tests below (each starts its own): the machine's cores
/// are shared.
static ONE_BROWSER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A browser session, or `None` (the test passes) when Chromium is missing and not
/// required.
struct Session {
    client: Client,
    _driver: chromium::Driver,
    _turn: tokio::sync::MutexGuard<'static, ()>,
    dir: tempfile::TempDir,
}

async fn session() -> Option<Session> {
    let turn = ONE_BROWSER.lock().await;
    let driver = match driver() {
        Ok(driver) => driver,
        Err(why) => {
            assert!(
                std::env::var("ARENA_REQUIRE_BROWSER").as_deref() != Ok("1"),
                "ARENA_REQUIRE_BROWSER=1 but the browser tests cannot run: {why}"
            );
            eprintln!("SKIPPED: the viewer's browser tests need Chromium: {why}");
            return None;
        }
    };
    let client = browser(&driver).await;
    Some(Session {
        client,
        _driver: driver,
        _turn: turn,
        dir: tempfile::tempdir().unwrap(),
    })
}

impl Session {
    /// Write `replay`'s page and open it.
    async fn open<G: Ruleset>(&self, replay: &Replay<G>) {
        let file = write_page(self.dir.path(), replay);
        self.client
            .goto(&format!("file://{}", file.display()))
            .await
            .unwrap();
        no_errors(&self.client).await;
    }

    async fn close(self) {
        no_errors(&self.client).await;
        self.client.clone().close().await.unwrap();
    }
}

/// The steps at which the current step's first shown log line is not inside the log's
/// visible box, over every step of the open page.
const STEPS_WITH_THE_LOG_ELSEWHERE: &str = "
    const log = document.getElementById('log'), out = [];
    for (let i = 0; i <= Arena.player.last; i++) {
      Arena.player.show(i);
      const shown = [...log.querySelectorAll('li.current')].filter(li => li.getClientRects().length);
      if (!shown.length) continue;
      const box = log.getBoundingClientRect(), line = shown[0].getBoundingClientRect();
      if (line.top < box.top || line.bottom > box.bottom) out.push(i);
    }
    return out;";

#[tokio::test(flavor = "current_thread")]
async fn the_log_shows_the_current_step_at_every_step() {
    let Some(s) = session().await else { return };
    let d = s.dir.path();
    let pages = [
        (
            "battle",
            write_page(d, &game::<Battle>("strong", "strong", 15)),
        ),
        ("tcg", write_page(d, &game::<Tcg>("planner", "greedy", 4))),
        (
            "grid",
            write_page(d, &game::<Grid>("commander", "random-walker", 4)),
        ),
        (
            "dungeon",
            write_page(d, &game::<Dungeon>("strong", "heuristic", 4)),
        ),
        ("conquest", write_page(d, &conquest_with_an_idle_seat())),
    ];
    for (mode, file) in pages {
        let url = format!("file://{}", file.display());
        s.client.goto(&url).await.unwrap();
        let steps = js(&s.client, "return Arena.player.last;").await;
        assert!(steps.as_u64().unwrap() > 20, "{mode}: a long game");
        let elsewhere = js(&s.client, STEPS_WITH_THE_LOG_ELSEWHERE).await;
        assert_eq!(elsewhere, json!([]), "{mode}, default filters");
        // With answers and bot logs hidden, a step's first line is often one of them.
        for filter in ["show-answers", "show-logs"] {
            s.client
                .find(Locator::Id(filter))
                .await
                .unwrap()
                .click()
                .await
                .unwrap();
        }
        let elsewhere = js(&s.client, STEPS_WITH_THE_LOG_ELSEWHERE).await;
        assert_eq!(elsewhere, json!([]), "{mode}, answers and logs hidden");
    }
    s.close().await;
}

/// Every integer of `value` (a path in it, and its decimal text).
fn integers(value: &Value, path: String, out: &mut Vec<(String, String)>) {
    match value {
        Value::Number(n) if n.is_u64() || n.is_i64() => out.push((path, n.to_string())),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                integers(item, format!("{path}/{i}"), out);
            }
        }
        Value::Object(fields) => {
            for (key, item) in fields {
                integers(item, format!("{path}/{key}"), out);
            }
        }
        _ => {}
    }
}

#[tokio::test(flavor = "current_thread")]
async fn every_integer_of_the_data_reaches_the_page_exactly() {
    let Some(s) = session().await else { return };
    let mut replay = game::<Battle>("strong", "random", 18_446_744_073_709_406_446);
    replay.seed = 18_446_744_073_709_406_446;
    let options = Options {
        fuel_per_turn: Some((1 << 53) + 1),
    };
    let file = s.dir.path().join("big.html");
    std::fs::write(&file, page(&replay, &options).unwrap()).unwrap();
    s.client
        .goto(&format!("file://{}", file.display()))
        .await
        .unwrap();
    let mut expected = Vec::new();
    let data = serde_json::to_value(arena_viewer::data(&replay, &options).unwrap()).unwrap();
    integers(&data, String::new(), &mut expected);
    // The page's parsed data, each integer (or string) at its path as the page prints it.
    let seen = js(
        &s.client,
        "const out = {};
         const walk = (v, path) => {
           if (v !== null && typeof v === 'object') {
             for (const k of Object.keys(v)) walk(v[k], path + '/' + k);
           } else out[path] = String(v);
         };
         walk(Arena.data, '');
         return out;",
    )
    .await;
    let wrong: Vec<_> = expected
        .iter()
        .filter(|(path, n)| seen[path.as_str()] != json!(n))
        .collect();
    assert!(expected.len() > 100, "{}", expected.len());
    assert_eq!(wrong, Vec::<&(String, String)>::new());
    let title = texts(&s.client, "#title").await;
    assert_eq!(title, ["battle · seed 18446744073709406446"]);
    s.close().await;
}

/// Over every step of the open page: the drawn elements whose painted fill is not the
/// colour their `fill` attribute asks for (a stylesheet rule winning over it).
const FILLS_NOT_PAINTED: &str = "
    const probe = document.createElement('span');
    document.body.appendChild(probe);
    const rgb = colour => { probe.style.color = ''; probe.style.color = colour; return probe.style.color ? getComputedStyle(probe).color : null; };
    const wrong = new Set();
    for (let i = 0; i <= Arena.player.last; i++) {
      Arena.player.show(i);
      for (const el of document.querySelectorAll('#picture [fill]')) {
        const wanted = rgb(el.getAttribute('fill'));
        if (wanted && getComputedStyle(el).fill !== wanted) {
          wrong.add(el.tagName + ' ' + (el.getAttribute('class') || '') + ' ' + el.getAttribute('fill') + ' painted ' + getComputedStyle(el).fill + ': ' + el.textContent.slice(0, 20));
        }
      }
    }
    probe.remove();
    return [...wrong];";

#[tokio::test(flavor = "current_thread")]
async fn battle_and_tcg_paint_the_colours_they_draw() {
    let Some(s) = session().await else { return };
    let battle = game::<Battle>("strong", "strong", 15);
    s.open(&battle).await;
    // The colours that were lost: damage, repairs, "acting", skills and the seat names.
    let drawn = js(
        &s.client,
        "const fills = new Set();
         for (let i = 0; i <= Arena.player.last; i++) {
           Arena.player.show(i);
           document.querySelectorAll('#picture text.label[fill]').forEach(t => fills.add(t.getAttribute('fill')));
         }
         return [...fills].sort();",
    )
    .await;
    for colour in [
        "#b20030", "#1f9985", "#a16207", "#7c3aed", "#0072b2", "#d55e00",
    ] {
        assert!(
            drawn.as_array().unwrap().contains(&json!(colour)),
            "{colour} in {drawn}"
        );
    }
    assert_eq!(js(&s.client, FILLS_NOT_PAINTED).await, json!([]), "battle");
    s.open(&game::<Tcg>("planner", "greedy", 4)).await;
    assert_eq!(js(&s.client, FILLS_NOT_PAINTED).await, json!([]), "tcg");
    s.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn battle_effect_badges_stay_inside_their_card() {
    let Some(s) = session().await else { return };
    // Strong against strong, seed 15: a unit carries seven effects at once.
    let replay = game::<Battle>("strong", "strong", 15);
    s.open(&replay).await;
    let result = js(
        &s.client,
        "const svg = document.getElementById('picture').getBoundingClientRect(), out = [];
         let most = 0;
         const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
         for (let i = 0; i <= Arena.player.last; i++) {
           Arena.player.show(i);
           Arena.data.steps[i].state.units.forEach(u => { most = Math.max(most, u.effects.length); });
           for (const unit of document.querySelectorAll('#layer .unit')) {
             const card = unit.querySelector('rect').getBoundingClientRect();
             for (const badge of unit.querySelectorAll('.effect')) {
               const box = badge.getBoundingClientRect();
               if (!inside(box, card) || !inside(box, svg)) out.push(i + ': unit ' + unit.dataset.id + ' ' + badge.textContent);
             }
           }
         }
         return [most, out];",
    )
    .await;
    assert!(result[0].as_u64().unwrap() >= 7, "{result}");
    assert_eq!(result[1], json!([]));
    // What does not fit is counted in a last badge, not dropped.
    let shown = js(
        &s.client,
        "for (let i = 0; i <= Arena.player.last; i++) {
           Arena.player.show(i);
           const units = Arena.data.steps[i].state.units;
           for (const unit of document.querySelectorAll('#layer .unit')) {
             const effects = units[Number(unit.dataset.id)].effects.length;
             const badges = [...unit.querySelectorAll('.effect')];
             const more = badges.filter(b => b.classList.contains('more'));
             const counted = badges.length - more.length + more.reduce((n, b) => n + Number(b.querySelector('text').textContent.slice(1)), 0);
             if (counted !== effects) return [i, unit.dataset.id, effects, counted];
           }
         }
         return null;",
    )
    .await;
    assert_eq!(shown, Value::Null);
    js(
        &s.client,
        "const most = Arena.data.steps.map(s => Math.max(...s.state.units.map(u => u.effects.length))); \
         Arena.player.show(most.indexOf(Math.max(...most))); return null;",
    )
    .await;
    screenshot(&s.client, "battle-effects").await;
    s.close().await;
}

/// Conquest where seat 1 never gives an order: every one of its turns has an answer and no
/// event of its own.
fn conquest_with_an_idle_seat() -> Replay<Conquest> {
    struct Idle;
    impl Player<Conquest> for Idle {
        fn start(&mut self, _: &arena_sdk::MatchStart<Conquest>) -> Result<(), Fault> {
            Ok(())
        }
        fn setup(
            &mut self,
            _: &arena_sdk::conquest::SetupRequest,
        ) -> Result<arena_sdk::conquest::SetupChoice, Fault> {
            Ok(Default::default())
        }
        fn act(
            &mut self,
            _: &arena_sdk::conquest::Observation,
        ) -> Result<arena_sdk::conquest::Orders, Fault> {
            Ok(Default::default())
        }
        fn end(&mut self, _: &arena_sdk::MatchEnd) {}
    }
    let mut p0: Box<dyn Player<Conquest>> =
        Box::new(NativePlayer::new(Conquest::create("random").unwrap()));
    run_match(
        &MatchConfig::new(Default::default(), 3),
        [p0.as_mut(), &mut Idle],
    )
    .replay
}

#[tokio::test(flavor = "current_thread")]
async fn conquest_answers_are_shown_in_their_own_seats_step() {
    let Some(s) = session().await else { return };
    s.open(&conquest_with_an_idle_seat()).await;
    // At each step: whose turn it is, and the seats of the answers "This step" shows.
    let misplaced = js(
        &s.client,
        "const out = [];
         for (let i = 1; i <= Arena.player.last; i++) {
           Arena.player.show(i);
           const seat = Arena.data.steps[i].state.seat;
           for (const call of document.querySelectorAll('#calls .call.answer')) {
             if (!call.classList.contains('seat' + seat)) out.push(i + ': ' + call.textContent);
           }
         }
         return out;",
    )
    .await;
    assert_eq!(misplaced, json!([]));
    let answered = js(
        &s.client,
        "Arena.player.show(2); return [Arena.data.steps[2].state.seat, document.querySelectorAll('#calls .call.answer').length];",
    )
    .await;
    assert_eq!(
        answered,
        json!([1, 1]),
        "the idle seat's step shows its answer"
    );
    s.close().await;
}

/// Replace the page's clock and timers by virtual ones: `run(ms)` plays the callbacks due
/// in the next `ms` milliseconds, each taking 20 ms of drawing (a slow page), and
/// animation frames come at 60 per second.
const VIRTUAL_TIME: &str = "
    let now = 0, queue = [];
    const at = (due, f) => { queue.push({ due, f }); return queue.length; };
    const cancel = id => { if (queue[id - 1]) queue[id - 1].f = null; };
    performance.now = () => now;
    window.setTimeout = (f, ms) => at(now + (ms || 0), f);
    window.clearTimeout = cancel;
    window.requestAnimationFrame = f => at(Math.floor(now / (1000 / 60) + 1) * (1000 / 60), f);
    window.cancelAnimationFrame = cancel;
    window.virtualRun = ms => {
      const end = now + ms;
      for (;;) {
        let next = null;
        queue.forEach(e => { if (e.f && e.due <= end && (!next || e.due < next.due)) next = e; });
        if (!next) break;
        const f = next.f;
        next.f = null;
        now = Math.max(now, next.due);
        f(now);
        now += 20;
      }
      now = end;
    };
    return null;";

#[tokio::test(flavor = "current_thread")]
async fn each_speed_plays_its_steps_per_second() {
    let Some(s) = session().await else { return };
    s.open(&game::<Grid>("commander", "random-walker", 4)).await;
    js(&s.client, VIRTUAL_TIME).await;
    let speed = s.client.find(Locator::Id("speed")).await.unwrap();
    for rate in [1u64, 4, 16, 64] {
        speed
            .clone()
            .select_by_value(&rate.to_string())
            .await
            .unwrap();
        let played = js(
            &s.client,
            "Arena.player.pause(); Arena.player.show(0); Arena.player.play(); virtualRun(2000); \
             const at = Arena.player.current(); Arena.player.pause(); return at;",
        )
        .await
        .as_u64()
        .unwrap();
        // Two seconds: the steps due by the last frame before them.
        assert!(
            (2 * rate - rate / 8 - 1..=2 * rate).contains(&played),
            "{rate}x played {played} steps in 2 s"
        );
    }
    s.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_timeline_click_while_playing_jumps_there() {
    let Some(s) = session().await else { return };
    s.open(&game::<Grid>("commander", "random-walker", 4)).await;
    // Time stands still, so the play loop does not move on by itself.
    js(&s.client, VIRTUAL_TIME).await;
    js(&s.client, "Arena.player.play(); return null;").await;
    let scrub = s.client.find(Locator::Id("scrub")).await.unwrap();
    scrub.click().await.unwrap();
    let after = js(
        &s.client,
        "return [Arena.player.current(), Arena.player.last, Number(document.getElementById('scrub').value)];",
    )
    .await;
    let (at, last) = (after[0].as_u64().unwrap(), after[1].as_u64().unwrap());
    // A click in the middle of the slider: the middle step, give or take the thumb.
    assert!(at.abs_diff(last / 2) <= last / 20, "{after}");
    assert_eq!(after[2], after[0], "{after}");
    s.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn the_keys_work_after_any_control_is_used() {
    let Some(s) = session().await else { return };
    s.open(&game::<Grid>("commander", "random-walker", 4)).await;
    let c = &s.client;
    let right = async || {
        let before = position(c).await.0;
        c.active_element()
            .await
            .unwrap()
            .send_keys(&Key::Right.to_string())
            .await
            .unwrap();
        position(c).await.0 - before
    };
    let speed = c.find(Locator::Id("speed")).await.unwrap();
    speed.click().await.unwrap();
    speed.select_by_value("16").await.unwrap();
    assert_eq!(right().await, 1, "after the speed menu");
    for id in ["show-answers", "show-logs", "show-rolls", "next", "scrub"] {
        c.find(Locator::Id(id))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        assert_eq!(right().await, 1, "after #{id}");
    }
    s.close().await;
}

/// The steps (after the start) holding an event `wanted` picks, in order.
fn steps_of_events<G: Ruleset>(replay: &Replay<G>, wanted: impl Fn(&G::Event) -> bool) -> Vec<u64> {
    let events: Vec<G::Event> = replay.events().cloned().collect();
    let frames = G::frames(replay.initial.as_ref().unwrap(), &events).unwrap();
    let starts: Vec<usize> = frames.steps.iter().map(|s| s.first_event).collect();
    let mut steps: Vec<u64> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| wanted(e))
        .map(|(i, _)| (starts.partition_point(|&first| first <= i) - 1) as u64)
        .filter(|&step| step > 0)
        .collect();
    steps.dedup();
    steps
}

/// The steps `key` visits, pressed from the start (or, for a shifted key, from the end)
/// until it stays put.
async fn visited(client: &Client, key: char) -> Vec<u64> {
    let from = if key.is_uppercase() {
        "Arena.player.last"
    } else {
        "0"
    };
    js(client, &format!("Arena.player.show({from}); return null;")).await;
    let mut steps = Vec::new();
    loop {
        client
            .active_element()
            .await
            .unwrap()
            .send_keys(&key.to_string())
            .await
            .unwrap();
        let at = position(client).await.0;
        if steps.last().copied().unwrap_or(u64::MAX) == at || steps.len() > 10_000 {
            break;
        }
        steps.push(at);
    }
    if key.is_uppercase() {
        steps.reverse();
    }
    // Pressed once more past the last one, the key stays put and says so.
    let said = texts(client, "#position").await;
    assert!(said[0].contains(" · no "), "{said:?}");
    steps
}

#[tokio::test(flavor = "current_thread")]
async fn the_event_keys_visit_the_steps_of_their_events() {
    let Some(s) = session().await else { return };
    use arena_engine::{battle, conquest, grid};
    let battle = game::<Battle>("strong", "random", 4);
    s.open(&battle).await;
    let kills = steps_of_events(&battle, |e| matches!(e, battle::Event::Destroyed { .. }));
    assert!(kills.len() >= 3, "{kills:?}");
    assert_eq!(visited(&s.client, 'x').await, kills, "battle kills");
    // Backwards from the end: every kill before it.
    let last = position(&s.client).await.1;
    let before_last: Vec<u64> = kills.iter().copied().filter(|&k| k < last).collect();
    assert_eq!(
        visited(&s.client, 'X').await,
        before_last,
        "battle kills, backwards"
    );

    let grid = flaky_grid();
    s.open(&grid).await;
    let data = arena_viewer::data(&grid, &Options::default()).unwrap();
    let lines = |kind| {
        let mut steps: Vec<u64> = data
            .lines
            .iter()
            .filter(|l| l.kind == kind)
            .map(|l| l.step as u64)
            .collect();
        steps.dedup();
        steps
    };
    let (faults, rejected) = (
        lines(arena_viewer::LineKind::Fault),
        lines(arena_viewer::LineKind::Rejected),
    );
    assert_eq!(faults.len(), 1);
    assert!(rejected.len() > 1);
    assert_eq!(visited(&s.client, 'f').await, faults, "grid faults");
    assert_eq!(visited(&s.client, 'r').await, rejected, "grid rejections");
    let captures = steps_of_events(&grid, |e| matches!(e, grid::Event::MineCaptured { .. }));
    assert!(captures.len() > 1);
    assert_eq!(
        visited(&s.client, 'c').await,
        captures,
        "grid mines captured"
    );
    let deaths = steps_of_events(&grid, |e| matches!(e, grid::Event::Death { .. }));
    assert_eq!(visited(&s.client, 'x').await, deaths, "grid deaths");

    let conquest = game::<Conquest>("strong", "heuristic", 4);
    s.open(&conquest).await;
    let captured = steps_of_events(&conquest, |e| matches!(e, conquest::Event::Captured { .. }));
    assert_eq!(captured.len(), 1);
    assert_eq!(
        visited(&s.client, 'c').await,
        captured,
        "conquest home captured"
    );
    s.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn question_mark_shows_the_keys_until_escape() {
    let Some(s) = session().await else { return };
    s.open(&game::<Battle>("strong", "random", 4)).await;
    let hidden = "return document.getElementById('help').hidden;";
    assert_eq!(js(&s.client, hidden).await, true);
    let press = async |key: &str| {
        s.client
            .active_element()
            .await
            .unwrap()
            .send_keys(key)
            .await
            .unwrap();
    };
    press("?").await;
    assert_eq!(js(&s.client, hidden).await, false);
    let keys = texts(&s.client, "#help kbd").await;
    for key in ["space", "x", "f", "r", "c", "?"] {
        assert!(keys.iter().any(|k| k == key), "{key} in {keys:?}");
    }
    screenshot(&s.client, "help").await;
    // While it is open, the other keys do nothing.
    press(&Key::Right.to_string()).await;
    assert_eq!(position(&s.client).await.0, 0);
    press(&Key::Escape.to_string()).await;
    assert_eq!(js(&s.client, hidden).await, true);
    s.client
        .find(Locator::Id("help-button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(js(&s.client, hidden).await, false);
    s.client
        .find(Locator::Id("help-close"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(js(&s.client, hidden).await, true);
    s.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn the_score_chart_is_the_diamonds_over_time() {
    let Some(s) = session().await else { return };
    let replay = flaky_grid();
    s.open(&replay).await;
    let diamonds = replay
        .events()
        .find_map(|e| match e {
            arena_engine::grid::Event::GameEnd { diamonds, .. } => Some(*diamonds),
            _ => None,
        })
        .unwrap();
    let charts = js(
        &s.client,
        "return [...document.querySelectorAll('.scorechart')].map(c => [c.dataset.name, \
         c.querySelectorAll('polyline')[0].points.length]);",
    )
    .await;
    let (_, last) = position(&s.client).await;
    assert_eq!(charts, json!([["diamonds per team", last + 1]]));
    js(
        &s.client,
        "Arena.player.show(Arena.player.last); return null;",
    )
    .await;
    assert_eq!(
        texts(&s.client, ".scorechart .now").await,
        [format!(
            "this step: seat 0 {} · seat 1 {}",
            diamonds[0], diamonds[1]
        )]
    );
    screenshot(&s.client, "grid-end").await;
    // A click on the chart jumps to the step under it.
    s.client
        .find(Locator::Css(".scorechart svg"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let at = position(&s.client).await.0;
    assert!(at.abs_diff(last / 2) <= 1, "{at} of {last}");
    s.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn the_end_of_game_statistics_show_at_the_last_step() {
    let Some(s) = session().await else { return };
    let replay = game::<Conquest>("strong", "heuristic", 4);
    s.open(&replay).await;
    let hidden = "return document.getElementById('stats').hidden;";
    assert_eq!(js(&s.client, hidden).await, true);
    js(
        &s.client,
        "Arena.player.show(Arena.player.last); return null;",
    )
    .await;
    assert_eq!(js(&s.client, hidden).await, false);
    let rows = js(
        &s.client,
        "return Object.fromEntries([...document.querySelectorAll('#stats tr[data-stat]')].map(r => \
         [r.dataset.stat, [...r.querySelectorAll('td')].slice(1).map(td => td.textContent)]));",
    )
    .await;
    let seats = &replay.outcome.seats;
    assert!(!seats[0].stats.is_empty());
    for (key, value) in &seats[0].stats {
        let shown = &rows[key.replace('_', " ").as_str()];
        assert_eq!(
            shown,
            &json!([value.to_string(), seats[1].stats[key].to_string()]),
            "{key}"
        );
    }
    assert_eq!(
        rows["faults"],
        json!([seats[0].faults.to_string(), seats[1].faults.to_string()])
    );
    screenshot(&s.client, "conquest-end").await;
    s.close().await;
}

/// The rows of the inspection box: `[[field, value]]`, and its title.
async fn inspected(client: &Client) -> Value {
    js(
        client,
        "const t = document.querySelector('#inspect .title'); \
         return [t ? t.firstChild.textContent : null, [...document.querySelectorAll('#inspect tr')].map(r => [...r.children].map(td => td.textContent))];",
    )
    .await
}

#[tokio::test(flavor = "current_thread")]
async fn a_clicked_unit_shows_its_state_at_every_step() {
    let Some(s) = session().await else { return };
    let replay = game::<Battle>("strong", "strong", 15);
    s.open(&replay).await;
    // The step where a unit carries the most effects, and that unit.
    let (step, unit) = {
        let v = js(
            &s.client,
            "let best = [0, 0, -1]; Arena.data.steps.forEach((s, i) => s.state.units.forEach((u, id) => { \
               if (u.effects.length > best[2]) best = [i, id, u.effects.length]; })); return best;",
        )
        .await;
        (v[0].as_u64().unwrap(), v[1].as_u64().unwrap())
    };
    js(
        &s.client,
        &format!("Arena.player.show({step}); return null;"),
    )
    .await;
    s.client
        .find(Locator::Css(&format!(
            "#layer .unit[data-id=\"{unit}\"] > text"
        )))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    for at in [step, step + 1] {
        js(&s.client, &format!("Arena.player.show({at}); return null;")).await;
        let expected = js(
            &s.client,
            &format!(
                "const u = Arena.data.steps[{at}].state.units[{unit}], f = Arena.data.fixed.units[{unit}]; \
                 return [u.hp + ' / ' + f.max, u.effects.length ? u.effects.map(e => e[0] + ' (' + e[1] + ' turn' + (e[1] === 1 ? '' : 's') + ' left)').join(', ') : 'none', f.kind];"
            ),
        )
        .await;
        let shown = inspected(&s.client).await;
        let title = shown[0].as_str().unwrap();
        assert!(
            title.starts_with(&format!("#{unit} {}", expected[2].as_str().unwrap())),
            "{shown}"
        );
        let field = |name: &str| {
            shown[1]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r[0] == name)
                .map(|r| r[1].clone())
        };
        assert_eq!(
            field("integrity"),
            Some(expected[0].clone()),
            "step {at}: {shown}"
        );
        assert_eq!(
            field("effects"),
            Some(expected[1].clone()),
            "step {at}: {shown}"
        );
    }
    screenshot(&s.client, "battle-inspect").await;
    s.close().await;
}

#[tokio::test(flavor = "current_thread")]
async fn grid_and_conquest_boards_are_numbered() {
    let Some(s) = session().await else { return };
    let grid = flaky_grid();
    s.open(&grid).await;
    let initial = grid.initial.clone().unwrap();
    let numbers = texts(&s.client, "#picture .coord").await;
    let expected: Vec<String> = (0..initial.width)
        .chain(0..initial.height)
        .map(|n| n.to_string())
        .collect();
    assert_eq!(numbers, expected);
    // A hero's inspected place is where the numbers put it.
    let hero = s.client.find(Locator::Css("#layer .hero")).await.unwrap();
    hero.click().await.unwrap();
    let shown = inspected(&s.client).await;
    let at = shown[1]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r[0] == "at")
        .unwrap()[1]
        .clone();
    let id: usize = hero
        .attr("data-id")
        .await
        .unwrap()
        .unwrap()
        .parse()
        .unwrap();
    let place = js(&s.client, &format!("const h = Arena.data.steps[0].state.heroes[{id}]; return '(' + h[0] + ', ' + h[1] + ')';")).await;
    assert_eq!(at, place);
    let conquest = game::<Conquest>("strong", "heuristic", 4);
    s.open(&conquest).await;
    let initial = conquest.initial.clone().unwrap();
    assert_eq!(
        texts(&s.client, "#picture .coord").await.len(),
        usize::from(initial.width) + usize::from(initial.height)
    );
    s.close().await;
}

/// At the current window size, over a few steps of the open page: how far the page is
/// wider than the window, and the texts drawn under 11 px (HTML or SVG, as rendered).
const NARROW_PROBLEMS: &str = "
    const small = new Set();
    for (const i of [0, Math.floor(Arena.player.last / 2), Arena.player.last]) {
      Arena.player.show(i);
      for (const el of document.querySelectorAll('body *')) {
        if (!el.getClientRects().length || el.closest('[hidden]')) continue;
        const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
        if (!own) continue;
        let size = parseFloat(getComputedStyle(el).fontSize);
        if (el instanceof SVGElement) size *= el.getScreenCTM().a;
        if (size < 10.99) small.add(el.tagName + ' ' + (el.getAttribute('class') || '') + ' ' + size.toFixed(1) + 'px: ' + el.textContent.slice(0, 16));
      }
    }
    return [Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth), [...small]];";

#[tokio::test(flavor = "current_thread")]
async fn every_mode_fits_every_window_width_with_no_text_under_11_px() {
    let Some(s) = session().await else { return };
    let d = s.dir.path();
    let pages = [
        (
            "battle",
            write_page(d, &game::<Battle>("strong", "strong", 15)),
        ),
        ("tcg", write_page(d, &game::<Tcg>("planner", "greedy", 4))),
        ("grid", write_page(d, &flaky_grid())),
        (
            "dungeon",
            write_page(d, &game::<Dungeon>("strong", "heuristic", 4)),
        ),
        (
            "conquest",
            write_page(d, &game::<Conquest>("strong", "heuristic", 4)),
        ),
    ];
    let mut problems = Vec::new();
    for (width, height) in [
        (360, 740),
        (900, 800),
        (1000, 800),
        (1300, 900),
        (1400, 900),
        (1920, 900),
    ] {
        s.client.set_window_size(width, height).await.unwrap();
        for (mode, file) in &pages {
            s.client
                .goto(&format!("file://{}", file.display()))
                .await
                .unwrap();
            let found = js(&s.client, NARROW_PROBLEMS).await;
            if found != json!([0, []]) {
                problems.push(format!("{mode} at {width} px: {found}"));
            }
            if *mode == "conquest" && width == 360 || *mode == "tcg" && width == 1300 {
                js(&s.client, "Arena.player.show(5); return null;").await;
                screenshot(&s.client, &format!("{mode}-{width}")).await;
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
    s.close().await;
}

/// A colour `#rrggbb` as seen with normal vision (`None`) or simulated colour blindness
/// (Machado, Oliveira and Fernandes 2009, severity 1, on linear RGB), in CIELAB (D65).
fn lab(hex: &str, blindness: Option<&[[f64; 3]; 3]>) -> [f64; 3] {
    let hex = hex.trim_start_matches('#');
    assert_eq!(hex.len(), 6, "a colour #rrggbb: {hex}");
    let linear = |i: usize| {
        let c = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let mut rgb = [linear(0), linear(2), linear(4)];
    if let Some(m) = blindness {
        let seen: Vec<f64> = (0..3)
            .map(|i| {
                (0..3)
                    .map(|j| m[i][j] * rgb[j])
                    .sum::<f64>()
                    .clamp(0.0, 1.0)
            })
            .collect();
        rgb = [seen[0], seen[1], seen[2]];
    }
    let [r, g, b] = rgb;
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    let f = |t: f64| {
        if t > 0.008856 {
            t.cbrt()
        } else {
            7.787 * t + 16.0 / 116.0
        }
    };
    [
        116.0 * f(y) - 16.0,
        500.0 * (f(x) - f(y)),
        200.0 * (f(y) - f(z)),
    ]
}

const DEUTERANOPIA: [[f64; 3]; 3] = [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.011820, 0.042940, 0.968881],
];
const PROTANOPIA: [[f64; 3]; 3] = [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
];

/// The pairs of `colours` ([name, #rrggbb]) closer than 20 in CIELAB in some vision.
fn too_close(colours: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (vision, m) in [
        ("normal", None),
        ("deuteranopia", Some(&DEUTERANOPIA)),
        ("protanopia", Some(&PROTANOPIA)),
    ] {
        for (i, (a, ca)) in colours.iter().enumerate() {
            for (b, cb) in &colours[i + 1..] {
                let (la, lb) = (lab(ca, m), lab(cb, m));
                let distance = la
                    .iter()
                    .zip(lb)
                    .map(|(x, y)| (x - y).powi(2))
                    .sum::<f64>()
                    .sqrt();
                if distance < 20.0 {
                    out.push(format!(
                        "{vision}: {a} {ca} and {b} {cb} are {distance:.1} apart"
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn the_colour_distance_tells_the_old_acting_amber_from_the_seat_colour_only_in_normal_vision() {
    let old = [
        ("seat 1".to_string(), "#d55e00".to_string()),
        ("acting".to_string(), "#ca8a04".to_string()),
    ];
    assert_eq!(
        too_close(&old),
        [
            "deuteranopia: seat 1 #d55e00 and acting #ca8a04 are 7.2 apart",
            "protanopia: seat 1 #d55e00 and acting #ca8a04 are 14.7 apart",
        ]
    );
    assert_eq!(lab("#ffffff", None).map(|v| v.round()), [100.0, 0.0, 0.0]);
}

/// Each mode's legend (its marks and lines; the pale squares are tile backgrounds, told
/// apart by their letters) and the charts' colours with the seats'.
const MEANINGFUL_COLOURS: &str = "
    const legend = Arena.modes[Arena.data.mode].legend.filter(item => !item.square)
      .map(item => [item.text, item.colour]);
    const c = Arena.colours;
    const charts = [['seat 0', Arena.seatColor(0)], ['seat 1', Arena.seatColor(1)], ['fault', c.fault],
      ['rejected', c.rejected], ['chart cursor', c.cursor]];
    return [legend, charts];";

#[tokio::test(flavor = "current_thread")]
async fn every_colour_with_a_meaning_stays_distinct_to_colour_blind_eyes() {
    let Some(s) = session().await else { return };
    let d = s.dir.path();
    let pages = [
        write_page(d, &game::<Battle>("strong", "strong", 15)),
        write_page(d, &game::<Tcg>("planner", "greedy", 4)),
        write_page(d, &flaky_grid()),
        write_page(d, &game::<Dungeon>("strong", "heuristic", 4)),
        write_page(d, &game::<Conquest>("strong", "heuristic", 4)),
    ];
    for file in pages {
        s.client
            .goto(&format!("file://{}", file.display()))
            .await
            .unwrap();
        let groups: Vec<Vec<(String, String)>> =
            serde_json::from_value(js(&s.client, MEANINGFUL_COLOURS).await).unwrap();
        assert!(groups[0].len() >= 4, "{}: {:?}", file.display(), groups[0]);
        for group in groups {
            assert_eq!(
                too_close(&group),
                Vec::<String>::new(),
                "{}",
                file.display()
            );
        }
    }
    s.close().await;
}
