//! Mode `dungeon` — the RPG battle system (a Pyp kata, "RPG Battle System"); the rules as
//! implemented, with every choice the document leaves open, are in docs/rules/dungeon.md.
//!
//! The dungeon is a seeded sequence of waves of monsters of rising level. Each bot picks a
//! party at setup, then runs the whole dungeon with it ([`play::Run`]): seat 0 first, then
//! seat 1 through the identical waves, with the monsters' target rolls drawn from the same
//! stream. The runs do not touch each other; the better [`Score`] (waves cleared, then
//! XP, then fewer hero turns) wins, an equal score is a draw.
//!
//! The match has one state, [`play::State`], changed only by applying events: the rules
//! build each event from it and apply it; the terminal picture and the browser frames
//! fold the same events over the same state.

mod frames;
mod human;
pub mod play;
pub mod rules;
mod state;
mod view;

#[cfg(test)]
mod tests;

use crate::{Asked, Finish, Ruleset, Stats, Table, derive_seed};
use arena_sdk::Seat;
use arena_sdk::dungeon::{
    Ability, Action, Class, ClassInfo, Dungeon, Hero, Monster, Rules, Score, SetupChoice,
    SetupRequest, Target, WaveMonster, hero_max_hp_mp, hero_stats,
};
use play::{Run, State, Step};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

pub use rules::CommandError;
pub use state::NO_ANSWER;
pub use view::describe_event;

/// Most heroes a party may have.
pub const MAX_PARTY_SIZE: u32 = 8;
/// Most waves a dungeon may have.
pub const MAX_WAVES: u32 = 100;
/// Most monsters a wave may have.
pub const MAX_WAVE_SIZE: u32 = 20;
/// Highest level a rules config may start heroes or monsters at.
pub const MAX_START_LEVEL: u32 = 100;
/// Longest turn limit a rules config may ask for.
pub const MAX_TURN_LIMIT: u32 = 100_000;

/// The party a bot gets when it faults at setup or answers a party that does not fit
/// the rules: these classes in turn.
pub const DEFAULT_PARTY: [Class; 4] = [Class::Warrior, Class::Cleric, Class::Mage, Class::Rogue];

/// The statistic of rejected answers, counted by the table (`Ruleset::REJECTIONS_STAT`).
pub const REJECTIONS_STAT: &str = "rejected_commands";

/// The statistics keys of `dungeon`, per bot.
pub const STAT_KEYS: [&str; 10] = [
    "waves_cleared",
    "monsters_killed",
    "damage_dealt",
    "damage_taken",
    "healing",
    "xp",
    "levels_gained",
    "heroes_lost",
    REJECTIONS_STAT,
    "turns",
];

