//! The match: the [`State`], changed only by [`State::apply`]; the document's turn steps
//! (earning, moving, stabbing, mines, wells, graves), which decide a turn's events from the
//! state and apply each as it is decided; and the loop that asks each hero's bot for a
//! direction.

use super::*;

use crate::table::Asked;
use crate::{Finish, Stats, Table};
use arena_sdk::Seat;
use arena_sdk::grid::{
    ADJACENT_DAMAGE, Action, Direction, FRIEND_HEAL, Grid, Hero, HeroId, MAX_HEALTH,
    MINE_CAPTURE_DAMAGE, Mine, MineId, Observation, Pos, Rules, STAB_DAMAGE, SetupRequest, Terrain,
    WELL_HEAL,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The state of a `grid` match: the board, the heroes, the mines, the graves, the score
/// and the statistics. The match, the terminal picture and the browser frames all change it
/// only by [`State::apply`]ing events.
///
/// The heroes, mines and graves live in an [`Observation`] that is handed to bots as it is
/// (only its per-viewer fields change, in [`State::observation`]), so a turn costs no
/// allocation. Those per-viewer fields are the last request's, not the match's: equality
/// leaves them out.
#[derive(Debug, Clone)]
pub struct State {
    width: u8,
    height: u8,
    terrain: Vec<Terrain>,
    /// The living hero on each tile.
    occupant: Vec<Option<HeroId>>,
    /// Whose unrobbed grave is on each tile.
    grave_of: Vec<Option<HeroId>>,
    /// Mines owned, per hero.
    mines_owned: Vec<u32>,
    diamonds: [u32; 2],
    /// Statistics per hero, by id; a team's are the sum of its heroes'.
    tally: Vec<Tally>,
    turn_limit: u32,
    /// The number of the latest hero turn begun (0 before the first).
    turn: u32,
    view: Observation,
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        // Destructured, so that a new field cannot be left out by accident.
        let State {
            width,
            height,
            terrain,
            occupant,
            grave_of,
            mines_owned,
            diamonds,
            tally,
            turn_limit,
            turn,
            view,
        } = self;
        *width == other.width
            && *height == other.height
            && *terrain == other.terrain
            && *occupant == other.occupant
            && *grave_of == other.grave_of
            && *mines_owned == other.mines_owned
            && *diamonds == other.diamonds
            && *tally == other.tally
            && *turn_limit == other.turn_limit
            && *turn == other.turn
            && view.turn_limit == other.view.turn_limit
            && view.heroes == other.view.heroes
            && view.mines == other.view.mines
            && view.graves == other.view.graves
    }
}

impl Eq for State {}

/// Why `me`'s `action` is rejected on a `width` x `height` board, if it is: a move off the
/// board (the hero stays, as the document says).
pub(crate) fn off_board(me: &Hero, action: Action, width: u8, height: u8) -> Option<String> {
    let direction = action.direction()?;
    if me.pos.step(direction, width, height).is_some() {
        return None;
    }
    Some(format!(
        "hero {} at {} cannot go {}: that is off the {width}x{height} board; it stays",
        me.id,
        me.pos,
        direction.name(),
    ))
}

impl State {
    /// Heroes on `positions` (by id; even ids team 0, odd ids team 1), all at full health.
    pub fn new(map: &Map, positions: &[Pos], turn_limit: u32) -> State {
        let heroes: Vec<Hero> = positions
            .iter()
            .enumerate()
            .map(|(id, &pos)| Hero {
                id: HeroId::try_from(id).unwrap_or(HeroId::MAX),
                team: Seat::from(id % 2 == 1),
                health: MAX_HEALTH,
                pos,
                dead: false,
            })
            .collect();
        State::build(
            map.width,
            map.height,
            map.terrain.clone(),
            heroes,
            turn_limit,
        )
    }

