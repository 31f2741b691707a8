//! A person's input in dungeon: the party by class numbers, then `ABILITY TARGET`.

use crate::human::{Interactive, numbers};
use arena_sdk::dungeon::{
    Ability, Action, Class, Dungeon, Observation, SetupChoice, SetupRequest, Target,
};
use std::fmt::Write as _;

fn target_text(obs: &Observation, target: Target) -> String {
    match target {
        Target::Hero(id) => obs
            .party
            .get(usize::from(id))
            .map_or("?".into(), |h| h.name.clone()),
        Target::Monster(id) => obs
            .monsters
            .get(usize::from(id))
            .map_or("?".into(), |m| m.name.clone()),
    }
}

impl Interactive for Dungeon {
    const HOW_TO_PLAY: &'static str = include_str!("how-to-play.txt");
    const HINT: &'static str = "`ABILITY TARGET`";

    /// The example is a legal answer of this decision, so it names a monster (or
    /// hero) that is there.
    fn hint(obs: &Observation) -> String {
        let example = obs
            .legal
            .iter()
            .find(|a| matches!(a.target, Target::Monster(_)))
            .or(obs.legal.first());
        match example {
            Some(a) => format!(
                "{} (e.g. `{} {}`)",
                Self::HINT,
                a.ability.name(),
                target_text(obs, a.target)
            ),
            None => Self::HINT.to_owned(),
        }
    }

    fn setup_prompt(request: &SetupRequest) -> Option<String> {
        let mut text = format!(
            "pick {} classes by number (repeats allowed):",
            request.party_size
        );
        for (i, c) in request.classes.iter().enumerate() {
            let _ = write!(text, "\n  {}. {}", i + 1, c.class.name());
        }
        Some(text)
    }

    fn parse_setup(request: &SetupRequest, line: &str) -> Result<SetupChoice, String> {
        let size = usize::try_from(request.party_size).unwrap_or(usize::MAX);
        if line.is_empty() {
            let party = Class::ALL.iter().copied().cycle().take(size).collect();
            return Ok(SetupChoice { party });
        }
        let picked = numbers(line, request.classes.len())?;
        if picked.len() != size {
            return Err(format!("pick exactly {size} classes"));
        }
        Ok(SetupChoice {
            party: picked.iter().map(|&i| request.classes[i].class).collect(),
        })
    }

    const PICTURE_AT_PROMPT: bool = true;

    /// Which hero acts (the picture has every hero's hp, mp and stats and each monster's
    /// next ability); the choices give each ability's mana cost.
    fn show(obs: &Observation, _: Option<&SetupRequest>) -> String {
        let name = obs
            .party
            .iter()
            .find(|h| h.id == obs.acting)
            .map_or("?", |h| h.name.as_str());
        format!(
            "wave {}/{}, turn {}: {name} acts",
            obs.wave, obs.waves, obs.turn
        )
    }

    fn choices(obs: &Observation, _: Option<&SetupRequest>) -> Vec<(String, Action)> {
        obs.legal
            .iter()
            .map(|a| {
                let cost = match a.ability.mp_cost() {
                    0 => String::new(),
                    mp => format!(" ({mp} mp)"),
                };
                (
                    format!("{} {}{cost}", a.ability.name(), target_text(obs, a.target)),
                    *a,
                )
            })
            .collect()
    }

    fn parse(obs: &Observation, _: Option<&SetupRequest>, line: &str) -> Result<Action, String> {
        let mut words = line.split_whitespace();
        let (Some(ability), target, None) = (words.next(), words.next(), words.next()) else {
            return Err(format!("`{line}`: type {}", Self::hint(obs)));
        };
        let word = ability.to_lowercase();
        // Unknown names deserialize to `Ability::Unknown`: compare the name back.
        let ability = serde_json::from_value::<Ability>(word.clone().into())
            .ok()
            .filter(|a| a.name() == word)
            .ok_or_else(|| format!("`{ability}` is not an ability"))?;
        let found: Vec<&Action> = obs
            .legal
            .iter()
            .filter(|a| a.ability == ability)
            .filter(|a| target.is_none_or(|t| target_text(obs, a.target).eq_ignore_ascii_case(t)))
            .collect();
        match found.as_slice() {
            [one] => Ok(**one),
            [] => Err(format!("`{line}` is not legal now")),
            _ => Err(format!("`{line}`: say the target too")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::human::{first_requests, typed};

    #[test]
    fn a_number_or_ability_and_target_is_a_legal_command() {
        let (setup, obs) = first_requests::<Dungeon>(4);
        let choices = Dungeon::choices(&obs, None);
        assert!(!choices.is_empty());
        let mut dialogue = Dungeon::dialogue(&obs, Some(&setup));
        let (answer, said) = typed(dialogue.as_mut(), &["fly away", "1"]);
        assert_eq!(answer, Some(choices[0].1));
        assert!(
            said.iter()
                .any(|l| l == "invalid: `fly` is not an ability; try again"),
            "{said:?}"
        );
        let first = obs.legal[0];
        let line = format!(
            "{} {}",
            first.ability.name(),
            target_text(&obs, first.target)
        );
        assert_eq!(Dungeon::parse(&obs, None, &line), Ok(first));
    }
}
