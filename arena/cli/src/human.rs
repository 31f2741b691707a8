//! A person at the terminal as a [`Player`]: `arena play --mode M human BOT`.
//!
//! The person answers through the same [`Player`] path as a bot, so the replay verifies and
//! the statistics count. Each decision shows the game from the seat's observation, the legal
//! choices numbered, and reads a line: a number, or the mode's natural input ([`Interactive`]).
//! Invalid input re-prompts with the reason. `QUIT` or the end of input (Ctrl-D) is a `quit`
//! fault: the table forfeits the seat at once and the game ends normally, replay and all.
//! With `--clock`, a decision not made in time is a `timeout` fault, as a bot's would be.

use crate::input::{Line, read_line};
use crate::live::{Live, Pace, Rounds};
use crate::terminal::escape;
use arena_builtins::Builtins;
use arena_engine::replay::BotInfo;
use arena_engine::{Fault, FaultKind, Observer, Player};
use arena_sandbox::Sandbox;
use arena_sdk::{MatchEnd, MatchStart};
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

/// How a mode talks to a person.
pub trait Interactive: Rounds {
    /// The setup question, or `None` when there is nothing to choose.
    fn setup_prompt(request: &Self::SetupRequest) -> Option<String>;
    /// The setup choice for an answer to [`Interactive::setup_prompt`] (`""` when there
    /// was no question, or the person just pressed Enter: the default).
    fn parse_setup(request: &Self::SetupRequest, line: &str) -> Result<Self::SetupChoice, String>;
    /// The game as this seat sees it.
    fn show(observation: &Self::Observation, setup: Option<&Self::SetupRequest>) -> String;
    /// The legal answers, each with its text, in the order they are numbered from 1.
    fn choices(observation: &Self::Observation) -> Vec<(String, Self::Action)>;
    /// The mode-natural input; the error says why it is not an answer.
    fn parse(observation: &Self::Observation, line: &str) -> Result<Self::Action, String>;
    /// What to type, besides a number.
    const HINT: &'static str;
    /// [`Interactive::HINT`] for this decision (with an example taken from it).
    fn hint(_observation: &Self::Observation) -> String {
        Self::HINT.to_owned()
    }
    /// Ask for one action; the default shows the numbered choices and re-prompts until a
    /// number or [`Interactive::parse`] gives a legal answer.
    fn ask(
        console: &Console,
        observation: &Self::Observation,
        setup: Option<&Self::SetupRequest>,
    ) -> Result<Self::Action, Quit> {
        console.say(&Self::show(observation, setup))?;
        let choices = Self::choices(observation);
        for (i, (text, _)) in choices.iter().enumerate() {
            console.say(&format!("  {}. {text}", i + 1))?;
        }
        loop {
            let line = console.ask(&format!(
                "choose 1-{} or {}",
                choices.len(),
                Self::hint(observation)
            ))?;
            let answer = match line.parse::<usize>() {
                Ok(n) => n
                    .checked_sub(1)
                    .and_then(|i| choices.get(i))
                    .map(|(_, action)| action.clone())
                    .ok_or_else(|| format!("{n} is not a choice (1-{})", choices.len())),
                Err(_) => Self::parse(observation, &line),
            };
            match answer {
                Ok(action) => return Ok(action),
                Err(reason) => console.say(&format!("invalid: {reason}; try again"))?,
            }
        }
    }
}

/// A person playing one seat of mode `G`.
pub struct HumanPlayer<G: Interactive> {
    console: Console,
    clock: Option<Duration>,
    setup: Option<G::SetupRequest>,
    quit: bool,
}

