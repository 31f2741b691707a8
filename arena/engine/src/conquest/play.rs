//! The turn loop of `conquest`: [`State`] carries out one player's orders (recruit stage,
//! then move stage) and [`run`] alternates the players year by year until a home base is
//! captured, a player forfeits, or the last year is over.

use super::rules::{
    self, COLLECT_AMOUNT, FIRST_YEAR, MAX_MOVE_ORDERS, MAX_RECRUIT_ORDERS, MoveError,
    START_RESOURCES, Standing, Survivor,
};
use super::{Event, Initial, Setup, Tally};
use crate::{Finish, Stats, Table};
use arena_sdk::Seat;
use arena_sdk::conquest::{
    Army, ArmyId, Board, Conquest, Kind, Move, MoveEvent, Observation, Orders, Recruit, Resources,
    SetupRequest, Terrain, prices,
};

/// The state of a `conquest` match.
#[derive(Debug, Clone)]
pub struct State {
    board: Board,
    resources: [Resources; 2],
    next_id: ArmyId,
    tally: [Tally; 2],
}

/// What one player's turn did to the game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TurnReport {
    /// Why each skipped order was skipped, in order.
    pub rejections: Vec<String>,
    /// The enemy home base was captured: the player wins.
    pub captured: bool,
}

impl State {
    /// The start of a game on `initial`'s map: no armies, the document's starting
    /// resources.
    pub fn new(initial: &Initial) -> State {
        let mut board = Board::empty(initial.width, initial.height, initial.homes);
        for (list, terrain) in initial.terrain_lists() {
            for &p in list {
                board.set_terrain(p, terrain);
            }
        }
        State {
            board,
            resources: [START_RESOURCES; 2],
            next_id: 0,
            tally: [Tally::default(); 2],
        }
    }

    /// The board (armies and what lies on each tile).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Resources of seat 0 and seat 1.
    pub fn resources(&self) -> [Resources; 2] {
        self.resources
    }

    /// Set a player's resources (tests and scenario setups).
    pub fn set_resources(&mut self, seat: Seat, resources: Resources) {
        self.resources[usize::from(seat)] = resources;
    }

    /// Put an army on the map as if recruited, without paying (tests and scenarios).
    pub fn spawn(&mut self, owner: Seat, kind: Kind, pos: arena_sdk::conquest::Pos) -> ArmyId {
        let id = self.next_id;
        self.next_id += 1;
        self.board.place(Army {
            id,
            owner,
            kind,
            pos,
        });
        id
    }

    /// Statistics so far.
    pub fn tally(&self) -> [Tally; 2] {
        self.tally
    }

    /// Both players' statistics as [`Stats`].
    pub fn stats(&self) -> [Stats; 2] {
        [self.tally[0].to_stats(), self.tally[1].to_stats()]
    }

