//! Reports: standings (W/D/L, points, score, Bradley–Terry Elo with 95% error bars,
//! likelihood of superiority over the next bot), the pairwise results matrix, per-bot
//! statistics (totals and per-game averages) and faults — per mode — rendered as a terminal
//! table, JSON, CSV, Markdown or SVG.
//!
//! There is no ranking across modes: bots of different modes never meet, so a joint fit
//! would compare them through nothing, and a bot name stands for a different bot in each
//! mode (`builtin:random` of battle is not `builtin:random` of tcg).

use crate::ratings::{self, GameScore};
use crate::results::GameLine;
use arena_sdk::Mode;
use serde::Serialize;
use std::collections::BTreeMap;

/// One bot's line in a standings table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The bot.
    pub bot: String,
    /// Games played.
    pub games: u32,
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Points: 1 a win, ½ a draw.
    pub points: f64,
    /// Points per game, in percent.
    pub score_pct: f64,
    /// Bradley–Terry rating on the Elo scale (average 1500).
    pub elo: f64,
    /// ± 95% error bar of `elo`, when the bot's games allow one.
    pub elo_ci95: Option<f64>,
    /// Likelihood that this bot is stronger than the next one in the table.
    pub los_next: Option<f64>,
    /// Faults of any kind.
    pub faults: u32,
    /// Faults that were out-of-fuel or wall-clock timeouts.
    pub timeouts: u32,
    /// Games forfeited by faulting too often.
    pub forfeits: u32,
    /// Answers the rules rejected.
    pub invalid_actions: u32,
}

/// A results matrix cell: the row bot's points and games against the column bot.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Cell {
    /// Points of the row bot.
    pub points: f64,
    /// Games between the two.
    pub games: u32,
    /// Wins of the row bot.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses of the row bot.
    pub losses: u32,
}

/// Per-bot statistics of one mode.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StatRow {
    /// The bot.
    pub bot: String,
    /// Games in the mode.
    pub games: u32,
    /// Totals by statistic.
    pub totals: BTreeMap<String, i64>,
}

/// Standings of one mode.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standings {
    /// The mode's name.
    pub scope: String,
    /// Rows, best first.
    pub rows: Vec<Row>,
    /// `matrix[i][j]`: row `rows[i]` against `rows[j]`.
    pub matrix: Vec<Vec<Option<Cell>>>,
    /// Per-bot statistics.
    pub stats: Vec<StatRow>,
}

/// A whole report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The tournament.
    pub name: String,
    /// Games in the plan (or shard).
    pub planned: usize,
    /// Games with results.
    pub played: usize,
    /// Planned games without results.
    pub missing: Vec<u32>,
    /// Each mode.
    pub modes: Vec<Standings>,
}

/// Build a report from finished games.
pub fn build(name: &str, planned: &[u32], games: &[GameLine]) -> Report {
    let have: std::collections::BTreeSet<u32> = games.iter().map(|g| g.game).collect();
    let missing = planned
        .iter()
        .copied()
        .filter(|g| !have.contains(g))
        .collect();
    let modes: std::collections::BTreeSet<Mode> = games.iter().map(|g| g.mode).collect();
    Report {
        name: name.to_owned(),
        planned: planned.len(),
        played: games.len(),
        missing,
        modes: modes
            .into_iter()
            .map(|mode| standings(mode.name(), games.iter().filter(|g| g.mode == mode)))
            .collect(),
    }
}

