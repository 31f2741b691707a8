"""Mode conquest, Little Battle (the arena's docs/rules/conquest.md): two players collect
wood, food and gold, recruit spearmen, archers, knights and scouts next to their home base
and march on the other's home. Each turn a bot answers Orders: recruit orders, then move
orders, carried out in order; a broken order is skipped and explained in the next
observation's last_rejected.

Spearman beats knight, knight beats archer, archer beats spearman, everyone beats the
scout, equals destroy each other.

The protocol types (`types.py`) are generated from the Rust SDK's (sdk/src/conquest.rs);
this module adds the rules' tables and Board and Distances, as the Rust SDK has them."""

from collections import deque
from typing import List, Optional, Tuple

from .types import *  # noqa: F401,F403
from .types import Army, Kind, Observation, Pos, Resources

FIRST_YEAR = 617
"""The year of the first turn."""
COLLECT_AMOUNT = 2
"""What an army gains for its player on a resource tile."""

DIRECTIONS = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""The four steps as (dx, dy): up, right, down, left."""

KINDS = (Kind.SPEARMAN, Kind.ARCHER, Kind.KNIGHT, Kind.SCOUT)
"""Every kind of army, in the document's order."""

WOOD, FOOD, GOLD = "wood", "food", "gold"
"""The resources."""

Pos.__hash__ = lambda self: self.x * 256 + self.y


def _manhattan(self: Pos, other: Pos) -> int:
    """The distance from this tile to other, ignoring water."""
    return abs(self.x - other.x) + abs(self.y - other.y)


def _less(self: Pos, other: Pos) -> bool:
    """Tiles ordered by column, then row (the Rust SDK's order of Pos)."""
    return (self.x, self.y) < (other.x, other.y)


Pos.manhattan = _manhattan
Pos.__lt__ = _less


def covers(stock: Resources, price: Resources) -> bool:
    """Whether stock pays price."""
    return stock.wood >= price.wood and stock.food >= price.food and stock.gold >= price.gold


def pay(stock: Resources, price: Resources) -> Optional[Resources]:
    """Stock minus price; None if it does not cover it."""
    if not covers(stock, price):
        return None
    return Resources(stock.wood - price.wood, stock.food - price.food, stock.gold - price.gold)


Resources.covers = covers
Resources.pay = pay

_PRICES = {
    Kind.SPEARMAN: (1, 1, 0),
    Kind.ARCHER: (1, 0, 1),
    Kind.KNIGHT: (0, 1, 1),
    Kind.SCOUT: (1, 1, 1),
}


def price(kind: str) -> Resources:
    """The document's price of the kind."""
    return Resources(*_PRICES.get(kind, (1, 1, 1)))


_COUNTERS = {Kind.SPEARMAN: Kind.KNIGHT, Kind.KNIGHT: Kind.ARCHER, Kind.ARCHER: Kind.SPEARMAN}


def counters(kind: str) -> Optional[str]:
    """The kind this one defeats (None for the scout, which defeats nobody)."""
    return _COUNTERS.get(kind)


def reach(kind: str) -> int:
    """How many steps the kind may move in one turn (a scout: two, in a straight line)."""
    return 2 if kind == Kind.SCOUT else 1


FIRST, SECOND, NEITHER = 0, 1, 2
"""Who leaves a fight alive: the army that moved in, the one that stood there, neither."""


def fight(a: str, b: str) -> int:
    """The document's fight table: a (moving in) meets b."""
    if a == b:
        return NEITHER
    if _COUNTERS.get(a) == b or b == Kind.SCOUT:
        return FIRST
    return SECOND


def _mine(self: Observation) -> List[Army]:
    """The receiving bot's armies, in id order."""
    return [a for a in self.armies if a.owner == self.seat]


def _enemies(self: Observation) -> List[Army]:
    """The other player's armies, in id order."""
    return [a for a in self.armies if a.owner != self.seat]


def _home(self: Observation) -> Pos:
    """The receiving bot's home base."""
    return self.homes[min(self.seat, 1)]


def _enemy_home(self: Observation) -> Pos:
    """The other player's home base."""
    return self.homes[1 - min(self.seat, 1)]


Observation.mine = _mine
Observation.enemies = _enemies
Observation.home = _home
Observation.enemy_home = _enemy_home

# Terrain kinds: what lies on a tile, armies aside.
PLAIN = "plain"
WATER = "water"
RESOURCE = "resource"
HOME = "home"