/// Everything that happens in a `dungeon` match, with its numbers. Each event belongs to
/// one seat's run; the text of each is [`describe_event`] (the document's lines where it
/// has one).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A seat's party enters the dungeon.
    RunStart {
        /// The bot's seat.
        seat: Seat,
        /// The party as it starts.
        party: Vec<Hero>,
    },
    /// A wave's battle begins.
    WaveStart {
        /// The bot's seat.
        seat: Seat,
        /// The wave, from 1.
        wave: u32,
        /// Waves in the dungeon.
        waves: u32,
        /// Its monsters at full health.
        monsters: Vec<Monster>,
    },
    /// A hero's turn: the bot is asked ("{hero}'s turn!").
    HeroTurn {
        /// The bot's seat.
        seat: Seat,
        /// The hero.
        hero: u8,
        /// Its name.
        name: String,
    },
    /// A monster's randomly drawn target when its ability does not name it: `regenerate`
    /// heals the monster itself, yet its turn rolls a living hero like every monster turn
    /// ("{monster} draws {hero} as its target"). A roll record: see [`Ruleset::is_roll`].
    TargetDrawn {
        /// The bot's seat.
        seat: Seat,
        /// The monster.
        monster: u8,
        /// Its name.
        name: String,
        /// The hero drawn.
        hero: u8,
        /// Its name.
        hero_name: String,
    },
    /// The hero's command was rejected, or the bot did not answer: the turn is lost.
    TurnLost {
        /// The bot's seat.
        seat: Seat,
        /// The hero.
        hero: u8,
        /// Its name.
        name: String,
        /// The document's error, or "no answer".
        reason: String,
    },
    /// An ability hit a unit ("{a} attacks {t} for {d}!" for `fight`, else "{a} hits {t}
    /// with {ability} for {d} damage!").
    Attack {
        /// The bot's seat.
        seat: Seat,
        /// Who used it.
        by: Target,
        /// Its name.
        by_name: String,
        /// Who was hit.
        target: Target,
        /// Its name.
        target_name: String,
        /// The ability.
        ability: Ability,
        /// Damage done (after a dragon's reduction).
        damage: u32,
        /// The target's hp after.
        hp: u32,
        /// The user's mp after paying, for a hero.
        mp: Option<u32>,
    },
    /// An ability restored hit points.
    Heal {
        /// The bot's seat.
        seat: Seat,
        /// Who used it.
        by: Target,
        /// Its name.
        by_name: String,
        /// Who was healed.
        target: Target,
        /// Its name.
        target_name: String,
        /// The ability.
        ability: Ability,
        /// Hit points restored (not beyond maxhp).
        amount: u32,
        /// The target's hp after.
        hp: u32,
        /// The user's mp after paying, for a hero.
        mp: Option<u32>,
    },
    /// A vampire's bite lowered a unit's maxhp for good.
    MaxHpLowered {
        /// The bot's seat.
        seat: Seat,
        /// The bitten unit.
        unit: Target,
        /// Its name.
        name: String,
        /// By how much.
        amount: u32,
        /// Its maxhp after.
        max_hp: u32,
        /// Its hp after.
        hp: u32,
    },
    /// A unit's ability hurt the unit itself ("{unit} takes {d} self-inflicted damage!").
    SelfDamage {
        /// The bot's seat.
        seat: Seat,
        /// The unit.
        unit: Target,
        /// Its name.
        name: String,
        /// Damage taken.
        damage: u32,
        /// Its hp after.
        hp: u32,
    },
    /// A unit died and left the initiative queue ("{unit} dies!").
    Dies {
        /// The bot's seat.
        seat: Seat,
        /// The unit.
        unit: Target,
        /// Its name.
        name: String,
    },
    /// Every living hero gained `xp` for a dead monster ("{xp} XP rewarded!").
    XpRewarded {
        /// The bot's seat.
        seat: Seat,
        /// XP per hero.
        xp: u32,
    },
    /// A hero levelled up, hp and mp filled ("{hero} is now level {level}!").
    LevelUp {
        /// The bot's seat.
        seat: Seat,
        /// The hero.
        hero: u8,
        /// Its name.
        name: String,
        /// Its new level.
        level: u32,
        /// Its xp after (the excess carried over).
        xp: u32,
        /// Its new stats.
        stats: arena_sdk::dungeon::Stats,
        /// Its new maxhp (= hp).
        max_hp: u32,
        /// Its new maxmp (= mp).
        max_mp: u32,
    },
    /// Every monster of the wave died.
    Victory {
        /// The bot's seat.
        seat: Seat,
        /// The wave.
        wave: u32,
    },
    /// Every hero died.
    Defeat {
        /// The bot's seat.
        seat: Seat,
        /// The wave.
        wave: u32,
    },
    /// A seat's run is over.
    RunEnd {
        /// The bot's seat.
        seat: Seat,
        /// Its score.
        score: Score,
        /// Why it ended.
        reason: String,
    },
    /// The match is over.
    GameEnd {
        /// The winner, `None` for a draw.
        winner: Option<Seat>,
        /// Why.
        reason: String,
        /// Both runs' scores (a run not played scores zero).
        scores: [Score; 2],
    },
}

impl Event {
    /// The seat whose run the event belongs to; `None` for the match's end.
    pub fn run(&self) -> Option<Seat> {
        match self {
            Event::RunStart { seat, .. }
            | Event::WaveStart { seat, .. }
            | Event::HeroTurn { seat, .. }
            | Event::TurnLost { seat, .. }
            | Event::TargetDrawn { seat, .. }
            | Event::Attack { seat, .. }
            | Event::Heal { seat, .. }
            | Event::MaxHpLowered { seat, .. }
            | Event::SelfDamage { seat, .. }
            | Event::Dies { seat, .. }
            | Event::XpRewarded { seat, .. }
            | Event::LevelUp { seat, .. }
            | Event::Victory { seat, .. }
            | Event::Defeat { seat, .. }
            | Event::RunEnd { seat, .. } => Some(*seat),
            Event::GameEnd { .. } => None,
        }
    }
}

