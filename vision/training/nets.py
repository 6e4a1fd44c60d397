"""The two networks, in torch (training only; the reader runs their ONNX export).

Both are small on purpose: the finder is about 0.1 M parameters and a few ms at 512 px
on one core, the shipped face reader (widths 32, 64, 128, 160) about 0.7 M and about a
millisecond a crop, so a Pi 4 reads a settled tray in tens of milliseconds.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper
from torch import nn

from dicetable.vision.face_reader import CLASSES, FACE_INPUT
from dicetable.vision.training.trays import PRINTS

# The face reader's conv widths by stage; the last is its embedding's length.
FACE_WIDTHS = (32, 64, 128, 160)
# Weights with fewer values than this stay float32 when stored (a layer's scale and
# shift: halving them saves nothing worth their precision).
HALVED_FROM = 64


def conv(inputs: int, outputs: int, stride: int = 1, dilation: int = 1, groups: int = 1):
    return nn.Sequential(
        nn.Conv2d(inputs, outputs, 3, stride, dilation, dilation=dilation, groups=groups,
                  bias=False),
        nn.BatchNorm2d(outputs),
        nn.ReLU(inplace=True),
    )  # fmt: skip


def separable(inputs: int, outputs: int, stride: int = 1, dilation: int = 1):
    """Depthwise 3x3 then pointwise 1x1 (MobileNet): most of a 3x3's reach for a ninth."""
    return nn.Sequential(
        conv(inputs, inputs, stride, dilation, groups=inputs),
        nn.Conv2d(inputs, outputs, 1, bias=False),
        nn.BatchNorm2d(outputs),
        nn.ReLU(inplace=True),
    )


def merge(inputs: int, outputs: int):
    return nn.Sequential(
        nn.Conv2d(inputs, outputs, 1, bias=False),
        nn.BatchNorm2d(outputs),
        nn.ReLU(inplace=True),
        separable(outputs, outputs),
    )


class FinderNet(nn.Module):
    """Stride-4 heatmap of top-face centres and their log side; a stride-16 context
    (dilated, about 150 px of reach) told back to stride 8 and 4 (a small FPN)."""

    def __init__(self, widths: tuple[int, int, int, int] = (16, 32, 64, 96)) -> None:
        super().__init__()
        a, b, c, d = widths
        self.s2 = conv(3, a, 2)
        self.s4 = nn.Sequential(conv(a, b, 2), separable(b, b))
        self.s8 = nn.Sequential(separable(b, c, 2), separable(c, c))
        self.s16 = nn.Sequential(separable(c, d, 2), separable(d, d, dilation=2),
                                 separable(d, d, dilation=4))  # fmt: skip
        self.m8 = merge(d + c, c)
        self.m4 = merge(c + b, b)
        spread = separable(b, b)
        heat_and_side = nn.Conv2d(b, 2, 1)
        bias = heat_and_side.bias
        assert bias is not None  # a Conv2d has a bias unless asked not to
        with torch.no_grad():
            bias[0] = -4.0  # start near "no die anywhere" (focal loss)
        self.head = nn.Sequential(spread, heat_and_side)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        x4 = self.s4(self.s2(image))
        x8 = self.s8(x4)
        x16 = self.s16(x8)
        up = nn.functional.interpolate(x16, scale_factor=2.0, mode="nearest")
        y8 = self.m8(torch.cat([up, x8], 1))
        up = nn.functional.interpolate(y8, scale_factor=2.0, mode="nearest")
        return self.head(self.m4(torch.cat([up, x4], 1)))


class FaceNet(nn.Module):
    """Four conv stages on a 48 px crop, global average pooling, an embedding, classes.

    The last stage (6 x 6) has two convs: with one, the reader fitted only 97.4% of
    the real training dice on their labels' own boxes; with two (and glints), 98.7%,
    for a tenth more compute, since that stage is the smallest.

    A second head on the embedding names the print of a rendered symbol face
    (``trays.PRINTS``); training alone uses it, and the export leaves it out. Without
    it every symbol is one class, and the embedding, which taught profiles tell faces
    apart by, puts a star as near a skull as two skulls are to each other."""

    def __init__(self, widths: tuple[int, int, int, int] = FACE_WIDTHS) -> None:
        super().__init__()
        a, b, c, embedding = widths
        self.body = nn.Sequential(
            conv(3, a), nn.MaxPool2d(2),
            conv(a, b), conv(b, b), nn.MaxPool2d(2),
            conv(b, c), conv(c, c), nn.MaxPool2d(2),
            conv(c, embedding), conv(embedding, embedding),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )  # fmt: skip
        self.drop = nn.Dropout(0.2)
        self.classes = nn.Linear(embedding, len(CLASSES))
        self.prints = nn.Linear(embedding, PRINTS)

    def forward(self, crop: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        embedding = self.body(crop)
        return self.classes(self.drop(embedding)), embedding


def export(model: nn.Module, path: Path, example: torch.Tensor, outputs: list[str]) -> None:
    """ONNX with dynamic batch (and, for the finder, dynamic height and width), its
    weights stored in half precision."""
    model.eval()
    axes = {"image": {0: "batch", 2: "height", 3: "width"}} if len(outputs) == 1 else {
        "image": {0: "batch"}, **{name: {0: "batch"} for name in outputs}}  # fmt: skip
    torch.onnx.export(model, (example,), str(path), input_names=["image"], output_names=outputs,
                      dynamic_axes=axes, opset_version=17, dynamo=False)  # fmt: skip
    store_half(path)


def store_half(path: Path) -> None:
    """Rewrite the ONNX file at ``path`` with its float weights stored as float16, each
    cast back to float32 in the graph: half the bytes (the committed weights are kept
    within issue 17's 5 MB), while onnxruntime and OpenCV fold the casts when they
    load it and so still compute in float32, at the same speed."""
    model = onnx.load(str(path))
    graph = model.graph
    kept, casts = [], []
    for weight in graph.initializer:
        values = numpy_helper.to_array(weight)
        if values.dtype != np.float32 or values.size < HALVED_FROM:
            kept.append(weight)
            continue
        half = numpy_helper.from_array(values.astype(np.float16), f"{weight.name}.half")
        kept.append(half)
        casts.append(helper.make_node("Cast", [half.name], [weight.name], to=TensorProto.FLOAT))
    del graph.initializer[:]
    graph.initializer.extend(kept)
    nodes = casts + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def face_example() -> torch.Tensor:
    return torch.zeros(1, 3, FACE_INPUT, FACE_INPUT)
