"""Train the card classifier on rendered cards and export it to ONNX for ``cv2.dnn``.

    pip install -e '.[train]'      # torch 2.13 (CPU) and onnx; only needed here
    python -m vision.train            # the shipped model: 42,000 samples, 12 epochs (about an hour)
    python -m vision.train --init models/cards.onnx --out out/cards.onnx   # fine-tune it elsewhere

Cards come from two sources: the renderer's own designs (``synth.CardDesign``) and decks of the
training design families (``designs.TRAINING``: faces shared by every suit, numerals in many
fonts, art unrelated to the value). The held-out families are never drawn here.

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

from . import designs, finder, mat, synth
from .classifier import model_resource
from .labels import LABELS
from .recognize import look_at_mat

TRAIN_DESIGNS = range(0, 400)
TEST_DESIGN_BASE = 100_000  # held-out designs start here and are never used for training
FAMILY_SEEDS = 20_000       # decks of the training families drawn for training: seeds below this


def zone_sample(rng: np.random.Generator, design: synth.Design, card: str) -> np.ndarray | None:
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


def frame_samples(rng: np.random.Generator, design: synth.Design,
                  detector: mat.MatDetector) -> list[tuple[np.ndarray, str]]:
    """The top card of each zone of a whole rendered camera frame, cut out exactly as the box
    does it (perspective, white balance from the mat's patches, the camera's noise)."""
    scene = synth.random_scene(rng, design, cards=[str(c) for c in rng.choice(LABELS, 6)])  # no zone empty
    frame = synth.render_frame(scene, synth.Camera.random(rng, max_tilt=45), synth.Light.random(rng),
                               int(rng.integers(1 << 16)))
    _, views = look_at_mat(detector, frame)
    return [(v.crop, scene.top(zone).card) for zone, v in views.items() if v.crop is not None]


def pick_design(rng: np.random.Generator, design_base: int, families: float) -> synth.Design:
    """A deck to draw a sample from: one of a training family's (share ``families``), else one of
    the renderer's 400 designs from ``design_base``."""
    if rng.random() < families:
        family = designs.TRAINING[int(rng.integers(len(designs.TRAINING)))]
        return designs.design(family, int(rng.integers(FAMILY_SEEDS)))
    return synth.CardDesign.from_seed(design_base + int(rng.integers(400)))


def _make(args: tuple[int, int, int, float] | tuple[int, int, int, float, float]) -> tuple[list[np.ndarray], list[int]]:
    """One worker's samples: seed, count, first design, share from frames[, share from families]."""
    seed, count, design_base, from_frames = args[:4]
    families = args[4] if len(args) > 4 else 0.0
    rng = np.random.default_rng(seed)
    detector = mat.MatDetector()
    xs, ys = [], []
    while len(xs) < count:
        design = pick_design(rng, design_base, families)
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


def dataset(samples: int, seed: int, design_base: int, from_frames: float = 0.0, families: float = 0.0,
            workers: int = 2) -> tuple[np.ndarray, np.ndarray]:
    n = workers * 4
    chunks = [(seed * 1000 + i, samples // n, design_base, from_frames, families) for i in range(n)]
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


def init_from(model, path: str) -> None:  # type: ignore[no-untyped-def]
    """Start from an exported model: its convolutions (batch norm folded in by the export) and
    head. The batch norms become the identity with the folded bias, and stay frozen."""
    import onnx
    import torch
    from onnx import numpy_helper
    graph = onnx.load(path).graph
    weights = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    layers = [m for m in model if isinstance(m, (torch.nn.Conv2d, torch.nn.BatchNorm2d))]
    if len(convs) * 2 != len(layers):
        raise SystemExit(f"{path} is not a model of this shape: train from scratch without --init")
    with torch.no_grad():
        for node, conv, bn in zip(convs, layers[::2], layers[1::2]):
            conv.weight.copy_(weights[node.input[1]])
            bn.bias.copy_(weights[node.input[2]])
            bn.weight.fill_(1.0)
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        model[-1].weight.copy_(weights["head.weight"])
        model[-1].bias.copy_(weights["head.bias"])


def train(samples: int, epochs: int, out: str, from_frames: float, families: float, seed: int = 1,
          max_minutes: float | None = None, init: str | None = None) -> dict:
    import torch

    from .classifier import to_blob
    torch.manual_seed(seed)
    t0 = time.time()
    x, y = dataset(samples, seed, design_base=TRAIN_DESIGNS.start, from_frames=from_frames, families=families)
    xv, yv = dataset(max(400, samples // 10), seed + 7, design_base=TEST_DESIGN_BASE)
    print(f"data: {len(x)} training crops, {len(xv)} held-out crops in {time.time() - t0:.0f} s", flush=True)
    xt, yt = torch.from_numpy(to_blob(list(x))), torch.from_numpy(y).long()
    model = build_model()
    if init:
        init_from(model, init)
    lr = 1e-3 if init else 3e-3
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * ((len(xt) + 127) // 128)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    for epoch in range(epochs):
        model.train()
        if init:  # the folded batch norms keep their identity statistics
            for m in model:
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.eval()
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
        if max_minutes is not None and time.time() - t0 > max_minutes * 60 and epoch + 1 < epochs:
            print(f"out of time after {epoch + 1} epochs: exporting this model", flush=True)
            break
    model.eval()
    export(model, out)
    return {"samples": len(x), "from_frames": from_frames, "epochs": epoch + 1, "held_out_accuracy": round(acc, 4),
            "train_designs": [TRAIN_DESIGNS.start, TRAIN_DESIGNS.stop], "families": families,
            "train_families": list(designs.TRAINING), "family_seeds": [0, FAMILY_SEEDS], "init": init,
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
    p.add_argument("--families", type=float, default=0.6,
                   help="share of draws from the training design families (the rest: the renderer's designs)")
    p.add_argument("--max-minutes", type=float, help="stop after the epoch that passes this time and export")
    p.add_argument("--init", metavar="ONNX", help="fine-tune an exported model (for example the shipped one)")
    p.add_argument("--seed", type=int, default=1, help="seed of the samples and of the training")
    p.add_argument("--out", help="where to write the model (default: the installed models package, which "
                                 "is the checkout's models/ folder in an editable install)")
    args = p.parse_args()
    args.out = args.out or str(model_resource())
    try:
        import torch  # noqa: F401
    except ImportError:
        raise SystemExit("training needs torch: pip install -e '.[train]'") from None
    info = train(args.samples, args.epochs, args.out, args.from_frames, args.families, seed=args.seed,
                 max_minutes=args.max_minutes, init=args.init)
    with open(os.path.splitext(args.out)[0] + ".json", "w") as f:
        json.dump(info, f, indent=1)
    print(json.dumps(info))


if __name__ == "__main__":
    main()
