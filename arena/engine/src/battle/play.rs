//! The match: the state (changed only by [`State::apply`] on an event), and the fight that
//! draws the rolls, builds the events, asks the seats' bots and applies their answers.

use super::rules::{Whom, casts_on, empty_stats, pct, sync};
use super::*;

use crate::{Asked, Finish, Stats as SeatStats, Table};
use arena_sdk::Seat;
use arena_sdk::battle::{
    Action, ActiveEffect, BotType, Effect, Observation, Rules, Skill, TURN_METER_FULL, Unit, UnitId,
};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The state of a match, changed only by [`State::apply`]: the units, each seat's
/// statistics, the unit-turn counter and the unit whose turn it is. The rules, the terminal
/// picture and the browser frames all fold this one state over the events.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// The units, indexed by [`UnitId`]; their effective stats always match their effects.
    pub(super) units: Vec<Unit>,
    /// Each seat's statistics, keyed by [`STAT_KEYS`].
    pub(super) stats: [SeatStats; 2],
    /// The unit turns begun so far.
    pub(super) turn: u32,
    /// The unit whose turn it is (or was last), `None` before the first turn.
    pub(super) acting: Option<UnitId>,
}

impl State {
    /// The state before any event: the units as chosen, no statistics, no turn yet.
    pub fn new(initial: &Initial) -> State {
        State {
            units: initial.units.clone(),
            stats: [empty_stats(), empty_stats()],
            turn: 0,
            acting: None,
        }
    }

    /// The units, indexed by [`UnitId`].
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// Each seat's statistics so far.
    pub fn stats(&self) -> [SeatStats; 2] {
        self.stats.clone()
    }

    /// The unit turns begun so far.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The unit whose turn it is (or was last), `None` before the first turn.
    pub fn acting(&self) -> Option<UnitId> {
        self.acting
    }

    /// Unit `id` (which exists: ids come from the state).
    pub(super) fn unit(&self, id: UnitId) -> &Unit {
        &self.units[usize::from(id)]
    }

    /// The living units of `seat`, by id.
    pub(super) fn team(&self, seat: Seat) -> Vec<UnitId> {
        self.units
            .iter()
            .filter(|u| u.owner == seat && !u.destroyed)
            .map(|u| u.id)
            .collect()
    }

    /// The seat whose opponent has no unit left.
    pub(super) fn winner(&self) -> Option<Seat> {
        (0..2u8).find(|&seat| self.team(1 - seat).is_empty())
    }

    /// How many ticks until at least one living unit's meter reaches 1000 (at least one:
    /// a tick always runs); `None` when no living unit moves.
    pub(super) fn ticks_to_due(&self) -> Option<i32> {
        self.units
            .iter()
            .filter(|u| !u.destroyed)
            .filter_map(|u| {
                let speed = speed(u);
                let short = TURN_METER_FULL - u.turn_meter;
                (speed > 0).then(|| ((short + speed - 1) / speed).max(1))
            })
            .min()
    }

    /// Count `amount` more of the statistic `key` for `seat`.
    fn add(&mut self, seat: Seat, key: &str, amount: i64) {
        if let Some(count) = self
            .stats
            .get_mut(usize::from(seat))
            .and_then(|stats| stats.get_mut(key))
        {
            *count += amount;
        }
    }

    /// Set `id`'s integrity after damage, counting the loss for `by` and the bearer.
    fn damaged(&mut self, id: UnitId, integrity: i32, by: Seat) {
        let Some(unit) = self.units.get_mut(usize::from(id)) else {
            return;
        };
        let lost = (unit.integrity - integrity).max(0);
        unit.integrity = integrity;
        let seat = unit.owner;
        self.add(by, "damage_dealt", i64::from(lost));
        self.add(seat, "damage_taken", i64::from(lost));
    }

    /// Set `id`'s integrity after a repair, counting the gain as the owner's healing.
    fn repaired(&mut self, id: UnitId, change: i32, integrity: i32) {
        let Some(unit) = self.units.get_mut(usize::from(id)) else {
            return;
        };
        unit.integrity = integrity;
        let seat = unit.owner;
        self.add(seat, "healing", i64::from(change.max(0)));
    }

