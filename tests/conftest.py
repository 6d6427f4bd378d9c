import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data")


@pytest.fixture
def companion_cmd():
    """The installed command, run through this interpreter so the test uses the checkout's code."""
    return [sys.executable, "-m", "companion.cli"]
