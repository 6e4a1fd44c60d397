"""The camera and the dice reader in a process of their own.

Python threads share one interpreter lock, and a reader busy in Python code would
make the screen stutter; the process only sends its results (and a small preview).
The table talks to it with typed messages (``UseProfile``, ``ReadArea``,
``ThrowDice``, ``StopReading``) and hears ``TrayReport``s back.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from dicetable.device.config import Config
from dicetable.device.table.devices import camera_and_watcher, reader_for
from dicetable.device.table.tray_reading import TrayReport, safe_stop, tray_reports

log = logging.getLogger(__name__)

POLL_SECONDS = 0.5  # how often the table side looks whether it must stop
JOIN_SECONDS = 3.0  # how long a stopping process may take before it is ended


@dataclass(frozen=True)
class UseProfile:
    """Read with this dice profile from the next frame on."""

    name: str


@dataclass(frozen=True)
class ReadArea:
    """Read only this part of the frame (fractions left, top, right, bottom)."""

    area: tuple[float, ...]


@dataclass(frozen=True)
class ThrowDice:
    """The demo tray throws between ``least`` and ``most`` dice; with ``face`` (a
    value and a face name), one die showing that face (the teach flow's "show me")."""

    least: int
    most: int
    face: tuple[int | None, str] | None = None


@dataclass(frozen=True)
class StopReading:
    """Stop reading and end the process."""


TrayMessage = UseProfile | ReadArea | ThrowDice | StopReading


def serve_tray(settings: Config, conn: Any, preview_interval: float) -> None:
    """The tray process: camera and reader from the settings, reports to ``conn``
    until it is sent ``StopReading`` (or the other end goes away)."""
    stop = threading.Event()
    area = [tuple(settings["camera.tray"])]  # replaced whole by the listener
    try:
        camera, watcher = camera_and_watcher(settings)
    except Exception as error:
        conn.send(TrayReport("lost", message=str(error)))
        return

    def listen() -> None:
        with contextlib.suppress(EOFError, OSError):
            while not isinstance(message := conn.recv(), StopReading):
                if isinstance(message, UseProfile):
                    reader = reader_for(message.name, settings.data_dir)
                    if reader is not None:
                        watcher.reader = reader
                elif isinstance(message, ReadArea):
                    area[0] = tuple(message.area)
                elif isinstance(message, ThrowDice) and hasattr(camera, "count"):
                    camera.count = (message.least, message.most)  # the synthetic tray
                    camera.shown = message.face
        stop.set()

    threading.Thread(target=listen, daemon=True).start()
    for report in tray_reports(
        camera,
        watcher,
        timeout=float(settings["camera.timeout"]),
        preview_interval=preview_interval,
        stop=stop,
        area=lambda: area[0],
    ):
        try:
            conn.send(report)
        except (BrokenPipeError, OSError):
            break
    safe_stop(camera)


class TrayLink:
    """The table's end of the tray process. What it is told before the process runs
    (the profile, the area, the dice to throw) it starts with; after, it is sent."""

    def __init__(self, profile: str, area: tuple[float, ...]) -> None:
        self.profile = profile
        self.area = area
        self.throw: ThrowDice | None = None
        self.conn: Any = None  # the pipe, while the process runs
        self._lock = threading.Lock()  # the table and tray threads both send

    def tell(self, message: UseProfile | ReadArea | ThrowDice) -> None:
        """Keep ``message`` for a process that starts later, and send it to the one
        running now (a closed pipe is the reading loop's to notice)."""
        with self._lock:
            if isinstance(message, UseProfile):
                self.profile = message.name
            elif isinstance(message, ReadArea):
                self.area = message.area
            else:
                self.throw = message
            if self.conn is not None:
                with contextlib.suppress(OSError):
                    self.conn.send(message)

    def reports(
        self, settings: Config, preview_interval: float, stop: threading.Event
    ) -> Iterator[TrayReport]:
        """Start the process and yield its reports until ``stop``, then end it."""
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        with self._lock:  # the process starts with the profile of the prompt now
            values = {section: dict(keys) for section, keys in settings.values.items()}
            values["vision"]["profile"] = self.profile
            values["camera"]["tray"] = list(self.area)
            process = context.Process(
                target=serve_tray,
                args=(dataclasses.replace(settings, values=values), theirs, preview_interval),
                name="dicetable-tray",
                daemon=True,
            )
            process.start()
            self.conn = ours
            if self.throw is not None:
                with contextlib.suppress(OSError):
                    ours.send(self.throw)
        said = False  # the process said why it stopped (a camera that cannot open)
        try:
            while not stop.is_set():
                if ours.poll(POLL_SECONDS):
                    try:
                        report = ours.recv()
                    except EOFError:
                        if not said:
                            yield TrayReport("lost", message="the tray process ended")
                        return
                    said = report.state == "lost"
                    yield report
        finally:
            with self._lock:
                self.conn = None
                with contextlib.suppress(OSError):
                    ours.send(StopReading())
            process.join(timeout=JOIN_SECONDS)
            if process.is_alive():
                process.terminate()
