"""The classifier's classes: every card the boxed games hold, in a fixed order."""
from companion.game.cards import SUITS, VALUES

LABELS: tuple[str, ...] = tuple(f"{s}{v}" for s in SUITS for v in VALUES)
