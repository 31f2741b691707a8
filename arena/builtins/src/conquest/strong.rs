//! [`Strong`]: scores every move against the enemy's next turn.

use super::heuristic::threats;
use super::{Meeting, Turn, affordable, best_counter, meets};
use arena_sdk::Bot;
use arena_sdk::conquest::{
    Army, ArmyId, Board, Conquest, DIRECTIONS, Kind, Observation, Orders, Pos, SetupChoice,
    SetupRequest, Survivor, Terrain, fight,
};

/// Each turn, in this order: recruit a counter next to every enemy army that could reach
/// its home within two moves and block every enemy scout's straight run at it; recruit
/// collectors while resources lie on the map (up to one per resource, four at most), and
/// attackers once they are gone; then move each army to the destination with the best
/// score — capture above all, then fights it wins (more the nearer its home), collecting,
/// closing on its goal (a threat it counters, the nearest unclaimed resource, else the
/// enemy home) — minus the risk of standing where an enemy that defeats it can move next
/// turn. An army guarding its home against a nearby threat stays.
#[derive(Debug, Default, Clone)]
pub struct Strong {
    /// The turn being planned: its distances around the map's water and its board's
    /// memory are kept from turn to turn.
    turn: Turn,
    /// The enemy kinds that could come onto each tile (its memory kept from turn to turn).
    attackers: Attackers,
    /// The turn's armies in the order they move, with their ranks (memory kept).
    order: Vec<((u8, ArmyId), Army)>,
    /// The goals of the armies moved so far this turn (memory kept).
    claimed: Vec<Pos>,
}

/// The enemy kinds that could move onto each tile next turn, one bit per [`Kind`]: any
/// enemy army next to it, and an enemy scout two tiles away in a straight line if the tile
/// holds neither an enemy army nor the enemy home (its move there is legal). Made once a
/// turn instead of scanning every enemy army for every option of every army: only the
/// enemy's armies decide it, and they change only when one of ours defeats one
/// ([`Turn::enemies_lost`]).
#[derive(Debug, Clone, Default)]
pub(super) struct Attackers {
    width: u8,
    /// Per tile in reading order.
    kinds: Vec<u8>,
    /// [`Turn::enemies_lost`] when the table was made.
    made_at: u32,
}

impl Attackers {
    /// The table of `turn`'s board.
    pub(super) fn make(&mut self, turn: &Turn) {
        let (width, height) = (turn.board.width(), turn.board.height());
        self.width = width;
        self.kinds.clear();
        self.kinds
            .resize(usize::from(width) * usize::from(height), 0);
        self.made_at = turn.enemies_lost;
        let (w, h) = (usize::from(width), usize::from(height));
        for e in turn.enemies_iter() {
            let bit = 1 << e.kind as u8;
            let (x, y) = (usize::from(e.pos.x), usize::from(e.pos.y));
            if e.kind.reach() == 1 && x < w && y < h {
                // One step: the tiles next to it on the map, by index (the loop below
                // answers the same, a scout's second step and a tile off the map too).
                let i = y * w + x;
                let mut mark = |j: usize| {
                    if let Some(kinds) = self.kinds.get_mut(j) {
                        *kinds |= bit;
                    }
                };
                if y > 0 {
                    mark(i - w);
                }
                if x + 1 < w {
                    mark(i + 1);
                }
                if y + 1 < h {
                    mark(i + w);
                }
                if x > 0 {
                    mark(i - 1);
                }
                continue;
            }
            for d in DIRECTIONS {
                for steps in 1..=e.kind.reach().min(2) {
                    // Off the map one step away: two steps away too.
                    let Some(p) = e.pos.offset(d, steps, width, height) else {
                        break;
                    };
                    if steps == 2 && turn.board.is_own(e.owner, p) {
                        continue;
                    }
                    self.kinds[usize::from(p.y) * usize::from(width) + usize::from(p.x)] |= bit;
                }
            }
        }
    }

    /// Remake the table if an order since it was made defeated an enemy army.
    pub(super) fn refresh(&mut self, turn: &Turn) {
        if self.made_at != turn.enemies_lost {
            self.make(turn);
        }
    }

    /// Whether an enemy army could move onto `p` next turn and defeat (or trade with) an
    /// army of `kind` there: 2 for a defeat, 1 for a trade, 0 for neither.
    pub(super) fn exposure(&self, kind: Kind, p: Pos) -> i64 {
        let i = usize::from(p.y) * usize::from(self.width) + usize::from(p.x);
        let kinds = self.kinds.get(i).copied().unwrap_or(0);
        i64::from(WORST[kind as usize][usize::from(kinds & 15)])
    }
}

