"""python-starter is a Bot Arena bot in Python: copy it and make it yours. Each mode it
plays is one module (battle.py, tcg.py, grid.py, dungeon.py, conquest.py) that registers
its functions with the SDK when imported: import more or fewer of them here and the bot
plays more or fewer modes (the arena leaves it out of the games of the others).

Build it to a WebAssembly component (componentize-py 0.25.1; see README.md):

    componentize-py -d docs/wit -w bot componentize arena_main \
        -p sdk/python -p sample-bots/python-starter -o bot.wasm --stub-wasi

then try it: arena check bot.wasm; arena play --mode battle bot.wasm builtin:random.
"""

import battle  # noqa: F401
import conquest  # noqa: F401
import dungeon  # noqa: F401
import grid  # noqa: F401
import tcg  # noqa: F401
