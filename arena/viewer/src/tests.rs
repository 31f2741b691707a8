use super::*;
use arena_builtins::Builtins;
use arena_engine::{MatchConfig, NativePlayer, Player, run_match};
use arena_sdk::battle::Battle;
use arena_sdk::conquest::Conquest;
use arena_sdk::dungeon::Dungeon;
use arena_sdk::grid::Grid;
use arena_sdk::tcg::Tcg;

fn game<G: Ruleset + Builtins>(a: &str, b: &str, seed: u64) -> Replay<G> {
    let mut p0: Box<dyn Player<G>> = Box::new(NativePlayer::new(G::create(a).unwrap()));
    let mut p1: Box<dyn Player<G>> = Box::new(NativePlayer::new(G::create(b).unwrap()));
    run_match(
        &MatchConfig::new(Default::default(), seed),
        [p0.as_mut(), p1.as_mut()],
    )
    .replay
}

#[test]
fn placeholders_are_filled_once_and_values_are_never_searched() {
    assert_eq!(
        fill("<{{a}}|{{b}}|{{c}}>", &[("a", "{{b}}"), ("b", "x")]),
        "<{{b}}|x|{{c}}>"
    );
    assert_eq!(fill("no end {{a", &[("a", "x")]), "no end {{a");
}

#[test]
fn numbers_get_thousands_separators() {
    assert_eq!(thousands(0), "0");
    assert_eq!(thousands(999), "999");
    assert_eq!(thousands(1000), "1,000");
    assert_eq!(thousands(20_000_000), "20,000,000");
}

