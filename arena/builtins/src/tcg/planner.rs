//! `planner`: a beam search over the rest of the turn (see [`Planner`]).

use super::*;

use arena_sdk::tcg::{
    Action, CardInstance, CardKind, DeckChoice, Observation, PlayAs, Rules, SetupRequest, Target,
    Tcg,
};
use arena_sdk::{Bot, MatchStart, Seat};

/// Damage cards [`best_subset`] counts, at most (the search's bound).
const SUBSET_CARDS: usize = 12;

/// The most damage a subset of the first 12 damage cards among `hand` deals with `mana`
/// (what [`evaluate`] counts of a hand, through [`best_damage`]).
#[cfg(test)]
pub(super) fn best_subset<'a>(
    hand: impl Iterator<Item = &'a arena_sdk::tcg::Card>,
    mana: i32,
) -> i32 {
    let mut cards = [(0i32, 0i32); SUBSET_CARDS];
    let mut n = 0;
    for c in hand.filter(|c| c.kind == CardKind::Damage && c.damage > 0) {
        if n == cards.len() {
            break;
        }
        cards[n] = (c.cost, c.damage);
        n += 1;
    }
    best_damage(&cards[..n], mana)
}

/// The most damage a subset of `cards` (cost, damage) deals with `mana`.
fn best_damage(cards: &[(i32, i32)], mana: i32) -> i32 {
    let (mut sane, mut positive, mut all_cost, mut all_damage) = (true, true, 0i64, 0i64);
    for &(cost, damage) in cards {
        sane &= cost >= 0 && damage <= 1_000_000;
        positive &= damage > 0;
        all_cost += i64::from(cost);
        all_damage += i64::from(damage);
    }
    // Most hands: every card fits, and the best subset is all of them.
    if sane && positive && all_cost <= i64::from(mana) && cards.len() <= SUBSET_CARDS {
        return all_damage as i32;
    }
    // The document's cards deal their cost in damage: then the best damage is the largest
    // sum of costs within the mana, and the sums reachable are a set of bits (a few
    // instructions a card where the knapsack below takes one loop over the mana).
    if sane && positive && (0..128).contains(&mana) && cards.iter().all(|&(c, d)| c == d) {
        let mut sums = 1u128;
        for &(cost, _) in cards {
            sums |= sums.checked_shl(cost as u32).unwrap_or(0);
        }
        let within = sums & (u128::MAX >> (127 - mana));
        return 127 - within.leading_zeros() as i32;
    }
    // A 0/1 knapsack over the mana: the same maximum as trying every subset, in
    // cards × mana steps instead of 2^cards × cards. Costs are never negative and
    // mana is at most 100 by the rules; anything else is tried subset by subset.
    const MANA_CAP: usize = 100;
    match usize::try_from(mana) {
        Err(_) if sane => 0,
        Ok(mana) if sane && mana <= MANA_CAP => {
            let mut table = [0i32; MANA_CAP + 1];
            // Sliced to the mana so that the inner loop needs no bounds checks (it runs
            // for every state the search evaluates: most of a turn's thinking).
            let best = &mut table[..=mana];
            for &(cost, damage) in cards {
                let cost = usize::try_from(cost).unwrap_or(usize::MAX);
                if cost > mana {
                    continue;
                }
                for cap in (cost..best.len()).rev() {
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

/// Cards of the observation's hand the search plans with: a [`Sim`]'s hand is a set of
/// them, one bit each. The rules cap a hand at 20 cards (`max_hand`); of a longer one the
/// search would only see the first 64.
const HAND_CARDS: usize = 64;

/// The planner's model of the rest of its turn but for the boards ([`Boards`]): what
/// almost every action changes, a plain copy per child.
#[derive(Debug, Clone, Copy, Default)]
struct Sim {
    my_health: i32,
    opp_health: i32,
    mana: i32,
    /// The cards still in hand: bit `i` is card `i` of the observation's hand (so the hand
    /// is walked in its order, lowest bit first).
    hand: u64,
    deck_left: i32,
    /// Unknown cards that card drawers will bring.
    drawn: i32,
}

/// Both boards of a state: what only some actions change. A child shares its parent's
/// boards until it goes into the beam (see [`Child`]); the search recycles them, so a
/// decision allocates nothing once its lists have grown.
#[derive(Debug, Clone, Default, PartialEq)]
struct Boards {
    mine: Vec<SimMinion>,
    theirs: Vec<SimMinion>,
}

/// FxHash's step: cheap, and the dedup table compares states anyway.
fn hash_step(hash: u64, word: u64) -> u64 {
    (hash.rotate_left(26) ^ word).wrapping_mul(0xf135_7aea_2e62_a9c5)
}

impl Boards {
    /// Make `self` a copy of `other`, in the lists it already has (the derived
    /// `clone_from` would clone the lists afresh and drop the old ones).
    fn copy_from(&mut self, other: &Boards) {
        self.mine.clone_from(&other.mine);
        self.theirs.clone_from(&other.theirs);
    }

    /// A hash of both boards (for [`Sim::hash`]).
    fn hash(&self) -> u64 {
        let mut hash = 0;
        for (side, minions) in [&self.mine, &self.theirs].into_iter().enumerate() {
            hash = hash_step(hash, minions.len() as u64 + ((side as u64) << 32));
            for m in minions {
                hash = hash_step(hash, (u64::from(m.id) << 32) | u64::from(m.attack as u32));
                hash = hash_step(hash, (u64::from(m.health as u32) << 1) | u64::from(m.ready));
            }
        }
        hash
    }
}

/// The indices of the set bits of `mask`, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let index = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            index
        })
    })
}

