"""Mode conquest (Little Battle), a port of the Rust conquest-starter. Rules: the arena's
docs/rules/conquest.md.

How a match goes for your bot:

- `setup` is called once with the map's size, both home bases and the year limit. There
  is nothing to choose: answer conquest.SetupChoice() ({} on the wire).
- `act` is called on each of your turns with the whole state: the map (water and the
  resources still lying there), every army of both players, your resources, the prices
  and the year. Answer conquest.Orders: recruit orders (a kind onto a free tile next to
  your home), then move orders (an army's tile and its destination). Orders are carried
  out in the order given; a broken one is skipped and explained in the next
  observation's last_rejected.

Spearman beats knight, knight beats archer, archer beats spearman, everyone beats the
scout, equals destroy each other. Walking onto wood, food or gold collects 2 of it;
walking into water drowns the army; walking onto the enemy home wins.
"""

import arena
from arena import conquest
from arena.conquest import FIRST, HOME, RESOURCE, Army, Kind, Move, Orders, Pos, Recruit

COLLECTORS = 3
"""How many armies the bot keeps while resources lie on the map."""

# Our copy of the board, and how far apart tiles are around water. Only water blocks and
# it never changes during a game, so each search is done once and kept from turn to turn.
board = conquest.Board()
distances = conquest.Distances()


def setup(request: conquest.SetupRequest) -> conquest.SetupChoice:
    return conquest.SetupChoice()


def act(obs: conquest.Observation) -> conquest.Orders:
    """Collect, then march on the enemy home; never step into water or a lost fight."""
    board.update(obs)
    distances.fit(board)
    orders = Orders()
    stock = obs.resources

    # Recruit stage: keep a few collectors while there is something to collect, and
    # everything we can afford once the map is bare. Pick the kind that beats the enemy's
    # commonest kind.
    wanted = COLLECTORS if board.resource_tiles() else 1 << 30
    armies = len(obs.mine())
    for k, at in enumerate(board.recruit_spots(obs.seat)):
        if armies + k >= wanted:
            break
        favourite = counter_of_most(obs)
        kind = None
        for candidate in (favourite, Kind.SPEARMAN, Kind.ARCHER, Kind.KNIGHT):
            if stock.covers(conquest.price(candidate)):
                kind = candidate
                break
        if kind is None:
            break
        stock = stock.pay(conquest.price(kind))
        orders.recruit.append(Recruit(kind, at))
        # Put it on our copy of the board (a made-up id, far from the real ones) so its
        # move below sees it.
        board.place(Army((1 << 31) + k, obs.seat, kind, at))

    # Move stage: each army goes for the nearest resource nobody else is after, or for the
    # enemy home; it captures or wins a fight whenever it can.
    claimed = []
    mine = [a for a in board.armies if a.owner == obs.seat]
    for army in mine:
        unclaimed = [p for p, _ in board.resource_tiles() if p not in claimed]
        goal = obs.enemy_home()
        nearest = distances.nearest(army.pos, unclaimed)
        if nearest is not None:
            goal = nearest[1]
        claimed.append(goal)

        def steps(p: Pos) -> int:
            s = distances.between(p, goal)
            return 1 << 32 if s is None else s

        # Never into water or a lost or even fight (a scout's middle tile too). The best
        # tile wins there first, then is nearest the goal (of equals, the first listed).
        best, best_wins = None, False
        for to in board.safe_destinations(army):
            wins = wins_there(army, to)
            if best is None or wins and not best_wins or wins == best_wins and steps(to) < steps(best):
                best, best_wins = to, wins
        if best is None:
            continue
        if steps(best) < steps(army.pos) or wins_there(army, best):
            orders.moves.append(Move(army.pos, best))
            # Keep our copy of the board in step (the tile is now ours, any resource there
            # is gone).
            enemy = board.army_at(best)
            if enemy is not None and enemy.owner != obs.seat:
                board.remove(enemy.id)
            if board.terrain(best).kind == RESOURCE:
                board.set_terrain(best, conquest.Terrain())
            board.relocate(army.id, best)
    return orders


def counter_of_most(obs: conquest.Observation) -> str:
    """The kind that beats the most enemy armies (of equals, the last of spearman, archer,
    knight)."""
    best, best_count = Kind.SPEARMAN, -1
    enemies = obs.enemies()
    for k in (Kind.SPEARMAN, Kind.ARCHER, Kind.KNIGHT):
        count = sum(1 for e in enemies if conquest.fight(k, e.kind) == FIRST)
        if count >= best_count:
            best, best_count = k, count
    return best


def wins_there(army: Army, to: Pos) -> bool:
    """Whether the move captures the enemy home or defeats an enemy army."""
    t = board.terrain(to)
    if t.kind == HOME and t.seat != army.owner:
        return True
    enemy = board.army_at(to)
    return enemy is not None and enemy.owner != army.owner and conquest.fight(army.kind, enemy.kind) == FIRST


arena.play_conquest(setup, act)
