// panic-in-act plays battle and panics inside act on its 1st, 3rd, 5th … turn, where the
// SDK recovers: those turns answer {"error": "panic: panic-in-act: turn N"} (a bot_error
// fault) with the stack trace in the log; the turns between are played normally
// (attacking the first legal target). With the default max_faults (3) it forfeits on its
// 5th turn.
package main

import (
	"fmt"

	"botarena.invalid/sdk/arena"
	"botarena.invalid/sdk/battle"
)

var turns int

func init() {
	arena.PlayBattle(func(r *battle.SetupRequest) battle.TeamChoice {
		return battle.TeamChoice{Team: r.Roster[:r.TeamSize]}
	}, func(o *battle.Observation) battle.Action {
		turns++
		if turns%2 == 1 {
			panic(fmt.Sprintf("panic-in-act: turn %d", turns))
		}
		return battle.Attack(o.LegalTargets[0])
	})
}

func main() {}
