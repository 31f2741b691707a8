//! `arena serve` through the binary: a real server on 127.0.0.1 (port chosen by the OS)
//! with a temporary database, driven over HTTP and by `arena submit`.

use crate::{arena, arena_bin};
use arena_tests::{bots, hostile, stdout};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `arena serve`; killed (SIGKILL) when dropped.
pub struct Server {
    child: Child,
    pub url: String,
    pub dir: PathBuf,
}

impl Server {
    /// Start `arena serve` on `dir/arena.db` with `config` (TOML) and wait until it listens.
    pub fn start(dir: &Path, config: &str) -> Server {
        let config_path = dir.join("server.toml");
        std::fs::write(&config_path, config).unwrap();
        let mut child = Command::new(arena_bin())
            .args(["serve", "--listen", "127.0.0.1:0", "--config"])
            .arg(&config_path)
            .arg("--db")
            .arg(dir.join("arena.db"))
            .env("ARENA_CACHE_DIR", dir.join("cache"))
            .env_remove("ARENA_LOG")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start arena serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .strip_prefix("listening on ")
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
            .to_owned();
        Server {
            child,
            url,
            dir: dir.to_path_buf(),
        }
    }

    /// SIGKILL, as a crash would.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        request(ureq_agent().get(format!("{}{path}", self.url)).call())
    }

    pub fn get_json(&self, path: &str) -> Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str(&body).unwrap()
    }

    /// Upload `wasm` as `name` with `token` (None: no Authorization header).
    pub fn upload(&self, token: Option<&str>, name: &str, wasm: &[u8]) -> (u16, Value) {
        let mut request = ureq_agent().post(format!("{}/api/bots?name={name}", self.url));
        if let Some(token) = token {
            request = request.header("Authorization", &format!("Bearer {token}"));
        }
        let (status, body) = self::request(request.send(wasm));
        (
            status,
            serde_json::from_str(&body).unwrap_or(Value::String(body)),
        )
    }

    /// Add a user with the CLI and return their token.
    pub fn add_user(&self, name: &str, admin: bool) -> String {
        add_user(&self.dir, name, admin)
    }

    /// Poll `/api/status` until `games` games are stored.
    pub fn wait_for_games(&self, games: u64) -> Value {
        let deadline = Instant::now() + Duration::from_secs(300);
        loop {
            let status = self.get_json("/api/status");
            if status["games"].as_u64().unwrap() >= games {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "no {games} games in time: {status}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn add_user(dir: &Path, name: &str, admin: bool) -> String {
    let db = dir.join("arena.db");
    let mut args = vec!["serve", "user", "add", name, "--db", db.to_str().unwrap()];
    if admin {
        args.push("--admin");
    }
    let out = arena(&dir.join("cache"), &args);
    assert!(out.status.success(), "{out:?}");
    stdout(&out).trim().to_owned()
}

fn ureq_agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

fn request(response: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> (u16, String) {
    let mut response = response.expect("the server answers");
    let status = response.status().as_u16();
    (status, response.body_mut().read_to_string().unwrap())
}

/// A server that plays battle only (short games), one worker, among uploads alone.
const BATTLE_ONLY: &str = "jobs = 1\nhouse_bots = false\n[modes.battle]\n";

#[test]
fn uploaded_bots_are_checked_play_ladder_games_and_rank_on_the_leaderboard() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), BATTLE_ONLY);
    let alice = server.add_user("alice", false);
    let bob = server.add_user("bob", false);
    assert_eq!(alice.len(), 64, "a 256-bit token in hex");

    // alice submits with the CLI, the token from the environment.
    let out = Command::new(arena_bin())
        .args([
            "submit",
            bots::BATTLE_RANDOM,
            "--server",
            &server.url,
            "--name",
            "rando",
        ])
        .env("ARENA_TOKEN", &alice)
        .output()
        .unwrap();
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("trial game vs builtin:random"), "{text}");
    assert!(
        text.contains("accepted: rando version 1 plays battle"),
        "{text}"
    );
    assert!(
        text.contains(&format!("bot page: {}/bots/1", server.url)),
        "{text}"
    );

    let empty = server.get_json("/api/leaderboard/battle");
    assert_eq!(empty["games"], 0, "one bot alone plays nobody");

    let wasm = std::fs::read(bots::BATTLE_STARTER).unwrap();
    let (status, body) = server.upload(Some(&bob), "starter", &wasm);
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["version"], 1);
    assert_eq!(body["check"]["ok"], true);
    let starter = body["bot_id"].as_i64().unwrap();

    server.wait_for_games(4);
    let board = server.get_json("/api/leaderboard/battle");
    let rows = board["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{board}");
    assert!(
        rows.iter().all(|r| r["games"].as_u64().unwrap() >= 4),
        "{board}"
    );
    assert!(
        rows.iter().all(|r| r["elo_ci95"].as_f64().unwrap() > 0.0),
        "{board}"
    );
    assert_eq!(
        rows[0]["games"], rows[1]["games"],
        "every game counts for both: {board}"
    );
    // The ladder plays seat-swapped pairs: the first two games share a seed.
    let (g1, g2) = (
        server.get_json("/api/games/1"),
        server.get_json("/api/games/2"),
    );
    assert_eq!(g1["game"]["seed"], g2["game"]["seed"]);
    assert_eq!(g1["game"]["seats"][0], g2["game"]["seats"][1]);

    // A new upload of the same name is version 2; version 1's games stay.
    let strong = std::fs::read(bots::BATTLE_STRONG).unwrap();
    let (status, body) = server.upload(Some(&bob), "starter", &strong);
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["version"], 2);
    let details = server.get_json(&format!("/api/bots/{starter}"));
    assert_eq!(details["versions"].as_array().unwrap().len(), 2);
    assert!(
        !details["modes"]["battle"]["history"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert!(!details["recent_games"].as_array().unwrap().is_empty());

    // The stored replay is a real replay: `arena replay verify` agrees with it.
    let (status, replay) = server.get("/api/games/1/replay");
    assert_eq!(status, 200);
    let file = dir.path().join("game1.json");
    std::fs::write(&file, replay).unwrap();
    let verify = arena(
        &dir.path().join("cache"),
        &["replay", "verify", file.to_str().unwrap()],
    );
    assert!(verify.status.success(), "{}", stdout(&verify));

    // The pages.
    let (status, index) = server.get("/");
    assert_eq!(status, 200);
    assert!(
        index.contains("rando") && index.contains("starter"),
        "{index}"
    );
    let (status, page) = server.get(&format!("/bots/{starter}"));
    assert_eq!(status, 200);
    assert!(
        page.contains("<svg") && page.contains("rating-history"),
        "{page}"
    );
    let (status, page) = server.get("/games/1");
    assert_eq!(status, 200);
    assert!(page.contains("Replay"), "{page}");

    // A game's pages re-simulate its replay: each is rendered once, then kept.
    let rendered = || {
        server.get_json("/api/status")["pages_rendered"]
            .as_u64()
            .unwrap()
    };
    let before = rendered();
    for _ in 0..5 {
        assert_eq!(server.get("/games/1"), (200, page.clone()));
    }
    let (status, viewer) = server.get("/games/1/viewer");
    assert_eq!(status, 200);
    for _ in 0..3 {
        assert_eq!(server.get("/games/1/viewer"), (200, viewer.clone()));
    }
    // The viewer runs its own inline script and style, allowed by hash, and only the
    // server's own game page may frame it.
    let (_, headers, _) = get_with_headers(&server, "/games/1/viewer");
    let csp = header(&headers, "content-security-policy").unwrap_or_default();
    assert!(
        csp.contains("script-src 'sha256-") && csp.contains("style-src-elem 'sha256-"),
        "{csp}"
    );
    assert!(
        !csp.contains("script-src 'unsafe") && csp.contains("frame-ancestors 'self'"),
        "{csp}"
    );
    assert_eq!(header(&headers, "x-frame-options"), Some("SAMEORIGIN"));
    assert_eq!(header(&headers, "x-content-type-options"), Some("nosniff"));
    let (_, headers, _) = get_with_headers(&server, "/games/1");
    let csp = header(&headers, "content-security-policy").unwrap_or_default();
    assert!(
        csp.contains("frame-src 'self'") && !csp.contains("unsafe"),
        "{csp}"
    );
    assert_eq!(server.get("/games/999").0, 404);
    assert_eq!(
        rendered(),
        before + 1,
        "the viewer once; /games/1 not again; no page for a missing game"
    );
}

#[test]
fn bad_requests_get_json_errors_with_status_codes() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(
        dir.path(),
        "ladder = false\nmax_upload_bytes = 1000000\nuploads_per_hour = 2\n",
    );
    let alice = server.add_user("alice", false);
    let bob = server.add_user("bob", false);
    let wasm = std::fs::read(bots::BATTLE_RANDOM).unwrap();

    let (status, body) = server.upload(None, "x", &wasm);
    assert_eq!(status, 401, "{body}");
    assert!(body["error"].as_str().unwrap().contains("missing token"));
    let (status, body) = server.upload(Some("0123abcd"), "x", &wasm);
    assert_eq!(status, 401, "{body}");
    assert_eq!(body["error"], "unknown token");

    let (status, body) = server.upload(Some(&alice), "..%2Fescape", &wasm);
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("invalid bot name"),
        "{body}"
    );

    let (status, body) = server.upload(Some(&alice), "mine", &wasm);
    assert_eq!(status, 201, "{body}");
    let bot = body["bot_id"].as_i64().unwrap();
    let (status, body) = server.upload(Some(&bob), "mine", &wasm);
    assert_eq!(status, 403, "bob cannot upload over alice's bot: {body}");
    assert!(body["error"].as_str().unwrap().contains("belongs to alice"));
    let (status, _) = request(
        ureq_agent()
            .delete(format!("{}/api/bots/{bot}", server.url))
            .header("Authorization", &format!("Bearer {bob}"))
            .call(),
    );
    assert_eq!(status, 403, "nor retire it");

    let big = vec![0u8; 1_500_000];
    let (status, body) = server.upload(Some(&bob), "big", &big);
    assert_eq!(status, 413, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("upload limit of 1000000 bytes")
    );

    let bad = std::fs::read(hostile("not-wasm.wasm")).unwrap();
    let (status, body) = server.upload(Some(&bob), "bad", &bad);
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("not a WebAssembly module"),
        "{body}"
    );
    let looping = std::fs::read(hostile("infinite-loop.wat")).unwrap();
    let (status, body) = server.upload(Some(&bob), "loop", &looping);
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("out_of_fuel"),
        "{body}"
    );
    assert_eq!(body["check"]["ok"], false);

    // bob has had 2 uploads checked this hour (rejected ones count: each costs a check).
    let (status, body) = server.upload(Some(&bob), "third", &wasm);
    assert_eq!(status, 429, "{body}");

    let (status, body) = server.get("/api/games/99");
    assert_eq!(status, 404);
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap()["error"],
        "no such game"
    );
    for path in ["/api/games/abc", "/api/bots/99999999999999999999"] {
        let (status, body) = server.get(path);
        assert_eq!(status, 400, "{path}: {body}");
        let error = serde_json::from_str::<Value>(&body).unwrap()["error"].clone();
        assert!(error.as_str().unwrap().starts_with("not an id"), "{error}");
    }
    let (status, page) = server.get("/games/abc");
    assert_eq!(status, 400);
    assert!(
        page.contains("not an id") && page.contains("<html"),
        "{page}"
    );
    let (status, body) = server.get("/api/leaderboard/chess");
    assert_eq!(status, 404, "{body}");
    let (status, _) = server.get("/api/nothing");
    assert_eq!(status, 404);
    let (status, body) = request(
        ureq_agent()
            .post(format!("{}/api/users", server.url))
            .send_json(serde_json::json!({"name": "mallory"})),
    );
    assert_eq!(status, 403, "registration is closed by default: {body}");

    // One upload at a time per token: while one is being sent, the next is refused (its
    // body drained, not kept), so a token cannot make the server hold many bodies at once.
    use std::io::{Read, Write};
    let address = server.url.trim_start_matches("http://").to_owned();
    let mut slow = std::net::TcpStream::connect(&address).unwrap();
    write!(
        slow,
        "POST /api/bots?name=slow HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {alice}\r\n\
         Content-Length: 100\r\nConnection: close\r\n\r\n{}",
        "x".repeat(10)
    )
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        // Without an upload in flight, an empty one is a 400; with one, a 429.
        let (status, body) = server.upload(Some(&alice), "other", b"");
        if status == 429 {
            assert!(
                body["error"].as_str().unwrap().contains("in progress"),
                "{body}"
            );
            break;
        }
        assert_eq!(status, 400, "{body}");
        assert!(Instant::now() < deadline, "the slow upload was never seen");
        std::thread::sleep(Duration::from_millis(50));
    }
    slow.write_all("x".repeat(90).as_bytes()).unwrap();
    let mut answer = String::new();
    slow.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 422"), "{answer}");
    let (status, body) = server.upload(Some(&alice), "other", b"");
    assert_eq!(status, 400, "the mark is lifted with the answer: {body}");
}

