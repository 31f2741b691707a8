//! Mode `grid` — Javascript Battle (the hero starter kit's rules; docs/rules/grid.md).
//!
//! Two teams of heroes share a square-tiled board with diamond mines, health wells and
//! impassable tiles. Heroes act one at a time, alternating teams; on each of its heroes'
//! turns a bot answers a direction ([`Action`]). Walking into a mine captures it (20 damage),
//! into a well drinks (+30 health), into an enemy stabs it (10 damage), into a friend heals it
//! (+40 health); after its move a living hero deals 20 damage to every adjacent enemy. A team
//! wins by eliminating the other, or by holding the most diamonds when the turn limit is
//! reached (a tie is a draw). Full rules: docs/rules/grid.md.
//!
//! [`Board`] gives bot authors the path finding of the original starter kit:
//!
//! ```
//! use arena_sdk::grid::{Action, Board, Grid, Observation, SetupChoice, SetupRequest};
//! use arena_sdk::Bot;
//!
//! #[derive(Default)]
//! struct Thirsty {
//!     board: Option<Board>,
//! }
//!
//! impl Bot<Grid> for Thirsty {
//!     fn setup(&mut self, request: &SetupRequest) -> SetupChoice {
//!         self.board = Some(Board::new(request));
//!         SetupChoice::default()
//!     }
//!     fn act(&mut self, observation: &Observation) -> Action {
//!         let Some(board) = self.board.as_mut() else { return Action::Stay };
//!         board.observe(observation);
//!         let me = observation.me();
//!         match board.nearest_well(me.pos) {
//!             Some(step) => step.first_step.into(),
//!             None => Action::Stay,
//!         }
//!     }
//! }
//! ```

use crate::protocol::{Game, Mode, Seat};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The `grid` mode.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Grid;

impl Game for Grid {
    const MODE: Mode = Mode::Grid;
    type Rules = Rules;
    type SetupRequest = SetupRequest;
    type SetupChoice = SetupChoice;
    type Observation = Observation;
    type Action = Action;
}

/// The built-in default map (12×12, point-symmetric, random placement), in the text map
/// format of docs/rules/grid.md.
pub const DEFAULT_MAP: &str = include_str!("grid_default_map.txt");

/// Health of a hero at the start and the most it can have.
pub const MAX_HEALTH: u32 = 100;
/// Damage a hero takes when it captures a diamond mine ("mines are magic").
pub const MINE_CAPTURE_DAMAGE: u32 = 20;
/// Health a hero gains by walking into a health well.
pub const WELL_HEAL: u32 = 30;
/// Damage a hero deals by walking into an enemy hero.
pub const STAB_DAMAGE: u32 = 10;
/// Health a hero gives by walking into a friendly hero.
pub const FRIEND_HEAL: u32 = 40;
/// Damage a living hero deals to every adjacent enemy at the end of its turn.
pub const ADJACENT_DAMAGE: u32 = 20;

/// The rules configuration of `grid`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// The map itself, in the text format of docs/rules/grid.md (so a rules config is
    /// self-contained). Default: [`DEFAULT_MAP`].
    pub map: String,
    /// Heroes per team (default 5).
    pub heroes_per_team: u32,
    /// The game ends after this many hero turns (default 1250; turns of dead heroes are
    /// skipped, not counted).
    pub turn_limit: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            map: DEFAULT_MAP.to_owned(),
            heroes_per_team: 5,
            turn_limit: 1250,
        }
    }
}

/// A hero's index in [`Observation::heroes`]; stable for the whole match. Heroes act in id
/// order, so even ids belong to team 0 and odd ids to team 1.
pub type HeroId = u8;

/// A mine's index in [`SetupRequest::mines`] and [`Observation::mines`].
pub type MineId = u16;

pub use crate::pos::Pos;

impl Pos {
    /// The neighbouring tile in `direction`, if it is on a `width`×`height` board.
    #[inline]
    pub fn step(self, direction: Direction, width: u8, height: u8) -> Option<Pos> {
        self.offset(direction.offset(), 1, width, height)
    }
}

/// A compass direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Towards row 0.
    North,
    /// Towards the last column.
    East,
    /// Towards the last row.
    South,
    /// Towards column 0.
    West,
}

