"""Variant options and presets from the boxed rules, validated so a typo is an error, not a new game."""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, fields, replace
from functools import cached_property
from typing import Any

from .cards import BASE_SUITS, STANDARD_VALUES, Card

MULTICOLOR_SHORT = (1, 2, 3, 4, 5)
DEFAULT_BLACK_VALUES = (5, 5, 5, 4, 4, 3, 3, 2, 2, 1)
REWARD_TILES = ("hint", "fuse", "color_clue", "value_clue", "reshuffle", "rescue")


class VariantError(ValueError):
    """A variant name or option the rules do not know."""


@dataclass(frozen=True)
class Variant:
    preset: str = "base"
    hint_tokens: int = 8
    fuse_tokens: int = 3
    multicolor: str = "none"
    multicolor_cards: int = 10
    black_powder: bool = False
    black_values: tuple[int, ...] = DEFAULT_BLACK_VALUES
    rewards: bool = False
    all_or_nothing: bool = False
    synchronized_show: bool = False
    strikeout_score: str = "zero"
    allow_discard_at_max_hints: bool = False

    @property
    def suits(self) -> str:
        """Suits in play, in firework order."""
        return BASE_SUITS + ("m" if self.multicolor != "none" else "") + ("k" if self.black_powder else "")

    @property
    def scoring_suits(self) -> str:
        """Suits whose top card adds to the score (black only takes points away)."""
        return self.suits.replace("k", "")

    @property
    def max_score(self) -> int:
        return 5 * len(self.scoring_suits)

    def suit_values(self, suit: str) -> tuple[int, ...]:
        if suit == "m":
            return STANDARD_VALUES if self.multicolor_cards == 10 else MULTICOLOR_SHORT
        if suit == "k":
            return self.black_values
        return STANDARD_VALUES

    @cached_property
    def card_counts(self) -> Counter[Card]:
        counts: Counter[Card] = Counter()
        for suit in self.suits:
            for v in self.suit_values(suit):
                counts[Card(suit, v)] += 1
        return counts

    def deck_counts(self) -> Counter[Card]:
        """How many copies of each card the box holds for this variant (a copy: callers may change it)."""
        return Counter(self.card_counts)

    def deck_size(self) -> int:
        return sum(len(self.suit_values(s)) for s in self.suits)

    def to_json(self) -> dict[str, Any]:
        """The variant as a table-log object: the preset plus every option that differs from it."""
        base = PRESETS[self.preset]
        out: dict[str, Any] = {"preset": self.preset}
        for f in fields(self):
            if f.name != "preset" and getattr(self, f.name) != getattr(base, f.name):
                v = getattr(self, f.name)
                out[f.name] = list(v) if isinstance(v, tuple) else v
        return out if len(out) > 1 else self.preset  # type: ignore[return-value]

    def options(self) -> dict[str, Any]:
        d = asdict(self)
        d["black_values"] = list(self.black_values)
        return d


PRESETS: dict[str, Variant] = {
    "base": Variant(),
    "rainbow": Variant(preset="rainbow", multicolor="suit"),
    "rainbow-short": Variant(preset="rainbow-short", multicolor="suit", multicolor_cards=5),
    "rainbow-wild": Variant(preset="rainbow-wild", multicolor="wild"),
    "rainbow-wild-short": Variant(preset="rainbow-wild-short", multicolor="wild", multicolor_cards=5),
    "black-powder": Variant(preset="black-powder", black_powder=True),
    "five-magnificent": Variant(preset="five-magnificent", rewards=True),
    "all-or-nothing": Variant(preset="all-or-nothing", all_or_nothing=True),
}

_CHOICES: dict[str, tuple[Any, ...]] = {
    "hint_tokens": (8, 9),
    "fuse_tokens": (3, 2, 1),
    "multicolor": ("none", "suit", "wild"),
    "multicolor_cards": (10, 5),
    "black_powder": (False, True),
    "rewards": (False, True),
    "all_or_nothing": (False, True),
    "synchronized_show": (False, True),
    "strikeout_score": ("zero", "fireworks"),
    "allow_discard_at_max_hints": (False, True),
}


def _check_choice(name: str, value: Any) -> Any:
    allowed = _CHOICES[name]
    # bool is an int in Python: keep true/false and numbers apart.
    if not any(type(value) is type(a) and value == a for a in allowed):
        shown = ", ".join(str(a).lower() if isinstance(a, bool) else str(a) for a in allowed)
        raise VariantError(f"variant option '{name}' must be one of {shown}; got {value!r}")
    return value


def _check_black_values(value: Any) -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)) or not value or not all(
            type(v) is int and 1 <= v <= 5 for v in value):
        raise VariantError("variant option 'black_values' must be a list of card values 1-5, "
                           "like [5,5,5,4,4,3,3,2,2,1]")
    if set(value) != {1, 2, 3, 4, 5}:
        raise VariantError("variant option 'black_values' must hold every value 1-5 at least once, "
                           "or the black firework could never be completed")
    return tuple(value)


def parse_variant(spec: Any = "base") -> Variant:
    """A preset name, or ``{"preset": NAME, OPTION: VALUE, ...}``, into a validated Variant."""
    if spec is None:
        spec = "base"
    if isinstance(spec, str):
        spec = {"preset": spec}
    if not isinstance(spec, dict):
        raise VariantError(f"a variant is a preset name or an object with options; got {spec!r}")
    name = spec.get("preset", "base")
    if not isinstance(name, str) or name not in PRESETS:
        raise VariantError(f"unknown variant preset {name!r}; choose one of: {', '.join(PRESETS)}")
    changes: dict[str, Any] = {}
    for key, value in spec.items():
        if key == "preset":
            continue
        if key == "black_values":
            changes[key] = _check_black_values(value)
        elif key in _CHOICES:
            changes[key] = _check_choice(key, value)
        else:
            raise VariantError(f"unknown variant option {key!r}; known options: "
                               f"{', '.join(list(_CHOICES) + ['black_values'])}")
    return replace(PRESETS[name], **changes)
