"""sd_notify: READY, WATCHDOG, STOPPING and STATUS reach a notify socket the way systemd
listens for them, and nothing happens without one (issue 10, item 2)."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

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
