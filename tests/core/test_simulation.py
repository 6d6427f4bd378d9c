"""The demo's simulated table: the bot plays whole legal games that the rules accept as they are."""
import pytest

from companion.game.rules import fold
from companion.game.simulation import SimulatedGame
from companion.game.variants import PRESETS, parse_variant


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bot_plays_whole_legal_games(preset, players):
    for seed in range(3):
        game = SimulatedGame(parse_variant(preset), players, seed)
        for _ in range(400):
            if game.over:
                break
            game.step()
            assert len(game.deck) == game.state.deck
            assert [len(h) for h in game.hands] == list(game.state.hands)
        assert game.over
        assert fold(game.variant, players, game.actions) == game.state


def test_bot_plays_sensibly():
    results = []
    for seed in range(10):
        game = SimulatedGame(parse_variant("base"), 3, seed)
        while not game.over:
            game.step()
        results.append(game.state.score)
    assert sum(results) / len(results) >= 20  # it sees every hand, so it should do well


def test_same_seed_same_game():
    a, b = (SimulatedGame(parse_variant("rainbow"), 4, 7) for _ in range(2))
    for _ in range(30):
        assert a.step() == b.step()
