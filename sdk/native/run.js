// Run the JavaScript bot of this directory natively under Node.js on recorded requests, to
// debug it with the inspector, `debugger;` or `console.log` outside the sandbox
// (docs/languages.md, "Debugging natively"). `arena native BOTDIR` writes this file and
// the SDK prelude to BOTDIR/target/arena-native/; `arena replay requests REPLAY --seat N
// -o requests.jsonl` records a game's requests.
//
//   node BOTDIR/target/arena-native/run.js requests.jsonl
//   node --inspect-brk BOTDIR/target/arena-native/run.js requests.jsonl
//
// The bot's files (lib/*.js in name order, then bot.js) are loaded under their own paths,
// so breakpoints and stack traces name them; each request is answered by the prelude's
// request loop as in the arena, and its answer printed after it (`-> ...`). Not the
// arena's: the clocks are the machine's, and `arena.fuelLeft()` is 0.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const here = __dirname;
const botDir = path.dirname(path.dirname(here));
if (process.argv.length !== 3) {
  console.error(`usage: node ${process.argv[1]} REQUESTS.jsonl (from \`arena replay requests\`)`);
  process.exit(2);
}
const prelude = path.join(here, "arena.js");
vm.runInThisContext(fs.readFileSync(prelude, "utf8"), { filename: prelude });
const lib = path.join(botDir, "lib");
const files = fs.existsSync(lib)
  ? fs.readdirSync(lib).filter((f) => f.endsWith(".js")).sort().map((f) => path.join(lib, f))
  : [];
files.push(path.join(botDir, "bot.js"));
for (const file of files) {
  vm.runInThisContext(fs.readFileSync(file, "utf8"), { filename: file });
}
const lines = fs.readFileSync(process.argv[2], "utf8").split("\n");
lines.forEach((line, i) => {
  if (line.length === 0) return;
  const kind = line.startsWith('{"') ? line.slice(2, line.indexOf('"', 2)) : "?";
  console.log(`[request ${i + 1}: ${kind}]`);
  console.log(`-> ${globalThis.__arena_call(line)}`);
});
