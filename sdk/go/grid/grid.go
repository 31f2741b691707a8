// Package grid is mode grid, Javascript Battle (the arena's docs/rules/grid.md): two teams
// of heroes share a board with diamond mines, health wells and impassable tiles. On each
// of its heroes' turns a bot answers a direction (an Action: North, East, South, West or
// Stay). Walking into a mine captures it (20 damage), into a well drinks (+30 health),
// into an enemy stabs it (10 damage), into a friend heals it (+40 health); after its move
// a living hero deals 20 damage to every adjacent enemy.
//
// The protocol types (types.go) are generated from the Rust SDK's (sdk/src/grid.rs); this
// package adds Board, the path finding of the original starter kit, as the Rust SDK has
// it.
package grid

// The rules' numbers.
const (
	MaxHealth         = 100
	MineCaptureDamage = 20
	WellHeal          = 30
	StabDamage        = 10
	FriendHeal        = 40
	AdjacentDamage    = 20
)

// Directions are the four moves, in the order searches try them.
var Directions = [4]Action{North, East, South, West}

// Offset is the move's (dx, dy): north is y-1; Stay is (0, 0).
func (a Action) Offset() (int, int) {
	switch a {
	case North:
		return 0, -1
	case East:
		return 1, 0
	case South:
		return 0, 1
	case West:
		return -1, 0
	}
	return 0, 0
}

// Me is the acting hero.
func (o *Observation) Me() *Hero {
	return &o.Heroes[o.Acting]
}

// Alive is the living heroes of team, in id order.
func (o *Observation) Alive(team uint8) []*Hero {
	var heroes []*Hero
	for i := range o.Heroes {
		if h := &o.Heroes[i]; h.Team == team && !h.Dead {
			heroes = append(heroes, h)
		}
	}
	return heroes
}

// Enemies is the living heroes of the other team.
func (o *Observation) Enemies() []*Hero {
	return o.Alive(1 - o.Team)
}

// MinesOf is how many mines team owns.
func (o *Observation) MinesOf(team uint8) int {
	n := 0
	for _, m := range o.Mines {
		if m.Team != nil && *m.Team == team {
			n++
		}
	}
	return n
}

// Manhattan is the distance from p to q ignoring obstacles.
func (p Pos) Manhattan(q Pos) int {
	return abs(int(p.X)-int(q.X)) + abs(int(p.Y)-int(q.Y))
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
