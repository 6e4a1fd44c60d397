"""What is wrong at the table, by topic, and the words that say it (and the tray
view's and prompt bar's lines about the same causes).

A move the SD card cannot take, a settings file with a mistake, no camera, a ring
that does not answer: each is kept as a ``Notice`` on its topic until its cause goes,
and every change is posted to the screens. The wording lives here, beside the order
the screens show notices in, so a maintainer finds every sentence in one place.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from pathlib import Path

from dicetable.device.table.snapshots import Notice
from dicetable.rules.core import Msg, msg

Post = Callable[[Callable[[], None]], None]
NoticeListener = Callable[[tuple[Notice, ...]], None]

#: the most pressing first: a move that cannot be saved, then the rest
ORDER = ("disk", "game", "settings", "camera", "dice", "buttons", "ring")
ENOSPC, EROFS = 28, 30  # errno of a full and of a read-only file system


class Notices:
    """The notices shown now; any thread may say or unsay one."""

    def __init__(self, post: Post, listeners: list[NoticeListener]) -> None:
        self._post = post
        self._listeners = listeners
        self._lock = threading.Lock()
        self._shown: dict[str, Msg] = {}

    def say(self, topic: str, text: Msg | None) -> None:
        """Say (or, with None, stop saying) something wrong about ``topic``; a change
        is posted to the listeners."""
        with self._lock:
            if self._shown.get(topic) == text:
                return
            if text is None:
                del self._shown[topic]
            else:
                self._shown[topic] = text
        shown = self.shown()
        for listener in self._listeners:
            self._post(functools.partial(listener, shown))

    def shown(self) -> tuple[Notice, ...]:
        with self._lock:
            shown = dict(self._shown)
        order = {topic: index for index, topic in enumerate(ORDER)}
        return tuple(
            Notice(topic, text)
            for topic, text in sorted(shown.items(), key=lambda item: order.get(item[0], 99))
        )


def no_camera_words(why: str) -> Msg:
    return msg(
        "No camera: {why}. Type the dice on the screen. Check the camera's cable, "
        "then restart the table.",
        why=why.rstrip("."),
    )


def camera_lost_words(why: str) -> Msg:
    return msg(
        "Camera lost: {why}. Type the dice on the screen meanwhile; the camera "
        "is tried again every few seconds.",
        why=why.rstrip("."),
    )


def no_ring_words(port: str) -> Msg:
    if port == "auto":  # leds.port = "auto": it looks on every USB serial port
        return msg(
            "No LED ring answers on a USB serial port: the game goes on without it. "
            "Check its USB cable; it comes back by itself."
        )
    return msg(
        "The LED ring does not answer on {port}: the game goes on without it. "
        "Check its USB cable; it comes back by itself.",
        port=port,
    )


def cannot_resume_words(saved_id: int, error: BaseException) -> Msg:
    why = error.args[0] if isinstance(error, KeyError) and error.args else error
    return msg(
        "Saved game #{id} cannot be resumed: {why}. It is kept as it is; start a new "
        "game or resume another.",
        id=saved_id,
        why=str(why).rstrip("."),
    )


def disk_words(error: BaseException, folder: Path) -> Msg:
    """What a write that failed means at the table, and what to do about it."""
    text = str(error)
    if "full" in text or getattr(error, "errno", None) == ENOSPC:
        return msg(
            "Not saved: the SD card is full. Every game stays as it was last saved. "
            "Free some space in {folder}, then try again.",
            folder=str(folder),
        )
    if "read-only" in text or "readonly" in text or getattr(error, "errno", None) == EROFS:
        return msg(
            "Not saved: the SD card has turned read-only (a failing card or a power "
            "problem). Every game stays as it was last saved. Restart the table; if it "
            "happens again, replace the card.",
        )
    return msg("Not saved: {why}. Every game stays as it was last saved.", why=text.rstrip("."))


def no_camera_line(why: str) -> Msg:
    """The tray view's one line when there is no camera (the notice says what to do)."""
    return msg("No camera: {why}", why=why)


def camera_lost_line(why: str) -> Msg:
    """The tray view's one line while the camera gives no pictures."""
    return msg("Camera lost: {why}", why=why)


#: the tray view's line when the tray reader could not even be started (a bug: logged)
CAMERA_DID_NOT_START = msg("The camera did not start")
#: a correction made on a picture the tray has moved on from
DICE_MOVED = msg("The dice moved: correct them on the new picture.")

#: GPIO buttons asked for (or a Pi's, with ``auto``) that could not be claimed
BUTTONS_OFF = msg(
    "The buttons are off: a GPIO pin could not be used (the journal says which and why). "
    "Play with the screen; restart the table once the pins are free."
)

#: the prompt bar's line while a move cannot be saved (the notice says what to do)
NOT_SAVED = msg("Not saved: the SD card cannot be written (see the notice above).")


def dice_not_taught_words(title: Msg | str) -> Msg:
    return msg(
        "{dice}: not taught on this table yet, so read as plain pips."
        " Teach them in Menu, Settings.",
        dice=title,
    )
