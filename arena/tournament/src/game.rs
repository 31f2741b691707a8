//! One game of any mode between two contestants; replay verification and rendering.
//!
//! Generic over the mode's types; [`for_mode!`](crate::for_mode) (in [`crate::modes`])
//! picks them from a [`Mode`] value.

use crate::bots::Contestant;
use crate::for_mode;
use arena_builtins::Builtins;
use arena_engine::replay::{self, BotInfo, Replay};
use arena_engine::{
    MatchConfig, NativePlayer, Observer, Outcome, Player, Ruleset, run_match_observed,
};
use arena_sandbox::Sandbox;
use arena_sdk::{Mode, Seat};

/// Which map format `text` is in when no mode is given: the map mode whose format claims
/// it (its first line; after a byte-order mark, whose own check then refuses it), else the
/// first map mode (whose check then says what is wrong). An empty file, or one that only
/// a byte-order mark keeps from being claimed, is claimed by no format: the error says so
/// rather than answering in one format's terms.
pub fn map_mode(text: &str) -> Result<Mode, String> {
    let modes = crate::modes::map_modes();
    let claimed = |text: &str| {
        modes
            .iter()
            .copied()
            .find(|m| crate::modes::maps_of(*m).is_some_and(|f| (f.claims)(text)))
    };
    let bare = text.strip_prefix('\u{feff}');
    if let Some(mode) = claimed(text).or_else(|| bare.and_then(claimed)) {
        return Ok(mode);
    }
    let formats = crate::modes::in_words(&modes);
    if bare.unwrap_or(text).trim().is_empty() {
        return Err(format!(
            "the file is empty: a map file's first line tells which mode it is for ({formats} take map files); write the map, or give --mode"
        ));
    }
    if bare.is_some() {
        return Err(format!(
            "the file starts with a byte-order mark (U+FEFF): save it as UTF-8 without one, or give --mode ({formats} take map files)"
        ));
    }
    Ok(modes.first().copied().expect("some mode takes map files"))
}

pub use arena_engine::MapSummary;

/// Check a map file's text for `mode`; `rules` (JSON, may be `null`) supplies limits such as
/// conquest's `max_frame`. The error names the line (and column) and the problem.
pub fn check_map(mode: Mode, text: &str, rules: &serde_json::Value) -> Result<MapSummary, String> {
    match crate::modes::maps_of(mode) {
        Some(format) => (format.check)(text, rules),
        None => Err(format!(
            "mode {mode} has no map files ({} do)",
            crate::modes::names_and(&crate::modes::map_modes())
        )),
    }
}

/// A game to play.
#[derive(Debug, Clone)]
pub struct GameSpec {
    /// The mode.
    pub mode: Mode,
    /// The rules configuration (JSON form of the mode's `Rules`; `null` for defaults).
    pub rules: serde_json::Value,
    /// The game seed.
    pub seed: u64,
    /// Faults that forfeit a match.
    pub max_faults: u32,
    /// Rejected answers that forfeit a match.
    pub max_rejections: u32,
}

/// A played game.
#[derive(Debug, Clone)]
pub struct GameResult {
    /// Who won, why, statistics.
    pub outcome: Outcome,
    /// The replay, in the form asked for ([`Keep`]).
    pub replay: Option<KeptReplay>,
}

/// What a played game keeps of its replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Nothing (a tournament without `--replays`, a bench).
    Nothing,
    /// A JSON tree, for callers that read it (`arena play`, `arena check`).
    Json,
    /// Its JSON text, for callers that only store it (tournament replays, the server's
    /// ladder): written straight from the replay, without a tree built and serialized again.
    Bytes,
}

/// A replay in the form a game was asked to keep; either converts to the other.
#[derive(Debug, Clone)]
pub enum KeptReplay {
    /// A JSON tree.
    Json(serde_json::Value),
    /// JSON text.
    Bytes(Vec<u8>),
}

