//! The turn loop of `conquest`: [`State`] is the one state of a match, changed only by
//! [`State::apply`] on an event; its rules ([`State::recruit`], [`State::move_army`],
//! [`State::play_turn`]) decide what one player's orders do, build the events and apply
//! them, and [`run`] alternates the players year by year until a home base is captured, a
//! player forfeits, or the last year is over.

use super::rules::{
    self, COLLECT_AMOUNT, FIRST_YEAR, MAX_MOVES, MAX_RECRUITS, MAX_REFUSED_ORDERS, MoveError,
    START_RESOURCES, Standing, Survivor,
};
use super::{Event, Initial, Setup, Tally};
use crate::{Asked, Finish, Stats, Table};
use arena_sdk::Seat;
use arena_sdk::conquest::{
    Army, ArmyId, Board, Conquest, Move, MoveEvent, Observation, Orders, Recruit, Resources,
    SetupRequest, Terrain, prices,
};

/// The state of a `conquest` match, changed only by [`State::apply`]: the rules, the
/// terminal picture and the browser frames all fold the same events into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    board: Board,
    resources: [Resources; 2],
    /// The id the next recruit gets: ids are given in order of recruitment.
    next_id: ArmyId,
    tally: [Tally; 2],
    /// The year of the turn under way (the first year before any turn).
    year: u32,
    /// Whose turn is under way (Player 1 before any turn).
    seat: Seat,
    /// The last year the game may last.
    last_year: u32,
    /// The armies that have moved in the turn under way: each moves once a turn.
    moved: Vec<ArmyId>,
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
    /// resources, the first year.
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
            year: FIRST_YEAR,
            seat: 0,
            last_year: FIRST_YEAR + initial.max_years.saturating_sub(1),
            moved: Vec::new(),
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

    /// The year of the turn under way.
    pub fn year(&self) -> u32 {
        self.year
    }

    /// Whose turn is under way.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The last year the game may last.
    pub fn last_year(&self) -> u32 {
        self.last_year
    }

    /// Set a player's resources: a scenario's starting position, not a rule.
    #[cfg(test)]
    pub(super) fn set_resources(&mut self, seat: Seat, resources: Resources) {
        self.resources[usize::from(seat)] = resources;
    }

    /// Put an army on the map as if recruited, without paying or counting it: a scenario's
    /// starting position, not a rule.
    #[cfg(test)]
    pub(super) fn spawn(
        &mut self,
        owner: Seat,
        kind: arena_sdk::conquest::Kind,
        pos: arena_sdk::conquest::Pos,
    ) -> ArmyId {
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

    /// `seat`'s tally, if `seat` is a seat (a replay file's event may name any number).
    fn tally_of(&mut self, seat: Seat) -> Option<&mut Tally> {
        self.tally.get_mut(usize::from(seat))
    }

    fn set_held(&mut self, seat: Seat, resources: Resources) {
        if let Some(slot) = self.resources.get_mut(usize::from(seat)) {
            *slot = resources;
        }
    }

    fn mark_moved(&mut self, id: ArmyId) {
        if !self.moved.contains(&id) {
            self.moved.push(id);
        }
    }

    /// Apply one event: the only change of state there is. The rules build each event from
    /// the state before it, so the numbers it carries (resources after paying or
    /// collecting, the fight's survivor) are the state's; a recorded event that does not
    /// fit the board (an army not on it) changes only what it can.
    pub fn apply(&mut self, event: &Event) {
        match *event {
            Event::Turn {
                year,
                seat,
                resources,
            } => {
                self.year = year;
                self.seat = seat;
                self.set_held(seat, resources);
                self.moved.clear();
                for t in &mut self.tally {
                    t.years_played = year.saturating_sub(FIRST_YEAR) + 1;
                }
            }
            Event::Recruited { army, resources } => {
                self.board.place(army);
                self.set_held(army.owner, resources);
                self.next_id = self.next_id.max(army.id.saturating_add(1));
                if let Some(t) = self.tally_of(army.owner) {
                    t.recruited[army.kind as usize] += 1;
                }
            }
            Event::Moved { army, to } => {
                self.board.relocate(army.id, to);
                self.mark_moved(army.id);
            }
            Event::Collected {
                army,
                owner,
                resource,
                amount,
                at,
                resources,
            } => {
                self.board.set_terrain(at, Terrain::Plain);
                self.set_held(owner, resources);
                if let Some(t) = self.tally_of(owner) {
                    t.collected = t.collected.plus(resource, amount);
                }
                self.mark_moved(army);
            }
            Event::Drowned { army, .. } => {
                self.board.remove(army.id);
                if let Some(t) = self.tally_of(army.owner) {
                    t.armies_lost += 1;
                    t.armies_drowned += 1;
                }
                self.mark_moved(army.id);
            }
            Event::Fight {
                attacker,
                defender,
                survivor,
                ..
            } => {
                // Attacker first, as the SDK's `Board::apply_move` removes them: the
                // board's army list keeps one order whoever carries the move out.
                if survivor != Survivor::First {
                    self.board.remove(attacker.id);
                }
                if survivor != Survivor::Second {
                    self.board.remove(defender.id);
                }
                let (lost, destroyed) = match survivor {
                    Survivor::First => ([false, true], [true, false]),
                    Survivor::Second => ([true, false], [false, true]),
                    Survivor::Neither => ([true, true], [true, true]),
                };
                for (k, seat) in [attacker.owner, defender.owner].into_iter().enumerate() {
                    if let Some(t) = self.tally_of(seat) {
                        t.armies_lost += u32::from(lost[k]);
                        t.enemies_destroyed += u32::from(destroyed[k]);
                    }
                }
                self.mark_moved(attacker.id);
            }
            Event::Captured { army, home, .. } => {
                self.board.relocate(army.id, home);
                if let Some(t) = self.tally_of(army.owner) {
                    t.home_captured = 1;
                }
                self.mark_moved(army.id);
            }
            // The outcome: what it carries (armies, resources) is the state's already.
            Event::GameEnd { .. } => {}
        }
    }

    /// Apply `event` and hand it to `events`, where the loop picks it up for the log.
    fn emit(&mut self, event: Event, events: &mut Vec<Event>) {
        self.apply(&event);
        events.push(event);
    }

    /// Carry out `seat`'s orders: every recruit order, then every move order, in order.
    /// A broken order is skipped with the original game's reason; the move stage stops at
    /// a capture. The events go to `events`, in order, each applied already.
    pub fn play_turn(
        &mut self,
        seat: Seat,
        orders: &Orders,
        events: &mut Vec<Event>,
    ) -> TurnReport {
        let mut report = TurnReport::default();
        let mut stage = Stage::new("recruit", MAX_RECRUITS);
        for (read, order) in orders.recruit.iter().enumerate() {
            if let Some(skipped) = stage.full(orders.recruit.len() - read) {
                report.rejections.push(skipped);
                break;
            }
            stage.count(self.recruit(seat, *order, events), &mut report);
        }
        let mut stage = Stage::new("move", MAX_MOVES);
        for (read, order) in orders.moves.iter().enumerate() {
            if let Some(skipped) = stage.full(orders.moves.len() - read) {
                report.rejections.push(skipped);
                break;
            }
            let result = self.move_army(seat, *order, events);
            if result == Ok(true) {
                report.captured = true;
                return report;
            }
            stage.count(result.map(|_| ()), &mut report);
        }
        report
    }

    /// The recruit stage's one order: a [`Event::Recruited`] applied and handed to
    /// `events`, or the reason it is skipped.
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
        let army = Army {
            id: self.next_id,
            owner: seat,
            kind: order.kind,
            pos: order.at,
        };
        self.emit(
            Event::Recruited {
                army,
                resources: paid,
            },
            events,
        );
        Ok(())
    }

    /// The move stage's one order: its events (the SDK's [`Board::move_events`], the
    /// document's move rules) applied and handed to `events`, `Ok(true)` if it captured
    /// the enemy home; or the reason it is skipped.
    pub fn move_army(
        &mut self,
        seat: Seat,
        order: Move,
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
        if self.moved.contains(&army.id) {
            return Err(reject(MoveError::AlreadyMoved));
        }
        let steps = self.board.move_events(&army, order.to).map_err(reject)?;
        let mut captured = false;
        for step in steps.iter() {
            let event = match *step {
                MoveEvent::Fight {
                    defender,
                    at,
                    survivor,
                } => Event::Fight {
                    attacker: army,
                    defender,
                    at,
                    survivor,
                },
                MoveEvent::Capture { at } => {
                    captured = true;
                    Event::Captured {
                        army,
                        from: order.from,
                        home: at,
                    }
                }
                MoveEvent::Drown { at } => Event::Drowned { army, at },
                MoveEvent::Collect { resource, at } => Event::Collected {
                    army: army.id,
                    owner: seat,
                    resource,
                    amount: COLLECT_AMOUNT,
                    at,
                    // Read before this event is applied: after any earlier collection of
                    // the same move, which is applied already.
                    resources: self.resources[usize::from(seat)].plus(resource, COLLECT_AMOUNT),
                },
                MoveEvent::Arrive { at } => Event::Moved { army, to: at },
            };
            self.emit(event, events);
        }
        Ok(captured)
    }
}

