//! Mode `conquest` — Little Battle (docs/rules/conquest.md).
//!
//! Two players on a small map (5×5 to 7×7 by default) with water and wood, food and gold
//! resources. Player 1 (seat 0) has its home base at (1,1), player 2 (seat 1) at
//! (w−2,h−2). Each turn a bot answers [`Orders`]: recruit orders first (a [`Kind`] of army
//! onto one of the four tiles next to its home, paid with resources), then move orders (each
//! army one step; a scout one or two steps in a straight line). Walking onto a resource
//! collects 2 of it, onto water drowns the army, onto an enemy army fights by the
//! document's table ([`fight`]), onto the enemy home captures it and wins. The year starts
//! at 617 and advances after player 2's turn; after `max_years` years the game ends by the
//! tiebreak of docs/rules/conquest.md.
//!
//! [`Board`] answers the questions every bot asks: what is on a tile, where an army may
//! move, where it may recruit, how far a tile is.
//!
//! ```
//! use arena_sdk::conquest::{Board, Conquest, Kind, Move, Observation, Orders, Recruit, SetupChoice, SetupRequest};
//! use arena_sdk::Bot;
//!
//! #[derive(Default)]
//! struct Rusher;
//!
//! impl Bot<Conquest> for Rusher {
//!     fn setup(&mut self, _request: &SetupRequest) -> SetupChoice {
//!         SetupChoice::default()
//!     }
//!     fn act(&mut self, obs: &Observation) -> Orders {
//!         let board = Board::new(obs);
//!         let mut orders = Orders::default();
//!         if obs.resources.covers(Kind::Knight.price()) {
//!             if let Some(&at) = board.recruit_spots(obs.seat).first() {
//!                 orders.recruit.push(Recruit { kind: Kind::Knight, at });
//!             }
//!         }
//!         // Every army takes one step closer to the enemy home.
//!         let target = obs.homes[usize::from(1 - obs.seat)];
//!         for army in obs.armies.iter().filter(|a| a.owner == obs.seat) {
//!             let best = board.destinations(army).into_iter().min_by_key(|&to| to.manhattan(target));
//!             if let Some(to) = best {
//!                 orders.moves.push(Move { from: army.pos, to });
//!             }
//!         }
//!         orders
//!     }
//! }
//! ```

use crate::protocol::{Game, Mode, Seat};
use serde::{Deserialize, Serialize};

/// The `conquest` mode.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Conquest;

impl Game for Conquest {
    const MODE: Mode = Mode::Conquest;
    type Rules = Rules;
    type SetupRequest = SetupRequest;
    type SetupChoice = SetupChoice;
    type Observation = Observation;
    type Action = Orders;
}

/// The built-in default map (7×7, point-symmetric), in the configuration file format of
/// docs/rules/conquest.md.
pub const DEFAULT_MAP: &str = include_str!("conquest_default_map.txt");

/// The year of the first turn.
pub const FIRST_YEAR: u32 = 617;
/// What each player owns at the start: 2 wood, 2 food, 2 gold.
pub const START_RESOURCES: Resources = Resources::new(2, 2, 2);
/// What an army gains for its player by walking onto a resource tile.
pub const COLLECT_AMOUNT: u32 = 2;
/// Smallest frame side the document allows.
pub const MIN_FRAME: u8 = 5;
/// Largest frame side the document allows (the default of [`Rules::max_frame`]).
pub const DOCUMENT_MAX_FRAME: u8 = 7;
/// Largest frame side a rules config may allow.
pub const LARGEST_FRAME: u8 = 32;

/// The rules configuration of `conquest`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// The map file's text (docs/rules/conquest.md, "Maps"), so a rules config is
    /// self-contained. Default: [`DEFAULT_MAP`].
    pub map: String,
    /// Largest width and height a map may have: 7 as in the document (5 to 32).
    pub max_frame: u8,
    /// The game ends after this many years (each year is a turn of both players);
    /// default 100.
    pub max_years: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            map: DEFAULT_MAP.to_owned(),
            max_frame: DOCUMENT_MAX_FRAME,
            max_years: 100,
        }
    }
}

pub use crate::pos::Pos;

/// The four directions as `(dx, dy)`: up, right, down, left.
pub const DIRECTIONS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// The three resources.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    /// W.
    Wood,
    /// F.
    Food,
    /// G.
    Gold,
}

impl Resource {
    /// All three, in the document's order.
    pub const ALL: [Resource; 3] = [Resource::Wood, Resource::Food, Resource::Gold];

    /// "Wood", "Food", "Gold".
    pub const fn name(self) -> &'static str {
        match self {
            Resource::Wood => "Wood",
            Resource::Food => "Food",
            Resource::Gold => "Gold",
        }
    }

    /// W, F or G.
    pub const fn letter(self) -> char {
        match self {
            Resource::Wood => 'W',
            Resource::Food => 'F',
            Resource::Gold => 'G',
        }
    }
}

/// An amount of each resource (a player's stock, or a price).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Resources {
    /// Wood.
    pub wood: u32,
    /// Food.
    pub food: u32,
    /// Gold.
    pub gold: u32,
}

impl Resources {
    /// `wood` W, `food` F, `gold` G.
    pub const fn new(wood: u32, food: u32, gold: u32) -> Self {
        Resources { wood, food, gold }
    }

    /// Whether this stock pays `price`.
    pub fn covers(self, price: Resources) -> bool {
        self.wood >= price.wood && self.food >= price.food && self.gold >= price.gold
    }

    /// This stock minus `price`, if it covers it (never negative).
    pub fn pay(self, price: Resources) -> Option<Resources> {
        Some(Resources {
            wood: self.wood.checked_sub(price.wood)?,
            food: self.food.checked_sub(price.food)?,
            gold: self.gold.checked_sub(price.gold)?,
        })
    }

    /// The amount of one resource.
    pub fn get(self, resource: Resource) -> u32 {
        match resource {
            Resource::Wood => self.wood,
            Resource::Food => self.food,
            Resource::Gold => self.gold,
        }
    }

    /// This stock plus `amount` of `resource` (saturating).
    pub fn plus(self, resource: Resource, amount: u32) -> Resources {
        let mut r = self;
        let slot = match resource {
            Resource::Wood => &mut r.wood,
            Resource::Food => &mut r.food,
            Resource::Gold => &mut r.gold,
        };
        *slot = slot.saturating_add(amount);
        r
    }

    /// Wood + food + gold.
    pub fn total(self) -> u32 {
        self.wood
            .saturating_add(self.food)
            .saturating_add(self.gold)
    }
}

impl std::fmt::Display for Resources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Wood - {} Food - {} Gold - {}",
            self.wood, self.food, self.gold
        )
    }
}

/// The four types of soldiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// S: 1 wood, 1 food; counters the knight.
    Spearman,
    /// A: 1 wood, 1 gold; counters the spearman.
    Archer,
    /// K: 1 food, 1 gold; counters the archer.
    Knight,
    /// T: 1 wood, 1 food, 1 gold; moves one or two steps in a straight line; loses to all.
    Scout,
}

impl Kind {
    /// All four, in the document's order.
    pub const ALL: [Kind; 4] = [Kind::Spearman, Kind::Archer, Kind::Knight, Kind::Scout];

    /// The document's price list.
    pub const fn price(self) -> Resources {
        match self {
            Kind::Spearman => Resources::new(1, 1, 0),
            Kind::Archer => Resources::new(1, 0, 1),
            Kind::Knight => Resources::new(0, 1, 1),
            Kind::Scout => Resources::new(1, 1, 1),
        }
    }

    /// S, A, K or T.
    pub const fn letter(self) -> char {
        match self {
            Kind::Spearman => 'S',
            Kind::Archer => 'A',
            Kind::Knight => 'K',
            Kind::Scout => 'T',
        }
    }

    /// "Spearman", "Archer", "Knight", "Scout".
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Spearman => "Spearman",
            Kind::Archer => "Archer",
            Kind::Knight => "Knight",
            Kind::Scout => "Scout",
        }
    }

    /// The type this one defeats (`None` for the scout, which defeats nobody).
    pub const fn counters(self) -> Option<Kind> {
        match self {
            Kind::Spearman => Some(Kind::Knight),
            Kind::Knight => Some(Kind::Archer),
            Kind::Archer => Some(Kind::Spearman),
            Kind::Scout => None,
        }
    }

    /// The type that defeats this one (the scout is defeated by all three others; the
    /// spearman is named).
    pub const fn countered_by(self) -> Kind {
        match self {
            Kind::Spearman => Kind::Archer,
            Kind::Archer => Kind::Knight,
            Kind::Knight => Kind::Spearman,
            Kind::Scout => Kind::Spearman,
        }
    }

    /// Steps the type may move in one turn.
    pub const fn reach(self) -> i32 {
        match self {
            Kind::Scout => 2,
            _ => 1,
        }
    }
}

/// Who leaves a fight alive: the document's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Survivor {
    /// The first army named (the one that moved in) survives.
    First,
    /// The second army (the one that stood there) survives.
    Second,
    /// Both disappear.
    Neither,
}

/// The fight table of the document: `a` meets `b`.
///
/// | | S | K | A | T |
/// |---|---|---|---|---|
/// | **S** | both | K disappears | S disappears | T disappears |
/// | **K** | K disappears | both | A disappears | T disappears |
/// | **A** | S disappears | A disappears | both | T disappears |
/// | **T** | T disappears | T disappears | T disappears | both |
pub fn fight(a: Kind, b: Kind) -> Survivor {
    if a == b {
        Survivor::Neither
    } else if a.counters() == Some(b) || b == Kind::Scout {
        Survivor::First
    } else {
        Survivor::Second
    }
}

/// An army's id: unique within a match, in order of recruitment.
pub type ArmyId = u32;

/// An army on the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Army {
    /// Its id.
    pub id: ArmyId,
    /// Its player's seat.
    pub owner: Seat,
    /// Its type.
    pub kind: Kind,
    /// Where it stands.
    pub pos: Pos,
}

/// One line of the price list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Price {
    /// The type.
    pub kind: Kind,
    /// What it costs.
    pub cost: Resources,
}

/// The document's price list, in its order.
pub fn prices() -> Vec<Price> {
    Kind::ALL
        .iter()
        .map(|&kind| Price {
            kind,
            cost: kind.price(),
        })
        .collect()
}

/// Sent once before play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupRequest {
    /// Columns of the map.
    pub width: u8,
    /// Rows of the map.
    pub height: u8,
    /// The receiving bot's seat: 0 is Player 1, 1 is Player 2.
    pub seat: Seat,
    /// Home bases of seat 0 and seat 1.
    pub homes: [Pos; 2],
    /// The year of the first turn.
    pub first_year: u32,
    /// The game ends after this many years.
    pub max_years: u32,
}

/// The answer to the setup request: `conquest` has nothing to choose, so it is `{}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupChoice {}

/// What a bot sees on its turn: the whole current state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// The current year (617 first).
    pub year: u32,
    /// The last year that is played (the game ends after it).
    pub last_year: u32,
    /// The receiving bot's seat.
    pub seat: Seat,
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// Home bases of seat 0 and seat 1.
    pub homes: [Pos; 2],
    /// Water tiles.
    pub water: Vec<Pos>,
    /// Wood tiles not yet collected.
    pub wood: Vec<Pos>,
    /// Food tiles not yet collected.
    pub food: Vec<Pos>,
    /// Gold tiles not yet collected.
    pub gold: Vec<Pos>,
    /// Every army of both players, by id.
    pub armies: Vec<Army>,
    /// The receiving bot's resources.
    pub resources: Resources,
    /// The price list.
    pub prices: Vec<Price>,
    /// Why orders of this bot's previous turn were skipped, one line per skipped order.
    pub last_rejected: Vec<String>,
}

