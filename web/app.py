"""The Flask app factory: one table, its pages and API, live updates and safe headers."""
from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, g, request

from companion.game.pairing import Pairing as Tokens
from companion.game.store import Store
from companion.game.table import Table

from . import api, pages, teaching
from .auth import Pairing
from .context import Context
from .events import Broadcaster
from .i18n import LANG_COOKIE, LANGUAGES, choose, install, translations

MAX_BODY = 16 * 1024
SSE_MAX_CLIENTS = 24  # live pages at once; ``serve`` gives waitress this many threads plus spares

# Scripts and styles come only from this box; no inline code, no framing by other sites.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


def create_app(table: Table, store: Store | None = None, pin: str = "1234",
               camera_status: Callable[[], str] = lambda: "missing",
               camera_reason: Callable[[], str | None] = lambda: None,
               oled_image: Callable[[], Any] | None = None, buttons: Any = None,
               lang: str = "en", sse_max_clients: int = SSE_MAX_CLIENTS, hosts: tuple[str, ...] = (),
               teacher: Any = None, speech: Any = None, pairing: Tokens | None = None) -> Flask:
    """The web app for ``table``.

    ``pin`` is the pairing PIN shown on the OLED; ``camera_status()`` answers ok|missing|fault and
    ``camera_reason()`` why, in one line (None when there is nothing to say);
    ``oled_image()`` (demo) returns a PIL image of the emulated OLED; ``buttons`` (demo) is a
    callable or an object with ``press(name)`` for the box's hint/undo/ok buttons (a result
    with ``accepted`` False and a ``message`` answers 409); ``lang`` is the box's default language;
    ``hosts`` are names besides the box's own addresses, ``localhost`` and ``<hostname>.local`` at
    which the page takes changes; ``teacher`` (a box with a camera) teaches the family's deck
    ("Teach our deck", ``/api/teach``); ``speech`` (the box) turns spoken announcements on and off
    (``/api/speech``); ``pairing`` keeps the one-time tokens of the QR code on the box's screen
    (``/pair/<token>`` pairs a phone).
    """
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}; got {lang!r}")
    if not isinstance(pin, str) or not pin.strip():
        raise ValueError("the pairing PIN must be a non-empty string")
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep the contract's field order
    context = Context(table=table, store=store,
                      pairing=Pairing(pin.strip(), secrets.token_bytes(32), hosts, tokens=pairing),
                      camera_status=camera_status, camera_reason=camera_reason, lang=lang,
                      oled_image=oled_image, buttons=buttons, teacher=teacher, speech=speech)
    context.broadcaster = Broadcaster(table, context.state, max_clients=sse_max_clients)
    app.extensions["companion"] = context
    install(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(teaching.bp)
    app.register_blueprint(pages.bp)

    @app.before_request
    def pick_language() -> None:
        g.lang = choose(request, context.game_lang(), context.lang)
        g.translations = translations(g.lang)

    @app.after_request
    def headers(resp: Response) -> Response:
        resp.headers.setdefault("Content-Security-Policy", CSP)
        resp.headers["X-Content-Type-Options"] = "nosniff"
        resp.headers["X-Frame-Options"] = "DENY"
        resp.headers["Referrer-Policy"] = "same-origin"
        resp.headers["Cross-Origin-Opener-Policy"] = "same-origin"
        resp.headers["Permissions-Policy"] = "camera=(), microphone=(), geolocation=()"
        if request.path.startswith("/api/") and request.path != "/api/events":
            resp.headers.setdefault("Cache-Control", "no-store")
        asked = request.args.get("lang")
        if asked in LANGUAGES:
            resp.set_cookie(LANG_COOKIE, asked, max_age=365 * 24 * 3600, samesite="Lax")
        return resp

    return app


def close_app(app: Flask) -> None:
    """End the live streams (so a server can stop) and stop listening to the table."""
    context: Context = app.extensions["companion"]
    if context.broadcaster is not None:
        context.broadcaster.close()
