// Mode dungeon (the RPG battle system), a port of the Rust dungeon-starter. Rules: the
// arena's docs/rules/dungeon.md.
//
// How a match goes for your bot:
//
//   - dungeonSetup is called once with the classes (stats, abilities) and the whole
//     dungeon: every wave's monsters and levels. Answer a party: PartySize classes.
//   - dungeonAct is called on every turn of one of your heroes. The observation holds the
//     party, the wave's monsters (with each one's command queue: Queue[0] is what it does
//     next), who acts after you, the event lines since your last turn, and every legal
//     command. Answer an ability and a target.
//
// A command the rules refuse (not your hero's ability, a bad target, too little MP) costs
// the hero its turn; LastRejected tells you why. Your score: waves cleared, then total
// XP, then fewer turns. Nothing is restored between waves, except by levelling up.

package main

import (
	"math"

	"botarena.invalid/sdk/arena"
	"botarena.invalid/sdk/dungeon"
)

// dungeonHealBelowPercent is the share of its max HP (percent) below which a cleric heals
// a hero.
const dungeonHealBelowPercent = 40

func init() { arena.PlayDungeon(dungeonSetup, dungeonAct) }

// dungeonSetup picks two warriors, a rogue and a cleric (cycled to the party size).
func dungeonSetup(request *dungeon.SetupRequest) dungeon.SetupChoice {
	favourites := []dungeon.Class{dungeon.ClassWarrior, dungeon.ClassRogue, dungeon.ClassCleric, dungeon.ClassWarrior}
	party := make([]dungeon.Class, request.PartySize)
	for i := range party {
		party[i] = favourites[i%len(favourites)]
	}
	return dungeon.SetupChoice{Party: party}
}

// dungeonAct heals the badly hurt, otherwise kills what it can and else hits the weakest
// monster as hard as it can.
func dungeonAct(observation *dungeon.Observation) dungeon.Action {
	me := observation.Me()
	// 1. A cleric heals the most hurt hero when someone is low.
	if me.Class == dungeon.ClassCleric {
		var hurt *dungeon.Hero
		for _, h := range observation.LivingHeroes() {
			if h.HP*100 < h.MaxHP*dungeonHealBelowPercent && (hurt == nil || h.HP < hurt.HP) {
				hurt = h
			}
		}
		if hurt != nil {
			heal := dungeon.OnHero(dungeon.AbilityHeal, hurt.ID)
			if observation.IsLegal(heal) {
				return heal
			}
		}
	}
	// 2. Among the legal attacks, what would each do? (Dragons take 5 less.)
	damage := func(action dungeon.Action) uint32 {
		if action.Target.Monster == nil {
			return 0
		}
		monster := &observation.Monsters[*action.Target.Monster]
		if action.Ability == dungeon.AbilityHeal && monster.Family != dungeon.FamilyUndead {
			return 0 // healing a monster that is not undead helps it
		}
		return monster.Kind.DamageTaken(dungeon.Power(action.Ability, me.Stats, me.Level))
	}
	hpOf := func(action dungeon.Action) uint32 {
		if action.Target.Monster == nil {
			return math.MaxUint32
		}
		return observation.Monsters[*action.Target.Monster].HP
	}
	// 3. A kill if there is one (the cheapest), else the hardest hit on the weakest.
	var kill, hardest *dungeon.Action
	for i, action := range observation.Legal {
		if action.Target.Monster == nil || damage(action) == 0 {
			continue
		}
		a := &observation.Legal[i]
		if damage(action) >= hpOf(action) && (kill == nil || action.Ability.MPCost() < kill.Ability.MPCost()) {
			kill = a
		}
		if hardest == nil || dungeonHarderOnWeaker(action, *hardest, damage, hpOf) {
			hardest = a
		}
	}
	switch {
	case kill != nil:
		return *kill
	case hardest != nil:
		return *hardest
	case len(observation.Legal) > 0:
		// Never needed on a hero's turn; should it be, any answer only loses the turn.
		return observation.Legal[0]
	}
	return dungeon.OnMonster(dungeon.AbilityFight, 0)
}

// dungeonHarderOnWeaker reports whether a beats b: a weaker target, then more damage,
// then less mana.
func dungeonHarderOnWeaker(a, b dungeon.Action, damage, hpOf func(dungeon.Action) uint32) bool {
	if hpOf(a) != hpOf(b) {
		return hpOf(a) < hpOf(b)
	}
	if damage(a) != damage(b) {
		return damage(a) > damage(b)
	}
	return a.Ability.MPCost() < b.Ability.MPCost()
}
