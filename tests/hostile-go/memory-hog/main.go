// memory-hog plays battle and allocates without end on its first turn (1 MiB at a time,
// all kept): the Go runtime runs out of memory when the arena's memory limit stops
// memory.grow, and exits (fatal error: out of memory).
package main

import (
	"botarena.invalid/sdk/arena"
	"botarena.invalid/sdk/battle"
)

var hoard [][]byte

func init() {
	arena.PlayBattle(func(r *battle.SetupRequest) battle.TeamChoice {
		return battle.TeamChoice{Team: r.Roster[:r.TeamSize]}
	}, func(*battle.Observation) battle.Action {
		for {
			chunk := make([]byte, 1<<20)
			chunk[0] = 1
			hoard = append(hoard, chunk)
		}
	})
}

func main() {}
