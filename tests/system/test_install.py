"""The Raspberry Pi install: the systemd unit verifies and the install script passes shellcheck."""
import configparser
import os
import shutil
import subprocess

import pytest

from tests.conftest import ROOT

UNIT = os.path.join(ROOT, "systemd", "hanabi-companion.service")
INSTALL = os.path.join(ROOT, "systemd", "install.sh")


def need(tool):
    path = shutil.which(tool)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{tool} is missing: .ci/run installs it with apt-get")
        pytest.skip(f"{tool} not installed here (apt-get install {tool})")
    return path


def unit_options():
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read(UNIT)
    return parser


def test_unit_passes_systemd_analyze_verify(tmp_path):
    tool = need("systemd-analyze")
    # the unit names the installed command; point it at an executable that exists here
    text = open(UNIT).read().replace("/opt/hanabi-companion/venv/bin/companion", shutil.which("true"))
    unit = tmp_path / "hanabi-companion.service"
    unit.write_text(text)
    p = subprocess.run([tool, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert "hanabi-companion.service" not in p.stderr, p.stderr


def test_unit_runs_as_a_plain_user_with_a_watchdog_and_state_directory():
    service = unit_options()["Service"]
    assert service["Type"] == "notify" and int(service["WatchdogSec"]) > 0
    assert service["User"] != "root"
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "i2c", "video"}
    assert service["StateDirectory"] == "hanabi-companion"
    assert service["Restart"] == "on-failure"
    assert "companion run" in service["ExecStart"]


def test_install_script_passes_shellcheck():
    tool = need("shellcheck")
    p = subprocess.run([tool, INSTALL], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stdout


def test_install_script_keeps_apt_numpy_and_sees_system_packages():
    script = open(INSTALL).read()
    assert "python3-picamera2" in script and "--system-site-packages" in script
    assert "numpy==" in script and "--constraint" in script
    assert "do_i2c 0" in script and "systemctl enable" in script
