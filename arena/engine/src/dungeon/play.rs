//! One bot's run through the dungeon: the battle loop of the document (initiative queue,
//! hero turns asked of the bot, monster turns from the command queue against a random
//! living hero, the dead removed and XP rewarded at the end of every unit's turn), wave
//! after wave until the party falls, the waves run out or the turn limit is reached.
//!
//! A [`Run`] changes the match's [`State`] only by building events (with the monsters'
//! target rolls and the bot's commands) and applying them.

use super::rules::{CommandError, check_command, gain_xp, legal_commands, new_monster};
use super::state::NO_ANSWER;
use super::{Event, Initial, Tally};
use arena_sdk::Seat;
use arena_sdk::dungeon::{
    Ability, Action, Hero, Monster, Observation, RECKLESS_CHARGE_HP, Score, Target, WaveMonster,
    blood_rage_self_damage, power,
};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

pub use super::state::{RunEnd, RunState, State};

/// What happens next in a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A hero's turn: ask the bot.
    Hero(u8),
    /// The run is over.
    Over(RunEnd),
}

/// One seat's run, played on the match's state.
#[derive(Debug, Clone)]
pub struct Run {
    seat: Seat,
    turn_limit: u32,
    state: State,
    /// Rolls the monsters' targets.
    rng: ChaCha8Rng,
    /// Events not yet handed to the table.
    events: Vec<Event>,
    /// Event lines the bot has not seen yet.
    unseen: Vec<String>,
}

impl Run {
    /// A run of `party` through `waves` (the only run of its state); `rng` rolls the
    /// monsters' targets.
    ///
    /// # Panics
    /// If `seat` is not 0 or 1.
    pub fn new(
        seat: Seat,
        party: Vec<Hero>,
        waves: Vec<Vec<WaveMonster>>,
        turn_limit: u32,
        rng: ChaCha8Rng,
    ) -> Run {
        let mut parties = [Vec::new(), Vec::new()];
        parties[usize::from(seat)] = party;
        let state = State::new(&Initial { waves, parties });
        Run::enter(state, seat, turn_limit, rng)
    }

    /// `seat`'s run in the match `state`, with the party the state has for it.
    pub(super) fn enter(state: State, seat: Seat, turn_limit: u32, rng: ChaCha8Rng) -> Run {
        let party = state.run(seat).party.clone();
        let mut run = Run {
            seat,
            turn_limit,
            state,
            rng,
            events: Vec::new(),
            unseen: Vec::new(),
        };
        run.emit(Event::RunStart { seat, party });
        run
    }

    /// The match's state.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The match's state, the run done with.
    pub(super) fn into_state(self) -> State {
        self.state
    }

    /// This seat's run in the state.
    fn run(&self) -> &RunState {
        self.state.run(self.seat)
    }

    /// The party.
    pub fn party(&self) -> &[Hero] {
        &self.run().party
    }

    /// The current wave's monsters.
    pub fn monsters(&self) -> &[Monster] {
        &self.run().monsters
    }

    /// The initiative queue, the unit about to act first.
    pub fn queue(&self) -> &VecDeque<Target> {
        &self.run().queue
    }

    /// The statistics so far.
    pub fn tally(&self) -> Tally {
        self.run().tally
    }

    /// The score so far.
    pub fn score(&self) -> Score {
        self.run().score
    }

    /// The current wave (from 1).
    pub fn wave(&self) -> u32 {
        self.run().wave
    }

    /// Mutable access to a hero (tests and scenario setups: a change outside the events).
    pub fn hero_mut(&mut self, id: u8) -> &mut Hero {
        &mut self.state.run_mut(self.seat).party[usize::from(id)]
    }

    /// Mutable access to a monster (tests and scenario setups: a change outside the events).
    pub fn monster_mut(&mut self, id: u8) -> &mut Monster {
        &mut self.state.run_mut(self.seat).monsters[usize::from(id)]
    }

    /// Events since the last call, for the table.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// Apply `event` to the state and keep it for the table and the bot.
    fn emit(&mut self, event: Event) {
        self.state.apply(&event);
        // Roll records stay out of the bot's lines, as out of `replay show`'s.
        if !<super::Dungeon as crate::Ruleset>::is_roll(&event) {
            self.unseen.push(super::describe_event(&event));
        }
        self.events.push(event);
    }

