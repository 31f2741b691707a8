// js-starter is a Bot Arena bot in JavaScript: copy this directory and make it yours.
// Each mode it plays is one file of lib/ (battle.js, tcg.js, grid.js, dungeon.js,
// conquest.js) that registers its functions with the SDK (arena.playBattle, …): add or
// delete such a file and the bot plays more or fewer modes (the arena leaves it out of the
// games of the others).
//
// The arena joins lib/*.js (by name) and then this file into one script, after the SDK
// (sdk/js/arena.js, which defines the `arena` global), and packs it into its QuickJS
// runner: no toolchain is needed.
//
//   arena check sample-bots/js-starter
//   arena play --mode battle sample-bots/js-starter builtin:random
//
// console.log writes to the arena's log (shown by `arena check` and in replays).
// Math.random follows the match seed, so a game replays exactly.

const modes = ["battle", "tcg", "grid", "dungeon", "conquest"];
console.log(`js-starter loaded; plays ${modes.join(", ")}`);
