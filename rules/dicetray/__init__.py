"""Dice tray: read whatever is rolled and show values, sum, sets and straights."""

from dicetable.rules.dicetray.game import DiceTray

GAMES = (DiceTray,)