impl Observation {
    /// The receiving bot's armies.
    pub fn mine(&self) -> impl Iterator<Item = &Army> {
        self.armies.iter().filter(move |a| a.owner == self.seat)
    }

    /// The other player's armies.
    pub fn enemies(&self) -> impl Iterator<Item = &Army> {
        self.armies.iter().filter(move |a| a.owner != self.seat)
    }

    /// The receiving bot's home base.
    pub fn home(&self) -> Pos {
        self.homes[usize::from(self.seat.min(1))]
    }

    /// The other player's home base.
    pub fn enemy_home(&self) -> Pos {
        self.homes[usize::from(1 - self.seat.min(1))]
    }
}

/// Recruit one army of `kind` onto `at` (one of the four tiles next to the home base).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recruit {
    /// The type.
    pub kind: Kind,
    /// Where it is placed.
    pub at: Pos,
}

/// Move the army standing on `from` to `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Move {
    /// The army's tile when the order is carried out.
    pub from: Pos,
    /// Its destination.
    pub to: Pos,
}

/// A bot's answer on its turn: the recruit stage's orders, then the move stage's, each
/// carried out in order. An order that breaks a rule is skipped (and reported back in the
/// next observation's `last_rejected`); the others still happen. A refused order costs
/// nothing: a turn carries out up to 4 recruits and 1 024 moves, and reads up to 256
/// refused orders of each stage besides (docs/rules/conquest.md). `{}` passes; an unknown
/// field is a malformed answer (a `wrong_shape` fault), not a pass.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Orders {
    /// Recruit orders.
    pub recruit: Vec<Recruit>,
    /// Move orders.
    pub moves: Vec<Move>,
}

/// What lies on a tile, armies aside.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    /// Nothing.
    Plain,
    /// Water: an army that enters it disappears.
    Water,
    /// A resource not yet collected.
    Resource(Resource),
    /// A player's home base.
    Home(Seat),
}

/// Why a recruit order is skipped; the text is the original game's answer. The checks come
/// in the original's order ([`Board::check_recruit`]): whether any kind is affordable and
/// any tile next to the home is free — both asked before the kind or the tile is — then
/// the kind's price, then the tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecruitError {
    /// The player cannot pay for any kind.
    NoResources,
    /// Every tile next to the player's home holds an army.
    NoPlace,
    /// The player cannot pay the price of this kind.
    Insufficient,
    /// The tile is not a free tile next to the player's home (off the map included).
    BadPlace,
}

impl RecruitError {
    /// The original game's message.
    pub const fn message(self) -> &'static str {
        match self {
            RecruitError::NoResources => "No resources to recruit any armies.",
            RecruitError::NoPlace => "No place to recruit new armies.",
            RecruitError::Insufficient => "Insufficient resources. Try again.",
            RecruitError::BadPlace => {
                "You must place your newly recruited unit in an unoccupied position next to your home base. Try again."
            }
        }
    }
}

/// Why a move order is skipped (the original game answers "Invalid move. Try again." to
/// each; [`MoveError::detail`] says which rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveError {
    /// No army of the player stands on `from`.
    NoArmy,
    /// The army has moved this turn already.
    AlreadyMoved,
    /// `to` is off the map.
    OffMap,
    /// `to` is not one step away (or, for a scout, two in a straight line).
    TooFar,
    /// `to` holds one of the player's own armies or its home base.
    OwnTile,
}

impl MoveError {
    /// The original game's message.
    pub const MESSAGE: &'static str = "Invalid move. Try again.";

    /// Which rule the move breaks.
    pub const fn detail(self) -> &'static str {
        match self {
            MoveError::NoArmy => "no army of yours stands there",
            MoveError::AlreadyMoved => "that army has moved this turn already",
            MoveError::OffMap => "the destination is off the map",
            MoveError::TooFar => {
                "an army moves one step up, down, left or right; a scout one or two in a straight line"
            }
            MoveError::OwnTile => "the destination holds your own army or your home base",
        }
    }
}

/// Up to eight tiles, read as a slice (and iterated by value): what
/// [`Board::destinations`] (a scout's one or two steps in four directions) and
/// [`Board::recruit_spots`] answer, without a heap allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tiles {
    tiles: [Pos; 8],
    len: u8,
}

impl Tiles {
    const fn new() -> Tiles {
        Tiles {
            tiles: [Pos::new(0, 0); 8],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, p: Pos) {
        if let Some(slot) = self.tiles.get_mut(usize::from(self.len)) {
            *slot = p;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for Tiles {
    type Target = [Pos];

    #[inline]
    fn deref(&self) -> &[Pos] {
        &self.tiles[..usize::from(self.len)]
    }
}

impl IntoIterator for Tiles {
    type Item = Pos;
    type IntoIter = TilesIter;

    #[inline]
    fn into_iter(self) -> TilesIter {
        TilesIter {
            tiles: self,
            next: 0,
        }
    }
}

/// [`Tiles`] by value, in order.
#[derive(Debug, Clone)]
pub struct TilesIter {
    tiles: Tiles,
    next: u8,
}

impl Iterator for TilesIter {
    type Item = Pos;

    #[inline]
    fn next(&mut self) -> Option<Pos> {
        let p = *self.tiles.get(usize::from(self.next))?;
        self.next += 1;
        Some(p)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = usize::from(self.tiles.len.saturating_sub(self.next));
        (left, Some(left))
    }
}

impl<'a> IntoIterator for &'a Tiles {
    type Item = &'a Pos;
    type IntoIter = std::slice::Iter<'a, Pos>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The tiles a move enters, in order (one, or a scout's two): what [`Board::move_steps`]
/// answers, read as a slice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Steps {
    tiles: [Pos; 2],
    len: u8,
}

impl std::ops::Deref for Steps {
    type Target = [Pos];

    fn deref(&self) -> &[Pos] {
        &self.tiles[..usize::from(self.len)]
    }
}

/// One thing that happens to a moving army, in the order it happens: what
/// [`Board::move_events`] foresees and [`Board::apply_move`] carries out, the document's
/// move rules in one place (the engine, the built-ins' planning and their predictions all
/// read them from here).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveEvent {
    /// It met the enemy army `defender` on `at`; the fight table decides. If it survives
    /// (`Survivor::First`) the move goes on, else the move ends here.
    Fight {
        /// The army that stood there.
        defender: Army,
        /// The tile.
        at: Pos,
        /// Who is left.
        survivor: Survivor,
    },
    /// It entered the enemy home on `at` and captured it (the move ends, the game too).
    Capture {
        /// The enemy home.
        at: Pos,
    },
    /// It walked into water on `at` and disappeared (the move ends).
    Drown {
        /// The water tile.
        at: Pos,
    },
    /// It collected [`COLLECT_AMOUNT`] of `resource` on `at` (the tile becomes plain).
    Collect {
        /// What.
        resource: Resource,
        /// The tile.
        at: Pos,
    },
    /// It stands on `at`, the destination, at the end of the move.
    Arrive {
        /// The destination.
        at: Pos,
    },
}

/// The events of one move, in order (at most four: a scout's two tiles each with a
/// collection or a fight it wins, then its arrival), read as a slice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveEvents {
    events: [MoveEvent; 4],
    len: u8,
}

impl MoveEvents {
    fn push(&mut self, event: MoveEvent) {
        if let Some(slot) = self.events.get_mut(usize::from(self.len)) {
            *slot = event;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for MoveEvents {
    type Target = [MoveEvent];

    fn deref(&self) -> &[MoveEvent] {
        &self.events[..usize::from(self.len)]
    }
}

/// No army stands on the tile, in [`Board`]'s occupant index.
const NO_ARMY: u32 = u32::MAX;

/// `k` as an occupant index: armies are placed one at a time, each a few bytes, so there
/// are never `u32::MAX` of them (saturating is only a guard).
#[inline]
fn occupant_index(k: usize) -> u32 {
    u32::try_from(k).unwrap_or(NO_ARMY - 1)
}

/// The map and the armies on it, as rules and bots ask about it.
#[derive(Debug, Clone)]
pub struct Board {
    width: u8,
    height: u8,
    homes: [Pos; 2],
    terrain: Vec<Terrain>,
    /// Index into `armies` of the army on each tile; [`NO_ARMY`] where none stands (a
    /// flat `u32` rather than an `Option<usize>`: half the bytes in wasm, and cleared with
    /// one fill).
    occupant: Vec<u32>,
    armies: Vec<Army>,
    /// How many tiles are water (kept by `set_terrain`): [`Distances::fit`] compares maps
    /// by their water without reading every tile.
    waters: usize,
    /// The indices of the resource tiles, ascending (kept by `set_terrain`): bots ask for
    /// the resources left often, and a map has few among many tiles.
    resource_list: Vec<u16>,
    /// The water the last [`Board::update`] was given, while `listed` holds.
    water_listed: Vec<Pos>,
    /// Whether the terrain is the homes, the water of `water_listed` and the listed
    /// resources, plain elsewhere: the last update's lists overlapped neither each other
    /// nor the homes, and every terrain change since took a resource off the map. The next
    /// update of the same map then only clears the resources and armies (a bot's kept
    /// board sees the same map every turn, and its planning collects resources).
    listed: bool,
    /// Whether a [`Board::relocate`] ever put an army onto another's tile since the armies
    /// were last cleared: only then may a tile hold two.
    stacked: bool,
}

/// Boards are equal when their maps and armies are (whatever their histories).
impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        (self.width, self.height, self.homes) == (other.width, other.height, other.homes)
            && self.terrain == other.terrain
            && self.occupant == other.occupant
            && self.armies == other.armies
            && self.waters == other.waters
            && self.resource_list == other.resource_list
    }
}

impl Eq for Board {}

/// A 0×0 board, to be [`Board::update`]d.
impl Default for Board {
    fn default() -> Board {
        Board::empty(0, 0, [Pos::default(); 2])
    }
}

impl Board {
    /// The board of an observation.
    pub fn new(obs: &Observation) -> Board {
        let mut board = Board::default();
        board.update(obs);
        board
    }

    /// Make this board the board of `obs` (what [`Board::new`] answers), reusing its
    /// memory: a bot that keeps one board from turn to turn allocates nothing for it.
    pub fn update(&mut self, obs: &Observation) {
        let same_map = self.listed
            && (self.width, self.height, self.homes) == (obs.width, obs.height, obs.homes)
            && self.water_listed == obs.water;
        // Whether the lists overlap neither each other nor the homes (see `listed`).
        let mut clean = true;
        if same_map {
            // Back to the bare map: the resources left become plain, the armies' tiles
            // (the only ones the occupant index names) empty.
            for &i in &self.resource_list {
                self.terrain[usize::from(i)] = Terrain::Plain;
            }
            self.resource_list.clear();
            for k in 0..self.armies.len() {
                if let Some(i) = self.index(self.armies[k].pos) {
                    self.occupant[i] = NO_ARMY;
                }
            }
            self.armies.clear();
            self.stacked = false;
        } else {
            self.reset(obs.width, obs.height, obs.homes);
            // What `set_terrain` on each listed tile would leave, with its bookkeeping done
            // once for the lot: water comes first and only resources follow, so no
            // resource is ever taken off the list, which is sorted once at the end.
            for &p in &obs.water {
                if let Some(i) = self.index(p) {
                    let was = self.terrain[i];
                    if was != Terrain::Water {
                        self.waters += 1;
                    }
                    if matches!(was, Terrain::Water | Terrain::Home(_)) {
                        clean = false;
                    }
                    self.terrain[i] = Terrain::Water;
                } else {
                    clean = false;
                }
            }
            self.water_listed.clear();
            self.water_listed.extend_from_slice(&obs.water);
        }
        // Room for the turn's recruits too (at most one per tile next to the home).
        self.armies.reserve(obs.armies.len() + DIRECTIONS.len());
        for (list, resource) in [
            (&obs.wood, Resource::Wood),
            (&obs.food, Resource::Food),
            (&obs.gold, Resource::Gold),
        ] {
            for &p in list {
                if let Some(i) = self.index(p) {
                    let was = self.terrain[i];
                    if was == Terrain::Water {
                        self.waters -= 1;
                    }
                    if matches!(was, Terrain::Water | Terrain::Home(_)) {
                        clean = false;
                    }
                    if !matches!(was, Terrain::Resource(_)) {
                        // Lossless: an index of a map of at most 255×255 tiles.
                        self.resource_list.push(i as u16);
                    }
                    self.terrain[i] = Terrain::Resource(resource);
                }
            }
        }
        self.resource_list.sort_unstable();
        self.listed = clean;
        for &army in &obs.armies {
            self.place(army);
        }
    }

