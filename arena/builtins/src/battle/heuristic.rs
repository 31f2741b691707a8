//! `heuristic`: a fixed all-round team and simple rules.

use super::*;

use arena_sdk::Bot;
use arena_sdk::battle::{
    Action, Battle, BotType, Observation, SetupRequest, Skill, TeamChoice, Unit, UnitId,
};

/// A fixed all-round team and simple rules: the target it expects to destroy in the fewest
/// hits, a skill when an obvious condition holds.
#[derive(Debug, Clone, Default)]
pub struct Heuristic {
    team: Option<Vec<BotType>>,
}

impl Heuristic {
    /// The heuristic's play with a team of your choice (for experiments and tests).
    pub fn with_team(team: Vec<BotType>) -> Self {
        Heuristic { team: Some(team) }
    }

    fn skill_is_useful(observation: &Observation) -> bool {
        let me = observation.me();
        let team: Vec<&Unit> = observation.team(me.owner).collect();
        match me.kind.skill() {
            None => false,
            Some(Skill::Repair) => team.iter().map(|u| missing(u)).sum::<i32>() >= 300,
            Some(Skill::Redistribute) => team.iter().any(|u| ratio(u) < 0.4),
            Some(Skill::Taunt) => team.iter().any(|u| u.id != me.id && ratio(u) < 0.6),
            Some(Skill::Stealth) => ratio(me) < 0.6,
            Some(Skill::OffenseUp | Skill::TeamBoost | Skill::Retribution) => true,
        }
    }
}

impl Bot<Battle> for Heuristic {
    fn setup(&mut self, request: &SetupRequest) -> TeamChoice {
        let preferred = self
            .team
            .clone()
            .unwrap_or_else(|| vec![BotType::Aggro, BotType::Tank, BotType::Nurse]);
        pick_team(request, &preferred)
    }

    fn act(&mut self, observation: &Observation) -> Action {
        if observation.skill_ready && Self::skill_is_useful(observation) {
            return Action::Skill;
        }
        let me = observation.me();
        let hits_to_destroy = |id: UnitId| {
            let target = &observation.units[usize::from(id)];
            let per_hit = expected_hit(me, target).max(1.0);
            (f64::from(target.integrity) / per_hit).ceil() as i64
        };
        match observation.legal_targets.iter().copied().min_by_key(|&id| {
            (
                hits_to_destroy(id),
                observation.units[usize::from(id)].integrity,
                id,
            )
        }) {
            Some(target) => Action::Attack { target },
            None => Action::Skill,
        }
    }
}
