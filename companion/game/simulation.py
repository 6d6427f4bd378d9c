"""A simulated table for the demo: a shuffled deck, real hands, and a bot that plays sensibly.

The bot sees every hand (it plays all seats), so it can play what fits, save the last copies and
spend hints when nothing better is left. Each move it makes is a real table-log action; the demo
shows plays and discards to the camera as rendered cards and presses HINT for clues.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .cards import Card
from .rules import State, apply, hand_size, new_game
from .variants import REWARD_TILES, Variant


@dataclass
class SimulatedGame:
    variant: Variant
    players: int
    seed: int = 0
    state: State = field(init=False)
    deck: list[Card] = field(init=False)
    hands: list[list[Card]] = field(init=False)
    tiles: list[str] = field(init=False)
    actions: list[dict[str, Any]] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self._rng = rng = random.Random(self.seed)
        self.deck = [card for card, n in sorted(self.variant.deck_counts().items()) for _ in range(n)]
        rng.shuffle(self.deck)
        size = hand_size(self.players)
        self.hands = [[self.deck.pop() for _ in range(size)] for _ in range(self.players)]
        self.tiles = list(REWARD_TILES)
        rng.shuffle(self.tiles)
        self.state = new_game(self.variant, self.players)

    @property
    def over(self) -> bool:
        return self.state.over

    def next_action(self) -> dict[str, Any]:
        """The bot's choice for the player to act (or the reward tile to resolve)."""
        s = self.state
        if s.pending_rewards:
            return self._reward()
        hand = self.hands[s.current_player]
        playable = [c for c in hand if s.next_value(c.suit) == c.value]
        if playable:
            return {"type": "play", "card": str(min(playable, key=lambda c: (c.value, c.suit)))}
        can_discard = hand and (s.hints < self.variant.hint_tokens or self.variant.allow_discard_at_max_hints)
        safe = [c for c in hand if self._safe_to_discard(c)]
        if can_discard and (safe or s.hints == 0):
            return {"type": "discard", "card": str((safe or self._least_needed(hand))[0])}
        if s.hints > 0:
            return {"type": "hint", "to": (s.current_player + 1) % self.players}
        return {"type": "play", "card": str(hand[0])}  # nothing else is allowed: a bold play

    def step(self, action: dict[str, Any] | None = None) -> dict[str, Any]:
        """Carry out ``action`` (default: the bot's choice) on the simulated table."""
        action = action or self.next_action()
        player = self.state.current_player
        self.state = apply(self.state, action)
        self.actions.append(action)
        if action["type"] in ("play", "discard"):
            hand = self.hands[player]
            hand.remove(Card(action["card"][0], int(action["card"][1])))
            if not self.state.pending_rewards and not self.state.over and self.deck:
                hand.append(self.deck.pop())
        elif action["type"] == "reward":
            self._after_reward(action)
        return action

    # -- choices --------------------------------------------------------------------------------
    def _safe_to_discard(self, card: Card) -> bool:
        s = self.state
        if card.value not in s.needed(card.suit):
            return True  # already played, or its firework can no longer reach it
        others = sum(h.count(card) for h in self.hands) + self.deck.count(card)
        return others > 1  # another copy is still around

    def _least_needed(self, hand: list[Card]) -> list[Card]:
        s = self.state
        return sorted(hand, key=lambda c: (-abs(c.value - (s.next_value(c.suit) or 0)), c.suit))

    def _reward(self) -> dict[str, Any]:
        s = self.state
        tile = next(t for t in self.tiles if t in s.tiles_left)
        discards = sorted(set(s.discards))
        fits = [c for c in discards if s.next_value(c[0]) == int(c[1])]
        if tile == "rescue" or (tile == "reshuffle" and s.deck == 0):
            action = {"type": "reward", "tile": tile}
            if fits:
                action["card"] = fits[0]
            if tile == "reshuffle" and fits:
                action["as"] = "rescue"
            return action
        if tile == "reshuffle" and discards:
            return {"type": "reward", "tile": tile, "card": discards[0]}
        return {"type": "reward", "tile": tile}

    def _after_reward(self, action: dict[str, Any]) -> None:
        card = action.get("card")
        if action["tile"] == "reshuffle" and card and action.get("as") != "rescue":
            self.deck.insert(self._rng.randrange(len(self.deck) + 1), Card(card[0], int(card[1])))
        if not self.state.pending_rewards and not self.state.over and self.deck:
            completing = (self.state.current_player - 1) % self.players
            self.hands[completing].append(self.deck.pop())