    /// A plain `width`×`height` map with the two homes and no armies.
    pub fn empty(width: u8, height: u8, homes: [Pos; 2]) -> Board {
        let mut board = Board {
            width,
            height,
            homes,
            terrain: Vec::new(),
            occupant: Vec::new(),
            armies: Vec::new(),
            waters: 0,
            resource_list: Vec::new(),
            water_listed: Vec::new(),
            listed: false,
            stacked: false,
        };
        board.reset(width, height, homes);
        board
    }

    /// Make this board [`Board::empty`]`(width, height, homes)`, keeping its memory.
    fn reset(&mut self, width: u8, height: u8, homes: [Pos; 2]) {
        let tiles = usize::from(width) * usize::from(height);
        (self.width, self.height, self.homes) = (width, height, homes);
        self.terrain.clear();
        self.terrain.resize(tiles, Terrain::Plain);
        self.occupant.clear();
        self.occupant.resize(tiles, NO_ARMY);
        self.armies.clear();
        self.stacked = false;
        self.waters = 0;
        self.resource_list.clear();
        self.listed = false;
        self.set_terrain(homes[0], Terrain::Home(0));
        self.set_terrain(homes[1], Terrain::Home(1));
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

    /// The homes of seat 0 and seat 1.
    #[inline]
    pub fn homes(&self) -> [Pos; 2] {
        self.homes
    }

    /// Row-major index of `p`, if it is on the map.
    #[inline]
    pub fn index(&self, p: Pos) -> Option<usize> {
        (p.x < self.width && p.y < self.height)
            .then(|| usize::from(p.y) * usize::from(self.width) + usize::from(p.x))
    }

    /// Every tile, in reading order.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }

    /// Set what lies on `p` (ignored off the map).
    pub fn set_terrain(&mut self, p: Pos, terrain: Terrain) {
        if let Some(i) = self.index(p) {
            let was = std::mem::replace(&mut self.terrain[i], terrain);
            // A resource collected keeps the terrain what `listed` says; any other change
            // does not.
            if was != terrain && !(matches!(was, Terrain::Resource(_)) && terrain == Terrain::Plain)
            {
                self.listed = false;
            }
            match (was == Terrain::Water, terrain == Terrain::Water) {
                (false, true) => self.waters += 1,
                (true, false) => self.waters -= 1,
                _ => {}
            }
            let resource = |t: Terrain| matches!(t, Terrain::Resource(_));
            if resource(was) != resource(terrain) {
                // Lossless: an index of a map of at most 255×255 tiles.
                let k = i as u16;
                match self.resource_list.binary_search(&k) {
                    Ok(at) => {
                        self.resource_list.remove(at);
                    }
                    Err(at) => self.resource_list.insert(at, k),
                }
            }
        }
    }

    /// What lies on `p`; `None` off the map.
    #[inline]
    pub fn terrain(&self, p: Pos) -> Option<Terrain> {
        self.index(p).map(|i| self.terrain[i])
    }

    /// The army on `p`, if any.
    #[inline]
    pub fn army_at(&self, p: Pos) -> Option<&Army> {
        let i = self.index(p)?;
        self.occupant_at(i).map(|a| &self.armies[a])
    }

    /// What lies on `p` and the army on it ([`Board::terrain`] and [`Board::army_at`] in one
    /// look-up of the tile: a bot pays fuel for each); `None` off the map.
    #[inline]
    pub fn tile(&self, p: Pos) -> Option<(Terrain, Option<&Army>)> {
        let i = self.index(p)?;
        Some((
            self.terrain[i],
            self.occupant_at(i).map(|k| &self.armies[k]),
        ))
    }

    /// Every army, in the order placed.
    #[inline]
    pub fn armies(&self) -> &[Army] {
        &self.armies
    }

    /// Put `army` on its tile (replacing whatever army stood there).
    pub fn place(&mut self, army: Army) {
        if let Some(i) = self.index(army.pos) {
            if let Some(old) = self.occupant_at(i) {
                self.remove_index(old);
            }
            self.armies.push(army);
            self.occupant[i] = occupant_index(self.armies.len() - 1);
        }
    }

    /// Take the army `id` off the map.
    pub fn remove(&mut self, id: ArmyId) -> Option<Army> {
        let k = self.armies.iter().position(|a| a.id == id)?;
        Some(self.remove_index(k))
    }

    fn remove_index(&mut self, k: usize) -> Army {
        let army = self.armies.remove(k);
        self.reindex();
        army
    }

    fn reindex(&mut self) {
        self.occupant.fill(NO_ARMY);
        for (k, army) in self.armies.iter().enumerate() {
            if let Some(i) = self.index(army.pos) {
                self.occupant[i] = occupant_index(k);
            }
        }
    }

    /// Move army `id` to `to` (which must be free of armies).
    pub fn relocate(&mut self, id: ArmyId, to: Pos) {
        if let Some(k) = self.armies.iter().position(|a| a.id == id) {
            self.relocate_index(k, to);
        }
    }

    /// [`Board::relocate`] of the army with index `k`.
    fn relocate_index(&mut self, k: usize, to: Pos) {
        let from = std::mem::replace(&mut self.armies[k].pos, to);
        // Only the two tiles change; each names the last army standing on it, as
        // `reindex` would (a tile holds at most one army unless a caller stacked them:
        // only then can another army stand where this one left).
        let k32 = occupant_index(k);
        if let Some(i) = self.index(from)
            && self.occupant[i] == k32
        {
            self.occupant[i] = if self.stacked {
                let last = self.armies.iter().rposition(|a| a.pos == from);
                last.map_or(NO_ARMY, occupant_index)
            } else {
                NO_ARMY
            };
        }
        if let Some(i) = self.index(to) {
            if self.occupant[i] != NO_ARMY && self.occupant[i] != k32 {
                self.stacked = true;
            }
            if self.occupant[i] == NO_ARMY || self.occupant[i] < k32 {
                self.occupant[i] = k32;
            }
        }
    }

    /// The tiles next to `seat`'s home where it may recruit now (on the map, no army on
    /// them), in the order up, right, down, left.
    pub fn recruit_spots(&self, seat: Seat) -> Tiles {
        let home = self.homes[usize::from(seat.min(1))];
        let mut spots = Tiles::new();
        for d in DIRECTIONS {
            if let Some(p) = home.offset(d, 1, self.width, self.height)
                && self.army_at(p).is_none()
                && self.terrain(p) == Some(Terrain::Plain)
            {
                spots.push(p);
            }
        }
        spots
    }

    /// Whether `seat` may recruit `kind` onto `at` with `stock`, checked in the original
    /// game's order (see [`RecruitError`]).
    pub fn check_recruit(
        &self,
        seat: Seat,
        stock: Resources,
        kind: Kind,
        at: Pos,
    ) -> Result<(), RecruitError> {
        if !Kind::ALL.iter().any(|k| stock.covers(k.price())) {
            return Err(RecruitError::NoResources);
        }
        let spots = self.recruit_spots(seat);
        if spots.is_empty() {
            return Err(RecruitError::NoPlace);
        }
        if !stock.covers(kind.price()) {
            return Err(RecruitError::Insufficient);
        }
        if !spots.contains(&at) {
            return Err(RecruitError::BadPlace);
        }
        Ok(())
    }

    /// The tiles a move of `army` from its tile to `to` enters, in order: `[to]` for one
    /// step, `[middle, to]` for a scout's two. Checks the document's rules (not whether the
    /// army has moved this turn). [`Board::move_steps`] answers the same without allocating.
    pub fn check_move(&self, army: &Army, to: Pos) -> Result<Vec<Pos>, MoveError> {
        self.move_steps(army, to).map(|steps| steps.to_vec())
    }

    /// [`Board::check_move`] without a heap allocation: the tiles entered as [`Steps`].
    pub fn move_steps(&self, army: &Army, to: Pos) -> Result<Steps, MoveError> {
        let Some(i) = self.index(to) else {
            return Err(MoveError::OffMap);
        };
        let (dx, dy) = (to.x.abs_diff(army.pos.x), to.y.abs_diff(army.pos.y));
        let steps = i32::from(dx) + i32::from(dy);
        if (dx != 0 && dy != 0) || steps == 0 || steps > army.kind.reach() {
            return Err(MoveError::TooFar);
        }
        if self.is_own_at(army.owner, i) {
            return Err(MoveError::OwnTile);
        }
        // A scout's middle tile, halfway along the straight line (off the map only if the
        // army stands off it: then it is not entered).
        let middle = Pos::new(
            // Lossless: the mean of two `u8`s.
            ((u16::from(army.pos.x) + u16::from(to.x)) / 2) as u8,
            ((u16::from(army.pos.y) + u16::from(to.y)) / 2) as u8,
        );
        Ok(if steps == 2 && self.index(middle).is_some() {
            Steps {
                tiles: [middle, to],
                len: 2,
            }
        } else {
            Steps {
                tiles: [to, to],
                len: 1,
            }
        })
    }

    /// What moving `army` to `to` would do, step by step, by the document's rules (see
    /// [`MoveEvent`]); the board is not changed. The same checks as [`Board::move_steps`]
    /// (not whether the army has moved this turn).
    pub fn move_events(&self, army: &Army, to: Pos) -> Result<MoveEvents, MoveError> {
        let mut events = MoveEvents {
            events: [MoveEvent::Arrive { at: to }; 4],
            len: 0,
        };
        self.walk_move(army, to, |event| {
            events.push(event);
            true
        })?;
        Ok(events)
    }

    /// [`Board::move_events`] one at a time: hands each event to `visit` in order, and
    /// stops early when `visit` answers `false` (a bot that only wants to know what a move
    /// meets first need not foresee the rest). The document's move rules live here;
    /// [`Board::move_events`] and [`Board::apply_move`] read them from here.
    #[inline]
    pub fn walk_move(
        &self,
        army: &Army,
        to: Pos,
        mut visit: impl FnMut(MoveEvent) -> bool,
    ) -> Result<(), MoveError> {
        let steps = self.move_steps(army, to)?;
        for (k, &tile) in steps.iter().enumerate() {
            let last = k + 1 == steps.len();
            let Some(i) = self.index(tile) else {
                // Never: move_steps answers tiles on the map.
                if last {
                    visit(MoveEvent::Arrive { at: tile });
                }
                continue;
            };
            if let Some(defender) = self.occupant_at(i).map(|k| self.armies[k]) {
                if defender.owner == army.owner {
                    // A scout passes over its own armies (never onto one: move_steps
                    // refuses that destination).
                    continue;
                }
                let survivor = fight(army.kind, defender.kind);
                let more = visit(MoveEvent::Fight {
                    defender,
                    at: tile,
                    survivor,
                });
                if !more || survivor != Survivor::First {
                    return Ok(());
                }
                if last {
                    visit(MoveEvent::Arrive { at: tile });
                }
                continue;
            }
            match self.terrain[i] {
                Terrain::Home(owner) if owner != army.owner => {
                    visit(MoveEvent::Capture { at: tile });
                    return Ok(());
                }
                Terrain::Water => {
                    visit(MoveEvent::Drown { at: tile });
                    return Ok(());
                }
                Terrain::Resource(resource)
                    if !visit(MoveEvent::Collect { resource, at: tile }) =>
                {
                    return Ok(());
                }
                _ => {}
            }
            if last {
                visit(MoveEvent::Arrive { at: tile });
            }
        }
        Ok(())
    }

    /// Move `army` (an army on this board) to `to` and carry out what happens on the way:
    /// fights, a capture, drowning, collections (the caller credits the resources), the
    /// arrival. Returns the events, as [`Board::move_events`] foresaw them; an illegal
    /// move changes nothing.
    pub fn apply_move(&mut self, army: &Army, to: Pos) -> Result<MoveEvents, MoveError> {
        let events = self.move_events(army, to)?;
        for event in events.iter() {
            match *event {
                MoveEvent::Fight {
                    defender, survivor, ..
                } => match survivor {
                    Survivor::First => {
                        self.remove(defender.id);
                    }
                    Survivor::Second => {
                        self.remove(army.id);
                    }
                    Survivor::Neither => {
                        self.remove(army.id);
                        self.remove(defender.id);
                    }
                },
                MoveEvent::Capture { at } | MoveEvent::Arrive { at } => {
                    // The army stands on its tile (or the board lists it elsewhere).
                    let on_its_tile = (self.index(army.pos))
                        .and_then(|i| self.occupant_at(i))
                        .filter(|&k| self.armies[k].id == army.id);
                    match on_its_tile {
                        Some(k) => self.relocate_index(k, at),
                        None => self.relocate(army.id, at),
                    }
                }
                MoveEvent::Drown { .. } => {
                    self.remove(army.id);
                }
                MoveEvent::Collect { at, .. } => self.set_terrain(at, Terrain::Plain),
            }
        }
        Ok(events)
    }

    /// Whether `p` holds an army of `seat` or `seat`'s home.
    #[inline]
    pub fn is_own(&self, seat: Seat, p: Pos) -> bool {
        self.index(p).is_some_and(|i| self.is_own_at(seat, i))
    }

    /// Index into `armies` of the army on the tile with index `i` (on the map).
    #[inline]
    fn occupant_at(&self, i: usize) -> Option<usize> {
        match self.occupant[i] {
            NO_ARMY => None,
            // Lossless: `u32` fits `usize` on every target the arena builds for.
            k => Some(k as usize),
        }
    }

    /// [`Board::is_own`] of the tile with index `i` (on the map).
    #[inline]
    fn is_own_at(&self, seat: Seat, i: usize) -> bool {
        self.terrain[i] == Terrain::Home(seat)
            || self
                .occupant_at(i)
                .is_some_and(|k| self.armies[k].owner == seat)
    }

    /// Every tile `army` may move to this turn by the rules, water included (an army may
    /// walk into water; it drowns): up, right, down, left, a scout's one step before its
    /// two in each direction.
    pub fn destinations(&self, army: &Army) -> Tiles {
        let mut out = Tiles::new();
        let (x, y) = (army.pos.x, army.pos.y);
        for (dx, dy) in DIRECTIONS {
            for k in 1..=army.kind.reach() {
                // A tile in a straight line within reach and on the map: of
                // [`Board::move_steps`]'s checks only the own-tile one is left.
                let (tx, ty) = (i32::from(x) + dx * k, i32::from(y) + dy * k);
                if let (Ok(tx), Ok(ty)) = (u8::try_from(tx), u8::try_from(ty))
                    && let Some(i) = self.index(Pos::new(tx, ty))
                    && !self.is_own_at(army.owner, i)
                {
                    out.push(Pos::new(tx, ty));
                }
            }
        }
        out
    }

    /// Whether `army` has a destination at all ([`Board::destinations`] is not empty),
    /// without listing them: it stops at the first.
    pub fn can_move(&self, army: &Army) -> bool {
        let (x, y) = (army.pos.x, army.pos.y);
        DIRECTIONS.iter().any(|&(dx, dy)| {
            (1..=army.kind.reach()).any(|k| {
                let (tx, ty) = (i32::from(x) + dx * k, i32::from(y) + dy * k);
                matches!(
                    (u8::try_from(tx), u8::try_from(ty)),
                    (Ok(tx), Ok(ty)) if self
                        .index(Pos::new(tx, ty))
                        .is_some_and(|i| !self.is_own_at(army.owner, i))
                )
            })
        })
    }

    /// The [`Board::destinations`] that `army` reaches alive, in the same order: the way
    /// there (a scout's middle tile too) enters no water and every enemy army on it loses
    /// the fight to `army`. One pass over the tiles in reach, each looked at once.
    pub fn safe_destinations(&self, army: &Army) -> Tiles {
        let mut out = Tiles::new();
        let (x, y) = (army.pos.x, army.pos.y);
        for (dx, dy) in DIRECTIONS {
            for k in 1..=army.kind.reach() {
                let (tx, ty) = (i32::from(x) + dx * k, i32::from(y) + dy * k);
                // Off the map, and so is every farther tile this way (the board's armies
                // stand on it).
                let (Ok(tx), Ok(ty)) = (u8::try_from(tx), u8::try_from(ty)) else {
                    break;
                };
                let Some(i) = self.index(Pos::new(tx, ty)) else {
                    break;
                };
                let beaten = |k: usize| {
                    let other = &self.armies[k];
                    other.owner == army.owner || fight(army.kind, other.kind) == Survivor::First
                };
                let survives =
                    self.terrain[i] != Terrain::Water && self.occupant_at(i).is_none_or(beaten);
                if !survives {
                    // Farther tiles this way are entered through this one.
                    break;
                }
                if !self.is_own_at(army.owner, i) {
                    out.push(Pos::new(tx, ty));
                }
            }
        }
        out
    }

    /// Steps from `from` to every tile, walking around water (armies do not block); `None`
    /// where unreachable. Indexed like [`Board::index`].
    /// [`Distances`] keeps these searches from turn to turn and answers the same.
    pub fn distances(&self, from: Pos) -> Vec<Option<u32>> {
        let mut steps: Vec<u16> = self.water().map(blank).collect();
        if let Some(start) = self.index(from) {
            search(self.width, start, &mut steps);
        }
        steps
            .iter()
            .map(|&d| (d < BLOCKED).then_some(u32::from(d)))
            .collect()
    }

    /// Positions of the resources still on the map, in reading order.
    /// [`Board::resource_tiles`] lists the same without allocating.
    pub fn resources(&self) -> Vec<(Pos, Resource)> {
        self.resource_tiles().collect()
    }

    /// The resources still on the map, in reading order, read in place.
    pub fn resource_tiles(&self) -> impl Iterator<Item = (Pos, Resource)> + '_ {
        let width = usize::from(self.width).max(1);
        self.resource_list.iter().filter_map(move |&i| {
            let i = usize::from(i);
            match self.terrain[i] {
                // Lossless: an index of a map of at most 255×255 tiles.
                Terrain::Resource(r) => Some((Pos::new((i % width) as u8, (i / width) as u8), r)),
                _ => None,
            }
        })
    }

