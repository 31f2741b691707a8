//! The rules of `tcg` as data and pure functions: the statistics keys, the checks of a
//! rules file and of an action, and the legal actions of a seat.

use super::*;

use arena_sdk::Seat;
use arena_sdk::tcg::{Action, CardKind, PlayAs, Rules, Target};
use std::collections::BTreeSet;

/// The statistics keys of `tcg`, for both seats in every match.
pub const STAT_KEYS: [&str; 10] = [
    "damage_dealt",
    "healing",
    "cards_played",
    "cards_drawn",
    "cards_discarded",
    "bleed_out_damage",
    "minions_played",
    "minions_killed",
    "mana_wasted",
    "turns",
];

/// Check a rules configuration; the message says what is wrong.
pub(super) fn validate(rules: &Rules) -> Result<(), String> {
    let check = |ok: bool, message: &str| if ok { Ok(()) } else { Err(message.to_owned()) };
    check(
        (1..=1000).contains(&rules.starting_health),
        "starting_health must be 1..=1000",
    )?;
    check(
        (1..=100).contains(&rules.max_mana),
        "max_mana must be 1..=100",
    )?;
    check(
        (1..=20).contains(&rules.max_hand),
        "max_hand must be 1..=20",
    )?;
    check(
        rules.opening_hand <= rules.max_hand,
        "opening_hand must not exceed max_hand",
    )?;
    check(
        (1..=100).contains(&rules.deck_size),
        "deck_size must be 1..=100",
    )?;
    check(
        rules.deck_size > rules.opening_hand + 1,
        "deck_size must exceed opening_hand + 1",
    )?;
    check(
        (1..=20).contains(&rules.max_minions),
        "max_minions must be 1..=20",
    )?;
    check(
        (1..=rules.deck_size).contains(&rules.max_copies),
        "max_copies must be 1..=deck_size",
    )?;
    check(
        (1..=10_000).contains(&rules.turn_cap),
        "turn_cap must be 1..=10000",
    )?;
    let mut ids = BTreeSet::new();
    for card in &rules.pool {
        let where_ = format!("pool card `{}`", card.id);
        if card.id.is_empty()
            || !card
                .id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(format!(
                "{where_}: ids use letters, digits, `-` and `_` only"
            ));
        }
        if !ids.insert(card.id.as_str()) {
            return Err(format!("{where_} appears twice in the pool"));
        }
        if card.cost < 0 || card.damage < 0 || card.heal < 0 || card.draw < 0 {
            return Err(format!("{where_}: cost and amounts must not be negative"));
        }
        if card.draw > rules.deck_size as i32 {
            return Err(format!(
                "{where_}: draws {} cards; a deck has only {}",
                card.draw, rules.deck_size
            ));
        }
        let stray = match card.kind {
            CardKind::Damage => card.heal != 0 || card.draw != 0,
            CardKind::Heal => card.damage != 0 || card.draw != 0,
            CardKind::Draw => card.damage != 0 || card.heal != 0,
        };
        if stray {
            return Err(format!(
                "{where_}: only the amount of its kind may be non-zero"
            ));
        }
    }
    let pool = rules.card_pool();
    if pool.cards.is_empty() {
        return Err("no card of the pool is allowed by the variations in force".to_owned());
    }
    let decks = [
        ("default deck", Some(&rules.deck)),
        ("seat 0's deck (deck0)", rules.deck0.as_ref()),
        ("seat 1's deck (deck1)", rules.deck1.as_ref()),
    ];
    for (name, deck) in decks {
        let Some(deck) = deck else { continue };
        for id in deck {
            if pool.card(id).is_none() {
                return Err(format!(
                    "{name}: card `{id}` is not in the pool in use (is its variation on?)"
                ));
            }
        }
        if deck.len() != rules.deck_size as usize {
            return Err(format!(
                "{name} has {} cards, deck_size is {}",
                deck.len(),
                rules.deck_size
            ));
        }
    }
    if rules.custom_decks
        && pool.cards.len() as u64 * u64::from(rules.max_copies) < u64::from(rules.deck_size)
    {
        return Err("custom decks: the pool is too small to build a deck".to_owned());
    }
    Ok(())
}

/// An action the rules accepted, with everything looked up.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Move {
    End,
    Spell { uid: u32, target: Victim },
    Summon { uid: u32 },
    Heal { uid: u32, amount: i32 },
    Draw { uid: u32, cards: i32 },
    AttackHero { minion: u32 },
    Fight { attacker: u32, defender: u32 },
}

