"""Plain colour names for die bodies: games ask for "the red dice", not for BGR triples."""

from __future__ import annotations

import colorsys

# Hue ranges in degrees, for saturated colours.
_HUES = (
    (15, "red"),
    (40, "orange"),
    (70, "yellow"),
    (165, "green"),
    (255, "blue"),
    (320, "purple"),
    (345, "pink"),
    (360, "red"),
)


def colour_name(bgr: tuple[float, float, float]) -> str:
    """The everyday name of a die body colour: white, black, grey, red, orange, ..."""
    b, g, r = (min(255.0, max(0.0, c)) / 255.0 for c in bgr)
    hue, lightness, _ = colorsys.rgb_to_hls(r, g, b)
    value = max(r, g, b)
    chroma = value - min(r, g, b)
    if chroma < 0.12 or (value > 0.75 and chroma < 0.16):
        if value < 0.3:
            return "black"
        return "white" if lightness > 0.55 else "grey"
    if value < 0.22:
        return "black"
    degrees = hue * 360
    for limit, name in _HUES:
        if degrees < limit:
            return name
    return "red"
