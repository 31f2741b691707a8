// Mode battle (Bot Wars), a port of the Rust battle-starter. The rules are in the arena's
// docs/rules/battle.md; the short version:
//
//   - Before the match you pick a team of 3 different robot types from the roster
//     (battleSetup). Your opponent picks at the same time, without seeing yours.
//   - Every robot has a turn meter that fills by its speed each tick; at 1000 the robot
//     takes a turn and the arena asks you what it does (battleAct): attack one enemy in
//     LegalTargets, or use its secondary skill when SkillReady is true.
//   - You lose when all three of your robots are destroyed. After TurnCap unit turns the
//     team with the larger share of its integrity left wins.
//
// An illegal answer (a target that is not legal, a skill that is not ready) is not a
// disaster: the arena plays the default (attack the weakest legal target), counts it,
// and tells you why in the next observation's LastRejected.

package main

import (
	"slices"

	"botarena.invalid/sdk/arena"
	"botarena.invalid/sdk/battle"
)

func init() { arena.PlayBattle(battleSetup, battleAct) }

func battleSetup(request *battle.SetupRequest) battle.TeamChoice {
	// Two damage dealers — Aggro hits hard, Stealth is the fastest robot (speed 90, so
	// more than twice as many turns) — and the Nurse, whose Repair heals the whole team.
	// request.Stats has every type's numbers if you want to choose smarter.
	wanted := []battle.BotType{battle.BotTypeAggro, battle.BotTypeStealth, battle.BotTypeNurse}
	size := int(request.TeamSize)
	var team []battle.BotType
	for _, kind := range wanted {
		if slices.Contains(request.Roster, kind) {
			team = append(team, kind)
		}
	}
	// A tournament may restrict the roster: fill up with whatever else is allowed.
	for _, kind := range request.Roster {
		if len(team) < size && !slices.Contains(team, kind) {
			team = append(team, kind)
		}
	}
	return battle.TeamChoice{Team: team[:min(len(team), size)]}
}

func battleAct(observation *battle.Observation) battle.Action {
	if observation.SkillReady && battleSkillHelps(observation) {
		return battle.Skill()
	}
	// Attack the legal target with the least integrity left: finishing robots off removes
	// their attacks from the battle sooner. Ideas to do better: count armor and evasion
	// (see "expected damage" in the rules), prefer dangerous targets (healers, fast or
	// powerful robots), remember that crits double before armor.
	var weakest *battle.Unit
	for _, id := range observation.LegalTargets {
		unit := &observation.Units[id]
		if weakest == nil || unit.Integrity < weakest.Integrity ||
			unit.Integrity == weakest.Integrity && unit.ID < weakest.ID {
			weakest = unit
		}
	}
	if weakest == nil {
		// Never happens while the match runs (some enemy is always targetable); a skill
		// that is not ready would simply be replaced by the default.
		return battle.Skill()
	}
	return battle.Attack(weakest.ID)
}

// battlePercentLeft is the integrity left, in percent of the robot's maximum.
func battlePercentLeft(unit *battle.Unit) int32 {
	return unit.Integrity * 100 / max(unit.Base.Integrity, 1)
}

// battleSkillHelps reports whether the acting robot's skill is worth its turn now.
func battleSkillHelps(observation *battle.Observation) bool {
	me := observation.Me()
	team := observation.Team(me.Owner)
	anyBelow := func(percent int32, skipMe bool) bool {
		for _, u := range team {
			if (!skipMe || u.ID != me.ID) && battlePercentLeft(u) < percent {
				return true
			}
		}
		return false
	}
	switch me.Kind {
	case battle.BotTypeNurse:
		// Repair gives every teammate 30% of the nurse's maximum: wait until it is needed.
		return anyBelow(60, false)
	case battle.BotTypeDoctor:
		// Redistribute shares integrity: good when one robot is in danger.
		return anyBelow(40, false)
	case battle.BotTypeTank:
		// Taunt pulls the enemies' attacks onto the tank: use it when a teammate suffers.
		return anyBelow(70, true)
	case battle.BotTypeStealth:
		// Stealth hides this robot: use it when it is hurt.
		return battlePercentLeft(me) < 50
	case battle.BotTypeAggro, battle.BotTypeBeaverette, battle.BotTypeKamikaze:
		// Offense Up, the team buffs and Retribution: whenever they are ready.
		return true
	}
	// The Glass Bot has no skill.
	return false
}
