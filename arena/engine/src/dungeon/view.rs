//! The text of `dungeon`: one line per event (the document's formats where it has one)
//! and the terminal picture of a run — the party and the wave with hp, mp and what each
//! monster does next — rebuilt from the events alone.

use super::{Event, Initial};
use arena_sdk::Seat;
use arena_sdk::dungeon::{Ability, Hero, Monster, Target};
use std::fmt::Write as _;

/// One line for an event. The document's formats: "{hero}'s turn!", "{a} attacks {t} for
/// {d}!", "{a} hits {t} with {ability} for {d} damage!", "{unit} dies!", "{xp} XP
/// rewarded!", "{hero} is now level {level}!", "{unit} takes {d} self-inflicted damage!".
pub fn describe_event(event: &Event) -> String {
    match event {
        Event::RunStart { seat, party } => format!(
            "Seat {seat} enters the dungeon: {}",
            party
                .iter()
                .map(|h| format!("{} (level {}, {} hp, {} mp)", h.name, h.level, h.hp, h.mp))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Event::WaveStart {
            wave,
            waves,
            monsters,
            ..
        } => format!(
            "Wave {wave} of {waves}: {}",
            monsters
                .iter()
                .map(|m| format!("{} (level {}, {} hp)", m.name, m.level, m.hp))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Event::HeroTurn { name, .. } => format!("{name}'s turn!"),
        Event::TurnLost { name, reason, .. } => format!("{name} loses the turn: {reason}"),
        Event::Attack {
            by_name,
            target_name,
            ability: Ability::Fight,
            damage,
            ..
        } => format!("{by_name} attacks {target_name} for {damage}!"),
        Event::Attack {
            by_name,
            target_name,
            ability,
            damage,
            ..
        } => format!("{by_name} hits {target_name} with {ability} for {damage} damage!"),
        Event::Heal {
            by,
            by_name,
            target,
            target_name,
            ability,
            amount,
            ..
        } => {
            if by == target {
                format!("{by_name} recovers {amount} hp with {ability}!")
            } else {
                format!("{by_name} heals {target_name} with {ability} for {amount}!")
            }
        }
        Event::MaxHpLowered {
            name,
            amount,
            max_hp,
            ..
        } => format!("{name}'s maxhp is lowered by {amount} to {max_hp}!"),
        Event::SelfDamage { name, damage, .. } => {
            format!("{name} takes {damage} self-inflicted damage!")
        }
        Event::Dies { name, .. } => format!("{name} dies!"),
        Event::XpRewarded { xp, .. } => format!("{xp} XP rewarded!"),
        Event::LevelUp { name, level, .. } => format!("{name} is now level {level}!"),
        Event::Victory { wave, .. } => format!("Victory! Wave {wave} is cleared."),
        Event::Defeat { wave, .. } => format!("Defeat! The party falls in wave {wave}."),
        Event::RunEnd {
            seat,
            score,
            reason,
        } => format!(
            "Seat {seat}'s run is over ({reason}): {} waves cleared, {} xp, {} turns",
            score.waves_cleared, score.xp, score.turns
        ),
        Event::GameEnd { winner, reason, .. } => match winner {
            Some(seat) => format!("Game over: seat {seat} wins ({reason})"),
            None => format!("Game over: draw ({reason})"),
        },
    }
}

/// The state of the run being played, rebuilt from the events.
#[derive(Debug, Default)]
pub(super) struct View {
    pub(super) seat: Seat,
    pub(super) wave: u32,
    pub(super) waves: u32,
    pub(super) party: Vec<Hero>,
    pub(super) monsters: Vec<Monster>,
}

impl View {
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

    fn set_mp(&mut self, unit: Target, mp: Option<u32>) {
        if let (Target::Hero(id), Some(mp)) = (unit, mp)
            && let Some(h) = self.party.get_mut(usize::from(id))
        {
            h.mp = mp;
        }
    }

    fn rotate(&mut self, unit: Target) {
        if let Target::Monster(id) = unit
            && let Some(m) = self.monsters.get_mut(usize::from(id))
            && !m.queue.is_empty()
        {
            m.queue.rotate_left(1);
        }
    }

    pub(super) fn apply(&mut self, event: &Event) {
        match event {
            Event::RunStart { seat, party } => {
                *self = View {
                    seat: *seat,
                    party: party.clone(),
                    ..View::default()
                };
            }
            Event::WaveStart {
                wave,
                waves,
                monsters,
                ..
            } => {
                self.wave = *wave;
                self.waves = *waves;
                self.monsters = monsters.clone();
            }
            Event::Attack {
                by, target, hp, mp, ..
            } => {
                if let Some((h, _)) = self.hp_mut(*target) {
                    *h = *hp;
                }
                self.set_mp(*by, *mp);
                // A monster's turn is one hit (a drain's or a bite's heal follows it), or
                // a regeneration: each moves its command queue on once.
                self.rotate(*by);
            }
            Event::Heal {
                by,
                target,
                ability,
                hp,
                mp,
                ..
            } => {
                if let Some((h, _)) = self.hp_mut(*target) {
                    *h = *hp;
                }
                self.set_mp(*by, *mp);
                if *ability == Ability::Regenerate {
                    self.rotate(*by);
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
            Event::SelfDamage { unit, hp, .. } => {
                if let Some((h, _)) = self.hp_mut(*unit) {
                    *h = *hp;
                }
            }
            Event::Dies { unit, .. } => match *unit {
                Target::Hero(id) => {
                    if let Some(h) = self.party.get_mut(usize::from(id)) {
                        h.dead = true;
                    }
                }
                Target::Monster(id) => {
                    if let Some(m) = self.monsters.get_mut(usize::from(id)) {
                        m.dead = true;
                    }
                }
            },
            Event::XpRewarded { xp, .. } => {
                for h in self.party.iter_mut().filter(|h| !h.dead && h.hp > 0) {
                    h.xp = h.xp.saturating_add(*xp);
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
                }
            }
            Event::HeroTurn { .. }
            | Event::TurnLost { .. }
            | Event::Victory { .. }
            | Event::Defeat { .. }
            | Event::RunEnd { .. }
            | Event::GameEnd { .. } => {}
        }
    }

    fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "seat {} — wave {}/{}",
            self.seat, self.wave, self.waves
        );
        for h in &self.party {
            let state = if h.dead {
                "dead".to_owned()
            } else {
                format!(
                    "{:>4}/{:<4} hp {:>4}/{:<4} mp",
                    h.hp, h.max_hp, h.mp, h.max_mp
                )
            };
            let _ = writeln!(
                out,
                "  {:<14} L{:<3} {state}  xp {} str {} con {} int {} spd {}",
                h.name,
                h.level,
                h.xp,
                h.stats.strength,
                h.stats.constitution,
                h.stats.intelligence,
                h.stats.speed
            );
        }
        for m in &self.monsters {
            let state = if m.dead {
                "dead".to_owned()
            } else {
                format!("{:>4}/{:<4} hp  next {}", m.hp, m.max_hp, m.next_ability())
            };
            let _ = writeln!(out, "  {:<14} L{:<3} {state}", m.name, m.level);
        }
        out
    }
}

/// The run being played, drawn as text one event at a time: party and wave; nothing
/// before the first run begins (at the start and setup answers).
pub(super) struct Drawing {
    view: View,
    started: bool,
}

impl Drawing {
    pub(super) fn new(initial: &Initial) -> Drawing {
        Drawing {
            view: View {
                party: initial.parties[0].clone(),
                ..View::default()
            },
            started: false,
        }
    }
}

impl crate::Sketch<Event> for Drawing {
    fn apply(&mut self, event: &Event) {
        self.started |= matches!(event, Event::RunStart { .. });
        self.view.apply(event);
    }

    fn draw(&self) -> Option<String> {
        self.started.then(|| self.view.render())
    }
}
