//! The state of a `dungeon` match, changed only by [`State::apply`] on an event: the rules
//! ([`super::play::Run`]), the terminal picture and the browser frames all fold it.

use super::rules::initiative;
use super::{Event, Initial, Tally};
use arena_sdk::Seat;
use arena_sdk::dungeon::{Ability, Hero, Monster, Score, Target, WaveMonster};
use std::collections::VecDeque;

/// The reason of a [`Event::TurnLost`] whose bot gave no answer (a fault, not a rejected
/// command).
pub const NO_ANSWER: &str = "no answer";

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunEnd {
    /// Every wave was cleared.
    Cleared,
    /// Every hero died.
    Defeat,
    /// The bot used up its hero turns.
    TurnLimit,
}

impl RunEnd {
    /// Every way a run ends.
    pub const ALL: [RunEnd; 3] = [RunEnd::Cleared, RunEnd::Defeat, RunEnd::TurnLimit];

    /// In words, for the run's end event.
    pub fn reason(self) -> &'static str {
        match self {
            RunEnd::Cleared => "every wave cleared",
            RunEnd::Defeat => "the party fell",
            RunEnd::TurnLimit => "turn limit reached",
        }
    }

    /// The end whose [`RunEnd::reason`] is `reason`.
    pub fn of_reason(reason: &str) -> Option<RunEnd> {
        RunEnd::ALL.into_iter().find(|end| end.reason() == reason)
    }
}

/// One seat's run: its party, the wave being fought and its initiative queue, and what
/// the run has counted so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunState {
    /// The bot's seat.
    pub(super) seat: Seat,
    /// The wave being fought, from 1 (0 before the first).
    pub(super) wave: u32,
    /// The party: its heroes stay, dead or alive, from wave to wave.
    pub(super) party: Vec<Hero>,
    /// The current wave's monsters.
    pub(super) monsters: Vec<Monster>,
    /// The initiative queue, the unit about to act first.
    pub(super) queue: VecDeque<Target>,
    /// The statistics so far.
    pub(super) tally: Tally,
    /// The score so far.
    pub(super) score: Score,
    /// How the run ended, once it has.
    pub(super) ended: Option<RunEnd>,
}

impl RunState {
    /// The party.
    pub fn party(&self) -> &[Hero] {
        &self.party
    }

    /// The current wave's monsters.
    pub fn monsters(&self) -> &[Monster] {
        &self.monsters
    }

    /// The initiative queue, the unit about to act first.
    pub fn queue(&self) -> &VecDeque<Target> {
        &self.queue
    }

    /// The statistics so far.
    pub fn tally(&self) -> Tally {
        self.tally
    }

    /// The score so far.
    pub fn score(&self) -> Score {
        self.score
    }

    /// The current wave (from 1; 0 before the first).
    pub fn wave(&self) -> u32 {
        self.wave
    }

    /// How the run ended, once it has.
    pub fn ended(&self) -> Option<RunEnd> {
        self.ended
    }

    /// A unit's name (empty for a unit that does not exist).
    pub(super) fn name(&self, unit: Target) -> String {
        match unit {
            Target::Hero(id) => self.party.get(usize::from(id)).map(|h| h.name.clone()),
            Target::Monster(id) => self.monsters.get(usize::from(id)).map(|m| m.name.clone()),
        }
        .unwrap_or_default()
    }

    /// A unit's hit points (0 for a unit that does not exist).
    pub(super) fn hp(&self, unit: Target) -> u32 {
        self.hp_max(unit).map_or(0, |(hp, _)| hp)
    }

    /// A unit's hit points and maxhp.
    pub(super) fn hp_max(&self, unit: Target) -> Option<(u32, u32)> {
        match unit {
            Target::Hero(id) => self.party.get(usize::from(id)).map(|h| (h.hp, h.max_hp)),
            Target::Monster(id) => self.monsters.get(usize::from(id)).map(|m| (m.hp, m.max_hp)),
        }
    }

    /// A hero's magic points; `None` for a monster.
    pub(super) fn mp(&self, unit: Target) -> Option<u32> {
        match unit {
            Target::Hero(id) => self.party.get(usize::from(id)).map(|h| h.mp),
            Target::Monster(_) => None,
        }
    }

