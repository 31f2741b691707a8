//! Mode `grid` — Javascript Battle; the rules as implemented, with every choice the original
//! leaves open, are in docs/rules/grid.md.
//!
//! Heroes act one at a time in id order (even ids team 0, odd ids team 1, so the teams
//! alternate), dead heroes being skipped. A hero's turn: it earns one diamond per mine it
//! owns, its bot answers a direction, and [`State::resolve`] applies the document's steps
//! 4–12 in order. The game ends when a team is eliminated or after `turn_limit` hero turns
//! (most diamonds wins; a tie is a draw).
//!
//! The files: `rules.rs` holds the rules' limits, the validated [`Setup`] and the
//! statistics; `map.rs` the map format and hero placement; `play.rs` the [`State`], changed
//! only by [`State::apply`]ing events, the document's turn steps that decide them, and the
//! match loop; `view.rs` the event text and the terminal picture of the state; `frames.rs`
//! the browser viewer's frames of the same state; `tests.rs` the tests.

mod frames;
mod human;
pub mod map;
mod play;
mod rules;
mod view;

#[cfg(test)]
mod tests;

use crate::{Finish, Ruleset, Table};
use arena_sdk::Seat;
use arena_sdk::grid::{Direction, Grid, Hero, HeroId, MineId, Pos, Rules};
use serde::{Deserialize, Serialize};

pub use map::{Map, MapError, MapErrorKind, parse_map};
pub use play::State;
pub use rules::{MAX_HEROES_PER_TEAM, MAX_TURN_LIMIT, STAT_KEYS, Setup, Tally, team_of};
pub use view::{label, team_letter};

/// Why a move went nowhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Blocker {
    /// The tile is off the board (the answer is also rejected).
    OffBoard,
    /// The tile is impassable.
    Wall,
}

/// Everything that happens in a `grid` match, with its numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Hero turn number `turn` (from 0) begins.
    HeroTurn {
        /// Hero turns played before this one.
        turn: u32,
        /// The acting hero.
        hero: HeroId,
    },
    /// The acting hero earned one diamond per mine it owns.
    DiamondsEarned {
        /// The acting hero.
        hero: HeroId,
        /// Diamonds earned now.
        amount: u32,
        /// Its team's total after this.
        team_total: u32,
    },
    /// The hero stayed where it was.
    Stayed {
        /// The acting hero.
        hero: HeroId,
    },
    /// The hero walked onto a tile.
    Moved {
        /// The acting hero.
        hero: HeroId,
        /// Where it was.
        from: Pos,
        /// Where it is now.
        to: Pos,
    },
    /// The hero tried to walk off the board or into an impassable tile.
    Blocked {
        /// The acting hero.
        hero: HeroId,
        /// Where it tried to go.
        direction: Direction,
        /// What stopped it.
        by: Blocker,
    },
    /// The hero walked onto a grave and robbed it (the grave is gone).
    GraveRobbed {
        /// The acting hero.
        hero: HeroId,
        /// The grave's tile.
        at: Pos,
        /// Whose grave it was.
        grave_of: HeroId,
    },
    /// The hero walked into a mine it already owns: nothing happens.
    MineAlreadyOwned {
        /// The acting hero.
        hero: HeroId,
        /// The mine.
        mine: MineId,
    },
    /// The hero captured a mine and took the guardians' damage.
    MineCaptured {
        /// The acting hero.
        hero: HeroId,
        /// The mine.
        mine: MineId,
        /// Its previous owner, if any (teammates included).
        from: Option<HeroId>,
        /// Damage taken.
        damage: u32,
        /// The hero's health after.
        health: u32,
    },
    /// The guardians' damage killed the hero; the mine keeps its owner.
    MineCaptureFailed {
        /// The acting hero.
        hero: HeroId,
        /// The mine.
        mine: MineId,
        /// Damage taken.
        damage: u32,
    },
    /// The hero drank from a health well.
    WellDrink {
        /// The acting hero.
        hero: HeroId,
        /// Health gained (after the cap of 100).
        amount: u32,
        /// Health after.
        health: u32,
    },
    /// The hero walked into an enemy and stabbed it.
    Stab {
        /// The acting hero.
        hero: HeroId,
        /// The enemy.
        target: HeroId,
        /// Damage dealt (at most the target's health).
        damage: u32,
        /// The target's health after.
        health: u32,
    },
    /// The hero walked into a teammate and healed it.
    HealFriend {
        /// The acting hero.
        hero: HeroId,
        /// The teammate.
        target: HeroId,
        /// Health given (after the cap of 100).
        amount: u32,
        /// The teammate's health after.
        health: u32,
    },
    /// End of the hero's turn: damage to one adjacent enemy.
    AdjacentDamage {
        /// The acting hero.
        hero: HeroId,
        /// The adjacent enemy.
        target: HeroId,
        /// Damage dealt (at most the target's health).
        damage: u32,
        /// The target's health after.
        health: u32,
    },
    /// A hero died; a grave is dug where it stood.
    Death {
        /// The hero who died.
        hero: HeroId,
        /// Who dealt the fatal damage (`None`: the mine guardians).
        killer: Option<HeroId>,
        /// Where (now a grave).
        at: Pos,
    },
    /// The match is over.
    GameEnd {
        /// The winning team, `None` for a draw.
        winner: Option<Seat>,
        /// Why.
        reason: String,
        /// Diamonds of team 0 and team 1.
        diamonds: [u32; 2],
    },
}

