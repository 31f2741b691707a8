//! Built-in AIs for `battle`.
//!
//! - `random`: random team, random legal target, skill half the time when ready.
//! - `heuristic`: a fixed all-round team; attacks the target it expects to destroy in the
//!   fewest hits; uses a skill when a simple rule says it helps.
//! - `strong`: see [`Strong`].

use crate::{BuiltinInfo, Builtins};
use arena_sdk::battle::{
    Action, Battle, BotType, Effect, Observation, SetupRequest, Skill, TeamChoice, Unit, UnitId,
};
use arena_sdk::{Bot, MatchStart, Mode};
use rand::SeedableRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand_chacha::ChaCha8Rng;

const BUILTINS: &[BuiltinInfo] = &[
    BuiltinInfo {
        name: "random",
        mode: Mode::Battle,
        summary: "random team; attacks a random legal target, uses its skill when ready half the time",
        strength: 1,
    },
    BuiltinInfo {
        name: "heuristic",
        mode: Mode::Battle,
        summary: "Aggro, Tank, Nurse; attacks what it can destroy in the fewest hits, simple skill rules",
        strength: 2,
    },
    BuiltinInfo {
        name: "strong",
        mode: Mode::Battle,
        summary: "Glass, Tank, Nurse; focus fire by threat x kill chance (armor, evasion, crits, effects), timed skills",
        strength: 3,
    },
];

impl Builtins for Battle {
    fn builtins() -> &'static [BuiltinInfo] {
        BUILTINS
    }

    fn create(name: &str) -> Option<Box<dyn Bot<Battle> + Send>> {
        match name {
            "random" => Some(Box::new(Random::default())),
            "heuristic" => Some(Box::new(Heuristic::default())),
            "strong" => Some(Box::new(Strong::default())),
            _ => None,
        }
    }
}

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

/// Pick `team_size` types: the preferred ones that are in the roster, in order, then the
/// rest of the roster.
fn pick_team(request: &SetupRequest, preferred: &[BotType]) -> TeamChoice {
    let mut team: Vec<BotType> = preferred
        .iter()
        .copied()
        .filter(|k| request.roster.contains(k))
        .collect();
    for &kind in &request.roster {
        if !team.contains(&kind) {
            team.push(kind);
        }
    }
    team.truncate(request.team_size as usize);
    TeamChoice { team }
}

/// Mean of `max(0, x·power − armor)` for `x` uniform in [0.5, 1].
fn mean_after_armor(power: f64, armor: f64) -> f64 {
    let (lo, hi) = (0.5 * power, power);
    if armor <= lo {
        0.75 * power - armor
    } else if armor >= hi {
        0.0
    } else {
        (hi - armor) * (hi - armor) / (2.0 * (hi - lo))
    }
}

/// The attacker's damage bonus: Offense Up ×1.5, Stealth ×1.3.
fn bonus(unit: &Unit) -> f64 {
    let mut bonus = 1.0;
    if unit.has(Effect::OffenseUp) {
        bonus *= 1.5;
    }
    if unit.has(Effect::Stealth) {
        bonus *= 1.3;
    }
    bonus
}

/// Evasion chance as a fraction (0 while stunned).
fn evasion(unit: &Unit) -> f64 {
    if unit.has(Effect::Stun) {
        0.0
    } else {
        f64::from(unit.base.evasion) / 100.0
    }
}

/// Expected damage of one attack of `attacker` on `target`: evasion, critical hits (double
/// before armor), armor and damage bonuses included.
pub fn expected_hit(attacker: &Unit, target: &Unit) -> f64 {
    let power = f64::from(attacker.power);
    let armor = f64::from(target.armor);
    let crit = f64::from(attacker.base.critical) / 100.0;
    let hit =
        (1.0 - crit) * mean_after_armor(power, armor) + crit * mean_after_armor(2.0 * power, armor);
    hit * bonus(attacker) * (1.0 - evasion(target))
}

