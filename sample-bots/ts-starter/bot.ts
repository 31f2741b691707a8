// ts-starter is a Bot Arena bot in TypeScript: copy this directory and make it yours.
// Each mode it plays is one file of lib/ (battle.ts, tcg.ts, grid.ts, dungeon.ts,
// conquest.ts) that registers its functions with the SDK (arena.playBattle, …): add or
// delete such a file and the bot plays more or fewer modes.
//
// The arena compiles lib/*.ts (by name) and then this file with TypeScript's own compiler
// (the version package.json pins: run `npm ci` here once) into one script, after the SDK
// (sdk/js/arena.js, the `arena` global; its types: sdk/js/arena.d.ts and protocol.d.ts),
// and packs it into its QuickJS runner:
//
//   npm ci
//   arena check sample-bots/ts-starter
//   arena play --mode battle sample-bots/ts-starter builtin:random
//
// The files are scripts, not modules (no import/export): they share one scope.

console.log("ts-starter loaded");