/// What the search needs of one card of the observation's hand, worked out once per
/// decision.
#[derive(Debug, Clone, Copy)]
struct Facts {
    uid: u32,
    kind: CardKind,
    cost: i32,
    damage: i32,
    /// [`Card::amount`].
    amount: i32,
    /// The first index in the hand holding an equal card: equal cards are interchangeable
    /// moves.
    twin: usize,
    /// A damage card that deals damage: counts towards next turn's damage.
    hits: bool,
    /// What keeping the card adds to a position's value.
    kept: f64,
}

impl Facts {
    fn of(hand: &[CardInstance], index: usize) -> Facts {
        let instance = &hand[index];
        let c = &instance.card;
        let amount = c.amount();
        Facts {
            uid: instance.uid,
            kind: c.kind,
            cost: c.cost,
            damage: c.damage,
            amount,
            // The amounts before the id: the same equality, without comparing strings
            // but between twins (and a card is its own twin without comparing it).
            twin: hand[..index]
                .iter()
                .position(|other| {
                    let o = &other.card;
                    (o.kind, o.cost, o.damage, o.heal, o.draw)
                        == (c.kind, c.cost, c.damage, c.heal, c.draw)
                        && o.id == c.id
                })
                .unwrap_or(index),
            hits: c.kind == CardKind::Damage && c.damage > 0,
            kept: if c.kind == CardKind::Damage && c.damage == 0 {
                -0.2
            } else {
                0.1 + 0.1 * f64::from(amount)
            },
        }
    }
}

/// What a search reads of the rules and the observation, worked out once per decision.
struct Context<'a> {
    rules: &'a Rules,
    /// One entry per card of the observation's hand (the first [`HAND_CARDS`]), in its
    /// order: a [`Sim`]'s hand is a set of indices into it.
    facts: &'a [Facts],
    /// The opponent's next turn's spells, as [`evaluate`] counts them.
    burn: f64,
    /// Our mana next turn.
    my_next_mana: i32,
    /// The cards of [`Facts::hits`], as a hand.
    hits: u64,
}

/// The most damage the kept damage cards deal next turn ([`best_damage`] of the first
/// [`SUBSET_CARDS`] of them), by the set of those cards: the states of one decision share
/// few hands. A direct-mapped table; a slot holds an answer of this decision if it carries
/// the decision's stamp.
#[derive(Debug, Default)]
struct Damages {
    /// (stamp, damage cards, damage).
    slots: Vec<(u32, u64, i32)>,
    stamp: u32,
}

impl Damages {
    const SLOTS: usize = 256;

