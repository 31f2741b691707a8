//! The rules of `grid` as data and pure functions: the limits of a rules file, the
//! validated [`Setup`], each team's [`Tally`] and which team a hero is on.

use super::*;

use crate::Stats;
use arena_sdk::Seat;
use arena_sdk::grid::{HeroId, Rules};

/// Most heroes a team may have (hero ids must fit a byte, and a board must hold them).
pub const MAX_HEROES_PER_TEAM: u32 = 20;
/// Longest turn limit a rules config may ask for.
pub const MAX_TURN_LIMIT: u32 = 1_000_000;

/// The statistics keys of `grid`, per team (summed over its heroes): the document's list
/// minus wins and losses, which tournaments derive from results.
pub const STAT_KEYS: [&str; 8] = [
    "deaths",
    "kills",
    "damage_dealt",
    "graves_robbed",
    "health_given",
    "health_recovered",
    "diamonds_earned",
    "mines_captured",
];

/// One team's statistics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Heroes of the team that died.
    pub deaths: u32,
    /// Enemy heroes the team's heroes killed (fatal stab or adjacent damage).
    pub kills: u32,
    /// Damage dealt to enemies (stabs and adjacent damage, capped at the victim's health).
    pub damage_dealt: u32,
    /// Graves robbed (any team's grave).
    pub graves_robbed: u32,
    /// Health given to teammates by walking into them (after the cap).
    pub health_given: u32,
    /// Health the team's heroes recovered, from wells and from teammates (after the cap).
    pub health_recovered: u32,
    /// Diamonds earned.
    pub diamonds_earned: u32,
    /// Mines captured (taken from anyone, teammates included).
    pub mines_captured: u32,
}

impl Tally {
    /// As a [`Stats`] map with every key of [`STAT_KEYS`].
    pub fn to_stats(&self) -> Stats {
        let values = [
            self.deaths,
            self.kills,
            self.damage_dealt,
            self.graves_robbed,
            self.health_given,
            self.health_recovered,
            self.diamonds_earned,
            self.mines_captured,
        ];
        STAT_KEYS
            .iter()
            .zip(values)
            .map(|(k, v)| ((*k).to_owned(), i64::from(v)))
            .collect()
    }
}

/// A validated match setup: the parsed map and the rules' numbers.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The map.
    pub map: Map,
    /// Heroes per team.
    pub heroes_per_team: usize,
    /// Hero turns before the game ends.
    pub turn_limit: u32,
}

impl Setup {
    /// Parse and check a rules config.
    pub fn new(rules: &Rules) -> Result<Setup, String> {
        let map = parse_map(&rules.map).map_err(|e| format!("map: {e}"))?;
        if !(1..=MAX_HEROES_PER_TEAM).contains(&rules.heroes_per_team) {
            return Err(format!(
                "heroes_per_team must be 1 to {MAX_HEROES_PER_TEAM}, not {}",
                rules.heroes_per_team
            ));
        }
        if !(1..=MAX_TURN_LIMIT).contains(&rules.turn_limit) {
            return Err(format!(
                "turn_limit must be 1 to {MAX_TURN_LIMIT}, not {}",
                rules.turn_limit
            ));
        }
        let heroes_per_team = rules.heroes_per_team as usize;
        let capacity = map.capacity();
        if heroes_per_team > capacity {
            return Err(if map.spawns[0].is_empty() {
                format!(
                    "map: room for only {capacity} heroes a team (pairs of mirrored empty tiles), heroes_per_team is {heroes_per_team}"
                )
            } else {
                format!("map: {capacity} spawn tiles a team, heroes_per_team is {heroes_per_team}")
            });
        }
        Ok(Setup {
            map,
            heroes_per_team,
            turn_limit: rules.turn_limit,
        })
    }
}

/// A hero's team from its id (heroes alternate teams, team 0 first).
pub fn team_of(hero: HeroId) -> Seat {
    hero % 2
}