impl Direction {
    /// The four directions in the original engine's order (also the order adjacent damage
    /// is dealt and path finding breaks ties).
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// `(dx, dy)` of one step.
    #[inline]
    pub const fn offset(self) -> (i32, i32) {
        match self {
            Direction::North => (0, -1),
            Direction::East => (1, 0),
            Direction::South => (0, 1),
            Direction::West => (-1, 0),
        }
    }

    /// The direction pointing back.
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::North => Direction::South,
            Direction::East => Direction::West,
            Direction::South => Direction::North,
            Direction::West => Direction::East,
        }
    }

    /// Lower-case name ("north").
    pub const fn name(self) -> &'static str {
        match self {
            Direction::North => "north",
            Direction::East => "east",
            Direction::South => "south",
            Direction::West => "west",
        }
    }
}

/// Sent once before play: the static board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupRequest {
    /// Columns of the board.
    pub width: u8,
    /// Rows of the board.
    pub height: u8,
    /// Impassable tiles.
    pub walls: Vec<Pos>,
    /// Diamond mines; the index is the [`MineId`].
    pub mines: Vec<Pos>,
    /// Health wells.
    pub wells: Vec<Pos>,
    /// Heroes per team.
    pub heroes_per_team: u32,
    /// The receiving bot's team (equal to its seat).
    pub team: Seat,
    /// Hero turns after which the game ends.
    pub turn_limit: u32,
}

/// The answer to the setup request: `grid` has nothing to choose, so it is `{}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupChoice {}

/// One hero as seen during play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hero {
    /// Its index in [`Observation::heroes`].
    pub id: HeroId,
    /// Its team (the seat of the bot that moves it).
    pub team: Seat,
    /// Health, 0..=100; 0 exactly when dead.
    pub health: u32,
    /// Where it stands (dead heroes: where they died).
    pub pos: Pos,
    /// Dead heroes stay in the list (ids are stable) but take no turns.
    pub dead: bool,
}

/// The owner of one diamond mine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mine {
    /// The hero who captured it last, if any. Ownership outlives the owner's death (a dead
    /// owner earns nothing) until someone captures the mine.
    pub owner: Option<HeroId>,
    /// The owner's team.
    pub team: Option<Seat>,
}

/// What a bot sees on one of its heroes' turns: the whole dynamic state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// Hero turns played so far (this turn's number, from 0).
    pub turn: u32,
    /// The turn limit of the rules.
    pub turn_limit: u32,
    /// The receiving bot's team.
    pub team: Seat,
    /// The hero whose turn it is (one of the bot's own, alive).
    pub acting: HeroId,
    /// Every hero, by id.
    pub heroes: Vec<Hero>,
    /// Every mine's owner, by [`MineId`].
    pub mines: Vec<Mine>,
    /// Graves not yet robbed (walkable; stepping on one robs it).
    pub graves: Vec<Pos>,
    /// Diamonds the receiving bot's team has earned.
    pub diamonds: u32,
    /// Diamonds the other team has earned.
    pub enemy_diamonds: u32,
    /// Why this bot's previous answer was rejected, if it was.
    pub last_rejected: Option<String>,
}

impl Observation {
    /// The acting hero.
    #[inline]
    pub fn me(&self) -> &Hero {
        &self.heroes[usize::from(self.acting)]
    }

    /// Living heroes of `team`.
    #[inline]
    pub fn alive(&self, team: Seat) -> impl Iterator<Item = &Hero> {
        self.heroes
            .iter()
            .filter(move |h| h.team == team && !h.dead)
    }

    /// Living enemies of the receiving bot.
    #[inline]
    pub fn enemies(&self) -> impl Iterator<Item = &Hero> {
        self.alive(1 - self.team)
    }

    /// Mines owned by a hero of `team` (dead owners included).
    pub fn mines_of(&self, team: Seat) -> usize {
        self.mines.iter().filter(|m| m.team == Some(team)).count()
    }
}

/// A bot's answer on its hero's turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Step (or act) north.
    North,
    /// Step (or act) east.
    East,
    /// Step (or act) south.
    South,
    /// Step (or act) west.
    West,
    /// Do not move (adjacent enemies are still damaged).
    Stay,
}

impl Action {
    /// All five answers, `Stay` last.
    pub const ALL: [Action; 5] = [
        Action::North,
        Action::East,
        Action::South,
        Action::West,
        Action::Stay,
    ];

