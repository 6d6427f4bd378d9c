"""Spoken announcements: the phrases in four languages, real WAVs from espeak-ng, a voice that never
holds up the table, and a box without espeak-ng that says so and plays on."""
from __future__ import annotations

import json
import os
import re
import threading
import time
import wave
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.app.config import BoxConfig, Config, ConfigError, parse_config
from companion.game.rating import lines
from companion.game.table import Change, Table
from companion.game.variants import PRESETS, parse_variant
from hardware import speech as speech_module
from hardware.speech import ENGINE_FAILED, NO_ENGINE, QUEUE, Espeak, Speaker, Speech, SpeechError, find_espeak
from hardware.spoken import KINDS, LANGUAGES, card, left, number, phrase
from tests.conftest import DATA

BASE = parse_variant("base")
OTHERS = [lang for lang in LANGUAGES if lang != "en"]
# words the languages share with English: Czech "a" (and), "minus" (Polish, German) and the Polish "zero"
SHARED = {"a", "minus", "zero"}

suits = st.sampled_from("rygbwmk")
cards = st.builds(lambda s, v: f"{s}{v}", suits, st.integers(1, 5))
names = st.lists(st.text(alphabet="ABCDEFGHIJKLMNOPRSTUVWZ", min_size=3, max_size=8).map(lambda t: "Q" + t),
                 min_size=2, max_size=5, unique=True)
actions = st.one_of(st.builds(lambda c: {"type": "play", "card": c}, cards),
                    st.builds(lambda c: {"type": "discard", "card": c}, cards),
                    st.just({"type": "hint"}), st.just({"type": "reward", "tile": "hint"}))
PARAMS: dict[str, Any] = {
    "played": st.fixed_dictionaries({"card": cards}),
    "discarded": st.fixed_dictionaries({"card": cards}),
    "misplay": st.fixed_dictionaries({"card": cards, "fuses_used": st.integers(1, 3), "fuse_tokens": st.just(3)}),
    "hint": st.fixed_dictionaries({"hints": st.integers(0, 9)}),
    "final_round": st.fixed_dictionaries({"turns_left": st.integers(1, 5)}),
    "game_over": st.fixed_dictionaries({"outcome": st.sampled_from(["won", "lost", "finished"]),
                                        "score": st.integers(-10, 30), "reason": st.just("x"),
                                        "teach": st.booleans()}),
    "undo": st.fixed_dictionaries({"action": actions}),
    "corrected": st.fixed_dictionaries({"index": st.integers(0, 80), "old": cards, "card": cards}),
    "new_game": st.fixed_dictionaries({"players": names, "variant": st.just("base")}),
    "last_copy_lost": st.fixed_dictionaries({"card": cards, "reachable_score": st.integers(0, 30)}),
    "pace_zero": st.fixed_dictionaries({"pace": st.integers(-5, 0)}),
    "pending": st.fixed_dictionaries({"card": cards}),
    "dismissed": st.just({}), "resumed": st.just({}), "reward_revealed": st.just({}),
    "reward": st.fixed_dictionaries({"tile": st.sampled_from(["hint", "fuse", "color_clue", "value_clue",
                                                              "reshuffle", "rescue"])}),
}
changes = st.sampled_from(KINDS).flatmap(lambda k: st.tuples(st.just(k), PARAMS[k]))
variants = st.sampled_from(list(PRESETS)).map(parse_variant)


def words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[^\W\d_]+", text)}


