"""One synthetic die drawn on a picture: its top face with pips or a print
(``synthetic_prints``), its body (colour, translucency, texture, rounded corners), the
side faces a camera not straight above sees, and a die cocked on another.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from dicetable.hardware.synthetic_drawing import (
    fill,
    fixed_point,
    rotated,
    rounded_square,
    tinted,
)
from dicetable.hardware.synthetic_prints import draw_print

# Pip centres on a face of side 2 (from -1 to 1), in the usual d6 layouts.
_C = 0.52
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-_C, -_C), (_C, _C)),
    3: ((-_C, -_C), (0.0, 0.0), (_C, _C)),
    4: ((-_C, -_C), (_C, -_C), (-_C, _C), (_C, _C)),
    5: ((-_C, -_C), (_C, -_C), (0.0, 0.0), (-_C, _C), (_C, _C)),
    6: ((-_C, -_C), (_C, -_C), (-_C, 0.0), (_C, 0.0), (-_C, _C), (_C, _C)),
}
# (body, pips) colour pairs of common dice, BGR.
DICE_COLOURS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "white": ((236, 238, 240), (30, 30, 30)),
    "ivory": ((200, 232, 242), (25, 25, 25)),
    "red": ((40, 40, 200), (245, 245, 245)),
    "blue": ((190, 90, 30), (245, 245, 245)),
    "green": ((70, 150, 40), (245, 245, 245)),
    "yellow": ((40, 215, 235), (30, 30, 30)),
    "black": ((35, 35, 35), (240, 240, 240)),
    "purple": ((140, 40, 110), (60, 200, 230)),
    "orange": ((30, 130, 245), (20, 20, 20)),
}
# A polished die's mirrored arcs: line width, radius and length (over the side; degrees).
GLOSS_WIDTH = 0.022
GLOSS_RADII = (0.2, 0.45)
GLOSS_SPAN = (50.0, 200.0)
# Where a translucent die's bottom face shows: off by this (of a side, more when
# blurred: seen deeper) and this much smaller than the top face.
GHOST_SHIFT, GHOST_SIDE = 0.04, 0.9
# Points round a side face's pip, drawn swept as the face is.
SIDE_PIP_POINTS = 16
SIDE_SHOWN = 0.08  # of a side: a side face swept less deep than this shows no pips
# Uneven die bodies a renderer knows.
TEXTURES = ("marbled", "glitter", "metal")


@dataclass(frozen=True)
class SyntheticDie:
    """One die on the tray. ``size`` is the side of its top face in pixels.

    ``face`` replaces the pips by a symbol (see ``SYMBOLS``); ``alpha`` below 1 makes a
    translucent body; ``cocked`` leans the die on another die or a wall so no face is up;
    ``lean`` shows side faces as a camera that is not straight above sees them (0..0.4).
    """

    value: int
    x: float
    y: float
    angle: float = 0.0
    size: float = 60.0
    body_bgr: tuple[int, int, int] = DICE_COLOURS["white"][0]
    pip_bgr: tuple[int, int, int] = DICE_COLOURS["white"][1]
    face: str = ""
    alpha: float = 1.0
    cocked: bool = False
    lean: float = 0.0
    glare: bool = False
    colour: str = "white"
    # Styles of real dice (all optional; the defaults draw the dice above):
    one_pip_scale: float | None = None  # the One's pip, times the other pips' size (1.4)
    pip_scale: float = 1.0  # pip size, times the usual (0.17 of the face side)
    pip_colours_by_value: dict[int, tuple[int, int, int]] | None = None  # red 1 and 4
    translucent: bool = False  # see-through body: the bottom face's pips show through
    # A translucent body's bottom face pips: how strongly they show (the share of the
    # pip colour), and how blurred by the body between (Gaussian sigma, of a side).
    ghost: float = 0.35
    ghost_blur: float = 0.0
    rounding: float = 0.18  # corner radius over side: 0.03 casino-sharp, 0.32 rounded
    texture: str = ""  # the body's look: "marbled", "glitter" or "metal" (see TEXTURES)
    pip_glare: bool = False  # engraved, painted pips that catch the lamp
    gloss: bool = False  # a polished body mirrors the room: see ``_reflections``
    # The values on the side faces a leaning view shows, most turned to the camera
    # first; None draws one side face, with ``beside(value)``'s pips.
    side_values: tuple[int, ...] | None = None


def draw_die(
    image: np.ndarray, die: SyntheticDie, light: float, camera: tuple[float, float]
) -> None:
    """Draw ``die``; ``camera`` is the floor point below the camera, in the picture's
    pixels (it may lie outside the picture): the side faces a leaning view shows are
    the ones turned to it."""
    body = tinted(die.body_bgr, light)
    pips = tinted((die.pip_colours_by_value or {}).get(die.value, die.pip_bgr), light)
    if die.cocked:
        _cocked_die(image, die, body, pips)
        return
    round_ = die.rounding
    top = rounded_square(die.x, die.y, die.size, die.angle, round_)
    alpha = min(die.alpha, 0.72) if die.translucent else die.alpha
    if die.lean > 0:
        _side_faces(image, die, top, body, pips, camera)
    # A darker rim where the rounded edges turn away from the light.
    rim = rounded_square(die.x, die.y, die.size * 1.04, die.angle, round_)
    fill(image, rim, tinted(body, 0.6), alpha)
    fill(image, top, body, alpha)
    inner = rounded_square(
        die.x, die.y, die.size * 0.86, die.angle, rounding=max(0.0, round_ + 0.07)
    )
    fill(image, inner, tinted(body, 1.04), alpha * 0.6)
    if die.texture:
        _texture(image, die, top, body)
    if die.translucent and not die.face:
        _ghost_pips(image, die, pips)
    _face_marks(image, die, die.x, die.y, die.size, die.angle, pips, squash=1.0)
    if die.gloss:
        _reflections(image, die)
    if die.glare:
        # A highlight on the body near the lit edge, where a lamp catches a glossy die.
        gx, gy = rotated(np.array([[-0.05 * die.size, -0.4 * die.size]]), die.angle)[0]
        axes = (max(1, int(die.size * 0.14)), max(1, int(die.size * 0.045)))
        centre = (int(die.x + gx), int(die.y + gy))
        cv2.ellipse(image, centre, axes, die.angle, 0, 360, (255, 255, 255), -1, cv2.LINE_AA)


def die_patch(image: np.ndarray, die: SyntheticDie) -> tuple[int, int, int, int] | None:
    """The picture's pixels (x0, y0, x1, y1) within a side of the die's centre, where
    whatever lies on its face is drawn; None when the die is wholly off the picture."""
    height, width = image.shape[:2]
    x0, y0 = max(0, int(die.x - die.size)), max(0, int(die.y - die.size))
    x1, y1 = min(width, int(die.x + die.size) + 1), min(height, int(die.y + die.size) + 1)
    return None if x1 <= x0 or y1 <= y0 else (x0, y0, x1, y1)


def _ghost_pips(image: np.ndarray, die: SyntheticDie, pips: tuple[int, ...]) -> None:
    """The bottom face's pips, seen through a translucent body: mirrored, a little off
    and smaller (further away), blurred by the body between. Real smoke-grey dice show
    them nearly as dark as the top face's, so a Two shows a Five's middle pip."""
    around = die_patch(image, die)
    if around is None:
        return
    x0, y0, x1, y1 = around
    mask: np.ndarray = np.zeros((y1 - y0, x1 - x0), np.uint8)
    hidden = replace(die, value=7 - die.value, pip_glare=False)
    shift = die.size * (GHOST_SHIFT + die.ghost_blur)
    _face_marks(mask, hidden, die.x - x0 + shift, die.y - y0 + shift, die.size * GHOST_SIDE,
                -die.angle, (255,), squash=1.0)  # fmt: skip
    if die.ghost_blur > 0:
        mask = cv2.GaussianBlur(mask, (0, 0), die.ghost_blur * die.size)
    weight = mask.astype(np.float32)[..., None] * (die.ghost / 255.0)
    patch = image[y0:y1, x0:x1].astype(np.float32)
    colour = np.array(pips, np.float32)
    image[y0:y1, x0:x1] = (patch * (1 - weight) + colour * weight).astype(np.uint8)


def _reflections(image: np.ndarray, die: SyntheticDie) -> None:
    """What a polished (often translucent) die mirrors under a room's lamps: one or two
    thin bright arcs across the top face, where its rounded edge or a window is seen in
    it, and a lit crescent on one wall of each drilled pip. A pip finder takes the
    crescents for pips and the arcs for a symbol; a face reader must look past both."""
    rng = np.random.default_rng(int(die.x * 11 + die.y * 17 + die.value) % (2**32))
    white = (250, 250, 250)
    # Drawn on a copy of the die's own patch, then blended in at one strength.
    around = die_patch(image, die)
    if around is None:
        return
    x0, y0, x1, y1 = around
    patch = image[y0:y1, x0:x1]
    layer = patch.copy()
    cx, cy = die.x - x0, die.y - y0
    thin = max(1, round(die.size * GLOSS_WIDTH))
    for _ in range(int(rng.integers(1, 3))):
        radius = die.size * rng.uniform(*GLOSS_RADII)
        centre = (round(cx + rng.normal(0, 0.06) * die.size),
                  round(cy + rng.normal(0, 0.06) * die.size))  # fmt: skip
        start = float(rng.uniform(0, 360))
        span = float(rng.uniform(*GLOSS_SPAN))
        axes = (max(1, round(radius)), max(1, round(radius * rng.uniform(0.6, 1.0))))
        cv2.ellipse(layer, centre, axes, die.angle, start, start + span, white, thin, cv2.LINE_AA)
    if not die.face:
        lit = float(rng.uniform(0, 360))  # the side of every pip's wall the lamp lights
        radius = _pip_radius(die, die.size)
        rim = max(1, round(radius * 0.35))
        for u, v in PIP_LAYOUTS[die.value]:
            px, py = rotated(np.array([[u * die.size / 2, v * die.size / 2]]), die.angle)[0]
            axes = (max(1, round(radius)), max(1, round(radius)))
            cv2.ellipse(layer, (round(cx + px), round(cy + py)), axes, 0, lit - 70, lit + 70,
                        white, rim, cv2.LINE_AA)  # fmt: skip
    strength = float(rng.uniform(0.5, 0.95))
    cv2.addWeighted(layer, strength, patch, 1 - strength, 0, dst=patch)


def shown_sides(
    die: SyntheticDie, camera: tuple[float, float]
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The side faces a camera that is not straight above sees, most turned to it
    first, each as (its outward normal, the sweep from the top face's edge to its
    foot): a die's top face shows further from the camera than its foot, so the side
    faces lie between the top face and the floor point below the camera."""
    shift = _sweep(die, camera)
    a = math.radians(die.angle)
    normals = [np.array([math.cos(a + k * math.pi / 2), math.sin(a + k * math.pi / 2)])
               for k in range(4)]  # fmt: skip
    normals.sort(key=lambda n: -float(n @ shift))
    return [(n, shift) for n in normals if n @ shift >= die.size * SIDE_SHOWN]


