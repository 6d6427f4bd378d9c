"""A deck profile grown from the cards of a game.

Every card the camera told the table is a picture of the family's deck under their own lamp, cut out
of a pile as the box sees it during a game, and by the game's end the table knows what each one
was: read surely and never corrected, answered at the OK prompt, or corrected on the page. Added to
the box's learned profile (or starting one), those pictures make the next game's reading of that
deck far surer than the general network's, with no lesson at all. A deck the family taught is left
as they taught it: pictures cut out of piles added little to its photos on the decks this was
tried on, and lost on some.

A deck the box has no profile of is read better as its first game goes (``GameDeck``): each card,
once the table has settled it, joins the deck's model at once, so the second and third copies of a
kind are read knowing the first.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import teach
from .classifier import MISMATCH_SEEN, Classifier, Profile, model_hash

MIN_CARDS = 10  # fewer cards say too little of a deck to start its profile or to judge which deck it is
# altered copies of each card a game's deck grows by: as many as were described of a taught photo
# when each way up had copies of its own. A deck of a game's first few cards has few copies to show
# how a copy varies, and each copy serving both ways up halved them (a card of a kind seen before
# read less surely: tests/vision/test_game_deck.py)
GROWN_COPIES = 2 * teach.COPIES


@dataclass(frozen=True)
class Learned:
    """``profile`` fitted; ``kinds`` it has pictures of; ``fresh``: begun anew from this game, as
    there was no profile or it was of another deck."""

    profile: Profile
    kinds: int
    fresh: bool


def of_another_deck(profile: Profile, crops: list[np.ndarray]) -> bool:
    """Most of these cards fit none of the profile's kinds: they are of another deck."""
    _, fits = Classifier(profile=profile).probabilities(crops, remember=False)
    return fits is not None and float(np.mean(fits)) < 0.5


def learn(pictures: list[tuple[str, np.ndarray]], old: Profile | None,
          stop: Callable[[], bool] = lambda: False) -> Learned | None:
    """The learned profile ``old`` (or a new one) with ``pictures`` (``(card, crop)``) added, fitted
    again; None when there are too few pictures to go by, or ``old`` is a taught deck's. Raises
    ``teach.Stopped`` if ``stop()`` turns true while fitting."""
    if len(pictures) < MIN_CARDS or (old is not None and old.taught):
        return None
    fresh = old is None or of_another_deck(old, [crop for _, crop in pictures])
    profile = (Profile({}) if fresh or old is None else old).with_pictures(pictures)
    profile.fit(Classifier(), stop=stop)
    return Learned(profile, len(profile.crops), fresh)


Named = dict[int, tuple[str, np.ndarray]]  # a game's cards settled so far: place in the record -> (card, picture)


class GameDeck:
    """The deck as the game on the table has shown it so far, grown card by card, for a box that has
    no profile of this deck: each card's altered copies are described once (``teach.Lessons``), so
    fitting the deck's model again for a new card takes a second or two, not the time of teaching a
    deck. A taught profile is never grown, nor a learned one of the deck on the table (it already
    knows the deck better than a game's first cards do): the camera reads on with it. A learned
    profile of another deck is told by the game's first cards (``MISMATCH_SEEN``); the game's own
    deck is grown from then on."""

    def __init__(self, old: Profile | None, classifier: Classifier | None = None) -> None:
        self._old = old
        reader = classifier or Classifier()
        self._lessons = teach.Lessons(reader.describe, reader.turned_columns())
        self._cards: Named = {}
        self._grows: bool | None = True if old is None else False if old.taught else None  # None: not known yet

    def update(self, named: Named, stop: Callable[[], bool] = lambda: False) -> Profile | None:
        """The profile to read the rest of the game with, now that ``named`` are the game's cards
        (a card undone or corrected since is dropped or renamed); None while it would not change
        what the camera reads with, or if ``stop()`` turned true between two cards (the box stops)."""
        if self._grows is None and len(named) >= MISMATCH_SEEN:
            assert self._old is not None
            self._grows = of_another_deck(self._old, [crop for _, crop in named.values()])
        if not self._grows:
            return None
        changed = False
        for place in [p for p, (card, _) in self._cards.items() if named.get(p, ("",))[0] != card]:
            self._lessons.remove(place)
            del self._cards[place]
            changed = True
        for place, (card, crop) in named.items():
            if stop():
                return None
            if place not in self._cards:
                self._lessons.add(place, card, [crop], GROWN_COPIES)
                self._cards[place] = (card, crop)
                changed = True
        if not changed or not self._cards:
            return None
        crops: dict[str, list[np.ndarray]] = {}
        for card, crop in self._cards.values():
            crops.setdefault(card, []).append(crop)
        return Profile(crops, self._lessons.model(), model_hash(), taught=False)
