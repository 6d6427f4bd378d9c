"""One test (or a few) per rule, each citing the rulebook it comes from: file and section heading.

Rulebooks: 000 Polish special edition, 001 German Abacus edition, 002 English edition,
003 Polish 2-variant edition, 004 Czech edition (see ../shared/rulebooks/README.md).
"""
import pytest

from companion.game.rules import IllegalAction, LogError, apply, hand_size, new_game
from companion.game.variants import parse_variant

from .gamehelp import burn, run, spare_card, start


# -- set-up -------------------------------------------------------------------------------------
@pytest.mark.parametrize("players,hand,deck", [(2, 5, 40), (3, 5, 35), (4, 4, 34), (5, 4, 30)])
def test_hand_size_and_deck_after_dealing(players, hand, deck):
    # 002 "<Set Up>": five cards each for 2-3 players, four for 4-5; 50 cards in the base deck.
    s = start("base", players)
    assert hand_size(players) == hand
    assert s.hands == (hand,) * players
    assert s.deck == deck


@pytest.mark.parametrize("players", [1, 6, 0])
def test_two_to_five_players(players):
    # 002 title: "2 - 5 players".
    with pytest.raises(LogError, match="2 to 5 players"):
        start("base", players)


def test_first_player_then_clockwise():
    # 002 "<Game Progress>": turns pass clockwise, one action per turn.
    s = run(start("base", 3), "hint", "hint")
    assert s.current_player == 2
    s = run(s, "hint")
    assert s.current_player == 0 and s.turns == 3


# -- giving information -------------------------------------------------------------------------
def test_hint_spends_a_token_and_needs_one():
    # 002 "1. Give a piece of information": take a token; impossible with none left.
    s = run(start(), *["hint"] * 8)
    assert s.hints == 0
    with pytest.raises(IllegalAction, match="no hint token"):
        run(s, "hint")


def test_clue_names_one_colour_in_the_game():
    # 002 "1. Give a piece of information": one colour or one value; no rainbow in the base game.
    s = start()
    assert run(s, {"type": "hint", "to": 1, "clue": "r"}).hints == 7
    assert run(s, {"type": "hint", "to": 1, "clue": "3"}).hints == 7
    with pytest.raises(IllegalAction, match="no m suit"):
        run(s, {"type": "hint", "to": 1, "clue": "m"})
    with pytest.raises(IllegalAction, match="cannot receive a clue"):
        run(s, {"type": "hint", "to": 0})


# -- discarding ---------------------------------------------------------------------------------
def test_discard_forbidden_with_all_tokens_on_the_table():
    # 002 "2. Discarding a card": cannot discard while all blue tokens are on the table.
    with pytest.raises(IllegalAction, match="all 8 hint tokens"):
        run(start(), "d r1")


def test_discard_returns_a_token_and_draws():
    # 002 "2. Discarding a card": a token comes back; the player draws a new card.
    s = run(start(), "hint", "d b4")
    assert s.hints == 8 and s.discards == ("b4",) and s.deck == 39 and s.hands == (5, 5)


def test_discard_at_max_allowed_by_option_gains_nothing():
    # House option for engines that allow it (hanabidata): no token is gained above the maximum.
    s = run(start({"preset": "base", "allow_discard_at_max_hints": True}), "d r1")
    assert s.hints == 8 and s.discards == ("r1",)


# -- playing ------------------------------------------------------------------------------------
def test_play_builds_in_rising_order():
    # 002 "3. Playing a card" / "How the fireworks are built": 1 then 2 ... then 5.
    s = run(start(), "p r1", "p r2", "p r3")
    assert s.fireworks_map()["r"] == 3 and s.score == 3 and s.deck == 37


def test_misplay_discards_and_burns_a_fuse():
    # 002 "3. Playing a card", option B: the card is discarded and a fuse token is turned.
    s = run(start(), "p r2")
    assert s.fuses_used == 1 and s.discards == ("r2",) and s.fireworks_map()["r"] == 0
    assert s.deck == 39  # the player still draws


