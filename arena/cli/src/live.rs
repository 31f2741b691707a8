//! The live view: a game drawn as it is played (`arena play --watch`, and what a person at
//! the terminal sees of the other seat's moves) or a replay stepped through (`arena replay
//! show --step`).
//!
//! The engine tells a [`Live`] (an [`Observer`]) of every entry as it is recorded and before
//! every decision; the view cuts the game into steps there — one decision and its events,
//! or for grid one round of all heroes — and draws each step, paced by `--delay` or by
//! Enter with `--step`. On a terminal it redraws in place (cursor home, each line cleared,
//! the rest of the screen cleared: nothing to restore on exit or Ctrl-C); elsewhere it
//! prints each step once, plainly, without escape codes.

use crate::input::{Line, read_line};
use crate::terminal::escape;
use arena_engine::replay::{BotInfo, Entry, Replay};
use arena_engine::{Answer, Finish, Observer, Ruleset};
use arena_sdk::{Mode, Seat};
use arena_tournament::game::Renderer;
use std::io::IsTerminal;
use std::time::Duration;

/// The live view's picture of the game as it stands, for the person asked next: the view
/// draws it (the same picture as `--watch`) and their prompt shows it, in the modes whose
/// `Interactive::PICTURE_AT_PROMPT` is set.
pub type PromptPicture = std::sync::Arc<std::sync::Mutex<Option<String>>>;

/// The pause between two steps on a terminal when `--delay` is not given.
pub const DEFAULT_DELAY_MS: u64 = 300;

/// How the view waits between steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pace {
    /// Sleep this long after each step.
    pub delay: Duration,
    /// Wait for Enter after each step (`q` or the end of input: run to the end).
    pub step: bool,
    /// Standard output is a terminal: redraw in place.
    pub terminal: bool,
}

impl Pace {
    /// `--delay MS` and `--step`; without `--delay`, [`DEFAULT_DELAY_MS`] on a terminal
    /// and no pause elsewhere or with `--step` (Enter paces it).
    pub fn new(delay_ms: Option<u64>, step: bool) -> Self {
        let terminal = std::io::stdout().is_terminal();
        let default = if terminal && !step {
            DEFAULT_DELAY_MS
        } else {
            0
        };
        Pace {
            delay: Duration::from_millis(delay_ms.unwrap_or(default)),
            step,
            terminal,
        }
    }
}

/// A live view of a game of mode `G`.
pub struct Live<G: Ruleset> {
    renderer: Renderer<G>,
    header: String,
    pace: Pace,
    /// Seats a person plays: their own prompts show the game, so the view prints only
    /// what happened (no pictures, no redrawing), and does not pause before their turn.
    humans: [bool; 2],
    /// The seat whose eyes the view is for: a person playing sees only what their seat
    /// may (in hot-seat play, the seat asked next); `None` for a spectator.
    viewer: Option<Seat>,
    drawn: usize,
    /// The terminal's height, when known: a screen taller than it would scroll.
    rows: Option<usize>,
    cleared: bool,
    stepping: bool,
    /// The first failure to print (a closed pipe): the view stops drawing, the game goes
    /// on, and the caller reports it afterwards.
    error: Option<anyhow::Error>,
    /// Where the picture goes before a person's decision, for their prompt to show.
    prompt_picture: Option<PromptPicture>,
}

impl<G: Ruleset> Live<G> {
    /// A view of a game of `bots`; `humans` marks the seats a person plays.
    pub fn new(mode: Mode, bots: &[BotInfo; 2], seed: u64, pace: Pace, humans: [bool; 2]) -> Self {
        Live {
            renderer: Renderer::new(None),
            header: arena_tournament::game::header(mode, bots, seed),
            pace,
            humans,
            viewer: match humans {
                [true, false] => Some(0),
                [false, true] => Some(1),
                _ => None,
            },
            drawn: 0,
            rows: pace.terminal.then(terminal_rows).flatten(),
            cleared: false,
            stepping: pace.step,
            error: None,
            prompt_picture: None,
        }
    }

    /// Before each decision of a person, put the picture of the game as it stands (the
    /// `--watch` picture) in `slot` for their prompt.
    pub fn share_picture(&mut self, slot: PromptPicture) {
        self.prompt_picture = Some(slot);
    }

    fn with_human(&self) -> bool {
        self.humans.iter().any(|&h| h)
    }

    /// Redraw in place, or print plainly.
    fn in_place(&self) -> bool {
        self.pace.terminal && !self.with_human()
    }

    /// Whether steps are rounds cut before events ([`Ruleset::BY_ROUND`]) rather than
    /// at each decision. With a person playing, every decision is a step: they see each of
    /// the other seat's moves before their own turn.
    fn by_round(&self) -> bool {
        G::BY_ROUND && !self.with_human()
    }

    /// End the current step and draw it; then pause when `pause` and something was drawn.
    /// Nothing is drawn before the first event (the start and setup answers), except the
    /// board before the first round, `forced`.
    fn cut(&mut self, pause: bool) {
        self.cut_with(pause, false);
    }

    fn cut_with(&mut self, pause: bool, forced: bool) {
        if self.error.is_some() || (self.renderer.events().is_empty() && !forced) {
            return;
        }
        let Some(step) = self.renderer.step_for(self.viewer) else {
            return;
        };
        self.drawn += 1;
        let result = if self.in_place() {
            self.redraw(&step.lines)
        } else {
            self.print(step.lines, step.picture)
        };
        if let Err(e) = result.and_then(|()| if pause { self.pause() } else { Ok(()) }) {
            self.error = Some(e);
        }
    }

