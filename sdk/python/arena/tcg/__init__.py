"""Mode tcg, the Trading Card Game kata (the arena's docs/rules/tcg.md): two heroes with 30
health draw cards from 20-card decks. On its turn the active player may play as many
cards as its mana allows, attack with its minions, and end the turn; the bot is asked for
one Action at a time until it ends its turn. Every Observation lists the legal actions.

The protocol types (`types.py`) are generated from the Rust SDK's (sdk/src/tcg.rs); this
module adds the helpers the Rust SDK has, and parse_deck for deck files."""

from typing import List, Optional

from .types import *  # noqa: F401,F403
from .types import Card, CardInstance, CardKind, CardPool, Hero, Minion, Observation


def _me(self: Observation) -> Hero:
    """The receiving bot's hero."""
    return self.heroes[self.seat & 1]


def _opponent(self: Observation) -> Hero:
    """The other hero."""
    return self.heroes[1 - (self.seat & 1)]


def _minions_of(self: Observation, seat: int) -> List[Minion]:
    """The minions of seat on the board, in board order."""
    return [m for m in self.board if m.owner == seat]


def _hand_card(self: Observation, uid: int) -> Optional[CardInstance]:
    """The card with this uid in the bot's hand, or None."""
    for c in self.hand:
        if c.uid == uid:
            return c
    return None


def _card(self: CardPool, card_id: str) -> Optional[Card]:
    """The card of the pool with this id, or None."""
    for c in self.cards:
        if c.id == card_id:
            return c
    return None


def _amount(self: Card) -> int:
    """The card's effect: its damage, heal or draw, by its kind."""
    if self.kind == CardKind.HEAL:
        return self.heal
    if self.kind == CardKind.DRAW:
        return self.draw
    return self.damage


Observation.me = _me
Observation.opponent = _opponent
Observation.minions_of = _minions_of
Observation.hand_card = _hand_card
CardPool.card = _card
Card.amount = _amount


class DeckError(ValueError):
    """A deck file's mistake, with its line (from 1)."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line, self.message = line, message


def parse_deck(text: str, pool: CardPool) -> List[str]:
    """Read a deck file — one entry per line, `card-id`, `2x card-id` or `2 x card-id`, `#`
    starting a comment — and check it against pool: known cards, at most pool.max_copies
    of each, exactly pool.deck_size in all. Raises DeckError with the Rust SDK's
    messages."""
    cards: List[str] = []
    copies: dict = {}
    last_line = 0
    lines = text.split("\n")
    if text.endswith("\n"):
        lines = lines[:-1]
    for idx, raw in enumerate(lines):
        line = idx + 1
        last_line = line
        content = raw.rstrip("\r").split("#", 1)[0].strip()
        if not content:
            continue
        words = content.split()
        if len(words) == 1:
            count, card_id = "1", words[0]
        elif len(words) == 2 and words[0][-1:] in ("x", "X"):
            count, card_id = words[0][:-1], words[1]
        elif len(words) == 3 and words[1].lower() == "x":
            count, card_id = words[0], words[2]
        else:
            raise DeckError(
                line, f"cannot read `{content}`; write `card-id`, `2x card-id` or `2 x card-id`"
            )
        digits = count[1:] if count.startswith("+") else count
        if not digits.isdigit() or not digits.isascii() or int(digits) == 0 or int(digits) >= 1 << 32:
            raise DeckError(line, f"`{count}` is not a positive number of copies")
        n = int(digits)
        if pool.card(card_id) is None:
            raise DeckError(line, f"unknown card `{card_id}` (not in the card pool in use)")
        copies[card_id] = min(copies.get(card_id, 0) + n, (1 << 32) - 1)
        if copies[card_id] > pool.max_copies:
            raise DeckError(
                line,
                f"{copies[card_id]} copies of `{card_id}`, at most {pool.max_copies} are allowed",
            )
        if len(cards) + n > pool.deck_size:
            raise DeckError(
                line, f"the deck has {len(cards) + n} cards, a deck needs exactly {pool.deck_size}"
            )
        cards.extend([card_id] * n)
    if len(cards) != pool.deck_size:
        raise DeckError(
            max(last_line, 1),
            f"the deck has {len(cards)} cards, a deck needs exactly {pool.deck_size}",
        )
    return cards
