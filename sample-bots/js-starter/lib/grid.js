// Mode grid (JS Battle), a port of the Rust grid-starter. Rules: the arena's
// docs/rules/grid.md.
//
// How a match goes for your bot:
//
//   - setup is called once with the static board (size, walls, mines, wells, your team).
//     There is nothing to choose: answer {}.
//   - act is called on every turn of one of your heroes. The observation holds the whole
//     state: every hero (arena.grid.me(observation) is the one to move), every mine's
//     owner, the graves and both teams' diamonds. Answer a direction ("north", "east",
//     "south", "west") or "stay".
//
// Walking into things is how a hero acts: into a mine captures it (−20 health), into a
// well drinks (+30), into an enemy stabs it (−10 to it), into a teammate heals it (+40).
// After its move, a living hero deals 20 damage to every enemy next to it. A team wins by
// killing every enemy hero, or by having more diamonds after the turn limit.

// The health at or below which a hero goes to drink.
const GRID_THIRSTY = 40;
// The health a hero needs before it pays 20 health to capture a mine.
const GRID_FIT_TO_MINE = 60;

// The static map plus path finding, kept between turns (the arena runs a fresh instance
// of the bot for every match).
let gridBoard = null;

arena.playGrid({
  setup(request) {
    // Remember the static board: walls, mines and wells never change.
    gridBoard = new arena.grid.Board(request);
    return {};
  },

  act(observation) {
    if (gridBoard === null) return "stay";
    const board = gridBoard;
    // Put this turn's heroes, graves and mine owners on the board.
    board.observe(observation);
    const me = arena.grid.me(observation);
    // Every nearest* helper does a breadth-first search around walls, mines, wells and
    // heroes and answers the first step of a shortest path (firstStep), how far the target
    // is (distance, 1 = right next to us) and where it is (target); null if none.

    // 1. Hurt: drink at the nearest well (stepping into the well drinks from it).
    if (me.health <= GRID_THIRSTY) {
      const well = board.nearestWell(me.pos);
      if (well) return well.firstStep;
    }
    // 2. An enemy right next to us: stab it (with the adjacent damage, 30 damage).
    const enemy = board.nearestEnemy(me.pos, me.team);
    if (enemy && enemy.distance === 1) return enemy.firstStep;
    // 3. Healthy enough: capture the nearest mine our team does not own yet.
    if (me.health > GRID_FIT_TO_MINE) {
      const mine = board.nearestNonTeamMine(me.pos, me.team);
      if (mine) return mine.firstStep;
    }
    // 4. Nothing else to do: hunt the nearest enemy (or stay if none can be reached).
    return enemy ? enemy.firstStep : "stay";
  },
});