/// Check `action` of the active seat against the rules; the error says what is wrong.
pub(super) fn check(
    rules: &Rules,
    state: &State,
    seat: Seat,
    action: &Action,
) -> Result<Move, String> {
    let side = &state.sides[usize::from(seat)];
    let enemy_minion = |id: u32| match state.minion(id) {
        Some(m) if m.owner != seat => Ok(()),
        Some(_) => Err(format!("minion #{id} is your own")),
        None => Err(format!("there is no minion #{id}")),
    };
    match *action {
        Action::EndTurn => Ok(Move::End),
        Action::PlayCard {
            card,
            play_as,
            target,
        } => {
            let Some(instance) = side.hand.iter().find(|c| c.uid == card) else {
                return Err(format!("card #{card} is not in your hand"));
            };
            let c = &instance.card;
            if c.cost > side.mana {
                return Err(format!(
                    "{} (#{card}) costs {} mana, you have {}",
                    c.id, c.cost, side.mana
                ));
            }
            match c.kind {
                CardKind::Heal => Ok(Move::Heal {
                    uid: card,
                    amount: c.heal,
                }),
                CardKind::Draw => Ok(Move::Draw {
                    uid: card,
                    cards: c.draw,
                }),
                CardKind::Damage => match play_as {
                    PlayAs::Spell => match target {
                        Target::Hero => Ok(Move::Spell {
                            uid: card,
                            target: Victim::Hero(1 - seat),
                        }),
                        Target::Minion(id) => {
                            if !rules.minions {
                                return Err("minions are off in these rules".to_owned());
                            }
                            if c.damage == 0 {
                                return Err(format!(
                                    "{} does no damage: play it at the hero",
                                    c.id
                                ));
                            }
                            enemy_minion(id)?;
                            Ok(Move::Spell {
                                uid: card,
                                target: Victim::Minion(id),
                            })
                        }
                    },
                    PlayAs::Minion => {
                        if !rules.minions {
                            return Err("minions are off in these rules".to_owned());
                        }
                        if c.damage == 0 {
                            return Err(format!(
                                "{} does no damage: a minion needs at least 1 health",
                                c.id
                            ));
                        }
                        let mine = state.board.iter().filter(|m| m.owner == seat).count();
                        if mine >= rules.max_minions as usize {
                            return Err(format!(
                                "your board is full ({} minions)",
                                rules.max_minions
                            ));
                        }
                        Ok(Move::Summon { uid: card })
                    }
                    PlayAs::Heal => {
                        if !rules.any_card_heals {
                            return Err(
                                "playing damage cards as heals is off in these rules".to_owned()
                            );
                        }
                        if c.damage == 0 {
                            return Err(format!(
                                "`{}` does no damage, so it heals nothing: play it at the enemy hero",
                                c.id
                            ));
                        }
                        Ok(Move::Heal {
                            uid: card,
                            amount: c.damage,
                        })
                    }
                },
            }
        }
        Action::Attack { minion, target } => {
            if !rules.minions {
                return Err("minions are off in these rules".to_owned());
            }
            let Some(m) = state.minion(minion) else {
                return Err(format!("there is no minion #{minion}"));
            };
            if m.owner != seat {
                return Err(format!("minion #{minion} is not yours"));
            }
            if m.asleep {
                return Err(format!("minion #{minion} is asleep (played this turn)"));
            }
            if m.attacked {
                return Err(format!("minion #{minion} has already attacked this turn"));
            }
            match target {
                Target::Hero => Ok(Move::AttackHero { minion }),
                Target::Minion(id) => {
                    enemy_minion(id)?;
                    Ok(Move::Fight {
                        attacker: minion,
                        defender: id,
                    })
                }
            }
        }
    }
}

/// Every legal action of `seat` now, in a fixed order (hand order, then board order).
pub(super) fn legal_actions(rules: &Rules, state: &State, seat: Seat) -> Vec<Action> {
    let side = &state.sides[usize::from(seat)];
    let enemies: Vec<u32> = state
        .board
        .iter()
        .filter(|m| m.owner != seat)
        .map(|m| m.id)
        .collect();
    let mut candidates = Vec::new();
    for instance in &side.hand {
        let card = instance.uid;
        let play = |play_as, target| Action::PlayCard {
            card,
            play_as,
            target,
        };
        match instance.card.kind {
            CardKind::Heal => candidates.push(play(PlayAs::Heal, Target::Hero)),
            CardKind::Draw => candidates.push(play(PlayAs::Spell, Target::Hero)),
            CardKind::Damage => {
                candidates.push(play(PlayAs::Spell, Target::Hero));
                candidates.extend(
                    enemies
                        .iter()
                        .map(|&id| play(PlayAs::Spell, Target::Minion(id))),
                );
                candidates.push(play(PlayAs::Minion, Target::Hero));
                if instance.card.damage > 0 {
                    candidates.push(play(PlayAs::Heal, Target::Hero));
                }
            }
        }
    }
    for minion in state.board.iter().filter(|m| m.owner == seat) {
        candidates.push(Action::Attack {
            minion: minion.id,
            target: Target::Hero,
        });
        candidates.extend(enemies.iter().map(|&id| Action::Attack {
            minion: minion.id,
            target: Target::Minion(id),
        }));
    }
    let mut legal: Vec<Action> = candidates
        .into_iter()
        .filter(|a| check(rules, state, seat, a).is_ok())
        .collect();
    legal.push(Action::EndTurn);
    legal
}
