//! Mode `grid` — JS Battle (../shared/seeds/grid-javascript-battle-rules.txt); the rules as
//! implemented, with every choice the document leaves open, are in docs/rules/grid.md.
//!
//! Heroes act one at a time in id order (even ids team 0, odd ids team 1, so the teams
//! alternate), dead heroes being skipped. A hero's turn: it earns one diamond per mine it
//! owns, its bot answers a direction, and [`State::resolve`] applies the document's steps
//! 4–12 in order. The game ends when a team is eliminated or after `turn_limit` hero turns
//! (most diamonds wins; a tie is a draw).

mod frames;
pub mod map;

#[cfg(test)]
mod tests;

use crate::{Finish, Ruleset, Stats, Table};
use arena_sdk::Seat;
use arena_sdk::grid::{
    ADJACENT_DAMAGE, Action, Direction, FRIEND_HEAL, Grid, Hero, HeroId, MAX_HEALTH,
    MINE_CAPTURE_DAMAGE, Mine, MineId, Observation, Pos, Rules, STAB_DAMAGE, SetupRequest, Terrain,
    WELL_HEAL,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

pub use map::{Map, MapError, MapErrorKind, parse_map};

/// Most heroes a team may have (hero ids must fit a byte, and a board must hold them).
pub const MAX_HEROES_PER_TEAM: u32 = 20;
/// Longest turn limit a rules config may ask for.
pub const MAX_TURN_LIMIT: u32 = 1_000_000;

/// The statistics keys of `grid`, per team (summed over its heroes): the document's list
/// minus wins and losses, which tournaments derive from results.
pub const STAT_KEYS: [&str; 8] = [
    "deaths",
    "kills",
    "damage_dealt",
    "graves_robbed",
    "health_given",
    "health_recovered",
    "diamonds_earned",
    "mines_captured",
];

/// Why a move went nowhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Blocker {
    /// The tile is off the board (the answer is also rejected).
    OffBoard,
    /// The tile is impassable.
    Wall,
}

/// Everything that happens in a `grid` match, with its numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Hero turn number `turn` (from 0) begins.
    HeroTurn {
        /// Hero turns played before this one.
        turn: u32,
        /// The acting hero.
        hero: HeroId,
    },
    /// The acting hero earned one diamond per mine it owns.
    DiamondsEarned {
        /// The acting hero.
        hero: HeroId,
        /// Diamonds earned now.
        amount: u32,
        /// Its team's total after this.
        team_total: u32,
    },
    /// The hero stayed where it was.
    Stayed {
        /// The acting hero.
        hero: HeroId,
    },
    /// The hero walked onto a tile.
    Moved {
        /// The acting hero.
        hero: HeroId,
        /// Where it was.
        from: Pos,
        /// Where it is now.
        to: Pos,
    },
    /// The hero tried to walk off the board or into an impassable tile.
    Blocked {
        /// The acting hero.
        hero: HeroId,
        /// Where it tried to go.
        direction: Direction,
        /// What stopped it.
        by: Blocker,
    },
    /// The hero walked onto a grave and robbed it (the grave is gone).
    GraveRobbed {
        /// The acting hero.
        hero: HeroId,
        /// The grave's tile.
        at: Pos,
        /// Whose grave it was.
        grave_of: HeroId,
    },
    /// The hero walked into a mine it already owns: nothing happens.
    MineAlreadyOwned {
        /// The acting hero.
        hero: HeroId,
        /// The mine.
        mine: MineId,
    },
    /// The hero captured a mine and took the guardians' damage.
    MineCaptured {
        /// The acting hero.
        hero: HeroId,
        /// The mine.
        mine: MineId,
        /// Its previous owner, if any (teammates included).
        from: Option<HeroId>,
        /// Damage taken.
        damage: u32,
        /// The hero's health after.
        health: u32,
    },
    /// The guardians' damage killed the hero; the mine keeps its owner.
    MineCaptureFailed {
        /// The acting hero.
        hero: HeroId,
        /// The mine.
        mine: MineId,
        /// Damage taken.
        damage: u32,
    },
    /// The hero drank from a health well.
    WellDrink {
        /// The acting hero.
        hero: HeroId,
        /// Health gained (after the cap of 100).
        amount: u32,
        /// Health after.
        health: u32,
    },
    /// The hero walked into an enemy and stabbed it.
    Stab {
        /// The acting hero.
        hero: HeroId,
        /// The enemy.
        target: HeroId,
        /// Damage dealt (at most the target's health).
        damage: u32,
        /// The target's health after.
        health: u32,
    },
    /// The hero walked into a teammate and healed it.
    HealFriend {
        /// The acting hero.
        hero: HeroId,
        /// The teammate.
        target: HeroId,
        /// Health given (after the cap of 100).
        amount: u32,
        /// The teammate's health after.
        health: u32,
    },
    /// End of the hero's turn: damage to one adjacent enemy.
    AdjacentDamage {
        /// The acting hero.
        hero: HeroId,
        /// The adjacent enemy.
        target: HeroId,
        /// Damage dealt (at most the target's health).
        damage: u32,
        /// The target's health after.
        health: u32,
    },
    /// A hero died; a grave is dug where it stood.
    Death {
        /// The hero who died.
        hero: HeroId,
        /// Who dealt the fatal damage (`None`: the mine guardians).
        killer: Option<HeroId>,
        /// Where (now a grave).
        at: Pos,
    },
    /// The match is over.
    GameEnd {
        /// The winning team, `None` for a draw.
        winner: Option<Seat>,
        /// Why.
        reason: String,
        /// Diamonds of team 0 and team 1.
        diamonds: [u32; 2],
    },
}

