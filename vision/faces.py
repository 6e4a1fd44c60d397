"""From marks to dice: which marks share a top face, where that face is, what it shows.

Two marks belong to the same face when they look alike (same polarity and size, the
same body colour around them) and the straight walk from one to the other stays on
that body colour: the walk between pips of two touching dice crosses their edges
(a seam, a shadow or the floor), and the walk from a top-face pip to a side-face pip
crosses the edge between two differently lit faces. The face is then measured by
walking outwards from its centre to where the body colour ends.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from statistics import median

import cv2
import numpy as np

from dicetable.vision.marks import Mark

# Pip centres of the six d6 layouts on a face of side 1, centred on 0.
_C = 0.26
LAYOUTS: dict[int, np.ndarray] = {
    1: np.array([(0.0, 0.0)]),
    2: np.array([(-_C, -_C), (_C, _C)]),
    3: np.array([(-_C, -_C), (0.0, 0.0), (_C, _C)]),
    4: np.array([(-_C, -_C), (_C, -_C), (-_C, _C), (_C, _C)]),
    5: np.array([(-_C, -_C), (_C, -_C), (0.0, 0.0), (-_C, _C), (_C, _C)]),
    6: np.array([(-_C, -_C), (_C, -_C), (-_C, 0.0), (_C, 0.0), (-_C, _C), (_C, _C)]),
}
# The most a read layout may be off (residual over face side). Real webcam faces,
# blur and perspective included, stay under 0.12; more is a wrong grouping of marks.
LAYOUT_FIT = 0.14
_RING = np.linspace(0, 2 * np.pi, 12, endpoint=False)  # around a mark, for its body colour
_WALKS = np.linspace(0, 2 * np.pi, 16, endpoint=False)  # out from a face, to its edge
# The least side of a pip layout, in pip diameters: d6 pips are printed at most about
# a quarter of the face (the webcam photos: 3.6 and up, 4.7 typical; rendered dice
# 5.9); dots closer together are print of another kind, as the eyes of a skull.
MIN_SPREAD = 3.5


@dataclass
class Face:
    """A group of marks taken for one die's top face (work-image pixels)."""

    marks: list[Mark]
    x: float
    y: float
    size: float
    body_bgr: tuple[float, float, float]
    body_gray: float
    edge_found: float  # share of the walks outwards that met the die's edge
    fit: float  # layout residual over face size (0 = a perfect pip layout)
    value: int | None = None
    reason: str | None = None
    runs_off: bool = False  # the die's body runs off the frame (a walk left it, no edge met)


class _Union:
    def __init__(self, count: int) -> None:
        self.parent = list(range(count))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def join(self, i: int, j: int) -> None:
        self.parent[self.find(i)] = self.find(j)


