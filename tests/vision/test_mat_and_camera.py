"""The play mat round trip and the camera sources (with fakes for the hardware)."""
import subprocess
from dataclasses import replace

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import camera, finder, mat, synth
from vision.camera import CameraError, FolderSource, OpenCVSource, Picamera2Source, open_source
from vision.recognize import Recognizer


@pytest.mark.parametrize("seed", range(6))
def test_mat_round_trip_homography_error_under_2px(seed):
    rng = np.random.default_rng(seed)
    cam = synth.Camera.random(rng, max_tilt=45)
    frame = synth.render_frame(synth.Scene(), cam, synth.Light(noise=2, jpeg=85), seed)
    pose = mat.MatDetector().detect(frame)
    assert pose is not None and pose.markers_seen == 4
    pts = np.array([[x, y] for x in np.linspace(0, mat.MAT_W_MM, 6) for y in np.linspace(0, mat.MAT_H_MM, 5)])
    truth = cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float32), cam.homography()).reshape(-1, 2)
    err = np.linalg.norm(pose.to_frame(pts) - truth, axis=1)
    assert err.max() < 2.0


def _frame_px_per_mm(camera: synth.Camera) -> float:
    """How many of the frame's pixels a millimetre of the mat's middle spans."""
    middle = np.float32([[[mat.MAT_W_MM / 2, mat.MAT_H_MM / 2]], [[mat.MAT_W_MM / 2 + 1, mat.MAT_H_MM / 2]]])
    a, b = cv2.perspectiveTransform(middle, camera.homography()).reshape(2, 2)
    return float(np.linalg.norm(b - a))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), scale=st.floats(1.0, 2.5))
def test_a_larger_frame_is_drawn_from_a_mat_as_fine_against_its_pixels(seed, scale):
    """A camera's larger stream (the Pi camera's 2304x1296 is 1.8 times the watched 1280x720 each
    way) shows the cards with more pixels, not the smaller frame enlarged: the mat is drawn with as
    many px per mm for each of the frame's pixels as it is for the watched frame."""
    camera = synth.Camera.random(np.random.default_rng(seed))
    watched = synth.plane_ppm(camera) / _frame_px_per_mm(camera)
    larger = camera.larger(scale)
    assert synth.plane_ppm(larger) / _frame_px_per_mm(larger) == pytest.approx(watched, rel=1e-3)


