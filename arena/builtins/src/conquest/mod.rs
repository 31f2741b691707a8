//! Built-in AIs for `conquest`, weakest first: [`Random`], [`Heuristic`] (collects,
//! recruits counters to what it sees, defends its home) and [`Strong`] (scores every move
//! against what the enemy can do next turn, walls its home, races when it is ahead).
//!
//! All three plan with [`Turn`]: a copy of the board on which their own orders are carried
//! out as the engine will, so a later order sees where earlier ones left the armies.
//!
//! They are exported as wasm sample bots, where every instruction is fuel the bot's turn
//! budget pays: [`Turn`] reads distances from the SDK's `Distances`, whose search from a
//! goal is done once a game (water never changes, so it answers every "how far to the goal"
//! of every turn), a bot keeps the planning board's memory from turn to turn ([`Memory`]),
//! and the helpers here count and scan the board in place instead of collecting lists.

mod heuristic;
mod random;
mod strong;

#[cfg(test)]
mod tests;

pub use heuristic::Heuristic;
pub use random::Random;
pub use strong::Strong;

use crate::{BuiltinInfo, Builtins};
use arena_sdk::conquest::{
    Army, ArmyId, Board, Conquest, Distances, Field, Kind, Move, MoveEvent, Observation, Orders,
    Pos, Recruit, Resource, Resources, Survivor, Terrain, fight,
};
use arena_sdk::{Bot, Mode, Seat};

const BUILTINS: &[BuiltinInfo] = &[
    BuiltinInfo {
        name: "random",
        mode: Mode::Conquest,
        summary: "recruits random affordable armies and moves each army to a random legal tile (water too)",
        strength: 1,
    },
    BuiltinInfo {
        name: "heuristic",
        mode: Mode::Conquest,
        summary: "collects the nearest resources, recruits counters to the enemy's armies, defends its home, then marches on the enemy home",
        strength: 3,
    },
    BuiltinInfo {
        name: "strong",
        mode: Mode::Conquest,
        summary: "scores each move against the enemy's next turn, walls its home when threatened, races for the capture when ahead",
        strength: 5,
    },
];

impl Builtins for Conquest {
    fn builtins() -> &'static [BuiltinInfo] {
        BUILTINS
    }

    fn create(name: &str) -> Option<Box<dyn Bot<Conquest> + Send>> {
        Some(match name {
            "random" => Box::new(Random::default()),
            "heuristic" => Box::new(Heuristic::default()),
            "strong" => Box::new(Strong::default()),
            _ => return None,
        })
    }
}

/// One turn being planned: the board as the player's orders so far leave it.
/// `Turn::default()` is a turn of an empty map, to be [`Turn::renew`]ed.
#[derive(Debug, Clone, Default)]
pub struct Turn {
    /// The board after the orders so far.
    pub board: Board,
    /// The player.
    pub seat: Seat,
    /// Its resources after the orders so far.
    pub stock: Resources,
    /// The orders so far.
    pub orders: Orders,
    moved: Vec<ArmyId>,
    next_id: ArmyId,
    /// The enemy home was captured: no more orders matter.
    pub won: bool,
    /// Enemy armies the orders so far have defeated (what a bot's tables of the enemy's
    /// armies have to be redone after).
    pub enemies_lost: u32,
    /// Distances around water, computed on first use.
    fields: Distances,
    /// The resources still on the planning board, in reading order.
    resources: Vec<(Pos, Resource)>,
}

/// What a bot keeps from one [`Turn`] to the next: the distance searches (kept while the
/// map's water is the same) and the planning board's and lists' memory, so a turn allocates
/// next to nothing.
#[derive(Debug, Clone, Default)]
pub struct Memory {
    fields: Distances,
    board: Board,
    resources: Vec<(Pos, Resource)>,
    moved: Vec<ArmyId>,
}

impl Turn {
    /// Start planning `obs`'s turn.
    pub fn new(obs: &Observation) -> Turn {
        Turn::with_memory(obs, Memory::default())
    }

    /// Start planning `obs`'s turn with what earlier turns kept ([`Turn::finish`] hands it
    /// back).
    pub fn with_memory(obs: &Observation, memory: Memory) -> Turn {
        let Memory {
            mut fields,
            mut board,
            mut resources,
            mut moved,
        } = memory;
        board.update(obs);
        fields.fit(&board);
        resources.clear();
        resources.extend(board.resource_tiles());
        moved.clear();
        Turn {
            fields,
            resources,
            board,
            seat: obs.seat,
            stock: obs.resources,
            // Room for every army's move without growing on the way.
            orders: Orders {
                recruit: Vec::new(),
                moves: Vec::with_capacity(obs.armies.len() + 4),
            },
            moved,
            // Ids of planned recruits only need to differ from real ones.
            next_id: u32::MAX / 2,
            won: false,
            enemies_lost: 0,
        }
    }