    /// The state a replay's initial state describes, before any event.
    pub fn from_initial(initial: &Initial) -> State {
        let (width, height) = (initial.width, initial.height);
        let mut terrain = vec![Terrain::Empty; usize::from(width) * usize::from(height)];
        let mut put = |p: Pos, t: Terrain| {
            if p.x < width && p.y < height {
                terrain[usize::from(p.y) * usize::from(width) + usize::from(p.x)] = t;
            }
        };
        for &p in &initial.walls {
            put(p, Terrain::Wall);
        }
        for &p in &initial.wells {
            put(p, Terrain::Well);
        }
        for (id, &p) in initial.mines.iter().enumerate() {
            put(
                p,
                Terrain::Mine(MineId::try_from(id).unwrap_or(MineId::MAX)),
            );
        }
        State::build(
            width,
            height,
            terrain,
            initial.heroes.clone(),
            initial.turn_limit,
        )
    }

    fn build(
        width: u8,
        height: u8,
        terrain: Vec<Terrain>,
        heroes: Vec<Hero>,
        turn_limit: u32,
    ) -> State {
        let tiles = terrain.len();
        let mines = terrain
            .iter()
            .filter(|t| matches!(t, Terrain::Mine(_)))
            .count();
        let mut state = State {
            width,
            height,
            terrain,
            occupant: vec![None; tiles],
            grave_of: vec![None; tiles],
            mines_owned: vec![0; heroes.len()],
            diamonds: [0, 0],
            tally: vec![Tally::default(); heroes.len()],
            turn_limit,
            turn: 0,
            view: Observation {
                turn: 0,
                turn_limit,
                team: 0,
                acting: 0,
                heroes: Vec::new(),
                mines: vec![Mine::default(); mines],
                graves: Vec::new(),
                diamonds: 0,
                enemy_diamonds: 0,
                last_rejected: None,
            },
        };
        for hero in &heroes {
            if let Some(tile) = state.tile(hero.pos) {
                state.occupant[tile] = Some(hero.id);
            }
        }
        state.view.heroes = heroes;
        state
    }

    fn index(&self, p: Pos) -> usize {
        usize::from(p.y) * usize::from(self.width) + usize::from(p.x)
    }

    /// The index of tile `p`, if it is on the board (a replay's events may say anything).
    fn tile(&self, p: Pos) -> Option<usize> {
        (p.x < self.width && p.y < self.height).then(|| self.index(p))
    }

    fn positions_of(&self, wanted: fn(Terrain) -> bool) -> Vec<Pos> {
        (0..self.height)
            .flat_map(|y| (0..self.width).map(move |x| Pos::new(x, y)))
            .filter(|&p| wanted(self.terrain[self.index(p)]))
            .collect()
    }

    /// The setup request for `team`.
    pub fn setup_request(&self, team: Seat, heroes_per_team: u32) -> SetupRequest {
        SetupRequest {
            width: self.width,
            height: self.height,
            walls: self.positions_of(|t| t == Terrain::Wall),
            mines: self.mine_positions(),
            wells: self.positions_of(|t| t == Terrain::Well),
            heroes_per_team,
            team,
            turn_limit: self.turn_limit,
        }
    }

    fn mine_positions(&self) -> Vec<Pos> {
        let mut mines = self.positions_of(|t| matches!(t, Terrain::Mine(_)));
        mines.sort_by_key(|&p| match self.terrain[self.index(p)] {
            Terrain::Mine(id) => id,
            _ => MineId::MAX,
        });
        mines
    }

    /// The full state for the replay.
    pub fn initial(&self) -> Initial {
        Initial {
            width: self.width,
            height: self.height,
            walls: self.positions_of(|t| t == Terrain::Wall),
            mines: self.mine_positions(),
            wells: self.positions_of(|t| t == Terrain::Well),
            heroes: self.view.heroes.clone(),
            turn_limit: self.turn_limit,
        }
    }

    /// Columns and rows.
    pub fn size(&self) -> (u8, u8) {
        (self.width, self.height)
    }

    /// The terrain of tile `p` (`Empty` off the board).
    pub fn terrain_at(&self, p: Pos) -> Terrain {
        self.tile(p).map_or(Terrain::Empty, |t| self.terrain[t])
    }

