"""Runs a Python bot natively on recorded requests, as its component does (the SDK's
request loop, with the SDK's virtual clocks and redirected output installed): a yardstick
for what the sandbox costs. tests/benches/languages.rs runs it.

    python3 tests/benches/python-harness.py SDK_DIR BOT_DIR REQUESTS.jsonl

REQUESTS.jsonl holds one request a line, as the host sent them. Prints {"turns": N,
"turn_us": median µs} as JSON.
"""

import json
import os
import statistics
import sys
from time import perf_counter_ns  # the real clock, taken before the SDK replaces it

sdk, bot_dir, requests_file = sys.argv[1:4]
sys.path[:0] = [sdk, bot_dir]
out = sys.stdout
sys.stderr = open(os.devnull, "w")  # the bot's log goes nowhere

from arena import _runtime  # noqa: E402

_runtime.install()
import bot  # noqa: E402,F401

turns = []
with open(requests_file, encoding="utf-8") as requests:
    for line in requests:
        line = line.rstrip("\n")
        if not line:
            continue
        begun = perf_counter_ns()
        _runtime.handle(line)
        if line.startswith('{"turn"'):
            turns.append((perf_counter_ns() - begun) / 1000)
out.write(json.dumps({"turns": len(turns), "turn_us": statistics.median(turns) if turns else 0}) + "\n")
