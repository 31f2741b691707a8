// Mode grid (JS Battle), a port of the Rust grid-starter. Rules: the arena's
// docs/rules/grid.md.
//
// How a match goes for your bot:
//
//   - gridSetup is called once with the static board (size, walls, mines, wells, your
//     team). There is nothing to choose: answer grid.SetupChoice{} ({} on the wire).
//   - gridAct is called on every turn of one of your heroes. The observation holds the
//     whole state: every hero (observation.Me() is the one to move), every mine's owner,
//     the graves and both teams' diamonds. Answer a direction (or grid.Stay).
//
// Walking into things is how a hero acts: into a mine captures it (−20 health), into a
// well drinks (+30), into an enemy stabs it (−10 to it), into a teammate heals it (+40).
// After its move, a living hero deals 20 damage to every enemy next to it. A team wins by
// killing every enemy hero, or by having more diamonds after the turn limit (one diamond
// per owned mine at the start of each of the owner's turns).

package main

import (
	"botarena.invalid/sdk/arena"
	"botarena.invalid/sdk/grid"
)

const (
	// gridThirsty is the health at or below which a hero goes to drink.
	gridThirsty = 40
	// gridFitToMine is the health a hero needs before it pays 20 health to capture a mine.
	gridFitToMine = 60
)

// gridBoard is the static map plus path finding, kept between turns (the arena runs a
// fresh instance of the bot for every match).
var gridBoard *grid.Board

func init() { arena.PlayGrid(gridSetup, gridAct) }

func gridSetup(request *grid.SetupRequest) grid.SetupChoice {
	// Remember the static board: walls, mines and wells never change.
	gridBoard = grid.NewBoard(request)
	return grid.SetupChoice{}
}

func gridAct(observation *grid.Observation) grid.Action {
	if gridBoard == nil {
		return grid.Stay
	}
	board := gridBoard
	// Put this turn's heroes, graves and mine owners on the board.
	board.Observe(observation)
	me := observation.Me()

	// Every Nearest* helper does a breadth-first search around walls, mines, wells and
	// heroes and answers the first step of a shortest path (FirstStep), how far the
	// target is (Distance, 1 = right next to us) and where it is (Target).

	// 1. Hurt: drink at the nearest well (stepping into the well drinks from it).
	if me.Health <= gridThirsty {
		if well, ok := board.NearestWell(me.Pos); ok {
			return well.FirstStep
		}
	}

	// 2. An enemy right next to us: stab it. With the adjacent damage at the end of the
	//    turn that is 30 damage.
	if enemy, ok := board.NearestEnemy(me.Pos, me.Team); ok && enemy.Distance == 1 {
		return enemy.FirstStep
	}

	// 3. Healthy enough: capture the nearest mine our team does not own yet.
	if me.Health > gridFitToMine {
		if mine, ok := board.NearestNonTeamMine(me.Pos, me.Team); ok {
			return mine.FirstStep
		}
	}

	// 4. Nothing else to do: hunt the nearest enemy (or stay if none can be reached).
	if enemy, ok := board.NearestEnemy(me.Pos, me.Team); ok {
		return enemy.FirstStep
	}
	return grid.Stay
}
