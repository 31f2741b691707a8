//! The HTTP routes: the JSON API under `/api/` and the pages (see [`crate::pages`]).
//!
//! Every API error is JSON `{"error": "..."}` with a fitting status code: 400 bad input,
//! 401 no or unknown token, 403 someone else's bot, 404, 408 an upload too slow, 413 too
//! large, 422 a bot the check rejected (with the check's report), 429 over the upload rate
//! limit (or a second upload while the token's previous one is in flight).

use crate::accounts::{self, check_name};
use crate::details::bot_details;
use crate::error::ApiError;
use crate::pages::Id;
use crate::store::User;
use crate::{App, pages, tournament};
use arena_sdk::Mode;
use arena_tournament::check::CheckReport;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

type ApiResult = Result<Response, ApiError>;

fn json_ok(value: impl serde::Serialize) -> ApiResult {
    Ok(axum::Json(value).into_response())
}

/// The app's routes.
pub fn router(app: Arc<App>) -> Router {
    let body_limit = app.config.max_body_bytes;
    let api = Router::new()
        .route(
            "/api/bots",
            post(upload)
                .get(list_bots)
                // The handler reads the module itself (`read_upload`): at most the cap is
                // kept, an oversized one is drained (bounded) and answered with JSON 413.
                .layer(DefaultBodyLimit::disable()),
        )
        .route("/api/bots/{id}", get(bot).delete(retire))
        .route("/api/leaderboard/{mode}", get(leaderboard))
        .route("/api/games/{id}", get(game))
        .route("/api/games/{id}/replay", get(replay))
        .route("/api/users", post(register))
        .route("/api/tournaments", post(start_tournament))
        .route("/api/tournaments/{id}", get(tournament_status))
        .route("/api/tournaments/{id}/cancel", post(cancel_tournament))
        .route("/api/status", get(status))
        .layer(DefaultBodyLimit::max(body_limit));
    Router::new()
        .merge(api)
        .merge(pages::router())
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&app),
            body_in_time,
        ))
        // Outermost: every answer gets them, the middleware's own (408, 413) included.
        .layer(axum::middleware::map_response(
            pages::headers::security_headers,
        ))
        .with_state(app)
}

/// Read the whole body of every request but an upload (which reads its own, under
/// `upload_timeout_secs`) within `body_timeout_secs` and `max_body_bytes`, before its
/// handler runs: a body trickled in, or never finished, is a 408 instead of a task and a
/// connection held for as long as the client likes.
async fn body_in_time(
    State(app): State<Arc<App>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    use http_body_util::BodyExt;
    if request.method() == axum::http::Method::POST && request.uri().path() == "/api/bots" {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let (secs, limit) = (app.config.body_timeout_secs, app.config.max_body_bytes);
    let read = http_body_util::Limited::new(body, limit).collect();
    let failed = |status: StatusCode, message: String| {
        if parts.uri.path().starts_with("/api/") {
            ApiError::new(status, message).into_response()
        } else {
            pages::page_error(status, &message)
        }
    };
    match tokio::time::timeout(std::time::Duration::from_secs(secs), read).await {
        Ok(Ok(collected)) => {
            let body = axum::body::Body::from(collected.to_bytes());
            next.run(axum::extract::Request::from_parts(parts, body))
                .await
        }
        Ok(Err(error)) if error.is::<http_body_util::LengthLimitError>() => failed(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than {limit} bytes (max_body_bytes)"),
        ),
        Ok(Err(error)) => failed(
            StatusCode::BAD_REQUEST,
            format!("the request body could not be read: {error}"),
        ),
        Err(_) => failed(
            StatusCode::REQUEST_TIMEOUT,
            format!("the request body did not arrive within {secs} seconds (body_timeout_secs)"),
        ),
    }
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// The user of the request's token, or 401.
async fn authenticate(app: &Arc<App>, headers: &HeaderMap) -> Result<User, ApiError> {
    let Some(token) = bearer(headers) else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "missing token: send `Authorization: Bearer TOKEN` (`arena serve user add NAME` prints one)",
        ));
    };
    let token = token.to_owned();
    let store = Arc::clone(app.store());
    let user = crate::store::off_executor(move || accounts::authenticate(&store, &token))
        .await
        .map_err(|e| ApiError::internal(&e))??;
    user.ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "unknown token"))
}

