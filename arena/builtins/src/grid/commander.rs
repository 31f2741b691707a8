//! `commander`: our team strategy (see [`Commander`]).

use arena_sdk::Bot;
use arena_sdk::grid::{
    ADJACENT_DAMAGE, Action, Board, Direction, FRIEND_HEAL, Grid, Hero, HeroId, MAX_HEALTH,
    MINE_CAPTURE_DAMAGE, Mine, Observation, Pos, STAB_DAMAGE, SetupChoice, SetupRequest, Terrain,
    Tile, WELL_HEAL,
};
use std::cmp::Ordering;

/// Our team strategy. Each hero's turn, the commander
///
/// 1. gives the hero a goal: a health well when it is hurt (the safest one: enemies near a
///    well make it count as farther), else a hurt teammate to heal if it is the nearest
///    healthy hero, else a mine its team does not hold (mines are shared out, nearest hero
///    first, so heroes do not chase the same one), else the weakest enemy in reach (focus
///    fire), else the safest well to stand guard by;
/// 2. scores all five answers by simulating the hero's own turn with the real rules
///    (stab, capture, drink, heal, adjacent damage, kills) against the danger of the spot it
///    ends on (each enemy that could stab it there, 30, or step next to it, 20, before its
///    next turn) plus the progress towards its goal, and plays the best.
///
/// The scoring makes the tactics: stepping next to an enemy first (20 free damage),
/// finishing off weak enemies, drinking or healing a hurt teammate while still dealing
/// adjacent damage, and backing off before a fight it would lose.
#[derive(Debug, Clone, Default)]
pub struct Commander {
    /// The SDK's board, for the rare path search the commander does not do itself; it
    /// observes a turn only when that search is needed.
    board: Option<Board>,
    mines: Vec<Pos>,
    wells: Vec<Pos>,
    /// The layout of the tables below.
    frame: Frame,
    /// Terrain distance fields by goal tile: the steps from each walkable tile to act on
    /// the goal over the terrain, [`FAR`] where it cannot, [`BLOCKED`] on the tiles no hero
    /// stands on (but the goal's own: 0); empty until first asked for.
    fields: Vec<Vec<u16>>,
    /// A distance field before its search: [`FAR`] on walkable terrain (not a wall, mine
    /// or well), [`BLOCKED`] elsewhere and on the frame.
    blank: Vec<u16>,
    /// The breadth-first queue of [`flood`], kept.
    queue: Vec<usize>,
    /// Whether each tile is next to a well.
    by_well: Vec<bool>,
    /// For each tile, the mines in the order of the steps to act on them from it: entry
    /// `i` of the frame has the row `i × mines .. (i + 1) × mines` of (steps, mine), in
    /// increasing order ([`FAR`]: unreachable, last). A row is made the first time a
    /// hero fit to capture stands on its tile (the terrain never changes); the table,
    /// with every mine's field, the first time the mines are shared out.
    mine_order: Vec<(u16, u16)>,
    /// Whether each tile's row of `mine_order` is made.
    ordered: Vec<bool>,
    /// The static terrain of each tile (walls on the frame).
    terrain: Vec<Terrain>,
    /// The living hero on each tile this turn.
    occupant: Vec<Option<HeroId>>,
    /// The entries of `occupant` this turn marked (unmarked the next, instead of sweeping
    /// the board).
    marked: Vec<usize>,
    /// Lists a turn fills afresh, kept for the next (a wasm bot pays fuel for every
    /// allocation); boxed, so that a turn takes them out and puts them back by moving a
    /// pointer.
    buffers: Option<Box<Buffers>>,
}

/// See [`Commander::buffers`].
#[derive(Debug, Clone, Default)]
struct Buffers {
    /// The living enemies, by id.
    enemies: Vec<Hero>,
    /// The living enemies within three steps of the acting hero, by id: the only ones
    /// that can matter to its answer (hit by it, or threaten where it ends).
    near: Vec<Hero>,
    /// The enemies' least possible hunting costs (see [`Commander::goal`]): (cost, tile),
    /// the cost of camping by a well, the index in `enemies`.
    bounds: Vec<((u32, Pos), u32, usize)>,
    /// The heroes fit to capture: id and tile index.
    miners: Vec<(HeroId, Option<usize>)>,
    /// By mine: whether it is out of the sharing (the team holds it, or it went to a hero).
    mine_taken: Vec<bool>,
    /// Each miner's place in its row of [`Commander::mine_order`]: the mines before it are
    /// taken.
    cursors: Vec<usize>,
    /// Each miner's least (steps, mine) among the mines not taken; `FAR` once it is
    /// paired or when none is left.
    least: Vec<(u16, usize)>,
    health: Vec<u32>,
    at_well: Vec<bool>,
}

/// The owner of a mine the observation does not list (as the SDK's board reads it).
static NO_OWNER: Mine = Mine {
    owner: None,
    team: None,
};

/// A distance field's mark for a tile from which the goal cannot be reached.
const FAR: u16 = u16::MAX;

