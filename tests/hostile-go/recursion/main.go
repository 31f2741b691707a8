// recursion plays battle and recurses without end on its first turn: Go grows the
// goroutine's stack (in linear memory) until memory or the wasm stack runs out.
package main

import (
	"botarena.invalid/sdk/arena"
	"botarena.invalid/sdk/battle"
)

var depth uint64

//go:noinline
func deeper(n uint64) uint64 {
	depth = n
	var pad [64]byte
	pad[n%64] = byte(n)
	return deeper(n+1) + uint64(pad[(n+1)%64])
}

func init() {
	arena.PlayBattle(func(r *battle.SetupRequest) battle.TeamChoice {
		return battle.TeamChoice{Team: r.Roster[:r.TeamSize]}
	}, func(o *battle.Observation) battle.Action {
		return battle.Attack(o.LegalTargets[0] + uint8(deeper(0)))
	})
}

func main() {}
