"""The LED ring around the tray, over USB serial (pyserial), on a thread of its own.

Protocols (``../shared/reference/raspberry-pi-platform-notes.md`` section 4):

* **Adalight** (default): ``"Ada", hi, lo, hi^lo^0x55`` then count x (R, G, B), where
  ``hi, lo`` is count - 1. WLED boards and the plain sketch in
  ``hardware/firmware/ring_adalight`` both take it.
* **WLED JSON** over the same serial link: ``{"seg": {"i": ["RRGGBB", ...]}}``.

WLED leaves realtime mode 2.5 s after the last frame and the sketch blanks after an
idle timeout, so a still picture is resent every ``keepalive`` seconds.

The game never waits on the ring: ``show()`` only swaps the wanted state under a lock
and wakes the writer thread, which renders (``ring_patterns``), writes, and survives an
unplugged cable: the loss is logged once, and the port is reopened with a backoff
until the ring comes back.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from dicetable.hardware.ring_patterns import RGB, Lights, animated, render
from dicetable.hardware.table_lights import TableLights

if TYPE_CHECKING:
    from dicetable.hardware.ring_sim import RingSimulator

log = logging.getLogger(__name__)

ADALIGHT_HELLO = b"Ada\n"
#: USB serial devices a ring can hide behind
CANDIDATE_GLOBS = ("/dev/serial/by-id/*", "/dev/ttyACM*", "/dev/ttyUSB*")


class RingProtocol(StrEnum):
    ADALIGHT = "adalight"
    WLED_JSON = "wled-json"


class RingError(RuntimeError):
    """The ring's settings cannot work (an unknown protocol, no LEDs)."""


def adalight_frame(pixels: Sequence[RGB]) -> bytes:
    """One Adalight frame. The header counts LEDs minus one, so 3 LEDs give
    ``b"Ada\\x00\\x02W"`` (0x00 ^ 0x02 ^ 0x55 = 0x57)."""
    if not pixels:
        raise RingError("an Adalight frame needs at least one LED")
    hi, lo = divmod(len(pixels) - 1, 256)
    body = bytes(channel for pixel in pixels for channel in pixel)
    return b"Ada" + bytes((hi, lo, hi ^ lo ^ 0x55)) + body


def wled_json_frame(pixels: Sequence[RGB]) -> bytes:
    """One frame as WLED's JSON API: every LED of segment 0, no fade, no reply."""
    colours = [f"{r:02X}{g:02X}{b:02X}" for r, g, b in pixels]
    state = {"on": True, "bri": 255, "tt": 0, "seg": {"i": colours}}
    return json.dumps(state, separators=(",", ":")).encode() + b"\n"


ENCODERS: dict[RingProtocol, Callable[[Sequence[RGB]], bytes]] = {
    RingProtocol.ADALIGHT: adalight_frame,
    RingProtocol.WLED_JSON: wled_json_frame,
}


def open_port(port: str, baudrate: int) -> Any:
    """Open a serial port without pulsing DTR/RTS, which resets ESP boards
    (esphome#1382); writes time out rather than hang on a stuck device."""
    import serial

    link = serial.Serial()
    link.port = port
    link.baudrate = baudrate
    link.timeout = 0
    link.write_timeout = 1.0
    link.dtr = False
    link.rts = False
    link.open()
    return link


def candidate_ports() -> list[str]:
    """USB serial ports, stable ``/dev/serial/by-id`` names first, each device once."""
    import glob
    import os

    seen: set[str] = set()
    ports: list[str] = []
    for pattern in CANDIDATE_GLOBS:
        for path in sorted(glob.glob(pattern)):
            real = os.path.realpath(path)
            if real not in seen:
                seen.add(real)
                ports.append(path)
    return ports