/// The layout of the commander's per-tile tables: the board in reading order with a
/// frame of one tile around it, so that every tile of the board has four neighbours in
/// the table and a search needs no edge tests.
#[derive(Debug, Clone, Copy, Default)]
struct Frame {
    width: u8,
    height: u8,
}

impl Frame {
    /// The table's row length.
    #[inline]
    fn stride(self) -> usize {
        usize::from(self.width) + 2
    }

    /// Entries in a table.
    fn len(self) -> usize {
        self.stride() * (usize::from(self.height) + 2)
    }

    /// The entry of `p`, if on the board.
    #[inline]
    fn at(self, p: Pos) -> Option<usize> {
        (p.x < self.width && p.y < self.height)
            .then(|| (usize::from(p.y) + 1) * self.stride() + usize::from(p.x) + 1)
    }
}

/// A tile a search does not pass through in [`Commander::blank`]: a wall, mine or well of
/// the board, or the frame.
const BLOCKED: u16 = FAR - 1;

/// Fill `field` with the steps from every walkable tile to act on tile `goal` (an entry
/// of `frame`), moving over walkable tiles only, [`FAR`] where it cannot be reached: a
/// breadth-first search from the goal (the way over walkable tiles is the same both ways),
/// like the SDK's `Board::terrain_distances`, whose answers it gives on walkable tiles.
/// `blank` is the table before a search ([`FAR`] on walkable tiles, [`BLOCKED`]
/// elsewhere); the other tiles keep [`BLOCKED`]: the commander reads a field only where a
/// hero stands or steps, which is walkable ground ([`reach`] gives nothing for them).
fn flood(frame: Frame, blank: &[u16], queue: &mut Vec<usize>, field: &mut Vec<u16>, goal: usize) {
    field.clear();
    field.extend_from_slice(blank);
    let stride = frame.stride();
    // Each tile enters the queue at most once: a queue as long as the table is written
    // by index (no growth checks), and needs no clearing.
    if queue.len() < field.len() {
        queue.resize(field.len(), 0);
    }
    let (mut head, mut tail) = (0, 0);
    if let Some(start) = field.get_mut(goal) {
        *start = 0;
        queue[0] = goal;
        tail = 1;
    }
    // Over the walkable tiles: a blocked tile holds `BLOCKED`, never `FAR`, so it is
    // neither given steps nor queued here.
    while head < tail {
        let i = queue[head];
        head += 1;
        // Only tiles of the board enter the queue, so all four neighbours are entries.
        let next = field[i] + 1;
        for j in [i - stride, i + 1, i + stride, i - 1] {
            if field[j] == FAR {
                field[j] = next;
                queue[tail] = j;
                tail += 1;
            }
        }
    }
}

/// Health at or below which a hero heads for a well.
const RETREAT_HEALTH: u32 = 45;
/// Health from which a hero may go and heal a hurt teammate.
const HEALER_HEALTH: u32 = 70;
/// How far a healer walks to a hurt teammate.
const HEALER_REACH: u32 = 10;
/// Health from which an idle hero hunts enemies.
const HUNTER_HEALTH: u32 = 70;
/// Extra steps a well counts for each enemy near it.
const WELL_DANGER: u32 = 6;
/// Score per step of distance to the hero's goal.
const GOAL_WEIGHT: i64 = 60;

/// The outcome of one candidate answer for the acting hero.
#[derive(Debug, Clone, Copy, Default)]
struct Outcome {
    pos: Pos,
    health: u32,
    died: bool,
    /// Damage dealt, weighted (in score units, tenths of a point): damage to an enemy
    /// that can drink from a well next turn mostly washes out, unless it dies.
    damage_value: i64,
    kills: u32,
    captured: bool,
    captured_from_enemy: bool,
    drank: u32,
    healed: u32,
    healed_hurt: bool,
    threat: u32,
}

impl Outcome {
    /// Deal `amount` damage to enemy `target` (whose health is in `health`).
    fn hit(&mut self, health: &mut [u32], at_well: &[bool], target: u8, amount: u32) {
        let hp = &mut health[usize::from(target)];
        if *hp == 0 {
            return;
        }
        let damage = amount.min(*hp);
        *hp -= damage;
        if *hp == 0 {
            self.kills += 1;
        }
        let weight = if at_well[usize::from(target)] && *hp > 0 {
            5
        } else {
            15
        };
        self.damage_value += weight * i64::from(damage);
    }
}

impl Commander {
    /// The terrain distance field of `goal` (see [`Commander::fields`]), worked out on
    /// first use; `None` off the board.
    fn field(&mut self, goal: Pos) -> Option<&[u16]> {
        let g = self.frame.at(goal)?;
        let field = self.fields.get_mut(g)?;
        if field.is_empty() {
            // Steps fit: a board has at most 255 × 255 tiles.
            flood(self.frame, &self.blank, &mut self.queue, field, g);
        }
        Some(field)
    }

