//! # arena-viewer — replays in the browser
//!
//! [`page`] turns a replay into one self-contained HTML file (no network, no CDN: it opens
//! from disk) that plays the match. The engine computes, the page draws: each mode's
//! `Ruleset::frames` (in `arena-engine`, `<mode>/frames.rs`) cuts the replay into steps
//! with the full drawable state after each; this crate adds what every mode shares (the
//! events as text per step, the bots' answers, faults, rejections, log lines and fuel) and
//! embeds it as JSON in the page, whose drawing module for the mode (`Ruleset::DRAWING`)
//! only draws. The page can therefore never disagree with `arena replay verify`.
//!
//! Pure: no I/O. The caller reads the replay, verifies it, and writes the page.

use arena_engine::replay::Entry;
use arena_engine::{Answer, Choice, Outcome, Replay, Ruleset};
use serde::Serialize;
use serde_json::Value;

/// The page around every mode: layout, controls, timeline, event log, fuel charts.
const PAGE_HTML: &str = include_str!("page/page.html");
const PAGE_CSS: &str = include_str!("page/viewer.css");
const PAGE_JS: &str = include_str!("page/viewer.js");
/// Runs before anything else so that every JavaScript error is caught, shown and
/// readable by the browser tests.
const ERRORS_JS: &str = include_str!("page/errors.js");

/// What the page cannot learn from the replay.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// The fuel limit per turn the game was played under, drawn on the fuel charts
    /// (replays do not record limits).
    pub fuel_per_turn: Option<u64>,
}

/// Why a replay cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViewerError {
    /// The replay ended before setup (invalid rules): there is nothing to draw.
    #[error("the replay has no initial state (the game was not played: {0})")]
    NotPlayed(String),
    /// The mode has no frames or drawing module yet.
    #[error("mode `{0}` has no drawing in the viewer yet")]
    NoDrawing(String),
}

/// Everything the page shows, embedded as JSON (docs/replay.md, "Frames").
#[derive(Debug, Clone, Serialize)]
pub struct Data {
    /// The mode's name; picks the drawing module.
    pub mode: String,
    /// The bots' names, by seat.
    pub bots: [String; 2],
    /// The match seed, as a decimal string: a JavaScript number would round a 64-bit seed,
    /// and the seed is what a reader copies into `--seed`.
    #[serde(serialize_with = "decimal")]
    pub seed: u64,
    /// The engine that played it.
    pub engine_version: String,
    /// How it ended.
    pub outcome: Outcome,
    /// The fuel limit per turn, if known.
    pub fuel_per_turn: Option<u64>,
    /// What never changes (mode-specific).
    pub fixed: Value,
    /// One per step: `{turn, state}`.
    pub steps: Vec<StepData>,
    /// Every line of the log in order: events as text, answers, faults, rejections, bot
    /// log output, each with its step.
    pub lines: Vec<Line>,
}

/// One step as the page gets it.
#[derive(Debug, Clone, Serialize)]
pub struct StepData {
    /// The mode's turn counter.
    pub turn: u32,
    /// The drawable state after the step.
    pub state: Value,
}

/// What a log line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LineKind {
    /// Something happened in the game (the mode's event text).
    Event,
    /// An event that only records a random draw (`Ruleset::is_roll`), hidden until the
    /// page's "rolls" box is ticked.
    Roll,
    /// A bot answered (start, setup or action), with the fuel it used.
    Answer,
    /// A bot faulted instead of answering.
    Fault,
    /// The rules rejected an answer; the default was played.
    Rejected,
    /// What a bot wrote to its log during a call.
    Log,
}

/// One line of the event log.
#[derive(Debug, Clone, Serialize)]
pub struct Line {
    /// The step it belongs to.
    pub step: usize,
    /// What it is.
    pub kind: LineKind,
    /// The seat, for everything but events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// Fuel of an answer or fault that was a turn (not start or setup): what the fuel
    /// charts plot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fuel: Option<u64>,
    /// The text, exactly as the engine or the bot wrote it (the page escapes it).
    pub text: String,
    /// For a turn's answer or fault: the choices the request offered, as text; absent
    /// where the mode records no offer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offered: Option<Vec<String>>,
    /// Which of `offered` the answer took; absent when none (a fault, or a rejected
    /// answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chosen: Option<usize>,
}

