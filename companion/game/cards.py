"""Cards and their notation: a lower-case suit letter and a value, as in ``r3``."""
from __future__ import annotations

from dataclasses import dataclass

SUITS = "rygbwmk"
SUIT_NAMES = {
    "r": "red", "y": "yellow", "g": "green", "b": "blue", "w": "white",
    "m": "multicolour", "k": "black",
}
BASE_SUITS = "rygbw"
VALUES = (1, 2, 3, 4, 5)
# Copies of each value in one ordinary suit: three 1s, two 2s, 3s and 4s, one 5.
STANDARD_VALUES = (1, 1, 1, 2, 2, 3, 3, 4, 4, 5)


class CardError(ValueError):
    """A card written in a way the notation does not allow (``x9``, ``r6``, ``red``)."""


@dataclass(frozen=True, order=True)
class Card:
    suit: str
    value: int

    def __str__(self) -> str:
        return f"{self.suit}{self.value}"

    @property
    def black(self) -> bool:
        return self.suit == "k"


def parse_card(text: object) -> Card:
    """Read ``r3`` (any case, surrounding spaces allowed) into a Card."""
    if not isinstance(text, str):
        raise CardError(f"a card is written as a suit letter and a value, like 'r3'; got {text!r}")
    s = text.strip().lower()
    if len(s) != 2 or s[0] not in SUITS or not s[1].isdigit() or int(s[1]) not in VALUES:
        raise CardError(
            f"'{text}' is not a card: write a suit letter ({', '.join(SUITS)}) "
            "and a value 1-5, like 'r3'")
    return Card(s[0], int(s[1]))
