"""A file written whole or not at all: a power cut or a stop while writing leaves what was there
before (a deck's profile, a training's samples and finished epochs)."""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO


@contextmanager
def written_whole(path: str) -> Iterator[BinaryIO]:
    """The file to write ``path``'s new content to: it takes ``path``'s place only once written
    and synced."""
    part = f"{path}.part"
    try:
        with open(part, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(part, path)
    finally:
        if os.path.exists(part):
            os.remove(part)