    /// Forget every answer (for a new decision: other cards, other mana).
    fn clear(&mut self) {
        self.slots.resize(Self::SLOTS, (0, 0, 0));
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill((0, 0, 0));
            self.stamp = 1;
        }
    }

    /// The most damage the cards `hits` (damage cards of the hand) deal with next
    /// turn's mana.
    fn of(&mut self, hits: u64, context: &Context<'_>) -> i32 {
        let slot = (hits.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as usize % Self::SLOTS;
        let (stamp, cards, damage) = self.slots[slot];
        if stamp == self.stamp && cards == hits {
            return damage;
        }
        let mut cards = [(0, 0); SUBSET_CARDS];
        let mut n = 0;
        for index in bits(hits).take(SUBSET_CARDS) {
            let c = &context.facts[index];
            cards[n] = (c.cost, c.damage);
            n += 1;
        }
        let damage = best_damage(&cards[..n], context.my_next_mana);
        self.slots[slot] = (self.stamp, hits, damage);
        damage
    }
}

impl Sim {
    /// The position `observation` shows, into `self` and `boards` (in the lists it
    /// already has).
    fn set_from(&mut self, observation: &Observation, boards: &mut Boards) {
        let seat = observation.seat;
        let minions = |list: &mut Vec<SimMinion>, owner: Seat| {
            list.clear();
            list.extend(observation.minions_of(owner).map(|m| SimMinion {
                id: m.id,
                attack: m.attack,
                health: m.health,
                ready: m.can_attack,
            }));
        };
        self.my_health = observation.me().health;
        self.opp_health = observation.opponent().health;
        self.mana = observation.me().mana;
        self.hand = match observation.hand.len().min(HAND_CARDS) {
            0 => 0,
            cards => u64::MAX >> (HAND_CARDS - cards),
        };
        minions(&mut boards.mine, seat);
        minions(&mut boards.theirs, 1 - seat);
        self.deck_left = observation.me().deck_size as i32;
        self.drawn = 0;
    }

    /// A hash of everything [`Sim::same`] compares and of the boards (their
    /// [`Boards::hash`]), for the search's dedup table.
    fn hash(&self, boards: u64) -> u64 {
        let pair = |a: i32, b: i32| (u64::from(a as u32) << 32) | u64::from(b as u32);
        let mut hash = hash_step(boards, pair(self.my_health, self.opp_health));
        hash = hash_step(hash, pair(self.mana, self.drawn));
        hash_step(hash, self.hand)
    }

    /// Whether `self` and `other` are the same position for the search, boards aside:
    /// everything but the deck (the hand as a set of cards; the first of two same states
    /// found is kept).
    fn same(&self, other: &Sim) -> bool {
        self.my_health == other.my_health
            && self.opp_health == other.opp_health
            && self.mana == other.mana
            && self.hand == other.hand
            && self.drawn == other.drawn
    }
}

/// The states of one depth of the search, by [`Sim::hash`]: an open-addressing table of
/// indices into the depth's children, emptied in one step per depth (a slot is taken only
/// if it carries the current stamp).
#[derive(Debug, Default)]
struct Dedup {
    /// (stamp, index of a child).
    slots: Vec<(u32, u32)>,
    stamp: u32,
    len: usize,
}