    /// Take the living heroes of `obs` onto [`Commander::occupant`].
    fn observe(&mut self, obs: &Observation) {
        for &i in &self.marked {
            self.occupant[i] = None;
        }
        self.marked.clear();
        for hero in obs.heroes.iter().filter(|h| !h.dead) {
            if let Some(i) = self.frame.at(hero.pos) {
                self.occupant[i] = Some(hero.id);
                self.marked.push(i);
            }
        }
    }

    /// What is at `p` this turn (`None` off the board), as the SDK's `Board::tile` after
    /// observing `obs` tells it, except that graves are not told from empty ground (the
    /// commander treats both alike: walkable).
    #[inline]
    fn tile<'o>(&self, obs: &'o Observation, p: Pos) -> Option<Tile<'o>> {
        let i = self.frame.at(p)?;
        Some(match *self.terrain.get(i)? {
            Terrain::Wall => Tile::Wall,
            Terrain::Well => Tile::Well,
            Terrain::Mine(id) => Tile::Mine {
                id,
                mine: obs.mines.get(usize::from(id)).unwrap_or(&NO_OWNER),
            },
            Terrain::Empty => match self.occupant.get(i).copied().flatten() {
                Some(hero) => Tile::Hero(obs.heroes.get(usize::from(hero))?),
                None => Tile::Empty,
            },
        })
    }

    /// Steps from `from` to act on `goal` over the terrain (heroes ignored: they move).
    fn distance(&mut self, goal: Pos, from: Pos) -> Option<u32> {
        let f = self.frame.at(from)?;
        let field = self.field(goal)?;
        reach(field, Some(f))
    }

    /// Whether `p` is next to a well.
    fn near_well(&self, p: Pos) -> bool {
        match self.frame.at(p).and_then(|i| self.by_well.get(i)) {
            Some(&near) => near,
            None => self.wells.iter().any(|w| w.manhattan(p) == 1),
        }
    }

    fn goal(&mut self, obs: &Observation, b: &mut Buffers) -> Option<Pos> {
        let me = *obs.me();
        let team = me.team;
        if me.health <= RETREAT_HEALTH {
            return self.safest_well(me.pos, &b.enemies).or_else(|| {
                let board = self.board.as_mut()?;
                board.observe(obs);
                board.nearest_teammate(me.pos, team).map(|s| s.target)
            });
        }
        // Healer duty: the healthy hero nearest to a hurt teammate walks into it (only a
        // hero that could be that healer needs to look).
        if me.health >= HEALER_HEALTH && !me.dead {
            for patient in obs.alive(team).filter(|h| h.health <= RETREAT_HEALTH) {
                if self.is_healer(obs, patient.pos, &me) {
                    return Some(patient.pos);
                }
            }
        }
        let mine = self.share_mines(obs, b);
        if mine.is_some() {
            return mine;
        }
        if me.health >= HUNTER_HEALTH {
            // The least (cost, tile) over the enemies. The steps to an enemy are at least
            // the Manhattan distance, so enemies are tried in the order of the cost that
            // gives, and the search stops at the first that cannot beat the best so far
            // (each enemy tried may need a search of the board).
            b.bounds.clear();
            for (k, e) in b.enemies.iter().enumerate() {
                let camping = if self.near_well(e.pos) { 60 } else { 0 };
                let bound = e.health + 8 * e.pos.manhattan(me.pos) + camping;
                b.bounds.push(((bound, e.pos), camping, k));
            }
            b.bounds.sort_unstable();
            let mut prey: Option<(u32, Pos)> = None;
            for &(bound, camping, k) in &b.bounds {
                if prey.is_some_and(|p| bound > p) {
                    break;
                }
                let e = b.enemies[k];
                if let Some(d) = self.distance(e.pos, me.pos) {
                    let candidate = (e.health + 8 * d + camping, e.pos);
                    if prey.is_none_or(|p| candidate < p) {
                        prey = Some(candidate);
                    }
                }
            }
            if let Some((_, pos)) = prey {
                return Some(pos);
            }
        }
        self.safest_well(me.pos, &b.enemies)
    }

    /// Whether `me` (healthy enough to heal) is the healer of the teammate at `patient`:
    /// the least (steps, id) among the team's healthy heroes who can reach it, and within
    /// [`HEALER_REACH`].
    fn is_healer(&mut self, obs: &Observation, patient: Pos, me: &Hero) -> bool {
        // The steps are at least the Manhattan distance: no search when that is too far.
        if patient.manhattan(me.pos) > HEALER_REACH {
            return false;
        }
        let frame = self.frame;
        let Some(field) = self.field(patient) else {
            return false;
        };
        let Some(mine) = reach(field, frame.at(me.pos)) else {
            return false;
        };
        if mine > HEALER_REACH {
            return false;
        }
        !obs.alive(me.team)
            .filter(|h| h.health >= HEALER_HEALTH && h.id != me.id)
            .any(|h| reach(field, frame.at(h.pos)).is_some_and(|d| (d, h.id) < (mine, me.id)))
    }

    /// Share out the mines the team does not hold: repeatedly pair the closest (hero, mine)
    /// among heroes fit to capture; the mine paired with the acting hero, if any.
    fn share_mines(&mut self, obs: &Observation, b: &mut Buffers) -> Option<Pos> {
        let me = *obs.me();
        let team = me.team;
        let columns = self.mines.len();
        b.mine_taken.clear();
        b.mine_taken
            .extend((0..columns).map(|m| obs.mines.get(m).is_none_or(|o| o.team == Some(team))));
        if !b.mine_taken.contains(&false) {
            return None;
        }
        if self.ordered.is_empty() {
            for m in 0..columns {
                self.field(self.mines[m]);
            }
            self.mine_order.resize(self.frame.len() * columns, (FAR, 0));
            self.ordered.resize(self.frame.len(), false);
        }
        b.miners.clear();
        for h in obs.alive(team).filter(|h| h.health > RETREAT_HEALTH) {
            let at = self.frame.at(h.pos);
            if let Some(i) = at {
                self.order_mines_from(i);
            }
            b.miners.push((h.id, at));
        }
        // A miner's least (steps, mine) among the mines not taken: the first one not taken
        // in its row from its cursor on (which moves past the taken ones).
        let order = &self.mine_order;
        let least = |at: Option<usize>, cursor: &mut usize, taken: &[bool]| {
            let Some(row) = at.and_then(|i| order.get(i * columns..(i + 1) * columns)) else {
                return (FAR, 0);
            };
            while let Some(&(d, m)) = row.get(*cursor) {
                let m = usize::from(m);
                if d == FAR {
                    break;
                }
                if taken.get(m) == Some(&false) {
                    return (d, m);
                }
                *cursor += 1;
            }
            (FAR, 0)
        };
        // The pairs in increasing (steps, hero, mine) order, each taken if neither is yet:
        // that is, repeatedly the least pair of free heroes and mines, found from each free
        // hero's least pair (which changes only when its mine is taken).
        b.cursors.clear();
        b.cursors.resize(b.miners.len(), 0);
        b.least.clear();
        for (&(_, at), cursor) in b.miners.iter().zip(&mut b.cursors) {
            b.least.push(least(at, cursor, &b.mine_taken));
        }
        loop {
            let mut pick = None;
            let mut steps = FAR;
            for (h, &(d, _)) in b.least.iter().enumerate() {
                if d < steps {
                    (pick, steps) = (Some(h), d);
                }
            }
            let h = pick?;
            let m = b.least[h].1;
            if b.miners[h].0 == me.id {
                return self.mines.get(m).copied();
            }
            b.mine_taken[m] = true;
            b.least[h] = (FAR, 0);
            for ((&(_, at), cursor), kept) in b.miners.iter().zip(&mut b.cursors).zip(&mut b.least)
            {
                if kept.0 != FAR && kept.1 == m {
                    *kept = least(at, cursor, &b.mine_taken);
                }
            }
        }
    }

    /// Make tile `i`'s row of [`Commander::mine_order`] if it is not made yet (every
    /// mine's field is searched).
    fn order_mines_from(&mut self, i: usize) {
        if self.ordered.get(i) != Some(&false) {
            return;
        }
        self.ordered[i] = true;
        let columns = self.mines.len();
        let Some(row) = self.mine_order.get_mut(i * columns..(i + 1) * columns) else {
            return;
        };
        for (m, (entry, mine)) in row.iter_mut().zip(&self.mines).enumerate() {
            let steps = self
                .frame
                .at(*mine)
                .and_then(|g| self.fields.get(g))
                .and_then(|field| field.get(i))
                .copied()
                .filter(|&d| d < BLOCKED)
                .unwrap_or(FAR);
            // A board has at most 255 × 255 tiles, so fewer mines than `u16::MAX`.
            *entry = (steps, u16::try_from(m).unwrap_or(u16::MAX));
        }
        row.sort_unstable();
    }

    /// The well that is cheapest to reach from `from`, counting each enemy within two steps
    /// of it as a detour of [`WELL_DANGER`] steps.
    fn safest_well(&mut self, from: Pos, enemies: &[Hero]) -> Option<Pos> {
        let mut best = None;
        for k in 0..self.wells.len() {
            let well = self.wells[k];
            let Some(d) = self.distance(well, from) else {
                continue;
            };
            let guards = enemies
                .iter()
                .filter(|e| e.pos.manhattan(well) <= 2)
                .count();
            let candidate = (d + WELL_DANGER * guards as u32, well);
            // The least (cost, tile), as `min` over the wells in order would pick it.
            if best.is_none_or(|b| candidate < b) {
                best = Some(candidate);
            }
        }
        best.map(|(_, well)| well)
    }

    /// Simulate the acting hero's turn for the answer that steps into `target` (the tile
    /// and what is on it; `None`: staying put), by the rules of docs/rules/grid.md.
    /// `enemies`: the living enemies within three steps of the hero (no other can be hit
    /// or threaten a tile within one step: they are left out); `health` and `at_well` by
    /// hero id (only those enemies' entries are read, and `health`'s are reset here).
    fn simulate(
        &self,
        obs: &Observation,
        me: Hero,
        enemies: &[Hero],
        health: &mut [u32],
        at_well: &[bool],
        target: Option<(Pos, Tile<'_>)>,
    ) -> Outcome {
        for e in enemies {
            if let Some(hp) = health.get_mut(usize::from(e.id)) {
                *hp = e.health;
            }
        }
        let mut out = Outcome {
            pos: me.pos,
            health: me.health,
            ..Outcome::default()
        };
        let frame = self.frame;
        match target {
            Some((_, Tile::Well)) => {
                out.drank = WELL_HEAL.min(MAX_HEALTH - me.health);
                out.health += out.drank;
            }
            Some((_, Tile::Mine { mine, .. })) if mine.owner != Some(me.id) => {
                if me.health <= MINE_CAPTURE_DAMAGE {
                    out.died = true;
                    return out;
                }
                out.health -= MINE_CAPTURE_DAMAGE;
                // Taking a teammate's mine gains the team nothing and costs 20 health.
                out.captured = mine.team != Some(me.team);
                out.captured_from_enemy = mine.team.is_some_and(|t| t != me.team);
            }
            Some((_, Tile::Hero(other))) if other.team != me.team => {
                out.hit(health, at_well, other.id, STAB_DAMAGE);
            }
            Some((_, Tile::Hero(friend))) => {
                out.healed = FRIEND_HEAL.min(MAX_HEALTH - friend.health);
                out.healed_hurt = friend.health <= 60;
            }
            Some((t, Tile::Empty | Tile::Grave)) => out.pos = t,
            _ => {}
        }
        let pos = out.pos;
        // The heroes on the board are the living ones: no enemy next to `pos`, no damage.
        if enemies.iter().any(|e| e.pos.manhattan(pos) == 1) {
            for direction in Direction::ALL {
                if let Some(Tile::Hero(other)) = pos
                    .step(direction, frame.width, frame.height)
                    .and_then(|n| self.tile(obs, n))
                    && other.team != me.team
                {
                    out.hit(health, at_well, other.id, ADJACENT_DAMAGE);
                }
            }
        }
        // Danger before the hero's next turn: every surviving enemy may act once.
        for enemy in enemies {
            if health.get(usize::from(enemy.id)) == Some(&0) {
                continue;
            }
            let gap = enemy.pos.manhattan(pos);
            if gap == 1 {
                out.threat += STAB_DAMAGE + ADJACENT_DAMAGE;
            } else if gap == 2 && self.can_close_in(obs, enemy.pos, pos, me.pos) {
                out.threat += ADJACENT_DAMAGE;
            }
        }
        out
    }

    /// Whether an enemy at `from`, two steps from `to`, can step onto a free tile next to
    /// `to` (`vacated`: the tile the acting hero leaves, free by then). The tiles next to
    /// both lie between them: one on a line, two on a diagonal.
    fn can_close_in(&self, obs: &Observation, from: Pos, to: Pos, vacated: Pos) -> bool {
        debug_assert_eq!(from.manhattan(to), 2);
        let free = |n: Pos| n == vacated || self.tile(obs, n).is_some_and(|t| t.walkable());
        let toward = |a: u8, b: u8| match b.cmp(&a) {
            Ordering::Greater => a + 1,
            Ordering::Less => a - 1,
            Ordering::Equal => a,
        };
        let (x, y) = (toward(from.x, to.x), toward(from.y, to.y));
        if from.x == to.x || from.y == to.y {
            free(Pos::new(x, y))
        } else {
            free(Pos::new(x, from.y)) || free(Pos::new(from.x, y))
        }
    }

    /// An answer's score, in tenths of a point: exact integers, where floating point in a
    /// wasm bot pays for the sandbox's NaN canonicalization on every operation
    /// (docs/performance.md, "Floating point in the sandbox").
    fn score(out: &Outcome, start_health: u32, goal_distance: Option<u32>) -> i64 {
        if out.died {
            return -10_000_000;
        }
        let mut score = out.damage_value + 1200 * i64::from(out.kills);
        if out.captured {
            score += 450 + if out.captured_from_enemy { 350 } else { 0 };
        }
        let thirst = if start_health < 60 { 16 } else { 6 };
        score += thirst * i64::from(out.drank);
        score += if out.healed_hurt { 12 } else { 4 } * i64::from(out.healed);
        let threat = out.threat;
        score -= 5 * i64::from(threat);
        if threat >= out.health {
            score -= 2500;
        } else if out.health - threat < 20 {
            score -= 400;
        }
        if let Some(d) = goal_distance {
            score -= GOAL_WEIGHT * i64::from(d);
        }
        score
    }
}

