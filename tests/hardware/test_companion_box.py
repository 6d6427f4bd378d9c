"""How `companion run` puts the box together: an OLED that does not answer is emulated and the buttons
stay; buttons come with a Pi or with a pin driver named in the environment; the camera's problems
reach the status screen."""
from __future__ import annotations

import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.app.config import parse_config
from companion.app.recognition import CameraFault, CameraState
from companion.app.wiring import Companion, RunOptions, build_watcher, camera_from_config
from hardware.screens import Status


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.close()


def companion(tmp_path, settings, **kw) -> Companion:
    return Companion(parse_config(settings), RunOptions("127.0.0.1", 0, "1357", str(tmp_path)), **kw)


def test_a_named_oled_that_does_not_answer_is_emulated_and_the_buttons_stay(tmp_path, factory, caplog):
    box = companion(tmp_path, {"display": {"driver": "sh1106", "port": 9}}, pin_factory=factory)
    try:
        assert box.display.emulated and box.box is not None
        assert box.buttons is not None
        assert "showing the screen on the web page only" in caplog.text
        factory.pin(17).drive_low()  # HINT still reaches the table
        time.sleep(0.1)
        factory.pin(17).drive_high()
        deadline = time.monotonic() + 5
        while not box.table.actions and time.monotonic() < deadline:
            time.sleep(0.01)
        assert [a["type"] for a in box.table.actions] == ["hint"]
    finally:
        box.close()


def test_the_environment_names_a_pin_driver_for_the_buttons(tmp_path, monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(Device, "pin_factory", None)  # gpiozero picks the driver the environment names
    box = companion(tmp_path, {"display": {"driver": "dummy"}})
    try:
        assert box.buttons is not None
        assert isinstance(Device.pin_factory, MockFactory)
    finally:
        box.close()
        Device.pin_factory.close()
        Device.pin_factory = None


def test_without_a_pi_or_a_pin_driver_there_are_no_buttons(tmp_path, monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    box = companion(tmp_path, {"display": {"driver": "dummy"}})
    try:
        assert box.buttons is None and box.box is not None
    finally:
        box.close()


def test_a_missing_or_broken_profile_is_a_profile_fault(tmp_path):
    parts = camera_from_config(parse_config({"camera": {"source": "none", "profile": str(tmp_path / "no.profile")}}))
    assert parts.open_source is None
    with pytest.raises(CameraFault) as e:
        parts.make_watcher()
    assert e.value.problem == "profile" and "companion teach" in str(e.value)
    broken = tmp_path / "broken.profile"
    broken.write_bytes(b"not a profile")
    with pytest.raises(CameraFault) as e:
        build_watcher(str(broken))
    assert e.value.problem == "profile" and "cannot read the deck profile" in str(e.value)


def test_the_status_screen_names_the_camera_problem(tmp_path):
    box = companion(tmp_path, {"display": {"driver": "dummy"}})
    try:
        box.camera.state = CameraState("fault", "profile", "the deck profile x is missing")
        box._show_status()
        screen = box.box.screen()
        assert isinstance(screen, Status)
        assert screen.boot.camera == "fault" and screen.boot.problem == "profile"
        state = box.app.test_client().get("/api/state").get_json()
        assert state["camera"] == "fault" and state["camera_reason"] == "the deck profile x is missing"
    finally:
        box.close()


def test_the_hosts_setting_lets_the_page_take_writes_at_an_extra_name(tmp_path):
    box = companion(tmp_path, {"display": {"driver": "dummy"}, "web": {"hosts": ["hanabi.home.arpa"]}})
    try:
        client = box.app.test_client()
        for host, code in (("hanabi.home.arpa:8000", 200), ("attacker.example:8000", 403)):
            r = client.post("/api/actions", json={"type": "hint"}, headers={"X-Table-PIN": "1357", "Host": host})
            assert r.status_code == code, (host, r.json)
        assert [a["type"] for a in box.table.actions] == ["hint"]
    finally:
        box.close()
