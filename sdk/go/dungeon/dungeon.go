// Package dungeon is mode dungeon, the RPG battle system (the arena's
// docs/rules/dungeon.md): a party of heroes against seeded waves of monsters. A bot
// chooses its party's classes at setup (SetupChoice) and then plays every hero turn with
// an Action: an ability and a target. Both bots face the identical dungeon, one after
// the other, and the better Score wins.
//
// The protocol types (types.go) are generated from the Rust SDK's (sdk/src/dungeon.rs);
// this file adds the rules' tables and formulas the Rust SDK has, so a bot can predict
// what an ability will do.
package dungeon

// The rules' numbers.
const (
	HeroBaseStat          = 6
	HeroBaseHP            = 100
	HeroBaseMP            = 50
	MonsterBaseStat       = 8
	MonsterBaseHP         = 10
	DragonDamageReduction = 5
	RecklessChargeHP      = 4
)

// OnMonster is the action using ability on monster id.
func OnMonster(ability Ability, id uint8) Action {
	return Action{Ability: ability, Target: TargetMonster(id)}
}

// OnHero is the action using ability on hero id.
func OnHero(ability Ability, id uint8) Action {
	return Action{Ability: ability, Target: TargetHero(id)}
}

// Me is the acting hero.
func (o *Observation) Me() *Hero {
	return &o.Party[o.Acting]
}

// LivingHeroes is the party's living heroes, in id order.
func (o *Observation) LivingHeroes() []*Hero {
	var heroes []*Hero
	for i := range o.Party {
		if h := &o.Party[i]; !h.Dead {
			heroes = append(heroes, h)
		}
	}
	return heroes
}

// LivingMonsters is the wave's living monsters, in id order.
func (o *Observation) LivingMonsters() []*Monster {
	var monsters []*Monster
	for i := range o.Monsters {
		if m := &o.Monsters[i]; !m.Dead {
			monsters = append(monsters, m)
		}
	}
	return monsters
}

// IsLegal reports whether action is one of the legal commands.
func (o *Observation) IsLegal(action Action) bool {
	for _, a := range o.Legal {
		if a.Equal(action) {
			return true
		}
	}
	return false
}

// NextAbility is what the monster does on its next turn (queue[0]).
func (m *Monster) NextAbility() Ability {
	if len(m.Queue) == 0 {
		return AbilityFight
	}
	return m.Queue[0]
}

// MPCost is the ability's mana cost.
func (a Ability) MPCost() uint32 {
	switch a {
	case AbilityShieldSlam, AbilityRapidStrike:
		return 5
	case AbilityFireball:
		return 8
	case AbilityFrostbolt:
		return 3
	case AbilityHeal:
		return 4
	case AbilitySmite:
		return 7
	}
	return 0
}

// Heals reports whether the ability heals its target (heal, regenerate).
func (a Ability) Heals() bool {
	return a == AbilityHeal || a == AbilityRegenerate
}

// Power is the ability's power used by a unit of these stats and level: its damage, or
// what it heals (docs/rules/dungeon.md, "Abilities").
func Power(ability Ability, stats Stats, level uint32) uint32 {
	s, c, i, v := stats.Strength, stats.Constitution, stats.Intelligence, stats.Speed
	switch ability {
	case AbilityFight:
		return s
	case AbilityShieldSlam:
		return s * 3 / 2
	case AbilityRecklessCharge, AbilityBackstab, AbilityBash, AbilityBloodRage:
		return s * 2
	case AbilityFireball:
		return 6 + i/2
	case AbilityFrostbolt:
		return 3 + level
	case AbilityHeal, AbilityRegenerate:
		return c
	case AbilitySmite:
		return 4 + (i+c)/2
	case AbilityRapidStrike:
		return 4 + v
	case AbilityTailSwipe, AbilitySlash:
		return s + v
	case AbilityFireBreath:
		return i * 5 / 2
	case AbilityPoisonBreath:
		return (i + c) * 3 / 2
	case AbilityLifeDrain:
		return i * 3 / 2
	case AbilityBite:
		return v / 2
	}
	return 0
}

// Family is the monster type's family.
func (k MonsterKind) Family() Family {
	switch k {
	case MonsterKindRedDragon, MonsterKindGreenDragon:
		return FamilyDragon
	case MonsterKindVampire, MonsterKindSkeleton:
		return FamilyUndead
	}
	return FamilyHumanoid
}

// DamageTaken is what damage does to a monster of this type: dragons take 5 less.
func (k MonsterKind) DamageTaken(damage uint32) uint32 {
	if k.Family() == FamilyDragon {
		return max(damage, DragonDamageReduction) - DragonDamageReduction
	}
	return damage
}

// Abilities is the class's three abilities.
func (c Class) Abilities() [3]Ability {
	switch c {
	case ClassWarrior:
		return [3]Ability{AbilityFight, AbilityShieldSlam, AbilityRecklessCharge}
	case ClassMage:
		return [3]Ability{AbilityFight, AbilityFireball, AbilityFrostbolt}
	case ClassCleric:
		return [3]Ability{AbilityFight, AbilityHeal, AbilitySmite}
	}
	return [3]Ability{AbilityFight, AbilityBackstab, AbilityRapidStrike}
}