fn standings<'a>(scope: &str, games: impl Iterator<Item = &'a GameLine> + Clone) -> Standings {
    let mut names: Vec<String> = games.clone().flat_map(|g| g.bots.iter().cloned()).collect();
    names.sort();
    names.dedup();
    let index = |name: &str| {
        names
            .binary_search_by(|n| n.as_str().cmp(name))
            .expect("collected above")
    };
    let n = names.len();
    let mut rows: Vec<Row> = names
        .iter()
        .map(|bot| Row {
            bot: bot.clone(),
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            points: 0.0,
            score_pct: 0.0,
            elo: 0.0,
            elo_ci95: None,
            los_next: None,
            faults: 0,
            timeouts: 0,
            forfeits: 0,
            invalid_actions: 0,
        })
        .collect();
    let mut matrix = vec![vec![None::<Cell>; n]; n];
    let mut stats: Vec<StatRow> = names
        .iter()
        .map(|bot| StatRow {
            bot: bot.clone(),
            games: 0,
            totals: BTreeMap::new(),
        })
        .collect();
    let mut scores = Vec::new();
    for game in games {
        let ids = [index(&game.bots[0]), index(&game.bots[1])];
        scores.push(GameScore {
            a: ids[0],
            b: ids[1],
            score_a: game.score(0),
        });
        for seat in 0..2 {
            let (me, other) = (ids[seat], ids[1 - seat]);
            let score = game.score(seat);
            let outcome = &game.seats[seat];
            let row = &mut rows[me];
            row.games += 1;
            row.points += score;
            match game.winner.map(|w| usize::from(w) == seat) {
                Some(true) => row.wins += 1,
                Some(false) => row.losses += 1,
                None => row.draws += 1,
            }
            row.faults += outcome.faults;
            row.timeouts += ["out_of_fuel", "timeout"]
                .iter()
                .filter_map(|k| outcome.fault_kinds.get(*k))
                .sum::<u32>();
            row.forfeits += u32::from(outcome.forfeited);
            row.invalid_actions += outcome.invalid_actions;
            let cell = matrix[me][other].get_or_insert(Cell {
                points: 0.0,
                games: 0,
                wins: 0,
                draws: 0,
                losses: 0,
            });
            cell.points += score;
            cell.games += 1;
            match game.winner.map(|w| usize::from(w) == seat) {
                Some(true) => cell.wins += 1,
                Some(false) => cell.losses += 1,
                None => cell.draws += 1,
            }
            let stat = &mut stats[me];
            stat.games += 1;
            for (key, value) in &outcome.stats {
                *stat.totals.entry(key.clone()).or_default() += value;
            }
        }
    }
    let fit = ratings::fit(n, &scores);
    for (i, row) in rows.iter_mut().enumerate() {
        row.score_pct = if row.games == 0 {
            0.0
        } else {
            100.0 * row.points / f64::from(row.games)
        };
        row.elo = fit.elo[i];
        row.elo_ci95 = fit.ci95[i];
    }
    // Best first: rating, then points, then name (stable and total).
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        rows[b]
            .elo
            .total_cmp(&rows[a].elo)
            .then(rows[b].points.total_cmp(&rows[a].points))
            .then(rows[a].bot.cmp(&rows[b].bot))
    });
    for pos in 0..order.len().saturating_sub(1) {
        let (a, b) = (order[pos], order[pos + 1]);
        // Head-to-head decisive games are the direct evidence; without any, use all games
        // (wins and losses against everyone) as the cruder evidence.
        let (wins, losses) = matrix[a][b].map_or((0, 0), |c| (c.wins, c.losses));
        rows[a].los_next = Some(if wins + losses > 0 {
            ratings::likelihood_of_superiority(f64::from(wins), f64::from(losses))
        } else {
            let w = f64::from(rows[a].wins) + f64::from(rows[b].losses);
            let l = f64::from(rows[a].losses) + f64::from(rows[b].wins);
            ratings::likelihood_of_superiority(w, l)
        });
    }
    let rows_sorted = order.iter().map(|&i| rows[i].clone()).collect();
    let matrix_sorted = order
        .iter()
        .map(|&i| order.iter().map(|&j| matrix[i][j]).collect())
        .collect();
    let stats_sorted = order.iter().map(|&i| stats[i].clone()).collect();
    Standings {
        scope: scope.to_owned(),
        rows: rows_sorted,
        matrix: matrix_sorted,
        stats: stats_sorted,
    }
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Aligned text tables.
    Table,
    /// JSON.
    Json,
    /// CSV: one row per bot and scope, statistics as per-game averages.
    Csv,
    /// Markdown tables.
    Markdown,
    /// An SVG picture: each scope's ratings with their 95% error bars.
    Svg,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "table" => Ok(Format::Table),
            "json" => Ok(Format::Json),
            "csv" => Ok(Format::Csv),
            "md" | "markdown" => Ok(Format::Markdown),
            "svg" => Ok(Format::Svg),
            _ => Err(format!(
                "unknown format `{s}`; use table, json, csv, md or svg"
            )),
        }
    }
}

