// Package conquest is mode conquest, Little Battle (the arena's docs/rules/conquest.md):
// two players collect wood, food and gold, recruit spearmen, archers, knights and scouts
// next to their home base and march on the other's home. Each turn a bot answers Orders:
// recruit orders, then move orders, carried out in order; a broken order is skipped and
// explained in the next observation's LastRejected.
//
// Spearman beats knight, knight beats archer, archer beats spearman, everyone beats the
// scout, equals destroy each other.
//
// The protocol types (types.go) are generated from the Rust SDK's (sdk/src/conquest.rs);
// this package adds the rules' tables and Board and Distances, as the Rust SDK has them.
package conquest

// The rules' numbers.
const (
	// FirstYear is the year of the first turn.
	FirstYear = 617
	// CollectAmount is what an army gains for its player on a resource tile.
	CollectAmount = 2
)

// Directions are the four steps as (dx, dy): up, right, down, left.
var Directions = [4][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}

// NewPos is the tile at column x, row y.
func NewPos(x, y uint8) Pos { return Pos{X: x, Y: y} }

// Manhattan is the distance from p to q ignoring water.
func (p Pos) Manhattan(q Pos) uint32 {
	return uint32(absDiff(p.X, q.X)) + uint32(absDiff(p.Y, q.Y))
}

// Less orders tiles by column, then row (the Rust SDK's order of Pos).
func (p Pos) Less(q Pos) bool {
	return p.X < q.X || p.X == q.X && p.Y < q.Y
}

func absDiff(a, b uint8) uint8 {
	if a > b {
		return a - b
	}
	return b - a
}

// Covers reports whether this stock pays price.
func (r Resources) Covers(price Resources) bool {
	return r.Wood >= price.Wood && r.Food >= price.Food && r.Gold >= price.Gold
}

// Pay is this stock minus price; false if it does not cover it.
func (r Resources) Pay(price Resources) (Resources, bool) {
	if !r.Covers(price) {
		return r, false
	}
	return Resources{Wood: r.Wood - price.Wood, Food: r.Food - price.Food, Gold: r.Gold - price.Gold}, true
}

// Kinds is every kind of army, in the document's order.
var Kinds = [4]Kind{KindSpearman, KindArcher, KindKnight, KindScout}

// Price is the document's price of the kind.
func (k Kind) Price() Resources {
	switch k {
	case KindSpearman:
		return Resources{Wood: 1, Food: 1}
	case KindArcher:
		return Resources{Wood: 1, Gold: 1}
	case KindKnight:
		return Resources{Food: 1, Gold: 1}
	}
	return Resources{Wood: 1, Food: 1, Gold: 1}
}

// Counters is the kind this one defeats (false for the scout, which defeats nobody).
func (k Kind) Counters() (Kind, bool) {
	switch k {
	case KindSpearman:
		return KindKnight, true
	case KindKnight:
		return KindArcher, true
	case KindArcher:
		return KindSpearman, true
	}
	return "", false
}

// Reach is how many steps the kind may move in one turn (a scout: two, in a straight
// line).
func (k Kind) Reach() int {
	if k == KindScout {
		return 2
	}
	return 1
}

// Survivor is who leaves a fight alive.
type Survivor uint8

// The outcomes of a fight.
const (
	// First: the army that moved in.
	First Survivor = iota
	// Second: the army that stood there.
	Second
	// Neither: both disappear.
	Neither
)

// Fight is the document's fight table: a meets b.
func Fight(a, b Kind) Survivor {
	if counters, ok := a.Counters(); a == b {
		return Neither
	} else if ok && counters == b || b == KindScout {
		return First
	}
	return Second
}

// Mine is the receiving bot's armies, in id order.
func (o *Observation) Mine() []Army {
	var armies []Army
	for _, a := range o.Armies {
		if a.Owner == o.Seat {
			armies = append(armies, a)
		}
	}
	return armies
}

// Enemies is the other player's armies, in id order.
func (o *Observation) Enemies() []Army {
	var armies []Army
	for _, a := range o.Armies {
		if a.Owner != o.Seat {
			armies = append(armies, a)
		}
	}
	return armies
}

// Home is the receiving bot's home base.
func (o *Observation) Home() Pos {
	return o.Homes[min(o.Seat, 1)]
}

// EnemyHome is the other player's home base.
func (o *Observation) EnemyHome() Pos {
	return o.Homes[1-min(o.Seat, 1)]
}
