//! Text of `conquest`: one line per event (the original game's messages where it had
//! one) and the battlefield of a [`State`] drawn as the original game draws it:
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
use super::{Event, State};
use arena_sdk::conquest::{Army, Board, Survivor, Terrain};
use std::fmt::Write as _;

/// One line for an event.
pub fn describe(event: &Event) -> String {
    describe_as(event, None)
}

/// One line for an event as player `viewer` may see it: the other player's resources
/// are left out.
pub fn describe_seen(event: &Event, viewer: arena_sdk::Seat) -> String {
    describe_as(event, Some(viewer))
}

fn describe_as(event: &Event, viewer: Option<arena_sdk::Seat>) -> String {
    // `[Your Asset: …]`, where the line's player may see it.
    let asset = |seat: arena_sdk::Seat, resources: &dyn std::fmt::Display| {
        if viewer.is_none_or(|v| v == seat) {
            format!(" [Your Asset: {resources}]")
        } else {
            String::new()
        }
    };
    match event {
        Event::Turn {
            year,
            seat,
            resources,
        } => format!(
            "-Year {year}- +++{}'s Stage+++{}",
            player_name(*seat),
            asset(*seat, resources)
        ),
        Event::Recruited { army, resources } => format!(
            "{}: You have recruited {} {} at {}.{}",
            player_name(army.owner),
            if army.kind == arena_sdk::conquest::Kind::Archer {
                "an"
            } else {
                "a"
            },
            army.kind.name(),
            army.pos,
            asset(army.owner, resources)
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

impl State {
    /// The battlefield in the original game's style, with the year and both players'
    /// assets.
    pub fn picture(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "-Year {}- (last {})  {}'s turn",
            self.year(),
            self.last_year(),
            player_name(self.seat())
        );
        let resources = self.resources();
        for seat in 0..2 {
            let _ = writeln!(
                out,
                "{} asset: {}",
                player_name(seat),
                resources[usize::from(seat)]
            );
        }
        out += &battlefield(self.board());
        out
    }
}

/// The battlefield drawn as text, one event at a time: it folds the same
/// [`State::apply`] the rules change the match with.
impl crate::Sketch<Event> for State {
    fn apply(&mut self, event: &Event) {
        State::apply(self, event);
    }

    fn draw(&self) -> Option<String> {
        Some(self.picture())
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
