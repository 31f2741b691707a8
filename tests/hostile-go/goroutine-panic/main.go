// goroutine-panic plays battle and, on every turn, panics in a goroutine of its own,
// which the SDK's recovery cannot catch: the Go runtime prints the panic to standard
// error and exits with status 2 (wasi proc_exit).
package main

import (
	"botarena.invalid/sdk/arena"
	"botarena.invalid/sdk/battle"
)

func init() {
	arena.PlayBattle(func(r *battle.SetupRequest) battle.TeamChoice {
		return battle.TeamChoice{Team: r.Roster[:r.TeamSize]}
	}, func(o *battle.Observation) battle.Action {
		done := make(chan struct{})
		go func() {
			defer close(done)
			panic("goroutine-panic: unrecovered, on turn of unit " + string(rune('0'+o.Acting)))
		}()
		<-done
		return battle.Attack(o.LegalTargets[0])
	})
}

func main() {}
