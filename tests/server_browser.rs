//! The server's pages in a real browser: headless Chromium over chromedriver (WebDriver),
//! against `arena serve` on 127.0.0.1 with two bots and ladder games. Opens the
//! leaderboard, follows its link to a bot page (rating picture, games) and from there to a
//! game page.
//!
//! Without Chromium and chromedriver the test says so and passes, unless
//! `ARENA_REQUIRE_BROWSER=1` (set by `.ci/run` once it has installed them).

use crate::server::Server;
use arena_tests::bots;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// A chromedriver process, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
    profile: tempfile::TempDir,
    chromium: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn find(names: &[&str], env: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(env) {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// Start chromedriver, or explain why the browser tests cannot run.
fn driver() -> Result<Driver, String> {
    let chromium = find(
        &["chromium", "chromium-browser", "google-chrome"],
        "CHROMIUM",
    )
    .ok_or("no chromium on PATH (apt-get install chromium chromium-driver)")?;
    let chromedriver = find(&["chromedriver"], "CHROMEDRIVER")
        .ok_or("no chromedriver on PATH (apt-get install chromium-driver)")?;
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?
        .port();
    let child = Command::new(&chromedriver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", chromedriver.display()))?;
    let driver = Driver {
        child,
        port,
        profile: tempfile::tempdir().map_err(|e| e.to_string())?,
        chromium,
    };
    // A readiness poll, not a timing assumption of the test.
    for _ in 0..200 {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(driver);
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    Err("chromedriver did not start listening".to_owned())
}

async fn browser(driver: &Driver) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".to_owned(),
        json!({
            "binary": driver.chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1200,900",
                format!("--user-data-dir={}", driver.profile.path().display()),
            ],
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a browser session")
}

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
    let server = Server::start(dir.path(), "jobs = 1\n[modes.battle]\n");
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
        let frame = js(&client, "return document.querySelector('iframe.viewer').getAttribute('src');").await;
        let viewer = format!("{url}{}", frame.as_str().unwrap());
        client.goto(&viewer).await.unwrap();
        let steps = js(&client, "return [Arena.player.current(), Arena.player.last];").await;
        assert_eq!(steps[0], 0, "the viewer starts at the first step: {steps}");
        assert!(steps[1].as_u64().unwrap() > 1, "the game has steps: {steps}");
        let errors = js(&client, "return window.arenaErrors;").await;
        assert_eq!(errors, serde_json::json!([]), "JavaScript errors in the viewer");
        client.close().await.unwrap();
    });
}
