"""The dice Dicequest reads: one set, ``dicequest`` (``CombatStep._faces_request``),
holding every face of the four colours once (``data/dice.toml``): a face printed on
several dice, or twice on one, is taught once. Faces are pure symbols (no value);
a reading's colour says which die it was."""

from __future__ import annotations

from dicetable.rules.core import msg
from dicetable.rules.dicequest.data import default_dice
from dicetable.rules.registry import DiceFace, DiceSet


def quest_dice() -> tuple[DiceSet, ...]:
    dice = default_dice()
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
