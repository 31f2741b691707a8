//! The fight: turn meters, attacks, skills and effects, and the turn loop that asks the
//! seats' bots and applies their answers.

use super::rules::{Whom, casts_on, empty_stats, pct, sync};
use super::*;

use crate::{Finish, Stats as SeatStats, Table};
use arena_sdk::Seat;
use arena_sdk::battle::{
    Action, ActiveEffect, BotType, Effect, Observation, Rules, Skill, TURN_METER_FULL, Unit, UnitId,
};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The state of a match in progress, with the rolls and the events so far.
#[derive(Debug)]
pub(super) struct Fight {
    pub(super) units: Vec<Unit>,
    pub(super) rng: ChaCha8Rng,
    pub(super) events: Vec<Event>,
    pub(super) stats: [SeatStats; 2],
    pub(super) turn: u32,
}

impl Fight {
    pub(super) fn new(teams: &[Vec<BotType>; 2], rng: ChaCha8Rng) -> Self {
        let mut units = Vec::new();
        for (seat, team) in (0u8..).zip(teams) {
            for &kind in team {
                let id = UnitId::try_from(units.len()).expect("six units fit a u8");
                units.push(Unit::new(id, seat, kind));
            }
        }
        Fight {
            units,
            rng,
            events: Vec::new(),
            stats: [empty_stats(), empty_stats()],
            turn: 0,
        }
    }

    pub(super) fn add(&mut self, seat: Seat, key: &str, amount: i64) {
        *self.stats[usize::from(seat)]
            .get_mut(key)
            .expect("every stat key is present") += amount;
    }

    pub(super) fn unit(&self, id: UnitId) -> &Unit {
        &self.units[usize::from(id)]
    }

    pub(super) fn unit_mut(&mut self, id: UnitId) -> &mut Unit {
        &mut self.units[usize::from(id)]
    }

    pub(super) fn alive(&self, id: UnitId) -> bool {
        !self.unit(id).destroyed
    }

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

    /// Run ticks until at least one unit's meter reached 1000; those units, shuffled.
    pub(super) fn next_ready(&mut self) -> Vec<UnitId> {
        loop {
            for unit in self.units.iter_mut().filter(|u| !u.destroyed) {
                unit.turn_meter += speed(unit);
            }
            let mut ready: Vec<UnitId> = self
                .units
                .iter()
                .filter(|u| !u.destroyed && u.turn_meter >= TURN_METER_FULL)
                .map(|u| u.id)
                .collect();
            if !ready.is_empty() {
                ready.shuffle(&mut self.rng);
                let units = ready
                    .iter()
                    .map(|&id| Due(id, self.unit(id).turn_meter, speed(self.unit(id))))
                    .collect();
                self.events.push(Event::Due { units });
                return ready;
            }
        }
    }

    /// Take `amount` integrity from `target` (floored at 0), credit `by`; true if destroyed.
    pub(super) fn hurt(&mut self, target: UnitId, amount: i32, by: Seat) -> bool {
        let unit = self.unit_mut(target);
        let lost = amount.min(unit.integrity).max(0);
        unit.integrity -= lost;
        let (seat, destroyed) = (unit.owner, unit.integrity == 0);
        self.add(by, "damage_dealt", i64::from(lost));
        self.add(seat, "damage_taken", i64::from(lost));
        if destroyed {
            let unit = self.unit_mut(target);
            unit.destroyed = true;
            unit.effects.clear();
            unit.turn_meter = 0;
            self.events.push(Event::Destroyed { unit: target, seat });
            self.add(by, "kills", 1);
            self.add(seat, "units_lost", 1);
        }
        destroyed
    }

    /// Add `amount` integrity to `target`, capped at its maximum; returns the gain.
    pub(super) fn heal(&mut self, target: UnitId, amount: i32) -> i32 {
        let unit = self.unit_mut(target);
        let gain = amount.min(unit.base.integrity - unit.integrity).max(0);
        unit.integrity += gain;
        let seat = unit.owner;
        self.add(seat, "healing", i64::from(gain));
        gain
    }

