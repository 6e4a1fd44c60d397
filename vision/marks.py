"""Marks: the small blobs printed on a die face (pips, or the parts of a symbol).

A mark is found by its contrast with what surrounds it, in both directions, so dark
pips on light dice and light pips on dark or translucent dice are the same problem:
a morphological black-hat (dark marks) and top-hat (light marks) sized to the pips
keep blobs smaller than the kernel and drop the slow changes of light and shadow.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

DARK = -1
LIGHT = 1
# A mark needs this much contrast (grey levels) with its surroundings.
MIN_CONTRAST = 26


@dataclass(frozen=True)
class Mark:
    x: float
    y: float
    area: float
    radius: float  # of the disc with the same area
    elongation: float  # major / minor axis of the moment ellipse (1 = round)
    fill: float  # area / area of the moment ellipse (about 1 for a solid ellipse)
    polarity: int  # DARK or LIGHT
    contrast: float  # mean top-hat response inside the mark
    label: int  # index of the mark in the frame's mark image (for path tests)
    wide: bool = False  # found by the wide look: too big for a pip (part of a symbol)
    axis: float = 0.0  # direction of the long axis, radians
    smeared: bool = False  # a pip stretched by motion blur like the round pips beside it
    disc: bool = False  # a big round solid pip (a One's, printed 2-3x): see ``big_pips``

    @property
    def pip_like(self) -> bool:
        """Round and solid, as a pip seen from above; a side-face pip is flattened."""
        return not self.wide and (self.elongation < 1.6 or self.smeared) and 0.75 < self.fill < 1.3


def kernel_size(pip_diameter: float) -> int:
    return max(5, round(pip_diameter * 1.8)) | 1


def find_marks(
    gray: np.ndarray,
    pip_diameter: float,
    min_contrast: float = MIN_CONTRAST,
    *,
    symbols: bool = True,
) -> tuple[list[Mark], np.ndarray]:
    """Every dark or light blob up to about twice ``pip_diameter`` across, and with
    ``symbols`` the bigger ones up to a die's print.

    Returns the marks and an int32 image of their labels (0 = no mark, i+1 = marks[i]),
    which the grouping uses to step over marks when it walks from one to another.
    """
    smooth = cv2.GaussianBlur(gray, (3, 3), 0)
    marks: list[Mark] = []
    labels = np.zeros(gray.shape, np.int32)
    min_area = max(3.0, (pip_diameter * 0.28) ** 2)
    max_area = (pip_diameter * 2.2) ** 2
    _pass(smooth, kernel_size(pip_diameter), min_area, max_area, min_contrast, marks, labels, False)
    if symbols:
        add_symbols(gray, pip_diameter, marks, labels, min_contrast, smooth)
    return marks, labels


def add_symbols(
    gray: np.ndarray,
    pip_diameter: float,
    marks: list[Mark],
    labels: np.ndarray,
    min_contrast: float = MIN_CONTRAST,
    smooth: np.ndarray | None = None,
) -> None:
    """Symbols (a skull, a sword) are bigger than pips: a second, wider look adds the
    blobs too big for a pip and too small for a die's whole face."""
    if pip_diameter < 6:  # small print: look at full resolution
        if smooth is None:
            smooth = cv2.GaussianBlur(gray, (3, 3), 0)
        wide = max(5, round(pip_diameter * 5.5)) | 1
        low, high = (pip_diameter * 2.2) ** 2, (pip_diameter * 4.5) ** 2
        _pass(smooth, wide, low, high, min_contrast, marks, labels, True)
        return
    # Symbols are big: half resolution finds them at a quarter of the cost.
    half = cv2.pyrDown(gray)
    small_pip = pip_diameter / 2
    wide = max(5, round(small_pip * 5.5)) | 1
    low, high = (small_pip * 2.2) ** 2, (small_pip * 4.5) ** 2
    found: list[Mark] = []
    half_labels = np.zeros(half.shape, np.int32)
    # Earlier marks, at half size, so that blobs made of pips are skipped as before.
    taken = cv2.resize(
        (labels > 0).astype(np.uint8),
        (half.shape[1], half.shape[0]),
        interpolation=cv2.INTER_NEAREST,
    )
    half_labels[taken > 0] = -1
    _pass(half, wide, low, high, min_contrast, found, half_labels, True, skip_first=False)
    height, width = labels.shape
    for mark in found:
        ys, xs = np.nonzero(half_labels == mark.label)
        label = len(marks) + 1
        marks.append(
            replace(
                mark,
                x=mark.x * 2 + 0.5,
                y=mark.y * 2 + 0.5,
                area=mark.area * 4,
                radius=mark.radius * 2,
                label=label,
            )
        )
        for dy in (0, 1):
            for dx in (0, 1):
                yy, xx = np.minimum(ys * 2 + dy, height - 1), np.minimum(xs * 2 + dx, width - 1)
                free = labels[yy, xx] == 0
                labels[yy[free], xx[free]] = label


