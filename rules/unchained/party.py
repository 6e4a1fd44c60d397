"""Heroes' Health and Salves, as the One-Shot and Minion Rush rules keep them.

Unchained rulebook, One-Shot "On Your Turn": a Salve heals 6 on one's OWN Health dial
or revives a fallen teammate to 1 Health, never oneself; "You can Heal up to a
maximum of 10 Health above starting Health"; "Salve Stack Limit is 15"; End of Battle:
"A Salve may not be used if a Boss activates their Ultimate".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dicetable.rules.core import Event, EventKind, InvalidInput, Msg, Text, msg
from dicetable.rules.flow import Flow, Step, choose, number
from dicetable.rules.unchained.data import hero_names

REPEATED_NAME = re.compile(r"^(?P<name>.+) \((?P<n>\d+)\)$")


def hero_title(name: str) -> Msg:
    """A hero's name for messages, translated like any text ("Other hero (2)" too)."""
    repeated = REPEATED_NAME.match(name)
    if repeated:
        return msg("{hero} ({n})", hero=msg(repeated["name"]), n=int(repeated["n"]))
    return msg(name)


@dataclass(eq=False)
class Hero:
    """Compared by identity: two players may enter the same name ("Other hero")."""

    name: str
    start_health: int
    health: int
    heal_cap: int  # the most Health this hero may have
    salves: int = 0

    @property
    def title(self) -> Msg:
        return hero_title(self.name)

    @property
    def fallen(self) -> bool:
        return self.health <= 0

    def to_json(self) -> dict[str, Any]:
        return {
            "name": Text(hero_title(self.name)),
            "health": self.health,
            "start_health": self.start_health,
            "max_health": self.heal_cap,
            "salves": self.salves,
            "fallen": self.fallen,
        }


@dataclass(frozen=True)
class SalveRules:
    heal: int
    stack_limit: int


def set_health(hero: Hero, value: int) -> Event:
    """The hero's Health dial as the table announces it (damage or a correction)."""
    change = value - hero.health
    hero.health = value
    return Event(
        EventKind.HEAL if change > 0 else EventKind.DAMAGE,
        msg("{hero}: Health {health}.", hero=hero.title, health=value),
        {"hero": hero.name, "health": value, "change": change},
    )


def gain_salve(hero: Hero, rules: SalveRules) -> Event:
    if hero.salves >= rules.stack_limit:
        return Event(
            "salve_lost",
            msg(
                "{hero} already holds {n} Salves, the stack limit.", hero=hero.title, n=hero.salves
            ),
        )
    hero.salves += 1
    return Event("salve", msg("{hero} gains a Salve ({n} held).", hero=hero.title, n=hero.salves))


def heal_with_salve(hero: Hero, rules: SalveRules) -> Event:
    """Heal 6 on one's own Health dial, up to the cap."""
    if hero.fallen:
        raise InvalidInput(
            msg("{hero} has fallen: a Salve cannot revive yourself.", hero=hero.title)
        )
    if hero.salves <= 0:
        raise InvalidInput(msg("{hero} has no Salve.", hero=hero.title))
    if hero.health >= hero.heal_cap:
        raise InvalidInput(
            msg(
                "{hero} is already at the most Health allowed ({n}).",
                hero=hero.title,
                n=hero.heal_cap,
            )
        )
    hero.salves -= 1
    healed = min(rules.heal, hero.heal_cap - hero.health)
    hero.health += healed
    return Event(
        EventKind.HEAL,
        msg(
            "{hero} spends a Salve and heals {n}: Health {health}.",
            hero=hero.title,
            n=healed,
            health=hero.health,
        ),
        {"hero": hero.name, "amount": healed},
    )


def revive_with_salve(spender: Hero, fallen: Hero) -> Event:
    """Revive a fallen teammate to 1 Health with one's own Salve."""
    if spender is fallen:
        raise InvalidInput(msg("A Salve may not be used to revive yourself."))
    if spender.fallen:
        raise InvalidInput(msg("{hero} has fallen and cannot spend Salves.", hero=spender.title))
    if spender.salves <= 0:
        raise InvalidInput(msg("{hero} has no Salve.", hero=spender.title))
    if not fallen.fallen:
        raise InvalidInput(msg("{hero} has not fallen.", hero=fallen.title))
    spender.salves -= 1
    fallen.health = 1
    return Event(
        EventKind.HEAL,
        msg(
            "{spender} spends a Salve: {hero} is revived to 1 Health.",
            spender=spender.title,
            hero=fallen.title,
        ),
        {"hero": fallen.name, "amount": 1},
    )


def ask_party(flow: Flow, done: Callable[[list[str]], list[Event]]) -> None:
    """How many heroes (1 to 4), then who they are."""

    def sized(count: int) -> list[Event]:
        ask_heroes(flow, count, done)
        return []

    flow.later(number(msg("How many heroes in the party?"), 1, 4, sized))


def ask_heroes(flow: Flow, count: int, done: Callable[[list[str]], list[Event]]) -> None:
    """Queue one question per hero (names for the score sheet); ``done`` gets them all."""
    by_id = {slug(name): name for name in hero_names()}
    chosen: list[str] = []

    def ask() -> Step:
        def resolve(option: str) -> list[Event]:
            name = by_id[option]
            # the same name twice ("Other hero"): number it, so the table tells them apart
            chosen.append(f"{name} ({len(chosen) + 1})" if name in chosen else name)
            said = Event(
                EventKind.INFO, msg("Hero {i}: {hero}.", i=len(chosen), hero=hero_title(chosen[-1]))
            )
            if len(chosen) < count:
                flow.first(ask())
                return [said]
            return [said, *done(list(chosen))]

        return choose(
            msg("Which hero is hero {i} of {n}?", i=len(chosen) + 1, n=count),
            [(option, msg(name)) for option, name in by_id.items()],
            resolve,
        )

    flow.first(ask())


def slug(name: str) -> str:
    """A stable option id for a name (logged in saves, so it must not move)."""
    return "-".join(name.lower().replace("'", "").split())