@pytest.mark.parametrize("seed", range(3))
def test_a_card_cut_out_of_the_larger_picture_is_the_card_found_in_the_frame(seed):
    """The card is found in the watched frame and cut out of the camera's larger picture of the same
    moment: the two cuts show the same card in the same place, the larger one's the sharper."""
    rng = np.random.default_rng(seed)
    scene = synth.Scene([synth.lay("g4", "play", synth.CardDesign.from_seed(seed), rng)])
    camera, light = synth.Camera.random(rng, max_tilt=40), synth.Light(noise=2, jpeg=None, blur=0.8)
    frame = synth.render_frame(scene, camera, light, seed)
    larger = synth.render_frame(scene, camera.larger(1.8), light, seed)
    reader = Recognizer()
    _, plain = reader.look(frame)
    _, cut = reader.look(frame, detail=larger)
    assert np.allclose(plain["play"].corners, cut["play"].corners)  # found in the frame either way
    assert cut["play"].full_colour and not plain["play"].full_colour  # white told by the larger picture's floor
    a, b = (cv2.GaussianBlur(v["play"].crop, (0, 0), 2).astype(np.float32) for v in (plain, cut))
    assert np.abs(a - b).mean() < 4  # the same card in the same place: a pixel off in the frame gives 3 to 6

    def sharpness(crop):
        return cv2.Laplacian(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var()
    assert sharpness(cut["play"].crop) > 1.3 * sharpness(plain["play"].crop)


def test_a_card_cut_out_of_the_raw_frame_itself_is_the_frames_card_told_by_full_colour():
    """Without a larger stream the Pi camera hands its raw frame as the picture to cut the card out
    of: the crop is the frame's own, pixel for pixel, and white ink is told by the raw picture's floor."""
    rng = np.random.default_rng(4)
    scene = synth.Scene([synth.lay("b2", "play", synth.CardDesign.from_seed(4), rng)])
    frame = synth.render_frame(scene, synth.Camera.random(rng, max_tilt=40), synth.Light(noise=2, jpeg=None), 4)
    reader = Recognizer()
    _, plain = reader.look(frame)
    _, cut = reader.look(frame, detail=frame)
    assert cut["play"].crop is not None and np.array_equal(cut["play"].crop, plain["play"].crop)
    assert cut["play"].full_colour and not plain["play"].full_colour


def _sharpness(crop: np.ndarray) -> float:
    """The variance of the Laplacian inside the crop's edge."""
    return float(cv2.Laplacian(crop, cv2.CV_32F)[3:-3, 3:-3].var())


@pytest.mark.parametrize("scale", [None, 1.8])
def test_a_card_cut_in_one_warp_is_the_card_two_warps_cut_as_sharp(scale):
    """The crop is cut straight out of the frame (or the larger picture) and softened as a second warp
    would have softened it (``finder.soften``): the networks and the doubt of a pale suit learnt crops
    cut in two warps, through the zone's 3 px per mm picture, so a crop must look like those."""
    rng = np.random.default_rng(3)
    reader, diffs, ratios = Recognizer(), [], []
    for seed in range(6):
        scene = synth.random_scene(rng, synth.CardDesign.from_seed(seed), cards=["r1", "b3", "g2", "w4"])
        camera, light = synth.Camera.random(rng, max_tilt=40), synth.Light(noise=2, jpeg=None)
        frame = synth.render_frame(scene, camera, light, seed)
        larger = None if scale is None else synth.render_larger(scene, camera, light, scale, seed)
        pose, views = reader.look(frame)
        for zone, view in views.items():
            pixels = finder.zone_pixels(frame, pose, zone, detail=larger)
            two = replace(pixels, cut=None).crop(view.rect_px).astype(np.float32)  # through the zone's picture
            one = pixels.crop(view.rect_px).astype(np.float32)
            diffs.append(np.abs(one - two)[3:-3, 3:-3].mean())
            ratios.append(_sharpness(one) / _sharpness(two))
    assert len(diffs) == 12
    assert np.mean(diffs) < 2.0  # a pixel's shift gives 7 to 12
    assert 0.9 < np.median(ratios) < 1.1  # unsoftened: 1.15 to 1.2


def test_simulated_light_leaves_frames_uncompressed_as_the_pi_camera_gives_them():
    """The Pi camera's RGB888 frames are never JPEG-compressed; a webcam's usually are."""
    img = np.random.default_rng(0).integers(0, 256, (72, 128, 3), dtype=np.uint8)
    still = synth.Light(noise=0.0, jpeg=None)
    assert np.array_equal(still.apply(img), img)
    assert not np.array_equal(synth.Light(noise=0.0, jpeg=60).apply(img), img)


def _mean_light(frame: np.ndarray) -> float:
    return float(((frame.astype(np.float32) / 255) ** synth.GAMMA @ synth.LUMA).mean())


@pytest.mark.parametrize("ev", [0.0, -1.0])
def test_simulated_exposure_brings_the_picture_to_the_cameras_target(ev):
    """The Pi camera's control sets the mean light to its target, 0.16 of full light, moved by the
    exposure value; the light's own level does not matter (rpi.agc in the camera's tuning file)."""
    img = np.random.default_rng(1).integers(60, 140, (90, 160, 3), dtype=np.uint8)
    for level in (0.7, 1.15):
        light = synth.Light(gains=(level, level, level), noise=0.0, jpeg=None, exposure=ev)
        assert abs(_mean_light(light.apply(img)) / (0.16 * 2 ** ev) - 1) < 0.06, level


def test_simulated_exposure_keeps_a_cold_lights_light_blue_under_the_top():
    """Under a bright cold light, a light blue numeral's blue channel is clipped and shows as white
    does; the box's exposure keeps it under the top, and the white numeral still brighter."""
    img = np.full((100, 200, 3), (150, 110, 70), np.uint8)  # a blue face
    img[40:50, 20:30] = (250, 220, 190)  # light blue ink: 0.5 % of the picture
    img[40:50, 60:70] = (245, 245, 245)  # white ink
    cold = (1.2 * 1.15, 1.15, 0.85 * 1.15)  # blue, green, red
    unmetered = synth.Light(gains=cold, noise=0.0, jpeg=None).apply(img)
    assert unmetered[45, 25, 0] == 255 == unmetered[45, 65, 0]
    box = synth.Light(gains=cold, noise=0.0, jpeg=None, exposure=camera.BOX_EV).apply(img)
    assert box[45, 25, 0] < 250 and box[45, 25].sum() + 40 < box[45, 65].sum()


def _lines() -> np.ndarray:
    """White with a one-pixel dark line every 6 pixels, well inside: hairline strokes."""
    img = np.full((80, 240, 3), 230, np.uint8)
    img[20:60, 24:216:6] = 30
    return img


@settings(max_examples=40, deadline=None)
@given(scale=st.floats(0.4, 0.8), shift=st.floats(0.0, 1.0))
def test_rendered_camera_gathers_the_light_over_each_pixel(scale, shift):
    """A camera pixel collects the light of everything it sees, so a stroke thinner than a pixel
    shows faint, never gone: drawn at 3 px per mm into a frame of 1.2 to 2.6 (the scenes' range),
    the lines' ink adds up to what was drawn within 15% whatever their phase, and each line shows
    where it lands. Taking one point per pixel, as ``cv2.warpPerspective`` does with any
    interpolation asked for, gives none of it to twice it (at half the size a line shows at full
    strength or not at all)."""
    img = _lines()
    m = np.array([[scale, 0, -shift], [0, scale, 0], [0, 0, 1]], np.float64)
    size = (int(img.shape[1] * scale), int(img.shape[0] * scale))
    ink = 230.0 - synth.camera_warp(img, m, size)[3:-3, 3:-3].astype(np.float32)  # the edge sees past the picture
    drawn = (230.0 - img.astype(np.float32)).sum() * scale * scale
    assert abs(ink.sum() / drawn - 1) < 0.15
    columns = ink[int(20 * scale) - 2:int(60 * scale) - 4].mean(axis=(0, 2))  # the lines' rows
    for x in range(24, 216, 6):
        at = scale * x - shift - 3
        assert columns[int(at) - 1:int(at) + 3].max() > 0.3 * (230 - 30) * scale, (x, at)


def test_rendered_camera_keeps_where_things_land():
    """Sampling the light over each pixel moves nothing: a spot lands where the homography puts it."""
    img = np.zeros((200, 200), np.uint8)
    cv2.circle(img, (70, 120), 6, 255, -1)
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [200, 0], [200, 200], [0, 200]]),
                                    np.float32([[10, 5], [110, 12], [104, 118], [3, 109]]))
    out = synth.camera_warp(img, m, (120, 120)).astype(np.float64)
    ys, xs = np.mgrid[0:120, 0:120]
    seen = np.array([(out * xs).sum(), (out * ys).sum()]) / out.sum()
    truth = cv2.perspectiveTransform(np.float64([[[70, 120]]]), m).reshape(2)
    assert np.linalg.norm(seen - truth) < 0.3


