//! The match: the state (changed only by [`State::apply`] on an event), the deck choice,
//! and the loop that asks the seats' bots, checks their actions and emits the events.

use super::rules::{Move, check, legal_actions};
use super::*;

use crate::{Asked, Finish, Stats, Table};
use arena_sdk::Seat;
use arena_sdk::tcg::{
    Action, CardInstance, CardPool, DeckChoice, Hero, Minion, Observation, PlayAs, Rules,
    SetupRequest,
};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A minion as the rules track it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct MinionState {
    pub(super) id: u32,
    pub(super) owner: Seat,
    pub(super) card: String,
    pub(super) attack: i32,
    pub(super) health: i32,
    pub(super) asleep: bool,
    pub(super) attacked: bool,
}

/// One hero's side.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Side {
    pub(super) health: i32,
    pub(super) mana: i32,
    pub(super) slots: i32,
    /// Draw order: index 0 is drawn next.
    pub(super) deck: Vec<CardInstance>,
    pub(super) hand: Vec<CardInstance>,
    /// Cards lost to overload.
    pub(super) discarded: u32,
    /// Spells played and minions died.
    pub(super) graveyard: u32,
    pub(super) stats: Counters,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Counters {
    damage_dealt: i64,
    healing: i64,
    cards_played: i64,
    cards_drawn: i64,
    cards_discarded: i64,
    bleed_out_damage: i64,
    minions_played: i64,
    minions_killed: i64,
    mana_wasted: i64,
    turns: i64,
}

impl Counters {
    fn to_stats(&self) -> Stats {
        let values = [
            self.damage_dealt,
            self.healing,
            self.cards_played,
            self.cards_drawn,
            self.cards_discarded,
            self.bleed_out_damage,
            self.minions_played,
            self.minions_killed,
            self.mana_wasted,
            self.turns,
        ];
        STAT_KEYS
            .iter()
            .zip(values)
            .map(|(k, v)| ((*k).to_owned(), v))
            .collect()
    }
}

/// The state of a match, changed only by [`State::apply`].
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub(super) max_health: i32,
    pub(super) turn: u32,
    pub(super) active: Seat,
    pub(super) sides: [Side; 2],
    pub(super) board: Vec<MinionState>,
}

impl State {
    /// The state before any event: full health, no mana, full decks, empty hands.
    pub fn new(initial: &Initial) -> State {
        let side = |seat: usize| Side {
            health: initial.starting_health,
            deck: initial.decks[seat].clone(),
            ..Side::default()
        };
        State {
            max_health: initial.starting_health,
            turn: 0,
            active: initial.first_player,
            sides: [side(0), side(1)],
            board: Vec::new(),
        }
    }

    /// Each seat's health.
    pub fn health(&self) -> [i32; 2] {
        [self.sides[0].health, self.sides[1].health]
    }

    /// Each seat's statistics so far.
    pub fn stats(&self) -> [Stats; 2] {
        [
            self.sides[0].stats.to_stats(),
            self.sides[1].stats.to_stats(),
        ]
    }

    /// Cards of `seat` in deck, hand, discard pile, graveyard and on the board: always the
    /// deck size.
    pub fn card_count(&self, seat: Seat) -> usize {
        let side = &self.sides[usize::from(seat)];
        side.deck.len()
            + side.hand.len()
            + side.discarded as usize
            + side.graveyard as usize
            + self.board.iter().filter(|m| m.owner == seat).count()
    }

    /// `seat`'s mana and mana slots.
    pub fn mana(&self, seat: Seat) -> (i32, i32) {
        let side = &self.sides[usize::from(seat)];
        (side.mana, side.slots)
    }

    /// `seat`'s hand size.
    pub fn hand_size(&self, seat: Seat) -> usize {
        self.sides[usize::from(seat)].hand.len()
    }

    /// Minions on the board (all seats).
    pub fn minion_count(&self) -> usize {
        self.board.len()
    }

    fn side(&mut self, seat: Seat) -> &mut Side {
        &mut self.sides[usize::from(seat)]
    }

    pub(super) fn minion(&self, id: u32) -> Option<&MinionState> {
        self.board.iter().find(|m| m.id == id)
    }

    fn minion_mut(&mut self, id: u32) -> Option<&mut MinionState> {
        self.board.iter_mut().find(|m| m.id == id)
    }