    /// The direction of a move; `None` for `Stay`.
    pub const fn direction(self) -> Option<Direction> {
        match self {
            Action::North => Some(Direction::North),
            Action::East => Some(Direction::East),
            Action::South => Some(Direction::South),
            Action::West => Some(Direction::West),
            Action::Stay => None,
        }
    }
}

impl From<Direction> for Action {
    fn from(direction: Direction) -> Self {
        match direction {
            Direction::North => Action::North,
            Direction::East => Action::East,
            Direction::South => Action::South,
            Direction::West => Action::West,
        }
    }
}

impl From<Option<Direction>> for Action {
    fn from(direction: Option<Direction>) -> Self {
        direction.map_or(Action::Stay, Action::from)
    }
}

/// The static kind of a board tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Terrain {
    /// Walkable ground.
    Empty,
    /// Impassable (rock, tree …).
    Wall,
    /// Diamond mine number `MineId`.
    Mine(MineId),
    /// Health well.
    Well,
}

/// What stands on a tile right now, as path-finding predicates see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tile<'a> {
    /// Walkable, nothing on it.
    Empty,
    /// Walkable: a grave (stepping on it robs it).
    Grave,
    /// Impassable.
    Wall,
    /// A diamond mine and its owner.
    Mine {
        /// Which mine.
        id: MineId,
        /// Its owner.
        mine: &'a Mine,
    },
    /// A health well.
    Well,
    /// A living hero.
    Hero(&'a Hero),
}

impl Tile<'_> {
    /// Whether a hero can step onto it (empty ground or a grave).
    #[inline]
    pub fn walkable(&self) -> bool {
        matches!(self, Tile::Empty | Tile::Grave)
    }
}

/// The answer of a path search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathStep {
    /// The tile found (a mine, well or hero is stepped *into* to act on it).
    pub target: Pos,
    /// Steps to reach (or act on) it: 1 when adjacent.
    pub distance: u32,
    /// The first step of a shortest path.
    pub first_step: Direction,
}

/// The board as a bot sees it: static terrain from the setup request plus the heroes,
/// graves and mine owners of the latest observation, with the breadth-first path finding
/// of the original starter kit. Heroes, mines and wells block movement but are valid
/// targets: a path ends by stepping into them.
#[derive(Debug, Clone)]
pub struct Board {
    width: u8,
    height: u8,
    terrain: Vec<Terrain>,
    occupant: Vec<Option<HeroId>>,
    grave: Vec<bool>,
    /// The tiles marked in `grave` (so that [`Board::observe`] unmarks them without
    /// sweeping the whole board).
    graves: Vec<usize>,
    heroes: Vec<Hero>,
    mines: Vec<Mine>,
}

impl Board {
    /// The static board of a setup request (no heroes yet; call [`Board::observe`]).
    pub fn new(setup: &SetupRequest) -> Self {
        let tiles = usize::from(setup.width) * usize::from(setup.height);
        let mut board = Board {
            width: setup.width,
            height: setup.height,
            terrain: vec![Terrain::Empty; tiles],
            occupant: vec![None; tiles],
            grave: vec![false; tiles],
            graves: Vec::new(),
            heroes: Vec::new(),
            mines: vec![Mine::default(); setup.mines.len()],
        };
        for &p in &setup.walls {
            board.set_terrain(p, Terrain::Wall);
        }
        for &p in &setup.wells {
            board.set_terrain(p, Terrain::Well);
        }
        for (id, &p) in setup.mines.iter().enumerate() {
            let id = MineId::try_from(id).unwrap_or(MineId::MAX);
            board.set_terrain(p, Terrain::Mine(id));
        }
        board
    }

    fn set_terrain(&mut self, p: Pos, terrain: Terrain) {
        if let Some(i) = self.index(p) {
            self.terrain[i] = terrain;
        }
    }

