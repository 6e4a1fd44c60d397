"""A turn's Income and Tavern Phases: the Gold to take, and the actions that change
the party the companion tracks (Recruit, Graduate, and the board actions unlocked
after Act II: Level Up and removing a Light Wound)."""

from __future__ import annotations

from dicetable.rules.core import (
    Event,
    EventKind,
    Input,
    Option,
    Prompt,
    msg,
)
from dicetable.rules.dicequest import threat_phase
from dicetable.rules.dicequest.data import (
    hero_kinds,
)
from dicetable.rules.dicequest.party import PARTY_SLOTS, Hero
from dicetable.rules.dicequest.state import TableState, option_index
from dicetable.rules.dicequest.words import (
    listing,
)


def start_turn(s: TableState) -> list[Event]:
    player = s.player
    gold = 2 if player.heroes else 4  # Income Phase
    s.stage = "tavern"
    s.attempt = None
    return [
        Event(
            EventKind.INSTRUCTION,
            msg("{player}'s turn. Income: gain {gold} Gold.", player=player.title(), gold=gold),
            {"player": player.number, "gold": gold},
        )
    ]


def prompt_tavern(s: TableState) -> Prompt:
    player = s.player
    options = []
    if len(player.heroes) < PARTY_SLOTS:
        options.append(Option("recruit", msg("Recruit a Hero")))
    if player.heroes:
        options.append(Option("graduate", msg("Graduate a Hero")))
    if s.act >= 3:  # Act II Adventure completed
        if any(not h.expert and h.kind.level != "legendary" for h in player.heroes):
            options.append(Option("level", msg("Pay 3 Gold: level up an Apprentice Hero")))
        if any(h.light for h in player.heroes):
            options.append(Option("heal", msg("Pay 3 Gold: remove 1 Light Wound")))
    if s.mode == "coop" and threat_phase.threatenable(s):
        options.append(Option("threaten", msg("Adventure ability: put a Threat token on a Quest")))
    options.append(Option("quest", msg("Go to the Quest Phase")))
    return s.choose(
        msg(
            "{player}, Tavern Phase: recruit, graduate, equip, then quest.",
            player=player.title(),
        ),
        options,
    )


def apply_tavern(s: TableState, answer: Input) -> list[Event]:
    if answer.choice == "quest":
        s.stage = "quest"
        return []
    s.stage = answer.choice
    return []


def prompt_recruit(s: TableState) -> Prompt:
    legendary = s.act >= 3  # "Unlocking Legendary Heroes" after Act II
    kinds = [k for k in hero_kinds() if (k.level == "legendary") == legendary]
    options = [
        Option(
            k.id,
            msg(
                "{name} ({dice})",
                name=msg(k.name),
                dice=listing([msg(c) for c in k.dice], empty="add its dice when questing"),
            ),
        )
        for k in kinds
    ]
    options.append(Option("back", msg("Back")))
    return s.choose(msg("Which Hero do you recruit?"), options)


def apply_recruit(s: TableState, answer: Input) -> list[Event]:
    s.stage = "tavern"
    if answer.choice == "back":
        return []
    kind = next(k for k in hero_kinds() if k.id == answer.choice)
    hero = Hero(kind, expert=False)
    s.player.heroes.append(hero)
    return [
        Event(
            "recruit",
            msg("{player} recruits {hero}.", player=s.player.title(), hero=msg(kind.name)),
            {"hero": kind.id},
        )
    ]


def hero_options(s: TableState, heroes: list[tuple[int, Hero]]) -> list[Option]:
    return [Option(f"hero{i + 1}", h.label()) for i, h in heroes]


def prompt_graduate(s: TableState) -> Prompt:
    options = hero_options(s, list(enumerate(s.player.heroes)))
    options.append(Option("back", msg("Back")))
    return s.choose(msg("Which Hero graduates?"), options)


def apply_graduate(s: TableState, answer: Input) -> list[Event]:
    s.stage = "tavern"
    if answer.choice == "back":
        return []
    hero = s.player.heroes.pop(option_index(answer.choice))
    if hero.expert or hero.kind.level == "legendary":
        s.player.graduated += 1
        text = msg("{hero} graduates to the Achievements Zone.", hero=msg(hero.name))
    else:
        text = msg("{hero} returns to the bottom of the Apprentice deck.", hero=msg(hero.name))
    return [Event("graduate", text, {"hero": hero.kind.id})]


def prompt_level(s: TableState) -> Prompt:
    heroes = [(i, h) for i, h in enumerate(s.player.heroes) if not h.has_ability]
    return s.choose(
        msg("Which Apprentice Hero levels up?"),
        [*hero_options(s, heroes), Option("back", msg("Back"))],
    )


def apply_level(s: TableState, answer: Input) -> list[Event]:
    s.stage = "tavern"
    if answer.choice == "back":
        return []
    hero = s.player.heroes[option_index(answer.choice)]
    hero.expert = True
    return [
        Event(
            EventKind.INSTRUCTION,
            msg("Pay 3 Gold and flip {hero} to the Expert side.", hero=msg(hero.name)),
        )
    ]


def prompt_heal(s: TableState) -> Prompt:
    heroes = [(i, h) for i, h in enumerate(s.player.heroes) if h.light]
    return s.choose(
        msg("Remove 1 Light Wound from which Hero?"),
        [*hero_options(s, heroes), Option("back", msg("Back"))],
    )


def apply_heal(s: TableState, answer: Input) -> list[Event]:
    s.stage = "tavern"
    if answer.choice == "back":
        return []
    hero = s.player.heroes[option_index(answer.choice)]
    hero.light -= 1
    return [
        Event(EventKind.HEAL, msg("Pay 3 Gold: {hero} loses 1 Light Wound.", hero=msg(hero.name)))
    ]
