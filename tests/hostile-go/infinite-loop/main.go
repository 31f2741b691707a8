// infinite-loop plays battle and spins forever on its first turn: it runs out of fuel
// (a timeout fault) on every turn.
package main

import (
	"botarena.invalid/sdk/arena"
	"botarena.invalid/sdk/battle"
)

var spins uint64

func init() {
	arena.PlayBattle(func(r *battle.SetupRequest) battle.TeamChoice {
		return battle.TeamChoice{Team: r.Roster[:r.TeamSize]}
	}, func(*battle.Observation) battle.Action {
		for {
			spins++
		}
	})
}

func main() {}
