//! `arena match A B --mode M`: a head-to-head of two bots in seat-swapped pairs, with the
//! score, the Elo difference and its error, pentanomial pair statistics and, with `--sprt`,
//! a sequential test that stops as soon as it is clear whether A beats B — the tool for
//! deciding whether version 2 of a bot is better than version 1.
//!
//! Pairs are played in parallel but counted in pair order, and the test looks only at the
//! pairs counted so far, so where a match stops depends on the seed alone, never on `--jobs`.

use crate::SandboxArgs;
use crate::play::RulesArgs;
use anyhow::{Context, Result};
use arena_engine::derive_seed;
use arena_sdk::Mode;
use arena_tournament::bots::{BotSpec, Contestant};
use arena_tournament::game::{self, GameSpec};
use arena_tournament::sprt::{Decision, Pentanomial, Sprt};
use clap::Args;
use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

#[derive(Debug, Args)]
pub struct MatchArgs {
    /// Bot A (usually the new version): a .wasm/.wat file, a bot directory (Rust, Go,
    /// Python, JavaScript, TypeScript), or builtin:NAME.
    a: String,
    /// Bot B (usually the old version).
    b: String,
    /// The game mode.
    #[arg(long, short)]
    mode: Mode,
    /// Games (even: pairs on one seed with the seats swapped); with --sprt, the most to play.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Stop early with a sequential probability ratio test, as in cutechess-cli and
    /// fastchess: `elo0=0 elo1=10 alpha=0.05 beta=0.05` tests H0 "A is at most elo0
    /// stronger" against H1 "A is at least elo1 stronger" (logistic Elo).
    #[arg(long, value_name = "SPEC")]
    sprt: Option<Sprt>,
    /// The match seed (pair p plays seed derive(seed, p)).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Parallel games [default: all cores].
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Faults in one game that forfeit it.
    #[arg(long, default_value_t = arena_engine::DEFAULT_MAX_FAULTS)]
    max_faults: u32,
    /// Rejected answers in one game that forfeit it.
    #[arg(long, default_value_t = arena_engine::DEFAULT_MAX_REJECTIONS)]
    max_rejections: u32,
    /// Print the interim result every N pairs to standard error (0: never).
    #[arg(long, value_name = "PAIRS", default_value_t = 0)]
    rating_interval: u32,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Both games of one pair, from A's side.
#[derive(Debug, Clone, Copy)]
struct PairResult {
    points: [f64; 2],
    /// Faults of A and of B over the two games.
    faults: [u32; 2],
}

/// What the match found so far.
#[derive(Debug, Default)]
struct Tally {
    pentanomial: Pentanomial,
    wins: u32,
    draws: u32,
    losses: u32,
    faults: [u32; 2],
    llr: Option<f64>,
    decision: Option<Decision>,
}

impl Tally {
    fn add(&mut self, pair: PairResult) {
        self.pentanomial.add_pair(pair.points[0], pair.points[1]);
        for points in pair.points {
            match points {
                p if p > 0.75 => self.wins += 1,
                p if p > 0.25 => self.draws += 1,
                _ => self.losses += 1,
            }
        }
        self.faults[0] += pair.faults[0];
        self.faults[1] += pair.faults[1];
    }
}

pub fn play_match(args: MatchArgs, sandbox_args: &SandboxArgs) -> Result<ExitCode> {
    anyhow::ensure!(
        args.games > 0 && args.games.is_multiple_of(2),
        "--games must be a positive even number (each seed is played from both seats)"
    );
    let sandbox = sandbox_args.sandbox()?;
    let rules = args.rules.for_mode(args.mode)?;
    let specs: [BotSpec; 2] = [args.a.parse()?, args.b.parse()?];
    let mut names = specs.each_ref().map(BotSpec::short_name);
    if names[0] == names[1] {
        // Two versions of one bot usually share a file name: tell them apart.
        names = specs.each_ref().map(BotSpec::to_string);
    }
    let mut contestants = Vec::new();
    for (spec, name) in specs.iter().zip(&names) {
        let contestant = Contestant::resolve(spec, &sandbox).with_context(|| name.clone())?;
        contestant
            .check_mode(args.mode)
            .with_context(|| name.clone())?;
        if let Contestant::Wasm(bot) = &contestant {
            let start = arena_tournament::playable::start(args.mode, &rules, bot, &sandbox)?;
            if let Err(fault) = start.answer
                && fault.kind == arena_engine::FaultKind::BotError
            {
                anyhow::bail!("{name} refuses mode {}: {}", args.mode, fault.message);
            }
        }
        contestants.push(contestant);
    }
    let spec = GameSpec {
        mode: args.mode,
        rules,
        seed: 0,
        max_faults: args.max_faults,
        max_rejections: args.max_rejections,
    };
    let pairs = args.games / 2;
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, pairs as usize);
    let play_pair = |pair: u32| -> Result<PairResult> {
        let seed = derive_seed(args.seed, u64::from(pair));
        let mut result = PairResult {
            points: [0.0; 2],
            faults: [0; 2],
        };
        for (game, a_seat) in [0usize, 1].into_iter().enumerate() {
            let seated = if a_seat == 0 { [0, 1] } else { [1, 0] };
            let played = game::play(
                &GameSpec {
                    seed,
                    ..spec.clone()
                },
                seated.map(|i| &contestants[i]),
                seated.map(|i| names[i].as_str()),
                &sandbox,
                game::Keep::Nothing,
            )?;
            let outcome = &played.outcome;
            result.points[game] = match outcome.winner {
                None => 0.5,
                Some(w) if usize::from(w) == a_seat => 1.0,
                Some(_) => 0.0,
            };
            result.faults[0] += outcome.seats[a_seat].faults;
            result.faults[1] += outcome.seats[1 - a_seat].faults;
        }
        Ok(result)
    };

