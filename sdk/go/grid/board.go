package grid

// TileKind is what a tile holds now.
type TileKind uint8

// The kinds of tile.
const (
	// TileEmpty is ground nobody stands on.
	TileEmpty TileKind = iota
	// TileGrave is a dead hero's grave: walkable, like empty ground.
	TileGrave
	// TileWall is impassable.
	TileWall
	// TileMine is a diamond mine: walking into it captures it.
	TileMine
	// TileWell is a health well: walking into it drinks.
	TileWell
	// TileHero is a living hero.
	TileHero
)

// Tile is what a tile holds now: its kind and, for a mine, its id and owners, for a hero,
// the hero.
type Tile struct {
	Kind   TileKind
	MineID uint16
	Mine   *Mine
	Hero   *Hero
}

// Walkable reports whether a hero can step onto the tile (empty ground or a grave).
func (t Tile) Walkable() bool {
	return t.Kind == TileEmpty || t.Kind == TileGrave
}

// PathStep is a search's answer: the target found, how many steps away (1: next to the
// start), and the first step there.
type PathStep struct {
	Target    Pos
	Distance  uint32
	FirstStep Action
}

// terrain is a tile's static content: empty, a wall, a well or mine id+1.
type terrain struct {
	wall, well bool
	mine       int // mine id + 1; 0: no mine
}

// Board is the static map of a setup request plus the heroes, graves and mine owners of
// the last observation, with the original starter kit's path finding (the Rust SDK's
// grid::Board). Keep one from setup on and Observe each turn.
type Board struct {
	width, height uint8
	terrain       []terrain
	occupant      []int // hero id + 1 on each tile; 0: none
	grave         []bool
	heroes        []Hero
	mines         []Mine
}

// NewBoard is the board of a setup request.
func NewBoard(setup *SetupRequest) *Board {
	tiles := int(setup.Width) * int(setup.Height)
	b := &Board{
		width:    setup.Width,
		height:   setup.Height,
		terrain:  make([]terrain, tiles),
		occupant: make([]int, tiles),
		grave:    make([]bool, tiles),
		mines:    make([]Mine, len(setup.Mines)),
	}
	for _, p := range setup.Walls {
		if i, ok := b.index(p); ok {
			b.terrain[i] = terrain{wall: true}
		}
	}
	for _, p := range setup.Wells {
		if i, ok := b.index(p); ok {
			b.terrain[i] = terrain{well: true}
		}
	}
	for id, p := range setup.Mines {
		if i, ok := b.index(p); ok {
			b.terrain[i] = terrain{mine: id + 1}
		}
	}
	return b
}

// Observe takes the heroes, graves and mine owners of an observation.
func (b *Board) Observe(o *Observation) {
	for _, h := range b.heroes {
		if i, ok := b.index(h.Pos); ok {
			b.occupant[i] = 0
		}
	}
	clear(b.grave)
	b.heroes = append(b.heroes[:0], o.Heroes...)
	b.mines = append(b.mines[:0], o.Mines...)
	for _, h := range o.Heroes {
		if i, ok := b.index(h.Pos); ok && !h.Dead {
			b.occupant[i] = int(h.ID) + 1
		}
	}
	for _, p := range o.Graves {
		if i, ok := b.index(p); ok {
			b.grave[i] = true
		}
	}
}

// Width is the number of columns.
func (b *Board) Width() uint8 { return b.width }

// Height is the number of rows.
func (b *Board) Height() uint8 { return b.height }

func (b *Board) index(p Pos) (int, bool) {
	if p.X >= b.width || p.Y >= b.height {
		return 0, false
	}
	return int(p.Y)*int(b.width) + int(p.X), true
}

// Tile is what p holds now; false off the board.
func (b *Board) Tile(p Pos) (Tile, bool) {
	i, ok := b.index(p)
	if !ok {
		return Tile{}, false
	}
	t := b.terrain[i]
	switch {
	case t.wall:
		return Tile{Kind: TileWall}, true
	case t.well:
		return Tile{Kind: TileWell}, true
	case t.mine > 0:
		tile := Tile{Kind: TileMine, MineID: uint16(t.mine - 1), Mine: &Mine{}}
		if t.mine-1 < len(b.mines) {
			tile.Mine = &b.mines[t.mine-1]
		}
		return tile, true
	case b.occupant[i] > 0:
		return Tile{Kind: TileHero, Hero: &b.heroes[b.occupant[i]-1]}, true
	case b.grave[i]:
		return Tile{Kind: TileGrave}, true
	}
	return Tile{Kind: TileEmpty}, true
}