impl Dedup {
    /// Forget every state (for a new depth).
    fn clear(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill((0, 0));
            self.stamp = 1;
        }
        self.len = 0;
    }

    /// Whether no state with hash `hash` that `same` says is the same is among `children`
    /// yet; if so, it is recorded as the next child (`children.len()`), which the caller
    /// pushes or drops with the whole depth.
    fn insert(&mut self, hash: u64, children: &[Child], same: impl Fn(&Child) -> bool) -> bool {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow(children);
        }
        let mask = self.slots.len() - 1;
        let mut slot = (hash >> 32) as usize & mask;
        loop {
            let (stamp, index) = self.slots[slot];
            if stamp != self.stamp {
                self.slots[slot] = (self.stamp, children.len() as u32);
                self.len += 1;
                return true;
            }
            let other = &children[index as usize];
            if other.hash == hash && same(other) {
                return false;
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Twice the slots, with `children` (all different) in them again.
    fn grow(&mut self, children: &[Child]) {
        let size = (2 * self.slots.len()).max(64);
        self.slots.clear();
        self.slots.resize(size, (0, 0));
        self.stamp = 1;
        let mask = size - 1;
        for (index, child) in children.iter().enumerate() {
            let mut slot = (child.hash >> 32) as usize & mask;
            while self.slots[slot].0 == self.stamp {
                slot = (slot + 1) & mask;
            }
            self.slots[slot] = (self.stamp, index as u32);
        }
    }
}

/// A state of the beam, with its boards, their [`Boards::hash`] and the turn's first action
/// that led to it.
#[derive(Debug)]
struct Node {
    sim: Sim,
    boards: Boards,
    boards_hash: u64,
    first: Action,
}

impl Default for Node {
    fn default() -> Node {
        Node {
            sim: Sim::default(),
            boards: Boards::default(),
            boards_hash: 0,
            first: Action::EndTurn,
        }
    }
}

/// A state found at the current depth, with its value and its [`Sim::hash`]. Its boards
/// are its parent's (`frontier[parent]`) unless the action changed them (`own`: an index
/// into the depth's boards); only the children that go into the beam are made [`Node`]s.
#[derive(Debug, Clone, Copy)]
struct Child {
    value: f64,
    hash: u64,
    sim: Sim,
    first: Action,
    parent: usize,
    own: Option<usize>,
    boards_hash: u64,
}

/// The search's lists, kept from one decision to the next so that a decision allocates
/// nothing once they have grown.
#[derive(Debug, Default)]
struct Search {
    facts: Vec<Facts>,
    seen: Dedup,
    damages: Damages,
    /// States to recycle.
    spare: Vec<Node>,
    frontier: Vec<Node>,
    /// The next depth's frontier, while it is built.
    next: Vec<Node>,
    children: Vec<Child>,
    /// The boards of the depth's children that changed them.
    owned: Vec<Boards>,
    order: Vec<usize>,
    moves: Vec<Action>,
    scratch: Scratch,
}

/// Lists [`moves`] fills afresh for every state.
#[derive(Debug, Default)]
struct Scratch {
    targets: Vec<Target>,
    seen_enemy: Vec<(i32, i32)>,
    seen_attackers: Vec<(i32, i32)>,
}

/// Planner: for each decision, a beam search over the rest of the turn in a model of the
/// rules (its own hand and both boards are fully known), scoring the position at the end
/// of the turn; a sequence that kills the enemy hero is taken at once.
#[derive(Debug, Default)]
pub struct Planner {
    pub(super) rules: Rules,
    search: Search,
}

/// States kept per depth of the beam search.
const BEAM_WIDTH: usize = 24;
/// Actions looked ahead at most in one turn.
const MAX_DEPTH: usize = 14;

/// The actions worth trying from `sim`, into `moves`.
fn moves(
    sim: &Sim,
    boards: &Boards,
    context: &Context<'_>,
    scratch: &mut Scratch,
    moves: &mut Vec<Action>,
) {
    let rules = context.rules;
    moves.clear();
    let Scratch {
        targets,
        seen_enemy,
        seen_attackers,
    } = scratch;
    // Identical enemy minions are interchangeable targets; so are identical cards.
    targets.clear();
    targets.push(Target::Hero);
    seen_enemy.clear();
    for m in &boards.theirs {
        if !seen_enemy.contains(&(m.attack, m.health)) {
            seen_enemy.push((m.attack, m.health));
            targets.push(Target::Minion(m.id));
        }
    }
    // By [`Facts::twin`].
    let mut seen_cards = 0u64;
    let hurt = sim.my_health < rules.starting_health;
    for index in bits(sim.hand) {
        let c = &context.facts[index];
        if c.cost > sim.mana || seen_cards & (1 << c.twin) != 0 {
            continue;
        }
        seen_cards |= 1 << c.twin;
        let play = |play_as, target| Action::PlayCard {
            card: c.uid,
            play_as,
            target,
        };
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
                if rules.minions && boards.mine.len() < rules.max_minions as usize {
                    moves.push(play(PlayAs::Minion, Target::Hero));
                }
                if rules.any_card_heals && hurt {
                    moves.push(play(PlayAs::Heal, Target::Hero));
                }
            }
        }
    }
    seen_attackers.clear();
    for m in boards.mine.iter().filter(|m| m.ready) {
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

/// `sim` after `action`, and whether the boards changed: then they are in `changed` (else
/// they are `boards` still).
fn apply(
    sim: &Sim,
    boards: &Boards,
    action: &Action,
    context: &Context<'_>,
    changed: &mut Boards,
) -> (Sim, bool) {
    let mut next = *sim;
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
            let Some(index) = bits(next.hand).find(|&i| context.facts[i].uid == card) else {
                return (next, false);
            };
            next.hand &= !(1 << index);
            let c = &context.facts[index];
            let rules = context.rules;
            next.mana -= c.cost;
            match (c.kind, play_as) {
                (CardKind::Heal, _) | (CardKind::Damage, PlayAs::Heal) => {
                    next.my_health = (next.my_health + c.amount).min(rules.starting_health);
                }
                (CardKind::Draw, _) => {
                    let held = next.hand.count_ones() as i32;
                    let space = rules.max_hand as i32 - held - next.drawn;
                    let cards = c.amount.min(next.deck_left).min(space.max(0));
                    next.drawn += cards;
                    next.deck_left -= c.amount.min(next.deck_left);
                }
                (CardKind::Damage, PlayAs::Minion) => {
                    changed.copy_from(boards);
                    changed.mine.push(SimMinion {
                        id: card,
                        attack: c.damage,
                        health: c.damage,
                        ready: false,
                    });
                    return (next, true);
                }
                (CardKind::Damage, PlayAs::Spell) => match target {
                    Target::Hero => next.opp_health -= c.damage,
                    Target::Minion(id) => {
                        changed.copy_from(boards);
                        hit(&mut changed.theirs, id, c.damage);
                        return (next, true);
                    }
                },
            }
            (next, false)
        }
        Action::Attack { minion, target } => {
            changed.copy_from(boards);
            let Some(attacker) = changed.mine.iter_mut().find(|m| m.id == minion) else {
                return (next, true);
            };
            attacker.ready = false;
            let strength = attacker.attack;
            match target {
                Target::Hero => next.opp_health -= strength,
                Target::Minion(id) => {
                    let back = changed
                        .theirs
                        .iter()
                        .find(|m| m.id == id)
                        .map_or(0, |m| m.attack);
                    hit(&mut changed.theirs, id, strength);
                    hit(&mut changed.mine, minion, back);
                }
            }
            (next, true)
        }
        Action::EndTurn => (next, false),
    }
}

