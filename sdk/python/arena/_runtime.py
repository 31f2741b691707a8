"""The request loop of a Python bot: decoding requests, calling the registered functions,
encoding answers, and the process without WASI (`install`). Bots use the functions that
package `arena` exports."""

import errno
import json
import os
import random
import sys
import time
import traceback
from typing import Any, Callable, Dict, Optional

from . import _wire, battle, conquest, dungeon, grid, tcg
from .types import MatchEnd, MatchStart

ABI_VERSION = 1
"""The version of the bot ABI this SDK speaks."""

MODES = ("battle", "tcg", "grid", "dungeon", "conquest")
"""The modes, in the arena's order."""

_TYPES = {
    "battle": battle.types,
    "tcg": tcg.types,
    "grid": grid.types,
    "dungeon": dungeon.types,
    "conquest": conquest.types,
}

try:
    from wit_world import log as _host_log
except ImportError:  # plain Python (tests, trying a bot out): the log is standard error

    def _host_log(msg: str) -> None:
        sys.__stderr__.write(msg + "\n")


try:
    from wit_world import fuel_budget as _host_fuel_budget
    from wit_world import fuel_left as _host_fuel_left
except ImportError:  # plain Python: no budget, so a loop that thinks while fuel is left stops

    def _host_fuel_left() -> int:
        return 0

    def _host_fuel_budget() -> int:
        return 0


def fuel_left() -> int:
    """The fuel the current call (a turn, or setup) has left, after paying 100 fuel for
    this read (the world's `fuel-left`, docs/abi.md). 0 outside the arena. A bot that
    thinks until it has spent 80 % of its turn:

        stop = arena.fuel_budget() // 5
        while arena.fuel_left() > stop and improve(plan):
            pass
    """
    return _host_fuel_left()


def fuel_budget() -> int:
    """The fuel the current call started with: the turn's budget in `act` and `end`, the
    setup budget in `start` and `setup` (the world's `fuel-budget`, 100 fuel a read). 0 outside
    the arena."""
    return _host_fuel_budget()


class _Bot:
    __slots__ = ("mode", "setup", "act", "start", "end")

    def __init__(self, mode, setup, act, start, end):
        self.mode, self.setup, self.act, self.start, self.end = mode, setup, act, start, end


_handlers: Dict[str, _Bot] = {}
_current: Optional[_Bot] = None
_started: Optional[MatchStart] = None


def play(
    mode: str,
    setup: Callable[[Any], Any],
    act: Callable[[Any], Any],
    start: Optional[Callable[[MatchStart], None]] = None,
    end: Optional[Callable[[MatchEnd], None]] = None,
) -> None:
    """Register the bot's functions for `mode` (one of MODES), replacing any registered for
    it before: `setup(request)` answers the setup choice, `act(observation)` the action;
    `start(match_start)` and `end(match_end)` are optional."""
    if mode not in MODES:
        raise ValueError(f"arena.play: no mode {mode!r}; the modes are {', '.join(MODES)}")
    if not callable(setup) or not callable(act):
        raise TypeError(f"arena.play: the {mode} bot needs a setup and an act function")
    _handlers[mode] = _Bot(mode, setup, act, start, end)


def play_battle(setup, act, start=None, end=None) -> None:
    """Register a battle bot: setup(battle.SetupRequest) -> battle.TeamChoice,
    act(battle.Observation) -> battle.Action."""
    play("battle", setup, act, start, end)


def play_tcg(setup, act, start=None, end=None) -> None:
    """Register a tcg bot: setup(tcg.SetupRequest) -> tcg.DeckChoice,
    act(tcg.Observation) -> tcg.Action."""
    play("tcg", setup, act, start, end)


def play_grid(setup, act, start=None, end=None) -> None:
    """Register a grid bot: setup(grid.SetupRequest) -> grid.SetupChoice,
    act(grid.Observation) -> grid.Action (a direction string: grid.NORTH …)."""
    play("grid", setup, act, start, end)


def play_dungeon(setup, act, start=None, end=None) -> None:
    """Register a dungeon bot: setup(dungeon.SetupRequest) -> dungeon.SetupChoice,
    act(dungeon.Observation) -> dungeon.Action."""
    play("dungeon", setup, act, start, end)


def play_conquest(setup, act, start=None, end=None) -> None:
    """Register a conquest bot: setup(conquest.SetupRequest) -> conquest.SetupChoice,
    act(conquest.Observation) -> conquest.Orders."""
    play("conquest", setup, act, start, end)


