//! A person's input in conquest: the original game's two stages of orders (recruit,
//! then move), with `DIS` and `PRIS`.

use super::rules::MAX_RECRUITS;
use super::view::battlefield;
use crate::human::{Dialogue, Interactive, Step};
use arena_sdk::conquest::{
    Army, ArmyId, Board, Conquest, Kind, Move, MoveError, Observation, Orders, Pos, Recruit,
    RecruitError, Resources, SetupChoice, SetupRequest,
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
            board: Board::new(obs),
            stock: obs.resources,
            moved: Vec::new(),
            next_id: obs.armies.iter().map(|a| a.id + 1).max().unwrap_or(0),
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
    /// The board and the resources as the orders typed so far leave them: each order is
    /// checked as typed, against the state the engine will carry it out on.
    board: Board,
    stock: Resources,
    /// The armies moved by the orders typed so far.
    moved: Vec<ArmyId>,
    /// The id a recruit typed now gets on `board` (the engine numbers them alike).
    next_id: ArmyId,
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

impl Stages<'_> {
    /// Check a recruit order as the engine will, and carry it out on the dialogue's board.
    fn recruit(&mut self, kind: Kind, at: Pos) -> Result<(), RecruitError> {
        let seat = self.obs.seat;
        self.board.check_recruit(seat, self.stock, kind, at)?;
        self.stock = self.stock.pay(kind.price()).unwrap_or_default();
        self.board.place(Army {
            id: self.next_id,
            owner: seat,
            kind,
            pos: at,
        });
        self.next_id += 1;
        self.orders.recruit.push(Recruit { kind, at });
        Ok(())
    }

    /// Check a move order as the engine will, and carry it out on the dialogue's board
    /// (its fights and drownings included).
    fn move_army(&mut self, from: Pos, to: Pos) -> Result<(), MoveError> {
        let army = match self.board.army_at(from) {
            Some(army) if army.owner == self.obs.seat => *army,
            _ => return Err(MoveError::NoArmy),
        };
        if self.moved.contains(&army.id) {
            return Err(MoveError::AlreadyMoved);
        }
        self.board.apply_move(&army, to)?;
        self.moved.push(army.id);
        self.orders.moves.push(Move { from, to });
        Ok(())
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
                    (Some(_), Ok(_)) if self.orders.recruit.len() >= MAX_RECRUITS => Some(format!(
                        "at most {MAX_RECRUITS} recruits a turn: NO ends this stage"
                    )),
                    (Some(&kind), Ok(at)) => match self.recruit(kind, at) {
                        Ok(()) => return self.ask(Vec::new()),
                        Err(error) => Some(error.message().to_owned()),
                    },
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
                    (Ok(from), Ok(to)) => match self.move_army(from, to) {
                        Ok(()) => return self.ask(Vec::new()),
                        Err(error) => Some(format!("{} ({})", MoveError::MESSAGE, error.detail())),
                    },
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
        let lines = [
            "S 99 99", "x", "DIS", "S 3 3", "S 2 1", "NO", "0 0 1 0", "2 1 3 1", "2 1 2 2", "0 0",
            "NO",
        ];
        let (answer, said) = typed(dialogue.as_mut(), &lines);
        let orders = answer.expect("the turn ends at the second NO");
        assert_eq!(
            orders.recruit,
            [Recruit {
                kind: Kind::Spearman,
                at: Pos { x: 2, y: 1 }
            }],
            "the off-map recruit is refused at the prompt"
        );
        assert_eq!(
            orders.moves,
            [Move {
                from: Pos { x: 2, y: 1 },
                to: Pos { x: 3, y: 1 }
            }],
            "each move is checked as typed, after the orders before it"
        );
        let count = |text: &str| said.iter().filter(|l| *l == text).count();
        assert_eq!(count("Sorry, invalid input. Try again."), 1);
        // Off the map, and on the map but not next to the home base.
        assert_eq!(count(RecruitError::BadPlace.message()), 2);
        assert_eq!(count("Invalid move. Try again."), 1);
        assert_eq!(
            count("Invalid move. Try again. (no army of yours stands there)"),
            2,
            "nothing at (0,0); the spearman is no longer at (2,1)"
        );
        // The battlefield at the start and once more for DIS.
        assert_eq!(count(&Conquest::show(&obs, Some(&setup))), 2);
    }
}
