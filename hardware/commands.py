"""What each button does to the table, and which refusal screen a refused command gets.

The physical buttons, the web page's buttons and the demo's keyboard all come through here, so a
press means the same thing wherever it was made.
"""
from __future__ import annotations

from companion.game.table import NO_GAME, Change, CommandError, Table

from .buttons import BUTTONS, HOLD, PRESS
from .screens import Refusal

# the refusals the OLED has its own short line for, by the table's code; any other rule is "rules"
_REFUSALS = ("no_game", "no_hints", "discard_max", "nothing_to_undo", "nothing_pending", "ended", "game_over",
             "no_copies", "reward_first", "disk_full", "write_failed", "read_only")


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
            raise CommandError("no game yet: start one with the players' names and a variant", code=NO_GAME)
        return table.new_game(list(table.players), table.variant.to_json())
    if table.pending is None:
        return None
    return table.confirm()


def refusal(error: CommandError) -> Refusal:
    """The screen for a refused command, by the table's code: a short line of its own for the common
    ones (a command the SD card could not save says so), "the rules forbid that" for the rest."""
    if error.code not in _REFUSALS or (error.code == "no_copies" and error.card is None):
        return Refusal("rules")
    return Refusal(error.code, error.card) if error.code == "no_copies" else Refusal(error.code)
