//! A person's input in tcg: a deck choice, then the numbered plays, attacks and `end`.

use crate::human::Interactive;
use arena_sdk::tcg::{Action, DeckChoice, Observation, PlayAs, SetupRequest, Target, Tcg};
use std::fmt::Write as _;

fn text(obs: &Observation, action: &Action) -> String {
    match action {
        Action::PlayCard {
            card,
            play_as,
            target,
        } => {
            let index = obs
                .hand
                .iter()
                .position(|c| c.uid == *card)
                .map_or(0, |i| i + 1);
            let name = obs
                .hand
                .get(index.wrapping_sub(1))
                .map_or("?", |c| &c.card.id);
            let target = match target {
                Target::Hero => "hero".to_owned(),
                Target::Minion(id) => format!("minion {id}"),
            };
            format!("play {index} ({name}) as {play_as:?} at {target}").to_lowercase()
        }
        Action::Attack { minion, target } => match target {
            Target::Hero => format!("attack {minion} hero"),
            Target::Minion(id) => format!("attack {minion} {id}"),
        },
        Action::EndTurn => "end".to_owned(),
    }
}

impl Interactive for Tcg {
    const HOW_TO_PLAY: &'static str = include_str!("how-to-play.txt");
    const HINT: &'static str = "`play N`, `attack ID hero|ID`, `end`";

    fn setup_prompt(request: &SetupRequest) -> Option<String> {
        request.choose_deck.then(|| {
            format!(
                "your deck: card ids separated by spaces (Enter: the default deck {})",
                request.default_deck.join(" ")
            )
        })
    }

    fn parse_setup(request: &SetupRequest, line: &str) -> Result<DeckChoice, String> {
        if line.is_empty() {
            return Ok(DeckChoice { deck: None });
        }
        let deck: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        request.pool.check(&deck).map_err(|e| e.to_string())?;
        Ok(DeckChoice { deck: Some(deck) })
    }

    fn show(obs: &Observation, _: Option<&SetupRequest>) -> String {
        let me = usize::from(obs.seat.min(1));
        let (mine, theirs) = (&obs.heroes[me], &obs.heroes[1 - me]);
        let mut out = format!(
            "turn {}/{} — you: health {} mana {}/{}, deck {}; enemy: health {}, hand {}, deck {}",
            obs.turn,
            obs.turn_cap,
            mine.health,
            mine.mana,
            mine.mana_slots,
            mine.deck_size,
            theirs.health,
            theirs.hand_size,
            theirs.deck_size
        );
        out += "\nhand:";
        for (i, c) in obs.hand.iter().enumerate() {
            let _ = write!(out, " [{}] {} (cost {})", i + 1, c.card.id, c.card.cost);
        }
        out += "\nboard:";
        for m in &obs.board {
            let side = if m.owner == obs.seat {
                "yours"
            } else {
                "enemy"
            };
            let _ = write!(
                out,
                "\n  minion {} {} {}/{} ({side}{})",
                m.id,
                m.card,
                m.attack,
                m.health,
                if m.can_attack { ", can attack" } else { "" }
            );
        }
        out
    }

    fn choices(obs: &Observation, _: Option<&SetupRequest>) -> Vec<(String, Action)> {
        obs.legal.iter().map(|a| (text(obs, a), *a)).collect()
    }

    fn parse(obs: &Observation, _: Option<&SetupRequest>, line: &str) -> Result<Action, String> {
        let words: Vec<String> = line.split_whitespace().map(str::to_lowercase).collect();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let action = match words.as_slice() {
            ["end"] | ["end", "turn"] => Action::EndTurn,
            ["play", n, rest @ ..] => {
                let index: usize = n
                    .parse()
                    .map_err(|_| format!("`{n}` is not a hand position"))?;
                let card = index
                    .checked_sub(1)
                    .and_then(|i| obs.hand.get(i))
                    .ok_or_else(|| format!("no card {index} in your hand"))?
                    .uid;
                let mut play_as = None;
                let mut target = Target::Hero;
                for word in rest {
                    match *word {
                        "as" | "at" | "hero" => {}
                        "spell" => play_as = Some(PlayAs::Spell),
                        "minion" => play_as = Some(PlayAs::Minion),
                        "heal" => play_as = Some(PlayAs::Heal),
                        id => {
                            target = Target::Minion(
                                id.parse().map_err(|_| format!("`{id}`: not a minion id"))?,
                            )
                        }
                    }
                }
                // The legal list fills in what was not said (`play 3` of a minion card).
                return obs
                    .legal
                    .iter()
                    .find(|a| match a {
                        Action::PlayCard {
                            card: c,
                            play_as: p,
                            target: t,
                        } => *c == card && play_as.is_none_or(|want| want == *p) && *t == target,
                        _ => false,
                    })
                    .cloned()
                    .ok_or_else(|| format!("`{line}` is not a legal play now"));
            }
            ["attack", m, t] => Action::Attack {
                minion: m.parse().map_err(|_| format!("`{m}` is not a minion id"))?,
                target: if *t == "hero" {
                    Target::Hero
                } else {
                    Target::Minion(t.parse().map_err(|_| format!("`{t}` is not a minion id"))?)
                },
            },
            _ => return Err(format!("`{line}`: type {}", Self::HINT)),
        };
        if obs.legal.contains(&action) {
            Ok(action)
        } else {
            Err(format!("`{line}` is not legal now"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::human::{first_requests, typed};

    #[test]
    fn end_ends_the_turn_and_a_card_not_in_hand_is_refused_with_the_reason() {
        let (setup, obs) = first_requests::<Tcg>(5);
        let mut dialogue = Tcg::dialogue(&obs, Some(&setup));
        let (answer, said) = typed(dialogue.as_mut(), &["play 99", "end"]);
        assert_eq!(answer, Some(Action::EndTurn));
        assert!(
            said.contains(&"invalid: no card 99 in your hand; try again".to_owned()),
            "{said:?}"
        );
    }

    #[test]
    fn every_numbered_choice_is_its_action() {
        let (_, obs) = first_requests::<Tcg>(5);
        for (n, (_, action)) in Tcg::choices(&obs, None).into_iter().enumerate() {
            let mut dialogue = Tcg::dialogue(&obs, None);
            assert_eq!(
                typed(dialogue.as_mut(), &[&(n + 1).to_string()]).0,
                Some(action)
            );
        }
    }
}