    /// Apply one event. Events come from the rules (or a verified replay); one that does
    /// not fit the state (a card not in the deck …) changes nothing.
    pub fn apply(&mut self, event: &Event) {
        match event {
            Event::TurnStart {
                turn,
                seat,
                mana_slots,
            } => {
                self.turn = *turn;
                self.active = *seat;
                let side = self.side(*seat);
                side.slots = *mana_slots;
                side.mana = *mana_slots;
                side.stats.turns += 1;
                for minion in self.board.iter_mut().filter(|m| m.owner == *seat) {
                    minion.asleep = false;
                    minion.attacked = false;
                }
            }
            Event::Draw { seat, uid, .. } => {
                let side = self.side(*seat);
                if let Some(pos) = side.deck.iter().position(|c| c.uid == *uid) {
                    let card = side.deck.remove(pos);
                    side.hand.push(card);
                    side.stats.cards_drawn += 1;
                }
            }
            Event::Overload { seat, uid, .. } => {
                let side = self.side(*seat);
                if let Some(pos) = side.deck.iter().position(|c| c.uid == *uid) {
                    side.deck.remove(pos);
                    side.discarded += 1;
                    side.stats.cards_discarded += 1;
                }
            }
            Event::EmptyDeck { .. } | Event::FirstPlayer { .. } | Event::Shuffled { .. } => {}
            Event::BleedOut { seat, damage, .. } => {
                let side = self.side(*seat);
                side.health -= damage;
                side.stats.bleed_out_damage += i64::from(*damage);
            }
            Event::Play {
                seat,
                uid,
                play_as,
                cost,
                ..
            } => {
                let side = self.side(*seat);
                if let Some(pos) = side.hand.iter().position(|c| c.uid == *uid) {
                    side.mana -= cost;
                    side.stats.cards_played += 1;
                    // A minion's card stays in hand until its `Summon` puts it on the board,
                    // so every card is somewhere after each event.
                    if *play_as != PlayAs::Minion {
                        side.hand.remove(pos);
                        side.graveyard += 1;
                    }
                }
            }
            Event::Damage {
                source,
                target,
                amount,
                ..
            } => {
                match target {
                    Victim::Hero(seat) => self.side(*seat).health -= amount,
                    Victim::Minion(id) => {
                        if let Some(minion) = self.minion_mut(*id) {
                            minion.health -= amount;
                        }
                    }
                }
                self.side(*source).stats.damage_dealt += i64::from(*amount);
            }
            Event::Heal { seat, amount, .. } => {
                let side = self.side(*seat);
                side.health += amount;
                side.stats.healing += i64::from(*amount);
            }
            Event::Summon {
                seat,
                minion,
                card,
                attack,
                health,
            } => {
                let side = self.side(*seat);
                if let Some(pos) = side.hand.iter().position(|c| c.uid == *minion) {
                    side.hand.remove(pos);
                }
                self.board.push(MinionState {
                    id: *minion,
                    owner: *seat,
                    card: card.clone(),
                    attack: *attack,
                    health: *health,
                    asleep: true,
                    attacked: false,
                });
                self.side(*seat).stats.minions_played += 1;
            }
            Event::MinionAttack { minion, .. }
            | Event::Fight {
                attacker: minion, ..
            } => {
                if let Some(m) = self.minion_mut(*minion) {
                    m.attacked = true;
                }
            }
            Event::MinionDied { seat, minion, .. } => {
                if let Some(pos) = self.board.iter().position(|m| m.id == *minion) {
                    self.board.remove(pos);
                    self.side(*seat).graveyard += 1;
                    self.side(1 - *seat).stats.minions_killed += 1;
                }
            }
            Event::TurnEnd {
                seat, mana_wasted, ..
            } => {
                let side = self.side(*seat);
                side.stats.mana_wasted += i64::from(*mana_wasted);
                side.mana = 0;
            }
            Event::GameEnd { .. } => {}
        }
    }

    fn public_minion(&self, m: &MinionState) -> Minion {
        Minion {
            id: m.id,
            owner: m.owner,
            card: m.card.clone(),
            attack: m.attack,
            health: m.health,
            asleep: m.asleep,
            can_attack: m.owner == self.active && !m.asleep && !m.attacked,
        }
    }

