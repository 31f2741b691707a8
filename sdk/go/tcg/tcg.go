// Package tcg is mode tcg, the Trading Card Game kata (the arena's docs/rules/tcg.md): two
// heroes with 30 health draw cards from 20-card decks. On its turn the active player may
// play as many cards as its mana allows, attack with its minions, and end the turn; the
// bot is asked for one Action at a time until it ends its turn. Every Observation lists
// the legal actions.
//
// The protocol types (types.go) are generated from the Rust SDK's (sdk/src/tcg.rs); this
// file adds the helpers the Rust SDK has, and ParseDeck for deck files.
package tcg

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Me is the receiving bot's hero.
func (o *Observation) Me() *Hero {
	return &o.Heroes[o.Seat&1]
}

// Opponent is the other hero.
func (o *Observation) Opponent() *Hero {
	return &o.Heroes[1-o.Seat&1]
}

// MinionsOf is the minions of seat on the board, in board order.
func (o *Observation) MinionsOf(seat uint8) []*Minion {
	var minions []*Minion
	for i := range o.Board {
		if m := &o.Board[i]; m.Owner == seat {
			minions = append(minions, m)
		}
	}
	return minions
}

// HandCard is the card with this uid in the bot's hand, or nil.
func (o *Observation) HandCard(uid uint32) *CardInstance {
	for i := range o.Hand {
		if o.Hand[i].UID == uid {
			return &o.Hand[i]
		}
	}
	return nil
}

// Card is the card of the pool with this id, or nil.
func (p *CardPool) Card(id string) *Card {
	for i := range p.Cards {
		if p.Cards[i].ID == id {
			return &p.Cards[i]
		}
	}
	return nil
}

// Amount is the card's effect: its damage, heal or draw, by its kind.
func (c *Card) Amount() int32 {
	switch c.Kind {
	case CardKindHeal:
		return c.Heal
	case CardKindDraw:
		return c.Draw
	}
	return c.Damage
}

// A DeckError is a deck file's mistake, with its line (from 1).
type DeckError struct {
	Line    int
	Message string
}

func (e *DeckError) Error() string {
	return fmt.Sprintf("line %d: %s", e.Line, e.Message)
}

// ParseDeck reads a deck file — one entry per line, `card-id`, `2x card-id` or
// `2 x card-id`, `#` starting a comment — and checks it against pool: known cards, at
// most pool.MaxCopies of each, exactly pool.DeckSize in all. It reads what the Rust
// SDK's parse_deck reads and fails with the same messages.
func ParseDeck(text string, pool *CardPool) ([]string, error) {
	var cards []string
	copies := map[string]uint64{}
	lastLine := 0
	lines := strings.Split(text, "\n")
	if strings.HasSuffix(text, "\n") {
		lines = lines[:len(lines)-1]
	}
	for idx, raw := range lines {
		line := idx + 1
		lastLine = line
		raw = strings.TrimSuffix(raw, "\r")
		content, _, _ := strings.Cut(raw, "#")
		content = strings.TrimSpace(content)
		if content == "" {
			continue
		}
		fail := func(format string, args ...any) error {
			return &DeckError{Line: line, Message: fmt.Sprintf(format, args...)}
		}
		words := strings.Fields(content)
		var count, id string
		switch {
		case len(words) == 1:
			count, id = "1", words[0]
		case len(words) == 2 && (strings.HasSuffix(words[0], "x") || strings.HasSuffix(words[0], "X")):
			count, id = words[0][:len(words[0])-1], words[1]
		case len(words) == 3 && strings.EqualFold(words[1], "x"):
			count, id = words[0], words[2]
		default:
			return nil, fail("cannot read `%s`; write `card-id`, `2x card-id` or `2 x card-id`", content)
		}
		n, err := strconv.ParseUint(strings.TrimPrefix(count, "+"), 10, 32)
		if err != nil || n == 0 {
			return nil, fail("`%s` is not a positive number of copies", count)
		}
		if pool.Card(id) == nil {
			return nil, fail("unknown card `%s` (not in the card pool in use)", id)
		}
		// Saturating at the Rust SDK's u32: a huge count is reported, never wrapped.
		copies[id] = min(copies[id]+n, math.MaxUint32)
		if copies[id] > uint64(pool.MaxCopies) {
			return nil, fail("%d copies of `%s`, at most %d are allowed", copies[id], id, pool.MaxCopies)
		}
		if size := uint64(len(cards)) + n; size > uint64(pool.DeckSize) {
			return nil, fail("the deck has %d cards, a deck needs exactly %d", size, pool.DeckSize)
		}
		for range n {
			cards = append(cards, id)
		}
	}
	if len(cards) != int(pool.DeckSize) {
		return nil, &DeckError{
			Line:    max(lastLine, 1),
			Message: fmt.Sprintf("the deck has %d cards, a deck needs exactly %d", len(cards), pool.DeckSize),
		}
	}
	return cards, nil
}