def _pass(
    smooth: np.ndarray,
    size: int,
    min_area: float,
    max_area: float,
    min_contrast: float,
    marks: list[Mark],
    labels: np.ndarray,
    wide: bool,
    *,
    skip_first: bool = True,
) -> None:
    """Add the blobs of one kernel size; blobs mostly on earlier marks are skipped."""
    # A square kernel: OpenCV erodes and dilates with it in two 1-D passes (fast).
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
    largest = int(math.sqrt(max_area) * 3.2)
    first = skip_first and not marks
    for polarity, operation in ((DARK, cv2.MORPH_BLACKHAT), (LIGHT, cv2.MORPH_TOPHAT)):
        response = cv2.morphologyEx(smooth, operation, kernel)
        _, mask = cv2.threshold(response, min_contrast * 0.8, 255, cv2.THRESH_BINARY)
        # Two levels: a dark rim or shadow all round a die is one blob with a hole, and
        # the pips inside that hole are blobs of their own (outer contours too).
        contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
        for number, contour in enumerate(contours):
            if hierarchy[0][number][3] != -1:
                continue  # the boundary of a hole
            x0, y0, w, h = cv2.boundingRect(contour)
            if w > largest or h > largest or w * h < min_area:
                continue
            window = np.zeros((h, w), np.uint8)
            cv2.drawContours(window, [contour], 0, 1, -1, offset=(-x0, -y0))
            window = window.astype(bool) & (mask[y0 : y0 + h, x0 : x0 + w] > 0)
            area = int(window.sum())
            if not wide and max_area < area <= 3 * max_area:
                # A column of blurred pips fused into a bar: cut it at a higher level.
                _split_fused(response, window, x0, y0, min_area, max_area, polarity, marks, labels)
                continue
            if area < min_area or area > max_area:
                continue
            taken = labels[y0 : y0 + h, x0 : x0 + w]
            if not first and (taken[window] != 0).mean() > 0.2:
                continue
            values = response[y0 : y0 + h, x0 : x0 + w]
            inside = values[window]
            peak = float(inside.max())
            if peak < min_contrast:
                continue
            # The mark is the part above half its peak, so that a pip and the soft
            # shadow beside it do not count as one round blob.
            core = window & (values >= peak * 0.5)
            mark = _mark(core, float(inside.sum()) / inside.size, polarity, len(marks) + 1, x0, y0)
            if mark.area < min_area * 0.6:
                continue
            if wide:
                mark = replace(mark, wide=True)
            elif mark.elongation > 1.8 and _split_fused(
                response, window, x0, y0, min_area, max_area, polarity, marks, labels
            ):
                continue  # two pips touching, now apart
            labels[y0 : y0 + h, x0 : x0 + w][core] = mark.label
            marks.append(mark)


def _split_fused(
    response: np.ndarray,
    window: np.ndarray,
    x0: int,
    y0: int,
    min_area: float,
    max_area: float,
    polarity: int,
    marks: list[Mark],
    labels: np.ndarray,
) -> bool:
    """Keep the round cores of a blob too big for one pip, if it splits into pips;
    says whether it did."""
    h, w = window.shape
    values = response[y0 : y0 + h, x0 : x0 + w]
    inside = values[window]
    peak = float(inside.max())
    contrast = float(inside.sum()) / inside.size
    for level in (0.6, 0.72, 0.85, 0.93):  # the blurrier, the higher the cut that parts them
        pieces = _pieces(values, window, peak * level, contrast, min_area, max_area)
        if pieces:
            break
    else:
        return False
    # The whole blob is print: each of its pixels goes to the nearest piece, so a walk
    # from one pip to the next does not take the blur between them for a die's edge.
    ys, xs = np.nonzero(window)
    centres = np.array([(p.x, p.y) for p in pieces])
    nearest = np.argmin(np.hypot(xs[:, None] - centres[:, 0], ys[:, None] - centres[:, 1]), axis=1)
    first = len(marks) + 1
    for index, piece in enumerate(pieces):
        marks.append(
            replace(piece, x=piece.x + x0, y=piece.y + y0, polarity=polarity, label=first + index)
        )
    labels[y0 + ys, x0 + xs] = first + nearest
    return True


