// Mode conquest (Little Battle), a port of the Rust conquest-starter. Rules: the arena's
// docs/rules/conquest.md.
//
// How a match goes for your bot:
//
//   - setup is called once with the map's size, both home bases and the year limit.
//     There is nothing to choose: answer {}.
//   - act is called on each of your turns with the whole state: the map (water and the
//     resources still lying there), every army of both players, your resources, the prices
//     and the year. Answer orders: recruit orders (a kind onto a free tile next to your
//     home), then move orders (an army's tile and its destination). Orders are carried out
//     in the order given; a broken one is skipped and explained in last_rejected.
//
// Spearman beats knight, knight beats archer, archer beats spearman, everyone beats the
// scout, equals destroy each other. Walking onto wood, food or gold collects 2 of it;
// walking into water drowns the army; walking onto the enemy home wins.

// How many armies the bot keeps while resources lie on the map.
const CONQUEST_COLLECTORS = 3;
// Up, right, down, left.
const CONQUEST_DIRECTIONS = [[0, -1], [1, 0], [0, 1], [-1, 0]];
const CONQUEST_PRICES = {
  spearman: { wood: 1, food: 1, gold: 0 },
  archer: { wood: 1, food: 0, gold: 1 },
  knight: { wood: 0, food: 1, gold: 1 },
  scout: { wood: 1, food: 1, gold: 1 },
};
const CONQUEST_BEATS = { spearman: "knight", knight: "archer", archer: "spearman" };

/** Who leaves a fight alive: "first" (the army that moved in), "second" or "neither". */
function conquestFight(a, b) {
  if (a === b) return "neither";
  return CONQUEST_BEATS[a] === b || b === "scout" ? "first" : "second";
}

// Steps between tiles around water, by goal: water never changes during a game, so each
// search is done once and kept from turn to turn.
let conquestDistanceMaps = new Map();
let conquestWaterKey = "";

