// arena.js — Bot Arena's JavaScript SDK: the prelude the arena packs before every
// JavaScript or TypeScript bot (arena/tournament/src/javascript.rs) into the QuickJS
// runner (sdk/js/runner.wasm). It speaks the bot ABI (docs/abi.md, version 1, JSON) and
// calls the bot's functions with the decoded requests; sdk/js/README.md tells how to
// write a bot, sdk/js/arena.d.ts and sdk/js/protocol.d.ts give the types.
//
// A bot registers a setup and an act function per mode it plays, at the top of bot.js:
//
//   arena.playBattle({
//     setup: (request) => ({ team: request.roster.slice(0, request.team_size) }),
//     act: (observation) => arena.battle.attack(observation.legal_targets[0]),
//   });
//
// `start(start)` and `end(end)` are optional. A start request of a mode the bot did not
// register is refused with an error answer (the arena leaves the bot out of that mode). An
// exception thrown by a bot's function is caught: the answer is {"error": "…"} (a bot_error
// fault; the mode's default action is played), the stack goes to the log, and the bot is
// asked again on its next turn. console.log (and arena.log) write to the arena's log.
// Math.random is a PRNG seeded from the match seed, so a bot's answers follow the seed;
// Date.now and performance.now read the arena's clock, which counts the fuel spent
// (docs/abi.md, "WASI"; a millisecond is 1,000,000 fuel, so a 20,000,000-fuel turn is
// 20 ms of it): deterministic too. arena.fuelLeft() and arena.fuelBudget() read the
// current call's budget. The arena instantiates the bot afresh for every
// match, so top-level variables start from their initial values in each match.
(function () {
  "use strict";
  const MODES = ["battle", "tcg", "grid", "dungeon", "conquest"];
  const bots = Object.create(null);
  let current = null;
  let started = null;
  let loadError = null;
  // Where each file of the bot starts in the script it was joined into: [name, first line].
  let fileLines = [];

  // ---- Randomness: xoshiro128**, seeded by SplitMix32 from the seed's decimal digits
  // (read from the request text: a JSON number above 2^53 would lose digits).
  const state = new Uint32Array(4);
  function reseed(digits) {
    let x = 0x9e3779b9;
    for (let i = 0; i < digits.length; i++) x = Math.imul(x ^ digits.charCodeAt(i), 0x85ebca6b) >>> 0;
    for (let i = 0; i < 4; i++) {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
      z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
      state[i] = (z ^ (z >>> 15)) >>> 0;
    }
    if ((state[0] | state[1] | state[2] | state[3]) === 0) state[0] = 1;
  }
  function next32() {
    const s = state;
    const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
    const t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result;
  }
  function rotl(x, k) {
    return (x << k) | (x >>> (32 - k));
  }
  /** A float in [0, 1) from the match's seeded stream (53 random bits). */
  function random() {
    return ((next32() >>> 5) * 67108864 + (next32() >>> 6)) / 9007199254740992;
  }
  reseed("0");
  Object.defineProperty(Math, "random", { value: random, writable: true, configurable: true });

  // ---- The log
  function show(value, depth) {
    if (typeof value === "string") return value;
    if (value instanceof Error) return value.stack ? `${value}\n${where(value.stack)}` : String(value);
    if (typeof value === "function") return `[function ${value.name || "anonymous"}]`;
    if (typeof value === "bigint") return `${value}n`;
    if (value === undefined || typeof value === "symbol") return String(value);
    try {
      const text = JSON.stringify(value, (_, v) => (typeof v === "bigint" ? `${v}n` : v));
      return text === undefined ? String(value) : text;
    } catch (e) {
      return String(value);
    }
  }
  const print = globalThis.console && globalThis.console.log;
  /** Write the arguments, separated by spaces, as one line of the arena's log. */
  function log(...args) {
    print(args.map(show).join(" "));
  }
  const console = { log, info: log, warn: log, error: log, debug: log, trace: log };
  Object.defineProperty(globalThis, "console", { value: console, writable: true, configurable: true });

  // ---- Errors: stack lines of the bot's script named by file and line
  function where(stack) {
    const lines = String(stack).split("\n");
    const out = [];
    for (const line of lines) {
      // The prelude's own frames (this file is arena.js to QuickJS) say nothing of the bot.
      if (line.includes("at eval (native)") || /\(arena\.js:\d+/.test(line)) break;
      out.push(
        line.replace(/<input>:(\d+)(:\d+)?/g, (all, n, col) => {
          const at = Number(n);
          let file = null;
          for (const f of fileLines) if (f[1] <= at) file = f;
          return file ? `${file[0]}:${at - file[1] + 1}${col || ""}` : all;
        }),
      );
    }
    return out.join("\n");
  }
  function message(e) {
    if (e instanceof Error) return String(e);
    try {
      return `uncaught ${show(e)}`;
    } catch (_) {
      return "uncaught exception";
    }
  }

  // ---- Registering bots
  function play(mode, bot) {
    if (!MODES.includes(mode)) throw new TypeError(`arena.play: no mode ${mode}; modes: ${MODES.join(", ")}`);
    if (!bot || typeof bot.setup !== "function" || typeof bot.act !== "function") {
      throw new TypeError(`arena.play: the ${mode} bot needs both setup and act functions`);
    }
    bots[mode] = bot;
  }
  function refusal(mode) {
    const modes = MODES.filter((m) => bots[m]);
    if (modes.length === 0) return "this bot plays no mode: call arena.playBattle (or another arena.play function) at the top of bot.js";
    const list = modes.length > 1 ? `${modes.slice(0, -1).join(", ")} and ${modes[modes.length - 1]}` : modes[0];
    return `this bot plays ${list} only, not ${mode}`;
  }

  // ---- Answering requests
  const fail = (text) => JSON.stringify({ error: text });
  function guarded(kind, run) {
    try {
      const answer = run();
      if (kind === "start" || kind === "end") return "{}";
      if (answer === undefined) return fail(`${kind === "setup" ? "setup" : "act"} returned undefined`);
      return JSON.stringify(answer);
    } catch (e) {
      log(`${kind}: ${message(e)}${e && e.stack ? `\n${where(e.stack)}` : ""}`);
      return fail(message(e));
    }
  }
  function call(text) {
    let request;
    try {
      request = JSON.parse(text);
    } catch (e) {
      return fail(`bad request: ${e}`);
    }
    const kind = request && typeof request === "object" ? Object.keys(request)[0] : undefined;
    const body = kind === undefined ? undefined : request[kind];
    switch (kind) {
      case "start": {
        const seed = /"seed"\s*:\s*(\d+)/.exec(text);
        reseed(seed ? seed[1] : String(body.seed));
        started = body;
        current = null;
        if (loadError !== null) return fail(loadError);
        const bot = bots[body.mode];
        if (!bot) return fail(refusal(body.mode));
        current = bot;
        return guarded("start", () => bot.start && bot.start(body));
      }
      case "setup":
      case "turn":
      case "end": {
        const bot = current;
        if (!bot) return fail("the first request must be `start` (of a mode this bot plays)");
        if (kind === "setup") return guarded(kind, () => bot.setup(body));
        if (kind === "turn") return guarded(kind, () => bot.act(body));
        return guarded(kind, () => bot.end && bot.end(body));
      }
    }
    return fail(`bad request: unknown request \`${kind}\``);
  }

  // ---- Loading the bot's files: one script, evaluated here so that an error in it is
  // an answer (every start says it), not a dead bot.
  function load(files) {
    let source = "";
    let line = 1;
    fileLines = [];
    for (const [name, text] of files) {
      const whole = text.endsWith("\n") ? text : `${text}\n`;
      fileLines.push([name, line]);
      source += whole;
      line += whole.split("\n").length - 1;
    }
    try {
      (0, eval)(source);
    } catch (e) {
      loadError = `the bot's script failed to load: ${message(e)}${e && e.stack ? ` ${where(e.stack).trim().split("\n")[0]}` : ""}`;
      log(`${message(e)}${e && e.stack ? `\n${where(e.stack)}` : ""}`);
    }
  }

  // ---- Helpers of the modes
  const MP_COSTS = { shield_slam: 5, rapid_strike: 5, fireball: 8, frostbolt: 3, heal: 4, smite: 7 };
  const DIRECTIONS = ["north", "east", "south", "west"];
  const OFFSETS = { north: [0, -1], east: [1, 0], south: [0, 1], west: [-1, 0], stay: [0, 0] };

  /**
   * The grid's static map (from the setup request) plus the heroes, graves and mine owners
   * of the last observation, with the starter kit's path finding (the Rust SDK's
   * grid::Board). Keep one from setup on and observe each turn.
   */
  class GridBoard {
    constructor(setup) {
      this.width = setup.width;
      this.height = setup.height;
      const n = setup.width * setup.height;
      // 0 empty, 1 wall, 2 well, 3+id mine.
      this.terrain = new Int32Array(n);
      this.occupant = new Int32Array(n); // hero id + 1
      this.grave = new Uint8Array(n);
      this.heroes = [];
      this.mines = [];
      for (const p of setup.walls) if (this.inside(p)) this.terrain[this.index(p)] = 1;
      for (const p of setup.wells) if (this.inside(p)) this.terrain[this.index(p)] = 2;
      setup.mines.forEach((p, id) => {
        if (this.inside(p)) this.terrain[this.index(p)] = 3 + id;
      });
    }
    inside(p) {
      return p.x >= 0 && p.y >= 0 && p.x < this.width && p.y < this.height;
    }
    index(p) {
      return p.y * this.width + p.x;
    }
    /** Take the heroes, graves and mine owners of an observation. */
    observe(observation) {
      this.occupant.fill(0);
      this.grave.fill(0);
      this.heroes = observation.heroes;
      this.mines = observation.mines;
      this.heroTeam = [];
      for (const h of observation.heroes) {
        this.heroTeam[h.id] = h.team;
        if (!h.dead && this.inside(h.pos)) this.occupant[this.index(h.pos)] = h.id + 1;
      }
      for (const p of observation.graves) if (this.inside(p)) this.grave[this.index(p)] = 1;
    }
    /** What p holds now: {kind: "empty"|"grave"|"wall"|"mine"|"well"|"hero", mine?, mineId?, hero?}; null off the board. */
    tile(p) {
      if (!this.inside(p)) return null;
      const i = this.index(p);
      const t = this.terrain[i];
      if (t === 1) return { kind: "wall" };
      if (t === 2) return { kind: "well" };
      if (t >= 3) return { kind: "mine", mineId: t - 3, mine: this.mines[t - 3] || { owner: null, team: null } };
      if (this.occupant[i] > 0) return { kind: "hero", hero: this.heroes.find((h) => h.id === this.occupant[i] - 1) };
      return { kind: this.grave[i] ? "grave" : "empty" };
    }
    /** p's neighbour in a direction; null off the board. */
    step(p, direction) {
      const [dx, dy] = OFFSETS[direction];
      const q = { x: p.x + dx, y: p.y + dy };
      return this.inside(q) ? q : null;
    }
    /**
     * Breadth-first from `from` to the nearest tile for which isTarget(pos, tile) holds:
     * paths run over walkable tiles (empty, graves), every tile next to a reached one is
     * tested, neighbours are tried north, east, south, west; `from` is never a target.
     * {target, distance, firstStep} or null.
     */
    nearest(from, isTarget) {
      return this.search(from, (i) => isTarget({ x: i % this.width, y: (i / this.width) | 0 }, this.tile({ x: i % this.width, y: (i / this.width) | 0 })));
    }
    /** nearest() with a test of the tile's index (y * width + x): no objects made per tile. */
    search(from, test) {
      if (!this.inside(from)) return null;
      const w = this.width;
      const h = this.height;
      const n = w * h;
      if (!this.visited || this.visited.length !== n) {
        this.visited = new Uint8Array(n);
        this.queue = new Int32Array(n);
        this.first = new Int8Array(n);
        this.dist = new Int32Array(n);
      }
      const { visited, queue, first, dist, terrain, occupant } = this;
      visited.fill(0);
      const start = from.y * w + from.x;
      visited[start] = 1;
      queue[0] = start;
      first[start] = -1;
      dist[start] = 0;
      let tail = 1;
      for (let head = 0; head < tail; head++) {
        const at = queue[head];
        const x = at % w;
        for (let d = 0; d < 4; d++) {
          let next;
          if (d === 0) next = at >= w ? at - w : -1;
          else if (d === 1) next = x + 1 < w ? at + 1 : -1;
          else if (d === 2) next = at + w < n ? at + w : -1;
          else next = x > 0 ? at - 1 : -1;
          if (next < 0 || visited[next]) continue;
          const step = first[at] < 0 ? d : first[at];
          if (test(next)) {
            return { target: { x: next % w, y: (next / w) | 0 }, distance: dist[at] + 1, firstStep: DIRECTIONS[step] };
          }
          if (terrain[next] === 0 && occupant[next] === 0) {
            visited[next] = 1;
            first[next] = step;
            dist[next] = dist[at] + 1;
            queue[tail++] = next;
          }
        }
      }
      return null;
    }
    nearestWell(from) {
      return this.search(from, (i) => this.terrain[i] === 2);
    }
    /** The nearest mine `team` does not own (unowned or the other team's). */
    nearestNonTeamMine(from, team) {
      return this.search(from, (i) => {
        const t = this.terrain[i];
        if (t < 3) return false;
        const mine = this.mines[t - 3];
        return !mine || mine.team === null || mine.team === undefined || mine.team !== team;
      });
    }
    /** The nearest living hero of the other team. */
    nearestEnemy(from, team) {
      return this.search(from, (i) => this.occupant[i] > 0 && this.terrain[i] === 0 && this.heroTeam[this.occupant[i] - 1] !== team);
    }
    /** The nearest living teammate. */
    nearestTeammate(from, team) {
      return this.search(from, (i) => this.occupant[i] > 0 && this.terrain[i] === 0 && this.heroTeam[this.occupant[i] - 1] === team);
    }
  }

  // The runner's readings of the budget (BigInts; absent outside the arena, under Node.js).
  const hostFuelLeft = globalThis.__arena_fuel_left;
  const hostFuelBudget = globalThis.__arena_fuel_budget;
  delete globalThis.__arena_fuel_left;
  delete globalThis.__arena_fuel_budget;

  const arena = {
    /** The ABI version this SDK speaks. */
    ABI_VERSION: 1,
    play,
    playBattle: (bot) => play("battle", bot),
    playTcg: (bot) => play("tcg", bot),
    playGrid: (bot) => play("grid", bot),
    playDungeon: (bot) => play("dungeon", bot),
    playConquest: (bot) => play("conquest", bot),
    log,
    /** The fuel the current call has left, after paying 100 for this read (0 outside the arena). */
    fuelLeft: () => (hostFuelLeft ? Number(hostFuelLeft()) : 0),
    /** The fuel the current call started with: the turn's budget in act and end, the setup budget in start and setup. */
    fuelBudget: () => (hostFuelBudget ? Number(hostFuelBudget()) : 0),
    /** The start request of the match being played (null before it). */
    start: () => started,
    /** A float in [0, 1) from the match seed's stream (what Math.random is). */
    random,
    /** An integer in [0, n) from the match seed's stream. */
    randomInt: (n) => Math.floor(random() * n),
    battle: {
      attack: (target) => ({ attack: { target } }),
      skill: () => "skill",
      /** The acting unit. */
      me: (o) => o.units[o.acting],
    },
    tcg: {
      endTurn: () => "end_turn",
      me: (o) => o.heroes[o.seat],
      opponent: (o) => o.heroes[1 - o.seat],
      handCard: (o, uid) => o.hand.find((c) => c.uid === uid) || null,
    },
    grid: {
      DIRECTIONS,
      OFFSETS,
      Board: GridBoard,
      me: (o) => o.heroes[o.acting],
    },
    dungeon: {
      onMonster: (ability, id) => ({ ability, target: { monster: id } }),
      onHero: (ability, id) => ({ ability, target: { hero: id } }),
      me: (o) => o.party[o.acting],
      /** The ability's mana cost. */
      mpCost: (ability) => MP_COSTS[ability] || 0,
      /**
       * The ability's power used by a unit of these stats and level: its damage, or what
       * it heals (docs/rules/dungeon.md, "Abilities").
       */
      power(ability, stats, level) {
        const { strength: s, constitution: c, intelligence: i, speed: v } = stats;
        const half = (x) => Math.floor(x / 2);
        switch (ability) {
          case "fight": return s;
          case "shield_slam": return half(s * 3);
          case "reckless_charge": case "backstab": case "bash": case "blood_rage": return s * 2;
          case "fireball": return 6 + half(i);
          case "frostbolt": return 3 + level;
          case "heal": case "regenerate": return c;
          case "smite": return 4 + half(i + c);
          case "rapid_strike": return 4 + v;
          case "tail_swipe": case "slash": return s + v;
          case "fire_breath": return half(i * 5);
          case "poison_breath": return half((i + c) * 3);
          case "life_drain": return half(i * 3);
          case "bite": return half(v);
        }
        return 0;
      },
      /** What damage does to a monster: dragons take 5 less. */
      damageTaken: (monster, damage) => (monster.family === "dragon" ? Math.max(damage, 5) - 5 : damage),
      isLegal: (o, action) => o.legal.some((a) => JSON.stringify(a) === JSON.stringify(action)),
    },
  };
  Object.defineProperty(globalThis, "arena", { value: Object.freeze(arena), enumerable: true });
  Object.defineProperty(globalThis, "__arena_call", { value: call });
  Object.defineProperty(globalThis, "__arena_load", { value: load });
})();
