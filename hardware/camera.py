"""Camera sources: every way a frame of the tray reaches ``vision``, behind one protocol.

* ``PiCameraSource``: a Pi camera through picamera2 (imported lazily: it only exists
  in Raspberry Pi OS's apt packages). ``RGB888`` frames, which picamera2 lays out as
  B, G, R in memory, i.e. what OpenCV wants; exposure, gain and white balance are
  locked after a warm-up and the lens is set to a fixed focus, so the tray looks the
  same from the first roll to the last.
* ``OpenCVSource``: a USB webcam (``/dev/videoN``) or a video file, replayed in a loop.
* ``FolderSource``: a folder of photos replayed in name order, each held long enough
  for the dice to count as settled.
* ``SyntheticSource``: a tray rendered by ``synthetic_tray``: a hand reaches in, dice
  roll and settle, again and again; demo mode on a machine without any camera.

Every frame is an H x W x 3 uint8 array in **BGR** order. A camera that cannot be
opened, or that stops delivering frames, raises ``CameraError`` naming the source,
and the app goes on with dice entered by hand.

Over 500 lines on purpose: the four sources share one plumbing class, one error
and one protocol, and are read side by side when a camera misbehaves.
"""

from __future__ import annotations

import glob
import logging
import random
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol, Self, runtime_checkable

import cv2
import numpy as np

from dicetable.hardware import board
from dicetable.vision.images import ImageError, load_image

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}
ROTATIONS = {
    90: cv2.ROTATE_90_CLOCKWISE,
    180: cv2.ROTATE_180,
    270: cv2.ROTATE_90_COUNTERCLOCKWISE,
}


class CameraError(RuntimeError):
    """The camera cannot give frames; the message names the source and says why."""


@runtime_checkable
class FrameSource(Protocol):
    """What ``vision`` reads frames from. ``read`` returns the next BGR frame or
    raises ``CameraError`` after ``timeout`` seconds without one."""

    name: str

    def start(self) -> None: ...
    def read(self, timeout: float = 1.0) -> np.ndarray: ...
    def stop(self) -> None: ...
    def __enter__(self) -> Self: ...
    def __exit__(self, *exc: object) -> None: ...


class _Source:
    """Shared plumbing: context manager, rotation, a clear error before ``start``."""

    name = "camera"

    def __init__(self, rotation: int = 0) -> None:
        if rotation not in (0, *ROTATIONS):
            raise CameraError(f"{self.name}: rotation {rotation} must be 0, 90, 180 or 270")
        self.rotation = rotation
        self.started = False

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"

    def start(self) -> None:
        self.started = True

    def stop(self) -> None:
        self.started = False

    def _check_started(self) -> None:
        if not self.started:
            raise CameraError(f"{self.name}: read before start()")

    def _turn(self, frame: np.ndarray) -> np.ndarray:
        return cv2.rotate(frame, ROTATIONS[self.rotation]) if self.rotation else frame


# -- the Pi camera ----------------------------------------------------------------------


