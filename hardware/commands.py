"""What each button does to the table, and which refusal screen a refused command gets.

The physical buttons, the web page's buttons and the demo's keyboard all come through here, so a
press means the same thing wherever it was made.
"""
from __future__ import annotations

import re

from companion.rules import R_DECK, R_DISCARD, R_HINT, R_OVER, R_PENDING
from companion.table import Change, CommandError, StoreFault, Table

from .buttons import BUTTONS, HOLD, PRESS
from .screens import Refusal

# (text in the table's refusal, refusal key), first match wins
_REFUSALS = (("no game yet", "no_game"), (R_HINT, "no_hints"), (R_DISCARD, "discard_max"),
             ("nothing to undo", "nothing_to_undo"), ("no unsure card", "nothing_pending"),
             ("ended at the table", "ended"), (R_OVER, "game_over"), ("already over", "game_over"),
             (R_DECK, "no_copies"), (R_PENDING, "reward_first"))
_CARD = re.compile(r"^([rygbwmk][1-5]) ")


def run(table: Table, button: str, gesture: str = PRESS) -> Change | None:
    """Carry out a button on the table. Returns the table's change, or None for OK pressed with no
    card waiting (the box then shows its status). Raises CommandError, table unchanged, if refused.

    HINT spends a hint token; UNDO takes back the last action (or dismisses an unsure card);
    OK confirms the unsure card; holding OK starts a new game with the same players and variant.
    A hold of HINT or UNDO counts as a press: a slow push is still a push.
    """
    if button not in BUTTONS or gesture not in (PRESS, HOLD):
        raise ValueError(f"buttons are {', '.join(BUTTONS)} and gestures {PRESS}, {HOLD}; "
                         f"got {button!r} {gesture!r}")
    if button == "hint":
        return table.act({"type": "hint"})
    if button == "undo":
        return table.undo()
    if gesture == HOLD:
        if not table.started:
            raise CommandError("no game yet: start one with the players' names and a variant")
        return table.new_game(list(table.players), table.variant.to_json())
    if table.pending is None:
        return None
    return table.confirm()


def refusal(error: CommandError) -> Refusal:
    """The screen for a refused command: the table's English reason, matched to a short line. A
    command the SD card could not save says so by the store's code (disk_full, write_failed, read_only)."""
    if isinstance(error, StoreFault):
        return Refusal(error.reason)
    message = str(error)
    for needle, key in _REFUSALS:
        if needle not in message:
            continue
        if key != "no_copies":
            return Refusal(key)
        card = _CARD.match(message)
        return Refusal(key, card.group(1)) if card else Refusal("rules")
    return Refusal("rules")
