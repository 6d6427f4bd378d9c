"""The table as the web shows it: the table's snapshot plus what only the web adds."""
from __future__ import annotations

import logging
from typing import Any, Callable

from companion.rating import rating_key
from companion.table import Table

log = logging.getLogger(__name__)

CAMERA_STATES = ("ok", "missing", "fault")

# How the rules word why a game ended, as keys the page translates (the English stays in "reason").
REASON_KEYS = (("every firework is complete", "complete"), ("the last fuse burned", "fuse"),
               ("the final round is over", "final"), ("a card needed to finish", "card_lost"),
               ("no player can act", "stuck"), ("ended at the table", "ended"))


def camera_value(camera_status: Callable[[], str]) -> str:
    """The camera's state; a probe that fails or answers nonsense counts as a fault."""
    try:
        value = camera_status()
    except Exception:
        log.exception("camera status probe failed")
        return "fault"
    return value if value in CAMERA_STATES else "fault"


def camera_reason_value(camera_reason: Callable[[], str | None]) -> str | None:
    """Why the camera is not ok, in one line; a probe that fails says nothing rather than break the page."""
    try:
        reason = camera_reason()
    except Exception:
        log.exception("camera reason probe failed")
        return None
    return " ".join(reason.split()) if isinstance(reason, str) and reason.strip() else None


def table_state(table: Table, camera_status: Callable[[], str], lang: str,
                camera_reason: Callable[[], str | None] = lambda: None) -> dict[str, Any]:
    """The ``GET /api/state`` document: snapshot, camera and why it is not ok, the storage fault that
    keeps the last action from being saved (until a save succeeds), game language, the actions."""
    snap = table.snapshot()
    snap["camera"] = camera_value(camera_status)
    snap["camera_reason"] = camera_reason_value(camera_reason) if snap["camera"] != "ok" else None
    snap["storage"] = table.store.fault if table.store is not None else None
    snap["lang"] = lang
    snap["log"] = list(table.log().actions)
    snap["reason_key"] = reason_key(snap.get("reason"))
    if "max_score" in snap:
        aon = bool(snap.get("variant_options", {}).get("all_or_nothing"))
        snap["rating_key"] = rating_key(snap["score"], snap["max_score"], aon)
    return snap


def reason_key(reason: str | None) -> str | None:
    """A short key for the end-of-game reason (None while the game goes on or for new wording)."""
    for start, key in REASON_KEYS:
        if reason and reason.startswith(start):
            return key
    return None
