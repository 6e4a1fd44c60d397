"""Combat Step: the roll from the tray and the menu of what may follow it, in any
order: the Reroll token, Runes and the Combat Step abilities."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from dicetable.rules.core import (
    Actor,
    DiceRequest,
    Event,
    EventKind,
    Input,
    InvalidInput,
    Option,
    Prompt,
    PromptKind,
    msg,
)
from dicetable.rules.dicequest import tally
from dicetable.rules.dicequest.state import TableState
from dicetable.rules.dicequest.tally import RolledDie
from dicetable.rules.dicequest.words import (
    pool_text,
    symbols_text,
)


class CombatStep(TableState):
    """The roll and the Combat Step menu; a mixin of ``Dicequest``."""

    def _faces_request(self, colors: list[str]) -> DiceRequest:
        return DiceRequest(
            len(colors),
            profile="dicequest",
            faces=self.dice.face_names(),
            colors=tuple(sorted(colors)),  # one entry per die: the screen shows which
        )

    def _prompt_roll(self) -> Prompt:
        attempt = self._attempt()
        card = attempt.card
        return Prompt(
            PromptKind.ROLL,
            msg("Combat Step: roll {pool}.", pool=pool_text(attempt.pool)),
            actor=Actor.PLAYER,
            dice=self._faces_request(attempt.pool),
            objective=self._objective(),
            odds=tally.roll_odds(card.require, attempt.bonus, attempt.pool, self.dice),
        )

    def _check_colors(self, answer: Input, wanted: list[str]) -> list[RolledDie]:
        got = [d.color for d in answer.dice]
        if Counter(got) != Counter(wanted):
            raise InvalidInput(
                msg(
                    "Expected dice {wanted}, got {got}.",
                    wanted=pool_text(wanted),
                    got=pool_text(got),
                )
            )
        for die in answer.dice:
            if die.name not in self.dice.colors[die.color]:
                raise InvalidInput(
                    msg(
                        "A {color} die has no {face} face.",
                        color=msg(die.color),
                        face=msg(die.name),
                    )
                )
        return [RolledDie(d.color, d.name) for d in answer.dice]

    def _apply_roll(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        attempt.dice = self._check_colors(answer, attempt.pool)
        attempt.rolled = True
        self.stage = "combat"
        return [self._rolled_event()]

    def _rolled_event(self) -> Event:
        attempt = self._attempt()
        symbols = self._symbols()
        short = self._missing_text() if self._missing() else None
        kind = EventKind.OBJECTIVE_MET if not short else EventKind.ROLLED
        text = (
            msg("Result: {symbols}. The Quest is met.", symbols=symbols_text(symbols))
            if not short
            else msg(
                "Result: {symbols}. Missing: {missing}.",
                symbols=symbols_text(symbols),
                missing=short,
            )
        )
        return Event(
            kind, text, {"dice": [d.to_json() for d in attempt.dice], "symbols": dict(symbols)}
        )

    def _runes_ready(self) -> list[int]:
        return [
            i
            for i, d in enumerate(self._attempt().dice)
            if not d.locked and "rune" in self.dice.symbols(d.face)
        ]

    def _unlocked(self) -> list[int]:
        return [i for i, d in enumerate(self._attempt().dice) if not d.locked]

    def _reroll_allowed(self) -> bool:
        threat = self.threat
        blocked = threat is not None and threat.effect == "no_reroll"
        return self.player.reroll_active and not blocked and bool(self._unlocked())

    def _prompt_combat(self) -> Prompt:
        attempt = self._attempt()
        options = []
        if self._reroll_allowed():
            options.append(Option("reroll-token", msg("Use the Reroll token: reroll any dice")))
        if self._runes_ready() or attempt.bonus_runes:
            options.append(Option("spend-rune", msg("Spend a Rune")))
        if self._unlocked():
            options.append(Option("ability-reroll", msg("Ability: reroll one die")))
            options.append(Option("ability-set", msg("Ability: set a die to a face")))
        options += [
            Option("ability-add", msg("Item or ability: add a die and roll it")),
            Option("ability-symbol", msg("Item or ability: add a symbol")),
            Option("gain-rune", msg("Item or ability: gain a Rune")),
            Option("prevent", msg("Ability: prevent 1 Light Wound")),
            Option(
                "self-wound",
                msg("Ability: take 1 Unblockable Light Wound (Scarifier, Yami, Doomies)"),
            ),
            Option("done", msg("Go to the Wound Step")),
        ]
        return self._choose(
            msg(
                "Combat Step: {status} {hint}", status=self._status_text(), hint=self._combat_hint()
            ),
            options,
            objective=self._objective(),
            odds=self._reroll_odds(),
        )

    def _free_dice(self) -> list[int]:
        """Unlocked dice that add nothing to the result now: the ones worth rerolling."""
        attempt = self._attempt()
        require = attempt.card.require
        met = sum(tally.match(require, self._symbols()))
        return [
            i
            for i in self._unlocked()
            if sum(tally.match(require, self._symbols(without=[i]))) == met
        ]

    def _reroll_odds(self) -> Fraction | None:
        """The chance of meeting the card by rerolling every die worth rerolling."""
        if not self._missing():
            return None
        free = self._free_dice()
        colors = [self._attempt().dice[i].color for i in free]
        if not colors:
            return None
        kept = self._symbols(without=free)
        return tally.roll_odds(self._attempt().card.require, kept, colors, self.dice)

    def _apply_combat(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        choice = answer.choice
        if choice == "done":
            return self._to_wound_step()
        if choice == "reroll-token":
            attempt.chosen = []
            self.stage = "pick_many"
        elif choice == "spend-rune":
            if attempt.bonus_runes and not self._runes_ready():
                return self._spend_bonus_rune()
            attempt.pending = "rune"
            self.stage = "pick_die"
        elif choice in ("ability-reroll", "ability-set"):
            attempt.pending = choice
            self.stage = "pick_die"
        elif choice == "ability-add":
            attempt.pending = "add"
            self.stage = "pick_color"
        elif choice == "ability-symbol":
            attempt.pending = "symbol"
            self.stage = "pick_symbol"
        elif choice == "gain-rune":
            return self._gain_rune()
        elif choice == "prevent":
            return self._prevent_light()
        elif choice == "self-wound":
            attempt.self_wounds += 1
            return [
                Event(
                    "self_wound",
                    msg("1 Unblockable Light Wound is added to the Wound Step; use the ability."),
                )
            ]
        return []

    # effects of Items and abilities the table counts, from the menu or a spent Rune

    def _gain_rune(self) -> list[Event]:
        self._attempt().bonus_runes += 1
        return [Event("rune", msg("Gained 1 Rune (Item or ability)."))]

    def _spend_bonus_rune(self) -> list[Event]:
        """A Rune from an Item or ability: no die to lock, on to what it buys."""
        self._attempt().bonus_runes -= 1
        self.stage = "rune_use"
        return [Event("rune", msg("A Rune from an Item or ability is spent."))]

    def _prevent_light(self) -> list[Event]:
        """Charm of Liothan, Shaman: "remove 1 non-Unblockable Light Wound token"."""
        self._attempt().prevented += 1
        return [Event("prevent", msg("1 Light Wound will be prevented."))]
