//! The HTML pages: leaderboards, bots, games, tournaments. Plain HTML and CSS embedded in
//! the binary (no CDN, no build step); every text that came from a user or a bot is escaped.

// A page's error is the response to send (built once, moved out): boxing it buys nothing.
#![allow(clippy::result_large_err)]

use crate::App;
use crate::details::bot_details;
use crate::error::ApiError;
use crate::store::Game;
use arena_sdk::Mode;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use serde_json::Value;
use std::fmt::Write;
use std::sync::Arc;

/// A numeric id from the path. Anything else (`/api/games/abc`, a number past `i64`) is
/// answered 400 like every bad input: JSON under `/api/`, a page elsewhere (axum's own
/// rejection is plain text).
pub(crate) struct Id(pub i64);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Id {
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Id, Response> {
        match Path::<i64>::from_request_parts(parts, state).await {
            Ok(Path(id)) => Ok(Id(id)),
            Err(rejection) => {
                let message = format!("not an id: {}", rejection.body_text());
                Err(if parts.uri.path().starts_with("/api/") {
                    ApiError::new(StatusCode::BAD_REQUEST, message).into_response()
                } else {
                    page_error(StatusCode::BAD_REQUEST, &message)
                })
            }
        }
    }
}

const STYLE: &str = include_str!("../static/style.css");
const FRAME_SCRIPT: &str = include_str!("../static/frame.js");

/// The page routes.
pub fn router() -> Router<Arc<App>> {
    Router::new()
        .route("/", get(index))
        .route("/leaderboard/{mode}", get(leaderboard))
        .route("/bots/{id}", get(bot))
        .route("/games/{id}", get(game))
        .route("/games/{id}/viewer", get(viewer))
        .route("/tournaments", get(tournaments))
        .route("/tournaments/{id}", get(tournament))
        .route("/tournaments/{id}/games", get(tournament_games))
        .route(
            "/tournaments/{id}/games/{game}/viewer",
            get(tournament_viewer),
        )
        .route("/tournaments/{id}/report.svg", get(tournament_svg))
        .route(
            "/style.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css")], STYLE) }),
        )
        .route(
            "/frame.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript")], FRAME_SCRIPT) }),
        )
        .fallback(not_found)
}

/// 404: JSON under `/api/`, a page elsewhere.
async fn not_found(uri: axum::http::Uri) -> Response {
    if uri.path().starts_with("/api/") {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no API route {}", uri.path()),
        )
        .into_response()
    } else {
        page_error(StatusCode::NOT_FOUND, "no such page")
    }
}

pub use arena_viewer::escape_html as escape;

fn layout(title: &str, body: &str) -> String {
    let mut nav = String::new();
    for mode in Mode::ALL {
        let _ = write!(nav, r#"<a href="/leaderboard/{mode}">{mode}</a> "#);
    }
    nav += r#"<a href="/tournaments">tournaments</a>"#;
    format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Bot Arena</title><link rel="stylesheet" href="/style.css"></head>
<body><header><a href="/" class="home">Bot Arena</a> <nav>{nav}</nav></header>
<main><h1>{title}</h1>
{body}</main></body></html>
"#,
        title = escape(title)
    )
}

pub(crate) fn page_error(status: StatusCode, message: &str) -> Response {
    (
        status,
        Html(layout(
            &status.to_string(),
            &format!("<p>{}</p>", escape(message)),
        )),
    )
        .into_response()
}

fn from_api(error: ApiError) -> Response {
    let status = error.status;
    // A 500's message is its incident id (`ApiError::internal`), safe to show; other
    // errors are shown by their status.
    let message = match error.body["error"].as_str() {
        Some(message) if status == StatusCode::INTERNAL_SERVER_ERROR => message.to_owned(),
        _ => status.canonical_reason().unwrap_or("error").to_owned(),
    };
    page_error(status, &message)
}

/// A 500 page for a failure of the server's own: logged with an incident id, shown with
/// the id only.
fn internal_page(error: &dyn std::fmt::Display) -> Response {
    page_error(
        StatusCode::INTERNAL_SERVER_ERROR,
        &crate::error::internal_message(&crate::error::incident(error)),
    )
}

async fn blocking_page(
    work: impl FnOnce() -> Result<String, Response> + Send + 'static,
) -> Response {
    match crate::store::off_executor(work).await {
        Ok(Ok(html)) => Html(html).into_response(),
        Ok(Err(response)) => response,
        Err(error) => internal_page(&error),
    }
}

