// output-flood plays battle and, on its first turn, prints to standard output without
// end (fmt.Println in a loop): the log is cut and the bot runs out of fuel.
package main

import (
	"fmt"

	"botarena.invalid/sdk/arena"
	"botarena.invalid/sdk/battle"
)

func init() {
	arena.PlayBattle(func(r *battle.SetupRequest) battle.TeamChoice {
		return battle.TeamChoice{Team: r.Roster[:r.TeamSize]}
	}, func(*battle.Observation) battle.Action {
		for i := 0; ; i++ {
			fmt.Println("flood", i)
		}
	})
}

func main() {}
