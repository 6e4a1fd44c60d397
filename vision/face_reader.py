"""The face reader: what each found die shows, from a crop of the full frame.

A small CNN on a ``FACE_INPUT`` square crop ``FACE_SPAN`` times the die's side says
one of ``CLASSES``: a pip count, a symbol or numeral face (no value: never taught),
a cocked die, or no die at all (texture, clutter, a die's edge). Its probabilities are
calibrated (temperature scaling, fitted on photos and rendered trays it did not train
on), and its last hidden layer is the embedding a taught profile names faces by.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from dicetable.vision.finder import to_input
from dicetable.vision.networks import MODELS, model_facts, network

CLASSES = ("1", "2", "3", "4", "5", "6", "symbol", "cocked", "none")
SYMBOL, COCKED, NOT_A_DIE = 6, 7, 8
FACE_READER = "faces.onnx"  # the network's file among the models
FACE_INPUT = 48  # crop side, pixels
FACE_SPAN = 1.3  # crop side over the die's side: the face, its edge and a little floor
# Of the die's side: a pip face's body colour, which names the die, is the median of
# its middle square (on real photos the rim is the bevel, which mirrors the floor,
# and a translucent body shows the floor through it). A symbol covers the middle (a
# red hero die read there was "white"), so a symbol face's body is the median of
# the round ring between these diameters, inside the face at any turn and outside
# most symbols (from 0.5, a hero shield made 4 of 478 taught faces "white").
MIDDLE_SPAN = 0.5
SYMBOL_RING = (0.66, 0.84)
PRINT_SHARE = 10  # one pixel in this many of the middle, the least like its median, is print
UNSURE = 0.6  # calibrated probability below which a face is not given a value
# A face read less surely than UNSURE is looked at again turned by each of these
# quarter turns, and the looks' probabilities are averaged: the untaught reader then
# gives a value to 2-3 more dice in 200 on photos of sets it never saw (d6-desk
# valid without d6-desk 235 -> 238 of 256; dice-colours val and test without
# dice-colours 238 -> 243 of 337), no more extra dice, for a few ms a photo.
SECOND_LOOK_TURNS = (1, 2, 3)
# A face still read less surely than UNSURE is cut again this many times its side, and
# those looks' probabilities are averaged in: the finder sizes the dice of a set it
# never saw up to a fifth off (dice-colours' top faces, by the finder trained without
# it: 0.69 of their boxes, not 0.84), and a face cut too tight or too loose is read
# less surely. Read by the models trained without dice-colours, all of it: 1707 ->
# 1717 of 1795 dice, extra dice unchanged (5); its test split under the camera
# benchmark's 15 changes, 1870 -> 1884 dice right, no change worse. Without d6-desk
# (valid and train) 1183 -> 1184 of 1207; the shipped models: unchanged.
SECOND_LOOK_SIDES = (0.87, 1.15)
# A crop whose edges are this soft (its Laplacian's spread over its own grey spread)
# is out of focus: a fixed-focus camera close to the tray, a die still moving. The face
# reader learnt sharper faces, so such a crop is sharpened first (unsharp masking by
# SHARPEN at SHARPEN_SIGMA crop pixels). dice-colours test shown out of focus (camera
# changes' soft focus), read by the models that never saw it: 105 -> 120 of 133 dice;
# its crops as taken are 0.19-1.6 (5th-95th percentile), out of focus 0.09-0.43.
SOFT_CROP = 0.25
SHARPEN = 2.0
SHARPEN_SIGMA = 2.0


def _ring(diameters: tuple[float, float]) -> np.ndarray:
    """The crop's pixels between two diameters (of the die's side) round its centre."""
    offsets = np.arange(FACE_INPUT) - (FACE_INPUT - 1) / 2
    radius = np.hypot(offsets[:, None], offsets[None, :]) * FACE_SPAN / FACE_INPUT
    return (radius >= diameters[0] / 2) & (radius <= diameters[1] / 2)


_SYMBOL_RING = _ring(SYMBOL_RING)


def cut_square(image: np.ndarray, x: float, y: float, side: float, out: int) -> np.ndarray:
    """The ``side`` square centred at (x, y) as ``out`` x ``out`` pixels, area-averaged
    from the full frame; where it leaves the frame the edge pixels are repeated."""
    height, width = image.shape[:2]
    half = side / 2
    x0, y0 = int(np.floor(x - half)), int(np.floor(y - half))
    x1, y1 = int(np.ceil(x + half)), int(np.ceil(y + half))
    piece = image[max(0, y0) : max(0, min(height, y1)), max(0, x0) : max(0, min(width, x1))]
    if piece.size == 0:
        return np.zeros((out, out, 3), np.uint8)
    left, top = max(0, -x0), max(0, -y0)
    right, bottom = max(0, x1 - width), max(0, y1 - height)
    if left or top or right or bottom:
        piece = cv2.copyMakeBorder(piece, top, bottom, left, right, cv2.BORDER_REPLICATE)
    shrink = piece.shape[0] > out
    method = cv2.INTER_AREA if shrink else cv2.INTER_LINEAR
    return cv2.resize(piece, (out, out), interpolation=method)


@dataclass(frozen=True)
class FaceLooks:
    """The face reader's view of a batch of crops."""

    probabilities: np.ndarray  # N x len(CLASSES), calibrated
    embeddings: np.ndarray  # N x D, unit length
    inks: np.ndarray  # N x 3, BGR of each face's print
    middles: np.ndarray  # N x 3, BGR median of each face's middle (print and body)
    rings: np.ndarray  # N x 3, BGR median of the ring round it: a symbol face's body


