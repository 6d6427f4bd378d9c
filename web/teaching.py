"""The JSON API of "Teach our deck": start a session for a variant, follow it, keep or retake a
picture, cancel, finish (the profile is fitted in the background), and the pictures as PNG.

The box's teacher is given to ``create_app(teacher=...)``; it refuses with errors that carry a
``code``, which become the response's ``reason`` and choose its status here.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.game.cards import CardError, parse_card

from .api import bad_request, error, json_body, refused
from .auth import Refused
from .commands import BadRequest
from .context import ctx

bp = Blueprint("teach", __name__, url_prefix="/api/teach")

# the teacher's refusal codes and their HTTP status (anything else with a code is a 409)
STATUS = {"bad_variant": 400, "unknown_kind": 400, "not_teaching": 409, "nothing_captured": 409,
          "incomplete": 409, "busy": 409, "no_camera": 503, "camera_fault": 503, "model_missing": 503}
START_FIELDS = frozenset({"variant"})


class NoTeacher(Exception):
    """This app was made without a teacher (a page with no box behind it)."""


def teacher() -> Any:
    t = ctx().teacher
    if t is None:
        raise NoTeacher()
    return t


@bp.before_request
def guard_writes() -> None:
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        ctx().pairing.authorize(request)


bp.register_error_handler(Refused, refused)
bp.register_error_handler(BadRequest, bad_request)


@bp.errorhandler(NoTeacher)
def no_teacher(e: NoTeacher) -> tuple[Response, int]:
    return error(404, "this box cannot be taught a deck: it runs without a camera service", reason="no_teacher")


@bp.errorhandler(ValueError)
def teach_refused(e: ValueError) -> tuple[Response, int]:
    code = getattr(e, "code", None)
    if code is None:
        raise e
    more: dict[str, Any] = {"reason": code}
    if getattr(e, "missing", ()):
        more["missing"] = list(e.missing)  # type: ignore[attr-defined]
    return error(STATUS.get(code, 409), str(e), **more)


def _body(example: str) -> dict[str, Any]:
    """A JSON object body; an empty body counts as {}."""
    if not request.get_data():
        return {}
    body = json_body()
    if not isinstance(body, dict):
        raise BadRequest(f"the body must be a JSON object like {example}")
    return body


@bp.get("")
def state() -> Response:
    return jsonify(teacher().state())


@bp.post("")
def start() -> tuple[Response, int]:
    body = _body('{"variant": "base"}')
    extra = sorted(set(body) - START_FIELDS)
    if extra:
        raise BadRequest(f"teaching has no field {', '.join(map(repr, extra))}; allowed: variant")
    return jsonify(teacher().start(body.get("variant", "base"))), 201


@bp.post("/confirm")
def confirm() -> Response:
    return jsonify(teacher().confirm())


@bp.post("/retake")
def retake() -> Response:
    body = _body('{"card": "r1"}')
    card = body.get("card")
    if card is not None:
        try:
            card = str(parse_card(card))
        except CardError as e:
            raise BadRequest(str(e)) from None
    return jsonify(teacher().retake(card))


@bp.post("/cancel")
def cancel() -> Response:
    return jsonify(teacher().cancel())


@bp.post("/finish")
def finish() -> tuple[Response, int]:
    return jsonify(teacher().finish()), 202


@bp.get("/crops/<name>.png")
def crop(name: str) -> Response | tuple[Response, int]:
    try:
        kind = str(parse_card(name))
    except CardError as e:
        return error(400, str(e))
    data = teacher().crop_png(kind)
    if data is None:
        return error(404, f"no picture of {kind} has been taken in this session", reason="no_picture")
    return Response(data, mimetype="image/png", headers={"Cache-Control": "no-store"})
