// Package battle is mode battle, Bot Wars (the arena's docs/rules/battle.md): two players
// each field a team of three robots chosen blind from a roster. Whenever one of a
// player's robots gets its turn, the bot answers an Action: Attack one of the legal
// targets, or use the robot's Skill.
//
// The protocol types (types.go) are generated from the Rust SDK's (sdk/src/battle.rs);
// this file adds the helpers the Rust SDK has.
package battle

// TeamSize is the number of units per team.
const TeamSize = 3

// TurnMeterFull is the turn meter at which a unit takes a turn.
const TurnMeterFull = 1000

// Me is the acting unit.
func (o *Observation) Me() *Unit {
	return &o.Units[o.Acting]
}

// Team is the living units of seat, in id order.
func (o *Observation) Team(seat uint8) []*Unit {
	var team []*Unit
	for i := range o.Units {
		if u := &o.Units[i]; u.Owner == seat && !u.Destroyed {
			team = append(team, u)
		}
	}
	return team
}

// Has reports whether the unit carries effect.
func (u *Unit) Has(effect Effect) bool {
	for _, e := range u.Effects {
		if e.Effect == effect {
			return true
		}
	}
	return false
}
