"""One-time pairing tokens: each pairs one phone, within its minutes, and nothing else does."""
from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.game.pairing import TOKEN_UNKNOWN, TOKEN_USED, Pairing, pairing_url


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_token_pairs_once() -> None:
    p = Pairing(clock=Clock())
    token = p.issue()
    assert p.redeem(token) is True
    assert p.redeem(token) is False
    assert p.refusal(token) == TOKEN_USED


def test_a_token_expires_after_its_lifetime() -> None:
    clock = Clock()
    p = Pairing(ttl=300, clock=clock)
    fresh, stale = p.issue(), p.issue()
    clock.now += 299.9
    assert p.redeem(fresh) is True
    clock.now += 0.1
    assert p.redeem(stale) is False
    assert p.refusal(stale) == TOKEN_UNKNOWN
    assert p.valid() == 0


def test_unknown_and_empty_tokens_are_refused() -> None:
    p = Pairing(clock=Clock())
    p.issue()
    for guess in ("", "x", "a" * 22, "../pin"):
        assert p.redeem(guess) is False
        assert p.refusal(guess) == TOKEN_UNKNOWN


def test_tokens_are_fresh_and_fit_a_url_path() -> None:
    p = Pairing(live=100, clock=Clock())
    tokens = {p.issue() for _ in range(100)}
    assert len(tokens) == 100
    assert all(len(t) >= 21 and t.replace("-", "").replace("_", "").isalnum() for t in tokens)
    assert pairing_url("192.168.1.23:8000", "abc") == "http://192.168.1.23:8000/pair/abc"


def test_only_a_handful_of_tokens_live() -> None:
    p = Pairing(live=3, clock=Clock())
    tokens = [p.issue() for _ in range(5)]
    assert p.valid() == 3
    assert [p.redeem(t) for t in tokens] == [False, False, True, True, True]


def test_listeners_hear_each_redeemed_token() -> None:
    p = Pairing(clock=Clock())
    heard: list[str] = []
    p.listeners.append(heard.append)
    token = p.issue()
    p.redeem("nonsense")
    p.redeem(token)
    p.redeem(token)
    assert heard == [token]


def test_bad_limits_are_refused() -> None:
    with pytest.raises(ValueError, match="positive lifetime"):
        Pairing(ttl=0)
    with pytest.raises(ValueError, match="room for one"):
        Pairing(live=0)


def test_concurrent_redeems_pair_one_phone() -> None:
    p = Pairing()
    token = p.issue()
    start = threading.Barrier(8)
    wins: list[bool] = []

    def scan() -> None:
        start.wait()
        wins.append(p.redeem(token))

    threads = [threading.Thread(target=scan) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(wins) == [False] * 7 + [True]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["issue", "redeem", "wait"]), st.integers(0, 400)), max_size=40))
def test_a_token_pairs_once_while_young_and_among_the_newest(steps: list[tuple[str, int]]) -> None:
    """Against a plain model: a token is live from its issue until it is redeemed, is 300 s old, or
    three younger live tokens push it out."""
    clock = Clock()
    p = Pairing(ttl=300, live=3, clock=clock)
    issued: list[str] = []
    live: dict[str, float] = {}  # token -> issued at, oldest first
    for op, n in steps:
        if op == "issue":
            token = p.issue()
            issued.append(token)
            live[token] = clock.now
            live = dict(list(live.items())[-3:])
        elif op == "wait":
            clock.now += n
        elif issued:
            live = {t: at for t, at in live.items() if clock.now - at < 300}
            token = issued[n % len(issued)]
            assert p.redeem(token) == (token in live)
            live.pop(token, None)
        live = {t: at for t, at in live.items() if clock.now - at < 300}
        assert p.valid() == len(live) <= 3
