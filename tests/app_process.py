"""The environment a test gives a real `dicetable run` process: off screen, mock GPIO,
its own data and settings in the test's folder, and nothing of the developer's
DICETABLE_* or NOTIFY_* variables."""

from __future__ import annotations

import os
from pathlib import Path


def app_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DICETABLE_", "NOTIFY_"))}
    return env | {
        "DICETABLE_DATA": str(tmp_path / "data"),
        "DICETABLE_CONFIG": str(tmp_path / "config.toml"),
        "SDL_VIDEODRIVER": "offscreen",
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_FILELOG": "1",
        "KIVY_LOG_MODE": "PYTHON",
        "KIVY_HOME": str(tmp_path / "kivy"),
        "GPIOZERO_PIN_FACTORY": "mock",
        **extra,
    }
