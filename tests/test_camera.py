"""Camera sources against generated files: a video written with cv2.VideoWriter, a
folder of photos with a corrupt one, the synthetic tray, and a stand-in picamera2."""

from __future__ import annotations

import logging
import sys
import time
import tomllib
import types
from pathlib import Path
from typing import ClassVar

import cv2
import numpy as np
import pytest

from dicetable.device.config import defaults_text, load
from dicetable.hardware import camera as cam
from dicetable.hardware.camera import (
    CameraError,
    FolderSource,
    FrameSource,
    OpenCVSource,
    PiCameraSource,
    SyntheticSource,
    open_camera,
    pi_camera_present,
)

#: the documented settings (device/defaults.toml), as the app reads them over its file
DEFAULTS = tomllib.loads(defaults_text())
CAMERA = DEFAULTS["camera"]
SIZE = {key: CAMERA[key] for key in ("width", "height", "fps", "rotation")}
PACE = {key: CAMERA[key] for key in ("fps", "rotation")}  # a photo folder's
FOCUS = CAMERA["focus"]

# -- the synthetic tray ------------------------------------------------------------------


def _synthetic(**kw) -> SyntheticSource:
    return SyntheticSource(320, 240, fps=10, seed=3, still=1.0, realtime=False, **kw)


def test_the_synthetic_tray_plays_hand_roll_settle_in_a_loop():
    with _synthetic() as source:
        assert isinstance(source, FrameSource)
        phases = []
        frames = []
        for _ in range(source.cycle_frames * 2):
            frames.append(source.read())
            phases.append(source.phase)
    first = phases[: source.cycle_frames]
    assert first[0] == "hand" and first[-1] == "settled"
    assert first.index("rolling") < first.index("settled")
    assert phases[source.cycle_frames] == "hand"  # and again
    assert frames[0].shape == (240, 320, 3) and frames[0].dtype == np.uint8
    settled = [f for f, p in zip(frames, phases, strict=True) if p == "settled"][:5]
    rolling = [f for f, p in zip(frames, phases, strict=True) if p == "rolling"][:5]
    still_change = max(cv2.absdiff(settled[0], f).mean() for f in settled[1:])
    moving_change = max(cv2.absdiff(rolling[0], f).mean() for f in rolling[1:])
    assert still_change < 4 < moving_change  # sensor noise only, versus moving dice
    assert 2 <= len(source.dice) <= 6 and all(1 <= v <= 6 for v in source.dice)


def test_the_synthetic_tray_is_the_same_for_the_same_seed():
    with _synthetic() as a, _synthetic() as b:
        for _ in range(25):
            assert np.array_equal(a.read(), b.read())
        assert a.dice == b.dice


def test_reading_before_start_is_a_clear_error():
    with pytest.raises(CameraError, match="synthetic tray: read before start"):
        _synthetic().read()


# -- video files and webcams ------------------------------------------------------------------


def _video(path: Path, frames: int = 8) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (64, 48))
    assert writer.isOpened()
    for i in range(frames):
        image = np.zeros((48, 64, 3), np.uint8)
        image[:, :32] = (0, 0, 255)  # a red patch, BGR
        image[:, 32:] = i * 30  # the frame number as grey
        writer.write(image)
    writer.release()
    return path


def test_a_video_file_is_replayed_in_bgr_and_looped(tmp_path: Path):
    with OpenCVSource(str(_video(tmp_path / "roll.avi")), **SIZE, warmup=0) as source:
        frames = [source.read(timeout=2) for _ in range(12)]
    assert frames[0].shape == (48, 64, 3)
    b, g, r = frames[0][24, 10]
    assert r > 200 and g < 60 and b < 60  # red stays red: BGR in, BGR out
    greys = [int(f[24, 50, 0]) for f in frames]
    assert max(greys) > 150 and min(greys[8:]) < 60  # went through and started again


def test_a_video_that_ends_without_loop_says_so(tmp_path: Path):
    source = OpenCVSource(str(_video(tmp_path / "short.avi", 3)), **SIZE, loop=False)
    with source, pytest.raises(CameraError, match=r"video file .*short.avi: no more frames"):
        for _ in range(10):
            source.read(timeout=2)


def test_missing_and_corrupt_videos_name_the_source(tmp_path: Path):
    with pytest.raises(CameraError, match="nothing.avi: no such file"):
        OpenCVSource(str(tmp_path / "nothing.avi"), **SIZE).start()
    corrupt = tmp_path / "corrupt.avi"
    corrupt.write_bytes(b"RIFF" + bytes(range(256)) * 4)
    with pytest.raises(CameraError, match="corrupt.avi"):
        OpenCVSource(str(corrupt), **SIZE).start()


