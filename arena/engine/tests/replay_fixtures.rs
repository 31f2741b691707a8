//! The engine's behaviour, pinned: for every mode, games of the built-ins (clean, and with a
//! seat that answers stale actions, faults, or faults until it forfeits) give replays whose
//! digests are in `fixtures/replays.txt`: one of the replay without its end event (`body`),
//! one of the end event (every match ends with exactly one, its last entry). A refactor of a mode must leave every line as it
//! is; a deliberate change of play re-blesses the file (`ARENA_BLESS=1 cargo test -p
//! arena-engine --test replay_fixtures`) and the diff shows which games changed.

use arena_builtins::Builtins;
use arena_engine::replay::Entry;
use arena_engine::{Fault, FaultKind, MatchConfig, NativePlayer, Player, Ruleset, run_match};
use arena_sdk::{Bot, MatchEnd, MatchStart};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;

/// How seat 0 misbehaves.
#[derive(Debug, Clone, Copy)]
enum Flavor {
    /// It does not.
    Clean,
    /// Every third turn it repeats its previous action (often illegal by then).
    Stale,
    /// Every fourth turn it faults; `max_faults` is too high to forfeit.
    Faulty,
    /// Every fourth turn it faults, and three faults forfeit.
    Forfeit,
}

impl Flavor {
    const ALL: [Flavor; 4] = [
        Flavor::Clean,
        Flavor::Stale,
        Flavor::Faulty,
        Flavor::Forfeit,
    ];

    fn name(self) -> &'static str {
        match self {
            Flavor::Clean => "clean",
            Flavor::Stale => "stale",
            Flavor::Faulty => "faulty",
            Flavor::Forfeit => "forfeit",
        }
    }
}

/// A built-in that misbehaves on a fixed schedule.
struct Mischief<G: Builtins> {
    bot: Box<dyn Bot<G> + Send>,
    flavor: Flavor,
    turns: u64,
    last: Option<G::Action>,
}

impl<G: Builtins> Player<G> for Mischief<G> {
    fn start(&mut self, start: &MatchStart<G>) -> Result<(), Fault> {
        self.bot.start(start);
        Ok(())
    }
    fn setup(&mut self, request: &G::SetupRequest) -> Result<G::SetupChoice, Fault> {
        Ok(self.bot.setup(request))
    }
    fn act(&mut self, observation: &G::Observation) -> Result<G::Action, Fault> {
        self.turns += 1;
        let action = self.bot.act(observation);
        match self.flavor {
            Flavor::Clean => Ok(action),
            Flavor::Stale => {
                let answer = match &self.last {
                    Some(stale) if self.turns.is_multiple_of(3) => stale.clone(),
                    _ => action.clone(),
                };
                self.last = Some(action);
                Ok(answer)
            }
            Flavor::Faulty | Flavor::Forfeit if self.turns.is_multiple_of(4) => {
                Err(Fault::new(FaultKind::OutOfFuel, "scheduled fault"))
            }
            Flavor::Faulty | Flavor::Forfeit => Ok(action),
        }
    }
    fn end(&mut self, end: &MatchEnd) {
        self.bot.end(end)
    }
}

/// The games of one mode: every ordered pair of built-ins clean, and the strongest against
/// the weakest in every flavor, on a few seeds.
fn games<G: Ruleset + Builtins>(out: &mut String)
where
    G::Rules: Default,
{
    let names: Vec<&str> = G::builtins().iter().map(|b| b.name).collect();
    let mut plan = Vec::new();
    for a in &names {
        for b in &names {
            for seed in [1u64, 4, 5] {
                plan.push((Flavor::Clean, *a, *b, seed));
            }
        }
    }
    // By strength (the last of the strongest, the first of the weakest), not by place.
    let list = G::builtins();
    let strong = list.iter().max_by_key(|b| b.strength).map(|b| b.name);
    let weak = list.iter().min_by_key(|b| b.strength).map(|b| b.name);
    let (strong, weak) = (strong.expect("built-ins"), weak.expect("built-ins"));
    for flavor in Flavor::ALL {
        for seed in [2u64, 3, 6, 7] {
            plan.push((flavor, strong, weak, seed));
        }
    }
    for (flavor, a, b, seed) in plan {
        let mut config = MatchConfig::<G>::new(G::Rules::default(), seed);
        config.max_faults = match flavor {
            Flavor::Faulty => 1_000_000,
            _ => 3,
        };
        let mut zero = Mischief::<G> {
            bot: G::create(a).expect("a built-in"),
            flavor,
            turns: 0,
            last: None,
        };
        let mut one = NativePlayer::new(G::create(b).expect("a built-in"));
        let record = run_match(&config, [&mut zero, &mut one]);
        let mut replay = record.replay;
        let ends = replay.events().filter(|e| G::is_end(e)).count();
        let end = match replay.log.last() {
            Some(Entry::Event { event }) if G::is_end(event) => replay.log.pop(),
            _ => None,
        };
        assert!(
            end.is_some() && ends == 1,
            "{} {a} {b} {seed}: every match ends with one end event, its last entry",
            G::MODE.name()
        );
        let digest = |json: String| hex::encode(&Sha256::digest(json.as_bytes())[..12]);
        let body = digest(serde_json::to_string(&replay).expect("a replay serializes"));
        let end = end.map_or("none".to_owned(), |end| {
            digest(serde_json::to_string(&end).expect("an entry serializes"))
        });
        let outcome = &record.outcome;
        let winner = outcome.winner.map_or("draw".to_owned(), |w| w.to_string());
        writeln!(
            out,
            "{} {} {a} {b} {seed} winner={winner} turns={} rejected={} faults={} body={body} end={end}",
            G::MODE.name(),
            flavor.name(),
            outcome.turns,
            outcome.seats[0].invalid_actions,
            outcome.seats[0].faults,
        )
        .unwrap();
    }
}

#[test]
fn every_mode_plays_its_fixture_games_exactly_as_pinned() {
    let mut got = String::new();
    games::<arena_sdk::battle::Battle>(&mut got);
    games::<arena_sdk::tcg::Tcg>(&mut got);
    games::<arena_sdk::grid::Grid>(&mut got);
    games::<arena_sdk::dungeon::Dungeon>(&mut got);
    games::<arena_sdk::conquest::Conquest>(&mut got);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/replays.txt");
    if std::env::var_os("ARENA_BLESS").is_some() {
        std::fs::write(path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(path).expect("the fixture file (ARENA_BLESS=1 writes it)");
    let changed: Vec<String> = want
        .lines()
        .zip(got.lines())
        .filter(|(w, g)| w != g)
        .map(|(w, g)| format!("  pinned {w}\n  now    {g}"))
        .collect();
    assert!(
        changed.is_empty() && want.lines().count() == got.lines().count(),
        "{} of {} fixture games changed:\n{}",
        changed.len(),
        want.lines().count(),
        changed.join("\n")
    );
}