    /// The enemy's seat.
    pub fn enemy(&self) -> Seat {
        1 - self.seat
    }

    /// Start planning `obs`'s turn on this one's memory (what [`Turn::with_memory`] with
    /// this turn's memory answers): a bot that keeps its `Turn` moves nothing.
    pub fn renew(&mut self, obs: &Observation) {
        self.board.update(obs);
        self.fields.fit(&self.board);
        self.resources.clear();
        self.resources.extend(self.board.resource_tiles());
        self.moved.clear();
        self.seat = obs.seat;
        self.stock = obs.resources;
        // Room for every army's move without growing on the way.
        self.orders = Orders {
            recruit: Vec::new(),
            moves: Vec::with_capacity(obs.armies.len() + 4),
        };
        self.next_id = u32::MAX / 2;
        self.won = false;
        self.enemies_lost = 0;
    }

    /// The player's home.
    pub fn home(&self) -> Pos {
        self.board.homes()[usize::from(self.seat)]
    }

    /// The enemy's home.
    pub fn enemy_home(&self) -> Pos {
        self.board.homes()[usize::from(self.enemy())]
    }

    /// The player's armies that may still move, in id order.
    pub fn movable(&self) -> Vec<Army> {
        let mut armies: Vec<Army> = self
            .board
            .armies()
            .iter()
            .filter(|a| a.owner == self.seat && !self.moved.contains(&a.id))
            .copied()
            .collect();
        armies.sort_by_key(|a| a.id);
        armies
    }

    /// Whether army `id` has moved this turn.
    pub fn is_moved(&self, id: ArmyId) -> bool {
        self.moved.contains(&id)
    }

    /// How many armies [`Turn::movable`] lists.
    pub fn movable_count(&self) -> usize {
        self.board
            .armies()
            .iter()
            .filter(|a| a.owner == self.seat && !self.moved.contains(&a.id))
            .count()
    }

    /// The enemy's armies, in board order, without collecting them.
    pub fn enemies_iter(&self) -> impl Iterator<Item = &Army> + Clone {
        self.board.armies().iter().filter(|a| a.owner != self.seat)
    }

    /// The enemy's armies.
    pub fn enemies(&self) -> Vec<Army> {
        self.board
            .armies()
            .iter()
            .filter(|a| a.owner != self.seat)
            .copied()
            .collect()
    }

    /// Recruit `kind` onto `at` if the rules allow it; whether it did.
    pub fn recruit(&mut self, kind: Kind, at: Pos) -> bool {
        if self
            .board
            .check_recruit(self.seat, self.stock, kind, at)
            .is_err()
        {
            return false;
        }
        let Some(paid) = self.stock.pay(kind.price()) else {
            return false;
        };
        self.stock = paid;
        self.board.place(Army {
            id: self.next_id,
            owner: self.seat,
            kind,
            pos: at,
        });
        self.next_id += 1;
        self.orders.recruit.push(Recruit { kind, at });
        true
    }

    /// Recruit `kind` on our free recruiting spot nearest `target`; whether it did.
    pub fn recruit_nearest(&mut self, kind: Kind, target: Pos) -> bool {
        let spot = self
            .board
            .recruit_spots(self.seat)
            .into_iter()
            .min_by_key(|p| p.manhattan(target));
        spot.is_some_and(|at| self.recruit(kind, at))
    }

    /// The resources still on the planning board, in reading order (what
    /// [`Board::resources`] answers, kept up to date as orders collect them).
    pub fn resources(&self) -> &[(Pos, Resource)] {
        &self.resources
    }

    /// The armies worth having on the board: one per resource tile left, at most `cap`;
    /// as many as can be paid once the map is bare (then they attack).
    pub fn armies_wanted(&self, cap: usize) -> usize {
        match self.resources.len() {
            0 => usize::MAX,
            left => left.min(cap),
        }
    }

    /// Order `army` to `to` and carry it out on the planning board (the same steps as the
    /// engine). Returns false (and orders nothing) if the move is illegal.
    pub fn order(&mut self, army: &Army, to: Pos) -> bool {
        if self.moved.contains(&army.id) {
            return false;
        }
        if army.pos.manhattan(to) == 1
            && self.board.terrain(to) == Some(Terrain::Plain)
            && self.board.army_at(to).is_none()
        {
            // A quiet step (what most orders are): legal for every kind, onto a plain tile
            // no army holds, where nothing happens but arriving. `apply_move` would walk it
            // to the same end: the army relocated, no other event.
            self.board.relocate(army.id, to);
            self.moved.push(army.id);
            self.orders.moves.push(Move { from: army.pos, to });
            return true;
        }
        let Ok(events) = self.board.apply_move(army, to) else {
            return false;
        };
        self.moved.push(army.id);
        self.orders.moves.push(Move { from: army.pos, to });
        for event in events.iter() {
            match *event {
                MoveEvent::Capture { .. } => self.won = true,
                MoveEvent::Fight {
                    survivor: Survivor::First | Survivor::Neither,
                    ..
                } => self.enemies_lost += 1,
                MoveEvent::Collect { resource, at } => {
                    self.resources.retain(|&(p, _)| p != at);
                    self.stock = self
                        .stock
                        .plus(resource, arena_sdk::conquest::COLLECT_AMOUNT);
                }
                _ => {}
            }
        }
        true
    }

