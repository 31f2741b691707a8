package conquest

// Resource is one of the three resources.
type Resource string

// The resources.
const (
	ResourceWood Resource = "wood"
	ResourceFood Resource = "food"
	ResourceGold Resource = "gold"
)

// TerrainKind is what lies on a tile, armies aside.
type TerrainKind uint8

// The kinds of terrain.
const (
	// TerrainPlain is nothing.
	TerrainPlain TerrainKind = iota
	// TerrainWater drowns an army that enters it.
	TerrainWater
	// TerrainResource is a resource not yet collected (Terrain.Resource says which).
	TerrainResource
	// TerrainHome is a player's home base (Terrain.Seat says whose).
	TerrainHome
)

// Terrain is what lies on a tile, armies aside.
type Terrain struct {
	Kind     TerrainKind
	Resource Resource
	Seat     uint8
}

// Plain is a tile with nothing on it.
var Plain = Terrain{Kind: TerrainPlain}

// ResourceTile is a resource still on the map.
type ResourceTile struct {
	Pos      Pos
	Resource Resource
}

// Board is the map and the armies on it (the Rust SDK's conquest::Board): what is on a
// tile, where an army may go. Keep one and Update it each turn, then change it as your
// orders would (Place, Remove, Relocate, SetTerrain) to plan the next ones.
type Board struct {
	width, height uint8
	homes         [2]Pos
	terrain       []Terrain
	occupant      []int // index+1 into armies of the (last) army on each tile; 0: none
	armies        []Army
}

// NewBoard is the board of an observation.
func NewBoard(o *Observation) *Board {
	b := &Board{}
	b.Update(o)
	return b
}

// EmptyBoard is a plain width×height map with the two homes and no armies.
func EmptyBoard(width, height uint8, homes [2]Pos) *Board {
	b := &Board{}
	b.reset(width, height, homes)
	return b
}

// Update makes the board the board of o.
func (b *Board) Update(o *Observation) {
	b.reset(o.Width, o.Height, o.Homes)
	for _, p := range o.Water {
		b.SetTerrain(p, Terrain{Kind: TerrainWater})
	}
	for _, list := range []struct {
		tiles    []Pos
		resource Resource
	}{{o.Wood, ResourceWood}, {o.Food, ResourceFood}, {o.Gold, ResourceGold}} {
		for _, p := range list.tiles {
			b.SetTerrain(p, Terrain{Kind: TerrainResource, Resource: list.resource})
		}
	}
	for _, a := range o.Armies {
		b.Place(a)
	}
}

func (b *Board) reset(width, height uint8, homes [2]Pos) {
	tiles := int(width) * int(height)
	b.width, b.height, b.homes = width, height, homes
	b.terrain = append(b.terrain[:0], make([]Terrain, tiles)...)
	b.occupant = append(b.occupant[:0], make([]int, tiles)...)
	b.armies = b.armies[:0]
	b.SetTerrain(homes[0], Terrain{Kind: TerrainHome, Seat: 0})
	b.SetTerrain(homes[1], Terrain{Kind: TerrainHome, Seat: 1})
}

// Width is the number of columns.
func (b *Board) Width() uint8 { return b.width }

// Height is the number of rows.
func (b *Board) Height() uint8 { return b.height }

// Homes is the homes of seat 0 and seat 1.
func (b *Board) Homes() [2]Pos { return b.homes }

// Index is p's index in reading order; false off the map.
func (b *Board) Index(p Pos) (int, bool) {
	if p.X >= b.width || p.Y >= b.height {
		return 0, false
	}
	return int(p.Y)*int(b.width) + int(p.X), true
}

// SetTerrain sets what lies on p (ignored off the map).
func (b *Board) SetTerrain(p Pos, t Terrain) {
	if i, ok := b.Index(p); ok {
		b.terrain[i] = t
	}
}

// Terrain is what lies on p; false off the map.
func (b *Board) Terrain(p Pos) (Terrain, bool) {
	i, ok := b.Index(p)
	if !ok {
		return Terrain{}, false
	}
	return b.terrain[i], true
}

// ArmyAt is the army on p, or nil (a pointer into the board, good until it changes).
func (b *Board) ArmyAt(p Pos) *Army {
	i, ok := b.Index(p)
	if !ok || b.occupant[i] == 0 {
		return nil
	}
	return &b.armies[b.occupant[i]-1]
}

// Armies is every army, in the order placed.
func (b *Board) Armies() []Army { return b.armies }

