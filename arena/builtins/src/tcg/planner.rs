//! `planner`: a beam search over the rest of the turn (see [`Planner`]).

use super::*;

use arena_sdk::tcg::{
    Action, Card, CardInstance, CardKind, DeckChoice, Observation, PlayAs, Rules, SetupRequest,
    Target, Tcg,
};
use arena_sdk::{Bot, MatchStart, Seat};
use std::hash::{DefaultHasher, Hash, Hasher};

/// The most damage a subset of the first 12 damage cards among `hand` deals with `mana`.
pub(super) fn best_subset<'a>(hand: impl Iterator<Item = &'a Card>, mana: i32) -> i32 {
    let mut cards = [(0i32, 0i32); 12];
    let mut n = 0;
    for c in hand.filter(|c| c.kind == CardKind::Damage && c.damage > 0) {
        if n == cards.len() {
            break;
        }
        cards[n] = (c.cost, c.damage);
        n += 1;
    }
    let cards = &cards[..n];
    // A 0/1 knapsack over the mana: the same maximum as trying every subset, in
    // cards × mana steps instead of 2^cards × cards. Costs are never negative and
    // mana is at most 100 by the rules; anything else is tried subset by subset.
    const MANA_CAP: usize = 100;
    let sane = cards.iter().all(|&(c, d)| c >= 0 && d <= 1_000_000);
    match usize::try_from(mana) {
        Err(_) if sane => 0,
        Ok(mana) if sane && mana <= MANA_CAP => {
            let mut best = [0i32; MANA_CAP + 1];
            for &(cost, damage) in cards {
                let cost = usize::try_from(cost).unwrap_or(usize::MAX);
                if cost > mana {
                    continue;
                }
                for cap in (cost..=mana).rev() {
                    best[cap] = best[cap].max(best[cap - cost] + damage);
                }
            }
            best[mana]
        }
        _ => best_subset_by_trying(cards, mana),
    }
}

/// [`best_subset`] by trying every subset of `cards` (cost, damage).
pub(super) fn best_subset_by_trying(cards: &[(i32, i32)], mana: i32) -> i32 {
    let mut best = 0;
    for mask in 0u32..(1 << cards.len().min(12)) {
        let (mut cost, mut damage) = (0, 0);
        for (i, &(c, d)) in cards.iter().enumerate().take(12) {
            if mask & (1 << i) != 0 {
                cost += c;
                damage += d;
            }
        }
        if cost <= mana {
            best = best.max(damage);
        }
    }
    best
}

/// A minion in the planner's model of the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct SimMinion {
    id: u32,
    attack: i32,
    health: i32,
    ready: bool,
}

/// The planner's model of the rest of its turn.
#[derive(Debug, Clone)]
struct Sim {
    my_health: i32,
    opp_health: i32,
    mana: i32,
    /// The cards still in hand, as indices into the observation's hand in its order (a
    /// copy of the turn's states then copies no card).
    hand: Vec<usize>,
    mine: Vec<SimMinion>,
    theirs: Vec<SimMinion>,
    deck_left: i32,
    /// Unknown cards that card drawers will bring.
    drawn: i32,
}

/// Lists [`Planner::moves`] fills afresh for every state, kept for the next.
#[derive(Default)]
struct Scratch<'a> {
    targets: Vec<Target>,
    seen_enemy: Vec<(i32, i32)>,
    seen_cards: Vec<&'a Card>,
    seen_attackers: Vec<(i32, i32)>,
}

/// What a search reads of the observation, worked out once per decision.
struct Context<'a> {
    /// The hand as dealt: a [`Sim`]'s hand indexes into it.
    cards: &'a [CardInstance],
    /// The opponent's next turn's spells, as [`Planner::evaluate`] counts them.
    burn: f64,
    /// Our mana next turn.
    my_next_mana: i32,
}

impl<'a> Context<'a> {
    fn new(rules: &Rules, observation: &'a Observation) -> Context<'a> {
        let opponent = observation.opponent();
        let their_mana = (opponent.mana_slots + 1).min(rules.max_mana);
        let burn = if opponent.hand_size + u32::from(opponent.deck_size > 0) > 0 {
            let factor = if rules.separate_damage { 1.3 } else { 1.0 };
            factor * f64::from(their_mana)
        } else {
            0.0
        };
        Context {
            cards: &observation.hand,
            burn,
            my_next_mana: (observation.me().mana_slots + 1).min(rules.max_mana),
        }
    }

    fn card(&self, index: usize) -> &'a CardInstance {
        &self.cards[index]
    }
}

impl Sim {
    fn from_observation(observation: &Observation) -> Sim {
        let seat = observation.seat;
        let minions = |owner: Seat| {
            observation
                .minions_of(owner)
                .map(|m| SimMinion {
                    id: m.id,
                    attack: m.attack,
                    health: m.health,
                    ready: m.can_attack,
                })
                .collect()
        };
        Sim {
            my_health: observation.me().health,
            opp_health: observation.opponent().health,
            mana: observation.me().mana,
            hand: (0..observation.hand.len()).collect(),
            mine: minions(seat),
            theirs: minions(1 - seat),
            deck_left: observation.me().deck_size as i32,
            drawn: 0,
        }
    }

