//! A person at the terminal as a [`Player`]: `arena play --mode M human BOT`.
//!
//! The person answers through the same [`Player`] path as a bot, so the replay verifies and
//! the statistics count. Each decision shows the game from the seat's observation, the legal
//! choices numbered, and reads a line: a number, or the mode's natural input (the mode's
//! [`Interactive`], in its engine folder).
//! Invalid input re-prompts with the reason. `QUIT` or the end of input (Ctrl-D) is a `quit`
//! fault: the table forfeits the seat at once and the game ends normally, replay and all.
//! With `--clock`, a decision not made in time is a `timeout` fault, as a bot's would be.
//! `auto` (or `auto N`, `auto NAME N`) at any prompt hands the seat to a built-in for the
//! rest of the game (or N decisions); its answers are the seat's, recorded as any other.

use crate::input::{Line, read_line};
use crate::live::{Live, Pace, PromptPicture};
use crate::terminal::escape;
use arena_builtins::Builtins;
use arena_engine::human::{Interactive, Step};
use arena_engine::replay::BotInfo;
use arena_engine::{Fault, FaultKind, Observer, Player};
use arena_sandbox::Sandbox;
use arena_sdk::{Bot, MatchEnd, MatchStart};
use arena_tournament::bots::Contestant;
use arena_tournament::game::{self, GameError, GameResult, GameSpec, Occupant};
use std::cell::Cell;
use std::time::{Duration, Instant};

/// Why a person gave no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quit {
    /// They typed `QUIT`.
    Typed,
    /// Standard input ended (Ctrl-D), or standard output was closed.
    Ended,
    /// The `--clock` ran out before the decision was made.
    Late,
}

/// The terminal: prints a prompt, reads one line of standard input.
pub struct Console {
    label: String,
    /// When the decision being asked must be made by (`--clock`).
    deadline: Cell<Option<Instant>>,
}

impl Console {
    /// Print `text` (escaped: it can hold names from rules files).
    pub fn say(&self, text: &str) -> Result<(), Quit> {
        outln!("{}", escape(text)).map_err(|_| Quit::Ended)
    }

    /// Ask `prompt`; the trimmed line, or why there is none.
    pub fn ask(&self, prompt: &str) -> Result<String, Quit> {
        out!("{} {}> ", self.label, escape(prompt)).map_err(|_| Quit::Ended)?;
        match read_line(self.deadline.get()) {
            Line::End => {
                self.say("")?;
                Err(Quit::Ended)
            }
            Line::Late => {
                self.say("")?;
                Err(Quit::Late)
            }
            Line::Text(line) if line.trim().eq_ignore_ascii_case("quit") => Err(Quit::Typed),
            Line::Text(line) => Ok(line.trim().to_owned()),
        }
    }
}

/// A built-in answering for the person (`auto`).
struct Deputy<G: Interactive> {
    name: &'static str,
    bot: Box<dyn Bot<G> + Send>,
    /// Decisions it still makes; `None`: the rest of the game.
    left: Option<u32>,
}

/// What `auto …` asks for: a built-in of the mode (by default the strongest) for `left`
/// decisions (`None`: the rest of the game).
fn parse_auto<G: Interactive + Builtins>(
    line: &str,
) -> Option<Result<(&'static str, Option<u32>), String>> {
    let mut words = line.split_whitespace();
    if !words.next()?.eq_ignore_ascii_case("auto") {
        return None;
    }
    let list = G::builtins();
    let mut name = list.iter().max_by_key(|b| b.strength).map(|b| b.name)?;
    let mut left = None;
    for word in words {
        let word = word.strip_prefix("builtin:").unwrap_or(word);
        if let Ok(n) = word.parse::<u32>() {
            if n == 0 {
                return Some(Err("`auto 0` hands over no decision".to_owned()));
            }
            left = Some(n);
        } else if let Some(b) = list.iter().find(|b| b.name.eq_ignore_ascii_case(word)) {
            name = b.name;
        } else {
            let names: Vec<&str> = list.iter().map(|b| b.name).collect();
            return Some(Err(format!(
                "`{word}` is neither a number of decisions nor a built-in of {} ({})",
                G::MODE,
                names.join(", ")
            )));
        }
    }
    Some(Ok((name, left)))
}

