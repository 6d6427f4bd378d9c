"""The page's language is chosen right and the page speaks it (the catalogue itself: tests/words)."""
from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web.i18n import choose


def make_request(app: Flask, path: str = "/", **headers: str):  # type: ignore[no-untyped-def]
    return app.test_request_context(path, headers=headers)


def test_language_order(app: Flask) -> None:
    with make_request(app, "/", **{"Accept-Language": "de-DE,de;q=0.9"}):
        from flask import request
        assert choose(request, None, "en") == "de"
        assert choose(request, "cs", "en") == "cs"  # the game's language before the browser's
    with make_request(app, "/", Cookie="lang=pl", **{"Accept-Language": "de"}):
        from flask import request
        assert choose(request, "cs", "en") == "pl"  # the browser's own choice first
    with make_request(app, "/?lang=de", Cookie="lang=pl"):
        from flask import request
        assert choose(request, "cs", "en") == "de"
    with make_request(app, "/", **{"Accept-Language": "fr"}):
        from flask import request
        assert choose(request, None, "cs") == "cs"


@pytest.mark.parametrize("lang,word", [("en", "Fireworks"), ("pl", "Fajerwerki"), ("de", "Feuerwerke"),
                                       ("cs", "Ohňostroje")])
def test_table_page_in_each_language(game: FlaskClient, lang: str, word: str) -> None:
    r = game.get(f"/?lang={lang}")
    html = r.data.decode()
    assert f'<html lang="{lang}">' in html and word in html
    assert f"lang={lang}" in r.headers["Set-Cookie"]


def test_game_language_is_used_by_pages_without_a_choice(client: FlaskClient) -> None:
    from .conftest import write
    write(client, "/api/games", {"players": 2, "lang": "pl"})
    assert "Fajerwerki" in client.get("/").data.decode()
    assert client.get("/api/state").json["lang"] == "pl"