/// Open registration creates accounts, but no more than `registrations_per_hour` an hour
/// per caller (this test's one address; callers apart are the server's unit test); a new
/// token works at once.
#[test]
fn open_registration_is_rate_limited() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(
        dir.path(),
        "ladder = false\nopen_registration = true\nregistrations_per_hour = 2\n",
    );
    let register = |name: &str| {
        request(
            ureq_agent()
                .post(format!("{}/api/users", server.url))
                .send_json(serde_json::json!({ "name": name })),
        )
    };
    // Refused requests (a bad body, an invalid or taken name) use up nothing.
    for _ in 0..20 {
        let (status, body) = register("Not A Name!");
        assert_eq!(status, 400, "{body}");
        let (status, body) = request(
            ureq_agent()
                .post(format!("{}/api/users", server.url))
                .header("Content-Type", "application/json")
                .send("{\"nom\": 1}"),
        );
        assert_eq!(status, 422, "{body}");
    }
    let (status, body) = register("alice");
    assert_eq!(status, 201, "{body}");
    for _ in 0..5 {
        let (status, body) = register("alice");
        assert_eq!(status, 409, "{body}");
    }
    let token = serde_json::from_str::<Value>(&body).unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = register("bob");
    assert_eq!(status, 201, "{body}");
    let (status, body) = register("carol");
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("registrations_per_hour = 2"), "{body}");
    assert!(body.contains("from your address"), "{body}");
    // The token is found by its hash: alice uploads a bot.
    let wasm = std::fs::read(bots::BATTLE_RANDOM).unwrap();
    let (status, body) = server.upload(Some(&token), "first", &wasm);
    assert_eq!(status, 201, "{body}");
    let (status, _) = server.upload(Some(&"0".repeat(64)), "second", &wasm);
    assert_eq!(status, 401);
}

#[test]
fn a_killed_server_resumes_the_ladder_without_losing_or_repeating_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), BATTLE_ONLY);
    let alice = server.add_user("alice", false);
    upload_three_battle_bots(&server, &alice);
    server.wait_for_games(3);
    server.kill();

    let db = dir.path().join("arena.db");
    let store = arena_server::store::Store::open(&db).unwrap();
    let before = store.game_count().unwrap();
    let pending = store.pending_jobs().unwrap();
    drop(store);

    let server = Server::start(dir.path(), BATTLE_ONLY);
    server.wait_for_games(before + 6);
    server.kill();
    let store = arena_server::store::Store::open(&db).unwrap();
    let still_pending: Vec<i64> = store
        .pending_jobs()
        .unwrap()
        .iter()
        .map(|(j, _)| j.id)
        .collect();
    // Every job that was unfinished at the kill was finished after the restart, with
    // exactly its two seat-swapped games.
    for (job, _) in &pending {
        if still_pending.contains(&job.id) {
            continue;
        }
        let games: Vec<_> = store
            .games_of_mode(arena_sdk::Mode::Battle)
            .unwrap()
            .into_iter()
            .filter(|g| g.seed == job.seed)
            .collect();
        assert_eq!(games.len(), 2, "job {}: {games:?}", job.id);
        assert_eq!(games[0].seats, [job.a, job.b]);
        assert_eq!(games[1].seats, [job.b, job.a]);
    }
    // No job has more than two games, and every finished job has both.
    let mut per_seed = std::collections::BTreeMap::<u64, Vec<[i64; 2]>>::new();
    for game in store.games_of_mode(arena_sdk::Mode::Battle).unwrap() {
        per_seed.entry(game.seed).or_default().push(game.seats);
    }
    for (seed, seats) in &per_seed {
        assert!(seats.len() <= 2, "seed {seed} played {} times", seats.len());
        if seats.len() == 2 {
            assert_eq!(seats[0], [seats[1][1], seats[1][0]], "seed {seed}");
        }
    }
    assert!(store.game_count().unwrap() >= before + 6);
}