class FaceReader:
    def __init__(self, models: Path = MODELS) -> None:
        self.net = network(FACE_READER, models)
        self.temperature = float(model_facts(models)["temperature"])

    def crops(self, frame: np.ndarray, places: list[tuple[float, float, float]]) -> np.ndarray:
        """N x FACE_INPUT x FACE_INPUT x 3 crops at (x, y, side) places."""
        if not places:
            return np.zeros((0, FACE_INPUT, FACE_INPUT, 3), np.uint8)
        crops = []
        for x, y, side in places:
            crop = cut_square(frame, x, y, FACE_SPAN * side, FACE_INPUT)
            # A crop cut from fewer pixels than it has is soft for being enlarged:
            # sharpening it would draw edges (a close die's pips) the lens never saw.
            crops.append(sharpened(crop) if FACE_SPAN * side >= FACE_INPUT and soft(crop) else crop)
        return np.stack(crops)

    def read(self, frame: np.ndarray, places: list[tuple[float, float, float]]) -> FaceLooks:
        """The view of the faces at (x, y, side) ``places`` in ``frame``; an unsure one
        looked at again cut at SECOND_LOOK_SIDES."""
        looks = self.look(self.crops(frame, places))
        unsure = np.flatnonzero(looks.probabilities.max(axis=1) < UNSURE)
        if not len(unsure):
            return looks
        resized = [
            (places[i][0], places[i][1], places[i][2] * factor)
            for factor in SECOND_LOOK_SIDES
            for i in unsure
        ]
        again, _ = self.chances(self.crops(frame, resized))
        total = looks.probabilities[unsure].copy()
        for cut in again.reshape(len(SECOND_LOOK_SIDES), len(unsure), -1):
            total += cut
        probabilities = looks.probabilities.copy()
        probabilities[unsure] = total / (1 + len(SECOND_LOOK_SIDES))
        return replace(looks, probabilities=probabilities)

    def look(self, crops: np.ndarray) -> FaceLooks:
        if len(crops) == 0:
            none = np.zeros((0, 3), np.float32)
            empty = np.zeros((0, len(CLASSES)), np.float32)
            return FaceLooks(empty, np.zeros((0, 1), np.float32), none, none, none)
        probabilities, embeddings = self.chances(crops)
        norms = np.linalg.norm(embeddings, axis=1, keepdims=True) + 1e-6
        middles, inks = colours_of(crops)
        rings = np.median(crops[:, _SYMBOL_RING].astype(np.float32), axis=1)
        return FaceLooks(probabilities, embeddings / norms, inks, middles, rings)

    def chances(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The calibrated class probabilities of non-empty ``crops`` (an unsure one's
        averaged with its turned looks) and the network's embeddings."""
        logits, embeddings = self.net.run(to_input(crops))
        probabilities = softmax(logits / self.temperature)
        unsure = np.flatnonzero(probabilities.max(axis=1) < UNSURE)
        if len(unsure):
            probabilities[unsure] = self.turned_looks(crops[unsure], probabilities[unsure])
        return probabilities, embeddings

    def turned_looks(self, crops: np.ndarray, first: np.ndarray) -> np.ndarray:
        """The mean of ``first`` and the probabilities of the crops turned by each of
        SECOND_LOOK_TURNS (a die's face has no up, the network's filters do)."""
        total = first.copy()
        for turns in SECOND_LOOK_TURNS:
            turned = np.ascontiguousarray(np.rot90(crops, turns, axes=(1, 2)))
            logits, _ = self.net.run(to_input(turned))
            total += softmax(logits / self.temperature)
        return total / (1 + len(SECOND_LOOK_TURNS))


def soft(crop: np.ndarray) -> bool:
    """Whether a crop is out of focus (SOFT_CROP)."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    spread = float(grey.std())
    return float(cv2.Laplacian(grey, cv2.CV_32F).std()) < SOFT_CROP * spread


def sharpened(crop: np.ndarray) -> np.ndarray:
    blurred = cv2.GaussianBlur(crop, (0, 0), SHARPEN_SIGMA)
    return cv2.addWeighted(crop, 1.0 + SHARPEN, blurred, -SHARPEN, 0)


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


def colours_of(crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each crop's middle median and print, the median of the middle's pixels least
    like that (BGR)."""
    middle = FACE_INPUT // 2
    half = int(FACE_INPUT * MIDDLE_SPAN / FACE_SPAN / 2)
    centre = crops[:, middle - half : middle + half, middle - half : middle + half]
    pixels = centre.reshape(len(crops), -1, 3).astype(np.float32)
    middles = np.median(pixels, axis=1)
    away = np.abs(pixels - middles[:, None, :]).sum(axis=2)
    far = np.argsort(away, axis=1)[:, -max(1, pixels.shape[1] // PRINT_SHARE) :]
    inks = np.median(np.take_along_axis(pixels, far[..., None], axis=1), axis=1)
    return middles, inks
