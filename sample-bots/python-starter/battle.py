"""Mode battle (Bot Wars), a port of the Rust battle-starter. The rules are in the arena's
docs/rules/battle.md; the short version:

- Before the match you pick a team of 3 different robot types from the roster
  (`setup`). Your opponent picks at the same time, without seeing yours.
- Every robot has a turn meter that fills by its speed each tick; at 1000 the robot takes
  a turn and the arena asks you what it does (`act`): attack one enemy in legal_targets,
  or use its secondary skill when skill_ready is true.
- You lose when all three of your robots are destroyed. After turn_cap unit turns the
  team with the larger share of its integrity left wins.

An illegal answer (a target that is not legal, a skill that is not ready) is not a
disaster: the arena plays the default (attack the weakest legal target), counts it, and
tells you why in the next observation's last_rejected.
"""

import arena
from arena import battle
from arena.battle import BotType


def setup(request: battle.SetupRequest) -> battle.TeamChoice:
    # Two damage dealers — Aggro hits hard, Stealth is the fastest robot (speed 90, so
    # more than twice as many turns) — and the Nurse, whose Repair heals the whole team.
    # request.stats has every type's numbers if you want to choose smarter.
    wanted = [BotType.AGGRO, BotType.STEALTH, BotType.NURSE]
    team = [kind for kind in wanted if kind in request.roster]
    # A tournament may restrict the roster: fill up with whatever else is allowed.
    for kind in request.roster:
        if len(team) < request.team_size and kind not in team:
            team.append(kind)
    return battle.TeamChoice(team=team[: request.team_size])


def act(observation: battle.Observation) -> battle.Action:
    if observation.skill_ready and skill_helps(observation):
        return battle.skill()
    # Attack the legal target with the least integrity left: finishing robots off removes
    # their attacks from the battle sooner. Ideas to do better: count armor and evasion
    # (see "expected damage" in the rules), prefer dangerous targets (healers, fast or
    # powerful robots), remember that crits double before armor.
    targets = [observation.units[i] for i in observation.legal_targets]
    if not targets:
        # Never happens while the match runs (some enemy is always targetable); a skill
        # that is not ready would simply be replaced by the default.
        return battle.skill()
    weakest = min(targets, key=lambda unit: (unit.integrity, unit.id))
    return battle.attack(weakest.id)


def percent_left(unit: battle.Unit) -> int:
    """The integrity left, in percent of the robot's maximum."""
    return unit.integrity * 100 // max(unit.base.integrity, 1)


def skill_helps(observation: battle.Observation) -> bool:
    """Whether the acting robot's skill is worth its turn now."""
    me = observation.me()
    team = observation.team(me.owner)

    def any_below(percent: int, skip_me: bool = False) -> bool:
        return any(
            percent_left(u) < percent for u in team if not (skip_me and u.id == me.id)
        )

    if me.kind == BotType.NURSE:
        # Repair gives every teammate 30% of the nurse's maximum: wait until it is needed.
        return any_below(60)
    if me.kind == BotType.DOCTOR:
        # Redistribute shares integrity: good when one robot is in danger.
        return any_below(40)
    if me.kind == BotType.TANK:
        # Taunt pulls the enemies' attacks onto the tank: use it when a teammate suffers.
        return any_below(70, skip_me=True)
    if me.kind == BotType.STEALTH:
        # Stealth hides this robot: use it when it is hurt.
        return percent_left(me) < 50
    # Offense Up, the team buffs and Retribution: whenever they are ready. The Glass Bot
    # has no skill.
    return me.kind in (BotType.AGGRO, BotType.BEAVERETTE, BotType.KAMIKAZE)


arena.play_battle(setup, act)
