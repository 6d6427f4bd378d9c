"""`companion doctor`: one line per part of the box, OK or what to do, without a Pi: mock pins, the
emulated OLED, a folder camera, a fake /dev and a fake I2C bus."""
from __future__ import annotations

import http.server
import json
import shutil
import socket
import threading
from pathlib import Path

import numpy as np
import pytest
from gpiozero import DigitalInputDevice
from gpiozero.pins.mock import MockFactory

from companion.app import doctor
from companion.app.cli import main
from companion.app.config import parse_config
from companion.app.doctor import Check, Machine, examine, report
from companion.app.recognition import CameraFault
from tests.robustness.boxproc import free_port
from vision import finder
from vision.classifier import Profile

FRAMES = Path(__file__).parents[1] / "vision" / "frames"


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.close()


@pytest.fixture
def box_files(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    shutil.copy(next(FRAMES.glob("*.jpg")), frames)
    (tmp_path / "dev").mkdir()
    return tmp_path


def write_settings(folder: Path, text: str) -> str:
    path = folder / "config.toml"
    path.write_text(text)
    return str(path)


def good_settings(folder: Path, port: int, extra: str = "") -> str:
    return write_settings(folder, f'[camera]\nsource = "folder:{folder / "frames"}"\n[display]\ndriver = "dummy"\n'
                                  f'[web]\nhost = "127.0.0.1"\nport = {port}\n{extra}')


def machine(folder: Path, factory, **kw) -> Machine:
    return Machine(on_pi=lambda: False, dev=str(folder / "dev"), pin_factory=factory,
                   lan_address=lambda port: f"192.168.1.5:{port}", timeout=5, **kw)


def by_part(checks: list[Check]) -> dict[str, Check]:
    return {c.part: c for c in checks}


def test_a_working_box_is_all_ok(box_files, factory):
    port = free_port()
    checks = examine(good_settings(box_files, port), machine(box_files, factory))
    assert [c.part for c in checks] == ["settings", "model", "profile", "camera", "i2c", "oled", "buttons", "page"]
    assert all(c.ok for c in checks), [c for c in checks if not c.ok]
    parts = by_part(checks)
    assert "frames" in parts["camera"].detail and "GPIO17" in parts["buttons"].detail
    assert f"http://192.168.1.5:{port}/" in parts["page"].detail
    text, code = report(checks)
    assert code == 0 and text.endswith("all OK: the box works\n") and text.count("\nOK") == 7


@pytest.mark.parametrize("picture, says", [
    ((1296, 2304, 3), "and cuts the cards out of 2304x1296 pictures of them"),  # the Pi camera's larger stream
    (None, "and cuts the cards out of them (no larger stream)"),  # without memory for it: the raw frame itself
])
def test_the_camera_check_names_the_picture_cards_are_cut_out_of(box_files, factory, monkeypatch, picture, says):
    """The Pi camera cuts the cards out of a larger picture beside its watched frames, or without
    one out of its raw frames: the doctor says which."""
    frame = np.zeros((720, 1280, 3), np.uint8)

    class Camera:
        def read(self):
            return frame

        def detail(self):
            return frame if picture is None else np.zeros(picture, np.uint8)

        def close(self):
            pass
    monkeypatch.setattr("companion.app.wiring.open_camera", lambda spec: Camera())
    check = by_part(examine(good_settings(box_files, free_port()), machine(box_files, factory)))["camera"]
    assert check.ok
    assert check.detail.endswith(f"gives 1280x720 frames, {says}")


def test_the_command_exits_0_when_all_is_ok(box_files, monkeypatch, capsys):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    from gpiozero import Device
    monkeypatch.setattr(Device, "pin_factory", None)
    try:
        code = main(["doctor", "--config", good_settings(box_files, free_port())])
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.close()
        Device.pin_factory = None
    out = capsys.readouterr().out
    assert code == 0, out
    assert "FAIL" not in out and out.splitlines()[-1] == "all OK: the box works"


def test_each_broken_part_says_what_to_do(box_files, factory, monkeypatch):
    taken = DigitalInputDevice(27, pin_factory=factory)  # another program holds UNDO's pin
    blocker = socket.create_server(("127.0.0.1", 0))  # not the box: it never answers HTTP
    port = blocker.getsockname()[1]

    def no_model(profile, zones=None):
        raise CameraFault("model", "the card classifier x/cards.onnx is missing; reinstall the package")

    monkeypatch.setattr("companion.app.wiring.build_watcher", no_model)
    path = write_settings(box_files, f'[camera]\nsource = "folder:{box_files / "nothing"}"\n'
                                     f'profile = "{box_files / "deck.profile"}"\n'
                                     f'[display]\ndriver = "sh1106"\n[web]\nhost = "127.0.0.1"\nport = {port}\n')
    try:
        checks = by_part(examine(path, machine(box_files, factory)))
    finally:
        taken.close()
        blocker.close()
    assert checks["settings"].ok
    expected = {
        "model": "reinstall the package",
        "profile": "make one with `companion teach`",
        "camera": "is not a folder of images",
        "i2c": "turn I2C on (sudo raspi-config nonint do_i2c 0)",
        "oled": "this is not a Raspberry Pi; set [display] driver = \"dummy\"",
        "buttons": "stop it first (sudo systemctl stop hanabi-companion)",
        "page": f"port {port} is taken by another program",
    }
    for part, advice in expected.items():
        assert not checks[part].ok and advice in checks[part].detail, checks[part]
    assert report(list(checks.values()))[1] == 1


def test_a_profile_still_to_be_fitted_is_said_to_be_fitted_at_start(tmp_path):
    path = str(tmp_path / "deck.npz")
    Profile({"r1": [np.full((finder.CROP[1], finder.CROP[0], 3), 60, np.uint8)]}).save(path)  # a lesson cut short
    check = doctor.profile(parse_config({"camera": {"profile": path}}))
    assert check.ok and check.detail.startswith(path) and "when the box starts" in check.detail


def test_on_a_pi_the_oled_is_asked_whether_it_answers(box_files, factory):
    (box_files / "dev" / "i2c-1").touch()
    config = parse_config({"display": {"driver": "auto", "address": 0x3D}})
    asked = []
    on_pi = Machine(on_pi=lambda: True, dev=str(box_files / "dev"), i2c_probe=lambda b, a: asked.append((b, a)))
    assert doctor.i2c(config, on_pi).ok
    assert doctor.oled(config, on_pi) == Check("oled", True, "a device answers on I2C bus 1 at 0x3D")
    assert asked == [(1, 0x3D)]

    def denied(bus, address):
        raise PermissionError(13, "Permission denied")
    check = doctor.oled(config, Machine(on_pi=lambda: True, i2c_probe=denied))
    assert not check.ok and "add the user to the i2c group" in check.detail

    def silent(bus, address):
        raise OSError(121, "Remote I/O error")
    check = doctor.oled(config, Machine(on_pi=lambda: True, i2c_probe=silent))
    assert not check.ok and "nothing answers on I2C bus 1 at 0x3D: check the wiring" in check.detail


def test_bad_settings_are_reported_and_the_rest_uses_the_defaults(box_files, factory):
    path = write_settings(box_files, "[buttons]\nhint = 2\n")
    checks = by_part(examine(path, machine(box_files, factory)))
    assert not checks["settings"].ok and "[buttons] hint = 2 is not allowed" in checks["settings"].detail
    assert checks["buttons"].ok and "hint GPIO17" in checks["buttons"].detail  # the default pins


def test_without_a_camera_or_a_network(box_files, factory):
    auto = parse_config({})
    check = doctor.camera(auto, machine(box_files, factory))
    assert not check.ok and "set [camera] source" in check.detail
    assert doctor.camera(parse_config({"camera": {"source": "none"}}), machine(box_files, factory)).ok
    offline = Machine(lan_address=lambda port: None)
    check = doctor.page(parse_config({"web": {"port": free_port()}}), offline)
    assert not check.ok and "connect the box to the Wi-Fi" in check.detail


def test_a_running_box_answers_on_its_port(box_files, factory):
    class State(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = json.dumps({"camera": "ok"}).encode()
            self.send_response(200)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), State)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.server_address[1]
        check = doctor.page(parse_config({"web": {"host": "127.0.0.1", "port": port}}), machine(box_files, factory))
    finally:
        server.shutdown()
        server.server_close()
    assert check.ok and check.detail == f"the box answers: open http://192.168.1.5:{port}/ on a phone"
