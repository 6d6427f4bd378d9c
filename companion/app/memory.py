"""Keeps the box's memory level through an evening of games.

The camera's frames, the readings and the deck's fitting allocate and free arrays of a few hundred
kB to tens of MB from several threads. glibc serves a freed large block's size from its heaps from
then on (its mmap threshold rises with every such block, up to 32 MB), and those heaps, one per
thread, fragment: the box's memory grew by 20 to 50 MB a game and never came back. With the
threshold fixed, blocks of 128 kB and more are mapped and returned to the system when freed.
"""
from __future__ import annotations

import ctypes
import logging

log = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3          # mallopt's parameter number in glibc's malloc.h
MMAP_THRESHOLD = 128 * 1024    # glibc's own starting value, kept from now on


def keep_level() -> bool:
    """Fix the C library's mmap threshold for the rest of the process; False where the C library
    has no ``mallopt`` (not glibc) or refuses, the process then runs with its defaults."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        log.info("memory: this C library has no mallopt; its defaults are kept")
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