class PiCameraSource(_Source):
    """A Pi camera (Camera Module 2/3, HQ) through picamera2.

    ``focus`` is the lens position in dioptres (1 / metres; a tray 40 cm below is
    2.5); 0 runs one autofocus cycle at start and then keeps that position. Cameras
    without autofocus ignore it.
    """

    def __init__(
        self,
        width: int,
        height: int,
        fps: int,
        rotation: int,
        *,
        focus: float,
        index: int = 0,
        warmup: float = 1.0,
    ) -> None:
        self.name = f"Pi camera {index}"
        super().__init__(rotation)
        self.size = (width, height)
        self.fps = fps
        self.index = index
        self.warmup = warmup
        self.focus = focus
        self.locked: dict[str, Any] = {}  # the controls set after warm-up
        self._camera: Any = None

    def start(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as error:
            raise CameraError(
                f"{self.name}: picamera2 is not available ({error}); on Raspberry Pi OS "
                "install python3-picamera2 and make the venv with --system-site-packages"
            ) from None
        try:
            cameras = Picamera2.global_camera_info()
        except Exception as error:  # libcamera can fail in many ways; all mean "no camera"
            raise CameraError(f"{self.name}: libcamera cannot list cameras: {error}") from None
        if len(cameras) <= self.index:
            raise CameraError(
                f"{self.name}: not connected ({len(cameras)} camera(s) found); "
                "check the ribbon cable and that the camera is enabled"
            )
        try:
            camera = Picamera2(self.index)
            config = camera.create_video_configuration(
                main={"format": "RGB888", "size": self.size},
                controls={"FrameRate": float(self.fps)},
                buffer_count=4,
            )
            camera.configure(config)
            camera.start()
        except Exception as error:
            raise CameraError(f"{self.name}: cannot start: {error}") from None
        self._camera = camera
        super().start()
        try:
            self._settle_and_lock(camera)
        except Exception as error:
            self.stop()
            raise CameraError(f"{self.name}: cannot lock exposure and focus: {error}") from None

    def _settle_and_lock(self, camera: Any) -> None:
        """Let auto exposure and white balance settle, then freeze them (picamera2
        examples capture_timelapse.py, controls_2.py) so thresholds stay valid."""
        controls: dict[str, Any] = {}
        if "AfMode" in camera.camera_controls:
            manual = _af_mode_manual()
            if self.focus > 0:
                controls.update(AfMode=manual, LensPosition=float(self.focus))
            else:
                camera.autofocus_cycle()
        time.sleep(self.warmup)
        metadata = camera.capture_metadata(wait=5.0)  # a number: seconds, then TimeoutError
        controls.update(
            AeEnable=False,
            ExposureTime=int(metadata["ExposureTime"]),
            AnalogueGain=float(metadata["AnalogueGain"]),
        )
        if not getattr(camera, "is_mono", False):
            controls["AwbEnable"] = False
            if "ColourGains" in metadata:
                controls["ColourGains"] = tuple(metadata["ColourGains"])
        if "AfMode" in camera.camera_controls and self.focus <= 0 and "LensPosition" in metadata:
            controls.update(AfMode=_af_mode_manual(), LensPosition=metadata["LensPosition"])
        camera.set_controls(controls)
        self.locked = controls
        log.info("%s: exposure, white balance and focus locked: %s", self.name, controls)

    def read(self, timeout: float = 1.0) -> np.ndarray:
        self._check_started()
        try:
            job = self._camera.capture_array("main", wait=False)
            frame = self._camera.wait(job, timeout=timeout)
        except TimeoutError:
            raise CameraError(
                f"{self.name}: no frame for {timeout:.1f} s (camera stalled or unplugged)"
            ) from None
        except Exception as error:
            raise CameraError(f"{self.name}: capture failed: {error}") from None
        if frame.ndim == 3 and frame.shape[2] == 4:  # an XRGB8888 stream: B, G, R, X
            frame = frame[..., :3]
        return self._turn(np.ascontiguousarray(frame))

    def stop(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            try:
                camera.stop()
            finally:
                camera.close()  # let other processes open the camera
        super().stop()


def _af_mode_manual() -> Any:
    try:
        from libcamera import controls

        return controls.AfModeEnum.Manual
    except ImportError:  # pragma: no cover - only without libcamera's bindings
        return 0


def pi_camera_present() -> bool:
    """Whether picamera2 is installed and sees a camera (never raises)."""
    try:
        from picamera2 import Picamera2

        return bool(Picamera2.global_camera_info())
    except Exception:
        return False


# -- OpenCV: USB webcams and video files -----------------------------------------------------


class OpenCVSource(_Source):
    """A USB webcam (``device`` a number: ``/dev/videoN``) or a video file, replayed
    in a loop at its own frame rate. A thread keeps grabbing, so ``read`` returns the
    newest frame rather than one that waited in the driver's queue."""

    def __init__(
        self,
        device: int | str,
        width: int,
        height: int,
        fps: int,
        rotation: int,
        *,
        loop: bool = True,
        warmup: float = 1.0,
    ) -> None:
        self.device: int | str = int(device) if str(device).isdigit() else str(device)
        self.is_file = isinstance(self.device, str)
        self.name = f"video file {self.device}" if self.is_file else f"USB camera {self.device}"
        super().__init__(rotation)
        self.size = (width, height)
        self.fps = fps
        self.loop = loop
        self.warmup = warmup
        self._capture: Any = None
        self._frame: np.ndarray | None = None
        self._count = 0  # frames grabbed so far
        self._served = 0  # the count of the frame last returned by read
        self._failure = ""
        self._ready = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopping = False

    def start(self) -> None:
        if self.is_file and not Path(str(self.device)).is_file():
            raise CameraError(f"{self.name}: no such file")
        capture = cv2.VideoCapture(self.device)
        if not capture.isOpened():
            capture.release()
            where = "" if self.is_file else f" (/dev/video{self.device})"
            raise CameraError(f"{self.name}{where}: cannot be opened")
        if not self.is_file:
            width, height = self.size
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
            capture.set(cv2.CAP_PROP_FPS, self.fps)
            capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        ok, first = capture.read()
        if not ok or first is None:
            capture.release()
            raise CameraError(f"{self.name}: opened but gives no frames (not a video?)")
        self._capture = capture
        self._frame, self._count, self._served, self._failure = first, 1, 0, ""
        self._stopping = False
        super().start()
        self._thread = threading.Thread(target=self._grab, name="camera", daemon=True)
        self._thread.start()

    def _grab(self) -> None:
        """The grabbing thread owns the capture and releases it when it ends: a
        capture released under a thread blocked in ``read`` can crash OpenCV."""
        capture = self._capture
        try:
            self._grab_from(capture)
        finally:
            capture.release()

    def _grab_from(self, capture: Any) -> None:
        pace = 1 / (capture.get(cv2.CAP_PROP_FPS) or self.fps or 15) if self.is_file else 0
        locked = self.is_file
        started = time.monotonic()
        next_at = time.monotonic() + pace
        while not self._stopping:
            if pace:
                time.sleep(max(0.0, next_at - time.monotonic()))
                next_at += pace
            ok, frame = capture.read()
            if not ok and self.is_file and self.loop and self._count > 0:
                capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, frame = capture.read()
            with self._ready:
                if not ok or frame is None:
                    self._failure = "the video ended" if self.is_file else "the camera stopped"
                    self._ready.notify_all()
                    return
                self._frame, self._count = frame, self._count + 1
                self._ready.notify_all()
            if not locked and time.monotonic() - started >= self.warmup:
                locked = True
                self._lock_exposure(capture)

    def _lock_exposure(self, capture: Any) -> None:
        """Best effort on V4L2: manual exposure and white balance at their settled
        values (many webcams ignore it, which is logged, not fatal)."""
        exposure = capture.get(cv2.CAP_PROP_EXPOSURE)
        took = capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)  # V4L2: 1 manual, 3 auto
        took = capture.set(cv2.CAP_PROP_EXPOSURE, exposure) and took
        took = capture.set(cv2.CAP_PROP_AUTO_WB, 0) and took
        log.info(
            "%s: exposure and white balance %s",
            self.name,
            "locked" if took else "left automatic (the camera refused the lock)",
        )

    def read(self, timeout: float = 1.0) -> np.ndarray:
        self._check_started()
        deadline = time.monotonic() + timeout
        with self._ready:
            while self._count <= self._served:
                if self._failure:
                    raise CameraError(f"{self.name}: no more frames ({self._failure})")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CameraError(f"{self.name}: no frame for {timeout:.1f} s")
                self._ready.wait(left)
            frame, self._served = self._frame, self._count
        assert frame is not None
        return self._turn(frame)

    def stop(self) -> None:
        self._stopping = True
        if self._thread is not None:
            self._thread.join(timeout=2)
            if self._thread.is_alive():
                log.warning("%s: still blocked in the driver; released when it returns", self.name)
            self._thread = None
        self._capture = None
        super().stop()


def webcam_present(index: int = 0) -> bool:
    """Whether ``/dev/video<index>`` exists and opens (never raises)."""
    if not glob.glob(f"/dev/video{index}"):
        return False
    capture = cv2.VideoCapture(index)
    try:
        return bool(capture.isOpened())
    finally:
        capture.release()


# -- replayed photos ------------------------------------------------------------------------


class FolderSource(_Source):
    """Photos replayed in name order, in a loop. Each is repeated for ``hold``
    seconds of frames so the dice reader sees a settled tray; an image that cannot
    be read, or that no camera sends (over ``vision.images.MAX_PIXELS``, or too small
    to show a die), is skipped with one warning naming it."""

    def __init__(
        self,
        folder: Path | str,
        fps: int,
        rotation: int,
        *,
        hold: float = 2.0,
        loop: bool = True,
        realtime: bool = True,
    ) -> None:
        self.folder = Path(folder).expanduser() if str(folder) else None
        self.name = f"image folder {self.folder or '(camera.folder is empty)'}"
        super().__init__(rotation)
        self.fps = fps
        self.repeat = max(1, round(hold * fps))
        self.loop = loop
        self.realtime = realtime
        self.paths: list[Path] = []
        self.current: Path | None = None  # the photo of the last frame read
        self._skipped: set[Path] = set()
        self._index = 0
        self._shown = 0
        self._image: np.ndarray | None = None
        self._next_at = 0.0

    def start(self) -> None:
        if self.folder is None or not self.folder.is_dir():
            raise CameraError(f"{self.name}: no such folder (set camera.folder)")
        self.paths = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            suffixes = ", ".join(sorted(IMAGE_SUFFIXES))
            raise CameraError(f"{self.name}: no images in it ({suffixes})")
        self._index, self._shown, self._image = 0, 0, None
        self._next_at = time.monotonic()
        super().start()

    def read(self, timeout: float = 1.0) -> np.ndarray:
        self._check_started()
        if self.realtime:
            wait = self._next_at - time.monotonic()
            if wait > timeout:
                raise CameraError(f"{self.name}: no frame for {timeout:.1f} s")
            time.sleep(max(0.0, wait))
            self._next_at = max(self._next_at, time.monotonic() - 1) + 1 / self.fps
        if self._image is None or self._shown >= self.repeat:
            self._image = self._next_image()
            self._shown = 0
        self._shown += 1
        return self._turn(self._image.copy())

    def _next_image(self) -> np.ndarray:
        for _ in range(len(self.paths)):
            if self._index >= len(self.paths):
                if not self.loop:
                    raise CameraError(f"{self.name}: no more frames (all images shown)")
                self._index = 0
            path = self.paths[self._index]
            self._index += 1
            try:  # refused from its header when over the pixels a camera sends
                image = load_image(path)
            except ImageError as error:
                if path not in self._skipped:
                    self._skipped.add(path)
                    log.warning("%s: %s; skipped", self.name, error)
                continue
            self.current = path
            return image
        raise CameraError(f"{self.name}: none of its {len(self.paths)} images can be read")


# -- the synthetic tray ----------------------------------------------------------------------


class SyntheticSource(_Source):
    """A rendered tray that plays a table on a loop: a hand reaches in, the dice
    roll (moving, spinning, blurred), then lie still for ``still`` seconds.

    The timeline runs on frame numbers (``fps`` frames per second of story), so a test
    without ``realtime`` gets the same frames as fast as it reads them. ``dice`` holds
    the values lying in the tray, for checking what the reader says. ``count`` (the
    least and most dice of a throw) may be changed at any time, e.g. to the dice a
    prompt asks for; it applies from the next throw.
    """

    name = "synthetic tray"

    HAND_SECONDS = 0.8
    ROLL_SECONDS = 1.2
    NOISE = 2.0  # standard deviation of the sensor noise, in grey levels

    def __init__(
        self,
        width: int = 1280,
        height: int = 960,
        fps: int = 15,
        rotation: int = 0,
        *,
        seed: int = 0,
        count: tuple[int, int] = (2, 6),
        still: float = 4.0,
        realtime: bool = True,
    ) -> None:
        super().__init__(rotation)
        self.size = (width, height)
        self.fps = fps
        self.seed = seed
        self.count = count
        self.shown: tuple[int | None, str] | None = None  # one die, this face up
        self.still = still
        self.realtime = realtime
        self.frame_number = 0
        self.phase = "hand"  # hand | rolling | settled
        self.dice: list[int] = []  # the values in the tray (valid when settled)
        self._roll = -1
        self._final: list[Any] = []
        self._start: list[Any] = []
        self._previous: list[Any] = []
        self._next_at = 0.0
        self._noise: list[np.ndarray] = []
        self._still: dict[str, np.ndarray] = {}  # the hand and settled pictures of this roll

    @property
    def cycle_frames(self) -> int:
        return round((self.HAND_SECONDS + self.ROLL_SECONDS + self.still) * self.fps)

    def start(self) -> None:
        from dicetable.hardware import synthetic_tray  # noqa: F401 (fail early if absent)

        self.frame_number = 0
        self._roll = -1
        self._next_at = time.monotonic()
        super().start()

    def story_clock(self) -> float:
        """Seconds of the story up to the frame last read: the clock to settle by when
        frames come faster than real time (``realtime`` off), as a wall clock would
        let the dice lie still for less than a frame's worth of work."""
        return self.frame_number / self.fps

    def read(self, timeout: float = 1.0) -> np.ndarray:
        self._check_started()
        if self.realtime:
            time.sleep(max(0.0, self._next_at - time.monotonic()))
            self._next_at = max(self._next_at, time.monotonic() - 1) + 1 / self.fps
        frame = self._render(self.frame_number)
        self.frame_number += 1
        return self._turn(frame)

    def _render(self, number: int) -> np.ndarray:
        from dataclasses import replace

        from dicetable.hardware.synthetic_tray import (
            draw_hand,
            face_up,
            random_tray,
            render_tray,
        )

        roll, step = divmod(number, self.cycle_frames)
        if roll != self._roll:
            rng = random.Random(self.seed * 100_003 + roll)
            self._previous = self._final
            if self.shown is not None:  # the face the teach flow asks for
                self._final = face_up(rng, *self.shown, self.size)
            else:
                self._final = random_tray(rng, rng.randint(*self.count), self.size)
            self._start = random_tray(rng, len(self._final), self.size)
            self._roll = roll
            self._still = {}
        seconds = step / self.fps
        scene = self.seed * 100_003 + roll  # the tray's texture and the hand: fixed per roll
        if seconds < self.HAND_SECONDS:
            # a real hand never stays still: it sweeps across as it gathers the dice,
            # so the settle watcher sees a hand, not a settled tray
            self.phase = "hand"
            if "tray" not in self._still:
                self._still["tray"] = render_tray(self._previous, self.size, seed=scene, noise=0)
            image = self._still["tray"].copy()
            draw_hand(image, 0.3 + 0.4 * seconds / self.HAND_SECONDS, seed=scene)
            return self._grain(image, number)
        seconds -= self.HAND_SECONDS
        if seconds < self.ROLL_SECONDS:
            self.phase = "rolling"
            progress = seconds / self.ROLL_SECONDS
            ease = 1 - (1 - progress) ** 3  # fast throw, slow stop
            moving = [
                replace(
                    end,
                    x=begin.x + (end.x - begin.x) * ease,
                    y=begin.y + (end.y - begin.y) * ease,
                    angle=end.angle + 540 * (1 - ease),
                    value=end.value if progress > 0.7 else (end.value + step) % 6 + 1,
                )
                for begin, end in zip(self._start, self._final, strict=True)
            ]
            blur = 28 * (1 - ease)
            image = render_tray(
                moving, self.size, blur=blur if blur >= 1 else 0, seed=scene, noise=0
            )
            return self._grain(image, number)
        self.phase = "settled"
        self.dice = sorted(d.value for d in self._final)
        if "settled" not in self._still:
            self._still["settled"] = render_tray(self._final, self.size, seed=scene, noise=0)
        return self._grain(self._still["settled"], number)

    def _grain(self, image: np.ndarray, number: int) -> np.ndarray:
        """Sensor noise that changes every frame, as a real camera's does (a few
        noise fields drawn once and cycled: drawing one per frame costs more than
        rendering the tray)."""
        if not self._noise:
            rng = np.random.default_rng(self.seed)
            self._noise = [
                (rng.standard_normal(image.shape, np.float32) * self.NOISE).astype(np.int16)
                for _ in range(4)
            ]
        return cv2.add(image, self._noise[number % len(self._noise)], dtype=cv2.CV_8U)


# -- choosing a source from the settings ----------------------------------------------------------


def open_camera(settings: Mapping[str, Any] | Any) -> FrameSource:
    """The camera the ``[camera]`` settings ask for (not started yet).

    ``auto`` takes the Pi camera if picamera2 sees one, else the USB webcam
    ``device`` if it opens, else the synthetic tray (demo mode) except on a Raspberry
    Pi, where made-up dice could be taken for real ones. ``none`` (and ``auto`` on a
    Pi without a camera) raises ``CameraError``: dice are then entered by hand, as
    after any camera failure.
    """
    section = settings.section("camera") if hasattr(settings, "section") else dict(settings)
    source = str(section["source"])  # every key: the settings come over their defaults
    width, height = int(section["width"]), int(section["height"])
    fps, rotation = int(section["fps"]), int(section["rotation"])
    device = str(section["device"])
    if source == "auto":
        if pi_camera_present():
            source = "picamera2"
        elif device.isdigit() and webcam_present(int(device)):
            source = "opencv"
        elif board.is_raspberry_pi():  # a real table: never offer made-up dice
            raise CameraError(
                "no camera found (no Pi camera, no USB camera at /dev/video"
                f"{device}); dice are entered by hand"
            )
        else:
            log.info("no camera found: showing the synthetic tray (demo mode)")
            source = "synthetic"
    if source == "picamera2":
        focus = float(section["focus"])
        return PiCameraSource(width, height, fps, rotation, focus=focus)
    if source == "opencv":
        return OpenCVSource(device, width, height, fps, rotation)
    if source == "folder":
        return FolderSource(str(section["folder"]), fps, rotation)
    if source == "synthetic":
        return SyntheticSource(width, height, fps, rotation)
    if source == "none":
        raise CameraError("camera.source = 'none': no camera; dice are entered by hand")
    raise CameraError(f"camera.source = {source!r} is not a known camera source")