/// The worst an army of each kind meets from a set of enemy kinds (one bit per kind):
/// 2 if one of them defeats it, 1 if one trades with it, 0 if none can hurt it, worked out
/// once from the fight table ([`fight`]) instead of for every option.
pub(super) const WORST: [[u8; 16]; 4] = {
    let mut table = [[0; 16]; 4];
    let mut kind = 0;
    while kind < 4 {
        let mut kinds = 0;
        while kinds < 16 {
            let mut enemy = 0;
            while enemy < 4 {
                if kinds & (1 << enemy) != 0 {
                    // The fight table of the rules: equals trade, each kind defeats the one
                    // it counters (spearman > knight > archer > spearman), everyone
                    // defeats the scout (Kind::ALL order: spearman, archer, knight, scout).
                    let hurt = if enemy == kind {
                        1
                    } else if kind == 3
                        || (enemy == 0 && kind == 2)
                        || (enemy == 2 && kind == 1)
                        || (enemy == 1 && kind == 0)
                    {
                        2
                    } else {
                        0
                    };
                    if hurt > table[kind][kinds] {
                        table[kind][kinds] = hurt;
                    }
                }
                enemy += 1;
            }
            kinds += 1;
        }
        kind += 1;
    }
    table
};

/// [`meets`] of a destination of `army` ([`Board::destinations`]: a legal move): where
/// the way enters neither the enemy home nor an enemy army, the tiles' terrain alone
/// decides (water drowns, resources are collected), read without walking the move.
fn foresee(board: &Board, army: &Army, to: Pos) -> Option<Meeting> {
    /// What entering one tile does, as far as its terrain decides.
    enum Step {
        /// Nothing happens but collecting this many resources.
        Quiet(u32),
        /// A fight or a capture: the move has to be walked.
        Contested,
        Drown,
    }
    let enter = |tile: Pos| {
        // Off the map: nothing (a destination never is).
        let Some((terrain, other)) = board.tile(tile) else {
            return Step::Quiet(0);
        };
        if let Some(other) = other {
            // A scout passes over its own armies.
            return if other.owner == army.owner {
                Step::Quiet(0)
            } else {
                Step::Contested
            };
        }
        match terrain {
            Terrain::Home(seat) if seat != army.owner => Step::Contested,
            Terrain::Water => Step::Drown,
            Terrain::Resource(_) => Step::Quiet(1),
            _ => Step::Quiet(0),
        }
    };
    let mut collects = 0;
    if army.pos.manhattan(to) == 2 {
        let middle = Pos::new(
            // Lossless: the mean of two `u8`s.
            ((u16::from(army.pos.x) + u16::from(to.x)) / 2) as u8,
            ((u16::from(army.pos.y) + u16::from(to.y)) / 2) as u8,
        );
        match enter(middle) {
            Step::Quiet(n) => collects = n,
            Step::Contested => return meets(board, army, to),
            Step::Drown => return Some(Meeting::Drown),
        }
    }
    match enter(to) {
        Step::Quiet(n) => Some(Meeting::Arrive {
            collects: collects + n,
        }),
        Step::Contested => meets(board, army, to),
        Step::Drown => Some(Meeting::Drown),
    }
}

/// Whether a move of `army` to `to` enters the enemy home or a tile with an enemy army (the
/// destination, or a scout's middle tile): only such a move can capture or fight.
fn contested(board: &Board, army: &Army, to: Pos) -> bool {
    let enemy_on = |p: Pos| {
        board.tile(p).is_some_and(|(terrain, on)| {
            matches!(terrain, Terrain::Home(seat) if seat != army.owner)
                || on.is_some_and(|e| e.owner != army.owner)
        })
    };
    let middle = Pos::new(
        // Lossless: the mean of two `u8`s.
        ((u16::from(army.pos.x) + u16::from(to.x)) / 2) as u8,
        ((u16::from(army.pos.y) + u16::from(to.y)) / 2) as u8,
    );
    enemy_on(to) || (army.pos.manhattan(to) == 2 && enemy_on(middle))
}

/// Whether enemy army `e` is a scout that could capture `home` on its next move from two
/// tiles away: in a straight line, with none of our armies on the middle tile. (An army
/// next to the home could too.)
fn scout_run(turn: &Turn, e: &Army, home: Pos) -> bool {
    e.kind == Kind::Scout
        && e.pos.manhattan(home) == 2
        && (e.pos.x == home.x || e.pos.y == home.y)
        && {
            let middle = Pos::new(
                u8::try_from((u16::from(e.pos.x) + u16::from(home.x)) / 2).unwrap_or(0),
                u8::try_from((u16::from(e.pos.y) + u16::from(home.y)) / 2).unwrap_or(0),
            );
            !turn.board.is_own(turn.seat, middle)
        }
}

