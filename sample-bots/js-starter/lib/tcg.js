// Mode tcg (the Trading Card Game kata), a port of the Rust tcg-starter. The rules and
// the protocol are in the arena's docs/rules/tcg.md.
//
// What the bot gets each time it is asked (the observation): both heroes (health, mana,
// deck and hand sizes), its own hand, the board, the list of legal actions and, if its
// previous answer was illegal, why. An illegal answer ends the turn, so answering from
// observation.legal is always safe.

// The deck the bot plays when the rules have custom decks on (variation 5): one entry per
// line, `card-id`, `Nx card-id` or `N x card-id`; `#` starts a comment. A deck has exactly
// the pool's deck_size cards and at most max_copies copies of one card.
const TCG_DECK = `
4x spark
4x zap
4x bolt
4x blast
2x fireball
2x lava-burst
`;

// The health each hero starts with (from the rules at match start).
let tcgMaxHealth = 30;

arena.playTcg({
  start(start) {
    // The rules say which variations are on (minions, healing, …).
    tcgMaxHealth = start.rules.starting_health;
  },

  setup(request) {
    // Custom decks are off: everybody plays the default deck.
    if (!request.choose_deck) return { deck: null };
    // Our deck, checked against the pool in use; if it does not fit (a card of a
    // variation that is off, say), the default deck.
    try {
      return { deck: tcgParseDeck(TCG_DECK, request.pool) };
    } catch (e) {
      console.log(`deck: ${e.message}`);
      return { deck: null };
    }
  },

  act(observation) {
    if (observation.last_rejected) console.log(`my last action was rejected: ${observation.last_rejected}`);
    const me = arena.tcg.me(observation);
    // 1. Low on health: heal if we can.
    if (me.health * 3 <= tcgMaxHealth) {
      const heal = observation.legal.find((a) => a.play_card && a.play_card.as === "heal");
      if (heal) return heal;
    }
    // 2. Minions that may attack hit the enemy hero.
    const attack = observation.legal.find((a) => a.attack && a.attack.target === "hero");
    if (attack) return attack;
    // 3. Play the most expensive damage card we can afford at the enemy hero (of equal
    //    ones, the last listed).
    let best = null;
    let bestDamage = 0;
    for (const action of observation.legal) {
      const play = action.play_card;
      if (!play || play.as !== "spell" || play.target !== "hero") continue;
      const card = arena.tcg.handCard(observation, play.card);
      if (!card || card.card.kind !== "damage") continue;
      const damage = card.card.damage || 0;
      if (best === null || damage >= bestDamage) {
        best = action;
        bestDamage = damage;
      }
    }
    if (best !== null) return best;
    // 4. Nothing worth doing: end the turn.
    return arena.tcg.endTurn();
  },
});

/** The card ids of a deck text, checked against the pool; throws an Error if it does not fit. */
function tcgParseDeck(text, pool) {
  const deck = [];
  const copies = new Map();
  text.split("\n").forEach((raw, n) => {
    const line = raw.replace(/#.*/, "").trim();
    if (!line) return;
    const m = /^(?:(\d+)\s*x\s+)?(\S+)$/.exec(line);
    if (!m) throw new Error(`line ${n + 1}: not \`card\` or \`Nx card\`: ${line}`);
    const count = m[1] === undefined ? 1 : Number(m[1]);
    if (!pool.cards.some((c) => c.id === m[2])) throw new Error(`line ${n + 1}: no card ${m[2]} in the pool`);
    copies.set(m[2], (copies.get(m[2]) || 0) + count);
    if (copies.get(m[2]) > pool.max_copies) throw new Error(`more than ${pool.max_copies} copies of ${m[2]}`);
    for (let i = 0; i < count; i++) deck.push(m[2]);
  });
  if (deck.length !== pool.deck_size) throw new Error(`${deck.length} cards, not ${pool.deck_size}`);
  return deck;
}
