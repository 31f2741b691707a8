//! [`Table`]: where a mode's rules meet the two players. It asks the players, turns faults
//! into fallbacks, counts faults, rejected actions and fuel, decides forfeits, and records
//! every answer and event for the replay.

use crate::player::{Answer, Fault, Player};
use crate::replay::{BotInfo, Entry, Outcome, REPLAY_FORMAT, REPLAY_VERSION, Replay, SeatOutcome};
use crate::{ENGINE_VERSION, MatchConfig, MatchRecord, Ruleset, Stats};
use arena_sdk::{MatchEnd, MatchStart, Seat};

/// How a mode's `play` ends a match.
#[derive(Debug, Clone, PartialEq)]
pub struct Finish {
    /// The winner, or `None` for a draw.
    pub winner: Option<Seat>,
    /// Why the match ended ("team destroyed", "turn cap: more integrity left", "forfeit: …").
    pub reason: String,
    /// Each seat's statistics.
    pub stats: [Stats; 2],
}

#[derive(Debug, Default, Clone)]
struct Tally {
    faults: u32,
    fault_kinds: std::collections::BTreeMap<String, u32>,
    invalid_actions: u32,
    fuel: u64,
    forfeited: bool,
}

/// The players of one match plus everything the engine keeps about them.
pub struct Table<'p, G: Ruleset> {
    players: [&'p mut dyn Player<G>; 2],
    max_faults: u32,
    tally: [Tally; 2],
    forfeit: Option<Seat>,
    turn: u32,
    initial: Option<G::Initial>,
    log: Vec<Entry<G>>,
    offer: Option<G::Offer>,
}

impl<G: Ruleset> std::fmt::Debug for Table<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("turn", &self.turn)
            .field("forfeit", &self.forfeit)
            .finish()
    }
}

impl<'p, G: Ruleset> Table<'p, G> {
    /// Seat the players; `max_faults` faults forfeit a match.
    pub fn new(players: [&'p mut dyn Player<G>; 2], max_faults: u32) -> Self {
        Table {
            players,
            max_faults: max_faults.max(1),
            tally: Default::default(),
            forfeit: None,
            turn: 0,
            initial: None,
            log: Vec::new(),
            offer: None,
        }
    }

    /// The current turn number, stamped on faults and answers in the replay.
    pub fn set_turn(&mut self, turn: u32) {
        self.turn = turn;
    }

    /// Record the full initial state (once, after setup).
    pub fn set_initial(&mut self, initial: G::Initial) {
        self.initial = Some(initial);
    }

    /// Record an event.
    pub fn event(&mut self, event: G::Event) {
        self.log.push(Entry::Event { event });
    }

    /// The first seat that faulted `max_faults` times, if any: it has forfeited the match.
    pub fn forfeited(&self) -> Option<Seat> {
        self.forfeit
    }

    /// A finish for the forfeit of `loser`, with the mode's statistics so far.
    pub fn forfeit_finish(&self, loser: Seat, stats: [Stats; 2]) -> Finish {
        Finish {
            winner: Some(1 - loser),
            reason: format!(
                "forfeit: seat {loser} faulted {} times",
                self.tally[usize::from(loser)].faults
            ),
            stats,
        }
    }

    /// Send the start request.
    pub fn start(&mut self, seat: Seat, start: &MatchStart<G>) {
        let result = self.players[usize::from(seat)].start(start);
        self.record(seat, result.map(|()| Answer::Started));
    }

    /// Ask `seat` for its setup; `None` if it faulted (the mode applies its default).
    pub fn setup(&mut self, seat: Seat, request: &G::SetupRequest) -> Option<G::SetupChoice> {
        if self.tally[usize::from(seat)].forfeited {
            return None;
        }
        let result = self.players[usize::from(seat)].setup(request);
        match self.record(seat, result.map(Answer::Setup)) {
            Some(Answer::Setup(choice)) => Some(choice),
            _ => None,
        }
    }

    /// The legal choices of the next [`Table::act`] request, recorded with its answer.
    pub fn offer(&mut self, offer: G::Offer) {
        self.offer = Some(offer);
    }

    /// Ask `seat` for its action; `None` if it faulted or has forfeited (the mode applies
    /// its documented default).
    pub fn act(&mut self, seat: Seat, observation: &G::Observation) -> Option<G::Action> {
        if self.tally[usize::from(seat)].forfeited {
            self.offer = None;
            return None;
        }
        let result = self.players[usize::from(seat)].act(observation);
        match self.record(seat, result.map(Answer::Action)) {
            Some(Answer::Action(action)) => Some(action),
            _ => None,
        }
    }

    /// The mode rejected `seat`'s answer as illegal; counted, recorded, and the mode tells
    /// the bot in its next observation.
    pub fn reject(&mut self, seat: Seat, reason: impl Into<String>) {
        self.tally[usize::from(seat)].invalid_actions += 1;
        self.log.push(Entry::Rejected {
            seat,
            turn: self.turn,
            reason: reason.into(),
        });
    }

    /// Tell `seat` the match is over.
    pub fn end(&mut self, seat: Seat, end: &MatchEnd) {
        self.players[usize::from(seat)].end(end);
    }

    fn record(&mut self, seat: Seat, result: Result<Answer<G>, Fault>) -> Option<Answer<G>> {
        let report = self.players[usize::from(seat)].last_call();
        let tally = &mut self.tally[usize::from(seat)];
        tally.fuel += report.fuel;
        let answer = match result {
            Ok(answer) => answer,
            Err(fault) => {
                tally.faults += 1;
                *tally
                    .fault_kinds
                    .entry(fault.kind.name().to_owned())
                    .or_default() += 1;
                if tally.faults >= self.max_faults && !tally.forfeited {
                    tally.forfeited = true;
                    self.forfeit.get_or_insert(seat);
                }
                Answer::Fault(fault)
            }
        };
        let log = (!report.log.is_empty()).then_some(report.log);
        self.log.push(Entry::Answer {
            seat,
            turn: self.turn,
            answer: answer.clone(),
            fuel: report.fuel,
            log,
            offered: self.offer.take(),
        });
        Some(answer)
    }

    pub(crate) fn into_record(self, config: &MatchConfig<G>, finish: Finish) -> MatchRecord<G> {
        let [stats0, stats1] = finish.stats;
        let seats = [(0usize, stats0), (1, stats1)].map(|(i, stats)| {
            let t = &self.tally[i];
            SeatOutcome {
                stats,
                faults: t.faults,
                fault_kinds: t.fault_kinds.clone(),
                invalid_actions: t.invalid_actions,
                fuel: t.fuel,
                forfeited: t.forfeited,
            }
        });
        let outcome = Outcome {
            winner: finish.winner,
            reason: finish.reason,
            turns: self.turn,
            seats,
        };
        let replay = Replay {
            format: REPLAY_FORMAT.to_owned(),
            version: REPLAY_VERSION,
            engine_version: ENGINE_VERSION.to_owned(),
            mode: G::MODE,
            rules: config.rules.clone(),
            tables: G::tables(&config.rules),
            seed: config.seed,
            max_faults: config.max_faults,
            bots: [BotInfo::unnamed(0), BotInfo::unnamed(1)],
            initial: self.initial,
            log: self.log,
            outcome: outcome.clone(),
        };
        MatchRecord { outcome, replay }
    }
}
