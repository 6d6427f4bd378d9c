"""Camera sources behind one small interface: ``read()`` gives a BGR frame, ``close()`` lets go.

Picamera2 is imported only when it is used (it comes from Raspberry Pi OS's apt, never from
pip); OpenCV's VideoCapture covers USB webcams and video files; a folder of images and the
rendered simulator serve tests and the demo. A source that fails raises ``CameraError`` with
what to check; the caller may open it again later.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

IMAGE_EXT = (".jpg", ".jpeg", ".png", ".bmp")


class CameraError(RuntimeError):
    """The camera cannot give frames; the message says what to check."""


class Picamera2Source:
    """The Raspberry Pi camera. ``RGB888`` in libcamera's naming is B,G,R in memory: OpenCV's order."""

    def __init__(self, size: tuple[int, int] = (1280, 720), factory: Callable[[], Any] | None = None):
        if factory is None:
            try:
                from picamera2 import Picamera2
            except ImportError:
                raise CameraError("picamera2 is not installed: on Raspberry Pi OS run "
                                  "'sudo apt install python3-picamera2' and create the venv with "
                                  "--system-site-packages") from None
            factory = Picamera2
        try:
            self._cam = factory()
            config = self._cam.create_video_configuration(main={"size": size, "format": "RGB888"})
            self._cam.configure(config)
            self._cam.start()
        except Exception as e:  # libcamera raises many kinds: none found, busy, timeout
            raise CameraError(f"the Pi camera did not start ({e}); check the ribbon cable and that no "
                              "other program uses the camera") from None

    def read(self) -> np.ndarray:
        try:
            frame = self._cam.capture_array("main")
        except Exception as e:
            raise CameraError(f"the Pi camera stopped giving frames: {e}") from None
        return np.ascontiguousarray(frame[..., :3])

    def close(self) -> None:
        try:
            self._cam.stop()
            self._cam.close()
        except Exception:
            pass  # already gone


class OpenCVSource:
    """A USB webcam (an index like 0) or a video file, through OpenCV."""

    def __init__(self, target: int | str, size: tuple[int, int] | None = (1280, 720),
                 capture: Callable[[Any], Any] = cv2.VideoCapture):
        self.target = target
        self._cap = capture(target)
        if not self._cap.isOpened():
            raise CameraError(f"cannot open camera {target!r}: is it plugged in, and not used by another program?")
        if size is not None and isinstance(target, int):
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def read(self) -> np.ndarray:
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraError(f"camera {self.target!r} gave no frame (unplugged, or the video ended)")
        return frame

    def close(self) -> None:
        self._cap.release()


class FolderSource:
    """Images from a folder in name order; ``loop`` starts again at the end."""

    def __init__(self, folder: str, loop: bool = False):
        if not os.path.isdir(folder):
            raise CameraError(f"{folder} is not a folder of images")
        self.files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.lower().endswith(IMAGE_EXT))
        if not self.files:
            raise CameraError(f"{folder} holds no images ({', '.join(IMAGE_EXT)})")
        self.loop, self._next = loop, 0

    def read(self) -> np.ndarray:
        if self._next >= len(self.files):
            if not self.loop:
                raise CameraError("no more images in the folder")
            self._next = 0
        path = self.files[self._next]
        self._next += 1
        frame = cv2.imread(path, cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraError(f"cannot read image {path}")
        return frame

    def close(self) -> None:
        self._next = len(self.files)


@dataclass
class SimulatedSource:
    """Frames rendered from ``scene()`` (a synth.Scene) through a fixed simulated camera and light.
    A scene is rendered once when it changes; each frame then gets fresh sensor noise."""

    scene: Callable[[], Any]
    seed: int = 0
    noise: float = 3.0
    _cache: tuple[Any, np.ndarray] | None = field(default=None, init=False)
    _frame_no: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        from dataclasses import replace

        from . import synth
        rng = np.random.default_rng(self.seed)
        # a box set up as the README says: the mat fills the picture, no lamp reflected in it
        self.camera = replace(synth.Camera.random(rng, max_tilt=30), fill=0.9, shift=(0.0, 0.0))
        self.light = replace(synth.Light.random(rng), noise=0.0, glare=0.0)
        self._grain = [np.clip(rng.normal(0, self.noise, (self.camera.size[1], self.camera.size[0], 3)), -127, 127)
                       .astype(np.int8) for _ in range(3)]

    def read(self) -> np.ndarray:
        from . import synth
        scene = self.scene()
        if self._cache is None or self._cache[0] is not scene:
            self._cache = (scene, synth.render_frame(scene, self.camera, self.light, self.seed))
        self._frame_no += 1
        grain = self._grain[self._frame_no % len(self._grain)]
        return cv2.add(self._cache[1], grain, dtype=cv2.CV_8U)

    def close(self) -> None:
        self._cache = None


def open_source(spec: str) -> Any:
    """``picamera2``, ``opencv:0`` (a webcam index), ``opencv:FILE`` or ``folder:DIR``."""
    kind, _, arg = spec.partition(":")
    if kind == "picamera2":
        return Picamera2Source()
    if kind == "opencv":
        return OpenCVSource(int(arg) if arg.isdigit() else arg or 0)
    if kind == "folder":
        return FolderSource(arg, loop=True)
    raise CameraError(f"unknown camera source {spec!r}: use picamera2, opencv:INDEX, opencv:FILE or folder:DIR")
