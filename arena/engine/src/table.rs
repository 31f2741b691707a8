//! [`Table`]: where a mode's rules meet the two players. It asks the players, turns faults
//! into fallbacks, counts faults, rejected actions and fuel, decides forfeits, and records
//! every answer and event for the replay.

use crate::player::{Answer, Fault, FaultKind, Player};
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
    /// Rejections (conquest can reject several orders of one answer).
    invalid_actions: u32,
    /// Answers with at least one rejection: the strikes toward `max_rejections`.
    rejected_answers: u32,
    /// Whether the seat's latest answer has been counted in `rejected_answers`.
    struck: bool,
    fuel: u64,
    forfeited: bool,
    /// Why the seat quit (a [`FaultKind::Quit`] fault's message), if it did.
    quit: Option<String>,
}

/// Watches a match as it is played (the CLI's live view, `arena play --watch`): told of
/// the initial state, of every log entry as it is recorded, before each request to a
/// player, and of the finish before the players hear of it. It cannot change the match: a
/// match with an observer is the match without one.
pub trait Observer<G: Ruleset> {
    /// The full initial state was recorded (after setup).
    fn initial(&mut self, _initial: &G::Initial) {}
    /// An entry was recorded in the log.
    fn entry(&mut self, _entry: &Entry<G>) {}
    /// `seat` is about to be asked for its setup or an action: everything before is done.
    fn asking(&mut self, _seat: Seat) {}
    /// The match is over; the players are told next.
    fn finished(&mut self, _finish: &Finish) {}
}

/// What became of asking a seat ([`Table::ask`], [`Table::ask_setup`]): the one turn
/// protocol of every mode.
#[derive(Debug, Clone, PartialEq)]
pub enum Asked<A> {
    /// The seat's answer, legal by the mode's check.
    Legal(A),
    /// The mode plays its documented default in the seat's place, the most neutral legal
    /// action it has: the seat faulted (`rejected` is `None`), or its answer was illegal
    /// (`rejected` is the mode's reason, already recorded and counted as a rejection).
    Default {
        /// Why the answer was rejected, if there was an answer.
        rejected: Option<String>,
    },
    /// A seat has forfeited (its faults reached `max_faults`, its rejected answers
    /// `max_rejections`, or it quit), at this request or before it (the start request
    /// counts too): the mode ends the match now, with [`Table::forfeit_finish`] and its end
    /// event, and plays nothing more.
    Forfeited(Seat),
}

