// Mode battle (Bot Wars), a port of the Rust battle-starter; rules: docs/rules/battle.md.
// Pick a team of 3 robot types from the roster (setup), then on each of your robots' turns
// attack one enemy in legal_targets or use the robot's skill when skill_ready (act).

arena.playBattle({
  setup(request: arena.battle.SetupRequest): arena.battle.TeamChoice {
    // Aggro hits hard, Stealth is the fastest robot, the Nurse repairs the whole team.
    const team = (["aggro", "stealth", "nurse"] as arena.battle.BotType[]).filter((kind) => request.roster.includes(kind));
    // A tournament may restrict the roster: fill up with whatever else is allowed.
    for (const kind of request.roster) {
      if (team.length < request.team_size && !team.includes(kind)) team.push(kind);
    }
    return { team: team.slice(0, request.team_size) };
  },

  act(observation: arena.battle.Observation): arena.battle.Action {
    if (observation.skill_ready && battleSkillHelps(observation)) return arena.battle.skill();
    // Attack the legal target with the least integrity left.
    let weakest: arena.battle.Unit | null = null;
    for (const id of observation.legal_targets) {
      const unit = observation.units[id];
      if (weakest === null || unit.integrity < weakest.integrity || (unit.integrity === weakest.integrity && unit.id < weakest.id)) {
        weakest = unit;
      }
    }
    return weakest === null ? arena.battle.skill() : arena.battle.attack(weakest.id);
  },
});

/** The integrity left, in percent of the robot's maximum. */
function battlePercentLeft(unit: arena.battle.Unit): number {
  return Math.trunc((unit.integrity * 100) / Math.max(unit.base.integrity, 1));
}

/** Whether the acting robot's skill is worth its turn now. */
function battleSkillHelps(observation: arena.battle.Observation): boolean {
  const me = arena.battle.me(observation);
  const team = observation.units.filter((u) => u.owner === me.owner && !u.destroyed);
  const anyBelow = (percent: number, skipMe: boolean) => team.some((u) => (!skipMe || u.id !== me.id) && battlePercentLeft(u) < percent);
  switch (me.kind) {
    case "nurse":
      return anyBelow(60, false);
    case "doctor":
      return anyBelow(40, false);
    case "tank":
      return anyBelow(70, true);
    case "stealth":
      return battlePercentLeft(me) < 50;
    case "aggro":
    case "beaverette":
    case "kamikaze":
      return true;
  }
  return false;
}