    /// The turn limit.
    pub fn turn_limit(&self) -> u32 {
        self.turn_limit
    }

    /// The number of the latest hero turn begun (0 before the first).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Every hero, by id.
    pub fn heroes(&self) -> &[Hero] {
        &self.view.heroes
    }

    /// Every mine's owner, by id.
    pub fn mines(&self) -> &[Mine] {
        &self.view.mines
    }

    /// Unrobbed graves.
    pub fn graves(&self) -> &[Pos] {
        &self.view.graves
    }

    /// Diamonds of team 0 and team 1.
    pub fn diamonds(&self) -> [u32; 2] {
        self.diamonds
    }

    /// Statistics of team 0 and team 1 (the sums over their heroes).
    pub fn tally(&self) -> [Tally; 2] {
        let mut teams = [Tally::default(); 2];
        for (id, hero) in self.tally.iter().enumerate() {
            teams[id % 2].add(hero);
        }
        teams
    }

    /// Statistics of each hero, by hero id.
    pub fn hero_tally(&self) -> &[Tally] {
        &self.tally
    }

    /// Both teams' statistics as [`Stats`]: the team totals, then each hero's own under
    /// `hero<N>_<key>`, N its place in its team (hero id / 2).
    pub fn stats(&self) -> [Stats; 2] {
        let mut stats = self.tally().map(|team| team.to_stats());
        for (id, hero) in self.tally.iter().enumerate() {
            for (key, value) in hero.to_stats() {
                stats[id % 2].insert(format!("hero{}_{key}", id / 2), value);
            }
        }
        stats
    }

    /// Living heroes of `team`.
    pub fn alive(&self, team: Seat) -> usize {
        self.view
            .heroes
            .iter()
            .filter(|h| h.team == team && !h.dead)
            .count()
    }

    /// Set a hero's health (tests and scenario setups, before a match: not an event).
    pub fn set_health(&mut self, hero: HeroId, health: u32) {
        self.view.heroes[usize::from(hero)].health = health.min(MAX_HEALTH);
    }

    /// Give `mine` to `hero` as if captured (tests and scenario setups, before a match: not
    /// an event).
    pub fn set_mine_owner(&mut self, mine: MineId, hero: HeroId) {
        self.transfer_mine(mine, hero);
    }

    fn transfer_mine(&mut self, mine: MineId, hero: HeroId) {
        let Some(team) = self.view.heroes.get(usize::from(hero)).map(|h| h.team) else {
            return;
        };
        let Some(slot) = self.view.mines.get_mut(usize::from(mine)) else {
            return;
        };
        let previous = slot.owner;
        *slot = Mine {
            owner: Some(hero),
            team: Some(team),
        };
        if let Some(count) = previous.and_then(|p| self.mines_owned.get_mut(usize::from(p))) {
            *count -= 1;
        }
        self.mines_owned[usize::from(hero)] += 1;
    }

    /// The observation `hero`'s bot gets on turn `turn` (with `last_rejected` for its team).
    pub fn observation(
        &mut self,
        turn: u32,
        hero: HeroId,
        last_rejected: Option<String>,
    ) -> &Observation {
        let team = self.view.heroes[usize::from(hero)].team;
        self.view.turn = turn;
        self.view.team = team;
        self.view.acting = hero;
        self.view.diamonds = self.diamonds[usize::from(team)];
        self.view.enemy_diamonds = self.diamonds[usize::from(1 - team)];
        self.view.last_rejected = last_rejected;
        &self.view
    }

    /// The directions `hero` may answer without a rejection: those that stay on the board,
    /// as letters of `NESW` ([`Ruleset::Offer`]).
    pub fn offer(&self, hero: HeroId) -> String {
        let pos = self.view.heroes[usize::from(hero)].pos;
        [
            (Direction::North, 'N'),
            (Direction::East, 'E'),
            (Direction::South, 'S'),
            (Direction::West, 'W'),
        ]
        .into_iter()
        .filter(|&(d, _)| pos.step(d, self.width, self.height).is_some())
        .map(|(_, letter)| letter)
        .collect()
    }

