"""``DiceReader``: a BGR frame in, every die's top face out.

The pipeline, all classical OpenCV so it runs in milliseconds on one Pi core:
1. bring the frame to a working scale where a pip is about 8 pixels across (the scale
   is measured from the pips themselves, and remembered for the next frame);
2. find marks, dark and light (``marks``);
3. group the marks that share a top face and measure each face (``faces``);
4. read each face: the pip layout for pip dice, or the taught faces of a profile;
   a face that is neither a clean pip layout nor a taught face gets no value.
"""

from __future__ import annotations

import math
import time
from statistics import median

import cv2
import numpy as np

from dicetable.vision import faces as facing
from dicetable.vision.bodies import BodyHint, find_bodies
from dicetable.vision.colours import colour_name
from dicetable.vision.faces import Face
from dicetable.vision.marks import Mark, add_symbols, big_pips, find_marks
from dicetable.vision.profiles import Profile, builtin_d6
from dicetable.vision.reading import DieReading, FrameReading

# The pip size (work pixels) the reader scales frames to.
TARGET_PIP = 8.0
FIRST_LOOK = 1024  # long side of the first look at a big frame
# The longest side a frame is looked at: small dice in a 12 MP frame (pips of 3-4
# work pixels there still read) cost no more than a 3 MP look.
MOST_LOOK = 2048
MIN_DIE = 14.0  # work pixels: smaller "faces" are specks, not dice


def die_reading(
    face: Face, scale: float, read: tuple[int | None, str, str | None, float]
) -> DieReading:
    """A face found on the work image, read as ``(value, name, reason, confidence)``,
    reported in the frame's own pixels."""
    value, name, reason, confidence = read
    return DieReading(
        value=value,
        face=name,
        x=face.x / scale,
        y=face.y / scale,
        size=face.size / scale,
        confidence=confidence,
        color=colour_name(face.body_bgr),
        reason=reason,
    )


class DiceReader:
    """Reads frames with one dice profile (the built-in pip d6 when None)."""

    def __init__(self, profile: Profile | None = None) -> None:
        self.profile = profile or builtin_d6()
        self._pip: dict[tuple[int, int], float] = {}  # pip size in frame pixels, per frame size

    def read(self, frame: np.ndarray) -> FrameReading:
        start = time.perf_counter()
        dice = self._read(frame)
        return FrameReading(dice=tuple(dice), ms=(time.perf_counter() - start) * 1000)

    def faces(self, frame: np.ndarray) -> tuple[list[Face], float, np.ndarray]:
        """The faces found, the frame-to-work scale, and the work image (for profiles).

        One pass in the usual case: the pip size remembered from the last frame of this
        size (or a generous guess) sizes the mark kernel; the pips found give the true
        size, and only a frame whose pips are far from the target is looked at again.
        """
        height, width = frame.shape[:2]
        key = (width, height)
        floor = min(1.0, 640 / max(width, height))  # never below webcam resolution
        most = max(floor, min(1.0, MOST_LOOK / max(width, height)))
        known = self._pip.get(key)
        if known:
            scale = max(floor, min(most, TARGET_PIP / known))
            guess = known * scale
        else:
            scale = min(1.0, FIRST_LOOK / max(width, height))
            guess = max(width, height) * scale / 45
        found, scale, work, guess = _look(frame, scale, guess, floor, most)
        if not known and scale < most and not any(f.value and f.value >= 2 for f in found):
            # No layout of two pips or more read at the first look's scale (a lone
            # "pip" may be a whole small die): the dice may be small in a big
            # frame (mini dice, a phone far above the tray), their pips a pixel or two
            # there. Look again closer, for dice a third of the size guessed.
            closer = min(most, 2 * scale)
            found, scale, work, guess = _look(
                frame, closer, guess * closer / scale / 3, floor, most
            )
        measured = _pip_of(found)
        if measured:
            self._pip[key] = measured / scale
        else:
            self._pip.pop(key, None)
        return found, scale, work

    def _read(self, frame: np.ndarray) -> list[DieReading]:
        found, scale, work = self.faces(frame)
        hint = getattr(self.profile.model, "bodies", None)
        if hint is not None:
            found = self._with_bodies(work, found, hint)
        readings = [die_reading(face, scale, self.profile.read_face(work, face)) for face in found]
        readings.sort(key=lambda d: (round(d.y / max(d.size, 1.0)), d.x))
        return readings

    def _with_bodies(self, work: np.ndarray, found: list[Face], hint: BodyHint) -> list[Face]:
        """Add the taught dice found by their bodies, where the marks found none or
        only the pieces of a symbol. A body blob the profile cannot name is no die; a
        face read by its pips is kept as it was."""
        for body in find_bodies(work, hint):
            near = [f for f in found if math.hypot(f.x - body.x, f.y - body.y) < 0.6 * body.size]
            if any(f.value is not None for f in near):
                continue
            if self.profile.read_face(work, body)[2] is not None:
                continue  # not a face the profile knows: leave what the marks found
            found = [f for f in found if not any(f is g for g in near)] + [body]
        return found


