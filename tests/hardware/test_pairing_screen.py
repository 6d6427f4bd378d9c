"""The status screen's QR code: it reads back as the pairing address, and the box keeps it fresh."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from companion.game.pairing import Pairing
from hardware import qr
from hardware.box import RENEW, Box
from hardware.canvas import Canvas
from hardware.messages import LANGUAGES
from hardware.screens import Dashboard, Status, render
from hardware.status import BootStatus

from .conftest import FakeTime
from .qrread import decode, read_classic

TOKEN = "oJ6Xb2vQ_k3Tn-8sWzR1aQ"
BOOT = BootStatus("10.0.0.7:8000", "482193", "ok")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("camera,problem", [("ok", None), ("missing", None), ("fault", "profile"),
                                            ("fault", "watcher")])
def test_the_status_screen_code_reads_as_the_pairing_address(lang: str, camera: str, problem: str | None) -> None:
    boot = BootStatus("192.168.100.200:8000", "482193", camera, problem, token=TOKEN)
    assert read_classic(render(Status(boot), lang)) == f"http://192.168.100.200:8000/pair/{TOKEN}"


@settings(max_examples=40, deadline=None)
@given(ip=st.tuples(*[st.integers(0, 255)] * 4), port=st.integers(1, 65535),
       token=st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", min_size=22, max_size=22))
def test_any_address_and_token_read_back_exactly(ip: tuple[int, ...], port: int, token: str) -> None:
    boot = BootStatus(f"{'.'.join(map(str, ip))}:{port}", "123456", token=token)
    assert boot.pair_url is not None
    image = render(Status(boot), "en")
    assert decode(image) == boot.pair_url
    assert image.crop((0, 0, 62, 64)).getbbox() is not None  # the address and PIN stay beside it


def test_modules_are_two_pixels_and_the_quiet_zone_is_lit() -> None:
    c = Canvas()
    url = f"http://192.168.100.200:8000/pair/{TOKEN}"
    assert qr.draw(c, url, (64, 0, 127, 63)) == 2
    n = len(qr.matrix(url))
    assert n == 29  # the smallest code that holds the box's address and a token
    side = n * 2
    left, top = 64 + (64 - side) // 2, (64 - side) // 2
    lit = Image.new("1", (64, 64), 1)
    ring = c.image.crop((64, 0, 128, 64))
    ring.paste(lit.crop((0, 0, side, side)), (left - 64, top))  # cover the code: what is left is the margin
    assert ring.getextrema() == (1, 1)


def test_a_code_too_big_for_its_place_is_an_error() -> None:
    with pytest.raises(ValueError, match="does not fit"):
        qr.draw(Canvas(), "x" * 200, (0, 0, 40, 40))


def test_without_a_network_or_a_token_there_is_no_code() -> None:
    assert BootStatus(None, "1234", token=TOKEN).pair_url is None
    assert BOOT.pair_url is None
    for boot in (BootStatus(None, "1234", token=TOKEN), BOOT):
        assert decode(render(Status(boot), "en")) == ""


@pytest.fixture
def pairing(fake_time: FakeTime) -> Pairing:
    return Pairing(ttl=300, clock=fake_time)


@pytest.fixture
def box(table, display, fake_time: FakeTime, pairing: Pairing) -> Box:
    return Box(table, display, lang="en", clock=fake_time, schedule=fake_time.schedule, pairing=pairing)


def shown_token(box: Box) -> str:
    screen = box.screen()
    assert isinstance(screen, Status) and screen.boot is not None and screen.boot.token is not None
    assert decode(box.display.image) == screen.boot.pair_url
    return screen.boot.token


def test_the_status_carries_a_token_the_page_accepts_once(box: Box, pairing: Pairing) -> None:
    box.show_status(BOOT)
    token = shown_token(box)
    assert pairing.redeem(token)
    assert not pairing.redeem(token)


def test_ok_shows_the_status_again_with_a_fresh_code(box: Box, fake_time: FakeTime) -> None:
    box.show_status(BOOT)
    first = shown_token(box)
    fake_time.advance(box.status_seconds)
    assert isinstance(box.screen(), Dashboard)
    assert box.press("ok").accepted
    assert shown_token(box) != first


def test_a_used_code_is_replaced_while_the_status_shows(box: Box, pairing: Pairing, fake_time: FakeTime) -> None:
    box.show_status(BOOT)
    fake_time.advance(box.status_seconds - 1)
    first = shown_token(box)
    assert pairing.redeem(first)            # a phone scanned it: the next phone gets its own
    second = shown_token(box)
    assert second != first
    fake_time.advance(box.status_seconds - 1)
    assert shown_token(box) == second      # and time to scan it


def test_a_code_on_screen_is_renewed_before_it_expires(table, display, fake_time: FakeTime,
                                                      pairing: Pairing) -> None:
    box = Box(table, display, clock=fake_time, schedule=fake_time.schedule, pairing=pairing,
              status_seconds=1000)
    box.show_status(BOOT)
    first = shown_token(box)
    fake_time.advance(pairing.ttl * RENEW)
    second = shown_token(box)
    assert second != first and pairing.redeem(second)


def test_no_code_is_renewed_once_the_status_is_gone(box: Box, pairing: Pairing, fake_time: FakeTime) -> None:
    box.show_status(BOOT)
    token = shown_token(box)
    fake_time.advance(box.status_seconds)
    assert isinstance(box.screen(), Dashboard)
    fake_time.advance(pairing.ttl)
    assert pairing.valid() == 0
    assert pairing.redeem(token) is False


def test_without_a_network_the_status_has_no_code(box: Box, pairing: Pairing) -> None:
    box.show_status(BootStatus(None, "482193", "missing"))
    screen = box.screen()
    assert isinstance(screen, Status) and screen.boot is not None and screen.boot.token is None
    assert pairing.valid() == 0


def test_a_closed_box_stops_listening_for_paired_phones(box: Box, pairing: Pairing) -> None:
    box.show_status(BOOT)
    box.close()
    assert pairing.listeners == []
