"""The boot status: what it accepts, and this machine's address for the phones."""
from __future__ import annotations

import re

import pytest

from hardware.display import get_display
from hardware.status import BootStatus, local_address


def test_camera_state_is_one_the_web_api_knows():
    assert BootStatus("10.0.0.2:8000", "1234", "fault").camera == "fault"
    with pytest.raises(ValueError, match="ok, missing, fault"):
        BootStatus("10.0.0.2:8000", "1234", "broken")


def test_local_address_is_an_ip_and_port_or_none():
    address = local_address(8123)
    assert address is None or re.fullmatch(r"\d+\.\d+\.\d+\.\d+:8123", address)


def test_closing_the_display_blanks_it():
    d = get_display({"driver": "dummy"})
    d.show(d.image.point(lambda _: 1))
    d.close()
    assert d.device.image.getbbox() is None
