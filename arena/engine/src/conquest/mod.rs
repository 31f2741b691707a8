//! Mode `conquest` — Little Battle; the rules as implemented, with every choice the original
//! leaves open, are in docs/rules/conquest.md.
//!
//! Player 1 (seat 0) and Player 2 (seat 1) take turns, Player 1 first; the year (617 at the
//! start) advances after Player 2's turn. A turn is one bot answer, [`Orders`]: the recruit
//! stage's orders, then the move stage's, carried out in order by [`play::State`]; a
//! broken order is skipped, counted and reported back. Capturing the enemy home base wins;
//! after `max_years` years the tiebreak of [`rules::tiebreak`] decides; a player who
//! forfeits loses at once. Every match ends with one [`Event::GameEnd`], the last event.
//!
//! There is one state, [`State`], changed only by [`State::apply`] on an event: the rules
//! build each event and apply it, and the terminal map and the browser frames fold the
//! same events into the same state.
//!
//! - [`map`]: the configuration file format and its validation;
//! - [`rules`]: the document's numbers and the arena's additions;
//! - [`play`]: the state and the turn loop;
//! - [`view`]: event text and the terminal map in the original game's style.

mod frames;
mod human;
pub mod map;
pub mod play;
pub mod rules;
pub mod view;

#[cfg(test)]
mod tests;

use crate::{Finish, Ruleset, Stats, Table};
use arena_sdk::Seat;
use arena_sdk::conquest::{
    Army, ArmyId, Conquest, Kind, Pos, Resource, Resources, Rules, Survivor, Terrain,
};
use serde::{Deserialize, Serialize};

pub use map::{Map, MapError, MapErrorKind, parse_map};
pub use play::State;

/// Everything that happens in a `conquest` match, with its numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A player's turn begins.
    Turn {
        /// The year.
        year: u32,
        /// Whose turn.
        seat: Seat,
        /// The player's resources.
        resources: Resources,
    },
    /// An army was recruited next to its home.
    Recruited {
        /// The new army.
        army: Army,
        /// The player's resources after paying.
        resources: Resources,
    },
    /// An army moved and stands on `to`.
    Moved {
        /// The army, where it stood before the move.
        army: Army,
        /// Where it is now.
        to: Pos,
    },
    /// An army collected a resource (the tile is now plain).
    Collected {
        /// The army.
        army: ArmyId,
        /// Its player.
        owner: Seat,
        /// What.
        resource: Resource,
        /// How much.
        amount: u32,
        /// The tile.
        at: Pos,
        /// The player's resources after.
        resources: Resources,
    },
    /// An army walked into water and disappeared.
    Drowned {
        /// The army (where it stood before the move).
        army: Army,
        /// The water tile.
        at: Pos,
    },
    /// An army moved onto an enemy army: the document's table decides.
    Fight {
        /// The army that moved in (where it stood before the move).
        attacker: Army,
        /// The army that stood there.
        defender: Army,
        /// The tile.
        at: Pos,
        /// Who is left.
        survivor: Survivor,
    },
    /// An army captured the enemy home base.
    Captured {
        /// The army (where it stood before the move).
        army: Army,
        /// Where it moved from.
        from: Pos,
        /// The captured home.
        home: Pos,
    },
    /// The match is over.
    GameEnd {
        /// The winner, `None` for a draw.
        winner: Option<Seat>,
        /// Why.
        reason: String,
        /// Armies on the map of seat 0 and seat 1.
        armies: [u32; 2],
        /// Resources of seat 0 and seat 1.
        resources: [Resources; 2],
    },
}

/// The full initial state, recorded in the replay: the map and the year limit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Initial {
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// Home bases of seat 0 and seat 1.
    pub homes: [Pos; 2],
    /// Water tiles.
    pub water: Vec<Pos>,
    /// Wood tiles.
    pub wood: Vec<Pos>,
    /// Food tiles.
    pub food: Vec<Pos>,
    /// Gold tiles.
    pub gold: Vec<Pos>,
    /// Years the game lasts at most.
    pub max_years: u32,
}

impl Initial {
    /// The lists with the terrain each marks.
    pub fn terrain_lists(&self) -> [(&[Pos], Terrain); 4] {
        [
            (&self.water, Terrain::Water),
            (&self.wood, Terrain::Resource(Resource::Wood)),
            (&self.food, Terrain::Resource(Resource::Food)),
            (&self.gold, Terrain::Resource(Resource::Gold)),
        ]
    }
}

/// One player's statistics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Armies recruited, by [`Kind`] (in `Kind::ALL` order).
    pub recruited: [u32; 4],
    /// Own armies that disappeared (fights and water).
    pub armies_lost: u32,
    /// Own armies that walked into water.
    pub armies_drowned: u32,
    /// Enemy armies that disappeared in fights with this player's armies.
    pub enemies_destroyed: u32,
    /// Resources collected from the map.
    pub collected: Resources,
    /// Years begun (the year of the last turn minus 616).
    pub years_played: u32,
    /// 1 if this player captured the enemy home.
    pub home_captured: u32,
}