impl KeptReplay {
    /// The replay as a JSON tree.
    pub fn into_json(self) -> serde_json::Value {
        match self {
            KeptReplay::Json(json) => json,
            KeptReplay::Bytes(bytes) => {
                serde_json::from_slice(&bytes).expect("the arena's own replay text is JSON")
            }
        }
    }

    /// The replay as JSON text.
    pub fn into_bytes(self) -> Vec<u8> {
        match self {
            KeptReplay::Json(json) => serde_json::to_vec(&json).expect("replays serialize"),
            KeptReplay::Bytes(bytes) => bytes,
        }
    }
}

/// Why a game could not be played at all (a bot's misbehaviour is never one of these).
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// The rules configuration does not fit the mode.
    #[error("rules for mode {mode}: {detail}")]
    Rules {
        /// The mode.
        mode: Mode,
        /// What is wrong.
        detail: String,
    },
    /// A built-in does not exist.
    #[error(transparent)]
    Bot(#[from] crate::bots::BotError),
}

/// Parse and validate a rules configuration for `mode`; `null` means the defaults.
pub fn parse_rules<G: Ruleset>(rules: &serde_json::Value) -> Result<G::Rules, GameError> {
    let fail = |detail: String| GameError::Rules {
        mode: G::MODE,
        detail,
    };
    let parsed: G::Rules = if rules.is_null() {
        G::Rules::default()
    } else {
        serde_path_to_error::deserialize(rules.clone()).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            fail(if path == "." {
                inner.to_string()
            } else {
                format!("{path}: {inner}")
            })
        })?
    };
    G::validate(&parsed).map_err(fail)?;
    Ok(parsed)
}

/// Check a rules configuration without playing.
pub fn check_rules(mode: Mode, rules: &serde_json::Value) -> Result<(), GameError> {
    for_mode!(mode, G => parse_rules::<G>(rules).map(drop))
}

/// Play one game. `contestants[0]` takes seat 0.
pub fn play(
    spec: &GameSpec,
    contestants: [&Contestant; 2],
    names: [&str; 2],
    sandbox: &Sandbox,
    keep: Keep,
) -> Result<GameResult, GameError> {
    for_mode!(spec.mode, G => play_typed::<G>(spec, contestants, names, sandbox, keep))
}

fn player<G: Ruleset + Builtins>(
    contestant: &Contestant,
    sandbox: &Sandbox,
) -> Result<Box<dyn Player<G>>, GameError> {
    contestant.check_mode(G::MODE)?;
    Ok(match contestant {
        Contestant::Builtin(name) => {
            let bot = G::create(name).expect("check_mode found the built-in");
            Box::new(NativePlayer::new(bot))
        }
        Contestant::Wasm(bot) => Box::new(bot.player(sandbox)),
    })
}

fn play_typed<G: Ruleset + Builtins>(
    spec: &GameSpec,
    contestants: [&Contestant; 2],
    names: [&str; 2],
    sandbox: &Sandbox,
    keep: Keep,
) -> Result<GameResult, GameError> {
    let [a, b] = contestants;
    play_seats_keeping::<G>(
        spec,
        [Occupant::Contestant(a), Occupant::Contestant(b)],
        names,
        sandbox,
        None,
        keep,
    )
}

/// Who occupies a seat in [`play_seats`]: a contestant, or a player the caller built itself
/// (the CLI's person at the terminal), which answers through the same [`Player`] path.
pub enum Occupant<'a, G: Ruleset> {
    /// A built-in or a wasm bot.
    Contestant(&'a Contestant),
    /// Any other player; it has no module, so no hash in the replay.
    Player(Box<dyn Player<G> + 'a>),
}

impl<G: Ruleset> std::fmt::Debug for Occupant<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Occupant::Contestant(c) => f.debug_tuple("Contestant").field(c).finish(),
            Occupant::Player(_) => f.write_str("Player"),
        }
    }
}

