"""The OLED driver: emulated by default off the Pi, the real luma devices when asked, clear errors."""
from __future__ import annotations

import io

import pytest
from luma.core.error import DeviceNotFoundError
from luma.core.interface.serial import noop
from PIL import Image

from hardware.display import DisplayConfig, HardwareError, get_display
from hardware.samples import SAMPLES
from hardware.screens import render

IMAGE = render(SAMPLES["dashboard"], "en")


def no_oled(port: int, address: int):
    raise DeviceNotFoundError(f"I2C device not found on address: 0x{address:02X}")


def test_the_emulated_display_keeps_the_last_image_for_the_web_page():
    d = get_display({"driver": "dummy"})
    assert d.emulated
    d.show(IMAGE)
    assert d.image.tobytes() == IMAGE.tobytes()
    assert d.device.image.tobytes() == IMAGE.tobytes()  # luma's dummy holds it too
    png = Image.open(io.BytesIO(d.png(scale=3)))
    assert png.size == (384, 192)
    assert d.frames == 1


def test_upside_down_mounting_turns_the_device_image_not_the_page_image():
    d = get_display(DisplayConfig(driver="dummy", rotate=2))
    d.show(IMAGE)
    assert d.image.tobytes() == IMAGE.tobytes()
    assert d.device.image.tobytes() == IMAGE.rotate(180).tobytes()


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_real_drivers_are_built_on_the_i2c_interface(driver):
    seen = []

    def serial(port, address):
        seen.append((port, address))
        return noop()

    d = get_display({"driver": driver, "port": 3, "address": 0x3D}, serial=serial)
    assert d.driver == driver and not d.emulated
    assert type(d.device).__name__ == driver
    assert seen == [(3, 0x3D)]
    d.show(IMAGE)
    assert d.image.tobytes() == IMAGE.tobytes()


def test_auto_falls_back_to_the_emulation_when_no_oled_answers(caplog):
    d = get_display({"driver": "auto"}, serial=no_oled)
    assert d.emulated
    assert "no ssd1306 OLED answers on I2C bus 1 at 0x3C" in caplog.text


def test_a_named_driver_that_does_not_answer_is_an_error():
    with pytest.raises(HardwareError, match="is I2C enabled"):
        get_display({"driver": "sh1106"}, serial=no_oled)


def test_off_the_pi_auto_is_emulated():
    assert get_display().emulated
