"""A deck profile the box cannot read with yet is fitted in the background when the box starts.

Such a profile was saved unfitted because the box stopped during a lesson, or was fitted by an
older version whose network has since changed. The camera reads with the network alone meanwhile,
instead of waiting for the fit before it reads its first frame (half a minute on a 2-core x86
machine, longer on a Pi). The fitted profile is saved in place, so no later start fits it again,
and the camera takes it up between two frames.
"""
from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .learning import in_the_background
from .recognition import one_line

log = logging.getLogger(__name__)


def _stamp(path: str) -> tuple[int, int] | None:
    """When the file was last written and its size: changed if a lesson or a game replaced it."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


@dataclass
class ProfileFitter:
    """Fits ``profile`` (read from ``path``) in a thread of its own, saves it there unless the file
    was replaced meanwhile, then calls ``use(profile)``. ``fit(profile, stop)`` is replaceable for
    tests; it raises ``vision.teach.Stopped`` once ``stop()`` turns true."""

    path: str
    profile: Any
    use: Callable[[Any], None]
    fit: Callable[[Any, Callable[[], bool]], None] | None = None
    _closed: bool = False
    _thread: threading.Thread | None = field(default=None, repr=False)

    def start(self) -> None:
        log.info("the deck profile %s is fitted to this version's network in the background; until then "
                 "cards are read without it", self.path)
        self._thread = threading.Thread(target=self._run, name="fit-profile", daemon=True)
        self._thread.start()

    def close(self, timeout: float) -> bool:
        """Stop fitting (the profile stays as saved, to be fitted at the next start) and wait up to
        ``timeout`` seconds: OpenCV aborts a process that exits while another thread runs the network.
        False if the fit still runs."""
        self._closed = True
        if self._thread is not None:
            self._thread.join(timeout)
        return self._thread is None or not self._thread.is_alive()

    @property
    def done(self) -> bool:
        return self._thread is not None and not self._thread.is_alive()

    def _run(self) -> None:
        from vision.teach import Stopped
        in_the_background()
        stamp = _stamp(self.path)
        try:
            (self.fit or _fit)(self.profile, lambda: self._closed)
        except Stopped:
            log.info("the box stopped before the deck profile was fitted; it is fitted at the next start")
            return
        except Exception as e:  # the model missing or broken: the camera reports it itself
            log.warning("fitting the deck profile %s failed: %s", self.path, one_line(e))
            return
        if _stamp(self.path) != stamp:
            log.info("the deck profile %s was replaced while it was fitted; the new one stands", self.path)
            return
        try:
            self.profile.save(self.path)
        except OSError as e:
            log.warning("the deck profile is fitted but could not be saved to %s (%s); the next start fits "
                        "it again", self.path, one_line(e))
        self.use(self.profile)
        log.info("the deck profile %s is fitted; cards are read with it", self.path)


def _fit(profile: Any, stop: Callable[[], bool]) -> None:
    from vision.classifier import Classifier
    profile.fit(Classifier(), stop=stop)
