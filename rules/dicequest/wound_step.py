"""Wound Step: counting the wounds, Shields blocking Light or Deadly (never
Unblockable) wounds, and placing them one at a time, in any order, on Active Heroes
(a Hero is defeated at 2 Light or 1 Deadly Wound)."""

from __future__ import annotations

from collections import Counter

from dicetable.rules.core import (
    Event,
    EventKind,
    Input,
    Option,
    Prompt,
    msg,
)
from dicetable.rules.dicequest import quest_status, reward_step, tally, tavern_phase, threat_phase
from dicetable.rules.dicequest.state import TableState, option_index

PLACE_WOUND = {
    "deadly": "Place a Deadly Wound ({n} left) on which Active Hero?",
    "unblockable": "Place an Unblockable Light Wound ({n} left) on which Active Hero?",
    "light": "Place a Light Wound ({n} left) on which Active Hero?",
}
TAKE_WOUND = {
    "deadly": "{hero} takes a Deadly Wound.",
    "unblockable": "{hero} takes an Unblockable Light Wound.",
    "light": "{hero} takes a Light Wound.",
}
PLACE_FIRST = {
    "deadly": "Place a Deadly Wound first",
    "unblockable": "Place an Unblockable Light Wound first",
    "light": "Place a Light Wound first",
}
BLOCK_WOUND = {
    "deadly": "A Shield blocks a Deadly Wound.",
    "light": "A Shield blocks a Light Wound.",
}


def attempt_wounds(s: TableState) -> tally.Wounds:
    threat = s.threat
    extra = threat.amount if threat and threat.effect == "extra_light" else 0
    attempt = quest_status.current_attempt(s)
    wounds = tally.wounds_of(attempt.card, quest_status.symbols(s), extra)
    return tally.Wounds(wounds.light, wounds.deadly, wounds.unblockable + attempt.self_wounds)


def to_wound_step(s: TableState) -> list[Event]:
    attempt = quest_status.current_attempt(s)
    wounds = attempt_wounds(s)
    prevented = min(attempt.prevented, wounds.light)
    attempt.blocked = Counter({"light": prevented})
    events = []
    if prevented:
        events.append(
            Event("prevent", msg("{n} Light Wounds prevented by abilities.", n=prevented))
        )
    s.stage = "block"
    if not block_options(s):
        return events + place_wounds(s)
    return events


def open_wounds(s: TableState) -> tuple[int, int, int]:
    attempt = quest_status.current_attempt(s)
    wounds = attempt_wounds(s)
    return (
        wounds.light - attempt.blocked["light"],
        wounds.deadly - attempt.blocked["deadly"],
        wounds.unblockable,
    )


def block_options(s: TableState) -> list[Option]:
    attempt = quest_status.current_attempt(s)
    light, deadly, _ = open_wounds(s)
    shields = quest_status.symbols(s)["shield"] - attempt.shields_blocking
    options = []
    if shields > 0 and deadly > 0:
        options.append(Option("deadly", msg("Block a Deadly Wound with a Shield")))
    if shields > 0 and light > 0:
        options.append(Option("light", msg("Block a Light Wound with a Shield")))
    return options


def prompt_block(s: TableState) -> Prompt:
    attempt = quest_status.current_attempt(s)
    light, deadly, unblockable = open_wounds(s)
    shields = quest_status.symbols(s)["shield"] - attempt.shields_blocking
    options = [*block_options(s), Option("done", msg("Take the wounds"))]
    text = msg(
        "Wound Step: {light} Light, {deadly} Deadly, {unblockable} Unblockable "
        "wounds; {shields} Shields left to block with.",
        light=light,
        deadly=deadly,
        unblockable=unblockable,
        shields=shields,
    )
    if attempt.card.is_adventure and s.mode == "coop" and s.adventure_tokens:
        # "Shields in your result may be used to discard Threat tokens instead of
        # preventing wounds" (Threat Phase and Cards): the choice is made here.
        text = msg(
            "{wounds} A Shield kept can discard a Threat token instead: {tokens}.",
            wounds=text,
            tokens=threat_phase.adventure_tokens_text(s),
        )
    return s.choose(text, options)


def apply_block(s: TableState, answer: Input) -> list[Event]:
    attempt = quest_status.current_attempt(s)
    if answer.choice == "done":
        return place_wounds(s)
    attempt.blocked[answer.choice] += 1
    attempt.shields_blocking += 1
    events = [Event("block", msg(BLOCK_WOUND[answer.choice]))]
    if not block_options(s):
        events += place_wounds(s)
    return events


def place_wounds(s: TableState) -> list[Event]:
    attempt = quest_status.current_attempt(s)
    light, deadly, unblockable = open_wounds(s)
    attempt.wounds = ["deadly"] * deadly + ["unblockable"] * unblockable + ["light"] * light
    return next_wound(s)


def alive_active(s: TableState) -> list[int]:
    attempt = quest_status.current_attempt(s)
    return [i for i in attempt.active if not s.player.heroes[i].defeated]


def next_wound(s: TableState) -> list[Event]:
    attempt = quest_status.current_attempt(s)
    if attempt.wounds and not alive_active(s):
        lost = len(attempt.wounds)
        attempt.wounds = []
        if attempt.active:
            return [
                Event(
                    "wounds_lost",
                    msg("No Active Hero is left: {n} wounds are not placed.", n=lost),
                ),
                *reward_step.to_reward(s),
            ]
    if attempt.wounds:
        s.stage = "assign"
        return []
    return reward_step.to_reward(s)


def prompt_assign(s: TableState) -> Prompt:
    attempt = quest_status.current_attempt(s)
    kind = attempt.wounds[0]
    options = tavern_phase.hero_options(s, [(i, s.player.heroes[i]) for i in alive_active(s)])
    options += [  # "Place wounds: in any order" (Wound Step)
        Option(f"first-{other}", msg(PLACE_FIRST[other]))
        for other in dict.fromkeys(attempt.wounds)
        if other != kind
    ]
    return s.choose(
        msg(PLACE_WOUND[kind], n=len(attempt.wounds)),
        options,
    )


def apply_assign(s: TableState, answer: Input) -> list[Event]:
    attempt = quest_status.current_attempt(s)
    if answer.choice.startswith("first-"):
        kind = answer.choice.removeprefix("first-")
        attempt.wounds.remove(kind)
        attempt.wounds.insert(0, kind)
        return []
    kind = attempt.wounds.pop(0)
    hero = s.player.heroes[option_index(answer.choice)]
    if kind == "deadly":
        hero.deadly += 1
    else:
        hero.light += 1
    events = [
        Event(
            EventKind.DAMAGE,
            msg(TAKE_WOUND[kind], hero=msg(hero.name)),
            {"hero": hero.kind.id, "kind": kind},
        )
    ]
    if hero.defeated:
        events.append(
            Event(
                "defeated",
                msg("{hero} is defeated: back to the bottom of the deck.", hero=msg(hero.name)),
                {"hero": hero.kind.id},
            )
        )
    return events + next_wound(s)
