"""The vision subcommands of ``companion``: recognize, teach and mat."""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.game.cards import CardError, parse_card

if TYPE_CHECKING:  # OpenCV and numpy load when a command runs, not when the command line is built
    import numpy as np

    from .mat import MatDetector

TEACH_NAME = re.compile(r"^([a-zA-Z][1-5])(?:_.*)?$")


@dataclass(frozen=True)
class LessonCamera:
    """What ``teach --camera`` takes from the box's settings, which the command line reads for it."""
    source: str  # "none": the settings name no camera
    fps: float
    zones: dict[str, tuple[float, float, float, float]] | None  # the rectangles that stand for a table without the mat


# reads the settings ``--config``/``--data`` name; raises ValueError saying what to change in them
CameraSettings = Callable[[argparse.Namespace], LessonCamera]


def register(sub: Any, camera_settings: CameraSettings) -> None:
    r = sub.add_parser("recognize", help="find and recognise the cards on the mat in photos")
    r.add_argument("images", nargs="+", metavar="IMAGE")
    r.add_argument("--profile", help="a deck profile made by 'companion teach'")
    r.add_argument("--json", action="store_true", help="one JSON object per image")
    r.set_defaults(func=cmd_recognize)
    t = sub.add_parser("teach", help="learn your own deck from photos named like r3.jpg or r3_2.png, "
                                     "or card by card with the camera (--camera)")
    t.add_argument("folder", metavar="DIR", nargs="?")
    t.add_argument("--profile", required=True, metavar="OUT", help="where to write the profile")
    t.add_argument("--camera", action="store_true", help="ask for each card kind and take it with the camera")
    t.add_argument("--variant", default="base", help="with --camera: which cards the deck has (a preset "
                                                             "or a JSON variant object)")
    t.add_argument("--source", help="with --camera: the camera, as in the settings (picamera2, opencv:0, "
                                    "folder:DIR); default: the settings' [camera] source")
    t.add_argument("--config", help="with --camera: the settings file (default: where the box finds it)")
    t.add_argument("--wait", type=float, default=15.0, metavar="SECONDS",
                   help="with --camera: how long the mat may be out of view before giving up (default 15)")
    t.add_argument("--data", help="with --camera: the box's data folder (where its config.toml may be)")
    t.set_defaults(func=lambda args: cmd_teach(args, camera_settings))
    m = sub.add_parser("mat", help="write the printable play mat (PDF or PNG)")
    m.add_argument("--out", required=True, help="file to write: .pdf or .png")
    m.add_argument("--paper", default="a4", choices=("a4", "letter"))
    m.set_defaults(func=cmd_mat)


def _fail(command: str, message: str) -> int:
    print(f"companion {command}: {message}", file=sys.stderr)
    return 1


def cmd_recognize(args: argparse.Namespace) -> int:
    import cv2

    from .classifier import ModelMissing
    from .recognize import Recognizer
    try:
        recognizer = Recognizer.with_profile(args.profile)
    except (ModelMissing, ValueError) as e:
        return _fail("recognize", str(e))
    code = 0
    for path in args.images:
        if not os.path.isfile(path):  # asked first: OpenCV would also print a warning of its own
            code = _fail("recognize", f"no such file: {path}")
            continue
        frame = cv2.imread(path, cv2.IMREAD_COLOR)
        if frame is None:
            code = _fail("recognize", f"cannot read image {path}: is it a photo (JPEG, PNG)?")
            continue
        result = recognizer.analyse(frame)
        out = {"image": path, "mat": result.mat, "cards": [c.as_dict() for c in result.cards]}
        if args.profile:
            out["profile_mismatch"] = recognizer.classifier.mismatch
        if args.json:
            print(json.dumps(out))
        else:
            seen = ", ".join(f"{c['zone'] or 'table'}: {c['card'] or 'unsure (' + '/'.join(c['candidates']) + ')'} "
                             f"{c['confidence']:.0%}" for c in out["cards"]) or "no cards"
            where = "" if result.mat else " (no play mat found: are all four corner markers in view?)"
            print(f"{path}: {seen}{where}")
    if args.profile and recognizer.classifier.mismatch:
        print(f"companion recognize: the cards do not look like the deck taught in {args.profile}, so they were "
              "read without it; is it the profile of another deck? Teach this one with: companion teach DIR "
              "--profile FILE", file=sys.stderr)
    return code