fn leaderboard_table(app: &App, mode: Mode, limit: usize) -> Result<String, ApiError> {
    let board = app.ladder.leaderboard(mode)?;
    let mut html = format!(
        r#"<table class="leaderboard" data-mode="{mode}"><thead><tr><th>#</th><th>bot</th><th>version</th><th>Elo</th><th>±95%</th><th>games</th><th>W</th><th>D</th><th>L</th><th>faults</th><th>rejected</th></tr></thead><tbody>"#
    );
    for row in board.rows.iter().take(limit) {
        let _ = write!(
            html,
            r#"<tr><td>{}</td><td><a href="/bots/{}">{}</a>{}</td><td>v{}</td><td>{:.0}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>"#,
            row.rank,
            row.bot_id,
            escape(&row.bot),
            if row.house {
                r#" <span class="house" title="a built-in the server plays on the ladder">house bot</span>"#
            } else {
                ""
            },
            row.version,
            row.elo,
            row.elo_ci95
                .map_or_else(|| "–".to_owned(), |c| format!("±{c:.0}")),
            row.games,
            row.wins,
            row.draws,
            row.losses,
            row.faults,
            row.invalid_actions
        );
    }
    if board.rows.is_empty() {
        html.push_str(r#"<tr><td colspan="11">no bots play this mode yet</td></tr>"#);
    }
    let _ = write!(
        html,
        "</tbody></table><p class=\"note\">{} games played in {mode}.</p>",
        board.games
    );
    Ok(html)
}

async fn index(State(app): State<Arc<App>>) -> Response {
    blocking_page(move || {
        let mut body = String::from(
            "<p>Upload a bot with <code>arena submit BOT.wasm --server URL --token TOKEN</code>; the ladder plays it against the others in every mode it plays.</p>",
        );
        for mode in app.ladder.modes() {
            let _ = write!(body, r#"<h2><a href="/leaderboard/{mode}">{mode}</a></h2>"#);
            body += &leaderboard_table(&app, mode, 10).map_err(from_api)?;
        }
        let tournaments = app.store().tournaments().map_err(|e| from_api(e.into()))?;
        if !tournaments.is_empty() {
            body += "<h2>Tournaments</h2><ul>";
            for (id, name, status) in tournaments {
                let _ = write!(body, r#"<li><a href="/tournaments/{id}">{}</a> ({})</li>"#, escape(&name), escape(&status));
            }
            body += "</ul>";
        }
        Ok(layout("Leaderboards", &body))
    })
    .await
}

async fn leaderboard(State(app): State<Arc<App>>, Path(mode): Path<String>) -> Response {
    let Ok(mode) = mode.parse::<Mode>() else {
        return page_error(StatusCode::NOT_FOUND, "no such mode");
    };
    blocking_page(move || {
        let table = leaderboard_table(&app, mode, usize::MAX).map_err(from_api)?;
        Ok(layout(&format!("{mode} leaderboard"), &format!(
            "{table}<p class=\"note\">Bradley–Terry Elo over every game of the mode (old versions included), with 95% intervals. <a href=\"/api/leaderboard/{mode}\">JSON</a></p>"
        )))
    })
    .await
}

/// A picture of ratings over time: Elo against the mode's game count, one line per mode.
fn rating_svg(modes: &serde_json::Map<String, Value>) -> String {
    const W: f64 = 640.0;
    const H: f64 = 220.0;
    const PAD: f64 = 40.0;
    let points: Vec<(&String, Vec<(f64, f64)>)> = modes
        .iter()
        .map(|(mode, v)| {
            let pts = v["history"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|h| Some((h["games"].as_f64()?, h["elo"].as_f64()?)))
                .collect();
            (mode, pts)
        })
        .collect();
    let all: Vec<(f64, f64)> = points.iter().flat_map(|(_, p)| p.iter().copied()).collect();
    if all.is_empty() {
        return "<p>No rated games yet.</p>".to_owned();
    }
    let (x_max, lo, hi) = all
        .iter()
        .fold((1.0f64, f64::MAX, f64::MIN), |(x, lo, hi), &(g, e)| {
            (x.max(g), lo.min(e), hi.max(e))
        });
    let (lo, hi) = (lo.min(1450.0), hi.max(1550.0));
    let sx = |g: f64| PAD + g / x_max * (W - 2.0 * PAD);
    let sy = |e: f64| H - PAD - (e - lo) / (hi - lo) * (H - 2.0 * PAD);
    let colors = [
        "#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2",
    ];
    let mut svg = format!(
        r##"<svg class="rating-history" xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img" aria-label="rating over time">
<rect width="{W}" height="{H}" fill="#fff"/><line x1="{PAD}" y1="{y0}" x2="{x1}" y2="{y0}" stroke="#999"/><line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{y0}" stroke="#999"/>
<text x="4" y="{ty}" font-size="11">{hi:.0}</text><text x="4" y="{y0}" font-size="11">{lo:.0}</text><text x="{x1}" y="{yl}" font-size="11" text-anchor="end">{x_max:.0} games</text>
"##,
        y0 = H - PAD,
        x1 = W - PAD,
        ty = PAD,
        yl = H - PAD + 16.0,
    );
    for (i, (mode, pts)) in points.iter().enumerate() {
        let color = colors[i % colors.len()];
        let path: Vec<String> = pts
            .iter()
            .map(|&(g, e)| format!("{:.1},{:.1}", sx(g), sy(e)))
            .collect();
        let _ = write!(
            svg,
            r#"<polyline fill="none" stroke="{color}" stroke-width="2" points="{}"/><text x="{}" y="{}" font-size="12" fill="{color}">{}</text>"#,
            path.join(" "),
            W - PAD - 60.0,
            PAD + 14.0 * i as f64,
            escape(mode)
        );
        for &(g, e) in pts {
            let _ = write!(
                svg,
                r#"<circle cx="{:.1}" cy="{:.1}" r="2" fill="{color}"/>"#,
                sx(g),
                sy(e)
            );
        }
    }
    svg + "</svg>"
}

fn games_table(games: &[Value]) -> String {
    let mut html = String::from(
        "<table class=\"games\"><thead><tr><th>game</th><th>mode</th><th>seat 0</th><th>seat 1</th><th>result</th><th>reason</th><th>turns</th><th>faults</th></tr></thead><tbody>",
    );
    for g in games {
        let _ = write!(
            html,
            r#"<tr><td><a href="/games/{id}">#{id}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>"#,
            escape(g["mode"].as_str().unwrap_or("")),
            escape(g["bots"][0].as_str().unwrap_or("")),
            escape(g["bots"][1].as_str().unwrap_or("")),
            escape(g["result"].as_str().unwrap_or("")),
            escape(g["reason"].as_str().unwrap_or("")),
            g["turns"],
            faults_text(g),
            id = g["id"],
        );
    }
    if games.is_empty() {
        html.push_str(r#"<tr><td colspan="8">none</td></tr>"#);
    }
    html + "</tbody></table>"
}

fn faults_text(g: &Value) -> String {
    let kinds: Vec<String> = g["fault_kinds"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, n)| format!("{} × {n}", escape(k)))
        .collect();
    if kinds.is_empty() {
        g["faults"].to_string()
    } else {
        kinds.join(", ")
    }
}

async fn bot(State(app): State<Arc<App>>, Id(id): Id) -> Response {
    blocking_page(move || {
        let bot = bot_details(&app, id).map_err(from_api)?;
        let name = bot["name"].as_str().unwrap_or("");
        let mut body = format!(
            "<p>Owner <b>{}</b>{}. <a href=\"/api/bots/{id}\">JSON</a></p><h2>Versions</h2><table class=\"versions\"><thead><tr><th>version</th><th>modes</th><th>sha256</th></tr></thead><tbody>",
            escape(bot["owner"].as_str().unwrap_or("")),
            if bot["active"] == true { "" } else { " · retired from the ladder" },
        );
        for v in bot["versions"].as_array().into_iter().flatten() {
            let modes: Vec<&str> = v["modes"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
            let _ = write!(
                body,
                "<tr><td>v{}</td><td>{}</td><td><code>{}</code></td></tr>",
                v["number"],
                escape(&modes.join(", ")),
                escape(v["sha256"].as_str().unwrap_or("").get(..16).unwrap_or(""))
            );
        }
        body += "</tbody></table><h2>Per mode</h2><table class=\"modes\"><thead><tr><th>mode</th><th>rank</th><th>Elo</th><th>games</th><th>W</th><th>D</th><th>L</th><th>faults</th><th>rejected answers</th><th>forfeits</th></tr></thead><tbody>";
        let modes = bot["modes"].as_object().cloned().unwrap_or_default();
        for (mode, m) in &modes {
            let s = &m["standing"];
            let _ = write!(
                body,
                r#"<tr><td><a href="/leaderboard/{mode}">{mode}</a></td><td>{}</td><td>{:.0}{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>"#,
                s["rank"],
                s["elo"].as_f64().unwrap_or(0.0),
                s["elo_ci95"].as_f64().map_or_else(String::new, |c| format!(" ±{c:.0}")),
                s["games"], s["wins"], s["draws"], s["losses"], s["faults"], s["invalid_actions"], s["forfeits"],
                mode = escape(mode),
            );
        }
        body += "</tbody></table><h2>Rating over time</h2>";
        body += &rating_svg(&modes);
        body += "<h2>Faults</h2>";
        body += &games_table(bot["faults"].as_array().map_or(&[][..], Vec::as_slice));
        body += "<h2>Recent games</h2>";
        body += &games_table(bot["recent_games"].as_array().map_or(&[][..], Vec::as_slice));
        Ok(layout(name, &body))
    })
    .await
}

fn game_header(game: &Game) -> String {
    let result = match game.winner {
        None => "draw".to_owned(),
        Some(w) => format!(
            "{}@v{} won",
            game.names[usize::from(w)],
            game.numbers[usize::from(w)]
        ),
    };
    let mut html = format!(
        "<p class=\"game-summary\">{} · seed {} · {} turns · <b>{}</b> ({}) · <a href=\"/api/games/{id}/replay\">replay JSON</a></p><table><thead><tr><th>seat</th><th>bot</th><th>faults</th><th>rejected answers</th><th>fuel</th></tr></thead><tbody>",
        game.mode,
        game.seed,
        game.turns,
        escape(&result),
        escape(&game.reason),
        id = game.id
    );
    for seat in 0..2 {
        let o = &game.outcomes[seat];
        let kinds: Vec<String> = o
            .fault_kinds
            .iter()
            .map(|(k, n)| format!("{} × {n}", escape(k)))
            .collect();
        let _ = write!(
            html,
            "<tr><td>{seat}</td><td><a href=\"/bots/{}\">{}@v{}</a></td><td>{}{}</td><td>{}</td><td>{}</td></tr>",
            game.bots[seat],
            escape(&game.names[seat]),
            game.numbers[seat],
            o.faults,
            if kinds.is_empty() {
                String::new()
            } else {
                format!(" ({})", kinds.join(", "))
            },
            o.invalid_actions,
            o.fuel
        );
    }
    html + "</tbody></table>"
}

async fn game(State(app): State<Arc<App>>, Id(id): Id) -> Response {
    let mut page = cached_page(app, (id, GamePage::Log), move |app| {
        let (game, json) = stored_game(app, id)?;
        // A replay this engine cannot re-simulate (one stored before a format change)
        // still gets its page and viewer; the log says why it is missing.
        let lines = arena_tournament::game::render_replay(&json, false)
            .unwrap_or_else(|e| vec![format!("(the event log cannot be shown: {e})")]);
        let mut body = game_header(&game);
        // The browser viewer (its own self-contained page) above the text log.
        let _ = write!(
            body,
            "<h2>Replay</h2><p><a href=\"/games/{id}/viewer\">open the viewer on its own page</a></p>\
             <iframe class=\"viewer\" src=\"/games/{id}/viewer\" title=\"replay viewer\"></iframe>\
             <script src=\"/frame.js\"></script>\
             <h2>Event log</h2><pre class=\"replay\">"
        );
        for line in lines {
            body += &escape(&line);
            body.push('\n');
        }
        body += "</pre>";
        Ok((
            StatusCode::OK,
            layout(
                &format!(
                    "Game #{id}: {}@v{} vs {}@v{}",
                    game.names[0], game.numbers[0], game.names[1], game.numbers[1]
                ),
                &body,
            ),
        ))
    })
    .await;
    // The one page with a script: /frame.js sizes the viewer's frame.
    let (name, value) = headers::GAME_PAGE_CSP;
    page.headers_mut().insert(
        axum::http::HeaderName::from_static(name),
        axum::http::HeaderValue::from_static(value),
    );
    page
}

/// The pages derived from a game's replay (by re-simulating it), kept once rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum GamePage {
    /// `/games/{id}`: the header and the event log.
    Log,
    /// `/games/{id}/viewer`: the browser viewer.
    Viewer,
    /// `/tournaments/{id}/games/{game}/viewer`: the viewer of a tournament's game.
    TournamentViewer(u32),
}

/// A page derived from a stored game, rendered at most once while it stays in the cache: a
/// game never changes once recorded, and rendering re-simulates its replay, so a client
/// asking for it again and again must not cost a simulation each time. At most `jobs`
/// renders run at once (a client walking every game waits its turn instead of taking every
/// blocking thread). `render` answers `Ok` with what to keep (a failure to derive the page
/// from an existing game included: it would fail the same way every time), `Err` with an
/// answer not to keep (no such game yet, the database failing).
async fn cached_page(
    app: Arc<App>,
    key: (i64, GamePage),
    render: impl FnOnce(&App) -> Result<(StatusCode, String), Response> + Send + 'static,
) -> Response {
    let kept = |app: &App| {
        app.pages
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .cloned()
    };
    if let Some(page) = kept(&app) {
        return page_response(key.1, page);
    }
    // The permit goes with the render (a client that hangs up must not free its place
    // while its render still runs).
    let Ok(permit) = Arc::clone(&app.renders).acquire_owned().await else {
        return page_error(StatusCode::SERVICE_UNAVAILABLE, "shutting down");
    };
    // Rendered by the request that held the permit before this one?
    if let Some(page) = kept(&app) {
        return page_response(key.1, page);
    }
    let worker = Arc::clone(&app);
    let rendered = crate::store::off_executor(move || {
        let (app, _permit) = (worker, permit);
        let (status, html) = render(&app)?;
        app.pages_rendered
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let page = (status, axum::body::Bytes::from(html));
        let cost = page.1.len();
        app.pages
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, page.clone(), cost);
        Ok(page)
    })
    .await;
    match rendered {
        Ok(Ok(page)) => page_response(key.1, page),
        Ok(Err(response)) => response,
        Err(error) => internal_page(&error),
    }
}

fn page_response(page: GamePage, (status, html): (StatusCode, axum::body::Bytes)) -> Response {
    match page {
        GamePage::Log => (status, Html(html)).into_response(),
        GamePage::Viewer | GamePage::TournamentViewer(_) => {
            (status, headers::viewer_headers(&html), Html(html)).into_response()
        }
    }
}

/// A game and its replay from the store, or the error page.
fn stored_game(app: &App, id: i64) -> Result<(Game, Value), Response> {
    let store = app.store();
    let game = store
        .game(id)
        .map_err(|e| from_api(e.into()))?
        .ok_or_else(|| page_error(StatusCode::NOT_FOUND, "no such game"))?;
    let replay = store
        .replay(&game.replay)
        .map_err(|e| from_api(e.into()))?
        .ok_or_else(|| page_error(StatusCode::NOT_FOUND, "no such replay"))?;
    let json = serde_json::from_slice(&replay).map_err(|e| internal_page(&e))?;
    Ok((game, json))
}

/// The viewer of game `game` of tournament `id`, from the replay its run wrote in the
/// tournament's directory (read without following links; never quoted in an error).
async fn tournament_viewer(
    State(app): State<Arc<App>>,
    Path((id, game)): Path<(i64, u32)>,
) -> Response {
    cached_page(app, (id, GamePage::TournamentViewer(game)), move |app| {
        let path = arena_tournament::run::replay_path(
            &app.config
                .data_dir()
                .join("tournaments")
                .join(id.to_string())
                .join("results"),
            game,
        );
        let text = crate::tournament::read_own(&path, crate::tournament::REPLAY_BYTES_MAX)
            .map_err(|_| page_error(StatusCode::NOT_FOUND, "no such game"))?;
        let page: Result<String, String> = serde_json::from_str::<Value>(&text)
            .map_err(|e| e.to_string())
            .and_then(|json| {
                let mode = arena_tournament::game::replay_mode(&json).map_err(|e| e.to_string())?;
                let options = arena_viewer::Options {
                    fuel_per_turn: Some(app.config.limits.limits().fuel_per_turn),
                };
                arena_tournament::for_mode!(mode, G => {
                    serde_json::from_value::<arena_engine::Replay<G>>(json)
                        .map_err(|e| e.to_string())
                        .and_then(|replay| arena_viewer::page(&replay, &options).map_err(|e| e.to_string()))
                })
            });
        page.map(|html| (StatusCode::OK, html)).map_err(|error| {
            page_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                &crate::error::internal_message(&crate::error::incident(&format_args!(
                    "tournament {id} game {game}: {error}"
                ))),
            )
        })
    })
    .await
}

/// The browser replay viewer of a game: `arena_viewer::page`, the same self-contained page
/// `arena replay html` writes (bot text in it is inserted as text, never as markup).
async fn viewer(State(app): State<Arc<App>>, Id(id): Id) -> Response {
    cached_page(app, (id, GamePage::Viewer), move |app| {
        let (game, json) = stored_game(app, id)?;
        let options = arena_viewer::Options {
            fuel_per_turn: Some(app.config.limits.limits().fuel_per_turn),
        };
        let page: Result<String, String> = arena_tournament::for_mode!(game.mode, G => {
            serde_json::from_value::<arena_engine::Replay<G>>(json)
                .map_err(|e| e.to_string())
                .and_then(|replay| arena_viewer::page(&replay, &options).map_err(|e| e.to_string()))
        });
        Ok(match page {
            Ok(html) => (StatusCode::OK, html),
            Err(error) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                layout(
                    &StatusCode::INTERNAL_SERVER_ERROR.to_string(),
                    &format!(
                        "<p>{}</p>",
                        escape(&crate::error::internal_message(&crate::error::incident(
                            &error
                        )))
                    ),
                ),
            ),
        })
    })
    .await
}