/// The full initial state, recorded in the replay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Initial {
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// Impassable tiles.
    pub walls: Vec<Pos>,
    /// Mines, by id.
    pub mines: Vec<Pos>,
    /// Health wells.
    pub wells: Vec<Pos>,
    /// The heroes where they start.
    pub heroes: Vec<Hero>,
    /// The turn limit.
    pub turn_limit: u32,
}

impl Ruleset for Grid {
    // Heroes move one at a time, alternating teams: a person watching bots wants to
    // see a round of all of them at once.
    const BY_ROUND: bool = true;
    // The document's answer to a move off the board is to stay, as a fault's is: the
    // rejection explains it to the bot, and rewards nothing, so it is no strike.
    const REJECTIONS_STRIKE: bool = false;

    fn starts_round(before: &[Event], event: &Event) -> bool {
        let Event::HeroTurn { hero, .. } = event else {
            return false;
        };
        // Heroes act in id order, skipping the dead: a round starts when the order
        // wraps.
        let previous = before.iter().rev().find_map(|e| match e {
            Event::HeroTurn { hero, .. } => Some(*hero),
            _ => None,
        });
        previous.is_some_and(|p| *hero <= p)
    }
    const DRAWING: Option<&'static str> = Some(include_str!("viewer.js"));

    const MAPS: Option<crate::MapFormat> = Some(crate::MapFormat {
        claims: |text| crate::first_map_line(text).starts_with("size"),
        check: check_map,
    });

    type Event = Event;
    type Initial = Initial;
    /// The directions the acting hero may take without being rejected (those that stay on
    /// the board), as letters of `NESW` in that order (`"ES"` in a north-west corner);
    /// `stay` is always legal.
    type Offer = String;

    fn is_end(event: &Event) -> bool {
        matches!(event, Event::GameEnd { .. })
    }

    fn validate(rules: &Rules) -> Result<(), String> {
        Setup::new(rules).map(|_| ())
    }

    fn play(rules: &Rules, seed: u64, table: &mut Table<'_, Self>) -> Finish {
        play::play(rules, seed, table)
    }

    fn describe(event: &Event) -> String {
        view::describe(event)
    }

    fn offered_choices(offer: &Self::Offer, answer: Option<&Self::Action>) -> Vec<crate::Choice> {
        use arena_sdk::grid::Action::{East, North, South, Stay, West};
        [('N', North), ('E', East), ('S', South), ('W', West)]
            .into_iter()
            .filter(|(letter, _)| offer.contains(*letter))
            .map(|(_, action)| action)
            .chain([Stay])
            .map(|action| crate::Choice::of(format!("{action:?}").to_lowercase(), &action, answer))
            .collect()
    }

    fn sketch(initial: &Initial) -> Option<Box<dyn crate::Sketch<Event>>> {
        Some(Box::new(State::from_initial(initial)))
    }

    fn frames(initial: &Initial, events: &[Event]) -> Option<crate::frames::Frames> {
        Some(frames::frames(initial, events))
    }
}

/// A grid map file checked (the map has no limits in the rules): its size, and its own text
/// as the picture.
fn check_map(text: &str, _rules: &serde_json::Value) -> Result<crate::MapSummary, String> {
    let map = parse_map(text).map_err(|e| e.to_string())?;
    Ok(crate::MapSummary {
        width: map.width,
        height: map.height,
        picture: text.to_owned(),
    })
}
