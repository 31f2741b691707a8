// Runs a JavaScript bot natively under Node.js on recorded requests, the way the arena's
// QuickJS runner does (the prelude arena.js, then the bot's files as one script): a
// yardstick for what the sandbox costs. tests/benches/languages.rs runs it.
//
//   node sdk/js/node-harness.js REQUESTS.jsonl FILE.js…
//
// REQUESTS.jsonl holds one request a line, as the host sent them; the files are the bot's
// script in order (lib/*.js, then bot.js). Prints {"turns": N, "turn_us": median µs,
// "start_us": µs of the load and the first request} as JSON.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const [requestsFile, ...files] = process.argv.slice(2);
const out = console.log;
// The bot's log goes nowhere (the prelude keeps console.log as it finds it).
globalThis.console = { log() {} };
const loaded = process.hrtime.bigint();
vm.runInThisContext(fs.readFileSync(path.join(__dirname, "arena.js"), "utf8"), { filename: "arena.js" });
globalThis.__arena_load(files.map((f) => [path.basename(f), fs.readFileSync(f, "utf8")]));
const requests = fs.readFileSync(requestsFile, "utf8").split("\n").filter((l) => l.length > 0);
const turns = [];
let startUs = 0;
for (const request of requests) {
  const begun = process.hrtime.bigint();
  globalThis.__arena_call(request);
  const done = process.hrtime.bigint();
  if (request.startsWith('{"start"')) startUs = Number(done - loaded) / 1000;
  if (request.startsWith('{"turn"')) turns.push(Number(done - begun) / 1000);
}
turns.sort((a, b) => a - b);
const median = turns.length ? (turns[(turns.length - 1) >> 1] + turns[turns.length >> 1]) / 2 : 0;
out(JSON.stringify({ turns: turns.length, turn_us: median, start_us: startUs }));
