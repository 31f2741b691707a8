//! A person's input in grid: a direction (or `stay`) for each hero's turn.

use crate::human::Interactive;
use arena_sdk::grid::{Action, Grid, Observation, Pos, SetupChoice, SetupRequest};

impl Interactive for Grid {
    const HOW_TO_PLAY: &'static str = include_str!("how-to-play.txt");
    const HINT: &'static str = "n/e/s/w/stay";
    const INTRO: &'static str = "a default game is 1250 hero turns, 625 of them yours; for a \
        shorter one: --map tournaments/maps/arena-8x8.map --rule heroes_per_team=2 --rule \
        turn_limit=120 (or type `auto 50` to let a built-in walk for a while)";
    fn setup_prompt(_: &SetupRequest) -> Option<String> {
        None
    }

    fn parse_setup(_: &SetupRequest, _: &str) -> Result<SetupChoice, String> {
        Ok(SetupChoice {})
    }

    fn show(obs: &Observation, setup: Option<&SetupRequest>) -> String {
        let Some(setup) = setup else {
            return format!("turn {}/{}", obs.turn, obs.turn_limit);
        };
        let mut rows: Vec<Vec<char>> =
            vec![vec!['.'; usize::from(setup.width)]; usize::from(setup.height)];
        let mut put = |p: Pos, c: char| {
            if let Some(cell) = rows
                .get_mut(usize::from(p.y))
                .and_then(|r| r.get_mut(usize::from(p.x)))
            {
                *cell = c;
            }
        };
        for &p in &setup.walls {
            put(p, '#');
        }
        for &p in &setup.wells {
            put(p, '+');
        }
        for (i, &p) in setup.mines.iter().enumerate() {
            let owner = obs.mines.get(i).and_then(|m| m.team);
            put(
                p,
                match owner {
                    Some(t) if t == obs.team => 'M',
                    Some(_) => 'm',
                    None => '$',
                },
            );
        }
        for &p in &obs.graves {
            put(p, 'x');
        }
        for h in obs.heroes.iter().filter(|h| !h.dead) {
            let c = char::from_digit(u32::from(h.id) % 10, 10).unwrap_or('?');
            put(h.pos, if h.id == obs.acting { '@' } else { c });
        }
        let mut text = format!(
            "turn {}/{}: you move hero {} (@); # wall, + well, $ free mine, M yours, m theirs",
            obs.turn, obs.turn_limit, obs.acting
        );
        for row in rows {
            text.push('\n');
            text.extend(row);
        }
        for h in &obs.heroes {
            let side = if h.team == obs.team { "yours" } else { "enemy" };
            let state = if h.dead {
                "dead".to_owned()
            } else {
                format!("health {}", h.health)
            };
            text += &format!("\n  hero {} ({side}) at {}: {state}", h.id, h.pos);
        }
        text
    }

    fn choices(_: &Observation) -> Vec<(String, Action)> {
        Action::ALL
            .iter()
            .map(|a| (format!("{a:?}").to_lowercase(), *a))
            .collect()
    }

    fn parse(_: &Observation, line: &str) -> Result<Action, String> {
        Ok(match line.to_lowercase().as_str() {
            "n" | "north" | "\u{1b}[a" => Action::North,
            "e" | "east" | "\u{1b}[c" => Action::East,
            "s" | "south" | "\u{1b}[b" => Action::South,
            "w" | "west" | "\u{1b}[d" => Action::West,
            "stay" | "x" | "" => Action::Stay,
            _ => return Err(format!("`{line}`: type n, e, s, w or stay")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::human::{first_requests, typed};

    #[test]
    fn directions_by_letter_or_word_and_anything_else_is_asked_again() {
        let (setup, obs) = first_requests::<Grid>(2);
        for (line, action) in [
            ("n", Action::North),
            ("EAST", Action::East),
            ("stay", Action::Stay),
        ] {
            assert_eq!(Grid::parse(&obs, line), Ok(action), "{line}");
        }
        let mut dialogue = Grid::dialogue(&obs, Some(&setup));
        let (answer, said) = typed(dialogue.as_mut(), &["q", "s"]);
        assert_eq!(answer, Some(Action::South));
        assert!(
            said.contains(&"invalid: `q`: type n, e, s, w or stay; try again".to_owned()),
            "{said:?}"
        );
    }
}
