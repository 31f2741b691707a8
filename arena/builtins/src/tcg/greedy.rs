//! `greedy`: the most damage per mana at the enemy hero (see [`Greedy`]).

use super::*;

use arena_sdk::tcg::{
    Action, CardInstance, CardKind, DeckChoice, Observation, PlayAs, Rules, SetupRequest, Target,
    Tcg,
};
use arena_sdk::{Bot, MatchStart};

/// What a legal play does, looked up in the observation.
fn play_effect(observation: &Observation, action: &Action) -> Option<(CardInstance, PlayAs)> {
    match action {
        Action::PlayCard { card, play_as, .. } => {
            observation.hand_card(*card).map(|c| (c.clone(), *play_as))
        }
        _ => None,
    }
}

/// Greedy: most damage per mana at the enemy hero, every minion attacks the hero, heals
/// when health is a third or less.
#[derive(Debug, Default)]
pub struct Greedy {
    rules: Rules,
}

impl Bot<Tcg> for Greedy {
    fn start(&mut self, start: &MatchStart<Tcg>) {
        self.rules = start.rules.clone();
    }

    fn setup(&mut self, request: &SetupRequest) -> DeckChoice {
        if !request.choose_deck {
            return DeckChoice::default();
        }
        // Same curve as the default deck, each slot the most damage for its cost.
        curve_deck(request, |c| match c.kind {
            CardKind::Damage => f64::from(c.damage),
            _ => -1.0,
        })
    }

    fn act(&mut self, observation: &Observation) -> Action {
        let me = observation.me();
        let max_health = self.rules.starting_health;
        if me.health * 3 <= max_health {
            let heal = observation
                .legal
                .iter()
                .filter_map(|a| {
                    let (card, play_as) = play_effect(observation, a)?;
                    let amount = match (card.card.kind, play_as) {
                        (CardKind::Heal, _) => card.card.heal,
                        (CardKind::Damage, PlayAs::Heal) => card.card.damage,
                        _ => return None,
                    };
                    let restored = amount.min(max_health - me.health);
                    (restored > 0).then_some((restored, -card.card.cost, *a))
                })
                .max_by_key(|&(restored, cheap, _)| (restored, cheap));
            if let Some((_, _, action)) = heal {
                return action;
            }
        }
        let attack = observation.legal.iter().find(|a| {
            matches!(
                a,
                Action::Attack {
                    target: Target::Hero,
                    ..
                }
            )
        });
        if let Some(action) = attack {
            return *action;
        }
        // Damage spells at the hero by damage per mana (free damage first), then card
        // drawers, then duds.
        let mut best: Option<(u8, f64, i32, Action)> = None;
        for action in &observation.legal {
            let Some((card, play_as)) = play_effect(observation, action) else {
                continue;
            };
            let c = &card.card;
            let (class, ratio) = match (c.kind, play_as) {
                (CardKind::Damage, PlayAs::Spell)
                    if c.damage > 0
                        && matches!(
                            action,
                            Action::PlayCard {
                                target: Target::Hero,
                                ..
                            }
                        ) =>
                {
                    let ratio = if c.cost == 0 {
                        f64::INFINITY
                    } else {
                        f64::from(c.damage) / f64::from(c.cost)
                    };
                    (3, ratio)
                }
                (CardKind::Draw, _) => (2, 0.0),
                (CardKind::Damage, PlayAs::Spell) if c.damage == 0 => (1, 0.0),
                _ => continue,
            };
            let better = best.as_ref().is_none_or(|&(bc, br, bd, _)| {
                class
                    .cmp(&bc)
                    .then(ratio.total_cmp(&br))
                    .then(c.damage.cmp(&bd))
                    .is_gt()
            });
            if better {
                best = Some((class, ratio, c.damage, *action));
            }
        }
        best.map_or(Action::EndTurn, |(_, _, _, action)| action)
    }
}