    let next = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = std::sync::mpsc::channel::<(u32, Result<PairResult>)>();
    let mut tally = Tally::default();
    let mut counted = 0u32;
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..jobs {
            let sender = sender.clone();
            let (next, stop, play_pair) = (&next, &stop, &play_pair);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let pair = next.fetch_add(1, Ordering::Relaxed);
                    if pair >= pairs || sender.send((pair, play_pair(pair))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut waiting = BTreeMap::new();
        for (pair, result) in &receiver {
            waiting.insert(pair, result);
            // Count pairs in order only: the decision must not depend on which thread
            // finished first.
            while let Some(result) = waiting.remove(&counted) {
                let result = match result {
                    Ok(result) => result,
                    Err(error) => {
                        stop.store(true, Ordering::Relaxed);
                        return Err(error.context(format!("pair {counted}")));
                    }
                };
                tally.add(result);
                counted += 1;
                if let Some(test) = &args.sprt {
                    let llr = test.llr(&tally.pentanomial);
                    tally.llr = Some(llr);
                    tally.decision = test.decision(llr);
                }
                if args.rating_interval > 0 && counted.is_multiple_of(args.rating_interval) {
                    errln!("{}", summary(&args, &names, &tally).trim_end());
                }
                if tally.decision.is_some() || counted == pairs {
                    stop.store(true, Ordering::Relaxed);
                    return Ok(());
                }
            }
        }
        Ok(())
    })?;