/// Render a report.
pub fn render(report: &Report, format: Format) -> String {
    match format {
        Format::Json => serde_json::to_string_pretty(report).expect("reports serialize") + "\n",
        Format::Csv => csv(report),
        Format::Table => tables(report, false),
        Format::Markdown => tables(report, true),
        Format::Svg => svg(report),
    }
}

/// A picture of the standings: per scope, each bot's Elo as a dot with its 95% error bar
/// on a shared axis, best at the top, with its score.
pub fn svg(report: &Report) -> String {
    const WIDTH: f64 = 900.0;
    const LABEL: f64 = 190.0;
    const RIGHT: f64 = 90.0;
    const ROW: f64 = 22.0;
    const HEAD: f64 = 34.0;
    let scopes: Vec<&Standings> = report.modes.iter().collect();
    let rows = scopes.iter().flat_map(|s| &s.rows);
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for row in rows {
        let ci = row.elo_ci95.unwrap_or(0.0);
        lo = lo.min(row.elo - ci);
        hi = hi.max(row.elo + ci);
    }
    if !lo.is_finite() {
        (lo, hi) = (1400.0, 1600.0);
    }
    let (lo, hi) = ((lo / 100.0).floor() * 100.0, (hi / 100.0).ceil() * 100.0);
    let plot = WIDTH - LABEL - RIGHT;
    let x = |elo: f64| LABEL + (elo - lo) / (hi - lo).max(1.0) * plot;
    let height: f64 = 40.0
        + scopes
            .iter()
            .map(|s| HEAD + ROW * s.rows.len() as f64 + 16.0)
            .sum::<f64>();
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"13\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"24\" font-size=\"17\" font-weight=\"bold\">{} — Elo with 95% error bars ({} of {} games)</text>\n",
        xml(&report.name),
        report.played,
        report.planned
    );
    let mut y = 40.0;
    for scope in scopes {
        let top = y + HEAD;
        let bottom = top + ROW * scope.rows.len() as f64;
        out += &format!(
            "<text x=\"10\" y=\"{:.0}\" font-weight=\"bold\">{}</text>\n",
            y + 20.0,
            xml(&scope.scope)
        );
        let mut tick = lo;
        while tick <= hi {
            let tx = x(tick);
            out += &format!(
                "<line x1=\"{tx:.1}\" y1=\"{top:.1}\" x2=\"{tx:.1}\" y2=\"{bottom:.1}\" stroke=\"#ddd\"/>\n\
                 <text x=\"{tx:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#888\" font-size=\"11\">{tick:.0}</text>\n",
                top - 4.0
            );
            tick += if hi - lo > 1000.0 { 200.0 } else { 100.0 };
        }
        for (i, row) in scope.rows.iter().enumerate() {
            let cy = top + ROW * i as f64 + ROW / 2.0;
            out += &format!(
                "<text x=\"{:.0}\" y=\"{:.1}\" text-anchor=\"end\">{}. {}</text>\n",
                LABEL - 10.0,
                cy + 4.0,
                i + 1,
                xml(&row.bot)
            );
            if let Some(ci) = row.elo_ci95 {
                out += &format!(
                    "<line x1=\"{:.1}\" y1=\"{cy:.1}\" x2=\"{:.1}\" y2=\"{cy:.1}\" stroke=\"#4a7fb5\" stroke-width=\"3\" stroke-linecap=\"round\" opacity=\"0.5\"/>\n",
                    x(row.elo - ci),
                    x(row.elo + ci)
                );
            }
            out += &format!(
                "<circle cx=\"{:.1}\" cy=\"{cy:.1}\" r=\"5\" fill=\"#1f4e79\"><title>{}: Elo {:.0}{} · score {:.1}% · {} games</title></circle>\n\
                 <text x=\"{:.0}\" y=\"{:.1}\" fill=\"#555\">{:.0} · {:.0}%</text>\n",
                x(row.elo),
                xml(&row.bot),
                row.elo,
                row.elo_ci95.map_or(String::new(), |c| format!(" ±{c:.0}")),
                row.score_pct,
                row.games,
                WIDTH - RIGHT + 8.0,
                cy + 4.0,
                row.elo,
                row.score_pct
            );
        }
        y = bottom + 16.0;
    }
    out + "</svg>\n"
}

fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn elo_text(row: &Row) -> (String, String) {
    (
        format!("{:.0}", row.elo),
        row.elo_ci95
            .map_or("—".to_owned(), |ci| format!("±{ci:.0}")),
    )
}

fn tables(report: &Report, markdown: bool) -> String {
    let mut out = String::new();
    let heading = |out: &mut String, text: &str| {
        if markdown {
            *out += &format!("\n## {text}\n\n");
        } else {
            *out += &format!("\n{text}\n");
        }
    };
    if markdown {
        out += &format!("# {}\n", report.name);
    } else {
        out += &format!("tournament {}\n", report.name);
    }
    out += &format!("\n{} of {} games played", report.played, report.planned);
    if !report.missing.is_empty() {
        out += &format!("; {} missing", report.missing.len());
    }
    out.push('\n');
    for standings in &report.modes {
        heading(&mut out, &format!("standings — {}", standings.scope));
        let mut rows = vec![
            [
                "#", "bot", "games", "W", "D", "L", "points", "score", "Elo", "95%", "LOS next",
                "faults", "timeouts", "forfeits", "invalid",
            ]
            .map(str::to_owned)
            .to_vec(),
        ];
        for (i, row) in standings.rows.iter().enumerate() {
            let (elo, ci) = elo_text(row);
            rows.push(vec![
                (i + 1).to_string(),
                row.bot.clone(),
                row.games.to_string(),
                row.wins.to_string(),
                row.draws.to_string(),
                row.losses.to_string(),
                format!("{:.1}", row.points),
                format!("{:.1}%", row.score_pct),
                elo,
                ci,
                row.los_next
                    .map_or(String::new(), |l| format!("{:.1}%", 100.0 * l)),
                row.faults.to_string(),
                row.timeouts.to_string(),
                row.forfeits.to_string(),
                row.invalid_actions.to_string(),
            ]);
        }
        out += &grid(&rows, 2, markdown);
        heading(
            &mut out,
            &format!(
                "results matrix — {} (row's points / games against column)",
                standings.scope
            ),
        );
        let mut rows = vec![
            std::iter::once(String::new())
                .chain((1..=standings.rows.len()).map(|i| format!("#{i}")))
                .collect(),
        ];
        for (i, row) in standings.rows.iter().enumerate() {
            let mut line = vec![format!("#{} {}", i + 1, row.bot)];
            for cell in &standings.matrix[i] {
                line.push(cell.map_or("·".to_owned(), |c| format!("{}/{}", c.points, c.games)));
            }
            rows.push(line);
        }
        out += &grid(&rows, 1, markdown);
        if !standings.stats.is_empty() {
            // Per-unit keys (grid's `hero<N>_<key>`) get a table of their own, one row per
            // bot and unit, so the team table stays readable.
            let (per_hero, keys): (Vec<String>, Vec<String>) = standings
                .stats
                .iter()
                .flat_map(|s| s.totals.keys().cloned())
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .partition(|key| hero_key(key).is_some());
            heading(
                &mut out,
                &format!("statistics — {} (total, per game)", standings.scope),
            );
            let mut rows = vec![
                std::iter::once("bot".to_owned())
                    .chain(keys.iter().cloned())
                    .collect::<Vec<_>>(),
            ];
            for stat in &standings.stats {
                let mut line = vec![stat.bot.clone()];
                for key in &keys {
                    let total = stat.totals.get(key).copied().unwrap_or(0);
                    let avg = if stat.games == 0 {
                        0.0
                    } else {
                        total as f64 / f64::from(stat.games)
                    };
                    line.push(format!("{total} ({avg:.1})"));
                }
                rows.push(line);
            }
            out += &grid(&rows, 1, markdown);
            if !per_hero.is_empty() {
                heading(
                    &mut out,
                    &format!(
                        "statistics per hero — {} (total, per game)",
                        standings.scope
                    ),
                );
                out += &grid(&hero_rows(standings, &per_hero), 2, markdown);
            }
        }
    }
    out
}

