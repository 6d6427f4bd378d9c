"""What a camera tells the game, and the parts the composition root plugs together to hear it.

The vision package produces these events and implements the protocols; the app's camera service
consumes them. Both sides depend on this module, never on each other, so the game can be driven by
a real camera, a recorded folder of frames or a test without the wiring knowing which.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class CardPlaced:
    """A card newly lying on top in ``zone`` (``play`` or ``discard``); ``card`` is None when the
    reader could not tell, ``candidates`` are its best guesses in order, ``probabilities`` every card
    it did not rule out with its probability, most likely first (empty: only ``confidence`` known).
    ``picture`` is the card as the camera saw it, for the box to learn the deck from once the game
    has settled what the card was; the game never looks at it."""

    zone: str
    card: str | None
    confidence: float
    candidates: tuple[str, ...]
    probabilities: tuple[tuple[str, float], ...] = ()
    picture: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ZoneCleared:
    """Nothing lies in ``zone`` any more."""

    zone: str


CameraEvent = CardPlaced | ZoneCleared


class Source(Protocol):
    """Frames, one at a time, from wherever they come."""

    def read(self) -> Any: ...
    def close(self) -> None: ...


@runtime_checkable
class Detailed(Protocol):
    """A source that also has a raw picture of the frame it read last to cut cards out of: a camera's
    larger stream, or the raw frame itself (the Pi camera without memory for its larger stream)."""

    def detail(self) -> Any:
        """That picture, made when asked for (None if there is none now)."""


class Watcher(Protocol):
    """Turns a stream of frames into events, once per card laid. ``detail``: the source's
    ``Detailed.detail`` when it has one, for the watcher to ask for when it reads a card."""

    def feed(self, frame: Any, now: float, detail: Callable[[], Any] | None = None) -> list[CameraEvent]: ...
    def known(self, zone: str, card: str) -> None:
        """The game's record names the card now on top of ``zone``: a card laid on it is judged
        against that, not against how it was read, and a pile found there when the watcher starts
        is that card, told before."""

    def new_game(self) -> None:
        """A new game started at the table: it may be played with another deck."""
