"""The environment a test gives a real `dicetable run` process: off screen, mock GPIO,
its own data and settings in the test's folder, and nothing of the developer's
DICETABLE_* or NOTIFY_* variables."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
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


class RunningApp:
    """`dicetable run` in a process of its own, off screen, with a notify socket
    standing in for systemd's: what it says (READY=1, STATUS=..., WATCHDOG=1) is read
    with ``wait_for``; its log goes to a file (a pipe could fill and block it)."""

    def __init__(self, tmp_path: Path, *args: str, **extra: str) -> None:
        self.tmp_path = tmp_path
        self.args = args
        self.address = tmp_path / "notify.sock"
        self.env = app_env(tmp_path, NOTIFY_SOCKET=str(self.address), **extra)
        self.said: list[str] = []

    def __enter__(self) -> RunningApp:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.address))
        self.log = (self.tmp_path / "app.log").open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "dicetable.device.cli", "run", *self.args],
            env=self.env,
            stdout=self.log,
            stderr=self.log,
        )
        return self

    def wait_for(self, text: str, timeout: float = 60.0) -> str:
        """The first message (since the start) containing ``text``."""
        deadline = time.monotonic() + timeout
        while True:
            for message in self.said:
                if text in message:
                    return message
            left = deadline - time.monotonic()
            if left <= 0 or self.process.poll() is not None:
                raise AssertionError(
                    f"no {text!r} from the app; it said {self.said};"
                    f" exit {self.process.poll()}; log:\n{self.log_text()[-3000:]}"
                )
            self.sock.settimeout(min(left, 0.5))
            with contextlib.suppress(TimeoutError):
                self.said.append(self.sock.recv(4096).decode("utf-8"))

    def log_text(self) -> str:
        self.log.flush()
        return (self.tmp_path / "app.log").read_text()

    def __exit__(self, *exc: object) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()
        self.sock.close()