/// The players of one match plus everything the engine keeps about them.
pub struct Table<'p, G: Ruleset> {
    players: [&'p mut dyn Player<G>; 2],
    // Checked once per entry when present; `None` (every tournament game) costs a branch.
    observer: Option<&'p mut dyn Observer<G>>,
    max_faults: u32,
    max_rejections: u32,
    tally: [Tally; 2],
    forfeit: Option<Seat>,
    /// A forfeit by a rejected part of an answer, which waits for the rest of the answer
    /// to be carried out ([`Table::reject_part`]).
    pending_forfeit: Option<Seat>,
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
    /// Seat the players; `max_faults` faults, or `max_rejections` rejected answers, forfeit
    /// a match.
    pub fn new(players: [&'p mut dyn Player<G>; 2], max_faults: u32, max_rejections: u32) -> Self {
        Table {
            players,
            observer: None,
            max_faults: max_faults.max(1),
            max_rejections: max_rejections.max(1),
            tally: Default::default(),
            forfeit: None,
            pending_forfeit: None,
            turn: 0,
            initial: None,
            log: Vec::new(),
            offer: None,
        }
    }

    /// Let `observer` watch the match.
    pub(crate) fn observed_by(&mut self, observer: &'p mut dyn Observer<G>) {
        self.observer = Some(observer);
    }

    /// Tell the observer the match is over.
    pub(crate) fn finished(&mut self, finish: &Finish) {
        if let Some(observer) = self.observer.as_mut() {
            observer.finished(finish);
        }
    }

    fn push(&mut self, entry: Entry<G>) {
        if let Some(observer) = self.observer.as_mut() {
            observer.entry(&entry);
        }
        self.log.push(entry);
    }

    fn asking(&mut self, seat: Seat) {
        if let Some(observer) = self.observer.as_mut() {
            observer.asking(seat);
        }
    }

    /// The current turn number, stamped on faults and answers in the replay.
    pub fn set_turn(&mut self, turn: u32) {
        self.turn = turn;
    }

    /// Record the full initial state (once, after setup).
    pub fn set_initial(&mut self, initial: G::Initial) {
        if let Some(observer) = self.observer.as_mut() {
            observer.initial(&initial);
        }
        self.initial = Some(initial);
    }

    /// Record an event.
    pub fn event(&mut self, event: G::Event) {
        self.push(Entry::Event { event });
    }

    /// A finish for the forfeit of `loser`, with the mode's statistics so far.
    pub fn forfeit_finish(&self, loser: Seat, stats: [Stats; 2]) -> Finish {
        let tally = &self.tally[usize::from(loser)];
        let reason = match &tally.quit {
            Some(why) => format!("forfeit: seat {loser} quit ({why})"),
            None if tally.faults >= self.max_faults => {
                format!("forfeit: seat {loser} faulted {} times", tally.faults)
            }
            None => format!(
                "forfeit: seat {loser} had {} answers rejected",
                tally.rejected_answers
            ),
        };
        Finish {
            winner: Some(1 - loser),
            reason,
            stats,
        }
    }

    /// Send the start request.
    pub fn start(&mut self, seat: Seat, start: &MatchStart<G>) {
        let result = self.players[usize::from(seat)].start(start);
        self.record(seat, result.map(|()| Answer::Started));
    }

    /// Ask `seat` for its action, the mode's one turn protocol: `offer` is recorded with the
    /// answer; a legal answer (by `check`, which gives the mode's reason otherwise) is played;
    /// an illegal one is rejected with that reason and the mode plays its default instead,
    /// as it does for a fault; a seat whose faults reach `max_faults`, or whose rejected
    /// answers reach `max_rejections`, forfeits at once.
    pub fn ask(
        &mut self,
        seat: Seat,
        observation: &G::Observation,
        offer: G::Offer,
        check: impl FnOnce(&G::Action) -> Result<(), String>,
    ) -> Asked<G::Action> {
        if let Some(loser) = self.forfeit() {
            return Asked::Forfeited(loser);
        }
        // A zero-sized offer (a mode that lists no choices: conquest) has nothing to record.
        self.offer = (size_of::<G::Offer>() != 0).then_some(offer);
        self.asking(seat);
        let result = self.players[usize::from(seat)].act(observation);
        let answer = match self.record(seat, result.map(Answer::Action)) {
            Answer::Action(action) => action,
            _ if self.tally[usize::from(seat)].forfeited => return Asked::Forfeited(seat),
            _ => return Asked::Default { rejected: None },
        };
        match check(&answer) {
            Ok(()) => Asked::Legal(answer),
            Err(reason) => self.refuse(seat, reason),
        }
    }

    /// Reject `seat`'s answer for `reason`: the mode's default, or the forfeit it caused.
    fn refuse<T>(&mut self, seat: Seat, reason: String) -> Asked<T> {
        match self.reject(seat, reason.clone(), true) {
            Some(loser) => Asked::Forfeited(loser),
            None => Asked::Default {
                rejected: Some(reason),
            },
        }
    }

    /// Ask `seat` for its setup, by the same protocol as [`Table::ask`]: `check` turns a
    /// legal choice into what the mode plays with.
    pub fn ask_setup<T>(
        &mut self,
        seat: Seat,
        request: &G::SetupRequest,
        check: impl FnOnce(&G::SetupChoice) -> Result<T, String>,
    ) -> Asked<T> {
        if let Some(loser) = self.forfeit() {
            return Asked::Forfeited(loser);
        }
        self.asking(seat);
        let result = self.players[usize::from(seat)].setup(request);
        let choice = match self.record(seat, result.map(Answer::Setup)) {
            Answer::Setup(choice) => choice,
            _ if self.tally[usize::from(seat)].forfeited => return Asked::Forfeited(seat),
            _ => return Asked::Default { rejected: None },
        };
        match check(&choice) {
            Ok(chosen) => Asked::Legal(chosen),
            Err(reason) => self.refuse(seat, reason),
        }
    }

    /// The mode rejected a part of `seat`'s latest answer as illegal (an answer of several
    /// orders, each carried out or refused on its own): recorded, counted, and the mode
    /// tells the bot in its next observation. The answer is one strike toward
    /// `max_rejections`, however many of its parts are rejected. The forfeit a strike
    /// causes waits for the parts carried out: they stand, and an end of the game they
    /// cause (a capture) comes first; the mode then asks [`Table::forfeit`], and the next
    /// [`Table::ask`] answers [`Asked::Forfeited`] in any case.
    pub fn reject_part(&mut self, seat: Seat, reason: impl Into<String>) {
        self.reject(seat, reason, false);
    }

    /// The seat that has forfeited, if one has; a forfeit waiting for the end of an
    /// answer ([`Table::reject_part`]) takes effect now: call it once the answer's parts
    /// are carried out and the game did not end by them.
    pub fn forfeit(&mut self) -> Option<Seat> {
        if let Some(seat) = self.pending_forfeit.take() {
            self.tally[usize::from(seat)].forfeited = true;
            self.forfeit.get_or_insert(seat);
        }
        self.forfeit
    }

    /// Record and count a rejection; the forfeit it causes (`at_once`, or waiting for the
    /// end of the answer), or an earlier one.
    fn reject(&mut self, seat: Seat, reason: impl Into<String>, at_once: bool) -> Option<Seat> {
        let tally = &mut self.tally[usize::from(seat)];
        tally.invalid_actions += 1;
        if G::REJECTIONS_STRIKE && !tally.struck {
            tally.struck = true;
            tally.rejected_answers += 1;
            if tally.rejected_answers >= self.max_rejections && !tally.forfeited {
                if at_once {
                    tally.forfeited = true;
                    self.forfeit.get_or_insert(seat);
                } else {
                    self.pending_forfeit.get_or_insert(seat);
                }
            }
        }
        self.push(Entry::Rejected {
            seat,
            turn: self.turn,
            reason: reason.into(),
        });
        self.forfeit
    }

    /// Tell `seat` the match is over.
    pub fn end(&mut self, seat: Seat, end: &MatchEnd) {
        self.players[usize::from(seat)].end(end);
    }

    fn record(&mut self, seat: Seat, result: Result<Answer<G>, Fault>) -> Answer<G> {
        let report = self.players[usize::from(seat)].last_call();
        let tally = &mut self.tally[usize::from(seat)];
        tally.fuel += report.fuel;
        tally.struck = false;
        let answer = match result {
            Ok(answer) => answer,
            Err(fault) => {
                tally.faults += 1;
                *tally
                    .fault_kinds
                    .entry(fault.kind.name().to_owned())
                    .or_default() += 1;
                if fault.kind == FaultKind::Quit && tally.quit.is_none() {
                    tally.quit = Some(fault.message.clone());
                }
                let gave_up = tally.quit.is_some();
                if (gave_up || tally.faults >= self.max_faults) && !tally.forfeited {
                    tally.forfeited = true;
                    self.forfeit.get_or_insert(seat);
                }
                Answer::Fault(fault)
            }
        };
        let log = (!report.log.is_empty()).then_some(report.log);
        let offered = self.offer.take();
        self.push(Entry::Answer {
            seat,
            turn: self.turn,
            answer: answer.clone(),
            fuel: report.fuel,
            log,
            offered,
        });
        answer
    }

    pub(crate) fn into_record(self, config: &MatchConfig<G>, finish: Finish) -> MatchRecord<G> {
        let [stats0, stats1] = finish.stats;
        let seats = [(0usize, stats0), (1, stats1)].map(|(i, mut stats)| {
            let t = &self.tally[i];
            if let Some(key) = G::REJECTIONS_STAT {
                stats.insert(key.to_owned(), i64::from(t.invalid_actions));
            }
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
            max_rejections: config.max_rejections,
            bots: [BotInfo::unnamed(0), BotInfo::unnamed(1)],
            initial: self.initial,
            log: self.log,
            outcome: outcome.clone(),
        };
        MatchRecord { outcome, replay }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::Battle;
    use crate::{MatchConfig, NativePlayer, run_match, run_match_observed};
    use arena_sdk::Bot;
    use arena_sdk::battle::{Action, Observation, SetupRequest, TeamChoice};

    struct First;
    impl Bot<Battle> for First {
        fn setup(&mut self, r: &SetupRequest) -> TeamChoice {
            TeamChoice {
                team: r.roster[..3].to_vec(),
            }
        }
        fn act(&mut self, o: &Observation) -> Action {
            Action::Attack {
                target: o.legal_targets[0],
            }
        }
    }

    /// Everything the observer hears, in order.
    #[derive(Default)]
    struct Log {
        heard: Vec<String>,
        entries: Vec<Entry<Battle>>,
    }
    impl Observer<Battle> for Log {
        fn initial(&mut self, _: &crate::battle::Initial) {
            self.heard.push("initial".into());
        }
        fn entry(&mut self, entry: &Entry<Battle>) {
            self.heard.push(match entry {
                Entry::Answer { seat, .. } => format!("answer {seat}"),
                Entry::Rejected { .. } => "rejected".into(),
                Entry::Event { .. } => "event".into(),
            });
            self.entries.push(entry.clone());
        }
        fn asking(&mut self, seat: Seat) {
            self.heard.push(format!("asking {seat}"));
        }
        fn finished(&mut self, finish: &Finish) {
            self.heard.push(format!("finished {}", finish.reason));
        }
    }

    #[test]
    fn an_observer_sees_every_entry_as_it_happens_and_changes_nothing() {
        let config = MatchConfig::<Battle>::new(Default::default(), 11);
        let (mut a, mut b) = (NativePlayer::new(First), NativePlayer::new(First));
        let plain = run_match(&config, [&mut a, &mut b]);
        let (mut a, mut b) = (NativePlayer::new(First), NativePlayer::new(First));
        let mut log = Log::default();
        let watched = run_match_observed(&config, [&mut a, &mut b], Some(&mut log));
        assert_eq!(plain.replay, watched.replay);
        assert_eq!(log.entries, watched.replay.log);
        // Each answer to a setup or action request is preceded by the question; the two
        // start answers are not asked through `asking`.
        let heard = &log.heard;
        assert_eq!(heard[..2], ["answer 0", "answer 1"]);
        for (i, line) in heard.iter().enumerate().skip(2) {
            if let Some(seat) = line.strip_prefix("answer ") {
                assert_eq!(heard[i - 1], format!("asking {seat}"), "{heard:?}");
            }
        }
        let initial = heard.iter().position(|h| h == "initial").unwrap();
        let first_event = heard.iter().position(|h| h == "event").unwrap();
        assert!(initial < first_event, "{heard:?}");
        assert_eq!(
            heard.last().unwrap(),
            &format!("finished {}", watched.outcome.reason)
        );
    }
}

#[cfg(test)]
mod quit_tests {
    use crate::battle::Battle;
    use crate::replay::verify;
    use crate::{Fault, FaultKind, MatchConfig, Player, run_match};
    use arena_sdk::battle::{Action, Observation, SetupRequest, TeamChoice};
    use arena_sdk::{MatchEnd, MatchStart};

    /// Answers `answers` actions, then quits.
    struct Quitter {
        answers: usize,
    }
    impl Player<Battle> for Quitter {
        fn start(&mut self, _: &MatchStart<Battle>) -> Result<(), Fault> {
            Ok(())
        }
        fn setup(&mut self, r: &SetupRequest) -> Result<TeamChoice, Fault> {
            Ok(TeamChoice {
                team: r.roster[..3].to_vec(),
            })
        }
        fn act(&mut self, o: &Observation) -> Result<Action, Fault> {
            if self.answers == 0 {
                return Err(Fault::new(FaultKind::Quit, "the player typed QUIT"));
            }
            self.answers -= 1;
            Ok(Action::Attack {
                target: o.legal_targets[0],
            })
        }
        fn end(&mut self, _: &MatchEnd) {}
    }

    #[test]
    fn a_quit_forfeits_at_once_and_the_reason_says_so() {
        let mut config = MatchConfig::<Battle>::new(Default::default(), 5);
        config.max_faults = 3;
        let mut a = Quitter { answers: 2 };
        let mut b = Quitter { answers: 10_000 };
        let record = run_match(&config, [&mut a, &mut b]);
        let outcome = &record.outcome;
        assert_eq!(outcome.winner, Some(1));
        assert_eq!(
            outcome.reason,
            "forfeit: seat 0 quit (the player typed QUIT)"
        );
        assert_eq!(
            outcome.seats[0].faults, 1,
            "one quit, not max_faults faults"
        );
        assert_eq!(outcome.seats[0].fault_kinds["quit"], 1);
        assert!(outcome.seats[0].forfeited);
        verify(&record.replay).expect("a quit replays");
    }

    /// Answers the target it is told is legal only every `every`-th turn; otherwise its
    /// own unit (always illegal).
    struct OwnGoal {
        every: u32,
        turns: u32,
    }
    impl Player<Battle> for OwnGoal {
        fn start(&mut self, _: &MatchStart<Battle>) -> Result<(), Fault> {
            Ok(())
        }
        fn setup(&mut self, r: &SetupRequest) -> Result<TeamChoice, Fault> {
            Ok(TeamChoice {
                team: r.roster[..3].to_vec(),
            })
        }
        fn act(&mut self, o: &Observation) -> Result<Action, Fault> {
            self.turns += 1;
            let target = if self.turns.is_multiple_of(self.every) {
                o.legal_targets[0]
            } else {
                o.acting
            };
            Ok(Action::Attack { target })
        }
        fn end(&mut self, _: &MatchEnd) {}
    }

    #[test]
    fn rejected_answers_forfeit_at_max_rejections_at_once() {
        let mut config = MatchConfig::<Battle>::new(Default::default(), 5);
        config.max_rejections = 4;
        let mut a = OwnGoal { every: 2, turns: 0 };
        let mut b = OwnGoal { every: 1, turns: 0 };
        let record = run_match(&config, [&mut a, &mut b]);
        let outcome = &record.outcome;
        assert_eq!(outcome.winner, Some(1));
        assert_eq!(outcome.reason, "forfeit: seat 0 had 4 answers rejected");
        assert!(outcome.seats[0].forfeited);
        assert_eq!(outcome.seats[0].invalid_actions, 4);
        assert_eq!(outcome.seats[0].faults, 0);
        assert_eq!(outcome.seats[1].invalid_actions, 0);
        // The fourth rejection is the last thing before the end event: its default is not
        // played.
        let log = &record.replay.log;
        assert!(matches!(
            log[log.len() - 2],
            crate::replay::Entry::Rejected { seat: 0, .. }
        ));
        assert_eq!(record.replay.max_rejections, 4);
        verify(&record.replay).expect("the forfeit replays");
    }

    #[test]
    fn below_max_rejections_a_seat_plays_on_with_the_default() {
        let mut config = MatchConfig::<Battle>::new(Default::default(), 5);
        config.max_rejections = u32::MAX;
        let mut a = OwnGoal { every: 2, turns: 0 };
        let mut b = OwnGoal { every: 1, turns: 0 };
        let record = run_match(&config, [&mut a, &mut b]);
        let outcome = &record.outcome;
        assert!(!outcome.seats[0].forfeited, "{}", outcome.reason);
        assert!(outcome.seats[0].invalid_actions > 4);
        verify(&record.replay).expect("replays");
    }

    #[test]
    fn a_replay_without_max_rejections_has_no_limit() {
        let config = MatchConfig::<Battle>::new(Default::default(), 5);
        let mut a = OwnGoal { every: 1, turns: 0 };
        let mut b = OwnGoal { every: 1, turns: 0 };
        let record = run_match(&config, [&mut a, &mut b]);
        let mut json = serde_json::to_value(&record.replay).unwrap();
        json.as_object_mut().unwrap().remove("max_rejections");
        let old: crate::replay::Replay<Battle> = serde_json::from_value(json).unwrap();
        assert_eq!(old.max_rejections, u32::MAX);
    }
}
