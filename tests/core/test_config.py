"""Settings: documented defaults, `companion config --print`, and clear errors for bad files."""
import subprocess

import pytest

from companion.app.cli import main
from companion.app.config import Config, ConfigError, load_config, parse_config


def test_defaults_round_trip_through_the_printed_file(tmp_path, companion_cmd):
    p = subprocess.run(companion_cmd + ["config", "--print", "--data", str(tmp_path)],
                       capture_output=True, text=True)
    assert p.returncode == 0
    path = tmp_path / "config.toml"
    path.write_text(p.stdout)
    assert load_config(str(path)) == Config()
    assert "address = 0x3C" in p.stdout and "[buttons]" in p.stdout


def test_settings_are_read(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[box]\nlanguage = "cs"\npin = "2468"\n[web]\nport = 8080\n[camera]\nfps = 5\n')
    cfg = load_config(str(path))
    assert cfg.box.language == "cs" and cfg.box.pin == "2468" and cfg.web.port == 8080
    assert cfg.camera.fps == 5.0 and cfg.display.address == 0x3C


def test_missing_file_means_defaults(tmp_path):
    assert load_config(str(tmp_path / "none.toml")) == Config()


@pytest.mark.parametrize("text,needle", [
    ("[box\n", "not valid TOML"),
    ("[boxes]\n", "[boxes] is not a section of the settings; the sections are box, web"),
    ("[web]\nprot = 1\n", "[web] prot = 1 is not a setting; [web] has host, port"),
    ("[web]\nport = \"80\"\n", '[web] port = "80" is not allowed: a whole number 1-65535'),
    ("[web]\nport = 70000\n", "[web] port = 70000 is not allowed: a whole number 1-65535"),
    ("[web]\nhost = \"my box\"\n", '[web] host = "my box" is not allowed: an address of this box'),
    ("[box]\nlanguage = \"fr\"\n", '[box] language = "fr" is not allowed: one of en, pl, de, cs'),
    ("[box]\npin = \"12\"\n", '[box] pin = "12" is not allowed: 4-8 digits'),
    ("[box]\nplayers = true\n", "[box] players = true is not allowed: a whole number 2-5"),
    ("[box]\nvariant = \"rainbow_wild\"\n", '[box] variant = "rainbow_wild" is not allowed: a preset (base, rainbow'),
    ("[box]\nvariant = {preset = \"base\", fuse_tokens = 4}\n",
     "variant option 'fuse_tokens' must be one of 3, 2, 1; got 4"),
    ("[camera]\nconfidence = 2.0\n", "[camera] confidence = 2.0 is not allowed: a number above 0, up to 1"),
    ("[camera]\nfps = nan\n", "[camera] fps = nan is not allowed"),
    ("[camera]\nsource = \"usb\"\n", '[camera] source = "usb" is not allowed: "auto", "picamera2", "none", '
                                     '"opencv:INDEX_OR_FILE" or "folder:DIR"'),
    ("[camera]\nsource = \"folder:\"\n", '[camera] source = "folder:" is not allowed'),
    ("[camera]\nplay_zone = [0, 0, 10, 10]\n", "set both play_zone and discard_zone"),
    ("[camera]\nplay_zone = [10, 0, 5, 10]\ndiscard_zone = [0, 0, 9, 9]\n", "[camera] play_zone = [10, 0, 5, 10]"),
    ("[display]\ndriver = \"ssd1309\"\n", "one of auto, ssd1306, sh1106, dummy"),
    ("[display]\naddress = 200\n", "[display] address = 200 is not allowed: an I2C address 0x03-0x77"),
    ("[display]\naddress = 2\n", "an I2C address 0x03-0x77"),
    ("[display]\nrotate = 1\n", "rotate = 1 is not allowed: 0, or 2"),
    ("[buttons]\nhint = 2\n", "[buttons] hint = 2 is not allowed: a free BCM GPIO number 4-27"),
    ("[buttons]\nok = 1\n", "[buttons] ok = 1 is not allowed: a free BCM GPIO"),
    ("[buttons]\nundo = 28\n", "[buttons] undo = 28 is not allowed"),
    ("[buttons]\nundo = 17\n", "[buttons] undo = 17 is not allowed: GPIO17 is already the hint button's"),
    ("[buttons]\nhnit = 5\n", "[buttons] hnit = 5 is not a setting; [buttons] has hint, undo, ok"),
    ("web = 3\n", "web = 3 is not allowed: [web] is a table of settings"),
])
def test_bad_files_name_the_file_and_the_fix(tmp_path, text, needle):
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as e:
        load_config(str(path))
    assert needle in str(e.value) and str(path) in str(e.value)
    assert "\n" not in str(e.value)


def test_bad_config_is_an_error_message_not_a_traceback(tmp_path, companion_cmd):
    path = tmp_path / "c.toml"
    path.write_text("[web]\nport = -1\n")
    for cmd in (["config", "--print", "--config", str(path)],
                ["run", "--config", str(path), "--data", str(tmp_path)]):
        p = subprocess.run(companion_cmd + cmd, capture_output=True, text=True, timeout=60)
        assert p.returncode == 1 and "port = -1 is not allowed: a whole number 1-65535" in p.stderr
        assert "Traceback" not in p.stderr


def test_a_damaged_store_stops_run_with_a_message(tmp_path, companion_cmd):
    (tmp_path / "table.db").write_bytes(b"garbage" * 500)
    p = subprocess.run(companion_cmd + ["run", "--data", str(tmp_path), "--port", "0"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and "damaged" in p.stderr and "Traceback" not in p.stderr
    assert any(".damaged-" in f.name for f in tmp_path.iterdir())


def test_parse_config_accepts_ints_for_floats():
    assert parse_config({"camera": {"retry_seconds": 2}}).camera.retry_seconds == 2.0


def test_refusals_name_the_key_they_are_about(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[buttons]\nhint = 3\n")
    with pytest.raises(ConfigError) as e:
        load_config(str(path))
    assert e.value.key == "buttons.hint"


def test_a_variant_table_is_read_and_printed_back(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[box]\nvariant = {preset = "black-powder", black_values = [5, 4, 3, 2, 1]}\n')
    cfg = load_config(str(path))
    assert cfg.box.variant == {"preset": "black-powder", "black_values": [5, 4, 3, 2, 1]}
    path.write_text(cfg.to_toml())
    assert load_config(str(path)) == cfg


def test_the_profile_file_is_required_only_when_asked(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(f'[camera]\nprofile = "{tmp_path / "deck.profile"}"\n')
    assert load_config(str(path)).camera.profile.endswith("deck.profile")  # the box starts; the camera says
    with pytest.raises(ConfigError, match="profile = .* is not allowed: no such file; make one with"):
        load_config(str(path), files=True)
    (tmp_path / "deck.profile").write_bytes(b"")
    assert load_config(str(path), files=True).camera.profile


@pytest.mark.parametrize("text,code,out", [
    ('[box]\nlanguage = "pl"\n', 0, "OK"),
    ('[display]\naddress = 0x3D\n[buttons]\nhint = 5\nundo = 6\nok = 13\n', 0, "OK"),
    ('[buttons]\nhint = 2\n', 1, "[buttons] hint = 2 is not allowed"),
    ('[camera]\nprofile = "missing.profile"\n', 1, "no such file"),
])
def test_config_check_exits_1_with_the_refusal(tmp_path, capsys, text, code, out):
    path = tmp_path / "c.toml"
    path.write_text(text)
    assert main(["config", "--check", str(path)]) == code
    got = capsys.readouterr()
    assert out in (got.out if code == 0 else got.err)
    if code:
        assert got.err.count("\n") == 1 and got.err.startswith("companion config: ")


def test_config_check_of_a_missing_file_says_so(tmp_path, capsys):
    assert main(["config", "--check", str(tmp_path / "none.toml")]) == 1
    assert "does not exist" in capsys.readouterr().err
