//! A person's input in battle: a team by numbers, then a target id or `skill`.

use crate::human::{Dialogue, Interactive, Step, numbers};
use arena_sdk::battle::{Action, Battle, Effect, Observation, SetupRequest, TeamChoice};
use std::fmt::Write as _;

impl Interactive for Battle {
    const HOW_TO_PLAY: &'static str = include_str!("how-to-play.txt");
    const HINT: &'static str = "a target id or `skill`";

    fn setup_prompt(request: &SetupRequest) -> Option<String> {
        let mut text = format!("pick {} robots by number:", request.team_size);
        for (i, kind) in request.roster.iter().enumerate() {
            let _ = write!(text, "\n  {}. {}", i + 1, kind.name());
        }
        Some(text)
    }

    fn parse_setup(request: &SetupRequest, line: &str) -> Result<TeamChoice, String> {
        let size = usize::try_from(request.team_size).unwrap_or(usize::MAX);
        if line.is_empty() {
            return Ok(TeamChoice {
                team: request.roster.iter().copied().take(size).collect(),
            });
        }
        let picked = numbers(line, request.roster.len())?;
        let mut team: Vec<_> = picked.iter().map(|&i| request.roster[i]).collect();
        team.dedup();
        let distinct = team.iter().collect::<std::collections::BTreeSet<_>>().len();
        if picked.len() != size || distinct != size {
            return Err(format!("pick exactly {size} different robots"));
        }
        Ok(TeamChoice { team })
    }

    const PICTURE_AT_PROMPT: bool = true;
    const NUMBERED: bool = false;

    /// The acting robot's effective stats (the picture has integrity, cooldowns and
    /// effects), and why an enemy left alive is not a target.
    fn show(obs: &Observation, _: Option<&SetupRequest>) -> String {
        let me = obs.me();
        let mut text = format!(
            "turn {}/{}: your #{} {} acts (armor {} power {} speed {} resistance {})",
            obs.turn,
            obs.turn_cap,
            me.id,
            me.kind.name(),
            me.armor,
            me.power,
            me.speed,
            me.resistance
        );
        let enemies = obs
            .units
            .iter()
            .filter(|u| u.owner != obs.seat && !u.destroyed);
        let taunting: Vec<String> = enemies
            .clone()
            .filter(|u| u.has(Effect::Taunt))
            .map(|u| format!("#{}", u.id))
            .collect();
        for u in enemies.filter(|u| !obs.legal_targets.contains(&u.id)) {
            // The rules' order: a taunting enemy must be attacked first, and a stealthed
            // one cannot be while another can.
            let why = if !taunting.is_empty() {
                let verb = if taunting.len() == 1 {
                    "taunts"
                } else {
                    "taunt"
                };
                format!("{} {verb}", taunting.join(" and "))
            } else {
                "it is stealthed".to_owned()
            };
            let _ = write!(
                text,
                "\n  #{} {} is not a target: {why}",
                u.id,
                u.kind.name()
            );
        }
        text
    }

    fn choices(obs: &Observation, _: Option<&SetupRequest>) -> Vec<(String, Action)> {
        let mut list: Vec<_> = obs
            .legal_targets
            .iter()
            .map(|&t| {
                let name = obs.units.get(usize::from(t)).map_or("?", |u| u.kind.name());
                (format!("attack {t} ({name})"), Action::Attack { target: t })
            })
            .collect();
        if obs.skill_ready {
            list.push(("skill".to_owned(), Action::Skill));
        }
        list
    }

    fn parse(obs: &Observation, _: Option<&SetupRequest>, line: &str) -> Result<Action, String> {
        let word = line.trim_start_matches("attack").trim();
        if word.eq_ignore_ascii_case("skill") {
            return if obs.skill_ready {
                Ok(Action::Skill)
            } else {
                Err("the skill is not ready".into())
            };
        }
        let target: u8 = word
            .parse()
            .map_err(|_| format!("`{line}`: type `attack ID` or `skill`"))?;
        if obs.legal_targets.contains(&target) {
            Ok(Action::Attack { target })
        } else {
            Err(format!(
                "{target} is not a legal target ({:?})",
                obs.legal_targets
            ))
        }
    }

    fn dialogue<'a>(
        obs: &'a Observation,
        setup: Option<&'a SetupRequest>,
    ) -> Box<dyn Dialogue<Action> + 'a> {
        Box::new(Targets { obs, setup })
    }
}

/// A target by its id, or `skill`: the numbered list and "a target id" would clash, so the
/// choices are listed without numbers.
struct Targets<'a> {
    obs: &'a Observation,
    setup: Option<&'a SetupRequest>,
}

impl Dialogue<Action> for Targets<'_> {
    fn step(&mut self, line: Option<&str>) -> Step<Action> {
        let prompt = "target id or `skill`".to_owned();
        let Some(line) = line else {
            let mut say = vec![Battle::show(self.obs, self.setup)];
            say.extend(
                Battle::choices(self.obs, None)
                    .into_iter()
                    .map(|(text, _)| format!("  {text}")),
            );
            return Step::Ask { say, prompt };
        };
        match Battle::parse(self.obs, None, line) {
            Ok(action) => Step::Answer(action),
            Err(reason) => Step::Ask {
                say: vec![format!("invalid: {reason}; try again")],
                prompt,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::human::{first_requests, typed};

    #[test]
    fn a_target_is_its_id_and_a_wrong_one_is_asked_again_with_the_reason() {
        let (setup, obs) = first_requests::<Battle>(3);
        let target = obs.legal_targets[0];
        let mut dialogue = Battle::dialogue(&obs, Some(&setup));
        let (answer, said) = typed(dialogue.as_mut(), &["99", &target.to_string()]);
        assert_eq!(answer, Some(Action::Attack { target }));
        assert!(
            said.iter()
                .any(|l| l.starts_with("invalid: 99 is not a legal target")),
            "{said:?}"
        );
        assert!(
            said.iter()
                .filter(|l| l.starts_with("> "))
                .all(|l| l == "> target id or `skill`")
        );
    }

    #[test]
    fn a_team_is_picked_by_roster_numbers() {
        let (setup, _) = first_requests::<Battle>(3);
        let size = setup.team_size as usize;
        let line: Vec<String> = (1..=size).map(|n| n.to_string()).collect();
        let choice = Battle::parse_setup(&setup, &line.join(" ")).unwrap();
        assert_eq!(choice.team, setup.roster[..size].to_vec());
        assert!(Battle::parse_setup(&setup, "1").is_err(), "too few robots");
    }
}