fn missing(unit: &Unit) -> i32 {
    unit.base.integrity - unit.integrity
}

fn ratio(unit: &Unit) -> f64 {
    f64::from(unit.integrity) / f64::from(unit.base.integrity.max(1))
}

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

/// The strongest built-in.
///
/// - Team: Glass, Tank and Nurse when the roster allows — the tank's Taunt and Defense Up
///   shield the fragile glass bot, whose area Continuous Damage ignores armor and breaks
///   through healing teams, and the nurse out-repairs the rest (best of all 56 teams in
///   measured play); otherwise the best available types in [`STRONG_PREFERENCE`] order.
/// - Focus fire: a unit attacks the legal target worth most per expected hit: the target's
///   threat per tick (its expected attack value against this team — evasion, critical
///   hits, armor, damage bonuses and the expected worth of its negative effect — plus its
///   repairs, times its speed) times the chance to destroy it with this hit, or one over
///   the expected hits it still needs, whichever is larger (a one-hit lookahead).
/// - Skills: Taunt and Defense Up, Defense Up and Speed Up, and Retribution as soon as
///   ready; Repair when it restores at least one full repair's worth or an ally is below
///   35%; Redistribute when an ally below 40% gains more than 200; Stealth when the stealth
///   bot is below 60%; Offense Up only before a burst — when the best target still needs
///   three hits or more, so both boosted attacks land on it (on average Offense Up is
///   neutral: a turn spent for +50% on the next two).
#[derive(Debug, Clone, Default)]
pub struct Strong {
    team: Option<Vec<BotType>>,
}

/// The types in order of preference when the favourite team is not available.
pub const STRONG_PREFERENCE: [BotType; 8] = [
    BotType::Nurse,
    BotType::Tank,
    BotType::Glass,
    BotType::Stealth,
    BotType::Aggro,
    BotType::Beaverette,
    BotType::Doctor,
    BotType::Kamikaze,
];

/// Probability that `attacker`'s next attack destroys `target`.
fn kill_chance(attacker: &Unit, target: &Unit) -> f64 {
    let hp = f64::from(target.integrity);
    let armor = f64::from(target.armor);
    let power = f64::from(attacker.power);
    // Share of rolls x in [0.5, 1] with (x·power·mult − armor)·bonus ≥ hp.
    let share = |mult: f64| {
        let full = power * mult;
        if full <= 0.0 {
            return 0.0;
        }
        let needed = (hp / bonus(attacker) + armor) / full;
        ((1.0 - needed.max(0.5)) / 0.5).clamp(0.0, 1.0)
    };
    let crit = f64::from(attacker.base.critical) / 100.0;
    ((1.0 - crit) * share(1.0) + crit * share(2.0)) * (1.0 - evasion(target))
}

impl Strong {
    /// The strong play with a team of your choice (for experiments and tests).
    pub fn with_team(team: Vec<BotType>) -> Self {
        Strong { team: Some(team) }
    }

    /// What one attack of `unit` is worth against `foes`, in integrity: the best direct
    /// hit plus the expected value of its negative effect (on the hit unit, or on every foe
    /// for area effects).
    fn attack_value(unit: &Unit, foes: &[&Unit]) -> f64 {
        let direct = foes
            .iter()
            .map(|f| expected_hit(unit, f))
            .fold(0.0, f64::max);
        let options = unit.kind.inflicts();
        if options.is_empty() || foes.is_empty() {
            return direct;
        }
        let turns = f64::from(unit.kind.inflict_turns());
        let worth = |foe: &Unit| {
            let per_effect: f64 = options
                .iter()
                .map(|&effect| match effect {
                    Effect::ContinuousDamage => f64::from(unit.power) * turns,
                    Effect::Bomb => mean_after_armor(f64::from(unit.power), f64::from(foe.armor)),
                    Effect::Stun => 40.0,
                    Effect::DefenseDown | Effect::OffenseDown => 15.0,
                    _ => 10.0,
                })
                .sum::<f64>()
                / options.len() as f64;
            per_effect * (1.0 - f64::from(foe.resistance) / 100.0) * (1.0 - evasion(foe))
        };
        let effects = if unit.kind.inflicts_all() {
            foes.iter().map(|f| worth(f)).sum::<f64>()
        } else {
            foes.iter().map(|f| worth(f)).fold(0.0, f64::max)
        };
        direct + f64::from(unit.base.effectivity) / 100.0 * effects
    }