    /// A unit's name.
    fn name(&self, unit: Target) -> String {
        self.run().name(unit)
    }

    /// A unit's hit points.
    fn hp(&self, unit: Target) -> u32 {
        self.run().hp(unit)
    }

    /// Start wave `wave` (from 1): its monsters at full health, a fresh initiative queue.
    pub fn start_wave(&mut self, wave: u32) {
        let spec = &self.state.waves[wave as usize - 1];
        let monsters = spec
            .iter()
            .enumerate()
            .map(|(id, m)| new_monster(u8::try_from(id).unwrap_or(u8::MAX), m.kind, m.level))
            .collect();
        self.emit(Event::WaveStart {
            seat: self.seat,
            wave,
            waves: self.state.waves(),
            monsters,
        });
    }

    /// Play monster turns until a hero's turn comes or the run ends. Call first after
    /// [`Run::new`] (it starts wave 1), and after each hero turn.
    pub fn advance(&mut self) -> Step {
        loop {
            let run = self.run();
            if let Some(end) = run.ended {
                return Step::Over(end);
            }
            if run.wave == 0 {
                if self.state.waves.is_empty() {
                    return Step::Over(RunEnd::Cleared);
                }
                self.start_wave(1);
                continue;
            }
            match run.queue.front().copied() {
                Some(Target::Hero(id)) => {
                    if run.score.turns >= self.turn_limit {
                        return Step::Over(RunEnd::TurnLimit);
                    }
                    return Step::Hero(id);
                }
                Some(Target::Monster(id)) => {
                    self.monster_turn(id);
                    self.end_of_turn();
                }
                // Unreachable: a queue without heroes is a defeat, without monsters a
                // victory, both found at the end of the turn that emptied it.
                None => return Step::Over(RunEnd::Defeat),
            }
        }
    }

    /// The observation for the hero `id` whose turn it is (drains the unseen event lines).
    pub fn observation(&mut self, id: u8, last_rejected: Option<String>) -> Observation {
        let events = std::mem::take(&mut self.unseen);
        let run = self.run();
        let hero = &run.party[usize::from(id)];
        Observation {
            wave: run.wave,
            waves: self.state.waves(),
            turn: run.score.turns,
            acting: id,
            legal: legal_commands(hero, &run.party, &run.monsters),
            party: run.party.clone(),
            monsters: run.monsters.clone(),
            initiative: run.queue.iter().skip(1).copied().collect(),
            events,
            score: run.score,
            last_rejected,
        }
    }

    /// `action` of the hero `id` (at the front of the queue) checked as the rules check it.
    pub fn check(&self, id: u8, action: Action) -> Result<(), CommandError> {
        let run = self.run();
        check_command(
            &run.party[usize::from(id)],
            action,
            &run.party,
            &run.monsters,
        )
    }

    /// Hero `id`'s turn (it must be at the front of the queue) with the bot's answer;
    /// `None` when the bot faulted. A fault or a rejected command costs the hero its turn;
    /// the rejection is returned. Then the end of the turn; [`Run::advance`] goes on.
    pub fn hero_turn(&mut self, id: u8, action: Option<Action>) -> Option<CommandError> {
        let Some(action) = action else {
            self.lose_turn(id, NO_ANSWER.to_owned());
            return None;
        };
        match self.check(id, action) {
            Ok(()) => {
                self.begin_turn(id);
                let cost = action.ability.mp_cost();
                self.resolve_paying(Target::Hero(id), action.ability, action.target, cost);
                self.end_of_turn();
                None
            }
            Err(error) => {
                self.lose_turn(id, error.to_string());
                Some(error)
            }
        }
    }

    /// Hero `id` (at the front of the queue) loses its turn: `reason` is the rejection of
    /// its command, or [`NO_ANSWER`] when the bot faulted (not a rejected command). Then
    /// the end of the turn.
    pub fn lose_turn(&mut self, id: u8, reason: String) {
        let name = self.begin_turn(id);
        self.emit(Event::TurnLost {
            seat: self.seat,
            hero: id,
            name,
            reason,
        });
        self.end_of_turn();
    }