arena.playConquest({
  setup() {
    return {};
  },

  // Collect, then march on the enemy home; never step into water or a lost fight.
  act(obs) {
    const { width, height, seat } = obs;
    const inside = (p) => p.x >= 0 && p.y >= 0 && p.x < width && p.y < height;
    const key = (p) => p.y * width + p.x;
    // A tile's index in column-first order (x, then y), from its reading-order index.
    const columnFirst = (i) => (i % width) * height + Math.floor(i / width);
    const water = new Set(obs.water.map(key));
    const wet = new Uint8Array(width * height);
    for (const w of water) wet[w] = 1;
    const waterKey = `${width}x${height}:${obs.water.map(key).join(",")}`;
    if (waterKey !== conquestWaterKey) {
      conquestWaterKey = waterKey;
      conquestDistanceMaps = new Map();
    }
    // Steps from `from` to every tile around water (not kept: armies move).
    const fieldFrom = (from) => {
      const field = new Int32Array(width * height).fill(-1);
      field[key(from)] = 0;
      const queue = [key(from)];
      for (let head = 0; head < queue.length; head++) {
        const at = queue[head];
        const x = at % width;
        const next = field[at] + 1;
        // Up, right, down, left, as indices (no objects in this loop: it runs most).
        for (let d = 0; d < 4; d++) {
          let q;
          if (d === 0) q = at >= width ? at - width : -1;
          else if (d === 1) q = x + 1 < width ? at + 1 : -1;
          else if (d === 2) q = at + width < width * height ? at + width : -1;
          else q = x > 0 ? at - 1 : -1;
          if (q < 0 || field[q] >= 0 || wet[q]) continue;
          field[q] = next;
          queue.push(q);
        }
      }
      return field;
    };
    const distances = (goal) => {
      let field = conquestDistanceMaps.get(key(goal));
      if (!field) {
        field = fieldFrom(goal);
        conquestDistanceMaps.set(key(goal), field);
      }
      return field;
    };
    const between = (from, goal) => {
      const d = distances(goal)[key(from)];
      return d < 0 ? Infinity : d;
    };

    // Our copy of the board: armies by tile, resources still there.
    const armyAt = new Map(obs.armies.map((a) => [key(a.pos), { ...a }]));
    const resources = new Set([...obs.wood, ...obs.food, ...obs.gold].map(key));
    const home = obs.homes[Math.min(seat, 1)];
    const enemyHome = obs.homes[1 - Math.min(seat, 1)];
    const isOwn = (p) => (p.x === home.x && p.y === home.y) || (armyAt.has(key(p)) && armyAt.get(key(p)).owner === seat);
    const orders = { recruit: [], moves: [] };
    let stock = { ...obs.resources };
    const covers = (price) => stock.wood >= price.wood && stock.food >= price.food && stock.gold >= price.gold;

    // Recruit stage: keep a few collectors while there is something to collect, and
    // everything we can afford once the map is bare. Pick the kind that beats the enemy's
    // commonest kind.
    const wanted = resources.size === 0 ? Infinity : CONQUEST_COLLECTORS;
    const enemies = obs.armies.filter((a) => a.owner !== seat);
    let favourite = "spearman";
    let favouriteCount = -1;
    for (const kind of ["spearman", "archer", "knight"]) {
      const count = enemies.filter((e) => conquestFight(kind, e.kind) === "first").length;
      if (count >= favouriteCount) [favourite, favouriteCount] = [kind, count];
    }
    let armies = obs.armies.length - enemies.length;
    let made = 0;
    for (const [dx, dy] of CONQUEST_DIRECTIONS) {
      const at = { x: home.x + dx, y: home.y + dy };
      if (!inside(at) || water.has(key(at)) || resources.has(key(at)) || armyAt.has(key(at))) continue;
      if (key(at) === key(enemyHome)) continue;
      if (armies >= wanted) break;
      const kind = [favourite, "spearman", "archer", "knight"].find((k) => covers(CONQUEST_PRICES[k]));
      if (kind === undefined) break;
      const price = CONQUEST_PRICES[kind];
      stock = { wood: stock.wood - price.wood, food: stock.food - price.food, gold: stock.gold - price.gold };
      orders.recruit.push({ kind, at });
      // On our copy of the board so that its move below sees it (a made-up id).
      armyAt.set(key(at), { id: 0x7fffffff + made++, owner: seat, kind, pos: at });
      armies++;
    }

    // Move stage: each army goes for the nearest resource nobody else is after, or for the
    // enemy home; it captures or wins a fight whenever it can.
    const winsThere = (army, to) => {
      if (to.x === enemyHome.x && to.y === enemyHome.y) return true;
      const other = armyAt.get(key(to));
      return other !== undefined && other.owner !== army.owner && conquestFight(army.kind, other.kind) === "first";
    };
    // Where the army may go and arrive alive: no water on the way, no lost or even fight.
    const safeDestinations = (army) => {
      const out = [];
      for (const [dx, dy] of CONQUEST_DIRECTIONS) {
        for (let k = 1; k <= (army.kind === "scout" ? 2 : 1); k++) {
          const p = { x: army.pos.x + dx * k, y: army.pos.y + dy * k };
          if (!inside(p) || water.has(key(p))) break;
          const other = armyAt.get(key(p));
          if (other && other.owner !== army.owner && conquestFight(army.kind, other.kind) !== "first") break;
          if (!isOwn(p)) out.push(p);
        }
      }
      return out;
    };
    const claimed = new Set();
    const mine = [...armyAt.values()].filter((a) => a.owner === seat).sort((a, b) => a.id - b.id);
    for (const army of mine) {
      // The nearest unclaimed resource around water (of equals, the first by column, then
      // row: the other languages' order of tiles), else the enemy home.
      let goal = enemyHome;
      let goalSteps = Infinity;
      const around = fieldFrom(army.pos);
      for (const r of resources) {
        if (claimed.has(r) || around[r] < 0) continue;
        if (around[r] < goalSteps || (around[r] === goalSteps && columnFirst(r) < columnFirst(key(goal)))) {
          [goal, goalSteps] = [{ x: r % width, y: Math.floor(r / width) }, around[r]];
        }
      }
      claimed.add(key(goal));
      const steps = (p) => between(p, goal);
      let best = null;
      let bestWins = false;
      for (const to of safeDestinations(army)) {
        const wins = winsThere(army, to);
        if (best === null || (wins && !bestWins) || (wins === bestWins && steps(to) < steps(best))) {
          best = to;
          bestWins = wins;
        }
      }
      if (best === null || !(steps(best) < steps(army.pos) || bestWins)) continue;
      orders.moves.push({ from: army.pos, to: best });
      // Keep our copy of the board in step.
      armyAt.delete(key(army.pos));
      army.pos = best;
      armyAt.set(key(best), army);
      resources.delete(key(best));
    }
    return orders;
  },
});
