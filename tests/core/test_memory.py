"""The box's memory stays level when blocks the size of frames and deck features come and go
between the small objects that outlive them (`companion.app.memory`)."""
import platform
import subprocess
import sys

import pytest

from companion.app import memory

CHURN = """
import sys
import numpy as np
from companion.app import memory
if sys.argv[1] == "level":
    assert memory.keep_level()
def rss():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) / 1024
np.ones(8 << 20, np.uint8)  # one large block freed, as a frame or a fit frees them
base = rss()
big, small = [], []
for _ in range(200):
    big.append(np.ones(1 << 20, np.uint8))
    small.append(bytes(512) + b"x")  # a small object that outlives the block beside it
del big
print(round(rss() - base))
"""

glibc = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="the threshold is glibc's")


def kept_mb(mode: str) -> int:
    out = subprocess.run([sys.executable, "-c", CHURN, mode], capture_output=True, text=True, check=True)
    return int(out.stdout)


@glibc
def test_freed_blocks_go_back_to_the_system():
    assert kept_mb("level") < 20


@glibc
def test_without_it_the_same_churn_keeps_them():
    """The case the fix is for happens here: without it, the freed blocks stay with the process."""
    assert kept_mb("default") > 150


def test_says_whether_it_took():
    assert memory.keep_level() is (platform.libc_ver()[0] == "glibc")
