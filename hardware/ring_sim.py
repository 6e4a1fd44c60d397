"""A simulated LED ring on a pseudo-terminal: the twin of a WLED board or the
Adalight sketch, for tests, demo mode and ``dicetable ring-sim``.

The app opens ``simulator.port`` exactly as it opens ``/dev/ttyACM0``, so the real
serial code runs end to end. The simulator checks every frame the way firmware would
(the ``Ada`` header, its checksum, the LED count, a frame that stops short, stray
bytes between frames) and keeps the errors, so a test can assert there were none.
Like the real devices it can announce itself (``Ada\\n`` every second while idle, or
``WLED ...`` in answer to ``v``), be unplugged and plugged back in (``link`` is then
a stable symlink, like ``/dev/serial/by-id/...``), and draw what it shows as a
picture.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import threading
import time
import tty
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dicetable.hardware.ring_patterns import RGB

#: a frame that stops short for longer than this is reported and dropped
STALL_SECONDS = 0.5
WLED_VERSION = b"WLED 0.15.0 (dicetable simulator)\n"


@dataclass(frozen=True)
class Frame:
    pixels: tuple[RGB, ...]
    at: float  # time.monotonic() when the last byte arrived
    protocol: str  # "adalight" | "wled-json"


class RingSimulator:
    """``announce``: None (quiet), ``"ada"`` (the sketch's hello) or ``"wled"``."""

    def __init__(
        self,
        count: int,
        protocol: str = "adalight",
        announce: str | None = None,
        link: Path | str | None = None,
        keep: int = 512,
    ) -> None:
        self.count = count
        self.protocol = str(protocol)
        self.announce = announce
        self.link = Path(link) if link is not None else None
        self.frames: deque[Frame] = deque(maxlen=keep)
        self.errors: list[str] = []
        self.received = 0  # frames accepted since start
        self._buffer = bytearray()
        self._partial_since: float | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._slave_name = ""
        self._arrived = threading.Condition()
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._last_hello = 0.0

    # -- the device side ------------------------------------------------------------

    @property
    def port(self) -> str:
        """What the app opens: the stable link when there is one."""
        return str(self.link) if self.link is not None else self._slave_name

    def start(self) -> RingSimulator:
        self._plug()
        self._thread = threading.Thread(target=self._run, name="ring-sim", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stopping = True
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        self._unplug()
        if self.link is not None and self.link.is_symlink():
            self.link.unlink()

    def __enter__(self) -> RingSimulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def unplug(self) -> None:
        """Pull the cable: the app's next write fails."""
        with self._arrived:
            self._unplug()
            if self.link is not None and self.link.is_symlink():
                self.link.unlink()

    def replug(self) -> None:
        """Plug back in: a new device node, found again through ``link``."""
        with self._arrived:
            self._plug()

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(master)
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self._slave_name = os.ttyname(slave)
        self._buffer.clear()
        self._partial_since = None
        if self.link is not None:
            temporary = self.link.with_name(self.link.name + ".new")
            temporary.unlink(missing_ok=True)
            temporary.symlink_to(self._slave_name)
            temporary.replace(self.link)
        if self.announce == "ada":
            self._send(b"Ada\n")

    def _unplug(self) -> None:
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None

    def _send(self, data: bytes) -> None:
        if self._master is not None:
            with contextlib.suppress(OSError):
                os.write(self._master, data)

    def _run(self) -> None:
        while not self._stopping:
            master = self._master
            if master is None:
                time.sleep(0.02)
                continue
            try:
                ready, _, _ = select.select([master], [], [], 0.05)
                chunk = os.read(master, 65536) if ready else b""
            except (OSError, ValueError):  # unplugged under our feet
                time.sleep(0.02)
                continue
            now = time.monotonic()
            with self._arrived:
                if chunk:
                    self._buffer += chunk
                    self._parse(now)
                self._check_stall(now)
                quiet = not self.frames or now - self.frames[-1].at > 1.0
            if self.announce == "ada" and quiet and now - self._last_hello >= 1.0:
                self._last_hello = now
                self._send(b"Ada\n")  # the sketch's "I'm here" while idle

    # -- checking frames --------------------------------------------------------------

    def _parse(self, now: float) -> None:
        buf = self._buffer
        while buf:
            head = buf[:1]
            if head == b"A":
                consumed = self._adalight(buf, now)
            elif head == b"{":
                consumed = self._json(buf, now)
            else:
                consumed = True
                self._other(buf)
            if not consumed:
                return  # a frame is on its way; _check_stall watches it
            self._partial_since = None

    def _other(self, buf: bytearray) -> None:
        if buf[:1] == b"v":
            del buf[:1]
            if self.announce == "wled":
                self._send(WLED_VERSION)
        elif bytes(buf[:1]) in (b"\n", b"\r"):
            del buf[:1]
        else:
            stray = 1
            while stray < len(buf) and bytes(buf[stray : stray + 1]) not in (b"A", b"{"):
                stray += 1
            self._error(f"{stray} stray byte(s) between frames: {bytes(buf[:8])!r}")
            del buf[:stray]

    def _adalight(self, buf: bytearray, now: float) -> bool:
        """Consume one Adalight frame; False when more bytes are needed."""
        if len(buf) < 6:
            if not b"Ada".startswith(bytes(buf[:3])):
                self._error(f"bad Adalight header {bytes(buf[:3])!r}")
                del buf[:1]
                return True
            return self._wait_more(now)
        if buf[:3] != b"Ada":
            self._error(f"bad Adalight header {bytes(buf[:3])!r}")
            del buf[:1]
            return True
        hi, lo, check = buf[3], buf[4], buf[5]
        if hi ^ lo ^ 0x55 != check:
            self._error(f"bad Adalight checksum: {hi:#04x} ^ {lo:#04x} ^ 0x55 != {check:#04x}")
            del buf[:3]
            return True
        leds = hi * 256 + lo + 1
        size = 6 + 3 * leds
        if len(buf) < size:
            return self._wait_more(now)
        body = bytes(buf[6:size])
        del buf[:size]
        pixels = tuple((body[i], body[i + 1], body[i + 2]) for i in range(0, len(body), 3))
        self._accept(pixels, now, "adalight")
        return True

    def _json(self, buf: bytearray, now: float) -> bool:
        end = buf.find(b"\n")
        if end < 0:
            return self._wait_more(now)
        text = bytes(buf[:end])
        del buf[: end + 1]
        try:
            state = json.loads(text)
            colours = state["seg"]["i"]
            pixels = tuple((int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)) for c in colours)
        except (ValueError, KeyError, TypeError, IndexError) as error:
            self._error(f"bad WLED JSON frame ({error}): {text[:40]!r}")
            return True
        self._accept(pixels, now, "wled-json")
        return True

    def _accept(self, pixels: tuple[RGB, ...], now: float, protocol: str) -> None:
        if len(pixels) != self.count:
            self._error(f"{protocol} frame for {len(pixels)} LEDs; the ring has {self.count}")
            return
        self.frames.append(Frame(pixels, now, protocol))
        self.received += 1
        self._arrived.notify_all()

    def _wait_more(self, now: float) -> bool:
        if self._partial_since is None:
            self._partial_since = now
        return False

    def _check_stall(self, now: float) -> None:
        if self._partial_since is not None and now - self._partial_since > STALL_SECONDS:
            self._error(f"frame stopped short: {len(self._buffer)} bytes then silence")
            self._buffer.clear()
            self._partial_since = None

    def _error(self, text: str) -> None:
        self.errors.append(text)
        self._arrived.notify_all()

    # -- what the tests and the screen look at -------------------------------------------

    @property
    def latest(self) -> Frame | None:
        with self._arrived:
            return self.frames[-1] if self.frames else None

    def wait_for(
        self,
        predicate: Callable[[Frame], bool] = lambda frame: True,
        timeout: float = 2.0,
        after: int = 0,
    ) -> Frame | None:
        """The first kept frame numbered above ``after`` (pass ``received`` to wait
        for a new one) that satisfies ``predicate``; None after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            seen = after
            while True:
                fresh = min(self.received - seen, len(self.frames))
                for frame in list(self.frames)[-fresh:] if fresh > 0 else []:
                    if predicate(frame):
                        return frame
                seen = self.received
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._arrived.wait(left)

    def picture(self, size: int = 240, pixels: tuple[RGB, ...] | None = None) -> np.ndarray:
        """The ring as a BGR image: LED 0 at the top, clockwise."""
        import cv2

        if pixels is None:
            frame = self.latest
            pixels = frame.pixels if frame else ((0, 0, 0),) * self.count
        image = np.full((size, size, 3), 24, np.uint8)
        centre = size / 2
        radius = size * 0.38
        dot = max(2, int(size * 0.9 / max(len(pixels), 8)))
        cv2.circle(image, (int(centre), int(centre)), int(radius), (60, 60, 60), 1, cv2.LINE_AA)
        for i, (r, g, b) in enumerate(pixels):
            angle = -np.pi / 2 + 2 * np.pi * i / len(pixels)
            x = round(centre + radius * np.cos(angle))
            y = round(centre + radius * np.sin(angle))
            cv2.circle(image, (x, y), dot, (b, g, r), -1, cv2.LINE_AA)
            cv2.circle(image, (x, y), dot, (90, 90, 90), 1, cv2.LINE_AA)
        return image

    def save_png(self, path: Path | str, size: int = 240) -> Path:
        import cv2

        path = Path(path)
        if not cv2.imwrite(str(path), self.picture(size)):
            raise OSError(f"{path}: the ring picture could not be written")
        return path