// Step is p's neighbour in direction; false off the board.
func (b *Board) Step(p Pos, direction Action) (Pos, bool) {
	dx, dy := direction.Offset()
	x, y := int(p.X)+dx, int(p.Y)+dy
	if x < 0 || y < 0 || x >= int(b.width) || y >= int(b.height) {
		return Pos{}, false
	}
	return Pos{X: uint8(x), Y: uint8(y)}, true
}

// Heroes is the heroes of the last observation, by id.
func (b *Board) Heroes() []Hero { return b.heroes }

// Nearest searches breadth-first from `from` for the nearest tile satisfying isTarget,
// the way the original starter kit does: paths run over walkable tiles, every tile next
// to a reached tile is tested (so a path's last step may go into a mine, well or hero),
// neighbours are tried north, east, south, west; `from` itself is never a target.
func (b *Board) Nearest(from Pos, isTarget func(Pos, Tile) bool) (PathStep, bool) {
	start, ok := b.index(from)
	if !ok {
		return PathStep{}, false
	}
	type entry struct {
		pos      Pos
		first    Action
		distance uint32
	}
	visited := make([]bool, len(b.terrain))
	visited[start] = true
	queue := []entry{{pos: from}}
	for len(queue) > 0 {
		e := queue[0]
		queue = queue[1:]
		for _, direction := range Directions {
			next, ok := b.Step(e.pos, direction)
			if !ok {
				continue
			}
			i := int(next.Y)*int(b.width) + int(next.X)
			if visited[i] {
				continue
			}
			tile, _ := b.Tile(next)
			first := e.first
			if first == "" {
				first = direction
			}
			if isTarget(next, tile) {
				return PathStep{Target: next, Distance: e.distance + 1, FirstStep: first}, true
			}
			if tile.Walkable() {
				visited[i] = true
				queue = append(queue, entry{pos: next, first: first, distance: e.distance + 1})
			}
		}
	}
	return PathStep{}, false
}

// NearestWell is the nearest health well.
func (b *Board) NearestWell(from Pos) (PathStep, bool) {
	return b.Nearest(from, func(_ Pos, t Tile) bool { return t.Kind == TileWell })
}

// NearestNonTeamMine is the nearest mine team does not own (unowned or the other team's).
func (b *Board) NearestNonTeamMine(from Pos, team uint8) (PathStep, bool) {
	return b.Nearest(from, func(_ Pos, t Tile) bool {
		return t.Kind == TileMine && (t.Mine.Team == nil || *t.Mine.Team != team)
	})
}

// NearestMineNotOwnedBy is the nearest mine hero does not own itself (its teammates'
// included).
func (b *Board) NearestMineNotOwnedBy(from Pos, hero uint8) (PathStep, bool) {
	return b.Nearest(from, func(_ Pos, t Tile) bool {
		return t.Kind == TileMine && (t.Mine.Owner == nil || *t.Mine.Owner != hero)
	})
}

// NearestEnemy is the nearest living hero of the other team.
func (b *Board) NearestEnemy(from Pos, team uint8) (PathStep, bool) {
	return b.Nearest(from, func(_ Pos, t Tile) bool { return t.Kind == TileHero && t.Hero.Team != team })
}

// NearestWeakerEnemy is the nearest living enemy with less health than health.
func (b *Board) NearestWeakerEnemy(from Pos, team uint8, health uint32) (PathStep, bool) {
	return b.Nearest(from, func(_ Pos, t Tile) bool {
		return t.Kind == TileHero && t.Hero.Team != team && t.Hero.Health < health
	})
}

// NearestTeammate is the nearest living teammate (other than a hero standing on from).
func (b *Board) NearestTeammate(from Pos, team uint8) (PathStep, bool) {
	return b.Nearest(from, func(_ Pos, t Tile) bool { return t.Kind == TileHero && t.Hero.Team == team })
}
