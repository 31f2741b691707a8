//! Frames for the browser viewer (docs/replay.md, "Frames"): a replay cut into steps, each
//! with the full drawable state after it, so that a page can draw any step without knowing a
//! single rule. Each mode builds its frames in `<mode>/frames.rs` by folding the same state
//! reconstruction its terminal `picture` uses over the events; [`build`] does the cutting.

use serde::Serialize;
use serde_json::Value;

/// A replay's frames as a mode draws them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Frames {
    /// What never changes during the match (the map, unit types and maxima, card texts),
    /// sent once.
    pub fixed: Value,
    /// Step 0 is the start (the state after the events before the first turn); every
    /// later step begins at an event that starts a turn or an action.
    pub steps: Vec<Step>,
}

/// One step of a match.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// The index (among the replay's events, not its log entries) of the step's first
    /// event; a step runs up to the next step's first event.
    pub first_event: usize,
    /// The mode's turn counter during the step (0 at the start).
    pub turn: u32,
    /// The drawable state after the step's events (mode-specific, see the mode's
    /// `frames.rs` and its drawing module in the viewer).
    pub state: Value,
}

/// Cut `events` into steps and draw the state after each. `starts` says whether an event
/// begins a new step and with which turn counter (given the state before the event); `apply` advances the mode's state by one
/// event; `draw` renders the state after a step, given the step's own events (for what
/// happened in it: the attack arrow, the card just played).
pub fn build<V, E>(
    events: &[E],
    mut view: V,
    starts: impl Fn(&V, &E) -> Option<u32>,
    mut apply: impl FnMut(&mut V, &E),
    draw: impl Fn(&V, &[E]) -> Value,
) -> Vec<Step> {
    let mut steps = Vec::new();
    let (mut first, mut turn) = (0, 0);
    for (i, event) in events.iter().enumerate() {
        if let Some(next_turn) = starts(&view, event) {
            // The start step is kept even when empty: it is the picture before anyone moved.
            if i > first || steps.is_empty() {
                steps.push(Step {
                    first_event: first,
                    turn,
                    state: draw(&view, &events[first..i]),
                });
            }
            (first, turn) = (i, next_turn);
        }
        apply(&mut view, event);
    }
    if first < events.len() || steps.is_empty() {
        steps.push(Step {
            first_event: first,
            turn,
            state: draw(&view, &events[first..]),
        });
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Events are numbers: 100 + n starts turn n, anything else adds to the running sum.
    fn steps_of(events: &[u32]) -> Vec<(usize, u32, Value)> {
        build(
            events,
            0u32,
            |_, e| e.checked_sub(100),
            |sum, e| *sum += if *e >= 100 { 0 } else { *e },
            |sum, evs| json!([sum, evs.len()]),
        )
        .into_iter()
        .map(|s| (s.first_event, s.turn, s.state))
        .collect()
    }

    #[test]
    fn steps_cover_every_event_once_with_the_state_after_them() {
        let steps = steps_of(&[5, 101, 1, 2, 102, 3]);
        assert_eq!(
            steps,
            vec![
                (0, 0, json!([5, 1])),
                (1, 1, json!([8, 3])),
                (4, 2, json!([11, 2])),
            ]
        );
    }

    #[test]
    fn a_replay_starting_with_a_turn_keeps_an_empty_start_step() {
        assert_eq!(
            steps_of(&[101, 4]),
            vec![(0, 0, json!([0, 0])), (0, 1, json!([4, 2]))]
        );
        assert_eq!(steps_of(&[]), vec![(0, 0, json!([0, 0]))]);
    }
}
