"""The shipped networks, loaded for inference on one core.

onnxruntime when it is installed (the fastest on a Pi 4's Cortex-A72), else OpenCV's
dnn module, which reads the same ONNX files and gives the same outputs: the reader
never needs the training framework. One thread each: the Pi's other cores keep the
screen and the rules responsive.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import numpy as np

MODELS = Path(__file__).resolve().parent / "models"
THREADS = 1
DIGEST_CHARS = 16  # of a model file's sha256: enough to tell two trainings apart


def file_digest(path: Path) -> str:
    """A model file's short fingerprint: the same file gives the same one anywhere."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:DIGEST_CHARS]


class ModelError(OSError):
    """A shipped model that is missing or cannot be loaded (a broken install)."""


class Network:
    """One ONNX graph with one input; ``run`` returns its outputs in order."""

    def __init__(self, path: Path) -> None:
        if not path.exists():
            raise ModelError(f"{path}: the shipped model is missing; reinstall dicetable")
        self.path = path
        self._session: Any = None
        self._dnn: Any = None
        try:
            import onnxruntime

            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = THREADS
            options.inter_op_num_threads = THREADS
            options.log_severity_level = 3
            self._session = onnxruntime.InferenceSession(
                str(path), options, providers=["CPUExecutionProvider"]
            )
            self._input = self._session.get_inputs()[0].name
        except ImportError:
            import cv2

            self._dnn = cv2.dnn.readNetFromONNX(str(path))
            self._outputs = self._dnn.getUnconnectedOutLayersNames()
        except Exception as error:  # onnxruntime raises its own types for a bad file
            raise ModelError(f"{path}: cannot be loaded ({error})") from error

    @cached_property
    def digest(self) -> str:
        """A short fingerprint of the file, read only when asked: a taught profile
        keeps it, since its examples are this network's embeddings."""
        return file_digest(self.path)

    def run(self, batch: np.ndarray) -> list[np.ndarray]:
        if self._session is not None:
            return list(self._session.run(None, {self._input: batch}))
        self._dnn.setInput(batch)
        return list(self._dnn.forward(self._outputs))


@cache
def network(name: str, folder: Path = MODELS) -> Network:
    return Network(folder / name)


@cache
def model_facts(folder: Path = MODELS) -> dict[str, Any]:
    """Thresholds and calibration the training run measured (``models.json``)."""
    path = folder / "models.json"
    try:
        return dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as error:
        raise ModelError(f"{path}: cannot be read ({error}); reinstall dicetable") from None
