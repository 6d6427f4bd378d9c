"""Small helpers for rules tests: build states by folding actions, and burn through the deck."""
from __future__ import annotations

from typing import Any

from companion.game.cards import Card
from companion.game.rules import State, apply, new_game
from companion.game.variants import parse_variant


def start(variant: Any = "base", players: int = 2) -> State:
    return new_game(parse_variant(variant), players)


def run(state: State, *actions: Any) -> State:
    """Apply actions written as 'hint', 'p r1' (play), 'd b4' (discard) or dicts."""
    for a in actions:
        state = apply(state, _action(a))
    return state


def _action(a: Any) -> dict[str, Any]:
    if isinstance(a, dict):
        return a
    if a == "hint":
        return {"type": "hint"}
    kind, card = a.split()
    return {"type": {"p": "play", "d": "discard"}[kind], "card": card}


def spare_card(state: State, avoid: tuple[str, ...] = ()) -> str:
    """A card that can still be discarded without losing any firework (a spare copy)."""
    counts, seen = state.variant.deck_counts(), state.seen()
    best = None
    for card in sorted(counts, key=lambda c: (c.suit == "k", -c.value)):
        left = counts[card] - seen[card]
        if str(card) in avoid or left <= 0:
            continue
        if left > 1 or _dead(state, card):
            return str(card)
        best = best or str(card)
    assert best is not None, "no card left to discard"
    return best


def _dead(state: State, card: Card) -> bool:
    return card.value not in state.needed(card.suit)


def burn(state: State, cards: int) -> State:
    """Discard ``cards`` spare cards, taking hints in between so every discard is allowed."""
    for _ in range(cards):
        if state.hints >= state.variant.hint_tokens:
            state = run(state, "hint")
        state = run(state, f"d {spare_card(state)}")
    return state