def test_a_missing_webcam_names_its_device():
    with pytest.raises(CameraError, match=r"USB camera 57 \(/dev/video57\): cannot be opened"):
        OpenCVSource(57, **SIZE).start()


class StallingCapture:
    """A webcam that gives one frame, then hangs in the driver."""

    def __init__(self, device) -> None:
        self.reads = 0
        self.released = False

    def isOpened(self) -> bool:
        return True

    def set(self, prop, value) -> bool:
        return False

    def get(self, prop) -> float:
        return 0.0

    def read(self):
        self.reads += 1
        if self.reads > 1:
            time.sleep(0.6)
        return True, np.zeros((48, 64, 3), np.uint8)

    def release(self) -> None:
        self.released = True


def test_a_webcam_that_stops_delivering_raises_after_the_timeout(monkeypatch):
    monkeypatch.setattr(cv2, "VideoCapture", StallingCapture)
    with OpenCVSource(0, **SIZE, warmup=99) as source:
        assert source.read(timeout=1).shape == (48, 64, 3)
        with pytest.raises(CameraError, match=r"USB camera 0: no frame for 0.2 s"):
            source.read(timeout=0.2)
        capture = source._capture
    assert capture.released  # released by its own thread once the driver returned


# -- a folder of photos ---------------------------------------------------------------------


def _photo(path: Path, value: int) -> Path:
    cv2.imwrite(str(path), np.full((30, 40, 3), value, np.uint8))
    return path


