"""Game-night statistics on the history page, and a game downloaded as its table log and as CSV."""
from __future__ import annotations

import csv
import io
import json
import re
from statistics import median
from typing import Any

from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.app.cli import main as companion
from companion.game.simulation import SimulatedGame
from companion.game.store import GameRecord, Store
from companion.game.table import Table
from companion.game.tablelog import TableLog
from companion.game.variants import parse_variant
from web import close_app, create_app
from web.chart import BOTTOM, HEIGHT, TOP, score_chart
from web.export import COLUMNS, rows, to_csv
from web.stats import counts, figures, variant_label

PERFECT = [f"{suit}{value}" for suit in "rygbw" for value in range(1, 6)]
RAINBOW_9 = {"preset": "rainbow", "hint_tokens": 9}


def record(gid: int, score: int, variant: Any = "base", actions: int = 40, outcome: str = "finished",
           max_score: int = 25) -> GameRecord:
    return GameRecord(gid, 1.8e9 + gid, ["Ann", "Ben"], variant, 1.8e9 + gid, actions, score, max_score, outcome)


def play(table: Table, cards: list[str], variant: Any = "base", end: bool = True) -> int:
    """A two-player game playing ``cards`` in order (ended at the table unless it ended by itself)."""
    table.new_game(["Ann", "Ben"], variant)
    for card in cards:
        table.act({"type": "play", "card": card})
    if end and not table.state.over:
        table.end_game()
    assert table.game_id is not None
    return table.game_id


def test_figures_per_variant_leave_out_games_never_played() -> None:
    games = [record(1, 10), record(2, 25, outcome="won"), record(3, 18, outcome="lost"),
             record(4, 0, actions=0),                        # started and ended without an action
             record(5, 12, outcome="in_progress"),            # not over yet
             record(6, 30, RAINBOW_9, outcome="won", max_score=30), record(7, 21, RAINBOW_9, max_score=30),
             record(8, 0, RAINBOW_9, actions=0, outcome="in_progress", max_score=30)]
    figs = figures(games)
    base, rainbow = figs.variants
    assert (base.variant, base.games, base.best, base.median, base.wins) == ("base", 3, 25, 18, 1)
    assert (rainbow.variant, rainbow.games, rainbow.best, rainbow.median, rainbow.wins) == (RAINBOW_9, 2, 30, 25.5, 1)
    assert base.best_game == 2 and rainbow.best_game == 6 and rainbow.max_score == 30
    assert [p[1] for p in base.points] == [10, 25, 18]  # oldest first, one point per counted game
    assert (figs.counted, figs.never_played, figs.in_progress) == (5, 2, 1)


def test_equal_variants_written_differently_are_one_group() -> None:
    a = record(1, 20, {"preset": "base", "hint_tokens": 9, "fuse_tokens": 2})
    b = record(2, 22, {"fuse_tokens": 2, "hint_tokens": 9, "preset": "base"})
    (only,) = figures([a, b]).variants
    assert only.games == 2 and only.median == 21


def test_variant_label_names_the_options_in_the_page_words() -> None:
    options = {"hint_tokens": ("Hinweisplättchen", [("8", "8"), ("9", "9")]),
               "black_powder": ("Schwarzpulver", [("false", "nein"), ("true", "ja")])}
    assert variant_label("rainbow", options) == "rainbow"
    assert variant_label({"preset": "base", "hint_tokens": 9, "black_powder": True}, options) == \
        "base (Hinweisplättchen: 9; Schwarzpulver: ja)"
    assert variant_label({"preset": "black-powder", "black_values": [5, 4, 3, 2, 1]}, options) == \
        "black-powder (black_values: 5, 4, 3, 2, 1)"


VARIANTS = [("base", 25), ("rainbow", 30), (RAINBOW_9, 30), ("black-powder", 25)]


@st.composite
def game_records(draw: st.DrawFn) -> list[GameRecord]:
    out = []
    for gid in range(1, draw(st.integers(0, 25)) + 1):
        variant, top = draw(st.sampled_from(VARIANTS))
        out.append(record(gid, draw(st.integers(0, top)), variant, draw(st.integers(0, 3)),
                          draw(st.sampled_from(["in_progress", "won", "lost", "finished"])), top))
    return out


