//! The match: the [`State`] with the document's turn steps (earning, moving, stabbing,
//! mines, wells, graves) and the loop that asks each hero's bot for a direction.

use super::*;

use crate::{Finish, Stats, Table};
use arena_sdk::Seat;
use arena_sdk::grid::{
    ADJACENT_DAMAGE, Action, Direction, FRIEND_HEAL, Grid, Hero, HeroId, MAX_HEALTH,
    MINE_CAPTURE_DAMAGE, Mine, MineId, Observation, Pos, Rules, STAB_DAMAGE, SetupRequest, Terrain,
    WELL_HEAL,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The state of a `grid` match. The dynamic part lives in an [`Observation`] that is
/// handed to bots as it is (only the per-viewer fields change), so a turn costs no
/// allocation.
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
    view: Observation,
}

impl State {
    /// Heroes on `positions` (by id; even ids team 0, odd ids team 1), all at full health.
    pub fn new(map: &Map, positions: &[Pos], turn_limit: u32) -> State {
        let tiles = map.terrain.len();
        let mines = map
            .terrain
            .iter()
            .filter(|t| matches!(t, Terrain::Mine(_)))
            .count();
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
        let mut occupant = vec![None; tiles];
        for hero in &heroes {
            occupant[usize::from(hero.pos.y) * usize::from(map.width) + usize::from(hero.pos.x)] =
                Some(hero.id);
        }
        State {
            width: map.width,
            height: map.height,
            terrain: map.terrain.clone(),
            occupant,
            grave_of: vec![None; tiles],
            mines_owned: vec![0; heroes.len()],
            diamonds: [0, 0],
            tally: vec![Tally::default(); heroes.len()],
            turn_limit,
            view: Observation {
                turn: 0,
                turn_limit,
                team: 0,
                acting: 0,
                heroes,
                mines: vec![Mine::default(); mines],
                graves: Vec::new(),
                diamonds: 0,
                enemy_diamonds: 0,
                last_rejected: None,
            },
        }
    }

