"""Dicequest companion: Quest Phase arithmetic from real colour symbol dice, wounds,
Adventures, the solo and co-op Threat game and the final scoring."""

from dicetable.rules.dicequest.game import Dicequest

GAMES = (Dicequest,)