def test_completing_a_firework_returns_a_token():
    # 002 "BONUS for completing a firework": the 5 brings a token back, lost if all are there.
    s = run(start(), "p r1", "p r2", "p r3", "p r4", "hint", "p r5")
    assert s.hints == 8
    full = run(start(), "p r1", "p r2", "p r3", "p r4", "p r5")
    assert full.hints == 8  # already at the maximum: no ninth token


def test_last_fuse_ends_the_game_with_zero_points():
    # 001 "SPIELENDE" 1: the third storm ends the game at once with 0 points.
    s = run(start(), "p r1", "p r2", "p y2", "p y3")
    assert s.fuses_used == 2 and not s.over
    s = run(s, "p g3")
    assert s.over and s.outcome == "lost" and s.score == 0 and s.built_score() == 2
    with pytest.raises(IllegalAction, match="game is over"):
        run(s, "hint")


def test_strikeout_score_fireworks_option_keeps_what_was_built():
    # House option (hanab.live-style engines in the reference data): keep what was built.
    v = {"preset": "base", "strikeout_score": "fireworks"}
    s = run(start(v), "p r1", "p r2", "p y2", "p y3", "p g3")
    assert s.over and s.score == 2


# -- end of the game ----------------------------------------------------------------------------
def test_final_round_everyone_once_more_including_the_drawer():
    # 002 "<How to Finish the Game>" 3: after the last card is drawn, each player plays once more,
    # the one who drew it included.
    s = run(burn(start("base", 3), 34), "hint")
    assert s.deck == 1 and s.final_turns_left is None
    drawer = s.current_player
    s = run(s, f"d {spare_card(s)}")
    assert s.deck == 0 and s.final_turns_left == 3 and s.hands[drawer] == 5
    for left in (2, 1):
        s = run(s, "hint")
        assert s.final_turns_left == left and not s.over
    assert s.current_player == drawer  # the drawer's own last turn
    s = run(s, "hint")
    assert s.over and s.outcome == "finished"


def test_no_drawing_in_the_final_round():
    # 002 "<How to Finish the Game>" 3: the pile is empty, so hands shrink.
    s = run(burn(start("base", 2), 40), "hint")
    assert s.deck == 0 and s.final_turns_left == 1
    p = s.current_player
    s = run(s, f"d {spare_card(s)}")
    assert s.hands[p] == 4 and s.deck == 0 and s.over


def test_all_fireworks_complete_ends_at_once_without_drawing():
    # 002 "<How to Finish the Game>" 2: the game ends immediately with 25 points.
    actions = []
    for suit in "rygbw":
        actions += [f"p {suit}{v}" for v in range(1, 6)]
    s = run(start(), *actions)
    assert s.over and s.outcome == "won" and s.score == 25 and s.deck == 40 - 24
    assert s.reachable_score == 25


# -- the deck -----------------------------------------------------------------------------------
def test_a_card_cannot_appear_more_often_than_the_box_holds():
    # 002 "<Components>": three 1s, two 2s, 3s and 4s, one 5 per suit.
    s = run(start(), "p r1", "hint", "hint", "d r1", "d r1")
    with pytest.raises(IllegalAction, match="the deck has 3 copies"):
        run(s, "d r1")
    s = run(start(), "hint", "d r5")
    with pytest.raises(IllegalAction, match="1 copy"):
        run(s, "p r5")


def test_cards_of_suits_not_in_the_variant_are_refused():
    # 002 "<Set Up>": the multicolour suit is only for the variants; 000 "Czarny proch": black is an expansion.
    with pytest.raises(IllegalAction, match="no m cards"):
        run(start(), "p m1")
    with pytest.raises(IllegalAction, match="no k cards"):
        run(start("rainbow"), "p k5")


def test_malformed_cards_are_input_errors_not_rule_errors():
    with pytest.raises(LogError, match="not a card"):
        run(start(), "p x9")
    with pytest.raises(LogError, match="unknown action type"):
        apply(start(), {"type": "pass"})