def test_a_folder_replays_in_name_order_skipping_a_corrupt_image(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    _photo(tmp_path / "b.png", 20)
    _photo(tmp_path / "a.png", 10)
    (tmp_path / "c.jpg").write_bytes(b"\xff\xd8not a jpeg")
    _photo(tmp_path / "d.png", 40)
    (tmp_path / "notes.txt").write_text("not an image")
    caplog.set_level(logging.WARNING)
    with FolderSource(tmp_path, 10, 0, hold=0.2, realtime=False) as source:
        values = [int(source.read()[0, 0, 0]) for _ in range(10)]
    assert values == [10, 10, 20, 20, 40, 40, 10, 10, 20, 20]  # each held 2 frames
    skipped = [r for r in caplog.records if "c.jpg" in r.getMessage()]
    assert len(skipped) == 1  # said once, not at every loop


def test_folders_that_cannot_replay(tmp_path: Path):
    with pytest.raises(CameraError, match="no such folder"):
        FolderSource(tmp_path / "absent", **PACE).start()
    with pytest.raises(CameraError, match="camera.folder is empty"):
        FolderSource("", **PACE).start()
    with pytest.raises(CameraError, match="no images in it"):
        FolderSource(tmp_path, **PACE).start()
    (tmp_path / "bad.png").write_bytes(b"\x89PNG broken")
    source = FolderSource(tmp_path, **PACE, realtime=False)
    with source, pytest.raises(CameraError, match="none of its 1 images can be read"):
        source.read()


def test_rotation_turns_the_frame(tmp_path: Path):
    _photo(tmp_path / "a.png", 10)
    with FolderSource(tmp_path, PACE["fps"], 90, realtime=False) as source:
        assert source.read().shape == (40, 30, 3)
    with pytest.raises(CameraError, match="rotation 45"):
        FolderSource(tmp_path, PACE["fps"], 45)


# -- the Pi camera, with picamera2 stood in for --------------------------------------------------


class FakePicamera2:
    """Just enough of picamera2's API, recording what the source asks of it."""

    cameras: ClassVar[list] = [{"Model": "imx708"}]
    instances: ClassVar[list] = []

    def __init__(self, index: int = 0) -> None:
        self.index = index
        self.camera_controls = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
        self.controls: dict = {}
        self.calls: list = []
        self.stall = False
        FakePicamera2.instances.append(self)

    @classmethod
    def global_camera_info(cls):
        return cls.cameras

    def create_video_configuration(self, main, controls, buffer_count):
        return {"main": main, "controls": controls}

    def configure(self, config):
        self.config = config

    def start(self):
        self.calls.append("start")

    def autofocus_cycle(self):
        self.calls.append("autofocus")

    def capture_metadata(self, wait=None):
        return {
            "ExposureTime": 12000,
            "AnalogueGain": 2.0,
            "ColourGains": (1.8, 1.5),
            "LensPosition": 2.2,
        }

    def set_controls(self, controls):
        self.controls.update(controls)

    def capture_array(self, name, wait=None):
        return ("job", name)

    def wait(self, job, timeout=None):
        if self.stall:
            raise TimeoutError
        frame = np.zeros((48, 64, 4), np.uint8)  # XRGB8888 memory order: B, G, R, X
        frame[..., 2] = 255
        return frame

    def stop(self):
        self.calls.append("stop")

    def close(self):
        self.calls.append("close")


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    FakePicamera2.instances.clear()
    FakePicamera2.cameras = [{"Model": "imx708"}]
    return FakePicamera2


def test_the_pi_camera_asks_for_rgb888_and_locks_exposure_after_warm_up(fake_picamera2):
    source = PiCameraSource(640, 480, 20, 0, focus=FOCUS, warmup=0)
    with source:
        camera = fake_picamera2.instances[0]
        assert camera.config["main"] == {"format": "RGB888", "size": (640, 480)}
        assert camera.config["controls"]["FrameRate"] == 20.0
        locked = camera.controls
        assert locked["AeEnable"] is False and locked["AwbEnable"] is False
        assert locked["ExposureTime"] == 12000 and locked["ColourGains"] == (1.8, 1.5)
        assert camera.calls[:2] == ["start", "autofocus"]  # focus once, then keep it
        assert locked["LensPosition"] == 2.2
        frame = source.read()
        assert frame.shape == (48, 64, 3) and frame[0, 0, 2] == 255  # red stays in R of BGR
    assert camera.calls[-2:] == ["stop", "close"]


def test_a_fixed_focus_is_set_without_autofocus(fake_picamera2):
    with PiCameraSource(**SIZE, focus=2.5, warmup=0):
        camera = fake_picamera2.instances[0]
        assert "autofocus" not in camera.calls
        assert camera.controls["LensPosition"] == 2.5


def test_a_stalled_pi_camera_raises_a_camera_error(fake_picamera2):
    with PiCameraSource(**SIZE, focus=FOCUS, warmup=0) as source:
        fake_picamera2.instances[0].stall = True
        with pytest.raises(CameraError, match=r"Pi camera 0: no frame for 0.5 s"):
            source.read(timeout=0.5)


def test_no_pi_camera_connected(fake_picamera2):
    fake_picamera2.cameras = []
    with pytest.raises(CameraError, match="Pi camera 0: not connected"):
        PiCameraSource(**SIZE, focus=FOCUS).start()


def test_without_picamera2_the_message_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(CameraError, match="python3-picamera2"):
        PiCameraSource(**SIZE, focus=FOCUS).start()
    assert pi_camera_present() is False


# -- choosing from the settings --------------------------------------------------------------


def test_open_camera_follows_the_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    base = {**DEFAULTS["camera"], "width": 320, "height": 240, "fps": 10}
    assert isinstance(open_camera({**base, "source": "synthetic"}), SyntheticSource)
    folder = open_camera({**base, "source": "folder", "folder": str(tmp_path)})
    assert isinstance(folder, FolderSource) and folder.folder == tmp_path
    video = open_camera({**base, "source": "opencv", "device": str(tmp_path / "v.avi")})
    assert isinstance(video, OpenCVSource) and video.is_file
    with pytest.raises(CameraError, match="entered by hand"):
        open_camera({**base, "source": "none"})
    monkeypatch.setattr(cam, "pi_camera_present", lambda: False)
    monkeypatch.setattr(cam, "webcam_present", lambda index: False)
    monkeypatch.setattr("dicetable.hardware.board.model", lambda: "")
    assert isinstance(open_camera({**base, "source": "auto"}), SyntheticSource)
    monkeypatch.setattr("dicetable.hardware.board.model", lambda: "Raspberry Pi 5 Model B")
    with pytest.raises(CameraError, match="no camera found .*entered by hand"):
        open_camera({**base, "source": "auto"})  # a real table never shows made-up dice
    monkeypatch.setattr(cam, "webcam_present", lambda index: True)
    assert isinstance(open_camera({**base, "source": "auto"}), OpenCVSource)
    monkeypatch.setattr(cam, "pi_camera_present", lambda: True)
    assert isinstance(open_camera({**base, "source": "auto"}), PiCameraSource)


def test_open_camera_takes_the_config_object(isolated_data):
    source = open_camera(load())
    assert isinstance(source, FrameSource)


@pytest.mark.pi
@pytest.mark.skipif(not pi_camera_present(), reason="needs a Raspberry Pi camera")
def test_the_real_pi_camera_gives_bgr_frames():
    with PiCameraSource(640, 480, 15, 0, focus=FOCUS) as source:
        frame = source.read(timeout=3)
    assert frame.shape == (480, 640, 3) and frame.dtype == np.uint8
