"""A deck profile grown from the cards of a game.

Every card the camera told the table is a picture of the family's deck under their own lamp, cut out
of a pile as the box sees it during a game, and by the game's end the table knows what each one
was: read surely and never corrected, answered at the OK prompt, or corrected on the page. Added to
the box's learned profile (or starting one), those pictures make the next game's reading of that
deck far surer than the general network's, with no lesson at all. A deck the family taught is left
as they taught it: pictures cut out of piles added little to its photos on the decks this was
tried on, and lost on some.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .classifier import Classifier, Profile

MIN_CARDS = 10  # fewer cards say too little of a deck to start its profile or to judge which deck it is


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


def learn(pictures: list[tuple[str, np.ndarray]], old: Profile | None) -> Learned | None:
    """The learned profile ``old`` (or a new one) with ``pictures`` (``(card, crop)``) added, fitted
    again; None when there are too few pictures to go by, or ``old`` is a taught deck's."""
    if len(pictures) < MIN_CARDS or (old is not None and old.taught):
        return None
    fresh = old is None or of_another_deck(old, [crop for _, crop in pictures])
    profile = (Profile({}) if fresh or old is None else old).with_pictures(pictures)
    profile.fit(Classifier())
    return Learned(profile, len(profile.crops), fresh)