#[test]
fn organizers_run_tournaments_over_submitted_bots_and_see_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), "ladder = false\njobs = 2\n");
    let organizer = server.add_user("org", true);
    let alice = server.add_user("alice", false);
    for (name, bot) in [
        ("rando", bots::BATTLE_RANDOM),
        ("starter", bots::BATTLE_STARTER),
    ] {
        let (status, body) = server.upload(Some(&alice), name, &std::fs::read(bot).unwrap());
        assert_eq!(status, 201, "{body}");
    }
    let file = "name = \"cup\"\nseed = 7\nformat = \"round-robin\"\ngames_per_pairing = 2\n\
                [modes.battle]\n[[bots]]\nbot = \"builtin:random\"\n";
    let post = |token: &str| {
        request(
            ureq_agent()
                .post(format!("{}/api/tournaments", server.url))
                .header("Authorization", &format!("Bearer {token}"))
                .send(file),
        )
    };
    let (status, body) = post(&alice);
    assert_eq!(status, 403, "only organizers: {body}");
    let (status, body) = post(&organizer);
    assert_eq!(status, 202, "{body}");
    let id = serde_json::from_str::<Value>(&body).unwrap()["id"]
        .as_i64()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(300);
    let done = loop {
        let t = server.get_json(&format!("/api/tournaments/{id}"));
        if t["status"] != "running" {
            break t;
        }
        assert!(Instant::now() < deadline, "tournament did not finish: {t}");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(done["status"], "done", "{done}");
    let report = &done["report"];
    assert_eq!(
        report["planned"], 6,
        "3 bots, 3 pairings, 2 games each: {report}"
    );
    // One mode in this file: its standings are the whole report.
    let mut bots: Vec<&str> = report["modes"][0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["bot"].as_str().unwrap())
        .collect();
    bots.sort();
    assert_eq!(bots, ["builtin:random", "rando", "starter"]);
    let (status, page) = server.get(&format!("/tournaments/{id}"));
    assert_eq!(status, 200);
    assert!(
        page.contains("Tournament: cup") && page.contains("report.svg"),
        "{page}"
    );
    let (status, svg) = server.get(&format!("/tournaments/{id}/report.svg"));
    assert_eq!(status, 200);
    assert!(svg.starts_with("<svg"), "{svg}");
    // Listed on /tournaments, with its game list: every planned game, one row each.
    let (status, list) = server.get("/tournaments");
    assert_eq!(status, 200);
    assert!(
        list.contains(&format!("<a href=\"/tournaments/{id}\">cup</a>"))
            && list.contains(&format!("/tournaments/{id}/games")),
        "{list}"
    );
    let (status, games) = server.get(&format!("/tournaments/{id}/games"));
    assert_eq!(status, 200);
    assert_eq!(games.matches("<tr data-game=").count(), 6, "{games}");
    assert_eq!(games.matches("<td class=\"bot\">").count(), 3, "{games}");
    assert_eq!(server.get("/tournaments/999/games").0, 404);
    // Every game listed links to its viewer, which draws it.
    let links: Vec<&str> = games
        .split("<a href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|href| href.ends_with("/viewer"))
        .collect();
    assert_eq!(links.len(), 6, "{games}");
    for (n, href) in links.iter().enumerate() {
        assert!(
            href.starts_with(&format!("/tournaments/{id}/games/")),
            "{href}"
        );
        if n == 0 {
            let (status, viewer) = server.get(href);
            assert_eq!(status, 200, "{viewer}");
            assert!(
                viewer.contains("<svg") || viewer.contains("viewer"),
                "{viewer}"
            );
        }
    }
    assert_eq!(
        server.get(&format!("/tournaments/{id}/games/999/viewer")).0,
        404
    );

    // The same from the command line, on the same database.
    let path = dir.path().join("cup.toml");
    std::fs::write(&path, file).unwrap();
    let db = dir.path().join("arena.db");
    let out = arena(
        &dir.path().join("cache"),
        &[
            "serve",
            "tournament",
            "run",
            path.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
        ],
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", arena_tests::stderr(&out));
    assert!(
        text.contains("starter") && text.contains("builtin:random"),
        "{text}"
    );
    assert!(
        text.contains(&format!("report page: /tournaments/{}", id + 1)),
        "{text}"
    );
}

/// Tournaments a stopped server left running are resumed one after another, not all at
/// once: the second's results are begun only after the first's last game was written.
#[test]
fn interrupted_tournaments_resume_one_after_another() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("arena.db");
    let data = dir.path().join("arena.db.data");
    {
        // Two tournaments recorded as running, as a server killed during them leaves them.
        let store = arena_server::store::Store::open(&db).unwrap();
        for name in ["first", "second"] {
            let file = format!(
                "name = \"{name}\"\nseed = 3\nformat = \"round-robin\"\ngames_per_pairing = 4\n\
                 [modes.battle]\n[[bots]]\nbot = \"builtin:random\"\n\
                 [[bots]]\nbot = \"builtin:heuristic\"\n\
                 [[bots]]\nbot = \"builtin:strong\"\n"
            );
            arena_server::tournament::prepare(&store, &data, &file).unwrap();
        }
    }
    let server = Server::start(dir.path(), "ladder = false\njobs = 1\n");
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let status = |id: u32| server.get_json(&format!("/api/tournaments/{id}"))["status"].clone();
        let (first, second) = (status(1), status(2));
        if first != "running" && second != "running" {
            assert_eq!((first, second), ("done".into(), "done".into()));
            break;
        }
        assert!(Instant::now() < deadline, "tournaments did not finish");
        std::thread::sleep(Duration::from_millis(100));
    }
    // Every file of the second run was written after every file of the first.
    let mtimes = |id: u32| -> Vec<std::time::SystemTime> {
        std::fs::read_dir(data.join(format!("tournaments/{id}/results")))
            .unwrap()
            .map(|e| e.unwrap().metadata().unwrap().modified().unwrap())
            .collect()
    };
    let first_end = mtimes(1).into_iter().max().unwrap();
    let second_start = mtimes(2).into_iter().min().unwrap();
    assert!(
        second_start >= first_end,
        "the second tournament began before the first ended"
    );
    let report = server.get_json("/api/tournaments/2")["report"].clone();
    assert_eq!(report["planned"], 12, "3 pairings, 4 games each: {report}");
}

#[test]
fn a_tournament_file_replaced_by_a_symlink_fails_quoting_nothing_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("arena.db");
    let data = dir.path().join("arena.db.data");
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "root:x:0:0:hunter2-password\n").unwrap();
    {
        let store = arena_server::store::Store::open(&db).unwrap();
        let file = "name = \"cup\"\nseed = 3\n[modes.battle]\n[[bots]]\nbot = \"builtin:random\"\n\
                    [[bots]]\nbot = \"builtin:heuristic\"\n";
        let prepared = arena_server::tournament::prepare(&store, &data, file).unwrap();
        let own = prepared.dir.join("tournament.toml");
        std::fs::remove_file(&own).unwrap();
        std::os::unix::fs::symlink(&secret, &own).unwrap();
    }
    let server = Server::start(dir.path(), "ladder = false\njobs = 1\n");
    let deadline = Instant::now() + Duration::from_secs(60);
    let row = loop {
        let row = server.get_json("/api/tournaments/1");
        if row["status"] != "running" {
            break row;
        }
        assert!(Instant::now() < deadline, "the tournament did not fail");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(row["status"], "failed", "{row}");
    let error = row["error"].as_str().unwrap();
    assert!(
        error.starts_with("cannot resume: internal error (incident "),
        "{error}"
    );
    let (_, page) = server.get("/tournaments/1");
    for shown in [row.to_string(), page] {
        assert!(
            !shown.contains("hunter2") && !shown.contains("root:x"),
            "{shown}"
        );
        assert!(!shown.contains(dir.path().to_str().unwrap()), "{shown}");
    }
}

#[test]
fn a_tournament_queued_behind_a_resumed_one_is_cancelled_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("arena.db");
    let data = dir.path().join("arena.db.data");
    {
        let store = arena_server::store::Store::open(&db).unwrap();
        for name in ["first", "second"] {
            // Far more games than the test waits for.
            let file = format!(
                "name = \"{name}\"\nseed = 3\ngames_per_pairing = 10000\n[modes.battle]\n\
                 [[bots]]\nbot = \"builtin:random\"\n[[bots]]\nbot = \"builtin:heuristic\"\n"
            );
            arena_server::tournament::prepare(&store, &data, &file).unwrap();
        }
    }
    let server = Server::start(dir.path(), "ladder = false\njobs = 1\n");
    let organizer = server.add_user("org", true);
    // The first resumes (its results grow); the second waits for it.
    let results = data.join("tournaments/1/results");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !std::fs::read_dir(&results).is_ok_and(|mut d| d.next().is_some()) {
        assert!(
            Instant::now() < deadline,
            "the first tournament did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    for id in [2, 1] {
        let asked = Instant::now();
        let (status, body) = cancel_tournament(&server, &organizer, id);
        let waited = asked.elapsed();
        assert_eq!(status, 200, "{body}");
        assert!(
            waited < Duration::from_secs(1),
            "tournament {id}: {waited:?}"
        );
        let shown = server.get_json(&format!("/api/tournaments/{id}"));
        assert_eq!(shown["status"], "cancelled", "{shown}");
    }
}

