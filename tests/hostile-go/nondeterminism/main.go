// nondeterminism plays battle (attacking the first legal target) and logs, at start and
// on every turn, what Go's sources of chance and time give it: the global math/rand
// (seeded by the runtime, not by the program), crypto/rand, time.Now, time.Since the
// start, and the order of a map's keys. Under the arena's deterministic WASI every value
// follows from the match seed and the fuel spent, so two runs of one match log the same.
package main

import (
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"math/rand"
	randv2 "math/rand/v2"
	"os"
	"time"

	"botarena.invalid/sdk/arena"
	"botarena.invalid/sdk/battle"
)

var began = time.Now()

// report is one line of values, logged through arena.Log and printed to standard output.
func report(when string) {
	var secret [8]byte
	_, err := crand.Read(secret[:])
	keys := ""
	for k := range map[string]int{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8} {
		keys += k
	}
	line := fmt.Sprintf("%s: math/rand %d, math/rand/v2 %d, crypto/rand %s (err %v), time.Now %s (unix ns %d), since start %s, map order %s",
		when, rand.Int63(), randv2.Uint64(), hex.EncodeToString(secret[:]), err,
		time.Now().UTC().Format(time.RFC3339Nano), time.Now().UnixNano(), time.Since(began), keys)
	arena.Log("%s", line)
	fmt.Fprintln(os.Stdout, "stdout", line)
	fmt.Fprintln(os.Stderr, "stderr", line)
}

func init() {
	arena.Play(arena.BattleBot{
		Start: func(s *arena.MatchStart[battle.Rules]) {
			report(fmt.Sprintf("start (seat %d, seed %d)", s.Seat, s.Seed))
		},
		Setup: func(r *battle.SetupRequest) battle.TeamChoice {
			report("setup")
			return battle.TeamChoice{Team: r.Roster[:r.TeamSize]}
		},
		Act: func(o *battle.Observation) battle.Action {
			report(fmt.Sprintf("turn %d", o.Turn))
			return battle.Attack(o.LegalTargets[0])
		},
	})
}

func main() {}
