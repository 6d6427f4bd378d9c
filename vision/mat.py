"""The printed play mat: its layout, its printable image, and finding it in a camera frame.

All mat geometry is in millimetres in the *mat plane*, origin at the top-left of the printed
content area. The same content (265 x 190 mm) fits both A4 and Letter, so detection never
needs to know which paper was used.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

MAT_W_MM = 265.0
MAT_H_MM = 190.0
MARKER_MM = 26.0
MARKER_QUIET_MM = 4.0
# Marker ids in order top-left, top-right, bottom-right, bottom-left.
MARKER_IDS = (0, 1, 2, 3)
MARKER_ORIGINS = ((4.0, 4.0), (235.0, 4.0), (235.0, 160.0), (4.0, 160.0))
BACKGROUND_GREY = 150  # the mat's neutral grey: contrasts with white and black card borders
LINE_GREY = 60
# Zones: name -> (x0, y0, x1, y1) in mm.
ZONES: dict[str, tuple[float, float, float, float]] = {
    "play": (40.0, 34.0, 128.0, 176.0),
    "discard": (137.0, 34.0, 225.0, 176.0),
}
# Neutral white patches for colour balance (left and right, so uneven light averages out).
WHITE_PATCHES = ((8.0, 60.0, 26.0, 130.0), (239.0, 60.0, 257.0, 130.0))
# Plain grey beside them: never too bright for the camera, so it still shows the light's colour
# when a bright warm or cold light saturates the white.
GREY_STRIPS = ((29.0, 60.0, 37.0, 130.0), (228.0, 60.0, 236.0, 130.0))
PAPER_MM = {"a4": (297.0, 210.0), "letter": (279.4, 215.9)}
# Nominal card size (short side, long side) in mm; detection allows a wide range around it.
CARD_MM = (44.0, 68.0)


def aruco_dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)


def marker_corners_mm() -> dict[int, np.ndarray]:
    """Each marker's four corners (TL, TR, BR, BL, as OpenCV reports them) in mat millimetres."""
    out = {}
    for mid, (x, y) in zip(MARKER_IDS, MARKER_ORIGINS, strict=True):
        s = MARKER_MM
        out[mid] = np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float32)
    return out


def render_mat(px_per_mm: float = 4.0) -> np.ndarray:
    """The mat content as a BGR image at the given resolution (what gets printed)."""
    w, h = int(round(MAT_W_MM * px_per_mm)), int(round(MAT_H_MM * px_per_mm))
    img = np.full((h, w, 3), BACKGROUND_GREY, np.uint8)

    def px(v: float) -> int:
        return int(round(v * px_per_mm))

    dictionary = aruco_dictionary()
    for mid, (x, y) in zip(MARKER_IDS, MARKER_ORIGINS, strict=True):
        q = MARKER_QUIET_MM
        cv2.rectangle(img, (px(x - q), px(y - q)), (px(x + MARKER_MM + q) - 1, px(y + MARKER_MM + q) - 1),
                      (255, 255, 255), -1)
        side = px(MARKER_MM)
        marker = cv2.aruco.generateImageMarker(dictionary, mid, side)
        img[px(y):px(y) + side, px(x):px(x) + side] = marker[:, :, None]
    for x0, y0, x1, y1 in WHITE_PATCHES:
        cv2.rectangle(img, (px(x0), px(y0)), (px(x1), px(y1)), (255, 255, 255), -1)
    thick = max(1, px(0.8))
    for name, (x0, y0, x1, y1) in ZONES.items():
        cv2.rectangle(img, (px(x0), px(y0)), (px(x1), px(y1)), (LINE_GREY,) * 3, thick)
        label = name.upper()
        scale = px_per_mm * 0.32
        tw, th = cv2.getTextSize(label, cv2.FONT_HERSHEY_DUPLEX, scale, max(1, px(0.7)))[0]
        cx = px((x0 + x1) / 2) - tw // 2
        cv2.putText(img, label, (cx, px(y0 - 8)), cv2.FONT_HERSHEY_DUPLEX, scale, (LINE_GREY,) * 3,
                    max(1, px(0.7)), cv2.LINE_AA)
    return img


def write_mat(path: str | Path, paper: str = "a4", dpi: int = 200) -> Path:
    """Write the printable mat as PDF or PNG (chosen by the file extension), centred on the paper."""
    path = Path(path)
    paper = paper.lower()
    if paper not in PAPER_MM:
        raise ValueError(f"unknown paper '{paper}': choose one of {', '.join(PAPER_MM)}")
    ext = path.suffix.lower()
    if ext not in (".pdf", ".png"):
        raise ValueError(f"cannot write '{path.name}': the mat is written as .pdf or .png")
    pw, ph = PAPER_MM[paper]
    ppm = dpi / 25.4
    content = render_mat(ppm)
    page = np.full((int(round(ph * ppm)), int(round(pw * ppm)), 3), 255, np.uint8)
    ox = (page.shape[1] - content.shape[1]) // 2
    oy = (page.shape[0] - content.shape[0]) // 2
    page[oy:oy + content.shape[0], ox:ox + content.shape[1]] = content
    if ext == ".png":
        if not cv2.imwrite(str(path), page):
            raise OSError(f"cannot write '{path}'")
    else:
        path.write_bytes(_pdf_bytes(page, pw, ph))
    return path