/// Play one game of mode `G` with the given seats, watched by `observer` if given; the
/// replay is always kept.
pub fn play_seats<G: Ruleset + Builtins>(
    spec: &GameSpec,
    seats: [Occupant<'_, G>; 2],
    names: [&str; 2],
    sandbox: &Sandbox,
    observer: Option<&mut dyn Observer<G>>,
) -> Result<GameResult, GameError> {
    play_seats_keeping(spec, seats, names, sandbox, observer, Keep::Json)
}

/// [`play_seats`], keeping the replay in the form wanted: a tournament without `--replays`
/// would otherwise build and drop a JSON tree per game, and one with it would build a tree
/// only to serialize it again.
fn play_seats_keeping<G: Ruleset + Builtins>(
    spec: &GameSpec,
    seats: [Occupant<'_, G>; 2],
    names: [&str; 2],
    sandbox: &Sandbox,
    observer: Option<&mut dyn Observer<G>>,
    keep: Keep,
) -> Result<GameResult, GameError> {
    let rules = parse_rules::<G>(&spec.rules)?;
    let [seat0, seat1] = seats;
    let (mut seat0, sha0) = seat_player(seat0, sandbox)?;
    let (mut seat1, sha1) = seat_player(seat1, sandbox)?;
    let config = MatchConfig {
        rules,
        seed: spec.seed,
        max_faults: spec.max_faults,
        max_rejections: spec.max_rejections,
    };
    // The players live only in this function: the observer's borrow is shortened to theirs.
    let observer = observer.map(|o| {
        let o: &mut dyn Observer<G> = o;
        o
    });
    let mut record = run_match_observed(&config, [seat0.as_mut(), seat1.as_mut()], observer);
    for (seat, sha256) in [sha0, sha1].into_iter().enumerate() {
        record.replay.bots[seat] = BotInfo {
            name: names[seat].to_owned(),
            sha256,
        };
    }
    let replay = match keep {
        Keep::Nothing => None,
        Keep::Json => Some(KeptReplay::Json(
            serde_json::to_value(&record.replay).expect("replays serialize"),
        )),
        Keep::Bytes => Some(KeptReplay::Bytes(
            serde_json::to_vec(&record.replay).expect("replays serialize"),
        )),
    };
    Ok(GameResult {
        outcome: record.outcome,
        replay,
    })
}

type BoxedPlayer<'a, G> = Box<dyn Player<G> + 'a>;

/// The player of a seat, and its module's hash.
fn seat_player<'a, G: Ruleset + Builtins>(
    seat: Occupant<'a, G>,
    sandbox: &Sandbox,
) -> Result<(BoxedPlayer<'a, G>, Option<String>), GameError> {
    Ok(match seat {
        Occupant::Contestant(contestant) => (
            player::<G>(contestant, sandbox)?,
            contestant.sha256().map(str::to_owned),
        ),
        Occupant::Player(player) => (player, None),
    })
}

/// A replay file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// Not JSON, not a replay, or an unknown mode.
    #[error("not a readable replay: {0}")]
    Format(String),
    /// Re-simulation differs.
    #[error("replay does not verify: {0}")]
    Mismatch(String),
}

fn parse_replay<G: Ruleset>(json: &serde_json::Value) -> Result<Replay<G>, ReplayError> {
    // The version first: an older or newer file may not parse as this version's types, and
    // its reader deserves to hear why and what to do rather than a missing field.
    if let Some(version) = json.get("version").and_then(|v| v.as_u64())
        && version != u64::from(replay::REPLAY_VERSION)
    {
        return Err(ReplayError::Format(replay::version_problem(
            u32::try_from(version).unwrap_or(u32::MAX),
        )));
    }
    serde_json::from_value(json.clone()).map_err(|e| ReplayError::Format(e.to_string()))
}

