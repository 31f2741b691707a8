"""Mode grid, Javascript Battle (the arena's docs/rules/grid.md): two teams of heroes share
a board with diamond mines, health wells and impassable tiles. On each of its heroes'
turns a bot answers a direction (an Action: NORTH, EAST, SOUTH, WEST or STAY). Walking
into a mine captures it (20 damage), into a well drinks (+30 health), into an enemy stabs
it (10 damage), into a friend heals it (+40 health); after its move a living hero deals
20 damage to every adjacent enemy.

The protocol types (`types.py`) are generated from the Rust SDK's (sdk/src/grid.rs);
this module adds Board, the path finding of the original starter kit, as the Rust SDK
has it."""

from collections import deque
from typing import Callable, List, Optional, Tuple

from .types import *  # noqa: F401,F403
from .types import EAST, NORTH, SOUTH, STAY, WEST, Hero, Mine, Observation, Pos, SetupRequest

MAX_HEALTH = 100
MINE_CAPTURE_DAMAGE = 20
WELL_HEAL = 30
STAB_DAMAGE = 10
FRIEND_HEAL = 40
ADJACENT_DAMAGE = 20

DIRECTIONS = (NORTH, EAST, SOUTH, WEST)
"""The four moves, in the order searches try them."""

_OFFSETS = {NORTH: (0, -1), EAST: (1, 0), SOUTH: (0, 1), WEST: (-1, 0), STAY: (0, 0)}


def offset(direction: str) -> Tuple[int, int]:
    """The move's (dx, dy): north is y-1; STAY is (0, 0)."""
    return _OFFSETS.get(direction, (0, 0))


def _me(self: Observation) -> Hero:
    """The acting hero."""
    return self.heroes[self.acting]


def _alive(self: Observation, team: int) -> List[Hero]:
    """The living heroes of team, in id order."""
    return [h for h in self.heroes if h.team == team and not h.dead]


def _enemies(self: Observation) -> List[Hero]:
    """The living heroes of the other team."""
    return _alive(self, 1 - self.team)


def _mines_of(self: Observation, team: int) -> int:
    """How many mines team owns."""
    return sum(1 for m in self.mines if m.team == team)


def _manhattan(self: Pos, other: Pos) -> int:
    """The distance from this tile to other, ignoring obstacles."""
    return abs(self.x - other.x) + abs(self.y - other.y)


Observation.me = _me
Observation.alive = _alive
Observation.enemies = _enemies
Observation.mines_of = _mines_of
Pos.manhattan = _manhattan
Pos.__hash__ = lambda self: self.x * 256 + self.y

# What a tile holds now.
EMPTY = "empty"
"""Ground nobody stands on."""
GRAVE = "grave"
"""A dead hero's grave: walkable, like empty ground."""
WALL = "wall"
"""Impassable."""
MINE = "mine"
"""A diamond mine: walking into it captures it."""
WELL = "well"
"""A health well: walking into it drinks."""
HERO = "hero"
"""A living hero."""


class Tile:
    """What a tile holds now: its kind (EMPTY, GRAVE, WALL, MINE, WELL, HERO) and, for a
    mine, its id and owners (`mine`), for a hero, the hero."""

    __slots__ = ("kind", "mine_id", "mine", "hero")

    def __init__(self, kind: str, mine_id: int = 0, mine: Optional[Mine] = None,
                 hero: Optional[Hero] = None):
        self.kind, self.mine_id, self.mine, self.hero = kind, mine_id, mine, hero

    def walkable(self) -> bool:
        """Whether a hero can step onto the tile (empty ground or a grave)."""
        return self.kind == EMPTY or self.kind == GRAVE

    def __repr__(self) -> str:
        return f"Tile({self.kind!r}, mine_id={self.mine_id}, mine={self.mine}, hero={self.hero})"


class PathStep:
    """A search's answer: the target found, how many steps away (1: next to the start),
    and the first step there."""

    __slots__ = ("target", "distance", "first_step")

    def __init__(self, target: Pos, distance: int, first_step: str):
        self.target, self.distance, self.first_step = target, distance, first_step

    def __repr__(self) -> str:
        return f"PathStep({self.target}, distance={self.distance}, first_step={self.first_step!r})"


_WALL, _WELL = -1, -2