/// How good the position is for us if the turn ends here.
fn evaluate(sim: &Sim, boards: &Boards, context: &Context<'_>, damages: &mut Damages) -> f64 {
    if sim.opp_health <= 0 {
        return 1e9;
    }
    let rules = context.rules;
    // Health matters more the lower it gets.
    let life = |h: i32| f64::from(h) + 0.5 * f64::from(h.min(10));
    let mut score = life(sim.my_health) - life(sim.opp_health);
    score += boards
        .mine
        .iter()
        .map(|m| f64::from(m.attack) + 0.6 * f64::from(m.health) + 1.0)
        .sum::<f64>();
    score -= boards
        .theirs
        .iter()
        .map(|m| 1.5 * f64::from(m.attack) + 0.7 * f64::from(m.health) + 1.0)
        .sum::<f64>();
    // Their next turn: every minion at our face, plus spells worth their mana.
    let threat = f64::from(boards.theirs.iter().map(|m| m.attack).sum::<i32>()) + context.burn;
    let margin = f64::from(sim.my_health) - threat;
    if margin <= 0.0 {
        score -= 15.0 - 2.0 * margin;
    }
    // Cards kept are next turn's damage: what the best subset of them deals with next
    // turn's mana, plus a little for everything else a card offers.
    score += 0.6 * f64::from(damages.of(sim.hand & context.hits, context));
    for index in bits(sim.hand) {
        score += context.facts[index].kept;
    }
    score += 1.0 * f64::from(sim.drawn);
    let hand_after = sim.hand.count_ones() as i32 + sim.drawn;
    if rules.overload && hand_after >= rules.max_hand as i32 && sim.deck_left > 0 {
        score -= 2.0;
    }
    score
}

