//! # battle-starter — a first bot for Bot Wars (mode `battle`)
//!
//! Copy this crate, rename it, and improve it. The rules are in docs/rules/battle.md; the
//! short version:
//!
//! - Before the match you pick a team of 3 different robot types from the roster
//!   ([`Bot::setup`]). Your opponent picks at the same time, without seeing yours.
//! - Every robot has a turn meter that fills by its speed each tick; at 1000 the robot
//!   takes a turn and the arena asks you what it does ([`Bot::act`]): attack one enemy in
//!   `legal_targets`, or use its secondary skill when `skill_ready` is true.
//! - You lose when all three of your robots are destroyed. After `turn_cap` unit turns the
//!   team with the larger share of its integrity left wins.
//!
//! An illegal answer (a target that is not legal, a skill that is not ready) is not a
//! disaster: the arena plays the default (attack the weakest legal target), counts it,
//! and tells you why in the next observation's `last_rejected`.
//!
//! Build it to WebAssembly:
//! `cargo build --release --target wasm32-unknown-unknown -p battle-starter`,
//! then pit `battle_starter.wasm` against `builtin:random` with the `arena` tool.

use arena_sdk::Bot;
use arena_sdk::battle::{
    Action, Battle, BotType, Observation, SetupRequest, Skill, TeamChoice, Unit,
};

/// The bot. It keeps no state between turns: every observation carries the whole battle.
#[derive(Debug, Default)]
pub struct Starter;

impl Bot<Battle> for Starter {
    fn setup(&mut self, request: &SetupRequest) -> TeamChoice {
        // Two damage dealers — Aggro hits hard, Stealth is the fastest robot (speed 90, so
        // more than twice as many turns) — and the Nurse, whose Repair heals the whole
        // team. `request.stats` has every type's numbers if you want to choose smarter.
        let wanted = [BotType::Aggro, BotType::Stealth, BotType::Nurse];
        let size = request.team_size as usize;
        let mut team: Vec<BotType> = wanted
            .into_iter()
            .filter(|kind| request.roster.contains(kind))
            .collect();
        // A tournament may restrict the roster: fill up with whatever else is allowed.
        for &kind in &request.roster {
            if team.len() < size && !team.contains(&kind) {
                team.push(kind);
            }
        }
        team.truncate(size);
        TeamChoice { team }
    }

    fn act(&mut self, observation: &Observation) -> Action {
        if observation.skill_ready && skill_helps(observation) {
            return Action::Skill;
        }
        // Attack the legal target with the least integrity left: finishing robots off
        // removes their attacks from the battle sooner. Ideas to do better: count armor
        // and evasion (see `expected damage` in the rules), prefer dangerous targets
        // (healers, fast or powerful robots), remember that crits double before armor.
        let weakest = observation
            .legal_targets
            .iter()
            .copied()
            .min_by_key(|&id| (observation.units[usize::from(id)].integrity, id));
        match weakest {
            Some(target) => Action::Attack { target },
            // Never happens while the match runs (some enemy is always targetable); a
            // skill that is not ready would simply be replaced by the default.
            None => Action::Skill,
        }
    }
}

/// Integrity left, in percent of the robot's maximum.
fn percent_left(unit: &Unit) -> i32 {
    unit.integrity * 100 / unit.base.integrity.max(1)
}

/// Whether the acting robot's skill is worth its turn now.
fn skill_helps(observation: &Observation) -> bool {
    let me = observation.me();
    let team: Vec<&Unit> = observation.team(me.owner).collect();
    match me.kind.skill() {
        // Repair gives every teammate 30% of the nurse's maximum: wait until it is needed.
        Some(Skill::Repair) => team.iter().any(|u| percent_left(u) < 60),
        // Redistribute shares integrity: good when one robot is in danger.
        Some(Skill::Redistribute) => team.iter().any(|u| percent_left(u) < 40),
        // Taunt pulls the enemies' attacks onto the tank: use it when a teammate suffers.
        Some(Skill::Taunt) => team.iter().any(|u| u.id != me.id && percent_left(u) < 70),
        // Stealth hides this robot: use it when it is hurt.
        Some(Skill::Stealth) => percent_left(me) < 50,
        // Team buffs, Offense Up and Retribution: whenever they are ready.
        Some(Skill::OffenseUp | Skill::TeamBoost | Skill::Retribution) => true,
        None => false,
    }
}

arena_sdk::export_bot!(battle: Starter);
