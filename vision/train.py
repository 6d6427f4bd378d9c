"""Train the card reader on rendered cards and export it to ONNX for ``cv2.dnn``.

    pip install -e '.[train]'      # torch 2.13 (CPU) and onnx; only needed here
    python -m vision.train            # the shipped model (about an hour on two cores)
    python -m vision.train --work DIR --out FILE   # kept as it goes: run it again after a stop
    python -m vision.train --seed 11 --out student.onnx --teachers models/cards.onnx models/cards-2.onnx \
        models/cards-3.onnx           # one network taught to read as the three do together
    python -m vision.train --seed 10 --widths 16 24 24 48 48 96 --out lean.onnx   # fewer channels: faster

The reader looks at each end of a card on its own (the top rows of the upright crop, and the
bottom rows turned upright: printed decks put the value in opposite corners) and says two things
of it: the suit and the value. The card's answer combines both ends (``classifier.card_probabilities``).

Cards come from decks of the training design families (``designs.TRAINING``: faces shared by
every suit, numerals in many fonts, art unrelated to the value) and from the renderer's own
designs (``synth.CardDesign``). The held-out families are never drawn here, and the check after
each epoch uses training-family decks of seeds training never draws.

Samples are made three ways: a face drawn and altered directly the way a camera and the finder
alter it (cheap, most of them); a pile laid in a zone, degraded and cut out by the finder; or a
whole camera frame rendered and its zones looked at exactly as the box does.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from multiprocessing import Pool

import cv2
import numpy as np

from . import designs, finder, mat, synth, teach, trainwork, winograd
from .classifier import CHANNELS, PATCH_ROWS, Classifier, _read_net, ends, model_resource, softmax, to_blob
from .labels import LABELS
from .recognize import look_at_mat
from .wholefile import written_whole

TRAIN_DESIGNS = range(0, 400)
TEST_DESIGN_BASE = 100_000  # held-out designs start here and are never used for training
FAMILY_SEEDS = 20_000       # decks of the training families drawn for training: seeds below this


def _bar(label: str, done: int, total: int, t0: float, after: str = "") -> None:
    """A progress bar on stderr, redrawn in place: training runs for an hour."""
    print(f"\r  {label} [{'#' * (30 * done // total):<30}] {after}{time.time() - t0:.0f} s", end="", file=sys.stderr,
          flush=True)


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
    rows = slice(int((y0 - m) * finder.PPM), int((y1 + m) * finder.PPM))
    view = plane[rows, int((x0 - m) * finder.PPM):int((x1 + m) * finder.PPM)]
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
    return [(v.crop, top.card) for zone, v in views.items()
            if v.crop is not None and (top := scene.top(zone)) is not None]


def pick_design(rng: np.random.Generator, design_base: int, families: float, first_seed: int = 0,
                thin: float = 0.0) -> synth.Design:
    """A deck to draw a sample from: one of a training family's (share ``families``; deck seeds
    from ``first_seed``; share ``thin`` of them with their numerals worn down to hairlines, as some
    editions print them), else one of the renderer's 400 designs from ``design_base``."""
    if rng.random() < families:
        family = designs.TRAINING[int(rng.choice(len(designs.TRAINING), p=designs.TRAINING_SHARES))]
        deck = designs.design(family, first_seed + int(rng.integers(FAMILY_SEEDS)))
        # no draw at all without thin decks: the shipped networks' recipes give the same samples
        return dataclasses.replace(deck, style="thin") if thin and rng.random() < thin else deck
    return synth.CardDesign.from_seed(design_base + int(rng.integers(400)))


def face_crop(design: synth.Design, card: str, rng: np.random.Generator) -> np.ndarray:
    """The card's face cut out cleanly at the crop's size (round corners over the mat's grey)."""
    face = design.render(card, int(rng.integers(1 << 16)))
    if face.shape[2] == 4:
        a = face[..., 3:].astype(np.float32) / 255
        face = (face[..., :3] * a + rng.uniform(120, 185) * (1 - a)).astype(np.uint8)
    return cv2.resize(face, finder.CROP, interpolation=cv2.INTER_AREA)