/// A person playing one seat of mode `G`.
pub struct HumanPlayer<G: Interactive + Builtins> {
    console: Console,
    clock: Option<Duration>,
    start: Option<MatchStart<G>>,
    setup: Option<G::SetupRequest>,
    deputy: Option<Deputy<G>>,
    quit: bool,
    /// What the replay's log keeps of this call: who took the seat over, or gave it back.
    log: String,
    /// The live view's picture, shown above each decision's own lines.
    picture: Option<PromptPicture>,
}

impl<G: Interactive + Builtins> HumanPlayer<G> {
    /// A person called `label` in the prompts, with `clock` for each decision (`None`: no
    /// time limit), shown `picture` (the live view's) above each decision.
    pub fn new(label: String, clock: Option<Duration>, picture: Option<PromptPicture>) -> Self {
        HumanPlayer {
            console: Console {
                label,
                deadline: Cell::new(None),
            },
            clock,
            start: None,
            setup: None,
            deputy: None,
            quit: false,
            log: String::new(),
            picture,
        }
    }

    /// Hand the seat to the built-in `name` for `left` decisions: it hears the match's
    /// start and the setup request as a bot in this seat would have.
    fn hand_over(&mut self, name: &'static str, left: Option<u32>) -> Result<(), Quit> {
        let mut bot = G::create(name).expect("a listed built-in");
        if let Some(start) = &self.start {
            bot.start(start);
        }
        if let Some(setup) = &self.setup {
            // Its choice is not played (the setup is over); it sets up its own state.
            let _ = bot.setup(setup);
        }
        let said = match left {
            None => format!("auto: builtin:{name} plays this seat for the rest of the game"),
            Some(n) => format!("auto: builtin:{name} plays this seat's next {n} decisions"),
        };
        // In the replay, on the first answer the built-in gives: from which turn it played.
        self.log = format!("{said} (from this decision on)\n");
        self.deputy = Some(Deputy { name, bot, left });
        self.console.say(&said)
    }

    /// Start the clock for one decision.
    fn start_clock(&self) {
        self.console
            .deadline
            .set(self.clock.map(|c| Instant::now() + c));
    }

    /// The fault for a decision not made: a timeout, or the person gave up (the table
    /// forfeits the seat on a `quit` fault).
    fn fault(&mut self, why: Quit) -> Fault {
        if why == Quit::Late {
            let seconds = self.clock.unwrap_or_default().as_secs_f64();
            let message = format!("no decision within the {seconds} s clock (--clock)");
            let _ = self.console.say(&format!(
                "time is up: {message}; the turn gets the mode's default (a fault)"
            ));
            return Fault::new(FaultKind::Timeout, message);
        }
        if !self.quit {
            self.quit = true;
            // Printing may fail (closed output); the forfeit happens either way.
            let _ = self
                .console
                .say("you quit: the seat forfeits the game (the replay is still written)");
        }
        Fault::new(
            FaultKind::Quit,
            match why {
                Quit::Typed => "the player typed QUIT",
                _ => "the player's input ended",
            },
        )
    }

    /// The deputy's answer (by `answer`), if one plays now; it steps down after its last
    /// decision.
    fn deputy<T>(&mut self, answer: impl FnOnce(&mut dyn Bot<G>) -> T) -> Option<T> {
        let deputy = self.deputy.as_mut()?;
        let answered = answer(deputy.bot.as_mut());
        let name = deputy.name;
        if let Some(left) = &mut deputy.left {
            *left -= 1;
            if *left == 0 {
                self.deputy = None;
                let said = format!("auto: builtin:{name} hands the seat back to you");
                self.log += &format!("{said} (after this decision)\n");
                let _ = self.console.say(&said);
            }
        }
        Some(answered)
    }