def english_vocabulary() -> set[str]:
    """Every word the English phrases use: each kind over every card, count and tile, and the ratings."""
    vocab = words(" ".join(lines("en").values()))
    every = [f"{s}{v}" for s in "rygbwmk" for v in range(1, 6)]
    for c in every:
        for kind in ("played", "discarded", "pending"):
            vocab |= words(phrase(kind, {"card": c}, "en", BASE) or "")
        vocab |= words(phrase("misplay", {"card": c, "fuses_used": 1}, "en", BASE) or "")
        vocab |= words(phrase("last_copy_lost", {"card": c, "reachable_score": 1}, "en", BASE) or "")
    for n in range(-10, 31):
        vocab |= words(number(n, "en")) | words(left(n, "token", "en")) | words(left(n, "turn", "en"))
    for n in (1, 2, 3):
        vocab |= words(phrase("misplay", {"card": "r1", "fuses_used": n}, "en", BASE) or "")
    for kind, params in (("corrected", {"card": "r1", "old": "r2"}), ("new_game", {"players": ["Q", "R"]}),
                         ("new_game", {"players": ["Player 1", "Player 2"]}), ("pace_zero", {"pace": 0}),
                         ("dismissed", {}),
                         ("resumed", {}), ("reward_revealed", {}), ("hint", {"hints": 1}),
                         ("final_round", {"turns_left": 2})):
        vocab |= words(phrase(kind, params, "en", BASE) or "")
    for outcome in ("won", "lost", "finished"):
        vocab |= words(phrase("game_over", {"outcome": outcome, "score": 1, "teach": True}, "en", BASE) or "")
    for a in ({"type": "hint"}, {"type": "reward"}, {"type": "play", "card": "r1"}, {"type": "discard", "card": "r1"}):
        vocab |= words(phrase("undo", {"action": a}, "en", BASE) or "")
    for tile in ("hint", "fuse", "color_clue", "value_clue", "reshuffle", "rescue"):
        vocab |= words(phrase("reward", {"tile": tile}, "en", BASE) or "")
    return vocab - {"q", "r"}


ENGLISH = english_vocabulary()


# -- phrases ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang,kind,params,expected", [
    ("en", "played", {"card": "r3"}, "Red three played"),
    ("en", "misplay", {"card": "g2", "fuses_used": 2, "fuse_tokens": 3}, "Green two: misplay, second fuse"),
    ("en", "final_round", {"turns_left": 3}, "Final round, three turns left"),
    ("en", "hint", {"hints": 1}, "Hint, one clock token left"),
    ("en", "hint", {"hints": 0}, "Hint, no clock tokens left"),
    ("en", "last_copy_lost", {"card": "y5", "reachable_score": 21}, "Last yellow five lost, best score now twenty-one"),
    ("en", "new_game", {"players": ["Ann", "Ben", "Cat"]}, "New game: Ann, Ben and Cat"),
    ("en", "new_game", {"players": ["Player 1", "Player 2"]}, "New game"),
    ("pl", "played", {"card": "r3"}, "Czerwona trójka zagrana"),
    ("pl", "misplay", {"card": "m1", "fuses_used": 2}, "Wielokolorowa jedynka: pomyłka, drugi kafelek pomyłki"),
    ("pl", "hint", {"hints": 1}, "Wskazówka, został jeden żeton"),
    ("pl", "hint", {"hints": 3}, "Wskazówka, zostały trzy żetony"),
    ("pl", "hint", {"hints": 5}, "Wskazówka, zostało pięć żetonów"),
    ("pl", "hint", {"hints": 0}, "Wskazówka, nie został żaden żeton"),
    ("pl", "final_round", {"turns_left": 1}, "Ostatnia runda, została jedna tura"),
    ("pl", "final_round", {"turns_left": 2}, "Ostatnia runda, zostały dwie tury"),
    ("pl", "final_round", {"turns_left": 5}, "Ostatnia runda, zostało pięć tur"),
    ("de", "played", {"card": "b4"}, "Blaue Vier ausgespielt"),
    ("de", "misplay", {"card": "w5", "fuses_used": 3}, "Weiße Fünf: Fehler, dritter Blitz"),
    ("de", "hint", {"hints": 1}, "Hinweis, noch ein Hinweis-Plättchen"),
    ("de", "final_round", {"turns_left": 3}, "Letzte Runde, noch drei Züge"),
    ("de", "last_copy_lost", {"card": "k2", "reachable_score": 21},
     "Letzte schwarze Zwei verloren, höchstens noch einundzwanzig Punkte"),
    ("cs", "discarded", {"card": "m4"}, "Duhová čtyřka odhozena"),
    ("cs", "misplay", {"card": "r1", "fuses_used": 1}, "Červená jednička: chyba, první červený žeton"),
    ("cs", "hint", {"hints": 2}, "Nápověda, zbývají dva modré žetony"),
    ("cs", "hint", {"hints": 7}, "Nápověda, zbývá sedm modrých žetonů"),
    ("cs", "final_round", {"turns_left": 1}, "Poslední kolo, zbývá jeden tah"),
])
def test_phrases_say_cards_counts_and_tokens_as_each_edition_does(lang, kind, params, expected):
    assert phrase(kind, params, lang, BASE) == expected


