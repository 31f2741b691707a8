//! Battle frames for the browser viewer: one step per unit turn, the state rebuilt by the
//! same `View` the terminal picture uses. Drawn by the viewer's `battle.js`.
//!
//! `fixed.units[id]`: `{owner, kind, max, skill}`. A step's `state`: `units[id]` =
//! `{hp, cooldown, effects: [[name, turns_left]], destroyed}`, `acting` (the unit whose
//! turn it is), `attacks`: `[[attacker, target, damage or null when evaded, crit,
//! counter]]`, `skill`: `[unit, name]` or null, `repairs`: `[[target, change]]`.

use super::view::View;
use super::{Event, Initial};
use crate::frames::{Frames, Step, build};
use serde_json::{Value, json};

pub(super) fn frames(initial: &Initial, events: &[Event]) -> Frames {
    let fixed = json!({
        "units": initial.units.iter().map(|u| json!({
            "owner": u.owner,
            "kind": u.kind.name(),
            "max": u.base.integrity,
            "skill": u.kind.skill().map(|s| s.name()),
        })).collect::<Vec<_>>(),
    });
    Frames {
        fixed,
        steps: steps(initial, events),
    }
}

fn steps(initial: &Initial, events: &[Event]) -> Vec<Step> {
    let starts = |_: &View, event: &Event| match *event {
        Event::TurnStart { turn, .. } => Some(turn),
        _ => None,
    };
    build(events, View::new(initial), starts, View::apply, draw)
}

fn draw(view: &View, events: &[Event]) -> Value {
    let units: Vec<Value> = view
        .units
        .iter()
        .map(|u| {
            json!({
                "hp": u.integrity,
                "cooldown": u.cooldown,
                "effects": u.effects.iter().map(|e| json!([e.effect.name(), e.turns_left])).collect::<Vec<_>>(),
                "destroyed": u.destroyed,
            })
        })
        .collect();
    let mut attacks = Vec::new();
    let mut repairs = Vec::new();
    let mut skill = Value::Null;
    for event in events {
        match event {
            Event::Attack {
                attacker,
                target,
                counter,
                hit,
                ..
            } => attacks.push(json!([
                attacker,
                target,
                hit.map(|h| h.damage),
                hit.is_some_and(|h| h.crit),
                counter
            ])),
            Event::SkillUsed { unit, skill: s, .. } => skill = json!([unit, s.name()]),
            Event::Repair { target, change, .. } => repairs.push(json!([target, change])),
            _ => {}
        }
    }
    json!({
        "units": units,
        "acting": view.acting,
        "attacks": attacks,
        "skill": skill,
        "repairs": repairs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MatchConfig, NativePlayer, Ruleset, run_match};
    use arena_sdk::Bot;
    use arena_sdk::battle::{Action, Battle, Observation, SetupRequest, TeamChoice};

    struct First;
    impl Bot<Battle> for First {
        fn setup(&mut self, r: &SetupRequest) -> TeamChoice {
            TeamChoice {
                team: r.roster[..3].to_vec(),
            }
        }
        fn act(&mut self, o: &Observation) -> Action {
            Action::Attack {
                target: o.legal_targets[0],
            }
        }
    }

    #[test]
    fn one_step_per_unit_turn_ending_in_the_final_integrity() {
        let (mut a, mut b) = (NativePlayer::new(First), NativePlayer::new(First));
        let record =
            run_match::<Battle>(&MatchConfig::new(Default::default(), 7), [&mut a, &mut b]);
        let initial = record.replay.initial.clone().unwrap();
        let events: Vec<Event> = record.replay.events().cloned().collect();
        let frames = Battle::frames(&initial, &events).unwrap();
        let turns = events
            .iter()
            .filter(|e| matches!(e, Event::TurnStart { .. }))
            .count();
        assert_eq!(frames.steps.len(), turns + 1);
        assert_eq!(frames.steps[0].state["acting"], Value::Null);
        assert_eq!(
            frames.steps[0].state["units"][0]["hp"],
            initial.units[0].base.integrity
        );
        let last = &frames.steps.last().unwrap().state;
        let loser = 1 - record.outcome.winner.expect("a winner") as usize;
        for (id, unit) in initial.units.iter().enumerate() {
            if usize::from(unit.owner) == loser {
                assert_eq!(last["units"][id]["destroyed"], true);
                assert_eq!(last["units"][id]["hp"], 0);
            }
        }
        let attacks: usize = frames
            .steps
            .iter()
            .map(|s| s.state["attacks"].as_array().unwrap().len())
            .sum();
        let recorded = events
            .iter()
            .filter(|e| matches!(e, Event::Attack { .. }))
            .count();
        assert_eq!(attacks, recorded);
    }
}