    /// What `unit` is worth to its team per tick: its attacks against `foes` and its
    /// repairs of `mates` (counted for the integrity they miss, plus some to come).
    fn threat(unit: &Unit, foes: &[&Unit], mates: &[&Unit]) -> f64 {
        let repair = match unit.kind.skill() {
            Some(Skill::Repair) => {
                let each = unit.base.integrity * 3 / 10;
                let restores: i32 = mates.iter().map(|m| missing(m).min(each)).sum();
                (f64::from(restores) + 0.25 * f64::from(each) * mates.len() as f64)
                    / f64::from(Skill::Repair.cooldown())
            }
            Some(Skill::Redistribute) => {
                f64::from(unit.base.integrity) * 0.1 * mates.len() as f64
                    / f64::from(Skill::Redistribute.cooldown())
            }
            _ => 0.0,
        };
        (Self::attack_value(unit, foes) + repair) * f64::from(unit.speed) / 1000.0
    }

    /// The best legal target and the expected hits it still needs.
    fn target(observation: &Observation) -> Option<(UnitId, f64)> {
        let me = observation.me();
        let mine: Vec<&Unit> = observation.team(me.owner).collect();
        let theirs: Vec<&Unit> = observation.team(1 - me.owner).collect();
        let score = |id: UnitId| {
            let target = &observation.units[usize::from(id)];
            let per_hit = expected_hit(me, target).max(0.5);
            let hits = (f64::from(target.integrity) / per_hit).max(1.0);
            let now = kill_chance(me, target).max(1.0 / hits);
            (Strong::threat(target, &mine, &theirs) * now, hits)
        };
        observation
            .legal_targets
            .iter()
            .map(|&id| (id, score(id)))
            .max_by(|(a, (sa, _)), (b, (sb, _))| sa.total_cmp(sb).then(b.cmp(a)))
            .map(|(id, (_, hits))| (id, hits))
    }

    fn skill_is_useful(observation: &Observation) -> bool {
        let me = observation.me();
        let team: Vec<&Unit> = observation.team(me.owner).collect();
        match me.kind.skill() {
            None => false,
            Some(Skill::OffenseUp) => {
                Self::target(observation).is_some_and(|(_, hits)| hits >= 3.0)
            }
            Some(Skill::Repair) => {
                let each = me.base.integrity * NURSE_REPAIR_PCT / 100;
                let restored: i32 = team.iter().map(|u| missing(u).min(each)).sum();
                restored >= each || team.iter().any(|u| ratio(u) < 0.35)
            }
            Some(Skill::Redistribute) => {
                let total: i32 = team.iter().map(|u| u.integrity).sum();
                let share = total / team.len().max(1) as i32;
                team.iter()
                    .any(|u| ratio(u) < 0.4 && share - u.integrity > 200)
            }
            Some(Skill::Taunt | Skill::TeamBoost | Skill::Retribution) => true,
            Some(Skill::Stealth) => ratio(me) < 0.6,
        }
    }
}

/// Nurse Repair in percent of the nurse's maximum integrity (docs/rules/battle.md).
const NURSE_REPAIR_PCT: i32 = 30;

impl Bot<Battle> for Strong {
    fn setup(&mut self, request: &SetupRequest) -> TeamChoice {
        let preferred = match &self.team {
            Some(team) => team.clone(),
            None => STRONG_PREFERENCE.to_vec(),
        };
        pick_team(request, &preferred)
    }