    /// Apply one event. Events come from the rules (or a verified replay): the ones that
    /// follow from the state alone (how far the meters run in a tick, where an effect goes)
    /// are recomputed here; an event naming a unit that does not exist changes nothing.
    pub fn apply(&mut self, event: &Event) {
        match *event {
            Event::Due { .. } => {
                if let Some(ticks) = self.ticks_to_due() {
                    for unit in self.units.iter_mut().filter(|u| !u.destroyed) {
                        unit.turn_meter += ticks * speed(unit);
                    }
                }
            }
            Event::TurnStart { turn, unit, .. } => {
                self.turn = turn;
                self.acting = Some(unit);
                let Some(u) = self.units.get_mut(usize::from(unit)) else {
                    return;
                };
                u.turn_meter -= TURN_METER_FULL;
                u.cooldown = u.cooldown.saturating_sub(1);
                for effect in &mut u.effects {
                    effect.turns_left = effect.turns_left.saturating_sub(1);
                }
                let seat = u.owner;
                self.add(seat, "turns", 1);
            }
            Event::EffectTick {
                unit,
                effect,
                change,
                integrity,
                ..
            } => match self.units.get(usize::from(unit)) {
                Some(u) if effect == Effect::ContinuousDamage => {
                    let by = 1 - u.owner;
                    self.damaged(unit, integrity, by);
                }
                Some(_) => self.repaired(unit, change, integrity),
                None => {}
            },
            Event::BombExploded {
                unit, integrity, ..
            } => {
                if let Some(u) = self.units.get(usize::from(unit)) {
                    let by = 1 - u.owner;
                    self.damaged(unit, integrity, by);
                }
            }
            Event::Attack {
                attacker,
                target,
                hit,
                ..
            } => {
                let (Some(a), Some(t)) = (
                    self.units.get(usize::from(attacker)),
                    self.units.get(usize::from(target)),
                ) else {
                    return;
                };
                let (by, seat) = (a.owner, t.owner);
                match hit {
                    None => self.add(seat, "evasions", 1),
                    Some(hit) => {
                        if hit.crit {
                            self.add(by, "crits", 1);
                        }
                        self.damaged(target, hit.integrity, by);
                    }
                }
            }
            Event::EffectApplied {
                source,
                target,
                effect,
                turns,
                magnitude,
                resistance,
                ..
            } => {
                let Some(unit) = self.units.get_mut(usize::from(target)) else {
                    return;
                };
                // Stacking effects add an instance; any other renews the one there.
                match unit
                    .effects
                    .iter_mut()
                    .find(|e| e.effect == effect && !effect.stacks())
                {
                    Some(e) => {
                        e.turns_left = turns;
                        e.magnitude = magnitude;
                    }
                    None => unit.effects.push(ActiveEffect {
                        effect,
                        turns_left: turns,
                        magnitude,
                    }),
                }
                sync(unit);
                // A resistance roll marks an effect inflicted by a hit (skills cast theirs).
                if resistance.is_some()
                    && let Some(s) = self.units.get(usize::from(source))
                {
                    let seat = s.owner;
                    self.add(seat, "effects_inflicted", 1);
                }
            }
            Event::EffectFailed {
                target,
                reason: Failure::Resistance { .. },
                ..
            } => {
                if let Some(t) = self.units.get(usize::from(target)) {
                    let seat = t.owner;
                    self.add(seat, "effects_resisted", 1);
                }
            }
            Event::SkillUsed { unit, cooldown, .. } => {
                if let Some(u) = self.units.get_mut(usize::from(unit)) {
                    u.cooldown = cooldown;
                    let seat = u.owner;
                    self.add(seat, "skills_used", 1);
                }
            }
            Event::Repair {
                target,
                change,
                integrity,
                ..
            } => self.repaired(target, change, integrity),
            Event::Expired { unit, effect } => {
                if let Some(u) = self.units.get_mut(usize::from(unit)) {
                    if let Some(pos) = u
                        .effects
                        .iter()
                        .position(|e| e.effect == effect && e.turns_left == 0)
                    {
                        u.effects.remove(pos);
                    }
                    sync(u);
                }
            }
            Event::Destroyed { unit, .. } => {
                let Some(u) = self.units.get_mut(usize::from(unit)) else {
                    return;
                };
                u.integrity = 0;
                u.destroyed = true;
                u.effects.clear();
                u.turn_meter = 0;
                sync(u);
                // Only enemies attack a unit and every effect that hurts comes from one.
                let seat = u.owner;
                self.add(1 - seat, "kills", 1);
                self.add(seat, "units_lost", 1);
            }
            Event::EffectPicked { .. }
            | Event::Effectivity { .. }
            | Event::EffectFailed { .. }
            | Event::Stunned { .. }
            | Event::DefaultAction { .. }
            | Event::Redistribute { .. }
            | Event::TurnCap { .. }
            | Event::GameEnd { .. } => {}
        }
    }
}

