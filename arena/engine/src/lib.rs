//! # arena-engine — the rules of every mode, the match loop, replays and statistics
//!
//! The engine is pure: no I/O, no clock, no threads, no wasm. A match is a function of the
//! rules, a seed and the answers of two [`Player`]s; anything that talks to a bot (the
//! wasm sandbox, a built-in AI) implements [`Player`].
//!
//! ```
//! use arena_engine::{battle::Battle, run_match, MatchConfig, NativePlayer};
//! # use arena_sdk::{Bot, battle::*};
//! # #[derive(Default)] struct First;
//! # impl Bot<Battle> for First {
//! #     fn setup(&mut self, r: &SetupRequest) -> TeamChoice { TeamChoice { team: r.roster[..3].to_vec() } }
//! #     fn act(&mut self, o: &Observation) -> Action { Action::Attack { target: o.legal_targets[0] } }
//! # }
//! let mut a = NativePlayer::new(First);
//! let mut b = NativePlayer::new(First);
//! let record = run_match::<Battle>(&MatchConfig::new(Default::default(), 7), [&mut a, &mut b]);
//! println!("{:?} ({})", record.outcome.winner, record.outcome.reason);
//! ```

pub mod battle;
pub mod conquest;
pub mod dungeon;
pub mod frames;
pub mod grid;
pub mod human;
mod player;
pub mod replay;
mod seed;
mod table;
pub mod tcg;

pub use arena_sdk as sdk;
pub use player::{Answer, CallReport, Fault, FaultKind, NativePlayer, Player, ScriptedPlayer};
pub use replay::{Outcome, Replay, SeatOutcome};
pub use seed::derive_seed;
pub use table::{Asked, Finish, Observer, Table};

use arena_sdk::{ABI_VERSION, Game, MatchEnd, MatchResult, MatchStart};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::fmt::Debug;

/// The engine version written into replays and results.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Per-player statistics of a match: name → count (kills, damage_dealt, …). A `BTreeMap`
/// so the order is stable in every file it reaches.
pub type Stats = BTreeMap<String, i64>;

/// A game mode's rules, implemented by the engine for each protocol type of the SDK.
pub trait Ruleset: Game {
    /// What happened, step by step, with its numbers (replays, rendering).
    type Event: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send;
    /// The full initial state (every unit's stats, the map …), recorded in the replay.
    type Initial: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send;
    /// The legal choices a bot was offered with a request, compactly (battle: the targets
    /// and whether the skill is ready; grid: the directions …), recorded in the replay with
    /// its answer so an auditor can check a rejection (docs/replay.md).
    type Offer: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send;

    /// The map files this mode's rules take (`map_file`, `--map`, `arena map check`), if any:
    /// a map's text goes into the rules as `map`.
    const MAPS: Option<MapFormat> = None;

    /// The deck files this mode's rules take (`deck_file`, `--deck`, a tournament bot's
    /// `deck`, `arena deck check`), if any: a deck's card ids go into the rules as `deck`
    /// (both seats) or `deck0`/`deck1` (one seat).
    const DECKS: Option<DeckFormat> = None;

    /// The browser viewer's drawing of this mode: a JavaScript module (`<mode>/viewer.js`)
    /// that registers `Arena.modes.<mode> = { setup, draw }` and draws the states of
    /// [`Ruleset::frames`]; `None` where the mode has no drawing.
    const DRAWING: Option<&'static str> = None;

    /// Check a rules configuration; the message says what is wrong.
    fn validate(rules: &Self::Rules) -> Result<(), String>;

