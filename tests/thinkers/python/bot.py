"""thinker in Python: every language's thinker (tests/thinkers/) plays battle the same way.
It fields Glass, Stealth and Nurse; on each turn it reads its budget, thinks (reads what is
left) until no more than a fifth of the budget is left, logs
"thinker: budget B, stopped at L left", then uses the skill when it is ready, else attacks
the last legal target."""

import arena
from arena import battle


def setup(request: battle.SetupRequest) -> battle.TeamChoice:
    arena.log(f"thinker: setup budget {arena.fuel_budget()}")
    return battle.TeamChoice(team=[battle.BotType.GLASS, battle.BotType.STEALTH, battle.BotType.NURSE])


def act(observation: battle.Observation) -> battle.Action:
    budget = arena.fuel_budget()
    stop = budget // 5
    left = arena.fuel_left()
    while left > stop:
        left = arena.fuel_left()
    arena.log(f"thinker: budget {budget}, stopped at {left} left")
    if observation.skill_ready or not observation.legal_targets:
        return battle.skill()
    return battle.attack(observation.legal_targets[-1])


arena.play_battle(setup, act)
