"""The JSON API of the HTTP contract: state, actions, games, live events and their description."""
from __future__ import annotations

import math
from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.game.store import DISK_FULL, READ_ONLY, WRITE_FAILED, clock_was_set
from companion.game.table import CommandError, StoreFault

from .auth import Refused
from .commands import BadRequest, new_game_request, run_action
from .context import BUTTONS, ctx
from .events import TooManyClients
from .export import NoGame, find_log
from .openapi import document

bp = Blueprint("api", __name__, url_prefix="/api")


def error(status: int, message: str, **more: Any) -> tuple[Response, int]:
    return jsonify(error=message, status=status, **more), status


def json_body() -> Any:
    """The request's JSON, or BadRequest saying what was sent instead."""
    if not request.is_json:
        raise BadRequest("send a JSON body with Content-Type: application/json")
    data = request.get_json(silent=True)
    if data is None:
        raise BadRequest("the body is not valid JSON")
    return data


@bp.before_request
def guard_writes() -> None:
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        ctx().pairing.authorize(request)


@bp.errorhandler(Refused)
def refused(e: Refused) -> tuple[Response, int]:
    resp, status = error(e.status, str(e), reason=e.code)
    if e.retry_after is not None:
        resp.headers["Retry-After"] = str(max(1, math.ceil(e.retry_after)))
    return resp, status


@bp.errorhandler(BadRequest)
def bad_request(e: BadRequest) -> tuple[Response, int]:
    return error(400, str(e))


@bp.errorhandler(CommandError)
def command_error(e: CommandError) -> tuple[Response, int]:
    return error(409 if e.illegal else 400, str(e), reason=e.code)


STORE_FAULTS = (DISK_FULL, WRITE_FAILED, READ_ONLY)


@bp.errorhandler(StoreFault)
def store_fault(e: StoreFault) -> tuple[Response, int]:
    """The card could not save it: nothing changed, the message says what to do."""
    return error(503, str(e), reason=e.reason)


@bp.get("/state")
def state() -> Response:
    return jsonify(ctx().state())


@bp.post("/actions")
def actions() -> Response:
    change = run_action(ctx().table, json_body())
    return jsonify(change={"kind": change.kind, "text": change.text, "params": change.params},
                   state=ctx().state())


@bp.post("/games")
def new_game() -> tuple[Response, int]:
    players, variant, first, lang = new_game_request(json_body())
    c = ctx()
    c.table.new_game(players, variant, first, lang or c.lang)
    if c.broadcaster is not None:
        c.broadcaster.refresh()  # the game's language is part of the state the pages see
    return jsonify(c.state()), 201


@bp.get("/games")
def games() -> Response:
    store = ctx().store
    # date_known is false for a game stored while the box's clock was not set yet (1970)
    return jsonify(games=[{**g.as_dict(), "date_known": clock_was_set(g.created)} for g in store.games()]
                   if store is not None else [])


@bp.get("/games/<int:game_id>/log")
def game_log(game_id: int) -> Response | tuple[Response, int]:
    c = ctx()
    try:
        log = find_log(c.table, c.store, game_id)
    except NoGame as e:
        return error(404, str(e))
    resp = jsonify(log.to_json())
    if request.args.get("download"):
        resp.headers["Content-Disposition"] = f'attachment; filename="hanabi-game-{game_id}.json"'
    return resp


@bp.get("/events")
def events() -> Response | tuple[Response, int]:
    c = ctx()
    assert c.broadcaster is not None
    try:
        stream = c.broadcaster.stream()
    except TooManyClients as e:
        resp, status = error(503, str(e))
        resp.headers["Retry-After"] = "5"
        return resp, status
    return Response(stream, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.post("/buttons/<name>")
def press(name: str) -> Response | tuple[Response, int]:
    c = ctx()
    if c.buttons is None:
        return error(404, "this box has no buttons to press from the page")
    if name not in BUTTONS:
        return error(400, f"the buttons are {', '.join(BUTTONS)}; got {name!r}")
    outcome = c.press(name)
    if getattr(outcome, "accepted", True) is False:  # the box refused it and says why
        message = str(getattr(outcome, "message", f"the {name} button was refused"))
        reason = getattr(outcome, "reason", None)
        if reason in STORE_FAULTS:  # the SD card, not the rules: like any other write it could not save
            return error(503, message, reason=reason)
        return error(409, message)
    return jsonify(c.state())


NO_SPEECH = "this box has no spoken announcements"


@bp.get("/speech")
def speech_state() -> Response | tuple[Response, int]:
    speech = ctx().speech
    if speech is None:
        return error(404, NO_SPEECH, reason="no_speech")
    return jsonify(speech.status().as_dict())


@bp.post("/speech")
def speech_switch() -> Response | tuple[Response, int]:
    """Spoken announcements on or off until the box restarts (``[box] speech`` is what it starts with)."""
    speech = ctx().speech
    if speech is None:
        return error(404, NO_SPEECH, reason="no_speech")
    body = json_body()
    if not isinstance(body, dict) or set(body) != {"on"} or not isinstance(body["on"], bool):
        raise BadRequest('send {"on": true} or {"on": false}')
    status = speech.turn(body["on"])
    if body["on"] and not status.on:  # no espeak-ng: the table goes on without a voice
        return error(503, status.message or "spoken announcements are not available", reason=status.reason)
    return jsonify(status.as_dict())


@bp.get("/openapi.json")
def openapi() -> Response:
    return jsonify(document())


@bp.app_errorhandler(404)
def not_found(e: Exception) -> Any:
    if request.path.startswith("/api/"):
        return error(404, f"no such endpoint: {request.path}; see /api/openapi.json")
    return e


@bp.app_errorhandler(405)
def not_allowed(e: Exception) -> Any:
    if request.path.startswith("/api/"):
        return error(405, f"{request.method} is not allowed on {request.path}; see /api/openapi.json")
    return e


@bp.app_errorhandler(413)
def too_large(e: Exception) -> Any:
    return error(413, "the request body is too large")
