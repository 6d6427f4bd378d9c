"""Ends the box's process when a thread is still inside OpenCV.

A daemon thread that is inside an OpenCV call while Python shuts down wakes to find the interpreter
gone; Python then ends that thread by unwinding it through OpenCV's C++ frames, which C++ does not
allow, and the whole process aborts ("terminate called without an active exception", exit -6,
under systemd a failed stop). The box waits for its background fits to stop; when one still runs
after that wait (a starved processor), the process ends at once instead, everything worth keeping
being saved and closed by then.
"""
from __future__ import annotations

import logging
import os
import sys
from typing import NoReturn


def exit_now(code: int) -> NoReturn:
    """End the process with ``code`` without Python's shutdown, after the log and the output are
    written out."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # closed, or its reader gone
            pass
    os._exit(code)
