// thinker in TypeScript: every language's thinker (tests/thinkers/) plays battle the same
// way. It fields Glass, Stealth and Nurse; on each turn it reads its budget, thinks (reads
// what is left) until no more than a fifth of the budget is left, logs
// "thinker: budget B, stopped at L left", then uses the skill when it is ready, else
// attacks the last legal target. The test gives it the starter's package.json and
// TypeScript.
arena.playBattle({
  setup: (): arena.battle.TeamChoice => {
    arena.log(`thinker: setup budget ${arena.fuelBudget()}`);
    return { team: ["glass", "stealth", "nurse"] };
  },
  act: (observation: arena.battle.Observation): arena.battle.Action => {
    const budget: number = arena.fuelBudget();
    const stop = Math.floor(budget / 5);
    let left: number = arena.fuelLeft();
    while (left > stop) left = arena.fuelLeft();
    arena.log(`thinker: budget ${budget}, stopped at ${left} left`);
    const targets = observation.legal_targets;
    if (observation.skill_ready || targets.length === 0) return arena.battle.skill();
    return arena.battle.attack(targets[targets.length - 1]);
  },
});