/// A match in progress: its state, the rolls, and the events built but not yet recorded.
#[derive(Debug)]
pub(super) struct Fight {
    pub(super) state: State,
    pub(super) rng: ChaCha8Rng,
    /// The events applied to `state` since the last [`flush`].
    pub(super) events: Vec<Event>,
}

impl Fight {
    /// The fight of two teams, seat 0's units first (ids 0–2), before any event.
    pub(super) fn new(teams: &[Vec<BotType>; 2], rng: ChaCha8Rng) -> Self {
        let mut units = Vec::new();
        for (seat, team) in (0u8..).zip(teams) {
            for &kind in team {
                let id = UnitId::try_from(units.len()).expect("six units fit a u8");
                units.push(Unit::new(id, seat, kind));
            }
        }
        Fight {
            state: State::new(&Initial { units }),
            rng,
            events: Vec::new(),
        }
    }

    /// The one way the fight changes its state: apply `event` and keep it for the log.
    pub(super) fn emit(&mut self, event: Event) {
        self.state.apply(&event);
        self.events.push(event);
    }

    /// Unit `id`.
    pub(super) fn unit(&self, id: UnitId) -> &Unit {
        self.state.unit(id)
    }

    /// Whether unit `id` is still in the battle.
    pub(super) fn alive(&self, id: UnitId) -> bool {
        !self.unit(id).destroyed
    }

    /// The living units of `seat`, by id.
    pub(super) fn team(&self, seat: Seat) -> Vec<UnitId> {
        self.state.team(seat)
    }

    /// The seat whose opponent has no unit left.
    pub(super) fn winner(&self) -> Option<Seat> {
        self.state.winner()
    }

    /// Run ticks until at least one unit's meter reached 1000; those units, shuffled.
    pub(super) fn next_ready(&mut self) -> Vec<UnitId> {
        let ticks = self
            .state
            .ticks_to_due()
            .expect("a living unit moves: every speed is positive");
        let meter = |u: &Unit| u.turn_meter + ticks * speed(u);
        let mut ready: Vec<UnitId> = self
            .state
            .units
            .iter()
            .filter(|u| !u.destroyed && meter(u) >= TURN_METER_FULL)
            .map(|u| u.id)
            .collect();
        ready.shuffle(&mut self.rng);
        let units = ready
            .iter()
            .map(|&id| Due(id, meter(self.unit(id)), speed(self.unit(id))))
            .collect();
        self.emit(Event::Due { units });
        ready
    }

    /// After damage to `id`: record its destruction if it reached 0; true if it did.
    fn wrecked(&mut self, id: UnitId) -> bool {
        let unit = self.unit(id);
        if unit.destroyed || unit.integrity > 0 {
            return false;
        }
        let seat = unit.owner;
        self.emit(Event::Destroyed { unit: id, seat });
        true
    }

    /// `amount` integrity for `target`, capped at its maximum: the gain and the result.
    fn repair_of(&self, target: UnitId, amount: i32) -> (i32, i32) {
        let unit = self.unit(target);
        let gain = amount.min(unit.base.integrity - unit.integrity).max(0);
        (gain, unit.integrity + gain)
    }