@given(game_records())
@settings(max_examples=200, deadline=None)
def test_figures_invariants(games: list[GameRecord]) -> None:
    figs = figures(games)
    played = [g for g in games if counts(g)]
    assert figs.counted == sum(f.games for f in figs.variants) == len(played)
    assert figs.counted + figs.never_played + figs.in_progress == len(games)
    assert figs.never_played == sum(g.actions == 0 for g in games)
    assert [f.games for f in figs.variants] == sorted((f.games for f in figs.variants), reverse=True)
    for f in figs.variants:
        scores = [p[1] for p in f.points]
        assert len(scores) == f.games >= 1
        assert min(scores) <= f.median <= f.best == max(scores) <= f.max_score
        assert f.median == median(scores)
        assert 0 <= f.wins <= f.games and f.wins == scores.count(f.max_score)
        assert (f.wins > 0) == (f.best == f.max_score)
        assert next(g for g in games if g.id == f.best_game).score == f.best


def history_figures(html: str) -> dict[str, dict[str, str]]:
    """The statistics table: per variant label, its figures by class and its best game's fireworks as
    "suit:letter value" per card (the letter the card carries besides its colour)."""
    table = html.split('<table class="stats">')[1].split("<tbody>")[1].split("</tbody>")[0]
    out = {}
    for figures_row, cards_row in re.findall(r'<tr class="figures">(.*?)</tr>\s*<tr class="best-fireworks">(.*?)</tr>',
                                             table, re.S):
        label = re.search(r'<td class="variant">(.*?)</td>', figures_row).group(1)  # type: ignore[union-attr]
        out[label] = dict(re.findall(r'<td class="num ([\w-]+)">(.*?)</td>', figures_row))
        cards = re.findall(r'<span class="card mini suit-(\w)[^"]*" data-suit="(\w)"\s+'
                           r'data-letter="(\w)"[^>]*>(\d?)</span>', cards_row)
        assert all(suit == data_suit for suit, data_suit, _, _ in cards)
        out[label]["cards"] = " ".join(f"{suit}:{letter}{value or '-'}" for suit, _, letter, value in cards)
    return out


def test_history_page_shows_the_figures_per_variant(table: Table, client: FlaskClient) -> None:
    play(table, PERFECT)                                # won: 25
    play(table, ["r1", "r2", "r3"])                     # 3
    play(table, ["r1", "r2"])                           # 2
    play(table, [])                                     # never played: left out
    play(table, ["m1", "r1"], RAINBOW_9)                # 2 of 30
    play(table, ["r1"], "black-powder")                 # -4: black takes points away
    play(table, ["y1"], end=False)                      # still in progress: left out
    html = client.get("/history").data.decode()
    figs = history_figures(html)
    assert figs["base"] == {"games-count": "3", "best": "25/25", "median": "3", "wins": "1",
                            "cards": "r:R5 y:Y5 g:G5 b:B5 w:W5"}
    assert figs["rainbow (Hint tokens: 9)"] == {"games-count": "1", "best": "2/30", "median": "2", "wins": "0",
                                                "cards": "r:R1 y:Y- g:G- b:B- w:W- m:M1"}
    assert figs["black-powder"] == {"games-count": "1", "best": "-4/25", "median": "-4", "wins": "0",
                                    "cards": "r:R1 y:Y- g:G- b:B- w:W- k:K-"}
    assert list(figs) == ["base", "rainbow (Hint tokens: 9)", "black-powder"]  # the most played first
    assert "games never played (no action): 1; games still in progress: 1." in html
    assert html.count('<svg class="chart"') == 3 and html.count('<circle class="dot"') == 5
    csv_links = re.findall(r'href="/games/(\d+)\.csv" download', html)
    json_links = re.findall(r'href="/api/games/(\d+)/log\?download=1" download', html)
    assert csv_links == json_links == [str(i) for i in range(7, 0, -1)]  # every game, the newest first


def test_history_figures_in_the_page_language(table: Table, client: FlaskClient) -> None:
    play(table, ["r1", "r2", "r3"])
    play(table, ["r1", "r2"])
    html = client.get("/history?lang=de").data.decode()
    assert history_figures(html)["base"]["median"] == "2,5"
    assert "Statistik der Spieleabende" in html and 'title="rot 3"' in html
    assert history_figures(client.get("/history?lang=en").data.decode())["base"]["median"] == "2.5"


def test_history_with_only_unplayed_games_says_so(table: Table, client: FlaskClient) -> None:
    play(table, [])
    html = client.get("/history").data.decode()
    assert "No finished games yet." in html and 'class="stats"' not in html and "<svg" not in html


