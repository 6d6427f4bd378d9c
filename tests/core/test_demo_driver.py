"""The demo driver keeps the table in step with the bot, whatever the camera gets right or wrong."""
import threading

from companion.app.demo import DemoDriver, TableScene
from companion.app.recognition import CameraService
from companion.game.camera import CardPlaced as Seen  # what the real watcher emits
from companion.game.rules import fold
from companion.game.table import Table
from companion.game.variants import parse_variant


class FakeEye:
    """Watches the scene like a camera would; ``misread(n, card)`` says what it reports for the
    n-th card laid (None: it misses it)."""

    def __init__(self, scene, service, misread=lambda n, card: (card, 0.99)):
        self.scene, self.service, self.misread = scene, service, misread
        self.stop = threading.Event()
        self.laid = 0
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        last = {"play": 0, "discard": 0}
        while not self.stop.wait(0.002):
            piles, hand, _ = self.scene.snapshot()
            for zone, pile in piles.items():
                if len(pile) < last[zone]:
                    last[zone] = 0
                if len(pile) > last[zone]:
                    last[zone] = len(pile)
                    self.laid += 1
                    card, conf = self.misread(self.laid, pile[-1])
                    if card is not None:
                        self.service.handle(Seen(zone, card, conf, (card, pile[-1])))


def run_demo(misread, games=1, preset="base"):
    table = Table()
    scene = TableScene()
    service = CameraService(table, None, lambda: None, confidence=0.9)
    eye = FakeEye(scene, service, misread)
    eye.thread.start()
    variant = parse_variant(preset)
    driver = DemoDriver(table, scene, lambda b: table.act({"type": "hint"}), variant, 3, seed=5,
                        speed=1000, card_timeout=0.3)
    game = driver.play_game(5)
    eye.stop.set()
    return table, game, driver.stats


def test_a_perfect_camera_keeps_the_table_equal_to_the_bot():
    table, game, stats = run_demo(lambda n, card: (card, 0.99))
    assert table.state == game.state and table.state.over
    assert stats.recognised > 20 and stats.corrected == stats.confirmed == stats.missed == 0


def test_misreads_doubts_and_misses_are_put_right():
    def camera(n, card):
        if n % 7 == 0:
            return None, 0  # missed
        if n % 5 == 0:
            return card, 0.5  # unsure
        if n % 11 == 0:
            wrong = ("y" if card[0] != "y" else "g") + card[1]
            return wrong, 0.95
        return card, 0.99

    table, game, stats = run_demo(camera)
    plays = [a for a in game.actions if a["type"] != "hint"]
    table_plays = [a for a in table.actions if a["type"] != "hint"]
    assert [a["card"] for a in table_plays] == [a["card"] for a in plays]
    assert stats.missed and stats.confirmed and stats.recognised
    assert table.state.score == game.state.score
    assert fold(parse_variant("base"), 3, table.actions).score == game.state.score
