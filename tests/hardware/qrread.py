"""Reading a QR code back off an OLED image, as a phone's camera would, with OpenCV's detectors."""
from __future__ import annotations

import cv2
import numpy as np
from PIL import Image

SCALE = 4     # camera pixels per OLED pixel: the detectors want more than two pixels per module
MARGIN = 4    # OLED pixels of unlit panel around the image, as the camera sees the screen in its frame


def enlarge(image: Image.Image) -> np.ndarray:
    """The screen as a camera sees it: each pixel a square of ``SCALE``, framed by dark panel."""
    pixels = np.asarray(image.convert("L"), dtype=np.uint8)
    big = cv2.resize(pixels, None, fx=SCALE, fy=SCALE, interpolation=cv2.INTER_NEAREST)
    pad = MARGIN * SCALE
    return cv2.copyMakeBorder(big, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)


def read_classic(image: Image.Image) -> str:
    """The text ``cv2.QRCodeDetector`` reads ('' when it finds none)."""
    return cv2.QRCodeDetector().detectAndDecode(enlarge(image))[0]


def decode(image: Image.Image) -> str:
    """The text of the QR code on the screen ('' when none is read). ``cv2.QRCodeDetector`` misses
    about one well-formed code in a hundred, whatever its quiet zone; OpenCV's second reader
    (``QRCodeDetectorAruco``) is asked then, as one phone's reader succeeds where another's fails."""
    return read_classic(image) or cv2.QRCodeDetectorAruco().detectAndDecode(enlarge(image))[0]
