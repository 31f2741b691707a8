//! Tcg frames for the browser viewer: one step per turn start and per action (a card
//! played, a minion attack), the state folded by the same [`State::apply`] the rules and
//! the terminal picture use. Drawn by the viewer's `tcg.js`.
//!
//! `fixed`: `{max_health, first_player, cards: {id: card}}` (every card of both decks, as
//! the SDK's `Card`). A step's `state`: `active`, `heroes[seat]` = `{health, mana, slots,
//! deck, hand: [card id], discarded}`, `board`: `[{id, owner, card, attack, health, asleep,
//! attacked}]`, `played`: `{seat, card, as}` or null, `attacks`: `[[minion, "hero", seat]
//! or [minion, "minion", id]]`, `damage`: `[[victim, amount]]` (victim as in the events).

use super::play::State;
use super::{Event, Initial};
use crate::frames::{Frames, Step, build};
use serde_json::{Map, Value, json};

pub(super) fn frames(initial: &Initial, events: &[Event]) -> Frames {
    let mut cards = Map::new();
    for card in initial.decks.iter().flatten() {
        cards
            .entry(card.card.id.clone())
            .or_insert_with(|| serde_json::to_value(&card.card).unwrap_or(Value::Null));
    }
    let fixed = json!({
        "max_health": initial.starting_health,
        "first_player": initial.first_player,
        "cards": cards,
    });
    Frames {
        fixed,
        steps: steps(initial, events),
    }
}

fn steps(initial: &Initial, events: &[Event]) -> Vec<Step> {
    let starts = |state: &State, event: &Event| match *event {
        Event::TurnStart { turn, .. } => Some(turn),
        Event::Play { .. } | Event::MinionAttack { .. } | Event::Fight { .. } => Some(state.turn),
        _ => None,
    };
    build(events, State::new(initial), starts, State::apply, draw)
}

fn draw(state: &State, events: &[Event]) -> Value {
    let heroes: Vec<Value> = state
        .sides
        .iter()
        .map(|side| {
            json!({
                "health": side.health,
                "mana": side.mana,
                "slots": side.slots,
                "deck": side.deck.len(),
                "hand": side.hand.iter().map(|c| c.card.id.as_str()).collect::<Vec<_>>(),
                "discarded": side.discarded,
            })
        })
        .collect();
    let board: Vec<Value> = state
        .board
        .iter()
        .map(|m| {
            json!({
                "id": m.id,
                "owner": m.owner,
                "card": m.card,
                "attack": m.attack,
                "health": m.health,
                "asleep": m.asleep,
                "attacked": m.attacked,
            })
        })
        .collect();
    let mut played = Value::Null;
    let mut attacks = Vec::new();
    let mut damage = Vec::new();
    for event in events {
        match event {
            Event::Play {
                seat,
                card,
                play_as,
                ..
            } => played = json!({"seat": seat, "card": card, "as": play_as}),
            Event::MinionAttack { minion, target, .. } => {
                attacks.push(json!([minion, "hero", target]));
            }
            Event::Fight {
                attacker, defender, ..
            } => attacks.push(json!([attacker, "minion", defender])),
            Event::Damage { target, amount, .. } => damage.push(json!([target, amount])),
            _ => {}
        }
    }
    json!({
        "turn": state.turn,
        "active": state.active,
        "heroes": heroes,
        "board": board,
        "played": played,
        "attacks": attacks,
        "damage": damage,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MatchConfig, NativePlayer, Ruleset, run_match};
    use arena_sdk::Bot;
    use arena_sdk::tcg::{Action, DeckChoice, Observation, SetupRequest, Tcg};

    /// Plays the first affordable card at the enemy hero, else ends the turn.
    struct Burn;
    impl Bot<Tcg> for Burn {
        fn setup(&mut self, _: &SetupRequest) -> DeckChoice {
            DeckChoice::default()
        }
        fn act(&mut self, o: &Observation) -> Action {
            let mana = o.heroes[usize::from(o.seat)].mana;
            match o.hand.iter().find(|c| c.card.cost <= mana) {
                Some(c) => Action::PlayCard {
                    card: c.uid,
                    play_as: Default::default(),
                    target: Default::default(),
                },
                None => Action::EndTurn,
            }
        }
    }

    #[test]
    fn steps_per_action_end_in_the_final_health() {
        let (mut a, mut b) = (NativePlayer::new(Burn), NativePlayer::new(Burn));
        let record = run_match::<Tcg>(&MatchConfig::new(Default::default(), 3), [&mut a, &mut b]);
        let initial = record.replay.initial.clone().unwrap();
        let events: Vec<Event> = record.replay.events().cloned().collect();
        let frames = Tcg::frames(&initial, &events).unwrap();
        let actions = events
            .iter()
            .filter(|e| matches!(e, Event::TurnStart { .. } | Event::Play { .. }))
            .count();
        assert_eq!(frames.steps.len(), actions + 1);
        let start = &frames.steps[0].state;
        assert_eq!(start["heroes"][0]["health"], initial.starting_health);
        let mut state = State::new(&initial);
        for e in &events {
            state.apply(e);
        }
        let last = &frames.steps.last().unwrap().state;
        assert_eq!(last["heroes"][0]["health"], state.health()[0]);
        assert_eq!(last["heroes"][1]["health"], state.health()[1]);
        let loser = 1 - usize::from(record.outcome.winner.expect("a winner"));
        assert!(state.health()[loser] <= 0, "{:?}", state.health());
        assert!(
            frames.fixed["cards"]
                .as_object()
                .is_some_and(|c| !c.is_empty())
        );
    }
}