def start() -> Optional[MatchStart]:
    """The start request of the match being played (None before it): mode, seat, the
    bot's seed and the mode's rules (typed: `battle.Rules` …)."""
    return _started


# ---------------------------------------------------------------------------------------
# The log

_LOG_CAP = 4096
_TRACEBACK_FRAMES = 20
_pending: list = []
_pending_size = 0
_in_call = False  # the host's log exists only during a call (not while the build imports)


def _flush() -> None:
    global _pending_size
    if _pending:
        text = "".join(_pending)
        _pending.clear()
        _pending_size = 0
        if text.endswith("\n"):
            text = text[:-1]
        if text:
            _host_log(text)


def log(text: Any) -> None:
    """Write `text` (made a string with str) to the arena's log of the current call, as a
    line of its own. A log call costs fuel like the bot's own work (10,000 plus 10 per
    byte); the host keeps 4 KiB and 100 calls per request."""
    _flush()
    _host_log(str(text))


class _Output:
    """sys.stdout and sys.stderr: line-buffered into the log. Each write that completes a
    line sends the complete lines at once (one log call), so what a bot printed is in the
    log even when the call then traps or runs out of fuel; a line without its newline yet
    waits for the next write or the end of the call."""

    encoding = "utf-8"
    errors = "replace"

    def write(self, s: str) -> int:
        global _pending_size
        _pending.append(s)
        _pending_size += len(s)
        if _in_call and ("\n" in s or _pending_size > _LOG_CAP):
            text = "".join(_pending)
            cut = text.rfind("\n") + 1 if _pending_size <= _LOG_CAP else len(text)
            _pending.clear()
            _pending_size = 0
            if text[cut:]:
                _pending.append(text[cut:])
                _pending_size = len(text) - cut
            if cut > 1:
                _host_log(text[: cut - 1] if text[cut - 1] == "\n" else text[:cut])
        return len(s)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError("a bot's output has no file descriptor")

    def readable(self) -> bool:
        return False

    def writable(self) -> bool:
        return True


# ---------------------------------------------------------------------------------------
# No WASI: the clock, entropy, output

# The clock is the fuel the bot has spent in the match, one nanosecond per unit, plus its
# sleeps, as a core bot's WASI clock is (docs/abi.md, WASI): what the calls before this
# one spent (each call's budget less what was left when it answered), plus what this call
# has spent so far. The wall clock (`time.time`) adds REALTIME_START_NS.
_clock_ns = 0
_call_budget = 0
_entropy = random.Random(0)
_NS = 1_000_000_000
REALTIME_START_NS = 1_735_689_600 * _NS
"""2025-01-01T00:00:00Z: what `time.time()` reads when the bot has spent nothing."""


def _read_ns() -> int:
    # Outside a call (the bot's import, at build time) the host cannot be asked.
    if not _call_budget:
        return _clock_ns
    return _clock_ns + max(_call_budget - _host_fuel_left(), 0)


def _read() -> float:
    return _read_ns() / _NS


def _wall_ns() -> int:
    return REALTIME_START_NS + _read_ns()


def _wall() -> float:
    return _wall_ns() / _NS


def _sleep(seconds: float) -> None:
    global _clock_ns
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    _clock_ns += int(seconds * _NS)


def _call_begins() -> None:
    global _call_budget, _in_call
    _call_budget = _host_fuel_budget()
    _in_call = True


def _call_ends() -> None:
    global _clock_ns, _call_budget, _in_call
    _clock_ns = _read_ns()
    _call_budget = 0
    _in_call = False


def _urandom(n: int) -> bytes:
    if n < 0:
        raise ValueError("negative argument not allowed")
    return _entropy.randbytes(n) if n else b""


def _reseed(seed: int) -> None:
    """A match starts: the clock at 0, random and os.urandom from its seed."""
    global _clock_ns
    _clock_ns = 0
    random.seed(seed)
    _entropy.seed(seed + (1 << 64))


_installed = False


