//! A tournament as an HTML index: per mode the standings and the results matrix, then
//! every game (mode, seats, result, turns) with a link to its viewer page where there is
//! one. `tournament run --replays --html` writes [`page`] as `replays/index.html`, linking
//! each game's `game-NNNNNN.html`; the server shows [`body`] inside its own pages.
//!
//! Every name in it comes from a tournament file or a bot and is escaped.

use crate::report::{Report, Standings};
use crate::results::GameLine;
use std::fmt::Write;

/// The standalone page: [`body`] with its stylesheet inline, no script, nothing loaded.
pub fn page(
    report: &Report,
    games: &[GameLine],
    link: &dyn Fn(&GameLine) -> Option<String>,
) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{name} · Bot Arena tournament</title><style>{STYLE}</style></head>\
         <body><main><h1>{name}</h1>\n{body}</main></body></html>\n",
        name = escape(&report.name),
        body = body(report, games, link),
    )
}

const STYLE: &str = "body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1f2937; } \
main { max-width: 1100px; margin: 0 auto; padding: 12px 16px 32px; } \
h1 { font-size: 20px; overflow-wrap: anywhere; } h2 { font-size: 16px; margin-top: 24px; } \
table { border-collapse: collapse; margin: 6px 0; display: block; max-width: 100%; overflow-x: auto; } \
th, td { padding: 3px 8px; border-bottom: 1px solid #d1d5db; text-align: left; white-space: nowrap; } \
th { background: #f3f4f6; } td.n { text-align: right; font-variant-numeric: tabular-nums; } \
.win { color: #15803d; font-weight: 600; } a { color: #1d4ed8; }";

/// The index as HTML elements (no `<html>`): a summary line, per mode the standings and
/// the matrix, and the table of games; `link` gives a game's page, if it has one.
pub fn body(
    report: &Report,
    games: &[GameLine],
    link: &dyn Fn(&GameLine) -> Option<String>,
) -> String {
    let mut html = format!(
        "<p class=\"summary\">{} of {} planned games played{}.</p>\n",
        report.played,
        report.planned,
        if report.missing.is_empty() {
            String::new()
        } else {
            format!(", {} missing", report.missing.len())
        }
    );
    for standings in &report.modes {
        mode_tables(&mut html, standings);
    }
    let _ = write!(
        html,
        "<h2>Games</h2>\n<table class=\"games\"><thead><tr><th>game</th><th>mode</th><th>seat 0</th>\
         <th>seat 1</th><th>result</th><th>turns</th><th>seed</th><th>viewer</th></tr></thead><tbody>\n"
    );
    for game in games {
        let result = match game.winner {
            Some(w) => format!("{} wins", escape(&game.bots[usize::from(w)])),
            None => "draw".to_owned(),
        };
        let seat = |s: usize| {
            let class = if game.winner == Some(s as u8) {
                " class=\"win\""
            } else {
                ""
            };
            format!("<td{class}>{}</td>", escape(&game.bots[s]))
        };
        let viewer = link(game).map_or(String::new(), |href| {
            format!("<a href=\"{}\">watch</a>", escape(&href))
        });
        let _ = writeln!(
            html,
            "<tr data-game=\"{n}\"><td class=\"n\">{n}</td><td>{mode}</td>{s0}{s1}<td title=\"{reason}\">{result}</td>\
             <td class=\"n\">{turns}</td><td class=\"n\">{seed}</td><td>{viewer}</td></tr>",
            n = game.game,
            mode = game.mode,
            s0 = seat(0),
            s1 = seat(1),
            reason = escape(&game.reason),
            turns = game.turns,
            seed = game.seed,
        );
    }
    html + "</tbody></table>\n"
}

