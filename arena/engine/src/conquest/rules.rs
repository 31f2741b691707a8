//! The document's numbers and the arena's additions, as data and pure functions: prices
//! and the fight table live in the SDK (bots need them too) and are re-exported here; the
//! turn order, year counter, order limits, tiebreak and statistics keys are ours
//! (docs/rules/conquest.md).

use arena_sdk::Seat;
pub use arena_sdk::conquest::{
    COLLECT_AMOUNT, DOCUMENT_MAX_FRAME, FIRST_YEAR, Kind, LARGEST_FRAME, MIN_FRAME, MoveError,
    RecruitError, Resources, START_RESOURCES, Survivor, fight,
};
use std::cmp::Ordering;

/// Longest game a rules config may ask for, in years.
pub const MAX_YEARS: u32 = 10_000;

/// Recruits carried out per turn: there are only four tiles next to a home. Refused
/// orders do not count toward it (the original lets a player try again until `NO`);
/// orders after it are skipped as one rejection.
pub const MAX_RECRUITS: usize = 4;

/// Moves carried out per turn: one per tile of the largest map is more than a player can
/// have armies. Refused orders do not count toward it.
pub const MAX_MOVES: usize = (LARGEST_FRAME as usize) * (LARGEST_FRAME as usize);

/// Refused orders read per stage (recruit, move), on top of those carried out: far more
/// than a bot that tries again needs, few enough to keep a turn's work and its replay
/// small. Orders after it are skipped as one rejection.
pub const MAX_REFUSED_ORDERS: usize = 256;

/// The statistics keys of `conquest`, per player.
pub const STAT_KEYS: [&str; 14] = [
    "recruited_spearman",
    "recruited_archer",
    "recruited_knight",
    "recruited_scout",
    "armies_recruited",
    "armies_lost",
    "armies_drowned",
    "enemies_destroyed",
    "wood_collected",
    "food_collected",
    "gold_collected",
    "resources_collected",
    "years_played",
    "home_captured",
];

/// The year of turn number `turn` (from 0): Player 1 plays the even turns, Player 2 the odd
/// ones, and the year advances after Player 2's turn.
pub fn year_of_turn(turn: u32) -> u32 {
    FIRST_YEAR + turn / 2
}

/// The seat playing turn number `turn`.
pub fn seat_of_turn(turn: u32) -> Seat {
    Seat::from(turn % 2 == 1)
}

/// What the tiebreak at the end of the last year looks at, per player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    /// Armies on the map.
    pub armies: u32,
    /// Wood + food + gold held.
    pub resources: u32,
}

/// The turn cap's tiebreak: more armies on the map wins; equal armies, more resources held
/// (wood + food + gold) wins; equal both, a draw. Returns the winner and the reason.
pub fn tiebreak(standings: [Standing; 2]) -> (Option<Seat>, String) {
    let [a, b] = standings;
    let winner = |o: Ordering| match o {
        Ordering::Greater => Some(0),
        Ordering::Less => Some(1),
        Ordering::Equal => None,
    };
    if let Some(w) = winner(a.armies.cmp(&b.armies)) {
        return (
            Some(w),
            format!(
                "year limit: more armies on the map ({} to {})",
                a.armies, b.armies
            ),
        );
    }
    if let Some(w) = winner(a.resources.cmp(&b.resources)) {
        return (
            Some(w),
            format!(
                "year limit: armies tied ({}), more resources held ({} to {})",
                a.armies, a.resources, b.resources
            ),
        );
    }
    (
        None,
        format!(
            "year limit: armies ({}) and resources ({}) tied",
            a.armies, a.resources
        ),
    )
}

/// "Player 1" for seat 0, "Player 2" for seat 1, as the original game names them.
pub fn player_name(seat: Seat) -> &'static str {
    if seat == 0 { "Player 1" } else { "Player 2" }
}
