// The JavaScript SDK's API (sdk/js/arena.js, the `arena` global) for TypeScript bots; the
// protocol's types (arena.battle.Observation, …) are in protocol.d.ts, generated from the
// Rust SDK's types. The arena compiles every bot.ts with both files.

declare namespace arena {
  /** The bot of one mode: setup and act are required, start and end optional. */
  interface Bot<R, S, C, O, A> {
    /** The match begins: mode, seat, seed and the mode's rules. */
    start?(start: MatchStart<R>): void;
    /** Answer the setup request (a team, a deck, a party, or {}). */
    setup(request: S): C;
    /** Answer one turn. */
    act(observation: O): A;
    /** The match is over. */
    end?(end: MatchEnd): void;
  }

  /** The ABI version this SDK speaks. */
  const ABI_VERSION: 1;

  /** Register `bot` for `mode`, replacing any bot registered for it before. */
  function play(mode: Mode, bot: Bot<any, any, any, any, any>): void;
  function playBattle(bot: battle.Bot): void;
  function playTcg(bot: tcg.Bot): void;
  function playGrid(bot: grid.Bot): void;
  function playDungeon(bot: dungeon.Bot): void;
  function playConquest(bot: conquest.Bot): void;

  /**
   * Write the arguments, separated by spaces (objects as JSON), as one line of the arena's
   * log; console.log does the same. The host keeps 4 KiB and 100 lines per request, and
   * each line costs fuel (10,000 plus 10 per byte).
   */
  function log(...args: unknown[]): void;
  /**
   * The fuel the current call has left, after paying 100 fuel for this read (docs/abi.md,
   * "Imports"); 0 outside the arena. A bot that thinks until it has spent 80 % of its turn:
   * `const stop = arena.fuelBudget() / 5; while (arena.fuelLeft() > stop && improve(plan)) {}`
   */
  function fuelLeft(): number;
  /**
   * The fuel the current call started with: the turn's budget in `act` and `end`, the setup
   * budget in `start` and `setup` (100 fuel a read); 0 outside the arena.
   */
  function fuelBudget(): number;
  /** The start request of the match being played (null before it). */
  function start(): MatchStart | null;
  /** A float in [0, 1) from the match seed's stream (what Math.random is). */
  function random(): number;
  /** An integer in [0, n) from the match seed's stream. */
  function randomInt(n: number): number;

  namespace battle {
    function attack(target: number): Action;
    function skill(): Action;
    /** The acting unit. */
    function me(observation: Observation): Unit;
  }

  namespace tcg {
    function endTurn(): Action;
    /** The receiving bot's hero. */
    function me(observation: Observation): Hero;
    /** The other hero. */
    function opponent(observation: Observation): Hero;
    /** The hand card with this uid, or null. */
    function handCard(observation: Observation, uid: number): CardInstance | null;
  }

  namespace grid {
    type Direction = "north" | "east" | "south" | "west";
    /** north, east, south, west: the order searches try. */
    const DIRECTIONS: readonly Direction[];
    /** Each answer's step [dx, dy] (y grows southwards). */
    const OFFSETS: { readonly [A in Action]: readonly [number, number] };
    /** The hero to move. */
    function me(observation: Observation): Hero;

    /** What a tile holds now. */
    interface Tile {
      kind: "empty" | "grave" | "wall" | "mine" | "well" | "hero";
      /** For a mine: its id and owners. */
      mineId?: number;
      mine?: Mine;
      /** For a hero: the hero. */
      hero?: Hero;
    }
    /** A search's answer: the target found, how many steps away (1: next to the start), and the first step there. */
    interface PathStep {
      target: Pos;
      distance: number;
      firstStep: Direction;
    }
    /**
     * The static map of a setup request plus the heroes, graves and mine owners of the last
     * observation, with the starter kit's path finding (the Rust SDK's grid::Board). Keep
     * one from setup on and observe each turn.
     */
    class Board {
      constructor(setup: SetupRequest);
      readonly width: number;
      readonly height: number;
      /** Take the heroes, graves and mine owners of an observation. */
      observe(observation: Observation): void;
      /** What p holds now; null off the board. */
      tile(p: Pos): Tile | null;
      /** p's neighbour in a direction; null off the board. */
      step(p: Pos, direction: Direction): Pos | null;
      /**
       * Breadth-first from `from` to the nearest tile for which isTarget holds: paths run
       * over walkable tiles (empty, graves), every tile next to a reached one is tested,
       * neighbours are tried north, east, south, west; `from` is never a target.
       */
      nearest(from: Pos, isTarget: (pos: Pos, tile: Tile) => boolean): PathStep | null;
      /** nearest() with a test of the tile's index (y * width + x). */
      search(from: Pos, test: (index: number) => boolean): PathStep | null;
      nearestWell(from: Pos): PathStep | null;
      /** The nearest mine `team` does not own (unowned or the other team's). */
      nearestNonTeamMine(from: Pos, team: number): PathStep | null;
      /** The nearest living hero of the other team. */
      nearestEnemy(from: Pos, team: number): PathStep | null;
      /** The nearest living teammate. */
      nearestTeammate(from: Pos, team: number): PathStep | null;
    }
  }

  namespace dungeon {
    function onMonster(ability: Ability, id: number): Action;
    function onHero(ability: Ability, id: number): Action;
    /** The acting hero. */
    function me(observation: Observation): Hero;
    /** Whether the action is one of observation.legal. */
    function isLegal(observation: Observation, action: Action): boolean;
    /** The ability's mana cost. */
    function mpCost(ability: Ability): number;
    /** The ability's power used by a unit of these stats and level: its damage, or what it heals. */
    function power(ability: Ability, stats: Stats, level: number): number;
    /** What damage does to a monster: dragons take 5 less. */
    function damageTaken(monster: Monster, damage: number): number;
  }
}

/** The arena's log (arena.log). */
declare const console: {
  log(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
  debug(...args: unknown[]): void;
  trace(...args: unknown[]): void;
};
