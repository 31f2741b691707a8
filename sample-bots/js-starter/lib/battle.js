// Mode battle (Bot Wars), a port of the Rust battle-starter. The rules are in the arena's
// docs/rules/battle.md; the short version:
//
//   - Before the match you pick a team of 3 different robot types from the roster
//     (setup). Your opponent picks at the same time, without seeing yours.
//   - Every robot has a turn meter that fills by its speed each tick; at 1000 the robot
//     takes a turn and the arena asks you what it does (act): attack one enemy in
//     legal_targets, or use its secondary skill when skill_ready is true.
//   - You lose when all three of your robots are destroyed. After turn_cap unit turns the
//     team with the larger share of its integrity left wins.
//
// An illegal answer (a target that is not legal, a skill that is not ready) is not a
// disaster: the arena plays the default (attack the weakest legal target), counts it,
// and tells you why in the next observation's last_rejected.

arena.playBattle({
  setup(request) {
    // Two damage dealers — Aggro hits hard, Stealth is the fastest robot (speed 90, so
    // more than twice as many turns) — and the Nurse, whose Repair heals the whole team.
    // request.stats has every type's numbers if you want to choose smarter.
    const team = ["aggro", "stealth", "nurse"].filter((kind) => request.roster.includes(kind));
    // A tournament may restrict the roster: fill up with whatever else is allowed.
    for (const kind of request.roster) {
      if (team.length < request.team_size && !team.includes(kind)) team.push(kind);
    }
    return { team: team.slice(0, request.team_size) };
  },

  act(observation) {
    if (observation.skill_ready && battleSkillHelps(observation)) return arena.battle.skill();
    // Attack the legal target with the least integrity left: finishing robots off removes
    // their attacks from the battle sooner.
    let weakest = null;
    for (const id of observation.legal_targets) {
      const unit = observation.units[id];
      if (weakest === null || unit.integrity < weakest.integrity || (unit.integrity === weakest.integrity && unit.id < weakest.id)) {
        weakest = unit;
      }
    }
    // Never null while the match runs; a skill that is not ready would be replaced by the
    // default.
    return weakest === null ? arena.battle.skill() : arena.battle.attack(weakest.id);
  },
});

/** The integrity left, in percent of the robot's maximum. */
function battlePercentLeft(unit) {
  return Math.trunc((unit.integrity * 100) / Math.max(unit.base.integrity, 1));
}

/** Whether the acting robot's skill is worth its turn now. */
function battleSkillHelps(observation) {
  const me = arena.battle.me(observation);
  const team = observation.units.filter((u) => u.owner === me.owner && !u.destroyed);
  const anyBelow = (percent, skipMe) => team.some((u) => (!skipMe || u.id !== me.id) && battlePercentLeft(u) < percent);
  switch (me.kind) {
    case "nurse":
      return anyBelow(60, false); // Repair heals every teammate: wait until it is needed.
    case "doctor":
      return anyBelow(40, false); // Redistribute: good when one robot is in danger.
    case "tank":
      return anyBelow(70, true); // Taunt pulls the attacks onto the tank.
    case "stealth":
      return battlePercentLeft(me) < 50; // Hide when hurt.
    case "aggro":
    case "beaverette":
    case "kamikaze":
      return true; // Offense Up, the team buffs and Retribution: whenever ready.
  }
  return false; // The Glass Bot has no skill.
}