#[test]
fn bot_text_cannot_end_the_data_or_reach_the_markup() {
    let mut replay = game::<Grid>("random-walker", "random-walker", 3);
    let evil = "</script><script>alert(1)</script><!--";
    replay.bots[0].name = evil.to_owned();
    replay.bots[1].name = "{{data}}".to_owned();
    for entry in &mut replay.log {
        if let Entry::Answer { log, .. } = entry {
            *log = Some(evil.to_owned());
        }
    }
    let html = page(&replay, &Options::default()).unwrap();
    // The only `</script>`s end the page's own five script elements.
    assert_eq!(html.matches("</script>").count(), 5, "{}", &html[..200]);
    assert!(!html.contains("alert(1)</script>"));
    assert!(html.contains(r"\u003c/script>\u003cscript>alert(1)"));
    assert!(html.contains("<title>grid — &lt;/script&gt;&lt;script&gt;alert(1)"));
    // The data is still the same JSON once the page's JavaScript parses it.
    let start = html.find(r#"id="replay-data">"#).unwrap() + r#"id="replay-data">"#.len();
    let end = start + html[start..].find("</script>").unwrap();
    let parsed: Value = serde_json::from_str(&html[start..end]).unwrap();
    assert_eq!(parsed["bots"][0], evil);
    assert_eq!(parsed["bots"][1], "{{data}}");
}

#[test]
fn every_log_entry_becomes_a_line_in_its_step() {
    let replay = game::<Tcg>("random", "greedy", 11);
    let data = data(
        &replay,
        &Options {
            fuel_per_turn: Some(7),
        },
    )
    .unwrap();
    assert_eq!(data.fuel_per_turn, Some(7));
    let logs = replay
        .log
        .iter()
        .filter(|e| matches!(e, Entry::Answer { log: Some(_), .. }))
        .count();
    // Roll records (the first player, the shuffled decks) are lines of their own kind,
    // which the page hides until asked.
    let rolls = replay
        .log
        .iter()
        .filter(|e| matches!(e, Entry::Event { event } if Tcg::is_roll(event)))
        .count();
    assert_eq!(rolls, 3);
    assert_eq!(data.lines.len(), replay.log.len() + logs);
    let roll_lines: Vec<&Line> = data
        .lines
        .iter()
        .filter(|l| l.kind == LineKind::Roll)
        .collect();
    assert_eq!(roll_lines.len(), rolls);
    assert!(roll_lines.iter().all(|l| l.step == 0 && l.seat.is_none()));
    assert!(
        data.lines
            .iter()
            .filter(|l| l.text.contains("after shuffling"))
            .all(|l| l.kind == LineKind::Roll)
    );
    // Every turn answer carries what was offered; at most one choice is marked.
    let turns: Vec<&Line> = data
        .lines
        .iter()
        .filter(|l| l.kind == LineKind::Answer && l.fuel.is_some())
        .collect();
    assert!(!turns.is_empty());
    for turn in &turns {
        let offered = turn.offered.as_ref().expect("offered");
        assert!(turn.chosen.is_none_or(|c| c < offered.len()), "{turn:?}");
        assert_eq!(offered.last().unwrap(), "end turn");
    }
    assert!(turns.iter().any(|l| {
        l.chosen
            .is_some_and(|c| l.offered.as_ref().unwrap()[c].starts_with("play "))
    }));
    // Steps never go backwards along the log, and every step has its events.
    assert!(data.lines.windows(2).all(|w| w[0].step <= w[1].step));
    let events = |step| {
        data.lines
            .iter()
            .filter(|l| l.step == step && l.kind == LineKind::Event)
            .count()
    };
    assert!((1..data.steps.len()).all(|s| events(s) > 0));
    // Start and setup answers are in the start step and not charted; turns are.
    let first = &data.lines[0];
    assert_eq!(
        (first.step, first.kind, first.fuel),
        (0, LineKind::Answer, None)
    );
    assert!(
        data.lines
            .iter()
            .any(|l| l.kind == LineKind::Answer && l.fuel.is_some())
    );
    // A turn's answer is in the step its action opens.
    let play = data
        .lines
        .iter()
        .position(|l| l.kind == LineKind::Event && l.text.contains("plays"))
        .expect("a card played");
    let answer = data.lines[..play]
        .iter()
        .rposition(|l| l.kind == LineKind::Answer)
        .unwrap();
    assert_eq!(data.lines[answer].step, data.lines[play].step);
}

#[test]
fn a_game_that_was_not_played_says_why() {
    let mut replay = game::<Grid>("random-walker", "random-walker", 1);
    replay.initial = None;
    assert!(matches!(
        page(&replay, &Options::default()),
        Err(ViewerError::NotPlayed(_))
    ));
}

#[test]
fn a_stored_version_1_replay_still_draws() {
    // The server keeps replays it stored before format 2; the new fields are optional.
    let text = include_str!("../../../tests/replays/tcg-v1.json");
    let replay: Replay<Tcg> = serde_json::from_str(text).expect("a v1 replay parses");
    assert_eq!(replay.version, 1);
    let html = page(&replay, &Options::default()).unwrap();
    assert!(html.contains("replay-data"));
}

#[test]
fn offered_choices_name_each_legal_answer_and_mark_the_one_taken() {
    use arena_engine::Choice;
    let marked = |choices: Vec<Choice>| -> Vec<(String, bool)> {
        choices.into_iter().map(|c| (c.text, c.chosen)).collect()
    };
    let s = |t: &str, c: bool| (t.to_owned(), c);
    // battle: the targets, then the skill when ready.
    use arena_engine::battle::Offer;
    use arena_sdk::battle::{Action as B, Battle};
    let offer = Offer {
        targets: vec![3, 5],
        skill: true,
    };
    assert_eq!(
        marked(Battle::offered_choices(
            &offer,
            Some(&B::Attack { target: 5 })
        )),
        vec![
            s("attack #3", false),
            s("attack #5", true),
            s("skill", false)
        ]
    );
    // An answer outside the offer (rejected) marks nothing.
    assert!(
        Battle::offered_choices(&offer, Some(&B::Attack { target: 4 }))
            .iter()
            .all(|c| !c.chosen)
    );
    // grid: the directions on the board, then stay.
    use arena_sdk::grid::Action as G;
    assert_eq!(
        marked(Grid::offered_choices(&"ES".to_owned(), Some(&G::Stay))),
        vec![s("east", false), s("south", false), s("stay", true)]
    );
    // tcg: a damage spell is marked whatever enemy it hit.
    use arena_engine::tcg::Offer as TcgOffer;
    use arena_sdk::tcg::{Action as T, PlayAs, Target};
    let offer = TcgOffer {
        plays: vec![(12, PlayAs::Spell), (12, PlayAs::Minion)],
        attacks: vec![(7, Target::Hero), (7, Target::Minion(30))],
    };
    let spell = T::PlayCard {
        card: 12,
        play_as: PlayAs::Spell,
        target: Target::Minion(30),
    };
    assert_eq!(
        marked(Tcg::offered_choices(&offer, Some(&spell))),
        vec![
            s("play 12 as spell", true),
            s("play 12 as minion", false),
            s("minion 7 → hero", false),
            s("minion 7 → minion 30", false),
            s("end turn", false)
        ]
    );
    // A card offered one way only is played that way whatever `play_as` says (the rules
    // take a heal card's `play_as` as they find it).
    let heal_only = TcgOffer {
        plays: vec![(20, PlayAs::Spell)],
        attacks: Vec::new(),
    };
    let healed = T::PlayCard {
        card: 20,
        play_as: PlayAs::Heal,
        target: Target::Hero,
    };
    assert_eq!(
        marked(Tcg::offered_choices(&heal_only, Some(&healed))),
        vec![s("play 20 as spell", true), s("end turn", false)]
    );
    // dungeon: each ability with each target; a fault (no answer) marks nothing.
    use arena_sdk::dungeon::{Ability, Dungeon, Target as D};
    let offer = vec![
        (Ability::Fight, vec![D::Monster(0), D::Monster(2)]),
        (Ability::Heal, vec![D::Hero(1)]),
    ];
    assert_eq!(
        marked(Dungeon::offered_choices(&offer, None)),
        vec![
            s("fight → monster 0", false),
            s("fight → monster 2", false),
            s("heal → hero 1", false)
        ]
    );
}

#[test]
fn a_rejected_answer_marks_no_choice() {
    let mut replay = game::<Tcg>("random", "greedy", 11);
    let options = Options {
        fuel_per_turn: None,
    };
    let marked_lines = |data: &Data| -> Vec<usize> {
        data.lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.chosen.is_some())
            .map(|(i, _)| i)
            .collect()
    };
    let before = data(&replay, &options).unwrap();
    let first = *marked_lines(&before)
        .first()
        .expect("some answer was among its offer");
    // The entry behind that line, and the seat and turn of its answer.
    let text = &before.lines[first].text;
    let at = replay
        .log
        .iter()
        .position(|e| matches!(e, Entry::Answer { offered: Some(_), turn, .. } if text.starts_with(&format!("turn {turn}:"))))
        .unwrap();
    let Entry::Answer { seat, turn, .. } = replay.log[at] else {
        unreachable!()
    };
    replay.log.insert(
        at + 1,
        Entry::Rejected {
            seat,
            turn,
            reason: "the target is not an enemy".to_owned(),
        },
    );
    let after = data(&replay, &options).unwrap();
    assert_eq!(after.lines[first].text, *text);
    assert_eq!(after.lines[first].chosen, None, "rejected: nothing taken");
    assert_eq!(
        marked_lines(&after).len(),
        marked_lines(&before).len() - 1,
        "only that answer lost its mark"
    );
}