/// The ladder keeps at most `compiled_bots` compiled bots in memory; one evicted is loaded
/// again for its next game, and the games are the same as with room for every bot.
#[test]
fn the_compiled_bot_cache_is_bounded_and_changes_no_result() {
    let source = tempfile::tempdir().unwrap();
    {
        let server = Server::start(
            source.path(),
            "ladder = false\nhouse_bots = false\n[modes.battle]\n",
        );
        let alice = server.add_user("alice", false);
        upload_three_battle_bots(&server, &alice);
        server.kill();
    }
    // The same database twice: one ladder with room for one compiled bot, one with room
    // for all (one worker each, so both plan the same jobs).
    let copy = || {
        let dir = tempfile::tempdir().unwrap();
        for entry in std::fs::read_dir(source.path()).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name();
            if name.to_string_lossy().starts_with("arena.db") && entry.path().is_file() {
                std::fs::copy(entry.path(), dir.path().join(name)).unwrap();
            }
        }
        dir
    };
    let (small_dir, large_dir) = (copy(), copy());
    let small = Server::start(
        small_dir.path(),
        "jobs = 1\nhouse_bots = false\ncompiled_bots = 1\n[modes.battle]\n",
    );
    let large = Server::start(
        large_dir.path(),
        "jobs = 1\nhouse_bots = false\n[modes.battle]\n",
    );
    let games = 8;
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let status = small.get_json("/api/status");
        assert!(status["compiled_bots"].as_u64().unwrap() <= 1, "{status}");
        if status["games"].as_u64().unwrap() >= games {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no {games} games in time: {status}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = large.wait_for_games(games);
    assert_eq!(status["compiled_bots"], 3, "{status}");
    // The standings the server shows are exactly the full fit of the games they count.
    // (Compared as text: parsing JSON floats may round the last digit.)
    let (status, board) = small.get("/api/leaderboard/battle");
    assert_eq!(status, 200, "{board}");
    small.kill();
    large.kill();
    let played = |dir: &Path| {
        let store = arena_server::store::Store::open(&dir.join("arena.db")).unwrap();
        let games: Vec<_> = store
            .games_of_mode(arena_sdk::Mode::Battle)
            .unwrap()
            .into_iter()
            .take(games as usize)
            .map(|g| (g.seed, g.seats, g.winner, g.turns, g.reason, g.replay))
            .collect();
        games
    };
    assert_eq!(played(small_dir.path()), played(large_dir.path()));
    let store = arena_server::store::Store::open(&small_dir.path().join("arena.db")).unwrap();
    let counted: Vec<_> = store
        .games_of_mode(arena_sdk::Mode::Battle)
        .unwrap()
        .into_iter()
        .take(
            serde_json::from_str::<Value>(&board).unwrap()["games"]
                .as_u64()
                .unwrap() as usize,
        )
        .collect();
    let full = arena_server::leaderboard::build(
        arena_sdk::Mode::Battle,
        &counted,
        &store.latest_versions().unwrap(),
    );
    assert_eq!(serde_json::to_string(&full).unwrap(), board);
}

/// An upload whose body stalls is answered 408 after `upload_timeout_secs`, not waited for
/// as long as the client likes (each such connection could hold up to the upload cap).
#[test]
fn a_stalled_upload_is_answered_408() {
    use std::io::{Read, Write};
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), "ladder = false\nupload_timeout_secs = 1\n");
    let alice = server.add_user("alice", false);
    let address = server.url.trim_start_matches("http://").to_owned();
    // A known token's stalled body is a 408; an unknown token's answer is its 401 (the body
    // was only being drained), stalled or not.
    for (token, status) in [(alice.as_str(), "408"), ("unknown", "401")] {
        let mut stalled = std::net::TcpStream::connect(&address).unwrap();
        write!(
            stalled,
            "POST /api/bots?name=stalled HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {token}\r\n\
             Content-Length: 100\r\nConnection: close\r\n\r\nxxxxxxxxxx"
        )
        .unwrap();
        let mut answer = String::new();
        stalled.read_to_string(&mut answer).unwrap();
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status}")),
            "{token}: {answer}"
        );
        if status == "408" {
            assert!(answer.contains("upload_timeout_secs"), "{answer}");
        }
    }
    // The stalled upload's mark is lifted: the next is answered normally.
    let (status, body) = server.upload(Some(&alice), "x", b"");
    assert_eq!(status, 400, "{body}");
}

/// Upload the battle sample bots random, starter and strong as `a`, `b` and `c`.
fn upload_three_battle_bots(server: &Server, token: &str) {
    for (name, bot) in [
        ("a", bots::BATTLE_RANDOM),
        ("b", bots::BATTLE_STARTER),
        ("c", bots::BATTLE_STRONG),
    ] {
        let (status, body) = server.upload(Some(token), name, &std::fs::read(bot).unwrap());
        assert_eq!(status, 201, "{name}: {body}");
    }
}

/// Connections are bounded: one that sends no request (or trickles its headers) is closed
/// after `header_timeout_secs`, a body that stalls is a 408 after `body_timeout_secs`, and
/// when all `max_connections` are taken an idle connection is closed to let a new one in.
#[test]
fn idle_connections_are_closed_stalled_bodies_answered_408_and_connections_capped() {
    use std::io::{Read, Write};
    use std::net::TcpStream;
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(
        dir.path(),
        "ladder = false\nheader_timeout_secs = 1\nbody_timeout_secs = 1\nmax_connections = 2\n",
    );
    let address = server.url.trim_start_matches("http://").to_owned();
    let connect = || {
        let stream = TcpStream::connect(&address).unwrap();
        // A server that never closed the connection fails the test instead of hanging it.
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        stream
    };
    let closed = |mut stream: TcpStream| {
        let mut rest = Vec::new();
        stream.read_to_end(&mut rest).expect("closed by the server");
        String::from_utf8_lossy(&rest).into_owned()
    };

    // Two connections take both slots; the third is let in by closing the one idle the
    // longest, and the one trickling its headers is closed after a second.
    let (idle, trickling) = (connect(), connect());
    let mut trickling = trickling;
    write!(trickling, "GET /api/status HTTP/1.1\r\nHo").unwrap();
    let mut third = connect();
    write!(
        third,
        "GET /api/status HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    assert!(!closed(idle).contains("200 OK"));
    let answer = closed(third);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(!closed(trickling).contains("200 OK"));

    // A body that stops halfway: 408, JSON under /api/.
    let mut stalled = connect();
    write!(
        stalled,
        "POST /api/users HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\nConnection: close\r\n\r\n{{\"name\""
    )
    .unwrap();
    let answer = closed(stalled);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("body_timeout_secs"), "{answer}");
    // A keep-alive connection that goes idle after its answer is closed too.
    let mut kept = connect();
    write!(kept, "GET /api/status HTTP/1.1\r\nHost: {address}\r\n\r\n").unwrap();
    let answer = closed(kept);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // And the server still answers.
    let (status, _) = server.get("/api/status");
    assert_eq!(status, 200);
}

/// `GET /api/bots` is paged: `?limit=` bots by name, a `Link` header to the next page while
/// more follow, and a bad limit is a JSON 400.
#[test]
fn the_bot_list_comes_in_pages_linked_by_a_next_header() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &format!("ladder = false\n{BATTLE_ONLY}"));
    let alice = server.add_user("alice", false);
    upload_three_battle_bots(&server, &alice);
    let page = |url: &str| {
        let response = ureq_agent().get(url).call().unwrap();
        assert_eq!(response.status(), 200, "{url}");
        let next = response
            .headers()
            .get("link")
            .map(|v| v.to_str().unwrap().to_owned());
        let body: Value =
            serde_json::from_str(&response.into_body().read_to_string().unwrap()).unwrap();
        let names: Vec<String> = body
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["bot_name"].as_str().unwrap().to_owned())
            .collect();
        (names, next)
    };
    let (names, next) = page(&format!("{}/api/bots?limit=2", server.url));
    assert_eq!(names, ["a", "b"]);
    let next = next.expect("a next page");
    let url = next
        .strip_prefix('<')
        .and_then(|n| n.strip_suffix(">; rel=\"next\""))
        .unwrap_or_else(|| panic!("{next}"));
    assert_eq!(url, format!("{}/api/bots?limit=2&after=b", server.url));
    assert_eq!(page(url), (vec!["c".to_owned()], None));
    // Without a limit: up to 100, so all three, and no next page.
    assert_eq!(page(&format!("{}/api/bots", server.url)).0, ["a", "b", "c"]);
    for bad in ["limit=0", "limit=1001", "limit=x"] {
        let (status, body) = server.get(&format!("/api/bots?{bad}"));
        assert_eq!(status, 400, "{bad}: {body}");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert!(body["error"].is_string(), "{bad}: {body}");
    }
}