/// The steps a distance field gives for tile index `at`, if reachable.
#[inline]
fn reach(field: &[u16], at: Option<usize>) -> Option<u32> {
    at.and_then(|i| field.get(i))
        .filter(|&&d| d < BLOCKED)
        .map(|&d| u32::from(d))
}

impl Bot<Grid> for Commander {
    fn setup(&mut self, request: &SetupRequest) -> SetupChoice {
        let board = Board::new(request);
        self.mines = request.mines.clone();
        self.wells = request.wells.clone();
        self.frame = Frame {
            width: request.width,
            height: request.height,
        };
        let tiles = self.frame.len();
        self.fields.clear();
        self.fields.resize(tiles, Vec::new());
        self.blank.clear();
        self.blank.resize(tiles, BLOCKED);
        self.by_well.clear();
        self.by_well.resize(tiles, false);
        self.mine_order.clear();
        self.ordered.clear();
        self.terrain.clear();
        self.terrain.resize(tiles, Terrain::Wall);
        self.occupant.clear();
        self.occupant.resize(tiles, None);
        self.marked.clear();
        for y in 0..request.height {
            for x in 0..request.width {
                let p = Pos::new(x, y);
                if let Some(i) = self.frame.at(p) {
                    let terrain = board.terrain(p).unwrap_or(Terrain::Wall);
                    self.terrain[i] = terrain;
                    if terrain == Terrain::Empty {
                        self.blank[i] = FAR;
                    }
                    self.by_well[i] = self.wells.iter().any(|w| w.manhattan(p) == 1);
                }
            }
        }
        self.board = Some(board);
        SetupChoice {}
    }

