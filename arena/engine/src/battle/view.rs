//! What a match looks like in text: one line per event, and the picture of the units in
//! the [`State`] folded over the events (`--watch`).

use super::*;

use arena_sdk::battle::Action;
use std::fmt::Write as _;

fn plural_turns(n: u32) -> String {
    if n == 1 {
        "1 turn".to_owned()
    } else {
        format!("{n} turns")
    }
}

fn permille(roll: u32) -> String {
    format!("{}.{:03}", roll / 1000, roll % 1000)
}

pub(super) fn describe(event: &Event) -> String {
    match event {
        Event::Due { units } => {
            let due: Vec<String> = units
                .iter()
                .map(|Due(unit, meter, speed)| format!("#{unit} (meter {meter}, speed {speed})"))
                .collect();
            format!("due: {}", due.join(", "))
        }
        Event::EffectPicked {
            source,
            options,
            roll,
            effect,
        } => {
            let names: Vec<&str> = options.iter().map(|e| e.name()).collect();
            format!(
                "  #{source} picks {} (roll {roll} of {})",
                effect.name(),
                names.join(", ")
            )
        }
        Event::Effectivity {
            source,
            target,
            effect,
            check,
        } => format!(
            "  #{source} tries {} on #{target}: effectivity roll {} < {}%",
            effect.name(),
            check.roll,
            check.chance
        ),
        Event::TurnStart {
            turn,
            unit,
            seat,
            kind,
            meter,
        } => format!(
            "turn {turn}: #{unit} {} (seat {seat}), meter {meter}",
            kind.name()
        ),
        Event::EffectTick {
            unit,
            effect,
            turns_left,
            change,
            integrity,
        } => {
            let what = if *change < 0 {
                format!("takes {} damage", -change)
            } else {
                format!("is repaired by {change}")
            };
            format!(
                "  #{unit} {what} from {} ({} left) -> {integrity}",
                effect.name(),
                plural_turns(*turns_left)
            )
        }
        Event::BombExploded {
            unit,
            roll,
            power,
            armor,
            damage,
            integrity,
        } => format!(
            "  a bomb explodes on #{unit}: {} x {power} - armor {armor} = {damage} -> {integrity}",
            permille(*roll)
        ),
        Event::Stunned { unit } => format!("  #{unit} is stunned and misses its move"),
        Event::DefaultAction {
            unit,
            action,
            reason,
        } => {
            let what = match action {
                Action::Attack { target } => format!("attack #{target}"),
                Action::Skill => "skill".to_owned(),
            };
            format!("  #{unit} plays the default ({what}): {reason}")
        }
        Event::Attack {
            attacker,
            target,
            counter,
            evasion_roll,
            evasion,
            hit,
        } => {
            let verb = if *counter {
                "counter-attacks"
            } else {
                "attacks"
            };
            match hit {
                None => format!(
                    "  #{attacker} {verb} #{target}: evaded (roll {evasion_roll} < {evasion}%)"
                ),
                Some(h) => {
                    let crit = if h.crit { " x2 crit" } else { "" };
                    let bonus = if h.bonus_pct == 100 {
                        String::new()
                    } else {
                        format!(" x{}%", h.bonus_pct)
                    };
                    format!(
                        "  #{attacker} {verb} #{target}: {} x {}{crit} - armor {}{bonus} = {} damage -> {}",
                        permille(h.roll),
                        h.power,
                        h.armor,
                        h.damage,
                        h.integrity
                    )
                }
            }
        }
        Event::EffectApplied {
            source,
            target,
            effect,
            turns,
            magnitude,
            refreshed,
            ..
        } => {
            let how = if *refreshed { "renewed on" } else { "on" };
            let strength = if *magnitude > 0 {
                format!(" ({magnitude})")
            } else {
                String::new()
            };
            format!(
                "  {}{strength} {how} #{target} for {} (by #{source})",
                effect.name(),
                plural_turns(*turns)
            )
        }
        Event::EffectFailed {
            source,
            target,
            effect,
            reason,
        } => match reason {
            Failure::Effectivity { roll, chance } => format!(
                "  #{source} fails to inflict {}: effectivity roll {roll} >= {chance}%",
                effect.name()
            ),
            Failure::Resistance { roll, chance } => format!(
                "  #{target} resists {} from #{source}: roll {roll} < {chance}%",
                effect.name()
            ),
            Failure::AlreadyPresent => format!(
                "  #{target} already has {}; #{source} cannot add it",
                effect.name()
            ),
        },
        Event::SkillUsed {
            unit,
            skill,
            cooldown,
        } => format!("  #{unit} uses {} (cooldown {cooldown})", skill.name()),
        Event::Redistribute {
            source,
            total,
            units,
            share,
        } => {
            format!("  #{source} redistributes {total} integrity over {units} units: {share} each")
        }
        Event::Repair {
            source,
            target,
            change,
            integrity,
            ..
        } => format!("  #{target} repaired {change:+} by #{source} -> {integrity}"),
        Event::Expired { unit, effect } => format!("  {} on #{unit} expires", effect.name()),
        Event::Destroyed { unit, seat } => format!("  #{unit} (seat {seat}) is destroyed"),
        Event::TurnCap { integrity, max } => format!(
            "turn cap reached: integrity left {}/{} vs {}/{}",
            integrity[0], max[0], integrity[1], max[1]
        ),
        Event::GameEnd { winner, reason } => format!(
            "game over: {} ({reason})",
            match winner {
                Some(seat) => format!("seat {seat} wins"),
                None => "draw".to_owned(),
            }
        ),
    }
}

impl State {
    /// A multi-line picture: each seat's units with integrity, cooldown and effects, the
    /// acting unit marked.
    pub fn picture(&self) -> String {
        const BAR: i32 = 20;
        let mut out = format!("turn {}\n", self.turn);
        for seat in 0..2u8 {
            let _ = writeln!(out, "seat {seat}");
            for u in self.units.iter().filter(|u| u.owner == seat) {
                let marker = if self.acting == Some(u.id) { '>' } else { ' ' };
                let max = u.base.integrity.max(1);
                let filled = (u.integrity * BAR + max - 1) / max;
                let bar: String = (0..BAR)
                    .map(|i| if i < filled { '#' } else { '.' })
                    .collect();
                let _ = write!(
                    out,
                    "{marker}#{} {:<14} [{bar}] {:>4}/{:<4}",
                    u.id,
                    u.kind.name(),
                    u.integrity,
                    u.base.integrity
                );
                if u.destroyed {
                    out.push_str("  destroyed\n");
                    continue;
                }
                match u.kind.skill() {
                    Some(_) if u.cooldown == 0 => out.push_str("  skill ready"),
                    Some(_) => {
                        let _ = write!(out, "  cooldown {}", u.cooldown);
                    }
                    None => out.push_str("  no skill   "),
                }
                for e in &u.effects {
                    let _ = write!(out, "  {}({})", e.effect.name(), e.turns_left);
                }
                out.push('\n');
            }
        }
        out
    }
}

/// The units drawn as text, one event at a time.
impl crate::Sketch<Event> for State {
    fn apply(&mut self, event: &Event) {
        State::apply(self, event);
    }

    fn draw(&self) -> Option<String> {
        Some(self.picture())
    }
}
