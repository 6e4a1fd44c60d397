"""Dice Throne: hero dice and boards as data, Roll Objectives with exact odds, and the
fan-made solo mode (v3.2) where dicetable plays the boss."""

from dicetable.rules.dicethrone.dice_sets import boss_dice
from dicetable.rules.dicethrone.solo import DiceThroneSolo

GAMES = (DiceThroneSolo,)
DICE_SETS = boss_dice