def ring_colours(
    image: np.ndarray, gray: np.ndarray, marks: list[Mark], labels: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Median colour (BGR, and grey) of a ring around each mark, skipping other marks:
    the body of the die around a pip."""
    if not marks:
        return np.zeros((0, 3)), np.zeros(0)
    height, width = gray.shape
    angles = _RING
    centres = np.array([(m.x, m.y) for m in marks])
    # A big One's pip nearly fills its face: its ring is drawn closer.
    radii = np.array([m.radius * (1.4 if m.disc else 2.0) + 1.5 for m in marks])
    xs = np.clip((centres[:, :1] + radii[:, None] * np.cos(angles)).astype(int), 0, width - 1)
    ys = np.clip((centres[:, 1:] + radii[:, None] * np.sin(angles)).astype(int), 0, height - 1)
    on_mark = labels[ys, xs] != 0
    # Keep the ring points off marks, unless that leaves too few to trust.
    on_mark &= (~on_mark).sum(axis=1, keepdims=True) >= 4
    middle = ((~on_mark).sum(axis=1) - 1) // 2
    rows = np.arange(len(marks))
    grey = np.sort(np.where(on_mark, np.inf, gray[ys, xs].astype(np.float32)), axis=1)
    bgr = np.sort(np.where(on_mark[..., None], np.inf, image[ys, xs].astype(np.float32)), axis=1)
    return bgr[rows, middle], grey[rows, middle]


def same_face(
    image: np.ndarray,
    labels: np.ndarray,
    a: Mark,
    b: Mark,
    body: np.ndarray,
    tolerance: float,
) -> bool:
    """Whether the walk from mark a to mark b stays on the body colour (stepping over
    marks). Colour, not grey: a red die and green felt can be equally bright."""
    distance = math.hypot(b.x - a.x, b.y - a.y)
    steps = max(4, int(distance))
    t = np.arange(steps) * (1.0 / (steps - 1))  # np.linspace(0, 1, steps), faster
    t[-1] = 1.0
    xs = np.round(a.x + (b.x - a.x) * t).astype(int)
    ys = np.round(a.y + (b.y - a.y) * t).astype(int)
    free = labels[ys, xs] == 0
    # Skip the soft edge of each end's mark.
    along = t * distance
    free &= (along > a.radius * 1.6) & (along < distance - b.radius * 1.6)
    if free.sum() < 2:
        return True
    away = np.abs(image[ys, xs].astype(np.float32) - body[None, :]).max(axis=1)
    # A blurred pip's halo reaches further: from each end, also skip while the walk
    # still fades towards the body colour (a seam or edge rises again, a halo does not).
    # Only round pips (or pips smeared alike by motion blur): a side face's flattened
    # print lies right at the face's edge.
    inside = np.nonzero(free)[0]
    first, last = int(inside[0]), int(inside[-1])
    # Motion blur along the walk stretches the halo as much as it stretches the pip.
    smeared = smeared_alike(a, b)
    heading = math.atan2(b.y - a.y, b.x - a.x)
    first_limit = np.searchsorted(along, _halo(a, heading, a.pip_like or smeared))
    last_limit = np.searchsorted(along, distance - _halo(b, heading, b.pip_like or smeared))
    while first < min(last, first_limit) and away[first + 1] < away[first]:
        first += 1
    while last > max(first, last_limit) and away[last - 1] < away[last]:
        last -= 1
    free[:first] = False
    free[last + 1 :] = False
    return bool(not free.any() or away[free].max() <= tolerance)


def _halo(mark: Mark, heading: float, round_pip: bool) -> float:
    """How far from a mark's centre its blurred halo may reach along ``heading``."""
    if not round_pip:
        return mark.radius * 1.6
    stretch = 1 + (mark.elongation - 1) * abs(math.cos(mark.axis - heading))
    return mark.radius * 2.2 * stretch


def group_marks(
    image: np.ndarray,
    gray: np.ndarray,
    marks: list[Mark],
    labels: np.ndarray,
    pip_radius: float,
) -> list[list[int]]:
    """Indices of the marks that share a face, one list per face."""
    count = len(marks)
    union = _Union(count)
    if count == 0:
        return []
    points = np.array([(m.x, m.y) for m in marks])
    body_bgr, _ = ring_colours(image, gray, marks, labels)
    radii = np.array([m.radius for m in marks])
    areas = sorted(m.area for m in marks if m.pip_like)
    typical = areas[len(areas) // 2] if areas else math.pi * pip_radius**2
    # Round pips join round pips; a big mark (part of a symbol) joins anything; the
    # small flattened marks (pips of a side face seen edge-on) only join each other.
    kind = [0 if m.pip_like else (1 if m.area > typical * 1.6 else 2) for m in marks]

    def pairs(i: int, reach: float, alone: np.ndarray | None) -> None:
        near = np.nonzero(np.hypot(*(points - points[i]).T) < reach * np.maximum(radii, radii[i]))
        for j in near[0]:
            if j <= i or (alone is not None and not alone[j]):
                continue
            a, b = marks[i], marks[int(j)]
            if a.polarity != b.polarity:
                continue
            pair = {kind[i], kind[int(j)]}
            if pair == {1, 2} or (pair == {0, 2} and not smeared_alike(a, b)):
                continue
            if max(a.contrast, b.contrast) > (1.8 if 1 in pair else 2.0) * min(
                a.contrast, b.contrast
            ):
                # Print is printed alike; a shadow beside a symbol is fainter, and so
                # are the pips of a translucent die's bottom face seen through it.
                continue
            big, small = max(a.radius, b.radius), min(a.radius, b.radius)
            if big > small * 1.45:  # pips of one face are printed alike
                continue
            if np.abs(body_bgr[i] - body_bgr[j]).max() > 45:
                continue
            body = (body_bgr[i] + body_bgr[j]) / 2
            contrast = min(a.contrast, b.contrast)
            # A seam between two dark dice is only a little darker still: on a dark
            # body the walk may stray less.
            tolerance = max(12.0, min(0.22 * contrast, 0.4 * float(body.max())))
            if same_face(image, labels, a, b, body, tolerance):
                union.join(i, int(j))

    # Pips of one face are at most a diagonal apart: about 9 pip radii.
    for i in range(count):
        pairs(i, 9.5, None)
    # Small print (pips a sixth of the side across, or less) sets a Two's pips 12
    # radii apart: round pips left alone may join another lone one that far.
    roots = [union.find(i) for i in range(count)]
    sizes = Counter(roots)
    alone = np.array([sizes[r] == 1 and kind[i] == 0 for i, r in enumerate(roots)])
    for i in np.nonzero(alone)[0]:
        pairs(int(i), 12.5, alone)
    groups: dict[int, list[int]] = {}
    for i in range(count):
        groups.setdefault(union.find(i), []).append(i)
    return list(groups.values())


def smeared_alike(a: Mark, b: Mark) -> bool:
    """Whether two marks are stretched alike, as motion blur stretches every pip of a
    moving die (or of a shaken camera's frame): the same elongation along parallel axes.
    A side face's pips are flattened more than its top face's, so they differ."""
    low, high = sorted((a.elongation, b.elongation))
    return (
        not a.wide
        and not b.wide
        and low > 1.3
        and high < 2.0
        and high < 1.2 * low
        and abs(math.sin(a.axis - b.axis)) < 0.3
        and 0.75 < a.fill < 1.3
        and 0.75 < b.fill < 1.3
    )


def unsmear(members: list[Mark]) -> list[Mark]:
    """The marks of a face, those smeared alike with one of its round pips counted as
    pips too: a blurred Two is two pips, not a One and a flattened mark."""
    round_pips = [m for m in members if m.pip_like]
    return [
        replace(m, smeared=True)
        if not m.pip_like and any(smeared_alike(m, p) for p in round_pips)
        else m
        for m in members
    ]


def printed_alike(members: list[Mark]) -> list[Mark]:
    """The marks of a group without the round pips much fainter than its boldest:
    a translucent die shows its bottom face's pips through its top face, at about a
    third of their contrast, and at the very places of the top face's layout."""
    bold = max((m.contrast for m in members if m.pip_like), default=0.0)
    return [m for m in members if not m.pip_like or m.contrast >= 0.55 * bold]


def split_touching(members: list[Mark]) -> list[list[Mark]]:
    """Split a group that is two or three touching dice whose pips walk into each other
    (same colour, no visible seam): more than six pips, or no layout that fits, but
    parts that each fit a layout. The fewest parts win, then the cleanest layouts:
    besides the clusters k-means finds, a whole layout with one pip left over (the pip
    of a neighbour's side face that the walk reached) is tried."""
    pips = [m for m in members if m.pip_like]
    if len(pips) < 4:
        return [members]
    points = np.array([(m.x, m.y) for m in pips], np.float32)
    if len(pips) <= 6 and layout_fit(points.astype(np.float64), len(pips))[0] <= LAYOUT_FIT:
        return [members]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    for parts in range(2, min(5, len(pips)) + 1):
        if len(pips) > 6 * parts:
            continue
        cv2.setRNGSeed(parts)  # the same split for the same frame, every time
        _, assigned, _ = cv2.kmeans(points, parts, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
        splits = [
            [
                [p for p, a in zip(pips, assigned.ravel(), strict=True) if a == k]
                for k in range(parts)
            ]
        ]
        if parts == 2 and len(pips) <= 7:
            splits += [[pips[:i] + pips[i + 1 :], [pips[i]]] for i in range(len(pips))]
        fits = [_worst_fit(split) for split in splits]
        best = int(np.argmin(fits))
        if fits[best] <= 0.15:
            return splits[best]
    return [members]


def _worst_fit(split: list[list[Mark]]) -> float:
    """The worst layout fit among the parts of a split (inf for a part no die shows)."""
    if not all(0 < len(part) <= 6 for part in split):
        return math.inf
    return max(layout_fit(np.array([(m.x, m.y) for m in part]), len(part))[0] for part in split)


def layout_fit(points: np.ndarray, value: int) -> tuple[float, float]:
    """How well ``points`` match the d6 layout of ``value``: (residual / side, side).

    The layout is tried at the orientations the points themselves suggest (every
    pairwise direction, modulo a quarter turn) and at the size their spread gives.
    """
    layout = LAYOUTS[value]
    centre = points.mean(axis=0)
    centred = points - centre
    if value == 1:
        return 0.0, 0.0
    spread = max(
        math.hypot(*(points[i] - points[j]))
        for i in range(len(points))
        for j in range(i + 1, len(points))
    )
    side = spread / (2 * _C * math.sqrt(2))  # corner to corner, on every layout of 2..6
    angles = set()
    for i in range(len(points)):
        for j in range(i + 1, len(points)):
            dx, dy = points[j] - points[i]
            base = math.atan2(dy, dx)
            # The 2 and the 3 lie on either diagonal: try both quarter-turn offsets.
            for offset in (0.0, math.pi / 4, -math.pi / 4):
                angles.add(round((base + offset) % math.pi, 3))
    turns = np.array(sorted(angles))
    c, s = np.cos(turns)[:, None], np.sin(turns)[:, None]
    # Every orientation at once: (turns, positions, 2).
    turned = np.stack([layout[:, 0] * c - layout[:, 1] * s, layout[:, 0] * s + layout[:, 1] * c], 2)
    turned *= side
    d = np.linalg.norm(centred[None, :, None, :] - turned[:, None, :, :], axis=3)
    # Each point to its nearest layout position, each position to its nearest point.
    errors = np.maximum(d.min(axis=2).max(axis=1), d.min(axis=1).max(axis=1))
    best = float(errors.min())
    return best / max(side, 1e-6), side


def measure_face(
    work: np.ndarray,
    gray: np.ndarray,
    labels: np.ndarray,
    members: list[Mark],
    pip_radius: float,
    ink: np.ndarray | None = None,
) -> Face | None:
    """The face around a group of marks: centre, side, body colour, and pip value.

    Walks outwards from the centre in 16 directions to where the body colour ends;
    a group with no such edge around it (a knot in the wood, a spot on the felt)
    is not a die and gives None. ``ink`` (each mark's contrast, by label) lets the
    walks step over print much fainter than the face's own: the pips of a translucent
    die's bottom face, seen through it, are not its edge.
    """
    pips = [m for m in members if m.pip_like]
    if not pips and len(members) < 2 and members[0].area < 2.5 * math.pi * pip_radius**2:
        return None  # one small shapeless spot: grain, dust or glare, not a face
    anchor = pips or members
    pip_radius = float(median([m.radius for m in anchor]))
    if len(pips) == 1:
        pip_radius *= 0.8  # a lone pip (a One) is often printed larger
    cx = sum(m.x for m in anchor) / len(anchor)
    cy = sum(m.y for m in anchor) / len(anchor)
    ring_bgr, ring_gray = ring_colours(work, gray, members, labels)
    body_bgr = tuple(float(v) for v in _middle(ring_bgr))
    body = float(_middle(ring_gray))
    reach = max(math.hypot(m.x - cx, m.y - cy) + m.radius for m in members)
    start = reach + pip_radius * 0.8
    stop = max(start + pip_radius * 3, pip_radius * 13)
    height, width = gray.shape
    angles = _WALKS
    radii = np.arange(start, stop, 1.0)
    xs = np.round(cx + np.outer(np.cos(angles), radii)).astype(int)
    ys = np.round(cy + np.outer(np.sin(angles), radii)).astype(int)
    outside = (xs < 0) | (xs >= width) | (ys < 0) | (ys >= height)
    if outside.any():
        xs, ys = np.clip(xs, 0, width - 1), np.clip(ys, 0, height - 1)
    walked = labels[ys, xs]
    own = walked == members[0].label
    for m in members[1:]:
        own |= walked == m.label
    contrast = float(median([m.contrast for m in members]))
    if ink is not None:
        own |= (walked > 0) & (ink[walked] < 0.55 * contrast)
    tolerance = max(16.0, 0.22 * contrast)
    colour = np.array(body_bgr, np.float32)
    away = np.abs(work[ys, xs].astype(np.float32) - colour).max(axis=2)
    off = (away > tolerance) & ~own
    off &= ~outside  # leaving the frame is not meeting an edge
    edge = off[:, :-1] & off[:, 1:]
    found = edge.any(axis=1)
    ends = np.where(found, edge.argmax(axis=1), len(radii) - 1)
    lengths = radii[ends]
    edge_found = float(np.count_nonzero(found)) / len(found)
    runs_off = bool((outside.any(axis=1) & ~found).any())
    diameter = 2 * float(median([m.radius for m in anchor]))
    if edge_found < 0.6:
        # A die of its floor's colour (a black die on black felt) shows no edge; three
        # pips or more in a clean layout still make a face, of the layout's size.
        size = _bare_layout(pips, diameter)
        if size is None:
            return None
    else:
        low, short, high = _percentiles(lengths[found], (20, 30, 80))
        if high > 2.2 * low:  # a long thin thing (a cable, a finger), not a square face
            return None
        # The shorter walks: a walk may run on into a side face that is lit alike.
        size = 2 * float(short) / 1.04
    # A lone pip (a One) may be printed up to half the face's side.
    big_one = len(pips) == 1 and pips[0].disc
    if pips and not (1.6 if big_one else 2.8) * diameter <= size <= 11 * diameter:
        return None
    if not pips and not 1.1 * diameter <= size <= 3.5 * diameter:
        return None  # a symbol covers a good part of its face
    face = Face(
        marks=members,
        x=cx,
        y=cy,
        size=size,
        body_bgr=(body_bgr[0], body_bgr[1], body_bgr[2]),
        body_gray=body,
        edge_found=edge_found,
        fit=0.0,
        runs_off=runs_off,
    )
    read_pips(face, pip_radius)
    return face


def _bare_layout(pips: list[Mark], diameter: float) -> float | None:
    """The side of a face known by its pips alone: three to six round pips in a clean
    layout of a pip's proportions (a pair of specks fits a Two, so two are not enough)."""
    if not 3 <= len(pips) <= 6:
        return None
    fit, side = layout_fit(np.array([(m.x, m.y) for m in pips]), len(pips))
    if fit > 0.1 or not MIN_SPREAD * diameter <= side <= 8 * diameter:
        return None
    return side


def _middle(values: np.ndarray) -> np.ndarray:
    """np.median along the first axis, without its overhead (small arrays, per face)."""
    ordered = np.sort(values, axis=0)
    half = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[half]
    return (ordered[half - 1] + ordered[half]) / 2


def _percentiles(values: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    """np.percentile(values, qs) (linear), without its overhead (per face)."""
    ordered = np.sort(values)
    result = []
    for q in qs:
        at = q / 100 * (len(ordered) - 1)
        low = math.floor(at)
        high = min(low + 1, len(ordered) - 1)
        result.append(float(ordered[low] + (ordered[high] - ordered[low]) * (at - low)))
    return result


def read_pips(face: Face, pip_radius: float) -> None:
    """Set the pip value of a face, or the reason it has none."""
    pips = [m for m in face.marks if m.pip_like]
    # Marks near the rim are shading of the rounded edges, not print.
    inner = [m for m in face.marks if math.hypot(m.x - face.x, m.y - face.y) < face.size * 0.36]
    others = [m for m in inner if not m.pip_like]
    typical = float(median([m.area for m in pips])) if pips else math.pi * pip_radius**2
    strongest = max(p.contrast for p in face.marks)
    symbol = [
        m for m in others if (m.wide or m.area > typical * 1.6) and m.contrast > 0.5 * strongest
    ]
    if symbol and len(pips) >= 2 and len(pips) <= 6:
        # A clean pip layout wins over a big blob: that is shading on the rim.
        fit, _ = layout_fit(np.array([(m.x, m.y) for m in pips]), len(pips))
        if fit < 0.1:
            symbol = []
    if symbol:
        face.reason = "unknown face"
        return
    if not pips:
        face.reason = "cocked"  # only flattened marks: a face seen edge-on
        return
    if len(pips) > 6:
        face.reason = "unreadable"
        return
    points = np.array([(m.x, m.y) for m in pips])
    fit, side = layout_fit(points, len(pips))
    face.fit = fit
    if fit > LAYOUT_FIT:
        face.reason = "unreadable"
        return
    if len(pips) >= 2 and side < MIN_SPREAD * 2 * float(median([m.radius for m in pips])):
        face.reason = "unknown face"  # dots too close for pips: the eyes of a skull
        return
    face.value = len(pips)


def drop_side_faces(found: list[Face]) -> list[Face]:
    """Keep one face per die: the top one.

    Two faces closer than a die's side are two faces of one die seen from an angle.
    The side face is the one whose marks are flattened; when neither is clearly
    flatter (a camera at about 45 degrees), it is the one nearer the camera's foot,
    which is lower in the picture for a camera at the player's side. A face with no
    value beside a read face is a side face too; one on its own is a cocked die.
    """
    # Print on a face (the eyes of a skull) is not a face of its own.
    found = [
        f
        for f in found
        if not any(
            g.size > 1.3 * f.size and math.hypot(f.x - g.x, f.y - g.y) < 0.4 * g.size for g in found
        )
    ]
    found = _drop_gaps(found)
    order = sorted(found, key=lambda f: (f.value is None, _flatness(f), f.y))
    kept: list[Face] = []
    for face in order:
        rival = next(
            (
                k
                for k in kept
                if math.hypot(face.x - k.x, face.y - k.y) < 0.9 * max(k.size, face.size)
            ),
            None,
        )
        if rival is None:
            kept.append(face)
            continue
        if face.value is None or rival.value is None:
            continue
        if _looks_on_top(face, rival):
            kept[kept.index(rival)] = face
    return _seen_edge_on(kept)


def _looks_on_top(face: Face, rival: Face) -> bool:
    """Which of two faces of one die is its top face: the one whose pips are less
    flattened; else the one whose pips are clearly bigger and bolder (a camera more
    above the dice than beside them sees the top face more squarely, and the light
    from above leaves the side faces in shade); else the higher in the picture."""
    if math.hypot(face.x - rival.x, face.y - rival.y) < 0.25 * max(face.size, rival.size):
        # One place, two layouts: a translucent die shows its bottom face through its
        # top face, fainter. The boldest print is on top.
        return _ink(face) > _ink(rival)
    flat_face, flat_rival = _flatness(face), _flatness(rival)
    if flat_face > flat_rival * 1.25 or flat_rival > flat_face * 1.25:
        return flat_rival > flat_face
    area, rival_area = _pip_area(face), _pip_area(rival)
    ink, rival_ink = _ink(face), _ink(rival)
    if area > 1.3 * rival_area and ink > 1.3 * rival_ink:
        return True
    if rival_area > 1.3 * area and rival_ink > 1.3 * ink:
        return False
    return face.y < rival.y


def _pip_area(face: Face) -> float:
    return float(median([m.area for m in face.marks if m.pip_like] or [0.0]))


def _ink(face: Face) -> float:
    return float(median([m.contrast for m in face.marks if m.pip_like] or [0.0]))


def _seen_edge_on(kept: list[Face]) -> list[Face]:
    """Drop a face next to another whose pips are squashed towards it: seen from an
    angle, a side face's pips are flattened along the line to the top face (the top
    face's pips much less so, for a camera more above the dice than beside them).
    At about 45 degrees both faces are flattened alike; the side face is then the one
    in shade (light comes from above) right against the other, closer than two dice
    side by side can be."""
    dropped = set()
    for i, side in enumerate(kept):
        for top in kept:
            if top is side or side.value is None:
                continue
            dx, dy = top.x - side.x, top.y - side.y
            apart = math.hypot(dx, dy) / max(top.size, side.size)
            if apart > 1.35:
                continue
            flat_side, flat_top = _flatness(side), _flatness(top)
            shaded = apart < 1.08 and side.body_gray < top.body_gray - 12
            if flat_side < 1.18 or (flat_side < 1.12 * flat_top and not shaded):
                continue
            toward = math.atan2(dy, dx)
            axes = [m.axis for m in side.marks if m.pip_like]
            # Squashed towards the top face: the long axis lies across that line.
            across = median([abs(math.sin(a - toward)) for a in axes]) if axes else 0.0
            if across > 0.8:
                dropped.add(i)
    return [f for i, f in enumerate(kept) if i not in dropped]


def _flatness(face: Face) -> float:
    return float(median([m.elongation for m in face.marks]))


def join_split_faces(
    work: np.ndarray,
    gray: np.ndarray,
    labels: np.ndarray,
    found: list[Face],
    pip_radius: float,
) -> list[Face]:
    """Put back together a top face whose pips were grouped as two faces.

    Blur, a dent of shadow or the glare on an oblique face can break the walk between
    two pips of one face: a Six then reads as two Threes (its columns), a Three as a
    Two and a One. Two read faces closer than a die's side whose pips together make a
    clean layout, of the size both faces were measured at, are one face. Two lone pips
    join only when smaller than a One's pip is printed (then they are a Two's)."""
    faces = list(found)
    joined = True
    while joined:
        joined = False
        for i, a in enumerate(faces):
            for b in faces[i + 1 :]:
                face = _joined(work, gray, labels, a, b, pip_radius)
                if face is not None:
                    faces = [f for f in faces if f is not a and f is not b] + [face]
                    joined = True
                    break
            if joined:
                break
    return faces


def _joined(
    work: np.ndarray,
    gray: np.ndarray,
    labels: np.ndarray,
    a: Face,
    b: Face,
    pip_radius: float,
) -> Face | None:
    if a.value is None or b.value is None or a.value + b.value > 6:
        return None
    side = max(a.size, b.size)
    if math.hypot(a.x - b.x, a.y - b.y) > 0.75 * side:
        return None
    pips = [m for m in a.marks + b.marks if m.pip_like]
    if len(pips) != a.value + b.value or len({m.polarity for m in pips}) != 1:
        return None
    radii = [m.radius for m in pips]
    if max(radii) > 1.7 * min(radii):  # blur shrinks some pips more than others
        return None
    if np.abs(np.subtract(a.body_bgr, b.body_bgr)).max() > 45:
        return None
    if max(_ink(a), _ink(b)) > 1.8 * min(_ink(a), _ink(b)):
        return None  # a translucent die's top face and its bottom face seen through it
    if len(pips) == 2 and max(radii) > 1.2 * pip_radius:
        return None  # two Ones side by side, not a Two
    fit, layout_side = layout_fit(np.array([(m.x, m.y) for m in pips]), len(pips))
    if fit > 0.1 or not 0.6 * side <= layout_side <= 1.25 * side:
        return None
    face = measure_face(work, gray, labels, a.marks + b.marks, pip_radius)
    if face is None or face.value != len(pips):
        return None
    return face


def _drop_gaps(found: list[Face]) -> list[Face]:
    """Drop the "pips" that are the gaps between another face's pips: between two dark
    pips in a row, the body shows as a light bump as round as a pip, and a Three's
    pips with the two gaps between them read as a Two of the other polarity. The
    gaps lie at midpoints of the real pips; the real pips are not all at midpoints."""
    dropped: set[int] = set()
    for i, a in enumerate(found):
        for j, b in enumerate(found):
            if i == j or a.value is None or b.value is None:
                continue
            if math.hypot(a.x - b.x, a.y - b.y) > 0.35 * max(a.size, b.size):
                continue
            if a.marks[0].polarity == b.marks[0].polarity:
                continue
            if _at_midpoints(a, b) >= 0.99 and _at_midpoints(b, a) < 0.99:
                dropped.add(i)
    return [f for i, f in enumerate(found) if i not in dropped]


def _at_midpoints(a: Face, b: Face) -> float:
    """Share of a's pips that lie halfway between two of b's pips."""
    pips = [m for m in b.marks if m.pip_like]
    middles = [
        ((p.x + q.x) / 2, (p.y + q.y) / 2) for k, p in enumerate(pips) for q in pips[k + 1 :]
    ]
    own = [m for m in a.marks if m.pip_like]
    if not own or not middles:
        return 0.0
    near = [any(math.hypot(m.x - x, m.y - y) < m.radius for x, y in middles) for m in own]
    return sum(near) / len(own)


def out_of_view(found: list[Face], marks: list[Mark], labels: np.ndarray) -> list[Face]:
    """Take the value from a die the frame's edge cuts, where what is out of view could
    change the reading, so the player can move it into view:
    (1) print like the face's pips cut by the frame edge within a die's side of the
    face: part of that die is out of view, and it may be the face read (a Six cut to a
    Three) or the die's top face (its side face then shows);
    (2) a Two or a Three in a line along the frame edge it runs off: the column of a
    Four or a Six whose other column is out of view looks just so.
    A die at the edge whose pips are all in view is read as usual (every d6 layout is
    symmetric about its centre, so the empty places opposite the cut part tell it)."""
    height, width = labels.shape
    edges = np.concatenate((labels[0], labels[-1], labels[:, 0], labels[:, -1]))
    cut_labels = set(np.unique(edges[edges > 0]).tolist())
    cut = [m for m in marks if m.label in cut_labels and m.elongation < 4]
    for face in found:
        pips = [m for m in face.marks if m.pip_like]
        if face.value is None or not pips:
            continue
        ink = min(m.contrast for m in pips)
        area = max(m.area for m in pips)
        cut_print = any(
            m.polarity == pips[0].polarity
            and m.contrast > 0.5 * ink
            and m.area < 1.5 * area
            and math.hypot(m.x - face.x, m.y - face.y) < face.size
            for m in cut
            if m not in face.marks
        )
        column = False
        if face.runs_off and face.value in (2, 3):
            ends = sorted(pips, key=lambda m: (m.x, m.y))
            along = math.atan2(ends[-1].y - ends[0].y, ends[-1].x - ends[0].x)
            near_x = min(face.x, width - face.x) < face.size
            near_y = min(face.y, height - face.y) < face.size
            column = (near_x and abs(math.cos(along)) < 0.34) or (
                near_y and abs(math.sin(along)) < 0.34
            )
        if cut_print or column:
            face.value, face.reason = None, "partly out of view"
    return found
