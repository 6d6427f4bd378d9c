"""What a card the camera read can be on this table.

The card reader weighs all 35 kinds alike, but a game knows better: the box holds only the suits of
its variant, and only so many copies of each card, so a card whose copies are all played or
discarded cannot be the one just laid. The reading is weighed again over the cards that can still
come. When the reader's own best guess is a card whose copies are all on the table, it misread this
card or an earlier one, and the box asks; a suit the variant leaves out is simply no candidate. A
card laid in PLAY is mostly one its player knew to fit a firework (hints tell them), so there a
card that would not fit is taken as that much less likely (``MISPLAY``).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import CardError, parse_card
from .rules import State

# A card read at least this surely is judged at once, else the box asks (the setting
# ``[camera] confidence``). The reader is calibrated for it: its figures count a card read wrongly
# this surely as judged wrong (models/README.md).
SURE = 0.9
SHOWN = 3            # candidates offered when the box asks
SHOWN_FLOOR = 0.02   # a candidate less likely than this is not offered
# How much less likely a card laid in PLAY is to be one that would not fit its firework, per kind.
# The recorded games of tests/data say 0.045 (2-player games of people with AI partners, 85% of plays
# fit) and 0.01 (hanab.live's players, 97%); a family misplays more, and a misplay read unsurely
# should be asked about, not taken for the card that fits (models/README.md, "A card laid in PLAY").
MISPLAY = 0.2
# The box suggests teaching the deck once the camera has asked about this many of a game's cards, and
# at least this share of those laid: a deck the general reader finds hard, which a taught profile
# reads far more surely (the blue-faced edition untaught asks about a quarter of its cards, most
# decks a tenth or less: models/README.md, "Suggesting to teach the deck").
TEACH_ASKED = 5
TEACH_SHARE = 0.2


def cards_shown(asked: int, laid: int) -> int:
    """The cards a game showed the camera: the ``laid`` played or discarded, and any of the ``asked``
    beyond them (a card still waiting, or dismissed and laid again)."""
    return max(laid, asked)


def suggests_teaching(asked: int, laid: int) -> bool:
    """Whether a game whose camera asked about ``asked`` cards of the ``laid`` played or discarded
    (``cards_shown``) has shown its deck to be worth teaching."""
    return asked >= TEACH_ASKED and asked >= TEACH_SHARE * cards_shown(asked, laid)


@dataclass(frozen=True)
class Reading:
    """The card the camera saw, as this table can take it. ``card`` is None when none of its
    guesses can be here; ``used_up`` when its best guess is a card whose copies are all on the
    table (the box asks, however sure the reader was)."""

    card: str | None
    confidence: float
    candidates: tuple[str, ...]
    used_up: bool = False

    def sure(self, threshold: float) -> bool:
        """Judged at once (else the box asks): a card that can be here, at least this likely."""
        return self.card is not None and not self.used_up and self.confidence >= threshold


def can_be_laid(state: State, card: str) -> bool:
    """A copy of ``card`` may still be in the deck or a hand in this game."""
    try:
        return state.remaining(parse_card(card)) > 0
    except CardError:
        return False


def used_up(state: State, card: str) -> bool:
    """The box holds ``card`` in this variant, and every copy is already played or discarded."""
    try:
        known = parse_card(card)
    except CardError:
        return False
    return state.variant.card_counts[known] > 0 and state.remaining(known) <= 0


def fits(state: State, card: str) -> bool:
    """Played now, ``card`` would continue its firework."""
    try:
        known = parse_card(card)
    except CardError:
        return False
    return known.suit in state.variant.suits and state.next_value(known.suit) == known.value


def weigh(probabilities: Sequence[tuple[str, float]], state: State, zone: str | None = None) -> Reading:
    """``probabilities``: the reader's cards, each with its probability (0: named, but how likely
    not known); what they leave of 1 belongs to cards not listed and is kept as such, so one card
    listed alone keeps its probability. The cards that cannot be laid are left out, in PLAY
    (``zone``) a card that would not fit is taken as ``MISPLAY`` times as likely, and the rest
    scaled up to what they share. What the unlisted cards share is not weighed: it stays as
    unsure as the reader was."""
    if not probabilities:
        return Reading(None, 0.0, ())
    ranked = sorted(probabilities, key=lambda cp: -cp[1])
    rest = max(0.0, 1.0 - sum(p for _, p in ranked))
    possible = [(card, p if zone != "play" or fits(state, card) else p * MISPLAY)
                for card, p in ranked if can_be_laid(state, card)]
    spent = used_up(state, ranked[0][0])
    if not possible:
        return Reading(None, 0.0, (), spent)
    share = sum(p for _, p in possible) + rest
    weighed = sorted(((card, p / share if share > 0 else 0.0) for card, p in possible), key=lambda cp: -cp[1])
    shown = (weighed[0][0],) + tuple(card for card, p in weighed[1:] if p >= SHOWN_FLOOR or p == 0.0)
    return Reading(weighed[0][0], weighed[0][1], shown[:SHOWN], spent)
