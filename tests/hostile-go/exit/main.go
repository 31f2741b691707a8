// exit plays battle and calls os.Exit(3) on its first turn (wasi proc_exit with status 3).
package main

import (
	"os"

	"botarena.invalid/sdk/arena"
	"botarena.invalid/sdk/battle"
)

func init() {
	arena.PlayBattle(func(r *battle.SetupRequest) battle.TeamChoice {
		return battle.TeamChoice{Team: r.Roster[:r.TeamSize]}
	}, func(*battle.Observation) battle.Action {
		os.Exit(3)
		return battle.Skill()
	})
}

func main() {}