    /// Ask `prompt` until the person types a line for the mode, or hands the seat over:
    /// `?` shows how to play, an `auto …` that is not one says why. `None`: handed over.
    fn ask_line(&mut self, prompt: &str) -> Result<Option<String>, Quit> {
        loop {
            let line = self.console.ask(prompt)?;
            if line == "?" {
                self.console.say(G::HOW_TO_PLAY.trim_end())?;
                continue;
            }
            match parse_auto::<G>(&line) {
                None => return Ok(Some(line)),
                Some(Ok((name, left))) => {
                    self.hand_over(name, left)?;
                    return Ok(None);
                }
                Some(Err(reason)) => self.console.say(&format!("invalid: {reason}; try again"))?,
            }
        }
    }
}

impl<G: Interactive + Builtins> Player<G> for HumanPlayer<G> {
    fn start(&mut self, start: &MatchStart<G>) -> Result<(), Fault> {
        self.start = Some(start.clone());
        let _ = self.console.say(&format!(
            "{} — you are seat {}; type {}{}, `auto [N]` (a built-in plays for you), `?` (how to play), Enter alone (the game and the choices again), or QUIT",
            G::MODE,
            start.seat,
            if G::NUMBERED { "a number, " } else { "" },
            G::HINT
        ));
        if !G::INTRO.is_empty() {
            let _ = self.console.say(G::INTRO);
        }
        Ok(())
    }

    fn setup(&mut self, request: &G::SetupRequest) -> Result<G::SetupChoice, Fault> {
        self.setup = Some(request.clone());
        if self.quit {
            return Err(self.fault(Quit::Ended));
        }
        let Some(prompt) = G::setup_prompt(request) else {
            return G::parse_setup(request, "").map_err(|e| Fault::new(FaultKind::BotError, e));
        };
        self.start_clock();
        crate::input::drop_typed_ahead();
        if let Err(why) = self.console.say(&prompt) {
            return Err(self.fault(why));
        }
        loop {
            let line = match self.ask_line("setup (Enter: the default)") {
                Ok(Some(line)) => line,
                Ok(None) => return Ok(self.deputy(|bot| bot.setup(request)).expect("handed over")),
                Err(why) => return Err(self.fault(why)),
            };
            match G::parse_setup(request, &line) {
                Ok(choice) => return Ok(choice),
                Err(reason) => {
                    if let Err(why) = self.console.say(&format!("invalid: {reason}; try again")) {
                        return Err(self.fault(why));
                    }
                }
            }
        }
    }

    fn act(&mut self, observation: &G::Observation) -> Result<G::Action, Fault> {
        if self.quit {
            return Err(self.fault(Quit::Ended));
        }
        if let Some(action) = self.deputy(|bot| bot.act(observation)) {
            return Ok(action);
        }
        self.start_clock();
        // What was typed before this decision was shown (while the other seat's moves
        // scrolled by) was not meant for it.
        crate::input::drop_typed_ahead();
        let setup = self.setup.clone();
        let picture = self
            .picture
            .as_ref()
            .and_then(|p| p.lock().unwrap_or_else(|e| e.into_inner()).clone());
        let mut dialogue = G::dialogue(observation, setup.as_ref());
        // The decision as first shown: Enter alone shows it again.
        let mut question: Option<Vec<String>> = None;
        let mut line = None;
        loop {
            match dialogue.step(line.as_deref()) {
                Step::Answer(action) => return Ok(action),
                Step::Ask { say, prompt } => {
                    let mut say = match &question {
                        None => {
                            let shown: Vec<String> = picture.iter().cloned().chain(say).collect();
                            question = Some(shown.clone());
                            shown
                        }
                        Some(_) => say,
                    };
                    let typed = loop {
                        let asked = say
                            .iter()
                            .try_for_each(|text| self.console.say(text))
                            .and_then(|()| self.ask_line(&prompt));
                        match asked {
                            Ok(Some(typed)) if typed.is_empty() => {
                                say = question.clone().unwrap_or_default();
                            }
                            Ok(Some(typed)) => break typed,
                            Ok(None) => {
                                return Ok(self
                                    .deputy(|bot| bot.act(observation))
                                    .expect("handed over"));
                            }
                            Err(why) => return Err(self.fault(why)),
                        }
                    };
                    line = Some(typed);
                }
            }
        }
    }

