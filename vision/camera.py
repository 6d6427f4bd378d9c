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


WATCHED = (1280, 720)  # the frames the box watches the table in
DETAIL = (2304, 1296)  # the Pi camera's larger stream, which a card is cut out of: 1.8 times as many pixels each way
# The Pi camera's exposure: its control's highlight constraint (libcamera's mode 1) and a stop under
# what it would choose, so a light ink under a bright or tinted lamp stays under the sensor's top,
# where light blue and white would look alike (models/README.md, *The camera kept under its top*)
BOX_EV = -1.0
BOX_CONTROLS = {"AeConstraintMode": 1, "ExposureValue": BOX_EV}


class Picamera2Source:
    """The Raspberry Pi camera. ``RGB888`` in libcamera's naming is B,G,R in memory: OpenCV's order.
    With ``detail`` the camera gives two streams of each moment: the watched frames (``size``, the
    ISP's small YUV stream, made BGR) and a larger picture (``detail``) made into an array only
    when a card is cut out of it (``detail()``): a card shows there with more pixels and less
    blur, which numerals of hairline strokes need (models/README.md, *A sharper picture of the
    card*). Without the larger stream the raw frame itself is the picture a card is cut out of:
    its colour is at every pixel too, unlike a webcam's JPEG, so white ink is told from a pale
    suit's as in the larger picture (models/README.md, *The frames alone, raw*)."""

    def __init__(self, size: tuple[int, int] = WATCHED, factory: Callable[[], Any] | None = None,
                 detail: tuple[int, int] | None = DETAIL):
        if factory is None:
            try:
                from picamera2 import Picamera2
            except ImportError:
                raise CameraError("picamera2 is not installed: on Raspberry Pi OS run "
                                  "'sudo apt install python3-picamera2' and create the venv with "
                                  "--system-site-packages") from None
            factory = Picamera2
        self._request = None
        self._frame: np.ndarray | None = None  # the frame read last, without the larger stream
        try:
            self._cam = factory()
            try:
                self._start(size, detail)
            except Exception:
                if detail is None:
                    raise
                self._start(size, None)  # too little camera memory for the larger stream (a Pi Zero): watch alone
                detail = None
        except Exception as e:  # libcamera raises many kinds: none found, busy, timeout
            raise CameraError(f"the Pi camera did not start ({e}); check the ribbon cable and that no "
                              "other program uses the camera") from None
        self._detail = detail

    def _start(self, size: tuple[int, int], detail: tuple[int, int] | None) -> None:
        streams = ({"main": {"size": size, "format": "RGB888"}} if detail is None else
                   {"main": {"size": detail, "format": "RGB888"}, "lores": {"size": size, "format": "YUV420"}})
        self._cam.configure(self._cam.create_video_configuration(**streams, controls=BOX_CONTROLS))
        self._cam.start()

    def read(self) -> np.ndarray:
        try:
            if self._detail is None:
                self._frame = np.ascontiguousarray(self._cam.capture_array("main")[..., :3])
                return self._frame
            request = self._cam.capture_request()  # kept until the next frame: its larger picture may be asked for
            self._let_go()
            self._request = request
            return cv2.cvtColor(request.make_array("lores"), cv2.COLOR_YUV2BGR_I420)
        except Exception as e:
            raise CameraError(f"the Pi camera stopped giving frames: {e}") from None

    def detail(self) -> np.ndarray | None:
        """The larger picture of the frame read last, or without the larger stream that raw frame
        (None before the first frame)."""
        if self._detail is None:
            return self._frame
        if self._request is None:
            return None
        try:
            return np.ascontiguousarray(self._request.make_array("main")[..., :3])
        except Exception as e:
            raise CameraError(f"the Pi camera stopped giving frames: {e}") from None

    def _let_go(self) -> None:
        """Hand the last frame's buffers back to the camera, which has only a few."""
        if self._request is not None:
            self._request.release()
            self._request = None

    def close(self) -> None:
        try:
            self._let_go()
            self._cam.stop()
            self._cam.close()
        except Exception:
            pass  # already gone


class OpenCVSource:
    """A USB webcam (an index like 0) or a video file, through OpenCV."""

    def __init__(self, target: int | str, size: tuple[int, int] | None = WATCHED,
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
