//! Grid frames for the browser viewer: one step per hero turn, each drawing the [`State`]
//! folded by the same [`State::apply`] the rules and the terminal picture use. Drawn by the
//! viewer's `grid.js`. Arrays rather than objects per hero and tile, because a long game has
//! a thousand steps and more.
//!
//! `fixed`: `{width, height, turn_limit, walls, mines, wells: [[x, y]], teams: [team of
//! each hero]}`. A step's `state`: `heroes[id]` = `[x, y, health]` (health 0: dead, lying
//! in its grave), `mines[id]` = owner hero id or null, `graves`: `[[x, y]]`, `diamonds`:
//! `[team 0, team 1]`, `acting`: hero id or null, `move`: `[from x, from y, to x, to y]`
//! or null, `hits`: `[[hero, target, damage]]` (stabs and adjacent damage).

use super::{Event, Initial, State};
use crate::frames::{Frames, Step, build};
use arena_sdk::grid::Pos;
use serde_json::{Value, json};

pub(super) fn frames(initial: &Initial, events: &[Event]) -> Frames {
    let fixed = json!({
        "width": initial.width,
        "height": initial.height,
        "turn_limit": initial.turn_limit,
        "walls": tiles(&initial.walls),
        "mines": tiles(&initial.mines),
        "wells": tiles(&initial.wells),
        "teams": initial.heroes.iter().map(|h| h.team).collect::<Vec<_>>(),
    });
    Frames {
        fixed,
        steps: steps(initial, events),
    }
}

fn tiles(positions: &[Pos]) -> Vec<[u8; 2]> {
    positions.iter().map(|p| [p.x, p.y]).collect()
}

fn steps(initial: &Initial, events: &[Event]) -> Vec<Step> {
    let starts = |_: &State, event: &Event| match *event {
        Event::HeroTurn { turn, .. } => Some(turn),
        _ => None,
    };
    build(
        events,
        State::from_initial(initial),
        starts,
        State::apply,
        draw,
    )
}

fn draw(state: &State, events: &[Event]) -> Value {
    let mut acting = None;
    let mut moved = None;
    let mut hits = Vec::new();
    for event in events {
        match *event {
            Event::HeroTurn { hero, .. } => acting = Some(hero),
            Event::Moved { from, to, .. } => moved = Some([from.x, from.y, to.x, to.y]),
            Event::Stab {
                hero,
                target,
                damage,
                ..
            }
            | Event::AdjacentDamage {
                hero,
                target,
                damage,
                ..
            } => hits.push([u32::from(hero), u32::from(target), damage]),
            _ => {}
        }
    }
    json!({
        "heroes": state.heroes().iter().map(|h| json!([h.pos.x, h.pos.y, h.health])).collect::<Vec<_>>(),
        "mines": state.mines().iter().map(|m| m.owner).collect::<Vec<_>>(),
        "graves": tiles(state.graves()),
        "diamonds": state.diamonds(),
        "acting": acting,
        "move": moved,
        "hits": hits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MatchConfig, NativePlayer, Ruleset, run_match};
    use arena_sdk::Bot;
    use arena_sdk::grid::{Action, Board, Grid, Observation, SetupChoice, SetupRequest};

    /// Walks every hero towards the nearest enemy, so that heroes fight and die.
    #[derive(Default)]
    struct Hunter {
        board: Option<Board>,
    }

    impl Bot<Grid> for Hunter {
        fn setup(&mut self, request: &SetupRequest) -> SetupChoice {
            self.board = Some(Board::new(request));
            SetupChoice {}
        }
        fn act(&mut self, observation: &Observation) -> Action {
            let Some(board) = self.board.as_mut() else {
                return Action::Stay;
            };
            board.observe(observation);
            let me = observation.me();
            board
                .nearest_enemy(me.pos, me.team)
                .map(|s| s.first_step)
                .into()
        }
    }

    #[test]
    fn one_step_per_hero_turn_ending_in_the_final_board() {
        let (mut a, mut b) = (
            NativePlayer::new(Hunter::default()),
            NativePlayer::new(Hunter::default()),
        );
        let record = run_match::<Grid>(&MatchConfig::new(Default::default(), 5), [&mut a, &mut b]);
        let initial = record.replay.initial.clone().unwrap();
        let events: Vec<Event> = record.replay.events().cloned().collect();
        let frames = Grid::frames(&initial, &events).unwrap();
        let turns = events
            .iter()
            .filter(|e| matches!(e, Event::HeroTurn { .. }))
            .count();
        assert_eq!(frames.steps.len(), turns + 1);
        let start = &frames.steps[0].state;
        assert_eq!(
            start["heroes"].as_array().unwrap().len(),
            initial.heroes.len()
        );
        assert_eq!(start["heroes"][0][2], 100);
        let last = &frames.steps.last().unwrap().state;
        let deaths = events
            .iter()
            .filter(|e| matches!(e, Event::Death { .. }))
            .count();
        let dead = last["heroes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|h| h[2] == 0)
            .count();
        assert_eq!(dead, deaths);
        assert!(last["graves"].as_array().unwrap().len() <= deaths);
        let diamonds = events.iter().rev().find_map(|e| match e {
            Event::GameEnd { diamonds, .. } => Some(*diamonds),
            _ => None,
        });
        assert_eq!(last["diamonds"], json!(diamonds.unwrap()));
    }
}