def direct_sample(rng: np.random.Generator, design: synth.Design, card: str) -> np.ndarray:
    """A crop as the finder might cut the card out of a frame: askew, loose, under another light,
    blurred, noisy, glared (the teaching's alterations), sometimes with a colour cast left over."""
    under = face_crop(design, str(rng.choice(LABELS)), rng)
    crop = face_crop(design, card, rng)
    if rng.random() < 0.3:
        crop = np.clip(crop * rng.uniform(0.85, 1.15, 3), 0, 255).astype(np.uint8)
    return teach.augment(crop, under, rng, jpeg=1.0)  # as the shipped networks were trained


MODES = (0.7, 0.22)        # shares of direct samples and of zone samples; the rest from whole frames
CHECK_MODES = (0.5, 0.5)   # the check after each epoch: direct and zone samples, half each
PER_DECK = 8               # samples drawn from a deck before another is picked


def _make(args: tuple) -> tuple[list[np.ndarray], list[int]]:
    """One worker's samples: seed, count, first design of the renderer's own, share from families,
    share of those thin, whether for the check (deck seeds from FAMILY_SEEDS, which training never
    draws, and CHECK_MODES)."""
    seed, count, design_base, families, thin, check = args
    modes = CHECK_MODES if check else MODES
    rng = np.random.default_rng(seed)
    detector = mat.MatDetector()
    xs: list[np.ndarray] = []
    ys: list[int] = []
    while len(xs) < count:
        design = pick_design(rng, design_base, families, FAMILY_SEEDS if check else 0, thin)
        for _ in range(PER_DECK):
            mode = rng.random()
            if mode >= modes[0] + modes[1]:
                for crop, card in frame_samples(rng, design, detector):
                    xs.append(crop)
                    ys.append(LABELS.index(card))
                continue
            label = int(rng.integers(len(LABELS)))
            make = direct_sample if mode < modes[0] else zone_sample
            sample = make(rng, design, LABELS[label])
            if sample is not None:
                xs.append(sample)
                ys.append(label)
    return xs[:count], ys[:count]