    fn hero(&self, seat: Seat) -> Hero {
        let side = &self.sides[usize::from(seat)];
        Hero {
            health: side.health,
            mana: side.mana,
            mana_slots: side.slots,
            deck_size: side.deck.len() as u32,
            hand_size: side.hand.len() as u32,
        }
    }
}

/// One match in progress: the rules, the state, and the table every event goes to.
struct Game<'a, 'p> {
    rules: &'a Rules,
    state: State,
    table: &'a mut Table<'p, Tcg>,
    last_rejected: [Option<String>; 2],
}

impl Game<'_, '_> {
    /// The turns, from the first to the match's end (its end event is the caller's).
    fn turns(&mut self, first: Seat) -> Finish {
        let rules = self.rules;
        for turn in 1..=rules.turn_cap {
            self.table.set_turn(turn);
            let seat = if turn % 2 == 1 { first } else { 1 - first };
            let slots = (self.state.sides[usize::from(seat)].slots + 1).min(rules.max_mana);
            self.emit(Event::TurnStart {
                turn,
                seat,
                mana_slots: slots,
            });
            self.draw(seat, true);
            if let Some(finish) = self.death(seat) {
                return finish;
            }
            loop {
                let legal = legal_actions(rules, &self.state, seat);
                if legal.len() == 1 {
                    self.end_turn(turn, seat, TurnEndReason::NothingToDo);
                    break;
                }
                let offer = Offer::of(&legal);
                let observation = self.observation(seat, legal);
                let mut checked = None;
                let state = &self.state;
                let asked = self.table.ask(seat, &observation, offer, |action| {
                    let mv = check(rules, state, seat, action)
                        .map_err(|why| format!("turn {turn}: {why}; your turn was ended"))?;
                    checked = Some(mv);
                    Ok(())
                });
                match (asked, checked) {
                    (Asked::Forfeited(loser), _) => {
                        return self.table.forfeit_finish(loser, self.state.stats());
                    }
                    (Asked::Default { rejected: None, .. }, _) => {
                        self.end_turn(turn, seat, TurnEndReason::Fault);
                        break;
                    }
                    (Asked::Default { rejected, .. }, _) => {
                        self.last_rejected[usize::from(seat)] = rejected;
                        self.end_turn(turn, seat, TurnEndReason::Rejected);
                        break;
                    }
                    // A legal answer always has its move.
                    (Asked::Legal(_), Some(Move::End) | None) => {
                        self.end_turn(turn, seat, TurnEndReason::Chosen);
                        break;
                    }
                    (Asked::Legal(_), Some(mv)) => {
                        self.perform(seat, mv);
                        if let Some(finish) = self.death(1 - seat) {
                            return finish;
                        }
                    }
                }
            }
        }
        let [h0, h1] = self.state.health();
        let stats = self.state.stats();
        let (winner, reason) = match h0.cmp(&h1) {
            std::cmp::Ordering::Greater => (
                Some(0),
                format!("turn cap: seat 0 has more health ({h0} to {h1})"),
            ),
            std::cmp::Ordering::Less => (
                Some(1),
                format!("turn cap: seat 1 has more health ({h1} to {h0})"),
            ),
            std::cmp::Ordering::Equal => (None, format!("turn cap: equal health ({h0})")),
        };
        Finish {
            winner,
            reason,
            stats,
        }
    }

    fn emit(&mut self, event: Event) {
        self.state.apply(&event);
        self.table.event(event);
    }

    fn health(&self, seat: Seat) -> i32 {
        self.state.sides[usize::from(seat)].health
    }

    /// Draw one card for `seat`. The turn's draw bleeds on an empty deck; a card drawer's
    /// draw does not (the document ties bleeding to "when it's his turn").
    fn draw(&mut self, seat: Seat, turn_draw: bool) {
        let side = &self.state.sides[usize::from(seat)];
        match side.deck.first() {
            None if turn_draw && self.rules.bleeding_out => {
                let damage = 1;
                let health = side.health - damage;
                self.emit(Event::BleedOut {
                    seat,
                    damage,
                    health,
                });
            }
            None => self.emit(Event::EmptyDeck { seat }),
            Some(top) => {
                let (uid, card) = (top.uid, top.card.id.clone());
                if self.rules.overload && side.hand.len() >= self.rules.max_hand as usize {
                    self.emit(Event::Overload { seat, uid, card });
                } else {
                    self.emit(Event::Draw { seat, uid, card });
                }
            }
        }
    }

