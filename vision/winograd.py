"""The card networks' graphs in the form OpenCV convolves fastest, reading exactly as trained.

OpenCV's fast convolution takes a 3x3 convolution through Winograd's F(6x6, 3x3) only when its
input is at least 12 pixels high and wide; smaller inputs go by the general path, which on OpenCV 5
is about three times as slow per multiply-add. A card end's third stage is 10 x 16 pixels, so its
two convolutions, a third of the network's work, went the slow way. Here each such convolution is
given its zero border as a Pad of its own and no padding itself: the same sums, on a 12 x 18 input.
The training's export applies it (``train.export``); ``python -m vision.winograd FILE...``
applies it to networks exported before.
"""
from __future__ import annotations

import argparse
from typing import Any

import numpy as np

WINOGRAD_SIDE = 12  # OpenCV's fast convolution: the least input height and width it takes through Winograd


def _onnx() -> Any:
    try:
        import onnx
    except ImportError:
        raise SystemExit("rewriting a network needs the onnx package: pip install -e '.[train]'") from None
    return onnx


def _same_3x3(node: Any) -> bool:
    """A 3x3 convolution, one step at a time, bordered by a pixel each side: its output as large as its input."""
    onnx = _onnx()
    a = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
    return (node.op_type == "Conv" and a.get("kernel_shape") == [3, 3] and a.get("pads") == [1, 1, 1, 1]
            and a.get("strides", [1, 1]) == [1, 1] and a.get("dilations", [1, 1]) == [1, 1] and a.get("group", 1) == 1)


def _sides(model: Any) -> dict[str, tuple[int, int]]:
    """Height and width of every four-dimensional tensor of the graph whose size is known."""
    onnx = _onnx()
    inferred = onnx.shape_inference.infer_shapes(model)
    sides = {}
    for info in [*inferred.graph.input, *inferred.graph.value_info, *inferred.graph.output]:
        dims = info.type.tensor_type.shape.dim
        if len(dims) == 4 and all(d.HasField("dim_value") for d in dims[2:]):
            sides[info.name] = (dims[2].dim_value, dims[3].dim_value)
    return sides


def too_small(model: Any) -> list[str]:
    """The 3x3 convolutions OpenCV would take the slow way that their own zero border, padded
    apart, brings to Winograd's size."""
    sides = _sides(model)
    names = []
    for node in model.graph.node:
        if not _same_3x3(node) or node.input[0] not in sides:
            continue
        small = min(sides[node.input[0]])
        if small < WINOGRAD_SIDE <= small + 2:
            names.append(node.name)
    return names


def rewrite(model: Any) -> list[str]:
    """Pads apart the zero border of each convolution of ``too_small`` in ``model`` (in place);
    the names of those rewritten. A second rewrite finds none."""
    onnx = _onnx()
    chosen = set(too_small(model))
    graph = model.graph
    nodes = []
    for node in graph.node:
        if node.name in chosen:
            border = f"{node.name}/border"
            graph.initializer.append(onnx.numpy_helper.from_array(np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64),
                                                                  border))
            padded = f"{node.input[0]}/padded"
            nodes.append(onnx.helper.make_node("Pad", [node.input[0], border], [padded], name=f"{node.name}/Pad",
                                               mode="constant"))
            node.input[0] = padded
            for attribute in node.attribute:
                if attribute.name == "pads":
                    attribute.ints[:] = [0, 0, 0, 0]
        nodes.append(node)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    return [n for n in (node.name for node in graph.node) if n in chosen]


def rewrite_file(path: str) -> list[str]:
    """``rewrite`` on the network at ``path``, saved in place when anything changed."""
    onnx = _onnx()
    model = onnx.load(path)
    changed = rewrite(model)
    if changed:
        onnx.save(model, path)
    return changed


def main() -> None:
    p = argparse.ArgumentParser(description="give a card network's small convolutions their zero border apart, "
                                            "so OpenCV runs them through Winograd (the network reads the same)")
    p.add_argument("networks", nargs="+", metavar="ONNX")
    for path in p.parse_args().networks:
        try:
            changed = rewrite_file(path)
        except OSError as e:
            raise SystemExit(f"cannot rewrite {path}: {e.strerror or e}") from None
        except Exception as e:  # protobuf's DecodeError: the file is no ONNX network
            raise SystemExit(f"cannot rewrite {path}: it is not an ONNX network ({type(e).__name__})") from None
        print(f"{path}: {', '.join(changed) if changed else 'already in the fast form'}")


if __name__ == "__main__":
    main()