    fn act(&mut self, observation: &Observation) -> Action {
        if observation.skill_ready && Self::skill_is_useful(observation) {
            return Action::Skill;
        }
        match Self::target(observation) {
            Some((target, _)) => Action::Attack { target },
            None => Action::Skill,
        }
    }
}

/// The sample bot `sample-bots/battle-starter`, compiled here so its code is checked and
/// its win rate measured by these tests.
#[cfg(test)]
#[path = "../../../sample-bots/battle-starter/src/lib.rs"]
mod starter;

#[cfg(test)]
mod tests {
    use super::*;
    use BotType::*;
    use arena_engine::{MatchConfig, NativePlayer, Player, run_match};
    use arena_sdk::battle::Rules;

    /// Result of `a` against `b` over `games` games, seats alternating, seeds `seed..`.
    #[derive(Debug, Default)]
    struct Tally {
        won: u32,
        lost: u32,
        drawn: u32,
        invalid: u32,
    }

    fn versus<A: Bot<Battle>, B: Bot<Battle>>(
        mut make_a: impl FnMut() -> A,
        mut make_b: impl FnMut() -> B,
        games: u64,
        seed: u64,
    ) -> Tally {
        let mut tally = Tally::default();
        for game in 0..games {
            let mut a = NativePlayer::new(make_a());
            let mut b = NativePlayer::new(make_b());
            let a_seat = (game % 2) as u8;
            let players: [&mut dyn Player<Battle>; 2] = if a_seat == 0 {
                [&mut a, &mut b]
            } else {
                [&mut b, &mut a]
            };
            let config = MatchConfig::new(Rules::default(), seed + game);
            let outcome = run_match::<Battle>(&config, players).outcome;
            tally.invalid += outcome.seats[usize::from(a_seat)].invalid_actions;
            match outcome.winner {
                Some(w) if w == a_seat => tally.won += 1,
                Some(_) => tally.lost += 1,
                None => tally.drawn += 1,
            }
        }
        tally
    }

    fn unit(kind: BotType) -> Unit {
        Unit::new(0, 0, kind)
    }

    fn request(roster: &[BotType]) -> SetupRequest {
        SetupRequest {
            roster: roster.to_vec(),
            stats: roster.iter().map(|k| k.stats()).collect(),
            team_size: 3,
        }
    }

    #[test]
    fn builtins_are_listed_and_created() {
        let names: Vec<&str> = Battle::builtins().iter().map(|b| b.name).collect();
        assert_eq!(names, vec!["random", "heuristic", "strong"]);
        for name in names {
            assert!(Battle::create(name).is_some(), "{name}");
        }
        assert!(Battle::create("nope").is_none());
    }

    #[test]
    fn expected_damage_counts_armor_crits_and_evasion() {
        // Glass (180) on Tank (armor 40, evasion 5%): 0.75·180 − 40 = 95, crit
        // 0.75·360 − 40 = 230; 10% crits; 95% of attacks hit.
        let hit = expected_hit(&unit(Glass), &unit(Tank));
        assert!(
            (hit - (0.9 * 95.0 + 0.1 * 230.0) * 0.95).abs() < 1e-9,
            "{hit}"
        );
        // Partly absorbed: Doctor (30) on Kamikaze (armor 0) is 22.5 + crits.
        assert!((mean_after_armor(30.0, 0.0) - 22.5).abs() < 1e-9);
        // Armor between half and full power: only the rolls above armor count.
        assert!((mean_after_armor(100.0, 75.0) - 6.25).abs() < 1e-9);
        assert_eq!(mean_after_armor(50.0, 60.0), 0.0);
        // Kill chances: Glass always destroys a 50-integrity Kamikaze; a 150 one 40%.
        let mut kamikaze = unit(Kamikaze);
        kamikaze.integrity = 50;
        assert!((kill_chance(&unit(Glass), &kamikaze) - 1.0).abs() < 1e-9);
        kamikaze.integrity = 150;
        let chance = kill_chance(&unit(Glass), &kamikaze);
        assert!((chance - (0.9 / 3.0 + 0.1)).abs() < 1e-9, "{chance}");
    }

