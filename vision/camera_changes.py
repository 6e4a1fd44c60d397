"""A real photo as another camera or lamp would have shown it (``benchmarks/camera_bench.py``
and the tests on real photos).

The shared sets hold one webcam and one phone, each under one light. These changes
measure how the reader holds up where other tables differ from them: a camera closer
or further, a warmer or dimmer lamp, a lamp low on one side, soft focus, a cheap
sensor's grain, a monochrome camera. They are the same dice on the same floors, so
they are evidence about cameras and light only, not about other dice or tables.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from dicetable.vision.evaluation import Change, Label

REFERENCE_SIDE = 640  # blur and grain are given for a frame this wide and scaled with it
GRAIN_SEED = 7


def closer(factor: float) -> Change:
    """A camera ``factor`` times closer, aimed at the first labelled die (the frame's
    middle if none): the window round it, enlarged to the frame's size. A die cut by
    the new edge is not scored (its value or "partly out of view" are both fair)."""

    def change(frame: np.ndarray, labels: list[Label]) -> tuple[np.ndarray, list[Label]]:
        height, width = frame.shape[:2]
        w, h = round(width / factor), round(height / factor)
        x, y = (labels[0].x, labels[0].y) if labels else (width / 2, height / 2)
        x0 = int(np.clip(x - w / 2, 0, width - w))
        y0 = int(np.clip(y - h / 2, 0, height - h))
        window = frame[y0 : y0 + h, x0 : x0 + w]
        shown = cv2.resize(window, (width, height), interpolation=cv2.INTER_CUBIC)
        sx, sy = width / w, height / h
        moved = []
        for lb in labels:
            box = Label(lb.face_index, (lb.x - x0) * sx, (lb.y - y0) * sy, lb.width * sx,
                        lb.height * sy)  # fmt: skip
            inside = (box.width / 2 <= box.x <= width - box.width / 2
                      and box.height / 2 <= box.y <= height - box.height / 2)  # fmt: skip
            moved.append(replace(box, scored=inside))
        return shown, moved

    return change


def further(factor: float) -> Change:
    """A camera ``factor`` times further away (or with fewer pixels): the frame shrunk."""

    def change(frame: np.ndarray, labels: list[Label]) -> tuple[np.ndarray, list[Label]]:
        height, width = frame.shape[:2]
        size = (round(width / factor), round(height / factor))
        shown = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        k = size[0] / width
        return shown, [Label(lb.face_index, lb.x * k, lb.y * k, lb.width * k, lb.height * k)
                       for lb in labels]  # fmt: skip

    return change


def lamp(blue: float, green: float, red: float, gamma: float = 1.0) -> Change:
    """Another lamp: each channel scaled (a warm bulb dims blue, a cold one red), then
    a gamma over 1 for a dim room whose camera lifts its gain."""

    def change(frame: np.ndarray, labels: list[Label]) -> tuple[np.ndarray, list[Label]]:
        values = np.clip(frame.astype(np.float32) * np.array([blue, green, red]), 0, 255)
        return (255 * (values / 255) ** gamma).astype(np.uint8), labels

    return change


def side_lamp(darkest: float, brightest: float) -> Change:
    """A lamp low on one side: light falling from ``brightest`` times to ``darkest``
    times across the frame."""

    def change(frame: np.ndarray, labels: list[Label]) -> tuple[np.ndarray, list[Label]]:
        ramp = np.linspace(darkest, brightest, frame.shape[1], dtype=np.float32)
        return np.clip(frame * ramp[None, :, None], 0, 255).astype(np.uint8), labels

    return change


def vignette(strength: float) -> Change:
    """A cheap lens's dark corners: light falls by ``strength`` at the corners."""

    def change(frame: np.ndarray, labels: list[Label]) -> tuple[np.ndarray, list[Label]]:
        height, width = frame.shape[:2]
        rows, columns = np.mgrid[0:height, 0:width].astype(np.float32)
        across = (columns - width / 2) / (width / 2)
        down = (rows - height / 2) / (height / 2)
        light = 1 - strength * (across**2 + down**2) / 2  # corners: 2
        return (frame * light[..., None]).astype(np.uint8), labels

    return change


def soft_focus(sigma: float) -> Change:
    """Out of focus: a Gaussian blur of ``sigma`` pixels at REFERENCE_SIDE wide."""

    def change(frame: np.ndarray, labels: list[Label]) -> tuple[np.ndarray, list[Label]]:
        scaled = sigma * frame.shape[1] / REFERENCE_SIDE
        return cv2.GaussianBlur(frame, (0, 0), scaled), labels

    return change


def grain(spread: float, quality: int) -> Change:
    """A small sensor in poor light, saved small: Gaussian grain, then JPEG at
    ``quality``; the same grain for a photo every time (GRAIN_SEED)."""

    def change(frame: np.ndarray, labels: list[Label]) -> tuple[np.ndarray, list[Label]]:
        noise = np.random.default_rng(GRAIN_SEED).normal(0, spread, frame.shape)
        grainy = np.clip(frame + noise, 0, 255).astype(np.uint8)
        _, data = cv2.imencode(".jpg", grainy, [cv2.IMWRITE_JPEG_QUALITY, quality])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
        return (grainy if decoded is None else decoded), labels

    return change


def turned(frame: np.ndarray, labels: list[Label]) -> tuple[np.ndarray, list[Label]]:
    """The camera turned a quarter clockwise."""
    height = frame.shape[0]
    moved = [Label(lb.face_index, height - 1 - lb.y, lb.x, lb.height, lb.width) for lb in labels]
    return cv2.rotate(frame, cv2.ROTATE_90_CLOCKWISE), moved


def hue_turned(degrees: int) -> Change:
    """Other dice and floor colours: every hue turned by ``degrees``."""

    def change(frame: np.ndarray, labels: list[Label]) -> tuple[np.ndarray, list[Label]]:
        hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int16) + degrees // 2) % 180
        return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR), labels

    return change


def without_colour(frame: np.ndarray, labels: list[Label]) -> tuple[np.ndarray, list[Label]]:
    """A monochrome camera (a Pi NoIR module in infrared light is near that)."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), labels


CHANGES: dict[str, Change] = {
    "closer 1.5x": closer(1.5),
    "closer 2x": closer(2.0),
    "closer 2.5x": closer(2.5),
    "further 2x": further(2.0),
    "warm lamp": lamp(0.6, 0.9, 1.15),
    "cold lamp": lamp(1.2, 1.0, 0.7),
    "dim room": lamp(0.6, 0.6, 0.6, gamma=1.8),
    "bright lamp": lamp(1.3, 1.3, 1.3),
    "low side lamp": side_lamp(0.35, 1.3),
    "dark corners": vignette(0.9),
    "soft focus": soft_focus(1.5),
    "grain and JPEG": grain(12.0, 25),
    "turned": turned,
    "other colours": hue_turned(120),
    "monochrome": without_colour,
}