/// Run blocking database or wasm work off the async executor.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    crate::store::off_executor(work)
        .await
        .map_err(|e| ApiError::internal(&e))?
}

#[derive(Debug, Deserialize)]
struct UploadQuery {
    name: Option<String>,
}

/// An upload's bytes if there are at most `cap` (`None` beyond). Past the cap the body is
/// still read, and dropped, up to [`DRAIN_FACTOR`] times the cap: a client that sends the
/// whole body before reading the answer would otherwise have its connection closed under
/// it (a broken pipe) instead of reading the 413. Nothing past the cap is kept, and
/// nothing at all when `keep` is false (an answer is already decided: only drain).
///
/// The whole body must arrive within `within`: a client trickling it (or stalling) would
/// otherwise hold its connection, and with `keep` up to `cap` bytes, for as long as it likes.
async fn read_upload(
    body: axum::body::Body,
    cap: usize,
    keep: bool,
    within: std::time::Duration,
) -> Result<Option<Bytes>, ApiError> {
    tokio::time::timeout(within, read_body(body, cap, keep))
        .await
        .unwrap_or_else(|_| {
            Err(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the upload did not arrive within {} seconds (upload_timeout_secs)",
                    within.as_secs()
                ),
            ))
        })
}

async fn read_body(
    mut body: axum::body::Body,
    cap: usize,
    keep: bool,
) -> Result<Option<Bytes>, ApiError> {
    use http_body_util::BodyExt;
    let drain = cap.saturating_mul(DRAIN_FACTOR);
    let mut kept = Vec::new();
    let mut total = 0usize;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                format!("the upload could not be read: {e}"),
            )
        })?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        total = total.saturating_add(data.len());
        if total <= cap {
            if keep {
                kept.extend_from_slice(&data);
            }
        } else if total > drain {
            break;
        }
    }
    Ok((total <= cap).then(|| Bytes::from(kept)))
}

/// How far past the upload cap an oversized body is read (and dropped) before the 413.
const DRAIN_FACTOR: usize = 4;

