// Mode tcg (the Trading Card Game kata), a port of the Rust tcg-starter; rules:
// docs/rules/tcg.md. Answering from observation.legal is always safe.

let tcgMaxHealth = 30;

arena.playTcg({
  start(start: arena.MatchStart<arena.tcg.Rules>): void {
    tcgMaxHealth = start.rules.starting_health;
  },

  setup(_request: arena.tcg.SetupRequest): arena.tcg.DeckChoice {
    // The default deck (custom decks: answer { deck: [card ids] }).
    return { deck: null };
  },

  act(observation: arena.tcg.Observation): arena.tcg.Action {
    const me = arena.tcg.me(observation);
    // 1. Low on health: heal if we can.
    if (me.health * 3 <= tcgMaxHealth) {
      const heal = observation.legal.find((a) => typeof a === "object" && "play_card" in a && a.play_card.as === "heal");
      if (heal) return heal;
    }
    // 2. Minions that may attack hit the enemy hero.
    const attack = observation.legal.find((a) => typeof a === "object" && "attack" in a && a.attack.target === "hero");
    if (attack) return attack;
    // 3. The most expensive damage card we can afford, at the enemy hero.
    let best: arena.tcg.Action | null = null;
    let bestDamage = 0;
    for (const action of observation.legal) {
      if (typeof action !== "object" || !("play_card" in action)) continue;
      const play = action.play_card;
      if (play.as !== "spell" || play.target !== "hero") continue;
      const card = arena.tcg.handCard(observation, play.card);
      if (!card || card.card.kind !== "damage") continue;
      const damage = card.card.damage ?? 0;
      if (best === null || damage >= bestDamage) {
        best = action;
        bestDamage = damage;
      }
    }
    return best ?? arena.tcg.endTurn();
  },
});