    /// The start of `id`'s turn; true when the unit is still alive and not stunned, i.e.
    /// its bot chooses an action.
    pub(super) fn begin_turn(&mut self, id: UnitId) -> bool {
        self.turn += 1;
        let turn = self.turn;
        let unit = self.unit_mut(id);
        let meter = unit.turn_meter;
        unit.turn_meter -= TURN_METER_FULL;
        unit.cooldown = unit.cooldown.saturating_sub(1);
        for effect in &mut unit.effects {
            effect.turns_left = effect.turns_left.saturating_sub(1);
        }
        let (seat, kind) = (unit.owner, unit.kind);
        self.events.push(Event::TurnStart {
            turn,
            unit: id,
            seat,
            kind,
            meter,
        });
        self.add(seat, "turns", 1);
        let mut idx = 0;
        while idx < self.unit(id).effects.len() {
            let effect = self.unit(id).effects[idx];
            idx += 1;
            match effect.effect {
                Effect::ContinuousDamage => {
                    let before = self.unit(id).integrity;
                    let integrity = (before - effect.magnitude).max(0);
                    self.events.push(Event::EffectTick {
                        unit: id,
                        effect: effect.effect,
                        turns_left: effect.turns_left,
                        change: integrity - before,
                        integrity,
                    });
                    if self.hurt(id, effect.magnitude, 1 - seat) {
                        return false;
                    }
                }
                Effect::ContinuousRepair => {
                    let gain = self.heal(id, effect.magnitude);
                    self.events.push(Event::EffectTick {
                        unit: id,
                        effect: effect.effect,
                        turns_left: effect.turns_left,
                        change: gain,
                        integrity: self.unit(id).integrity,
                    });
                }
                Effect::Bomb if effect.turns_left == 0 => {
                    let roll = self.rng.random_range(500..=1000);
                    let armor = armor(self.unit(id));
                    let damage = damage(roll, effect.magnitude, false, armor, 100);
                    let integrity = (self.unit(id).integrity - damage).max(0);
                    self.events.push(Event::BombExploded {
                        unit: id,
                        roll,
                        power: effect.magnitude,
                        armor,
                        damage,
                        integrity,
                    });
                    if self.hurt(id, damage, 1 - seat) {
                        return false;
                    }
                }
                _ => {}
            }
        }
        sync(self.unit_mut(id));
        if self.unit(id).has(Effect::Stun) {
            self.events.push(Event::Stunned { unit: id });
            return false;
        }
        true
    }

    /// The end of `id`'s turn: effects at zero are removed.
    pub(super) fn end_turn(&mut self, id: UnitId) {
        if !self.alive(id) {
            return;
        }
        let (expired, kept): (Vec<ActiveEffect>, Vec<ActiveEffect>) = self
            .unit(id)
            .effects
            .iter()
            .partition(|e| e.turns_left == 0);
        self.unit_mut(id).effects = kept;
        for effect in expired {
            self.events.push(Event::Expired {
                unit: id,
                effect: effect.effect,
            });
        }
        sync(self.unit_mut(id));
    }

    pub(super) fn observation(
        &mut self,
        id: UnitId,
        turn_cap: u32,
        last_rejected: Option<String>,
    ) -> Observation {
        for unit in &mut self.units {
            sync(unit);
        }
        let me = self.unit(id);
        Observation {
            turn: self.turn,
            turn_cap,
            seat: me.owner,
            acting: id,
            units: self.units.clone(),
            legal_targets: legal_targets(&self.units, id),
            skill_ready: skill_ready(me),
            last_rejected,
        }
    }

    pub(super) fn perform(&mut self, id: UnitId, action: Action) {
        match action {
            Action::Attack { target } => self.attack(id, target, false),
            Action::Skill => self.use_skill(id),
        }
        for unit in &mut self.units {
            sync(unit);
        }
    }

