"""One key of the settings file changed in place: comments, order and other keys stay, the file
keeps its mode, and nothing is written that the box would refuse."""
from __future__ import annotations

import os
import stat
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.app.config import ConfigError, load_config
from companion.app.settingsfile import set_key, with_key

OWNED = """# our box
[box]
language = "pl"   # the family speaks Polish
pin = "2468"

[camera]
# the webcam over the kitchen table
source = "opencv:0"
profile = "old.npz"  # taught last year
fps = 8.0

[web]
port = 8080
"""


def test_the_key_is_replaced_and_everything_else_stays(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(OWNED)
    os.chmod(path, 0o640)
    set_key(str(path), "camera", "profile", "/var/lib/hanabi/deck-profile.npz")
    text = path.read_text()
    assert text == OWNED.replace('profile = "old.npz"  # taught last year',
                                 'profile = "/var/lib/hanabi/deck-profile.npz"  # taught last year')
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert load_config(str(path)).camera.profile == "/var/lib/hanabi/deck-profile.npz"
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]  # no temporary file left


def test_a_missing_key_section_or_file_is_added(tmp_path):
    no_key = "[camera]\nsource = \"folder:/x\"\n"
    assert tomllib.loads(with_key(no_key, "camera", "profile", "p.npz"))["camera"] == {
        "source": "folder:/x", "profile": "p.npz"}
    no_section = "# mine\n[box]\nplayers = 4"
    out = with_key(no_section, "camera", "profile", "p.npz")
    assert out.startswith(no_section) and tomllib.loads(out) == {"box": {"players": 4},
                                                                  "camera": {"profile": "p.npz"}}
    path = tmp_path / "new" / "config.toml"
    set_key(str(path), "camera", "profile", "p.npz")
    assert load_config(str(path)).camera.profile == "p.npz"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o644


def test_settings_the_box_would_refuse_are_never_written(tmp_path):
    path = tmp_path / "config.toml"
    broken = "[camera]\nprofile = \"a\"\nprofile = \"b\"\n"
    path.write_text(broken)
    with pytest.raises(ConfigError):
        set_key(str(path), "camera", "profile", "new.npz")
    assert path.read_text() == broken
    with pytest.raises(ConfigError) as e:
        set_key(str(path), "camera", "profile", " leading space")
    assert e.value.key == "camera.profile" and path.read_text() == broken


comment = st.text(st.characters(codec="utf-8", exclude_characters="\r\n\x00\x7f",
                                exclude_categories=("Cc", "Cs")), max_size=20)
value = st.text(st.characters(codec="utf-8", exclude_characters="\x00", exclude_categories=("Cs", "Cc")),
                min_size=1, max_size=30).map(str.strip).filter(bool)


@settings(max_examples=100, deadline=None)
@given(comment, st.booleans(), st.booleans(), value)
def test_any_settings_file_keeps_its_other_settings_and_comments(note, has_section, has_key, profile):
    text = f"# {note}\n[box]\nplayers = 4  # {note}\n"
    if has_section:
        text += "\n[camera]\nfps = 5.0\n" + ('profile = "x.npz"\n' if has_key else "")
    out = with_key(text, "camera", "profile", profile)
    data = tomllib.loads(out)
    assert data["camera"]["profile"] == profile
    assert data["box"] == {"players": 4}
    assert out.count(f"# {note}") >= 2
    if has_section:
        assert data["camera"]["fps"] == 5.0