    /// Play one match to its end. `seed` drives every random roll.
    fn play(rules: &Self::Rules, seed: u64, table: &mut Table<'_, Self>) -> Finish;

    /// One line of text for an event (terminal rendering of replays).
    fn describe(event: &Self::Event) -> String;

    /// Whether a rejected answer is a strike toward `max_rejections`. A mode whose seed
    /// document gives every answer an effect (grid: a move off the board stays put, which
    /// is the default anyway) reports the rejection but does not count it as a strike.
    const REJECTIONS_STRIKE: bool = true;

    /// The statistic that counts a seat's rejections, if the mode has one: the table fills
    /// it from its own count (the match's invalid actions), so it is one counter with the
    /// log's rejections and the forfeit reason, the forfeiting rejection included. The mode
    /// leaves it out of its own statistics.
    const REJECTIONS_STAT: Option<&'static str> = None;

    /// The line a person playing `viewer` is shown for an event: only what that seat's
    /// observations hold, plus public events (`None`: nothing of it is theirs to see). The
    /// default, for a mode without hidden information, is [`Ruleset::describe`].
    fn describe_for(event: &Self::Event, viewer: arena_sdk::Seat) -> Option<String> {
        let _ = viewer;
        Some(Self::describe(event))
    }

    /// The rule tables the rules config does not hold (battle: the unit, skill and effect
    /// tables; tcg: the card pool in force and the variation switches), as data, written in
    /// the replay's header so a replay describes its own rules; `verify` compares them
    /// with this engine's. `Null` where the rules config holds everything.
    fn tables(_rules: &Self::Rules) -> serde_json::Value {
        serde_json::Value::Null
    }

    /// The choices `offer` lists, each as text, and whether `answer` took it: what the
    /// viewer shows next to a decision. Empty where the mode records no offer (conquest).
    fn offered_choices(_offer: &Self::Offer, _answer: Option<&Self::Action>) -> Vec<Choice> {
        Vec::new()
    }

    /// Whether an event is the mode's end event, the last event of every match (who won and
    /// why, with the mode's final numbers).
    fn is_end(event: &Self::Event) -> bool;

    /// Whether an event only records a random draw (a roll, an order, a pick) that other
    /// events already show the effect of: kept in the replay for auditors, left out of
    /// `replay show` (without `--rolls`) and hidden in the viewer's log (until asked) so
    /// they do not drown in rolls.
    fn is_roll(_event: &Self::Event) -> bool {
        false
    }

    /// Whether a live view of bots cuts the game into rounds ([`Ruleset::starts_round`])
    /// rather than after each decision.
    const BY_ROUND: bool = false;

    /// Whether `event` begins a new round, after the events `before` it.
    fn starts_round(_before: &[Self::Event], _event: &Self::Event) -> bool {
        false
    }

    /// The state a terminal picture is drawn from, at `initial`, to be advanced one event
    /// at a time (`replay show --pictures`, `--watch`); `None` where the mode's events
    /// already tell everything.
    fn sketch(_initial: &Self::Initial) -> Option<Box<dyn Sketch<Self::Event>>> {
        None
    }

    /// A picture of the state after `events` (the [`Ruleset::sketch`] folded over them);
    /// `None` where the mode draws none, or nothing yet. A caller drawing after every step
    /// keeps a sketch instead, so that each event is folded once.
    fn picture(initial: &Self::Initial, events: &[Self::Event]) -> Option<String> {
        let mut sketch = Self::sketch(initial)?;
        for event in events {
            sketch.apply(event);
        }
        sketch.draw()
    }

    /// The replay cut into steps with the drawable state after each, for the browser
    /// viewer (`<mode>/frames.rs`, drawn by the viewer's module for the mode); `None`
    /// where the mode has no drawing yet.
    fn frames(_initial: &Self::Initial, _events: &[Self::Event]) -> Option<frames::Frames> {
        None
    }
}

/// A mode's map file format ([`Ruleset::MAPS`]).
#[derive(Debug, Clone, Copy)]
pub struct MapFormat {
    /// Whether a map's text is in this format, for a map checked without a mode (its
    /// first line says so: grid's `size`, conquest's `Frame:`).
    pub claims: fn(&str) -> bool,
    /// Check a map's text against the limits in `rules` (the mode's rules as JSON, `null`
    /// for the defaults); the error names the line (and column) and the problem.
    pub check: fn(&str, &serde_json::Value) -> Result<MapSummary, String>,
}

/// The first line of a map file with content, comments (`;` to the end of the line) left
/// out: where a map format says what it is.
pub(crate) fn first_map_line(text: &str) -> &str {
    text.lines()
        .map(|l| l.split(';').next().unwrap_or("").trim())
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

/// A checked map: its size and a picture of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapSummary {
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// The map drawn for the terminal.
    pub picture: String,
}

/// A mode's deck file format ([`Ruleset::DECKS`]).
#[derive(Debug, Clone, Copy)]
pub struct DeckFormat {
    /// Read a deck's text against the card pool of `rules` (JSON): its card ids; the error
    /// names the line.
    pub read: fn(&str, &serde_json::Value) -> Result<Vec<String>, String>,
    /// The number of cards a deck has under `rules`.
    pub size: fn(&serde_json::Value) -> Result<usize, String>,
    /// A deck written back in the file format.
    pub write: fn(&[String]) -> String,
    /// The deck `seat` played, from a replay's initial state (as JSON).
    pub played: fn(&serde_json::Value, arena_sdk::Seat) -> Result<Vec<String>, String>,
}

/// One of the legal choices a request offered ([`Ruleset::offered_choices`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Choice {
    /// The choice, as text (`attack #3`, `east`, `play 12 as minion`).
    pub text: String,
    /// Whether the answer was this choice.
    pub chosen: bool,
}

impl Choice {
    fn of<A: PartialEq>(text: impl Into<String>, choice: &A, answer: Option<&A>) -> Choice {
        Choice {
            text: text.into(),
            chosen: answer == Some(choice),
        }
    }
}

