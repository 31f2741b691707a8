//! Dungeon frames for the browser viewer: one step per hero turn, the run drawn from the
//! same [`State`] the rules play on and the terminal picture draws. Drawn by the viewer's
//! `dungeon.js`. The two seats' runs follow each other in the replay; a run's start
//! replaces the drawn party.
//!
//! `fixed`: `{waves}` (waves in the dungeon). A step's `state`: `seat`, `wave` (0 before
//! the first wave), `heroes`: `[{name, class, level, xp, hp, max_hp, mp, max_mp, dead}]`,
//! `monsters` (the current wave's): `[{name, family, kind, level, hp, max_hp, next,
//! dead}]`, `acting`: hero id or null, `hits`: `[[by, target, amount]]` with a unit as
//! `"h0"` or `"m2"` (attacks and heals of the step, heals negative).

use super::state::State;
use super::{Event, Initial};
use crate::frames::{Frames, Step, build};
use arena_sdk::dungeon::Target;
use serde_json::{Value, json};

/// The frames of a replay: its events folded over the [`State`] from `initial`.
pub(super) fn frames(initial: &Initial, events: &[Event]) -> Frames {
    Frames {
        fixed: json!({ "waves": initial.waves.len() }),
        steps: steps(initial, events),
    }
}

/// The steps: one per hero turn, after the start.
fn steps(initial: &Initial, events: &[Event]) -> Vec<Step> {
    // A hero turn starts a step; its counter is the table's, the hero turns before it.
    let starts = |state: &State, event: &Event| match event {
        Event::HeroTurn { .. } => Some(state.hero_turns()),
        _ => None,
    };
    build(events, State::new(initial), starts, State::apply, draw)
}

fn unit(target: Target) -> String {
    match target {
        Target::Hero(id) => format!("h{id}"),
        Target::Monster(id) => format!("m{id}"),
    }
}

fn draw(state: &State, events: &[Event]) -> Value {
    let run = state.shown();
    let mut acting = None;
    let mut hits = Vec::new();
    for event in events {
        match event {
            Event::HeroTurn { hero, .. } => acting = Some(*hero),
            Event::Attack {
                by, target, damage, ..
            } => hits.push(json!([unit(*by), unit(*target), damage])),
            Event::Heal {
                by, target, amount, ..
            } => hits.push(json!([unit(*by), unit(*target), -i64::from(*amount)])),
            _ => {}
        }
    }
    let heroes: Vec<Value> = run
        .party
        .iter()
        .map(|h| {
            json!({
                "name": h.name,
                "class": h.class.name(),
                "level": h.level,
                "xp": h.xp,
                "hp": h.hp,
                "max_hp": h.max_hp,
                "mp": h.mp,
                "max_mp": h.max_mp,
                "dead": h.dead,
            })
        })
        .collect();
    let monsters: Vec<Value> = run
        .monsters
        .iter()
        .map(|m| {
            json!({
                "name": m.name,
                "family": m.family.name(),
                "kind": m.kind.name(),
                "level": m.level,
                "hp": m.hp,
                "max_hp": m.max_hp,
                "next": m.next_ability().name(),
                "dead": m.dead,
            })
        })
        .collect();
    json!({
        "seat": run.seat,
        "wave": run.wave,
        "heroes": heroes,
        "monsters": monsters,
        "acting": acting,
        "hits": hits,
    })
}