class Board:
    """The static map of a setup request plus the heroes, graves and mine owners of the
    last observation, with the original starter kit's path finding (the Rust SDK's
    grid::Board). Keep one from setup on and `observe` each turn."""

    def __init__(self, setup: SetupRequest):
        self.width, self.height = setup.width, setup.height
        tiles = self.width * self.height
        # Static terrain: 0 nothing, _WALL, _WELL, mine id + 1.
        self._terrain = [0] * tiles
        self._occupant = [0] * tiles  # hero id + 1; 0: none
        self._grave = [False] * tiles
        self.heroes: List[Hero] = []
        self.mines: List[Mine] = [Mine() for _ in setup.mines]
        for p in setup.walls:
            i = self._index(p.x, p.y)
            if i is not None:
                self._terrain[i] = _WALL
        for p in setup.wells:
            i = self._index(p.x, p.y)
            if i is not None:
                self._terrain[i] = _WELL
        for mine_id, p in enumerate(setup.mines):
            i = self._index(p.x, p.y)
            if i is not None:
                self._terrain[i] = mine_id + 1

    def _index(self, x: int, y: int) -> Optional[int]:
        if 0 <= x < self.width and 0 <= y < self.height:
            return y * self.width + x
        return None

    def observe(self, observation: Observation) -> None:
        """Take the heroes, graves and mine owners of an observation."""
        occupant = self._occupant
        for h in self.heroes:
            i = self._index(h.pos.x, h.pos.y)
            if i is not None:
                occupant[i] = 0
        self._grave = [False] * len(self._terrain)
        self.heroes = list(observation.heroes)
        self.mines = list(observation.mines)
        for h in observation.heroes:
            i = self._index(h.pos.x, h.pos.y)
            if i is not None and not h.dead:
                occupant[i] = h.id + 1
        for p in observation.graves:
            i = self._index(p.x, p.y)
            if i is not None:
                self._grave[i] = True

    def _tile_at(self, i: int) -> Tile:
        t = self._terrain[i]
        if t == _WALL:
            return Tile(WALL)
        if t == _WELL:
            return Tile(WELL)
        if t > 0:
            mine = self.mines[t - 1] if t - 1 < len(self.mines) else Mine()
            return Tile(MINE, t - 1, mine)
        o = self._occupant[i]
        if o > 0:
            return Tile(HERO, hero=self.heroes[o - 1])
        if self._grave[i]:
            return Tile(GRAVE)
        return Tile(EMPTY)

    def tile(self, p: Pos) -> Optional[Tile]:
        """What p holds now; None off the board."""
        i = self._index(p.x, p.y)
        return None if i is None else self._tile_at(i)

    def step(self, p: Pos, direction: str) -> Optional[Pos]:
        """p's neighbour in direction; None off the board."""
        dx, dy = offset(direction)
        x, y = p.x + dx, p.y + dy
        if 0 <= x < self.width and 0 <= y < self.height:
            return Pos(x, y)
        return None

    def nearest(self, start: Pos, is_target: Callable[[Pos, Tile], bool]) -> Optional[PathStep]:
        """Search breadth-first from `start` for the nearest tile satisfying
        is_target(pos, tile), the way the original starter kit does: paths run over
        walkable tiles, every tile next to a reached tile is tested (so a path's last step
        may go into a mine, well or hero), neighbours are tried north, east, south, west;
        `start` itself is never a target. None if nothing is found."""
        width = self.width
        return self._search(start, lambda i: is_target(Pos(i % width, i // width), self._tile_at(i)))

    def _search(self, start: Pos, test: Callable[[int], bool]) -> Optional[PathStep]:
        """`nearest` with a test of the tile's index (the nearest_* helpers: no objects
        made for the tiles tested)."""
        width, height = self.width, self.height
        s = self._index(start.x, start.y)
        if s is None:
            return None
        terrain, occupant = self._terrain, self._occupant
        visited = bytearray(len(terrain))
        visited[s] = 1
        queue = deque([(start.x, start.y, None, 0)])
        steps = ((NORTH, 0, -1), (EAST, 1, 0), (SOUTH, 0, 1), (WEST, -1, 0))
        while queue:
            x, y, first, distance = queue.popleft()
            for direction, dx, dy in steps:
                nx, ny = x + dx, y + dy
                if nx < 0 or ny < 0 or nx >= width or ny >= height:
                    continue
                i = ny * width + nx
                if visited[i]:
                    continue
                f = direction if first is None else first
                if test(i):
                    return PathStep(Pos(nx, ny), distance + 1, f)
                if terrain[i] == 0 and occupant[i] == 0:
                    visited[i] = 1
                    queue.append((nx, ny, f, distance + 1))
        return None

    def _hero_at(self, i: int) -> Optional[Hero]:
        o = self._occupant[i]
        return self.heroes[o - 1] if o and self._terrain[i] == 0 else None

    def _mine_at(self, i: int) -> Optional[Mine]:
        t = self._terrain[i]
        if t <= 0:
            return None
        return self.mines[t - 1] if t - 1 < len(self.mines) else Mine()

    def nearest_well(self, start: Pos) -> Optional[PathStep]:
        """The nearest health well."""
        terrain = self._terrain
        return self._search(start, lambda i: terrain[i] == _WELL)

    def nearest_non_team_mine(self, start: Pos, team: int) -> Optional[PathStep]:
        """The nearest mine team does not own (unowned or the other team's)."""
        mine_at = self._mine_at
        return self._search(start, lambda i: (m := mine_at(i)) is not None and m.team != team)

    def nearest_mine_not_owned_by(self, start: Pos, hero: int) -> Optional[PathStep]:
        """The nearest mine hero does not own itself (its teammates' included)."""
        mine_at = self._mine_at
        return self._search(start, lambda i: (m := mine_at(i)) is not None and m.owner != hero)

    def nearest_enemy(self, start: Pos, team: int) -> Optional[PathStep]:
        """The nearest living hero of the other team."""
        hero_at = self._hero_at
        return self._search(start, lambda i: (h := hero_at(i)) is not None and h.team != team)

    def nearest_weaker_enemy(self, start: Pos, team: int, health: int) -> Optional[PathStep]:
        """The nearest living enemy with less health than health."""
        hero_at = self._hero_at
        return self._search(
            start,
            lambda i: (h := hero_at(i)) is not None and h.team != team and h.health < health,
        )

    def nearest_teammate(self, start: Pos, team: int) -> Optional[PathStep]:
        """The nearest living teammate (other than a hero standing on start)."""
        hero_at = self._hero_at
        return self._search(start, lambda i: (h := hero_at(i)) is not None and h.team == team)
