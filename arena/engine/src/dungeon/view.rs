//! The text of `dungeon`: one line per event (the document's formats where it has one)
//! and the terminal picture of the [`State`]: the run being played, its party and its wave
//! with hp, mp and what each monster does next.

use super::Event;
use super::state::State;
use arena_sdk::dungeon::Ability;
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
        Event::TargetDrawn {
            name, hero_name, ..
        } => format!("{name} draws {hero_name} as its target"),
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
            // A cleric healing itself is still `heal`'s line; the monsters' self-heals
            // (life drain, bite, regenerate) have their own.
            if by == target && *ability != Ability::Heal {
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

impl State {
    /// A multi-line picture of the run being played (seat 0's before the first begins):
    /// the party with hp, mp, xp and stats, and the wave with what each monster does next.
    pub fn picture(&self) -> String {
        let run = self.shown();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "seat {} — wave {}/{}",
            run.seat,
            run.wave,
            self.waves()
        );
        for h in &run.party {
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
        for m in &run.monsters {
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
