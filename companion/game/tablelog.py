"""The table log, the project's exchange format: variant, players and the actions in order."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .rules import LogError, State, fold
from .variants import Variant, VariantError, parse_variant


@dataclass(frozen=True)
class TableLog:
    variant: Variant
    players: tuple[str, ...]
    actions: tuple[dict[str, Any], ...]

    def fold(self) -> State:
        return fold(self.variant, len(self.players), list(self.actions))

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant.to_json(), "players": list(self.players),
                "actions": list(self.actions)}


def player_names(players: Any) -> tuple[str, ...]:
    """A count (names become "Player 1"...) or a list of names."""
    if type(players) is int:
        if not 2 <= players <= 5:
            raise LogError(f"Hanabi is played by 2 to 5 players; got {players}")
        return tuple(f"Player {i + 1}" for i in range(players))
    if isinstance(players, list) and all(isinstance(p, str) and p.strip() for p in players):
        if not 2 <= len(players) <= 5:
            raise LogError(f"Hanabi is played by 2 to 5 players; got {len(players)} names")
        return tuple(p.strip() for p in players)
    raise LogError(f"'players' is a count 2-5 or a list of 2-5 names; got {players!r}")


def parse_log(data: Any) -> TableLog:
    """Check the outer shape of a table log; actions are checked as they are folded."""
    if not isinstance(data, dict):
        raise LogError("a table log is a JSON object with 'variant', 'players' and 'actions'")
    try:
        variant = parse_variant(data.get("variant", "base"))
    except VariantError as e:
        raise LogError(str(e)) from None
    if "players" not in data:
        raise LogError("the table log has no 'players' (a count or a list of names)")
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise LogError("'actions' must be a list of actions")
    return TableLog(variant, player_names(data["players"]), tuple(actions))


def loads(text: str) -> TableLog:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise LogError(f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    return parse_log(data)