/// The page's data for `replay`: the mode's frames plus the log cut into the same steps.
/// A log entry that is not an event belongs to the step of the next event (the answer
/// comes before what it causes), except when that event starts a step of another turn
/// than the entry's while the step before is of the entry's turn: then the step was
/// announced before the seat was asked, and the answer caused no event (a conquest seat
/// giving no orders). Entries before the first event belong to the start.
pub fn data<G: Ruleset>(replay: &Replay<G>, options: &Options) -> Result<Data, ViewerError> {
    let initial = replay
        .initial
        .as_ref()
        .ok_or_else(|| ViewerError::NotPlayed(replay.outcome.reason.clone()))?;
    let events: Vec<G::Event> = replay.events().cloned().collect();
    let mode = replay.mode.to_string();
    let frames = G::frames(initial, &events)
        .filter(|_| G::DRAWING.is_some())
        .ok_or_else(|| ViewerError::NoDrawing(mode.clone()))?;
    let starts: Vec<usize> = frames.steps.iter().map(|s| s.first_event).collect();
    let turns: Vec<u32> = frames.steps.iter().map(|s| s.turn).collect();
    // The step holding event `i`: the last one starting at or before it (starts[0] is 0).
    let step_of = |event: usize| starts.partition_point(|&first| first <= event) - 1;
    // The step of a call (or rejection) of `turn` made before event `next` (0 < next <
    // events.len()).
    let step_of_call = |next: usize, turn: u32| {
        let step = step_of(next);
        let announced = step > 0 && starts[step] == next && turns[step] != turn;
        if announced && turns[step - 1] == turn {
            step - 1
        } else {
            step
        }
    };

    let mut lines = Vec::with_capacity(replay.log.len());
    let mut next_event = 0;
    for entry in &replay.log {
        let turn = match entry {
            Entry::Answer { turn, .. } | Entry::Rejected { turn, .. } => Some(*turn),
            Entry::Event { .. } => None,
        };
        let step = match (next_event, turn) {
            (0, _) => 0,
            (n, _) if n >= events.len() => starts.len() - 1,
            (n, Some(turn)) => step_of_call(n, turn),
            (n, None) => step_of(n),
        };

        let line = |kind, seat: Option<u8>, fuel, text: String| Line {
            step,
            kind,
            seat,
            fuel,
            text,
            offered: None,
            chosen: None,
        };
        match entry {
            Entry::Event { event } => {
                // Roll records stay in the replay for auditors; the page hides them until
                // asked, as the events after them show their effects.
                let kind = if G::is_roll(event) {
                    LineKind::Roll
                } else {
                    LineKind::Event
                };
                lines.push(Line {
                    step: step_of(next_event),
                    ..line(kind, None, None, G::describe(event))
                });
                next_event += 1;
            }
            Entry::Rejected { seat, turn, reason } => {
                // The rules refused the answer, so none of the offered choices was taken
                // (the offer can match an answer it did not check, e.g. a spell's target).
                if let Some(answer) = lines
                    .iter_mut()
                    .rev()
                    .find(|l| l.kind == LineKind::Answer && l.seat == Some(*seat))
                {
                    answer.chosen = None;
                }
                lines.push(line(
                    LineKind::Rejected,
                    Some(*seat),
                    None,
                    format!("turn {turn}: seat {seat}'s answer rejected: {reason}"),
                ))
            }
            Entry::Answer {
                seat,
                turn,
                answer,
                fuel,
                log,
                offered,
            } => {
                // Start and setup calls come before the first event and run under a
                // larger limit; the charts plot turns only.
                let turn_fuel = (next_event > 0).then_some(*fuel);
                let (kind, text) = match answer {
                    Answer::Started => (LineKind::Answer, "started".to_owned()),
                    Answer::Setup(choice) => {
                        (LineKind::Answer, format!("setup {}", compact(choice)))
                    }
                    Answer::Action(action) => (LineKind::Answer, compact(action)),
                    Answer::Fault(fault) => (LineKind::Fault, format!("faulted: {fault}")),
                };
                let text = format!(
                    "turn {turn}: seat {seat} {text} ({} fuel)",
                    thousands(*fuel)
                );
                let action = match answer {
                    Answer::Action(action) => Some(action),
                    _ => None,
                };
                let choices: Option<Vec<Choice>> = offered
                    .as_ref()
                    .map(|offer| G::offered_choices(offer, action));
                lines.push(Line {
                    chosen: choices
                        .as_ref()
                        .and_then(|c| c.iter().position(|c| c.chosen)),
                    offered: choices.map(|c| c.into_iter().map(|c| c.text).collect()),
                    ..line(kind, Some(*seat), turn_fuel, text)
                });
                if let Some(log) = log {
                    lines.push(line(LineKind::Log, Some(*seat), None, log.clone()));
                }
            }
        }
    }
    Ok(Data {
        mode,
        bots: replay.bots.clone().map(|b| b.name),
        seed: replay.seed,
        engine_version: replay.engine_version.clone(),
        outcome: replay.outcome.clone(),
        fuel_per_turn: options.fuel_per_turn,
        fixed: frames.fixed,
        steps: frames
            .steps
            .into_iter()
            .map(|s| StepData {
                turn: s.turn,
                state: s.state,
            })
            .collect(),
        lines,
    })
}

/// The self-contained HTML page that plays `replay`.
pub fn page<G: Ruleset>(replay: &Replay<G>, options: &Options) -> Result<String, ViewerError> {
    let data = data(replay, options)?;
    let drawing = G::DRAWING.ok_or_else(|| ViewerError::NoDrawing(data.mode.clone()))?;
    let json = serde_json::to_string(&data).expect("frames serialize");
    // Inside <script>, only `</script>` (or `<!--`) could end the data early; `<` occurs
    // in JSON only inside strings, where `\u003c` means the same.
    let json = json.replace('<', "\\u003c");
    let title = format!(
        "{} — {} vs {} (seed {})",
        data.mode, data.bots[0], data.bots[1], data.seed
    );
    let title = escape_html(&title);
    Ok(fill(
        PAGE_HTML,
        &[
            ("title", &title),
            ("css", PAGE_CSS),
            ("errors_js", ERRORS_JS),
            ("viewer_js", PAGE_JS),
            ("mode_js", drawing),
            ("data", &json),
        ],
    ))
}

/// `template` with each `{{name}}` replaced, in one pass: a value (a bot's name in the
/// title, the data) is never searched for placeholders itself.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|(_, v)| v.len()).sum::<usize>());
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        let Some(close) = rest[open..].find("}}") else {
            break;
        };
        let name = &rest[open + 2..open + close];
        out.push_str(&rest[..open]);
        match values.iter().find(|(n, _)| *n == name) {
            Some((_, value)) => out.push_str(value),
            None => out.push_str(&rest[open..open + close + 2]),
        }
        rest = &rest[open + close + 2..];
    }
    out.push_str(rest);
    out
}

fn decimal<S: serde::Serializer>(n: &u64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(n)
}

fn compact(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("(unprintable: {e})"))
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Text for HTML element content and quoted attribute values: the one escaper of every
/// page the arena writes (the viewer, the tournament index, the server's pages).
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests;