#[test]
fn a_go_bot_is_accepted_and_plays_the_ladder() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), BATTLE_ONLY);
    let alice = server.add_user("alice", false);
    // 4.9 MB: over the old 4 MiB cap, under the 8 MiB one of the sandbox and the server.
    let go = std::fs::read(bots::GO_STARTER).unwrap();
    assert!(go.len() > 4 << 20, "{} bytes", go.len());
    let (status, body) = server.upload(Some(&alice), "gopher", &go);
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["check"]["ok"], true, "{body}");
    let rust = std::fs::read(bots::BATTLE_STARTER).unwrap();
    let (status, body) = server.upload(Some(&alice), "crab", &rust);
    assert_eq!(status, 201, "{body}");
    server.wait_for_games(4);
    let board = server.get_json("/api/leaderboard/battle");
    let rows = board["rows"].as_array().unwrap();
    let gopher = rows
        .iter()
        .find(|r| r["bot"] == "gopher")
        .unwrap_or_else(|| panic!("{board}"));
    assert!(gopher["games"].as_u64().unwrap() >= 4, "{board}");
    let (status, replay) = server.get("/api/games/1/replay");
    assert_eq!(status, 200);
    let replay: Value = serde_json::from_str(&replay).unwrap();
    assert_eq!(
        replay["outcome"]["seats"][0]["faults"], 0,
        "{}",
        replay["outcome"]
    );
    assert_eq!(
        replay["outcome"]["seats"][1]["faults"], 0,
        "{}",
        replay["outcome"]
    );
}

#[test]
fn a_python_bot_is_accepted_and_plays_the_ladder() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), BATTLE_ONLY);
    let alice = server.add_user("alice", false);
    // A component of 18–20 MB: over the 8 MiB of a core module, under the component cap.
    let python = std::fs::read(bots::PYTHON_STARTER).unwrap();
    assert!(python.len() > 8 << 20, "{} bytes", python.len());
    let (status, body) = server.upload(Some(&alice), "snake", &python);
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["check"]["ok"], true, "{body}");
    let rust = std::fs::read(bots::BATTLE_STARTER).unwrap();
    let (status, body) = server.upload(Some(&alice), "crab", &rust);
    assert_eq!(status, 201, "{body}");
    server.wait_for_games(4);
    let board = server.get_json("/api/leaderboard/battle");
    let rows = board["rows"].as_array().unwrap();
    let snake = rows
        .iter()
        .find(|r| r["bot"] == "snake")
        .unwrap_or_else(|| panic!("{board}"));
    assert!(snake["games"].as_u64().unwrap() >= 4, "{board}");
    for game in 1..=4 {
        let (status, replay) = server.get(&format!("/api/games/{game}/replay"));
        assert_eq!(status, 200);
        let replay: Value = serde_json::from_str(&replay).unwrap();
        for seat in 0..2 {
            assert_eq!(
                replay["outcome"]["seats"][seat]["faults"], 0,
                "game {game}: {}",
                replay["outcome"]
            );
        }
    }
    // A core module over 8 MiB is refused by the check, naming the module's cap.
    let mut padded = std::fs::read(bots::BATTLE_STARTER).unwrap();
    let custom: Vec<u8> = std::iter::once(0u8)
        .chain(leb128((9 << 20) + 6))
        .chain(std::iter::once(5))
        .chain(*b"plain")
        .chain(std::iter::repeat_n(0, 9 << 20))
        .collect();
    padded.extend(custom);
    let (status, body) = server.upload(Some(&alice), "padded", &padded);
    assert_eq!(status, 422, "{body}");
    assert!(
        body.to_string().contains("the limit is 8388608 bytes"),
        "{body}"
    );
}

/// `n` in unsigned LEB128 (a section's length).
fn leb128(mut n: usize) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

/// POST `file` to `/api/tournaments` with `token`.
fn post_tournament(server: &Server, token: &str, file: &str) -> (u16, String) {
    request(
        ureq_agent()
            .post(format!("{}/api/tournaments", server.url))
            .header("Authorization", &format!("Bearer {token}"))
            .send(file),
    )
}

/// Poll a tournament until it is no longer running; its JSON.
fn finished_tournament(server: &Server, id: i64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let t = server.get_json(&format!("/api/tournaments/{id}"));
        if t["status"] != "running" {
            return t;
        }
        assert!(Instant::now() < deadline, "tournament did not finish: {t}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A posted tournament reaches no server path: a module outside the data directory
/// (absolute or `../`), a crate whose `build.rs` would leave a marker, map and deck files
/// naming a server file (its content appears in no answer and no page), a device file, a
/// bot's deck file. Each is a 400 before anything is recorded.
#[test]
fn a_posted_tournament_names_no_server_path_and_quotes_no_server_file() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), "ladder = false\n");
    let organizer = server.add_user("org", true);
    // A server file with a line nobody sent, a module and a crate outside the data dir.
    let secret_line = "SECRET-f3a9c1 root:x:0:0:root:/root:/bin/bash";
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, format!("{secret_line}\nmore\n")).unwrap();
    let module = dir.path().join("outside.wasm");
    std::fs::copy(bots::BATTLE_RANDOM, &module).unwrap();
    let marker = dir.path().join("build-rs-ran");
    let crate_dir = dir.path().join("evil-bot");
    std::fs::create_dir_all(crate_dir.join("src")).unwrap();
    std::fs::write(
        crate_dir.join("Cargo.toml"),
        "[package]\nname = \"evil-bot\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[lib]\ncrate-type = [\"cdylib\"]\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(crate_dir.join("src/lib.rs"), "").unwrap();
    std::fs::write(
        crate_dir.join("build.rs"),
        format!(
            "fn main() {{ std::fs::write({:?}, \"ran\").unwrap(); }}\n",
            marker
        ),
    )
    .unwrap();
    // `../` paths from the tournament's directory (<db>.data/tournaments/ID/) to them.
    let up = "../../../";
    let head = "name = \"cup\"\nseed = 7\n";
    let bot = |spec: &str| {
        format!(
            "{head}[modes.battle]\n[[bots]]\nbot = {spec:?}\n[[bots]]\nbot = \"builtin:random\"\n"
        )
    };
    let cases = [
        (
            bot(module.to_str().unwrap()),
            "is not a bot the server holds",
        ),
        (
            bot(&format!("{up}outside.wasm")),
            "is not a bot the server holds",
        ),
        (bot(crate_dir.to_str().unwrap()), "reads no files"),
        (bot(&format!("{up}evil-bot")), "reads no files"),
        (
            format!(
                "{head}[modes.grid]\nmap_file = {:?}\n",
                secret.display().to_string()
            ),
            "reads no files: `modes.grid.map_file`",
        ),
        (
            format!("{head}[modes.grid]\nmap_file = \"{up}secret.txt\"\n"),
            "reads no files: `modes.grid.map_file`",
        ),
        (
            format!(
                "{head}[modes.tcg]\ndeck_file = {:?}\n",
                secret.display().to_string()
            ),
            "reads no files: `modes.tcg.deck_file`",
        ),
        (
            format!("{head}[modes.grid]\nmap_files = [\"/dev/zero\"]\n"),
            "reads no files: `modes.grid.map_files`",
        ),
        (
            format!(
                "{head}[modes.tcg]\ndeck_files = [{:?}, \"/dev/zero\"]\n",
                secret.display().to_string()
            ),
            "reads no files: `modes.tcg.deck_files`",
        ),
        (
            format!(
                "{head}[modes.tcg]\n[[bots]]\nbot = \"builtin:random\"\ndeck = {:?}\n",
                secret.display().to_string()
            ),
            "`deck` names a file",
        ),
        // Refused only when the complete file is parsed, after the bots are resolved.
        (
            format!(
                "{head}games_per_pairing = 3\n[modes.battle]\n[[bots]]\nbot = \"builtin:random\"\n[[bots]]\nbot = \"builtin:heuristic\"\n"
            ),
            "it must be a positive even number",
        ),
    ];
    let mut answers = Vec::new();
    for (file, words) in &cases {
        let started = Instant::now();
        let (status, body) = post_tournament(&server, &organizer, file);
        assert_eq!(status, 400, "{file}: {body}");
        assert!(body.contains(words), "{file}: {body}");
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "answered at once, nothing read: {file}"
        );
        answers.push(body);
    }
    // Nothing was recorded, nothing built; the server file shows nowhere.
    assert_eq!(server.get("/api/tournaments/1").0, 404);
    assert_eq!(server.get("/tournaments/1").0, 404);
    answers.push(server.get("/").1);
    for answer in &answers {
        assert!(
            !answer.contains("SECRET-f3a9c1") && !answer.contains("root:x"),
            "a server file is quoted: {answer}"
        );
    }
    assert!(!marker.exists(), "the crate's build.rs ran on the server");

    // The organizer's own command reads its file only: bounded, and a regular file.
    let db = dir.path().join("arena.db");
    let huge = dir.path().join("huge.toml");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(64 << 20)
        .unwrap();
    for (file, words) in [
        (huge.as_path(), "larger than"),
        (Path::new("/dev/zero"), "not a regular file"),
    ] {
        let started = Instant::now();
        let out = arena(
            &dir.path().join("cache"),
            &[
                "serve",
                "tournament",
                "run",
                file.to_str().unwrap(),
                "--db",
                db.to_str().unwrap(),
            ],
        );
        let text = arena_tests::stderr(&out);
        assert!(!out.status.success() && text.contains(words), "{text}");
        assert!(started.elapsed() < Duration::from_secs(10), "{text}");
    }
    let cli_file = dir.path().join("cup.toml");
    std::fs::write(&cli_file, &cases[4].0).unwrap();
    let out = arena(
        &dir.path().join("cache"),
        &[
            "serve",
            "tournament",
            "run",
            cli_file.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
        ],
    );
    let text = arena_tests::stderr(&out);
    assert!(
        !out.status.success() && text.contains("reads no files"),
        "{text}"
    );
    assert!(!text.contains("SECRET-f3a9c1"), "{text}");

    // An inline map is welcome.
    let map =
        std::fs::read_to_string(arena_tests::root().join("tournaments/maps/default-12x12.map"))
            .unwrap();
    let file = format!(
        "{head}games_per_pairing = 2\n[modes.grid]\nmap = {:?}\n[[bots]]\nbot = \"builtin:random-walker\"\n[[bots]]\nbot = \"builtin:coward\"\n",
        map
    );
    let (status, body) = post_tournament(&server, &organizer, &file);
    assert_eq!(status, 202, "{body}");
}