def card_crop(image: np.ndarray, detector: MatDetector) -> np.ndarray:
    """The card in a teaching photo: from a zone if the mat is in view, else the biggest card-like
    shape against the background, else the whole photo."""
    import cv2
    import numpy as np

    from . import finder
    from .recognize import look_at_mat
    _, views = look_at_mat(detector, image)
    crops = [v.crop for v in views.values() if v.crop is not None]
    if crops:
        return crops[0]
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    edges = cv2.dilate(cv2.Canny(grey, 40, 120), np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if contours:
        biggest = max(contours, key=cv2.contourArea)
        if cv2.contourArea(biggest) > 0.2 * grey.size:
            box = finder._portrait(cv2.boxPoints(cv2.minAreaRect(biggest)))
            return finder.upright_crop(image, box)
    h, w = image.shape[:2]
    if w > h:
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(image, finder.CROP, interpolation=cv2.INTER_AREA)


def cannot_write(path: str, why: str) -> str:
    """The message for a profile that cannot be written at ``path``, before the lesson or at its end."""
    return f"cannot write the profile {path}: {why}"


def unwritable_profile(path: str) -> str | None:
    """Why a profile cannot be saved at ``path``, or None. Asked before the lesson, so a family
    does not lay a whole deck or wait for the fit only to learn that the file cannot be written."""
    if os.path.isdir(path):
        return f"{path} is a folder: name the profile's file, like {os.path.join(path, 'deck.npz')}"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return cannot_write(path, f"there is no folder {folder} (create it first)")
    if not os.access(folder, os.W_OK):
        return cannot_write(path, f"the folder {folder} is not writable")
    return None


def cmd_teach(args: argparse.Namespace, camera_settings: CameraSettings) -> int:
    problem = unwritable_profile(args.profile)
    if problem:
        return _fail("teach", problem)
    if args.camera:
        if args.folder is not None:
            return _fail("teach", "give either a folder of photos or --camera, not both")
        from .teachcam import cmd_teach_camera
        return cmd_teach_camera(args, camera_settings)
    if args.folder is None:
        return _fail("teach", "name a folder of photos (like r3.jpg), or use --camera")
    if not os.path.isdir(args.folder):
        return _fail("teach", f"{args.folder} is not a folder")
    import cv2

    from .camera import IMAGE_EXT
    from .classifier import Classifier, ModelMissing, Profile
    from .mat import MatDetector
    photos = sorted(f for f in os.listdir(args.folder) if f.lower().endswith(IMAGE_EXT))
    detector = MatDetector()  # one for all photos
    crops: dict[str, list[np.ndarray]] = {}
    skipped = []
    for n, name in enumerate(photos, 1):
        m = TEACH_NAME.match(os.path.splitext(name)[0])
        try:
            label = str(parse_card(m.group(1))) if m else None
        except CardError:
            label = None
        image = cv2.imread(os.path.join(args.folder, name), cv2.IMREAD_COLOR)
        if label is None or image is None:
            skipped.append(name)
            continue
        crops.setdefault(label, []).append(card_crop(image, detector))
        _bar("photos", n, len(photos), name)
    print(file=sys.stderr)
    if skipped:
        print(f"skipped (name them like r3.jpg or r3_2.png): {', '.join(skipped)}", file=sys.stderr)
    if not crops:
        return _fail("teach", f"no usable photos in {args.folder}: name each photo after its card, like r3.jpg")
    profile = Profile(crops)
    try:
        profile.fit(Classifier(), lambda done, total: _bar("learning", done, total))
    except ModelMissing as e:
        return _fail("teach", str(e))
    print(file=sys.stderr)
    try:
        profile.save(args.profile)
    except OSError as e:
        return _fail("teach", cannot_write(args.profile, str(e.strerror or e)))
    print(f"taught {len(crops)} card kinds from {sum(map(len, crops.values()))} photos → {args.profile}")
    return 0


def _bar(what: str, done: int, total: int, name: str = "") -> None:
    bar = "#" * (30 * done // total)
    print(f"\r{what:<9} [{bar:<30}] {done}/{total} {name:<20}", end="", file=sys.stderr, flush=True)


def cmd_mat(args: argparse.Namespace) -> int:
    from .mat import write_mat
    try:
        path = write_mat(args.out, args.paper)
    except (ValueError, OSError) as e:
        return _fail("mat", str(e))
    print(f"wrote {path} ({args.paper.upper()}): print it at 100% scale, without 'fit to page'")
    return 0