    fn print(&mut self, lines: Vec<String>, picture: Option<String>) -> anyhow::Result<()> {
        // A person's own start line and prompts say what game this is.
        let pictures = !self.with_human();
        if self.drawn == 1 && pictures {
            outln!("{}", escape(&self.header))?;
        }
        for line in lines.into_iter().chain(picture.filter(|_| pictures)) {
            outln!("{}", escape(&line))?;
        }
        Ok(())
    }

    /// The whole screen: the header, the picture after the step, what happened in it.
    fn redraw(&mut self, lines: &[String]) -> anyhow::Result<()> {
        let mut screen = String::new();
        if !self.cleared {
            // Once: the first frame starts on an empty screen; later frames overwrite
            // each line and clear what is left below, which does not flicker.
            screen += "\u{1b}[2J";
            self.cleared = true;
        }
        screen += "\u{1b}[H";
        let header = format!("{}   step {}", self.header, self.drawn);
        let picture = self.renderer.picture().unwrap_or("").to_owned();
        // A screen taller than the terminal would scroll and the next one would not start
        // at the top: keep the step's last lines that fit (a line is left for the prompt).
        // One row per line of text: a bot's log or a fault message may hold several, whose
        // continuation rows are indented so they cannot pass for the view's own lines.
        let mut shown: Vec<String> = lines
            .iter()
            .flat_map(|line| {
                line.split('\n')
                    .enumerate()
                    .map(|(i, row)| {
                        if i == 0 {
                            row.to_owned()
                        } else {
                            format!("    {row}")
                        }
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        if let Some(rows) = self.rows {
            let room = rows.saturating_sub(picture.lines().count() + 3);
            if shown.len() > room {
                let kept = room.saturating_sub(1);
                let earlier = shown.len() - kept;
                shown.drain(..earlier);
                if room > 0 {
                    shown.insert(0, format!("… {earlier} earlier lines of this step"));
                }
            }
        }
        for line in std::iter::once(header.as_str())
            .chain(picture.lines())
            .chain(std::iter::once(""))
            .chain(shown.iter().map(String::as_str))
        {
            screen += &escape(line);
            screen += "\u{1b}[K\n";
        }
        screen += "\u{1b}[J";
        out!("{screen}")
    }

    /// Also draw the roll records (`replay show --rolls`).
    pub fn show_rolls(&mut self, rolls: bool) {
        self.renderer.show_rolls(rolls);
    }

    fn pause(&mut self) -> anyhow::Result<()> {
        if self.stepping {
            out!(
                "step {}: Enter for the next, q to run to the end> ",
                self.drawn
            )?;
            match read_line(None) {
                Line::Text(t) if t.trim().eq_ignore_ascii_case("q") => self.stepping = false,
                Line::Text(_) => {}
                Line::End | Line::Late => {
                    outln!()?;
                    self.stepping = false;
                }
            }
        } else if !self.pace.delay.is_zero() {
            std::thread::sleep(self.pace.delay);
        }
        Ok(())
    }

    /// Draw what is left; the first printing error, if any (the game itself went on).
    pub fn finish(&mut self) -> Option<anyhow::Error> {
        self.cut(false);
        self.error.take()
    }

    /// Step through a recorded game (`arena replay show --step`) as it was played: the
    /// same steps, in the same order, as `arena play --watch` drew.
    pub fn replay(mut self, replay: &Replay<G>) -> anyhow::Result<()> {
        let mut initial = replay.initial.as_ref();
        for entry in &replay.log {
            // The table records the initial state after the setup answers, just before the
            // first event: hand it over at the same point.
            if matches!(entry, Entry::Event { .. })
                && let Some(initial) = initial.take()
            {
                self.initial(initial);
            }
            if let Entry::Answer { seat, answer, .. } = entry
                && !matches!(answer, Answer::Started)
            {
                self.asking(*seat);
            }
            self.entry(entry);
        }
        if let Some(initial) = initial {
            self.initial(initial);
        }
        match self.finish() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl<G: Ruleset> Observer<G> for Live<G> {
    fn initial(&mut self, initial: &G::Initial) {
        self.renderer.set_initial(initial);
        if self.by_round() {
            // Rounds are cut before events: the board before the first one is drawn here.
            self.cut_with(true, true);
        }
    }

    fn entry(&mut self, entry: &Entry<G>) {
        if let Entry::Event { event } = entry
            && self.by_round()
            && G::starts_round(self.renderer.events(), event)
        {
            self.cut(true);
        }
        self.renderer.entry(entry);
    }

    fn asking(&mut self, seat: Seat) {
        if self.humans[usize::from(seat) % 2] {
            // The person's prompt waits for them: no pause before it.
            self.viewer = Some(seat);
            self.cut(false);
            if let Some(slot) = self.prompt_picture.clone() {
                if self.renderer.picture().is_none() {
                    // The board before anything happened.
                    self.cut_with(false, true);
                }
                *slot.lock().unwrap_or_else(|e| e.into_inner()) =
                    self.renderer.picture().map(str::to_owned);
            }
        } else if !self.by_round() {
            self.cut(true);
        }
    }

    fn finished(&mut self, _finish: &Finish) {
        // Drawn before the players hear the game is over ("game over" follows the last
        // move); a printing error is kept for `finish`.
        self.cut(false);
    }
}

/// The height of the controlling terminal, asked of `stty` once; `None` when unknown.
fn terminal_rows() -> Option<usize> {
    let tty = std::fs::File::open("/dev/tty").ok()?;
    let out = std::process::Command::new("stty")
        .arg("size")
        .stdin(tty)
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let rows = String::from_utf8(out.stdout).ok()?;
    rows.split_whitespace().next()?.parse().ok()
}
