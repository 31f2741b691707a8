//! [`Heuristic`]: the sensible player of the document's rules.

use super::{Meeting, Memory, Turn, affordable, best_counter, meets};
use arena_sdk::Bot;
use arena_sdk::conquest::{
    Army, Conquest, Kind, Observation, Orders, Pos, SetupChoice, SetupRequest, Survivor, fight,
};

/// Each turn: recruits the counter of every enemy army within three steps of its home onto
/// the tile nearest it, then recruits collectors (counters of the enemy's commonest kind)
/// up to one per resource left (at most three); every army captures the enemy home or an
/// enemy it defeats when it can, defenders close in on threats, the others walk to the
/// nearest resource nobody else is after, and when the map is bare, to the enemy home —
/// never into water or an enemy that defeats them.
#[derive(Debug, Default, Clone)]
pub struct Heuristic {
    /// Distances around the map's water and the planning board's memory, kept from turn
    /// to turn.
    memory: Memory,
}

/// Enemy armies within `radius` steps of `home`, nearest first.
pub fn threats(turn: &Turn, home: Pos, radius: u32) -> Vec<(u32, Army)> {
    // No way is shorter than the straight line: enemies farther than `radius` as the crow
    // flies are passed over without the home's search (a wasm bot pays ~1 k fuel for it,
    // and most turns no enemy is that near).
    let mut near: Vec<(u32, Army)> = Vec::new();
    for &e in turn.enemies_iter() {
        if e.pos.manhattan(home) > radius {
            continue;
        }
        if let Some(d) = turn.field(home).get(e.pos)
            && d <= radius
        {
            near.push((d, e));
        }
    }
    near.sort_by_key(|(d, e)| (*d, e.id));
    near
}

/// A step for `army` towards `goal` (around water), never into water or a lost fight;
/// `None` if no step gets closer.
pub fn step_towards(turn: &Turn, army: &Army, goal: Pos) -> Option<Pos> {
    let dist = turn.field(goal);
    let d = |p: Pos| dist.get(p).unwrap_or(u32::MAX);
    let here = d(army.pos);
    turn.board
        .destinations(army)
        .into_iter()
        .filter(|&to| {
            matches!(
                meets(&turn.board, army, to),
                Some(Meeting::Arrive { .. } | Meeting::Win(_) | Meeting::Capture)
            )
        })
        .filter(|&to| d(to) < here)
        .min_by_key(|&to| (d(to), danger(turn, army.kind, to), to))
}

/// Enemy armies next to `p` that would defeat (2) or trade with (1) an army of `kind`
/// standing there.
pub fn danger(turn: &Turn, kind: Kind, p: Pos) -> u32 {
    turn.enemies_iter()
        .filter(|e| e.pos.manhattan(p) <= u32::try_from(e.kind.reach()).unwrap_or(1))
        .map(|e| match fight(e.kind, kind) {
            Survivor::First => 2,
            Survivor::Neither => 1,
            Survivor::Second => 0,
        })
        .sum()
}

impl Bot<Conquest> for Heuristic {
    fn setup(&mut self, _request: &SetupRequest) -> SetupChoice {
        SetupChoice::default()
    }

    fn act(&mut self, obs: &Observation) -> Orders {
        let mut turn = Turn::with_memory(obs, std::mem::take(&mut self.memory));
        let home = turn.home();
        let threats = threats(&turn, home, 3);
        // Recruit: counters for the threats first.
        for (_, threat) in &threats {
            let wanted = threat.kind.countered_by();
            if !turn.stock.covers(wanted.price()) {
                continue;
            }
            turn.recruit_nearest(wanted, threat.pos);
        }
        // Then collectors, or attackers once the map is bare.
        let enemies = turn.enemies();
        let wanted_armies = turn.armies_wanted(3);
        while turn.movable_count() < wanted_armies {
            let Some(kind) = affordable(turn.stock, best_counter(&enemies)) else {
                break;
            };
            let Some(&at) = turn.board.recruit_spots(turn.seat).first() else {
                break;
            };
            if !turn.recruit(kind, at) {
                break;
            }
        }
        // Move.
        let mut claimed: Vec<Pos> = Vec::new();
        for army in turn.movable() {
            if turn.won {
                break;
            }
            let Some(army) = turn
                .board
                .armies()
                .iter()
                .find(|a| a.id == army.id)
                .copied()
            else {
                continue;
            };
            let destinations = turn.board.destinations(&army);
            let capture = destinations
                .iter()
                .find(|&&to| meets(&turn.board, &army, to) == Some(Meeting::Capture));
            let kill = destinations
                .iter()
                .filter(|&&to| matches!(meets(&turn.board, &army, to), Some(Meeting::Win(_))))
                .min_by_key(|to| to.manhattan(home));
            if let Some(&to) = capture.or(kill) {
                turn.order(&army, to);
                continue;
            }
            let defend = threats
                .iter()
                .find(|(_, t)| fight(army.kind, t.kind) == Survivor::First)
                .map(|(_, t)| t.pos);
            let goal = defend.or_else(|| {
                let unclaimed = turn
                    .resources()
                    .iter()
                    .map(|&(p, _)| p)
                    .filter(|p| !claimed.contains(p));
                turn.nearest(army.pos, unclaimed).map(|(_, p)| p)
            });
            let goal = goal.unwrap_or_else(|| turn.enemy_home());
            claimed.push(goal);
            if let Some(to) = step_towards(&turn, &army, goal) {
                turn.order(&army, to);
            }
        }
        let (orders, memory) = turn.finish();
        self.memory = memory;
        orders
    }
}