def _sweep(die: SyntheticDie, camera: tuple[float, float]) -> np.ndarray:
    """How far, and which way, the side faces reach from the top face's edges."""
    toward = np.array([camera[0] - die.x, camera[1] - die.y], np.float64)
    norm = float(np.hypot(*toward)) or 1.0
    return toward / norm * die.size * die.lean


def side_face_centres(die: SyntheticDie, camera: tuple[float, float]) -> list[tuple[float, float]]:
    """Where the middles of the side faces ``shown_sides`` lie, in the drawn floor's
    pixels: no die's top face is there, though a finder may take one for it."""
    half = die.size / 2
    middles = [np.array([die.x, die.y]) + normal * half + shift / 2
               for normal, shift in shown_sides(die, camera)]  # fmt: skip
    return [(float(x), float(y)) for x, y in middles]


def _side_faces(
    image: np.ndarray,
    die: SyntheticDie,
    top: np.ndarray,
    body: tuple[int, ...],
    pips: tuple[int, ...],
    camera: tuple[float, float],
) -> None:
    """The side faces ``shown_sides``: each is the top face's edge swept along the
    shift, its pips drawn through the same sweep."""
    shift = _sweep(die, camera)
    hull = cv2.convexHull(np.vstack([top, top + shift]).astype(np.float32)).reshape(-1, 2)
    fill(image, hull, tinted(body, 0.72), die.alpha)
    values = die.side_values or (beside(die.value),)
    half = die.size / 2
    ring = np.linspace(0, 2 * math.pi, SIDE_PIP_POINTS, endpoint=False)
    for (normal, _), side_value in zip(shown_sides(die, camera), values, strict=False):
        edge = np.array([-normal[1], normal[0]]) * half  # along the top face's edge
        middle = np.array([die.x, die.y]) + normal * half
        radius = _pip_radius(replace(die, value=side_value), 2.0)
        for u, v in PIP_LAYOUTS[side_value]:
            # (u, v) on the face, -1..1: across its top edge, and down from it.
            us = u + radius * np.cos(ring)
            vs = v + radius * np.sin(ring)
            outline = middle + np.outer(us, edge) + np.outer((vs + 1) / 2, shift)
            fill(image, outline, pips, 1.0)