def install() -> None:
    """Make the process safe without WASI (arena_main calls it): print and tracebacks to
    the log, a virtual clock, os.urandom from the match seed (see `arena`)."""
    global _installed
    if _installed:
        return
    _installed = True
    sys.stdout = sys.stderr = _Output()
    for name in ("monotonic", "perf_counter", "process_time", "thread_time"):
        if hasattr(time, name):
            setattr(time, name, _read)
        if hasattr(time, name + "_ns"):
            setattr(time, name + "_ns", _read_ns)
    time.time, time.time_ns = _wall, _wall_ns
    if hasattr(time, "clock_gettime"):
        realtime = getattr(time, "CLOCK_REALTIME", 0)
        time.clock_gettime = lambda clock_id: _wall() if clock_id == realtime else _read()
        time.clock_gettime_ns = lambda clock_id: (
            _wall_ns() if clock_id == realtime else _read_ns()
        )
    time.sleep = _sleep
    for name in ("localtime", "gmtime", "ctime"):
        original = getattr(time, name)
        setattr(time, name, lambda secs=None, _f=original: _f(_wall() if secs is None else secs))
    asctime, strftime, gmtime = time.asctime, time.strftime, time.gmtime
    time.asctime = lambda t=None: asctime(gmtime() if t is None else t)
    time.strftime = lambda f, t=None: strftime(f, gmtime() if t is None else t)
    _install_datetime()
    os.urandom = _urandom
    random._urandom = _urandom
    seed = random.Random.seed

    def seeded(self, a=None, version=2):
        seed(self, _entropy.getrandbits(64) if a is None else a, version)

    random.Random.seed = seeded
    random.seed = random._inst.seed
    # Tracebacks without source lines: reading the files would need WASI.
    import linecache

    linecache.getlines = lambda filename, module_globals=None: []
    linecache.checkcache = lambda filename=None: None


def _no_files(*args, **kwargs):
    raise OSError(errno.ENOSYS, "a bot has no files, sockets or processes while it plays")


def _no_input(prompt: Any = "") -> str:
    raise EOFError("a bot has no standard input in the arena: it gets its requests")


def install_no_files() -> None:
    """From now on files, sockets and processes raise OSError (ENOSYS), input()
    EOFError and importing a module not imported yet ModuleNotFoundError, with the bot's
    own line in the traceback, instead of trapping in a missing WASI call (which would end
    the call with no Python error at all). arena_main calls it
    once the bot's modules are imported, so what they read while imported at build time
    is theirs."""
    import builtins
    import io

    builtins.open = io.open = _no_files
    builtins.input = _no_input
    for name in (
        "open", "listdir", "scandir", "stat", "lstat", "mkdir", "makedirs", "remove",
        "unlink", "rename", "rmdir", "getcwd", "chdir", "system", "popen", "fork",
        "execv", "execve", "spawnv",
    ):
        if hasattr(os, name):
            setattr(os, name, _no_files)
    # An import while playing would search files for the module and trap: it raises
    # ModuleNotFoundError instead. Built-in and frozen modules (no files) still import.
    index = 0
    while index < len(sys.meta_path) and getattr(sys.meta_path[index], "__name__", "") in (
        "BuiltinImporter",
        "FrozenImporter",
    ):
        index += 1
    sys.meta_path.insert(index, _NoImportsWhilePlaying())
    try:
        import socket
    except ImportError:
        return
    socket.socket = socket.create_connection = socket.create_server = _no_files
    socket.getaddrinfo = socket.gethostbyname = _no_files