    /// Take the heroes, graves and mine owners of `observation` (reuses its buffers).
    pub fn observe(&mut self, observation: &Observation) {
        // Only the tiles the last observation marked are unmarked: sweeping the whole
        // board cost a wasm bot more than the rest of this function on big maps.
        for hero in &self.heroes {
            if let Some(i) = self.index(hero.pos) {
                self.occupant[i] = None;
            }
        }
        for &i in &self.graves {
            self.grave[i] = false;
        }
        self.graves.clear();
        self.heroes.clear();
        self.heroes.extend_from_slice(&observation.heroes);
        self.mines.clear();
        self.mines.extend_from_slice(&observation.mines);
        for hero in observation.heroes.iter().filter(|h| !h.dead) {
            if let Some(i) = self.index(hero.pos) {
                self.occupant[i] = Some(hero.id);
            }
        }
        for &p in &observation.graves {
            if let Some(i) = self.index(p) {
                self.grave[i] = true;
                self.graves.push(i);
            }
        }
    }

    /// Columns.
    #[inline]
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Rows.
    #[inline]
    pub fn height(&self) -> u8 {
        self.height
    }

    #[inline]
    fn index(&self, p: Pos) -> Option<usize> {
        (p.x < self.width && p.y < self.height)
            .then(|| usize::from(p.y) * usize::from(self.width) + usize::from(p.x))
    }

    /// The static terrain at `p` (`None` off the board).
    #[inline]
    pub fn terrain(&self, p: Pos) -> Option<Terrain> {
        self.index(p).map(|i| self.terrain[i])
    }

