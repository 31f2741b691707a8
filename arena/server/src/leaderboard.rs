//! Per-mode standings from the stored games: Bradley–Terry Elo with 95% error bars
//! ([`arena_tournament::ratings`], the same fit as tournament reports), over every version
//! that played; the table shows each bot's latest version.

use crate::store::{Game, Version};
use arena_sdk::Mode;
use arena_tournament::ratings::{self, GameScore};
use serde::Serialize;
use std::collections::BTreeMap;

/// A mode's standings.
#[derive(Debug, Clone, Serialize)]
pub struct Leaderboard {
    /// The mode.
    pub mode: Mode,
    /// Games of the mode so far.
    pub games: u64,
    /// Latest versions, best first.
    pub rows: Vec<Row>,
    /// Elo of every version with games (old versions too), by version id.
    #[serde(skip)]
    pub elo: BTreeMap<i64, f64>,
}

/// One bot's line.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// 1 for the best.
    pub rank: usize,
    /// The bot's id.
    pub bot_id: i64,
    /// The bot's name.
    pub bot: String,
    /// The version's number.
    pub version: i64,
    /// The version's id.
    pub version_id: i64,
    /// Elo (1500 = the average rated version).
    pub elo: f64,
    /// ± half-width of the 95% interval, once the version has games.
    pub elo_ci95: Option<f64>,
    /// Games of this version.
    pub games: u32,
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Faults over its games.
    pub faults: u32,
    /// Answers the rules rejected.
    pub invalid_actions: u32,
    /// Games forfeited by faulting too often.
    pub forfeits: u32,
}

/// A version's record in a set of games.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Record {
    /// Games.
    pub games: u32,
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Faults.
    pub faults: u32,
    /// Rejected answers.
    pub invalid_actions: u32,
    /// Forfeits.
    pub forfeits: u32,
}

impl Record {
    /// Add the game `game` from seat `seat`'s point of view.
    pub fn add(&mut self, game: &Game, seat: usize) {
        self.games += 1;
        match game.winner {
            None => self.draws += 1,
            Some(w) if usize::from(w) == seat => self.wins += 1,
            Some(_) => self.losses += 1,
        }
        let outcome = &game.outcomes[seat];
        self.faults += outcome.faults;
        self.invalid_actions += outcome.invalid_actions;
        self.forfeits += u32::from(outcome.forfeited);
    }
}

/// The standings of `mode` from its games; `latest` lists every bot's latest version.
pub fn build(mode: Mode, games: &[Game], latest: &[Version]) -> Leaderboard {
    let mut index: BTreeMap<i64, usize> = BTreeMap::new();
    for game in games {
        for version in game.seats {
            let next = index.len();
            index.entry(version).or_insert(next);
        }
    }
    let scores: Vec<GameScore> = games
        .iter()
        .filter(|g| g.seats[0] != g.seats[1])
        .map(|g| GameScore {
            a: index[&g.seats[0]],
            b: index[&g.seats[1]],
            score_a: match g.winner {
                None => 0.5,
                Some(0) => 1.0,
                Some(_) => 0.0,
            },
        })
        .collect();
    let fit = ratings::fit(index.len(), &scores);
    let mut records: BTreeMap<i64, Record> = BTreeMap::new();
    for game in games {
        for seat in 0..2 {
            records.entry(game.seats[seat]).or_default().add(game, seat);
        }
    }
    let mut rows: Vec<Row> = latest
        .iter()
        .filter(|v| v.modes.contains(&mode) || records.contains_key(&v.id))
        .map(|v| {
            let record = records.get(&v.id).copied().unwrap_or_default();
            let slot = index.get(&v.id);
            Row {
                rank: 0,
                bot_id: v.bot,
                bot: v.bot_name.clone(),
                version: v.number,
                version_id: v.id,
                elo: slot.map_or(ratings::MEAN_ELO, |&i| fit.elo[i]),
                elo_ci95: slot.and_then(|&i| fit.ci95[i]),
                games: record.games,
                wins: record.wins,
                draws: record.draws,
                losses: record.losses,
                faults: record.faults,
                invalid_actions: record.invalid_actions,
                forfeits: record.forfeits,
            }
        })
        .collect();
    // Unrated versions go last; ties keep the name order.
    rows.sort_by(|x, y| {
        (y.games > 0)
            .cmp(&(x.games > 0))
            .then(y.elo.total_cmp(&x.elo))
            .then(x.bot.cmp(&y.bot))
    });
    for (rank, row) in rows.iter_mut().enumerate() {
        row.rank = rank + 1;
    }
    Leaderboard {
        mode,
        games: games.len() as u64,
        rows,
        elo: index.iter().map(|(&v, &i)| (v, fit.elo[i])).collect(),
    }
}