    if args.json {
        let elo = tally.pentanomial.elo();
        let json = serde_json::json!({
            "mode": args.mode,
            "bots": names,
            "seed": args.seed,
            "games": 2 * counted,
            "wins": tally.wins,
            "draws": tally.draws,
            "losses": tally.losses,
            "faults": tally.faults,
            "score": elo.map(|e| e.score),
            "elo": elo.map(|e| e.diff).filter(|d| d.is_finite()),
            "elo_error95": elo.map(|e| e.error95).filter(|d| d.is_finite()),
            "los": elo.map(|e| e.los),
            "pentanomial": tally.pentanomial,
            "sprt": args.sprt.map(|test| serde_json::json!({
                "test": test,
                "bounds": test.bounds(),
                "llr": tally.llr,
                "decision": tally.decision,
            })),
        });
        outln!("{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        out!("{}", summary(&args, &names, &tally))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The result so far, fastchess style.
fn summary(args: &MatchArgs, names: &[String; 2], tally: &Tally) -> String {
    let games = tally.wins + tally.draws + tally.losses;
    let p = &tally.pentanomial;
    let mut out = format!(
        "{} — {} vs {}: {games} games ({} pairs), seed {}\n",
        args.mode,
        names[0],
        names[1],
        p.pairs(),
        args.seed
    );
    if let Some(elo) = p.elo() {
        out += &format!(
            "score of {} vs {}: {} - {} - {} [{:.3}]\n",
            names[0], names[1], tally.wins, tally.losses, tally.draws, elo.score
        );
        out += &format!(
            "Elo difference: {} ± {}, LOS: {:.1}%\n",
            signed(elo.diff),
            if elo.error95.is_finite() {
                format!("{:.1}", elo.error95)
            } else {
                "∞".to_owned()
            },
            100.0 * elo.los
        );
    }
    out += &format!(
        "Ptnml(0-2): [{}, {}, {} ({} WL + {} DD), {}, {}]  (LL, LD, WL+DD, WD, WW)\n",
        p.ll,
        p.ld,
        p.wl + p.dd,
        p.wl,
        p.dd,
        p.wd,
        p.ww
    );
    if tally.faults != [0, 0] {
        out += &format!(
            "faults: {} {}, {} {}\n",
            names[0], tally.faults[0], names[1], tally.faults[1]
        );
    }
    if let (Some(test), Some(llr)) = (&args.sprt, tally.llr) {
        let (lower, upper) = test.bounds();
        out += &format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} ({:.1}%), bounds [{lower:.2}, {upper:.2}]",
            test.elo0,
            test.elo1,
            test.alpha,
            test.beta,
            100.0 * if llr < 0.0 { llr / lower } else { llr / upper },
        );
        out += &match tally.decision {
            Some(Decision::H1) => format!(
                " — H1 accepted: {} is at least {} Elo stronger\n",
                names[0], test.elo1
            ),
            Some(Decision::H0) => format!(
                " — H0 accepted: {} is at most {} Elo stronger\n",
                names[0], test.elo0
            ),
            None if games == args.games => format!(
                " — no decision within --games {}: raise it (about --games {} at this rate) to let the test decide\n",
                args.games,
                games_to_decide(games, llr, (lower, upper))
            ),
            None => " — continuing\n".to_owned(),
        };
    }
    out
}

/// How many games an undecided SPRT would need at the rate its LLR moved so far: the LLR
/// drifts about linearly with the games, so `games` over the share of the way it went to
/// the nearer bound, rounded up to a hundred; four times `games` when it did not move.
fn games_to_decide(games: u32, llr: f64, (lower, upper): (f64, f64)) -> u32 {
    let share = if llr < 0.0 { llr / lower } else { llr / upper };
    let needed = if share > 0.05 {
        f64::from(games) / share
    } else {
        4.0 * f64::from(games)
    };
    let rounded = (needed / 100.0).ceil() * 100.0;
    rounded.clamp(f64::from(games) + 100.0, f64::from(u32::MAX)) as u32
}

fn signed(value: f64) -> String {
    if value.is_finite() {
        format!("{value:+.1}")
    } else if value > 0.0 {
        "+∞".to_owned()
    } else {
        "−∞".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_undecided_test_is_told_the_games_its_rate_needs() {
        // Half way to the upper bound after 100 games: about 200.
        assert_eq!(games_to_decide(100, 1.5, (-3.0, 3.0)), 200);
        // A third of the way to the lower bound: about 300.
        assert_eq!(games_to_decide(100, -1.0, (-3.0, 3.0)), 300);
        // Nowhere: four times as many.
        assert_eq!(games_to_decide(100, 0.0, (-3.0, 3.0)), 400);
    }
}
