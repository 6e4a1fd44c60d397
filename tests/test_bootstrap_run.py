"""Issue 15 item 5: `./bootstrap.sh run` where no screen can be opened says so in one
go and exits, rather than running silently for minutes (it checks before it installs
anything, so it answers at once)."""

from __future__ import annotations

import glob
import os
import subprocess
from pathlib import Path

import pytest

BOOTSTRAP = Path(__file__).resolve().parent.parent / "bootstrap.sh"


@pytest.mark.skipif(bool(glob.glob("/dev/dri/card*")), reason="this machine has a display")
def test_run_without_a_display_says_so_and_exits() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("SDL_VIDEODRIVER", None)
    done = subprocess.run(
        ["bash", str(BOOTSTRAP), "run"], env=env, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 1
    assert "no display here" in done.stderr and "cli play dice-tray" in done.stderr
    assert "installing" not in done.stdout + done.stderr  # said before any install
