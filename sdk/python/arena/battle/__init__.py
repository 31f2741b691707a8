"""Mode battle, Bot Wars (the arena's docs/rules/battle.md): two players each field a team
of three robots chosen blind from a roster. Whenever one of a player's robots gets its
turn, the bot answers an Action: `attack(target)` one of the legal targets, or `skill()`.

The protocol types (`types.py`) are generated from the Rust SDK's (sdk/src/battle.rs);
this module adds the helpers the Rust SDK has."""

from typing import List

from .types import *  # noqa: F401,F403
from .types import Observation, Unit

TEAM_SIZE = 3
"""The number of units per team."""

TURN_METER_FULL = 1000
"""The turn meter at which a unit takes a turn."""


def _me(self: Observation) -> Unit:
    """The acting unit."""
    return self.units[self.acting]


def _team(self: Observation, seat: int) -> List[Unit]:
    """The living units of seat, in id order."""
    return [u for u in self.units if u.owner == seat and not u.destroyed]


def _has(self: Unit, effect: str) -> bool:
    """Whether the unit carries effect (an Effect value)."""
    return any(e.effect == effect for e in self.effects)


Observation.me = _me
Observation.team = _team
Unit.has = _has
