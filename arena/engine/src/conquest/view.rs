//! Text of `conquest`: one line per event (the original game's messages where it had
//! one) and the battlefield drawn as the original game draws it:
//!
//! ```text
//!   X00 01 02 03 04X
//!  Y+--------------+
//! 00|  |  |WW|  |~~|
//! 01|  |H1|S1|  |  |
//! ```
//!
//! Two characters a tile: `H1`/`H2` home bases, `S1` `A2` `K1` `T2` armies (type letter and
//! player number), `~~` water, `WW` `FF` `GG` resources, blank plain ground.

use super::rules::player_name;
use super::{Event, Initial};
use arena_sdk::Seat;
use arena_sdk::conquest::{Army, Board, FIRST_YEAR, Resources, Survivor, Terrain};
use std::fmt::Write as _;

/// One line for an event.
pub fn describe(event: &Event) -> String {
    match event {
        Event::Turn {
            year,
            seat,
            resources,
        } => format!(
            "-Year {year}- +++{}'s Stage+++ [Your Asset: {resources}]",
            player_name(*seat)
        ),
        Event::Recruited { army, resources } => format!(
            "{}: You have recruited {} {} at {}. [Your Asset: {resources}]",
            player_name(army.owner),
            if army.kind == arena_sdk::conquest::Kind::Archer {
                "an"
            } else {
                "a"
            },
            army.kind.name(),
            army.pos
        ),
        Event::Moved { army, to } => format!(
            "{}: {} {} -> {}",
            player_name(army.owner),
            army.kind.name(),
            army.pos,
            to
        ),
        Event::Collected {
            owner,
            resource,
            amount,
            at,
            ..
        } => format!(
            "{}: Good. We collected {amount} {} at {at}.",
            player_name(*owner),
            resource.name()
        ),
        Event::Drowned { army, at } => format!(
            "{}: We lost the army {} due to your command! (water at {at})",
            player_name(army.owner),
            army.kind.name()
        ),
        Event::Fight {
            attacker,
            defender,
            at,
            survivor,
        } => {
            let who = player_name(attacker.owner);
            match survivor {
                Survivor::First => format!(
                    "{who}: Great! We defeated the enemy {} at {at}!",
                    defender.kind.name()
                ),
                Survivor::Second => format!(
                    "{who}: We lost the army {} due to your command! (the enemy {} at {at})",
                    attacker.kind.name(),
                    defender.kind.name()
                ),
                Survivor::Neither => format!(
                    "{who}: We destroyed the enemy {} with massive loss! (at {at})",
                    defender.kind.name()
                ),
            }
        }
        Event::Captured { army, home, .. } => format!(
            "{}: The army {} captured the enemy's capital at {home}.",
            player_name(army.owner),
            army.kind.name()
        ),
        Event::GameEnd {
            winner,
            reason,
            armies,
            resources,
        } => format!(
            "game over: {} ({reason}); armies {} to {}, resources {} to {}",
            match winner {
                Some(seat) => format!("{} wins", player_name(*seat)),
                None => "draw".to_owned(),
            },
            armies[0],
            armies[1],
            resources[0].total(),
            resources[1].total()
        ),
    }
}

/// The state rebuilt from the initial state and the events (for `picture`).
#[derive(Debug, Clone)]
pub struct View {
    pub(super) board: Board,
    pub(super) resources: [Resources; 2],
    pub(super) year: u32,
    pub(super) seat: Seat,
    pub(super) last_year: u32,
}

impl View {
    /// The state after `events`.
    pub fn replay(initial: &Initial, events: &[Event]) -> View {
        let mut board = Board::empty(initial.width, initial.height, initial.homes);
        for (list, terrain) in initial.terrain_lists() {
            for &p in list {
                board.set_terrain(p, terrain);
            }
        }
        let mut view = View {
            board,
            resources: [arena_sdk::conquest::START_RESOURCES; 2],
            year: FIRST_YEAR,
            seat: 0,
            last_year: FIRST_YEAR + initial.max_years.saturating_sub(1),
        };
        for event in events {
            view.apply(event);
        }
        view
    }

    pub(super) fn apply(&mut self, event: &Event) {
        match *event {
            Event::Turn {
                year,
                seat,
                resources,
            } => {
                self.year = year;
                self.seat = seat;
                self.set_resources(seat, resources);
            }
            Event::Recruited { army, resources } => {
                self.board.place(army);
                self.set_resources(army.owner, resources);
            }
            Event::Moved { army, to } => self.board.relocate(army.id, to),
            Event::Collected {
                owner,
                at,
                resources,
                ..
            } => {
                self.board.set_terrain(at, Terrain::Plain);
                self.set_resources(owner, resources);
            }
            Event::Drowned { army, .. } => {
                self.board.remove(army.id);
            }
            Event::Fight {
                attacker,
                defender,
                survivor,
                ..
            } => {
                if survivor != Survivor::First {
                    self.board.remove(attacker.id);
                }
                if survivor != Survivor::Second {
                    self.board.remove(defender.id);
                }
            }
            Event::Captured { army, home, .. } => {
                self.board.relocate(army.id, home);
            }
            Event::GameEnd { resources, .. } => self.resources = resources,
        }
    }

    fn set_resources(&mut self, seat: Seat, resources: Resources) {
        if let Some(slot) = self.resources.get_mut(usize::from(seat)) {
            *slot = resources;
        }
    }

    /// The battlefield in the original game's style, with the year and both players'
    /// assets.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "-Year {}- (last {})  {}'s turn",
            self.year,
            self.last_year,
            player_name(self.seat)
        );
        for seat in 0..2 {
            let _ = writeln!(
                out,
                "{} asset: {}",
                player_name(seat),
                self.resources[usize::from(seat)]
            );
        }
        out += &battlefield(&self.board);
        out
    }
}

/// The battlefield drawn as text, one event at a time.
impl crate::Sketch<Event> for View {
    fn apply(&mut self, event: &Event) {
        View::apply(self, event);
    }

    fn draw(&self) -> Option<String> {
        Some(self.render())
    }
}

/// The map as the original game prints it (after "Please check the battlefield,
/// commander.").
pub fn battlefield(board: &Board) -> String {
    let (w, h) = (board.width(), board.height());
    let mut out = String::new();
    let xs: Vec<String> = (0..w).map(|x| format!("{x:02}")).collect();
    let _ = writeln!(out, "  X{}X", xs.join(" "));
    let border = format!(" Y+{}+", "-".repeat(usize::from(w) * 3 - 1));
    let _ = writeln!(out, "{border}");
    for y in 0..h {
        let _ = write!(out, "{y:02}");
        for x in 0..w {
            let p = arena_sdk::conquest::Pos::new(x, y);
            out.push('|');
            out += &cell(board.army_at(p), board.terrain(p));
        }
        out += "|\n";
    }
    let _ = writeln!(out, "{border}");
    out
}

fn cell(army: Option<&Army>, terrain: Option<Terrain>) -> String {
    if let Some(a) = army {
        return format!("{}{}", a.kind.letter(), a.owner + 1);
    }
    match terrain {
        Some(Terrain::Home(seat)) => format!("H{}", seat + 1),
        Some(Terrain::Water) => "~~".to_owned(),
        Some(Terrain::Resource(r)) => format!("{0}{0}", r.letter()),
        _ => "  ".to_owned(),
    }
}