def _pieces(
    values: np.ndarray,
    window: np.ndarray,
    cut: float,
    contrast: float,
    min_area: float,
    max_area: float,
) -> list[Mark]:
    """The parts of a blob above ``cut`` (window coordinates), if there are two or more
    and all look like pips; else none."""
    core = (window & (values >= cut)).astype(np.uint8)
    count, parts, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=4)
    if count < 3:
        return []
    areas = stats[1:, cv2.CC_STAT_AREA]
    if areas.min() < min_area * 0.5 or areas.max() > max_area:
        return []
    pieces = [_mark(parts == part, contrast, DARK, 0, 0, 0) for part in range(1, count)]
    return pieces if all(p.pip_like for p in pieces) else []


def _mark(
    mask: np.ndarray,
    contrast: float,
    polarity: int,
    label: int,
    x0: int,
    y0: int,
) -> Mark:
    """The mark of the pixels set in ``mask`` (a window whose corner is x0, y0)."""
    moments = cv2.moments(mask.astype(np.uint8), binaryImage=True)
    area = moments["m00"]
    if area == 0:
        return Mark(x0, y0, 0.0, 0.0, 10.0, 0.0, polarity, contrast, label)
    cx, cy = moments["m10"] / area, moments["m01"] / area
    mu20, mu02, mu11 = moments["mu20"] / area, moments["mu02"] / area, moments["mu11"] / area
    spread = math.sqrt(((mu20 - mu02) / 2) ** 2 + mu11**2)
    major = (mu20 + mu02) / 2 + spread
    minor = max((mu20 + mu02) / 2 - spread, 1e-3)
    ellipse_area = 4 * math.pi * math.sqrt(major * minor)
    # A one-pixel-thin blob has a degenerate ellipse; count it as long.
    elongation = math.sqrt(major / minor) if minor > 0.05 else 10.0
    return Mark(
        x=x0 + cx,
        y=y0 + cy,
        area=area,
        radius=math.sqrt(area / math.pi),
        elongation=elongation,
        fill=area / max(ellipse_area, 1.0),
        polarity=polarity,
        contrast=contrast,
        label=label,
        axis=0.5 * math.atan2(2 * mu11, mu20 - mu02),
    )


def big_pips(marks: list[Mark], labels: np.ndarray, pip_radius: float) -> list[Mark]:
    """Many dice print the One's pip two or three times the others' size (sometimes
    red): too big for the pip-sized look, which sees only pieces of its rim, it is
    found by the wide look (or by the pip look, when the first guess of the pip size
    was big) as a round, solid disc. Such a disc is a pip, and the
    pieces inside it are part of it (their labels become its label). A symbol is not
    a disc: a skull has eye holes, a shield or a star fills little of its circle."""
    discs = []
    for mark in marks:
        big = mark.wide or mark.radius > 1.6 * pip_radius
        if not big or mark.elongation > 1.2 or not 0.88 < mark.fill < 1.12:
            continue
        reach = int(mark.radius * 1.6) + 2
        x0, y0 = max(0, int(mark.x) - reach), max(0, int(mark.y) - reach)
        window = labels[y0 : int(mark.y) + reach + 1, x0 : int(mark.x) + reach + 1]
        ys, xs = np.nonzero(window == mark.label)
        if len(xs) < 5:
            continue
        _, radius = cv2.minEnclosingCircle(np.stack([xs, ys], 1).astype(np.float32))
        if mark.area < 0.8 * math.pi * radius**2:
            continue
        discs.append((mark, window))
    if not discs:
        return marks
    taken: set[int] = set()
    kept = {id(mark) for mark, _ in discs}
    for disc, window in discs:
        for mark in marks:
            if (
                id(mark) not in kept
                and not mark.wide
                and mark.polarity == disc.polarity
                and math.hypot(mark.x - disc.x, mark.y - disc.y) < 1.15 * disc.radius
            ):
                taken.add(mark.label)
                window[window == mark.label] = disc.label
    return [
        replace(m, wide=False, disc=True) if id(m) in kept else m
        for m in marks
        if m.label not in taken
    ]
