"""The componentize-py app of a Python bot (world `bot` of docs/wit/arena-bot.wit).

Build a bot directory (one with a `bot.py`) with:

    componentize-py -d docs/wit -w bot componentize arena_main \
        -p sdk/python -p BOTDIR -o bot.wasm --stub-wasi

This module makes the component's process safe without WASI (print and tracebacks go to
the bot's log, the clocks and os.urandom are deterministic: see `arena`), imports the
bot's module `bot` (which registers its modes with `arena.play_battle` …) and answers
every request with the SDK. The import runs when the component is built: what `bot.py`
does at import time is part of the component's initial state, in every match.
"""

import wit_world

from arena import _runtime

_runtime.install()

import bot  # noqa: E402,F401  the bot's module: registers the modes it plays

_runtime.install_no_files()


class WitWorld(wit_world.WitWorld):
    def call(self, request: str) -> str:
        return _runtime.handle(request)
