// Mode dungeon (the RPG battle system), a port of the Rust dungeon-starter; rules:
// docs/rules/dungeon.md.

const DUNGEON_HEAL_BELOW_PERCENT = 40;

arena.playDungeon({
  setup(request: arena.dungeon.SetupRequest): arena.dungeon.SetupChoice {
    const favourites: arena.dungeon.Class[] = ["warrior", "rogue", "cleric", "warrior"];
    return { party: Array.from({ length: request.party_size }, (_, i) => favourites[i % favourites.length]) };
  },

  act(observation: arena.dungeon.Observation): arena.dungeon.Action {
    const { dungeon } = arena;
    const me = dungeon.me(observation);
    // 1. A cleric heals the most hurt hero when someone is low.
    if (me.class === "cleric") {
      let hurt: arena.dungeon.Hero | null = null;
      for (const h of observation.party) {
        if (!h.dead && h.hp * 100 < h.max_hp * DUNGEON_HEAL_BELOW_PERCENT && (hurt === null || h.hp < hurt.hp)) hurt = h;
      }
      if (hurt !== null) {
        const heal = dungeon.onHero("heal", hurt.id);
        if (dungeon.isLegal(observation, heal)) return heal;
      }
    }
    // 2. What each legal attack would do (dragons take 5 less).
    const monsterOf = (a: arena.dungeon.Action) => (typeof a.target === "object" && "monster" in a.target ? observation.monsters[a.target.monster] : null);
    const damage = (a: arena.dungeon.Action) => {
      const monster = monsterOf(a);
      if (monster === null) return 0;
      if (a.ability === "heal" && monster.family !== "undead") return 0;
      return dungeon.damageTaken(monster, dungeon.power(a.ability, me.stats, me.level));
    };
    const hpOf = (a: arena.dungeon.Action) => monsterOf(a)?.hp ?? Infinity;
    const harderOnWeaker = (a: arena.dungeon.Action, b: arena.dungeon.Action) => {
      if (hpOf(a) !== hpOf(b)) return hpOf(a) < hpOf(b);
      if (damage(a) !== damage(b)) return damage(a) > damage(b);
      return dungeon.mpCost(a.ability) < dungeon.mpCost(b.ability);
    };
    // 3. A kill if there is one (the cheapest), else the hardest hit on the weakest.
    let kill: arena.dungeon.Action | null = null;
    let hardest: arena.dungeon.Action | null = null;
    for (const action of observation.legal) {
      if (monsterOf(action) === null || damage(action) === 0) continue;
      if (damage(action) >= hpOf(action) && (kill === null || dungeon.mpCost(action.ability) < dungeon.mpCost(kill.ability))) kill = action;
      if (hardest === null || harderOnWeaker(action, hardest)) hardest = action;
    }
    return kill ?? hardest ?? observation.legal[0] ?? dungeon.onMonster("fight", 0);
  },
});