fn mode_of(json: &serde_json::Value) -> Result<Mode, ReplayError> {
    let mode = json
        .get("mode")
        .and_then(|m| m.as_str())
        .ok_or_else(|| ReplayError::Format("no `mode` field".into()))?;
    mode.parse().map_err(ReplayError::Format)
}

/// What [`verify_replay`] re-simulated and found identical, and what the file says about
/// who and what played it (which re-simulation cannot check: see [`Verified::bots`]).
#[derive(Debug, Clone)]
pub struct Verified {
    /// The mode.
    pub mode: Mode,
    /// The match seed.
    pub seed: u64,
    /// The replay format version.
    pub version: u32,
    /// The engine version written in the file.
    pub engine_version: String,
    /// The bots written in the file.
    pub bots: [BotInfo; 2],
    /// Whether the file holds an initial state (it was compared).
    pub initial: bool,
    /// Whether the file holds rule tables (they were compared with this engine's).
    pub tables: bool,
    /// Log entries compared: all of them, and by kind.
    pub entries: usize,
    /// Bot answers (and faults) among them, fed back to the engine in place of the bots.
    pub answers: usize,
    /// Rejections among them.
    pub rejections: usize,
    /// Game events among them.
    pub events: usize,
    /// Roll records among the events (random draws: rolls, orders, picks).
    pub rolls: usize,
    /// Answers recorded with the legal choices their request offered.
    pub offers: usize,
    /// The outcome, compared whole except for fuel.
    pub outcome: Outcome,
}

/// Re-simulate a replay and check it reproduces every event and the outcome.
pub fn verify_replay(json: &serde_json::Value) -> Result<Verified, ReplayError> {
    use arena_engine::replay::Entry;
    for_mode!(mode_of(json)?, G => {
        let replay = parse_replay::<G>(json)?;
        replay::verify(&replay).map_err(ReplayError::Mismatch)?;
        let count = |pick: fn(&Entry<G>) -> bool| replay.log.iter().filter(|e| pick(e)).count();
        Ok(Verified {
            mode: replay.mode,
            seed: replay.seed,
            version: replay.version,
            engine_version: replay.engine_version.clone(),
            bots: replay.bots.clone(),
            initial: replay.initial.is_some(),
            tables: !replay.tables.is_null(),
            entries: replay.log.len(),
            answers: count(|e| matches!(e, Entry::Answer { .. })),
            rejections: count(|e| matches!(e, Entry::Rejected { .. })),
            events: count(|e| matches!(e, Entry::Event { .. })),
            rolls: count(|e| matches!(e, Entry::Event { event } if G::is_roll(event))),
            offers: count(|e| matches!(e, Entry::Answer { offered: Some(_), .. })),
            outcome: replay.outcome,
        })
    })
}

/// Render a replay as text: a header, then every event (and, with `pictures`, the state
/// before each decision where the mode draws one). The replay must verify first.
pub fn render_replay(json: &serde_json::Value, pictures: bool) -> Result<Vec<String>, ReplayError> {
    render_replay_with(json, pictures, false)
}

/// [`render_replay`], with `rolls`: also the roll records (the random draws other events
/// show the effect of, which are left out by default; see `Ruleset::is_roll`).
pub fn render_replay_with(
    json: &serde_json::Value,
    pictures: bool,
    rolls: bool,
) -> Result<Vec<String>, ReplayError> {
    for_mode!(mode_of(json)?, G => {
        verified::<G>(json).map(|replay| render::<G>(&replay, pictures, rolls))
    })
}

/// The mode a replay's JSON says it is of.
pub fn replay_mode(json: &serde_json::Value) -> Result<Mode, ReplayError> {
    mode_of(json)
}

/// A replay of mode `G`, read and verified: only a replay the engine reproduces is drawn,
/// so its events are the engine's own and a hand-edited file cannot make a renderer index
/// past a board or a seat.
pub fn verified<G: Ruleset>(json: &serde_json::Value) -> Result<Replay<G>, ReplayError> {
    let replay = parse_replay::<G>(json)?;
    replay::verify(&replay).map_err(ReplayError::Mismatch)?;
    Ok(replay)
}

