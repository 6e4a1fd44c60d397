"""Opening the table's devices: the camera with its dice reader, and the LED ring.

Each opener logs what failed and gives None (or the reason) instead of raising: a
table without a camera or a ring still plays, with dice typed on the screen.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dicetable.device.config import Config

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Devices:
    """What ``open_devices`` found: the camera and its reader (or why there is
    none), the LED ring (or None) and the status LED with its buzzer (or None)."""

    camera: Any = None
    watcher: Any = None
    ring: Any = None
    why: str | None = None  # why there is no camera
    #: nothing opened here: the tray process opens the camera and says how it went
    in_tray_process: bool = False
    status_light: Any = None


def camera_and_watcher(settings: Config) -> tuple[Any, Any]:
    """The camera the settings name and a settle watcher with the configured reader."""
    from dicetable.hardware.camera import open_camera
    from dicetable.vision.profiles import load_profile, make_reader
    from dicetable.vision.settle import SettleWatcher

    camera = open_camera(settings)
    profile = load_profile(settings["vision.profile"], settings.data_dir)
    return camera, SettleWatcher(make_reader(profile), settings["vision.settle_seconds"])


def reader_for(profile: str, data_dir: Path) -> Any:
    """A dice reader with a stored profile, or None (logged) when it cannot load."""
    from dicetable.vision.profiles import ProfileError, load_profile, make_reader

    try:
        return make_reader(load_profile(profile, data_dir))
    except ProfileError as error:
        log.warning("dice profile %r: %s; the reader keeps its profile", profile, error)
        return None


def open_camera_of(settings: Config) -> tuple[Any, Any, str | None]:
    """Camera and reader, or None and why: logged, and the game goes on with dice
    typed on the screen."""
    try:
        from dicetable.hardware.camera import CameraError

        try:
            camera, watcher = camera_and_watcher(settings)
        except (CameraError, OSError, ValueError) as error:
            log.warning("no camera: %s; dice are typed on the screen", error)
            return None, None, str(error)
    except ImportError as error:  # a part not installed: say so, play on
        log.warning("camera or reader unavailable (%s); dice are typed on the screen", error)
        return None, None, str(error)
    return camera, watcher, None


def open_status_light_of(settings: Config) -> Any:
    """The status LED and buzzer ``[status_led]`` asks for, or None (disabled, or
    pins that cannot be claimed: logged, and the table goes on without them)."""
    try:
        from dicetable.hardware.status_light import open_status_light

        return open_status_light(settings)
    except Exception as error:  # a light is decoration: never stop a game for it
        log.warning("status LED off: %s", error)
        return None


def open_ring_of(settings: Config) -> Any:
    """The LED ring the settings ask for, started, or None (logged when it fails)."""
    try:
        from dicetable.hardware.leds import open_ring

        return open_ring(settings)
    except Exception as error:  # the ring is decoration: never stop a game for it
        log.warning("LED ring off: %s", error)
        return None