/// An uploaded bot named like a built-in the organizer's file lists plays beside it: the
/// file's entries are `builtin:NAME`, uploads their own name. A file naming uploaded bots
/// (by name or version) plays exactly those.
#[test]
fn uploaded_bots_named_like_built_ins_never_collide_with_the_files_entries() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), "ladder = false\njobs = 2\n");
    let organizer = server.add_user("org", true);
    let alice = server.add_user("alice", false);
    for (name, bot) in [
        ("random", bots::BATTLE_RANDOM),
        ("strong", bots::BATTLE_STARTER),
    ] {
        let (status, body) = server.upload(Some(&alice), name, &std::fs::read(bot).unwrap());
        assert_eq!(status, 201, "{body}");
    }
    let head = "name = \"cup\"\nseed = 7\ngames_per_pairing = 2\n[modes.battle]\n";
    let rows = |file: &str| -> Vec<String> {
        let (status, body) = post_tournament(&server, &organizer, file);
        assert_eq!(status, 202, "{file}: {body}");
        let id = serde_json::from_str::<Value>(&body).unwrap()["id"]
            .as_i64()
            .unwrap();
        let done = finished_tournament(&server, id);
        assert_eq!(done["status"], "done", "{done}");
        let mut bots: Vec<String> = done["report"]["modes"][0]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["bot"].as_str().unwrap().to_owned())
            .collect();
        bots.sort();
        bots
    };
    assert_eq!(
        rows(&format!(
            "{head}[[bots]]\nbot = \"builtin:random\"\n[[bots]]\nbot = \"builtin:strong\"\n"
        )),
        ["builtin:random", "builtin:strong", "random", "strong"]
    );
    assert_eq!(
        rows(&format!(
            "{head}[[bots]]\nbot = \"random@1\"\n[[bots]]\nbot = \"builtin:random\"\n"
        )),
        ["builtin:random", "random@1"],
        "a file naming uploads plays only those"
    );
    let (status, body) = post_tournament(
        &server,
        &organizer,
        &format!("{head}[[bots]]\nname = \"random\"\nbot = \"builtin:random\"\n"),
    );
    assert_eq!(status, 400, "{body}");
    assert!(
        body.contains("named after what it plays, `builtin:random`"),
        "{body}"
    );
}

#[test]
fn arena_submit_builds_a_bot_directory_and_uploads_its_module() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), "ladder = false\n");
    let alice = server.add_user("alice", false);
    let mut dirs = vec![arena_tests::root().join("sample-bots/battle-starter")];
    if bots::GO_BUILT {
        dirs.push(arena_tests::root().join("sample-bots/go-starter"));
    }
    for bot in dirs {
        let out = Command::new(arena_bin())
            .arg("submit")
            .arg(&bot)
            .args(["--server", &server.url])
            .env("ARENA_TOKEN", &alice)
            .output()
            .unwrap();
        let text = stdout(&out);
        assert!(out.status.success(), "{}: {text}", bot.display());
        let name = bot.file_name().unwrap().to_str().unwrap();
        assert!(
            text.contains(&format!("accepted: {name} version 1 plays battle")),
            "named after the directory: {text}"
        );
    }
}

/// GET `path`: the status, the headers (names lowercase) and the body.
fn get_with_headers(server: &Server, path: &str) -> (u16, Vec<(String, String)>, String) {
    let mut response = ureq_agent()
        .get(format!("{}{path}", server.url))
        .call()
        .expect("the server answers");
    let headers = response
        .headers()
        .iter()
        .map(|(k, v)| (k.as_str().to_owned(), v.to_str().unwrap_or("").to_owned()))
        .collect();
    let status = response.status().as_u16();
    (
        status,
        headers,
        response.body_mut().read_to_string().unwrap(),
    )
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// A failure of the server's own (here a stored replay damaged on disk) is a 500 with an
/// incident id, never the failure's message; every answer, error pages and the API
/// included, carries the security headers, and the viewer its own hash-based policy.
#[test]
fn internal_errors_show_an_incident_id_and_every_answer_has_security_headers() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = arena_server::store::Store::open(&dir.path().join("arena.db")).unwrap();
        let (alice, _) = arena_server::accounts::add_user(&store, "alice", false).unwrap();
        let outcome: arena_engine::SeatOutcome = serde_json::from_value(serde_json::json!({
            "stats": {}, "faults": 0, "fault_kinds": {}, "invalid_actions": 0, "fuel": 0, "forfeited": false
        }))
        .unwrap();
        let seats = ["one", "two"].map(|name| {
            store
                .add_version(
                    &alice,
                    name,
                    name.as_bytes(),
                    name,
                    &[arena_sdk::Mode::Battle],
                    "{}",
                )
                .unwrap()
                .unwrap()
                .id
        });
        store
            .add_game(&arena_server::store::NewGame {
                mode: arena_sdk::Mode::Battle,
                seed: 1,
                job: None,
                seats,
                winner: None,
                reason: "r".into(),
                turns: 1,
                outcomes: [outcome.clone(), outcome],
                replay: br#"{"not":"a replay"}"#.to_vec(),
            })
            .unwrap();
    }
    // The stored replay is damaged (as by a failing disk): it no longer inflates.
    rusqlite::Connection::open(dir.path().join("arena.db"))
        .unwrap()
        .execute("UPDATE replays SET deflated = x'00ff00ff'", [])
        .unwrap();
    let server = Server::start(dir.path(), "ladder = false\n[modes.battle]\n");
    let (status, headers, body) = get_with_headers(&server, "/games/1");
    assert_eq!(status, 500, "{body}");
    assert!(body.contains("internal error (incident "), "{body}");
    assert!(
        !body.contains("expected") && !body.contains("line 1"),
        "no serde message: {body}"
    );
    assert_eq!(header(&headers, "x-content-type-options"), Some("nosniff"));
    for path in [
        "/",
        "/leaderboard/battle",
        "/bots/1",
        "/api/status",
        "/api/bots",
        "/style.css",
        "/frame.js",
        "/nope",
        "/api/nope",
        "/games/1",
    ] {
        let (_, headers, _) = get_with_headers(&server, path);
        assert_eq!(
            header(&headers, "x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(header(&headers, "x-frame-options"), Some("DENY"), "{path}");
        let csp = header(&headers, "content-security-policy").unwrap_or_default();
        // Only the game page may run a script: the server's own /frame.js.
        let policy = if path == "/games/1" {
            "default-src 'none'; script-src 'self'; style-src 'self';"
        } else {
            "default-src 'none'; style-src 'self';"
        };
        assert!(
            csp.starts_with(policy)
                && csp.contains("frame-ancestors 'none'")
                && !csp.contains("unsafe"),
            "{path}: {csp}"
        );
    }
}

/// Start `arena serve` on `dir/arena.db` expecting it to refuse: its stderr.
fn refused_start(dir: &Path) -> String {
    let mut child = Command::new(arena_bin())
        .args(["serve", "--no-ladder", "--listen", "127.0.0.1:0", "--db"])
        .arg(dir.join("arena.db"))
        .env_remove("ARENA_LOG")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server started on a database it cannot write");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success());
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A database the server cannot write — a read-only file, a read-only directory, a
/// directory beside it it cannot make — is refused at start with what to fix.
#[test]
fn a_database_the_server_cannot_write_is_refused_at_start() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("arena.db");
    drop(arena_server::store::Store::open(&db).unwrap());
    let mode = |path: &Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    // Permissions bind everyone but root (as in some containers): then only the case
    // below them says anything.
    mode(&db, 0o444);
    let privileged = std::fs::OpenOptions::new().write(true).open(&db).is_ok();
    if privileged {
        eprintln!("running as root: read-only file and directory cases skipped");
    } else {
        let error = refused_start(dir.path());
        assert!(error.contains("cannot be written"), "{error}");
        assert!(error.contains("arena.db"), "{error}");
        mode(&db, 0o644);
        mode(dir.path(), 0o555);
        let error = refused_start(dir.path());
        mode(dir.path(), 0o755);
        assert!(error.contains("cannot be written"), "{error}");
    }
    mode(&db, 0o644);
    // The tournaments' directory cannot be made: a file is in its place.
    let data = dir.path().join("arena.db.data");
    std::fs::write(&data, "").unwrap();
    let error = refused_start(dir.path());
    assert!(
        error.contains("cannot be written") && error.contains("arena.db.data"),
        "{error}"
    );
    std::fs::remove_file(&data).unwrap();
    let server = Server::start(dir.path(), "ladder = false\n");
    assert_eq!(server.get("/api/status").0, 200);
}

/// A socket from `source` (another loopback address: another caller) to `server`, which
/// fails the test rather than hang it if the server never answers or closes.
fn connect_from(source: &str, server: &str) -> std::net::TcpStream {
    use socket2::{Domain, Socket, Type};
    let server: std::net::SocketAddr = server.parse().unwrap();
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None).unwrap();
    let source = std::net::SocketAddr::new(source.parse().unwrap(), 0);
    socket.bind(&source.into()).unwrap();
    socket.connect(&server.into()).unwrap();
    let stream: std::net::TcpStream = socket.into();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream
}

