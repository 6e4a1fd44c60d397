"""The shipped networks: they load, run the same through onnxruntime and OpenCV's
dnn module, stay small, carry their model card, and need no training framework."""

from __future__ import annotations

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from dicetable.vision.face_reader import CLASSES, FACE_INPUT
from dicetable.vision.networks import MODELS, Network

MAX_MODEL_BYTES = 5 * 1024 * 1024  # issue 17 item 2: the committed weights, in all


def test_the_committed_weights_are_small():
    total = sum(p.stat().st_size for p in MODELS.rglob("*.onnx"))
    assert 0 < total <= MAX_MODEL_BYTES


@pytest.mark.parametrize(("name", "shape"), [
    ("finder.onnx", (1, 3, 96, 128)),
    ("faces.onnx", (5, 3, FACE_INPUT, FACE_INPUT)),
])  # fmt: skip
def test_onnxruntime_and_opencv_dnn_give_the_same_outputs(name, shape):
    batch = np.random.default_rng(1).normal(0, 1, shape).astype(np.float32)
    ours = Network(MODELS / name).run(batch)
    dnn = cv2.dnn.readNetFromONNX(str(MODELS / name))
    dnn.setInput(batch)
    theirs = dnn.forward(dnn.getUnconnectedOutLayersNames())
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        assert a.shape == b.shape
        assert np.allclose(a, b, atol=1e-3)
    if name == "faces.onnx":
        assert ours[0].shape == (5, len(CLASSES))


def test_the_model_card_says_data_split_command_seed_date_and_scores():
    card = (MODELS / "MODEL_CARD.md").read_text()
    for needed in ("Data and split", "Command:", "Seed", "Date:", "d6-desk/valid",
                   "dice-colours/test", "No photo is stored"):  # fmt: skip
        assert needed in card
    facts = json.loads((MODELS / "models.json").read_text())
    assert 0 < facts["finder_threshold"] < 1 and facts["temperature"] > 0
    assert "Smoke run" not in card
    if facts.get("label_fixes"):
        assert f"{facts['label_fixes']} training labels that name another face" in card
    for left_out in ("dice-colours", "d6-desk"):
        folder = MODELS / "leave-out" / left_out
        if (folder / "MODEL_CARD.md").exists():
            assert json.loads((folder / "models.json").read_text())["without"] == [left_out]
            assert "Left out entirely: " + left_out in (folder / "MODEL_CARD.md").read_text()


def test_reading_needs_no_training_framework():
    """Issue 17 item 3: no torch at run time."""
    code = (
        "import sys, numpy as np\n"
        "from dicetable.vision.reader import DiceReader\n"
        "DiceReader().read(np.full((480, 640, 3), 120, np.uint8))\n"
        "assert 'torch' not in sys.modules, 'torch was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