/// The full initial state, recorded in the replay: the dungeon and both parties.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Initial {
    /// Every wave's monsters, in order.
    pub waves: Vec<Vec<WaveMonster>>,
    /// Each seat's party as it enters.
    pub parties: [Vec<Hero>; 2],
}

/// One bot's statistics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Waves cleared.
    pub waves_cleared: u32,
    /// Monsters killed.
    pub monsters_killed: u32,
    /// Damage the heroes did to monsters (as in the event lines).
    pub damage_dealt: u64,
    /// Damage the heroes took (monsters' hits and `reckless_charge`).
    pub damage_taken: u64,
    /// Hit points restored to heroes by `heal`.
    pub healing: u64,
    /// XP gained, summed over the heroes.
    pub xp: u64,
    /// Level ups.
    pub levels_gained: u32,
    /// Heroes who died.
    pub heroes_lost: u32,
}

impl Tally {
    /// As a [`Stats`] map with every key of [`STAT_KEYS`] but `rejected_commands`, which
    /// the table counts (`Ruleset::REJECTIONS_STAT`); `score` gives `turns`.
    pub fn to_stats(&self, score: Score) -> Stats {
        let values = [
            i64::from(self.waves_cleared),
            i64::from(self.monsters_killed),
            to_i64(self.damage_dealt),
            to_i64(self.damage_taken),
            to_i64(self.healing),
            to_i64(self.xp),
            i64::from(self.levels_gained),
            i64::from(self.heroes_lost),
            i64::from(score.turns),
        ];
        STAT_KEYS
            .iter()
            .filter(|k| **k != REJECTIONS_STAT)
            .zip(values)
            .map(|(k, v)| ((*k).to_owned(), v))
            .collect()
    }
}

fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Check a rules config.
pub fn validate(rules: &Rules) -> Result<(), String> {
    let check = |name: &str, value: u32, low: u32, high: u32| {
        if (low..=high).contains(&value) {
            Ok(())
        } else {
            Err(format!("{name} must be {low} to {high}, not {value}"))
        }
    };
    check("party_size", rules.party_size, 1, MAX_PARTY_SIZE)?;
    check("hero_level", rules.hero_level, 1, MAX_START_LEVEL)?;
    check("waves", rules.waves, 1, MAX_WAVES)?;
    check(
        "first_wave_level",
        rules.first_wave_level,
        1,
        MAX_START_LEVEL,
    )?;
    check("max_wave_size", rules.max_wave_size, 1, MAX_WAVE_SIZE)?;
    check(
        "first_wave_size",
        rules.first_wave_size,
        1,
        rules.max_wave_size,
    )?;
    check("turn_limit", rules.turn_limit, 1, MAX_TURN_LIMIT)?;
    Ok(())
}

/// The setup request of `rules` for the dungeon `waves`.
pub fn setup_request(rules: &Rules, waves: &[Vec<WaveMonster>]) -> SetupRequest {
    SetupRequest {
        party_size: rules.party_size,
        hero_level: rules.hero_level,
        classes: Class::ALL
            .iter()
            .map(|&class| {
                let (max_hp, max_mp) = hero_max_hp_mp(class, rules.hero_level);
                ClassInfo {
                    class,
                    stats: hero_stats(class, rules.hero_level),
                    max_hp,
                    max_mp,
                    abilities: class.abilities().to_vec(),
                }
            })
            .collect(),
        waves: waves.to_vec(),
        turn_limit: rules.turn_limit,
    }
}

/// The party of a setup answer; `Err` (with the reason) when it does not fit the rules.
pub fn party_of(rules: &Rules, choice: &SetupChoice) -> Result<Vec<Hero>, String> {
    if choice.party.len() != rules.party_size as usize {
        return Err(format!(
            "the party must have {} heroes, not {}",
            rules.party_size,
            choice.party.len()
        ));
    }
    Ok(build_party(&choice.party, rules.hero_level))
}