async fn tournament(State(app): State<Arc<App>>, Id(id): Id) -> Response {
    blocking_page(move || {
        let row = app
            .store()
            .tournament(id)
            .map_err(|e| from_api(e.into()))?
            .ok_or_else(|| page_error(StatusCode::NOT_FOUND, "no such tournament"))?;
        let mut body = format!("<p>Status: <b class=\"status\">{}</b>. <a href=\"/api/tournaments/{id}\">JSON</a></p>", escape(&row.status));
        if let Some(error) = &row.error {
            let _ = write!(body, "<p class=\"error\">{}</p>", escape(error));
        }
        if row.svg.is_some() {
            // As an image: names in the picture come from the tournament file, and an
            // image cannot run script whatever it contains.
            let _ = write!(body, "<p><img class=\"report-svg\" src=\"/tournaments/{id}/report.svg\" alt=\"ratings with 95% error bars\"></p>");
        }
        if let Some(tables) = &row.tables {
            let _ = write!(body, "<pre class=\"report\">{}</pre>", escape(tables));
        }
        let _ = write!(
            body,
            "<p><a href=\"/tournaments/{id}/games\">every game</a> · <a href=\"/tournaments\">all tournaments</a></p>"
        );
        Ok(layout(&format!("Tournament: {}", row.name), &body))
    })
    .await
}