    fn observation(&mut self, seat: Seat, legal: Vec<Action>) -> Observation {
        let state = &self.state;
        Observation {
            turn: state.turn,
            turn_cap: self.rules.turn_cap,
            seat,
            heroes: [state.hero(0), state.hero(1)],
            hand: state.sides[usize::from(seat)].hand.clone(),
            board: state.board.iter().map(|m| state.public_minion(m)).collect(),
            legal,
            last_rejected: self.last_rejected[usize::from(seat)].take(),
        }
    }

    fn pay(&mut self, seat: Seat, uid: u32, play_as: PlayAs) -> arena_sdk::tcg::Card {
        let side = &self.state.sides[usize::from(seat)];
        let card = side
            .hand
            .iter()
            .find(|c| c.uid == uid)
            .map(|c| c.card.clone())
            .expect("checked moves play cards from the hand");
        let mana_left = side.mana - card.cost;
        self.emit(Event::Play {
            seat,
            uid,
            card: card.id.clone(),
            play_as,
            cost: card.cost,
            mana_left,
        });
        card
    }

    fn damage(&mut self, source: Seat, target: Victim, amount: i32) {
        let health = match target {
            Victim::Hero(seat) => self.health(seat),
            Victim::Minion(id) => self.state.minion(id).map_or(0, |m| m.health),
        } - amount;
        self.emit(Event::Damage {
            source,
            target,
            amount,
            health,
        });
    }

    fn bury(&mut self, ids: &[u32]) {
        for &id in ids {
            if let Some(m) = self.state.minion(id)
                && m.health <= 0
            {
                let (seat, card) = (m.owner, m.card.clone());
                self.emit(Event::MinionDied {
                    seat,
                    minion: id,
                    card,
                });
            }
        }
    }

    fn perform(&mut self, seat: Seat, mv: Move) {
        match mv {
            Move::End => {}
            Move::Spell { uid, target } => {
                let card = self.pay(seat, uid, PlayAs::Spell);
                // A dud's 0 damage is recorded too: its target is the bot's choice.
                self.damage(seat, target, card.damage);
                if let Victim::Minion(id) = target {
                    self.bury(&[id]);
                }
            }
            Move::Summon { uid } => {
                let card = self.pay(seat, uid, PlayAs::Minion);
                self.emit(Event::Summon {
                    seat,
                    minion: uid,
                    card: card.id,
                    attack: card.damage,
                    health: card.damage,
                });
            }
            Move::Heal { uid, amount } => {
                self.pay(seat, uid, PlayAs::Heal);
                let health = self.health(seat);
                let restored = amount.min(self.state.max_health - health).max(0);
                self.emit(Event::Heal {
                    seat,
                    amount: restored,
                    health: health + restored,
                });
            }
            Move::Draw { uid, cards } => {
                self.pay(seat, uid, PlayAs::Spell);
                for _ in 0..cards {
                    self.draw(seat, false);
                }
            }
            Move::AttackHero { minion } => {
                let attack = self.state.minion(minion).map_or(0, |m| m.attack);
                self.emit(Event::MinionAttack {
                    seat,
                    minion,
                    target: 1 - seat,
                });
                self.damage(seat, Victim::Hero(1 - seat), attack);
            }
            Move::Fight { attacker, defender } => {
                let strength = |id| self.state.minion(id).map_or(0, |m| m.attack);
                let (hit, back) = (strength(attacker), strength(defender));
                self.emit(Event::Fight {
                    seat,
                    attacker,
                    defender,
                });
                // Simultaneous: both amounts were read before either is applied.
                self.damage(seat, Victim::Minion(defender), hit);
                self.damage(1 - seat, Victim::Minion(attacker), back);
                self.bury(&[defender, attacker]);
            }
        }
    }

    fn end_turn(&mut self, turn: u32, seat: Seat, reason: TurnEndReason) {
        let mana_wasted = self.state.sides[usize::from(seat)].mana.max(0);
        self.emit(Event::TurnEnd {
            turn,
            seat,
            mana_wasted,
            reason,
        });
    }

    fn win(&self, winner: Seat, reason: String) -> Finish {
        Finish {
            winner: Some(winner),
            reason,
            stats: self.state.stats(),
        }
    }