    fn index(&self, p: Pos) -> usize {
        usize::from(p.y) * usize::from(self.width) + usize::from(p.x)
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

    /// Set a hero's health (tests and scenario setups).
    pub fn set_health(&mut self, hero: HeroId, health: u32) {
        self.view.heroes[usize::from(hero)].health = health.min(MAX_HEALTH);
    }

    /// Give `mine` to `hero` as if captured (tests and scenario setups).
    pub fn set_mine_owner(&mut self, mine: MineId, hero: HeroId) {
        self.transfer_mine(mine, hero);
    }

    fn transfer_mine(&mut self, mine: MineId, hero: HeroId) -> Option<HeroId> {
        let slot = &mut self.view.mines[usize::from(mine)];
        let previous = slot.owner;
        if let Some(previous) = previous {
            self.mines_owned[usize::from(previous)] -= 1;
        }
        *slot = Mine {
            owner: Some(hero),
            team: Some(self.view.heroes[usize::from(hero)].team),
        };
        self.mines_owned[usize::from(hero)] += 1;
        previous
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

    /// Start of `hero`'s turn: it earns one diamond per mine it owns.
    pub fn start_turn(&mut self, hero: HeroId, events: &mut Vec<Event>) {
        let earned = self.mines_owned[usize::from(hero)];
        if earned == 0 {
            return;
        }
        let team = usize::from(self.view.heroes[usize::from(hero)].team);
        self.diamonds[team] += earned;
        self.tally[usize::from(hero)].diamonds_earned += earned;
        events.push(Event::DiamondsEarned {
            hero,
            amount: earned,
            team_total: self.diamonds[team],
        });
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
        let mut rejection = None;
        match action.direction() {
            None => events.push(Event::Stayed { hero }),
            Some(direction) => match me.pos.step(direction, self.width, self.height) {
                None => {
                    rejection = Some(format!(
                        "hero {hero} at {} cannot go {}: that is off the {}x{} board; it stays",
                        me.pos,
                        direction.name(),
                        self.width,
                        self.height
                    ));
                    events.push(Event::Blocked {
                        hero,
                        direction,
                        by: Blocker::OffBoard,
                    });
                }
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
            Terrain::Wall => events.push(Event::Blocked {
                hero,
                direction,
                by: Blocker::Wall,
            }),
            Terrain::Well => {
                let amount = self.heal(hero, WELL_HEAL);
                self.tally[usize::from(hero)].health_recovered += amount;
                events.push(Event::WellDrink {
                    hero,
                    amount,
                    health: self.view.heroes[usize::from(hero)].health,
                });
            }
            Terrain::Mine(mine) => {
                if self.view.mines[usize::from(mine)].owner == Some(hero) {
                    events.push(Event::MineAlreadyOwned { hero, mine });
                    return;
                }
                let damage = self.damage(hero, MINE_CAPTURE_DAMAGE);
                if self.view.heroes[usize::from(hero)].health == 0 {
                    events.push(Event::MineCaptureFailed { hero, mine, damage });
                    self.die(hero, None, events);
                } else {
                    let from = self.transfer_mine(mine, hero);
                    self.tally[usize::from(hero)].mines_captured += 1;
                    events.push(Event::MineCaptured {
                        hero,
                        mine,
                        from,
                        damage,
                        health: self.view.heroes[usize::from(hero)].health,
                    });
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
                    let amount = self.heal(friend, FRIEND_HEAL);
                    self.tally[usize::from(hero)].health_given += amount;
                    self.tally[usize::from(friend)].health_recovered += amount;
                    events.push(Event::HealFriend {
                        hero,
                        target: friend,
                        amount,
                        health: self.view.heroes[usize::from(friend)].health,
                    });
                }
                None => {
                    let from = me.pos;
                    let origin = self.index(from);
                    self.occupant[origin] = None;
                    self.occupant[target] = Some(hero);
                    self.view.heroes[usize::from(hero)].pos = to;
                    events.push(Event::Moved { hero, from, to });
                    if let Some(grave_of) = self.grave_of[target].take() {
                        self.view.graves.retain(|&g| g != to);
                        self.tally[usize::from(hero)].graves_robbed += 1;
                        events.push(Event::GraveRobbed {
                            hero,
                            at: to,
                            grave_of,
                        });
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

    /// `hero` deals `amount` to the enemy `target`: damage (floored at 0 health), the
    /// attacker's `damage_dealt`, the event `event(hero, target, damage, health)`, and the
    /// target's death with `hero` credited for the kill.
    fn strike(
        &mut self,
        hero: HeroId,
        target: HeroId,
        amount: u32,
        events: &mut Vec<Event>,
        event: impl FnOnce(HeroId, HeroId, u32, u32) -> Event,
    ) {
        let damage = self.damage(target, amount);
        self.tally[usize::from(hero)].damage_dealt += damage;
        let health = self.view.heroes[usize::from(target)].health;
        events.push(event(hero, target, damage, health));
        if health == 0 {
            self.die(target, Some(hero), events);
        }
    }

    /// Take up to `amount` health from `hero`; returns the damage actually taken.
    fn damage(&mut self, hero: HeroId, amount: u32) -> u32 {
        let h = &mut self.view.heroes[usize::from(hero)];
        let taken = amount.min(h.health);
        h.health -= taken;
        taken
    }

    /// Give up to `amount` health to `hero` (capped at 100); returns the health gained.
    fn heal(&mut self, hero: HeroId, amount: u32) -> u32 {
        let h = &mut self.view.heroes[usize::from(hero)];
        let gained = amount.min(MAX_HEALTH - h.health);
        h.health += gained;
        gained
    }

    fn die(&mut self, hero: HeroId, killer: Option<HeroId>, events: &mut Vec<Event>) {
        let h = &mut self.view.heroes[usize::from(hero)];
        h.dead = true;
        h.health = 0;
        let at = h.pos;
        let tile = self.index(at);
        self.occupant[tile] = None;
        self.grave_of[tile] = Some(hero);
        self.view.graves.push(at);
        self.tally[usize::from(hero)].deaths += 1;
        if let Some(killer) = killer {
            self.tally[usize::from(killer)].kills += 1;
        }
        events.push(Event::Death { hero, killer, at });
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
    let setup = match Setup::new(rules) {
        Ok(setup) => setup,
        Err(message) => {
            return Finish {
                winner: None,
                reason: format!("invalid rules: {message}"),
                stats: [Tally::default().to_stats(), Tally::default().to_stats()],
            };
        }
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let positions = setup
        .map
        .placements(setup.heroes_per_team, &mut rng)
        .unwrap_or_default();
    let mut state = State::new(&setup.map, &positions, setup.turn_limit);
    for seat in 0..2 {
        // `grid` has nothing to choose: the answer only has to be well formed.
        let request = state.setup_request(seat, rules.heroes_per_team);
        let _ = table.setup(seat, &request);
    }
    table.set_initial(state.initial());

    let mut events = Vec::new();
    let mut pending: [Option<String>; 2] = [None, None];
    let mut next = 0usize;
    let mut turn = 0u32;
    loop {
        // Before the game-over checks, so the outcome counts every turn played.
        table.set_turn(turn);
        if let Some(loser) = table.forfeited() {
            let finish = table.forfeit_finish(loser, state.stats());
            table.event(Event::GameEnd {
                winner: finish.winner,
                reason: finish.reason.clone(),
                diamonds: state.diamonds(),
            });
            return finish;
        }
        if let Some((winner, reason)) = state.game_over(turn) {
            table.event(Event::GameEnd {
                winner,
                reason: reason.clone(),
                diamonds: state.diamonds(),
            });
            return Finish {
                winner,
                reason,
                stats: state.stats(),
            };
        }
        // Both teams have living heroes, so there is a next one.
        let Some(hero) = state.next_living(next) else {
            unreachable!("game_over covers a board without living heroes")
        };
        next = usize::from(hero) + 1;
        let seat = state.heroes()[usize::from(hero)].team;
        events.push(Event::HeroTurn { turn, hero });
        state.start_turn(hero, &mut events);
        for event in events.drain(..) {
            table.event(event);
        }
        table.offer(state.offer(hero));
        let observation = state.observation(turn, hero, pending[usize::from(seat)].take());
        // A fault (or a forfeited seat) stays put: the document's answer to anything
        // that is not a direction.
        let action = table.act(seat, observation).unwrap_or(Action::Stay);
        if let Some(reason) = state.resolve(hero, action, &mut events) {
            table.reject(seat, reason.clone());
            pending[usize::from(seat)] = Some(reason);
        }
        for event in events.drain(..) {
            table.event(event);
        }
        turn += 1;
    }
}
