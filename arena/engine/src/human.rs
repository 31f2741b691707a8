//! How a person answers a mode's requests at a terminal, as pure text: what the seat is
//! shown, the choices it is offered, and how a typed line becomes an answer. Each mode
//! implements [`Interactive`] in its folder (`<mode>/human.rs`); the CLI owns the terminal
//! (printing, reading, the clock, `QUIT`) and drives a [`Dialogue`] one line at a time.

use crate::Ruleset;

/// One step of a person's answer to a request ([`Dialogue::step`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step<A> {
    /// Print `say` (each a line or more), then read a line after `prompt`.
    Ask {
        /// What to print first.
        say: Vec<String>,
        /// The prompt for the next line.
        prompt: String,
    },
    /// The answer.
    Answer(A),
}

/// A person's answer to one action request, line by line.
pub trait Dialogue<A> {
    /// The next step: `line` is what the person typed after the last prompt (`None` at the
    /// start).
    fn step(&mut self, line: Option<&str>) -> Step<A>;
}

/// How a mode talks to a person.
pub trait Interactive: Ruleset {
    /// What to type, besides a number.
    const HINT: &'static str;
    /// Said once at the start, after the greeting (empty: nothing).
    const INTRO: &'static str = "";
    /// One screen of how to play (the goal, a turn, the answers, an example): `arena
    /// rules MODE`, and `?` at any prompt. The mode's rules doc is the full contract.
    const HOW_TO_PLAY: &'static str;
    /// The setup question, or `None` when there is nothing to choose.
    fn setup_prompt(request: &Self::SetupRequest) -> Option<String>;
    /// The setup choice for an answer to [`Interactive::setup_prompt`] (`""` when there
    /// was no question, or the person just pressed Enter: the default).
    fn parse_setup(request: &Self::SetupRequest, line: &str) -> Result<Self::SetupChoice, String>;
    /// Whether the live view's picture (the one `arena play --watch` draws, by the same
    /// code) is what this seat sees at its prompt, above [`Interactive::show`]: the modes
    /// where a seat sees the whole game at its turn. Otherwise `show` draws the seat's own
    /// view (tcg's hand, conquest's assets).
    const PICTURE_AT_PROMPT: bool = false;
    /// Whether the answers are offered numbered (battle's are not: a number is a target's
    /// id there).
    const NUMBERED: bool = true;
    /// The game as this seat sees it: with [`Interactive::PICTURE_AT_PROMPT`], only what the
    /// picture does not say (whose decision this is, what the answers depend on).
    fn show(observation: &Self::Observation, setup: Option<&Self::SetupRequest>) -> String;
    /// The legal answers, each with its text, in the order they are numbered from 1:
    /// exactly the answers the engine takes (`setup`, the match's setup request, has what
    /// the observation does not repeat, such as a board's size).
    fn choices(
        observation: &Self::Observation,
        setup: Option<&Self::SetupRequest>,
    ) -> Vec<(String, Self::Action)>;
    /// The mode-natural input; the error says why it is not an answer, with the engine's
    /// reason for an answer the engine would refuse (a person's refused input is never a
    /// strike: it is asked again).
    fn parse(
        observation: &Self::Observation,
        setup: Option<&Self::SetupRequest>,
        line: &str,
    ) -> Result<Self::Action, String>;
    /// [`Interactive::HINT`] for this decision (with an example taken from it).
    fn hint(_observation: &Self::Observation) -> String {
        Self::HINT.to_owned()
    }
    /// The conversation for one action; the default shows the game and the numbered
    /// choices, and re-prompts until a number or [`Interactive::parse`] gives an answer.
    fn dialogue<'a>(
        observation: &'a Self::Observation,
        setup: Option<&'a Self::SetupRequest>,
    ) -> Box<dyn Dialogue<Self::Action> + 'a> {
        Box::new(Numbered::<Self> {
            observation,
            setup,
            choices: Self::choices(observation, setup),
        })
    }
}

/// The default [`Interactive::dialogue`]: numbered choices or the mode's own input.
struct Numbered<'a, G: Interactive> {
    observation: &'a G::Observation,
    setup: Option<&'a G::SetupRequest>,
    choices: Vec<(String, G::Action)>,
}

