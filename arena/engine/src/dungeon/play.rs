//! One bot's run through the dungeon: the battle loop of the document (initiative queue,
//! hero turns asked of the bot, monster turns from the command queue against a random
//! living hero, the dead removed and XP rewarded at the end of every unit's turn), wave
//! after wave until the party falls, the waves run out or the turn limit is reached.

use super::rules::{CommandError, check_command, gain_xp, initiative, legal_commands, new_monster};
use super::{Event, Tally};
use arena_sdk::Seat;
use arena_sdk::dungeon::{
    Ability, Action, Hero, Monster, Observation, RECKLESS_CHARGE_HP, Score, Target, WaveMonster,
    blood_rage_self_damage, power,
};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

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
    /// In words, for the run's end event.
    pub fn reason(self) -> &'static str {
        match self {
            RunEnd::Cleared => "every wave cleared",
            RunEnd::Defeat => "the party fell",
            RunEnd::TurnLimit => "turn limit reached",
        }
    }
}

/// What happens next in a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A hero's turn: ask the bot.
    Hero(u8),
    /// The run is over.
    Over(RunEnd),
}

/// One seat's run: the party, the current wave and its initiative queue.
#[derive(Debug, Clone)]
pub struct Run {
    seat: Seat,
    waves: Vec<Vec<WaveMonster>>,
    turn_limit: u32,
    /// The wave being fought, from 1 (0 before the first).
    wave: u32,
    party: Vec<Hero>,
    monsters: Vec<Monster>,
    queue: VecDeque<Target>,
    rng: ChaCha8Rng,
    tally: Tally,
    score: Score,
    /// Events not yet handed to the table.
    events: Vec<Event>,
    /// Event lines the bot has not seen yet.
    unseen: Vec<String>,
    /// How the run ended, once it has.
    ended: Option<RunEnd>,
}

impl Run {
    /// A run of `party` through `waves`; `rng` rolls the monsters' targets.
    pub fn new(
        seat: Seat,
        party: Vec<Hero>,
        waves: Vec<Vec<WaveMonster>>,
        turn_limit: u32,
        rng: ChaCha8Rng,
    ) -> Run {
        let mut run = Run {
            seat,
            waves,
            turn_limit,
            wave: 0,
            party,
            monsters: Vec::new(),
            queue: VecDeque::new(),
            rng,
            tally: Tally::default(),
            score: Score::default(),
            events: Vec::new(),
            unseen: Vec::new(),
            ended: None,
        };
        run.push(Event::RunStart {
            seat,
            party: run.party.clone(),
        });
        run
    }

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

    /// The current wave (from 1).
    pub fn wave(&self) -> u32 {
        self.wave
    }

    /// Mutable access to a hero (tests and scenario setups).
    pub fn hero_mut(&mut self, id: u8) -> &mut Hero {
        &mut self.party[usize::from(id)]
    }

    /// Mutable access to a monster (tests and scenario setups).
    pub fn monster_mut(&mut self, id: u8) -> &mut Monster {
        &mut self.monsters[usize::from(id)]
    }

