"""The dice the solo mode reads: each Boss's hero dice, taught as ``dicethrone-<boss>``
(the profile ``SoloState._roll_prompt`` asks for). A Dice Throne die prints its number
beside the symbol, so all six faces are told apart and taught: face n gives value n."""

from __future__ import annotations

from pathlib import Path

from dicetable.rules.core import msg
from dicetable.rules.dicethrone.heroes import load_hero
from dicetable.rules.dicethrone.solo_setup import BOSSES
from dicetable.rules.registry import DiceFace, DiceSet


def boss_dice(data_dir: Path | None = None) -> tuple[DiceSet, ...]:
    """One set per Boss, faces named by the hero file's ``[faces]`` (``data_dir``:
    no corrections of hero dice are kept there)."""
    sets = []
    for boss in BOSSES:
        hero = load_hero(boss)
        faces = tuple(
            DiceFace(symbol, number, msg("{n}: {symbol}", n=number, symbol=msg(symbol)))
            for number, symbol in sorted(hero.faces.items())
        )
        title = msg("Dice Throne: the {hero}'s dice", hero=msg(hero.name))
        sets.append(DiceSet(f"dicethrone-{boss}", title, faces))
    return tuple(sets)