impl Strong {
    /// `near`: the enemy armies within two steps of the home ([`threats`]; recruiting does
    /// not change them).
    fn recruit(turn: &mut Turn, near: &[(u32, Army)]) {
        let home = turn.home();
        // Emergencies: armies that capture next turn. One next to the home can only be
        // stopped by an army of ours that defeats it (a fresh recruit cannot reach it: the
        // tiles around a home are diagonal to each other), which the move stage's scores
        // see to. A scout's run two tiles away is stopped by anything on the middle tile
        // (it fights there).
        // (Each run has its own middle tile, next to the home: a recruit on one leaves the
        // others runs. Recruits go to the end of the list of armies.)
        for k in 0..turn.board.armies().len() {
            let threat = turn.board.armies()[k];
            if threat.owner == turn.seat || !scout_run(turn, &threat, home) {
                continue;
            }
            let spots = turn.board.recruit_spots(turn.seat);
            let middle = spots
                .iter()
                .copied()
                .find(|s| s.manhattan(threat.pos) == 1 && s.manhattan(home) == 1);
            if let Some(at) = middle
                && let Some(kind) = affordable(turn.stock, Kind::Spearman)
            {
                turn.recruit(kind, at);
            }
        }
        // Approaching threats: a counter on the home tile nearest each.
        for &(_, threat) in near {
            let wanted = threat.kind.countered_by();
            let covered = turn.board.armies().iter().any(|a| {
                a.owner == turn.seat
                    && a.pos.manhattan(home) <= 2
                    && fight(a.kind, threat.kind) == Survivor::First
            });
            if covered || !turn.stock.covers(wanted.price()) {
                continue;
            }
            turn.recruit_nearest(wanted, threat.pos);
        }
        let resources_left = turn.resources().len();
        // Worked out when first needed (recruiting does not change the enemies).
        let mut counter = None;
        let wanted_armies = turn.armies_wanted(4);
        // Each recruit is one more army that may move.
        let mut movable = turn.movable_count();
        while movable < wanted_armies {
            let want = *counter.get_or_insert_with(|| best_counter(turn.enemies_iter()));
            let Some(kind) = affordable(turn.stock, want) else {
                break;
            };
            let spots = turn.board.recruit_spots(turn.seat);
            // Keep a spot free for emergencies while collecting.
            if spots.len() <= usize::from(resources_left > 0) {
                break;
            }
            let enemy_home = turn.enemy_home();
            let Some(at) = spots.into_iter().min_by_key(|p| p.manhattan(enemy_home)) else {
                break;
            };
            if !turn.recruit(kind, at) {
                break;
            }
            movable += 1;
        }
    }

    /// `straight`: no water lies between the army's options and its goal (the steps there
    /// are the straight-line distance).
    #[allow(clippy::too_many_arguments)]
    /// How soon `a` moves: 0 if it can capture the enemy home, 1 if it can win a fight, 2
    /// if it can move, 3 if it cannot.
    fn rank(turn: &Turn, a: &Army) -> u8 {
        // A capture or a won fight needs the enemy home or an enemy army within reach;
        // without one every legal move ranks 2 (3 if there is none).
        let reach = u32::try_from(a.kind.reach()).unwrap_or(2);
        let within = |p: Pos| p.manhattan(a.pos) <= reach;
        if !within(turn.enemy_home()) && !turn.enemies_iter().any(|e| within(e.pos)) {
            return if turn.board.can_move(a) { 2 } else { 3 };
        }
        let mut best = 3;
        for to in turn.board.destinations(a) {
            // A capture or a won fight needs the enemy home or an enemy army on a tile the
            // move enters; any other legal move ranks 2.
            if !contested(&turn.board, a, to) {
                best = best.min(2);
                continue;
            }
            let rank = match meets(&turn.board, a, to) {
                Some(Meeting::Capture) => 0,
                Some(Meeting::Win(_)) => 1,
                Some(_) => 2,
                None => continue,
            };
            best = best.min(rank);
            if best == 0 {
                // Nothing ranks first.
                break;
            }
        }
        best
    }