    /// Whether each tile is water, in reading order (the tiles [`Board::distances`]
    /// walks around).
    pub fn water(&self) -> impl Iterator<Item = bool> + '_ {
        self.terrain.iter().map(|t| *t == Terrain::Water)
    }
}

/// A tile no way leads to (yet), in a search's steps.
const UNREACHED: u16 = u16::MAX;
/// A water tile, in a search's steps: never entered. Every value from it up means "no way".
const BLOCKED: u16 = u16::MAX - 1;

/// What a search's steps hold on a tile before it starts: [`BLOCKED`] on water, else
/// [`UNREACHED`].
fn blank(water: bool) -> u16 {
    if water { BLOCKED } else { UNREACHED }
}

/// Breadth-first steps from tile `start` to every tile of a map `width` columns wide, into
/// `steps`, which holds [`blank`] tiles (`start` itself may be water); unreachable tiles
/// keep their blank value. Water is marked in `steps` itself, so each neighbour costs one
/// test. Every index is below `steps.len()`, at most 255×255: a `u16` holds any index and
/// any distance.
fn search(width: u8, start: usize, steps: &mut [u16]) {
    let tiles = steps.len();
    let width = usize::from(width);
    if start >= tiles || width == 0 {
        return;
    }
    let height = tiles / width;
    steps[start] = 0;
    // Tiles in the order reached, each once: a breadth-first queue that is never popped,
    // its end kept in a local (a bot pays fuel for every instruction, and a `Vec`'s push
    // checks and stores its length each time).
    let mut queue = vec![0u16; tiles];
    // Lossless: an index of a map of at most 255×255 tiles.
    queue[0] = start as u16;
    let (mut head, mut tail) = (0, 1);
    while head < tail {
        let i = usize::from(queue[head]);
        head += 1;
        let next = steps[i] + 1;
        let reach = |j: usize| {
            if steps[j] == UNREACHED {
                steps[j] = next;
                // Lossless as above; `tail` stays below `tiles`: each tile comes once.
                queue[tail] = j as u16;
                tail += 1;
            }
        };
        crate::pos::for_each_neighbour(i, width, height, reach);
    }
}

/// The masks [`search_small`] walks a map of at most 64 tiles with (bit `i` is tile `i` in
/// reading order).
#[derive(Debug, Clone, Copy, Default)]
struct SmallMap {
    /// Columns (below 64).
    width: u8,
    /// The dry tiles.
    dry: u64,
    /// The tiles with a column to their left, and to their right.
    not_first: u64,
    not_last: u64,
}

impl SmallMap {
    /// The masks of a map of `tiles` tiles, `width` columns wide, whose water tiles are
    /// `water_tiles` (indices); `None` unless it has at most 64 tiles (and at least one).
    /// Built a row and a water tile at a time, not a tile at a time (a bot pays fuel for
    /// each tile's tests).
    fn new(width: u8, tiles: usize, water_tiles: &[usize]) -> Option<SmallMap> {
        let w = usize::from(width);
        if tiles == 0 || tiles > 64 || w == 0 || w >= 64 {
            return None;
        }
        let all = u64::MAX >> (64 - tiles);
        // The first column: one bit a row.
        let mut first = 0u64;
        let mut i = 0;
        while i < tiles {
            first |= 1 << i;
            i += w;
        }
        // The last column is the first shifted along a row (a short last row has none).
        let last = (first << (w - 1)) & all;
        let mut wet = 0u64;
        for &i in water_tiles {
            // Water tiles are tiles of the map: below 64.
            wet |= 1u64
                .checked_shl(u32::try_from(i).unwrap_or(64))
                .unwrap_or(0);
        }
        Some(SmallMap {
            width,
            dry: all & !wet,
            not_first: all & !first,
            not_last: all & !last,
        })
    }
}

/// [`search`] on a map of at most 64 tiles, a whole layer at a time: the tiles reached at
/// each distance are one mask (the last layer's shifted a column left and right and a row
/// up and down, kept to dry tiles not reached before), so a tile costs one store instead of
/// a queue's bookkeeping and four tests of its neighbours (a search from a goal of a 7×7
/// map: ~1 k fuel instead of ~4 k).
fn search_small(map: &SmallMap, start: usize, steps: &mut [u16]) {
    if start >= steps.len() || start >= 64 {
        return;
    }
    let width = u32::from(map.width);
    steps[start] = 0;
    let mut seen = 1u64 << start;
    let mut layer = seen;
    let mut distance = 0u16;
    while layer != 0 {
        distance += 1;
        let next = (((layer & map.not_last) << 1)
            | ((layer & map.not_first) >> 1)
            | (layer << width)
            | (layer >> width))
            & map.dry
            & !seen;
        seen |= next;
        let mut tiles = next;
        while tiles != 0 {
            // `dry` holds only tiles of the map: below `steps.len()`.
            if let Some(step) = steps.get_mut(tiles.trailing_zeros() as usize) {
                *step = distance;
            }
            tiles &= tiles - 1;
        }
        layer = next;
    }
}

/// Steps between tiles around water ([`Board::distances`]'s answers), remembered from turn
/// to turn: one breadth-first search per tile asked about, done the first time it is asked.
/// Armies do not block and only water does, which never changes during a game, so a bot
/// keeps one `Distances` for the whole game and calls [`Distances::fit`] with each turn's
/// board (the searches are dropped only if the map's water is not theirs).
///
/// ```
/// use arena_sdk::conquest::{Board, Distances, Pos, Terrain};
/// // . ~ .
/// // . ~ .      ~ water
/// // . . .
/// let mut board = Board::empty(3, 3, [Pos::new(0, 0), Pos::new(2, 0)]);
/// board.set_terrain(Pos::new(1, 0), Terrain::Water);
/// board.set_terrain(Pos::new(1, 1), Terrain::Water);
/// let mut distances = Distances::default();
/// distances.fit(&board);
/// // Down, across the bottom row and up again.
/// assert_eq!(distances.between(Pos::new(0, 0), Pos::new(2, 0)), Some(6));
/// assert_eq!(distances.field(Pos::new(0, 2)).get(Pos::new(2, 2)), Some(2));
/// ```
#[derive(Debug, Clone, Default)]
pub struct Distances {
    width: u8,
    height: u8,
    /// Which tiles are water, in reading order: the map the searches belong to.
    water: Vec<bool>,
    /// The indices of the water tiles.
    water_tiles: Vec<usize>,
    /// The water tiles' positions: a way between two tiles that none of them blocks needs
    /// no search ([`Distances::between`]).
    water_at: Vec<Pos>,
    /// The water a row at a time (bit `x` of row `y`) and a column at a time (bit `y` of
    /// column `x`), on maps of at most 64 columns and rows (else empty): whether a straight
    /// stretch is dry is then one mask.
    water_rows: Vec<u64>,
    water_columns: Vec<u64>,
    /// A search's steps before it starts ([`blank`]).
    blank: Box<[u16]>,
    /// The map's masks if it has at most 64 tiles: its searches go a layer at a time
    /// ([`search_small`]).
    small: Option<SmallMap>,
    /// The search from each tile, once asked for.
    fields: Vec<std::cell::OnceCell<Box<[u16]>>>,
}

impl Distances {
    /// The distances of `board`'s map (no search is done yet).
    pub fn new(board: &Board) -> Distances {
        let mut distances = Distances::default();
        distances.fit(board);
        distances
    }