impl<G: Interactive> Dialogue<G::Action> for Numbered<'_, G> {
    fn step(&mut self, line: Option<&str>) -> Step<G::Action> {
        let prompt = format!(
            "choose 1-{} or {}",
            self.choices.len(),
            G::hint(self.observation)
        );
        let Some(line) = line else {
            let mut say = vec![G::show(self.observation, self.setup)];
            for (i, (text, _)) in self.choices.iter().enumerate() {
                say.push(format!("  {}. {text}", i + 1));
            }
            return Step::Ask { say, prompt };
        };
        let answer = match line.parse::<usize>() {
            Ok(n) => n
                .checked_sub(1)
                .and_then(|i| self.choices.get(i))
                .map(|(_, action)| action.clone())
                .ok_or_else(|| format!("{n} is not a choice (1-{})", self.choices.len())),
            Err(_) => G::parse(self.observation, self.setup, line),
        };
        match answer {
            Ok(action) => Step::Answer(action),
            Err(reason) => Step::Ask {
                say: vec![format!("invalid: {reason}; try again")],
                prompt,
            },
        }
    }
}

/// Numbers separated by spaces or commas, each from 1 to `max`, as indices.
pub(crate) fn numbers(line: &str, max: usize) -> Result<Vec<usize>, String> {
    line.split([' ', ','])
        .filter(|w| !w.is_empty())
        .map(|w| match w.parse::<usize>() {
            Ok(n) if (1..=max).contains(&n) => Ok(n - 1),
            _ => Err(format!("`{w}` is not a number from 1 to {max}")),
        })
        .collect()
}

/// A dialogue's answer to `lines` typed in turn, and everything it printed: how the modes'
/// tests type at a person's prompt.
#[cfg(test)]
pub(crate) fn typed<A>(dialogue: &mut dyn Dialogue<A>, lines: &[&str]) -> (Option<A>, Vec<String>) {
    let mut said = Vec::new();
    let mut next = None;
    let mut lines = lines.iter();
    loop {
        match dialogue.step(next) {
            Step::Answer(answer) => return (Some(answer), said),
            Step::Ask { say, prompt } => {
                said.extend(say);
                said.push(format!("> {prompt}"));
                match lines.next() {
                    Some(line) => next = Some(*line),
                    None => return (None, said),
                }
            }
        }
    }
}

/// The setup request and the first observation seat 0 gets in a game of the mode's
/// weakest built-in against itself on `seed`: real requests for the modes' input tests.
#[cfg(test)]
pub(crate) fn first_requests<G>(seed: u64) -> (G::SetupRequest, G::Observation)
where
    G: Ruleset + arena_builtins::Builtins,
    G::Rules: Default,
{
    use crate::{Fault, MatchConfig, NativePlayer, Player, run_match};
    use arena_sdk::{Bot, MatchEnd, MatchStart};

    struct Recorder<G: Ruleset> {
        bot: Box<dyn Bot<G> + Send>,
        setup: Option<G::SetupRequest>,
        first: Option<G::Observation>,
    }
    impl<G: Ruleset> Player<G> for Recorder<G> {
        fn start(&mut self, start: &MatchStart<G>) -> Result<(), Fault> {
            self.bot.start(start);
            Ok(())
        }
        fn setup(&mut self, request: &G::SetupRequest) -> Result<G::SetupChoice, Fault> {
            self.setup.get_or_insert_with(|| request.clone());
            Ok(self.bot.setup(request))
        }
        fn act(&mut self, observation: &G::Observation) -> Result<G::Action, Fault> {
            self.first.get_or_insert_with(|| observation.clone());
            Ok(self.bot.act(observation))
        }
        fn end(&mut self, _: &MatchEnd) {}
    }
    let weakest = G::builtins()[0].name;
    let mut zero = Recorder::<G> {
        bot: G::create(weakest).expect("a listed built-in"),
        setup: None,
        first: None,
    };
    let mut one = NativePlayer::new(G::create(weakest).expect("a listed built-in"));
    run_match(
        &MatchConfig::<G>::new(G::Rules::default(), seed),
        [&mut zero, &mut one],
    );
    (
        zero.setup.expect("seat 0 was asked for its setup"),
        zero.first.expect("seat 0 was asked for an action"),
    )
}

#[cfg(test)]
mod tests {
    use super::numbers;

    #[test]
    fn numbers_are_one_based_and_checked() {
        assert_eq!(numbers("1 3,2", 3), Ok(vec![0, 2, 1]));
        assert_eq!(numbers("", 3), Ok(vec![]));
        assert_eq!(
            numbers("4", 3),
            Err("`4` is not a number from 1 to 3".into())
        );
        assert_eq!(
            numbers("x", 3),
            Err("`x` is not a number from 1 to 3".into())
        );
    }
}
