"""Mode grid (JS Battle), a port of the Rust grid-starter. Rules: the arena's
docs/rules/grid.md.

How a match goes for your bot:

- `setup` is called once with the static board (size, walls, mines, wells, your team).
  There is nothing to choose: answer grid.SetupChoice() ({} on the wire).
- `act` is called on every turn of one of your heroes. The observation holds the whole
  state: every hero (observation.me() is the one to move), every mine's owner, the
  graves and both teams' diamonds. Answer a direction (grid.NORTH … or grid.STAY).

Walking into things is how a hero acts: into a mine captures it (−20 health), into a well
drinks (+30), into an enemy stabs it (−10 to it), into a teammate heals it (+40). After
its move, a living hero deals 20 damage to every enemy next to it. A team wins by killing
every enemy hero, or by having more diamonds after the turn limit (one diamond per owned
mine at the start of each of the owner's turns).
"""

import arena
from arena import grid

THIRSTY = 40
"""The health at or below which a hero goes to drink."""
FIT_TO_MINE = 60
"""The health a hero needs before it pays 20 health to capture a mine."""

# The static map plus path finding, kept between turns (the arena runs a fresh instance
# of the bot for every match).
board = None


def setup(request: grid.SetupRequest) -> grid.SetupChoice:
    global board
    # Remember the static board: walls, mines and wells never change.
    board = grid.Board(request)
    return grid.SetupChoice()


def act(observation: grid.Observation) -> str:
    if board is None:
        return grid.STAY
    # Put this turn's heroes, graves and mine owners on the board.
    board.observe(observation)
    me = observation.me()

    # Every nearest_* helper does a breadth-first search around walls, mines, wells and
    # heroes and answers the first step of a shortest path (first_step), how far the
    # target is (distance, 1 = right next to us) and where it is (target).

    # 1. Hurt: drink at the nearest well (stepping into the well drinks from it).
    if me.health <= THIRSTY:
        well = board.nearest_well(me.pos)
        if well is not None:
            return well.first_step

    # 2. An enemy right next to us: stab it. With the adjacent damage at the end of the
    #    turn that is 30 damage.
    enemy = board.nearest_enemy(me.pos, me.team)
    if enemy is not None and enemy.distance == 1:
        return enemy.first_step

    # 3. Healthy enough: capture the nearest mine our team does not own yet.
    if me.health > FIT_TO_MINE:
        mine = board.nearest_non_team_mine(me.pos, me.team)
        if mine is not None:
            return mine.first_step

    # 4. Nothing else to do: hunt the nearest enemy (or stay if none can be reached).
    if enemy is not None:
        return enemy.first_step
    return grid.STAY


arena.play_grid(setup, act)