fn render<G: Ruleset>(replay: &Replay<G>, pictures: bool, rolls: bool) -> Vec<String> {
    use arena_engine::replay::Entry;
    let mut frames = vec![header(replay.mode, &replay.bots, replay.seed)];
    let mut renderer = Renderer::<G>::new(replay.initial.clone());
    renderer.show_rolls(rolls);
    for entry in &replay.log {
        // The picture of the state a decision was made in, before the answer's own lines.
        if matches!(entry, Entry::Answer { .. }) {
            frames.extend(renderer.step().into_iter().flat_map(|s| s.text(pictures)));
        }
        renderer.entry(entry);
    }
    frames.extend(renderer.step().into_iter().flat_map(|s| s.text(pictures)));
    frames.push(result_line(&replay.outcome, &replay.bots));
    frames
}

/// The first line of a rendered game: mode, bots, seed.
pub fn header(mode: Mode, bots: &[BotInfo; 2], seed: u64) -> String {
    format!(
        "{mode} — {} (seat 0) vs {} (seat 1), seed {seed}",
        bots[0].name, bots[1].name
    )
}

/// The last line of a rendered game: who won and why.
pub fn result_line(outcome: &Outcome, bots: &[BotInfo; 2]) -> String {
    match outcome.winner {
        Some(seat) => format!(
            "winner: seat {seat} ({}) — {}",
            bots[usize::from(seat) % 2].name,
            outcome.reason
        ),
        None => format!("draw — {}", outcome.reason),
    }
}

/// A game turned into text as its log arrives, one step at a time: what `arena replay
/// show` prints, and what the CLI's live view draws while a game is played. The caller
/// says where a step ends ([`Renderer::step`]); the renderer keeps what happened since, and
/// the mode's sketch of the state, advanced by each event once (a step's picture costs the
/// step, not the game so far).
#[derive(Debug)]
pub struct Renderer<G: Ruleset> {
    sketch: Option<Box<dyn arena_engine::Sketch<G::Event>>>,
    events: Vec<G::Event>,
    /// What happened since the last step, turned into lines when the step ends: who sees
    /// them is known only then.
    pending: Vec<Pending<G::Event>>,
    last_picture: Option<String>,
    rolls: bool,
}

/// One line of a step to come.
#[derive(Debug)]
enum Pending<E> {
    /// An event, described for whoever looks.
    Event(E),
    /// A line about `seat`'s answer: `all` for the seat itself and a spectator, `others`
    /// (if anything) for the other seat.
    Answer {
        seat: Seat,
        all: String,
        others: Option<String>,
    },
}

/// One step of a rendered game: what happened, then the picture of the state after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// One line per event, fault, rejection and bot log line.
    pub lines: Vec<String>,
    /// The state after the step, when the mode draws one and it changed since the last.
    pub picture: Option<String>,
}

impl Step {
    /// The lines, then the picture when `pictures`.
    pub fn text(self, pictures: bool) -> impl Iterator<Item = String> {
        self.lines
            .into_iter()
            .chain(self.picture.filter(|_| pictures))
    }
}

impl<G: Ruleset> Renderer<G> {
    /// A renderer for a game that starts from `initial` (`None`: not known yet).
    pub fn new(initial: Option<G::Initial>) -> Self {
        Renderer {
            sketch: initial.as_ref().and_then(G::sketch),
            events: Vec::new(),
            pending: Vec::new(),
            last_picture: None,
            rolls: false,
        }
    }

    /// Also describe the roll records (left out by default: the lines that follow them
    /// show what each roll did; see `Ruleset::is_roll`).
    pub fn show_rolls(&mut self, rolls: bool) {
        self.rolls = rolls;
    }