    /// Keep the searches done so far if `board`'s map is theirs (same size, same water),
    /// else start afresh for it.
    pub fn fit(&mut self, board: &Board) {
        // The same water tiles: as many, and each of ours is water there.
        let same = self.width == board.width
            && self.height == board.height
            && self.water.len() == board.terrain.len()
            && self.water_tiles.len() == board.waters
            && self
                .water_tiles
                .iter()
                .all(|&i| board.terrain.get(i) == Some(&Terrain::Water));
        if !same {
            self.width = board.width;
            self.height = board.height;
            // One pass over the tiles for the water's indices; the per-tile lists are
            // filled and then marked at the (few) water tiles (a bot pays fuel per tile).
            self.water_tiles = (board.terrain.iter().enumerate())
                .filter(|(_, t)| **t == Terrain::Water)
                .map(|(i, _)| i)
                .collect();
            let tiles = board.terrain.len();
            self.water = vec![false; tiles];
            let mut blanks = vec![blank(false); tiles];
            for &i in &self.water_tiles {
                self.water[i] = true;
                blanks[i] = blank(true);
            }
            self.blank = blanks.into_boxed_slice();
            let width = usize::from(self.width).max(1);
            self.water_at = (self.water_tiles.iter())
                // Lossless: an index of a map of at most 255×255 tiles.
                .map(|&i| Pos::new((i % width) as u8, (i / width) as u8))
                .collect();
            self.water_rows.clear();
            self.water_columns.clear();
            if self.width <= 64 && self.height <= 64 {
                self.water_rows.resize(usize::from(self.height), 0);
                self.water_columns.resize(usize::from(self.width), 0);
                for w in &self.water_at {
                    self.water_rows[usize::from(w.y)] |= 1 << w.x;
                    self.water_columns[usize::from(w.x)] |= 1 << w.y;
                }
            }
            self.small = SmallMap::new(self.width, self.water.len(), &self.water_tiles);
            // Fresh cells made in place (cloning an empty cell tests it for a value first).
            self.fields.clear();
            self.fields
                .resize_with(self.water.len(), std::cell::OnceCell::new);
        }
    }

    #[inline]
    fn index(&self, p: Pos) -> Option<usize> {
        (p.x < self.width && p.y < self.height)
            .then(|| usize::from(p.y) * usize::from(self.width) + usize::from(p.x))
    }

    fn steps_from(&self, i: usize) -> &[u16] {
        match self.fields.get(i) {
            Some(cell) => cell.get_or_init(|| {
                let mut steps = self.blank.clone();
                match &self.small {
                    Some(map) => search_small(map, i, &mut steps),
                    None => search(self.width, i, &mut steps),
                }
                steps
            }),
            None => &[],
        }
    }

    /// Whether no water lies in the rectangle with corners `a` and `b` (both included): then
    /// the steps between any two tiles in it are their straight-line (Manhattan) distance
    /// (a staircase inside it walks that far), which a bot may use without asking
    /// [`Distances::between`] for each.
    pub fn dry_rectangle(&self, a: Pos, b: Pos) -> bool {
        let xs = a.x.min(b.x)..=a.x.max(b.x);
        let ys = a.y.min(b.y)..=a.y.max(b.y);
        !self
            .water_at
            .iter()
            .any(|w| xs.contains(&w.x) && ys.contains(&w.y))
    }

    /// Whether one of the two L-shaped ways from `a` to `b` (along `a`'s row then `b`'s
    /// column, or along `a`'s column then `b`'s row; ends included) crosses no water: then
    /// the way is as long as the straight-line (Manhattan) distance, and none is shorter.
    #[inline]
    fn dry_corner_way(&self, a: Pos, b: Pos) -> bool {
        // Bits `lo..=hi` (both below 64).
        let span = |p: u8, q: u8| (u64::MAX >> (63 - p.max(q))) & (u64::MAX << p.min(q));
        if let (Some(&row_a), Some(&row_b), Some(&column_a), Some(&column_b)) = (
            self.water_rows.get(usize::from(a.y)),
            self.water_rows.get(usize::from(b.y)),
            self.water_columns.get(usize::from(a.x)),
            self.water_columns.get(usize::from(b.x)),
        ) {
            let (xs, ys) = (span(a.x, b.x), span(a.y, b.y));
            return (row_a & xs == 0 && column_b & ys == 0)
                || (column_a & ys == 0 && row_b & xs == 0);
        }
        let xs = a.x.min(b.x)..=a.x.max(b.x);
        let ys = a.y.min(b.y)..=a.y.max(b.y);
        let (mut row_first, mut column_first) = (true, true);
        for w in &self.water_at {
            let (in_xs, in_ys) = (xs.contains(&w.x), ys.contains(&w.y));
            row_first &= !((w.y == a.y && in_xs) || (w.x == b.x && in_ys));
            column_first &= !((w.x == a.x && in_ys) || (w.y == b.y && in_xs));
        }
        row_first || column_first
    }

    /// Steps from `from` to every tile: `board.distances(from)` (searched the first time).
    /// Off the map, every tile is unreachable.
    pub fn field(&self, from: Pos) -> Field<'_> {
        Field {
            width: self.width,
            height: self.height,
            steps: self.index(from).map_or(&[], |i| self.steps_from(i)),
        }
    }

    /// Steps from `from` to `to`: `board.distances(from)` at `to`. Read from the search
    /// from `to`, so that the many questions of a turn about one goal share one search: the
    /// way is the same both ways between two dry tiles; into water there is none; out of
    /// water it is one step onto the best dry neighbour. Until `to` is searched, two tiles
    /// joined by a dry L-shaped way are answered without a search (its length, the
    /// straight-line distance, is the shortest there is).
    pub fn between(&self, from: Pos, to: Pos) -> Option<u32> {
        let (i, j) = (self.index(from)?, self.index(to)?);
        if i == j {
            return Some(0);
        }
        if self.water[j] {
            return None;
        }
        let steps = match self.fields[j].get() {
            Some(steps) => steps,
            None if self.dry_corner_way(from, to) => return Some(from.manhattan(to)),
            None => self.steps_from(j),
        };
        // Water and unreached tiles hold BLOCKED or more (`to` is dry: no search enters
        // water).
        let dry = |k: usize| (steps[k] < BLOCKED).then(|| steps[k]);
        let best = if self.water[i] {
            let mut best = None;
            crate::pos::for_each_neighbour(
                i,
                usize::from(self.width),
                usize::from(self.height),
                |k| {
                    if let Some(d) = dry(k) {
                        best = Some(best.map_or(d + 1, |b: u16| b.min(d + 1)));
                    }
                },
            );
            best
        } else {
            dry(i)
        };
        best.map(u32::from)
    }

    /// The goal nearest `from` ([`Distances::between`]) and its distance; ties go to the
    /// smallest position (column first). `None` if no goal can be reached.
    ///
    /// Goals farther as the crow flies than the nearest found so far are skipped unasked
    /// (no way is shorter than that), so their searches are not done for nothing.
    pub fn nearest(&self, from: Pos, goals: impl IntoIterator<Item = Pos>) -> Option<(u32, Pos)> {
        let mut best: Option<(u32, Pos)> = None;
        for goal in goals {
            if best.is_some_and(|(steps, _)| from.manhattan(goal) > steps) {
                continue;
            }
            if let Some(steps) = self.between(from, goal)
                && best.is_none_or(|b| (steps, goal) < b)
            {
                best = Some((steps, goal));
            }
        }
        best
    }
}

/// Steps from one tile to every tile around water: what [`Distances::field`] answers.
#[derive(Debug, Clone, Copy)]
pub struct Field<'a> {
    width: u8,
    height: u8,
    /// Per tile in reading order; [`BLOCKED`] or more where no way leads.
    steps: &'a [u16],
}

impl Field<'_> {
    /// Steps to `p`; `None` if no way leads there (or it is off the map).
    #[inline]
    pub fn get(&self, p: Pos) -> Option<u32> {
        if p.x >= self.width || p.y >= self.height {
            return None;
        }
        let i = usize::from(p.y) * usize::from(self.width) + usize::from(p.x);
        match self.steps.get(i) {
            Some(&d) if d < BLOCKED => Some(u32::from(d)),
            _ => None,
        }
    }
}

