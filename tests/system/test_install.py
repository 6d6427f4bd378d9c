"""The Raspberry Pi install: the systemd unit verifies, the install script and the Pi-like install
check pass shellcheck, and the script skips only the packages that Raspberry Pi OS alone has."""
import configparser
import os
import shutil
import subprocess

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # runs the install script

UNIT = os.path.join(ROOT, "systemd", "hanabi-companion.service")
INSTALL = os.path.join(ROOT, "systemd", "install.sh")
PI_CHECK = os.path.join(ROOT, "systemd", "pi-check.sh")
# what the box needs from apt, and which of it only Raspberry Pi OS's own archive has
APT_PACKAGES = {"python3-venv", "python3-pip", "python3-numpy", "i2c-tools", "espeak-ng", "python3-picamera2",
                "python3-lgpio"}
PI_ONLY = {"python3-picamera2", "python3-lgpio"}


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
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "i2c", "video", "audio"}
    assert service["StateDirectory"] == "hanabi-companion"
    assert service["Restart"] == "on-failure"
    assert "companion run" in service["ExecStart"]


@pytest.mark.parametrize("script", [INSTALL, PI_CHECK], ids=["install.sh", "pi-check.sh"])
def test_script_passes_shellcheck(script):
    tool = need("shellcheck")
    p = subprocess.run([tool, script], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stdout


STOPPED = 42  # the stand-in apt-get's "install" ends the script there, before it changes anything


def install_until_apt(tmp_path, has_candidate):
    """Runs install.sh with stand-ins for id, apt-cache and apt-get; returns what apt-get was asked to
    install and the script's stderr. The commands that would change this machine later in the script
    are stand-ins that fail, should the stand-in apt-get ever not stop it."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "apt-get.calls"
    policy = "\n".join(f"{name}) echo '  Candidate: 1.0-1';;" for name in sorted(APT_PACKAGES) if has_candidate(name))
    stand_ins = {
        "id": "echo 0",
        "apt-cache": f'echo "$2:"; echo "  Installed: (none)"\ncase "$2" in\n{policy}\n'
                     '*) echo "  Candidate: (none)";;\nesac',
        "apt-get": f'echo "$*" >> "{calls}"; [ "$1" = install ] && exit {STOPPED}; exit 0',
    }
    for name in ("useradd", "usermod", "raspi-config", "systemctl", "python3"):
        stand_ins[name] = "exit 97"
    for name, body in stand_ins.items():
        path = bin_dir / name
        path.write_text(f"#!/bin/sh\n{body}\n")
        path.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}")
    p = subprocess.run(["bash", INSTALL], capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == STOPPED, (p.returncode, p.stderr)
    lines = calls.read_text().splitlines()
    assert lines[0] == "update" and lines[-1].startswith("install -y "), lines
    return set(lines[-1].split()[2:]), p.stderr


def test_install_on_raspberry_pi_os_asks_apt_for_every_package(tmp_path):
    asked, stderr = install_until_apt(tmp_path, lambda name: True)
    assert asked == APT_PACKAGES
    assert "skipping" not in stderr


def test_install_elsewhere_skips_exactly_the_raspberry_pi_os_packages(tmp_path):
    asked, stderr = install_until_apt(tmp_path, lambda name: name not in PI_ONLY)
    assert asked == APT_PACKAGES - PI_ONLY
    for name in PI_ONLY:
        assert f"skipping {name}: only Raspberry Pi OS" in stderr


def test_install_never_skips_a_package_that_plain_debian_must_have(tmp_path):
    """A missing python3-numpy is apt's error to report, not a package to go on without."""
    asked, _ = install_until_apt(tmp_path, lambda name: False)
    assert asked == APT_PACKAGES - PI_ONLY


def test_install_script_keeps_apt_numpy_and_sees_system_packages():
    script = open(INSTALL).read()
    assert "python3-picamera2" in script and "--system-site-packages" in script
    assert "numpy==" in script and "--constraint" in script
    assert "opencv-python-headless<4.12" in script  # the last OpenCV for numpy 1, without fetching the newer ones
    assert "do_i2c 0" in script and "systemctl enable" in script
    assert "[ -d /run/systemd/system ]" in script  # a chroot or container has no systemd to restart
    assert 'chmod 0640 "$CONF_DIR/config.toml"' in script  # make pi-check checks the mode it leaves
