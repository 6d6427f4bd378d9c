"""The HTML pages: the table, setup, history with its chart, the demo's box, and escaping."""
from __future__ import annotations

import json
import re
from typing import Any

from flask.testing import FlaskClient
from PIL import Image

from companion.game.table import Table
from web import close_app, create_app
from web.chart import score_chart

from .conftest import PIN, write


def boot_data(html: str) -> dict[str, Any]:
    m = re.search(r'<script type="application/json" id="boot">(.*?)</script>', html, re.S)
    assert m
    return json.loads(m.group(1))


def test_table_page_carries_translated_strings_for_the_script(client: FlaskClient) -> None:
    html = client.get("/?lang=de").data.decode()
    boot = boot_data(html)
    assert boot["lang"] == "de" and boot["suits"]["r"] == "rot"
    assert boot["ratings"]["legendary"].startswith("Legendär")
    assert "%(card)s" in boot["strings"]["played"]
    assert 'src="/static/table.js"' in html and "<script>" not in html  # no inline code (CSP)


def test_player_names_cannot_break_out_of_the_page(client: FlaskClient) -> None:
    write(client, "/api/games", {"players": ["</script><b>x", "Ben"]})
    html = client.get("/setup").data.decode()
    assert "</script><b>" not in html and "&lt;/script&gt;" in html


def test_setup_lists_presets_options_and_languages(client: FlaskClient) -> None:
    html = client.get("/setup").data.decode()
    for preset in ("base", "rainbow", "black-powder", "five-magnificent", "all-or-nothing"):
        assert f'<option value="{preset}">' in html
    assert 'name="hint_tokens"' in html and 'value="9"' in html and 'value="true"' in html
    assert 'value="cs"' in html and html.count('name="player"') == 5


def test_history_lists_games_with_a_chart_and_export_links(client: FlaskClient) -> None:
    for score_cards in (["r1"], ["r1", "r2", "r3"]):
        write(client, "/api/games", {"players": ["Ann", "Ben"]})
        for c in score_cards:
            write(client, "/api/actions", {"type": "play", "card": c})
        write(client, "/api/actions", {"type": "end"})
    write(client, "/api/games", {"players": ["Ann", "Ben"]})  # in progress: listed, not charted
    html = client.get("/history").data.decode()
    assert html.count('<circle class="dot"') == 2 and "1/25" in html and "3/25" in html
    assert html.count("download=1") == 3
    assert "in progress" in html


def test_chart_is_plain_svg_and_escapes_its_title() -> None:
    svg = str(score_chart([(0, 10, 25), (86400, 20, 25)], "a <b> title", "none"))
    assert svg.startswith("<svg") and "&lt;b&gt;" in svg and svg.count("<circle") == 2
    assert "style=" not in svg  # styled by the stylesheet: the CSP allows no inline style
    assert "none" in str(score_chart([], "t", "none"))


def test_history_without_a_store(table: Table) -> None:
    app = create_app(table)
    try:
        html = app.test_client().get("/history").data.decode()
        assert "keeps no history" in html
    finally:
        close_app(app)


def test_demo_shows_the_oled_and_presses_buttons(table: Table) -> None:
    pressed: list[str] = []
    app = create_app(table, pin=PIN, oled_image=lambda: Image.new("1", (128, 64), 1), buttons=pressed.append)
    try:
        c = app.test_client()
        html = c.get("/").data.decode()
        assert 'id="oled"' in html and 'data-button="hint"' in html
        r = c.get("/oled.png")
        assert r.mimetype == "image/png" and r.data.startswith(b"\x89PNG")
        assert write(c, "/api/buttons/ok", None).status_code == 200 and pressed == ["ok"]
        r = write(c, "/api/buttons/explode", None)
        assert r.status_code == 400 and pressed == ["ok"]
        assert c.post("/api/buttons/hint").status_code == 401 and pressed == ["ok"]
    finally:
        close_app(app)


def test_buttons_object_with_press(table: Table) -> None:
    class Box:
        def __init__(self) -> None:
            self.names: list[str] = []

        def press(self, name: str) -> None:
            self.names.append(name)
    box = Box()
    app = create_app(table, pin=PIN, buttons=box)
    try:
        assert write(app.test_client(), "/api/buttons/undo", None).status_code == 200 and box.names == ["undo"]
    finally:
        close_app(app)


def test_no_demo_parts_on_the_box(client: FlaskClient) -> None:
    html = client.get("/").data.decode()
    assert 'id="oled"' not in html and "data-button" not in html
    assert client.get("/oled.png").status_code == 404
    assert write(client, "/api/buttons/hint", None).status_code == 404


def test_setup_offers_every_variant_option_with_values_the_rules_accept(app: Any) -> None:
    from dataclasses import fields

    from companion.game.cards import SUIT_NAMES
    from companion.game.variants import Variant, parse_variant
    from web.pages import OPTION_VALUES, suit_names
    offered = set(OPTION_VALUES) | {"preset", "black_values"}
    assert offered == {f.name for f in fields(Variant)}
    for name, values in OPTION_VALUES.items():
        for value in values:
            assert getattr(parse_variant({"preset": "base", name: value}), name) == value
    with app.test_request_context("/"):
        from flask import g

        from web.i18n import translations
        g.translations = translations("en")
        assert suit_names().keys() == SUIT_NAMES.keys()


def test_a_press_the_box_refuses_answers_409_with_its_reason(table: Table) -> None:
    from dataclasses import dataclass

    @dataclass
    class Outcome:
        accepted: bool
        message: str
    app = create_app(table, pin=PIN, buttons=lambda name: Outcome(False, "no unsure card is waiting"))
    try:
        r = write(app.test_client(), "/api/buttons/ok", None)
        assert r.status_code == 409 and r.json["error"] == "no unsure card is waiting"
    finally:
        close_app(app)