# -- variants: tokens ---------------------------------------------------------------------------
def test_spare_hint_token():
    # 001 "Schwierigkeitsgrad ändern": the spare hint token makes it easier (9 tokens).
    s = start({"preset": "base", "hint_tokens": 9})
    assert s.hints == 9
    s = run(s, *["hint"] * 9)
    with pytest.raises(IllegalAction):
        run(s, "hint")


@pytest.mark.parametrize("fuses", [1, 2])
def test_fewer_fuse_tokens(fuses):
    # 001 "Schwierigkeitsgrad ändern": play with only 2 or even 1 storm token.
    s = start({"preset": "base", "fuse_tokens": fuses})
    for i in range(fuses):
        s = run(s, f"p r{2 + i}")
    assert s.over and s.outcome == "lost" and s.fuses_used == fuses


# -- variants: rainbow --------------------------------------------------------------------------
@pytest.mark.parametrize("preset,cards", [("rainbow", 10), ("rainbow-short", 5)])
def test_rainbow_sixth_suit(preset, cards):
    # 001 "Farbrausch": the 10 multicoloured cards are a sixth suit (harder: only 1-5); max 30.
    # 003 "Rozszerzenie Lawina kolorów" uses the 5-card version.
    v = parse_variant(preset)
    assert v.suits == "rygbwm" and v.max_score == 30
    assert sum(n for c, n in v.deck_counts().items() if c.suit == "m") == cards
    s = run(start(preset), {"type": "hint", "to": 1, "clue": "m"}, "p m1")
    assert s.fireworks_map()["m"] == 1


def test_wild_rainbow_cannot_be_named():
    # 001 "Farbrausch²" / 004 "Vodopád barev 2": no rainbow colour in clues; it joins every colour.
    s = start("rainbow-wild")
    with pytest.raises(IllegalAction, match="multicolour cannot be named"):
        run(s, {"type": "hint", "to": 1, "clue": "m"})
    assert run(s, {"type": "hint", "to": 1, "clue": "b"}).hints == 7
    assert run(s, "p m1").fireworks_map()["m"] == 1  # it builds its own sixth firework


# -- variants: black powder ---------------------------------------------------------------------
def test_black_powder_built_downwards_and_completion_regains_a_hint():
    # 000 "Czarny proch – dodatek" 1: black is built from 5 down to 1; the 1 regains a token.
    s = run(start("black-powder"), "p k5", "p k4", "p k3", "p k2", "hint")
    assert s.fireworks_map()["k"] == 2 and s.hints == 7
    assert run(s, "p k5").fuses_used == 1  # a second 5 no longer fits: a misplay
    s = run(s, "p k1")
    assert s.complete("k") and s.hints == 8
    assert run(start("black-powder"), "p k4").fuses_used == 1  # must start with a 5


def test_black_powder_scoring_minus_one_per_missing_card():
    # 000 "Czarny proch – dodatek", "Wynik": minus one point per card missing from the black firework.
    s = run(start("black-powder"), "p r1", "p r2", "p k5", "p k4", "p k3")
    assert s.score == 2 - 2
    assert start("black-powder").score == -5
    assert parse_variant("black-powder").max_score == 25


def test_black_cannot_be_colour_clued():
    # 000 "Czarny proch – dodatek" 2: black cards have no colour; only values.
    s = start("black-powder")
    with pytest.raises(IllegalAction, match="black cannot be named"):
        run(s, {"type": "hint", "to": 1, "clue": "k"})
    assert run(s, {"type": "hint", "to": 1, "clue": "1"}).hints == 7


def test_black_values_option():
    # The black cards' values are not listed in the rulebook; a family sets what its box holds.
    v = parse_variant({"preset": "black-powder", "black_values": [5, 4, 3, 2, 1]})
    s = run(new_game(v, 2), "hint", "d k5")
    assert s.reachable_per_suit()["k"] == 0 and s.critical_cards().count("k4") == 1


