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
    /// A house bot: a built-in the server puts on the ladder (`builtin:NAME`).
    pub house: bool,
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
    let mut tally = Tally::default();
    for game in games {
        tally.add(game);
    }
    tally.board(mode, latest)
}

/// A mode's games so far, added up in game order: exactly what the standings are fitted
/// from, so that the ladder reads each game from the database once rather than every game
/// at every refit. Adding games one by one gives the same players, scores and records, in
/// the same order, as [`build`] over all of them: the same standings to the last bit.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// Rating slots by version, in order of first appearance.
    index: BTreeMap<i64, usize>,
    /// The games between two different versions, as the fit takes them.
    scores: Vec<GameScore>,
    records: BTreeMap<i64, Record>,
    games: u64,
    last_game: i64,
}

impl Tally {
    /// Add the next game (games come in id order).
    pub fn add(&mut self, game: &Game) {
        for version in game.seats {
            let next = self.index.len();
            self.index.entry(version).or_insert(next);
        }
        if game.seats[0] != game.seats[1] {
            self.scores.push(GameScore {
                a: self.index[&game.seats[0]],
                b: self.index[&game.seats[1]],
                score_a: match game.winner {
                    None => 0.5,
                    Some(0) => 1.0,
                    Some(_) => 0.0,
                },
            });
        }
        for seat in 0..2 {
            self.records
                .entry(game.seats[seat])
                .or_default()
                .add(game, seat);
        }
        self.games += 1;
        self.last_game = game.id;
    }

    /// The id of the last game added (0 for none).
    pub fn last_game(&self) -> i64 {
        self.last_game
    }

    /// Fit the standings of the games added (the costly part: it grows with them).
    pub fn board(&self, mode: Mode, latest: &[Version]) -> Leaderboard {
        let (index, records) = (&self.index, &self.records);
        let fit = ratings::fit(index.len(), &self.scores);
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
                    house: v.house_builtin().is_some(),
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
            games: self.games,
            rows,
            elo: index.iter().map(|(&v, &i)| (v, fit.elo[i])).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: i64, seats: [i64; 2], winner: Option<u8>) -> Game {
        let outcome: arena_engine::SeatOutcome = serde_json::from_value(serde_json::json!({
            "stats": {}, "faults": (id % 3) as u32, "fault_kinds": {}, "invalid_actions": 0, "fuel": 0, "forfeited": false
        }))
        .unwrap();
        Game {
            id,
            mode: Mode::Battle,
            seed: 1,
            seats,
            names: [format!("bot{}", seats[0]), format!("bot{}", seats[1])],
            numbers: [1, 1],
            bots: seats,
            winner,
            reason: "r".into(),
            turns: 1,
            outcomes: [outcome.clone(), outcome],
            replay: String::new(),
            created: 0,
        }
    }

    #[test]
    fn a_tally_added_to_game_by_game_fits_the_same_standings_as_all_games_at_once() {
        let games: Vec<Game> = (1..=40)
            .map(|id| {
                let a = 1 + id % 4;
                let b = 1 + (id * 7 + 1) % 5;
                let winner = [Some(0), Some(1), None][(id % 3) as usize];
                game(id, [a, b], winner)
            })
            .collect();
        let latest: Vec<Version> = (1..=5)
            .map(|v| Version {
                id: v,
                bot: v,
                bot_name: format!("bot{v}"),
                number: 1,
                sha256: String::new(),
                modes: vec![Mode::Battle],
                created: 0,
            })
            .collect();
        let whole = build(Mode::Battle, &games, &latest);
        let mut tally = Tally::default();
        for chunk in games.chunks(7) {
            let before = tally.board(Mode::Battle, &latest);
            assert_eq!(before.games, tally.games);
            for g in chunk {
                tally.add(g);
            }
        }
        let stepwise = tally.board(Mode::Battle, &latest);
        assert_eq!(tally.last_game(), 40);
        assert_eq!(
            serde_json::to_value(&stepwise).unwrap(),
            serde_json::to_value(&whole).unwrap()
        );
        assert_eq!(stepwise.elo, whole.elo);
        assert_eq!(whole.games, 40);
        assert!(whole.rows.iter().any(|r| r.elo != ratings::MEAN_ELO));
    }
}
