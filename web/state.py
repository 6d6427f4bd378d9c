"""The table as the web shows it: the table's snapshot plus what only the web adds."""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from companion.game.rating import rating_key
from companion.game.table import Table

log = logging.getLogger(__name__)

CAMERA_STATES = ("ok", "missing", "fault")


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
    snap.setdefault("reason_key", None)  # why the game ended, as a code the page translates
    if "max_score" in snap:
        aon = bool(snap.get("variant_options", {}).get("all_or_nothing"))
        snap["rating_key"] = rating_key(snap["score"], snap["max_score"], aon)
    return snap

