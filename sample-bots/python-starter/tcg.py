"""Mode tcg (the Trading Card Game kata), a port of the Rust tcg-starter. The rules and the
protocol are in the arena's docs/rules/tcg.md.

What the bot gets each time it is asked (tcg.Observation): both heroes (health, mana,
deck and hand sizes), its own hand, the board, the list of legal actions and, if its
previous answer was illegal, why. An illegal answer ends the turn, so answering from
observation.legal is always safe.
"""

import arena
from arena import tcg
from arena.tcg import CardKind, PlayAs

# The deck file the bot plays when the rules have custom decks on (variation 5): one entry
# per line, `card-id`, `Nx card-id` or `N x card-id`; `#` starts a comment. The cards are
# those of the default pool (docs/rules/tcg.md lists them); a deck has exactly 20 cards
# and at most 4 copies of one card.
DECK = """4x spark
4x zap
4x bolt
4x blast
2x fireball
2x lava-burst
"""

# The health each hero starts with (from the rules at match start).
max_health = 30


def start(match: arena.MatchStart) -> None:
    global max_health
    # The rules say which variations are on (minions, healing, …).
    max_health = match.rules.starting_health


def setup(request: tcg.SetupRequest) -> tcg.DeckChoice:
    if not request.choose_deck:
        # Custom decks are off: everybody plays the default deck.
        return tcg.DeckChoice()
    # Our deck file, checked against the pool in use; if it does not fit (a card of a
    # variation that is off, say), fall back to the default deck.
    try:
        deck = tcg.parse_deck(DECK, request.pool)
    except tcg.DeckError as e:
        arena.log(f"deck: {e}")
        return tcg.DeckChoice()
    return tcg.DeckChoice(deck=deck)


def act(observation: tcg.Observation) -> tcg.Action:
    if observation.last_rejected is not None:
        arena.log(f"my last action was rejected: {observation.last_rejected}")
    me = observation.me()

    # 1. Low on health: heal if we can.
    if me.health * 3 <= max_health:
        for action in observation.legal:
            if action.play_card is not None and action.play_card.as_ == PlayAs.HEAL:
                return action

    # 2. Minions that may attack hit the enemy hero.
    for action in observation.legal:
        if action.attack is not None and action.attack.target.hero:
            return action

    # 3. Play the most expensive damage card we can afford at the enemy hero (of equal
    #    ones, the last listed). (Ideas: play minions, kill dangerous enemy minions, spend
    #    mana exactly.)
    best, best_damage = None, 0
    for action in observation.legal:
        play = action.play_card
        if play is None or play.as_ != PlayAs.SPELL or not play.target.hero:
            continue
        card = observation.hand_card(play.card)
        if card is None or card.card.kind != CardKind.DAMAGE:
            continue
        if best is None or card.card.damage >= best_damage:
            best, best_damage = action, card.card.damage
    if best is not None:
        return best

    # 4. Nothing worth doing: end the turn.
    return tcg.end_turn()


arena.play_tcg(setup, act, start=start)
