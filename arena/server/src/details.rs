//! What the API and the pages show about a bot, gathered in one place.

use crate::App;
use crate::error::ApiError;
use crate::ladder::PAGE_STANDINGS_LAG;
use crate::store::Game;
use arena_sdk::Mode;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::time::Instant;

/// Everything about a bot: versions, per-mode standing and record, rating history, recent
/// games and faults. Gathering them reads the bot's whole rating history, which grows with
/// every game: what was gathered is answered again for [`PAGE_STANDINGS_LAG`] (like the
/// standings, at most that far behind the ladder), and an upload or a retirement forgets it.
pub fn bot_details(app: &App, id: i64) -> Result<Value, ApiError> {
    let kept = || app.details.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((at, value)) = kept().get(&id)
        && at.elapsed() < PAGE_STANDINGS_LAG
    {
        return Ok(value.clone());
    }
    let value = gather(app, id)?;
    kept().insert(id, (Instant::now(), value.clone()), 1);
    Ok(value)
}

fn gather(app: &App, id: i64) -> Result<Value, ApiError> {
    let store = app.store();
    let bot = store.bot(id)?.ok_or_else(|| ApiError::not_found("bot"))?;
    let versions = store.versions_of(id)?;
    let mut modes = BTreeMap::new();
    for mode in Mode::ALL {
        let board = app.ladder.leaderboard(mode)?;
        let row = board.rows.iter().find(|r| r.bot_id == id);
        let history = store.rating_history(id, mode, HISTORY_POINTS)?;
        if row.is_none_or(|r| r.games == 0) && history.is_empty() {
            continue;
        }
        let history: Vec<Value> = history
            .into_iter()
            .map(|(games, version, elo)| json!({ "games": games, "version": version, "elo": elo }))
            .collect();
        modes.insert(mode.name(), json!({ "standing": row, "history": history }));
    }
    let game_summary = |g: &Game| {
        let seat = usize::from(store_seat(g, &versions));
        json!({
            "id": g.id,
            "mode": g.mode,
            "bots": [format!("{}@v{}", g.names[0], g.numbers[0]), format!("{}@v{}", g.names[1], g.numbers[1])],
            "seat": seat,
            "result": match g.winner { None => "draw", Some(w) if usize::from(w) == seat => "won", Some(_) => "lost" },
            "reason": g.reason,
            "turns": g.turns,
            "faults": g.outcomes[seat].faults,
            "fault_kinds": g.outcomes[seat].fault_kinds,
        })
    };
    let recent: Vec<Value> = store
        .games_of_bot(id, 20)?
        .iter()
        .map(game_summary)
        .collect();
    let faults: Vec<Value> = store
        .faulted_games_of_bot(id, 20)?
        .iter()
        .map(game_summary)
        .collect();
    Ok(json!({
        "id": bot.id,
        "name": bot.name,
        "owner": bot.owner,
        "active": bot.active,
        "versions": versions,
        "modes": modes,
        "recent_games": recent,
        "faults": faults,
    }))
}

/// Points of a bot's rating history shown per mode (plus the latest).
const HISTORY_POINTS: usize = 250;

/// Which seat of `game` one of `versions` (a bot's) sat in.
fn store_seat(game: &Game, versions: &[crate::store::Version]) -> u8 {
    u8::from(!versions.iter().any(|v| v.id == game.seats[0]))
}