def test_mat_files(tmp_path, companion_cmd):
    for paper in ("a4", "letter"):
        out = tmp_path / f"mat-{paper}.pdf"
        p = subprocess.run(companion_cmd + ["mat", "--out", str(out), "--paper", paper], capture_output=True, text=True)
        assert p.returncode == 0 and out.read_bytes().startswith(b"%PDF")
    png = tmp_path / "mat.png"
    assert subprocess.run(companion_cmd + ["mat", "--out", str(png)]).returncode == 0
    img = cv2.imread(str(png))
    assert img is not None and mat.MatDetector().detect(img).markers_seen == 4
    p = subprocess.run(companion_cmd + ["mat", "--out", str(tmp_path / "mat.gif")], capture_output=True, text=True)
    assert p.returncode == 1 and ".pdf or .png" in p.stderr and "Traceback" not in p.stderr


def _blue(size) -> np.ndarray:
    frame = np.zeros((size[1], size[0], 3), np.uint8)
    frame[..., 0] = 200  # blue in memory: RGB888 in libcamera's naming
    return frame


class FakeRequest:
    """One moment's buffers: the main stream as RGB888, the small one as planar YUV420."""

    def __init__(self, config, released):
        self.config, self.released = config, released

    def make_array(self, name):
        assert self not in self.released, "a buffer used after it was handed back"
        size = self.config[name]["size"]
        if self.config[name]["format"] == "YUV420":
            return cv2.cvtColor(_blue(size), cv2.COLOR_BGR2YUV_I420)
        return np.dstack([_blue(size), np.full((size[1], size[0]), 255, np.uint8)])  # a fourth byte, as XRGB

    def release(self):
        self.released.append(self)


class FakePicamera2:
    """Gives frames the way Picamera2 does: RGB888 is blue, green, red in memory; YUV420 is planar."""

    def __init__(self):
        self.config, self.released, self.requests, self.controls = None, [], [], None

    def create_video_configuration(self, main, lores=None, controls=None):
        self.controls = controls
        return {"main": main, **({"lores": lores} if lores else {})}

    def configure(self, config):
        self.config = config

    def start(self):
        pass

    def capture_array(self, name):
        return _blue(self.config[name]["size"])

    def capture_request(self):
        self.requests.append(FakeRequest(self.config, self.released))
        return self.requests[-1]

    def stop(self):
        pass

    def close(self):
        pass