    /// The start of `id`'s turn; true when the unit is still alive and not stunned, i.e.
    /// its bot chooses an action.
    pub(super) fn begin_turn(&mut self, id: UnitId) -> bool {
        let unit = self.unit(id);
        let (seat, kind, meter) = (unit.owner, unit.kind, unit.turn_meter);
        self.emit(Event::TurnStart {
            turn: self.state.turn + 1,
            unit: id,
            seat,
            kind,
            meter,
        });
        let mut idx = 0;
        while idx < self.unit(id).effects.len() {
            let effect = self.unit(id).effects[idx];
            idx += 1;
            match effect.effect {
                Effect::ContinuousDamage => {
                    let before = self.unit(id).integrity;
                    let integrity = (before - effect.magnitude).max(0);
                    self.emit(Event::EffectTick {
                        unit: id,
                        effect: effect.effect,
                        turns_left: effect.turns_left,
                        change: integrity - before,
                        integrity,
                    });
                    if self.wrecked(id) {
                        return false;
                    }
                }
                Effect::ContinuousRepair => {
                    let (change, integrity) = self.repair_of(id, effect.magnitude);
                    self.emit(Event::EffectTick {
                        unit: id,
                        effect: effect.effect,
                        turns_left: effect.turns_left,
                        change,
                        integrity,
                    });
                }
                Effect::Bomb if effect.turns_left == 0 => {
                    let roll = self.rng.random_range(500..=1000);
                    let armor = armor(self.unit(id));
                    let damage = damage(roll, effect.magnitude, false, armor, 100);
                    let integrity = (self.unit(id).integrity - damage).max(0);
                    self.emit(Event::BombExploded {
                        unit: id,
                        roll,
                        power: effect.magnitude,
                        armor,
                        damage,
                        integrity,
                    });
                    if self.wrecked(id) {
                        return false;
                    }
                }
                _ => {}
            }
        }
        if self.unit(id).has(Effect::Stun) {
            self.emit(Event::Stunned { unit: id });
            return false;
        }
        true
    }

    /// The end of `id`'s turn: effects at zero are removed.
    pub(super) fn end_turn(&mut self, id: UnitId) {
        if !self.alive(id) {
            return;
        }
        let expired: Vec<Effect> = self
            .unit(id)
            .effects
            .iter()
            .filter(|e| e.turns_left == 0)
            .map(|e| e.effect)
            .collect();
        for effect in expired {
            self.emit(Event::Expired { unit: id, effect });
        }
    }

    /// What the bot of unit `id` is shown for its turn.
    pub(super) fn observation(
        &self,
        id: UnitId,
        turn_cap: u32,
        last_rejected: Option<String>,
    ) -> Observation {
        let me = self.unit(id);
        Observation {
            turn: self.state.turn,
            turn_cap,
            seat: me.owner,
            acting: id,
            units: self.state.units.clone(),
            legal_targets: legal_targets(&self.state.units, id),
            skill_ready: skill_ready(me),
            last_rejected,
        }
    }

    /// Play `id`'s (legal) action.
    pub(super) fn perform(&mut self, id: UnitId, action: Action) {
        match action {
            Action::Attack { target } => self.attack(id, target, false),
            Action::Skill => self.use_skill(id),
        }
    }

