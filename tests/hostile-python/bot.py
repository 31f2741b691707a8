"""A hostile Python bot for the arena's tests (`tests/python.rs`): one directory, one
19 MB build, a different attack in each mode. Each setup is valid; every turn attacks.

- battle: an endless loop (out of fuel);
- tcg: allocation without end (the memory limit);
- grid: recursion without end, the recursion limit lifted (the stack, or the memory
  Python's frames take);
- dungeon: an exception on every turn (the SDK answers an error: a bot_error fault);
- conquest: print() without end (out of fuel, the log cut at its cap).
"""

import sys

import arena
from arena import battle, conquest, dungeon, grid, tcg


def spin(_observation):
    n = 0
    while True:
        n += 1


def hog(_observation):
    kept = []
    while True:
        kept.append(bytearray(1 << 20))


def deep(n):
    return deep(n + 1) + 1


def recurse(_observation):
    sys.setrecursionlimit(1_000_000_000)
    return deep(0)


turns = 0


def fail(_observation):
    global turns
    turns += 1
    raise ValueError(f"hostile: turn {turns}")


def flood(_observation):
    i = 0
    while True:
        print("flood", i)
        i += 1


arena.play_battle(lambda r: battle.TeamChoice(team=r.roster[: r.team_size]), spin)
arena.play_tcg(lambda r: tcg.DeckChoice(), hog)
arena.play_grid(lambda r: grid.SetupChoice(), recurse)
arena.play_dungeon(
    lambda r: dungeon.SetupChoice(party=[r.classes[0].class_] * r.party_size), fail
)
arena.play_conquest(lambda r: conquest.SetupChoice(), flood)
