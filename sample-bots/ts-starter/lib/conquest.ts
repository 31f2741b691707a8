// Mode conquest (Little Battle), a port of the Rust conquest-starter; rules:
// docs/rules/conquest.md. Spearman beats knight, knight beats archer, archer beats
// spearman, everyone beats the scout, equals destroy each other.

type ConquestKind = arena.conquest.Kind;
type ConquestPos = arena.conquest.Pos;
type ConquestStock = arena.conquest.Resources;

const CONQUEST_COLLECTORS = 3;
const CONQUEST_DIRECTIONS: [number, number][] = [[0, -1], [1, 0], [0, 1], [-1, 0]];
const CONQUEST_PRICES: Record<ConquestKind, ConquestStock> = {
  spearman: { wood: 1, food: 1, gold: 0 },
  archer: { wood: 1, food: 0, gold: 1 },
  knight: { wood: 0, food: 1, gold: 1 },
  scout: { wood: 1, food: 1, gold: 1 },
};
const CONQUEST_BEATS: Partial<Record<ConquestKind, ConquestKind>> = { spearman: "knight", knight: "archer", archer: "spearman" };

/** Whether the army that moves in (a) wins the fight against b. */
function conquestWins(a: ConquestKind, b: ConquestKind): boolean {
  return a !== b && (CONQUEST_BEATS[a] === b || b === "scout");
}

// Steps to each goal around water, kept from turn to turn (water never changes).
let conquestFields = new Map<number, Int32Array>();
let conquestWaterKey = "";

arena.playConquest({
  setup(_request: arena.conquest.SetupRequest): arena.conquest.SetupChoice {
    return {};
  },

  act(obs: arena.conquest.Observation): arena.conquest.Orders {
    const { width, height, seat } = obs;
    const key = (p: ConquestPos) => p.y * width + p.x;
    // A tile's index in column-first order (x, then y), from its reading-order index.
    const columnFirst = (i: number) => (i % width) * height + Math.floor(i / width);
    const inside = (p: ConquestPos) => p.x >= 0 && p.y >= 0 && p.x < width && p.y < height;
    const water = new Set(obs.water.map(key));
    const wet = new Uint8Array(width * height);
    for (const w of water) wet[w] = 1;
    const waterKey = `${width}x${height}:${obs.water.map(key).join(",")}`;
    if (waterKey !== conquestWaterKey) {
      conquestWaterKey = waterKey;
      conquestFields = new Map();
    }
    const fieldFrom = (from: ConquestPos): Int32Array => {
      const field = new Int32Array(width * height).fill(-1);
      field[key(from)] = 0;
      const queue = [key(from)];
      for (let head = 0; head < queue.length; head++) {
        const at = queue[head];
        const x = at % width;
        const next = field[at] + 1;
        // Up, right, down, left, as indices (no objects in this loop: it runs most).
        for (let d = 0; d < 4; d++) {
          let q: number;
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
    const between = (from: ConquestPos, goal: ConquestPos): number => {
      let field = conquestFields.get(key(goal));
      if (!field) {
        field = fieldFrom(goal);
        conquestFields.set(key(goal), field);
      }
      const d = field[key(from)];
      return d < 0 ? Infinity : d;
    };

    const armyAt = new Map<number, arena.conquest.Army>(obs.armies.map((a) => [key(a.pos), { ...a }]));
    const resources = new Set([...obs.wood, ...obs.food, ...obs.gold].map(key));
    const home = obs.homes[Math.min(seat, 1)];
    const enemyHome = obs.homes[1 - Math.min(seat, 1)];
    const isOwn = (p: ConquestPos) => key(p) === key(home) || armyAt.get(key(p))?.owner === seat;
    const orders: arena.conquest.Orders = { recruit: [], moves: [] };
    let stock: ConquestStock = { ...obs.resources };
    const covers = (price: ConquestStock) => stock.wood >= price.wood && stock.food >= price.food && stock.gold >= price.gold;

    // Recruit: a few collectors while resources lie on the map, everything affordable
    // after; the kind that beats the enemy's commonest kind first.
    const wanted = resources.size === 0 ? Infinity : CONQUEST_COLLECTORS;
    const enemies = obs.armies.filter((a) => a.owner !== seat);
    let favourite: ConquestKind = "spearman";
    let favouriteCount = -1;
    for (const kind of ["spearman", "archer", "knight"] as ConquestKind[]) {
      const count = enemies.filter((e) => conquestWins(kind, e.kind)).length;
      if (count >= favouriteCount) [favourite, favouriteCount] = [kind, count];
    }
    let armies = obs.armies.length - enemies.length;
    let made = 0;
    for (const [dx, dy] of CONQUEST_DIRECTIONS) {
      const at = { x: home.x + dx, y: home.y + dy };
      if (!inside(at) || water.has(key(at)) || resources.has(key(at)) || armyAt.has(key(at)) || key(at) === key(enemyHome)) continue;
      if (armies >= wanted) break;
      const kind = ([favourite, "spearman", "archer", "knight"] as ConquestKind[]).find((k) => covers(CONQUEST_PRICES[k]));
      if (kind === undefined) break;
      const price = CONQUEST_PRICES[kind];
      stock = { wood: stock.wood - price.wood, food: stock.food - price.food, gold: stock.gold - price.gold };
      orders.recruit.push({ kind, at });
      armyAt.set(key(at), { id: 0x7fffffff + made++, owner: seat, kind, pos: at });
      armies++;
    }

    // Move: each army to the nearest unclaimed resource, else the enemy home; never into
    // water or a lost or even fight.
    const winsThere = (army: arena.conquest.Army, to: ConquestPos) => {
      if (key(to) === key(enemyHome)) return true;
      const other = armyAt.get(key(to));
      return other !== undefined && other.owner !== army.owner && conquestWins(army.kind, other.kind);
    };
    const safeDestinations = (army: arena.conquest.Army) => {
      const out: ConquestPos[] = [];
      for (const [dx, dy] of CONQUEST_DIRECTIONS) {
        for (let k = 1; k <= (army.kind === "scout" ? 2 : 1); k++) {
          const p = { x: army.pos.x + dx * k, y: army.pos.y + dy * k };
          if (!inside(p) || water.has(key(p))) break;
          const other = armyAt.get(key(p));
          if (other && other.owner !== army.owner && !conquestWins(army.kind, other.kind)) break;
          if (!isOwn(p)) out.push(p);
        }
      }
      return out;
    };
    const claimed = new Set<number>();
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
          goal = { x: r % width, y: Math.floor(r / width) };
          goalSteps = around[r];
        }
      }
      claimed.add(key(goal));
      const steps = (p: ConquestPos) => between(p, goal);
      let best: ConquestPos | null = null;
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
      armyAt.delete(key(army.pos));
      army.pos = best;
      armyAt.set(key(best), army);
      resources.delete(key(best));
    }
    return orders;
  },
});