    /// Events since the last call, for the table.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    fn push(&mut self, event: Event) {
        self.unseen.push(super::describe_event(&event));
        self.events.push(event);
    }

    fn name(&self, unit: Target) -> String {
        match unit {
            Target::Hero(id) => self.party[usize::from(id)].name.clone(),
            Target::Monster(id) => self.monsters[usize::from(id)].name.clone(),
        }
    }

    fn hp(&self, unit: Target) -> u32 {
        match unit {
            Target::Hero(id) => self.party[usize::from(id)].hp,
            Target::Monster(id) => self.monsters[usize::from(id)].hp,
        }
    }

    fn living_heroes(&self) -> impl Iterator<Item = &Hero> {
        self.party.iter().filter(|h| !h.dead)
    }

    /// Start wave `wave` (from 1): its monsters at full health, a fresh initiative queue.
    pub fn start_wave(&mut self, wave: u32) {
        self.wave = wave;
        let spec = self.waves[wave as usize - 1].clone();
        self.monsters = spec
            .iter()
            .enumerate()
            .map(|(id, m)| new_monster(u8::try_from(id).unwrap_or(u8::MAX), m.kind, m.level))
            .collect();
        self.queue = initiative(&self.party, &self.monsters).into();
        self.push(Event::WaveStart {
            seat: self.seat,
            wave,
            waves: u32::try_from(self.waves.len()).unwrap_or(u32::MAX),
            monsters: self.monsters.clone(),
        });
    }

    /// Play monster turns until a hero's turn comes or the run ends. Call first after
    /// [`Run::new`] (it starts wave 1), and after each [`Run::hero_turn`].
    pub fn advance(&mut self) -> Step {
        loop {
            if let Some(end) = self.ended {
                return Step::Over(end);
            }
            if self.wave == 0 {
                if self.waves.is_empty() {
                    self.ended = Some(RunEnd::Cleared);
                    continue;
                }
                self.start_wave(1);
            }
            match self.queue.front().copied() {
                Some(Target::Hero(id)) => {
                    if self.score.turns >= self.turn_limit {
                        self.ended = Some(RunEnd::TurnLimit);
                        continue;
                    }
                    return Step::Hero(id);
                }
                Some(Target::Monster(id)) => {
                    self.monster_turn(id);
                    self.ended = self.end_of_turn();
                }
                // Unreachable: a queue without heroes is a defeat, without monsters a
                // victory, both found at the end of the turn that emptied it.
                None => self.ended = Some(RunEnd::Defeat),
            }
        }
    }

    /// The observation for the hero `id` whose turn it is (drains the unseen event lines).
    pub fn observation(&mut self, id: u8, last_rejected: Option<String>) -> Observation {
        let hero = &self.party[usize::from(id)];
        Observation {
            wave: self.wave,
            waves: u32::try_from(self.waves.len()).unwrap_or(u32::MAX),
            turn: self.score.turns,
            acting: id,
            legal: legal_commands(hero, &self.party, &self.monsters),
            party: self.party.clone(),
            monsters: self.monsters.clone(),
            initiative: self.queue.iter().skip(1).copied().collect(),
            events: std::mem::take(&mut self.unseen),
            score: self.score,
            last_rejected,
        }
    }

    /// Hero `id`'s turn (it must be at the front of the queue) with the bot's answer;
    /// `None` when the bot faulted. A fault or a rejected command costs the hero its turn;
    /// the rejection is returned. Then the end of the turn; [`Run::advance`] goes on.
    pub fn hero_turn(&mut self, id: u8, action: Option<Action>) -> Option<CommandError> {
        self.score.turns += 1;
        let name = self.party[usize::from(id)].name.clone();
        self.push(Event::HeroTurn {
            seat: self.seat,
            hero: id,
            name: name.clone(),
        });
        let rejection = match action {
            None => {
                self.push(Event::TurnLost {
                    seat: self.seat,
                    hero: id,
                    name,
                    reason: "no answer".to_owned(),
                });
                None
            }
            Some(action) => {
                let hero = &self.party[usize::from(id)];
                match check_command(hero, action, &self.party, &self.monsters) {
                    Ok(()) => {
                        self.party[usize::from(id)].mp -= action.ability.mp_cost();
                        self.resolve(Target::Hero(id), action.ability, action.target);
                        None
                    }
                    Err(error) => {
                        self.tally.rejected_commands += 1;
                        self.push(Event::TurnLost {
                            seat: self.seat,
                            hero: id,
                            name,
                            reason: error.to_string(),
                        });
                        Some(error)
                    }
                }
            }
        };
        self.queue.rotate_left(1);
        self.ended = self.end_of_turn();
        rejection
    }

    /// A monster's turn: the next ability of its command queue against a random living
    /// hero (drawn even for `regenerate`, so every monster turn rolls once).
    fn monster_turn(&mut self, id: u8) {
        let living: Vec<u8> = self.living_heroes().map(|h| h.id).collect();
        // Never empty: a run ends at the turn its last hero dies.
        let Some(&target) = living.get(self.rng.random_range(0..living.len().max(1))) else {
            return;
        };
        let monster = &mut self.monsters[usize::from(id)];
        let ability = monster.next_ability();
        monster.queue.rotate_left(1);
        self.resolve(Target::Monster(id), ability, Target::Hero(target));
        self.queue.rotate_left(1);
    }

    fn stats_level(&self, unit: Target) -> (arena_sdk::dungeon::Stats, u32) {
        match unit {
            Target::Hero(id) => {
                let h = &self.party[usize::from(id)];
                (h.stats, h.level)
            }
            Target::Monster(id) => {
                let m = &self.monsters[usize::from(id)];
                (m.stats, m.level)
            }
        }
    }

    fn mp_of(&self, unit: Target) -> Option<u32> {
        match unit {
            Target::Hero(id) => Some(self.party[usize::from(id)].mp),
            Target::Monster(_) => None,
        }
    }

    /// `take_damage`: a hit of `amount` (dragons reduce it); returns the damage done.
    fn take_damage(&mut self, unit: Target, amount: u32) -> u32 {
        match unit {
            Target::Hero(id) => {
                let h = &mut self.party[usize::from(id)];
                h.hp = h.hp.saturating_sub(amount);
                amount
            }
            Target::Monster(id) => {
                let m = &mut self.monsters[usize::from(id)];
                let damage = m.kind.damage_taken(amount);
                m.hp = m.hp.saturating_sub(damage);
                damage
            }
        }
    }

    /// `heal_damage`: up to `amount`, not beyond maxhp; returns the hit points restored.
    fn heal_damage(&mut self, unit: Target, amount: u32) -> u32 {
        let (hp, max_hp) = match unit {
            Target::Hero(id) => {
                let h = &mut self.party[usize::from(id)];
                (&mut h.hp, h.max_hp)
            }
            Target::Monster(id) => {
                let m = &mut self.monsters[usize::from(id)];
                (&mut m.hp, m.max_hp)
            }
        };
        let healed = amount.min(max_hp.saturating_sub(*hp));
        *hp += healed;
        healed
    }

    fn attack(&mut self, by: Target, target: Target, ability: Ability, amount: u32) -> u32 {
        let damage = self.take_damage(target, amount);
        match (by, target) {
            (Target::Hero(_), Target::Monster(_)) => self.tally.damage_dealt += u64::from(damage),
            (_, Target::Hero(_)) => self.tally.damage_taken += u64::from(damage),
            _ => {}
        }
        self.push(Event::Attack {
            seat: self.seat,
            by,
            by_name: self.name(by),
            target,
            target_name: self.name(target),
            ability,
            damage,
            hp: self.hp(target),
            mp: self.mp_of(by),
        });
        damage
    }

    fn heal(&mut self, by: Target, target: Target, ability: Ability, amount: u32) {
        let healed = self.heal_damage(target, amount);
        if matches!((by, target), (Target::Hero(_), Target::Hero(_))) {
            self.tally.healing += u64::from(healed);
        }
        self.push(Event::Heal {
            seat: self.seat,
            by,
            by_name: self.name(by),
            target,
            target_name: self.name(target),
            ability,
            amount: healed,
            hp: self.hp(target),
            mp: self.mp_of(by),
        });
    }

    fn self_damage(&mut self, unit: Target, amount: u32) {
        let damage = self.take_damage(unit, amount);
        if let Target::Hero(_) = unit {
            self.tally.damage_taken += u64::from(damage);
        }
        self.push(Event::SelfDamage {
            seat: self.seat,
            unit,
            name: self.name(unit),
            damage,
            hp: self.hp(unit),
        });
    }

    /// Apply `ability` of `by` on `target` (already checked), with the document's effects.
    pub fn resolve(&mut self, by: Target, ability: Ability, target: Target) {
        let (stats, level) = self.stats_level(by);
        let amount = power(ability, stats, level);
        match ability {
            Ability::Heal => {
                let undead = matches!(target, Target::Monster(id)
                    if self.monsters[usize::from(id)].family == arena_sdk::dungeon::Family::Undead);
                if undead {
                    self.attack(by, target, ability, amount);
                } else {
                    self.heal(by, target, ability, amount);
                }
            }
            Ability::Regenerate => self.heal(by, by, ability, amount),
            Ability::LifeDrain => {
                let damage = self.attack(by, target, ability, amount);
                self.heal(by, by, ability, damage);
            }
            Ability::Bite => {
                let damage = self.attack(by, target, ability, amount);
                self.heal(by, by, ability, damage);
                self.lower_max_hp(target, damage);
            }
            Ability::BloodRage => {
                self.attack(by, target, ability, amount);
                self.self_damage(by, blood_rage_self_damage(stats));
            }
            Ability::RecklessCharge => {
                self.attack(by, target, ability, amount);
                self.self_damage(by, RECKLESS_CHARGE_HP);
            }
            _ => {
                self.attack(by, target, ability, amount);
            }
        }
    }

    fn lower_max_hp(&mut self, unit: Target, amount: u32) {
        let (hp, max_hp) = match unit {
            Target::Hero(id) => {
                let h = &mut self.party[usize::from(id)];
                (&mut h.hp, &mut h.max_hp)
            }
            Target::Monster(id) => {
                let m = &mut self.monsters[usize::from(id)];
                (&mut m.hp, &mut m.max_hp)
            }
        };
        *max_hp = max_hp.saturating_sub(amount);
        *hp = (*hp).min(*max_hp);
        let (hp, max_hp) = (*hp, *max_hp);
        self.push(Event::MaxHpLowered {
            seat: self.seat,
            unit,
            name: self.name(unit),
            amount,
            max_hp,
            hp,
        });
    }

    /// The end of every unit's turn: the dead leave the initiative queue (in queue order);
    /// each dead monster's XP goes to every living hero, with its level ups. Then Defeat
    /// (no hero lives; it wins over a simultaneous victory) or Victory (no monster lives:
    /// the wave is cleared and the next begins).
    fn end_of_turn(&mut self) -> Option<RunEnd> {
        let dead: Vec<Target> = self
            .queue
            .iter()
            .copied()
            .filter(|&u| self.hp(u) == 0)
            .collect();
        self.queue.retain(|u| !dead.contains(u));
        for unit in dead {
            self.push(Event::Dies {
                seat: self.seat,
                unit,
                name: self.name(unit),
            });
            match unit {
                Target::Hero(id) => {
                    self.party[usize::from(id)].dead = true;
                    self.tally.heroes_lost += 1;
                }
                Target::Monster(id) => {
                    let monster = &mut self.monsters[usize::from(id)];
                    monster.dead = true;
                    let xp = monster.xp_value;
                    self.tally.monsters_killed += 1;
                    self.reward(xp);
                }
            }
        }
        if self.living_heroes().next().is_none() {
            self.push(Event::Defeat {
                seat: self.seat,
                wave: self.wave,
            });
            return Some(RunEnd::Defeat);
        }
        if self.monsters.iter().all(|m| m.dead) {
            self.push(Event::Victory {
                seat: self.seat,
                wave: self.wave,
            });
            self.score.waves_cleared += 1;
            self.tally.waves_cleared += 1;
            if self.wave as usize >= self.waves.len() {
                return Some(RunEnd::Cleared);
            }
            self.start_wave(self.wave + 1);
        }
        None
    }

    /// XP to every living hero (hp above 0: a hero dying this very turn gets none).
    fn reward(&mut self, xp: u32) {
        let living: Vec<u8> = self
            .party
            .iter()
            .filter(|h| !h.dead && h.hp > 0)
            .map(|h| h.id)
            .collect();
        if living.is_empty() {
            return;
        }
        self.push(Event::XpRewarded {
            seat: self.seat,
            xp,
        });
        for id in living {
            self.score.xp += u64::from(xp);
            self.tally.xp += u64::from(xp);
            for hero in gain_xp(&mut self.party[usize::from(id)], xp) {
                self.tally.levels_gained += 1;
                self.push(Event::LevelUp {
                    seat: self.seat,
                    hero: id,
                    name: hero.name,
                    level: hero.level,
                    xp: hero.xp,
                    stats: hero.stats,
                    max_hp: hero.max_hp,
                    max_mp: hero.max_mp,
                });
            }
        }
    }

    /// End the run: its last event, the score.
    pub fn finish(&mut self, end: RunEnd) -> Score {
        self.push(Event::RunEnd {
            seat: self.seat,
            score: self.score,
            reason: end.reason().to_owned(),
        });
        self.score
    }
}