// Place puts army on its tile, replacing whatever army stood there (ignored off the map).
func (b *Board) Place(army Army) {
	i, ok := b.Index(army.Pos)
	if !ok {
		return
	}
	if old := b.occupant[i]; old > 0 {
		b.removeIndex(old - 1)
	}
	b.armies = append(b.armies, army)
	b.occupant[i] = len(b.armies)
}

// Remove takes army id off the map; false if there is none.
func (b *Board) Remove(id uint32) (Army, bool) {
	for k, a := range b.armies {
		if a.ID == id {
			b.removeIndex(k)
			return a, true
		}
	}
	return Army{}, false
}

func (b *Board) removeIndex(k int) {
	b.armies = append(b.armies[:k], b.armies[k+1:]...)
	clear(b.occupant)
	for k, a := range b.armies {
		if i, ok := b.Index(a.Pos); ok {
			b.occupant[i] = k + 1
		}
	}
}

// Relocate moves army id to `to` (which should be free of armies).
func (b *Board) Relocate(id uint32, to Pos) {
	for k := range b.armies {
		if b.armies[k].ID == id {
			from := b.armies[k].Pos
			b.armies[k].Pos = to
			b.reoccupy(from)
			b.reoccupy(to)
			return
		}
	}
}

// reoccupy names the last army standing on p in the occupant index.
func (b *Board) reoccupy(p Pos) {
	i, ok := b.Index(p)
	if !ok {
		return
	}
	b.occupant[i] = 0
	for k, a := range b.armies {
		if a.Pos == p {
			b.occupant[i] = k + 1
		}
	}
}

// IsOwn reports whether p holds an army of seat or seat's home.
func (b *Board) IsOwn(seat uint8, p Pos) bool {
	i, ok := b.Index(p)
	return ok && b.isOwnAt(seat, i)
}

func (b *Board) isOwnAt(seat uint8, i int) bool {
	t := b.terrain[i]
	if t.Kind == TerrainHome && t.Seat == seat {
		return true
	}
	return b.occupant[i] > 0 && b.armies[b.occupant[i]-1].Owner == seat
}

// RecruitSpots is the tiles next to seat's home where it may recruit now (on the map,
// plain, no army), in the order up, right, down, left.
func (b *Board) RecruitSpots(seat uint8) []Pos {
	home := b.homes[min(seat, 1)]
	var spots []Pos
	for _, d := range Directions {
		p, ok := b.offset(home, d, 1)
		if !ok {
			continue
		}
		if t, _ := b.Terrain(p); b.ArmyAt(p) == nil && t == Plain {
			spots = append(spots, p)
		}
	}
	return spots
}

// offset is the tile steps tiles from p in direction d; false off the map.
func (b *Board) offset(p Pos, d [2]int, steps int) (Pos, bool) {
	x, y := int(p.X)+d[0]*steps, int(p.Y)+d[1]*steps
	if x < 0 || y < 0 || x >= int(b.width) || y >= int(b.height) {
		return Pos{}, false
	}
	return Pos{X: uint8(x), Y: uint8(y)}, true
}

