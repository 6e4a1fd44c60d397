"""Photometric and camera augmentation: the same die under other light, colour,
optics and compression. Dice colours are not what a face means, so hue, tint and
even colour inversion (light pips on dark bodies) are fair; a face's layout is left
alone here (geometry is in ``samples``)."""

from __future__ import annotations

import cv2
import numpy as np

INVERT = 0.12  # share of samples shown as their negative (light print on dark dice)
GREY = 0.1  # share shown without colour
# Share recoloured by a random curve per channel: a white die on a brown desk becomes a
# green one on a pale board, which a turn of hue alone never makes of a white die.
RECOLOUR = 0.35
RECOLOUR_GAIN = (0.8, 1.4)  # contrast kept, or raised, by a recolouring
RECOLOUR_MEAN = (60.0, 200.0)  # a recoloured photo's mean, per channel
BLUR = 0.3
MOTION = 0.1
JPEG = 0.3
NOISE = 0.5


def photometric(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A new look of ``image`` (BGR uint8): hue, saturation, tint, gamma, contrast,
    blur, grain and JPEG, each at random."""
    out: np.ndarray = image
    if rng.random() < 0.8:
        hsv = cv2.cvtColor(out, cv2.COLOR_BGR2HSV).astype(np.int16)
        hsv[..., 0] = (hsv[..., 0] + int(rng.integers(0, 180))) % 180
        saturation = rng.uniform(0.4, 1.6)
        hsv[..., 1] = np.clip(hsv[..., 1] * saturation, 0, 255)
        out = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    if rng.random() < RECOLOUR:
        out = recolour(out, rng)
    if rng.random() < GREY:
        out = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if rng.random() < INVERT:
        out = 255 - out
    values = out.astype(np.float32) / 255
    tint = rng.uniform(0.8, 1.2, 3).astype(np.float32)
    gamma = float(np.exp(rng.uniform(-0.5, 0.5)))
    contrast = rng.uniform(0.6, 1.3)
    brightness = rng.uniform(-0.15, 0.15)
    values = np.clip(values * tint, 0, 1) ** gamma
    values = (values - 0.5) * contrast + 0.5 + brightness
    out = np.clip(values * 255, 0, 255).astype(np.uint8)
    if rng.random() < BLUR:
        sigma = rng.uniform(0.3, 1.6)
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    if rng.random() < MOTION:
        out = motion_blur(out, int(rng.integers(3, 8)), float(rng.uniform(0, 180)))
    if rng.random() < NOISE:
        grain = rng.normal(0, rng.uniform(2, 14), out.shape).astype(np.float32)
        out = np.clip(out + grain, 0, 255).astype(np.uint8)
    if rng.random() < JPEG:
        quality = int(rng.integers(35, 90))
        _, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
        out = out if decoded is None else decoded
    return out


def recolour(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``image`` with its colours turned round their mean by a random rotation (or
    reflection) of colour space, onto a new mean: every difference keeps its strength,
    so edges and pips stay as clear, but the grey of a white die on a pale desk can
    become a green die's on a pink board (Tobin et al. 2017's randomised colours, done
    on a photo)."""
    turn, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    mean = image.reshape(-1, 3).mean(axis=0)
    linear = turn * rng.uniform(*RECOLOUR_GAIN)
    offset = rng.uniform(*RECOLOUR_MEAN, 3) - linear @ mean
    return cv2.transform(image, np.hstack([linear, offset[:, None]]).astype(np.float32))


def motion_blur(image: np.ndarray, length: int, angle: float) -> np.ndarray:
    straight = np.zeros((length, length), np.float32)
    straight[length // 2, :] = 1.0
    turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), angle, 1.0)
    kernel = np.asarray(cv2.warpAffine(straight, turn, (length, length)), np.float32)
    return cv2.filter2D(image, -1, kernel / max(float(kernel.sum()), 1e-6))
