"""What a tray report means for the players: the tray view's snapshot and the camera
notice, worked out from the report alone (and whether a picture ever came).

A camera that never gave a picture is "no camera" (check the cable, restart); one
that gave pictures and stops is "camera lost" (tried again every few seconds);
pictures again clear the notice.
"""

from __future__ import annotations

from dataclasses import dataclass

from dicetable.device.table import notices
from dicetable.device.table.snapshots import TraySnapshot
from dicetable.device.table.tray_reading import TrayReport
from dicetable.rules.core import Msg

NO_PICTURE = "no picture"  # the reason said when a report gives none


@dataclass(frozen=True)
class CameraState:
    """The tray view to show, the camera notice (None: nothing wrong) and whether the
    camera has given a picture by now."""

    tray: TraySnapshot
    notice: Msg | None
    camera_seen: bool


def after(report: TrayReport, camera_seen: bool) -> CameraState:
    """The state once ``report`` came, after a camera that had (``camera_seen``) or had
    not yet given a picture."""
    state = report.state
    message = notices.camera_lost_line(report.message) if report.message else None
    if state == "lost" and not camera_seen:  # it never gave a picture
        state, message = "no_camera", notices.no_camera_line(report.message)
        notice: Msg | None = notices.no_camera_words(report.message or NO_PICTURE)
    elif state == "lost":
        notice = notices.camera_lost_words(report.message or NO_PICTURE)
    else:
        notice, camera_seen = None, True  # pictures again
    tray = TraySnapshot(
        state,
        report.dice,
        report.preview,
        report.frame_size,
        message,
        report.spent,
        report.frame_id,
    )
    return CameraState(tray, notice, camera_seen)


def reader_stopped(error: BaseException) -> CameraState:
    """The tray reader itself failed (a bug, logged): the game goes on with typed dice."""
    why = f"the tray reader stopped ({error})"
    tray = TraySnapshot("no_camera", message=notices.no_camera_line(why))
    return CameraState(tray, notices.no_camera_words(why), camera_seen=False)