    fn act(&mut self, observation: &Observation) -> Action {
        if self.board.is_none() {
            return Action::Stay;
        }
        self.observe(observation);
        let mut buffers = self.buffers.take().unwrap_or_default();
        buffers.enemies.clear();
        buffers.enemies.extend(observation.enemies().copied());
        let goal = self.goal(observation, &mut buffers);
        let me = *observation.me();
        buffers.near.clear();
        buffers.near.extend(
            buffers
                .enemies
                .iter()
                .filter(|e| e.pos.manhattan(me.pos) <= 3),
        );
        let start_health = me.health;
        buffers.health.clear();
        buffers.health.resize(observation.heroes.len(), 0);
        // Only the enemies within reach can be hit: only theirs are read.
        buffers.at_well.clear();
        buffers.at_well.resize(observation.heroes.len(), false);
        for e in &buffers.near {
            if let Some(at_well) = buffers.at_well.get_mut(usize::from(e.id)) {
                *at_well =
                    e.team != observation.team && e.health < MAX_HEALTH && self.near_well(e.pos);
            }
        }
        let b = &mut *buffers;
        let (health, at_well) = (&mut b.health, &b.at_well);
        let frame = self.frame;
        // The goal's field, searched here if it has not been yet, then read in place.
        if let Some(g) = goal {
            self.field(g);
        }
        let goal_field = goal
            .and_then(|g| self.fields.get(frame.at(g)?))
            .map(Vec::as_slice);
        let mut best = (i64::MIN, Action::Stay);
        // Whether an answer that changes nothing (as staying put) was scored.
        let mut idle_scored = false;
        for action in Action::ALL {
            let target = match action.direction() {
                None => None,
                Some(d) => match me.pos.step(d, frame.width, frame.height) {
                    // A step off the board is an illegal answer; staying put does the same
                    // legally.
                    None => continue,
                    Some(t) => self.tile(observation, t).map(|tile| (t, tile)),
                },
            };
            // Stepping into a wall or the hero's own mine changes nothing, as staying put:
            // the same outcome and score, so only the first of them can be the best (a tie
            // keeps the earlier answer, and `Stay` is the last).
            let idle = match target {
                None | Some((_, Tile::Wall)) => true,
                Some((_, Tile::Mine { mine, .. })) => mine.owner == Some(me.id),
                _ => false,
            };
            if idle {
                if idle_scored {
                    continue;
                }
                idle_scored = true;
            }
            let out = self.simulate(observation, me, &b.near, health, at_well, target);
            let goal_distance = goal_field.and_then(|field| reach(field, frame.at(out.pos)));
            let score = Self::score(&out, start_health, goal_distance);
            if score > best.0 {
                best = (score, action);
            }
        }
        self.buffers = Some(buffers);
        best.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::tests::scene;
    use arena_sdk::grid::Mine;

    fn request(width: u8, height: u8, walls: &[(u8, u8)], mines: &[(u8, u8)]) -> SetupRequest {
        let at = |list: &[(u8, u8)]| list.iter().map(|&(x, y)| Pos::new(x, y)).collect();
        SetupRequest {
            width,
            height,
            walls: at(walls),
            mines: at(mines),
            wells: Vec::new(),
            heroes_per_team: 2,
            team: 0,
            turn_limit: 100,
        }
    }

    /// The goal the commander gives the acting hero of `obs`.
    fn goal_of(commander: &mut Commander, obs: &Observation) -> Option<Pos> {
        let mut buffers = Buffers::default();
        buffers.enemies.extend(obs.enemies().copied());
        commander.goal(obs, &mut buffers)
    }

    #[test]
    fn distance_fields_are_the_sdk_terrain_distances() {
        // . . . . .
        // . # W . .
        // . . . # .
        // M . . . .
        let mut setup = request(5, 4, &[(1, 1), (3, 2)], &[(0, 3)]);
        setup.wells = vec![Pos::new(2, 1)];
        let mut commander = Commander::default();
        commander.setup(&setup);
        let board = Board::new(&setup);
        // From (0,0), worked by hand: (3,1) is reached over the top row. No hero stands on
        // the wall, well or mine, so a field gives nothing from them (`X`).
        const X: u32 = u32::MAX;
        let expected = [
            [0, 1, 2, 3, 4],
            [1, X, X, 4, 5],
            [2, 3, 4, X, 6],
            [X, 4, 5, 6, 7],
        ];
        for (y, row) in expected.iter().enumerate() {
            for (x, &d) in row.iter().enumerate() {
                let p = Pos::new(x as u8, y as u8);
                let d = (d != X).then_some(d);
                assert_eq!(commander.distance(Pos::new(0, 0), p), d, "({x},{y})");
            }
        }
        // Around the well: (2,0) is 6 steps from (2,2), 2 as the crow flies.
        assert_eq!(commander.distance(Pos::new(2, 2), Pos::new(2, 0)), Some(6));
        assert_eq!(commander.distance(Pos::new(2, 2), Pos::new(3, 1)), Some(6));
        // Acting on the wall, the well and the mine: from their neighbours' neighbours on.
        assert_eq!(commander.distance(Pos::new(2, 1), Pos::new(2, 0)), Some(1));
        assert_eq!(commander.distance(Pos::new(0, 3), Pos::new(0, 0)), Some(3));
        // Every goal and every walkable tile (and the goal itself), both searches agree;
        // off the board, nothing.
        for goal in (0..4).flat_map(|y| (0..5).map(move |x| Pos::new(x, y))) {
            let sdk = board.terrain_distances(goal);
            for from in (0..4).flat_map(|y| (0..5).map(move |x| Pos::new(x, y))) {
                let i = board.distance_index(from).unwrap();
                let walkable = board.terrain(from) == Some(Terrain::Empty);
                let want = if walkable || from == goal {
                    sdk[i]
                } else {
                    None
                };
                assert_eq!(commander.distance(goal, from), want, "{goal} from {from}");
            }
            assert_eq!(commander.distance(goal, Pos::new(5, 0)), None);
        }
        assert_eq!(commander.distance(Pos::new(0, 4), Pos::new(0, 0)), None);
    }

    #[test]
    fn tiles_are_the_sdk_boards_with_graves_as_ground() {
        // W . # M      a well, a wall, two mines (one owned by hero 1); heroes 0 and 1
        // . . . .      living, hero 2 dead on (2,1), a grave on (3,1).
        // M . . .
        let mut setup = request(4, 3, &[(2, 0)], &[(3, 0), (0, 2)]);
        setup.wells = vec![Pos::new(0, 0)];
        let mut commander = Commander::default();
        commander.setup(&setup);
        let mut board = Board::new(&setup);
        let owned = Mine {
            owner: Some(1),
            team: Some(1),
        };
        let mut obs = scene(
            &[(1, 0, 100), (1, 1, 50), (2, 1, 0)],
            vec![owned, Mine::default()],
        );
        obs.heroes[2].dead = true;
        obs.graves = vec![Pos::new(3, 1)];
        let tiles: Vec<Pos> = (0..4)
            .flat_map(|y| (0..5).map(move |x| Pos::new(x, y)))
            .collect();
        for round in 0..2 {
            commander.observe(&obs);
            board.observe(&obs);
            for &p in &tiles {
                let sdk = match board.tile(p) {
                    Some(Tile::Grave) => Some(Tile::Empty),
                    other => other,
                };
                assert_eq!(commander.tile(&obs, p), sdk, "round {round}, {p}");
            }
            // Next turn the heroes have moved: the tiles they left are ground again.
            obs.heroes[0].pos = Pos::new(1, 2);
            obs.heroes[1].pos = Pos::new(3, 2);
        }
        assert_eq!(commander.tile(&obs, Pos::new(1, 0)), Some(Tile::Empty));
        assert_eq!(
            commander.tile(&obs, Pos::new(3, 2)),
            Some(Tile::Hero(&obs.heroes[1]))
        );
        assert_eq!(
            commander.tile(&obs, Pos::new(3, 0)),
            Some(Tile::Mine {
                id: 0,
                mine: &owned
            })
        );
        assert_eq!(commander.tile(&obs, Pos::new(2, 0)), Some(Tile::Wall));
        assert_eq!(commander.tile(&obs, Pos::new(0, 0)), Some(Tile::Well));
        assert_eq!(commander.tile(&obs, Pos::new(3, 1)), Some(Tile::Empty));
        assert_eq!(commander.tile(&obs, Pos::new(4, 0)), None);
    }

    #[test]
    fn unreachable_tiles_have_no_distance() {
        // . # .
        // # . .      (0,0) is walled in; the wall next to it can be acted on.
        let mut commander = Commander::default();
        commander.setup(&request(3, 2, &[(1, 0), (0, 1)], &[]));
        assert_eq!(commander.distance(Pos::new(0, 0), Pos::new(2, 1)), None);
        assert_eq!(commander.distance(Pos::new(2, 1), Pos::new(0, 0)), None);
        assert_eq!(commander.distance(Pos::new(1, 0), Pos::new(2, 1)), Some(2));
        assert_eq!(commander.distance(Pos::new(1, 1), Pos::new(2, 0)), Some(2));
    }

    #[test]
    fn mines_go_to_the_closest_pairs_first() {
        // M . . . . M   hero 2 at (1,0), hero 0 at (2,0), the enemy at (4,0).
        // Steps to act on the mines: hero 2 → (0,0) 1, → (5,0) 4; hero 0 → (0,0) 2,
        // → (5,0) 3. Closest pair first: hero 2 takes (0,0), so hero 0, though nearer
        // to (0,0) than to (5,0), goes for (5,0).
        let mut commander = Commander::default();
        commander.setup(&request(6, 1, &[], &[(0, 0), (5, 0)]));
        let heroes = [(2, 0, 100), (4, 0, 100), (1, 0, 100), (5, 0, 0)];
        let mut obs = scene(&heroes, vec![Mine::default(); 2]);
        obs.heroes[3].dead = true;
        assert_eq!(goal_of(&mut commander, &obs), Some(Pos::new(5, 0)));
        obs.acting = 2;
        assert_eq!(goal_of(&mut commander, &obs), Some(Pos::new(0, 0)));
        // Hurt (45), hero 2 no longer captures, and hero 0, the healthy hero nearest to
        // it (1 step), goes and heals it first; 11 steps away (more than 10), it takes
        // the mine next to it instead.
        obs.heroes[2].health = 45;
        obs.acting = 0;
        assert_eq!(goal_of(&mut commander, &obs), Some(Pos::new(1, 0)));
        commander.setup(&request(14, 1, &[], &[(0, 0), (13, 0)]));
        obs.heroes[0].pos = Pos::new(12, 0);
        assert_eq!(goal_of(&mut commander, &obs), Some(Pos::new(13, 0)));
    }

    #[test]
    fn prey_counts_steps_not_the_crow_flight() {
        // . . . . .     us: hero 0 at (0,0); enemies: hero 1 at (0,2), hero 3 at (4,0),
        // # # # # .     both with 50 health. As the crow flies hero 1 is nearer (2 against
        // . . . . .     4), but acting on it takes 10 steps round the wall: cost
        //               50 + 8 × 10 = 130 against 50 + 8 × 4 = 82 for hero 3.
        let mut commander = Commander::default();
        commander.setup(&request(5, 3, &[(0, 1), (1, 1), (2, 1), (3, 1)], &[]));
        let heroes = [(0, 0, 100), (0, 2, 50), (2, 2, 100), (4, 0, 50)];
        let obs = scene(&heroes, Vec::new());
        assert_eq!(commander.distance(Pos::new(0, 2), Pos::new(0, 0)), Some(10));
        assert_eq!(goal_of(&mut commander, &obs), Some(Pos::new(4, 0)));
        // Weaker by more than the detour (cost 1 + 80 = 81 < 82): hero 1 after all.
        let mut obs = obs;
        obs.heroes[1].health = 1;
        assert_eq!(goal_of(&mut commander, &obs), Some(Pos::new(0, 2)));
    }

    #[test]
    fn closing_in_needs_a_free_tile_between() {
        // . . .
        // . . .     an enemy two steps away on a line needs the tile between; on a
        // . . .     diagonal, either of the two.
        let mut commander = Commander::default();
        commander.setup(&request(3, 3, &[], &[]));
        let obs = scene(
            &[(0, 0, 100), (2, 0, 100), (1, 0, 100), (1, 1, 100)],
            Vec::new(),
        );
        commander.observe(&obs);
        let close = |from: (u8, u8), to: (u8, u8), vacated: (u8, u8)| {
            let p = |(x, y)| Pos::new(x, y);
            commander.can_close_in(&obs, p(from), p(to), p(vacated))
        };
        // (2,0) to (0,0): (1,0) is taken, unless its hero is the one leaving.
        assert!(!close((2, 0), (0, 0), (0, 0)));
        assert!(close((2, 0), (0, 0), (1, 0)));
        // (2,0) to (1,1) — the hero there is the target: (1,0) taken, (2,1) free.
        assert!(close((2, 0), (1, 1), (0, 0)));
        // (0,0) to (1,1): (1,0) and (0,1); (0,1) is free.
        assert!(close((0, 0), (1, 1), (2, 2)));
        // (2,2) to (1,1): (1,2) and (2,1), both free; (0,2) to (0,0): (0,1) free.
        assert!(close((2, 2), (1, 1), (0, 0)));
        assert!(close((0, 2), (0, 0), (2, 2)));
    }
}
