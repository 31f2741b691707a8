//! # A starter bot for mode `conquest` (Little Battle)
//!
//! Copy this crate, rename it, and change [`Starter::act`]. Rules: docs/rules/conquest.md.
//!
//! How a match goes for your bot:
//!
//! * `setup` is called once with the map's size, both home bases and the year limit. There
//!   is nothing to choose: answer `SetupChoice::default()` (`{}` on the wire).
//! * `act` is called on each of your turns with the whole state: the map (water and the
//!   resources still lying there), every army of both players, your resources, the prices
//!   and the year. Answer [`Orders`]: recruit orders (a kind onto a free tile next to your
//!   home), then move orders (an army's tile and its destination). Orders are carried out in
//!   the order given; a broken one is skipped and explained in the next observation's
//!   `last_rejected`.
//!
//! Spearman beats knight, knight beats archer, archer beats spearman, everyone beats the
//! scout, equals destroy each other. Walking onto wood, food or gold collects 2 of it;
//! walking into water drowns the army; walking onto the enemy home wins.
//!
//! Build for the arena: `cargo build --release --target wasm32-unknown-unknown`, then give
//! the `.wasm` file to `arena`.

use arena_sdk::Bot;
use arena_sdk::conquest::{
    Army, Board, Conquest, Distances, Kind, Move, Observation, Orders, Pos, Recruit, SetupChoice,
    SetupRequest, Survivor, Terrain, fight,
};

/// Armies the bot keeps while resources lie on the map (collectors).
const COLLECTORS: usize = 3;

/// The bot: collect, then march on the enemy home; never step into water or a lost fight.
#[derive(Debug, Default)]
pub struct Starter {
    /// Our copy of the board, kept so that its memory serves every turn.
    board: Board,
    /// How far apart tiles are around water. Only water blocks and it never changes during
    /// a game, so each search is done once and kept from turn to turn.
    distances: Distances,
}

impl Bot<Conquest> for Starter {
    fn setup(&mut self, _request: &SetupRequest) -> SetupChoice {
        SetupChoice::default()
    }

    fn act(&mut self, obs: &Observation) -> Orders {
        // `Board` answers "what is on this tile", "where may this army go"; `Distances`
        // "how far around water" (its searches are kept if the map is the same).
        let Starter { board, distances } = self;
        board.update(obs);
        distances.fit(board);
        let mut orders = Orders::default();
        let mut stock = obs.resources;

        // Recruit stage: keep a few collectors while there is something to collect, and
        // everything we can afford once the map is bare. Pick the kind that beats the
        // enemy's commonest kind.
        let wanted = if board.resource_tiles().next().is_none() {
            usize::MAX
        } else {
            COLLECTORS
        };
        let armies = obs.mine().count();
        let spots = board.recruit_spots(obs.seat);
        // Recruits get made-up ids on our copy of the board, far from the real ones.
        for (k, at) in (0u32..).zip(spots) {
            if armies + k as usize >= wanted {
                break;
            }
            let favourite = counter_of_most(obs);
            let kind = [favourite, Kind::Spearman, Kind::Archer, Kind::Knight]
                .into_iter()
                .find(|k| stock.covers(k.price()));
            let Some(kind) = kind else { break };
            stock = stock.pay(kind.price()).unwrap_or(stock);
            orders.recruit.push(Recruit { kind, at });
            // Put it on our copy of the board so its move below sees it.
            board.place(Army {
                id: u32::MAX / 2 + k,
                owner: obs.seat,
                kind,
                pos: at,
            });
        }

        // Move stage: each army goes for the nearest resource nobody else is after, or for
        // the enemy home; it captures or wins a fight whenever it can.
        let mut claimed: Vec<Pos> = Vec::new();
        let mine: Vec<Army> = board
            .armies()
            .iter()
            .filter(|a| a.owner == obs.seat)
            .copied()
            .collect();
        for army in mine {
            let unclaimed = board
                .resource_tiles()
                .map(|(p, _)| p)
                .filter(|p| !claimed.contains(p));
            let goal = match distances.nearest(army.pos, unclaimed) {
                Some((_, resource)) => resource,
                None => obs.enemy_home(),
            };
            claimed.push(goal);
            let steps = |p: Pos| distances.between(p, goal).unwrap_or(u32::MAX);
            // Never into water or a lost or even fight (a scout's middle tile too).
            let best = board
                .safe_destinations(&army)
                .into_iter()
                .min_by_key(|&to| (!wins_there(board, &army, to), steps(to)));
            if let Some(to) = best
                && (steps(to) < steps(army.pos) || wins_there(board, &army, to))
            {
                orders.moves.push(Move { from: army.pos, to });
                // Keep our copy of the board in step (the tile is now ours, any resource
                // there is gone).
                if let Some(enemy) = board.army_at(to).copied()
                    && enemy.owner != obs.seat
                {
                    board.remove(enemy.id);
                }
                if matches!(board.terrain(to), Some(Terrain::Resource(_))) {
                    board.set_terrain(to, Terrain::Plain);
                }
                board.relocate(army.id, to);
            }
        }
        orders
    }
}

/// The kind that beats the most enemy armies (a spearman if there are none).
fn counter_of_most(obs: &Observation) -> Kind {
    [Kind::Spearman, Kind::Archer, Kind::Knight]
        .into_iter()
        .max_by_key(|&k| {
            obs.enemies()
                .filter(|e| fight(k, e.kind) == Survivor::First)
                .count()
        })
        .unwrap_or(Kind::Spearman)
}

/// Whether the move captures the enemy home or defeats an enemy army.
fn wins_there(board: &Board, army: &Army, to: Pos) -> bool {
    matches!(board.terrain(to), Some(Terrain::Home(seat)) if seat != army.owner)
        || board
            .army_at(to)
            .is_some_and(|e| e.owner != army.owner && fight(army.kind, e.kind) == Survivor::First)
}

arena_sdk::export_bot!(conquest: Starter);

#[cfg(test)]
mod tests {
    use super::*;
    use arena_builtins::Builtins;
    use arena_engine::{MatchConfig, NativePlayer, Player, run_match};
    use arena_sdk::conquest::Rules;

    /// Play the starter against a built-in, seats alternated; returns the starter's wins.
    fn wins_against(builtin: &str, games: u64) -> u64 {
        (0..games)
            .filter(|&game| {
                let mut me = NativePlayer::new(Starter::default());
                let mut other = NativePlayer::new(Conquest::create(builtin).expect("a built-in"));
                let my_seat = (game % 2) as u8;
                let players: [&mut dyn Player<Conquest>; 2] = if my_seat == 0 {
                    [&mut me, &mut other]
                } else {
                    [&mut other, &mut me]
                };
                let config = MatchConfig::new(Rules::default(), game / 2);
                run_match::<Conquest>(&config, players).outcome.winner == Some(my_seat)
            })
            .count() as u64
    }

    #[test]
    fn beats_random() {
        let wins = wins_against("random", 200);
        assert!(wins >= 180, "won {wins} of 200");
    }
}
