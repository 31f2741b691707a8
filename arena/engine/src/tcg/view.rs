//! What a match looks like in text: one line per event, and the picture of the heroes,
//! hands and board after the events so far (`--watch`).

use super::*;

use arena_sdk::tcg::{CardKind, PlayAs};
use std::fmt::Write as _;

impl State {
    /// A multi-line picture: each hero with mana, deck and hand, and the board.
    pub fn picture(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "turn {} — seat {} to play",
            self.turn.max(1),
            self.active
        );
        for seat in 0..2u8 {
            let side = &self.sides[usize::from(seat)];
            let marker = if seat == self.active { '>' } else { ' ' };
            let _ = writeln!(
                out,
                "{marker} seat {seat}  health {:>3}/{}  mana {}/{}  deck {:>2}  discarded {}",
                side.health,
                self.max_health,
                side.mana,
                side.slots,
                side.deck.len(),
                side.discarded
            );
            let hand: Vec<String> = side.hand.iter().map(|c| card_label(&c.card)).collect();
            let _ = writeln!(out, "    hand:  {}", or_dash(&hand.join(" ")));
            let minions: Vec<String> = self
                .board
                .iter()
                .filter(|m| m.owner == seat)
                .map(|m| {
                    let zz = if m.asleep { " zz" } else { "" };
                    format!("[#{} {} {}/{}{zz}]", m.id, m.card, m.attack, m.health)
                })
                .collect();
            let _ = writeln!(out, "    board: {}", or_dash(&minions.join(" ")));
        }
        out
    }
}

pub(super) fn or_dash(text: &str) -> &str {
    if text.is_empty() { "-" } else { text }
}

pub(super) fn card_label(card: &arena_sdk::tcg::Card) -> String {
    match card.kind {
        CardKind::Damage => format!("[{} {}:{}]", card.id, card.cost, card.damage),
        CardKind::Heal => format!("[{} {}:+{}]", card.id, card.cost, card.heal),
        CardKind::Draw => format!("[{} {}:draw {}]", card.id, card.cost, card.draw),
    }
}

pub(super) fn describe(event: &Event) -> String {
    let victim = |v: &Victim| match v {
        Victim::Hero(seat) => format!("hero {seat}"),
        Victim::Minion(id) => format!("minion #{id}"),
    };
    match event {
        Event::TurnStart {
            turn,
            seat,
            mana_slots,
        } => format!("turn {turn}: seat {seat} has {mana_slots} mana"),
        Event::Draw { seat, uid, card } => format!("seat {seat} draws {card} (#{uid})"),
        Event::Overload { seat, uid, card } => {
            format!("seat {seat} overloads: {card} (#{uid}) is discarded")
        }
        Event::EmptyDeck { seat } => format!("seat {seat} has no card left to draw"),
        Event::FirstPlayer { seat, random } => {
            let how = if *random {
                "drawn at random"
            } else {
                "by rule"
            };
            format!("seat {seat} plays first ({how})")
        }
        Event::Shuffled { seat, order } => {
            let uids: Vec<String> = order.iter().map(|uid| format!("#{uid}")).collect();
            format!("seat {seat}'s deck after shuffling: {}", uids.join(" "))
        }
        Event::BleedOut {
            seat,
            damage,
            health,
        } => format!("seat {seat} bleeds out: {damage} damage, health {health}"),
        Event::Play {
            seat,
            uid,
            card,
            play_as,
            cost,
            mana_left,
        } => {
            let how = match play_as {
                PlayAs::Spell => "",
                PlayAs::Minion => " as a minion",
                PlayAs::Heal => " to heal",
            };
            format!("seat {seat} plays {card} (#{uid}){how} for {cost} mana, {mana_left} left")
        }
        Event::Damage {
            source,
            target,
            amount,
            health,
        } => format!(
            "seat {source} deals {amount} damage to {}, health {health}",
            victim(target)
        ),
        Event::Heal {
            seat,
            amount,
            health,
        } => format!("seat {seat} heals {amount}, health {health}"),
        Event::Summon {
            seat,
            minion,
            card,
            attack,
            health,
        } => format!("seat {seat} summons {card} #{minion} ({attack}/{health}), asleep"),
        Event::MinionAttack {
            seat,
            minion,
            target,
        } => format!("seat {seat}'s minion #{minion} attacks hero {target}"),
        Event::Fight {
            seat,
            attacker,
            defender,
        } => format!("seat {seat}'s minion #{attacker} fights minion #{defender}"),
        Event::MinionDied { seat, minion, card } => {
            format!("seat {seat}'s {card} #{minion} dies")
        }
        Event::TurnEnd {
            turn,
            seat,
            mana_wasted,
            reason,
        } => {
            let why = match reason {
                TurnEndReason::Chosen => "",
                TurnEndReason::NothingToDo => " (nothing left to do)",
                TurnEndReason::Rejected => " (illegal action)",
                TurnEndReason::Fault => " (fault)",
            };
            format!("turn {turn}: seat {seat} ends its turn{why}, {mana_wasted} mana unspent")
        }
        Event::GameEnd { winner, reason } => match winner {
            Some(seat) => format!("game over: seat {seat} wins ({reason})"),
            None => format!("game over: draw ({reason})"),
        },
    }
}

/// The state drawn as text, one event at a time: it folds the same [`State::apply`] the
/// rules use.
impl crate::Sketch<Event> for State {
    fn apply(&mut self, event: &Event) {
        State::apply(self, event);
    }

    fn draw(&self) -> Option<String> {
        Some(self.picture())
    }
}
