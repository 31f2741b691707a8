"""Mode dungeon, the RPG battle system (the arena's docs/rules/dungeon.md): a party of
heroes against seeded waves of monsters. A bot chooses its party's classes at setup
(SetupChoice) and then plays every hero turn with an Action: an ability and a target.
Both bots face the identical dungeon, one after the other, and the better Score wins.

The protocol types (`types.py`) are generated from the Rust SDK's (sdk/src/dungeon.rs);
this module adds the rules' tables and formulas the Rust SDK has, so a bot can predict
what an ability will do."""

from typing import List, Tuple

from .types import *  # noqa: F401,F403
from .types import (
    Ability,
    Action,
    Class,
    Family,
    Hero,
    Monster,
    MonsterKind,
    Observation,
    Stats,
    target_hero,
    target_monster,
)

HERO_BASE_STAT = 6
HERO_BASE_HP = 100
HERO_BASE_MP = 50
MONSTER_BASE_STAT = 8
MONSTER_BASE_HP = 10
DRAGON_DAMAGE_REDUCTION = 5
RECKLESS_CHARGE_HP = 4


def on_monster(ability: str, monster: int) -> Action:
    """The action using ability on monster id."""
    return Action(ability, target_monster(monster))


def on_hero(ability: str, hero: int) -> Action:
    """The action using ability on hero id."""
    return Action(ability, target_hero(hero))


def _me(self: Observation) -> Hero:
    """The acting hero."""
    return self.party[self.acting]


def _living_heroes(self: Observation) -> List[Hero]:
    """The party's living heroes, in id order."""
    return [h for h in self.party if not h.dead]


def _living_monsters(self: Observation) -> List[Monster]:
    """The wave's living monsters, in id order."""
    return [m for m in self.monsters if not m.dead]


def _is_legal(self: Observation, action: Action) -> bool:
    """Whether action is one of the legal commands."""
    return action in self.legal


def _next_ability(self: Monster) -> str:
    """What the monster does on its next turn (queue[0])."""
    return self.queue[0] if self.queue else Ability.FIGHT


Observation.me = _me
Observation.living_heroes = _living_heroes
Observation.living_monsters = _living_monsters
Observation.is_legal = _is_legal
Monster.next_ability = _next_ability

_MP_COSTS = {
    Ability.SHIELD_SLAM: 5,
    Ability.RAPID_STRIKE: 5,
    Ability.FIREBALL: 8,
    Ability.FROSTBOLT: 3,
    Ability.HEAL: 4,
    Ability.SMITE: 7,
}


def mp_cost(ability: str) -> int:
    """The ability's mana cost."""
    return _MP_COSTS.get(ability, 0)


def heals(ability: str) -> bool:
    """Whether the ability heals its target (heal, regenerate)."""
    return ability == Ability.HEAL or ability == Ability.REGENERATE


def power(ability: str, stats: Stats, level: int) -> int:
    """The ability's power used by a unit of these stats and level: its damage, or what it
    heals (docs/rules/dungeon.md, "Abilities"); 0 for an unknown ability."""
    s, c, i, v = stats.strength, stats.constitution, stats.intelligence, stats.speed
    if ability == Ability.FIGHT:
        return s
    if ability == Ability.SHIELD_SLAM:
        return s * 3 // 2
    if ability in (Ability.RECKLESS_CHARGE, Ability.BACKSTAB, Ability.BASH, Ability.BLOOD_RAGE):
        return s * 2
    if ability == Ability.FIREBALL:
        return 6 + i // 2
    if ability == Ability.FROSTBOLT:
        return 3 + level
    if ability in (Ability.HEAL, Ability.REGENERATE):
        return c
    if ability == Ability.SMITE:
        return 4 + (i + c) // 2
    if ability == Ability.RAPID_STRIKE:
        return 4 + v
    if ability in (Ability.TAIL_SWIPE, Ability.SLASH):
        return s + v
    if ability == Ability.FIRE_BREATH:
        return i * 5 // 2
    if ability == Ability.POISON_BREATH:
        return (i + c) * 3 // 2
    if ability == Ability.LIFE_DRAIN:
        return i * 3 // 2
    if ability == Ability.BITE:
        return v // 2
    return 0


def family(kind: str) -> str:
    """The monster kind's family."""
    if kind in (MonsterKind.RED_DRAGON, MonsterKind.GREEN_DRAGON):
        return Family.DRAGON
    if kind in (MonsterKind.VAMPIRE, MonsterKind.SKELETON):
        return Family.UNDEAD
    return Family.HUMANOID


def damage_taken(kind: str, damage: int) -> int:
    """What damage does to a monster of this kind: dragons take 5 less."""
    if family(kind) == Family.DRAGON:
        return max(damage, DRAGON_DAMAGE_REDUCTION) - DRAGON_DAMAGE_REDUCTION
    return damage


def abilities(cls: str) -> Tuple[str, str, str]:
    """The class's three abilities."""
    if cls == Class.WARRIOR:
        return (Ability.FIGHT, Ability.SHIELD_SLAM, Ability.RECKLESS_CHARGE)
    if cls == Class.MAGE:
        return (Ability.FIGHT, Ability.FIREBALL, Ability.FROSTBOLT)
    if cls == Class.CLERIC:
        return (Ability.FIGHT, Ability.HEAL, Ability.SMITE)
    return (Ability.FIGHT, Ability.BACKSTAB, Ability.RAPID_STRIKE)
