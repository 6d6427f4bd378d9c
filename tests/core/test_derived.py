"""Derived public information: score, reachable score, critical cards, pace, rating lines, and the
alerts the table gives when a last copy is lost or the pace runs out."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.game.rating import LINES, lines, rating_key, rating_line
from companion.game.rules import IllegalAction, apply
from companion.game.table import Table, describe
from companion.game.variants import PRESETS, VariantError, parse_variant
from companion.words import LANGUAGES

from .gamehelp import burn, run, spare_card, start
from .test_properties import candidates, random_game, variants


def test_score_is_the_sum_of_the_top_cards():
    # 002 "<How to Finish the Game>": add up the largest value of each firework.
    s = run(start(), "p r1", "p r2", "p g1", "p b1", "p b2", "p b3")
    assert s.score == 6 and s.max_score == 25


def test_reachable_score_drops_when_every_copy_is_discarded():
    s = run(start(), "hint", "d r5")
    assert s.reachable_score == 24
    s = run(start(), "hint", "d g3", "hint", "d g3")
    assert s.reachable_score == 22 and s.reachable_per_suit()["g"] == 2


def test_critical_cards_are_last_copies_still_needed():
    s = start()
    assert sorted(s.critical_cards()) == ["b5", "g5", "r5", "w5", "y5"]
    s = run(s, "hint", "d b4")
    assert "b4" in s.critical_cards()
    s = run(s, "p b1", "p b2", "p b3", "p b4")
    assert "b4" not in s.critical_cards()


def test_pace_counts_spare_turns():
    s = start("base", 2)
    assert s.pace == 40 + 2 - 25
    s = run(s, "hint", "d r1")
    assert s.pace == 39 + 2 - 25


@pytest.mark.parametrize("score,key", [(0, "dreadful"), (5, "dreadful"), (6, "weak"), (10, "weak"),
                                       (11, "decent"), (15, "decent"), (16, "great"), (20, "great"),
                                       (21, "brilliant"), (24, "brilliant"), (25, "legendary")])
def test_rating_scale_five_suits(score, key):
    # 002 "<How to Finish the Game>" scale; 001 "SPIELENDE"; 000 "WYNIK"; 004 "Skórování".
    assert rating_key(score, 25) == key


@pytest.mark.parametrize("score,key", [(24, "brilliant"), (25, "legendary"), (29, "legendary"), (30, "divine")])
def test_rating_scale_six_suits(score, key):
    # 000 "Lawina kolorów – dodatek" and 004 "Vodopád barev": 25-29 legendary, 30 above it.
    assert rating_key(score, 30) == key


def test_negative_black_powder_scores_rate_lowest():
    assert rating_key(-5, 25) == "dreadful"


def test_all_or_nothing_uses_no_scale():
    # 003 "Wszystko albo nic": no artistic impression; perfect or lost.
    assert rating_key(25, 25, all_or_nothing=True) == "perfect"
    assert rating_key(24, 25, all_or_nothing=True) == "failed"


def test_every_language_has_every_line():
    keys = set(LINES)
    for lang in LANGUAGES:
        assert set(lines(lang)) == keys
        assert len(set(lines(lang).values())) == len(keys)
    assert rating_line(25, 25, "pl") != rating_line(25, 25, "en")
    assert rating_line(25, 25, "xx") == rating_line(25, 25, "en")


def test_presets_and_options():
    assert parse_variant("rainbow-wild-short").multicolor == "wild"
    assert parse_variant({"preset": "rainbow", "hint_tokens": 9}).hint_tokens == 9
    for v in PRESETS.values():
        assert parse_variant(v.to_json()) == v
        assert v.deck_size() == sum(v.deck_counts().values())
    v = parse_variant({"preset": "rainbow", "fuse_tokens": 2})
    assert v.to_json() == {"preset": "rainbow", "fuse_tokens": 2}
    assert parse_variant(v.to_json()) == v


@pytest.mark.parametrize("spec,msg", [
    ("nonsense", "unknown variant preset"),
    ({"preset": "base", "hint_token": 9}, "unknown variant option 'hint_token'"),
    ({"preset": "base", "hint_tokens": 10}, "must be one of 8, 9"),
    ({"preset": "base", "black_powder": 1}, "must be one of false, true"),
    ({"preset": "base", "black_values": [5, 5, 4]}, "every value 1-5"),
    ({"preset": "base", "black_values": "5"}, "list of card values"),
    (42, "preset name or an object"),
])
def test_variant_errors_are_clear(spec, msg):
    with pytest.raises(VariantError, match=msg):
        parse_variant(spec)


# -- alerts: a last copy lost, pace used up ----------------------------------------------------
def kinds(before, action):
    """The kinds of change an action brings, and the changes themselves."""
    changes = describe(before, apply(before, action), action)
    return [c.kind for c in changes], changes


def test_losing_the_last_copy_of_a_needed_card_lowers_the_ceiling_and_is_told():
    # 002 "How the fireworks are built": a firework goes up one value at a time, one card of each.
    # So once no copy of a value is left, nothing from that value upwards can ever be built, and the
    # best score still possible falls to what the firework reaches below it.
    s = run(start(), "hint")
    names, changes = kinds(s, {"type": "discard", "card": "r5"})
    assert names == ["discarded", "last_copy_lost"]
    assert changes[-1].params == {"card": "r5", "reachable_score": 24}
    assert changes[-1].text == "last r5 lost: at most 24 points now"


def test_only_the_last_copy_is_an_alert():
    # 002 "<Components>": two 3s per suit; the first one discarded leaves another.
    s = run(start(), "hint")
    assert kinds(s, {"type": "discard", "card": "g3"})[0] == ["discarded"]
    s = run(s, "d g3", "hint")
    names, changes = kinds(s, {"type": "discard", "card": "g3"})
    assert names == ["discarded", "last_copy_lost"]
    assert changes[-1].params == {"card": "g3", "reachable_score": 22}


def test_a_misplayed_last_copy_is_lost_too():
    # 002 "3. Playing a card", option B: a card that fits no firework goes to the discard pile.
    names, changes = kinds(start(), {"type": "play", "card": "b5"})
    assert names == ["misplay", "last_copy_lost"]
    assert changes[-1].params == {"card": "b5", "reachable_score": 24}


def test_cards_no_firework_needs_are_no_alert():
    # Below the top: the red 1 is built, so its last copy going is harmless.
    s = run(start(), "p r1", "hint", "d r1", "hint")
    assert kinds(s, {"type": "discard", "card": "r1"})[0] == ["discarded"]
    # Above a lost card: with both green 3s gone, the green 5 can never be built anyway.
    s = run(start(), "hint", "d g3", "hint", "d g3", "hint")
    assert kinds(s, {"type": "discard", "card": "g5"})[0] == ["discarded"]


def test_black_powder_loses_points_from_the_bottom_of_its_firework():
    # 000 "Czarny proch – dodatek": black is built from 5 down to 1 and every card missing from it
    # costs a point, so losing the only black 1 lowers the best score by one.
    s = run(start("black-powder"), "hint")
    assert s.reachable_score == 25
    names, changes = kinds(s, {"type": "discard", "card": "k1"})
    assert names == ["discarded", "last_copy_lost"]
    assert changes[-1].params == {"card": "k1", "reachable_score": 24}
    assert kinds(s, {"type": "discard", "card": "k5"})[0] == ["discarded"]  # three black 5s


@pytest.mark.parametrize("variant,card,reachable", [("rainbow", "m5", 29), ("rainbow", "m4", None),
                                                     ("rainbow-short", "m1", 25), ("rainbow-wild-short", "m3", 27)])
def test_rainbow_last_copies(variant, card, reachable):
    # 002 "<Variants>" 1-3: the multicolour suit has the usual ten cards, or one of each value.
    s = run(start(variant), "hint")
    names, changes = kinds(s, {"type": "discard", "card": card})
    if reachable is None:
        assert names == ["discarded"]
    else:
        assert names == ["discarded", "last_copy_lost"]
        assert changes[-1].params == {"card": card, "reachable_score": reachable}


def test_pace_zero_is_told_once_when_the_spare_turns_run_out():
    # 002 "<How to Finish the Game>" 3: after the last draw each player has one turn left, so the
    # turns still to come are the deck plus one per player; pace is what is left after building.
    s = burn(start("base", 2), 16)
    assert s.pace == 1
    spare = spare_card(s)
    s = run(s, "hint") if s.hints == s.variant.hint_tokens else s
    names, changes = kinds(s, {"type": "discard", "card": spare})
    assert names == ["discarded", "pace_zero"]
    assert changes[-1].params == {"pace": 0}
    assert changes[-1].text == "pace 0: no spare turns left for discards"
    s = run(s, f"d {spare}", "hint")
    assert kinds(s, {"type": "discard", "card": spare_card(s)})[0] == ["discarded"]


def test_a_lost_card_comes_after_pace_and_before_the_final_round():
    s = burn(start("base", 2), 16)
    s = run(s, "hint") if s.hints == s.variant.hint_tokens else s
    assert kinds(s, {"type": "discard", "card": "w5"})[0] == ["discarded", "pace_zero", "last_copy_lost"]
    s = burn(start({"preset": "base", "allow_discard_at_max_hints": True}, 2), 39)
    assert s.deck == 1
    reach = s.reachable_per_suit()
    needed = next(c for c in s.critical_cards() if int(c[1]) <= reach[c[0]])
    names, _ = kinds(s, {"type": "discard", "card": needed})
    assert names == ["discarded", "last_copy_lost", "final_round"]


def test_no_alert_once_the_game_is_over():
    # 002 "<How to Finish the Game>" 1: the third fuse ends the game at once.
    s = run(start(), "p r2", "p r3")
    assert kinds(s, {"type": "play", "card": "r5"})[0] == ["misplay", "game_over"]


def test_the_table_returns_and_keeps_the_alert():
    t = Table()
    t.new_game(["Ann", "Ben"], "base")
    heard = []
    t.add_listener(lambda table, change: heard.append(change.kind))
    t.act({"type": "hint"})
    change = t.act({"type": "discard", "card": "b5"})
    assert change.kind == "last_copy_lost" and heard[-2:] == ["discarded", "last_copy_lost"]
    assert t.snapshot()["last_event"]["params"] == {"card": "b5", "reachable_score": 24}


def careful_game(data: st.DataObject, steps: int) -> list:
    """A random legal game without misplays, so it lasts long enough for the pace to run out."""
    s = start(data.draw(variants), data.draw(st.integers(2, 5)))
    out = []
    for _ in range(steps):
        options = [a for a in candidates(s) if a["type"] != "play" or a.get("announce")
                   or s.next_value(a["card"][0]) == int(a["card"][1])]
        if s.over or not options:
            break
        action = data.draw(st.sampled_from(options))
        try:
            after = apply(s, action)
        except IllegalAction:
            continue
        out.append((s, action, after))
        s = after
    return out


def random_steps(data: st.DataObject) -> list:
    """(before, action, after) over a game with misplays or a careful one."""
    if data.draw(st.booleans()):
        return careful_game(data, 200)
    spec, players, actions = random_game(data, 120)
    s, out = start(spec, players), []
    for action in actions:
        out.append((s, action, apply(s, action)))
        s = out[-1][2]
    return out


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_alerts_come_exactly_when_the_ceiling_or_the_pace_falls(data):
    for s, action, after in random_steps(data):
        changes = describe(s, after, action)
        names = [c.kind for c in changes]
        carded = action["type"] in ("play", "discard") and not after.over
        lost = carded and after.reachable_score < s.reachable_score
        assert ("last_copy_lost" in names) == lost, (action, names)
        assert ("pace_zero" in names) == (carded and s.pace > 0 >= after.pace), (action, names)
        if lost:
            alert = changes[names.index("last_copy_lost")]
            assert alert.params == {"card": action["card"], "reachable_score": after.reachable_score}
        if after.over:
            assert names[-1] == "game_over"