@pytest.mark.parametrize("lang,expected", [
    ("en", "Game won, score twenty-five. " + lines("en")["legendary"]),
    ("pl", "Wygrana, wynik: dwadzieścia pięć. " + lines("pl")["legendary"]),
    ("de", "Gewonnen, fünfundzwanzig Punkte. " + lines("de")["legendary"]),
    ("cs", "Výhra, skóre dvacet pět. " + lines("cs")["legendary"]),
])
def test_the_end_says_the_score_and_the_rating_line(lang, expected):
    assert phrase("game_over", {"outcome": "won", "score": 25, "reason": "x"}, lang, BASE) == expected
    aon = parse_variant("all-or-nothing")
    assert phrase("game_over", {"outcome": "lost", "score": 20}, lang, aon).endswith(lines(lang)["failed"])


@pytest.mark.parametrize("lang,expected", [
    ("en", "The camera was often unsure of the cards: teach it your deck on the page."),
    ("pl", "Kamera często nie była pewna kart: nauczcie ją swojej talii na stronie."),
    ("de", "Die Kamera war sich bei den Karten oft unsicher: bringt ihr euer Kartenspiel auf der Seite bei."),
    ("cs", "Kamera si u karet často nebyla jistá: naučte ji svůj balíček na stránce."),
])
def test_the_end_of_a_game_the_camera_was_often_unsure_in_suggests_teaching_the_deck(lang, expected):
    params = {"outcome": "lost", "score": 7, "reason": "x"}
    plain = phrase("game_over", params, lang, BASE)
    assert phrase("game_over", {**params, "teach": True}, lang, BASE) == f"{plain} {expected}"


@pytest.mark.parametrize("n,en,pl,de,cs", [
    (0, "zero", "zero", "null", "nula"), (12, "twelve", "dwanaście", "zwölf", "dvanáct"),
    (21, "twenty-one", "dwadzieścia jeden", "einundzwanzig", "dvacet jedna"),
    (30, "thirty", "trzydzieści", "dreißig", "třicet"), (-3, "minus three", "minus trzy", "minus drei", "mínus tři"),
    (120, "120", "120", "120", "120"),
])
def test_numbers_are_words(n, en, pl, de, cs):
    assert [number(n, lang) for lang in LANGUAGES] == [en, pl, de, cs]


@settings(max_examples=300, deadline=None)
@given(changes, variants)
def test_every_change_has_a_phrase_in_every_language_and_no_english_in_the_others(change, variant):
    kind, params = change
    said = {lang: phrase(kind, params, lang, variant) for lang in LANGUAGES}
    for lang, text in said.items():
        assert isinstance(text, str) and text.strip() and text[0] == text[0].upper(), (lang, kind, text)
        assert "_" not in text and "{" not in text and not re.search(r"[rygbwmk][1-5]\b", text), text
    typed = set(params.get("players", []))
    for lang in OTHERS:
        text = said[lang]
        for name in [*typed, *lines(lang).values()]:  # the names, and the rating line (its own catalogue)
            text = text.replace(name, "")
        assert not (words(text) & ENGLISH) - SHARED, (lang, said[lang], (words(text) & ENGLISH) - SHARED)
    if "card" in params:
        assert all(card(params["card"], lang).lower() in said[lang].lower() for lang in LANGUAGES)


def test_unknown_kinds_are_not_announced():
    assert phrase("restored", {}, "en", BASE) is None
    assert phrase("played", {"card": "r3"}, "fr", BASE) == "Red three played"  # unknown language: English