    /// The hero of `seat` is dead, if it is.
    fn death(&self, seat: Seat) -> Option<Finish> {
        let health = self.health(seat);
        (health <= 0).then(|| {
            self.win(
                1 - seat,
                format!("seat {seat}'s hero is down to {health} health"),
            )
        })
    }
}

/// The deck `seat` chose, checked: its card ids and whether they were chosen (custom decks
/// on and a deck given), or the mode's reason to refuse it.
fn checked_deck(
    rules: &Rules,
    pool: &CardPool,
    seat: Seat,
    choice: &DeckChoice,
) -> Result<(Vec<String>, bool), String> {
    match &choice.deck {
        Some(ids) if rules.custom_decks => match pool.check(ids) {
            Ok(()) => Ok((ids.clone(), true)),
            Err(why) => Err(format!("deck rejected, the default deck is used: {why}")),
        },
        _ => Ok((rules.deck_of(seat).to_vec(), false)),
    }
}

/// Play one match to its end (see [`Ruleset::play`]).
pub(super) fn play(rules: &Rules, seed: u64, table: &mut Table<'_, Tcg>) -> Finish {
    play_to_end(rules, seed, table).0
}

/// [`play`], keeping the state the match ends in (`None` after a forfeit at setup): what
/// folding the replay's events must give.
pub(super) fn play_to_end(
    rules: &Rules,
    seed: u64,
    table: &mut Table<'_, Tcg>,
) -> (Finish, Option<State>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let first: Seat = if rules.random_first_player {
        rng.random_range(0..2)
    } else {
        0
    };
    let pool = rules.card_pool();
    let mut last_rejected: [Option<String>; 2] = [None, None];
    let mut decks: [Vec<CardInstance>; 2] = [Vec::new(), Vec::new()];
    let mut chosen = [false; 2];
    for seat in 0..2u8 {
        let request = SetupRequest {
            seat,
            first_player: first,
            choose_deck: rules.custom_decks,
            pool: pool.clone(),
            default_deck: rules.deck_of(seat).to_vec(),
        };
        let asked = table.ask_setup(seat, &request, |choice| {
            checked_deck(rules, &pool, seat, choice)
        });
        let (ids, was_chosen) = match asked {
            Asked::Legal(deck) => deck,
            Asked::Default { rejected } => {
                last_rejected[usize::from(seat)] = rejected;
                (rules.deck_of(seat).to_vec(), false)
            }
            Asked::Forfeited(loser) => {
                let none = Counters::default().to_stats();
                let finish = table.forfeit_finish(loser, [none.clone(), none]);
                table.event(Event::GameEnd {
                    winner: finish.winner,
                    reason: finish.reason.clone(),
                });
                return (finish, None);
            }
        };
        chosen[usize::from(seat)] = was_chosen;
        // Uids are given in list order before shuffling: seat 0 has 1..=n, seat 1 n+1..=2n.
        let base = u32::from(seat) * rules.deck_size;
        decks[usize::from(seat)] = ids
            .iter()
            .enumerate()
            .map(|(i, id)| CardInstance {
                uid: base + i as u32 + 1,
                card: pool.card(id).expect("decks hold pool cards").clone(),
            })
            .collect();
    }
    for deck in &mut decks {
        deck.shuffle(&mut rng);
    }
    let initial = Initial {
        first_player: first,
        starting_health: rules.starting_health,
        decks,
        chosen_deck: chosen,
    };
    let state = State::new(&initial);
    // The roll records follow the initial state, as every event does (observers and the
    // live view hand the initial state over before the first event).
    let orders = initial
        .decks
        .each_ref()
        .map(|deck| deck.iter().map(|c| c.uid).collect::<Vec<_>>());
    table.set_initial(initial);
    table.event(Event::FirstPlayer {
        seat: first,
        random: rules.random_first_player,
    });
    for (seat, order) in (0u8..).zip(orders) {
        table.event(Event::Shuffled { seat, order });
    }
    let mut game = Game {
        rules,
        state,
        table,
        last_rejected,
    };

    for (seat, extra) in [
        (first, 0),
        (1 - first, u32::from(rules.second_player_extra_card)),
    ] {
        for _ in 0..rules.opening_hand + extra {
            game.draw(seat, false);
        }
    }

    let finish = game.turns(first);
    game.table.event(Event::GameEnd {
        winner: finish.winner,
        reason: finish.reason.clone(),
    });
    (finish, Some(game.state))
}