    /// What is at `p` now (`None` off the board).
    #[inline]
    pub fn tile(&self, p: Pos) -> Option<Tile<'_>> {
        let i = self.index(p)?;
        Some(match self.terrain[i] {
            Terrain::Wall => Tile::Wall,
            Terrain::Well => Tile::Well,
            Terrain::Mine(id) => Tile::Mine {
                id,
                mine: self.mines.get(usize::from(id)).unwrap_or(&NO_OWNER),
            },
            Terrain::Empty => match self.occupant[i] {
                Some(hero) => Tile::Hero(&self.heroes[usize::from(hero)]),
                None if self.grave[i] => Tile::Grave,
                None => Tile::Empty,
            },
        })
    }

    /// The neighbour of `p` in `direction`, if on the board.
    #[inline]
    pub fn step(&self, p: Pos, direction: Direction) -> Option<Pos> {
        p.step(direction, self.width, self.height)
    }

    /// The heroes of the last observation, by id.
    pub fn heroes(&self) -> &[Hero] {
        &self.heroes
    }

    /// Breadth-first search from `from` for the nearest tile satisfying `is_target`, the way
    /// the original starter kit's `findNearestObjectDirectionAndDistance` does it: paths
    /// run over walkable tiles (empty ground, graves), every tile next to a reached tile is
    /// tested (so a path's last step may go into a mine, well or hero), neighbours are tried
    /// north, east, south, west. `from` itself is never a target.
    pub fn nearest(
        &self,
        from: Pos,
        mut is_target: impl FnMut(Pos, Tile<'_>) -> bool,
    ) -> Option<PathStep> {
        let start = self.index(from)?;
        let mut visited = vec![false; self.terrain.len()];
        visited[start] = true;
        // (tile, first step of the path to it, distance)
        let mut queue: VecDeque<(Pos, Option<Direction>, u32)> = VecDeque::new();
        queue.push_back((from, None, 0));
        while let Some((p, first, distance)) = queue.pop_front() {
            for direction in Direction::ALL {
                let Some(next) = self.step(p, direction) else {
                    continue;
                };
                let i = usize::from(next.y) * usize::from(self.width) + usize::from(next.x);
                if visited[i] {
                    continue;
                }
                let tile = self.tile(next).unwrap_or(Tile::Wall);
                let first_step = first.unwrap_or(direction);
                if is_target(next, tile) {
                    return Some(PathStep {
                        target: next,
                        distance: distance + 1,
                        first_step,
                    });
                }
                if tile.walkable() {
                    visited[i] = true;
                    queue.push_back((next, Some(first_step), distance + 1));
                }
            }
        }
        None
    }

    /// Steps from `from` to every tile (row-major, `None`: unreachable), moving over
    /// walkable tiles only; a non-walkable tile gets the distance of acting on it from a
    /// neighbour. For bots that want more than [`Board::nearest`].
    pub fn distances(&self, from: Pos) -> Vec<Option<u32>> {
        // Walkable (see [`Board::tile`]): empty ground or a grave, with no hero on it.
        self.flood(from, |board, i| {
            board.terrain[i] == Terrain::Empty && board.occupant[i].is_none()
        })
    }

    /// Like [`Board::distances`] but over the static terrain only: heroes and graves are
    /// ignored, so the answer does not change during a match (worth caching). Good for
    /// long-range planning, where a hero in the way will have moved on by then.
    pub fn terrain_distances(&self, from: Pos) -> Vec<Option<u32>> {
        self.flood(from, |board, i| board.terrain[i] == Terrain::Empty)
    }

    /// Breadth-first distances from `from`; the search continues through a tile only if
    /// `passable(board, index)`, but every tile next to a reached one gets a distance.
    fn flood(&self, from: Pos, passable: impl Fn(&Board, usize) -> bool) -> Vec<Option<u32>> {
        let mut dist = vec![None; self.terrain.len()];
        let Some(start) = self.index(from) else {
            return dist;
        };
        dist[start] = Some(0);
        // Tiles in the order reached: a breadth-first queue that is never popped (every
        // tile enters it at most once), with neighbours found by index arithmetic.
        let mut queue = Vec::with_capacity(self.terrain.len());
        queue.push(start);
        let (width, height) = (usize::from(self.width), usize::from(self.height));
        let mut head = 0;
        while let Some(&i) = queue.get(head) {
            head += 1;
            let next = dist[i].map_or(1, |d| d + 1);
            crate::pos::for_each_neighbour(i, width, height, |j| {
                if dist[j].is_none() {
                    dist[j] = Some(next);
                    if passable(self, j) {
                        queue.push(j);
                    }
                }
            });
        }
        dist
    }

    /// Index of `p` into [`Board::distances`].
    #[inline]
    pub fn distance_index(&self, p: Pos) -> Option<usize> {
        self.index(p)
    }

    /// The nearest health well.
    pub fn nearest_well(&self, from: Pos) -> Option<PathStep> {
        self.nearest(from, |_, tile| tile == Tile::Well)
    }

    /// The nearest mine not owned by `team` (unowned or the other team's).
    pub fn nearest_non_team_mine(&self, from: Pos, team: Seat) -> Option<PathStep> {
        self.nearest(
            from,
            |_, tile| matches!(tile, Tile::Mine { mine, .. } if mine.team != Some(team)),
        )
    }

    /// The nearest mine not owned by `hero` itself (teammates' mines included).
    pub fn nearest_mine_not_owned_by(&self, from: Pos, hero: HeroId) -> Option<PathStep> {
        self.nearest(
            from,
            |_, tile| matches!(tile, Tile::Mine { mine, .. } if mine.owner != Some(hero)),
        )
    }

    /// The nearest living hero of the other team.
    pub fn nearest_enemy(&self, from: Pos, team: Seat) -> Option<PathStep> {
        self.nearest(
            from,
            |_, tile| matches!(tile, Tile::Hero(h) if h.team != team),
        )
    }

    /// The nearest living enemy with less health than `health`.
    pub fn nearest_weaker_enemy(&self, from: Pos, team: Seat, health: u32) -> Option<PathStep> {
        self.nearest(
            from,
            |_, tile| matches!(tile, Tile::Hero(h) if h.team != team && h.health < health),
        )
    }

    /// The nearest living teammate (other than a hero standing on `from`).
    pub fn nearest_teammate(&self, from: Pos, team: Seat) -> Option<PathStep> {
        self.nearest(
            from,
            |_, tile| matches!(tile, Tile::Hero(h) if h.team == team),
        )
    }
}

static NO_OWNER: Mine = Mine {
    owner: None,
    team: None,
};

/// The binary encoding's in-place reader ([`crate::wire`]) for this module's types.
mod decode {
    use super::*;
    use crate::wire::{Decode, Reader, decode_struct};