    /// An attack: evasion first, then crit and damage, then (on a hit) the attacker's
    /// negative effect, then a Retribution counter-attack.
    pub(super) fn attack(&mut self, attacker: UnitId, target: UnitId, counter: bool) {
        let evasion = evasion(self.unit(target));
        let evasion_roll = self.rng.random_range(0..100u32);
        if i64::from(evasion_roll) < i64::from(evasion) {
            self.emit(Event::Attack {
                attacker,
                target,
                counter,
                evasion_roll,
                evasion,
                hit: None,
            });
        } else {
            let crit_roll = self.rng.random_range(0..100u32);
            let crit = i64::from(crit_roll) < i64::from(self.unit(attacker).base.critical);
            let roll = self.rng.random_range(500..=1000u32);
            let power = power(self.unit(attacker));
            let armor = armor(self.unit(target));
            let bonus_pct = bonus_pct(self.unit(attacker));
            let damage = damage(roll, power, crit, armor, bonus_pct);
            let integrity = (self.unit(target).integrity - damage).max(0);
            self.emit(Event::Attack {
                attacker,
                target,
                counter,
                evasion_roll,
                evasion,
                hit: Some(Hit {
                    crit_roll,
                    crit,
                    roll,
                    power,
                    armor,
                    bonus_pct,
                    damage,
                    integrity,
                }),
            });
            self.wrecked(target);
            if self.winner().is_some() {
                return;
            }
            self.inflict(attacker, target);
        }
        let retaliates = {
            let t = self.unit(target);
            !counter
                && !t.destroyed
                && t.has(Effect::Retribution)
                && !t.has(Effect::Stun)
                && self.alive(attacker)
        };
        if retaliates {
            self.attack(target, attacker, true);
        }
    }

    /// After a hit: pick the attacker's negative effect, roll its effectivity once, then
    /// try it on the target (or every living enemy for area effects).
    pub(super) fn inflict(&mut self, attacker: UnitId, target: UnitId) {
        let kind = self.unit(attacker).kind;
        let options = kind.inflicts();
        let effect = match options.len() {
            0 => return,
            1 => options[0],
            n => {
                let pick = self.rng.random_range(0..n);
                self.emit(Event::EffectPicked {
                    source: attacker,
                    options: options.to_vec(),
                    roll: pick as u32,
                    effect: options[pick],
                });
                options[pick]
            }
        };
        let chance = self.unit(attacker).base.effectivity;
        let roll = self.rng.random_range(0..100u32);
        if i64::from(roll) >= i64::from(chance) {
            self.emit(Event::EffectFailed {
                source: attacker,
                target,
                effect,
                reason: Failure::Effectivity { roll, chance },
            });
            return;
        }
        self.emit(Event::Effectivity {
            source: attacker,
            target,
            effect,
            check: Roll { roll, chance },
        });
        let targets = if kind.inflicts_all() {
            self.team(1 - self.unit(attacker).owner)
        } else if self.alive(target) {
            vec![target]
        } else {
            Vec::new()
        };
        for victim in targets {
            self.try_negative(attacker, victim, effect);
        }
    }

    /// One unit's part of an inflicted effect: the stacking rule, then its resistance.
    pub(super) fn try_negative(&mut self, source: UnitId, target: UnitId, effect: Effect) {
        let refused = matches!(effect, Effect::DefenseDown | Effect::OffenseDown);
        if refused && self.unit(target).has(effect) {
            self.emit(Event::EffectFailed {
                source,
                target,
                effect,
                reason: Failure::AlreadyPresent,
            });
            return;
        }
        let chance = resistance(self.unit(target));
        let roll = self.rng.random_range(0..100u32);
        if i64::from(roll) < i64::from(chance) {
            self.emit(Event::EffectFailed {
                source,
                target,
                effect,
                reason: Failure::Resistance { roll, chance },
            });
            return;
        }
        // Offense Up "increases all caused damage": the damage over time and the bomb of
        // a unit under it carry 150% of its power (Stealth's bonus is for attacks only).
        let magnitude = match effect {
            Effect::ContinuousDamage | Effect::Bomb => {
                let source = self.unit(source);
                power(source) * pct(source.has(Effect::OffenseUp), 150) / 100
            }
            _ => 0,
        };
        let turns = self.unit(source).kind.inflict_turns();
        let resistance = Some(Roll { roll, chance });
        self.put(source, target, effect, turns, magnitude, resistance);
    }

    /// Put an effect on a unit: stacking effects add an instance, any other resets the
    /// duration (and magnitude) of the one already there.
    pub(super) fn put(
        &mut self,
        source: UnitId,
        target: UnitId,
        effect: Effect,
        turns: u32,
        magnitude: i32,
        resistance: Option<Roll>,
    ) {
        let refreshed = !effect.stacks() && self.unit(target).has(effect);
        self.emit(Event::EffectApplied {
            source,
            target,
            effect,
            turns,
            magnitude,
            refreshed,
            resistance,
        });
    }

