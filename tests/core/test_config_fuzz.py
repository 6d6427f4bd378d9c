"""Random settings files: whatever a person (or a broken SD card) writes, `companion config --check`
and `companion run` either accept it or refuse it in one line with exit code 1, never a traceback.

The commands run in this process (`companion.app.cli.main`), with the box's serving loop replaced by an
immediate close, so an accepted file still builds the whole box (store, OLED, camera, page)."""
from __future__ import annotations

import contextlib
import io
import json
import math
import os
import tempfile

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.app.cli import main
from companion.app.config import SCHEMA
from companion.app.wiring import Companion
from companion.game.variants import PRESETS

QUICK, FULL = 60, 400

ints = st.integers(min_value=-(2**40), max_value=2**40)
floats = st.floats(allow_nan=True, allow_infinity=True)
texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)
scalars = st.one_of(ints, floats, st.booleans(), texts)
any_value = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                          st.dictionaries(texts, inner, max_size=3)),
                         max_leaves=8)
zone = st.lists(st.one_of(st.integers(-10, 2000), st.floats(-10, 2000)), min_size=0, max_size=5)
variant_table = st.fixed_dictionaries({"preset": st.sampled_from([*PRESETS, "rainbow_wild"])},
                                      optional={"hint_tokens": st.integers(6, 10),
                                                "fuse_tokens": st.integers(0, 4),
                                                "multicolor": st.sampled_from(["none", "suit", "wild", "x"]),
                                                "black_values": st.lists(st.integers(0, 6), max_size=10)})

# Values near what a person would write (right and nearly right), per key; any TOML value besides.
LIKELY = {
    "box": {"language": st.sampled_from(["en", "pl", "de", "cs", "fr", "EN"]),
            "pin": st.sampled_from(["", "1234", "12345678", "12", "abcd", "123456789"]),
            "variant": st.one_of(st.sampled_from([*PRESETS, "rainbow_wild", ""]), variant_table),
            "players": st.integers(0, 7), "speech": st.sampled_from([True, False, "true", 1]),
            "speech_voice": st.sampled_from(["", "en-us", "pl", "de+f3", "en us", "-w out.wav"])},
    "web": {"host": st.sampled_from(["0.0.0.0", "127.0.0.1", "::", "box.local", "my box", ""]),
            "port": st.integers(-1, 70000)},
    "camera": {"source": st.sampled_from(["auto", "none", "picamera2", "opencv:0", "opencv:", "folder:frames",
                                          "folder:", "usb", "opencv:/dev/video0"]),
               "profile": st.sampled_from(["", "deck.profile", "missing.profile", " deck.profile"]),
               "fps": st.one_of(st.integers(-1, 100), floats), "confidence": floats,
               "retry_seconds": st.one_of(st.integers(-1, 5000), floats),
               "learn": st.sampled_from([True, False, "true", 0]),
               "play_zone": zone, "discard_zone": zone},
    "display": {"driver": st.sampled_from(["auto", "ssd1306", "sh1106", "dummy", "ssd1309"]),
                "port": st.integers(-1, 120), "address": st.integers(0, 0x90), "rotate": st.integers(-1, 3)},
    "buttons": {name: st.integers(-1, 30) for name in SCHEMA["buttons"]},
}


def toml_key(key: str) -> str:
    return json.dumps(key)


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


@st.composite
def section(draw, name: str) -> str:
    keys = list(LIKELY.get(name, {}))
    chosen = draw(st.lists(st.sampled_from(keys), unique=True, max_size=len(keys))) if keys else []
    lines = [f"[{toml_key(name)}]"]
    for key in chosen:
        value = draw(LIKELY[name][key] if draw(st.integers(0, 9)) else any_value)
        lines.append(f"{key} = {toml_value(value)}")
    if draw(st.integers(0, 19)) == 0:  # a key the schema does not know
        lines.append(f"{toml_key(draw(texts))} = {toml_value(draw(scalars))}")
    return "\n".join(lines)


@st.composite
def settings_file(draw) -> str:
    kind = draw(st.integers(0, 9))
    if kind == 0:  # anything at all: mostly broken TOML
        return draw(st.text(max_size=200))
    names = draw(st.lists(st.sampled_from(list(LIKELY)), unique=True, max_size=5))
    if kind == 1:
        names.append(draw(texts))  # a section the schema does not know
    text = "\n".join(draw(section(name)) for name in names) + "\n"
    if kind == 2:  # a damaged file: cut off or a byte flipped
        cut = draw(st.integers(0, len(text)))
        text = text[:cut] + draw(st.sampled_from(["", "=", "[", '"', "\x00", "\n["])) + text[cut:]
    return text


def run_cli(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(argv)
    return code, err.getvalue()


def check_one(text: str, folder: str) -> tuple[int, int]:
    path = os.path.join(folder, "config.toml")
    with open(path, "w", encoding="utf-8", errors="surrogatepass") as f:
        f.write(text)
    cwd = os.getcwd()
    os.chdir(folder)  # relative profile and camera paths resolve here
    try:
        check, check_err = run_cli(["config", "--check", path])
        run, run_err = run_cli(["run", "--config", path, "--data", os.path.join(folder, "data")])
    finally:
        os.chdir(cwd)
    for code, err, prefix in ((check, check_err, "companion config: "), (run, run_err, "companion run: ")):
        assert code in (0, 1), (code, err)
        if code == 1:
            assert err.endswith("\n") and err.count("\n") == 1, err
            assert err.startswith(prefix) and "Traceback" not in err, err
        else:
            assert err == "", err
    if check == 0:
        assert run == 0, run_err
    if run == 1:  # the same refusal, word for word
        assert check == 1 and check_err[len("companion config: "):] == run_err[len("companion run: "):]
    return check, run


@pytest.fixture
def no_serving(monkeypatch):
    """`companion run` builds the box, then closes it instead of serving."""
    monkeypatch.setattr(Companion, "serve", lambda self: self.close())


def _examine(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "deck.profile"), "wb"):
            pass
        check, run = check_one(text, folder)
    event(f"config --check exit {check}, run exit {run}")


@settings(max_examples=QUICK, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                    HealthCheck.function_scoped_fixture])
@given(settings_file())
def test_random_settings_are_accepted_or_refused_in_one_line(no_serving, text):
    _examine(text)


@pytest.mark.slow
@settings(max_examples=FULL, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(settings_file())
def test_four_hundred_random_settings_files(no_serving, text):
    _examine(text)


@pytest.mark.parametrize("text", [
    '[box]\nvariant = "rainbow_wild"\n', "[buttons]\nhint = 2\n", "[display]\naddress = 200\n",
    '[web]\nport = "x"\n', "[camera]\nfps = nan\n", "[box\n", "\x00",
])
def test_known_bad_settings_are_refused_by_both_commands(no_serving, text):
    with tempfile.TemporaryDirectory() as folder:
        check_one(text, folder)
        assert run_cli(["config", "--check", os.path.join(folder, "config.toml")])[0] == 1


def test_a_missing_profile_is_refused_by_the_check_but_the_box_still_runs(no_serving):
    with tempfile.TemporaryDirectory() as folder:
        check_one('[camera]\nprofile = "missing.profile"\n', folder)
        path = os.path.join(folder, "config.toml")
        code, err = run_cli(["config", "--check", path])
        assert code == 1 and "no such file" in err
        assert run_cli(["run", "--config", path, "--data", os.path.join(folder, "data")]) == (0, "")