// Destinations is every tile army may move to this turn by the rules, water included (an
// army may walk into water; it drowns): up, right, down, left, a scout's one step before
// its two in each direction.
func (b *Board) Destinations(army *Army) []Pos {
	var out []Pos
	for _, d := range Directions {
		for k := 1; k <= army.Kind.Reach(); k++ {
			if p, ok := b.offset(army.Pos, d, k); ok && !b.IsOwn(army.Owner, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// SafeDestinations is the Destinations army reaches alive, in the same order: the way
// there (a scout's middle tile too) enters no water and every enemy army on it loses the
// fight to army.
func (b *Board) SafeDestinations(army *Army) []Pos {
	var out []Pos
	for _, d := range Directions {
		for k := 1; k <= army.Kind.Reach(); k++ {
			p, ok := b.offset(army.Pos, d, k)
			if !ok {
				break
			}
			i, _ := b.Index(p)
			survives := b.terrain[i].Kind != TerrainWater
			if o := b.occupant[i]; survives && o > 0 {
				other := b.armies[o-1]
				survives = other.Owner == army.Owner || Fight(army.Kind, other.Kind) == First
			}
			if !survives {
				// Farther tiles this way are entered through this one.
				break
			}
			if !b.isOwnAt(army.Owner, i) {
				out = append(out, p)
			}
		}
	}
	return out
}

// ResourceTiles is the resources still on the map, in reading order.
func (b *Board) ResourceTiles() []ResourceTile {
	var out []ResourceTile
	width := max(int(b.width), 1)
	for i, t := range b.terrain {
		if t.Kind == TerrainResource {
			out = append(out, ResourceTile{Pos: Pos{X: uint8(i % width), Y: uint8(i / width)}, Resource: t.Resource})
		}
	}
	return out
}

// blocked and unreached mark tiles no way leads to in a search's steps.
const (
	unreached = ^uint16(0)
	blocked   = unreached - 1
)

// Distances is the steps between tiles around water, remembered from turn to turn: one
// breadth-first search per goal asked about, done the first time it is asked (the Rust
// SDK's conquest::Distances). Armies do not block and only water does, which never
// changes during a game: keep one for the game and Fit it to each turn's board.
type Distances struct {
	width, height uint8
	water         []bool
	fields        [][]uint16
}

// Fit keeps the searches done so far if board's map is theirs (same size, same water),
// else starts afresh for it.
func (d *Distances) Fit(b *Board) {
	same := d.width == b.width && d.height == b.height && len(d.water) == len(b.terrain)
	for i := 0; same && i < len(b.terrain); i++ {
		same = d.water[i] == (b.terrain[i].Kind == TerrainWater)
	}
	if same {
		return
	}
	d.width, d.height = b.width, b.height
	d.water = make([]bool, len(b.terrain))
	for i, t := range b.terrain {
		d.water[i] = t.Kind == TerrainWater
	}
	d.fields = make([][]uint16, len(b.terrain))
}

func (d *Distances) index(p Pos) (int, bool) {
	if p.X >= d.width || p.Y >= d.height {
		return 0, false
	}
	return int(p.Y)*int(d.width) + int(p.X), true
}

// field is the steps from tile i to every tile (searched the first time).
func (d *Distances) field(start int) []uint16 {
	if f := d.fields[start]; f != nil {
		return f
	}
	steps := make([]uint16, len(d.water))
	for i, w := range d.water {
		steps[i] = unreached
		if w {
			steps[i] = blocked
		}
	}
	width, height := int(d.width), int(d.height)
	steps[start] = 0
	queue := []int{start}
	for head := 0; head < len(queue); head++ {
		i := queue[head]
		next := steps[i] + 1
		x, y := i%width, i/width
		for _, j := range [4]int{i - width, i + 1, i + width, i - 1} {
			if (j == i-width && y == 0) || (j == i+1 && x+1 == width) ||
				(j == i+width && y+1 == height) || (j == i-1 && x == 0) {
				continue
			}
			if steps[j] == unreached {
				steps[j] = next
				queue = append(queue, j)
			}
		}
	}
	d.fields[start] = steps
	return steps
}

// Between is the steps from `from` to `to` around water; false if no way leads there
// (into water there is none; out of water it is one step onto the best dry neighbour).
func (d *Distances) Between(from, to Pos) (uint32, bool) {
	i, ok := d.index(from)
	j, ok2 := d.index(to)
	if !ok || !ok2 {
		return 0, false
	}
	if i == j {
		return 0, true
	}
	if d.water[j] {
		return 0, false
	}
	steps := d.field(j)
	if !d.water[i] {
		return uint32(steps[i]), steps[i] < blocked
	}
	width := int(d.width)
	best, found := uint16(0), false
	x, y := i%width, i/width
	for _, n := range [4][2]int{{x, y - 1}, {x + 1, y}, {x, y + 1}, {x - 1, y}} {
		if n[0] < 0 || n[1] < 0 || n[0] >= width || n[1] >= int(d.height) {
			continue
		}
		if s := steps[n[1]*width+n[0]]; s < blocked && (!found || s+1 < best) {
			best, found = s+1, true
		}
	}
	return uint32(best), found
}

// Nearest is the goal nearest `from` (Between) and its steps; ties go to the smallest
// position (column first). False if no goal can be reached.
func (d *Distances) Nearest(from Pos, goals []Pos) (uint32, Pos, bool) {
	var bestSteps uint32
	var bestGoal Pos
	found := false
	for _, goal := range goals {
		if found && from.Manhattan(goal) > bestSteps {
			continue
		}
		steps, ok := d.Between(from, goal)
		if ok && (!found || steps < bestSteps || steps == bestSteps && goal.Less(bestGoal)) {
			bestSteps, bestGoal, found = steps, goal, true
		}
	}
	return bestSteps, bestGoal, found
}