/// `POST /api/bots?name=NAME` with the module as the body.
async fn upload(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    query: Result<Query<UploadQuery>, axum::extract::rejection::QueryRejection>,
    body: axum::body::Body,
) -> ApiResult {
    // The body is read whatever the answer (a client that sends it all before reading gets
    // its answer, not a broken pipe), but kept in memory only for a known token with no
    // other upload in flight: otherwise anyone could make the server hold `cap` bytes per
    // connection, for as many connections as they open.
    let cap = app.config.max_upload_bytes;
    let within = std::time::Duration::from_secs(app.config.upload_timeout_secs);
    // The answer is decided: whatever the drain meets (a stall, a broken body), the client
    // gets that answer (401, 429), not the drain's.
    let refuse = |error: ApiError, body| async move {
        let _ = read_upload(body, cap, false, within).await;
        Err(error)
    };
    let user = match authenticate(&app, &headers).await {
        Ok(user) => user,
        Err(error) => return refuse(error, body).await,
    };
    let Some(uploading) = crate::Uploading::claim(&app, user.id) else {
        let error = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "an upload with this token is in progress: send the next when it is answered",
        );
        return refuse(error, body).await;
    };
    let upload = read_upload(body, cap, true, within).await?;
    let name = query.ok().and_then(|q| q.0.name).ok_or_else(|| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "missing bot name: POST /api/bots?name=NAME",
        )
    })?;
    check_name("bot", &name).map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e))?;
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the module is larger than the server's upload limit of {cap} bytes"),
        )
    };
    let wasm = upload.ok_or_else(too_large)?;
    if wasm.is_empty() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "empty upload: send the .wasm file as the body",
        ));
    }
    let store = Arc::clone(app.store());
    let owner_name = name.clone();
    let existing = blocking(move || Ok(store.bot_by_name(&owner_name)?)).await?;
    if let Some(bot) = &existing
        && bot.owner_id != user.id
    {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "the bot `{name}` belongs to {}; choose another name",
                bot.owner
            ),
        ));
    }
    // The same module as the bot's latest version: nothing to check, no new version (a
    // retired bot is back on the ladder).
    if let Some(bot) = existing {
        use sha2::Digest as _;
        let sha256 = hex::encode(sha2::Sha256::digest(&wasm));
        let store = Arc::clone(app.store());
        let latest = blocking(move || {
            let latest = store.versions_of(bot.id)?.pop();
            let same = latest.filter(|v| v.sha256 == sha256);
            if same.is_some() && !bot.active {
                store.set_active(bot.id, true)?;
            }
            Ok(same.map(|v| (v, bot.active)))
        })
        .await?;
        if let Some((version, was_active)) = latest {
            let mut answer = uploaded(&app, &version, Value::Null);
            answer["unchanged"] = true.into();
            answer["reactivated"] = (!was_active).into();
            return Ok((StatusCode::OK, axum::Json(answer)).into_response());
        }
    }
    if !app.allow_upload(user.id) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "upload limit reached: {} uploads per hour per token",
                app.config.uploads_per_hour
            ),
        ));
    }
    // The permit goes with the check: a client that hangs up mid-check must not free its
    // place while the check still runs (or checks would pile up past `jobs`).
    let permit = Arc::clone(&app.checks)
        .acquire_owned()
        .await
        .map_err(|e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, e.to_string()))?;
    let worker = Arc::clone(&app);
    let check_name = name.clone();
    let report = blocking(move || {
        let (_permit, _uploading) = (permit, uploading);
        let sandbox = worker.ladder.sandbox();
        let loaded = sandbox
            .load_bytes(&check_name, &wasm)
            .map_err(|e| ApiError {
                status: StatusCode::UNPROCESSABLE_ENTITY,
                body: json!({ "error": format!("rejected: {e}"), "check": Value::Null }),
            })?;
        let report = arena_tournament::check::check(&loaded, sandbox).map_err(|e| {
            ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, format!("rejected: {e}"))
        })?;
        Ok((report, wasm))
    })
    .await;
    let (report, wasm): (CheckReport, Bytes) = report?;
    if !report.ok {
        return Err(ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            body: json!({
                "error": format!("rejected: {}", report.error.as_deref().unwrap_or("the check failed")),
                "check": report,
            }),
        });
    }
    let modes = report.playable();
    let report_json = serde_json::to_string(&report).expect("reports serialize");
    let store = Arc::clone(app.store());
    let sha256 = report.module.sha256.clone();
    let stored = blocking(move || {
        Ok(store.add_version(&user, &name, &wasm, &sha256, &modes, &report_json)?)
    })
    .await?;
    let version = stored.map_err(|owner| {
        ApiError::new(
            StatusCode::FORBIDDEN,
            format!("the bot belongs to {owner}; choose another name"),
        )
    })?;
    let answer = uploaded(&app, &version, json!(report));
    Ok((StatusCode::CREATED, axum::Json(answer)).into_response())
}

/// The answer to an upload that left `version` the bot's latest (`check`: the report of
/// the check it passed, or null when nothing was checked); the bot's pages and the ladder
/// learn of it.
fn uploaded(app: &App, version: &crate::store::Version, check: Value) -> Value {
    app.forget_details();
    app.ladder.wake();
    json!({
        "bot_id": version.bot,
        "bot": version.bot_name,
        "version": version.number,
        "version_id": version.id,
        "modes": version.modes,
        "url": format!("{}/bots/{}", app.base_url, version.bot),
        "check": check,
    })
}

/// `DELETE /api/bots/{id}`: the owner retires a bot from the ladder (its games stay).
async fn retire(State(app): State<Arc<App>>, headers: HeaderMap, Id(id): Id) -> ApiResult {
    let user = authenticate(&app, &headers).await?;
    let store = Arc::clone(app.store());
    blocking(move || {
        let bot = store.bot(id)?.ok_or_else(|| ApiError::not_found("bot"))?;
        if bot.owner_id != user.id {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!("the bot `{}` belongs to {}", bot.name, bot.owner),
            ));
        }
        Ok(store.set_active(id, false)?)
    })
    .await?;
    app.forget_details();
    json_ok(json!({ "bot_id": id, "active": false }))
}