/// `/tournaments`: every tournament, newest first, with its status.
async fn tournaments(State(app): State<Arc<App>>) -> Response {
    blocking_page(move || {
        let tournaments = app.store().tournaments().map_err(|e| from_api(e.into()))?;
        let mut body = String::new();
        if tournaments.is_empty() {
            body += "<p>No tournament has been run yet.</p>";
        } else {
            body += "<table class=\"tournaments\"><thead><tr><th>#</th><th>name</th><th>status</th><th>games</th></tr></thead><tbody>";
            for (id, name, status) in tournaments {
                let _ = write!(
                    body,
                    "<tr><td>{id}</td><td><a href=\"/tournaments/{id}\">{}</a></td><td>{}</td><td><a href=\"/tournaments/{id}/games\">games</a></td></tr>",
                    escape(&name),
                    escape(&status)
                );
            }
            body += "</tbody></table>";
        }
        Ok(layout("Tournaments", &body))
    })
    .await
}

/// `/tournaments/{id}/games`: the standings, the matrix and every game played so far, read
/// from the tournament's results directory (the CLI's run writes it; a running tournament
/// shows the games it has finished), each game linked to its viewer.
async fn tournament_games(State(app): State<Arc<App>>, Id(id): Id) -> Response {
    blocking_page(move || {
        let row = app
            .store()
            .tournament(id)
            .map_err(|e| from_api(e.into()))?
            .ok_or_else(|| page_error(StatusCode::NOT_FOUND, "no such tournament"))?;
        let results = app
            .config
            .data_dir()
            .join("tournaments")
            .join(id.to_string())
            .join("results");
        let mut body = format!(
            "<p>Status: <b class=\"status\">{}</b>. <a href=\"/tournaments/{id}\">report</a></p>",
            escape(&row.status)
        );
        match arena_tournament::results::read_plan(&results) {
            Err(_) => body += "<p>No game has been played yet.</p>",
            Ok(saved) => {
                let games: Vec<_> =
                    arena_tournament::results::read_results(&results, &saved.plan.fingerprint)
                        .map_err(|e| internal_page(&e))?
                        .into_values()
                        .collect();
                let planned: Vec<u32> = saved.plan.games.iter().map(|g| g.game).collect();
                let report = arena_tournament::report::build(&saved.name, &planned, &games);
                let link = |game: &arena_tournament::results::GameLine| {
                    arena_tournament::run::replay_path(&results, game.game)
                        .is_file()
                        .then(|| format!("/tournaments/{id}/games/{}/viewer", game.game))
                };
                body += &arena_tournament::index::body(&report, &games, &link);
            }
        }
        Ok(layout(&format!("Tournament: {} — games", row.name), &body))
    })
    .await
}