# -- variants: all or nothing -------------------------------------------------------------------
def test_all_or_nothing_has_no_final_round():
    # 000 "Królewski pokaz – wariant dla ekspertów" / 002 "<Variants>" 4: play on after the last card.
    built = [f"p {suit}{v}" for suit in "rygbw" for v in range(1, 6)][:-1]  # all but w5
    s = run(burn(run(start("all-or-nothing", 2), *built), 16), "hint", "hint", "hint")
    assert s.deck == 0 and s.final_turns_left is None and not s.over
    p = s.current_player
    s = run(s, f"d {spare_card(s)}")
    assert s.hands[p] == 4 and not s.over


def test_all_or_nothing_lost_when_an_indispensable_card_is_discarded():
    # 003 "Wszystko albo nic": lost when a card needed to finish a firework is discarded.
    s = run(start("all-or-nothing"), "hint", "d r4")
    assert not s.over
    s = run(s, "hint", "d r4")
    assert s.over and s.outcome == "lost"


def test_all_or_nothing_lost_when_the_last_copy_is_misplayed():
    # A misplayed card goes to the discard pile (002 "3. Playing a card"), so it counts as discarded.
    s = run(start("all-or-nothing"), "p r5")
    assert s.over and s.outcome == "lost" and s.fuses_used == 1


def test_all_or_nothing_won_only_when_every_firework_is_complete():
    actions = [f"p {s}{v}" for s in "rygbw" for v in range(1, 6)]
    s = run(start("all-or-nothing"), *actions)
    assert s.outcome == "won"


# -- variants: synchronized show ----------------------------------------------------------------
def test_synchronized_show_right_colour_gains_a_token():
    # 003 "Zsynchronizowany pokaz": announce the colour; right → +1 hint token (plus the 5 bonus).
    v = {"preset": "base", "synchronized_show": True}
    s = run(start(v), "hint", "hint", {"type": "play", "card": "r1", "announce": "r"})
    assert s.fireworks_map()["r"] == 1 and s.hints == 7


def test_synchronized_show_wrong_colour_is_a_misplay():
    # 003 "Zsynchronizowany pokaz": wrong → the card is discarded and a fuse burns.
    v = {"preset": "base", "synchronized_show": True}
    s = run(start(v), {"type": "play", "card": "r1", "announce": "b"})
    assert s.fuses_used == 1 and s.discards == ("r1",) and s.fireworks_map()["r"] == 0


def test_synchronized_show_five_gains_both_tokens():
    v = {"preset": "base", "synchronized_show": True}
    s = run(start(v), "p r1", "p r2", "p r3", "p r4", "hint", "hint",
            {"type": "play", "card": "r5", "announce": "r"})
    assert s.hints == 8


def test_announce_needs_the_variant():
    with pytest.raises(IllegalAction, match="synchronized show"):
        run(start(), {"type": "play", "card": "r1", "announce": "r"})


# -- variants: Five Magnificent -----------------------------------------------------------------
def _complete_red(variant="five-magnificent"):
    return run(start(variant), "p r1", "p r2", "p r3", "p r4", "hint", "hint", "p r5")


def test_completing_reveals_a_tile_instead_of_the_bonus_and_draws_after():
    # 000 "PIĘCIU wspaniałych – dodatek": the 5 reveals a reward tile instead of the token; draw after.
    s = _complete_red()
    assert s.hints == 6 and s.pending_rewards == 1 and s.deck == 36 and s.current_player == 0
    with pytest.raises(IllegalAction, match="reward tile was revealed"):
        run(s, "hint")
    s = run(s, {"type": "reward", "tile": "hint"})
    assert s.hints == 7 and s.deck == 35 and s.current_player == 1 and "hint" not in s.tiles_left


def test_each_tile_once():
    s = run(_complete_red(), {"type": "reward", "tile": "hint"},
            "p y1", "p y2", "p y3", "p y4", "p y5")
    with pytest.raises(IllegalAction, match="already been used"):
        run(s, {"type": "reward", "tile": "hint"})