/// A mode's drawable state, advanced one event at a time ([`Ruleset::sketch`]).
pub trait Sketch<E>: Send {
    /// The state after one more event.
    fn apply(&mut self, event: &E);
    /// The state as text; `None` when there is nothing to draw yet (dungeon before its
    /// first run).
    fn draw(&self) -> Option<String>;
}

impl<E> Debug for dyn Sketch<E> + '_ {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sketch")
    }
}

/// What a match needs besides its players.
#[derive(Debug, Clone)]
pub struct MatchConfig<G: Game> {
    /// The rules in force.
    pub rules: G::Rules,
    /// The match seed: the game's rolls and each bot's own seed derive from it.
    pub seed: u64,
    /// A player who faults this many times in one match forfeits it.
    pub max_faults: u32,
    /// A player with this many answers rejected in one match forfeits it.
    pub max_rejections: u32,
}

/// The default of [`MatchConfig::max_faults`].
pub const DEFAULT_MAX_FAULTS: u32 = 3;
/// The default of [`MatchConfig::max_rejections`].
pub const DEFAULT_MAX_REJECTIONS: u32 = 10;

impl<G: Game> MatchConfig<G> {
    /// Default tolerances: [`DEFAULT_MAX_FAULTS`] faults or [`DEFAULT_MAX_REJECTIONS`]
    /// rejected answers forfeit.
    pub fn new(rules: G::Rules, seed: u64) -> Self {
        MatchConfig {
            rules,
            seed,
            max_faults: DEFAULT_MAX_FAULTS,
            max_rejections: DEFAULT_MAX_REJECTIONS,
        }
    }
}

/// A finished match: the outcome and its full replay.
#[derive(Debug, Clone)]
pub struct MatchRecord<G: Ruleset> {
    /// Who won, why, and the statistics.
    pub outcome: Outcome,
    /// Everything needed to re-simulate and render the match.
    pub replay: Replay<G>,
}

/// Play one match between two players. Invalid rules (see [`Ruleset::validate`]) end it
/// at once as a draw whose reason names the problem, without a single move.
pub fn run_match<G: Ruleset>(
    config: &MatchConfig<G>,
    players: [&mut dyn Player<G>; 2],
) -> MatchRecord<G> {
    run_match_observed(config, players, None)
}

/// [`run_match`] with an [`Observer`] told of each step as it happens (a live view).
pub fn run_match_observed<'p, G: Ruleset>(
    config: &MatchConfig<G>,
    players: [&'p mut dyn Player<G>; 2],
    observer: Option<&'p mut dyn Observer<G>>,
) -> MatchRecord<G> {
    run_match_with(config, players, observer, |rules, seed, table| {
        (G::play(rules, seed, table), ())
    })
    .0
}

/// The match loop of [`run_match_observed`] around `play` (the mode's `Ruleset::play`, or a
/// version of it that also hands back what it ends with: the modes' tests keep the play
/// loop's final state this way); `None` for a match not played (invalid rules).
pub(crate) fn run_match_with<'p, G: Ruleset, S>(
    config: &MatchConfig<G>,
    players: [&'p mut dyn Player<G>; 2],
    observer: Option<&'p mut dyn Observer<G>>,
    play: impl FnOnce(&G::Rules, u64, &mut Table<'p, G>) -> (Finish, S),
) -> (MatchRecord<G>, Option<S>) {
    let mut table = Table::new(players, config.max_faults, config.max_rejections);
    if let Some(observer) = observer {
        table.observed_by(observer);
    }
    for seat in 0..2u8 {
        let start = MatchStart::<G> {
            abi: ABI_VERSION,
            mode: G::MODE,
            seat,
            seed: derive_seed(config.seed, u64::from(seat) + 1),
            rules: config.rules.clone(),
        };
        table.start(seat, &start);
    }
    // Callers validate rules first (with a better error); a replay file or a library user
    // may not have, and invalid rules can make a mode loop forever or index out of range.
    let (finish, kept) = match G::validate(&config.rules) {
        Ok(()) => {
            let (finish, kept) = play(&config.rules, derive_seed(config.seed, 0), &mut table);
            (finish, Some(kept))
        }
        Err(problem) => (
            Finish {
                winner: None,
                reason: format!("not played: invalid rules: {problem}"),
                stats: [Stats::new(), Stats::new()],
            },
            None,
        ),
    };
    table.finished(&finish);
    for seat in 0..2u8 {
        let result = match finish.winner {
            None => MatchResult::Draw,
            Some(w) if w == seat => MatchResult::Win,
            Some(_) => MatchResult::Loss,
        };
        table.end(
            seat,
            &MatchEnd {
                result,
                reason: finish.reason.clone(),
            },
        );
    }
    (table.into_record(config, finish), kept)
}