async fn tournament_svg(State(app): State<Arc<App>>, Id(id): Id) -> Response {
    let svg = crate::store::off_executor(move || app.store().tournament(id)).await;
    match svg {
        Ok(Ok(Some(row))) if row.svg.is_some() => (
            [
                (header::CONTENT_TYPE, "image/svg+xml"),
                (
                    header::CONTENT_SECURITY_POLICY,
                    "default-src 'none'; style-src 'unsafe-inline'",
                ),
            ],
            row.svg.unwrap_or_default(),
        )
            .into_response(),
        _ => page_error(StatusCode::NOT_FOUND, "no report picture"),
    }
}

pub(crate) mod headers {
    //! The security headers every answer carries: a Content-Security-Policy that allows only
    //! the server's own assets, `X-Frame-Options`, `X-Content-Type-Options: nosniff` and a
    //! referrer policy.
    //!
    //! The pages load one stylesheet (`/style.css`), pictures from the server (the report's
    //! SVG) and frame only the server's own viewer; they have no inline script or style, and
    //! no script but the game page's `/frame.js` (which sizes its viewer frame), which only
    //! that page's policy allows. The
    //! viewer (`/games/{id}/viewer`, `arena_viewer::page`) is one self-contained page: its
    //! inline `<script>` and `<style>` elements are allowed by their SHA-256 hashes, computed
    //! from the page sent, so nothing else inline can run. It alone may be framed, by the
    //! server's own game page (`SAMEORIGIN`). Its script sets `style` attributes (a seat's
    //! colour swatch), which `style-src-attr 'unsafe-inline'` allows: attributes cannot load or
    //! run anything, and no text from a bot reaches one.