def _is_blue(frame) -> bool:
    """OpenCV reads index 0 as blue: a pure blue scene must stay blue."""
    return bool(abs(int(cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)[0, 0, 0]) - 120) <= 1)


def test_picamera2_gives_bgr_frames_in_opencv_order():
    fake = FakePicamera2()
    src = Picamera2Source(factory=lambda: fake, detail=None)
    frame = src.read()
    assert fake.config["main"] == {"size": (1280, 720), "format": "RGB888"}
    assert frame.shape == (720, 1280, 3) and _is_blue(frame)
    assert src.detail() is frame  # the cards are cut out of the raw frame itself
    src.close()


def test_picamera2_watches_its_small_stream_and_cuts_cards_from_its_larger_one():
    """Two streams of each moment: the watched 1280x720 frames from the ISP's small YUV stream, and
    the larger picture made only when asked for, from the same request; each request is handed
    back once the next frame is read, so the camera never runs out of buffers."""
    fake = FakePicamera2()
    src = Picamera2Source(factory=lambda: fake)
    assert fake.config["main"] == {"size": (2304, 1296), "format": "RGB888"}
    assert fake.config["lores"] == {"size": (1280, 720), "format": "YUV420"}
    first = src.read()
    assert first.shape == (720, 1280, 3) and _is_blue(first)
    larger = src.detail()
    assert larger.shape == (1296, 2304, 3) and larger.flags.c_contiguous and _is_blue(larger)
    src.read()
    assert fake.released == fake.requests[:1]  # the first moment's buffers went back
    assert src.detail().shape == (1296, 2304, 3)
    src.close()
    assert fake.released == fake.requests


def test_picamera2_without_memory_for_its_larger_stream_watches_alone():
    """A camera that cannot give the larger stream too (too little camera memory) still watches, and
    cards are cut out of its raw frames: their colour is at every pixel, so white ink is told by the
    same floor as in the larger picture (``WHITE_INK_FULL_COLOUR``)."""
    class Small(FakePicamera2):
        def configure(self, config):
            if "lores" in config:
                raise RuntimeError("Failed to allocate buffers")
            super().configure(config)
    fake = Small()
    src = Picamera2Source(factory=lambda: fake)
    assert fake.config == {"main": {"size": (1280, 720), "format": "RGB888"}}
    assert src.detail() is None  # no frame read yet
    frame = src.read()
    assert _is_blue(frame) and src.detail() is frame


def test_picamera2_exposes_under_the_brightest_inks():
    """The camera's exposure control with the highlight bound, and a stop under its own choice: where
    a channel reaches the top, a light blue numeral and a white one print alike."""
    fake = FakePicamera2()
    Picamera2Source(factory=lambda: fake).close()
    assert fake.controls == {"AeConstraintMode": 1, "ExposureValue": camera.BOX_EV} and camera.BOX_EV < 0


def test_picamera2_missing_is_a_clear_error():
    def broken():
        raise RuntimeError("Camera __init__ sequence did not complete.")
    with pytest.raises(CameraError, match="ribbon cable"):
        Picamera2Source(factory=broken)


class FakeCapture:
    def __init__(self, frames, opened=True):
        self.frames, self.opened = list(frames), opened

    def isOpened(self):
        return self.opened

    def set(self, *a):
        return True

    def read(self):
        return (True, self.frames.pop(0)) if self.frames else (False, None)

    def release(self):
        self.opened = False


def test_opencv_source_reads_then_reports_unplugging():
    frames = [np.full((2, 2, 3), i, np.uint8) for i in range(2)]
    src = OpenCVSource(0, capture=lambda t: FakeCapture(frames))
    assert src.read()[0, 0, 0] == 0 and src.read()[0, 0, 0] == 1
    with pytest.raises(CameraError, match="gave no frame"):
        src.read()
    with pytest.raises(CameraError, match="cannot open camera"):
        OpenCVSource(1, capture=lambda t: FakeCapture([], opened=False))


def test_folder_source_and_specs(tmp_path):
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), np.full((4, 4, 3), i * 50, np.uint8))
    src = FolderSource(str(tmp_path))
    assert [int(src.read()[0, 0, 0]) for _ in range(3)] == [0, 50, 100]
    with pytest.raises(CameraError, match="no more images"):
        src.read()
    assert FolderSource(str(tmp_path), loop=True).files
    with pytest.raises(CameraError, match="unknown camera source"):
        open_source("gopro")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CameraError, match="holds no images"):
        FolderSource(str(empty))