def table_changes() -> list[Change]:
    """Everything a table tells its listeners over recorded games and every table command."""
    heard: list[Change] = []
    table = Table()
    table.add_listener(lambda t, c: heard.append(c))
    for path in ("ah2ac2-3p.jsonl", "hanabidata-2p.jsonl"):
        with open(os.path.join(DATA, path), encoding="utf-8") as f:
            for line in list(f)[:40]:
                log = json.loads(line)["log"]
                table.new_game(log["players"], log["variant"])
                for action in log["actions"]:
                    table.act(action)
    table.new_game(["Ann", "Ben"], "five-magnificent")
    table.act({"type": "play", "card": "r1"})
    table.correct(0, "y1")
    table.undo()
    table.propose({"type": "play", "card": "r1"}, 0.4, ["r1", "y1"])
    table.undo()
    table.propose({"type": "play", "card": "r1"}, 0.4, ["r1", "y1"])
    table.confirm()
    table.end_game()
    table.undo()
    for value in (2, 3, 4, 5):
        table.act({"type": "play", "card": f"r{value}"})
    table.act({"type": "reward", "tile": "hint"})
    return heard


def test_every_kind_the_table_tells_is_announced_in_every_language():
    heard = table_changes()
    kinds = {c.kind for c in heard}
    assert {"played", "misplay", "discarded", "hint", "final_round", "game_over", "undo", "corrected",
            "new_game", "last_copy_lost", "pace_zero", "pending", "dismissed", "resumed", "reward_revealed",
            "reward"} <= kinds
    for change in {c.kind: c for c in heard}.values():
        for lang in LANGUAGES:
            assert phrase(change.kind, change.params, lang, BASE), (change, lang)


# -- the voice ----------------------------------------------------------------------------------------

def espeak() -> Espeak:
    try:
        return find_espeak()
    except SpeechError:
        if os.environ.get("CI"):
            pytest.fail("espeak-ng is missing: .ci/run installs it with apt-get")
        pytest.skip("espeak-ng not installed here (apt-get install espeak-ng)")


def seconds(path: str) -> float:
    with wave.open(path, "rb") as w:
        assert w.getnchannels() == 1 and w.getsampwidth() == 2 and w.getframerate() > 8000
        return w.getnframes() / w.getframerate()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_espeak_renders_valid_wavs_whose_length_grows_with_the_text(lang, tmp_path):
    engine = espeak()
    short = phrase("played", {"card": "r3"}, lang, BASE)
    long = phrase("game_over", {"outcome": "won", "score": 25}, lang, BASE)
    assert short and long and len(long) > 2 * len(short)
    engine.render(short, lang, str(tmp_path / "short.wav"))
    engine.render(long, lang, str(tmp_path / "long.wav"))
    a, b = seconds(str(tmp_path / "short.wav")), seconds(str(tmp_path / "long.wav"))
    assert 0.3 < a < 5 and b > 1.5 * a


def test_a_speaker_says_each_change_of_the_table_into_wav_files(tmp_path):
    engine = espeak()
    engine.wav_dir = str(tmp_path)
    table = Table()
    table.new_game(["Ann", "Ben", "Cat"])
    lang = ["pl"]
    speaker = Speaker(table, engine, lambda: lang[0])
    try:
        table.act({"type": "play", "card": "r1"})
        assert speaker.wait_idle(30)
        lang[0] = "de"
        table.act({"type": "hint"})
        assert speaker.wait_idle(30)
    finally:
        speaker.close()
    assert list(speaker.said) == ["Czerwona jedynka zagrana", "Hinweis, noch sieben Hinweis-Plättchen"]
    files = sorted(os.listdir(tmp_path))
    assert files == ["0001.wav", "0002.wav"] and all(seconds(str(tmp_path / f)) > 0.5 for f in files)
    assert speaker.failure is None and speaker.dropped == 0


class SlowEngine:
    """A voice that takes ``seconds`` per sentence, or until released; it remembers what it said."""

    def __init__(self, seconds: float = 0.0):
        self.seconds = seconds
        self.release = threading.Event()
        self.started = threading.Event()
        self.said: list[tuple[str, str]] = []

    def say(self, text: str, voice: str) -> None:
        self.started.set()
        if self.seconds:
            time.sleep(self.seconds)
        else:
            self.release.wait(10)
        self.said.append((text, voice))