    /// A unit's hit points and maxhp, to change.
    fn hp_mut(&mut self, unit: Target) -> Option<(&mut u32, &mut u32)> {
        match unit {
            Target::Hero(id) => self
                .party
                .get_mut(usize::from(id))
                .map(|h| (&mut h.hp, &mut h.max_hp)),
            Target::Monster(id) => self
                .monsters
                .get_mut(usize::from(id))
                .map(|m| (&mut m.hp, &mut m.max_hp)),
        }
    }

    /// Set a unit's hit points.
    fn set_hp(&mut self, unit: Target, hp: u32) {
        if let Some((h, _)) = self.hp_mut(unit) {
            *h = hp;
        }
    }

    /// Set a hero's magic points to `mp`, if given (a monster has none).
    fn set_mp(&mut self, unit: Target, mp: Option<u32>) {
        if let (Target::Hero(id), Some(mp)) = (unit, mp)
            && let Some(h) = self.party.get_mut(usize::from(id))
        {
            h.mp = mp;
        }
    }

    /// A monster's turn has begun: its command queue moves on to the next ability, and it
    /// goes to the back of the initiative queue.
    fn monster_turn(&mut self, unit: Target) {
        if let Target::Monster(id) = unit {
            if let Some(m) = self.monsters.get_mut(usize::from(id))
                && !m.queue.is_empty()
            {
                m.queue.rotate_left(1);
            }
            if !self.queue.is_empty() {
                self.queue.rotate_left(1);
            }
        }
    }

    /// Apply one event of this run; the dungeon has `waves` waves.
    fn apply(&mut self, event: &Event, waves: usize) {
        match event {
            Event::RunStart { seat, party } => {
                *self = RunState {
                    seat: *seat,
                    party: party.clone(),
                    ..RunState::default()
                };
            }
            Event::WaveStart { wave, monsters, .. } => {
                self.wave = *wave;
                self.monsters = monsters.clone();
                self.queue = initiative(&self.party, &self.monsters).into();
            }
            Event::HeroTurn { .. } => {
                self.score.turns = self.score.turns.saturating_add(1);
                // The hero at the front acts and goes to the back; nothing of its turn reads
                // the queue before the end of the turn.
                if !self.queue.is_empty() {
                    self.queue.rotate_left(1);
                }
            }
            Event::Attack {
                by,
                target,
                damage,
                hp,
                mp,
                ..
            } => {
                self.set_hp(*target, *hp);
                self.set_mp(*by, *mp);
                match (by, target) {
                    (Target::Hero(_), Target::Monster(_)) => {
                        self.tally.damage_dealt += u64::from(*damage);
                    }
                    (_, Target::Hero(_)) => self.tally.damage_taken += u64::from(*damage),
                    _ => {}
                }
                // A monster's turn is one ability, and each of its abilities but
                // `regenerate` begins with this hit (a drain's or a bite's heal follows it).
                self.monster_turn(*by);
            }
            Event::Heal {
                by,
                target,
                ability,
                amount,
                hp,
                mp,
                ..
            } => {
                self.set_hp(*target, *hp);
                self.set_mp(*by, *mp);
                if matches!((by, target), (Target::Hero(_), Target::Hero(_))) {
                    self.tally.healing += u64::from(*amount);
                }
                if *ability == Ability::Regenerate {
                    self.monster_turn(*by);
                }
            }
            Event::MaxHpLowered {
                unit, max_hp, hp, ..
            } => {
                if let Some((h, m)) = self.hp_mut(*unit) {
                    *h = *hp;
                    *m = *max_hp;
                }
            }
            Event::SelfDamage {
                unit, damage, hp, ..
            } => {
                self.set_hp(*unit, *hp);
                if let Target::Hero(_) = unit {
                    self.tally.damage_taken += u64::from(*damage);
                }
            }
            Event::Dies { unit, .. } => {
                self.queue.retain(|u| u != unit);
                match *unit {
                    Target::Hero(id) => {
                        if let Some(h) = self.party.get_mut(usize::from(id)) {
                            h.dead = true;
                            self.tally.heroes_lost += 1;
                        }
                    }
                    Target::Monster(id) => {
                        if let Some(m) = self.monsters.get_mut(usize::from(id)) {
                            m.dead = true;
                            self.tally.monsters_killed += 1;
                        }
                    }
                }
            }
            Event::XpRewarded { xp, .. } => {
                // Every living hero: a hero who fell this very turn (hp 0, not yet dead)
                // gets none. Its level ups follow as events.
                for h in self.party.iter_mut().filter(|h| !h.dead && h.hp > 0) {
                    h.xp = h.xp.saturating_add(*xp);
                    self.score.xp += u64::from(*xp);
                    self.tally.xp += u64::from(*xp);
                }
            }
            Event::LevelUp {
                hero,
                level,
                xp,
                stats,
                max_hp,
                max_mp,
                ..
            } => {
                if let Some(h) = self.party.get_mut(usize::from(*hero)) {
                    h.level = *level;
                    h.xp = *xp;
                    h.stats = *stats;
                    h.max_hp = *max_hp;
                    h.hp = *max_hp;
                    h.max_mp = *max_mp;
                    h.mp = *max_mp;
                    self.tally.levels_gained += 1;
                }
            }
            Event::Victory { .. } => {
                self.score.waves_cleared += 1;
                self.tally.waves_cleared += 1;
                if self.wave as usize >= waves {
                    self.ended = Some(RunEnd::Cleared);
                }
            }
            Event::Defeat { .. } => self.ended = Some(RunEnd::Defeat),
            Event::RunEnd { reason, .. } => {
                // Only the turn limit ends a run without an event of its own.
                if self.ended.is_none() {
                    self.ended = RunEnd::of_reason(reason);
                }
            }
            // A roll record: the heal that follows is the turn.
            // A lost turn changes nothing of the run (the table counts rejections).
            Event::TargetDrawn { .. } | Event::TurnLost { .. } | Event::GameEnd { .. } => {}
        }
    }
}