    /// `id` uses its secondary skill: the cooldown, then what [`casts`] lists, in order.
    pub(super) fn use_skill(&mut self, id: UnitId) {
        let unit = self.unit(id);
        let Some(skill) = unit.kind.skill() else {
            return;
        };
        let (seat, max) = (unit.owner, unit.base.integrity);
        self.emit(Event::SkillUsed {
            unit: id,
            skill,
            cooldown: skill.cooldown(),
        });
        let turns = skill.turns();
        // What goes on whom is `rules::casts`, the list the replay's tables print.
        for effect in casts_on(skill, Whom::Caster) {
            self.put(id, id, effect, turns, 0, None);
        }
        match skill {
            Skill::Repair => {
                for mate in self.team(seat) {
                    let (change, integrity) = self.repair_of(mate, max * NURSE_REPAIR_PCT / 100);
                    // `random_bool(0.5)` spelt out (the same draw and comparison as rand's
                    // Bernoulli), so the replay can carry the number drawn.
                    let chance: u64 = self.rng.random();
                    self.emit(Event::Repair {
                        source: id,
                        target: mate,
                        change,
                        integrity,
                        chance: Some(chance),
                    });
                    if chance < CONTINUOUS_REPAIR_BELOW {
                        let per_turn = max * CONTINUOUS_REPAIR_PCT / 100;
                        for effect in casts_on(skill, Whom::Team) {
                            self.put(id, mate, effect, turns, per_turn, None);
                        }
                    }
                }
            }
            Skill::Redistribute => {
                let team = self.team(seat);
                let total: i32 = team.iter().map(|&m| self.unit(m).integrity).sum();
                let units = team.len() as i32;
                let share = total / units;
                self.emit(Event::Redistribute {
                    source: id,
                    total,
                    units: units as u32,
                    share,
                });
                let repair = max * DOCTOR_REPAIR_PCT / 100;
                for mate in team {
                    let unit = self.unit(mate);
                    let integrity = (share + repair).min(unit.base.integrity);
                    let change = integrity - unit.integrity;
                    self.emit(Event::Repair {
                        source: id,
                        target: mate,
                        change,
                        integrity,
                        chance: None,
                    });
                }
            }
            Skill::OffenseUp
            | Skill::Stealth
            | Skill::Retribution
            | Skill::Taunt
            | Skill::TeamBoost => {
                for mate in self.team(seat) {
                    for effect in casts_on(skill, Whom::Team) {
                        self.put(id, mate, effect, turns, 0, None);
                    }
                }
            }
        }
    }

    /// The end by turn cap: the larger share of the team's maximum integrity left wins.
    pub(super) fn cap_finish(&mut self) -> (Option<Seat>, String) {
        let sum = |seat: Seat, f: fn(&Unit) -> i32| -> i32 {
            self.state
                .units
                .iter()
                .filter(|u| u.owner == seat)
                .map(f)
                .sum()
        };
        let integrity = [sum(0, |u| u.integrity), sum(1, |u| u.integrity)];
        let max = [sum(0, |u| u.base.integrity), sum(1, |u| u.base.integrity)];
        self.emit(Event::TurnCap { integrity, max });
        let left0 = i64::from(integrity[0]) * i64::from(max[1]);
        let left1 = i64::from(integrity[1]) * i64::from(max[0]);
        let share = |s: usize| f64::from(integrity[s]) * 100.0 / f64::from(max[s].max(1));
        let shares = format!("{:.1}% vs {:.1}%", share(0), share(1));
        match left0.cmp(&left1) {
            std::cmp::Ordering::Greater => {
                (Some(0), format!("turn cap: more integrity left ({shares})"))
            }
            std::cmp::Ordering::Less => {
                (Some(1), format!("turn cap: more integrity left ({shares})"))
            }
            std::cmp::Ordering::Equal => {
                (None, format!("turn cap: equal integrity left ({shares})"))
            }
        }
    }
}

/// Record the events built since the last flush, in order.
fn flush(fight: &mut Fight, table: &mut Table<'_, Battle>) {
    for event in fight.events.drain(..) {
        table.event(event);
    }
}