impl Search {
    fn plan(&mut self, rules: &Rules, observation: &Observation) -> Action {
        let Search {
            facts,
            seen,
            damages,
            spare,
            frontier,
            next,
            children,
            owned,
            order,
            moves: actions,
            scratch,
        } = self;
        spare.append(frontier);
        children.clear();
        let hand = &observation.hand[..observation.hand.len().min(HAND_CARDS)];
        facts.clear();
        facts.extend((0..hand.len()).map(|i| Facts::of(hand, i)));
        let opponent = observation.opponent();
        let their_mana = (opponent.mana_slots + 1).min(rules.max_mana);
        let burn = if opponent.hand_size + u32::from(opponent.deck_size > 0) > 0 {
            let factor = if rules.separate_damage { 1.3 } else { 1.0 };
            factor * f64::from(their_mana)
        } else {
            0.0
        };
        let context = Context {
            rules,
            facts,
            burn,
            my_next_mana: (observation.me().mana_slots + 1).min(rules.max_mana),
            hits: bits(u64::MAX)
                .zip(facts.iter())
                .filter(|(_, c)| c.hits)
                .fold(0, |hits, (index, _)| hits | 1 << index),
        };
        damages.clear();

        let mut root = spare.pop().unwrap_or_default();
        root.sim.set_from(observation, &mut root.boards);
        root.boards_hash = root.boards.hash();
        root.first = Action::EndTurn;
        let mut best = (
            evaluate(&root.sim, &root.boards, &context, damages),
            Action::EndTurn,
        );
        frontier.push(root);
        // Every action takes a card from the hand or readies a minion off (the card played
        // as a minion comes in asleep): the cards in hand plus the minions ready drop by
        // one per depth, so a state is only ever the same as one of its own depth (and
        // never the root's).
        for depth in 0..MAX_DEPTH {
            seen.clear();
            // Boards of `owned` taken by this depth's children.
            let mut used = 0;
            for (parent, node) in frontier.iter().enumerate() {
                moves(&node.sim, &node.boards, &context, scratch, actions);
                for &action in actions.iter() {
                    if owned.len() == used {
                        owned.push(Boards::default());
                    }
                    let (sim, own) =
                        apply(&node.sim, &node.boards, &action, &context, &mut owned[used]);
                    let (boards, boards_hash) = if own {
                        (&owned[used], owned[used].hash())
                    } else {
                        (&node.boards, node.boards_hash)
                    };
                    let hash = sim.hash(boards_hash);
                    let new = seen.insert(hash, children, |other| {
                        other.sim.same(&sim)
                            && match other.own {
                                // The same parent's boards, unchanged by both.
                                None if !own && other.parent == parent => true,
                                None => frontier[other.parent].boards == *boards,
                                Some(k) => owned[k] == *boards,
                            }
                    });
                    if !new {
                        continue;
                    }
                    let first = if depth == 0 { action } else { node.first };
                    if sim.opp_health <= 0 {
                        return first;
                    }
                    let value = evaluate(&sim, boards, &context, damages);
                    if value > best.0 {
                        best = (value, first);
                    }
                    children.push(Child {
                        value,
                        hash,
                        sim,
                        first,
                        parent,
                        own: own.then_some(used),
                        boards_hash,
                    });
                    used += usize::from(own);
                }
            }
            if children.is_empty() {
                break;
            }
            // The best BEAM_WIDTH children, best first and in the order they were found
            // among equals (what a stable sort and a truncation give), without sorting
            // them all.
            order.clear();
            order.extend(0..children.len());
            let better = |&a: &usize, &b: &usize| {
                children[b]
                    .value
                    .total_cmp(&children[a].value)
                    .then(a.cmp(&b))
            };
            if order.len() > BEAM_WIDTH {
                order.select_nth_unstable_by(BEAM_WIDTH - 1, better);
                order.truncate(BEAM_WIDTH);
            }
            order.sort_unstable_by(better);
            // Only they become states of their own: their boards are copied from their
            // parent's, or taken from `owned` (which gets recycled lists back).
            for &i in order.iter() {
                let child = &children[i];
                let mut node = spare.pop().unwrap_or_default();
                node.sim = child.sim;
                node.first = child.first;
                node.boards_hash = child.boards_hash;
                match child.own {
                    Some(k) => std::mem::swap(&mut node.boards, &mut owned[k]),
                    None => node.boards.copy_from(&frontier[child.parent].boards),
                }
                next.push(node);
            }
            std::mem::swap(frontier, next);
            spare.append(next);
            children.clear();
        }
        best.1
    }
}

