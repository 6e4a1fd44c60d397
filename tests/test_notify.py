"""sd_notify: READY, WATCHDOG, STOPPING and STATUS reach a notify socket the way systemd
listens for them, and nothing happens without one (issue 10, item 2)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from app_process import app_env

from dicetable.hardware import notify


class NotifySocket:
    """A datagram socket standing in for systemd's notify socket."""

    def __init__(self, address: str, sock: socket.socket) -> None:
        self.address = address
        self.sock = sock

    def messages(self) -> list[str]:
        received = []
        while True:
            try:
                received.append(self.sock.recv(4096).decode("utf-8"))
            except BlockingIOError:
                return received


@pytest.fixture
def systemd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[NotifySocket]:
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield NotifySocket(str(path), sock)
    sock.close()


def test_ready_watchdog_and_stopping_arrive_as_datagrams(systemd: NotifySocket):
    assert notify.ready("Home screen")
    assert notify.watchdog()
    assert notify.stopping()
    assert systemd.messages() == ["READY=1\nSTATUS=Home screen", "WATCHDOG=1", "STOPPING=1"]


def test_status_is_kept_on_one_line(systemd: NotifySocket):
    assert notify.status("Camera missing:\n  type the dice")
    assert systemd.messages() == ["STATUS=Camera missing: type the dice"]


def test_abstract_socket_names_start_with_at(monkeypatch: pytest.MonkeyPatch):
    name = f"dicetable-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert notify.watchdog()
        assert sock.recv(100) == b"WATCHDOG=1"


def test_without_systemd_every_call_is_a_no_op(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert not notify.ready()
    assert not notify.watchdog()
    assert not notify.stopping()
    assert notify.watchdog_interval() is None


def test_a_vanished_socket_is_logged_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
):
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone.sock"))
    monkeypatch.setattr(notify, "_warned", False)
    assert not notify.watchdog()
    assert not notify.watchdog()
    assert [r.message for r in caplog.records].count(
        f"cannot notify systemd at {tmp_path / 'gone.sock'}: [Errno 2] No such file or directory"
    ) == 1


@pytest.mark.parametrize(
    ("usec", "pid", "expected"),
    [("30000000", None, 15.0), ("30000000", "self", 15.0), ("30000000", "1", None),
     ("0", None, None), ("soon", None, None)],
)  # fmt: skip
def test_watchdog_interval_is_half_of_watchdog_sec(
    monkeypatch: pytest.MonkeyPatch, usec: str, pid: str | None, expected: float | None
):
    """sd_watchdog_enabled(3): ping at half the interval; WATCHDOG_PID names the process."""
    monkeypatch.setenv("WATCHDOG_USEC", usec)
    if pid is None:
        monkeypatch.delenv("WATCHDOG_PID", raising=False)
    else:
        monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()) if pid == "self" else pid)
    assert notify.watchdog_interval() == expected


def has_run_command() -> bool:
    from dicetable.device.cli import build_parser

    return "run" in build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]


@pytest.mark.skipif(not has_run_command(), reason="`dicetable run` has not landed")
def test_the_real_app_sends_ready_then_watchdog_pings(systemd: NotifySocket, tmp_path: Path):
    """`dicetable run`, off screen, as the unit starts it: READY=1 once the home screen
    is up, then WATCHDOG=1 every WATCHDOG_USEC/2 from the UI loop; on SIGTERM,
    STOPPING=1 and exit status 0."""
    env = app_env(
        tmp_path,
        NOTIFY_SOCKET=systemd.address,
        WATCHDOG_USEC="600000",  # a ping every 0.3 s
    )
    log = (tmp_path / "app.log").open("w")  # a file, not a pipe that could fill and block
    app = subprocess.Popen(
        [sys.executable, "-m", "dicetable.device.cli", "run"],
        env=env,
        stdout=log,
        stderr=log,
    )
    systemd.sock.setblocking(True)
    systemd.sock.settimeout(60)
    try:
        received: list[str] = []
        while sum(m == "WATCHDOG=1" for m in received) < 2:
            try:
                received.append(systemd.sock.recv(4096).decode())
            except TimeoutError:
                pytest.fail(f"got {received}; log: {(tmp_path / 'app.log').read_text()[-2000:]}")
        first_ready = next(i for i, m in enumerate(received) if m.startswith("READY=1"))
        assert first_ready < received.index("WATCHDOG=1")
        app.terminate()  # what `systemctl stop` sends: a clean stop, announced
        while not (message := systemd.sock.recv(4096).decode()).startswith("STOPPING=1"):
            assert message == "WATCHDOG=1", message
        assert app.wait(timeout=15) == 0
    finally:
        app.terminate()
        try:
            app.wait(timeout=15)
        except subprocess.TimeoutExpired:
            app.kill()
            app.wait()
        log.close()
