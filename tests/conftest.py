import os
import sys

import pytest
from hypothesis import settings

# CI draws the same examples on every run (a red CI then means a change, not a new draw); a
# developer's runs keep exploring, and keep what they find in .hypothesis/
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data")


@pytest.fixture
def companion_cmd():
    """The installed command, run through this interpreter so the test uses the checkout's code."""
    return [sys.executable, "-m", "companion.app.cli"]


# The longest files, longest first (whole decks taught, games played in real time, the box killed
# over and over): started before the rest, the workers end together instead of one finishing a long
# file alone. The order only schedules; a file missing here runs after them.
LONGEST_FIRST = (
    "web/test_teach_browser.py", "robustness/test_soak.py", "vision/test_game_deck.py",
    "vision/test_teach_camera.py", "vision/test_teach.py", "vision/test_learning.py",
    "vision/test_watcher.py", "vision/test_recognition.py", "system/test_box_end_to_end.py",
    "robustness/test_process_crash.py", "system/test_demo.py", "vision/test_laid_since.py",
    "core/test_crash.py", "system/test_installed.py", "core/test_table_log_events.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {os.path.join(ROOT, "tests", name): k for k, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(str(item.path), len(rank)))  # stable: the rest keep their order