    /// Advance the state by one event: the only way a match changes it. The event's
    /// amounts are applied as they are (a replay's are the rules' own); a hero, mine or
    /// tile a replay names that does not exist is ignored rather than trusted.
    pub fn apply(&mut self, event: &Event) {
        match *event {
            Event::HeroTurn { turn, .. } => self.turn = turn,
            Event::DiamondsEarned { hero, amount, .. } => {
                let Some(team) = self.view.heroes.get(usize::from(hero)).map(|h| h.team) else {
                    return;
                };
                if let Some(total) = self.diamonds.get_mut(usize::from(team)) {
                    *total += amount;
                }
                self.tally_of(hero, |t| t.diamonds_earned += amount);
            }
            Event::Moved { hero, from, to } => {
                let (Some(origin), Some(target)) = (self.tile(from), self.tile(to)) else {
                    return;
                };
                let Some(h) = self.view.heroes.get_mut(usize::from(hero)) else {
                    return;
                };
                h.pos = to;
                self.occupant[origin] = None;
                self.occupant[target] = Some(hero);
            }
            Event::GraveRobbed { hero, at, .. } => {
                if let Some(tile) = self.tile(at) {
                    self.grave_of[tile] = None;
                }
                self.view.graves.retain(|&g| g != at);
                self.tally_of(hero, |t| t.graves_robbed += 1);
            }
            Event::MineCaptured {
                hero, mine, damage, ..
            } => {
                self.damage(hero, damage);
                self.transfer_mine(mine, hero);
                self.tally_of(hero, |t| t.mines_captured += 1);
            }
            Event::MineCaptureFailed { hero, damage, .. } => self.damage(hero, damage),
            Event::WellDrink { hero, amount, .. } => {
                self.heal(hero, amount);
                self.tally_of(hero, |t| t.health_recovered += amount);
            }
            Event::Stab {
                hero,
                target,
                damage,
                ..
            }
            | Event::AdjacentDamage {
                hero,
                target,
                damage,
                ..
            } => {
                self.damage(target, damage);
                self.tally_of(hero, |t| t.damage_dealt += damage);
            }
            Event::HealFriend {
                hero,
                target,
                amount,
                ..
            } => {
                self.heal(target, amount);
                self.tally_of(hero, |t| t.health_given += amount);
                self.tally_of(target, |t| t.health_recovered += amount);
            }
            Event::Death { hero, killer, at } => {
                let Some(h) = self.view.heroes.get_mut(usize::from(hero)) else {
                    return;
                };
                h.dead = true;
                h.health = 0;
                if let Some(tile) = self.tile(at) {
                    self.occupant[tile] = None;
                    self.grave_of[tile] = Some(hero);
                }
                self.view.graves.push(at);
                self.tally_of(hero, |t| t.deaths += 1);
                if let Some(killer) = killer {
                    self.tally_of(killer, |t| t.kills += 1);
                }
            }
            Event::Stayed { .. }
            | Event::Blocked { .. }
            | Event::MineAlreadyOwned { .. }
            | Event::GameEnd { .. } => {}
        }
    }

    /// Change `hero`'s statistics, if there is such a hero.
    fn tally_of(&mut self, hero: HeroId, change: impl FnOnce(&mut Tally)) {
        if let Some(tally) = self.tally.get_mut(usize::from(hero)) {
            change(tally);
        }
    }

    /// Apply `event` and add it to the turn's `events`.
    pub(super) fn emit(&mut self, event: Event, events: &mut Vec<Event>) {
        self.apply(&event);
        events.push(event);
    }

