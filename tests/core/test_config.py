"""Settings: documented defaults, `companion config --print`, and clear errors for bad files."""
import subprocess

import pytest

from companion.config import Config, ConfigError, load_config, parse_config


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
    ("[boxes]\n", "unknown section [boxes]"),
    ("[web]\nprot = 1\n", "unknown setting 'prot'"),
    ("[web]\nport = \"80\"\n", "port must be a int"),
    ("[web]\nport = 70000\n", "port must be 1-65535"),
    ("[box]\nlanguage = \"fr\"\n", "language must be one of"),
    ("[box]\npin = \"12\"\n", "pin must be 4-8 digits"),
    ("[camera]\nconfidence = 2.0\n", "confidence must be between"),
    ("web = 3\n", "[web] must be a table"),
])
def test_bad_files_name_the_file_and_the_fix(tmp_path, text, needle):
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as e:
        load_config(str(path))
    assert needle in str(e.value) and str(path) in str(e.value)


def test_bad_config_is_an_error_message_not_a_traceback(tmp_path, companion_cmd):
    path = tmp_path / "c.toml"
    path.write_text("[web]\nport = -1\n")
    for cmd in (["config", "--print", "--config", str(path)],
                ["run", "--config", str(path), "--data", str(tmp_path)]):
        p = subprocess.run(companion_cmd + cmd, capture_output=True, text=True, timeout=60)
        assert p.returncode == 1 and "port must be 1-65535" in p.stderr and "Traceback" not in p.stderr


def test_a_damaged_store_stops_run_with_a_message(tmp_path, companion_cmd):
    (tmp_path / "table.db").write_bytes(b"garbage" * 500)
    p = subprocess.run(companion_cmd + ["run", "--data", str(tmp_path), "--port", "0"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and "damaged" in p.stderr and "Traceback" not in p.stderr
    assert any(".damaged-" in f.name for f in tmp_path.iterdir())


def test_parse_config_accepts_ints_for_floats():
    assert parse_config({"camera": {"retry_seconds": 2}}).camera.retry_seconds == 2.0
