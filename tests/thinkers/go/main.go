// thinker in Go: every language's thinker (tests/thinkers/) plays battle the same way. It
// fields Glass, Stealth and Nurse; on each turn it reads its budget, thinks (reads what is
// left) until no more than a fifth of the budget is left, logs
// "thinker: budget B, stopped at L left", then uses the skill when it is ready, else
// attacks the last legal target.
package main

import (
	"botarena.invalid/sdk/arena"
	"botarena.invalid/sdk/battle"
)

func init() { arena.PlayBattle(setup, act) }

func setup(*battle.SetupRequest) battle.TeamChoice {
	arena.Log("thinker: setup budget %d", arena.FuelBudget())
	return battle.TeamChoice{Team: []battle.BotType{battle.BotTypeGlass, battle.BotTypeStealth, battle.BotTypeNurse}}
}

func act(observation *battle.Observation) battle.Action {
	budget := arena.FuelBudget()
	stop := budget / 5
	left := arena.FuelLeft()
	for left > stop {
		left = arena.FuelLeft()
	}
	arena.Log("thinker: budget %d, stopped at %d left", budget, left)
	if observation.SkillReady || len(observation.LegalTargets) == 0 {
		return battle.Skill()
	}
	return battle.Attack(observation.LegalTargets[len(observation.LegalTargets)-1])
}

func main() {}
