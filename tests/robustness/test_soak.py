"""A short game night (the full one is `make soak`): memory flat, no leaks, every game kept."""
import pytest

from .soak import soak

pytestmark = pytest.mark.slow  # a short game night with 20 phones


def test_short_game_night_with_20_phones():
    r = soak(games=1)
    assert r.history >= 2
    assert r.growth < 0.10, f"RSS {r.rss_start:.0f} → {r.rss_end:.0f} MB"
    assert r.threads[1] <= r.threads[0] + 2 and r.fds[1] <= r.fds[0] + 4
    assert min(r.events_per_client) > 0  # every phone kept getting the game