def _pdf_bytes(page_bgr: np.ndarray, w_mm: float, h_mm: float) -> bytes:
    """A one-page PDF holding the image losslessly (Flate), sized to the paper."""
    rgb = cv2.cvtColor(page_bgr, cv2.COLOR_BGR2RGB)
    h, w = rgb.shape[:2]
    data = zlib.compress(rgb.tobytes(), 6)
    wpt, hpt = w_mm / 25.4 * 72, h_mm / 25.4 * 72
    content = f"q {wpt:.2f} 0 0 {hpt:.2f} 0 0 cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {wpt:.2f} {hpt:.2f}] "
         f"/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>").encode(),
        (f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceRGB "
         f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n").encode()
        + data + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, obj in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + obj + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


@dataclass
class MatPose:
    """Where the mat lies in a frame: homographies between mat millimetres and frame pixels."""

    mm_to_frame: np.ndarray
    frame_to_mm: np.ndarray
    markers_seen: int
    reprojection_px: float = 0.0

    def to_frame(self, pts_mm: np.ndarray) -> np.ndarray:
        pts = np.asarray(pts_mm, np.float32).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.mm_to_frame).reshape(-1, 2)

    def to_mm(self, pts_px: np.ndarray) -> np.ndarray:
        pts = np.asarray(pts_px, np.float32).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.frame_to_mm).reshape(-1, 2)


def _aruco_detector(window: int | None) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    if window is not None:
        params.adaptiveThreshWinSizeMin = params.adaptiveThreshWinSizeMax = window
    return cv2.aruco.ArucoDetector(aruco_dictionary(), params)


@dataclass
class MatDetector:
    """Finds the mat's ArUco markers and the homography. Detects on a reduced image for speed,
    then refines the corners at full resolution. One threshold window finds the printed markers
    in almost every frame at a fifth of the cost of OpenCV's three; the three are tried only when
    fewer than three markers turn up (glare, a hand over a corner)."""

    max_side: int = 720
    _fast: cv2.aruco.ArucoDetector = field(init=False, repr=False)
    _thorough: cv2.aruco.ArucoDetector = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._fast = _aruco_detector(5)
        self._thorough = _aruco_detector(None)

    def detect(self, frame: np.ndarray) -> MatPose | None:
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        scale = min(1.0, self.max_side / max(gray.shape[:2]))
        small = gray if scale == 1.0 else cv2.resize(gray, None, fx=scale, fy=scale,  # area: 8x slower, no better
                                                     interpolation=cv2.INTER_LINEAR)
        corners, ids, _ = self._fast.detectMarkers(small)
        if ids is None or len(ids) < 3:
            corners, ids, _ = self._thorough.detectMarkers(small)
        if ids is None or len(ids) == 0:
            return None
        ids = np.asarray(ids).reshape(-1)  # (N,1) in OpenCV 4.x, (N,) in 5.x
        known = marker_corners_mm()
        src, dst = [], []
        for c, mid in zip(corners, ids, strict=True):
            if int(mid) in known:
                src.append(known[int(mid)])
                dst.append(np.asarray(c, np.float32).reshape(4, 2) / scale)
        if not src:
            return None
        seen = len(src)
        src_a = np.concatenate(src)
        dst_a = np.concatenate(dst)
        if scale != 1.0:
            win = max(2, int(round(2 / scale)))
            crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 10, 0.05)
            dst_a = cv2.cornerSubPix(gray, dst_a.reshape(-1, 1, 2).copy(), (win, win), (-1, -1),
                                     crit).reshape(-1, 2)
        if seen == 1:
            # One marker alone gives a homography, but a weak one; still useful when a hand covers three.
            h, _ = cv2.findHomography(src_a, dst_a, 0)
        else:
            h, _ = cv2.findHomography(src_a, dst_a, cv2.RANSAC, 4.0)
        if h is None:
            return None
        proj = cv2.perspectiveTransform(src_a.reshape(-1, 1, 2), h).reshape(-1, 2)
        err = float(np.sqrt(np.mean(np.sum((proj - dst_a) ** 2, axis=1))))
        return MatPose(h, np.linalg.inv(h), seen, err)