/// Heroes of `classes` at `level`, named by class and position.
pub fn build_party(classes: &[Class], level: u32) -> Vec<Hero> {
    classes
        .iter()
        .enumerate()
        .map(|(id, &class)| rules::new_hero(u8::try_from(id).unwrap_or(u8::MAX), class, level))
        .collect()
}

/// The [`DEFAULT_PARTY`] for `rules`.
pub fn default_party(rules: &Rules) -> Vec<Hero> {
    let classes: Vec<Class> = DEFAULT_PARTY
        .iter()
        .copied()
        .cycle()
        .take(rules.party_size as usize)
        .collect();
    build_party(&classes, rules.hero_level)
}

/// The winner of two scores: the better one, `None` when equal.
pub fn winner_of(scores: [Score; 2]) -> Option<Seat> {
    match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

/// [`Ruleset::Offer`]: `legal` grouped by ability, in the order the abilities come.
fn offer_of(legal: &[arena_sdk::dungeon::Action]) -> <Dungeon as Ruleset>::Offer {
    let mut offer: <Dungeon as Ruleset>::Offer = Vec::new();
    for action in legal {
        match offer
            .iter_mut()
            .find(|(ability, _)| *ability == action.ability)
        {
            Some((_, targets)) => targets.push(action.target),
            None => offer.push((action.ability, vec![action.target])),
        }
    }
    offer
}

impl Ruleset for Dungeon {
    const DRAWING: Option<&'static str> = Some(include_str!("viewer.js"));
    const REJECTIONS_STAT: Option<&'static str> = Some(REJECTIONS_STAT);

    type Event = Event;
    type Initial = Initial;
    /// The commands the rules accept now (the observation's `legal`), grouped by ability:
    /// `[["fight", [{"monster": 0}, {"monster": 2}]], ["heal", [{"hero": 1}]]]`.
    type Offer = Vec<(arena_sdk::dungeon::Ability, Vec<arena_sdk::dungeon::Target>)>;

    fn is_end(event: &Event) -> bool {
        matches!(event, Event::GameEnd { .. })
    }

    fn is_roll(event: &Event) -> bool {
        matches!(event, Event::TargetDrawn { .. })
    }

    fn validate(rules: &Rules) -> Result<(), String> {
        validate(rules)
    }

    fn offered_choices(offer: &Self::Offer, answer: Option<&Self::Action>) -> Vec<crate::Choice> {
        use arena_sdk::dungeon::{Action, Target};
        offer
            .iter()
            .flat_map(|(ability, targets)| targets.iter().map(move |&target| (*ability, target)))
            .map(|(ability, target)| {
                let on = match target {
                    Target::Hero(id) => format!("hero {id}"),
                    Target::Monster(id) => format!("monster {id}"),
                };
                crate::Choice::of(
                    format!("{ability} → {on}"),
                    &Action { ability, target },
                    answer,
                )
            })
            .collect()
    }

    fn play(rules: &Rules, seed: u64, table: &mut Table<'_, Self>) -> Finish {
        play_match(rules, seed, table).0
    }

    fn describe(event: &Event) -> String {
        describe_event(event)
    }

    /// A seat's bot sees only its own run: the other run's events are not its to see, and
    /// the end is public.
    fn describe_for(event: &Event, viewer: Seat) -> Option<String> {
        event
            .run()
            .is_none_or(|seat| seat == viewer)
            .then(|| describe_event(event))
    }

    fn sketch(initial: &Initial) -> Option<Box<dyn crate::Sketch<Event>>> {
        Some(Box::new(State::new(initial)))
    }

    fn frames(initial: &Initial, events: &[Event]) -> Option<crate::frames::Frames> {
        Some(frames::frames(initial, events))
    }
}

/// Play one match to its end (see [`Ruleset::play`]); also the match's final state, which
/// is the replay's events folded over its initial state.
pub(crate) fn play_match(
    rules: &Rules,
    seed: u64,
    table: &mut Table<'_, Dungeon>,
) -> (Finish, State) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let waves = rules::roll_waves(rules, &mut rng);
    let request = setup_request(rules, &waves);
    let mut parties = [default_party(rules), default_party(rules)];
    for seat in 0..2u8 {
        let check = |choice: &SetupChoice| {
            party_of(rules, choice)
                .map_err(|reason| format!("setup: {reason}; the default party plays"))
        };
        match table.ask_setup(seat, &request, check) {
            Asked::Legal(party) => parties[usize::from(seat)] = party,
            // The default party is in place already.
            Asked::Default { .. } => {}
            Asked::Forfeited(loser) => {
                // Nobody enters the dungeon; the replay still has the dungeon and the
                // parties (the default for a seat not asked).
                let initial = Initial { waves, parties };
                let state = State::new(&initial);
                table.set_initial(initial);
                return forfeit(table, loser, state);
            }
        }
    }
    let initial = Initial { waves, parties };
    let mut state = State::new(&initial);
    table.set_initial(initial);
    // Both runs roll the monsters' targets from the same stream: the same dungeon.
    let targets_seed = derive_seed(seed, 1);
    for seat in 0..2u8 {
        let rng = ChaCha8Rng::seed_from_u64(targets_seed);
        let mut run = Run::enter(state, seat, rules.turn_limit, rng);
        let mut rejected: Option<String> = None;
        let end = loop {
            let step = run.advance();
            for event in run.take_events() {
                table.event(event);
            }
            let hero = match step {
                Step::Over(end) => break end,
                Step::Hero(hero) => hero,
            };
            table.set_turn(run.state().hero_turns());
            let observation = run.observation(hero, rejected.take());
            let offer = offer_of(&observation.legal);
            let check = |action: &Action| run.check(hero, *action).map_err(|e| e.to_string());
            // The default is to lose the turn, for a fault as for a rejected command.
            match table.ask(seat, &observation, offer, check) {
                Asked::Legal(action) => {
                    run.hero_turn(hero, Some(action));
                }
                Asked::Default { rejected: None } => {
                    run.hero_turn(hero, None);
                }
                Asked::Default {
                    rejected: Some(reason),
                } => {
                    run.lose_turn(hero, reason.clone());
                    rejected = Some(reason);
                }
                Asked::Forfeited(loser) => {
                    // At once: the faulting hero's turn is not played, no monster acts.
                    for event in run.take_events() {
                        table.event(event);
                    }
                    return forfeit(table, loser, run.into_state());
                }
            }
        };
        run.finish(end);
        for event in run.take_events() {
            table.event(event);
        }
        state = run.into_state();
    }
    table.set_turn(state.hero_turns());
    let scores = state.scores();
    let winner = winner_of(scores);
    let [a, b] = scores;
    let reason = format!(
        "{}: {} wave{}, {} xp, {} turns to {} wave{}, {} xp, {} turns",
        if winner.is_some() {
            "better score"
        } else {
            "equal scores"
        },
        a.waves_cleared,
        plural(a.waves_cleared),
        a.xp,
        a.turns,
        b.waves_cleared,
        plural(b.waves_cleared),
        b.xp,
        b.turns
    );
    let stats = state.stats();
    end_match(table, &mut state, winner, reason.clone());
    let finish = Finish {
        winner,
        reason,
        stats,
    };
    (finish, state)
}

/// The action [`Asked::Default`] carries in `dungeon`, never played: a bot that faults or
/// answers an illegal command loses the hero's turn (docs/rules/dungeon.md).
/// End the match at the forfeit of `loser`, with the runs as they are.
fn forfeit(table: &mut Table<'_, Dungeon>, loser: Seat, mut state: State) -> (Finish, State) {
    let finish = table.forfeit_finish(loser, state.stats());
    end_match(table, &mut state, finish.winner, finish.reason.clone());
    (finish, state)
}

/// The match's end event, with both runs' scores: the last event of every match.
fn end_match(
    table: &mut Table<'_, Dungeon>,
    state: &mut State,
    winner: Option<Seat>,
    reason: String,
) {
    let event = Event::GameEnd {
        winner,
        reason,
        scores: state.scores(),
    };
    state.apply(&event);
    table.event(event);
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}