    fn end(&mut self, end: &MatchEnd) {
        let _ = self
            .console
            .say(&format!("game over: {:?} — {}", end.result, end.reason));
    }

    fn last_call(&mut self) -> arena_engine::CallReport {
        arena_engine::CallReport {
            fuel: 0,
            log: std::mem::take(&mut self.log),
        }
    }
}

/// How to play `mode`, on one screen.
pub fn how_to_play(mode: arena_sdk::Mode) -> &'static str {
    arena_tournament::for_mode!(mode, G => <G as Interactive>::HOW_TO_PLAY)
}

/// How `arena play` shows a game and times a person.
#[derive(Debug, Clone, Copy)]
pub struct View {
    /// Draw the game as it is played (`--watch`); with a person playing, what the other
    /// seat does is always shown.
    pub watch: bool,
    /// The pace of the live view.
    pub pace: Pace,
    /// A person's time for each decision (`--clock`).
    pub clock: Option<Duration>,
}

/// Play one game where `contestants[seat]` is `None` for a person at the terminal, shown
/// live when a person plays or `view.watch`. Besides the result, the first error printing
/// the live view met (a closed output), for the caller to report once the replay is safe.
pub fn play(
    spec: &GameSpec,
    contestants: [Option<&Contestant>; 2],
    names: [&str; 2],
    sandbox: &Sandbox,
    view: View,
) -> Result<(GameResult, Option<anyhow::Error>), GameError> {
    arena_tournament::for_mode!(spec.mode, G => play_typed::<G>(spec, contestants, names, sandbox, view))
}

fn play_typed<G: Interactive + Builtins>(
    spec: &GameSpec,
    contestants: [Option<&Contestant>; 2],
    names: [&str; 2],
    sandbox: &Sandbox,
    view: View,
) -> Result<(GameResult, Option<anyhow::Error>), GameError> {
    let humans = contestants.map(|c| c.is_none());
    let picture: Option<PromptPicture> = G::PICTURE_AT_PROMPT.then(PromptPicture::default);
    let hot_seat = humans.iter().all(|&h| h);
    let [a, b] = [0u8, 1].map(|seat| match contestants[usize::from(seat)] {
        Some(contestant) => Occupant::Contestant(contestant),
        None => {
            let label = if hot_seat {
                format!("seat {seat}")
            } else {
                "you".to_owned()
            };
            Occupant::Player(Box::new(HumanPlayer::<G>::new(
                label,
                view.clock,
                picture.clone(),
            )))
        }
    });
    let mut live = (view.watch || humans.contains(&true)).then(|| {
        let bots = names.map(|name| BotInfo {
            name: name.to_owned(),
            sha256: None,
        });
        let mut live = Live::<G>::new(spec.mode, &bots, spec.seed, view.pace, humans);
        if let Some(picture) = &picture {
            live.share_picture(picture.clone());
        }
        live
    });
    let observer = live.as_mut().map(|l| l as &mut dyn Observer<G>);
    let result = game::play_seats::<G>(spec, [a, b], names, sandbox, observer)?;
    Ok((result, live.and_then(|mut l| l.finish())))
}

/// Step through a replay file's game (`arena replay show --step`), verified first.
pub fn show_replay(json: &serde_json::Value, pace: Pace, rolls: bool) -> anyhow::Result<()> {
    arena_tournament::for_mode!(game::replay_mode(json)?, G => {
        let replay = game::verified::<G>(json)?;
        let mut live = Live::<G>::new(replay.mode, &replay.bots, replay.seed, pace, [false, false]);
        live.show_rolls(rolls);
        live.replay(&replay)?;
        outln!("{}", escape(&game::result_line(&replay.outcome, &replay.bots)))
    })
}