def timed_acts(table: Table, n: int) -> float:
    """``n`` hints and discards (of cards with a spare copy), timed."""
    spare = iter(f"{s}{v}" for v in (2, 3, 4) for s in "rygbw")
    start = time.perf_counter()
    for _ in range(n):
        table.act({"type": "hint"} if table.state.hints else {"type": "discard", "card": next(spare)})
    return time.perf_counter() - start


def test_a_slow_voice_never_holds_up_the_table():
    quiet, loud = Table(), Table()
    for t in (quiet, loud):
        t.new_game(["Ann", "Ben", "Cat"])
    alone = timed_acts(quiet, 20)
    engine = SlowEngine(seconds=0.5)
    speaker = Speaker(loud, engine, lambda: "en")
    try:
        spoken = timed_acts(loud, 20)
        assert spoken < 0.25 and spoken < alone + 0.2, (spoken, alone)  # one sentence alone takes 0.5 s
        assert len(speaker._queue) <= QUEUE and speaker.dropped >= 20 - QUEUE - 1
    finally:
        speaker.close()
    assert loud.log().actions == quiet.log().actions


def test_when_the_table_outruns_the_voice_the_oldest_news_is_dropped():
    table = Table()
    table.new_game(["Ann", "Ben", "Cat"])
    engine = SlowEngine()
    speaker = Speaker(table, engine, lambda: "en", voice="en-us")
    try:
        table.act({"type": "play", "card": "r1"})
        assert engine.started.wait(5)  # saying the first while the rest come in
        for card_ in ("r2", "r3", "r4", "r5", "y1"):
            table.act({"type": "play", "card": card_})
        engine.release.set()
        assert speaker.wait_idle(10)
    finally:
        speaker.close()
    assert QUEUE == 3 and [t for t, _ in engine.said] == ["Red one played", "Red four played", "Red five played",
                                                          "Yellow one played"]
    assert speaker.dropped == 2 and {v for _, v in engine.said} == {"en-us"}


def test_a_change_that_cannot_be_said_does_not_silence_the_rest():
    table = Table()
    table.new_game(["Ann", "Ben"])
    engine = SlowEngine(seconds=0.001)
    speaker = Speaker(table, engine, lambda: "en")
    try:
        speaker._heard(table, Change("played", "?", {"card": "not a card"}))
        table.act({"type": "play", "card": "w1"})
        assert speaker.wait_idle(5)
    finally:
        speaker.close()
    assert engine.said == [("White one played", "en")]


def test_a_speaker_suggests_teaching_the_deck_when_a_game_the_camera_was_often_unsure_in_ends():
    """As the OLED and the page do (``reading.suggests_teaching``: 5 cards asked about, a fifth of
    those laid); a game with fewer ends as before."""
    said = {}
    for asked in (4, 5):
        table = Table()
        table.new_game(["Ann", "Ben"])
        engine = SlowEngine(seconds=0.001)
        speaker = Speaker(table, engine, lambda: "en")
        try:
            for card_ in ["r1", "y1", "g1", "b1", "w1"][:asked]:
                table.propose({"type": "play", "card": card_}, 0.6, [card_])
                table.confirm()
            table.end_game()
            assert speaker.wait_idle(5)
        finally:
            speaker.close()
        said[asked] = engine.said[-1][0]
    teach = "The camera was often unsure of the cards: teach it your deck on the page."
    assert said[5].startswith("Game over, score five. ") and said[5].endswith(f". {teach}")
    assert said[4].startswith("Game over, score four. ") and "teach" not in said[4]


def test_the_voice_follows_the_games_language():
    table = Table()
    table.new_game(["Ann", "Ben"])
    engine = SlowEngine(seconds=0.001)
    lang = ["cs"]
    speaker = Speaker(table, engine, lambda: lang[0])
    try:
        table.act({"type": "hint"})
        assert speaker.wait_idle(5)
        lang[0] = "pl"
        table.act({"type": "play", "card": "g1"})
        assert speaker.wait_idle(5)
    finally:
        speaker.close()
    assert engine.said == [("Nápověda, zbývá sedm modrých žetonů", "cs"), ("Zielona jedynka zagrana", "pl")]