    /// The hero's turn event; its name.
    fn begin_turn(&mut self, id: u8) -> String {
        let name = self.name(Target::Hero(id));
        self.emit(Event::HeroTurn {
            seat: self.seat,
            hero: id,
            name: name.clone(),
        });
        name
    }

    /// A monster's turn: the next ability of its command queue against a random living
    /// hero (drawn even for `regenerate`, so every monster turn rolls once).
    fn monster_turn(&mut self, id: u8) {
        let run = self.run();
        let living: Vec<u8> = run.party.iter().filter(|h| !h.dead).map(|h| h.id).collect();
        let ability = run.monsters[usize::from(id)].next_ability();
        // Never empty: a run ends at the turn its last hero dies.
        let Some(&target) = living.get(self.rng.random_range(0..living.len().max(1))) else {
            return;
        };
        if ability == Ability::Regenerate {
            // The hero drawn is named by no event that follows: record the draw.
            self.emit(Event::TargetDrawn {
                seat: self.seat,
                monster: id,
                name: self.name(Target::Monster(id)),
                hero: target,
                hero_name: self.name(Target::Hero(target)),
            });
        }
        self.resolve(Target::Monster(id), ability, Target::Hero(target));
    }

    /// A unit's stats and level, which its abilities' power depends on.
    fn stats_level(&self, unit: Target) -> (arena_sdk::dungeon::Stats, u32) {
        let run = self.run();
        match unit {
            Target::Hero(id) => {
                let h = &run.party[usize::from(id)];
                (h.stats, h.level)
            }
            Target::Monster(id) => {
                let m = &run.monsters[usize::from(id)];
                (m.stats, m.level)
            }
        }
    }

    /// `take_damage`: what a hit of `amount` does to `unit` (dragons reduce it), and its hp
    /// after.
    fn damage_to(&self, unit: Target, amount: u32) -> (u32, u32) {
        let damage = match unit {
            Target::Hero(_) => amount,
            Target::Monster(id) => self.run().monsters[usize::from(id)]
                .kind
                .damage_taken(amount),
        };
        (damage, self.hp(unit).saturating_sub(damage))
    }

    /// `by`'s mp after paying `cost`, for a hero.
    fn mp_after(&self, by: Target, cost: u32) -> Option<u32> {
        self.run().mp(by).map(|mp| mp.saturating_sub(cost))
    }

    /// A hit; returns the damage done.
    fn attack(
        &mut self,
        by: Target,
        target: Target,
        ability: Ability,
        amount: u32,
        cost: u32,
    ) -> u32 {
        let (damage, hp) = self.damage_to(target, amount);
        self.emit(Event::Attack {
            seat: self.seat,
            by,
            by_name: self.name(by),
            target,
            target_name: self.name(target),
            ability,
            damage,
            hp,
            mp: self.mp_after(by, cost),
        });
        damage
    }

    /// `heal_damage`: up to `amount`, not beyond maxhp.
    fn heal(&mut self, by: Target, target: Target, ability: Ability, amount: u32, cost: u32) {
        let (hp, max_hp) = self.run().hp_max(target).unwrap_or_default();
        let healed = amount.min(max_hp.saturating_sub(hp));
        self.emit(Event::Heal {
            seat: self.seat,
            by,
            by_name: self.name(by),
            target,
            target_name: self.name(target),
            ability,
            amount: healed,
            hp: hp + healed,
            mp: self.mp_after(by, cost),
        });
    }

    /// Damage a unit's own ability does to it.
    fn self_damage(&mut self, unit: Target, amount: u32) {
        let (damage, hp) = self.damage_to(unit, amount);
        self.emit(Event::SelfDamage {
            seat: self.seat,
            unit,
            name: self.name(unit),
            damage,
            hp,
        });
    }

    /// A bite lowers the maxhp by the damage done, hp not above it.
    fn lower_max_hp(&mut self, unit: Target, amount: u32) {
        let (hp, max_hp) = self.run().hp_max(unit).unwrap_or_default();
        let max_hp = max_hp.saturating_sub(amount);
        self.emit(Event::MaxHpLowered {
            seat: self.seat,
            unit,
            name: self.name(unit),
            amount,
            max_hp,
            hp: hp.min(max_hp),
        });
    }

