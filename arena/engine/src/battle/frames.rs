//! Battle frames for the browser viewer: one step per unit turn, drawn from the [`State`]
//! the rules and the terminal picture fold. Drawn by the viewer's `battle.js`.
//!
//! `fixed.units[id]`: `{owner, kind, max, skill}`. A step's `state`: `units[id]` =
//! `{hp, cooldown, effects: [[name, turns_left]], destroyed}`, `acting` (the unit whose
//! turn it is), `attacks`: `[[attacker, target, damage or null when evaded, crit,
//! counter]]`, `skill`: `[unit, name]` or null, `repairs`: `[[target, change]]`.

use super::{Event, Initial, State};
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

/// What the steps are built from: the state, the last turn started, and whether a `Due`
/// event opened the current step and its first turn has not started yet.
type Building = (State, u32, bool);

/// A step per unit turn. The `Due` roll that decides who acts next opens the step of the
/// first turn it lists (it comes before that turn's `TurnStart`; a step cut at the
/// `TurnStart` showed it one step early); a second unit due in the same tick starts its
/// own step at its `TurnStart`.
fn steps(initial: &Initial, events: &[Event]) -> Vec<Step> {
    let starts = |&(_, last, due_open): &Building, event: &Event| match *event {
        Event::Due { .. } => Some(last + 1),
        Event::TurnStart { turn, .. } if !due_open => Some(turn),
        _ => None,
    };
    let apply = |(state, last, due_open): &mut Building, event: &Event| {
        match *event {
            Event::Due { .. } => *due_open = true,
            Event::TurnStart { turn, .. } => (*last, *due_open) = (turn, false),
            _ => {}
        }
        state.apply(event);
    };
    let draw = |(state, ..): &Building, events: &[Event]| draw(state, events);
    build(events, (State::new(initial), 0, false), starts, apply, draw)
}

fn draw(state: &State, events: &[Event]) -> Value {
    let units: Vec<Value> = state
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
        "acting": state.acting,
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
        // Each `Due` roll is in the step of the first turn it lists, and each step after
        // the first holds exactly one turn.
        let step_of = |i: usize| {
            frames
                .steps
                .iter()
                .rposition(|s| s.first_event <= i)
                .unwrap()
        };
        let mut dues = 0;
        for (i, event) in events.iter().enumerate() {
            if let Event::Due { units } = event {
                let (j, turn) = events[i..]
                    .iter()
                    .enumerate()
                    .find_map(|(k, e)| match e {
                        Event::TurnStart { unit, turn, .. } => Some((i + k, (*unit, *turn))),
                        _ => None,
                    })
                    .expect("a turn follows every due roll");
                assert_eq!(turn.0, units[0].0, "the first unit listed acts first");
                assert_eq!(step_of(i), step_of(j), "event {i}: the roll and its turn");
                assert_eq!(frames.steps[step_of(j)].turn, turn.1);
                dues += 1;
            }
        }
        assert!(dues > 0);
        for (n, step) in frames.steps.iter().enumerate().skip(1) {
            let end = frames
                .steps
                .get(n + 1)
                .map_or(events.len(), |s| s.first_event);
            let starts = events[step.first_event..end]
                .iter()
                .filter(|e| matches!(e, Event::TurnStart { .. }))
                .count();
            assert_eq!(starts, 1, "step {n}");
        }
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