impl<G: Interactive> HumanPlayer<G> {
    /// A person called `label` in the prompts, with `clock` for each decision (`None`: no
    /// time limit).
    pub fn new(label: String, clock: Option<Duration>) -> Self {
        HumanPlayer {
            console: Console {
                label,
                deadline: Cell::new(None),
            },
            clock,
            setup: None,
            quit: false,
        }
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
}

impl<G: Interactive> Player<G> for HumanPlayer<G> {
    fn start(&mut self, start: &MatchStart<G>) -> Result<(), Fault> {
        let _ = self.console.say(&format!(
            "{} — you are seat {}; type a number, {}, or QUIT",
            G::MODE,
            start.seat,
            G::HINT
        ));
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
        if let Err(why) = self.console.say(&prompt) {
            return Err(self.fault(why));
        }
        loop {
            let line = match self.console.ask("setup (Enter: the default)") {
                Ok(line) => line,
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
        self.start_clock();
        G::ask(&self.console, observation, self.setup.as_ref()).map_err(|why| self.fault(why))
    }

    fn end(&mut self, end: &MatchEnd) {
        let _ = self
            .console
            .say(&format!("game over: {:?} — {}", end.result, end.reason));
    }
}

/// Numbers separated by spaces or commas, each from 1 to `max`, as indices.
fn numbers(line: &str, max: usize) -> Result<Vec<usize>, String> {
    line.split([' ', ','])
        .filter(|w| !w.is_empty())
        .map(|w| match w.parse::<usize>() {
            Ok(n) if (1..=max).contains(&n) => Ok(n - 1),
            _ => Err(format!("`{w}` is not a number from 1 to {max}")),
        })
        .collect()
}

mod battle {
    use super::{Interactive, numbers};
    use arena_sdk::battle::{Action, Battle, Observation, SetupRequest, TeamChoice};
    use std::fmt::Write as _;

    impl crate::live::Rounds for Battle {}

    impl Interactive for Battle {
        const HINT: &'static str = "a target id or `skill`";

        fn setup_prompt(request: &SetupRequest) -> Option<String> {
            let mut text = format!("pick {} robots by number:", request.team_size);
            for (i, kind) in request.roster.iter().enumerate() {
                let _ = write!(text, "\n  {}. {}", i + 1, kind.name());
            }
            Some(text)
        }

        fn parse_setup(request: &SetupRequest, line: &str) -> Result<TeamChoice, String> {
            let size = usize::try_from(request.team_size).unwrap_or(usize::MAX);
            if line.is_empty() {
                return Ok(TeamChoice {
                    team: request.roster.iter().copied().take(size).collect(),
                });
            }
            let picked = numbers(line, request.roster.len())?;
            let mut team: Vec<_> = picked.iter().map(|&i| request.roster[i]).collect();
            team.dedup();
            let distinct = team.iter().collect::<std::collections::BTreeSet<_>>().len();
            if picked.len() != size || distinct != size {
                return Err(format!("pick exactly {size} different robots"));
            }
            Ok(TeamChoice { team })
        }

        fn show(obs: &Observation, _: Option<&SetupRequest>) -> String {
            let mut text = format!("turn {}/{}", obs.turn, obs.turn_cap);
            for u in &obs.units {
                let side = if u.owner == obs.seat {
                    "yours"
                } else {
                    "enemy"
                };
                let state = if u.destroyed {
                    "destroyed".to_owned()
                } else {
                    format!(
                        "integrity {} armor {} power {} speed {}",
                        u.integrity, u.armor, u.power, u.speed
                    )
                };
                let acting = if u.id == obs.acting {
                    "  <- acting"
                } else {
                    ""
                };
                let _ = write!(
                    text,
                    "\n  [{}] {} ({side}): {state}{acting}",
                    u.id,
                    u.kind.name()
                );
            }
            text
        }

        fn choices(obs: &Observation) -> Vec<(String, Action)> {
            let mut list: Vec<_> = obs
                .legal_targets
                .iter()
                .map(|&t| {
                    let name = obs.units.get(usize::from(t)).map_or("?", |u| u.kind.name());
                    (format!("attack {t} ({name})"), Action::Attack { target: t })
                })
                .collect();
            if obs.skill_ready {
                list.push(("skill".to_owned(), Action::Skill));
            }
            list
        }

        fn parse(obs: &Observation, line: &str) -> Result<Action, String> {
            let word = line.trim_start_matches("attack").trim();
            if word.eq_ignore_ascii_case("skill") {
                return if obs.skill_ready {
                    Ok(Action::Skill)
                } else {
                    Err("the skill is not ready".into())
                };
            }
            let target: u8 = word
                .parse()
                .map_err(|_| format!("`{line}`: type `attack ID` or `skill`"))?;
            if obs.legal_targets.contains(&target) {
                Ok(Action::Attack { target })
            } else {
                Err(format!(
                    "{target} is not a legal target ({:?})",
                    obs.legal_targets
                ))
            }
        }

        fn ask(
            console: &super::Console,
            obs: &Observation,
            setup: Option<&SetupRequest>,
        ) -> Result<Action, super::Quit> {
            // The numbered list and "a target id" would clash: the number here is the id.
            console.say(&Self::show(obs, setup))?;
            for (text, _) in Self::choices(obs) {
                console.say(&format!("  {text}"))?;
            }
            loop {
                match Self::parse(obs, &console.ask("target id or `skill`")?) {
                    Ok(action) => return Ok(action),
                    Err(reason) => console.say(&format!("invalid: {reason}; try again"))?,
                }
            }
        }
    }
}

mod tcg {
    use super::Interactive;
    use arena_sdk::tcg::{Action, DeckChoice, Observation, PlayAs, SetupRequest, Target, Tcg};
    use std::fmt::Write as _;

    fn text(obs: &Observation, action: &Action) -> String {
        match action {
            Action::PlayCard {
                card,
                play_as,
                target,
            } => {
                let index = obs
                    .hand
                    .iter()
                    .position(|c| c.uid == *card)
                    .map_or(0, |i| i + 1);
                let name = obs
                    .hand
                    .get(index.wrapping_sub(1))
                    .map_or("?", |c| &c.card.id);
                let target = match target {
                    Target::Hero => "hero".to_owned(),
                    Target::Minion(id) => format!("minion {id}"),
                };
                format!("play {index} ({name}) as {play_as:?} at {target}").to_lowercase()
            }
            Action::Attack { minion, target } => match target {
                Target::Hero => format!("attack {minion} hero"),
                Target::Minion(id) => format!("attack {minion} {id}"),
            },
            Action::EndTurn => "end".to_owned(),
        }
    }

    impl crate::live::Rounds for Tcg {}

    impl Interactive for Tcg {
        const HINT: &'static str = "`play N`, `attack ID hero|ID`, `end`";

        fn setup_prompt(request: &SetupRequest) -> Option<String> {
            request.choose_deck.then(|| {
                format!(
                    "your deck: card ids separated by spaces (Enter: the default deck {})",
                    request.default_deck.join(" ")
                )
            })
        }

        fn parse_setup(request: &SetupRequest, line: &str) -> Result<DeckChoice, String> {
            if line.is_empty() {
                return Ok(DeckChoice { deck: None });
            }
            let deck: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
            request.pool.check(&deck).map_err(|e| e.to_string())?;
            Ok(DeckChoice { deck: Some(deck) })
        }

        fn show(obs: &Observation, _: Option<&SetupRequest>) -> String {
            let me = usize::from(obs.seat.min(1));
            let (mine, theirs) = (&obs.heroes[me], &obs.heroes[1 - me]);
            let mut out = format!(
                "turn {}/{} — you: health {} mana {}/{}, deck {}; enemy: health {}, hand {}, deck {}",
                obs.turn,
                obs.turn_cap,
                mine.health,
                mine.mana,
                mine.mana_slots,
                mine.deck_size,
                theirs.health,
                theirs.hand_size,
                theirs.deck_size
            );
            out += "\nhand:";
            for (i, c) in obs.hand.iter().enumerate() {
                let _ = write!(out, " [{}] {} (cost {})", i + 1, c.card.id, c.card.cost);
            }
            out += "\nboard:";
            for m in &obs.board {
                let side = if m.owner == obs.seat {
                    "yours"
                } else {
                    "enemy"
                };
                let _ = write!(
                    out,
                    "\n  minion {} {} {}/{} ({side}{})",
                    m.id,
                    m.card,
                    m.attack,
                    m.health,
                    if m.can_attack { ", can attack" } else { "" }
                );
            }
            out
        }

        fn choices(obs: &Observation) -> Vec<(String, Action)> {
            obs.legal.iter().map(|a| (text(obs, a), *a)).collect()
        }

        fn parse(obs: &Observation, line: &str) -> Result<Action, String> {
            let words: Vec<String> = line.split_whitespace().map(str::to_lowercase).collect();
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            let action = match words.as_slice() {
                ["end"] | ["end", "turn"] => Action::EndTurn,
                ["play", n, rest @ ..] => {
                    let index: usize = n
                        .parse()
                        .map_err(|_| format!("`{n}` is not a hand position"))?;
                    let card = index
                        .checked_sub(1)
                        .and_then(|i| obs.hand.get(i))
                        .ok_or_else(|| format!("no card {index} in your hand"))?
                        .uid;
                    let mut play_as = None;
                    let mut target = Target::Hero;
                    for word in rest {
                        match *word {
                            "as" | "at" | "hero" => {}
                            "spell" => play_as = Some(PlayAs::Spell),
                            "minion" => play_as = Some(PlayAs::Minion),
                            "heal" => play_as = Some(PlayAs::Heal),
                            id => {
                                target = Target::Minion(
                                    id.parse().map_err(|_| format!("`{id}`: not a minion id"))?,
                                )
                            }
                        }
                    }
                    // The legal list fills in what was not said (`play 3` of a minion card).
                    return obs
                        .legal
                        .iter()
                        .find(|a| match a {
                            Action::PlayCard {
                                card: c,
                                play_as: p,
                                target: t,
                            } => {
                                *c == card && play_as.is_none_or(|want| want == *p) && *t == target
                            }
                            _ => false,
                        })
                        .cloned()
                        .ok_or_else(|| format!("`{line}` is not a legal play now"));
                }
                ["attack", m, t] => Action::Attack {
                    minion: m.parse().map_err(|_| format!("`{m}` is not a minion id"))?,
                    target: if *t == "hero" {
                        Target::Hero
                    } else {
                        Target::Minion(t.parse().map_err(|_| format!("`{t}` is not a minion id"))?)
                    },
                },
                _ => return Err(format!("`{line}`: type {}", Self::HINT)),
            };
            if obs.legal.contains(&action) {
                Ok(action)
            } else {
                Err(format!("`{line}` is not legal now"))
            }
        }
    }
}

mod grid {
    use super::Interactive;
    use arena_engine::grid::Event;
    use arena_sdk::grid::{Action, Grid, Observation, Pos, SetupChoice, SetupRequest};

    impl crate::live::Rounds for Grid {
        // Heroes move one at a time, alternating teams: a person watching bots wants to
        // see a round of all of them at once.
        const BY_ROUND: bool = true;

        fn starts_round(before: &[Event], event: &Event) -> bool {
            let Event::HeroTurn { hero, .. } = event else {
                return false;
            };
            // Heroes act in id order, skipping the dead: a round starts when the order
            // wraps.
            let previous = before.iter().rev().find_map(|e| match e {
                Event::HeroTurn { hero, .. } => Some(*hero),
                _ => None,
            });
            previous.is_some_and(|p| *hero <= p)
        }
    }

    impl Interactive for Grid {
        const HINT: &'static str = "n/e/s/w/stay";
        fn setup_prompt(_: &SetupRequest) -> Option<String> {
            None
        }

        fn parse_setup(_: &SetupRequest, _: &str) -> Result<SetupChoice, String> {
            Ok(SetupChoice {})
        }

        fn show(obs: &Observation, setup: Option<&SetupRequest>) -> String {
            let Some(setup) = setup else {
                return format!("turn {}/{}", obs.turn, obs.turn_limit);
            };
            let mut rows: Vec<Vec<char>> =
                vec![vec!['.'; usize::from(setup.width)]; usize::from(setup.height)];
            let mut put = |p: Pos, c: char| {
                if let Some(cell) = rows
                    .get_mut(usize::from(p.y))
                    .and_then(|r| r.get_mut(usize::from(p.x)))
                {
                    *cell = c;
                }
            };
            for &p in &setup.walls {
                put(p, '#');
            }
            for &p in &setup.wells {
                put(p, '+');
            }
            for (i, &p) in setup.mines.iter().enumerate() {
                let owner = obs.mines.get(i).and_then(|m| m.team);
                put(
                    p,
                    match owner {
                        Some(t) if t == obs.team => 'M',
                        Some(_) => 'm',
                        None => '$',
                    },
                );
            }
            for &p in &obs.graves {
                put(p, 'x');
            }
            for h in obs.heroes.iter().filter(|h| !h.dead) {
                let c = char::from_digit(u32::from(h.id) % 10, 10).unwrap_or('?');
                put(h.pos, if h.id == obs.acting { '@' } else { c });
            }
            let mut text = format!(
                "turn {}/{}: you move hero {} (@); # wall, + well, $ free mine, M yours, m theirs",
                obs.turn, obs.turn_limit, obs.acting
            );
            for row in rows {
                text.push('\n');
                text.extend(row);
            }
            for h in &obs.heroes {
                let side = if h.team == obs.team { "yours" } else { "enemy" };
                let state = if h.dead {
                    "dead".to_owned()
                } else {
                    format!("health {}", h.health)
                };
                text += &format!("\n  hero {} ({side}) at {}: {state}", h.id, h.pos);
            }
            text
        }

        fn choices(_: &Observation) -> Vec<(String, Action)> {
            Action::ALL
                .iter()
                .map(|a| (format!("{a:?}").to_lowercase(), *a))
                .collect()
        }

        fn parse(_: &Observation, line: &str) -> Result<Action, String> {
            Ok(match line.to_lowercase().as_str() {
                "n" | "north" | "\u{1b}[a" => Action::North,
                "e" | "east" | "\u{1b}[c" => Action::East,
                "s" | "south" | "\u{1b}[b" => Action::South,
                "w" | "west" | "\u{1b}[d" => Action::West,
                "stay" | "x" | "" => Action::Stay,
                _ => return Err(format!("`{line}`: type n, e, s, w or stay")),
            })
        }
    }
}

mod dungeon {
    use super::{Interactive, numbers};
    use arena_sdk::dungeon::{
        Ability, Action, Class, Dungeon, Observation, SetupChoice, SetupRequest, Target,
    };
    use std::fmt::Write as _;

    fn target_text(obs: &Observation, target: Target) -> String {
        match target {
            Target::Hero(id) => obs
                .party
                .get(usize::from(id))
                .map_or("?".into(), |h| h.name.clone()),
            Target::Monster(id) => obs
                .monsters
                .get(usize::from(id))
                .map_or("?".into(), |m| m.name.clone()),
        }
    }

    impl crate::live::Rounds for Dungeon {}

    impl Interactive for Dungeon {
        const HINT: &'static str = "`ABILITY TARGET`";

        /// The example is a legal answer of this decision, so it names a monster (or
        /// hero) that is there.
        fn hint(obs: &Observation) -> String {
            let example = obs
                .legal
                .iter()
                .find(|a| matches!(a.target, Target::Monster(_)))
                .or(obs.legal.first());
            match example {
                Some(a) => format!(
                    "{} (e.g. `{} {}`)",
                    Self::HINT,
                    a.ability.name(),
                    target_text(obs, a.target)
                ),
                None => Self::HINT.to_owned(),
            }
        }

        fn setup_prompt(request: &SetupRequest) -> Option<String> {
            let mut text = format!(
                "pick {} classes by number (repeats allowed):",
                request.party_size
            );
            for (i, c) in request.classes.iter().enumerate() {
                let _ = write!(text, "\n  {}. {}", i + 1, c.class.name());
            }
            Some(text)
        }

        fn parse_setup(request: &SetupRequest, line: &str) -> Result<SetupChoice, String> {
            let size = usize::try_from(request.party_size).unwrap_or(usize::MAX);
            if line.is_empty() {
                let party = Class::ALL.iter().copied().cycle().take(size).collect();
                return Ok(SetupChoice { party });
            }
            let picked = numbers(line, request.classes.len())?;
            if picked.len() != size {
                return Err(format!("pick exactly {size} classes"));
            }
            Ok(SetupChoice {
                party: picked.iter().map(|&i| request.classes[i].class).collect(),
            })
        }

        fn show(obs: &Observation, _: Option<&SetupRequest>) -> String {
            let mut text = format!("wave {}/{}, turn {}", obs.wave, obs.waves, obs.turn);
            for h in &obs.party {
                let acting = if h.id == obs.acting {
                    "  <- acting"
                } else {
                    ""
                };
                let _ = write!(
                    text,
                    "\n  {} (level {}): hp {}/{} mp {}/{}{}{acting}",
                    h.name,
                    h.level,
                    h.hp,
                    h.max_hp,
                    h.mp,
                    h.max_mp,
                    if h.dead { ", dead" } else { "" }
                );
            }
            for m in obs.monsters.iter().filter(|m| !m.dead) {
                let _ = write!(
                    text,
                    "\n  {} (level {}): hp {}/{}, next: {}",
                    m.name,
                    m.level,
                    m.hp,
                    m.max_hp,
                    m.next_ability().name()
                );
            }
            text
        }

        fn choices(obs: &Observation) -> Vec<(String, Action)> {
            obs.legal
                .iter()
                .map(|a| {
                    (
                        format!("{} {}", a.ability.name(), target_text(obs, a.target)),
                        *a,
                    )
                })
                .collect()
        }

        fn parse(obs: &Observation, line: &str) -> Result<Action, String> {
            let mut words = line.split_whitespace();
            let (Some(ability), target, None) = (words.next(), words.next(), words.next()) else {
                return Err(format!("`{line}`: type {}", Self::hint(obs)));
            };
            let word = ability.to_lowercase();
            // Unknown names deserialize to `Ability::Unknown`: compare the name back.
            let ability = serde_json::from_value::<Ability>(word.clone().into())
                .ok()
                .filter(|a| a.name() == word)
                .ok_or_else(|| format!("`{ability}` is not an ability"))?;
            let found: Vec<&Action> = obs
                .legal
                .iter()
                .filter(|a| a.ability == ability)
                .filter(|a| {
                    target.is_none_or(|t| target_text(obs, a.target).eq_ignore_ascii_case(t))
                })
                .collect();
            match found.as_slice() {
                [one] => Ok(**one),
                [] => Err(format!("`{line}` is not legal now")),
                _ => Err(format!("`{line}`: say the target too")),
            }
        }
    }
}

mod conquest {
    use super::{Console, Interactive, Quit};
    use arena_engine::conquest::view::battlefield;
    use arena_sdk::conquest::{
        Board, Conquest, Kind, Move, Observation, Orders, Pos, Recruit, SetupChoice, SetupRequest,
    };

    fn prices(obs: &Observation) -> String {
        let mut text = format!("your resources: {}; prices:", obs.resources);
        for p in &obs.prices {
            text += &format!(" {} ({}) {};", p.kind.letter(), p.kind.name(), p.cost);
        }
        text
    }

    fn pos(x: &str, y: &str, obs: &Observation) -> Result<Pos, String> {
        let (Ok(x), Ok(y)) = (x.parse::<u8>(), y.parse::<u8>()) else {
            return Err("Sorry, invalid input. Try again.".into());
        };
        if x >= obs.width || y >= obs.height {
            return Err("Sorry, invalid input. Try again.".into());
        }
        Ok(Pos { x, y })
    }

    impl crate::live::Rounds for Conquest {}

    impl Interactive for Conquest {
        const HINT: &'static str = "the recruit/move orders, DIS, PRIS";

        fn setup_prompt(_: &SetupRequest) -> Option<String> {
            None
        }

        fn parse_setup(_: &SetupRequest, _: &str) -> Result<SetupChoice, String> {
            Ok(SetupChoice {})
        }

        fn show(obs: &Observation, _: Option<&SetupRequest>) -> String {
            let mut text = format!(
                "Year {} (last {}), you are Player {}\n",
                obs.year,
                obs.last_year,
                obs.seat + 1
            );
            text += &battlefield(&Board::new(obs));
            for reason in &obs.last_rejected {
                text += &format!("\nskipped last turn: {reason}");
            }
            text
        }

        fn choices(_: &Observation) -> Vec<(String, Orders)> {
            vec![("pass".to_owned(), Orders::default())]
        }

        fn parse(_: &Observation, line: &str) -> Result<Orders, String> {
            Err(format!(
                "`{line}`: give orders at the recruit and move prompts"
            ))
        }

        /// The original's two stages: recruit (`S x y` …, `NO` ends), then moves
        /// (`x0 y0 x1 y1`, `NO` ends); `DIS` shows the battlefield, `PRIS` the prices.
        fn ask(
            console: &Console,
            obs: &Observation,
            setup: Option<&SetupRequest>,
        ) -> Result<Orders, Quit> {
            console.say(&Self::show(obs, setup))?;
            console.say(&prices(obs))?;
            let mut orders = Orders::default();
            loop {
                let line =
                    console.ask("recruit `S|A|K|T x y`, DIS, PRIS, or NO to end this stage")?;
                let words: Vec<&str> = line.split_whitespace().collect();
                match words.as_slice() {
                    [] => break,
                    [w] if w.eq_ignore_ascii_case("no") => break,
                    [w] if w.eq_ignore_ascii_case("dis") => console.say(&Self::show(obs, setup))?,
                    [w] if w.eq_ignore_ascii_case("pris") => console.say(&prices(obs))?,
                    [k, x, y] => {
                        let kind = Kind::ALL
                            .iter()
                            .find(|kind| k.eq_ignore_ascii_case(&kind.letter().to_string()));
                        match (kind, pos(x, y, obs)) {
                            (Some(&kind), Ok(at)) => orders.recruit.push(Recruit { kind, at }),
                            (None, _) => console.say("Sorry, invalid input. Try again.")?,
                            (_, Err(e)) => console.say(&e)?,
                        }
                    }
                    _ => console.say("Sorry, invalid input. Try again.")?,
                }
            }
            loop {
                let line = console.ask("move `x0 y0 x1 y1`, DIS, PRIS, or NO to end this turn")?;
                let words: Vec<&str> = line.split_whitespace().collect();
                match words.as_slice() {
                    [] => break,
                    [w] if w.eq_ignore_ascii_case("no") => break,
                    [w] if w.eq_ignore_ascii_case("dis") => console.say(&Self::show(obs, setup))?,
                    [w] if w.eq_ignore_ascii_case("pris") => console.say(&prices(obs))?,
                    [x0, y0, x1, y1] => match (pos(x0, y0, obs), pos(x1, y1, obs)) {
                        (Ok(from), Ok(to)) => orders.moves.push(Move { from, to }),
                        _ => console.say("Invalid move. Try again.")?,
                    },
                    _ => console.say("Invalid move. Try again.")?,
                }
            }
            Ok(orders)
        }
    }
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
    let hot_seat = humans.iter().all(|&h| h);
    let [a, b] = [0u8, 1].map(|seat| match contestants[usize::from(seat)] {
        Some(contestant) => Occupant::Contestant(contestant),
        None => {
            let label = if hot_seat {
                format!("seat {seat}")
            } else {
                "you".to_owned()
            };
            Occupant::Player(Box::new(HumanPlayer::<G>::new(label, view.clock)))
        }
    });
    let mut live = (view.watch || humans.contains(&true)).then(|| {
        let bots = names.map(|name| BotInfo {
            name: name.to_owned(),
            sha256: None,
        });
        Live::<G>::new(spec.mode, &bots, spec.seed, view.pace, humans)
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