/// The full initial state, recorded in the replay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Initial {
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// Impassable tiles.
    pub walls: Vec<Pos>,
    /// Mines, by id.
    pub mines: Vec<Pos>,
    /// Health wells.
    pub wells: Vec<Pos>,
    /// The heroes where they start.
    pub heroes: Vec<Hero>,
    /// The turn limit.
    pub turn_limit: u32,
}

/// One team's statistics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Heroes of the team that died.
    pub deaths: u32,
    /// Enemy heroes the team's heroes killed (fatal stab or adjacent damage).
    pub kills: u32,
    /// Damage dealt to enemies (stabs and adjacent damage, capped at the victim's health).
    pub damage_dealt: u32,
    /// Graves robbed (any team's grave).
    pub graves_robbed: u32,
    /// Health given to teammates by walking into them (after the cap).
    pub health_given: u32,
    /// Health the team's heroes recovered, from wells and from teammates (after the cap).
    pub health_recovered: u32,
    /// Diamonds earned.
    pub diamonds_earned: u32,
    /// Mines captured (taken from anyone, teammates included).
    pub mines_captured: u32,
}

impl Tally {
    /// As a [`Stats`] map with every key of [`STAT_KEYS`].
    pub fn to_stats(&self) -> Stats {
        let values = [
            self.deaths,
            self.kills,
            self.damage_dealt,
            self.graves_robbed,
            self.health_given,
            self.health_recovered,
            self.diamonds_earned,
            self.mines_captured,
        ];
        STAT_KEYS
            .iter()
            .zip(values)
            .map(|(k, v)| ((*k).to_owned(), i64::from(v)))
            .collect()
    }
}

/// A validated match setup: the parsed map and the rules' numbers.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The map.
    pub map: Map,
    /// Heroes per team.
    pub heroes_per_team: usize,
    /// Hero turns before the game ends.
    pub turn_limit: u32,
}

