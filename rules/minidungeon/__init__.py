"""Mini Dungeon Adventures: the Pi is the dungeon boss (rooms, monsters, traps,
treasure, events, combat from real d6 rolls, town and levels)."""

from dicetable.rules.minidungeon.game import MiniDungeon

GAMES = (MiniDungeon,)
