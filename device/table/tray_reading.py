"""Frames in, tray reports out: the loop the tray thread (or the tray process) runs.

Only the tray area is given to the settle watcher, so a cup or a spare die beside the
tray is never read; the dice come back at full-frame pixels, numbered by the frame
they were read on, and the preview shows the whole frame.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dicetable.device.table.snapshots import FULL_FRAME
from dicetable.vision.reading import DieReading

if TYPE_CHECKING:  # the camera module loads OpenCV, which the screen's process never needs
    from dicetable.hardware.camera import FrameSource

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0  # a camera that fails is opened again this often
PREVIEW_WIDTH = 480  # pixels: the UI uploads at most a few previews a second


@dataclass(frozen=True)
class TrayReport:
    """One report from the tray reader: picklable, so it can come from a process."""

    state: str
    dice: tuple[DieReading, ...] = ()
    preview: Any = None
    frame_size: tuple[int, int] = (0, 0)
    spent: float = 0.0
    changed: bool = True
    frame: Any = None  # the full frame, only with a new settled reading (corrections)
    message: str = ""
    box: tuple[int, int, int, int] | None = None  # the tray area read, pixels of frame
    #: the number (since the reading began) of the frame the dice were read on: the
    #: one sent as ``frame`` with the report that first said them
    frame_id: int = 0


def tray_reports(
    camera: FrameSource,
    watcher: Any,
    *,
    timeout: float,
    preview_interval: float,
    stop: threading.Event,
    clock: Callable[[], float] = time.monotonic,
    area: Callable[[], Sequence[float]] = lambda: FULL_FRAME,
) -> Iterator[TrayReport]:
    """Frames in, readings out, until ``stop``. A camera that fails is reported
    (``lost``) and retried every ``RETRY_SECONDS``; the game goes on with typed dice
    meanwhile. A report is made for every change and otherwise at most once per
    preview. The tray ``area`` is asked each frame, so a new one applies at once."""
    from dicetable.hardware.camera import CameraError

    last_preview = 0.0
    started = False
    failed = ""  # the last failure logged
    frame_id = 0
    read_on = 0  # the frame the settled dice were read on
    while not stop.is_set():
        try:
            if not started:
                camera.start()
                started = True
            frame = camera.read(timeout=timeout)
        except CameraError as error:  # the same failure again is not news for the journal
            log.log(logging.DEBUG if str(error) == failed else logging.WARNING, "camera: %s", error)
            failed = str(error)
            yield TrayReport("lost", message=str(error))
            started = False
            safe_stop(camera)
            stop.wait(RETRY_SECONDS)
            continue
        if frame is None:
            continue
        failed = ""
        frame_id += 1
        now = clock()
        began = time.perf_counter()
        box = tray_box(area(), frame.shape[1], frame.shape[0])
        left, top, right, bottom = box
        update = watcher.update(frame[top:bottom, left:right], now)
        spent = time.perf_counter() - began
        state = str(getattr(update.state, "value", update.state))
        state = "hand" if state == "hand in view" else state
        if update.changed or now - last_preview >= preview_interval:
            last_preview = now
            settled = state == "settled" and update.changed
            if settled:
                read_on = frame_id
            yield TrayReport(
                state,
                in_frame(getattr(update, "reading", None), (left, top), read_on),
                preview(frame),
                (frame.shape[1], frame.shape[0]),
                spent,
                update.changed,
                frame if settled else None,
                box=box,
                frame_id=read_on,
            )
    if started:
        safe_stop(camera)


def tray_box(area: Sequence[float], width: int, height: int) -> tuple[int, int, int, int]:
    """The tray area (fractions left, top, right, bottom) in pixels of a frame of
    ``width`` x ``height``: whole pixels, inside the frame, at least 1 px wide."""
    left, top, right, bottom = (min(max(float(v), 0.0), 1.0) for v in area)
    x0, y0 = min(round(left * width), width - 1), min(round(top * height), height - 1)
    x1, y1 = max(round(right * width), x0 + 1), max(round(bottom * height), y0 + 1)
    return x0, y0, x1, y1


def in_frame(
    reading: Any, origin: tuple[int, int] = (0, 0), frame_id: int = 0
) -> tuple[DieReading, ...]:
    """The dice of a vision reading (a ``FrameReading``) at full-frame pixels
    (``origin``: where the part read lies in the frame), stamped with ``frame_id``."""
    if reading is None:
        return ()
    return tuple(
        dataclasses.replace(
            die, x=float(die.x) + origin[0], y=float(die.y) + origin[1], frame_id=frame_id
        )
        for die in reading.dice
    )


def preview(frame: Any, width: int = PREVIEW_WIDTH) -> Any:
    """A small RGB copy of ``frame`` for the screen."""
    import cv2

    height = max(1, round(frame.shape[0] * width / frame.shape[1]))
    small = cv2.resize(frame, (width, height), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2RGB)


def safe_stop(camera: FrameSource) -> None:
    try:
        camera.stop()
    except Exception:
        log.debug("camera stop failed", exc_info=True)