def find_ring(
    candidates: Iterable[str] | None = None, listen: float = 2.0, *, baudrate: int
) -> tuple[str, str] | None:
    """The first port whose device announces itself as a ring, and what it is: an
    Adalight sketch prints ``Ada\\n`` at boot and every second while idle
    (``"adalight-sketch"``); a WLED board answers ``v`` with ``WLED <version>``
    (``"wled"``, which takes either protocol). None when no port does."""
    for port in candidate_ports() if candidates is None else candidates:
        try:
            link = open_port(port, baudrate)
        except (OSError, ValueError) as error:
            log.debug("ring autodetect: %s: %s", port, error)
            continue
        try:
            heard = _listen(link, listen, ADALIGHT_HELLO)
            if ADALIGHT_HELLO in heard:
                return port, "adalight-sketch"
            link.write(b"v")
            if b"WLED" in _listen(link, 0.5, b"WLED"):
                return port, "wled"
        except OSError as error:
            log.debug("ring autodetect: %s: %s", port, error)
        finally:
            link.close()
    return None


def _listen(link: Any, seconds: float, until: bytes) -> bytes:
    heard = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and until not in heard:
        chunk = link.read(256)
        if chunk:
            heard += chunk
        else:
            time.sleep(0.02)
    return heard


class LedRing(TableLights):
    """The ring, fed by ``show(lights)`` from any thread; a daemon thread writes.

    ``port`` is a device path or ``"auto"`` (look for a ring that announces itself,
    again after each loss). ``writes`` counts frames written, ``connected`` says
    whether the port is open now.
    """

    def __init__(
        self,
        port: str,
        count: int,
        protocol: RingProtocol | str,
        brightness: float,
        *,
        baudrate: int,
        offset: int,
        fps: float = 30.0,
        keepalive: float = 0.5,
        max_backoff: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if count < 1:
            raise RingError(f"leds.count = {count}: a ring needs at least one LED")
        try:
            self.protocol = RingProtocol(protocol)
        except ValueError:
            allowed = ", ".join(p.value for p in RingProtocol)
            raise RingError(f"leds.protocol = {protocol!r} must be one of {allowed}") from None
        self.port = port
        self.count = count
        self.brightness = brightness
        self.baudrate = baudrate
        self.offset = offset % count
        self.fps = fps
        self.keepalive = keepalive
        self.max_backoff = max_backoff
        super().__init__(clock)
        self.simulator: RingSimulator | None = None  # set by open_ring for port "sim"
        self.writes = 0
        self.last_frame: bytes = b""
        self._stopping = False
        self._link: Any = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ------------------------------------------------------------------

    def start(self) -> LedRing:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="led-ring", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Blank the ring (when connected), stop the writer and close the port."""
        with self._changed:
            self._stopping = True
            self._changed.notify()
        if self._thread is not None:
            self._thread.join(timeout=3)
            self._thread = None
        if self.simulator is not None:
            self.simulator.close()

    def __enter__(self) -> LedRing:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def connected(self) -> bool:
        return self._link is not None

    # -- the writer thread --------------------------------------------------------------

    def _run(self) -> None:
        backoff = 0.5
        retry_at = 0.0
        lost = False  # logged once per outage
        last_sent = -1e9
        while True:
            with self._changed:
                if self._stopping:
                    break
                lights, dirty = self._lights, self._dirty
                self._dirty = False
            now = self.clock()
            if self._link is None:
                if now < retry_at:
                    self._wait(retry_at - now)
                    continue
                try:
                    link = self._connect()
                except (OSError, ValueError) as error:
                    if not lost:
                        log.warning(
                            "LED ring on %s not available (%s); retrying in the background",
                            self.port,
                            error,
                        )
                        lost = True
                    retry_at = self.clock() + backoff
                    backoff = min(backoff * 2, self.max_backoff)
                    continue
                if lost:
                    log.warning("LED ring back on %s", link.port)
                else:
                    log.info("LED ring on %s (%s, %d LEDs)", link.port, self.protocol, self.count)
                lost, backoff, dirty = False, 0.5, True
            moving = animated(lights, now)
            if dirty or moving or now - last_sent >= self.keepalive:
                early = self.link_interval - (now - last_sent)
                if early > 0:  # changes faster than the link carries them: latest wins
                    time.sleep(early)
                    with self._changed:
                        lights, self._dirty = self._lights, False
                    now = self.clock()
                try:
                    self._write(lights, now)
                    last_sent = now
                except (OSError, ValueError) as error:  # SerialException is an OSError
                    log.warning(
                        "LED ring on %s lost (%s); reconnecting in the background",
                        self.port,
                        error,
                    )
                    lost = True
                    self._disconnect()
                    retry_at = self.clock() + backoff
                    continue
            self._wait(self.interval if moving else self.keepalive - (self.clock() - last_sent))
        self._blank()
        self._disconnect()

    @property
    def link_interval(self) -> float:
        """Seconds the serial link needs for one frame (8N1: 10 bits a byte), kept
        to 80 % of its speed; frames never go out faster than this."""
        adalight = self.protocol is RingProtocol.ADALIGHT
        size = 6 + 3 * self.count if adalight else 40 + 9 * self.count
        return size * 10 / self.baudrate / 0.8

    @property
    def interval(self) -> float:
        """Seconds between the frames of an animation (WLED parses JSON slowly, so
        that protocol is kept to 10 frames a second)."""
        fps = self.fps if self.protocol is RingProtocol.ADALIGHT else min(self.fps, 10.0)
        return max(1 / fps, self.link_interval)

    def _wait(self, seconds: float) -> None:
        with self._changed:
            if not self._dirty and not self._stopping and seconds > 0:
                self._changed.wait(seconds)

    def _connect(self) -> Any:
        """Open the ring's port (the one that announces itself, for ``auto``)."""
        port = self.port
        if port == "auto":
            found = find_ring(baudrate=self.baudrate)
            if found is None:
                raise OSError("no ring announced itself on a USB serial port")
            port, kind = found
            if kind == "adalight-sketch" and self.protocol is not RingProtocol.ADALIGHT:
                log.info("the ring on %s runs the Adalight sketch: speaking Adalight", port)
                self.protocol = RingProtocol.ADALIGHT
        self._link = open_port(port, self.baudrate)
        return self._link

    def _write(self, lights: Lights, now: float) -> None:
        pixels = render(lights, self.count, now, self.brightness)
        if self.offset:
            pixels = pixels[-self.offset :] + pixels[: -self.offset]
        frame = ENCODERS[self.protocol](pixels)
        self._link.write(frame)
        self.last_frame = frame
        self.writes += 1

    def _blank(self) -> None:
        if self._link is not None:
            try:
                self._link.write(ENCODERS[self.protocol]([(0, 0, 0)] * self.count))
                self._link.flush()
            except (OSError, ValueError):
                pass

    def _disconnect(self) -> None:
        if self._link is not None:
            with contextlib.suppress(OSError, ValueError):
                self._link.close()
            self._link = None


def open_ring(settings: Mapping[str, Any] | Any, demo: bool = False) -> LedRing | None:
    """The ring the ``[leds]`` settings ask for, started; None when ``port`` is empty
    (in ``demo`` mode an empty port means the simulator). ``port = "sim"`` starts the
    built-in simulator on a pseudo-terminal, so demo mode goes through the real serial
    code; ``ring.simulator.picture()`` draws what it received (BGR). Every key of the
    section is read: the settings come over their documented defaults."""
    section = (
        settings.section("leds") if hasattr(settings, "section") else _section(settings, "leds")
    )
    port = str(section["port"]) or ("sim" if demo else "")
    if not port:
        return None
    count = int(section["count"])
    protocol = section["protocol"]
    simulator = None
    if port == "sim":
        from dicetable.hardware.ring_sim import RingSimulator

        simulator = RingSimulator(count, protocol=protocol).start()
        port = simulator.port
    ring = LedRing(
        port,
        count,
        protocol,
        float(section["brightness"]),
        baudrate=int(section["baudrate"]),
        offset=int(section["offset"]),
    )
    ring.simulator = simulator
    return ring.start()


def _section(settings: Mapping[str, Any], name: str) -> dict[str, Any]:
    """A plain dict of settings: either the section itself or ``{name: section}``."""
    inner = settings.get(name)
    return dict(inner) if isinstance(inner, Mapping) else dict(settings)
