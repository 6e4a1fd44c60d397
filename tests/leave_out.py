"""The models trained without one shared set, for tests that score a reader on photos
none of its networks saw."""

from __future__ import annotations

from pathlib import Path

import pytest

from dicetable.vision.networks import MODELS


def leave_out_models(left_out: str) -> Path:
    """The folder of the models trained without ``left_out``; the test is skipped,
    saying how to train them, where they are absent."""
    models = MODELS / "leave-out" / left_out
    if not all((models / name).exists() for name in ("finder.onnx", "faces.onnx")):
        pytest.skip(
            f"no models trained without {left_out} in {models}: run"
            f" python -m dicetable.vision.training --without {left_out} --out {models}"
        )
    return models
