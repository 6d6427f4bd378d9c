"""A game to take home: its table log, and one CSV row per action with the table's figures after it."""
from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

from companion.game.rules import apply, new_game
from companion.game.store import Store
from companion.game.table import CommandError, Table, stored_log
from companion.game.tablelog import TableLog

COLUMNS = ("index", "player", "type", "card", "to", "clue", "announce", "tile", "as",
           "score", "hints", "fuses", "deck")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet would run a cell starting so as a formula


class NoGame(LookupError):
    """No such game to export; the message says why."""


def find_log(table: Table, store: Store | None, game_id: int) -> TableLog:
    """A game as a table log: any stored game, or the one on the table when the box keeps no history."""
    if store is None:
        if game_id != table.game_id or not table.started:
            raise NoGame(f"no game {game_id}: this box keeps no history")
        return table.log()
    try:
        return stored_log(store, game_id)
    except CommandError as e:
        raise NoGame(str(e)) from None


def rows(log: TableLog) -> Iterator[dict[str, Any]]:
    """Each action with who acted and the score, hint tokens, fuses used and deck after it."""
    state = new_game(log.variant, len(log.players))
    for i, action in enumerate(log.actions):
        player = log.players[state.current_player]
        state = apply(state, action)
        to = action.get("to")
        yield {"index": i, "player": _text(player), "type": action["type"], "card": action.get("card", ""),
               "to": _text(log.players[to]) if isinstance(to, int) and 0 <= to < len(log.players) else "",
               "clue": action.get("clue", ""), "announce": action.get("announce", ""),
               "tile": action.get("tile", ""), "as": action.get("as", ""),
               "score": state.score, "hints": state.hints, "fuses": state.fuses_used, "deck": state.deck}


def to_csv(log: TableLog) -> str:
    """The CSV file: a header row, then one row per action; UTF-8 with a byte-order mark so that
    spreadsheets read the players' names right."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.DictWriter(out, fieldnames=COLUMNS)
    writer.writeheader()
    writer.writerows(rows(log))
    return out.getvalue()


def _text(value: str) -> str:
    """A name as a spreadsheet shows it, never as a formula it runs."""
    return "'" + value if value.startswith(_FORMULA) else value