impl Tally {
    /// As a [`Stats`] map with every key of [`rules::STAT_KEYS`].
    pub fn to_stats(&self) -> Stats {
        let values = [
            self.recruited[Kind::Spearman as usize],
            self.recruited[Kind::Archer as usize],
            self.recruited[Kind::Knight as usize],
            self.recruited[Kind::Scout as usize],
            self.recruited.iter().sum(),
            self.armies_lost,
            self.armies_drowned,
            self.enemies_destroyed,
            self.collected.wood,
            self.collected.food,
            self.collected.gold,
            self.collected.total(),
            self.years_played,
            self.home_captured,
        ];
        rules::STAT_KEYS
            .iter()
            .zip(values)
            .map(|(k, v)| ((*k).to_owned(), i64::from(v)))
            .collect()
    }
}

/// A validated match setup: the parsed map and the year limit.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The map.
    pub map: Map,
    /// Years the game lasts at most.
    pub max_years: u32,
}

impl Setup {
    /// Parse and check a rules config.
    pub fn new(rules: &Rules) -> Result<Setup, String> {
        if !(rules::MIN_FRAME..=rules::LARGEST_FRAME).contains(&rules.max_frame) {
            return Err(format!(
                "max_frame must be {} to {}, not {}",
                rules::MIN_FRAME,
                rules::LARGEST_FRAME,
                rules.max_frame
            ));
        }
        if !(1..=rules::MAX_YEARS).contains(&rules.max_years) {
            return Err(format!(
                "max_years must be 1 to {}, not {}",
                rules::MAX_YEARS,
                rules.max_years
            ));
        }
        let map = parse_map(&rules.map, rules.max_frame).map_err(|e| format!("map: {e}"))?;
        Ok(Setup {
            map,
            max_years: rules.max_years,
        })
    }

    /// The initial state recorded in the replay.
    pub fn initial(&self) -> Initial {
        Initial {
            width: self.map.width,
            height: self.map.height,
            homes: self.map.homes(),
            water: self.map.water.clone(),
            wood: self.map.wood.clone(),
            food: self.map.food.clone(),
            gold: self.map.gold.clone(),
            max_years: self.max_years,
        }
    }
}

impl Ruleset for Conquest {
    const DRAWING: Option<&'static str> = Some(include_str!("viewer.js"));

    const MAPS: Option<crate::MapFormat> = Some(crate::MapFormat {
        claims: |text| crate::first_map_line(text).starts_with("Frame"),
        check: check_map,
    });

    type Event = Event;
    type Initial = Initial;
    /// Not recorded: the engine does not list a turn's legal orders (they are sets of
    /// moves, checked one by one; every rejection names its order and reason, and the
    /// observation holds the whole state, from which `arena_sdk::conquest::Board` lists
    /// the legal moves).
    type Offer = ();

    fn is_end(event: &Event) -> bool {
        matches!(event, Event::GameEnd { .. })
    }

    fn validate(rules: &Rules) -> Result<(), String> {
        Setup::new(rules).map(|_| ())
    }

    fn play(rules: &Rules, _seed: u64, table: &mut Table<'_, Self>) -> Finish {
        // Little Battle has no dice: the match is a function of the map and the orders.
        match Setup::new(rules) {
            Ok(setup) => play::run(&setup, table),
            Err(message) => Finish {
                winner: None,
                reason: format!("invalid rules: {message}"),
                stats: [Tally::default().to_stats(), Tally::default().to_stats()],
            },
        }
    }

    fn describe(event: &Event) -> String {
        view::describe(event)
    }

    /// A player sees its own resources, not the other's.
    fn describe_for(event: &Event, viewer: Seat) -> Option<String> {
        Some(view::describe_seen(event, viewer))
    }

    fn sketch(initial: &Initial) -> Option<Box<dyn crate::Sketch<Event>>> {
        Some(Box::new(State::new(initial)))
    }

    fn frames(initial: &Initial, events: &[Event]) -> Option<crate::frames::Frames> {
        Some(frames::frames(initial, events))
    }
}

/// A conquest map file checked against the rules' `max_frame` (the document's when the
/// rules give none): its size, and the original game's picture of its battlefield.
fn check_map(text: &str, rules: &serde_json::Value) -> Result<crate::MapSummary, String> {
    use arena_sdk::conquest::{DOCUMENT_MAX_FRAME, LARGEST_FRAME};
    let max_frame = rules
        .get("max_frame")
        .and_then(serde_json::Value::as_u64)
        .map_or(DOCUMENT_MAX_FRAME, |v| {
            u8::try_from(v.min(u64::from(LARGEST_FRAME))).unwrap_or(LARGEST_FRAME)
        });
    let map = parse_map(text, max_frame).map_err(|e| e.to_string())?;
    let initial = Setup {
        map: map.clone(),
        max_years: 1,
    }
    .initial();
    let state = State::new(&initial);
    Ok(crate::MapSummary {
        width: map.width,
        height: map.height,
        picture: view::battlefield(state.board()),
    })
}