impl Fight {
    /// End the match: its end event last, after every event still pending.
    fn finish(&mut self, table: &mut Table<'_, Battle>, winner: Option<Seat>, reason: String) {
        self.emit(Event::GameEnd { winner, reason });
        flush(self, table);
    }
}

/// Play one match to its end (see [`Ruleset::play`]).
pub(super) fn play(rules: &Rules, seed: u64, table: &mut Table<'_, Battle>) -> Finish {
    run(rules, seed, table).0
}

/// Play one match to its end; also the final state, which folding the replay's events over
/// its initial state gives again (`None` when a seat forfeited before the teams were set).
pub(super) fn run(
    rules: &Rules,
    seed: u64,
    table: &mut Table<'_, Battle>,
) -> (Finish, Option<State>) {
    let mut last_rejected: [Option<String>; 2] = [None, None];
    let mut teams: [Vec<BotType>; 2] = [Vec::new(), Vec::new()];
    for seat in 0..2u8 {
        let idx = usize::from(seat);
        let check = |choice: &_| {
            check_team(rules, seat, choice)
                .map_err(|reason| format!("team rejected: {reason}; playing the default team"))
        };
        match table.ask_setup(seat, &setup_request(rules, seat), check) {
            Asked::Legal(team) => teams[idx] = team,
            Asked::Default { rejected } => {
                teams[idx] = default_team(rules, seat);
                last_rejected[idx] = rejected;
            }
            Asked::Forfeited(loser) => {
                // No team is set, so there is no initial state: only the end is recorded.
                let finish = table.forfeit_finish(loser, [empty_stats(), empty_stats()]);
                table.event(Event::GameEnd {
                    winner: finish.winner,
                    reason: finish.reason.clone(),
                });
                return (finish, None);
            }
        }
    }
    let mut fight = Fight::new(&teams, ChaCha8Rng::seed_from_u64(seed));
    table.set_initial(Initial {
        units: fight.state.units.clone(),
    });
    loop {
        for id in fight.next_ready() {
            if !fight.alive(id) {
                continue;
            }
            table.set_turn(fight.state.turn + 1);
            let seat = fight.unit(id).owner;
            if fight.begin_turn(id) {
                flush(&mut fight, table);
                let idx = usize::from(seat);
                let observation = fight.observation(id, rules.turn_cap, last_rejected[idx].take());
                let offer = Offer {
                    targets: observation.legal_targets.clone(),
                    skill: observation.skill_ready,
                };
                let units = &fight.state.units;
                let asked = table.ask(seat, &observation, offer, |&action| {
                    check_action(units, id, action)
                });
                let action = match asked {
                    Asked::Legal(action) => action,
                    Asked::Default { rejected } => {
                        let action = default_action(units, id);
                        let reason = rejected.clone().unwrap_or_else(|| "no answer".to_owned());
                        fight.emit(Event::DefaultAction {
                            unit: id,
                            action,
                            reason,
                        });
                        last_rejected[idx] = rejected;
                        action
                    }
                    Asked::Forfeited(loser) => {
                        // The forfeit ends the match at this answer: the turn is not played.
                        let finish = table.forfeit_finish(loser, fight.state.stats());
                        fight.finish(table, finish.winner, finish.reason.clone());
                        return (finish, Some(fight.state));
                    }
                };
                fight.perform(id, action);
            }
            fight.end_turn(id);
            if let Some(winner) = fight.winner() {
                let reason = "team destroyed".to_owned();
                fight.finish(table, Some(winner), reason.clone());
                let stats = fight.state.stats();
                let finish = Finish {
                    winner: Some(winner),
                    reason,
                    stats,
                };
                return (finish, Some(fight.state));
            }
            if fight.state.turn >= rules.turn_cap {
                let (winner, reason) = fight.cap_finish();
                fight.finish(table, winner, reason.clone());
                let stats = fight.state.stats();
                let finish = Finish {
                    winner,
                    reason,
                    stats,
                };
                return (finish, Some(fight.state));
            }
            flush(&mut fight, table);
        }
    }
}