def sides_of(value: int) -> list[int]:
    """The faces a real d6 can show beside ``value``: neither it nor its opposite
    (opposite faces add up to 7, so a Six never shows a One)."""
    return [v for v in range(1, 7) if v not in (value, 7 - value)]


def beside(value: int) -> int:
    """One face a real d6 shows beside ``value``: the next of ``sides_of`` round."""
    return min(sides_of(value), key=lambda v: (v - value) % 6)


def _pip_radius(die: SyntheticDie, side: float) -> float:
    """A pip's radius on a face ``side`` across: a One's lone pip is bigger."""
    one = die.one_pip_scale if die.one_pip_scale is not None else 0.12 / 0.085
    return side * 0.085 * die.pip_scale * (one if die.value == 1 else 1.0)


def _face_marks(
    image: np.ndarray,
    die: SyntheticDie,
    x: float,
    y: float,
    side: float,
    angle: float,
    colour: tuple[int, ...],
    squash: float,
) -> None:
    if die.face:
        draw_print(image, die.face, x, y, side, angle, colour, tinted(die.body_bgr, 1.0))
        return
    half = side / 2
    radius = _pip_radius(die, side)
    for u, v in PIP_LAYOUTS[die.value]:
        px, py = rotated(np.array([[u * half, v * half * squash]]), angle)[0] + np.array([x, y])
        axes = (max(1, round(radius * 16)), max(1, round(radius * squash * 16)))
        cv2.ellipse(
            image, (round(px * 16), round(py * 16)), axes, angle, 0, 360, colour, -1,
            cv2.LINE_AA, shift=4,
        )  # fmt: skip
        if die.pip_glare:
            # A lamp's highlight on the paint: a bright spot on the pip's upper left.
            spot = (round((px - 0.35 * radius) * 16), round((py - 0.35 * radius) * 16))
            size = max(1, round(radius * 0.4 * 16))
            cv2.circle(image, spot, size, (250, 250, 250), -1, cv2.LINE_AA, shift=4)


