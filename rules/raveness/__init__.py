"""The Raveness (Dice Throne Outcasts) at the table: Nevermore, Feathers and Hex."""

from dicetable.rules.raveness.game import RavenessTable

GAMES = (RavenessTable,)