/// Aligned text, or a Markdown table. The first row is the header; the first
/// `left_columns` columns are left-aligned (names), the rest right-aligned (numbers).
pub fn grid(rows: &[Vec<String>], left_columns: usize, markdown: bool) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<String> = (0..columns)
            .map(|c| {
                let cell = row.get(c).map_or("", String::as_str);
                if c < left_columns {
                    format!("{cell:<w$}", w = widths[c])
                } else {
                    format!("{cell:>w$}", w = widths[c])
                }
            })
            .collect();
        if markdown {
            out += &format!("| {} |\n", cells.join(" | "));
            if i == 0 {
                out += &format!(
                    "|{}|\n",
                    widths
                        .iter()
                        .enumerate()
                        .map(|(c, w)| if c < left_columns {
                            format!(":{}-", "-".repeat(*w))
                        } else {
                            format!("-{}:", "-".repeat(*w))
                        })
                        .collect::<Vec<_>>()
                        .join("|")
                );
            }
        } else {
            out += cells.join("  ").trim_end();
            out.push('\n');
            if i == 0 {
                out += &widths
                    .iter()
                    .map(|w| "-".repeat(*w))
                    .collect::<Vec<_>>()
                    .join("  ");
                out.push('\n');
            }
        }
    }
    out
}

/// `hero<N>_<key>` as (N, key).
fn hero_key(key: &str) -> Option<(u32, &str)> {
    let rest = key.strip_prefix("hero")?;
    let (n, key) = rest.split_once('_')?;
    Some((n.parse().ok()?, key))
}

/// The per-hero statistics of `standings`: a row per bot and hero, a column per key.
fn hero_rows(standings: &Standings, per_hero: &[String]) -> Vec<Vec<String>> {
    let mut heroes = std::collections::BTreeSet::new();
    let mut keys = std::collections::BTreeSet::new();
    for (n, key) in per_hero.iter().filter_map(|k| hero_key(k)) {
        heroes.insert(n);
        keys.insert(key);
    }
    let mut rows = vec![
        ["bot".to_owned(), "hero".to_owned()]
            .into_iter()
            .chain(keys.iter().map(|k| (*k).to_owned()))
            .collect::<Vec<_>>(),
    ];
    for stat in &standings.stats {
        for n in &heroes {
            let mut line = vec![stat.bot.clone(), n.to_string()];
            for key in &keys {
                let total = stat
                    .totals
                    .get(&format!("hero{n}_{key}"))
                    .copied()
                    .unwrap_or(0);
                let avg = if stat.games == 0 {
                    0.0
                } else {
                    total as f64 / f64::from(stat.games)
                };
                line.push(format!("{total} ({avg:.1})"));
            }
            rows.push(line);
        }
    }
    rows
}

fn csv(report: &Report) -> String {
    let keys: Vec<String> = report
        .modes
        .iter()
        .flat_map(|m| m.stats.iter().flat_map(|s| s.totals.keys().cloned()))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut out = String::from(
        "scope,rank,bot,games,wins,draws,losses,points,score_pct,elo,elo_ci95,los_next,faults,timeouts,forfeits,invalid_actions",
    );
    for key in &keys {
        out += &format!(",avg_{key}");
    }
    out.push('\n');
    for standings in &report.modes {
        for (i, row) in standings.rows.iter().enumerate() {
            out += &format!(
                "{},{},{},{},{},{},{},{},{:.2},{:.1},{},{},{},{},{},{}",
                standings.scope,
                i + 1,
                csv_field(&row.bot),
                row.games,
                row.wins,
                row.draws,
                row.losses,
                row.points,
                row.score_pct,
                row.elo,
                row.elo_ci95.map_or(String::new(), |c| format!("{c:.1}")),
                row.los_next.map_or(String::new(), |l| format!("{l:.4}")),
                row.faults,
                row.timeouts,
                row.forfeits,
                row.invalid_actions
            );
            let stat = standings.stats.iter().find(|s| s.bot == row.bot);
            for key in &keys {
                out.push(',');
                if let Some(stat) = stat.filter(|s| s.games > 0)
                    && let Some(total) = stat.totals.get(key)
                {
                    out += &format!("{:.3}", *total as f64 / f64::from(stat.games));
                }
            }
            out.push('\n');
        }
    }
    out
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}