class _NoImportsWhilePlaying:
    """The import finder of a playing bot: every module not yet imported is missing."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        raise ModuleNotFoundError(
            f"No module named {name!r} while the bot plays: a bot reads no files then, so"
            f" import {name.partition('.')[0]} at the top of bot.py (or of a module it imports),"
            " which runs when the bot is built",
            name=name,
        )


def _install_datetime() -> None:
    """Module datetime's `datetime` becomes a subclass whose now() and utcnow() read the
    virtual clock (the C type's read the system clock, which would trap)."""
    import datetime as module

    base = module.datetime

    class datetime(base):
        __slots__ = ()

        @classmethod
        def now(cls, tz=None):
            return cls.fromtimestamp(time.time(), tz)

        @classmethod
        def utcnow(cls):
            return cls.fromtimestamp(time.time(), module.timezone.utc).replace(tzinfo=None)

    datetime.__module__ = "datetime"
    datetime.__doc__ = base.__doc__
    module.datetime = datetime


# ---------------------------------------------------------------------------------------
# Requests


class Request:
    """A decoded request: `kind` ("start", "setup", "turn", "end") and `body` (a
    MatchStart, the mode's SetupRequest or Observation, a MatchEnd)."""

    __slots__ = ("kind", "body")

    def __init__(self, kind: str, body: Any):
        self.kind, self.body = kind, body

    def to_json(self) -> Any:
        return {self.kind: self.body.to_json()}


def decode(mode: Optional[str], text: str, rules_of=MODES) -> Request:
    """The request `text` of a match of `mode` (a start names its own mode; its rules are
    decoded if that mode is one of `rules_of`, else left the JSON value)."""
    envelope = json.loads(text)
    if not isinstance(envelope, dict) or len(envelope) != 1:
        raise ValueError("a request is an object of one key: start, setup, turn or end")
    ((kind, body),) = envelope.items()
    if kind == "start":
        value = MatchStart.from_json(body)
        types = _TYPES.get(value.mode)
        if types is not None and value.mode in rules_of:
            value.rules = types.Rules.from_json(value.rules)
        return Request(kind, value)
    if kind == "end":
        return Request(kind, MatchEnd.from_json(body))
    if kind not in ("setup", "turn"):
        raise ValueError(f"unknown request `{kind}`")
    types = _TYPES[mode]
    if kind == "setup":
        return Request(kind, types.SetupRequest.from_json(body))
    return Request(kind, types.Observation.from_json(body))


def _fail(message: str) -> str:
    return _wire.dumps({"error": message})


def _refusal(mode: str) -> str:
    modes = [m for m in MODES if m in _handlers]
    if not modes:
        return (
            "this bot plays no mode: call arena.play_battle (or another arena.play "
            "function) when bot.py is imported"
        )
    played = modes[0] if len(modes) == 1 else ", ".join(modes[:-1]) + " and " + modes[-1]
    return f"this bot plays {played} only, not {mode}"


def _traceback(e: BaseException) -> str:
    """The traceback of e, its innermost frames only: the traceback module would look at
    every frame of a RecursionError's thousand, which costs more fuel than a turn has."""
    entries = []
    tb = e.__traceback__
    while tb is not None:
        entries.append(tb)
        tb = tb.tb_next
    lines = ["Traceback (most recent call last):\n"]
    if len(entries) > _TRACEBACK_FRAMES:
        lines.append(f"  ... {len(entries) - _TRACEBACK_FRAMES} frames left out\n")
    for tb in entries[-_TRACEBACK_FRAMES:]:
        code = tb.tb_frame.f_code
        lines.append(f'  File "{code.co_filename}", line {tb.tb_lineno}, in {code.co_name}\n')
    lines.extend(traceback.format_exception_only(type(e), e))
    return "".join(lines)


def _answer(value: Any, what: str) -> str:
    if value is None:
        raise TypeError(f"{what} returned None, not an answer")
    return _wire.dumps(value)


def handle(text: str) -> str:
    """Answer one request (JSON text) with JSON text. Never raises."""
    _call_begins()
    try:
        return _handle(text)
    finally:
        _call_ends()


def _handle(text: str) -> str:
    global _current, _started
    try:
        try:
            request = decode(_current.mode if _current is not None else None, text, _handlers)
        except Exception as e:  # noqa: BLE001
            if _current is None and '"start"' not in text[:16]:
                return _fail("the first request must be `start` (of a mode this bot plays)")
            return _fail(f"bad request: {type(e).__name__}: {e}")
        kind, body = request.kind, request.body
        if kind == "start":
            _reseed(body.seed)
            _started = body
            _current = _handlers.get(body.mode)
            if _current is None:
                return _fail(_refusal(body.mode))
            if _current.start is not None:
                _current.start(body)
            return "{}"
        bot = _current
        if bot is None:
            return _fail("the first request must be `start` (of a mode this bot plays)")
        if kind == "setup":
            return _answer(bot.setup(body), "setup")
        if kind == "turn":
            return _answer(bot.act(body), "act")
        if bot.end is not None:
            bot.end(body)
        return "{}"
    except Exception as e:  # noqa: BLE001
        try:
            _flush()
            _host_log(_traceback(e))
            return _fail(f"{type(e).__name__}: {e}")
        except BaseException:  # noqa: BLE001
            return '{"error":"the error could not be described"}'
    except BaseException as e:  # noqa: BLE001  SystemExit, KeyboardInterrupt
        return _fail(f"{type(e).__name__}: {e}")
    finally:
        try:
            _flush()
        except BaseException:  # noqa: BLE001
            pass
