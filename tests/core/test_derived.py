"""Derived public information: score, reachable score, critical cards, pace, rating lines."""
import pytest

from companion.rating import LANGUAGES, LINES, rating_key, rating_line
from companion.variants import PRESETS, VariantError, parse_variant

from .gamehelp import run, start


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
    keys = set(LINES["en"])
    for lang in LANGUAGES:
        assert set(LINES[lang]) == keys
        assert len(set(LINES[lang].values())) == len(keys)
    assert rating_line(25, 25, "pl") != rating_line(25, 25, "en")
    assert rating_line(25, 25, "xx") == rating_line(25, 25, "en")


def test_presets_and_options():
    assert parse_variant("rainbow-wild-short").multicolor == "wild"
    assert parse_variant({"preset": "rainbow", "hint_tokens": 9}).hint_tokens == 9
    for name, v in PRESETS.items():
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
