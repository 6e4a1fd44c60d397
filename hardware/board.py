"""Which machine this is: a Raspberry Pi (a real table) or anything else (demo mode)."""

from __future__ import annotations

from pathlib import Path

MODEL = Path("/proc/device-tree/model")


def model() -> str:
    """The board's model string, e.g. "Raspberry Pi 5 Model B Rev 1.0"; "" elsewhere."""
    try:
        return MODEL.read_text(errors="replace").strip("\x00\n ")
    except OSError:
        return ""


def is_raspberry_pi() -> bool:
    return "Raspberry Pi" in model()