def read_csv(data: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def test_csv_has_one_row_per_action_ending_at_the_final_score(table: Table, store: Store,
                                                              client: FlaskClient) -> None:
    table.new_game(["Ann", "=Ben", "Cat"], "base")
    actions = [{"type": "play", "card": "r1"}, {"type": "hint", "to": 0, "clue": "r"},
               {"type": "play", "card": "g2"}, {"type": "discard", "card": "b4"},
               {"type": "play", "card": "r2"}]
    for a in actions:
        table.act(a)
    gid = table.game_id
    r = client.get(f"/games/{gid}.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    assert r.headers["Content-Disposition"] == f'attachment; filename="hanabi-game-{gid}.csv"'
    assert r.data.startswith("\ufeff".encode())  # spreadsheets then read the names as UTF-8
    lines = read_csv(r.data)
    assert list(lines[0]) == list(COLUMNS) and len(lines) == len(actions)
    assert [row["player"] for row in lines] == ["Ann", "'=Ben", "Cat", "Ann", "'=Ben"]  # never a formula
    assert [lines[1][k] for k in ("type", "to", "clue", "card", "hints")] == ["hint", "Ann", "r", "", "7"]
    assert (lines[2]["card"], lines[2]["fuses"], lines[2]["score"]) == ("g2", "1", "1")  # a misplay
    assert (lines[3]["hints"], lines[3]["deck"]) == ("8", "32")
    final = store.game(gid)
    assert final is not None and int(lines[-1]["score"]) == final.score == 2


def test_csv_of_a_missing_game_is_404_and_of_the_table_without_a_store(table: Table, client: FlaskClient) -> None:
    r = client.get("/games/99.csv")
    assert r.status_code == 404 and "no game 99" in r.data.decode()
    bare = Table()
    bare.new_game(["Ann", "Ben"])
    bare.act({"type": "play", "card": "r1"})
    app = create_app(bare)
    try:
        r = app.test_client().get("/games/0.csv")
        assert r.status_code == 404 and "keeps no history" in r.data.decode()
    finally:
        close_app(app)


def test_json_download_is_the_log_and_replays_to_the_stored_score(table: Table, store: Store, client: FlaskClient,
                                                                  tmp_path: Any, capsys: Any) -> None:
    gid = play(table, PERFECT[:7] + ["b3"], RAINBOW_9)  # a misplay: score 7, one fuse
    log = client.get(f"/api/games/{gid}/log").json
    r = client.get(f"/api/games/{gid}/log?download=1")
    assert r.headers["Content-Disposition"] == f'attachment; filename="hanabi-game-{gid}.json"'
    assert r.json == log and log["variant"] == RAINBOW_9 and len(log["actions"]) == 8
    path = tmp_path / "game.json"
    path.write_bytes(r.data)
    assert companion(["replay", str(path), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    final = store.game(gid)
    assert final is not None and replayed["score"] == final.score == 7 and replayed["fuses_used"] == 1


@given(st.integers(0, 10_000), st.sampled_from(["base", "rainbow", "black-powder", "five-magnificent"]),
       st.integers(2, 5))
@settings(max_examples=25, deadline=None)
def test_csv_of_any_game_follows_the_replay(seed: int, preset: str, players: int) -> None:
    sim = SimulatedGame(parse_variant(preset), players, seed)
    while not sim.over:
        sim.step()
    log = TableLog(sim.variant, tuple(f"P{i}" for i in range(players)), tuple(sim.actions))
    lines = read_csv(to_csv(log).encode())
    assert len(lines) == len(sim.actions) == len(list(rows(log)))
    assert int(lines[-1]["score"]) == sim.state.score and int(lines[-1]["deck"]) == sim.state.deck
    for row in lines:
        assert 0 <= int(row["hints"]) <= sim.variant.hint_tokens
        assert 0 <= int(row["fuses"]) <= sim.variant.fuse_tokens
        assert row["player"] in log.players


def test_chart_keeps_a_negative_score_on_its_scale() -> None:
    svg = str(score_chart([(None, -4, 25), (None, 3, 25)], "black powder", ""))
    ys = [float(y) for y in re.findall(r'<circle class="dot" cx="[\d.]+" cy="([\d.-]+)"', svg)]
    assert len(ys) == 2 and all(TOP <= y <= HEIGHT - BOTTOM for y in ys)
    assert '>-5</text>' in svg and '>25</text>' in svg
