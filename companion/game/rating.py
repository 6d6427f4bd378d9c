"""The rulebooks' "artistic impression" scale, reworded; its words are in the box's one catalogue.

Five-suit games top out at 25 ("legendary"); six-suit games (max 30) stretch "legendary" over
25-29 and add a line for a perfect 30. All-or-nothing uses no scale: the show is perfect or lost.
"""
from __future__ import annotations

from companion.words import LANGUAGES, N_, Message, translate

# (lowest score of the band, key); the first band that fits, searching from the top, wins.
_BANDS = ((30, "divine"), (25, "legendary"), (21, "brilliant"), (16, "great"),
          (11, "decent"), (6, "weak"), (None, "dreadful"))

# the lines in English; their translations are in the one catalogue (companion.words)
LINES: dict[str, Message] = {
    "dreadful": N_("Dreadful: the crowd boos."),
    "weak": N_("Forgettable: a few polite claps."),
    "decent": N_("Decent, but nobody will remember it."),
    "great": N_("Great: the crowd is delighted."),
    "brilliant": N_("Brilliant: people will talk about it for weeks."),
    "legendary": N_("Legendary: the audience is left speechless."),
    "divine": N_("Divine: the show outshone the stars."),
    "perfect": N_("A perfect show: every firework is complete."),
    "failed": N_("The show had to be perfect, and it was not."),
}


def lines(lang: str) -> dict[str, str]:
    """Every line of the scale in ``lang``, by key (the page's script picks the one it needs)."""
    return {key: translate(message, lang) for key, message in LINES.items()}


def rating_key(score: int, max_score: int, all_or_nothing: bool = False) -> str:
    if all_or_nothing:
        return "perfect" if score >= max_score else "failed"
    for low, key in _BANDS:
        if low is None or score >= low:
            return key
    raise AssertionError("unreachable: the last band takes every score")


def rating_line(score: int, max_score: int, lang: str = "en", all_or_nothing: bool = False) -> str:
    """The scale's line for a score; unknown languages fall back to English."""
    return translate(LINES[rating_key(score, max_score, all_or_nothing)], lang if lang in LANGUAGES else "en")