fn mode_tables(html: &mut String, standings: &Standings) {
    let _ = write!(
        html,
        "<h2>{mode}</h2>\n<table class=\"standings\" data-mode=\"{mode}\"><thead><tr><th>#</th><th>bot</th>\
         <th>games</th><th>W</th><th>D</th><th>L</th><th>points</th><th>score</th><th>Elo</th>\
         <th>faults</th><th>rejected</th></tr></thead><tbody>\n",
        mode = escape(&standings.scope)
    );
    for (rank, row) in standings.rows.iter().enumerate() {
        let elo = match row.elo_ci95 {
            Some(ci) => format!("{:.0} ± {ci:.0}", row.elo),
            None => format!("{:.0}", row.elo),
        };
        let _ = writeln!(
            html,
            "<tr><td class=\"n\">{}</td><td class=\"bot\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{:.1}%</td>\
             <td class=\"n\">{elo}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            rank + 1,
            escape(&row.bot),
            row.games,
            row.wins,
            row.draws,
            row.losses,
            row.points,
            row.score_pct,
            row.faults,
            row.invalid_actions,
        );
    }
    html.push_str("</tbody></table>\n");
    // The matrix: the row bot's points against each column bot, in standings order.
    let _ = write!(
        html,
        "<table class=\"matrix\" data-mode=\"{}\"><thead><tr><th>points against</th>",
        escape(&standings.scope)
    );
    for (i, _) in standings.rows.iter().enumerate() {
        let _ = write!(html, "<th class=\"n\">{}</th>", i + 1);
    }
    html.push_str("</tr></thead><tbody>\n");
    for (i, row) in standings.rows.iter().enumerate() {
        let _ = write!(html, "<tr><th>{} {}</th>", i + 1, escape(&row.bot));
        for cell in &standings.matrix[i] {
            match cell {
                Some(c) => {
                    let _ = write!(
                        html,
                        "<td class=\"n\" title=\"{}–{}–{} in {} games\">{}/{}</td>",
                        c.wins, c.draws, c.losses, c.games, c.points, c.games
                    );
                }
                None => html.push_str("<td class=\"n\">·</td>"),
            }
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</tbody></table>\n");
}

use arena_viewer::escape_html as escape;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report;
    use arena_engine::SeatOutcome;

    fn line(game: u32, bots: [&str; 2], winner: Option<u8>) -> GameLine {
        GameLine {
            fingerprint: "f".to_owned(),
            game,
            mode: arena_sdk::Mode::Battle,
            seed: u64::MAX,
            bots: bots.map(str::to_owned),
            sha256: [None, None],
            winner,
            reason: "a <reason>".to_owned(),
            turns: 12,
            seats: [(); 2].map(|_| SeatOutcome {
                stats: Default::default(),
                faults: 0,
                fault_kinds: Default::default(),
                invalid_actions: 0,
                fuel: 0,
                forfeited: false,
            }),
        }
    }

    #[test]
    fn the_index_lists_every_game_with_its_link() {
        let games = vec![line(0, ["a", "b"], Some(0)), line(1, ["b", "a"], None)];
        let report = report::build("cup", &[0, 1, 2], &games);
        let html = page(&report, &games, &|g| {
            (g.game == 0).then(|| format!("game-{:06}.html", g.game))
        });
        assert_eq!(html.matches("<tr data-game=").count(), 2);
        assert_eq!(html.matches("href=\"game-000000.html\"").count(), 1);
        assert!(html.contains("2 of 3 planned games played, 1 missing."));
        assert!(html.contains(">18446744073709551615<"), "the exact seed");
        // a's points against b: a win and a draw.
        assert!(
            html.contains("title=\"1–1–0 in 2 games\">1.5/2</td>"),
            "{html}"
        );
    }

    #[test]
    fn names_in_the_index_are_text() {
        let games = vec![line(0, ["<b>a</b>", "b"], Some(0))];
        let report = report::build("cup & <co>", &[0], &games);
        let html = page(&report, &games, &|_| None);
        assert!(html.contains("<title>cup &amp; &lt;co&gt; · Bot Arena tournament</title>"));
        assert!(html.contains("&lt;b&gt;a&lt;/b&gt; wins"));
        assert!(!html.contains("<b>a</b>") && !html.contains("<reason>"));
    }
}