/// Bots listed by `GET /api/bots` when the request does not say (`?limit=`).
const BOTS_PER_PAGE: usize = 100;
/// The most `?limit=` may ask for.
const MAX_BOTS_PER_PAGE: usize = 1000;

#[derive(Debug, Deserialize)]
struct BotsQuery {
    limit: Option<usize>,
    after: Option<String>,
}

/// `GET /api/bots[?limit=N][&after=NAME]`: a page of the bots' latest versions, by name;
/// when more follow, a `Link: <…>; rel="next"` header gives the next page's URL.
async fn list_bots(
    State(app): State<Arc<App>>,
    query: Result<Query<BotsQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult {
    let Query(query) = query.map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.body_text()))?;
    let limit = query.limit.unwrap_or(BOTS_PER_PAGE);
    if !(1..=MAX_BOTS_PER_PAGE).contains(&limit) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("limit must be 1 to {MAX_BOTS_PER_PAGE}, not {limit}"),
        ));
    }
    let store = Arc::clone(app.store());
    let after = query.after.clone();
    // One more than the page, to know whether another follows.
    let mut page =
        blocking(move || Ok(store.latest_versions_page(after.as_deref(), limit + 1)?)).await?;
    let next = (page.len() > limit).then(|| {
        page.truncate(limit);
        // Bot names are URL-safe (`accounts::check_name`).
        let last = &page[limit - 1].bot_name;
        format!(
            "<{}/api/bots?limit={limit}&after={last}>; rel=\"next\"",
            app.base_url
        )
    });
    let mut response = axum::Json(page).into_response();
    if let Some(next) = next
        && let Ok(value) = axum::http::HeaderValue::from_str(&next)
    {
        response.headers_mut().insert(header::LINK, value);
    }
    Ok(response)
}

fn parse_mode(mode: &str) -> Result<Mode, ApiError> {
    mode.parse()
        .map_err(|e: String| ApiError::new(StatusCode::NOT_FOUND, e))
}

async fn leaderboard(State(app): State<Arc<App>>, Path(mode): Path<String>) -> ApiResult {
    let mode = parse_mode(&mode)?;
    json_ok(
        blocking(move || Ok(app.ladder.leaderboard(mode)?))
            .await?
            .as_ref(),
    )
}

async fn bot(State(app): State<Arc<App>>, Id(id): Id) -> ApiResult {
    json_ok(blocking(move || bot_details(&app, id)).await?)
}

async fn game(State(app): State<Arc<App>>, Id(id): Id) -> ApiResult {
    let store = Arc::clone(app.store());
    let game = blocking(move || store.game(id)?.ok_or_else(|| ApiError::not_found("game"))).await?;
    json_ok(json!({
        "game": game,
        "replay_url": format!("{}/api/games/{}/replay", app.base_url, game.id),
        "page_url": format!("{}/games/{}", app.base_url, game.id),
    }))
}

async fn replay(State(app): State<Arc<App>>, Id(id): Id) -> ApiResult {
    let store = Arc::clone(app.store());
    let json = blocking(move || {
        let game = store.game(id)?.ok_or_else(|| ApiError::not_found("game"))?;
        store
            .replay(&game.replay)?
            .ok_or_else(|| ApiError::not_found("replay"))
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}

#[derive(Debug, Deserialize)]
struct Registration {
    name: String,
}

/// `POST /api/users {"name": ...}` when the configuration allows open registration. Only
/// accounts made count toward the caller's hourly limit: a bad body or an invalid name is
/// refused before anything is counted, a taken name gives its place back.
async fn register(
    State(app): State<Arc<App>>,
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<std::net::SocketAddr>,
    body: Result<axum::Json<Registration>, axum::extract::rejection::JsonRejection>,
) -> ApiResult {
    if !app.config.open_registration {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "registration is closed: ask the organizer for an account",
        ));
    }
    let axum::Json(registration) = body.map_err(|e| ApiError::new(e.status(), e.body_text()))?;
    check_name("user", &registration.name)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e))?;
    let caller = crate::Caller::of(peer.ip());
    if !app.allow_registration(caller) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "too many new accounts from your address this hour (registrations_per_hour = {}): try again later",
                app.config.registrations_per_hour
            ),
        ));
    }
    let store = Arc::clone(app.store());
    let added = blocking(move || {
        accounts::add_user(&store, &registration.name, false).map_err(|e| match e {
            accounts::AddUserError::Name(m) => ApiError::new(StatusCode::BAD_REQUEST, m),
            accounts::AddUserError::Exists(_) => ApiError::new(StatusCode::CONFLICT, e.to_string()),
            e => ApiError::internal(&e),
        })
    })
    .await;
    let (user, token) = added.inspect_err(|_| app.unregister(caller))?;
    Ok((
        StatusCode::CREATED,
        axum::Json(json!({ "user": user.name, "token": token })),
    )
        .into_response())
}

