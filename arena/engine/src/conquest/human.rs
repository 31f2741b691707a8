//! A person's input in conquest: the original game's two stages of orders (recruit,
//! then move), with `DIS` and `PRIS`.

use super::view::battlefield;
use crate::human::{Dialogue, Interactive, Step};
use arena_sdk::conquest::{
    Board, Conquest, Kind, Move, Observation, Orders, Pos, Recruit, RecruitError, SetupChoice,
    SetupRequest,
};

fn prices(obs: &Observation) -> String {
    let mut text = format!("your resources: {}; prices:", obs.resources);
    for p in &obs.prices {
        text += &format!(" {} ({}) {};", p.kind.letter(), p.kind.name(), p.cost);
    }
    text
}

fn pos(x: &str, y: &str, obs: &Observation) -> Result<Pos, String> {
    let (Ok(x), Ok(y)) = (x.parse::<u8>(), y.parse::<u8>()) else {
        return Err("Sorry, invalid input. Try again.".into());
    };
    if x >= obs.width || y >= obs.height {
        return Err("Sorry, invalid input. Try again.".into());
    }
    Ok(Pos { x, y })
}

impl Interactive for Conquest {
    const HOW_TO_PLAY: &'static str = include_str!("how-to-play.txt");
    const HINT: &'static str = "the recruit/move orders, DIS, PRIS";

    fn setup_prompt(_: &SetupRequest) -> Option<String> {
        None
    }

    fn parse_setup(_: &SetupRequest, _: &str) -> Result<SetupChoice, String> {
        Ok(SetupChoice {})
    }

    fn show(obs: &Observation, _: Option<&SetupRequest>) -> String {
        let mut text = format!(
            "Year {} (last {}), you are Player {}\n",
            obs.year,
            obs.last_year,
            obs.seat + 1
        );
        text += &battlefield(&Board::new(obs));
        for reason in &obs.last_rejected {
            text += &format!("\nskipped last turn: {reason}");
        }
        text
    }

    fn choices(_: &Observation, _: Option<&SetupRequest>) -> Vec<(String, Orders)> {
        vec![("pass".to_owned(), Orders::default())]
    }

    fn parse(_: &Observation, _: Option<&SetupRequest>, line: &str) -> Result<Orders, String> {
        Err(format!(
            "`{line}`: give orders at the recruit and move prompts"
        ))
    }

    /// The original's two stages: recruit (`S x y` …, `NO` ends), then moves
    /// (`x0 y0 x1 y1`, `NO` ends); `DIS` shows the battlefield, `PRIS` the prices.
    fn dialogue<'a>(
        obs: &'a Observation,
        setup: Option<&'a SetupRequest>,
    ) -> Box<dyn Dialogue<Orders> + 'a> {
        Box::new(Stages {
            obs,
            setup,
            moving: false,
            orders: Orders::default(),
        })
    }
}

const RECRUIT_PROMPT: &str = "recruit `S|A|K|T x y`, DIS, PRIS, or NO to end this stage";
const MOVE_PROMPT: &str = "move `x0 y0 x1 y1`, DIS, PRIS, or NO to end this turn";

/// The recruit stage, then the move stage, gathering the orders.
struct Stages<'a> {
    obs: &'a Observation,
    setup: Option<&'a SetupRequest>,
    moving: bool,
    orders: Orders,
}

impl Stages<'_> {
    fn ask(&self, say: Vec<String>) -> Step<Orders> {
        let prompt = if self.moving {
            MOVE_PROMPT
        } else {
            RECRUIT_PROMPT
        };
        Step::Ask {
            say,
            prompt: prompt.to_owned(),
        }
    }
}

impl Dialogue<Orders> for Stages<'_> {
    fn step(&mut self, line: Option<&str>) -> Step<Orders> {
        let Some(line) = line else {
            return self.ask(vec![Conquest::show(self.obs, self.setup), prices(self.obs)]);
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let said = match words.as_slice() {
            [] => None,
            [w] if w.eq_ignore_ascii_case("no") => None,
            [w] if w.eq_ignore_ascii_case("dis") => Some(Conquest::show(self.obs, self.setup)),
            [w] if w.eq_ignore_ascii_case("pris") => Some(prices(self.obs)),
            [k, x, y] if !self.moving => {
                let kind = Kind::ALL
                    .iter()
                    .find(|kind| k.eq_ignore_ascii_case(&kind.letter().to_string()));
                let whole = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
                match (kind, pos(x, y, self.obs)) {
                    (Some(&kind), Ok(at)) => {
                        self.orders.recruit.push(Recruit { kind, at });
                        return self.ask(Vec::new());
                    }
                    (None, _) => Some("Sorry, invalid input. Try again.".to_owned()),
                    // Whole numbers off the map: not next to the home, as the original says.
                    (_, Err(_)) if whole(x) && whole(y) => {
                        Some(RecruitError::BadPlace.message().to_owned())
                    }
                    (_, Err(e)) => Some(e),
                }
            }
            [x0, y0, x1, y1] if self.moving => {
                match (pos(x0, y0, self.obs), pos(x1, y1, self.obs)) {
                    (Ok(from), Ok(to)) => {
                        self.orders.moves.push(Move { from, to });
                        return self.ask(Vec::new());
                    }
                    _ => Some("Invalid move. Try again.".to_owned()),
                }
            }
            _ if self.moving => Some("Invalid move. Try again.".to_owned()),
            _ => Some("Sorry, invalid input. Try again.".to_owned()),
        };
        match said {
            Some(text) => self.ask(vec![text]),
            // `NO` (or an empty line) ends the stage; the move stage ends the turn.
            None if self.moving => Step::Answer(std::mem::take(&mut self.orders)),
            None => {
                self.moving = true;
                self.ask(Vec::new())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::human::{first_requests, typed};

    #[test]
    fn two_stages_of_orders_end_with_no() {
        let (setup, obs) = first_requests::<Conquest>(6);
        let mut dialogue = Conquest::dialogue(&obs, Some(&setup));
        let (answer, said) = typed(dialogue.as_mut(), &["NO", "no"]);
        assert_eq!(answer, Some(Orders::default()));
        assert_eq!(
            said.last().map(String::as_str),
            Some(&*format!("> {MOVE_PROMPT}"))
        );

        let mut dialogue = Conquest::dialogue(&obs, Some(&setup));
        let lines = ["S 99 99", "x", "DIS", "NO", "0 0 1 0", "0 0", "NO"];
        let (answer, said) = typed(dialogue.as_mut(), &lines);
        let orders = answer.expect("the turn ends at the second NO");
        assert!(
            orders.recruit.is_empty(),
            "the off-map recruit is refused at the prompt"
        );
        assert_eq!(
            orders.moves,
            [Move {
                from: Pos { x: 0, y: 0 },
                to: Pos { x: 1, y: 0 }
            }]
        );
        let count = |text: &str| said.iter().filter(|l| *l == text).count();
        assert_eq!(count("Sorry, invalid input. Try again."), 1);
        assert_eq!(count(RecruitError::BadPlace.message()), 1);
        assert_eq!(count("Invalid move. Try again."), 1);
        // The battlefield at the start and once more for DIS.
        assert_eq!(count(&Conquest::show(&obs, Some(&setup))), 2);
    }
}
