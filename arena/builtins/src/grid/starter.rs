//! The eleven strategies of the original JS Battle starter kit's hero.js, and [`Starter`],
//! the bot that plays one of them with all its heroes.

use arena_sdk::grid::{
    Action, Board, Grid, MAX_HEALTH, Observation, PathStep, SetupChoice, SetupRequest,
};
use arena_sdk::{Bot, MatchStart};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// The strategies of the original starter kit's hero.js.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Health ≤ 30: nearest well; else the nearest enemy.
    Aggressor,
    /// Health ≤ 75: nearest well; else the nearest mine not owned by its team.
    HealthNut,
    /// Health < 60: nearest well; else the nearest teammate (walking into it heals it).
    Priest,
    /// Health < 30: nearest well; else the nearest enemy, no matter what.
    UnwiseAssassin,
    /// Health < 50: nearest well; else the nearest enemy with less health than itself.
    CarefulAssassin,
    /// Health < 40, or hurt and next to a well: drink; else the nearest mine not its team's.
    SafeDiamondMiner,
    /// As the safe miner, but any mine it does not own itself (teammates' included).
    SelfishDiamondMiner,
    /// Always the nearest well.
    Coward,
    /// A random direction of the four (the starter kit's "Blind Man").
    RandomWalker,
    /// Always north (the starter kit's "Northerner"); off the board or into an obstacle it
    /// stays, as the engine treats every impossible move.
    Northerner,
    /// Answers nothing, which the original engine treated as Stay.
    Idle,
}

impl Strategy {
    /// Every starter strategy.
    pub const ALL: [Strategy; 11] = [
        Strategy::Aggressor,
        Strategy::HealthNut,
        Strategy::Priest,
        Strategy::UnwiseAssassin,
        Strategy::CarefulAssassin,
        Strategy::SafeDiamondMiner,
        Strategy::SelfishDiamondMiner,
        Strategy::Coward,
        Strategy::RandomWalker,
        Strategy::Northerner,
        Strategy::Idle,
    ];

    /// The built-in's name.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Aggressor => "aggressor",
            Strategy::HealthNut => "health-nut",
            Strategy::Priest => "priest",
            Strategy::UnwiseAssassin => "unwise-assassin",
            Strategy::CarefulAssassin => "careful-assassin",
            Strategy::SafeDiamondMiner => "safe-diamond-miner",
            Strategy::SelfishDiamondMiner => "selfish-diamond-miner",
            Strategy::Coward => "coward",
            Strategy::RandomWalker => "random-walker",
            Strategy::Northerner => "northerner",
            Strategy::Idle => "idle",
        }
    }

    /// Whether the strategy looks at the board: the random walker, the northerner and the
    /// idle answer without it, so their board need not observe the turn.
    pub fn reads_board(self) -> bool {
        !matches!(
            self,
            Strategy::RandomWalker | Strategy::Northerner | Strategy::Idle
        )
    }

    /// The strategy's answer for the acting hero (`board` must have observed `obs` if the
    /// strategy [reads it](Strategy::reads_board)).
    pub fn decide(self, board: &Board, obs: &Observation, rng: &mut ChaCha8Rng) -> Action {
        let me = obs.me();
        let (pos, team, health) = (me.pos, me.team, me.health);
        let well = || board.nearest_well(pos);
        let step = |found: Option<PathStep>| Action::from(found.map(|s| s.first_step));
        match self {
            Strategy::Aggressor if health <= 30 => step(well()),
            Strategy::Aggressor => step(board.nearest_enemy(pos, team)),
            Strategy::HealthNut if health <= 75 => step(well()),
            Strategy::HealthNut => step(board.nearest_non_team_mine(pos, team)),
            Strategy::Priest if health < 60 => step(well()),
            Strategy::Priest => step(board.nearest_teammate(pos, team)),
            Strategy::UnwiseAssassin if health < 30 => step(well()),
            Strategy::UnwiseAssassin => step(board.nearest_enemy(pos, team)),
            Strategy::CarefulAssassin if health < 50 => step(well()),
            Strategy::CarefulAssassin => step(board.nearest_weaker_enemy(pos, team, health)),
            Strategy::SafeDiamondMiner | Strategy::SelfishDiamondMiner => {
                let well = well();
                let near_well = well.is_some_and(|w| w.distance == 1);
                if health < 40 || (health < MAX_HEALTH && near_well) {
                    step(well)
                } else if self == Strategy::SafeDiamondMiner {
                    step(board.nearest_non_team_mine(pos, team))
                } else {
                    step(board.nearest_mine_not_owned_by(pos, me.id))
                }
            }
            Strategy::Coward => step(well()),
            Strategy::RandomWalker => {
                // The original's order: north, south, east, west.
                const CHOICES: [Action; 4] =
                    [Action::North, Action::South, Action::East, Action::West];
                *CHOICES.choose(rng).unwrap_or(&Action::Stay)
            }
            Strategy::Northerner => Action::North,
            Strategy::Idle => Action::from(None),
        }
    }
}

/// A bot playing one of the starter kit's [`Strategy`]s with all its heroes.
#[derive(Debug, Clone)]
pub struct Starter {
    strategy: Strategy,
    board: Option<Board>,
    rng: ChaCha8Rng,
}

impl Starter {
    /// A bot for `strategy`.
    pub fn new(strategy: Strategy) -> Self {
        Starter {
            strategy,
            board: None,
            rng: ChaCha8Rng::seed_from_u64(0),
        }
    }
}

impl Bot<Grid> for Starter {
    fn start(&mut self, start: &MatchStart<Grid>) {
        self.rng = ChaCha8Rng::seed_from_u64(start.seed);
    }

    fn setup(&mut self, request: &SetupRequest) -> SetupChoice {
        self.board = Some(Board::new(request));
        SetupChoice {}
    }

    fn act(&mut self, observation: &Observation) -> Action {
        let Some(board) = self.board.as_mut() else {
            return Action::Stay;
        };
        if self.strategy.reads_board() {
            board.observe(observation);
        }
        self.strategy.decide(board, observation, &mut self.rng)
    }
}
