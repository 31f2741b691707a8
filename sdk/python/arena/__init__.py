"""The Bot Arena Python SDK: a Python bot is a WebAssembly component (docs/wit/arena-bot.wit)
built by componentize-py from a directory with a `bot.py`, this SDK and its app module
`arena_main`.

A bot registers one setup and one act function per mode it plays, at import time:

    import arena
    from arena import battle

    def setup(request: battle.SetupRequest) -> battle.TeamChoice:
        return battle.TeamChoice(team=request.roster[: request.team_size])

    def act(observation: battle.Observation) -> battle.Action:
        return battle.attack(observation.legal_targets[0])

    arena.play_battle(setup, act)

Functions:

- `play_battle(setup, act)`, `play_tcg`, `play_grid`, `play_dungeon`, `play_conquest`
  (each also takes `start=` and `end=`, called with the typed `MatchStart` and the
  `MatchEnd`), or `play(mode, setup, act, start=None, end=None)`: register a mode. A
  start request of a mode no function was registered for is answered with an error, so
  tournaments and `arena check` leave the bot out of that mode.
- `log(text)`: a line in the bot's log of the current call. `print()` writes there too.
- `start()`: this match's `MatchStart` (mode, seat, seed and the mode's typed rules), or
  None before the first start request.
- `fuel_left()`, `fuel_budget()`: the fuel the current call has left (after paying 100
  for the read) and the fuel it started with (the turn's budget in `act` and `end`,
  the setup budget in `start` and `setup`); 0 outside the arena. A bot that thinks until it has spent 80 %
  of its turn: `stop = arena.fuel_budget() // 5`, then
  `while arena.fuel_left() > stop and improve(plan): pass`.

An exception in a bot's function is caught: the answer is `{"error": "<Type>: <message>"}`
(a bot_error fault: the arena plays the mode's default), the traceback goes to the log,
and the bot is asked again on its next turn.

The component has no WASI, so the SDK (`arena_main`) replaces what would need it:

- `sys.stdout` and `sys.stderr` write to the log, line-buffered (each write that completes
  a line sends the complete lines, so they survive a trap later in the call; what is
  printed at import time comes with the first request of a match).
- `random` is seeded with the match seed on each start request (`random.seed(seed)`), so
  a bot's randomness follows the match; `random.Random()` and `random.seed()` without a
  seed draw one from the match seed too.
- `os.urandom(n)` (and so `random.SystemRandom`, `secrets`, `uuid.uuid4`) returns bytes
  of a generator seeded from the match seed: deterministic, and not cryptographic.
- A bot's budget is fuel (instructions), not time, and its clocks read fuel, as every
  language's do in the arena: `time.monotonic`, `time.perf_counter`,
  `time.process_time`, `time.thread_time` (and their `_ns` forms) give the fuel the bot
  has spent in the match's calls since the start request, one nanosecond per unit (a
  20,000,000-fuel turn is 20 ms of it), plus its sleeps; `time.time()` adds
  2025-01-01T00:00:00Z (`REALTIME_START_NS`). `time.sleep(s)` returns at once and advances
  the clocks by `s`. `time.localtime()`, `time.gmtime()`, `time.ctime()`,
  `time.asctime()` and `time.strftime(f)` without a time use `time.time()` (UTC), as do
  `datetime.date.today()` and `datetime.datetime.now()`, `.today()` and `.utcnow()`
  (module datetime's `datetime` is a subclass that reads it).
- While the bot plays (once its modules are imported), files, sockets and processes raise
  `OSError` (ENOSYS) and `input()` `EOFError`, with the bot's line in the traceback.

The arena runs each match in a fresh instance: module globals start from their state
after import in every match and may hold a bot's state between turns.
"""

from ._runtime import (
    ABI_VERSION,
    MODES,
    fuel_budget,
    fuel_left,
    log,
    play,
    play_battle,
    play_conquest,
    play_dungeon,
    play_grid,
    play_tcg,
    start,
)
from .types import MatchEnd, MatchResult, MatchStart, Mode

__all__ = [
    "ABI_VERSION",
    "MODES",
    "MatchEnd",
    "MatchResult",
    "MatchStart",
    "Mode",
    "fuel_budget",
    "fuel_left",
    "log",
    "play",
    "play_battle",
    "play_conquest",
    "play_dungeon",
    "play_grid",
    "play_tcg",
    "start",
]