    /// An attack: evasion first, then crit and damage, then (on a hit) the attacker's
    /// negative effect, then a Retribution counter-attack.
    pub(super) fn attack(&mut self, attacker: UnitId, target: UnitId, counter: bool) {
        let evasion = evasion(self.unit(target));
        let evasion_roll = self.rng.random_range(0..100u32);
        let attacker_seat = self.unit(attacker).owner;
        if i64::from(evasion_roll) < i64::from(evasion) {
            self.events.push(Event::Attack {
                attacker,
                target,
                counter,
                evasion_roll,
                evasion,
                hit: None,
            });
            let seat = self.unit(target).owner;
            self.add(seat, "evasions", 1);
        } else {
            let crit_roll = self.rng.random_range(0..100u32);
            let crit = i64::from(crit_roll) < i64::from(self.unit(attacker).base.critical);
            let roll = self.rng.random_range(500..=1000u32);
            let power = power(self.unit(attacker));
            let armor = armor(self.unit(target));
            let bonus_pct = bonus_pct(self.unit(attacker));
            let damage = damage(roll, power, crit, armor, bonus_pct);
            let integrity = (self.unit(target).integrity - damage).max(0);
            self.events.push(Event::Attack {
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
            if crit {
                self.add(attacker_seat, "crits", 1);
            }
            self.hurt(target, damage, attacker_seat);
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
                self.events.push(Event::EffectPicked {
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
            self.events.push(Event::EffectFailed {
                source: attacker,
                target,
                effect,
                reason: Failure::Effectivity { roll, chance },
            });
            return;
        }
        self.events.push(Event::Effectivity {
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
            self.events.push(Event::EffectFailed {
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
            self.events.push(Event::EffectFailed {
                source,
                target,
                effect,
                reason: Failure::Resistance { roll, chance },
            });
            let seat = self.unit(target).owner;
            self.add(seat, "effects_resisted", 1);
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
        let seat = self.unit(source).owner;
        self.add(seat, "effects_inflicted", 1);
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
        let unit = self.unit_mut(target);
        let existing = unit
            .effects
            .iter_mut()
            .find(|e| e.effect == effect && !effect.stacks());
        let refreshed = match existing {
            Some(e) => {
                e.turns_left = turns;
                e.magnitude = magnitude;
                true
            }
            None => {
                unit.effects.push(ActiveEffect {
                    effect,
                    turns_left: turns,
                    magnitude,
                });
                false
            }
        };
        sync(unit);
        self.events.push(Event::EffectApplied {
            source,
            target,
            effect,
            turns,
            magnitude,
            refreshed,
            resistance,
        });
    }

    pub(super) fn use_skill(&mut self, id: UnitId) {
        let unit = self.unit(id);
        let Some(skill) = unit.kind.skill() else {
            return;
        };
        let (seat, max) = (unit.owner, unit.base.integrity);
        self.unit_mut(id).cooldown = skill.cooldown();
        self.events.push(Event::SkillUsed {
            unit: id,
            skill,
            cooldown: skill.cooldown(),
        });
        self.add(seat, "skills_used", 1);
        let turns = skill.turns();
        // What goes on whom is `rules::casts`, the list the replay's tables print.
        for effect in casts_on(skill, Whom::Caster) {
            self.put(id, id, effect, turns, 0, None);
        }
        match skill {
            Skill::Repair => {
                for mate in self.team(seat) {
                    let change = self.heal(mate, max * NURSE_REPAIR_PCT / 100);
                    // `random_bool(0.5)` spelt out (the same draw and comparison as rand's
                    // Bernoulli), so the replay can carry the number drawn.
                    let chance: u64 = self.rng.random();
                    self.events.push(Event::Repair {
                        source: id,
                        target: mate,
                        change,
                        integrity: self.unit(mate).integrity,
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
                self.events.push(Event::Redistribute {
                    source: id,
                    total,
                    units: units as u32,
                    share,
                });
                let repair = max * DOCTOR_REPAIR_PCT / 100;
                for mate in team {
                    let unit = self.unit_mut(mate);
                    let before = unit.integrity;
                    unit.integrity = (share + repair).min(unit.base.integrity);
                    let (change, integrity) = (unit.integrity - before, unit.integrity);
                    self.add(seat, "healing", i64::from(change.max(0)));
                    self.events.push(Event::Repair {
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
            self.units.iter().filter(|u| u.owner == seat).map(f).sum()
        };
        let integrity = [sum(0, |u| u.integrity), sum(1, |u| u.integrity)];
        let max = [sum(0, |u| u.base.integrity), sum(1, |u| u.base.integrity)];
        self.events.push(Event::TurnCap { integrity, max });
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

fn flush(fight: &mut Fight, table: &mut Table<'_, Battle>) {
    for event in fight.events.drain(..) {
        table.event(event);
    }
}

/// Play one match to its end (see [`Ruleset::play`]).
pub(super) fn play(rules: &Rules, seed: u64, table: &mut Table<'_, Battle>) -> Finish {
    let mut last_rejected: [Option<String>; 2] = [None, None];
    let mut teams: [Vec<BotType>; 2] = [Vec::new(), Vec::new()];
    for seat in 0..2u8 {
        let idx = usize::from(seat);
        teams[idx] = match table.setup(seat, &setup_request(rules, seat)) {
            None => default_team(rules, seat),
            Some(choice) => match check_team(rules, seat, &choice) {
                Ok(team) => team,
                Err(reason) => {
                    let reason = format!("team rejected: {reason}; playing the default team");
                    table.reject(seat, reason.clone());
                    last_rejected[idx] = Some(reason);
                    default_team(rules, seat)
                }
            },
        };
    }
    let mut fight = Fight::new(&teams, ChaCha8Rng::seed_from_u64(seed));
    table.set_initial(Initial {
        units: fight.units.clone(),
    });
    loop {
        if let Some(loser) = table.forfeited() {
            let stats = fight.stats.clone();
            return table.forfeit_finish(loser, stats);
        }
        for id in fight.next_ready() {
            if !fight.alive(id) {
                continue;
            }
            table.set_turn(fight.turn + 1);
            let seat = fight.unit(id).owner;
            if fight.begin_turn(id) {
                flush(&mut fight, table);
                let idx = usize::from(seat);
                let observation = fight.observation(id, rules.turn_cap, last_rejected[idx].take());
                table.offer(Offer {
                    targets: observation.legal_targets.clone(),
                    skill: observation.skill_ready,
                });
                let action = match table.act(seat, &observation) {
                    None => {
                        let action = default_action(&fight.units, id);
                        fight.events.push(Event::DefaultAction {
                            unit: id,
                            action,
                            reason: "no answer".to_owned(),
                        });
                        action
                    }
                    Some(action) => match check_action(&fight.units, id, action) {
                        Ok(()) => action,
                        Err(reason) => {
                            table.reject(seat, reason.clone());
                            let action = default_action(&fight.units, id);
                            fight.events.push(Event::DefaultAction {
                                unit: id,
                                action,
                                reason: reason.clone(),
                            });
                            last_rejected[idx] = Some(reason);
                            action
                        }
                    },
                };
                fight.perform(id, action);
            }
            fight.end_turn(id);
            if let Some(winner) = fight.winner() {
                flush(&mut fight, table);
                return Finish {
                    winner: Some(winner),
                    reason: "team destroyed".to_owned(),
                    stats: fight.stats.clone(),
                };
            }
            if let Some(loser) = table.forfeited() {
                flush(&mut fight, table);
                let stats = fight.stats.clone();
                return table.forfeit_finish(loser, stats);
            }
            if fight.turn >= rules.turn_cap {
                let (winner, reason) = fight.cap_finish();
                flush(&mut fight, table);
                return Finish {
                    winner,
                    reason,
                    stats: fight.stats.clone(),
                };
            }
            flush(&mut fight, table);
        }
    }
}
