"""Keeps the box's memory level through an evening of games.

The camera's frames, the readings and the deck's fitting allocate and free arrays of a few kB to
tens of MB from several threads. glibc serves a freed large block's size from its heaps from then
on (its mmap threshold rises with every such block, up to 32 MB), and those heaps, one per thread
that allocates, fragment: the box's memory grew by 20 to 50 MB a game and never came back. With
the threshold fixed, blocks of 128 kB and more are mapped and returned to the system when freed;
with two heaps for all threads, what smaller blocks leave free is used again.
"""
from __future__ import annotations

import ctypes
import logging

log = logging.getLogger(__name__)

# mallopt's parameter numbers in glibc's malloc.h, and the values kept
M_MMAP_THRESHOLD, MMAP_THRESHOLD = -3, 128 * 1024  # glibc's own starting value, no longer raised
M_ARENA_MAX, ARENA_MAX = -8, 2


def keep_level() -> bool:
    """Set the C library's allocator so for the rest of the process; False where the C library has
    no ``mallopt`` (not glibc) or refuses, the process then runs with its defaults."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        log.info("memory: this C library has no mallopt; its defaults are kept")
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    took = [mallopt(option, value) for option, value in ((M_MMAP_THRESHOLD, MMAP_THRESHOLD), (M_ARENA_MAX, ARENA_MAX))]
    return all(took)
