//! Conquest frames for the browser viewer: one step per player turn, the state folded by
//! the same [`State::apply`] the rules and the terminal map use. Drawn by the viewer's
//! `conquest.js`. Arrays rather than objects per tile and army, as in grid's frames.
//!
//! `fixed`: `{width, height, homes: [[x, y]; 2], water: [[x, y]], first_year, last_year}`.
//! A step's `state`: `year`, `seat` (whose turn), `resources`: `[[wood, food, gold]; 2]`,
//! `wood`, `food`, `gold`: the tiles not yet collected `[[x, y]]`, `armies`: `[[x, y,
//! letter (S, A, K, T), owner]]`, `moves`: `[[from x, from y, to x, to y]]` of the step,
//! `fights`: `[[x, y]]` where armies fought or drowned in the step, `captured`: the seat
//! whose army took the enemy home in the step, or null.

use super::{Event, Initial, State};
use crate::frames::{Frames, Step, build};
use arena_sdk::conquest::{FIRST_YEAR, Pos, Resource, Resources, Terrain};
use serde_json::{Value, json};

pub(super) fn frames(initial: &Initial, events: &[Event]) -> Frames {
    let fixed = json!({
        "width": initial.width,
        "height": initial.height,
        "homes": tiles(&initial.homes),
        "water": tiles(&initial.water),
        "first_year": FIRST_YEAR,
        "last_year": FIRST_YEAR + initial.max_years.saturating_sub(1),
    });
    Frames {
        fixed,
        steps: steps(initial, events),
    }
}

fn tiles(positions: &[Pos]) -> Vec<[u8; 2]> {
    positions.iter().map(|p| [p.x, p.y]).collect()
}

/// The state and the turns so far: the next turn's counter, from 0 as in the log.
struct Game {
    state: State,
    turns: u32,
}

fn steps(initial: &Initial, events: &[Event]) -> Vec<Step> {
    let start = Game {
        state: State::new(initial),
        turns: 0,
    };
    let starts = |game: &Game, event: &Event| match event {
        Event::Turn { .. } => Some(game.turns),
        _ => None,
    };
    let apply = |game: &mut Game, event: &Event| {
        if matches!(event, Event::Turn { .. }) {
            game.turns += 1;
        }
        game.state.apply(event);
    };
    build(events, start, starts, apply, draw)
}

fn amounts(r: Resources) -> [u32; 3] {
    [r.wood, r.food, r.gold]
}

fn draw(game: &Game, events: &[Event]) -> Value {
    let state = &game.state;
    let board = state.board();
    let mut moves = Vec::new();
    let mut fights = Vec::new();
    let mut captured = None;
    for event in events {
        match *event {
            Event::Moved { army, to } => moves.push([army.pos.x, army.pos.y, to.x, to.y]),
            Event::Fight { at, .. } | Event::Drowned { at, .. } => fights.push([at.x, at.y]),
            Event::Captured { army, home, .. } => {
                moves.push([army.pos.x, army.pos.y, home.x, home.y]);
                captured = Some(army.owner);
            }
            _ => {}
        }
    }
    let resource = |wanted: Resource| -> Vec<[u8; 2]> {
        board
            .positions()
            .filter(|&p| board.terrain(p) == Some(Terrain::Resource(wanted)))
            .map(|p| [p.x, p.y])
            .collect()
    };
    let armies: Vec<Value> = board
        .armies()
        .iter()
        .map(|a| json!([a.pos.x, a.pos.y, a.kind.letter().to_string(), a.owner]))
        .collect();
    json!({
        "year": state.year(),
        "seat": state.seat(),
        "resources": state.resources().map(amounts),
        "wood": resource(Resource::Wood),
        "food": resource(Resource::Food),
        "gold": resource(Resource::Gold),
        "armies": armies,
        "moves": moves,
        "fights": fights,
        "captured": captured,
    })
}
