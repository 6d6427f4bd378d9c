"""A training's work kept in a folder: samples made once, another recipe's folder refused, and a
file written whole or not at all (what a stopped training goes on from)."""
import json

import numpy as np
import pytest

from vision import trainwork, wholefile


def test_samples_are_made_once_and_read_back_the_same(tmp_path):
    made = []

    def make():
        made.append(1)
        rng = np.random.default_rng(4)
        return rng.integers(0, 255, (5, 4, 3, 3), dtype=np.uint8), np.arange(5)

    first = trainwork.arrays(str(tmp_path), "samples", make)
    again = trainwork.arrays(str(tmp_path), "samples", make)
    assert len(made) == 1
    assert len(again) == 2
    assert all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(first, again, strict=True))
    # without a folder nothing is kept
    trainwork.arrays(None, "samples", make)
    trainwork.arrays(None, "samples", make)
    assert len(made) == 3


def test_a_folder_holding_another_recipes_work_is_refused_with_what_differs(tmp_path):
    folder = str(tmp_path / "work")
    recipe = {"samples": 100, "epochs": 8, "seed": 8}
    trainwork.claim(folder, recipe)
    trainwork.claim(folder, dict(recipe))  # the same recipe goes on
    assert json.loads((tmp_path / "work" / trainwork.RECIPE).read_text()) == recipe
    with pytest.raises(SystemExit, match=r"another training \(its epochs, seed differ\).*another --work"):
        trainwork.claim(folder, {"samples": 100, "epochs": 9, "seed": 9})


def test_a_file_stopped_while_written_leaves_what_was_there(tmp_path):
    path = tmp_path / "epoch.pt"
    with wholefile.written_whole(str(path)) as f:
        f.write(b"epoch 1")
    with pytest.raises(KeyboardInterrupt), wholefile.written_whole(str(path)) as f:
        f.write(b"epoch 2, half")
        raise KeyboardInterrupt
    assert path.read_bytes() == b"epoch 1"
    assert [p.name for p in tmp_path.iterdir()] == ["epoch.pt"]
    # and samples stopped while made are not kept as if whole
    with pytest.raises(KeyboardInterrupt):
        trainwork.arrays(str(tmp_path), "samples", lambda: (_ for _ in ()).throw(KeyboardInterrupt))
    assert not (tmp_path / "samples.npz").exists()