    use axum::http::{HeaderName, HeaderValue, header};
    use axum::response::Response;
    use sha2::{Digest, Sha256};

    /// The pages' policy, with `script` (a `script-src` directive, or nothing).
    macro_rules! page_policy {
        ($script:literal) => {
            concat!(
                "default-src 'none'; ",
                $script,
                "style-src 'self'; img-src 'self'; frame-src 'self'; base-uri 'none'; \
                 form-action 'none'; frame-ancestors 'none'"
            )
        };
    }

    /// The policy of every answer but the viewer's and the game page's: the server's own
    /// stylesheet, pictures and viewer frame; nothing inline, no script, no forms, no
    /// framing by anyone.
    pub(crate) const PAGE_CSP: &str = page_policy!("");

    /// The game page's policy: [`PAGE_CSP`] and the server's own scripts (`/frame.js`; every
    /// other answer of the server is JSON, CSS, SVG or HTML, which `nosniff` keeps from
    /// running as a script).
    pub(crate) const GAME_PAGE_CSP: (&str, &str) = (
        "content-security-policy",
        page_policy!("script-src 'self'; "),
    );

    /// The security headers of every answer that does not set its own, by name: also
    /// written by hand where an answer bypasses the router (the accept loop's 429).
    pub(crate) const DEFAULTS: [(&str, &str); 4] = [
        ("content-security-policy", PAGE_CSP),
        ("x-frame-options", "DENY"),
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "same-origin"),
    ];

    /// Add the security headers an answer does not set itself (the viewer and the report's
    /// SVG set their own policy).
    pub(crate) async fn security_headers(mut response: Response) -> Response {
        let headers = response.headers_mut();
        for (name, value) in DEFAULTS {
            let name = header::HeaderName::from_static(name);
            if !headers.contains_key(&name) {
                headers.insert(name, HeaderValue::from_static(value));
            }
        }
        response
    }

    /// The viewer page's own headers: its policy (the hashes of the inline elements of `html`)
    /// and framing by the server's pages only.
    pub(crate) fn viewer_headers(html: &[u8]) -> [(HeaderName, HeaderValue); 2] {
        let csp = viewer_csp(&String::from_utf8_lossy(html));
        [
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_str(&csp).unwrap_or(HeaderValue::from_static(PAGE_CSP)),
            ),
            (
                header::X_FRAME_OPTIONS,
                HeaderValue::from_static("SAMEORIGIN"),
            ),
        ]
    }

    /// The policy of a self-contained page: only its own inline `<script>` and `<style>`
    /// elements (by hash) run or apply. A `<script type=…>` data block is not executed and
    /// needs no hash.
    pub(crate) fn viewer_csp(html: &str) -> String {
        let scripts = inline_hashes(html, "script");
        let styles = inline_hashes(html, "style");
        let list = |hashes: &[String]| {
            if hashes.is_empty() {
                "'none'".to_owned()
            } else {
                hashes
                    .iter()
                    .map(|h| format!("'sha256-{h}'"))
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        };
        format!(
            "default-src 'none'; script-src {scripts}; style-src {styles}; style-src-elem {styles}; \
             style-src-attr 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; \
             frame-ancestors 'self'",
            scripts = list(&scripts),
            styles = list(&styles),
        )
    }

    /// The base64 SHA-256 of the content of every `<tag>` element (written exactly so, no
    /// attributes) in `html`.
    fn inline_hashes(html: &str, tag: &str) -> Vec<String> {
        let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
        let mut hashes = Vec::new();
        let mut rest = html;
        while let Some(start) = rest.find(&open) {
            let body = &rest[start + open.len()..];
            let Some(end) = body.find(&close) else { break };
            let hash = base64(&Sha256::digest(&body.as_bytes()[..end]));
            if !hashes.contains(&hash) {
                hashes.push(hash);
            }
            rest = &body[end + close.len()..];
        }
        hashes
    }

    /// Standard base64 with padding (what CSP hashes are written in).
    fn base64(bytes: &[u8]) -> String {
        const ALPHABET: &[u8; 64] =
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
        for chunk in bytes.chunks(3) {
            let b = [
                chunk[0],
                *chunk.get(1).unwrap_or(&0),
                *chunk.get(2).unwrap_or(&0),
            ];
            let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
            for i in 0..4 {
                if i <= chunk.len() {
                    out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
                } else {
                    out.push('=');
                }
            }
        }
        out
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn base64_is_the_standard_one() {
            for (bytes, text) in [
                (&b""[..], ""),
                (b"f", "Zg=="),
                (b"fo", "Zm8="),
                (b"foo", "Zm9v"),
                (b"foobar", "Zm9vYmFy"),
                (b"\xfb\xff", "+/8="),
            ] {
                assert_eq!(base64(bytes), text);
            }
        }

        #[test]
        fn the_viewer_policy_allows_exactly_its_inline_elements() {
            let html = "<style>\nbody{}\n</style><script>\nalert(1)\n</script>\
                        <script type=\"application/json\" id=\"d\">{}</script><script>\nalert(1)\n</script>";
            let csp = viewer_csp(html);
            // `echo -n $'\nalert(1)\n' | openssl sha256 -binary | base64`
            let script = base64(&Sha256::digest(b"\nalert(1)\n"));
            let style = base64(&Sha256::digest(b"\nbody{}\n"));
            assert!(
                csp.contains(&format!("script-src 'sha256-{script}';")),
                "one hash for the two equal scripts, none for the data block: {csp}"
            );
            assert!(
                csp.contains(&format!("style-src-elem 'sha256-{style}';")),
                "{csp}"
            );
            assert!(
                csp.contains(&format!("style-src 'sha256-{style}';")),
                "{csp}"
            );
            assert!(csp.contains("style-src-attr 'unsafe-inline';"), "{csp}");
            assert_eq!(
                csp.matches("unsafe").count(),
                1,
                "only style attributes: {csp}"
            );
            assert!(csp.contains("frame-ancestors 'self'"), "{csp}");
            assert!(viewer_csp("<p>no script</p>").contains("script-src 'none'"));
        }
    }
}