    #[test]
    fn teams() {
        let all = request(&BotType::ALL);
        assert_eq!(Strong::default().setup(&all).team, vec![Nurse, Tank, Glass]);
        assert_eq!(
            Heuristic::default().setup(&all).team,
            vec![Aggro, Tank, Nurse]
        );
        assert_eq!(
            starter::Starter.setup(&all).team,
            vec![Aggro, Stealth, Nurse]
        );
        let small = request(&[Kamikaze, Doctor, Stealth, Beaverette]);
        assert_eq!(
            Strong::default().setup(&small).team,
            vec![Stealth, Beaverette, Doctor]
        );
        assert_eq!(
            starter::Starter.setup(&small).team,
            vec![Stealth, Kamikaze, Doctor]
        );
        let mut random = Random::default();
        let team = random.setup(&all).team;
        assert_eq!(team.len(), 3);
        assert!(team.iter().enumerate().all(|(i, k)| !team[..i].contains(k)));
    }

    #[test]
    fn strong_beats_random_in_nine_of_ten_games() {
        let t = versus(Strong::default, Random::default, 200, 1000);
        println!("{t:?}");
        assert!(t.won >= 180, "{t:?}");
        assert_eq!(t.invalid, 0);
    }

    #[test]
    fn strong_beats_heuristic_clearly() {
        let t = versus(Strong::default, Heuristic::default, 200, 2000);
        println!("{t:?}");
        assert!(t.won >= 160, "{t:?}");
        assert_eq!(t.invalid, 0);
    }

    #[test]
    fn heuristic_beats_random() {
        let t = versus(Heuristic::default, Random::default, 200, 3000);
        println!("{t:?}");
        assert!(t.won >= 170, "{t:?}");
        assert_eq!(t.invalid, 0);
    }

    #[test]
    fn starter_beats_random_in_nine_of_ten_games() {
        let t = versus(|| starter::Starter, Random::default, 200, 4000);
        println!("{t:?}");
        assert!(t.won >= 180, "{t:?}");
        assert_eq!(t.invalid, 0);
    }

    #[test]
    #[ignore = "experiment (about 10 s in release): strong's play with each of the 56 teams against the heuristic's play with the best teams"]
    fn team_survey() {
        let opponents = [
            vec![Aggro, Tank, Nurse],
            vec![Aggro, Stealth, Nurse],
            vec![Stealth, Tank, Nurse],
            vec![Stealth, Nurse, Doctor],
            vec![Stealth, Beaverette, Nurse],
            vec![Tank, Nurse, Doctor],
            vec![Tank, Beaverette, Nurse],
            vec![Stealth, Glass, Nurse],
            vec![Glass, Tank, Nurse],
        ];
        let mut scores = Vec::new();
        for a in 0..8 {
            for b in a + 1..8 {
                for c in b + 1..8 {
                    let team = vec![BotType::ALL[a], BotType::ALL[b], BotType::ALL[c]];
                    let row: Vec<u32> = opponents
                        .iter()
                        .map(|other| {
                            let t = versus(
                                || Strong::with_team(team.clone()),
                                || Heuristic::with_team(other.clone()),
                                20,
                                3,
                            );
                            2 * t.won + t.drawn
                        })
                        .collect();
                    scores.push((row.iter().sum::<u32>(), row, team));
                }
            }
        }
        scores.sort_by_key(|s| std::cmp::Reverse(s.0));
        for (total, row, team) in scores {
            println!("{total:>4} {row:?} {team:?}");
        }
    }
}
