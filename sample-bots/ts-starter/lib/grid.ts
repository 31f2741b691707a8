// Mode grid (JS Battle), a port of the Rust grid-starter; rules: docs/rules/grid.md.
// Walking into a mine captures it (−20 health), into a well drinks (+30), into an enemy
// stabs it, into a teammate heals it.

const GRID_THIRSTY = 40;
const GRID_FIT_TO_MINE = 60;
let gridBoard: arena.grid.Board | null = null;

arena.playGrid({
  setup(request: arena.grid.SetupRequest): arena.grid.SetupChoice {
    gridBoard = new arena.grid.Board(request);
    return {};
  },

  act(observation: arena.grid.Observation): arena.grid.Action {
    if (gridBoard === null) return "stay";
    const board = gridBoard;
    board.observe(observation);
    const me = arena.grid.me(observation);
    // 1. Hurt: drink at the nearest well.
    if (me.health <= GRID_THIRSTY) {
      const well = board.nearestWell(me.pos);
      if (well) return well.firstStep;
    }
    // 2. An enemy right next to us: stab it.
    const enemy = board.nearestEnemy(me.pos, me.team);
    if (enemy && enemy.distance === 1) return enemy.firstStep;
    // 3. Healthy enough: capture the nearest mine our team does not own yet.
    if (me.health > GRID_FIT_TO_MINE) {
      const mine = board.nearestNonTeamMine(me.pos, me.team);
      if (mine) return mine.firstStep;
    }
    // 4. Hunt the nearest enemy (or stay if none can be reached).
    return enemy ? enemy.firstStep : "stay";
  },
});
