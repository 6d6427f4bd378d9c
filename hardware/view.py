"""What the OLED needs to know about the table, as a small immutable value.

Screens are pure functions of this value, so two equal views always give the same image and the
box can skip drawing when nothing it shows has changed.
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.game.reading import suggests_teaching
from companion.game.table import Table


@dataclass(frozen=True)
class PendingCard:
    """The card the camera was unsure of: its best guess and the alternatives."""

    action: str                 # play | discard
    card: str
    others: tuple[str, ...]


@dataclass(frozen=True)
class View:
    """The public count of one moment of the game, as the box shows it."""

    players: tuple[str, ...]
    current: int
    hints: int
    hint_tokens: int
    fuses_used: int
    fuse_tokens: int
    deck: int
    score: int
    max_score: int
    turn: int
    pace: int                   # spare turns beyond those the fireworks still need
    final_turns_left: int | None = None
    over: bool = False
    outcome: str = "in_progress"
    all_or_nothing: bool = False
    reward_due: bool = False
    pending: PendingCard | None = None
    asked: int = 0              # cards of this game the camera was unsure of
    laid: int = 0               # cards of this game played or discarded (``reading.cards_shown``)

    @property
    def suggest_teaching(self) -> bool:
        """The camera was unsure of so many cards that teaching it the deck would pay off."""
        return suggests_teaching(self.asked, self.laid)

    @property
    def player(self) -> str:
        return self.players[self.current]

    @classmethod
    def of(cls, table: Table) -> View | None:
        """The view of the table now, or None before the first game."""
        if not table.started:
            return None
        st, game = table.state, table.game
        pending = None
        if table.pending is not None:
            card = str(table.pending.action.get("card", ""))
            pending = PendingCard(table.pending.action["type"], card,
                                  tuple(c for c in table.pending.candidates if c != card))
        return cls(players=tuple(table.players), current=st.current_player, hints=st.hints,
                   hint_tokens=st.variant.hint_tokens, fuses_used=st.fuses_used,
                   fuse_tokens=st.variant.fuse_tokens, deck=st.deck, score=st.score,
                   max_score=st.max_score, turn=st.turns + (0 if st.over else 1),
                   final_turns_left=st.final_turns_left, over=st.over, outcome=st.outcome,
                   all_or_nothing=st.variant.all_or_nothing,
                   reward_due=st.pending_rewards > 0, pending=pending, pace=st.pace,
                   asked=0 if game is None else game.asked,
                   laid=0 if game is None else game.cards_shown)