    /// A hash of everything that tells two states apart (the hand as a set of uids);
    /// `uids` is scratch space.
    fn key(&self, context: &Context<'_>, uids: &mut Vec<u32>) -> u64 {
        let mut hasher = DefaultHasher::new();
        uids.clear();
        uids.extend(self.hand.iter().map(|&i| context.card(i).uid));
        uids.sort_unstable();
        (
            self.my_health,
            self.opp_health,
            self.mana,
            &uids[..],
            &self.mine,
            &self.theirs,
            self.drawn,
        )
            .hash(&mut hasher);
        hasher.finish()
    }
}

/// Planner: for each decision, a beam search over the rest of the turn in a model of the
/// rules (its own hand and both boards are fully known), scoring the position at the end
/// of the turn; a sequence that kills the enemy hero is taken at once.
#[derive(Debug, Default)]
pub struct Planner {
    pub(super) rules: Rules,
}

/// States kept per depth of the beam search.
const BEAM_WIDTH: usize = 24;
/// Actions looked ahead at most in one turn.
const MAX_DEPTH: usize = 14;

impl Planner {
    /// The actions worth trying from `sim`, into `moves`.
    fn moves<'a>(
        &self,
        sim: &Sim,
        context: &Context<'a>,
        scratch: &mut Scratch<'a>,
        moves: &mut Vec<Action>,
    ) {
        let rules = &self.rules;
        moves.clear();
        let Scratch {
            targets,
            seen_enemy,
            seen_cards,
            seen_attackers,
        } = scratch;
        // Identical enemy minions are interchangeable targets; so are identical cards.
        targets.clear();
        targets.push(Target::Hero);
        seen_enemy.clear();
        for m in &sim.theirs {
            if !seen_enemy.contains(&(m.attack, m.health)) {
                seen_enemy.push((m.attack, m.health));
                targets.push(Target::Minion(m.id));
            }
        }
        seen_cards.clear();
        for &index in &sim.hand {
            let instance = context.card(index);
            let c = &instance.card;
            if c.cost > sim.mana || seen_cards.contains(&c) {
                continue;
            }
            seen_cards.push(c);
            let play = |play_as, target| Action::PlayCard {
                card: instance.uid,
                play_as,
                target,
            };
            let hurt = sim.my_health < rules.starting_health;
            match c.kind {
                CardKind::Heal if hurt => moves.push(play(PlayAs::Heal, Target::Hero)),
                CardKind::Heal => {}
                CardKind::Draw => moves.push(play(PlayAs::Spell, Target::Hero)),
                CardKind::Damage if c.damage == 0 => moves.push(play(PlayAs::Spell, Target::Hero)),
                CardKind::Damage => {
                    let spell_targets = if rules.minions {
                        &targets[..]
                    } else {
                        &targets[..1]
                    };
                    moves.extend(spell_targets.iter().map(|&t| play(PlayAs::Spell, t)));
                    if rules.minions && sim.mine.len() < rules.max_minions as usize {
                        moves.push(play(PlayAs::Minion, Target::Hero));
                    }
                    if rules.any_card_heals && hurt {
                        moves.push(play(PlayAs::Heal, Target::Hero));
                    }
                }
            }
        }
        seen_attackers.clear();
        for m in sim.mine.iter().filter(|m| m.ready) {
            if seen_attackers.contains(&(m.attack, m.health)) {
                continue;
            }
            seen_attackers.push((m.attack, m.health));
            moves.extend(targets.iter().map(|&target| Action::Attack {
                minion: m.id,
                target,
            }));
        }
    }

    fn apply(&self, sim: &Sim, action: &Action, context: &Context<'_>) -> Sim {
        let mut next = sim.clone();
        let hit = |minions: &mut Vec<SimMinion>, id: u32, amount: i32| {
            if let Some(m) = minions.iter_mut().find(|m| m.id == id) {
                m.health -= amount;
            }
            minions.retain(|m| m.health > 0);
        };
        match *action {
            Action::PlayCard {
                card,
                play_as,
                target,
            } => {
                let Some(pos) = next.hand.iter().position(|&i| context.card(i).uid == card) else {
                    return next;
                };
                let c = &context.card(next.hand.remove(pos)).card;
                next.mana -= c.cost;
                match (c.kind, play_as) {
                    (CardKind::Heal, _) | (CardKind::Damage, PlayAs::Heal) => {
                        next.my_health =
                            (next.my_health + c.amount()).min(self.rules.starting_health);
                    }
                    (CardKind::Draw, _) => {
                        let space =
                            self.rules.max_hand as i32 - next.hand.len() as i32 - next.drawn;
                        let cards = c.draw.min(next.deck_left).min(space.max(0));
                        next.drawn += cards;
                        next.deck_left -= c.draw.min(next.deck_left);
                    }
                    (CardKind::Damage, PlayAs::Minion) => next.mine.push(SimMinion {
                        id: card,
                        attack: c.damage,
                        health: c.damage,
                        ready: false,
                    }),
                    (CardKind::Damage, PlayAs::Spell) => match target {
                        Target::Hero => next.opp_health -= c.damage,
                        Target::Minion(id) => hit(&mut next.theirs, id, c.damage),
                    },
                }
            }
            Action::Attack { minion, target } => {
                let Some(attacker) = next.mine.iter_mut().find(|m| m.id == minion) else {
                    return next;
                };
                attacker.ready = false;
                let strength = attacker.attack;
                match target {
                    Target::Hero => next.opp_health -= strength,
                    Target::Minion(id) => {
                        let back = next
                            .theirs
                            .iter()
                            .find(|m| m.id == id)
                            .map_or(0, |m| m.attack);
                        hit(&mut next.theirs, id, strength);
                        hit(&mut next.mine, minion, back);
                    }
                }
            }
            Action::EndTurn => {}
        }
        next
    }

    /// How good the position is for us if the turn ends here.
    fn evaluate(&self, sim: &Sim, context: &Context<'_>) -> f64 {
        if sim.opp_health <= 0 {
            return 1e9;
        }
        let rules = &self.rules;
        // Health matters more the lower it gets.
        let life = |h: i32| f64::from(h) + 0.5 * f64::from(h.min(10));
        let mut score = life(sim.my_health) - life(sim.opp_health);
        score += sim
            .mine
            .iter()
            .map(|m| f64::from(m.attack) + 0.6 * f64::from(m.health) + 1.0)
            .sum::<f64>();
        score -= sim
            .theirs
            .iter()
            .map(|m| 1.5 * f64::from(m.attack) + 0.7 * f64::from(m.health) + 1.0)
            .sum::<f64>();
        // Their next turn: every minion at our face, plus spells worth their mana.
        let threat = f64::from(sim.theirs.iter().map(|m| m.attack).sum::<i32>()) + context.burn;
        let margin = f64::from(sim.my_health) - threat;
        if margin <= 0.0 {
            score -= 15.0 - 2.0 * margin;
        }
        // Cards kept are next turn's damage: what the best subset of them deals with next
        // turn's mana, plus a little for everything else a card offers.
        let hand = sim.hand.iter().map(|&i| &context.card(i).card);
        score += 0.6 * f64::from(best_subset(hand.clone(), context.my_next_mana));
        for card in hand {
            score += if card.kind == CardKind::Damage && card.damage == 0 {
                -0.2
            } else {
                0.1 + 0.1 * f64::from(card.amount())
            };
        }
        score += 1.0 * f64::from(sim.drawn);
        let hand_after = sim.hand.len() as i32 + sim.drawn;
        if rules.overload && hand_after >= rules.max_hand as i32 && sim.deck_left > 0 {
            score -= 2.0;
        }
        score
    }

    fn plan(&self, observation: &Observation) -> Action {
        let context = Context::new(&self.rules, observation);
        let mut uids = Vec::new();
        let root = Sim::from_observation(observation);
        let mut best = (self.evaluate(&root, &context), Action::EndTurn);
        let mut seen = std::collections::BTreeSet::new();
        seen.insert(root.key(&context, &mut uids));
        let mut frontier: Vec<(Sim, Action)> = vec![(root, Action::EndTurn)];
        let (mut scratch, mut actions) = (Scratch::default(), Vec::new());
        for depth in 0..MAX_DEPTH {
            let mut children: Vec<(f64, Sim, Action)> = Vec::new();
            for (sim, first) in &frontier {
                self.moves(sim, &context, &mut scratch, &mut actions);
                for &action in &actions {
                    let child = self.apply(sim, &action, &context);
                    if !seen.insert(child.key(&context, &mut uids)) {
                        continue;
                    }
                    let first = if depth == 0 { action } else { *first };
                    if child.opp_health <= 0 {
                        return first;
                    }
                    let value = self.evaluate(&child, &context);
                    if value > best.0 {
                        best = (value, first);
                    }
                    children.push((value, child, first));
                }
            }
            if children.is_empty() {
                break;
            }
            children.sort_by(|a, b| b.0.total_cmp(&a.0));
            children.truncate(BEAM_WIDTH);
            frontier = children.into_iter().map(|(_, s, a)| (s, a)).collect();
        }
        best.1
    }
}

impl Bot<Tcg> for Planner {
    fn start(&mut self, start: &MatchStart<Tcg>) {
        self.rules = start.rules.clone();
    }

    fn setup(&mut self, request: &SetupRequest) -> DeckChoice {
        if !request.choose_deck {
            return DeckChoice::default();
        }
        let minions = self.rules.minions;
        curve_deck(request, |c| match c.kind {
            // A minion hits again every turn it lives: damage is worth a bit more.
            CardKind::Damage => f64::from(c.damage) * if minions { 1.2 } else { 1.0 },
            CardKind::Heal => 0.7 * f64::from(c.heal),
            CardKind::Draw => 0.5 * f64::from(c.draw),
        })
    }

    fn act(&mut self, observation: &Observation) -> Action {
        let action = self.plan(observation);
        if observation.legal.contains(&action) {
            action
        } else {
            Action::EndTurn
        }
    }
}
