//! # A starter bot for mode `grid` (JS Battle)
//!
//! Copy this crate, rename it, and change [`Starter::act`]. Rules: docs/rules/grid.md.
//!
//! How a match goes for your bot:
//!
//! * `setup` is called once with the static board (size, walls, mines, wells, your team).
//!   There is nothing to choose: answer `SetupChoice::default()` (`{}` on the wire).
//! * `act` is called on every turn of one of *your* heroes. The observation holds the whole
//!   state: every hero (`observation.me()` is the one to move), every mine's owner, the
//!   graves and both teams' diamonds. Answer a direction (or `Action::Stay`).
//!
//! Walking into things is how a hero acts: into a mine captures it (−20 health), into a
//! well drinks (+30), into an enemy stabs it (−10 to it), into a teammate heals it (+40).
//! After its move, a living hero deals 20 damage to every enemy next to it. A team wins by
//! killing every enemy hero, or by having more diamonds after the turn limit (one diamond per
//! owned mine at the start of each of the owner's turns).
//!
//! Build for the arena: `cargo build --release --target wasm32-unknown-unknown`, then give
//! the `.wasm` file to `arena`.

use arena_sdk::Bot;
use arena_sdk::grid::{Action, Board, Grid, Observation, SetupChoice, SetupRequest};

/// Health at or below which a hero goes to drink.
const THIRSTY: u32 = 40;
/// Health a hero needs before it pays 20 health to capture a mine.
const FIT_TO_MINE: u32 = 60;

/// The bot. It keeps the [`Board`] (the static map plus path finding) between turns; the
/// arena creates a fresh one for every match.
#[derive(Debug, Default)]
pub struct Starter {
    board: Option<Board>,
}

impl Bot<Grid> for Starter {
    fn setup(&mut self, request: &SetupRequest) -> SetupChoice {
        // Remember the static board: walls, mines and wells never change.
        self.board = Some(Board::new(request));
        SetupChoice::default()
    }

    fn act(&mut self, observation: &Observation) -> Action {
        let Some(board) = self.board.as_mut() else {
            return Action::Stay;
        };
        // Put this turn's heroes, graves and mine owners on the board.
        board.observe(observation);
        let me = observation.me();

        // Every `nearest_*` helper does a breadth-first search around walls, mines, wells
        // and heroes and answers the first step of a shortest path (`first_step`), how far
        // the target is (`distance`, 1 = right next to us) and where it is (`target`).

        // 1. Hurt: drink at the nearest well (stepping into the well drinks from it).
        if me.health <= THIRSTY
            && let Some(well) = board.nearest_well(me.pos)
        {
            return well.first_step.into();
        }

        // 2. An enemy right next to us: stab it. With the adjacent damage at the end of
        //    the turn that is 30 damage.
        if let Some(enemy) = board.nearest_enemy(me.pos, me.team)
            && enemy.distance == 1
        {
            return enemy.first_step.into();
        }

        // 3. Healthy enough: capture the nearest mine our team does not own yet.
        if me.health > FIT_TO_MINE
            && let Some(mine) = board.nearest_non_team_mine(me.pos, me.team)
        {
            return mine.first_step.into();
        }

        // 4. Nothing else to do: hunt the nearest enemy (or stay if none can be reached).
        //    `Option<PathStep>` → `Action`: no path means `Stay`.
        board
            .nearest_enemy(me.pos, me.team)
            .map(|enemy| enemy.first_step)
            .into()
    }
}

// Export the bot for the arena (wasm). Keep this line.
arena_sdk::export_bot!(grid: Starter);

#[cfg(test)]
mod tests {
    use super::*;
    use arena_builtins::Builtins;
    use arena_engine::{MatchConfig, NativePlayer, Player, run_match};
    use arena_sdk::grid::Rules;

    /// Play the starter against a built-in, seats alternated; returns the starter's wins.
    fn wins_against(builtin: &str, games: u64) -> u64 {
        (0..games)
            .filter(|&game| {
                let mut me = NativePlayer::new(Starter::default());
                let mut other = NativePlayer::new(Grid::create(builtin).expect("a built-in"));
                let my_seat = (game % 2) as u8;
                let players: [&mut dyn Player<Grid>; 2] = if my_seat == 0 {
                    [&mut me, &mut other]
                } else {
                    [&mut other, &mut me]
                };
                let config = MatchConfig::new(Rules::default(), game / 2);
                run_match::<Grid>(&config, players).outcome.winner == Some(my_seat)
            })
            .count() as u64
    }

    #[test]
    fn beats_the_random_walker() {
        let wins = wins_against("random-walker", 200);
        assert!(wins >= 180, "won {wins} of 200");
    }
}