impl Setup {
    /// Parse and check a rules config.
    pub fn new(rules: &Rules) -> Result<Setup, String> {
        let map = parse_map(&rules.map).map_err(|e| format!("map: {e}"))?;
        if !(1..=MAX_HEROES_PER_TEAM).contains(&rules.heroes_per_team) {
            return Err(format!(
                "heroes_per_team must be 1 to {MAX_HEROES_PER_TEAM}, not {}",
                rules.heroes_per_team
            ));
        }
        if !(1..=MAX_TURN_LIMIT).contains(&rules.turn_limit) {
            return Err(format!(
                "turn_limit must be 1 to {MAX_TURN_LIMIT}, not {}",
                rules.turn_limit
            ));
        }
        let heroes_per_team = rules.heroes_per_team as usize;
        let capacity = map.capacity();
        if heroes_per_team > capacity {
            return Err(if map.spawns[0].is_empty() {
                format!(
                    "map: room for only {capacity} heroes a team (pairs of mirrored empty tiles), heroes_per_team is {heroes_per_team}"
                )
            } else {
                format!("map: {capacity} spawn tiles a team, heroes_per_team is {heroes_per_team}")
            });
        }
        Ok(Setup {
            map,
            heroes_per_team,
            turn_limit: rules.turn_limit,
        })
    }
}

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
    tally: [Tally; 2],
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
            tally: [Tally::default(); 2],
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

    /// Statistics of team 0 and team 1.
    pub fn tally(&self) -> [Tally; 2] {
        self.tally
    }

    /// Both teams' statistics as [`Stats`].
    pub fn stats(&self) -> [Stats; 2] {
        [self.tally[0].to_stats(), self.tally[1].to_stats()]
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

    /// Start of `hero`'s turn: it earns one diamond per mine it owns.
    pub fn start_turn(&mut self, hero: HeroId, events: &mut Vec<Event>) {
        let earned = self.mines_owned[usize::from(hero)];
        if earned == 0 {
            return;
        }
        let team = usize::from(self.view.heroes[usize::from(hero)].team);
        self.diamonds[team] += earned;
        self.tally[team].diamonds_earned += earned;
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
        let team = usize::from(me.team);
        let target = self.index(to);
        match self.terrain[target] {
            Terrain::Wall => events.push(Event::Blocked {
                hero,
                direction,
                by: Blocker::Wall,
            }),
            Terrain::Well => {
                let amount = self.heal(hero, WELL_HEAL);
                self.tally[team].health_recovered += amount;
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
                    self.tally[team].mines_captured += 1;
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
                    self.tally[team].health_given += amount;
                    self.tally[team].health_recovered += amount;
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
                        self.tally[team].graves_robbed += 1;
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
        let team = self.view.heroes[usize::from(hero)].team;
        self.tally[usize::from(team)].damage_dealt += damage;
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
        let (at, team) = (h.pos, h.team);
        let tile = self.index(at);
        self.occupant[tile] = None;
        self.grave_of[tile] = Some(hero);
        self.view.graves.push(at);
        self.tally[usize::from(team)].deaths += 1;
        if let Some(killer) = killer {
            let killer_team = self.view.heroes[usize::from(killer)].team;
            self.tally[usize::from(killer_team)].kills += 1;
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

impl Ruleset for Grid {
    type Event = Event;
    type Initial = Initial;

    fn validate(rules: &Rules) -> Result<(), String> {
        Setup::new(rules).map(|_| ())
    }

    fn play(rules: &Rules, seed: u64, table: &mut Table<'_, Self>) -> Finish {
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

    fn describe(event: &Event) -> String {
        match event {
            Event::HeroTurn { turn, hero } => format!("turn {turn}: {}", label(*hero)),
            Event::DiamondsEarned {
                hero,
                amount,
                team_total,
            } => format!(
                "{} earns {amount} diamond{} (team {} has {team_total})",
                label(*hero),
                plural(*amount),
                team_letter(team_of(*hero))
            ),
            Event::Stayed { hero } => format!("{} stays", label(*hero)),
            Event::Moved { hero, from, to } => format!("{} walks {from} -> {to}", label(*hero)),
            Event::Blocked {
                hero,
                direction,
                by,
            } => format!(
                "{} cannot go {}: {}",
                label(*hero),
                direction.name(),
                match by {
                    Blocker::OffBoard => "off the board (rejected)",
                    Blocker::Wall => "impassable",
                }
            ),
            Event::GraveRobbed { hero, at, grave_of } => format!(
                "{} robs the grave of {} at {at}",
                label(*hero),
                label(*grave_of)
            ),
            Event::MineAlreadyOwned { hero, mine } => {
                format!("{} already owns mine #{mine}", label(*hero))
            }
            Event::MineCaptured {
                hero,
                mine,
                from,
                damage,
                health,
            } => format!(
                "{} captures mine #{mine}{} and takes {damage} damage ({health} left)",
                label(*hero),
                from.map(|f| format!(" from {}", label(f)))
                    .unwrap_or_default()
            ),
            Event::MineCaptureFailed { hero, mine, damage } => format!(
                "{} dies to the guardians of mine #{mine} ({damage} damage)",
                label(*hero)
            ),
            Event::WellDrink {
                hero,
                amount,
                health,
            } => format!(
                "{} drinks from a well: +{amount} health ({health})",
                label(*hero)
            ),
            Event::Stab {
                hero,
                target,
                damage,
                health,
            } => format!(
                "{} stabs {} for {damage} ({health} left)",
                label(*hero),
                label(*target)
            ),
            Event::HealFriend {
                hero,
                target,
                amount,
                health,
            } => format!(
                "{} heals {}: +{amount} health ({health})",
                label(*hero),
                label(*target)
            ),
            Event::AdjacentDamage {
                hero,
                target,
                damage,
                health,
            } => format!(
                "{} hits adjacent {} for {damage} ({health} left)",
                label(*hero),
                label(*target)
            ),
            Event::Death { hero, killer, at } => match killer {
                Some(k) => format!("{} is killed by {} at {at}", label(*hero), label(*k)),
                None => format!("{} dies at {at}", label(*hero)),
            },
            Event::GameEnd {
                winner,
                reason,
                diamonds,
            } => format!(
                "game over: {} ({reason}); diamonds A {} B {}",
                match winner {
                    Some(team) => format!("team {} wins", team_letter(*team)),
                    None => "draw".to_owned(),
                },
                diamonds[0],
                diamonds[1]
            ),
        }
    }

    fn picture(initial: &Initial, events: &[Event]) -> Option<String> {
        Some(View::replay(initial, events).render(initial))
    }

    fn frames(initial: &Initial, events: &[Event]) -> Option<crate::frames::Frames> {
        Some(frames::frames(initial, events))
    }
}

/// A hero's team from its id (heroes alternate teams, team 0 first).
pub fn team_of(hero: HeroId) -> Seat {
    hero % 2
}

/// `A` for team 0, `B` for team 1.
pub fn team_letter(team: Seat) -> char {
    if team == 0 { 'A' } else { 'B' }
}

/// A hero's name in text: team letter and id (`A0`, `B1`, `A2` …).
pub fn label(hero: HeroId) -> String {
    format!("{}{hero}", team_letter(team_of(hero)))
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The dynamic state rebuilt from the initial state and the events (for `picture`).
#[derive(Debug, Clone)]
struct View {
    turn: u32,
    heroes: Vec<Hero>,
    mines: Vec<Mine>,
    graves: Vec<Pos>,
    diamonds: [u32; 2],
}

impl View {
    fn replay(initial: &Initial, events: &[Event]) -> View {
        let mut view = View {
            turn: 0,
            heroes: initial.heroes.clone(),
            mines: vec![Mine::default(); initial.mines.len()],
            graves: Vec::new(),
            diamonds: [0, 0],
        };
        for event in events {
            view.apply(event);
        }
        view
    }

    fn hero(&mut self, id: HeroId) -> Option<&mut Hero> {
        self.heroes.get_mut(usize::from(id))
    }

    fn apply(&mut self, event: &Event) {
        match *event {
            Event::HeroTurn { turn, .. } => self.turn = turn,
            Event::DiamondsEarned {
                hero, team_total, ..
            } => self.diamonds[usize::from(team_of(hero))] = team_total,
            Event::Moved { hero, to, .. } => {
                if let Some(h) = self.hero(hero) {
                    h.pos = to;
                }
            }
            Event::GraveRobbed { at, .. } => self.graves.retain(|&g| g != at),
            Event::MineCaptured {
                hero, mine, health, ..
            } => {
                if let Some(slot) = self.mines.get_mut(usize::from(mine)) {
                    *slot = Mine {
                        owner: Some(hero),
                        team: Some(team_of(hero)),
                    };
                }
                if let Some(h) = self.hero(hero) {
                    h.health = health;
                }
            }
            Event::WellDrink { hero, health, .. } => {
                if let Some(h) = self.hero(hero) {
                    h.health = health;
                }
            }
            Event::Stab { target, health, .. }
            | Event::HealFriend { target, health, .. }
            | Event::AdjacentDamage { target, health, .. } => {
                if let Some(h) = self.hero(target) {
                    h.health = health;
                }
            }
            Event::Death { hero, at, .. } => {
                if let Some(h) = self.hero(hero) {
                    h.dead = true;
                    h.health = 0;
                }
                self.graves.push(at);
            }
            Event::GameEnd { diamonds, .. } => self.diamonds = diamonds,
            Event::Stayed { .. }
            | Event::Blocked { .. }
            | Event::MineAlreadyOwned { .. }
            | Event::MineCaptureFailed { .. } => {}
        }
    }

    /// The board, 5 characters a tile, then one line per hero and the score.
    fn render(&self, initial: &Initial) -> String {
        use std::fmt::Write as _;
        let (w, h) = (usize::from(initial.width), usize::from(initial.height));
        let mut cells = vec!["  .  ".to_owned(); w * h];
        let at = |p: Pos| usize::from(p.y) * w + usize::from(p.x);
        for &p in &initial.walls {
            cells[at(p)] = " ### ".to_owned();
        }
        for &p in &initial.wells {
            cells[at(p)] = "  W  ".to_owned();
        }
        for (p, mine) in initial.mines.iter().zip(&self.mines) {
            cells[at(*p)] = match mine.team {
                Some(team) => format!(" M:{} ", team_letter(team)),
                None => "  M  ".to_owned(),
            };
        }
        for &p in &self.graves {
            cells[at(p)] = "  +  ".to_owned();
        }
        for hero in self.heroes.iter().filter(|h| !h.dead) {
            cells[at(hero.pos)] = format!(" {}{:>3}", team_letter(hero.team), hero.health);
        }
        let mut out = String::new();
        let mines_of = |team| self.mines.iter().filter(|m| m.team == Some(team)).count();
        let _ = writeln!(
            out,
            "turn {}/{}   diamonds A {} B {}   mines A {} B {}",
            self.turn,
            initial.turn_limit,
            self.diamonds[0],
            self.diamonds[1],
            mines_of(0),
            mines_of(1)
        );
        out.push_str("   ");
        for x in 0..w {
            let _ = write!(out, "{x:^5}");
        }
        out.push('\n');
        for y in 0..h {
            let _ = write!(out, "{y:>3}");
            for x in 0..w {
                out.push_str(&cells[y * w + x]);
            }
            out.push('\n');
        }
        for hero in &self.heroes {
            let owned = self
                .mines
                .iter()
                .filter(|m| m.owner == Some(hero.id))
                .count();
            if hero.dead {
                let _ = writeln!(
                    out,
                    "{:<4} dead at {} mines {owned}",
                    label(hero.id),
                    hero.pos
                );
            } else {
                let _ = writeln!(
                    out,
                    "{:<4} {:>3} hp at {} mines {owned}",
                    label(hero.id),
                    hero.health,
                    hero.pos
                );
            }
        }
        out.push_str("legend: A95 hero of team A with 95 health, M:A mine of team A, W well, ### impassable, + grave\n");
        out
    }
}
