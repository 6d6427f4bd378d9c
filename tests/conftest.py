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
