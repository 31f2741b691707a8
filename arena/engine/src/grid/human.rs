//! A person's input in grid: a direction (or `stay`) for each hero's turn.

use crate::human::Interactive;
use arena_sdk::grid::{Action, Grid, Observation, SetupChoice, SetupRequest};

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

    const PICTURE_AT_PROMPT: bool = true;

    /// Which hero moves (the picture has the board, its coordinates and the score).
    fn show(obs: &Observation, _: Option<&SetupRequest>) -> String {
        let me = obs.me();
        format!(
            "turn {}/{}: you move hero {} of team {} at {}, health {}",
            obs.turn,
            obs.turn_limit,
            me.id,
            if me.team == 0 { 'A' } else { 'B' },
            me.pos,
            me.health
        )
    }

    /// The moves the engine takes without a rejection: `stay` and the directions that
    /// stay on the board.
    fn choices(obs: &Observation, setup: Option<&SetupRequest>) -> Vec<(String, Action)> {
        Action::ALL
            .iter()
            .filter(|a| refused(obs, setup, **a).is_none())
            .map(|a| (format!("{a:?}").to_lowercase(), *a))
            .collect()
    }

    fn parse(
        obs: &Observation,
        setup: Option<&SetupRequest>,
        line: &str,
    ) -> Result<Action, String> {
        let action = match line.to_lowercase().as_str() {
            "n" | "north" | "\u{1b}[a" => Action::North,
            "e" | "east" | "\u{1b}[c" => Action::East,
            "s" | "south" | "\u{1b}[b" => Action::South,
            "w" | "west" | "\u{1b}[d" => Action::West,
            "stay" | "x" => Action::Stay,
            _ => return Err(format!("`{line}`: type n, e, s, w or stay")),
        };
        match refused(obs, setup, action) {
            Some(reason) => Err(reason),
            None => Ok(action),
        }
    }
}

/// The engine's reason to reject `action` for the acting hero (a move off the board).
fn refused(obs: &Observation, setup: Option<&SetupRequest>, action: Action) -> Option<String> {
    let setup = setup?;
    super::play::off_board(obs.me(), action, setup.width, setup.height)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::human::{first_requests, typed};
    use arena_sdk::grid::Pos;

    #[test]
    fn at_the_east_edge_east_is_neither_offered_nor_taken() {
        let (setup, mut obs) = first_requests::<Grid>(2);
        let acting = usize::from(obs.acting);
        obs.heroes[acting].pos = Pos::new(setup.width - 1, 3);
        let offered: Vec<String> = Grid::choices(&obs, Some(&setup))
            .into_iter()
            .map(|(text, _)| text)
            .collect();
        assert_eq!(offered, ["north", "south", "west", "stay"]);
        let error = Grid::parse(&obs, Some(&setup), "e").unwrap_err();
        assert_eq!(
            error,
            format!(
                "hero {} at ({},3) cannot go east: that is off the {}x{} board; it stays",
                obs.acting,
                setup.width - 1,
                setup.width,
                setup.height
            )
        );
        // The dialogue asks again, with the engine's reason; nothing is answered.
        let mut dialogue = Grid::dialogue(&obs, Some(&setup));
        let (answer, said) = typed(dialogue.as_mut(), &["e", "w"]);
        assert_eq!(answer, Some(Action::West));
        assert!(
            said.iter().any(|l| l.contains("cannot go east")),
            "{said:?}"
        );
    }

    #[test]
    fn directions_by_letter_or_word_and_anything_else_is_asked_again() {
        let (setup, obs) = first_requests::<Grid>(2);
        for (line, action) in [
            ("n", Action::North),
            ("EAST", Action::East),
            ("stay", Action::Stay),
        ] {
            assert_eq!(Grid::parse(&obs, None, line), Ok(action), "{line}");
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