/// For every answer and rejection after the first event: the turn of its step, and its own.
fn call_turns<G: Ruleset>(replay: &Replay<G>) -> Vec<(u32, u32)> {
    let data = data(replay, &Options::default()).unwrap();
    let mut calls = replay.log.iter().filter_map(|e| match e {
        Entry::Answer { turn, .. } | Entry::Rejected { turn, .. } => Some(*turn),
        Entry::Event { .. } => None,
    });
    data.lines
        .iter()
        .filter(|l| {
            matches!(
                l.kind,
                LineKind::Answer | LineKind::Fault | LineKind::Rejected
            )
        })
        .map(|l| (l, calls.next().unwrap()))
        .filter(|(l, _)| l.step > 0)
        .map(|(l, turn)| (data.steps[l.step].turn, turn))
        .collect()
}

/// A conquest seat that never gives an order.
struct Idle;

impl Player<Conquest> for Idle {
    fn start(&mut self, _: &arena_sdk::MatchStart<Conquest>) -> Result<(), arena_engine::Fault> {
        Ok(())
    }
    fn setup(
        &mut self,
        _: &arena_sdk::conquest::SetupRequest,
    ) -> Result<arena_sdk::conquest::SetupChoice, arena_engine::Fault> {
        Ok(Default::default())
    }
    fn act(
        &mut self,
        _: &arena_sdk::conquest::Observation,
    ) -> Result<arena_sdk::conquest::Orders, arena_engine::Fault> {
        Ok(Default::default())
    }
    fn end(&mut self, _: &arena_sdk::MatchEnd) {}
}

#[test]
fn a_conquest_seat_without_orders_answers_in_its_own_step() {
    let mut p0: Box<dyn Player<Conquest>> =
        Box::new(NativePlayer::new(Conquest::create("random").unwrap()));
    let replay = run_match(
        &MatchConfig::new(Default::default(), 3),
        [p0.as_mut(), &mut Idle],
    )
    .replay;
    let turns = call_turns(&replay);
    assert!(turns.len() > 40, "{}", turns.len());
    let misplaced: Vec<_> = turns.iter().filter(|(step, call)| step != call).collect();
    assert_eq!(misplaced, Vec::<&(u32, u32)>::new());
}

#[test]
fn every_call_of_the_other_modes_is_in_a_step_of_its_turn() {
    for (mode, turns) in [
        ("battle", call_turns(&game::<Battle>("strong", "random", 4))),
        ("tcg", call_turns(&game::<Tcg>("planner", "greedy", 4))),
        (
            "grid",
            call_turns(&game::<Grid>("commander", "random-walker", 4)),
        ),
        (
            "dungeon",
            call_turns(&game::<Dungeon>("strong", "heuristic", 4)),
        ),
    ] {
        assert!(turns.len() > 10, "{mode}");
        assert!(turns.iter().all(|(step, call)| step == call), "{mode}");
    }
}
