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
from dicetable.rules.dicequest import tally
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


class WoundStep(TableState):
    """Blocking and placing wounds; a mixin of ``Dicequest``."""

    def _wounds(self) -> tally.Wounds:
        threat = self.threat
        extra = threat.amount if threat and threat.effect == "extra_light" else 0
        attempt = self._attempt()
        wounds = tally.wounds_of(attempt.card, self._symbols(), extra)
        return tally.Wounds(wounds.light, wounds.deadly, wounds.unblockable + attempt.self_wounds)

    def _to_wound_step(self) -> list[Event]:
        attempt = self._attempt()
        wounds = self._wounds()
        prevented = min(attempt.prevented, wounds.light)
        attempt.blocked = Counter({"light": prevented})
        events = []
        if prevented:
            events.append(
                Event("prevent", msg("{n} Light Wounds prevented by abilities.", n=prevented))
            )
        self.stage = "block"
        if not self._block_options():
            return events + self._place_wounds()
        return events

    def _open_wounds(self) -> tuple[int, int, int]:
        attempt = self._attempt()
        wounds = self._wounds()
        return (
            wounds.light - attempt.blocked["light"],
            wounds.deadly - attempt.blocked["deadly"],
            wounds.unblockable,
        )

    def _block_options(self) -> list[Option]:
        attempt = self._attempt()
        light, deadly, _ = self._open_wounds()
        shields = self._symbols()["shield"] - attempt.shields_blocking
        options = []
        if shields > 0 and deadly > 0:
            options.append(Option("deadly", msg("Block a Deadly Wound with a Shield")))
        if shields > 0 and light > 0:
            options.append(Option("light", msg("Block a Light Wound with a Shield")))
        return options

    def _prompt_block(self) -> Prompt:
        attempt = self._attempt()
        light, deadly, unblockable = self._open_wounds()
        shields = self._symbols()["shield"] - attempt.shields_blocking
        options = [*self._block_options(), Option("done", msg("Take the wounds"))]
        text = msg(
            "Wound Step: {light} Light, {deadly} Deadly, {unblockable} Unblockable "
            "wounds; {shields} Shields left to block with.",
            light=light,
            deadly=deadly,
            unblockable=unblockable,
            shields=shields,
        )
        if attempt.card.is_adventure and self.mode == "coop" and self.adventure_tokens:
            # "Shields in your result may be used to discard Threat tokens instead of
            # preventing wounds" (Threat Phase and Cards): the choice is made here.
            text = msg(
                "{wounds} A Shield kept can discard a Threat token instead: {tokens}.",
                wounds=text,
                tokens=self._tokens_text(),
            )
        return self._choose(text, options)

    def _apply_block(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        if answer.choice == "done":
            return self._place_wounds()
        attempt.blocked[answer.choice] += 1
        attempt.shields_blocking += 1
        events = [Event("block", msg(BLOCK_WOUND[answer.choice]))]
        if not self._block_options():
            events += self._place_wounds()
        return events

    def _place_wounds(self) -> list[Event]:
        attempt = self._attempt()
        light, deadly, unblockable = self._open_wounds()
        attempt.wounds = ["deadly"] * deadly + ["unblockable"] * unblockable + ["light"] * light
        return self._next_wound()

    def _alive_active(self) -> list[int]:
        attempt = self._attempt()
        return [i for i in attempt.active if not self.player.heroes[i].defeated]

    def _next_wound(self) -> list[Event]:
        attempt = self._attempt()
        if attempt.wounds and not self._alive_active():
            lost = len(attempt.wounds)
            attempt.wounds = []
            if attempt.active:
                return [
                    Event(
                        "wounds_lost",
                        msg("No Active Hero is left: {n} wounds are not placed.", n=lost),
                    ),
                    *self._to_reward(),
                ]
        if attempt.wounds:
            self.stage = "assign"
            return []
        return self._to_reward()

    def _prompt_assign(self) -> Prompt:
        attempt = self._attempt()
        kind = attempt.wounds[0]
        options = self._hero_options([(i, self.player.heroes[i]) for i in self._alive_active()])
        options += [  # "Place wounds: in any order" (Wound Step)
            Option(f"first-{other}", msg(PLACE_FIRST[other]))
            for other in dict.fromkeys(attempt.wounds)
            if other != kind
        ]
        return self._choose(
            msg(PLACE_WOUND[kind], n=len(attempt.wounds)),
            options,
        )

    def _apply_assign(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        if answer.choice.startswith("first-"):
            kind = answer.choice.removeprefix("first-")
            attempt.wounds.remove(kind)
            attempt.wounds.insert(0, kind)
            return []
        kind = attempt.wounds.pop(0)
        hero = self.player.heroes[option_index(answer.choice)]
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
        return events + self._next_wound()