/// The binary encoding's in-place reader ([`crate::wire`]) for this module's types.
mod decode {
    use super::*;
    use crate::wire::{Decode, Reader, WireError, decode_enum, decode_struct};

    decode_enum!(Kind {
        Spearman,
        Archer,
        Knight,
        Scout
    });
    decode_struct!(Army {
        id,
        owner,
        kind,
        pos
    });
    decode_struct!(Resources { wood, food, gold });
    decode_struct!(Price { kind, cost });
    decode_struct!(Observation {
        year,
        last_year,
        seat,
        width,
        height,
        homes,
        water,
        wood,
        food,
        gold,
        armies,
        resources,
        prices,
        last_rejected
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fight_table_is_the_documents() {
        use Kind::*;
        use Survivor::*;
        // Rows attack columns, in the document's order S, K, A, T.
        let order = [Spearman, Knight, Archer, Scout];
        let table = [
            [Neither, First, Second, First],
            [Second, Neither, First, First],
            [First, Second, Neither, First],
            [Second, Second, Second, Neither],
        ];
        for (i, &a) in order.iter().enumerate() {
            for (j, &b) in order.iter().enumerate() {
                assert_eq!(fight(a, b), table[i][j], "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn orders_may_be_empty_but_not_something_else() {
        let pass: Orders = serde_json::from_str("{}").unwrap();
        assert_eq!(pass, Orders::default());
        let moves: Orders = serde_json::from_str(
            r#"{"moves": [{"from": {"x": 1, "y": 2}, "to": {"x": 1, "y": 3}}]}"#,
        )
        .unwrap();
        assert_eq!(moves.moves[0].to, Pos::new(1, 3));
        assert!(serde_json::from_str::<Orders>(r#"{"dance": true}"#).is_err());
    }

    #[test]
    fn prices_are_the_documents() {
        assert_eq!(Kind::Spearman.price(), Resources::new(1, 1, 0));
        assert_eq!(Kind::Archer.price(), Resources::new(1, 0, 1));
        assert_eq!(Kind::Knight.price(), Resources::new(0, 1, 1));
        assert_eq!(Kind::Scout.price(), Resources::new(1, 1, 1));
        assert_eq!(
            START_RESOURCES.pay(Kind::Scout.price()),
            Some(Resources::new(1, 1, 1))
        );
        assert_eq!(Resources::new(0, 1, 1).pay(Kind::Spearman.price()), None);
    }

    #[test]
    fn a_move_enters_one_tile_or_a_scouts_two() {
        // The document: an army moves one step up, down, left or right; a scout one or two
        // in a straight line; never onto its own army or home.
        let mut board = Board::empty(7, 7, [Pos::new(1, 1), Pos::new(5, 5)]);
        let army = |kind, x, y| Army {
            id: 9,
            owner: 0,
            kind,
            pos: Pos::new(x, y),
        };
        let scout = army(Kind::Scout, 3, 3);
        assert_eq!(
            &*board.move_steps(&scout, Pos::new(3, 1)).unwrap(),
            &[Pos::new(3, 2), Pos::new(3, 1)]
        );
        assert_eq!(
            &*board.move_steps(&scout, Pos::new(4, 3)).unwrap(),
            &[Pos::new(4, 3)]
        );
        assert_eq!(
            board.move_steps(&scout, Pos::new(4, 4)),
            Err(MoveError::TooFar)
        );
        assert_eq!(
            board.move_steps(&scout, Pos::new(3, 6)),
            Err(MoveError::TooFar)
        );
        assert_eq!(
            board.move_steps(&scout, Pos::new(3, 3)),
            Err(MoveError::TooFar)
        );
        let knight = army(Kind::Knight, 1, 2);
        assert_eq!(
            board.move_steps(&knight, Pos::new(1, 1)),
            Err(MoveError::OwnTile)
        );
        assert_eq!(
            board.move_steps(&knight, Pos::new(1, 4)),
            Err(MoveError::TooFar)
        );
        assert_eq!(
            board.move_steps(&knight, Pos::new(1, 7)),
            Err(MoveError::OffMap)
        );
        board.place(army(Kind::Archer, 2, 2));
        assert_eq!(
            board.move_steps(&knight, Pos::new(2, 2)),
            Err(MoveError::OwnTile)
        );
        // check_move answers the same, as a list.
        for to in board.positions().chain([Pos::new(7, 3)]) {
            for mover in [scout, knight] {
                assert_eq!(
                    board.check_move(&mover, to),
                    board.move_steps(&mover, to).map(|s| s.to_vec())
                );
            }
        }
        // An army off the map (a bot may ask anything) enters only the tiles on it.
        let lost = army(Kind::Scout, 8, 3);
        assert_eq!(
            &*board.move_steps(&lost, Pos::new(6, 3)).unwrap(),
            &[Pos::new(6, 3)]
        );
    }

    #[test]
    fn distances_walk_around_water() {
        // . . . . .
        // . H ~ . .     H: home of seat 0 at (1,1); ~ water
        // . . ~ . .
        // . . ~ H .
        // . . . . .
        let mut board = Board::empty(5, 5, [Pos::new(1, 1), Pos::new(3, 3)]);
        for y in 1..=3 {
            board.set_terrain(Pos::new(2, y), Terrain::Water);
        }
        let d = board.distances(Pos::new(1, 2));
        let at = |x, y| d[board.index(Pos::new(x, y)).unwrap()];
        assert_eq!(at(1, 2), Some(0));
        // Around the lake, over the top or the bottom row: 6 steps, 2 as the crow flies.
        assert_eq!(at(3, 2), Some(6));
        assert_eq!(at(3, 3), Some(5));
        assert_eq!(at(2, 0), Some(3));
        // Water is never entered.
        assert_eq!(at(2, 2), None);
    }

    /// The 5×5 board of `distances_walk_around_water`: a lake from (2,1) to (2,3).
    fn lake_board() -> Board {
        let mut board = Board::empty(5, 5, [Pos::new(1, 1), Pos::new(3, 3)]);
        for y in 1..=3 {
            board.set_terrain(Pos::new(2, y), Terrain::Water);
        }
        board
    }

    #[test]
    fn kept_distances_answer_like_a_search() {
        // . . . . .
        // . H ~ . .
        // . a ~ b .     a (1,2), b (3,2)
        // . . ~ H .
        // . . . . .
        let board = lake_board();
        let distances = Distances::new(&board);
        let (a, b) = (Pos::new(1, 2), Pos::new(3, 2));
        // Around the lake: up to row 0, across, down again (or the same below).
        assert_eq!(distances.between(a, b), Some(6));
        assert_eq!(distances.field(a).get(Pos::new(3, 3)), Some(5));
        assert_eq!(distances.field(a).get(Pos::new(2, 0)), Some(3));
        // Into water there is no way; standing still is none.
        assert_eq!(distances.between(a, Pos::new(2, 2)), None);
        assert_eq!(distances.field(a).get(Pos::new(2, 2)), None);
        assert_eq!(distances.between(Pos::new(2, 2), Pos::new(2, 2)), Some(0));
        // Out of water: one step onto the better of (1,2) and (3,2), then on: 1 + 1.
        assert_eq!(distances.between(Pos::new(2, 2), Pos::new(3, 3)), Some(2));
        // Off the map: nothing.
        assert_eq!(distances.between(Pos::new(9, 9), a), None);
        assert_eq!(distances.field(Pos::new(9, 9)).get(a), None);
        assert_eq!(distances.field(a).get(Pos::new(5, 0)), None);
        // Every pair, as a fresh search from the start answers it.
        for from in board.positions() {
            let search = board.distances(from);
            let field = distances.field(from);
            for to in board.positions() {
                let expected = search[board.index(to).unwrap()];
                assert_eq!(distances.between(from, to), expected, "{from} -> {to}");
                assert_eq!(field.get(to), expected, "{from} -> {to}");
            }
        }
        // The nearest goal: (2,0) at 3 before (3,3) at 5 and b at 6; ties to the smaller
        // position: (0,2) before (1,1) and (1,3), all one step away.
        assert_eq!(
            distances.nearest(a, [b, Pos::new(3, 3), Pos::new(2, 0)]),
            Some((3, Pos::new(2, 0)))
        );
        assert_eq!(
            distances.nearest(a, [Pos::new(1, 3), Pos::new(1, 1), Pos::new(0, 2)]),
            Some((1, Pos::new(0, 2)))
        );
        assert_eq!(distances.nearest(a, [Pos::new(2, 1)]), None);
        assert_eq!(distances.nearest(a, []), None);
    }

    #[test]
    fn straight_ways_are_answered_without_a_search() {
        // . . . . .
        // . . ~ . .      ~ water at (2,1)
        // . . . . .
        let mut board = Board::empty(5, 3, [Pos::new(0, 2), Pos::new(4, 2)]);
        board.set_terrain(Pos::new(2, 1), Terrain::Water);
        let distances = Distances::new(&board);
        // Along the top row, then down: an L-shaped way is dry, no search is done.
        assert_eq!(distances.between(Pos::new(0, 0), Pos::new(4, 0)), Some(4));
        assert_eq!(distances.between(Pos::new(1, 1), Pos::new(3, 2)), Some(3));
        assert!(distances.fields.iter().all(|f| f.get().is_none()));
        // Straight down through the water both L-shaped ways are wet: the search goes
        // round it, (2,0) → (1,0) → (1,1) → (1,2) → (2,2).
        assert_eq!(distances.between(Pos::new(2, 0), Pos::new(2, 2)), Some(4));
        assert!(
            distances.fields[board.index(Pos::new(2, 2)).unwrap()]
                .get()
                .is_some()
        );
        // The rectangles: dry left of the water, wet around it.
        assert!(distances.dry_rectangle(Pos::new(0, 0), Pos::new(1, 2)));
        assert!(distances.dry_rectangle(Pos::new(4, 2), Pos::new(3, 0)));
        assert!(!distances.dry_rectangle(Pos::new(0, 0), Pos::new(2, 2)));
        assert!(!distances.dry_rectangle(Pos::new(2, 1), Pos::new(2, 1)));
        // A map wider than 64 columns has no row masks: the water is scanned, with the same
        // answers as a search.
        let mut wide = Board::empty(70, 2, [Pos::new(0, 1), Pos::new(69, 1)]);
        wide.set_terrain(Pos::new(66, 0), Terrain::Water);
        let far = Distances::new(&wide);
        assert!(far.water_rows.is_empty());
        for (from, to) in [((0, 0), (69, 0)), ((60, 1), (69, 0)), ((66, 1), (65, 0))] {
            let (from, to) = (Pos::new(from.0, from.1), Pos::new(to.0, to.1));
            let searched = wide.distances(from)[wide.index(to).unwrap()];
            assert_eq!(far.between(from, to), searched, "{from} to {to}");
        }
        assert_eq!(far.between(Pos::new(0, 0), Pos::new(69, 0)), Some(71));
    }

    #[test]
    fn small_maps_are_searched_a_layer_at_a_time() {
        // . . .
        // . ~ .      ~ water at (1,1), bit 4
        // . . .
        let mut water = [false; 9];
        water[4] = true;
        let map = SmallMap::new(3, 9, &[4]).unwrap();
        assert_eq!(map.dry, 0b111_101_111);
        // Bits 1, 2, 4, 5, 7, 8 have a column to their left; 0, 1, 3, 4, 6, 7 to their right.
        assert_eq!(map.not_first, 0b110_110_110);
        assert_eq!(map.not_last, 0b011_011_011);
        let blank_steps: Vec<u16> = water.iter().map(|&w| blank(w)).collect();
        let mut steps = blank_steps.clone();
        search_small(&map, 0, &mut steps);
        // From the corner round the water: the far corner is 4 steps away either way.
        assert_eq!(steps, [0, 1, 2, 1, BLOCKED, 3, 2, 3, 4]);
        // From the water itself: one step onto each side's middle.
        let mut steps = blank_steps.clone();
        search_small(&map, 4, &mut steps);
        assert_eq!(steps, [2, 1, 2, 1, 0, 1, 2, 1, 2]);
        // Too many tiles, or a row of 64: no masks (the queue's search answers).
        assert!(SmallMap::new(9, 81, &[]).is_none());
        assert!(SmallMap::new(64, 64, &[]).is_none());
        assert!(SmallMap::new(8, 64, &[]).is_some());
        // A short last row: 3 columns, 7 tiles (bits 0-6), water on bit 4. The first column
        // is bits 0, 3, 6 (73), the last bits 2 and 5 (36; the short row has none).
        let short = SmallMap::new(3, 7, &[4]).unwrap();
        assert_eq!(short.dry, 127 - 16);
        assert_eq!(short.not_first, 127 - 73);
        assert_eq!(short.not_last, 127 - 36);
        // A full 8×8 map: every bit of the 64 is a tile.
        let full = SmallMap::new(8, 64, &[63]).unwrap();
        assert_eq!(full.dry, u64::MAX >> 1);
        assert_eq!(full.not_first, !0x0101_0101_0101_0101);
        assert_eq!(full.not_last, !0x8080_8080_8080_8080);
        // Both searches agree on maps of a walled corner, a column and a full 8×8.
        let mut walled = Board::empty(8, 8, [Pos::new(0, 0), Pos::new(7, 7)]);
        for p in [(1, 0), (1, 1), (0, 2), (5, 5), (6, 5), (5, 6)] {
            walled.set_terrain(Pos::new(p.0, p.1), Terrain::Water);
        }
        let column = Board::empty(1, 5, [Pos::new(0, 0), Pos::new(0, 4)]);
        for board in [&walled, &column] {
            let water: Vec<bool> = board.water().collect();
            let wet: Vec<usize> = (0..water.len()).filter(|&i| water[i]).collect();
            let map = SmallMap::new(board.width(), water.len(), &wet).unwrap();
            for start in 0..water.len() {
                let mut by_layers: Vec<u16> = water.iter().map(|&w| blank(w)).collect();
                let mut by_queue = by_layers.clone();
                search_small(&map, start, &mut by_layers);
                search(board.width(), start, &mut by_queue);
                assert_eq!(by_layers, by_queue, "from tile {start}");
            }
        }
    }

    #[test]
    fn a_tile_is_its_terrain_and_its_army() {
        let mut board = Board::empty(3, 2, [Pos::new(0, 0), Pos::new(2, 1)]);
        board.set_terrain(Pos::new(1, 1), Terrain::Water);
        let knight = Army {
            id: 7,
            owner: 1,
            kind: Kind::Knight,
            pos: Pos::new(1, 0),
        };
        board.place(knight);
        assert_eq!(board.tile(Pos::new(0, 0)), Some((Terrain::Home(0), None)));
        assert_eq!(
            board.tile(Pos::new(1, 0)),
            Some((Terrain::Plain, Some(&knight)))
        );
        assert_eq!(board.tile(Pos::new(1, 1)), Some((Terrain::Water, None)));
        // Off the map, a column and a row out.
        assert_eq!(board.tile(Pos::new(3, 0)), None);
        assert_eq!(board.tile(Pos::new(0, 2)), None);
    }

    #[test]
    fn an_army_can_move_unless_boxed_in() {
        // A spearman in the corner, its own home to the right and its own knight below;
        // a scout there jumps over the knight.
        let mut board = Board::empty(4, 4, [Pos::new(1, 0), Pos::new(3, 3)]);
        let army = |id, kind, x, y| Army {
            id,
            owner: 0,
            kind,
            pos: Pos::new(x, y),
        };
        board.place(army(1, Kind::Knight, 0, 1));
        let spearman = army(2, Kind::Spearman, 0, 0);
        assert!(!board.can_move(&spearman));
        assert!(board.destinations(&spearman).is_empty());
        assert!(board.can_move(&army(3, Kind::Scout, 0, 0)));
        // The knight may step down or right, even onto water (it drowns there).
        board.set_terrain(Pos::new(1, 1), Terrain::Water);
        assert!(board.can_move(&army(1, Kind::Knight, 0, 1)));
        // An enemy spearman in the corner may take the home.
        assert!(board.can_move(&Army {
            owner: 1,
            ..spearman
        }));
    }

    #[test]
    fn kept_distances_follow_the_maps_water() {
        let mut distances = Distances::new(&lake_board());
        let (a, b) = (Pos::new(1, 2), Pos::new(3, 2));
        assert_eq!(distances.between(a, b), Some(6));
        // Same map: the searches are kept. Without the lake's middle: straight across.
        distances.fit(&lake_board());
        assert_eq!(distances.between(a, b), Some(6));
        let mut drained = lake_board();
        drained.set_terrain(Pos::new(2, 2), Terrain::Plain);
        distances.fit(&drained);
        assert_eq!(distances.between(a, b), Some(2));
        // Another size: every tile afresh.
        distances.fit(&Board::empty(3, 3, [Pos::new(0, 0), Pos::new(2, 2)]));
        assert_eq!(distances.between(Pos::new(0, 0), Pos::new(2, 2)), Some(4));
        assert_eq!(distances.between(a, b), None);
    }

    #[test]
    fn destinations_and_recruit_spots_list_what_the_rules_allow() {
        let mut board = Board::empty(7, 7, [Pos::new(1, 1), Pos::new(5, 5)]);
        let army = |id, kind, x, y| Army {
            id,
            owner: 0,
            kind,
            pos: Pos::new(x, y),
        };
        let scout = army(1, Kind::Scout, 3, 3);
        board.place(army(2, Kind::Knight, 3, 2));
        // Up (over its own knight: one step refused, two allowed), right, down, left.
        assert_eq!(
            &*board.destinations(&scout),
            &[
                Pos::new(3, 1),
                Pos::new(4, 3),
                Pos::new(5, 3),
                Pos::new(3, 4),
                Pos::new(3, 5),
                Pos::new(2, 3),
                Pos::new(1, 3),
            ]
        );
        // In the corner: right and down only.
        let corner = army(3, Kind::Spearman, 0, 0);
        assert_eq!(
            board.destinations(&corner).into_iter().collect::<Vec<_>>(),
            [Pos::new(1, 0), Pos::new(0, 1)]
        );
        // The same as every tile move_steps allows, in the same order.
        for mover in [scout, corner, army(4, Kind::Archer, 1, 2)] {
            let mut allowed = Vec::new();
            for d in DIRECTIONS {
                for k in 1..=mover.kind.reach() {
                    if let Some(to) = mover.pos.offset(d, k, 7, 7)
                        && board.move_steps(&mover, to).is_ok()
                    {
                        allowed.push(to);
                    }
                }
            }
            assert_eq!(&*board.destinations(&mover), &allowed[..]);
        }
        // Recruiting: the free plain tiles next to the home, up, right, down, left.
        board.place(army(5, Kind::Archer, 2, 1));
        board.set_terrain(Pos::new(1, 2), Terrain::Resource(Resource::Gold));
        assert_eq!(&*board.recruit_spots(0), &[Pos::new(1, 0), Pos::new(0, 1)]);
        assert_eq!(board.recruit_spots(1).len(), 4);
        assert_eq!(
            board.resource_tiles().collect::<Vec<_>>(),
            board.resources()
        );
        assert_eq!(board.resources(), [(Pos::new(1, 2), Resource::Gold)]);
    }

    #[test]
    fn safe_destinations_avoid_water_and_fights_not_won() {
        // 7×7, homes (1,1) and (5,5). Seat 0's scout on (3,3), its knight on (3,2), water
        // on (4,3), enemy archer on (3,4) and enemy scout on (1,3):
        //   up: over its own knight to (3,1) (the knight's tile itself is its own);
        //   right: into water, so neither (4,3) nor (5,3) behind it;
        //   down: the archer beats a scout, so nothing that way;
        //   left: (2,3), but not on to (1,3) (scouts destroy each other).
        let mut board = Board::empty(7, 7, [Pos::new(1, 1), Pos::new(5, 5)]);
        let army = |id, owner, kind, x, y| Army {
            id,
            owner,
            kind,
            pos: Pos::new(x, y),
        };
        let scout = army(1, 0, Kind::Scout, 3, 3);
        board.place(scout);
        board.place(army(2, 0, Kind::Knight, 3, 2));
        board.set_terrain(Pos::new(4, 3), Terrain::Water);
        board.place(army(3, 1, Kind::Archer, 3, 4));
        board.place(army(4, 1, Kind::Scout, 1, 3));
        assert_eq!(
            &*board.safe_destinations(&scout),
            &[Pos::new(3, 1), Pos::new(2, 3)]
        );
        // A knight on (5,1): up to plain (5,0), right onto wood (6,1), down onto an archer
        // it beats (5,2); not left onto a spearman (which beats a knight).
        let knight = army(5, 0, Kind::Knight, 5, 1);
        board.place(knight);
        board.set_terrain(Pos::new(6, 1), Terrain::Resource(Resource::Wood));
        board.place(army(6, 1, Kind::Archer, 5, 2));
        board.place(army(7, 1, Kind::Spearman, 4, 1));
        assert_eq!(
            &*board.safe_destinations(&knight),
            &[Pos::new(5, 0), Pos::new(6, 1), Pos::new(5, 2)]
        );
        // The destinations whose every entered tile is dry and holds no army it does not
        // beat, in the same order.
        for mover in [scout, knight, army(8, 1, Kind::Scout, 1, 3)] {
            let survives = |to: Pos| {
                board.move_steps(&mover, to).is_ok_and(|steps| {
                    steps.iter().all(|&tile| {
                        board.terrain(tile) != Some(Terrain::Water)
                            && board.army_at(tile).is_none_or(|other| {
                                other.owner == mover.owner
                                    || fight(mover.kind, other.kind) == Survivor::First
                            })
                    })
                })
            };
            let expected: Vec<Pos> = board
                .destinations(&mover)
                .into_iter()
                .filter(|&to| survives(to))
                .collect();
            assert_eq!(&*board.safe_destinations(&mover), &expected[..]);
        }
    }

    #[test]
    fn an_update_lists_what_setting_each_tile_lists() {
        // A tile listed as water and as food, wood on a home, gold twice: the board ends
        // as `set_terrain` on each listed tile in turn (water, wood, food, gold) leaves it.
        let obs = Observation {
            year: FIRST_YEAR,
            last_year: FIRST_YEAR + 99,
            seat: 0,
            width: 4,
            height: 3,
            homes: [Pos::new(1, 1), Pos::new(2, 1)],
            water: vec![Pos::new(3, 0), Pos::new(0, 2), Pos::new(3, 0)],
            wood: vec![Pos::new(2, 1), Pos::new(3, 2)],
            food: vec![Pos::new(0, 2)],
            gold: vec![Pos::new(0, 0), Pos::new(0, 0), Pos::new(9, 9)],
            armies: vec![],
            resources: START_RESOURCES,
            prices: prices(),
            last_rejected: vec![],
        };
        let mut by_hand = Board::empty(4, 3, obs.homes);
        for p in [Pos::new(3, 0), Pos::new(0, 2), Pos::new(3, 0)] {
            by_hand.set_terrain(p, Terrain::Water);
        }
        by_hand.set_terrain(Pos::new(2, 1), Terrain::Resource(Resource::Wood));
        by_hand.set_terrain(Pos::new(3, 2), Terrain::Resource(Resource::Wood));
        by_hand.set_terrain(Pos::new(0, 2), Terrain::Resource(Resource::Food));
        by_hand.set_terrain(Pos::new(0, 0), Terrain::Resource(Resource::Gold));
        let board = Board::new(&obs);
        assert_eq!(board, by_hand);
        // One water tile is left, (3,0); four resources, in reading order.
        assert_eq!(board.waters, 1);
        assert_eq!(
            board.resources(),
            [
                (Pos::new(0, 0), Resource::Gold),
                (Pos::new(2, 1), Resource::Wood),
                (Pos::new(0, 2), Resource::Food),
                (Pos::new(3, 2), Resource::Wood),
            ]
        );
    }

    #[test]
    fn a_kept_board_updated_is_a_new_board() {
        // Two observations of different maps: updating one board with each in turn gives
        // what a fresh board gives, whatever was on it before.
        let first = Observation {
            year: FIRST_YEAR,
            last_year: FIRST_YEAR + 99,
            seat: 0,
            width: 5,
            height: 5,
            homes: [Pos::new(1, 1), Pos::new(3, 3)],
            water: vec![Pos::new(2, 2)],
            wood: vec![Pos::new(0, 4), Pos::new(4, 0)],
            food: vec![Pos::new(2, 0)],
            gold: vec![],
            armies: vec![Army {
                id: 0,
                owner: 1,
                kind: Kind::Knight,
                pos: Pos::new(3, 2),
            }],
            resources: START_RESOURCES,
            prices: prices(),
            last_rejected: vec![],
        };
        let second = Observation {
            width: 7,
            height: 5,
            homes: [Pos::new(1, 1), Pos::new(5, 3)],
            water: vec![Pos::new(3, 2), Pos::new(3, 3)],
            gold: vec![Pos::new(6, 4), Pos::new(0, 0)],
            armies: vec![],
            ..first.clone()
        };
        let mut kept = Board::default();
        for obs in [&first, &second, &first] {
            // Whatever a turn did to the board before.
            kept.set_terrain(Pos::new(4, 0), Terrain::Plain);
            kept.place(Army {
                id: 7,
                owner: 0,
                kind: Kind::Scout,
                pos: Pos::new(0, 1),
            });
            kept.update(obs);
            assert_eq!(kept, Board::new(obs));
        }
        // The same map turn after turn (only resources and armies redone): what a turn
        // did to the board leaves no trace, a collection or anything else.
        let mut kept = Board::new(&first);
        let edits: [fn(&mut Board); 4] = [
            |b| b.set_terrain(Pos::new(2, 0), Terrain::Plain),
            |b| b.relocate(0, Pos::new(4, 2)),
            |b| b.set_terrain(Pos::new(0, 0), Terrain::Water),
            |b| {
                b.set_terrain(Pos::new(2, 2), Terrain::Plain);
                b.remove(0);
                b.place(Army {
                    id: 9,
                    owner: 0,
                    kind: Kind::Archer,
                    pos: Pos::new(0, 4),
                });
            },
        ];
        for edit in edits {
            edit(&mut kept);
            kept.update(&first);
            assert_eq!(kept, Board::new(&first));
        }
        // A later turn: the food collected, the knight elsewhere, a recruit of ours; then
        // lists that overlap (wood on the water and on a home): the next update starts
        // afresh.
        let later = Observation {
            food: vec![],
            armies: vec![
                Army {
                    id: 0,
                    owner: 1,
                    kind: Kind::Knight,
                    pos: Pos::new(2, 1),
                },
                Army {
                    id: 1,
                    owner: 0,
                    kind: Kind::Spearman,
                    pos: Pos::new(1, 0),
                },
            ],
            ..first.clone()
        };
        let overlapping = Observation {
            wood: vec![Pos::new(2, 2), Pos::new(3, 3)],
            ..later.clone()
        };
        for obs in [&later, &overlapping, &first, &later] {
            kept.set_terrain(Pos::new(4, 0), Terrain::Plain);
            kept.update(obs);
            assert_eq!(kept, Board::new(obs));
            assert_eq!(kept.waters, Board::new(obs).water().filter(|&w| w).count());
        }

        // The resources stay listed in reading order as tiles change.
        let mut board = Board::new(&second);
        assert_eq!(
            board.resources(),
            [
                (Pos::new(0, 0), Resource::Gold),
                (Pos::new(2, 0), Resource::Food),
                (Pos::new(4, 0), Resource::Wood),
                (Pos::new(0, 4), Resource::Wood),
                (Pos::new(6, 4), Resource::Gold),
            ]
        );
        board.set_terrain(Pos::new(2, 0), Terrain::Plain);
        board.set_terrain(Pos::new(4, 0), Terrain::Water);
        board.set_terrain(Pos::new(1, 4), Terrain::Resource(Resource::Food));
        board.set_terrain(Pos::new(0, 4), Terrain::Resource(Resource::Gold));
        assert_eq!(
            board.resource_tiles().collect::<Vec<_>>(),
            [
                (Pos::new(0, 0), Resource::Gold),
                (Pos::new(0, 4), Resource::Gold),
                (Pos::new(1, 4), Resource::Food),
                (Pos::new(6, 4), Resource::Gold),
            ]
        );
        // Distances see the new water at (4,0).
        let distances = Distances::new(&board);
        assert_eq!(distances.between(Pos::new(4, 1), Pos::new(4, 0)), None);
    }

    #[test]
    fn a_walk_stops_when_asked_and_moves_keep_the_occupants() {
        // A scout walks over wood onto gold: two collections and its arrival, unless the
        // walk is stopped at the first.
        let mut board = Board::empty(5, 5, [Pos::new(1, 1), Pos::new(3, 3)]);
        board.set_terrain(Pos::new(0, 3), Terrain::Resource(Resource::Wood));
        board.set_terrain(Pos::new(0, 4), Terrain::Resource(Resource::Gold));
        let scout = Army {
            id: 1,
            owner: 0,
            kind: Kind::Scout,
            pos: Pos::new(0, 2),
        };
        let mut seen = Vec::new();
        board
            .walk_move(&scout, Pos::new(0, 4), |e| {
                seen.push(e);
                true
            })
            .unwrap();
        assert_eq!(
            &*board.move_events(&scout, Pos::new(0, 4)).unwrap(),
            &seen[..]
        );
        assert_eq!(seen.len(), 3);
        let mut first = Vec::new();
        board
            .walk_move(&scout, Pos::new(0, 4), |e| {
                first.push(e);
                false
            })
            .unwrap();
        assert_eq!(first, seen[..1]);
        assert_eq!(
            board.walk_move(&scout, Pos::new(1, 3), |_| true),
            Err(MoveError::TooFar)
        );
        // Relocating keeps "which army stands here" right, even when a caller stacks two
        // armies on one tile (the later one placed is named, as before).
        board.place(scout);
        let other = Army {
            id: 2,
            pos: Pos::new(4, 0),
            ..scout
        };
        board.place(other);
        board.relocate(other.id, scout.pos);
        assert_eq!(board.army_at(scout.pos).map(|a| a.id), Some(2));
        assert_eq!(board.army_at(Pos::new(4, 0)), None);
        board.relocate(scout.id, Pos::new(0, 3));
        assert_eq!(board.army_at(scout.pos).map(|a| a.id), Some(2));
        assert_eq!(board.army_at(Pos::new(0, 3)).map(|a| a.id), Some(1));
        board.relocate(other.id, Pos::new(0, 3));
        assert_eq!(board.army_at(Pos::new(0, 3)).map(|a| a.id), Some(2));
        assert_eq!(board.army_at(scout.pos), None);
        board.relocate(other.id, Pos::new(4, 4));
        assert_eq!(board.army_at(Pos::new(0, 3)).map(|a| a.id), Some(1));
        assert_eq!(board.army_at(Pos::new(4, 4)).map(|a| a.id), Some(2));
        board.relocate(9, Pos::new(2, 2));
        assert_eq!(board.army_at(Pos::new(2, 2)), None);
    }

    #[test]
    fn moves_play_out_by_the_documents_rules() {
        // . . . . .
        // . H W . .     H: seat 0's home (1,1); W wood at (2,1)
        // . . ~ . .     ~ water at (2,2)
        // . . . H .     seat 1's home (3,3)
        // . . . . .
        let mut board = Board::empty(5, 5, [Pos::new(1, 1), Pos::new(3, 3)]);
        board.set_terrain(Pos::new(2, 1), Terrain::Resource(Resource::Wood));
        board.set_terrain(Pos::new(2, 2), Terrain::Water);
        let army = |id, owner, kind, x, y| Army {
            id,
            owner,
            kind,
            pos: Pos::new(x, y),
        };
        let scout = army(1, 0, Kind::Scout, 2, 0);
        let knight = army(2, 0, Kind::Knight, 3, 2);
        let archer = army(3, 1, Kind::Archer, 4, 2);
        let spearman = army(4, 1, Kind::Spearman, 0, 0);
        for a in [scout, knight, archer, spearman] {
            board.place(a);
        }
        // "Walking onto a resource collects 2 of it": the scout's two steps down collect
        // the wood, then it walks into water and drowns.
        let drown = board.move_events(&scout, Pos::new(2, 2)).unwrap();
        assert_eq!(
            &*drown,
            &[
                MoveEvent::Collect {
                    resource: Resource::Wood,
                    at: Pos::new(2, 1)
                },
                MoveEvent::Drown { at: Pos::new(2, 2) },
            ]
        );
        // Knight beats archer: it takes the archer's tile.
        let mut after = board.clone();
        let events = after.apply_move(&knight, Pos::new(4, 2)).unwrap();
        assert_eq!(
            &*events,
            &[
                MoveEvent::Fight {
                    defender: archer,
                    at: Pos::new(4, 2),
                    survivor: Survivor::First
                },
                MoveEvent::Arrive { at: Pos::new(4, 2) },
            ]
        );
        assert_eq!(after.army_at(Pos::new(4, 2)).map(|a| a.id), Some(knight.id));
        assert_eq!(after.armies().len(), 3);
        // The scout loses to the spearman (anyone beats the scout) and is gone.
        let events = after.apply_move(&scout, Pos::new(0, 0)).unwrap();
        assert_eq!(
            &*events,
            &[MoveEvent::Fight {
                defender: spearman,
                at: Pos::new(0, 0),
                survivor: Survivor::Second
            }]
        );
        assert!(after.armies().iter().all(|a| a.id != scout.id));
        // Onto the enemy home: captured. The wood is still there: only moves carried out
        // collect it.
        let capture = after.apply_move(&army(2, 0, Kind::Knight, 4, 2), Pos::new(4, 3));
        assert_eq!(capture.unwrap().len(), 1);
        let events = after
            .apply_move(&army(2, 0, Kind::Knight, 4, 3), Pos::new(3, 3))
            .unwrap();
        assert_eq!(&*events, &[MoveEvent::Capture { at: Pos::new(3, 3) }]);
        assert_eq!(after.army_at(Pos::new(3, 3)).map(|a| a.id), Some(knight.id));
        assert_eq!(
            after.terrain(Pos::new(2, 1)),
            Some(Terrain::Resource(Resource::Wood))
        );
        // An illegal move changes nothing.
        let before = after.clone();
        assert_eq!(
            after.apply_move(&spearman, Pos::new(2, 2)),
            Err(MoveError::TooFar)
        );
        assert_eq!(after, before);
    }
}
