"""The composition root: the one place that knows every adapter of the table.

The runtime is built with the settings and a way to post to the screen; the camera
(in the tray process), its reader, the LED ring, the status LED and the GPIO buttons
are opened here and handed to it (``Runtime.use_devices``). ``dicetable run`` opens
them after the home screen is shown (``start_devices``, ``open_buttons_of``); tests
and benchmarks open them at once (``compose``).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable
from typing import Any

from dicetable.device.config import Config
from dicetable.device.table import notices
from dicetable.device.table.devices import (
    Devices,
    open_camera_of,
    open_ring_of,
    open_status_light_of,
)
from dicetable.device.table.runtime import Post, Runtime
from dicetable.hardware.actions import TableAction

log = logging.getLogger(__name__)

RING_GRACE_SECONDS = 5.0  # a ring that has not answered by then is said on the screen
RING_CHECK_SECONDS = 1.0


def compose(settings: Config, post: Post, *, demo: bool = False) -> Runtime:
    """The runtime the settings ask for, with its camera, reader and LED ring opened
    here. ``demo`` uses the synthetic tray and the simulated ring."""
    if demo:
        settings = demo_settings(settings)
    runtime = Runtime(settings, post)
    runtime.use_devices(open_devices(settings))
    return runtime


def open_devices(settings: Config) -> Devices:
    """Camera and reader, LED ring, status LED. A device that cannot be opened is
    logged and left out (``why``); the game goes on with dice typed on the screen."""
    camera, watcher, why = open_camera_of(settings)
    return Devices(
        camera, watcher, open_ring_of(settings), why, status_light=open_status_light_of(settings)
    )


def start_devices(
    runtime: Runtime,
    *,
    ring_grace: float = RING_GRACE_SECONDS,
    check_every: float = RING_CHECK_SECONDS,
) -> None:
    """Start the tray process, which opens the camera and its reader, and open
    the LED ring and the status LED, on a thread of their own; then watch the ring. The app calls
    it once the home screen is shown: OpenCV, numpy, the dice reader and a Pi
    camera take a second or more to come up, and the table is usable meanwhile
    (the tray says "Starting camera…" until the first picture, dice can be typed).
    None of them is imported in this process, whose interpreter lock the screen
    needs."""

    def body() -> None:
        try:
            ring, status = open_ring_of(runtime.settings), open_status_light_of(runtime.settings)
            runtime.use_devices(Devices(ring=ring, status_light=status, in_tray_process=True))
        except Exception:  # a bug here must not stop a game: dice can be typed
            log.exception("the camera and LED ring could not be started")
            runtime.show_no_camera(notices.CAMERA_DID_NOT_START)
            return
        runtime.watch_ring(ring_grace, check_every)

    threading.Thread(target=body, name="devices", daemon=True).start()


def open_buttons_of(
    runtime: Runtime,
    deliver: Callable[[TableAction], None],
    repeats: Callable[[TableAction], bool] | None = None,
) -> Any:
    """The GPIO buttons the settings ask for, delivering their actions, or None; buttons
    that were asked for (``gpio``, or ``auto`` on a Pi) but could not be claimed are
    said in a notice (the journal says which pin and why). ``repeats``: when a held
    button repeats (``hardware.buttons``; never without it)."""
    from dicetable.hardware.buttons import never, on_a_pi, open_buttons

    source = runtime.settings["buttons.source"]
    wanted = source == "gpio" or (source == "auto" and on_a_pi())
    opened = open_buttons(runtime.settings, deliver, repeats or never)  # logs why it could not
    if opened is None and wanted:
        runtime.notice("buttons", notices.BUTTONS_OFF)
    return opened


def demo_settings(settings: Config) -> Config:
    """Demo mode: the synthetic tray, the simulated ring, keys for buttons."""
    values = {section: dict(keys) for section, keys in settings.values.items()}
    values["camera"]["source"] = "synthetic"
    values["leds"]["port"] = "sim"
    values["buttons"]["source"] = "keyboard"
    return dataclasses.replace(settings, values=values)
