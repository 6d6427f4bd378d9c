"""The shipped networks' small convolutions are given their zero border apart, so OpenCV runs them
through Winograd (`vision/winograd.py`), and they read exactly as the networks were trained."""
import copy

import numpy as np
import onnx
import pytest

from vision import winograd
from vision.classifier import CHANNELS, MODEL_NAMES, PATCH_ROWS, _read_net, _shipped_model
from vision.finder import CROP


@pytest.fixture(scope="module", params=MODEL_NAMES)
def shipped(request):
    return onnx.load_from_string(_shipped_model(request.param).read_bytes())


def as_exported(model):
    """``model`` as the training exported it: each Pad before a convolution folded back into the
    convolution's own border."""
    model = copy.deepcopy(model)
    pads = {n.output[0]: n for n in model.graph.node if n.op_type == "Pad"}
    for node in model.graph.node:
        if node.op_type == "Conv" and node.input[0] in pads:
            node.input[0] = pads[node.input[0]].input[0]
            next(a for a in node.attribute if a.name == "pads").ints[:] = [1, 1, 1, 1]
    kept = [n for n in model.graph.node if n.op_type != "Pad"]
    del model.graph.node[:]
    model.graph.node.extend(kept)
    borders = {n.input[1] for n in pads.values()}
    weights = [w for w in model.graph.initializer if w.name not in borders]
    del model.graph.initializer[:]
    model.graph.initializer.extend(weights)
    return model


def net_of(model, folder):
    """``model`` as the box reads a network (``classifier._read_net``: OpenCV's classic engine)."""
    path = str(folder / f"{id(model)}.onnx")
    onnx.save(model, path)
    return _read_net(path)


def readings(net, blob):
    net.setInput(blob)
    return net.forward(["suit", "value", "features"])


def test_no_shipped_convolution_is_left_too_small_for_winograd(shipped):
    assert winograd.too_small(shipped) == []
    assert winograd.too_small(as_exported(shipped)) == ["/body/body.11/Conv", "/body/body.14/Conv"]


def test_the_rewritten_network_reads_as_the_exported_one_to_rounding(shipped, tmp_path):
    blob = np.random.default_rng(3).normal(0.3, 0.8, (6, CHANNELS, PATCH_ROWS, CROP[0])).astype(np.float32)
    fast, exported = (readings(net_of(m, tmp_path), blob) for m in (shipped, as_exported(shipped)))
    for a, b in zip(fast, exported, strict=True):
        assert np.abs(a - b).max() < 1e-4 * max(1.0, float(np.abs(b).max()))
    assert (fast[0].argmax(1) == exported[0].argmax(1)).all() and (fast[1].argmax(1) == exported[1].argmax(1)).all()


def test_rewriting_the_exported_network_gives_the_shipped_one_and_a_second_rewrite_nothing(shipped, tmp_path):
    path = str(tmp_path / "net.onnx")
    onnx.save(as_exported(shipped), path)
    assert winograd.rewrite_file(path) == ["/body/body.11/Conv", "/body/body.14/Conv"]
    again = onnx.load(path)
    assert [(n.op_type, list(n.input), list(n.output)) for n in again.graph.node] == \
        [(n.op_type, list(n.input), list(n.output)) for n in shipped.graph.node]
    before = open(path, "rb").read()
    assert winograd.rewrite_file(path) == [] and open(path, "rb").read() == before
    assert len(_read_net(path).getLayerNames()) == len(net_of(shipped, tmp_path).getLayerNames())


def test_the_command_says_what_it_rewrote_and_what_it_cannot(shipped, tmp_path, capsys, monkeypatch):
    path = tmp_path / "net.onnx"
    onnx.save(as_exported(shipped), str(path))
    monkeypatch.setattr("sys.argv", ["winograd", str(path)])
    winograd.main()
    assert "/body/body.11/Conv, /body/body.14/Conv" in capsys.readouterr().out
    monkeypatch.setattr("sys.argv", ["winograd", str(tmp_path / "missing.onnx")])
    with pytest.raises(SystemExit) as stopped:
        winograd.main()
    assert "cannot rewrite" in str(stopped.value)
    (tmp_path / "notes.onnx").write_text("not a network")
    monkeypatch.setattr("sys.argv", ["winograd", str(tmp_path / "notes.onnx")])
    with pytest.raises(SystemExit) as stopped:
        winograd.main()
    assert "not an ONNX network" in str(stopped.value)