/// The bounds of one stage's orders: those carried out toward the rules' limit, those
/// refused toward [`MAX_REFUSED_ORDERS`].
struct Stage {
    name: &'static str,
    limit: usize,
    carried_out: usize,
    refused: usize,
}

impl Stage {
    fn new(name: &'static str, limit: usize) -> Stage {
        Stage {
            name,
            limit,
            carried_out: 0,
            refused: 0,
        }
    }

    /// Count one order's result; a refusal's reason goes to `report`.
    fn count(&mut self, result: Result<(), String>, report: &mut TurnReport) {
        match result {
            Ok(()) => self.carried_out += 1,
            Err(reason) => {
                self.refused += 1;
                report.rejections.push(reason);
            }
        }
    }

    /// With `left` orders still to read: the rejection skipping them all, once a bound is
    /// reached.
    fn full(&self, left: usize) -> Option<String> {
        let (name, limit) = (self.name, self.limit);
        if self.carried_out >= limit {
            Some(format!(
                "{left} {name} order{} skipped: {limit} {name}s carried out this turn, the most a turn allows",
                plural(left)
            ))
        } else if self.refused >= MAX_REFUSED_ORDERS {
            Some(format!(
                "{left} {name} order{} skipped: {MAX_REFUSED_ORDERS} {name} orders refused this turn, the most a turn reads",
                plural(left)
            ))
        } else {
            None
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Play a match of `setup` at `table` to its end.
pub fn run(setup: &Setup, table: &mut Table<'_, Conquest>) -> Finish {
    play(setup, table).0
}

/// [`run`], with the state the match ended in (for the tests that fold the replay).
pub(crate) fn play(setup: &Setup, table: &mut Table<'_, Conquest>) -> (Finish, State) {
    let initial = setup.initial();
    let mut state = State::new(&initial);
    for seat in 0..2 {
        // `conquest` has nothing to choose: the answer only has to be well formed.
        let request = state.setup_request(seat, setup.max_years);
        if let Asked::Forfeited(loser) = table.ask_setup(seat, &request, |_| Ok(())) {
            // Recorded all the same: the replay of a forfeit still shows the map.
            table.set_initial(initial);
            let finish = table.forfeit_finish(loser, state.stats());
            return end(table, state, finish);
        }
    }
    table.set_initial(initial);

    let last_turn = setup.max_years.saturating_mul(2);
    let last_year = state.last_year();
    let mut pending: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let mut events = Vec::new();
    let mut turn = 0u32;
    loop {
        // Before the game-over checks, so the outcome counts every turn played.
        table.set_turn(turn);
        if turn >= last_turn {
            let (winner, reason) = rules::tiebreak(state.standings());
            let finish = Finish {
                winner,
                reason,
                stats: state.stats(),
            };
            return end(table, state, finish);
        }
        let seat = rules::seat_of_turn(turn);
        let year = rules::year_of_turn(turn);
        let resources = state.resources()[usize::from(seat)];
        state.emit(
            Event::Turn {
                year,
                seat,
                resources,
            },
            &mut events,
        );
        for event in events.drain(..) {
            table.event(event);
        }
        let observation = state.observation(
            seat,
            year,
            last_year,
            std::mem::take(&mut pending[usize::from(seat)]),
        );
        // Every list of orders is accepted as an answer: each order is carried out or
        // refused on its own below. A fault gives no orders: the player passes both stages.
        let orders = match table.ask(seat, &observation, (), |_| Ok(())) {
            Asked::Legal(orders) => orders,
            Asked::Default { .. } => Orders::default(),
            Asked::Forfeited(loser) => {
                let finish = table.forfeit_finish(loser, state.stats());
                return end(table, state, finish);
            }
        };
        let report = state.play_turn(seat, &orders, &mut events);
        for event in events.drain(..) {
            table.event(event);
        }
        for reason in &report.rejections {
            table.reject_part(seat, reason.clone());
        }
        pending[usize::from(seat)] = report.rejections;
        // The orders carried out stand: a capture wins at once, even by an answer whose
        // refused orders are the seat's last strike; the forfeit applies if the game goes on.
        if report.captured {
            let finish = Finish {
                winner: Some(seat),
                reason: format!(
                    "{} captured the enemy's home base in year {year}",
                    rules::player_name(seat)
                ),
                stats: state.stats(),
            };
            return end(table, state, finish);
        }
        if let Some(loser) = table.forfeit() {
            let finish = table.forfeit_finish(loser, state.stats());
            return end(table, state, finish);
        }
        turn += 1;
    }
}

/// Record the match's one end event, the last of the log, for `finish`.
fn end(table: &mut Table<'_, Conquest>, mut state: State, finish: Finish) -> (Finish, State) {
    let event = Event::GameEnd {
        winner: finish.winner,
        reason: finish.reason.clone(),
        armies: [state.armies_of(0), state.armies_of(1)],
        resources: state.resources(),
    };
    state.apply(&event);
    table.event(event);
    (finish, state)
}