    fn score(
        turn: &Turn,
        attackers: &Attackers,
        army: &Army,
        to: Pos,
        goal: Pos,
        straight: bool,
        guard: bool,
    ) -> i64 {
        let home = turn.home();
        let dist = |p: Pos| {
            i64::from(if straight {
                p.manhattan(goal)
            } else {
                turn.distance(p, goal).unwrap_or(64)
            })
        };
        let outcome = if to == army.pos {
            Meeting::Arrive { collects: 0 }
        } else {
            match foresee(&turn.board, army, to) {
                Some(m) => m,
                None => return i64::MIN,
            }
        };
        let near_home = |e: &Army| 300 / (1 + i64::from(e.pos.manhattan(home)));
        let base = match outcome {
            Meeting::Capture => return 1_000_000_000,
            Meeting::Lose | Meeting::Drown => return -1_000_000,
            Meeting::Win(e) => 500 + near_home(&e),
            Meeting::Trade(e) => {
                let ahead = turn.movable_count() > turn.enemies_iter().count() + 1;
                if e.pos.manhattan(home) <= 2 {
                    400
                } else if ahead {
                    40
                } else {
                    -80
                }
            }
            Meeting::Arrive { collects } => 120 * i64::from(collects),
        };
        let risk = match attackers.exposure(army.kind, to) {
            2 => 220,
            1 => 70,
            _ => 0,
        };
        let stay_bonus = if guard && to == army.pos { 400 } else { 0 };
        base - 15 * dist(to) - risk + stay_bonus
    }
}

impl Bot<Conquest> for Strong {
    fn setup(&mut self, _request: &SetupRequest) -> SetupChoice {
        SetupChoice::default()
    }

    fn act(&mut self, obs: &Observation) -> Orders {
        let turn = &mut self.turn;
        turn.renew(obs);
        let home = turn.home();
        let near = threats(turn, home, 2);
        Strong::recruit(turn, &near);
        // Armies that can capture or win a fight move first, so the rest see the result.
        // (Sorted by unique keys: the order the armies are listed in does not matter.)
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        for &a in turn.board.armies() {
            if a.owner == turn.seat && !turn.is_moved(a.id) {
                order.push(((Strong::rank(turn, &a), a.id), a));
            }
        }
        // Ids are unique: the keys are too, so the order is the one sorting by them gives.
        order.sort_unstable_by_key(|&(key, _)| key);
        let mut claimed = std::mem::take(&mut self.claimed);
        claimed.clear();
        let attackers = &mut self.attackers;
        attackers.make(turn);
        for &(_, planned) in &order {
            if turn.won {
                break;
            }
            attackers.refresh(turn);
            let Some(army) = turn
                .board
                .armies()
                .iter()
                .find(|a| a.id == planned.id)
                .copied()
            else {
                continue;
            };
            let defend = near
                .iter()
                .find(|(_, t)| fight(army.kind, t.kind) == Survivor::First)
                .map(|(_, t)| t.pos);
            let guard = defend.is_some()
                && army.pos.manhattan(home) == 1
                && DIRECTIONS.iter().any(|&d| {
                    home.offset(d, 1, turn.board.width(), turn.board.height()) == Some(army.pos)
                });
            let goal = defend
                .or_else(|| {
                    // The nearest unclaimed resource ([`Turn::nearest`], in a plain loop):
                    // ties to the smallest tile; one farther as the crow flies than the
                    // nearest so far cannot be nearer. The one nearest as the crow flies is
                    // asked first, so that most others are passed over unasked.
                    let mut nearest: Option<(u32, Pos)> = None;
                    for &(p, _) in turn.resources() {
                        if nearest.is_some_and(|(steps, _)| army.pos.manhattan(p) > steps)
                            || claimed.contains(&p)
                        {
                            continue;
                        }
                        if let Some(steps) = turn.distance(army.pos, p)
                            && nearest.is_none_or(|b| (steps, p) < b)
                        {
                            nearest = Some((steps, p));
                        }
                    }
                    nearest.map(|(_, p)| p)
                })
                .unwrap_or_else(|| turn.enemy_home());
            claimed.push(goal);
            // The options lie within the army's reach: if the rectangle around them and the
            // goal is dry, every way from them to the goal is straight.
            let reach = u8::try_from(army.kind.reach()).unwrap_or(2);
            let corner = |a: u8, b: u8, c: u8| a.min(b.saturating_sub(c));
            let straight = turn.dry_rectangle(
                Pos::new(
                    corner(goal.x, army.pos.x, reach),
                    corner(goal.y, army.pos.y, reach),
                ),
                Pos::new(
                    goal.x.max(army.pos.x.saturating_add(reach)),
                    goal.y.max(army.pos.y.saturating_add(reach)),
                ),
            );
            // The best score, ties to the smallest tile (the keys differ: so does each
            // option's tile).
            let score = |to| Strong::score(turn, attackers, &army, to, goal, straight, guard);
            let key = |s, to| (s, std::cmp::Reverse(to));
            let mut best = (score(army.pos), army.pos);
            for to in turn.board.destinations(&army) {
                let s = score(to);
                if key(s, to) > key(best.0, best.1) {
                    best = (s, to);
                }
            }
            if best.1 != army.pos {
                turn.order(&army, best.1);
            }
        }
        let orders = std::mem::take(&mut turn.orders);
        self.order = order;
        self.claimed = claimed;
        orders
    }
}