    /// The initial state is known (after setup).
    pub fn set_initial(&mut self, initial: &G::Initial) {
        self.sketch = G::sketch(initial);
        if let Some(sketch) = &mut self.sketch {
            for event in &self.events {
                sketch.apply(event);
            }
        }
    }

    /// The events so far.
    pub fn events(&self) -> &[G::Event] {
        &self.events
    }

    /// One more log entry.
    pub fn entry(&mut self, entry: &arena_engine::replay::Entry<G>) {
        use arena_engine::replay::Entry;
        match entry {
            Entry::Event { event } => {
                // Roll records are for auditors (they stay in the file); the lines that
                // follow show what each roll did.
                if self.rolls || !G::is_roll(event) {
                    self.pending.push(Pending::Event(event.clone()));
                }
                if let Some(sketch) = &mut self.sketch {
                    sketch.apply(event);
                }
                self.events.push(event.clone());
            }
            // The reason can name what only the seat knows (a card in its hand).
            Entry::Rejected { seat, turn, reason } => self.pending.push(Pending::Answer {
                seat: *seat,
                all: format!("turn {turn}: seat {seat}'s answer rejected: {reason}"),
                others: Some(format!("turn {turn}: seat {seat}'s answer rejected")),
            }),
            Entry::Answer {
                seat,
                turn,
                answer,
                log,
                ..
            } => {
                let seat = *seat;
                match answer {
                    arena_engine::Answer::Fault(fault)
                        if fault.kind == arena_engine::FaultKind::Quit =>
                    {
                        let line = format!("turn {turn}: seat {seat} quit: {}", fault.message);
                        self.pending.push(Pending::Answer {
                            seat,
                            all: line.clone(),
                            others: Some(line),
                        });
                    }
                    // A fault's message can quote the bot's own state (a panic message).
                    arena_engine::Answer::Fault(fault) => self.pending.push(Pending::Answer {
                        seat,
                        all: format!("turn {turn}: seat {seat} faulted: {fault}"),
                        others: Some(format!(
                            "turn {turn}: seat {seat} faulted ({})",
                            fault.kind.name()
                        )),
                    }),
                    _ => {}
                }
                // What a bot logs is its own.
                if let Some(log) = log {
                    self.pending.push(Pending::Answer {
                        seat,
                        all: format!("turn {turn}: seat {seat} logs: {log}"),
                        others: None,
                    });
                }
            }
        }
    }

    /// End the current step: its lines, and the picture when it differs from the last one
    /// drawn. `None` when nothing happened and nothing changed (the start and setup
    /// answers come before any event: drawing after each would repeat the first picture).
    pub fn step(&mut self) -> Option<Step> {
        self.step_for(None)
    }

    /// [`Renderer::step`] as the person playing `viewer` may see it (`None`: a spectator,
    /// who sees everything): the mode's [`Ruleset::describe_for`], and of the other seat's
    /// answers only what is public (no bot log, no rejection's reason, a fault's kind).
    pub fn step_for(&mut self, viewer: Option<Seat>) -> Option<Step> {
        let picture = self
            .sketch
            .as_ref()
            .and_then(|s| s.draw())
            .filter(|p| self.last_picture.as_ref() != Some(p));
        if let Some(p) = &picture {
            self.last_picture = Some(p.clone());
        }
        let lines: Vec<String> = std::mem::take(&mut self.pending)
            .into_iter()
            .filter_map(|line| match (line, viewer) {
                (Pending::Event(event), None) => Some(G::describe(&event)),
                (Pending::Event(event), Some(viewer)) => G::describe_for(&event, viewer),
                (Pending::Answer { seat, all, others }, viewer) => {
                    if viewer.is_none_or(|v| v == seat) {
                        Some(all)
                    } else {
                        others
                    }
                }
            })
            .collect();
        (!lines.is_empty() || picture.is_some()).then_some(Step { lines, picture })
    }

    /// The last picture drawn.
    pub fn picture(&self) -> Option<&str> {
        self.last_picture.as_deref()
    }
}