def _look(
    frame: np.ndarray, scale: float, guess: float, floor: float, most: float
) -> tuple[list[Face], float, np.ndarray, float]:
    """One look at ``frame`` at about ``scale`` (from ``floor`` to ``most``) with pips
    about ``guess`` work pixels: the faces, the scale and work image used, and the pip
    size found."""
    work = quiet(shrink(frame, scale))
    gray = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    # The first look needs pips only; symbols are looked for once the scale is known.
    marks, labels = find_marks(gray, guess, symbols=False)
    typical = _typical_pip(marks)
    if typical is not None and not 0.6 < typical / guess < 1.6:
        better = max(floor, min(most, scale * TARGET_PIP / typical))
        if abs(better - scale) / scale > 0.25:
            work = quiet(shrink(frame, better))
            gray = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
            typical *= better / scale
            scale = better
        guess = typical
        marks, labels = find_marks(gray, guess, symbols=False)
    elif typical is not None:
        guess = typical
    add_symbols(gray, guess, marks, labels)
    found = read_faces(work, gray, marks, labels, guess)
    measured = _pip_of(found)
    if measured and not 0.7 < measured / guess < 1.4:
        # The dice read say the pips are another size than the kernel assumed
        # (print or specks misled the first look): look again with their size.
        guess = measured
        marks, labels = find_marks(gray, guess)
        found = read_faces(work, gray, marks, labels, guess)
    return found, scale, work, guess


# Grain (grey levels, standard deviation) above which a frame is smoothed first.
NOISY = 4.0


def quiet(work: np.ndarray) -> np.ndarray:
    """The work image, smoothed when it is grainy: a phone's or webcam's high ISO in
    a dim room scatters pixels by 10 grey levels or more, which the walks from pip to
    pip and out to a die's edge take for edges. The grain is measured as the median
    step between neighbouring pixels (edges are few, so they barely move it)."""
    sample = work[::4, ::2, 1].astype(np.int16)
    steps = np.abs(sample[:, 1:] - sample[:, :-1]).ravel()
    middle = len(steps) // 2
    grain = float(np.partition(steps, middle)[middle]) * 1.05  # MAD -> sigma, for steps
    if grain <= NOISY:
        return work
    return cv2.GaussianBlur(work, (5, 5), 0)


def shrink(frame: np.ndarray, scale: float) -> np.ndarray:
    """Frame scaled by ``scale`` <= 1; fast on 12 MP: every few pixels are picked to
    twice the target size first (a nearest-neighbour resize, no copy of the whole
    frame), then averaged down."""
    if scale >= 0.999:
        return frame
    height, width = frame.shape[:2]
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    if scale < 0.4:
        double = (size[0] * 2, size[1] * 2)
        frame = cv2.resize(frame, double, interpolation=cv2.INTER_NEAREST)
    return cv2.resize(frame, size, interpolation=cv2.INTER_AREA)


def _pip_of(found: list[Face]) -> float | None:
    """Pip diameter of the dice read with clean layouts of two pips or more (a One's
    pip is printed bigger), else of any die read."""
    clean = [f for f in found if f.value and f.value >= 2 and f.fit < 0.15] or [
        f for f in found if f.value
    ]
    return _typical_pip([m for face in clean for m in face.marks])


def _typical_pip(marks: list[Mark]) -> float | None:
    """Diameter of the pips, or None: the round, solid marks of strong contrast (print
    on a die stands out more than grain or dust) that have a like mark at pip spacing
    (pips come in patterns; specks on a cable or grain do not keep such company)."""
    round_marks = [m for m in marks if m.pip_like]
    if not round_marks:
        return None
    strong_level = 0.5 * float(np.percentile([m.contrast for m in round_marks], 90))
    strong = [m for m in round_marks if m.contrast >= strong_level]
    points = np.array([(m.x, m.y) for m in strong])
    radii = np.array([m.radius for m in strong])
    gaps = np.hypot(*(points[:, None, :] - points[None, :, :]).transpose(2, 0, 1)) / radii[:, None]
    alike = np.abs(np.log(radii[None, :] / radii[:, None])) < 0.3
    company = (alike & (gaps > 2.5) & (gaps < 9.5)).any(axis=1)
    paired = [2 * float(r) for r in radii[company]]
    chosen = paired or [2 * m.radius for m in strong]
    return float(median(chosen))


