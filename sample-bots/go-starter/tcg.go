// Mode tcg (the Trading Card Game kata), a port of the Rust tcg-starter. The rules and
// the protocol are in the arena's docs/rules/tcg.md.
//
// What the bot gets each time it is asked (tcg.Observation): both heroes (health, mana,
// deck and hand sizes), its own hand, the board, the list of legal actions and, if its
// previous answer was illegal, why. An illegal answer ends the turn, so answering from
// observation.Legal is always safe.

package main

import (
	"botarena.invalid/sdk/arena"
	"botarena.invalid/sdk/tcg"
)

// tcgDeck is the deck file the bot plays when the rules have custom decks on
// (variation 5): one entry per line, `card-id`, `Nx card-id` or `N x card-id`; `#`
// starts a comment. The cards are those of the default pool (docs/rules/tcg.md lists
// them); a deck has exactly 20 cards and at most 4 copies of one card.
const tcgDeck = `4x spark
4x zap
4x bolt
4x blast
2x fireball
2x lava-burst
`

// tcgMaxHealth is the health each hero starts with (from the rules at match start).
var tcgMaxHealth int32

func init() {
	arena.Play(arena.TcgBot{Start: tcgStart, Setup: tcgSetup, Act: tcgAct})
}

func tcgStart(start *arena.MatchStart[tcg.Rules]) {
	// The rules say which variations are on (minions, healing, …).
	tcgMaxHealth = start.Rules.StartingHealth
}

func tcgSetup(request *tcg.SetupRequest) tcg.DeckChoice {
	if !request.ChooseDeck {
		// Custom decks are off: everybody plays the default deck.
		return tcg.DeckChoice{}
	}
	// Our deck file, checked against the pool in use; if it does not fit (a card of a
	// variation that is off, say), fall back to the default deck.
	deck, err := tcg.ParseDeck(tcgDeck, &request.Pool)
	if err != nil {
		arena.Log("deck.txt: %v", err)
		return tcg.DeckChoice{}
	}
	return tcg.DeckChoice{Deck: &deck}
}

func tcgAct(observation *tcg.Observation) tcg.Action {
	if why := observation.LastRejected; why != nil {
		arena.Log("my last action was rejected: %s", *why)
	}
	me := observation.Me()

	// 1. Low on health: heal if we can.
	if me.Health*3 <= tcgMaxHealth {
		for _, action := range observation.Legal {
			if action.PlayCard != nil && action.PlayCard.As == tcg.PlayAsHeal {
				return action
			}
		}
	}

	// 2. Minions that may attack hit the enemy hero.
	for _, action := range observation.Legal {
		if action.Attack != nil && action.Attack.Target.Hero {
			return action
		}
	}

	// 3. Play the most expensive damage card we can afford at the enemy hero (of equal
	//    ones, the last listed). (Ideas: play minions, kill dangerous enemy minions,
	//    spend mana exactly.)
	var best *tcg.Action
	var bestDamage int32
	for i, action := range observation.Legal {
		play := action.PlayCard
		if play == nil || play.As != tcg.PlayAsSpell || !play.Target.Hero {
			continue
		}
		card := observation.HandCard(play.Card)
		if card == nil || card.Card.Kind != tcg.CardKindDamage {
			continue
		}
		if best == nil || card.Card.Damage >= bestDamage {
			best, bestDamage = &observation.Legal[i], card.Card.Damage
		}
	}
	if best != nil {
		return *best
	}

	// 4. Nothing worth doing: end the turn.
	return tcg.EndTurn()
}
