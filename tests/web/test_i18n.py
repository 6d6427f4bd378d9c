"""Translations: every text on the pages exists in every language, and the language is chosen right."""
from __future__ import annotations

import os
import re

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from web.i18n import LANGUAGES, choose, po_path, translations

WEB = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "web")
PLACEHOLDER = re.compile(r"%\(\w+\)s")


def source_messages() -> set[str]:
    """What ``pybabel extract -F web/babel.cfg`` finds in the code and templates."""
    method_map = [("**/templates/**.html", "jinja2"), ("**.py", "python")]
    return {msg for _, _, msg, *_ in extract_from_dir(WEB, method_map, keywords={"_": None})
            if isinstance(msg, str)}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_catalogue_translates_every_message(lang: str) -> None:
    with open(po_path(lang), "rb") as f:
        catalog = read_po(f, locale=lang)
    wanted = source_messages()
    assert len(wanted) > 80
    missing = [m for m in wanted if not (catalog.get(m) and catalog.get(m).string)]
    assert not missing, f"{lang}: untranslated {missing[:5]}"
    for m in wanted:
        assert sorted(PLACEHOLDER.findall(m)) == sorted(PLACEHOLDER.findall(catalog.get(m).string)), (lang, m)
    assert translations(lang).gettext("History") != "History"


def test_catalogue_template_is_current() -> None:
    with open(os.path.join(WEB, "translations", "messages.pot"), "rb") as f:
        template = {m.id for m in read_po(f) if m.id}
    assert template == source_messages()


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
