"""Train the card classifier on rendered cards and export it to ONNX for ``cv2.dnn``.

    pip install -e '.[train]'      # torch 2.13 (CPU) and onnx; only needed here
    python -m vision.train            # the shipped model: 42,000 samples, 12 epochs (about an hour)

Samples go through the same finder as camera frames: either a pile is laid in a zone seen from
above, degraded the way a camera at an angle would (resolution, blur, light colour, glare, noise,
JPEG), colour-balanced with an imperfect estimate and cut out by ``finder.find_in_view``; or a
whole camera frame is rendered and its zones looked at exactly as the box does.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from multiprocessing import Pool

import cv2
import numpy as np

from . import finder, mat, synth
from .labels import LABELS
from .recognize import look_at_mat

TRAIN_DESIGNS = range(0, 400)
TEST_DESIGN_BASE = 100_000  # held-out designs start here and are never used for training


def zone_sample(rng: np.random.Generator, design: synth.CardDesign, card: str) -> np.ndarray | None:
    """One classifier input for ``card`` on top of a small pile, or None if the finder missed it."""
    zone = str(rng.choice(["play", "discard"]))
    scene = synth.Scene()
    below = int(rng.integers(0, 3))
    for i in range(below):
        scene.cards.append(synth.lay(str(rng.choice(LABELS)), zone, design, rng, pile=i))
    scene.cards.append(synth.lay(card, zone, design, rng, pile=below))
    if rng.random() < 0.3:
        other = "discard" if zone == "play" else "play"
        scene.cards.append(synth.lay(str(rng.choice(LABELS)), other, design, rng))
    plane = synth.mat_plane(scene, rng, finder.PPM)
    x0, y0, x1, y1 = mat.ZONES[zone]
    m = finder.MARGIN_MM
    view = plane[int((y0 - m) * finder.PPM):int((y1 + m) * finder.PPM), int((x0 - m) * finder.PPM):int((x1 + m) * finder.PPM)]
    view = degrade(view, rng)
    found = finder.find_in_view(view, zone)
    return found.crop


def degrade(view: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """What a camera at an angle leaves of a zone: fewer pixels, one way more than the other."""
    h, w = view.shape[:2]
    sx, sy = rng.uniform(0.3, 0.9), rng.uniform(0.3, 0.9)
    small = cv2.resize(view, (max(8, int(w * sx)), max(8, int(h * sy))), interpolation=cv2.INTER_AREA)
    light = synth.Light.random(rng)
    small = light.apply(small)
    back = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    # the white balance estimate is good but not perfect
    est = np.array(light.gains) * rng.uniform(0.93, 1.07, 3)
    return np.clip(back.astype(np.float32) / est, 0, 255).astype(np.uint8)


def frame_samples(rng: np.random.Generator, design: synth.CardDesign,
                  detector: mat.MatDetector) -> list[tuple[np.ndarray, str]]:
    """The top card of each zone of a whole rendered camera frame, cut out exactly as the box
    does it (perspective, white balance from the mat's patches, the camera's noise)."""
    scene = synth.random_scene(rng, design, cards=[str(c) for c in rng.choice(LABELS, 6)])  # no zone empty
    frame = synth.render_frame(scene, synth.Camera.random(rng, max_tilt=45), synth.Light.random(rng),
                               int(rng.integers(1 << 16)))
    _, views = look_at_mat(detector, frame)
    return [(v.crop, scene.top(zone).card) for zone, v in views.items() if v.crop is not None]


def _make(args: tuple[int, int, int, float]) -> tuple[list[np.ndarray], list[int]]:
    seed, count, design_base, from_frames = args
    rng = np.random.default_rng(seed)
    detector = mat.MatDetector()
    xs, ys = [], []
    designs = list(range(design_base, design_base + 400))
    while len(xs) < count:
        design = synth.CardDesign.from_seed(int(rng.choice(designs)))
        if rng.random() < from_frames:
            for crop, card in frame_samples(rng, design, detector):
                xs.append(crop)
                ys.append(LABELS.index(card))
            continue
        label = int(rng.integers(len(LABELS)))
        crop = zone_sample(rng, design, LABELS[label])
        if crop is not None:
            xs.append(crop)
            ys.append(label)
    return xs[:count], ys[:count]


def dataset(samples: int, seed: int, design_base: int, from_frames: float = 0.0,
            workers: int = 2) -> tuple[np.ndarray, np.ndarray]:
    n = workers * 4
    chunks = [(seed * 1000 + i, samples // n, design_base, from_frames) for i in range(n)]
    parts = []
    with Pool(workers) as pool:
        for part in pool.imap(_make, chunks):  # in order: the same seed gives the same data
            parts.append(part)
            print(f"\r  making samples: {len(parts) * 100 // n}%", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    x = np.concatenate([np.stack(p[0]) for p in parts])
    y = np.concatenate([np.array(p[1]) for p in parts])
    return x, y


def build_model():  # type: ignore[no-untyped-def]
    import torch.nn as nn

    def block(cin: int, cout: int) -> list:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    return nn.Sequential(
        *block(3, 24), nn.MaxPool2d(2),
        *block(24, 48), nn.MaxPool2d(2),
        *block(48, 64), nn.MaxPool2d(2),
        *block(64, 96), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Dropout(0.2), nn.Linear(96, len(LABELS)))


def train(samples: int, epochs: int, out: str, from_frames: float, seed: int = 1) -> dict:
    import torch

    from .classifier import to_blob
    torch.manual_seed(seed)
    t0 = time.time()
    x, y = dataset(samples, seed, design_base=TRAIN_DESIGNS.start, from_frames=from_frames)
    xv, yv = dataset(max(2000, samples // 10), seed + 7, design_base=TEST_DESIGN_BASE)
    print(f"data: {len(x)} training crops, {len(xv)} held-out crops in {time.time() - t0:.0f} s", flush=True)
    xt, yt = torch.from_numpy(to_blob(list(x))), torch.from_numpy(y).long()
    model = build_model()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = epochs * ((len(xt) + 127) // 128)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    for epoch in range(epochs):
        model.train()
        perm = torch.randperm(len(xt))
        total = 0.0
        for i in range(0, len(xt), 128):
            idx = perm[i:i + 128]
            opt.zero_grad()
            loss = loss_fn(model(xt[idx]), yt[idx])
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        acc = evaluate(model, xv, yv)
        print(f"epoch {epoch + 1}/{epochs}: loss {total / len(xt):.3f}, held-out accuracy {acc:.4f}", flush=True)
    model.eval()
    export(model, out)
    return {"samples": len(x), "from_frames": from_frames, "epochs": epochs, "held_out_accuracy": round(acc, 4),
            "train_designs": [TRAIN_DESIGNS.start, TRAIN_DESIGNS.stop],
            "minutes": round((time.time() - t0) / 60, 1)}


def export(model, out: str) -> None:  # type: ignore[no-untyped-def]
    """ONNX with two outputs: the class logits and the features before them (for deck profiles)."""
    import torch

    class WithFeatures(torch.nn.Module):
        def __init__(self, net):  # type: ignore[no-untyped-def]
            super().__init__()
            self.body, self.head = net[:-1], net[-1]

        def forward(self, x):  # type: ignore[no-untyped-def]
            features = self.body(x)
            return self.head(features), features

    dummy = torch.zeros(1, 3, finder.CROP[1], finder.CROP[0])
    torch.onnx.export(WithFeatures(model).eval(), dummy, out, dynamo=False, opset_version=17,
                      input_names=["crop"], output_names=["logits", "features"],
                      dynamic_axes={"crop": {0: "n"}, "logits": {0: "n"}, "features": {0: "n"}})


def evaluate(model, x: np.ndarray, y: np.ndarray) -> float:  # type: ignore[no-untyped-def]
    import torch

    from .classifier import to_blob
    model.eval()
    with torch.no_grad():
        pred = model(torch.from_numpy(to_blob(list(x)))).argmax(1).numpy()
    return float((pred == y).mean())


def main() -> None:
    p = argparse.ArgumentParser(description="train the card classifier on rendered cards")
    p.add_argument("--samples", type=int, default=42000)
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--from-frames", type=float, default=0.2,
                   help="share of draws that render a whole camera frame (two crops, slower to make)")
    p.add_argument("--out", default=os.path.join("models", "cards.onnx"))
    args = p.parse_args()
    try:
        import torch  # noqa: F401
    except ImportError:
        raise SystemExit("training needs torch: pip install -e '.[train]'") from None
    info = train(args.samples, args.epochs, args.out, args.from_frames)
    with open(os.path.splitext(args.out)[0] + ".json", "w") as f:
        json.dump(info, f, indent=1)
    print(json.dumps(info))


if __name__ == "__main__":
    main()