    /// Armies of `seat` on the map.
    pub fn armies_of(&self, seat: Seat) -> u32 {
        let n = self
            .board
            .armies()
            .iter()
            .filter(|a| a.owner == seat)
            .count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// What the turn cap's tiebreak compares.
    pub fn standings(&self) -> [Standing; 2] {
        [0, 1].map(|seat| Standing {
            armies: self.armies_of(seat),
            resources: self.resources[usize::from(seat)].total(),
        })
    }

    /// Record that `years` years have begun (both players' `years_played`).
    pub fn set_years_played(&mut self, years: u32) {
        for t in &mut self.tally {
            t.years_played = years;
        }
    }

    /// The setup request for `seat`.
    pub fn setup_request(&self, seat: Seat, max_years: u32) -> SetupRequest {
        SetupRequest {
            width: self.board.width(),
            height: self.board.height(),
            seat,
            homes: self.board.homes(),
            first_year: FIRST_YEAR,
            max_years,
        }
    }

    /// What `seat`'s bot sees in `year`.
    pub fn observation(
        &self,
        seat: Seat,
        year: u32,
        last_year: u32,
        last_rejected: Vec<String>,
    ) -> Observation {
        let mut water = Vec::new();
        let mut lists: [Vec<arena_sdk::conquest::Pos>; 3] = Default::default();
        for p in self.board.positions() {
            match self.board.terrain(p) {
                Some(Terrain::Water) => water.push(p),
                Some(Terrain::Resource(r)) => lists[r as usize].push(p),
                _ => {}
            }
        }
        let [wood, food, gold] = lists;
        let mut armies = self.board.armies().to_vec();
        armies.sort_by_key(|a| a.id);
        Observation {
            year,
            last_year,
            seat,
            width: self.board.width(),
            height: self.board.height(),
            homes: self.board.homes(),
            water,
            wood,
            food,
            gold,
            armies,
            resources: self.resources[usize::from(seat)],
            prices: prices(),
            last_rejected,
        }
    }

    /// Carry out `seat`'s orders: every recruit order, then every move order, in order.
    /// A broken order is skipped with the original game's reason; the move stage stops at
    /// a capture.
    pub fn play_turn(
        &mut self,
        seat: Seat,
        orders: &Orders,
        events: &mut Vec<Event>,
    ) -> TurnReport {
        let mut report = TurnReport::default();
        for order in orders.recruit.iter().take(MAX_RECRUIT_ORDERS) {
            if let Err(reason) = self.recruit(seat, *order, events) {
                report.rejections.push(reason);
            }
        }
        if orders.recruit.len() > MAX_RECRUIT_ORDERS {
            report.rejections.push(format!(
                "{} recruit orders past the first {MAX_RECRUIT_ORDERS} skipped: only four positions lie next to a home base",
                orders.recruit.len() - MAX_RECRUIT_ORDERS
            ));
        }
        let mut moved = Vec::new();
        for order in orders.moves.iter().take(MAX_MOVE_ORDERS) {
            match self.move_army(seat, *order, &mut moved, events) {
                Ok(true) => {
                    report.captured = true;
                    return report;
                }
                Ok(false) => {}
                Err(reason) => report.rejections.push(reason),
            }
        }
        if orders.moves.len() > MAX_MOVE_ORDERS {
            report.rejections.push(format!(
                "{} move orders past the first {MAX_MOVE_ORDERS} skipped",
                orders.moves.len() - MAX_MOVE_ORDERS
            ));
        }
        report
    }

    /// The recruit stage's one order.
    pub fn recruit(
        &mut self,
        seat: Seat,
        order: Recruit,
        events: &mut Vec<Event>,
    ) -> Result<(), String> {
        let stock = self.resources[usize::from(seat)];
        self.board
            .check_recruit(seat, stock, order.kind, order.at)
            .map_err(|e| {
                format!(
                    "recruit {} at {}: {}",
                    order.kind.name(),
                    order.at,
                    e.message()
                )
            })?;
        let paid = stock
            .pay(order.kind.price())
            .expect("check_recruit checked the price");
        self.resources[usize::from(seat)] = paid;
        let id = self.spawn(seat, order.kind, order.at);
        let tally = &mut self.tally[usize::from(seat)];
        tally.recruited[order.kind as usize] += 1;
        events.push(Event::Recruited {
            army: Army {
                id,
                owner: seat,
                kind: order.kind,
                pos: order.at,
            },
            resources: paid,
        });
        Ok(())
    }

    /// The move stage's one order; `Ok(true)` if it captured the enemy home. `moved` holds
    /// the armies that have moved this turn.
    pub fn move_army(
        &mut self,
        seat: Seat,
        order: Move,
        moved: &mut Vec<ArmyId>,
        events: &mut Vec<Event>,
    ) -> Result<bool, String> {
        let reject = |e: MoveError| {
            format!(
                "move {} -> {}: {} ({})",
                order.from,
                order.to,
                MoveError::MESSAGE,
                e.detail()
            )
        };
        let army = match self.board.army_at(order.from) {
            Some(a) if a.owner == seat => *a,
            _ => return Err(reject(MoveError::NoArmy)),
        };
        if moved.contains(&army.id) {
            return Err(reject(MoveError::AlreadyMoved));
        }
        let steps = self.board.apply_move(&army, order.to).map_err(reject)?;
        moved.push(army.id);
        let enemy = usize::from(1 - seat);
        let mine = usize::from(seat);
        // The board has carried the move out (the SDK's rules); what is left is the
        // players' side of it: tallies, resources and the events, in order.
        for step in steps.iter() {
            match *step {
                MoveEvent::Fight {
                    defender,
                    at,
                    survivor,
                } => {
                    events.push(Event::Fight {
                        attacker: army,
                        defender,
                        at,
                        survivor,
                    });
                    match survivor {
                        Survivor::First => {
                            self.tally[mine].enemies_destroyed += 1;
                            self.tally[enemy].armies_lost += 1;
                        }
                        Survivor::Second => {
                            self.tally[mine].armies_lost += 1;
                            self.tally[enemy].enemies_destroyed += 1;
                        }
                        Survivor::Neither => {
                            self.tally[mine].armies_lost += 1;
                            self.tally[mine].enemies_destroyed += 1;
                            self.tally[enemy].armies_lost += 1;
                            self.tally[enemy].enemies_destroyed += 1;
                        }
                    }
                }
                MoveEvent::Capture { at } => {
                    self.tally[mine].home_captured = 1;
                    events.push(Event::Captured {
                        army,
                        from: order.from,
                        home: at,
                    });
                    return Ok(true);
                }
                MoveEvent::Drown { at } => {
                    self.tally[mine].armies_lost += 1;
                    self.tally[mine].armies_drowned += 1;
                    events.push(Event::Drowned { army, at });
                }
                MoveEvent::Collect { resource, at } => {
                    let stock = self.resources[mine].plus(resource, COLLECT_AMOUNT);
                    self.resources[mine] = stock;
                    self.tally[mine].collected =
                        self.tally[mine].collected.plus(resource, COLLECT_AMOUNT);
                    events.push(Event::Collected {
                        army: army.id,
                        owner: seat,
                        resource,
                        amount: COLLECT_AMOUNT,
                        at,
                        resources: stock,
                    });
                }
                MoveEvent::Arrive { at } => events.push(Event::Moved { army, to: at }),
            }
        }
        Ok(false)
    }
}

/// Play a match of `setup` at `table` to its end.
pub fn run(setup: &Setup, table: &mut Table<'_, Conquest>) -> Finish {
    let initial = setup.initial();
    let mut state = State::new(&initial);
    for seat in 0..2 {
        // `conquest` has nothing to choose: the answer only has to be well formed.
        let request = state.setup_request(seat, setup.max_years);
        let _ = table.setup(seat, &request);
    }
    table.set_initial(initial);

    let last_turn = setup.max_years.saturating_mul(2);
    let last_year = FIRST_YEAR + setup.max_years - 1;
    let mut pending: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let mut events = Vec::new();
    let mut turn = 0u32;
    loop {
        // Before the game-over checks, so the outcome counts every turn played.
        table.set_turn(turn);
        if let Some(loser) = table.forfeited() {
            let finish = table.forfeit_finish(loser, state.stats());
            end(table, &state, &finish);
            return finish;
        }
        if turn >= last_turn {
            let (winner, reason) = rules::tiebreak(state.standings());
            let finish = Finish {
                winner,
                reason,
                stats: state.stats(),
            };
            end(table, &state, &finish);
            return finish;
        }
        let seat = rules::seat_of_turn(turn);
        let year = rules::year_of_turn(turn);
        state.set_years_played(year - FIRST_YEAR + 1);
        table.event(Event::Turn {
            year,
            seat,
            resources: state.resources()[usize::from(seat)],
        });
        let observation = state.observation(
            seat,
            year,
            last_year,
            std::mem::take(&mut pending[usize::from(seat)]),
        );
        // A fault (or a forfeited seat) gives no orders: the player passes both stages.
        let orders = table.act(seat, &observation).unwrap_or_default();
        let report = state.play_turn(seat, &orders, &mut events);
        for event in events.drain(..) {
            table.event(event);
        }
        for reason in &report.rejections {
            table.reject(seat, reason.clone());
        }
        pending[usize::from(seat)] = report.rejections;
        if report.captured {
            let finish = Finish {
                winner: Some(seat),
                reason: format!(
                    "{} captured the enemy's home base in year {year}",
                    rules::player_name(seat)
                ),
                stats: state.stats(),
            };
            end(table, &state, &finish);
            return finish;
        }
        turn += 1;
    }
}

fn end(table: &mut Table<'_, Conquest>, state: &State, finish: &Finish) {
    table.event(Event::GameEnd {
        winner: finish.winner,
        reason: finish.reason.clone(),
        armies: [state.armies_of(0), state.armies_of(1)],
        resources: state.resources(),
    });
}
