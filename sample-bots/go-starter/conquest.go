// Mode conquest (Little Battle), a port of the Rust conquest-starter. Rules: the arena's
// docs/rules/conquest.md.
//
// How a match goes for your bot:
//
//   - conquestSetup is called once with the map's size, both home bases and the year
//     limit. There is nothing to choose: answer conquest.SetupChoice{} ({} on the wire).
//   - conquestAct is called on each of your turns with the whole state: the map (water
//     and the resources still lying there), every army of both players, your resources,
//     the prices and the year. Answer conquest.Orders: recruit orders (a kind onto a free
//     tile next to your home), then move orders (an army's tile and its destination).
//     Orders are carried out in the order given; a broken one is skipped and explained in
//     the next observation's LastRejected.
//
// Spearman beats knight, knight beats archer, archer beats spearman, everyone beats the
// scout, equals destroy each other. Walking onto wood, food or gold collects 2 of it;
// walking into water drowns the army; walking onto the enemy home wins.

package main

import (
	"math"

	"botarena.invalid/sdk/arena"
	"botarena.invalid/sdk/conquest"
)

// conquestCollectors is how many armies the bot keeps while resources lie on the map.
const conquestCollectors = 3

var (
	// conquestBoard is our copy of the board, kept so that its memory serves every turn.
	conquestBoard conquest.Board
	// conquestDistances is how far apart tiles are around water. Only water blocks and it
	// never changes during a game, so each search is done once and kept from turn to turn.
	conquestDistances conquest.Distances
)

func init() { arena.PlayConquest(conquestSetup, conquestAct) }

func conquestSetup(*conquest.SetupRequest) conquest.SetupChoice {
	return conquest.SetupChoice{}
}

// conquestAct collects, then marches on the enemy home; it never steps into water or a
// lost fight.
func conquestAct(obs *conquest.Observation) conquest.Orders {
	// Board answers "what is on this tile", "where may this army go"; Distances "how far
	// around water" (its searches are kept if the map is the same).
	board, distances := &conquestBoard, &conquestDistances
	board.Update(obs)
	distances.Fit(board)
	var orders conquest.Orders
	stock := obs.Resources

	// Recruit stage: keep a few collectors while there is something to collect, and
	// everything we can afford once the map is bare. Pick the kind that beats the enemy's
	// commonest kind.
	wanted := conquestCollectors
	if len(board.ResourceTiles()) == 0 {
		wanted = math.MaxInt
	}
	armies := len(obs.Mine())
	// Recruits get made-up ids on our copy of the board, far from the real ones.
	for k, at := range board.RecruitSpots(obs.Seat) {
		if armies+k >= wanted {
			break
		}
		favourite := conquestCounterOfMost(obs)
		var kind conquest.Kind
		for _, candidate := range []conquest.Kind{favourite, conquest.KindSpearman, conquest.KindArcher, conquest.KindKnight} {
			if stock.Covers(candidate.Price()) {
				kind = candidate
				break
			}
		}
		if kind == "" {
			break
		}
		if paid, ok := stock.Pay(kind.Price()); ok {
			stock = paid
		}
		orders.Recruit = append(orders.Recruit, conquest.Recruit{Kind: kind, At: at})
		// Put it on our copy of the board so its move below sees it.
		board.Place(conquest.Army{ID: math.MaxUint32/2 + uint32(k), Owner: obs.Seat, Kind: kind, Pos: at})
	}

	// Move stage: each army goes for the nearest resource nobody else is after, or for
	// the enemy home; it captures or wins a fight whenever it can.
	var claimed []conquest.Pos
	var mine []conquest.Army
	for _, a := range board.Armies() {
		if a.Owner == obs.Seat {
			mine = append(mine, a)
		}
	}
	for _, army := range mine {
		var unclaimed []conquest.Pos
		for _, r := range board.ResourceTiles() {
			if !conquestContains(claimed, r.Pos) {
				unclaimed = append(unclaimed, r.Pos)
			}
		}
		goal := obs.EnemyHome()
		if _, resource, ok := distances.Nearest(army.Pos, unclaimed); ok {
			goal = resource
		}
		claimed = append(claimed, goal)
		steps := func(p conquest.Pos) uint32 {
			if s, ok := distances.Between(p, goal); ok {
				return s
			}
			return math.MaxUint32
		}
		// Never into water or a lost or even fight (a scout's middle tile too). The best
		// tile wins there first, then is nearest the goal (of equals, the first listed).
		var best *conquest.Pos
		var bestWins bool
		destinations := board.SafeDestinations(&army)
		for i, to := range destinations {
			wins := conquestWinsThere(board, &army, to)
			if best == nil || wins && !bestWins || wins == bestWins && steps(to) < steps(*best) {
				best, bestWins = &destinations[i], wins
			}
		}
		if best == nil {
			continue
		}
		to := *best
		if steps(to) < steps(army.Pos) || conquestWinsThere(board, &army, to) {
			orders.Moves = append(orders.Moves, conquest.Move{From: army.Pos, To: to})
			// Keep our copy of the board in step (the tile is now ours, any resource there
			// is gone).
			if enemy := board.ArmyAt(to); enemy != nil && enemy.Owner != obs.Seat {
				board.Remove(enemy.ID)
			}
			if t, _ := board.Terrain(to); t.Kind == conquest.TerrainResource {
				board.SetTerrain(to, conquest.Plain)
			}
			board.Relocate(army.ID, to)
		}
	}
	return orders
}

// conquestCounterOfMost is the kind that beats the most enemy armies (of equals, the last
// of spearman, archer, knight).
func conquestCounterOfMost(obs *conquest.Observation) conquest.Kind {
	best, bestCount := conquest.KindSpearman, -1
	for _, k := range []conquest.Kind{conquest.KindSpearman, conquest.KindArcher, conquest.KindKnight} {
		count := 0
		for _, e := range obs.Enemies() {
			if conquest.Fight(k, e.Kind) == conquest.First {
				count++
			}
		}
		if count >= bestCount {
			best, bestCount = k, count
		}
	}
	return best
}

// conquestWinsThere reports whether the move captures the enemy home or defeats an enemy
// army.
func conquestWinsThere(board *conquest.Board, army *conquest.Army, to conquest.Pos) bool {
	if t, _ := board.Terrain(to); t.Kind == conquest.TerrainHome && t.Seat != army.Owner {
		return true
	}
	enemy := board.ArmyAt(to)
	return enemy != nil && enemy.Owner != army.Owner && conquest.Fight(army.Kind, enemy.Kind) == conquest.First
}

func conquestContains(tiles []conquest.Pos, p conquest.Pos) bool {
	for _, t := range tiles {
		if t == p {
			return true
		}
	}
	return false
}