    /// Apply `ability` of `by` on `target` (already checked, paid for), with the
    /// document's effects.
    pub fn resolve(&mut self, by: Target, ability: Ability, target: Target) {
        self.resolve_paying(by, ability, target, 0);
    }

    /// [`Run::resolve`], `by` paying `cost` mp: its first event carries the mp left.
    fn resolve_paying(&mut self, by: Target, ability: Ability, target: Target, cost: u32) {
        let (stats, level) = self.stats_level(by);
        let amount = power(ability, stats, level);
        match ability {
            Ability::Heal => {
                let undead = matches!(target, Target::Monster(id)
                    if self.run().monsters[usize::from(id)].family
                        == arena_sdk::dungeon::Family::Undead);
                if undead {
                    self.attack(by, target, ability, amount, cost);
                } else {
                    self.heal(by, target, ability, amount, cost);
                }
            }
            Ability::Regenerate => self.heal(by, by, ability, amount, cost),
            Ability::LifeDrain => {
                let damage = self.attack(by, target, ability, amount, cost);
                self.heal(by, by, ability, damage, 0);
            }
            Ability::Bite => {
                let damage = self.attack(by, target, ability, amount, cost);
                self.heal(by, by, ability, damage, 0);
                self.lower_max_hp(target, damage);
            }
            Ability::BloodRage => {
                self.attack(by, target, ability, amount, cost);
                self.self_damage(by, blood_rage_self_damage(stats));
            }
            Ability::RecklessCharge => {
                self.attack(by, target, ability, amount, cost);
                self.self_damage(by, RECKLESS_CHARGE_HP);
            }
            _ => {
                self.attack(by, target, ability, amount, cost);
            }
        }
    }

    /// The end of every unit's turn: the dead leave the initiative queue (in queue order);
    /// each dead monster's XP goes to every living hero, with its level ups. Then Defeat
    /// (no hero lives; it wins over a simultaneous victory) or Victory (no monster lives:
    /// the wave is cleared and the next begins).
    fn end_of_turn(&mut self) {
        let run = self.run();
        let dead: Vec<Target> = run
            .queue
            .iter()
            .copied()
            .filter(|&u| run.hp(u) == 0)
            .collect();
        for unit in dead {
            self.emit(Event::Dies {
                seat: self.seat,
                unit,
                name: self.name(unit),
            });
            if let Target::Monster(id) = unit {
                let xp = self.run().monsters[usize::from(id)].xp_value;
                self.reward(xp);
            }
        }
        let run = self.run();
        if run.party.iter().all(|h| h.dead) {
            self.emit(Event::Defeat {
                seat: self.seat,
                wave: run.wave,
            });
            return;
        }
        if run.monsters.iter().all(|m| m.dead) {
            let wave = run.wave;
            self.emit(Event::Victory {
                seat: self.seat,
                wave,
            });
            if self.run().ended.is_none() {
                self.start_wave(wave + 1);
            }
        }
    }

    /// XP to every living hero (hp above 0: a hero dying this very turn gets none), then
    /// each one's level ups.
    fn reward(&mut self, xp: u32) {
        let level_ups: Vec<Vec<Hero>> = self
            .run()
            .party
            .iter()
            .filter(|h| !h.dead && h.hp > 0)
            .map(|h| gain_xp(&mut h.clone(), xp))
            .collect();
        if level_ups.is_empty() {
            return;
        }
        self.emit(Event::XpRewarded {
            seat: self.seat,
            xp,
        });
        for hero in level_ups.into_iter().flatten() {
            self.emit(Event::LevelUp {
                seat: self.seat,
                hero: hero.id,
                name: hero.name,
                level: hero.level,
                xp: hero.xp,
                stats: hero.stats,
                max_hp: hero.max_hp,
                max_mp: hero.max_mp,
            });
        }
    }

    /// End the run: its last event, the score.
    pub fn finish(&mut self, end: RunEnd) -> Score {
        let score = self.run().score;
        self.emit(Event::RunEnd {
            seat: self.seat,
            score,
            reason: end.reason().to_owned(),
        });
        score
    }
}