/// `POST /api/tournaments` with a tournament file as the body (admin token).
async fn start_tournament(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Result<String, axum::extract::rejection::StringRejection>,
) -> ApiResult {
    let user = authenticate(&app, &headers).await?;
    if !user.admin {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "only organizers (`arena serve user add NAME --admin`) can start tournaments",
        ));
    }
    let text = body.map_err(|e| ApiError::new(e.status(), e.body_text()))?;
    // Preparing writes the modules and the tournament's row: file and database work.
    let starter = Arc::clone(&app);
    let id = blocking(move || tournament::start(&starter, &text)).await?;
    Ok((
        StatusCode::ACCEPTED,
        axum::Json(json!({ "id": id, "url": format!("{}/tournaments/{id}", app.base_url) })),
    )
        .into_response())
}

/// `POST /api/tournaments/{id}/cancel` (organizer token): stop a running tournament.
/// Answered once its games in flight have ended, so the next can start at once.
async fn cancel_tournament(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Id(id): Id,
) -> ApiResult {
    let user = authenticate(&app, &headers).await?;
    if !user.admin {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "only organizers (`arena serve user add NAME --admin`) can cancel tournaments",
        ));
    }
    let canceller = Arc::clone(&app);
    let stopped = blocking(move || {
        tournament::cancel(&canceller, id).map_err(|e| match e {
            tournament::CancelError::NotFound(_) => ApiError::not_found("tournament"),
            tournament::CancelError::NotRunning { .. } => {
                ApiError::new(StatusCode::CONFLICT, e.to_string())
            }
            tournament::CancelError::Store(e) => ApiError::internal(&e),
        })
    })
    .await?;
    // The games in flight end at their next turn; a long one is not waited for past a
    // second (the mark is in the database, and nothing more of the tournament is played).
    if let Some(stopped) = stopped {
        let _ = tokio::time::timeout(
            std::time::Duration::from_millis(900),
            tournament::wait_stopped(&app, id, stopped),
        )
        .await;
    }
    tracing::info!(tournament = id, by = %user.name, "tournament cancelled");
    json_ok(json!({ "id": id, "status": "cancelled" }))
}

async fn tournament_status(State(app): State<Arc<App>>, Id(id): Id) -> ApiResult {
    let store = Arc::clone(app.store());
    json_ok(
        blocking(move || {
            store
                .tournament(id)?
                .ok_or_else(|| ApiError::not_found("tournament"))
        })
        .await?,
    )
}

async fn status(State(app): State<Arc<App>>) -> ApiResult {
    let store = Arc::clone(app.store());
    let (games, pending) =
        blocking(move || Ok((store.game_count()?, store.pending_jobs()?.len()))).await?;
    json_ok(json!({
        "games": games,
        "pending_jobs": pending,
        "compiled_bots": app.ladder.compiled().0,
        "pages_rendered": app.pages_rendered.load(std::sync::atomic::Ordering::Relaxed),
        "connections": app.connections.open(),
        "modes": app.ladder.modes().collect::<Vec<_>>(),
        "ladder": app.config.ladder,
        "version": env!("CARGO_PKG_VERSION"),
    }))
}