class Terrain:
    """What lies on a tile, armies aside: kind PLAIN, WATER, RESOURCE (resource says
    which) or HOME (seat says whose)."""

    __slots__ = ("kind", "resource", "seat")

    def __init__(self, kind: str = PLAIN, resource: str = "", seat: int = 0):
        self.kind, self.resource, self.seat = kind, resource, seat

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, Terrain)
            and self.kind == other.kind
            and self.resource == other.resource
            and self.seat == other.seat
        )

    def __repr__(self) -> str:
        return f"Terrain({self.kind!r}, {self.resource!r}, {self.seat})"


_PLAIN = Terrain()


class Board:
    """The map and the armies on it (the Rust SDK's conquest::Board): what is on a tile,
    where an army may go. Update it each turn, then change it as your orders would
    (place, remove, relocate, set_terrain) to plan the next ones."""

    def __init__(self, observation: Optional[Observation] = None):
        self.width = self.height = 0
        self.homes: List[Pos] = [Pos(), Pos()]
        self._terrain: List[Terrain] = []
        self.armies: List[Army] = []
        if observation is not None:
            self.update(observation)

    @classmethod
    def empty(cls, width: int, height: int, homes) -> "Board":
        """A plain width×height map with the two homes and no armies."""
        b = cls()
        b._reset(width, height, homes)
        return b

    def update(self, o: Observation) -> None:
        """Make the board the board of o."""
        self._reset(o.width, o.height, o.homes)
        water = Terrain(WATER)
        for p in o.water:
            self.set_terrain(p, water)
        for tiles, resource in ((o.wood, WOOD), (o.food, FOOD), (o.gold, GOLD)):
            t = Terrain(RESOURCE, resource)
            for p in tiles:
                self.set_terrain(p, t)
        for a in o.armies:
            self.place(Army(a.id, a.owner, a.kind, a.pos))

    def _reset(self, width: int, height: int, homes) -> None:
        self.width, self.height, self.homes = width, height, list(homes)
        self._terrain = [_PLAIN] * (width * height)
        self.armies = []
        self.set_terrain(homes[0], Terrain(HOME, seat=0))
        self.set_terrain(homes[1], Terrain(HOME, seat=1))

    def index(self, p: Pos) -> Optional[int]:
        """p's index in reading order; None off the map."""
        if 0 <= p.x < self.width and 0 <= p.y < self.height:
            return p.y * self.width + p.x
        return None

    def set_terrain(self, p: Pos, t: Terrain) -> None:
        """Set what lies on p (ignored off the map)."""
        i = self.index(p)
        if i is not None:
            self._terrain[i] = t

    def terrain(self, p: Pos) -> Optional[Terrain]:
        """What lies on p; None off the map."""
        i = self.index(p)
        return None if i is None else self._terrain[i]

    def army_at(self, p: Pos) -> Optional[Army]:
        """The army on p (the last placed there), or None."""
        found = None
        for a in self.armies:
            if a.pos.x == p.x and a.pos.y == p.y:
                found = a
        return found

    def place(self, army: Army) -> None:
        """Put army on its tile, replacing whatever army stood there (ignored off the
        map)."""
        if self.index(army.pos) is None:
            return
        old = self.army_at(army.pos)
        if old is not None:
            self.armies.remove(old)
        self.armies.append(army)

    def remove(self, army_id: int) -> Optional[Army]:
        """Take army army_id off the map; None if there is none."""
        for k, a in enumerate(self.armies):
            if a.id == army_id:
                del self.armies[k]
                return a
        return None

    def relocate(self, army_id: int, to: Pos) -> None:
        """Move army army_id to `to` (which should be free of armies)."""
        for a in self.armies:
            if a.id == army_id:
                a.pos = Pos(to.x, to.y)
                return

    def is_own(self, seat: int, p: Pos) -> bool:
        """Whether p holds an army of seat or seat's home."""
        t = self.terrain(p)
        if t is None:
            return False
        if t.kind == HOME and t.seat == seat:
            return True
        a = self.army_at(p)
        return a is not None and a.owner == seat

    def _offset(self, p: Pos, d: Tuple[int, int], steps: int) -> Optional[Pos]:
        x, y = p.x + d[0] * steps, p.y + d[1] * steps
        if 0 <= x < self.width and 0 <= y < self.height:
            return Pos(x, y)
        return None

    def recruit_spots(self, seat: int) -> List[Pos]:
        """The tiles next to seat's home where it may recruit now (on the map, plain, no
        army), in the order up, right, down, left."""
        home = self.homes[min(seat, 1)]
        spots = []
        for d in DIRECTIONS:
            p = self._offset(home, d, 1)
            if p is not None and self.army_at(p) is None and self.terrain(p) == _PLAIN:
                spots.append(p)
        return spots

    def destinations(self, army: Army) -> List[Pos]:
        """Every tile army may move to this turn by the rules, water included (an army may
        walk into water; it drowns): up, right, down, left, a scout's one step before its
        two in each direction."""
        out = []
        for d in DIRECTIONS:
            for k in range(1, reach(army.kind) + 1):
                p = self._offset(army.pos, d, k)
                if p is not None and not self.is_own(army.owner, p):
                    out.append(p)
        return out

    def safe_destinations(self, army: Army) -> List[Pos]:
        """The destinations army reaches alive, in the same order: the way there (a
        scout's middle tile too) enters no water and every enemy army on it loses the
        fight to army."""
        out = []
        for d in DIRECTIONS:
            for k in range(1, reach(army.kind) + 1):
                p = self._offset(army.pos, d, k)
                if p is None:
                    break
                survives = self.terrain(p).kind != WATER
                other = self.army_at(p)
                if survives and other is not None:
                    survives = other.owner == army.owner or fight(army.kind, other.kind) == FIRST
                if not survives:
                    break  # farther tiles this way are entered through this one
                if not self.is_own(army.owner, p):
                    out.append(p)
        return out

    def resource_tiles(self) -> List[Tuple[Pos, str]]:
        """The resources still on the map as (pos, resource), in reading order."""
        width = max(self.width, 1)
        return [
            (Pos(i % width, i // width), t.resource)
            for i, t in enumerate(self._terrain)
            if t.kind == RESOURCE
        ]

    def water(self) -> List[bool]:
        """Whether each tile (in reading order) is water."""
        return [t.kind == WATER for t in self._terrain]


_UNREACHED = 1 << 30


class Distances:
    """The steps between tiles around water, remembered from turn to turn: one
    breadth-first search per goal asked about, done the first time it is asked (the Rust
    SDK's conquest::Distances). Armies do not block and only water does, which never
    changes during a game: keep one for the game and `fit` it to each turn's board."""

    def __init__(self):
        self.width = self.height = 0
        self._water: List[bool] = []
        self._fields: dict = {}

    def fit(self, board: Board) -> None:
        """Keep the searches done so far if board's map is theirs (same size, same water),
        else start afresh for it."""
        water = board.water()
        if self.width == board.width and self.height == board.height and self._water == water:
            return
        self.width, self.height, self._water = board.width, board.height, water
        self._fields = {}

    def _index(self, p: Pos) -> Optional[int]:
        if 0 <= p.x < self.width and 0 <= p.y < self.height:
            return p.y * self.width + p.x
        return None

    def _field(self, start: int) -> List[int]:
        steps = self._fields.get(start)
        if steps is not None:
            return steps
        water, width, height = self._water, self.width, self.height
        steps = [-1 if w else _UNREACHED for w in water]
        steps[start] = 0
        queue = deque([start])
        while queue:
            i = queue.popleft()
            nxt = steps[i] + 1
            x, y = i % width, i // width
            if y > 0 and steps[i - width] == _UNREACHED:
                steps[i - width] = nxt
                queue.append(i - width)
            if x + 1 < width and steps[i + 1] == _UNREACHED:
                steps[i + 1] = nxt
                queue.append(i + 1)
            if y + 1 < height and steps[i + width] == _UNREACHED:
                steps[i + width] = nxt
                queue.append(i + width)
            if x > 0 and steps[i - 1] == _UNREACHED:
                steps[i - 1] = nxt
                queue.append(i - 1)
        self._fields[start] = steps
        return steps

    def between(self, start: Pos, goal: Pos) -> Optional[int]:
        """The steps from start to goal around water; None if no way leads there (into
        water there is none; out of water it is one step onto the best dry neighbour)."""
        i, j = self._index(start), self._index(goal)
        if i is None or j is None:
            return None
        if i == j:
            return 0
        if self._water[j]:
            return None
        steps = self._field(j)
        if not self._water[i]:
            s = steps[i]
            return s if 0 <= s < _UNREACHED else None
        best = None
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            x, y = start.x + dx, start.y + dy
            if 0 <= x < self.width and 0 <= y < self.height:
                s = steps[y * self.width + x]
                if 0 <= s < _UNREACHED and (best is None or s + 1 < best):
                    best = s + 1
        return best

    def nearest(self, start: Pos, goals) -> Optional[Tuple[int, Pos]]:
        """The goal nearest start (`between`) as (steps, goal); ties go to the smallest
        position (column first). None if no goal can be reached."""
        best = None
        for goal in goals:
            if best is not None and start.manhattan(goal) > best[0]:
                continue
            steps = self.between(start, goal)
            if steps is not None and (
                best is None or steps < best[0] or steps == best[0] and goal < best[1]
            ):
                best = (steps, goal)
        return best