impl Planner {
    /// A planner for `rules` (as if started with them).
    #[cfg(test)]
    pub(super) fn with_rules(rules: Rules) -> Planner {
        Planner {
            rules,
            search: Search::default(),
        }
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
        let action = self.search.plan(&self.rules, observation);
        if observation.legal.contains(&action) {
            action
        } else {
            Action::EndTurn
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_sdk::tcg::Card;
    use rand::{Rng, SeedableRng};
    use std::hash::Hash;

    /// The dedup key of the search before the dedup table: the derived `Hash` (SipHash) of
    /// a tuple with the hand's uids sorted into a list. Two states were the same for the
    /// search when their keys were equal.
    fn derived_key((sim, boards): &(Sim, Boards), facts: &[Facts]) -> u64 {
        let mut uids: Vec<u32> = bits(sim.hand).map(|i| facts[i].uid).collect();
        uids.sort_unstable();
        let mut hasher = std::hash::DefaultHasher::new();
        (
            sim.my_health,
            sim.opp_health,
            sim.mana,
            &uids[..],
            &boards.mine,
            &boards.theirs,
            sim.drawn,
        )
            .hash(&mut hasher);
        std::hash::Hasher::finish(&hasher)
    }

    /// Whether the search takes two states for the same, and their hash.
    fn same((a, a_boards): &(Sim, Boards), (b, b_boards): &(Sim, Boards)) -> bool {
        a.same(b) && a_boards == b_boards
    }
    fn hash((sim, boards): &(Sim, Boards)) -> u64 {
        sim.hash(boards.hash())
    }

    /// A random state over a hand of `cards` cards, from few values (so that equal states
    /// are common).
    fn random_state(rng: &mut rand_chacha::ChaCha8Rng, cards: usize) -> (Sim, Boards) {
        let minions = |rng: &mut rand_chacha::ChaCha8Rng| -> Vec<SimMinion> {
            (0..rng.random_range(0..=2))
                .map(|_| SimMinion {
                    id: rng.random_range(1..=3),
                    attack: rng.random_range(1..=2),
                    health: rng.random_range(1..=2),
                    ready: rng.random(),
                })
                .collect()
        };
        let sim = Sim {
            my_health: rng.random_range(1..=2),
            opp_health: rng.random_range(1..=2),
            mana: rng.random_range(0..=1),
            hand: bits(u64::MAX >> (64 - cards))
                .filter(|_| rng.random_bool(0.8))
                .fold(0, |hand, i| hand | 1 << i),
            deck_left: rng.random_range(0..=2),
            drawn: rng.random_range(0..=1),
        };
        let boards = Boards {
            mine: minions(rng),
            theirs: minions(rng),
        };
        (sim, boards)
    }

    #[test]
    fn states_are_the_same_where_the_old_key_said_so() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let hand: Vec<CardInstance> = (0..4)
            .map(|i| CardInstance {
                uid: 40 - 3 * i,
                card: Card::damage("x", 1, 1),
            })
            .collect();
        let facts: Vec<Facts> = (0..hand.len()).map(|i| Facts::of(&hand, i)).collect();
        let (mut equal, mut different) = (0, 0);
        for _ in 0..20_000 {
            let a = random_state(&mut rng, hand.len());
            // Another state, or this one with one thing changed (or the deck only).
            let mut b = a.clone();
            match rng.random_range(0..10) {
                0 => b.0.my_health += 1,
                1 => b.0.opp_health -= 1,
                2 => b.0.mana += 1,
                3 => b.0.hand ^= 1 << rng.random_range(0..hand.len()),
                4 => b.0.drawn += 1,
                5 => b.1.mine.reverse(),
                6 => b.1.theirs.iter_mut().for_each(|m| m.ready = !m.ready),
                7 => std::mem::swap(&mut b.1.mine, &mut b.1.theirs),
                8 => b.0.deck_left += 1,
                _ => b = random_state(&mut rng, hand.len()),
            }
            let equal_keys = derived_key(&a, &facts) == derived_key(&b, &facts);
            assert_eq!(same(&a, &b), equal_keys, "{a:?} {b:?}");
            assert!(same(&a, &a));
            if same(&a, &b) {
                assert_eq!(hash(&a), hash(&b));
                equal += 1;
            } else {
                different += 1;
            }
        }
        // Both cases were tried.
        assert!(equal > 1_000 && different > 1_000, "{equal} {different}");
    }

    #[test]
    fn the_dedup_table_finds_exactly_the_states_of_its_depth_seen_before() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut table = Dedup::default();
        let mut children: Vec<Child> = Vec::new();
        let mut owned: Vec<Boards> = Vec::new();
        // Depths of up to 300 states (the table grows several times), and many depths
        // (its stamps).
        for depth in 0..400 {
            table.clear();
            children.clear();
            owned.clear();
            for _ in 0..(depth * 7) % 300 {
                let state = random_state(&mut rng, 5);
                let hash = hash(&state);
                let new = !children
                    .iter()
                    .any(|c| same(&(c.sim, owned[c.own.unwrap()].clone()), &state));
                let found_new = table.insert(hash, &children, |other| {
                    other.sim.same(&state.0) && owned[other.own.unwrap()] == state.1
                });
                assert_eq!(found_new, new);
                if new {
                    children.push(Child {
                        value: 0.0,
                        hash,
                        sim: state.0,
                        first: Action::EndTurn,
                        parent: 0,
                        own: Some(owned.len()),
                        boards_hash: state.1.hash(),
                    });
                    owned.push(state.1);
                }
            }
        }
        // A stamp that wraps around empties the table.
        table.stamp = u32::MAX;
        table.clear();
        children.clear();
        assert!(table.insert(1, &children, |_| true));
    }

