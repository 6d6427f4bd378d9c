"""A training's work kept in a folder (``python -m vision.train --work DIR``): the samples once
made, and the state after each finished epoch. Training takes one to three hours on two cores;
stopped by a power cut or a machine shut down, it goes on from its last finished epoch when run
again with the same options, and ends with the network it would have made unstopped."""
from __future__ import annotations

import json
import os
from collections.abc import Callable

import numpy as np

from .wholefile import written_whole

RECIPE = "recipe.json"
STATE = "epoch.pt"


def claim(folder: str, recipe: dict) -> None:
    """``folder`` for the work of ``recipe`` (the options that shape the network): made if missing.
    One holding another recipe's work stops training at once rather than mixing the two."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, RECIPE)
    if not os.path.exists(path):
        with written_whole(path) as f:
            f.write(json.dumps(recipe, indent=1, sort_keys=True).encode())
        return
    with open(path, encoding="utf-8") as f:
        kept = json.load(f)
    differ = sorted(k for k in set(kept) | set(recipe) if kept.get(k) != recipe.get(k))
    if differ:
        raise SystemExit(f"{folder} holds the work of another training (its {', '.join(differ)} differ); "
                         "run with the same options to go on with it, or pass another --work folder")


def arrays(folder: str | None, name: str, make: Callable[[], tuple[np.ndarray, ...]]) -> tuple[np.ndarray, ...]:
    """What ``make`` returns, kept in ``folder`` as ``name``: made once, read back when run again
    (an hour of samples is not made twice). No folder: made every time."""
    if folder is None:
        return make()
    path = os.path.join(folder, f"{name}.npz")
    if os.path.exists(path):
        with np.load(path) as kept:
            return tuple(kept[f"a{i}"] for i in range(len(kept.files)))
    made = make()
    with written_whole(path) as f:
        np.savez(f, **{f"a{i}": a for i, a in enumerate(made)})  # type: ignore[arg-type]  # no array is named allow_pickle
    return made