def test_fuse_tile_turns_a_fuse_back():
    # 000 "PIĘCIU wspaniałych": turn a mistake tile back and gain a token; only the token if none.
    s = run(start("five-magnificent"), "p y3", "p r1", "p r2", "p r3", "p r4", "hint", "hint", "p r5")
    assert s.fuses_used == 1
    s = run(s, {"type": "reward", "tile": "fuse"})
    assert s.fuses_used == 0 and s.hints == 7
    s = run(_complete_red(), {"type": "reward", "tile": "fuse"})
    assert s.fuses_used == 0 and s.hints == 7


def test_clue_tiles_give_a_free_clue():
    s = run(_complete_red(), {"type": "reward", "tile": "value_clue", "to": 1, "clue": "2"})
    assert s.hints == 6
    with pytest.raises(IllegalAction, match="value clue"):
        run(_complete_red(), {"type": "reward", "tile": "value_clue", "clue": "r"})


def test_reshuffle_returns_a_discarded_card_to_the_deck():
    # 000 "PIĘCIU wspaniałych": one discarded card is shuffled back into the deck.
    s = run(start("five-magnificent"), "hint", "d g2", "p r1", "p r2", "p r3", "p r4", "hint", "hint", "p r5")
    deck = s.deck
    s = run(s, {"type": "reward", "tile": "reshuffle", "card": "g2"})
    assert "g2" not in s.discards and s.deck == deck + 1 - 1  # back in, then the player draws
    with pytest.raises(IllegalAction, match="not in the discard pile"):
        run(_complete_red(), {"type": "reward", "tile": "reshuffle", "card": "b3"})


def test_rescue_places_a_discard_and_can_chain_another_tile():
    # 000 "PIĘCIU wspaniałych": a discarded card goes onto its firework by the rules; a completed
    # firework reveals the next tile at once; with no fitting card the tile is lost.
    s = run(start("five-magnificent"), "hint", "d y5", "p y1", "p y2", "p y3", "p y4",
            "p r1", "p r2", "p r3", "p r4", "hint", "p r5")
    s = run(s, {"type": "reward", "tile": "rescue", "card": "y5"})
    assert s.complete("y") and s.pending_rewards == 1 and "y5" not in s.discards
    s = run(s, {"type": "reward", "tile": "hint"})
    assert s.pending_rewards == 0 and s.score == 10
    with pytest.raises(IllegalAction, match="does not fit"):
        run(start("five-magnificent"), "hint", "d y3", "p r1", "p r2", "p r3", "p r4", "hint", "p r5",
            {"type": "reward", "tile": "rescue", "card": "y3"})
    forfeit = run(_complete_red(), {"type": "reward", "tile": "rescue"})
    assert forfeit.hints == 6 and "rescue" not in forfeit.tiles_left


def test_with_no_tiles_left_the_normal_bonus_applies():
    # House plan: once all six tiles are used, completing a firework gives the usual hint token.
    s = start({"preset": "five-magnificent", "multicolor": "suit", "black_powder": True})
    tiles = ["hint", "fuse", "color_clue", "value_clue", "reshuffle", "rescue"]
    for suit, tile in zip("rygbwm", tiles, strict=True):
        s = run(s, "hint", *[f"p {suit}{v}" for v in range(1, 6)], {"type": "reward", "tile": tile})
    s = run(s, "hint", "p k5", "p k4", "p k3", "p k2")
    hints = s.hints
    s = run(s, "p k1")
    assert s.outcome == "won" and s.hints == hints + 1 and s.pending_rewards == 0


def test_reward_only_after_a_completed_firework():
    with pytest.raises(IllegalAction, match="no reward tile"):
        run(start("five-magnificent"), {"type": "reward", "tile": "hint"})
    with pytest.raises(IllegalAction, match="not used in this variant"):
        run(start(), {"type": "reward", "tile": "hint"})
