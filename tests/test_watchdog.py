"""The watchdog sees the table thread (issue 18, item 7): WATCHDOG=1 reaches systemd's
notify socket only while both the UI loop and the table thread answer; hanging either
one stops the pings, and they come back when it answers again."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dicetable.device import config
from dicetable.device.liveness import Watchdog
from dicetable.device.table.runtime import Runtime

INTERVAL = 0.05  # seconds between beats (half of a WatchdogSec= of 0.1 s)
PHASE = 0.6  # seconds each state is watched: 12 beats


@pytest.fixture
def systemd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    """A datagram socket standing in for systemd's notify socket."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify.sock"))
    sock.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify.sock"))
    yield sock
    sock.close()


def pings(sock: socket.socket) -> int:
    count = 0
    while True:
        try:
            count += sock.recv(64) == b"WATCHDOG=1"
        except BlockingIOError:
            return count


class UiLoop(threading.Thread):
    """Beats like the Kivy clock does, and can be made to hang."""

    def __init__(self, watchdog: Watchdog) -> None:
        super().__init__(daemon=True)
        self.watchdog = watchdog
        self.running = threading.Event()
        self.running.set()
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            self.running.wait()
            self.watchdog.beat()
            time.sleep(INTERVAL)


@pytest.fixture
def table(isolated_data: Path) -> Iterator[Runtime]:
    runtime = Runtime(config.load(), lambda job: None)
    runtime.start()
    yield runtime
    runtime.stop()


def watch(sock: socket.socket) -> int:
    pings(sock)  # what came before
    time.sleep(PHASE)
    return pings(sock)


def test_a_hung_table_thread_stops_the_pings(systemd: socket.socket, table: Runtime):
    loop = UiLoop(Watchdog(table.submit))
    loop.start()
    release = threading.Event()
    try:
        assert watch(systemd) >= 6  # both answer: a ping a beat (a loaded machine: half)
        table.submit(release.wait)  # a rule or a store write that never returns
        time.sleep(2 * INTERVAL)
        assert watch(systemd) == 0
        release.set()
        assert watch(systemd) >= 6
    finally:
        release.set()
        loop.done.set()


def test_a_hung_ui_loop_stops_the_pings(systemd: socket.socket, table: Runtime):
    loop = UiLoop(Watchdog(table.submit))
    loop.start()
    try:
        assert watch(systemd) >= 6
        loop.running.clear()  # the screen is frozen; the table thread is fine
        time.sleep(2 * INTERVAL)
        assert watch(systemd) == 0
        loop.running.set()
        assert watch(systemd) >= 6
    finally:
        loop.done.set()
        loop.running.set()


def test_no_ping_once_the_table_thread_is_shut_down(systemd: socket.socket, table: Runtime):
    watchdog = Watchdog(table.submit)
    table.stop()
    assert watchdog.beat() is False
    assert pings(systemd) == 0