    decode_struct!(Hero {
        id,
        team,
        health,
        pos,
        dead
    });
    decode_struct!(Mine { owner, team });
    decode_struct!(Observation {
        turn,
        turn_limit,
        team,
        acting,
        heroes,
        mines,
        graves,
        diamonds,
        enemy_diamonds,
        last_rejected
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> SetupRequest {
        // . . . . .
        // . # W . .
        // . . . # .
        // M . . . .
        SetupRequest {
            width: 5,
            height: 4,
            walls: vec![Pos::new(1, 1), Pos::new(3, 2)],
            mines: vec![Pos::new(0, 3)],
            wells: vec![Pos::new(2, 1)],
            heroes_per_team: 1,
            team: 0,
            turn_limit: 10,
        }
    }

    fn observation(heroes: Vec<Hero>) -> Observation {
        Observation {
            turn: 0,
            turn_limit: 10,
            team: 0,
            acting: 0,
            heroes,
            mines: vec![Mine::default()],
            graves: vec![Pos::new(4, 3)],
            diamonds: 0,
            enemy_diamonds: 0,
            last_rejected: None,
        }
    }

    fn hero(id: HeroId, team: Seat, x: u8, y: u8) -> Hero {
        Hero {
            id,
            team,
            health: 100,
            pos: Pos::new(x, y),
            dead: false,
        }
    }

    #[test]
    fn wire_format_is_snake_case() {
        assert_eq!(serde_json::to_string(&Action::North).unwrap(), "\"north\"");
        assert_eq!(serde_json::to_string(&Action::Stay).unwrap(), "\"stay\"");
        let choice: SetupChoice = serde_json::from_str("{}").unwrap();
        assert_eq!(choice, SetupChoice {});
        assert_eq!(serde_json::to_string(&choice).unwrap(), "{}");
        let rules: Rules = serde_json::from_str(r#"{"heroes_per_team": 3}"#).unwrap();
        assert_eq!(rules.turn_limit, 1250);
        assert_eq!(rules.map, DEFAULT_MAP);
        assert!(serde_json::from_str::<Rules>(r#"{"heroes": 3}"#).is_err());
    }

    #[test]
    fn nearest_finds_targets_behind_obstacles() {
        let mut board = Board::new(&setup());
        board.observe(&observation(vec![hero(0, 0, 0, 0), hero(1, 1, 4, 0)]));
        // The well at (2,1) is reached by stepping into it from (2,0): east, east, south.
        let well = board.nearest_well(Pos::new(0, 0)).unwrap();
        assert_eq!(well.target, Pos::new(2, 1));
        assert_eq!(well.distance, 3);
        assert_eq!(well.first_step, Direction::East);
        let mine = board.nearest_non_team_mine(Pos::new(0, 0), 0).unwrap();
        assert_eq!((mine.target, mine.distance), (Pos::new(0, 3), 3));
        assert_eq!(mine.first_step, Direction::South);
        let enemy = board.nearest_enemy(Pos::new(0, 0), 0).unwrap();
        assert_eq!((enemy.target, enemy.distance), (Pos::new(4, 0), 4));
        assert!(board.nearest_teammate(Pos::new(0, 0), 0).is_none());
        assert!(board.nearest_weaker_enemy(Pos::new(0, 0), 0, 100).is_none());
    }

    #[test]
    fn heroes_block_paths_and_graves_do_not() {
        let mut board = Board::new(&setup());
        // A teammate at (1,0) and one at (0,1) wall the hero at (0,0) in.
        board.observe(&observation(vec![
            hero(0, 0, 0, 0),
            hero(1, 1, 4, 2),
            hero(2, 0, 1, 0),
            hero(3, 1, 4, 1),
            hero(4, 0, 0, 1),
        ]));
        assert!(board.nearest_well(Pos::new(0, 0)).is_none());
        let mate = board.nearest_teammate(Pos::new(0, 0), 0).unwrap();
        assert_eq!((mate.distance, mate.first_step), (1, Direction::East));
        assert_eq!(board.tile(Pos::new(4, 3)), Some(Tile::Grave));
        // Paths run over the grave at (4,3): (3,3) is only reachable through it.
        board.observe(&observation(vec![hero(0, 0, 0, 0), hero(1, 1, 0, 2)]));
        let dist = board.distances(Pos::new(2, 0));
        let at = |x, y| dist[board.distance_index(Pos::new(x, y)).unwrap()];
        assert_eq!(at(2, 0), Some(0));
        assert_eq!(at(2, 1), Some(1));
        assert_eq!(at(4, 3), Some(5));
        assert_eq!(at(3, 3), Some(6));
        // Over the terrain alone, heroes do not block: (0,3) is 2 steps below (0,1).
        let static_dist = board.terrain_distances(Pos::new(0, 0));
        assert_eq!(
            static_dist[board.distance_index(Pos::new(0, 2)).unwrap()],
            Some(2)
        );
        assert_eq!(
            static_dist[board.distance_index(Pos::new(0, 3)).unwrap()],
            Some(3)
        );
    }

    #[test]
    fn observing_again_forgets_the_last_observation() {
        let mut board = Board::new(&setup());
        let mut first = observation(vec![hero(0, 0, 0, 0), hero(1, 1, 4, 1), hero(2, 0, 3, 3)]);
        first.graves = vec![Pos::new(4, 3), Pos::new(1, 2)];
        board.observe(&first);
        assert_eq!(board.tile(Pos::new(1, 2)), Some(Tile::Grave));
        // Everyone moved, hero 2 died where it stood, one grave was robbed.
        let mut second = observation(vec![hero(0, 0, 1, 0), hero(1, 1, 4, 2), hero(2, 0, 3, 3)]);
        second.heroes[2].dead = true;
        second.graves = vec![Pos::new(1, 2)];
        board.observe(&second);
        let mut fresh = Board::new(&setup());
        fresh.observe(&second);
        for y in 0..4 {
            for x in 0..5 {
                let p = Pos::new(x, y);
                assert_eq!(board.tile(p), fresh.tile(p), "{p}");
            }
        }
        assert_eq!(board.tile(Pos::new(0, 0)), Some(Tile::Empty));
        assert_eq!(board.tile(Pos::new(4, 1)), Some(Tile::Empty));
        assert_eq!(board.tile(Pos::new(3, 3)), Some(Tile::Empty));
        assert_eq!(board.tile(Pos::new(4, 3)), Some(Tile::Empty));
        assert_eq!(board.tile(Pos::new(1, 2)), Some(Tile::Grave));
        assert!(matches!(board.tile(Pos::new(1, 0)), Some(Tile::Hero(h)) if h.id == 0));
    }

    #[test]
    fn distance_fields_count_steps_around_walls() {
        let mut board = Board::new(&setup());
        // A hero at (2,2) blocks `distances` (not `terrain_distances`); the grave at
        // (4,3) blocks neither.
        board.observe(&observation(vec![hero(0, 0, 0, 0), hero(1, 1, 2, 2)]));
        let from = Pos::new(0, 0);
        let at = |field: &[Option<u32>], x: u8, y: u8| {
            field[board.distance_index(Pos::new(x, y)).unwrap()]
        };
        let terrain = board.terrain_distances(from);
        // . . . . .     0 1 2 3 4
        // . # W . .     1 2 3 4 5    (the wall gets the distance of acting on it)
        // . . . # .     2 3 4 5 6
        // M . . . .     3 4 5 6 7    (the mine: acted on from (0,2))
        let expected = [
            [0, 1, 2, 3, 4],
            [1, 2, 3, 4, 5],
            [2, 3, 4, 5, 6],
            [3, 4, 5, 6, 7],
        ];
        for (y, row) in expected.iter().enumerate() {
            for (x, &d) in row.iter().enumerate() {
                assert_eq!(at(&terrain, x as u8, y as u8), Some(d), "terrain ({x},{y})");
            }
        }
        // The well is acted on, not walked through: (3,1) is reached over the top row.
        assert_eq!(at(&terrain, 3, 1), Some(4));
        let live = board.distances(from);
        // The hero at (2,2) is acted on at 4 steps like any tile; (2,3) is then reached
        // around it through (1,3).
        assert_eq!(at(&live, 2, 2), Some(4));
        assert_eq!(at(&live, 2, 3), Some(5));
        assert_eq!(at(&live, 4, 3), Some(7));
        // From (2,2) the well above and the walls beside it force a detour round the
        // left: (2,0) is 6 steps away, 2 as the crow flies.
        let detour = board.terrain_distances(Pos::new(2, 2));
        assert_eq!(at(&detour, 2, 1), Some(1));
        assert_eq!(at(&detour, 0, 0), Some(4));
        assert_eq!(at(&detour, 2, 0), Some(6));
        assert_eq!(at(&detour, 3, 1), Some(6));
        // Off the board: nothing reached.
        assert!(
            board
                .terrain_distances(Pos::new(9, 9))
                .iter()
                .all(Option::is_none)
        );
    }
}
