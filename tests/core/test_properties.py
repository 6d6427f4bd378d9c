"""Invariants over random legal games: tokens in range, no card too often, every card accounted
for, undo restores the exact previous state, and a reopened store gives the same game."""
from __future__ import annotations

import os
import tempfile
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.game.cards import BASE_SUITS, STANDARD_VALUES
from companion.game.rules import IllegalAction, State, apply, hand_size, new_game
from companion.game.store import Store
from companion.game.table import Table
from companion.game.variants import PRESETS, parse_variant

from .gamehelp import start

variants = st.one_of(
    st.sampled_from(sorted(PRESETS)),
    st.fixed_dictionaries({
        "preset": st.sampled_from(sorted(PRESETS)),
        "hint_tokens": st.sampled_from([8, 9]),
        "fuse_tokens": st.sampled_from([3, 2, 1]),
        "multicolor": st.sampled_from(["none", "suit", "wild"]),
        "multicolor_cards": st.sampled_from([10, 5]),
        "black_powder": st.booleans(),
        "rewards": st.booleans(),
        "all_or_nothing": st.booleans(),
        "synchronized_show": st.booleans(),
        "strikeout_score": st.sampled_from(["zero", "fireworks"]),
        "allow_discard_at_max_hints": st.booleans(),
    }, optional={
        # every value 1-5 at least once (or black could never be completed), a few more in any order
        "black_values": st.lists(st.integers(1, 5), max_size=7).flatmap(
            lambda extra: st.permutations([1, 2, 3, 4, 5, *extra])),
    }),
)


def candidates(state: State) -> list[dict[str, Any]]:
    """Actions worth trying now; most are legal, and the rules sort out the rest."""
    if state.pending_rewards:
        out = [{"type": "reward", "tile": t} for t in state.tiles_left]
        out += [{"type": "reward", "tile": t, "card": c} for t in ("reshuffle", "rescue")
                if t in state.tiles_left for c in set(state.discards)]
        return out
    out: list[dict[str, Any]] = [{"type": "hint"}] if state.hints else []
    counts = state.variant.deck_counts()
    live = [str(c) for c in counts if state.remaining(c) > 0]
    playable = [c for c in live if state.next_value(c[0]) == int(c[1])]
    out += [{"type": "play", "card": c} for c in playable] * 3  # lean towards progress
    out += [{"type": "play", "card": c} for c in live[:4]]
    out += [{"type": "discard", "card": c} for c in live]
    if state.variant.synchronized_show and playable:
        out.append({"type": "play", "card": playable[0], "announce": playable[0][0]})
    return out


def random_game(data: st.DataObject, steps: int) -> tuple[Any, int, list[dict[str, Any]]]:
    spec = data.draw(variants)
    players = data.draw(st.integers(2, 5))
    state, actions = start(spec, players), []
    for _ in range(steps):
        if state.over:
            break
        options = candidates(state)
        if not options:
            break
        action = data.draw(st.sampled_from(options))
        try:
            state = apply(state, action)
        except IllegalAction:
            continue
        actions.append(action)
    return spec, players, actions


def check_invariants(s: State) -> None:
    v = s.variant
    assert 0 <= s.hints <= v.hint_tokens
    assert 0 <= s.fuses_used <= v.fuse_tokens
    seen = Counter(s.discards + s.played)
    counts = {str(c): n for c, n in v.deck_counts().items()}
    assert all(n <= counts[c] for c, n in seen.items())
    assert s.deck + sum(s.hands) + len(s.played) + len(s.discards) == v.deck_size()
    assert s.deck >= 0 and all(h >= 0 for h in s.hands)
    assert s.reachable_score >= s.score or s.over
    assert s.score <= s.max_score
    assert len(v.suits) == len(s.fireworks)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_legal_games_keep_every_invariant(data):
    spec, players, actions = random_game(data, 120)
    state = start(spec, players)
    check_invariants(state)
    for a in actions:
        state = apply(state, a)
        check_invariants(state)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_undo_restores_the_exact_previous_state(data):
    spec, players, actions = random_game(data, 60)
    table = Table()
    table.new_game(players, spec)
    for a in actions:
        before_state, before_view = table.state, table.snapshot()
        table.act(a)
        table.undo()
        assert table.state == before_state
        view = table.snapshot()
        assert {k: v for k, v in view.items() if k != "last_event"} == \
               {k: v for k, v in before_view.items() if k != "last_event"}
        table.act(a)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_reopened_store_gives_the_same_game_after_every_step(data):
    spec, players, actions = random_game(data, 40)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "table.db")
        table = Table(Store(path))
        table.new_game(players, spec)
        for i, a in enumerate(actions):
            table.act(a)
            if data.draw(st.booleans()) and i:
                table.undo()
                table.act(a)
            reopened = Table(Store(path))
            assert reopened.state == table.state
            assert reopened.actions == table.actions
            reopened.store.close()
        table.store.close()


@given(variants, st.integers(2, 5))
def test_variant_spec_strategy_builds_valid_variants(spec: Any, players: int) -> None:
    """What the options ask for is what the deck, the suits and the tokens of a new game hold."""
    variant = parse_variant(spec)
    want = PRESETS[spec].options() if isinstance(spec, str) else {**PRESETS[spec["preset"]].options(), **spec}
    extra = "m" if want["multicolor"] != "none" else ""
    assert variant.suits == BASE_SUITS + extra + ("k" if want["black_powder"] else "")
    counts = variant.deck_counts()
    assert {c.suit for c in counts} == set(variant.suits)
    for suit in variant.suits:
        values = sorted(c.value for c in counts.elements() if c.suit == suit)
        if suit == "k":
            assert values == sorted(want["black_values"])
        elif suit == "m" and want["multicolor_cards"] == 5:
            assert values == [1, 2, 3, 4, 5]
        else:
            assert values == sorted(STANDARD_VALUES)
    black = len(want["black_values"]) if want["black_powder"] else 0
    assert variant.deck_size() == sum(counts.values()) == 50 + (want["multicolor_cards"] if extra else 0) + black
    assert variant.max_score == 5 * (5 + len(extra))
    assert parse_variant(variant.to_json()) == variant
    state = new_game(variant, players)
    assert state.hints == variant.hint_tokens == want["hint_tokens"]
    assert variant.fuse_tokens == want["fuse_tokens"] and state.fuses_used == 0
    assert state.deck == variant.deck_size() - players * hand_size(players) > 0
