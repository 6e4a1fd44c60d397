"""The table's actions: what a hardware button, a key or an on-screen twin means.

A pure enum so that ``ui`` (keys, on-screen buttons) and ``hardware`` (GPIO) name the
same actions without importing each other; ``device.controller`` gives them effect.
"""

from enum import StrEnum


class TableAction(StrEnum):
    CONFIRM = "confirm"  # answer with the focused option / the dice read / go on
    NEXT = "next"  # move the focus to the next option (or +1 on a number)
    BACK = "back"  # move the focus back (or -1 on a number)
    UNDO = "undo"  # take back the last answer (a hold on BACK)
    MENU = "menu"  # open the menu (home, settings, save and leave)