    /// Start of `hero`'s turn: it earns one diamond per mine it owns.
    pub fn start_turn(&mut self, hero: HeroId, events: &mut Vec<Event>) {
        let earned = self.mines_owned[usize::from(hero)];
        if earned == 0 {
            return;
        }
        let team = usize::from(self.view.heroes[usize::from(hero)].team);
        let team_total = self.diamonds[team] + earned;
        self.emit(
            Event::DiamondsEarned {
                hero,
                amount: earned,
                team_total,
            },
            events,
        );
    }

    /// Apply `hero`'s answer: the document's steps 4–12. Returns why the answer was
    /// rejected, if it was (a move off the board; the hero stays, as the document says).
    pub fn resolve(
        &mut self,
        hero: HeroId,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Option<String> {
        let me = self.view.heroes[usize::from(hero)];
        debug_assert!(!me.dead, "dead heroes take no turns");
        let team = me.team;
        let rejection = off_board(&me, action, self.width, self.height);
        match action.direction() {
            None => self.emit(Event::Stayed { hero }, events),
            Some(direction) => match me.pos.step(direction, self.width, self.height) {
                None => self.emit(
                    Event::Blocked {
                        hero,
                        direction,
                        by: Blocker::OffBoard,
                    },
                    events,
                ),
                Some(to) => self.walk_into(hero, direction, to, events),
            },
        }
        if !self.view.heroes[usize::from(hero)].dead {
            self.adjacent_damage(hero, team, events);
        }
        rejection
    }

    fn walk_into(&mut self, hero: HeroId, direction: Direction, to: Pos, events: &mut Vec<Event>) {
        let me = self.view.heroes[usize::from(hero)];
        let target = self.index(to);
        match self.terrain[target] {
            Terrain::Wall => self.emit(
                Event::Blocked {
                    hero,
                    direction,
                    by: Blocker::Wall,
                },
                events,
            ),
            Terrain::Well => {
                let amount = WELL_HEAL.min(MAX_HEALTH - me.health);
                self.emit(
                    Event::WellDrink {
                        hero,
                        amount,
                        health: me.health + amount,
                    },
                    events,
                );
            }
            Terrain::Mine(mine) => {
                let owner = self.view.mines[usize::from(mine)].owner;
                if owner == Some(hero) {
                    self.emit(Event::MineAlreadyOwned { hero, mine }, events);
                    return;
                }
                let damage = MINE_CAPTURE_DAMAGE.min(me.health);
                let health = me.health - damage;
                if health == 0 {
                    self.emit(Event::MineCaptureFailed { hero, mine, damage }, events);
                    self.die(hero, None, events);
                } else {
                    self.emit(
                        Event::MineCaptured {
                            hero,
                            mine,
                            from: owner,
                            damage,
                            health,
                        },
                        events,
                    );
                }
            }
            Terrain::Empty => match self.occupant[target] {
                Some(other) if self.view.heroes[usize::from(other)].team != me.team => {
                    self.strike(
                        hero,
                        other,
                        STAB_DAMAGE,
                        events,
                        |hero, target, damage, health| Event::Stab {
                            hero,
                            target,
                            damage,
                            health,
                        },
                    );
                }
                Some(friend) => {
                    let health = self.view.heroes[usize::from(friend)].health;
                    let amount = FRIEND_HEAL.min(MAX_HEALTH - health);
                    self.emit(
                        Event::HealFriend {
                            hero,
                            target: friend,
                            amount,
                            health: health + amount,
                        },
                        events,
                    );
                }
                None => {
                    let from = me.pos;
                    self.emit(Event::Moved { hero, from, to }, events);
                    if let Some(grave_of) = self.grave_of[target] {
                        self.emit(
                            Event::GraveRobbed {
                                hero,
                                at: to,
                                grave_of,
                            },
                            events,
                        );
                    }
                }
            },
        }
    }

    /// Step 12: a living hero deals adjacent damage to every adjacent enemy, north, east,
    /// south, west.
    fn adjacent_damage(&mut self, hero: HeroId, team: Seat, events: &mut Vec<Event>) {
        let pos = self.view.heroes[usize::from(hero)].pos;
        for direction in Direction::ALL {
            let Some(next) = pos.step(direction, self.width, self.height) else {
                continue;
            };
            let Some(other) = self.occupant[self.index(next)] else {
                continue;
            };
            if self.view.heroes[usize::from(other)].team == team {
                continue;
            }
            self.strike(
                hero,
                other,
                ADJACENT_DAMAGE,
                events,
                |hero, target, damage, health| Event::AdjacentDamage {
                    hero,
                    target,
                    damage,
                    health,
                },
            );
        }
    }

    /// `hero` deals `amount` to the enemy `target`: the event `event(hero, target, damage,
    /// health)` (damage floored at 0 health), then the target's death with `hero` credited
    /// for the kill.
    fn strike(
        &mut self,
        hero: HeroId,
        target: HeroId,
        amount: u32,
        events: &mut Vec<Event>,
        event: impl FnOnce(HeroId, HeroId, u32, u32) -> Event,
    ) {
        let before = self.view.heroes[usize::from(target)].health;
        let damage = amount.min(before);
        let health = before - damage;
        self.emit(event(hero, target, damage, health), events);
        if health == 0 {
            self.die(target, Some(hero), events);
        }
    }

    /// Take up to `amount` health from `hero` (health never goes below 0).
    fn damage(&mut self, hero: HeroId, amount: u32) {
        if let Some(h) = self.view.heroes.get_mut(usize::from(hero)) {
            h.health = h.health.saturating_sub(amount);
        }
    }

    /// Give up to `amount` health to `hero` (capped at 100).
    fn heal(&mut self, hero: HeroId, amount: u32) {
        if let Some(h) = self.view.heroes.get_mut(usize::from(hero)) {
            h.health = (h.health + amount).min(MAX_HEALTH);
        }
    }

    fn die(&mut self, hero: HeroId, killer: Option<HeroId>, events: &mut Vec<Event>) {
        let at = self.view.heroes[usize::from(hero)].pos;
        self.emit(Event::Death { hero, killer, at }, events);
    }

    /// The next living hero at or after id `from` (cyclically), if any hero lives.
    pub fn next_living(&self, from: usize) -> Option<HeroId> {
        let n = self.view.heroes.len();
        (0..n)
            .map(|k| (from + k) % n)
            .find(|&i| !self.view.heroes[i].dead)
            .and_then(|i| HeroId::try_from(i).ok())
    }

    /// The result if the game is over before hero turn `turn`: a team eliminated, or the
    /// turn limit reached (most diamonds wins, a tie is a draw).
    pub fn game_over(&self, turn: u32) -> Option<(Option<Seat>, String)> {
        let alive = [self.alive(0), self.alive(1)];
        match alive {
            [0, 0] => return Some((None, "both teams eliminated".to_owned())),
            [0, _] => return Some((Some(1), "team 0 eliminated".to_owned())),
            [_, 0] => return Some((Some(0), "team 1 eliminated".to_owned())),
            _ => {}
        }
        if turn < self.turn_limit {
            return None;
        }
        let [d0, d1] = self.diamonds;
        let winner = match d0.cmp(&d1) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        let reason = match winner {
            Some(_) => format!("turn limit: most diamonds ({d0} to {d1})"),
            None => format!("turn limit: diamonds tied ({d0} to {d1})"),
        };
        Some((winner, reason))
    }
}

/// Play one match to its end (see [`Ruleset::play`]).
pub(super) fn play(rules: &Rules, seed: u64, table: &mut Table<'_, Grid>) -> Finish {
    play_to_end(rules, seed, table).0
}

/// [`play`], also giving the final state (`None` for invalid rules): what folding the
/// replay's events over its initial state must give.
pub(super) fn play_to_end(
    rules: &Rules,
    seed: u64,
    table: &mut Table<'_, Grid>,
) -> (Finish, Option<State>) {
    let setup = match Setup::new(rules) {
        Ok(setup) => setup,
        Err(message) => {
            let finish = Finish {
                winner: None,
                reason: format!("invalid rules: {message}"),
                stats: [Tally::default().to_stats(), Tally::default().to_stats()],
            };
            return (finish, None);
        }
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let positions = setup
        .map
        .placements(setup.heroes_per_team, &mut rng)
        .unwrap_or_default();
    let mut state = State::new(&setup.map, &positions, setup.turn_limit);
    let mut events = Vec::new();
    for seat in 0..2 {
        // `grid` has nothing to choose: any well-formed answer is legal.
        let request = state.setup_request(seat, rules.heroes_per_team);
        if let Asked::Forfeited(loser) = table.ask_setup(seat, &request, |_| Ok(())) {
            // The board is placed already: a viewer can still show what was not played.
            table.set_initial(state.initial());
            let finish = forfeit(table, &mut state, &mut events, loser);
            return (finish, Some(state));
        }
    }
    table.set_initial(state.initial());

    let mut pending: [Option<String>; 2] = [None, None];
    let mut next = 0usize;
    let mut turn = 0u32;
    loop {
        // Before the game-over checks, so the outcome counts every turn played.
        table.set_turn(turn);
        if let Some((winner, reason)) = state.game_over(turn) {
            let end = Event::GameEnd {
                winner,
                reason: reason.clone(),
                diamonds: state.diamonds(),
            };
            state.emit(end, &mut events);
            flush(table, &mut events);
            let finish = Finish {
                winner,
                reason,
                stats: state.stats(),
            };
            return (finish, Some(state));
        }
        // Both teams have living heroes, so there is a next one.
        let Some(hero) = state.next_living(next) else {
            unreachable!("game_over covers a board without living heroes")
        };
        next = usize::from(hero) + 1;
        let me = state.heroes()[usize::from(hero)];
        let seat = me.team;
        state.emit(Event::HeroTurn { turn, hero }, &mut events);
        state.start_turn(hero, &mut events);
        flush(table, &mut events);
        let offer = state.offer(hero);
        let (width, height) = (state.width, state.height);
        // The rejected answer itself is played: a move off the board is a `Blocked` event,
        // the hero staying where it is.
        let mut refused = None;
        let check = |action: &Action| match off_board(&me, *action, width, height) {
            Some(reason) => {
                refused = Some(*action);
                Err(reason)
            }
            None => Ok(()),
        };
        let observation = state.observation(turn, hero, pending[usize::from(seat)].take());
        // A fault stays put: the document's answer to anything that is not a direction.
        let asked = table.ask(seat, observation, offer, check);
        let action = match asked {
            Asked::Legal(action) => action,
            Asked::Default { rejected: None } => Action::Stay,
            Asked::Default {
                rejected: Some(reason),
            } => {
                pending[usize::from(seat)] = Some(reason);
                refused.unwrap_or(Action::Stay)
            }
            Asked::Forfeited(loser) => {
                // The forfeiting hero's turn was begun (its `HeroTurn` is in the log), so
                // the outcome counts it; nothing of it is played.
                table.set_turn(turn + 1);
                let finish = forfeit(table, &mut state, &mut events, loser);
                return (finish, Some(state));
            }
        };
        // A rejection `resolve` finds is the check's, already recorded by the table.
        state.resolve(hero, action, &mut events);
        flush(table, &mut events);
        turn += 1;
    }
}

/// End the match at once on `loser`'s forfeit: its end event, and the finish.
fn forfeit(
    table: &mut Table<'_, Grid>,
    state: &mut State,
    events: &mut Vec<Event>,
    loser: Seat,
) -> Finish {
    let finish = table.forfeit_finish(loser, state.stats());
    let end = Event::GameEnd {
        winner: finish.winner,
        reason: finish.reason.clone(),
        diamonds: state.diamonds(),
    };
    state.emit(end, events);
    flush(table, events);
    finish
}

/// Record the events decided so far, in order.
fn flush(table: &mut Table<'_, Grid>, events: &mut Vec<Event>) {
    for event in events.drain(..) {
        table.event(event);
    }
}
