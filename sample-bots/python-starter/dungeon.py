"""Mode dungeon (the RPG battle system), a port of the Rust dungeon-starter. Rules: the
arena's docs/rules/dungeon.md.

How a match goes for your bot:

- `setup` is called once with the classes (stats, abilities) and the whole dungeon:
  every wave's monsters and levels. Answer a party: party_size classes.
- `act` is called on every turn of one of your heroes. The observation holds the party,
  the wave's monsters (with each one's command queue: queue[0] is what it does next), who
  acts after you, the event lines since your last turn, and every legal command. Answer
  an ability and a target.

A command the rules refuse (not your hero's ability, a bad target, too little MP) costs
the hero its turn; last_rejected tells you why. Your score: waves cleared, then total XP,
then fewer turns. Nothing is restored between waves, except by levelling up.
"""

import arena
from arena import dungeon
from arena.dungeon import Ability, Class, Family

HEAL_BELOW_PERCENT = 40
"""The share of its max HP (percent) below which a cleric heals a hero."""


def setup(request: dungeon.SetupRequest) -> dungeon.SetupChoice:
    # Two warriors, a rogue and a cleric (cycled to the party size).
    favourites = [Class.WARRIOR, Class.ROGUE, Class.CLERIC, Class.WARRIOR]
    party = [favourites[i % len(favourites)] for i in range(request.party_size)]
    return dungeon.SetupChoice(party=party)


def act(observation: dungeon.Observation) -> dungeon.Action:
    """Heal the badly hurt, otherwise kill what we can and else hit the weakest monster as
    hard as we can."""
    me = observation.me()
    # 1. A cleric heals the most hurt hero when someone is low.
    if me.class_ == Class.CLERIC:
        hurt = None
        for h in observation.living_heroes():
            if h.hp * 100 < h.max_hp * HEAL_BELOW_PERCENT and (hurt is None or h.hp < hurt.hp):
                hurt = h
        if hurt is not None:
            heal = dungeon.on_hero(Ability.HEAL, hurt.id)
            if observation.is_legal(heal):
                return heal

    # 2. Among the legal attacks, what would each do? (Dragons take 5 less.)
    def damage(action: dungeon.Action) -> int:
        if action.target.monster is None:
            return 0
        monster = observation.monsters[action.target.monster]
        if action.ability == Ability.HEAL and monster.family != Family.UNDEAD:
            return 0  # healing a monster that is not undead helps it
        return dungeon.damage_taken(monster.kind, dungeon.power(action.ability, me.stats, me.level))

    def hp_of(action: dungeon.Action) -> float:
        if action.target.monster is None:
            return float("inf")
        return observation.monsters[action.target.monster].hp

    # 3. A kill if there is one (the cheapest), else the hardest hit on the weakest (a
    #    weaker target, then more damage, then less mana).
    kill = hardest = None
    for action in observation.legal:
        hit = damage(action)
        if action.target.monster is None or hit == 0:
            continue
        cost = dungeon.mp_cost(action.ability)
        if hit >= hp_of(action) and (kill is None or cost < dungeon.mp_cost(kill.ability)):
            kill = action
        key = (hp_of(action), -hit, cost)
        if hardest is None or key < hardest[0]:
            hardest = (key, action)
    if kill is not None:
        return kill
    if hardest is not None:
        return hardest[1]
    if observation.legal:
        # Never needed on a hero's turn; should it be, any answer only loses the turn.
        return observation.legal[0]
    return dungeon.on_monster(Ability.FIGHT, 0)


arena.play_dungeon(setup, act)