    /// The turn's orders, and what the next turn keeps.
    pub fn finish(self) -> (Orders, Memory) {
        let memory = Memory {
            fields: self.fields,
            board: self.board,
            resources: self.resources,
            moved: self.moved,
        };
        (self.orders, memory)
    }

    /// Steps from `from` to every tile around water, as [`Board::distances`] answers
    /// them (computed once per map and tile).
    pub fn field(&self, from: Pos) -> Field<'_> {
        self.fields.field(from)
    }

    /// Whether no water lies in the rectangle with corners `a` and `b`: the steps between
    /// tiles in it are their straight-line distance ([`Distances::dry_rectangle`]).
    pub fn dry_rectangle(&self, a: Pos, b: Pos) -> bool {
        self.fields.dry_rectangle(a, b)
    }

    /// Steps from `from` to `to` around water: `board.distances(from)` at `to`, read from
    /// the search from `to` ([`Distances::between`]).
    pub fn distance(&self, from: Pos, to: Pos) -> Option<u32> {
        self.fields.between(from, to)
    }

    /// The goal nearest `from` and its distance, ties to the smallest position
    /// ([`Distances::nearest`]): resources stay put, so their searches are done once a
    /// game, not once per army and turn.
    pub fn nearest(&self, from: Pos, goals: impl IntoIterator<Item = Pos>) -> Option<(u32, Pos)> {
        self.fields.nearest(from, goals)
    }
}

/// What a move onto `to` by `army` would meet there first (for scouts: the first tile
/// that is not the player's own).
pub fn meets(board: &Board, army: &Army, to: Pos) -> Option<Meeting> {
    let mut meeting = None;
    let mut collects = 0;
    // Only the first fight, capture or drowning matters: the walk stops there.
    board
        .walk_move(army, to, |event| {
            meeting = match event {
                MoveEvent::Fight {
                    defender, survivor, ..
                } => Some(match survivor {
                    Survivor::First => Meeting::Win(defender),
                    Survivor::Second => Meeting::Lose,
                    Survivor::Neither => Meeting::Trade(defender),
                }),
                MoveEvent::Capture { .. } => Some(Meeting::Capture),
                MoveEvent::Drown { .. } => Some(Meeting::Drown),
                MoveEvent::Collect { .. } => {
                    collects += 1;
                    None
                }
                MoveEvent::Arrive { .. } => None,
            };
            meeting.is_none()
        })
        .ok()?;
    Some(meeting.unwrap_or(Meeting::Arrive { collects }))
}

/// The outcome of a legal move, as [`meets`] predicts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meeting {
    /// It captures the enemy home.
    Capture,
    /// It defeats this enemy army and stands on its tile.
    Win(Army),
    /// It and this enemy army both disappear.
    Trade(Army),
    /// It disappears in a fight.
    Lose,
    /// It walks into water.
    Drown,
    /// It arrives, collecting this many resources on the way.
    Arrive {
        /// Resource tiles entered.
        collects: u32,
    },
}

/// The kind that defeats the most of `enemies` (ties: the cheaper kind, in `Kind::ALL`
/// order); a spearman against nobody.
pub fn best_counter<'a>(enemies: impl IntoIterator<Item = &'a Army> + Clone) -> Kind {
    [Kind::Spearman, Kind::Archer, Kind::Knight]
        .into_iter()
        .max_by_key(|&k| {
            let wins = (enemies.clone().into_iter())
                .filter(|e| fight(k, e.kind) == Survivor::First)
                .count();
            let losses = (enemies.clone().into_iter())
                .filter(|e| fight(k, e.kind) == Survivor::Second)
                .count();
            (wins as i64 - losses as i64, std::cmp::Reverse(k as u8))
        })
        .unwrap_or(Kind::Spearman)
}

/// The affordable kind nearest to `wanted`: itself, else another fighter, else nothing.
pub fn affordable(stock: Resources, wanted: Kind) -> Option<Kind> {
    std::iter::once(wanted)
        .chain([Kind::Spearman, Kind::Archer, Kind::Knight])
        .find(|k| stock.covers(k.price()))
}