/// The state of a match: the dungeon and both seats' runs.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// Every wave's monsters, in order.
    pub(super) waves: Vec<Vec<WaveMonster>>,
    /// The run being played; `None` before the first run begins.
    pub(super) current: Option<Seat>,
    /// Each seat's run: before it begins, its party as it enters.
    pub(super) runs: [RunState; 2],
}

impl State {
    /// The state before any event: the dungeon, and each party as it enters.
    pub fn new(initial: &Initial) -> State {
        let run = |seat: Seat| RunState {
            seat,
            party: initial.parties[usize::from(seat)].clone(),
            ..RunState::default()
        };
        State {
            waves: initial.waves.clone(),
            current: None,
            runs: [run(0), run(1)],
        }
    }

    /// The run being played, `None` before the first run begins.
    pub fn current(&self) -> Option<Seat> {
        self.current
    }

    /// `seat`'s run (as it enters until it begins).
    ///
    /// # Panics
    /// If `seat` is not 0 or 1.
    pub fn run(&self, seat: Seat) -> &RunState {
        &self.runs[usize::from(seat)]
    }

    /// `seat`'s run, to change outside the events (scenario setups).
    pub(super) fn run_mut(&mut self, seat: Seat) -> &mut RunState {
        &mut self.runs[usize::from(seat)]
    }

    /// The run a picture shows: the one being played, seat 0's before the first begins.
    pub(super) fn shown(&self) -> &RunState {
        &self.runs[usize::from(self.current.unwrap_or(0))]
    }

    /// Waves in the dungeon.
    pub fn waves(&self) -> u32 {
        u32::try_from(self.waves.len()).unwrap_or(u32::MAX)
    }

    /// Both runs' scores (a run not played scores zero).
    pub fn scores(&self) -> [Score; 2] {
        [self.runs[0].score, self.runs[1].score]
    }

    /// Hero turns played in the match: the table's turn counter.
    pub fn hero_turns(&self) -> u32 {
        self.runs[0]
            .score
            .turns
            .saturating_add(self.runs[1].score.turns)
    }

    /// Each seat's statistics.
    pub fn stats(&self) -> [crate::Stats; 2] {
        self.runs
            .each_ref()
            .map(|run| run.tally.to_stats(run.score))
    }

    /// Apply one event. Events come from the rules (or a replay); one that names a unit
    /// or a seat that does not exist changes nothing of it.
    pub fn apply(&mut self, event: &Event) {
        let Some(seat) = event.run() else {
            return;
        };
        let waves = self.waves.len();
        let Some(run) = self.runs.get_mut(usize::from(seat)) else {
            return;
        };
        if matches!(event, Event::RunStart { .. }) {
            self.current = Some(seat);
        }
        run.apply(event, waves);
    }
}

impl crate::Sketch<Event> for State {
    fn apply(&mut self, event: &Event) {
        State::apply(self, event);
    }

    /// The run being played; nothing before the first run begins (at the start and setup
    /// answers).
    fn draw(&self) -> Option<String> {
        self.current.map(|_| self.picture())
    }
}