# -- without espeak-ng, and when it fails ---------------------------------------------------------------

@pytest.fixture
def no_espeak(monkeypatch):
    monkeypatch.setattr(speech_module, "PROGRAM", "espeak-ng-not-installed-here")


def test_missing_espeak_is_reported_not_raised(no_espeak):
    with pytest.raises(SpeechError) as e:
        find_espeak()
    assert e.value.code == NO_ENGINE and "apt-get install espeak-ng" in str(e.value)
    table = Table()
    table.new_game(["Ann", "Ben"])
    speech = Speech(table, lambda: "en")
    status = speech.turn(True)
    assert (status.on, status.available, status.reason) == (False, False, NO_ENGINE)
    assert table.act({"type": "play", "card": "r1"}).kind == "played"
    assert speech.speaker is None
    speech.close()


def test_a_failing_voice_is_reported_and_the_table_goes_on(tmp_path):
    broken = tmp_path / "espeak-ng"
    broken.write_text("#!/bin/sh\necho 'no sound card' >&2\nexit 1\n")
    broken.chmod(0o755)
    table = Table()
    table.new_game(["Ann", "Ben"])
    speech = Speech(table, lambda: "en", engine=lambda: Espeak(str(broken)))
    assert speech.turn(True).on
    table.act({"type": "play", "card": "r1"})
    assert speech.speaker is not None and speech.speaker.wait_idle(10)
    status = speech.status()
    assert (status.on, status.reason) == (True, ENGINE_FAILED) and "no sound card" in (status.message or "")
    assert table.act({"type": "hint"}).kind == "hint"
    assert speech.turn(False).on is False and speech.speaker is None


def test_speech_turns_on_and_off_and_stops_listening():
    table = Table()
    table.new_game(["Ann", "Ben"])
    engine = SlowEngine(seconds=0.001)
    speech = Speech(table, lambda: "en", engine=lambda: engine)
    assert speech.status().as_dict() == {"on": False, "available": True, "reason": None, "message": None,
                                         "voice": ""}
    assert speech.turn(True).on and speech.turn(True).on  # twice: still one speaker
    table.act({"type": "play", "card": "r1"})
    assert speech.speaker is not None and speech.speaker.wait_idle(5)
    speech.turn(False)
    table.act({"type": "play", "card": "r2"})
    time.sleep(0.05)
    assert engine.said == [("Red one played", "en")]


# -- settings, the box and the page ---------------------------------------------------------------------

def test_speech_settings_are_read_and_checked():
    assert (BoxConfig().speech, BoxConfig().speech_voice) == (False, "")
    cfg = parse_config({"box": {"speech": True, "speech_voice": "en-us"}})
    assert cfg.box.speech is True and cfg.box.speech_voice == "en-us"
    for bad, needle in (({"speech": "yes"}, '[box] speech = "yes" is not allowed: true or false'),
                        ({"speech": 1}, "[box] speech = 1 is not allowed: true or false"),
                        ({"speech_voice": "en us"}, '[box] speech_voice = "en us" is not allowed: an espeak-ng voice'),
                        ({"speech_voice": "-w /tmp/x"}, "speech_voice")):
        with pytest.raises(ConfigError) as e:
            parse_config({"box": bad})
        assert needle in str(e.value) and e.value.key.startswith("box.speech")
    assert "speech = false" in Config().to_toml() and 'speech_voice = ""' in Config().to_toml()


def test_the_box_starts_with_speech_on_and_without_espeak_plays_on(tmp_path, no_espeak):
    from companion.app.wiring import Companion, RunOptions
    config = Config()
    config.box.speech = True
    config.camera.source = "none"
    box = Companion(config, RunOptions(pin="2468", data=str(tmp_path)), use_buttons=False)
    try:
        assert box.speech.status().reason == NO_ENGINE and box.speech.speaker is None
        client = box.app.test_client()
        assert client.get("/api/speech").json["available"] is False
        r = client.post("/api/speech", json={"on": True}, headers={"X-Table-PIN": "2468"})
        assert r.status_code == 503 and r.json["reason"] == NO_ENGINE
        assert client.post("/api/actions", json={"type": "hint"}, headers={"X-Table-PIN": "2468"}).status_code == 200
    finally:
        box.close()