def dataset(samples: int, seed: int, design_base: int, families: float, workers: int = 2,
            validation: bool = False, thin: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Crops (N x h x w x 3, uint8) and their labels. ``validation`` draws training-family decks of
    seeds that training never draws (new decks of known families: a check, never the held-out);
    ``thin``: ``pick_design``'s."""
    n = workers * 8
    chunks = [(seed * 1000 + i, -(-samples // n), design_base, families, thin, validation) for i in range(n)]
    parts = []
    t0 = time.time()
    with Pool(workers) as pool:
        for part in pool.imap(_make, chunks):  # in order: the same seed gives the same data
            parts.append(part)
            _bar("making samples", len(parts), n, t0, f"{len(parts) * 100 // n}% ")
    print(file=sys.stderr)
    x = np.concatenate([np.stack(p[0]) for p in parts])[:samples]
    y = np.concatenate([np.array(p[1]) for p in parts])[:samples]
    return x, y


def patch_batch(x: np.ndarray, y: np.ndarray, idx: np.ndarray):
    """Network inputs of the ends numbered ``idx`` (end ``i`` is crop ``i // 2``, its top or its
    bottom turned upright) with their suit and value targets. Made batch by batch: kept as inputs
    (seven float channels) the samples would take over ten times the memory of their crops."""
    import torch
    crops = x[idx // 2]
    patches = [ends([c])[i % 2] for c, i in zip(crops, idx, strict=True)]
    labels = y[idx // 2]
    return (torch.from_numpy(to_blob(patches)), torch.from_numpy(labels // 5).long(),
            torch.from_numpy(labels % 5).long())


def ensemble_targets(x: np.ndarray, teachers: list[str], batch: int = 512) -> tuple[np.ndarray, np.ndarray]:
    """Per end of every crop (numbered as ``patch_batch`` numbers them), the suit and value
    probabilities of ``teachers`` read together as the box reads them: their log-probabilities
    averaged, then normalised: a network taught to say what several say at once costs one
    network's reading (how near it came to them: models/README.md)."""
    nets = [_read_net(path) for path in teachers]
    suits, values = [], []
    t0 = time.time()
    for i in range(0, len(x), batch):
        blob = to_blob(ends(list(x[i:i + batch])))
        read = [Classifier._read(net, blob) for net in nets]
        suits.append(softmax(np.mean([suit for suit, _, _ in read], 0)))
        values.append(softmax(np.mean([value for _, value, _ in read], 0)))
        _bar("the teachers read", min(i + batch, len(x)), len(x), t0)
    print(file=sys.stderr)
    return np.concatenate(suits).astype(np.float32), np.concatenate(values).astype(np.float32)


WIDTHS = (16, 32, 32, 64, 64, 96)  # channels of the six convolutions: the shipped networks'


def build_model(widths: tuple[int, ...] = WIDTHS):
    """A small network over one end of a card: its features, and two heads (suit, value).
    ``widths``: the channels of its six convolutions, in three poolings' stages of one, two and
    two, and one after them; the last is the features' length."""
    import torch.nn as nn

    c1, c2, c3, c4, c5, c6 = widths

    def block(cin: int, cout: int) -> list:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    class Reader(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(
                *block(CHANNELS, c1), nn.MaxPool2d(2),
                *block(c1, c2), *block(c2, c3), nn.MaxPool2d(2),
                *block(c3, c4), *block(c4, c5), nn.MaxPool2d(2),
                *block(c5, c6), nn.AdaptiveAvgPool2d(1), nn.Flatten())
            self.drop = nn.Dropout(0.2)
            self.suit = nn.Linear(c6, 7)
            self.value = nn.Linear(c6, 5)

        def forward(self, x):
            f = self.body(x)
            g = self.drop(f)
            return self.suit(g), self.value(g), f

    return Reader()


def train(samples: int, epochs: int, out: str, families: float, seed: int = 1,
          max_minutes: float | None = None, teachers: list[str] | None = None,
          widths: tuple[int, ...] = WIDTHS, thin: float = 0.0, work: str | None = None) -> dict:
    """``teachers``: networks whose joint reading of each end the new one learns to give, half its
    loss (distillation), beside the card's own label. ``widths``: ``build_model``'s. ``thin``: the
    share of family decks drawn with hairline numerals, in training and in its check alike.
    ``work``: a folder keeping the samples and each finished epoch (``trainwork``)."""
    import torch

    if work:
        trainwork.claim(work, dict(samples=samples, epochs=epochs, families=families, seed=seed,
                                   teachers=[os.path.abspath(t) for t in teachers or []],
                                   widths=list(widths), thin=thin))
    torch.manual_seed(seed)
    t0 = time.time()
    x, y = trainwork.arrays(work, "samples", lambda: dataset(
        samples, seed, design_base=TRAIN_DESIGNS.start, families=families, thin=thin))
    xv, yv = trainwork.arrays(work, "check", lambda: dataset(
        max(1000, samples // 20), seed + 7, design_base=0, families=1.0, validation=True, thin=thin))
    print(f"data: {len(x)} training crops, {len(xv)} check crops in {time.time() - t0:.0f} s", flush=True)
    soft = trainwork.arrays(work, "teachers", lambda: ensemble_targets(x, teachers)) if teachers else None
    model = build_model(widths)
    lr = 3e-3
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    batch = 256
    ends_total = 2 * len(x)
    steps = epochs * ((ends_total + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    done, acc, minutes_before = 0, 0.0, 0.0
    state_path = os.path.join(work, trainwork.STATE) if work else None
    if state_path and os.path.exists(state_path):
        state = torch.load(state_path, weights_only=False)  # written by this function, below
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])
        sched.load_state_dict(state["schedule"])
        torch.set_rng_state(state["rng"])
        done, acc, minutes_before = state["epochs"], state["check_accuracy"], state["minutes"]
        print(f"going on after epoch {done}/{epochs} (check accuracy {acc:.4f}), kept in {work}", flush=True)
    for epoch in range(done, epochs):
        model.train()
        perm = torch.randperm(ends_total).numpy()
        total = 0.0
        for k, i in enumerate(range(0, ends_total, batch)):
            idx = perm[i:i + batch]
            inputs, suits, values = patch_batch(x, y, idx)
            opt.zero_grad()
            suit, value, _ = model(inputs)
            loss = loss_fn(suit, suits) + loss_fn(value, values)
            if soft is not None:
                taught_suit, taught_value = torch.from_numpy(soft[0][idx]), torch.from_numpy(soft[1][idx])
                loss = 0.5 * loss + 0.5 * (
                    -(taught_suit * torch.log_softmax(suit, 1)).sum(1).mean()
                    - (taught_value * torch.log_softmax(value, 1)).sum(1).mean())
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(suits)
            if k % 50 == 0:
                _bar(f"epoch {epoch + 1}/{epochs}", i, ends_total, t0)
        acc = evaluate(model, xv, yv)
        print(f"\repoch {epoch + 1}/{epochs}: loss {total / ends_total:.3f}, check accuracy {acc:.4f} "
              f"({time.time() - t0:.0f} s)", flush=True)
        done = epoch + 1
        minutes = minutes_before + (time.time() - t0) / 60
        if state_path:
            with written_whole(state_path) as f:
                torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(),
                            "schedule": sched.state_dict(), "rng": torch.get_rng_state(), "epochs": done,
                            "check_accuracy": acc, "minutes": minutes}, f)
        if max_minutes is not None and minutes > max_minutes and done < epochs:
            print(f"out of time after {epoch + 1} epochs: exporting this model", flush=True)
            break
    model.eval()
    temperatures = calibrate(model, xv, yv)
    export(model, out, temperatures)
    return {"samples": len(y), "epochs": done, "check_accuracy": round(acc, 4),
            "temperatures": [round(t, 3) for t in temperatures],
            "train_designs": [TRAIN_DESIGNS.start, TRAIN_DESIGNS.stop], "families": families,
            "train_families": list(designs.TRAINING), "family_seeds": [0, FAMILY_SEEDS],
            "minutes": round(minutes_before + (time.time() - t0) / 60, 1),
            **({"teachers": [os.path.basename(t) for t in teachers]} if teachers else {}),
            **({"widths": list(widths)} if widths != WIDTHS else {}),
            **({"thin": thin} if thin else {})}


def _logits(model, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    import torch
    suits, values = [], []
    with torch.no_grad():
        for i in range(0, len(x), 1024):
            s, v, _ = model(torch.from_numpy(to_blob(ends(list(x[i:i + 1024])))))
            suits.append(s.numpy())
            values.append(v.numpy())
    return np.concatenate(suits), np.concatenate(values)


def evaluate(model, x: np.ndarray, y: np.ndarray, temperatures: tuple[float, float] = (1.0, 1.0)) -> float:
    from .classifier import card_probabilities
    model.eval()
    suit, value = _logits(model, x)
    p = card_probabilities(suit / temperatures[0], value / temperatures[1])
    return float((p.argmax(1) == y).mean())


def calibrate(model, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Temperatures of the suit and the value heads that best predict the check crops (least log
    loss of the card's combined answer), so a card the reader is unsure of says so."""
    from .classifier import card_probabilities
    suit, value = _logits(model, x)
    best = (np.inf, 1.0, 1.0)
    for ts in np.geomspace(0.5, 4, 16):
        for tv in np.geomspace(0.5, 4, 16):
            p = card_probabilities(suit / ts, value / tv)
            loss = -np.log(p[np.arange(len(y)), y] + 1e-9).mean()
            if loss < best[0]:
                best = (loss, float(ts), float(tv))
    print(f"calibrated: suit temperature {best[1]:.2f}, value temperature {best[2]:.2f}", flush=True)
    return best[1], best[2]


def export(model, out: str, temperatures: tuple[float, float] = (1.0, 1.0)) -> None:
    """ONNX with three outputs: the suit and value logits (divided by their temperatures) and the
    features before them (for deck profiles), in the graph's fastest form for OpenCV (``winograd``)."""
    import torch

    class Calibrated(torch.nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, x):
            f = self.net.body(x)
            return self.net.suit(f) / temperatures[0], self.net.value(f) / temperatures[1], f

    dummy = torch.zeros(1, CHANNELS, PATCH_ROWS, finder.CROP[0])
    torch.onnx.export(Calibrated(model).eval(), (dummy,), out, dynamo=False, opset_version=17,
                      input_names=["patch"], output_names=["suit", "value", "features"],
                      dynamic_axes={"patch": {0: "n"}, "suit": {0: "n"}, "value": {0: "n"}, "features": {0: "n"}})
    winograd.rewrite_file(out)  # its third stage's convolutions as OpenCV runs them fastest


def writable_out(out: str) -> str:
    """``out``, its folder made if missing: checked before an hour of training, not after it."""
    folder = os.path.dirname(os.path.abspath(out))
    try:
        os.makedirs(folder, exist_ok=True)
        problem = None if os.access(folder, os.W_OK) else "the folder is read-only"
    except OSError as e:
        problem = e.strerror
    if problem:
        raise SystemExit(f"cannot write the model to {out}: {problem}; pass --out with a file in a folder "
                         "you can write to")
    return out


def main() -> None:
    p = argparse.ArgumentParser(description="train the card reader on rendered cards")
    # the defaults are the shipped model's recipe (models/README.md)
    p.add_argument("--samples", type=int, default=100000, help="card crops (each gives both its ends)")
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--families", type=float, default=0.6,
                   help="share of decks from the training design families (the rest: the renderer's designs)")
    p.add_argument("--max-minutes", type=float, help="stop after the epoch that passes this time and export")
    p.add_argument("--seed", type=int, default=8, help="seed of the samples and of the training")
    p.add_argument("--out", help="where to write the model (default: the installed models package, which "
                                 "is the checkout's models/ folder in an editable install)")
    p.add_argument("--teachers", nargs="+", metavar="ONNX",
                   help="networks whose joint reading the new one learns too (one network as sure as several)")
    p.add_argument("--widths", type=int, nargs=6, default=list(WIDTHS), metavar="N",
                   help="channels of the six convolutions (fewer: a faster network)")
    p.add_argument("--work", metavar="DIR",
                   help="keep the samples and each finished epoch here: run again with the same options "
                        "after a stop to go on from the last finished epoch")
    p.add_argument("--thin", type=float, default=0.0,
                   help="share of the family decks drawn with hairline numerals (designs' thin style)")
    args = p.parse_args()
    for path in args.teachers or []:
        if not os.path.isfile(path):
            raise SystemExit(f"no teacher network at {path}")
    args.out = writable_out(args.out or str(model_resource()))
    try:
        import torch  # noqa: F401
    except ImportError:
        raise SystemExit("training needs torch: pip install -e '.[train]'") from None
    info = train(args.samples, args.epochs, args.out, args.families, seed=args.seed, max_minutes=args.max_minutes,
                 teachers=args.teachers, widths=tuple(args.widths), thin=args.thin, work=args.work)
    with open(os.path.splitext(args.out)[0] + ".json", "w") as f:
        json.dump(info, f, indent=1)
    print(json.dumps(info))


if __name__ == "__main__":
    main()