/// One answer read off a keep-alive connection: its status line and body.
fn read_answer(stream: &mut std::net::TcpStream) -> (String, String) {
    use std::io::Read;
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        assert_eq!(stream.read(&mut byte).expect("an answer"), 1, "closed");
        head.push(byte[0]);
    }
    let head = String::from_utf8(head).unwrap();
    let length: usize = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|n| n.trim().parse().unwrap())
        })
        .expect("a content length");
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).unwrap();
    (
        head.lines().next().unwrap().to_owned(),
        String::from_utf8(body).unwrap(),
    )
}

/// Whether the server has closed `stream`: what it sent is read to the end (or the
/// connection is reset), within the stream's read timeout.
fn closed_by_server(mut stream: std::net::TcpStream) -> bool {
    use std::io::{ErrorKind, Read};
    let mut sink = [0u8; 1 << 16];
    loop {
        match stream.read(&mut sink) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

/// Many callers, each under its own cap, together holding more connections than the
/// server serves, and opening a new one as soon as one is closed (half of them idle, half
/// trickling a request's first bytes): a normal request on a new connection is still
/// answered within 2 s, each of several times. A correctness bound: without idle
/// connections closed at once when the server is full, it waits for the header timeout.
#[test]
fn reopening_idle_holders_over_many_addresses_do_not_starve_a_normal_request() {
    use std::io::{Read, Write};
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(
        dir.path(),
        "ladder = false\nmax_connections = 32\nmax_connections_per_client = 4\n\
         header_timeout_secs = 60\n",
    );
    let address = server.url.trim_start_matches("http://").to_owned();
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let holders: Vec<_> = (0..64)
        .map(|k| {
            let (address, stop) = (address.clone(), std::sync::Arc::clone(&stop));
            std::thread::spawn(move || {
                let source = format!("127.0.1.{}", 10 + k / 4);
                while !stop.load(Ordering::Relaxed) {
                    let mut held = connect_from(&source, &address);
                    if k % 2 == 1 {
                        let _ = held.write_all(b"GET /api/status HTTP/1.1\r\nHo");
                    }
                    held.set_read_timeout(Some(Duration::from_millis(200)))
                        .unwrap();
                    // Held until the server closes it (or answers a 429), then again.
                    let mut byte = [0u8; 64];
                    loop {
                        match held.read(&mut byte) {
                            Ok(0) => break,
                            Ok(_) => {}
                            Err(_) if stop.load(Ordering::Relaxed) => break,
                            Err(e)
                                if e.kind() == std::io::ErrorKind::WouldBlock
                                    || e.kind() == std::io::ErrorKind::TimedOut => {}
                            Err(_) => break,
                        }
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(1));
    let status = format!("GET /api/status HTTP/1.1\r\nHost: {address}\r\n\r\n");
    for attempt in 0..5 {
        let asked = Instant::now();
        let mut normal = connect_from("127.0.0.1", &address);
        normal.write_all(status.as_bytes()).unwrap();
        let (line, _) = read_answer(&mut normal);
        let waited = asked.elapsed();
        assert!(line.starts_with("HTTP/1.1 200"), "{line}");
        assert!(
            waited < Duration::from_secs(2),
            "attempt {attempt}: answered after {waited:?}"
        );
    }
    stop.store(true, Ordering::Relaxed);
    for holder in holders {
        holder.join().unwrap();
    }
}

/// One client cannot starve the others: it holds at most `max_connections_per_client`
/// (one more is answered 429 at once), its connections pipelining requests without reading
/// the answers are closed after `write_timeout_secs`, and while the server is full (those
/// and other callers' idle connections) a normal request gets in by closing an idle one.
/// The clients are other loopback addresses, so each is its own caller. The 2-second bound
/// is a correctness bound, generous on any machine: without these rules the request waits
/// for the header timeout (60 s here) or for ever.
#[test]
fn a_client_holding_every_connection_it_can_open_does_not_starve_a_normal_request() {
    use std::io::{ErrorKind, Read, Write};
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(
        dir.path(),
        "ladder = false\nmax_connections = 16\nmax_connections_per_client = 4\n\
         write_timeout_secs = 1\nheader_timeout_secs = 60\n",
    );
    let address = server.url.trim_start_matches("http://").to_owned();

    // The hostile client: four connections, each pipelining thousands of requests and
    // reading none of the answers.
    let request = format!("GET /style.css HTTP/1.1\r\nHost: {address}\r\n\r\n");
    let pipelined = request.repeat(20_000);
    let pipeliners: Vec<std::net::TcpStream> = (0..4)
        .map(|_| {
            let stream = connect_from("127.0.0.2", &address);
            let mut writer = stream.try_clone().unwrap();
            writer
                .set_write_timeout(Some(Duration::from_secs(5)))
                .unwrap();
            let pipelined = pipelined.clone();
            // Requests go out as long as the server reads them; once its answers fill the
            // sockets it stops reading, the write stalls and times out (or the connection
            // is closed under it).
            std::thread::spawn(move || writer.write_all(pipelined.as_bytes()));
            stream
        })
        .collect();
    // A fifth from the same address is over its cap: 429 at once, then closed.
    let mut fifth = connect_from("127.0.0.2", &address);
    let mut refused = String::new();
    fifth.read_to_string(&mut refused).unwrap();
    assert!(refused.starts_with("HTTP/1.1 429"), "{refused}");
    assert!(refused.contains("max_connections_per_client"), "{refused}");
    // With the security headers of every other answer.
    for header in [
        "content-security-policy: default-src 'none'",
        "x-frame-options: DENY",
        "x-content-type-options: nosniff",
        "referrer-policy: same-origin",
    ] {
        assert!(refused.contains(header), "{header}: {refused}");
    }

    // Three more callers fill the server with idle connections.
    let idle: Vec<std::net::TcpStream> = ["127.0.0.3", "127.0.0.4", "127.0.0.5"]
        .iter()
        .flat_map(|source| (0..4).map(|_| connect_from(source, &address)))
        .collect();

    // A normal request, on a connection kept for the rest of the test.
    let mut normal = connect_from("127.0.0.1", &address);
    let status = format!("GET /api/status HTTP/1.1\r\nHost: {address}\r\n\r\n");
    let asked = Instant::now();
    normal.write_all(status.as_bytes()).unwrap();
    let (line, first) = read_answer(&mut normal);
    let waited = asked.elapsed();
    assert!(line.starts_with("HTTP/1.1 200"), "{line}");
    assert!(waited < Duration::from_secs(2), "answered after {waited:?}");

    // One connection was closed to let it in: one of the idle ones, or a pipelining one
    // whose requests the server had not read yet (idle as far as it could tell).
    assert_eq!(
        serde_json::from_str::<Value>(&first).unwrap()["connections"],
        16,
        "{first}"
    );
    let closed: Vec<bool> = idle
        .iter()
        .map(|stream| {
            stream.set_nonblocking(true).unwrap();
            let open =
                matches!(stream.peek(&mut [0u8; 1]), Err(e) if e.kind() == ErrorKind::WouldBlock);
            stream.set_nonblocking(false).unwrap();
            !open
        })
        .collect();
    let shed_idle = closed.iter().filter(|c| **c).count();
    assert!(shed_idle <= 1, "{closed:?}");

    // The pipelining connections are closed once their answers stall for a second: the
    // server counts the idle ones left and this one.
    let left = 12 - shed_idle + 1;
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        normal.write_all(status.as_bytes()).unwrap();
        let (_, body) = read_answer(&mut normal);
        let open = serde_json::from_str::<Value>(&body).unwrap()["connections"].clone();
        if open == left {
            break;
        }
        assert!(Instant::now() < deadline, "still open: {open}");
        std::thread::sleep(Duration::from_millis(100));
    }
    for stream in pipeliners {
        assert!(closed_by_server(stream));
    }
}

/// The built-ins of every ladder mode are on the ladder by default, as house bots marked
/// on the leaderboard (page and API): a first upload plays at once, against them only
/// (house bots never play each other), and no upload can take a house bot's name.
#[test]
fn a_first_upload_plays_the_house_bots_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), "jobs = 1\n[modes.battle]\n");
    let alice = server.add_user("alice", false);
    let (status, body) = server.upload(
        Some(&alice),
        "rando",
        &std::fs::read(bots::BATTLE_RANDOM).unwrap(),
    );
    assert_eq!(status, 201, "{body}");
    server.wait_for_games(4);
    let board = server.get_json("/api/leaderboard/battle");
    let mut house: Vec<String> = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["house"] == true)
        .map(|r| r["bot"].as_str().unwrap().to_owned())
        .collect();
    house.sort();
    let mut builtins: Vec<String> = arena_builtins::all()
        .iter()
        .filter(|b| b.mode == arena_sdk::Mode::Battle)
        .map(|b| format!("builtin:{}", b.name))
        .collect();
    builtins.sort();
    assert_eq!(house, builtins, "{board}");
    let rando = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["bot"] == "rando")
        .unwrap();
    assert_eq!(rando["house"], false);
    assert!(rando["games"].as_u64().unwrap() >= 4, "{board}");
    for id in 1..=4 {
        let game = server.get_json(&format!("/api/games/{id}"));
        let names = &game["game"]["names"];
        assert!(
            names[0] == "rando" || names[1] == "rando",
            "house bots play uploads only: {game}"
        );
    }
    let (status, page) = server.get("/leaderboard/battle");
    assert_eq!(status, 200);
    assert_eq!(
        page.matches("house bot</span>").count(),
        builtins.len(),
        "{page}"
    );
    let (status, body) = server.upload(
        Some(&alice),
        "builtin:random",
        &std::fs::read(bots::BATTLE_RANDOM).unwrap(),
    );
    assert_eq!(status, 400, "{body}");
}

/// POST `/api/tournaments/{id}/cancel` with `token`.
fn cancel_tournament(server: &Server, token: &str, id: i64) -> (u16, String) {
    request(
        ureq_agent()
            .post(format!("{}/api/tournaments/{id}/cancel", server.url))
            .header("Authorization", &format!("Bearer {token}"))
            .send_empty(),
    )
}

/// An organizer cancels a running tournament: it is answered once the games in flight
/// have ended, the next tournament starts at once, and a restart does not resume it.
#[test]
fn an_organizer_cancels_a_running_tournament_and_the_next_one_runs() {
    let dir = tempfile::tempdir().unwrap();
    let config = "ladder = false\njobs = 1\n";
    let server = Server::start(dir.path(), config);
    let organizer = server.add_user("org", true);
    let other = server.add_user("other-org", true);
    let alice = server.add_user("alice", false);
    // Far more games than the test waits for.
    let long = "name = \"long\"\nseed = 1\ngames_per_pairing = 10000\n[modes.battle]\n\
                [[bots]]\nbot = \"builtin:random\"\n[[bots]]\nbot = \"builtin:heuristic\"\n";
    let (status, body) = post_tournament(&server, &organizer, long);
    assert_eq!(status, 202, "{body}");
    let id = serde_json::from_str::<Value>(&body).unwrap()["id"]
        .as_i64()
        .unwrap();
    let (status, body) = post_tournament(&server, &organizer, long);
    assert_eq!(status, 409, "one at a time: {body}");

    let (status, body) = cancel_tournament(&server, &alice, id);
    assert_eq!(status, 403, "only organizers: {body}");
    assert!(body.contains("only organizers"), "{body}");
    assert_eq!(cancel_tournament(&server, &organizer, id + 100).0, 404);
    // Another organizer (an admin) may cancel it too.
    let (status, body) = cancel_tournament(&server, &other, id);
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap()["status"],
        "cancelled"
    );
    let shown = server.get_json(&format!("/api/tournaments/{id}"));
    assert_eq!(shown["status"], "cancelled", "{shown}");
    let (status, body) = cancel_tournament(&server, &organizer, id);
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("is cancelled, not running"), "{body}");

    // The next one starts at once and runs to the end.
    let short = "name = \"short\"\nseed = 2\ngames_per_pairing = 2\n[modes.battle]\n\
                 [[bots]]\nbot = \"builtin:random\"\n[[bots]]\nbot = \"builtin:heuristic\"\n";
    let (status, body) = post_tournament(&server, &organizer, short);
    assert_eq!(status, 202, "{body}");
    let next = serde_json::from_str::<Value>(&body).unwrap()["id"]
        .as_i64()
        .unwrap();
    assert_eq!(finished_tournament(&server, next)["status"], "done");
    assert_eq!(
        server.get_json(&format!("/api/tournaments/{id}"))["status"],
        "cancelled",
        "the cancelled one's last games did not overwrite it"
    );

    // After a restart the cancelled one stays cancelled and holds nothing up.
    server.kill();
    let server = Server::start(dir.path(), config);
    let (status, body) = post_tournament(&server, &organizer, short);
    assert_eq!(status, 202, "nothing resumed: {body}");
    assert_eq!(
        server.get_json(&format!("/api/tournaments/{id}"))["status"],
        "cancelled"
    );
}

