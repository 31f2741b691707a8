//! The server's pages in a real browser: headless Chromium over chromedriver (WebDriver),
//! against `arena serve` on 127.0.0.1 with two bots and ladder games. Opens the
//! leaderboard, follows its link to a bot page (rating picture, games) and from there to a
//! game page.
//!
//! Without Chromium and chromedriver the test says so and passes, unless
//! `ARENA_REQUIRE_BROWSER=1` (set by `.ci/run` once it has installed them).

use crate::server::Server;
use arena_tests::bots;
use fantoccini::{Client, Locator};
use serde_json::Value;

// The same Chromium harness as the viewer's browser test.
#[path = "../arena/viewer/tests/support/chromium.rs"]
mod chromium;
use chromium::{browser, driver};

async fn js(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.expect(script)
}

#[test]
fn leaderboard_bot_and_game_pages_work_in_chromium() {
    let driver = match driver() {
        Ok(driver) => driver,
        Err(why) if std::env::var_os("ARENA_REQUIRE_BROWSER").is_some() => {
            panic!("ARENA_REQUIRE_BROWSER is set but {why}")
        }
        Err(why) => {
            eprintln!("browser test skipped: {why}");
            return;
        }
    };
    let dir = tempfile::tempdir().unwrap();
    // Only the two uploads play (no house bots): the page lists exactly them.
    let server = Server::start(dir.path(), "jobs = 1\nhouse_bots = false\n[modes.battle]\n");
    let alice = server.add_user("alice", false);
    for (name, bot) in [
        ("rando", bots::BATTLE_RANDOM),
        ("starter", bots::BATTLE_STARTER),
    ] {
        let (status, body) = server.upload(Some(&alice), name, &std::fs::read(bot).unwrap());
        assert_eq!(status, 201, "{body}");
    }
    server.wait_for_games(4);
    let url = server.url.clone();

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let client = browser(&driver).await;
        client.goto(&format!("{url}/leaderboard/battle")).await.unwrap();
        let names = js(
            &client,
            "return [...document.querySelectorAll('table.leaderboard tbody tr td:nth-child(2)')].map(e => e.textContent);",
        )
        .await;
        let mut names: Vec<String> = serde_json::from_value(names).unwrap();
        names.sort();
        assert_eq!(names, ["rando", "starter"]);
        let games = js(
            &client,
            "return [...document.querySelectorAll('table.leaderboard tbody tr td:nth-child(6)')].map(e => Number(e.textContent));",
        )
        .await;
        assert!(games.as_array().unwrap().iter().all(|g| g.as_u64().unwrap() >= 4), "{games}");

        // Follow the leaderboard's link to a bot page.
        client.find(Locator::LinkText("starter")).await.unwrap().click().await.unwrap();
        let page = client.current_url().await.unwrap();
        assert!(page.path().starts_with("/bots/"), "{page}");
        let picture = js(
            &client,
            "const s = document.querySelector('svg.rating-history'); \
             return s ? [s.getBoundingClientRect().width, s.querySelectorAll('circle').length] : null;",
        )
        .await;
        assert!(picture[0].as_f64().unwrap() > 100.0, "the rating picture is drawn: {picture}");
        assert!(picture[1].as_u64().unwrap() >= 1, "{picture}");

        // And from its recent games to a game page.
        let link = client.find(Locator::Css("table.games a")).await.unwrap();
        link.click().await.unwrap();
        let page = client.current_url().await.unwrap();
        assert!(page.path().starts_with("/games/"), "{page}");
        let title = js(&client, "return document.querySelector('h1').textContent;").await;
        assert!(title.as_str().unwrap().contains("starter@v1"), "{title}");
        let replay = js(&client, "return document.querySelector('pre.replay').textContent.length;").await;
        assert!(replay.as_u64().unwrap() > 100, "{replay}");
        // The game page embeds the browser replay viewer; open it on its own and check it
        // draws the game to its end without a JavaScript error.
        // Under the pages' Content-Security-Policy the stylesheet applies and the framed
        // viewer's scripts run (its policy allows them by hash).
        let header = js(&client, "return getComputedStyle(document.querySelector('header')).backgroundColor;").await;
        assert_eq!(header, "rgb(36, 41, 47)", "style.css applies");
        let mut framed = Value::Null;
        for _ in 0..100 {
            framed = js(&client, "var f = document.querySelector('iframe.viewer'); return !!(f.contentWindow && f.contentWindow.Arena && f.contentWindow.Arena.player);").await;
            if framed == Value::Bool(true) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(framed, Value::Bool(true), "the framed viewer runs");
        // At any width the page is no wider than the window (its tables scroll by
        // themselves), and the viewer is framed whole: as wide as the page, nothing of it
        // scrolled inside the frame, sideways or down.
        for (width, height) in [(400, 800), (1000, 800), (1400, 1000)] {
            client.set_window_size(width, height).await.unwrap();
            let mut fit = Value::Null;
            for _ in 0..50 {
                fit = js(
                    &client,
                    "const f = document.querySelector('iframe.viewer'), d = f.contentDocument.documentElement;                      return [document.documentElement.scrollWidth, innerWidth, f.getBoundingClientRect().width,                        d.scrollWidth, d.clientWidth, d.scrollHeight, d.clientHeight];",
                )
                .await;
                if fit[5].as_f64() <= fit[6].as_f64().map(|h| h + 1.0) {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            let [page_width, window_width, frame_width, inner_width, inner_box, inner_height, inner_box_height] =
                [0, 1, 2, 3, 4, 5, 6].map(|i| fit[i].as_f64().unwrap());
            assert!(page_width <= window_width, "{width} px wide: {fit}");
            assert!(frame_width <= window_width, "{width} px wide: {fit}");
            assert!(frame_width >= window_width - 80.0, "the viewer gets the page's width at {width} px: {fit}");
            assert!(inner_width <= inner_box, "nothing of the viewer is cut sideways at {width} px: {fit}");
            assert!(inner_height <= inner_box_height + 1.0, "nothing of the viewer is cut below at {width} px: {fit}");
            if width == 1400 {
                let png = client.screenshot().await.unwrap();
                let shots = std::env::temp_dir().join("arena-viewer-screenshots");
                std::fs::create_dir_all(&shots).unwrap();
                std::fs::write(shots.join("server-game-1400.png"), png).unwrap();
            }
        }
        let frame = js(&client, "return document.querySelector('iframe.viewer').getAttribute('src');").await;
        let viewer = format!("{url}{}", frame.as_str().unwrap());
        client.goto(&viewer).await.unwrap();
        let steps = js(&client, "return [Arena.player.current(), Arena.player.last];").await;
        assert_eq!(steps[0], 0, "the viewer starts at the first step: {steps}");
        assert!(steps[1].as_u64().unwrap() > 1, "the game has steps: {steps}");
        // The seat swatches' style attributes (set by the viewer's script) apply.
        let swatch = js(&client, "var s = document.querySelector('.swatch'); return s ? getComputedStyle(s).backgroundColor : null;").await;
        assert_eq!(swatch, "rgb(0, 114, 178)", "seat 0's swatch");
        let errors = js(&client, "return window.arenaErrors;").await;
        assert_eq!(errors, serde_json::json!([]), "JavaScript errors in the viewer");
        client.close().await.unwrap();
    });
}