def _texture(image: np.ndarray, die: SyntheticDie, top: np.ndarray, body: tuple[int, ...]) -> None:
    """An uneven body, in place, inside the top face: marbled swirls, glitter specks, or
    metal's sheen (brighter towards the lamp, brushed)."""
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [fixed_point(top)], 255, cv2.LINE_AA, shift=4)
    ys, xs = np.nonzero(mask)
    if len(ys) == 0:
        return
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    h, w = y1 - y0, x1 - x0
    rng = np.random.default_rng(int(die.x * 7 + die.y * 13) % (2**32))
    gy, gx = np.mgrid[0:h, 0:w].astype(np.float32) / max(h, w)
    if die.texture == "marbled":
        phase = rng.uniform(0, 6, 3)
        swirl = np.sin(9 * gx + 4 * np.sin(7 * gy + phase[0]) + phase[1]) * np.sin(
            5 * gy + phase[2]
        )
        factor = 1.0 - 0.22 * np.clip(swirl, 0, 1) ** 2
    elif die.texture == "glitter":
        factor = np.ones((h, w), np.float32)
        specks = rng.random((h, w))
        factor[specks < 0.06] = 1.5
        factor[specks > 0.95] = 0.65
        factor = cv2.GaussianBlur(factor, (3, 3), 0)
    elif die.texture == "metal":
        angle = math.radians(die.angle)
        along = gx * math.cos(angle) + gy * math.sin(angle)
        brushed = rng.normal(0, 0.04, (1, w)).astype(np.float32)
        factor = 1.3 - 0.6 * along + brushed
    else:
        raise ValueError(
            f"synthetic_tray: unknown texture {die.texture!r} (known: {', '.join(TEXTURES)})"
        )
    weight = mask[y0:y1, x0:x1].astype(np.float32)[..., None] / 255.0
    patch = image[y0:y1, x0:x1].astype(np.float32)
    shaded = np.clip(patch * factor[..., None], 0, 255)
    image[y0:y1, x0:x1] = (patch * (1 - weight) + shaded * weight).astype(np.uint8)


def _cocked_die(
    image: np.ndarray, die: SyntheticDie, body: tuple[int, ...], pips: tuple[int, ...]
) -> None:
    """A die leaning on an edge: two faces show, both foreshortened, neither on top."""
    a = math.radians(die.angle)
    axis = np.array([math.cos(a), math.sin(a)])
    across = np.array([-math.sin(a), math.cos(a)])
    half = die.size / 2
    centre = np.array([die.x, die.y])
    for sign, factor, value in ((-1, 0.95, die.value), (1, 0.7, 7 - die.value)):
        depth = die.size * 0.36
        mid = centre + sign * axis * depth / 2
        quad = np.array(
            [
                mid + across * half + axis * depth / 2,
                mid - across * half + axis * depth / 2,
                mid - across * half - axis * depth / 2,
                mid + across * half - axis * depth / 2,
            ]
        )
        fill(image, quad, tinted(body, factor), die.alpha)
        for u, v in PIP_LAYOUTS[value]:
            p = mid + across * u * half * 0.9 + axis * v * depth / 2 * 0.9
            radius = die.size * 0.085
            axes = (max(1, int(radius)), max(1, int(radius * 0.36)))
            cv2.ellipse(
                image, (int(p[0]), int(p[1])), axes, math.degrees(a) + 90, 0, 360, pips, -1,
                cv2.LINE_AA,
            )  # fmt: skip
