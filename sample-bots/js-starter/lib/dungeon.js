// Mode dungeon (the RPG battle system), a port of the Rust dungeon-starter. Rules: the
// arena's docs/rules/dungeon.md.
//
// How a match goes for your bot:
//
//   - setup is called once with the classes (stats, abilities) and the whole dungeon:
//     every wave's monsters and levels. Answer a party: party_size classes.
//   - act is called on every turn of one of your heroes. The observation holds the party,
//     the wave's monsters (with each one's command queue: queue[0] is what it does next),
//     who acts after you, the event lines since your last turn, and every legal command.
//     Answer an ability and a target.
//
// A command the rules refuse costs the hero its turn; last_rejected tells you why. Your
// score: waves cleared, then total XP, then fewer turns.

// The share of its max HP (percent) below which a cleric heals a hero.
const DUNGEON_HEAL_BELOW_PERCENT = 40;

arena.playDungeon({
  // Two warriors, a rogue and a cleric (cycled to the party size).
  setup(request) {
    const favourites = ["warrior", "rogue", "cleric", "warrior"];
    return { party: Array.from({ length: request.party_size }, (_, i) => favourites[i % favourites.length]) };
  },

  // Heal the badly hurt, otherwise kill what it can and else hit the weakest monster as
  // hard as it can.
  act(observation) {
    const { dungeon } = arena;
    const me = dungeon.me(observation);
    // 1. A cleric heals the most hurt hero when someone is low.
    if (me.class === "cleric") {
      let hurt = null;
      for (const h of observation.party) {
        if (!h.dead && h.hp * 100 < h.max_hp * DUNGEON_HEAL_BELOW_PERCENT && (hurt === null || h.hp < hurt.hp)) hurt = h;
      }
      if (hurt !== null) {
        const heal = dungeon.onHero("heal", hurt.id);
        if (dungeon.isLegal(observation, heal)) return heal;
      }
    }
    // 2. Among the legal attacks, what would each do? (Dragons take 5 less.)
    const monsterOf = (action) => (action.target.monster === undefined ? null : observation.monsters[action.target.monster]);
    const damage = (action) => {
      const monster = monsterOf(action);
      if (monster === null) return 0;
      if (action.ability === "heal" && monster.family !== "undead") return 0; // it would help the monster
      return dungeon.damageTaken(monster, dungeon.power(action.ability, me.stats, me.level));
    };
    const hpOf = (action) => {
      const monster = monsterOf(action);
      return monster === null ? Infinity : monster.hp;
    };
    // A weaker target, then more damage, then less mana.
    const harderOnWeaker = (a, b) => {
      if (hpOf(a) !== hpOf(b)) return hpOf(a) < hpOf(b);
      if (damage(a) !== damage(b)) return damage(a) > damage(b);
      return dungeon.mpCost(a.ability) < dungeon.mpCost(b.ability);
    };
    // 3. A kill if there is one (the cheapest), else the hardest hit on the weakest.
    let kill = null;
    let hardest = null;
    for (const action of observation.legal) {
      if (monsterOf(action) === null || damage(action) === 0) continue;
      if (damage(action) >= hpOf(action) && (kill === null || dungeon.mpCost(action.ability) < dungeon.mpCost(kill.ability))) {
        kill = action;
      }
      if (hardest === null || harderOnWeaker(action, hardest)) hardest = action;
    }
    return kill || hardest || observation.legal[0] || dungeon.onMonster("fight", 0);
  },
});
