"""A Hexed player's roll: read with every 6 blank, against their hero's Roll Objectives.

Raveness rulebook, "Hex"; the heroes' abilities and the Roll Objective check are
``rules.dicethrone``'s, so a hero added there is checked here too.
"""

from __future__ import annotations

from dicetable.rules.core import Event, EventKind, Msg, msg
from dicetable.rules.dicethrone.heroes import load_hero

#: a hero the table does not know (its abilities cannot be checked)
OTHER_HERO = "other"


def hex_check(hero_id: str, name: Msg | str, values: list[int]) -> list[Event]:
    """Hex: "treat all of their die faces with a 6 as if those faces are completely
    blank"; a blank has "no symbol and no number value" (the Roll Objective check of
    ``rules.dicethrone`` with ``hex=True``)."""
    shown = ["blank" if v == 6 else str(v) for v in values]
    events = [
        Event(
            EventKind.ROLLED,
            msg("Under Hex the dice read {dice}.", dice=" ".join(shown)),
            {"dice": values, "hexed": shown},
        )
    ]
    if hero_id == OTHER_HERO:
        return events
    hero = load_hero(hero_id)
    hexed = [a.name for a, _ in hero.met_abilities(values, hex=True)]
    plain = [a.name for a, _ in hero.met_abilities(values, hex=False)]
    lost = [a for a in plain if a not in hexed]
    events.append(
        Event(
            EventKind.OBJECTIVE_MET if hexed else EventKind.OBJECTIVE_MISSED,
            msg(
                "{player} may activate: {abilities}.",
                player=name,
                abilities=", ".join(hexed) or "-",
            ),
            {"met": hexed, "lost_to_hex": lost},
        )
    )
    if lost:
        events.append(
            Event(
                EventKind.OBJECTIVE_MISSED,
                msg("Lost to Hex: {abilities}.", abilities=", ".join(lost)),
                {"lost_to_hex": lost},
            )
        )
    return events