    #[test]
    fn the_damage_table_answers_what_the_kept_hand_deals() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
        let rules = Rules::default();
        let mut damages = Damages::default();
        // Decisions one after another (the table's stamps), each with its own hand and mana,
        // and many kept hands each (the same ones again: answers from the table).
        for decision in 0..300 {
            let n = rng.random_range(0..=20);
            let hand: Vec<CardInstance> = (0..n)
                .map(|uid| {
                    let cost = rng.random_range(0..=10);
                    let card = match rng.random_range(0..6) {
                        0 => Card::heal("potion", cost, 4),
                        1 => Card::drawer("scout", cost, 1),
                        2 => Card::damage("dud", 0, 0),
                        // The document's cards deal their cost; custom ones may not.
                        3 if decision % 2 == 0 => {
                            Card::damage("odd", cost, rng.random_range(1..=10))
                        }
                        _ => Card::damage("x", cost, cost),
                    };
                    CardInstance { uid, card }
                })
                .collect();
            let facts: Vec<Facts> = (0..n as usize).map(|i| Facts::of(&hand, i)).collect();
            let context = Context {
                rules: &rules,
                facts: &facts,
                burn: 0.0,
                my_next_mana: rng.random_range(0..=12),
                hits: (0..n as usize)
                    .filter(|&i| facts[i].hits)
                    .fold(0, |hits, i| hits | 1 << i),
            };
            damages.clear();
            for _ in 0..40 {
                // Sparse hands, and dense ones (more than the 12 damage cards counted).
                let random = match decision % 3 {
                    0 => rng.random::<u64>() | rng.random::<u64>(),
                    _ => rng.random::<u64>() & rng.random::<u64>(),
                };
                let kept = random & ((1 << n) - 1);
                let cards = bits(kept).map(|i| &hand[i].card);
                assert_eq!(
                    damages.of(kept & context.hits, &context),
                    best_subset(cards, context.my_next_mana),
                    "{kept:b} of {hand:?}"
                );
            }
        }
    }

    #[test]
    fn equal_cards_share_their_first_index() {
        let hand = vec![
            CardInstance {
                uid: 5,
                card: Card::damage("zap", 2, 2),
            },
            CardInstance {
                uid: 9,
                card: Card::damage("bolt", 3, 3),
            },
            CardInstance {
                uid: 2,
                card: Card::damage("zap", 2, 2),
            },
            // Same amounts, another name: not a twin.
            CardInstance {
                uid: 3,
                card: Card::damage("zip", 2, 2),
            },
        ];
        let twins: Vec<usize> = (0..hand.len()).map(|i| Facts::of(&hand, i).twin).collect();
        assert_eq!(twins, [0, 1, 0, 3]);
        let heal = Card::heal("potion", 4, 4);
        let facts = Facts::of(&[CardInstance { uid: 1, card: heal }], 0);
        assert_eq!(
            (facts.amount, facts.hits, facts.kept),
            (4, false, 0.1 + 0.4)
        );
    }
}