/// The same module uploaded again is no new version: the answer says "unchanged", checks
/// nothing, and a retired bot is back on the ladder.
#[test]
fn an_identical_re_upload_is_unchanged_and_makes_no_new_version() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(
        dir.path(),
        "jobs = 1\nhouse_bots = false\nladder = false\n[modes.battle]\n",
    );
    let alice = server.add_user("alice", false);
    let wasm = std::fs::read(bots::BATTLE_STARTER).unwrap();
    let (status, first) = server.upload(Some(&alice), "starter", &wasm);
    assert_eq!(status, 201, "{first}");
    let id = first["bot_id"].as_i64().unwrap();
    let (status, again) = server.upload(Some(&alice), "starter", &wasm);
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["unchanged"], true, "{again}");
    assert_eq!(again["version"], 1, "{again}");
    assert_eq!(
        again["check"],
        Value::Null,
        "nothing checked again: {again}"
    );
    let versions = server.get_json(&format!("/api/bots/{id}"))["versions"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(versions, 1);
    // Retired, then the same module again: back on the ladder, still version 1.
    let (status, _) = request(
        ureq_agent()
            .delete(format!("{}/api/bots/{id}", server.url))
            .header("Authorization", &format!("Bearer {alice}"))
            .call(),
    );
    assert_eq!(status, 200);
    let out = Command::new(arena_bin())
        .args([
            "submit",
            bots::BATTLE_STARTER,
            "--server",
            &server.url,
            "--name",
            "starter",
        ])
        .env("ARENA_TOKEN", &alice)
        .output()
        .unwrap();
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("unchanged: starter version 1 is already this module (no new version; the retired bot is back on the ladder)"),
        "{text}"
    );
    assert_eq!(server.get_json(&format!("/api/bots/{id}"))["active"], true);
    // A different module is a new version, checked.
    let other = std::fs::read(bots::BATTLE_RANDOM).unwrap();
    let (status, second) = server.upload(Some(&alice), "starter", &other);
    assert_eq!(status, 201, "{second}");
    assert_eq!(second["version"], 2, "{second}");
}
