"""Request bodies into table commands: every field is checked here, so a bad request says what
is wrong (400) before the table sees it, and the table itself refuses what the rules forbid (409)."""
from __future__ import annotations

from typing import Any

from companion.game.cards import CardError, parse_card
from companion.game.table import Change, Table

from .i18n import LANGUAGES

# The fields each command may carry besides "type".
ACTION_FIELDS: dict[str, frozenset[str]] = {
    "hint": frozenset({"to", "clue"}),
    "play": frozenset({"card", "announce"}),
    "discard": frozenset({"card"}),
    "reward": frozenset({"tile", "card", "clue", "as"}),
    "undo": frozenset(),
    "correct": frozenset({"index", "card"}),
    "confirm": frozenset({"card"}),
    "end": frozenset(),
}
GAME_FIELDS = frozenset({"players", "variant", "first_player", "lang"})
MAX_NAME = 24


class BadRequest(ValueError):
    """Input the API cannot use; the message tells the sender how to fix it."""


def _object(body: Any, example: str) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise BadRequest(f"the body must be a JSON object like {example}; got {type(body).__name__}")
    return body


def _card(value: Any) -> str:
    try:
        return str(parse_card(value))
    except CardError as e:
        raise BadRequest(str(e)) from None


def run_action(table: Table, body: Any) -> Change:
    """Carry out one ``POST /api/actions`` body; raises BadRequest or the table's CommandError."""
    body = _object(body, '{"type": "play", "card": "r1"}')
    kind = body.get("type")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise BadRequest(f"'type' must be one of {', '.join(ACTION_FIELDS)}; got {kind!r}")
    extra = sorted(set(body) - ACTION_FIELDS[kind] - {"type"})
    if extra:
        raise BadRequest(f"a {kind} action has no field {', '.join(map(repr, extra))}; "
                         f"allowed: {', '.join(sorted(ACTION_FIELDS[kind])) or 'none'}")
    action = dict(body)
    if action.get("card") is not None:
        action["card"] = _card(action["card"])
    if kind == "undo":
        return table.undo()
    if kind == "end":
        return table.end_game()
    if kind == "confirm":
        return table.confirm(action.get("card"))
    if kind == "correct":
        index = body.get("index")
        if type(index) is not int:
            raise BadRequest(f"'index' is the number of the action to correct (0 is the first); got {index!r}")
        if "card" not in action:
            raise BadRequest("a correction needs the right card, like {\"type\": \"correct\", \"index\": 3, "
                             "\"card\": \"r3\"}")
        return table.correct(index, action["card"])
    if kind in ("play", "discard") and "card" not in action:
        raise BadRequest(f"a {kind} needs the card, like {{\"type\": \"{kind}\", \"card\": \"r1\"}}")
    return table.act(action)


def new_game_request(body: Any) -> tuple[Any, Any, int, str | None]:
    """Check a ``POST /api/games`` body: (players, variant, first player, language or None)."""
    body = _object(body, '{"players": ["Ann", "Ben", "Cat"], "variant": "base"}')
    extra = sorted(set(body) - GAME_FIELDS)
    if extra:
        raise BadRequest(f"a new game has no field {', '.join(map(repr, extra))}; "
                         f"allowed: {', '.join(sorted(GAME_FIELDS))}")
    if "players" not in body:
        raise BadRequest("a new game needs 'players': a list of 2-5 names in turn order, or a count")
    players = body["players"]
    if isinstance(players, list) and any(isinstance(p, str) and len(p.strip()) > MAX_NAME for p in players):
        raise BadRequest(f"a player's name is at most {MAX_NAME} characters")
    first = body.get("first_player", 0)
    if type(first) is not int:
        raise BadRequest(f"'first_player' is the index of the player who starts; got {first!r}")
    lang = body.get("lang")
    if lang is not None and lang not in LANGUAGES:
        raise BadRequest(f"'lang' is one of {', '.join(LANGUAGES)}; got {lang!r}")
    return players, body.get("variant", "base"), first, lang
