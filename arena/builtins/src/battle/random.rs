//! `random`: a random team, a random legal target, the skill half the time.

use arena_sdk::battle::{Action, Battle, Observation, SetupRequest, TeamChoice};
use arena_sdk::{Bot, MatchStart};
use rand::SeedableRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand_chacha::ChaCha8Rng;

/// Random team, random legal target; skill half the time when ready.
#[derive(Debug)]
pub struct Random {
    rng: ChaCha8Rng,
}

impl Default for Random {
    fn default() -> Self {
        Random {
            rng: ChaCha8Rng::seed_from_u64(0),
        }
    }
}

impl Bot<Battle> for Random {
    fn start(&mut self, start: &MatchStart<Battle>) {
        self.rng = ChaCha8Rng::seed_from_u64(start.seed);
    }

    fn setup(&mut self, request: &SetupRequest) -> TeamChoice {
        let mut roster = request.roster.clone();
        roster.shuffle(&mut self.rng);
        roster.truncate(request.team_size as usize);
        TeamChoice { team: roster }
    }

    fn act(&mut self, observation: &Observation) -> Action {
        use rand::Rng;
        if observation.skill_ready && self.rng.random_bool(0.5) {
            return Action::Skill;
        }
        match observation.legal_targets.choose(&mut self.rng) {
            Some(&target) => Action::Attack { target },
            None => Action::Skill,
        }
    }
}
