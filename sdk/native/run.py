"""Run the Python bot of this directory natively on recorded requests, to debug it with
`pdb`, `breakpoint()` or `print()` outside the sandbox (docs/languages.md, "Debugging
natively"). `arena native BOTDIR` writes this file and the SDK to
BOTDIR/target/arena-native/; `arena replay requests REPLAY --seat N -o requests.jsonl`
records a game's requests.

    python3 BOTDIR/target/arena-native/run.py requests.jsonl
    python3 -m pdb BOTDIR/target/arena-native/run.py requests.jsonl

Each request is answered by the SDK's request loop as in the arena, and its answer printed
after it (`-> ...`); what the bot prints appears where it prints it. Not the arena's:
files and the network work, the clocks are the machine's, and `arena.fuel_left()` is 0.
"""

import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
bot_dir = os.path.dirname(os.path.dirname(here))
sys.path[:0] = [here, bot_dir]

from arena import _runtime  # noqa: E402

import bot  # noqa: E402,F401  the bot's module: registers the modes it plays


def main(argv):
    if len(argv) != 2:
        sys.exit(f"usage: python3 {argv[0]} REQUESTS.jsonl (from `arena replay requests`)")
    with open(argv[1], encoding="utf-8") as requests:
        for number, line in enumerate(requests, 1):
            line = line.rstrip("\n")
            if not line:
                continue
            kind = line[2 : line.find('"', 2)] if line.startswith('{"') else "?"
            print(f"[request {number}: {kind}]", flush=True)
            answer = _runtime.handle(line)
            print(f"-> {answer}", flush=True)


if __name__ == "__main__":
    main(sys.argv)