def read_faces(
    work: np.ndarray, gray: np.ndarray, marks: list[Mark], labels: np.ndarray, pip: float
) -> list[Face]:
    """Group marks into faces, measure them and read pip values (profile-free part)."""
    pip_radius = pip / 2
    marks = big_pips(marks, labels, pip_radius)
    groups = facing.group_marks(work, gray, marks, labels, pip_radius)
    inks = [m.contrast for m in marks if m.pip_like]
    # Print on dice is bold; faint blobs alone (grain, dust) are not worth measuring.
    faint = 0.35 * float(np.percentile(inks, 90)) if inks else 0.0
    ink = np.zeros(max((m.label for m in marks), default=0) + 1, np.float32)
    for mark in marks:
        ink[mark.label] = mark.contrast
    found: list[Face] = []
    for group in groups:
        members = facing.unsmear([marks[i] for i in group])
        if max(m.contrast for m in members) < faint:
            continue
        members = facing.printed_alike(members)
        if len(members) == 1 and members[0].radius < 0.7 * pip_radius:
            continue  # a One's pip is as big as any pip, mostly bigger
        for part in facing.split_touching(members):
            face = facing.measure_face(work, gray, labels, part, pip_radius, ink)
            pips = [m for m in part if m.pip_like]
            if face is None and pips and len(pips) < len(part):
                # Flattened print of a side face walked into the group and spoilt the
                # face's measure: the round pips alone (a One's pip too) may still be
                # a whole face.
                face = facing.measure_face(work, gray, labels, pips, pip_radius, ink)
            if face is not None:
                found.append(face)
    found = facing.join_split_faces(work, gray, labels, found, pip_radius)
    return facing.out_of_view(_finish(found, work), marks, labels)


def _finish(found: list[Face], work: np.ndarray) -> list[Face]:
    floor = np.median(work[::8, ::8].reshape(-1, 3), axis=0)
    return consistent(facing.drop_side_faces(found), floor, work.shape[0])


def consistent(found: list[Face], floor: np.ndarray, height: int) -> list[Face]:
    """Drop what is not the size of the dice in this tray.

    Dice in one tray are of one size (give or take a mixed set); clutter beside it
    (keyboard keys, a cable's plug, printed text) comes in other sizes. The clear pip
    layouts of two or more pips set the reference; faces far from it are dropped, and
    faces without a value need a clearer die edge than read ones, and a body unlike
    the tray's floor (``floor``, the frame's median colour): print with no die around
    it is a cable, a key or a stain.
    """
    found = [f for f in found if f.size >= MIN_DIE]
    valued = [f for f in found if f.value]
    if not valued:
        return [f for f in found if f.edge_found >= 0.9]

    def alike(f: Face, g: Face) -> bool:
        return 0.7 * g.size <= f.size <= 1.45 * g.size

    # The reference is the size most read faces agree on; clear layouts count more.
    def support(f: Face) -> tuple[float, float]:
        clear = f.value is not None and f.value >= 2 and f.fit < 0.12
        return sum(alike(g, f) for g in valued) + 0.5 * clear, f.edge_found

    best = max(valued, key=support)
    clear = [g for g in valued if alike(g, best)]
    size = float(median([f.size for f in clear]))
    pip = float(median([m.radius for f in clear for m in f.marks if m.pip_like] or [1.0]))
    ink = float(median([m.contrast for f in clear for m in f.marks if m.pip_like] or [0.0]))
    middle = float(median([f.y for f in clear]))
    growth = _perspective(valued, height)
    kept = []
    for face in found:
        # The tray's dice at this height; only nearer dice are let grow: lone marks of
        # clutter far behind the tray are small too, and the far dice are few.
        nearer = max(1.0, math.exp(growth * (face.y - middle)))
        if not 0.7 * size * nearer <= face.size <= 1.45 * size * nearer:
            continue
        radii = [m.radius for m in face.marks if m.pip_like or not m.wide]
        if radii:  # a face of print other than pips (a symbol) has no pip size to compare
            ratio = float(median(radii)) / (pip * nearer)
            most = 1.6 if face.value != 1 else (3.2 if face.marks[0].disc else 2.1)
            if not 0.6 <= ratio <= most:
                continue
        on_floor = np.abs(np.array(face.body_bgr) - floor).max() < 30
        specks = face.value is not None and face.value <= 2 and face.edge_found < 0.9
        if specks and on_floor and not face.runs_off:
            continue  # a speck or two on a speckled floor (granite, cork), no die round them
        if face.value is None and (
            face.edge_found < 0.9
            or on_floor
            or not any(np.abs(np.subtract(face.body_bgr, g.body_bgr)).max() < 40 for g in clear)
        ):
            continue  # a die without a value must look like the dice that were read
        if not radii and (
            face.edge_found < 0.95 or min(m.contrast for m in face.marks) < 0.6 * ink
        ):
            continue  # a symbol must be printed as boldly as the pips around it
        kept.append(face)
    return kept


def _perspective(valued: list[Face], height: int) -> float:
    """How fast dice grow down the picture (d log size / d y): a camera looking at the
    tray from the side sees the far dice smaller than the near ones, up to twice.
    The median slope over pairs of read faces well apart in height (robust to a
    stray reading); 0 with too few faces to tell."""
    if len(valued) < 4:
        return 0.0
    slopes = [
        math.log(b.size / a.size) / (b.y - a.y)
        for i, a in enumerate(valued)
        for b in valued[i + 1 :]
        if abs(b.y - a.y) > 0.5 * max(a.size, b.size)
    ]
    if len(slopes) < 3:
        return 0.0
    limit = math.log(3.0) / height  # at most three times bigger across the frame
    return float(np.clip(np.median(slopes), -limit, limit))
