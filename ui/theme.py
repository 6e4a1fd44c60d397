"""One visual language for every screen: the displays, their sizes in millimetres,
and the colours that mean the same thing everywhere.

Sizes are set in millimetres of the real panel, not in pixels, because the rules are
physical: a finger needs a target of at least 9 mm, and text read from a metre away
needs about 5 mm (the common signage rule of 1 mm of letter height per 200 mm of
distance); card texts, read leaning in, may go down to 3.5 mm.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil

MM_PER_INCH = 25.4
TOUCH_MM = 9.0
PRIMARY_MM = 5.0  # prompt, health, values: read from the other side of the table
SECONDARY_MM = 3.5  # labels, card texts, button captions


@dataclass(frozen=True)
class Display:
    """A screen the app is laid out for: its pixels and its pixel density."""

    name: str
    width: int
    height: int
    dpi: float

    @property
    def portrait(self) -> bool:
        return self.height > self.width

    def mm(self, millimetres: float) -> int:
        return ceil(millimetres * self.dpi / MM_PER_INCH)

    @property
    def touch(self) -> int:
        return self.mm(TOUCH_MM)

    @property
    def primary(self) -> int:
        return self.mm(PRIMARY_MM)

    @property
    def secondary(self) -> int:
        return self.mm(SECONDARY_MM)

    @property
    def pad(self) -> int:
        return self.mm(1.2)


# The official 7" display: 800x480 on a 154.2 x 85.9 mm active area (132 dpi).
LANDSCAPE = Display("landscape", 800, 480, 132.0)
# Touch Display 2: 720x1280 on 7" (diagonal 1468 px / 7 in = 210 dpi), portrait.
PORTRAIT = Display("portrait", 720, 1280, 210.0)
DISPLAYS = {d.name: d for d in (LANDSCAPE, PORTRAIT)}

RGBA = tuple[float, float, float, float]


def hex_rgba(code: str, alpha: float = 1.0) -> RGBA:
    code = code.lstrip("#")
    r, g, b = (int(code[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return (r, g, b, alpha)


# Who and what, the same on every screen and on the LED ring.
BACKGROUND = hex_rgba("#0e1116")
SURFACE = hex_rgba("#1b2029")
SURFACE_HIGH = hex_rgba("#2a3140")
TEXT = hex_rgba("#f2f4f8")
MUTED = hex_rgba("#aab3c2")
PLAYER = hex_rgba("#3d9bff")  # blue: the players, their values, their turn
BOSS = hex_rgba("#c266ff")  # violet: the boss / dungeon master
TABLE = hex_rgba("#ffc247")  # amber: the table (setup, shared dice, instructions)
SUCCESS = hex_rgba("#3ddc84")  # green: objective met, healing, keep
FAILURE = hex_rgba("#ff4d5e")  # red: objective missed, damage, errors, unsure dice
FOCUS = hex_rgba("#ffe14d")  # yellow frame: what CONFIRM presses on a page

ACTOR_COLOURS = {"player": PLAYER, "boss": BOSS, "table": TABLE}
EVENT_COLOURS = {
    "objective_met": SUCCESS,
    "heal": SUCCESS,
    "score": SUCCESS,
    "objective_missed": FAILURE,
    "damage": FAILURE,
    "game_over": TABLE,
    "instruction": TABLE,
    "card": BOSS,
}


def actor_colour(actor: str) -> RGBA:
    return ACTOR_COLOURS.get(actor, TABLE)


def dim(colour: RGBA, factor: float = 0.35) -> RGBA:
    """The same hue darkened, for fills behind text of that colour."""
    r, g, b, a = colour
    return (r * factor, g * factor, b * factor, a)
