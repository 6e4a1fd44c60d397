"""The dice Dicequest reads: one set, ``dicequest`` (``CombatStep._faces_request``),
holding every face of the four colours once (``data/dice.toml``): a face printed on
several dice, or twice on one, is taught once. Faces are pure symbols (no value);
a reading's colour says which die it was. A player's corrected ``dice.toml`` in the
data folder (``catalogue.dice_file``) is what is taught, as it is what games use."""

from __future__ import annotations

import logging
from pathlib import Path

from dicetable.rules.core import msg
from dicetable.rules.dicequest import catalogue
from dicetable.rules.dicequest.data import DataError, default_dice
from dicetable.rules.registry import DiceFace, DiceSet

log = logging.getLogger(__name__)


def quest_dice(data_dir: Path | None = None) -> tuple[DiceSet, ...]:
    dice = default_dice()
    if data_dir is not None:
        try:
            dice = catalogue.load_dice(data_dir) or dice
        except DataError as error:  # as a game started now would: the shipped dice
            log.error("Dicequest dice not corrected: %s", error)
    faces = []
    for face in dice.faces:
        colours = [colour for colour, shown in dice.colors.items() if face in shown]
        if not colours:  # a face no die shows is never rolled: nothing to teach
            continue
        if len(colours) == len(dice.colors):
            label = msg("{face} (on any die)", face=msg(face))
        else:  # shown on the first die that has it: every colour gets taught
            label = msg("{face} (on a {color} die)", face=msg(face), color=msg(colours[0]))
        faces.append(DiceFace(face, None, label))
    return (DiceSet("dicequest", msg("Dicequest's colour dice"), tuple(faces)),)