def test_the_box_speaks_in_the_games_language(tmp_path, monkeypatch):
    from companion.app.wiring import Companion, RunOptions
    engine = SlowEngine(seconds=0.001)
    monkeypatch.setattr(Companion, "_speech", lambda self: Speech(self.table, self._game_lang, engine=lambda: engine))
    config = Config()
    config.camera.source = "none"
    box = Companion(config, RunOptions(pin="2468", data=str(tmp_path)), use_buttons=False)
    try:
        client = box.app.test_client()
        pin = {"X-Table-PIN": "2468"}
        assert client.post("/api/speech", json={"on": True}, headers=pin).json["on"] is True
        assert client.post("/api/games", json={"players": ["Ann", "Ben"], "lang": "de"}, headers=pin).status_code == 201
        client.post("/api/actions", json={"type": "play", "card": "r1"}, headers=pin)
        assert box.speech.speaker.wait_idle(5)
    finally:
        box.close()
    assert engine.said[-1] == ("Rote Eins ausgespielt", "de")
    assert box.speech.speaker is None


@pytest.fixture
def page():
    from web import close_app, create_app
    table = Table()
    table.new_game(["Ann", "Ben"])
    engine = SlowEngine(seconds=0.001)
    available = [True]

    def find() -> SlowEngine:
        if not available[0]:
            raise SpeechError(NO_ENGINE, "spoken announcements need espeak-ng")
        return engine

    app = create_app(table, pin="2468", speech=Speech(table, lambda: "en", engine=find))
    yield app, table, engine, available
    close_app(app)
    app.extensions["companion"].speech.close()


def test_the_page_turns_speech_on_with_the_pin(page):
    app, table, engine, _ = page
    client = app.test_client()
    assert client.get("/api/speech").json == {"on": False, "available": True, "reason": None, "message": None,
                                              "voice": ""}
    assert client.post("/api/speech", json={"on": True}).status_code == 401
    pin = {"X-Table-PIN": "2468"}
    for bad in ({"on": "yes"}, {"on": True, "voice": "x"}, [True], {}):
        r = client.post("/api/speech", json=bad, headers=pin)
        assert r.status_code == 400 and "on" in r.json["error"]
    assert client.post("/api/speech", json={"on": True}, headers=pin).json["on"] is True
    table.act({"type": "play", "card": "r1"})
    assert app.extensions["companion"].speech.speaker.wait_idle(5)
    assert client.post("/api/speech", json={"on": False}, headers=pin).json["on"] is False
    assert engine.said == [("Red one played", "en")]


def test_the_setup_page_has_the_switch_and_greys_it_out_without_espeak(page):
    app, _, _, available = page
    client = app.test_client()
    html = client.get("/setup?lang=en").data.decode()
    assert 'id="speech"' in html and "speech.js" in html and re.search(r'id="speech-missing"\s+hidden', html)
    available[0] = False
    html = client.get("/setup?lang=pl").data.decode()
    checkbox = re.search(r'<input type="checkbox" id="speech"[^>]*>', html)
    assert checkbox and "disabled" in checkbox.group(0) and not re.search(r'id="speech-missing"\s+hidden', html)
    assert "Zapowiedzi na głos" in html and "zainstaluj espeak-ng" in html


def test_a_page_without_speech_answers_404():
    from web import close_app, create_app
    table = Table()
    app = create_app(table, pin="2468")
    try:
        client = app.test_client()
        assert client.get("/api/speech").status_code == 404
        r = client.post("/api/speech", json={"on": True}, headers={"X-Table-PIN": "2468"})
        assert r.status_code == 404 and r.json["reason"] == "no_speech"
        assert 'id="speech"' not in client.get("/setup").data.decode()
    finally:
        close_app(app)
