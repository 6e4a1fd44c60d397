"""The Combat Step's actions on single dice: choosing the dice for the Reroll
token, spending a Rune (the die is locked) and what it buys, rerolling, setting a
face, adding a die, adding a symbol."""

from __future__ import annotations

from dicetable.rules.core import (
    Actor,
    Event,
    EventKind,
    Input,
    Msg,
    Option,
    Prompt,
    PromptKind,
    msg,
)
from dicetable.rules.dicequest import tally
from dicetable.rules.dicequest.data import (
    COLORS,
    MAX_PER_COLOR,
    SYMBOLS,
)
from dicetable.rules.dicequest.state import TableState, option_index
from dicetable.rules.dicequest.words import (
    listing,
)


class DiceActions(TableState):
    """Picking dice, faces, colours and symbols; a mixin of ``Dicequest``."""

    def _die_label(self, i: int) -> Msg:
        die = self._attempt().dice[i]
        return msg("Die {n}: {color} {face}", n=i + 1, color=msg(die.color), face=msg(die.face))

    def _prompt_pick_many(self) -> Prompt:
        attempt = self._attempt()
        options = []
        for i in self._unlocked():
            mark = "x" if i in attempt.chosen else " "
            options.append(
                Option(f"die{i + 1}", msg("[{mark}] {die}", mark=mark, die=self._die_label(i)))
            )
        if attempt.chosen:
            options.append(Option("go", msg("Reroll the {n} chosen dice", n=len(attempt.chosen))))
        options.append(Option("back", msg("Back")))
        return self._choose(
            msg(
                "Reroll token: choose all the dice to reroll at once. {hint}",
                hint=self._combat_hint(),
            ),
            options,
            objective=self._objective(),
        )

    def _apply_pick_many(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        if answer.choice == "back":
            self.stage = "combat"
        elif answer.choice == "go":
            self.player.reroll_active = False  # flip it to the inactive side
            attempt.pending = "reroll-token"
            self.stage = "reroll"
            return [Event("reroll_token", msg("The Reroll token is flipped to its used side."))]
        else:
            i = option_index(answer.choice)
            if i in attempt.chosen:
                attempt.chosen.remove(i)
            else:
                attempt.chosen.append(i)
        return []

    def _prompt_pick_die(self) -> Prompt:
        attempt = self._attempt()
        if attempt.pending == "rune":
            dice = self._runes_ready()
            text = msg("Spend a Rune: which die moves to the Locked Dice Zone?")
            options = [Option(f"die{i + 1}", self._die_label(i)) for i in dice]
            if attempt.bonus_runes:
                options.append(Option("bonus", msg("The Rune from an Item or ability")))
        else:
            dice = self._unlocked()
            text = (
                msg("Which die do you reroll?")
                if attempt.pending in ("ability-reroll", "rune-reroll")
                else msg("Which die do you set to a face?")
            )
            options = [Option(f"die{i + 1}", self._die_label(i)) for i in dice]
        if attempt.pending != "rune-reroll":
            options.append(Option("back", msg("Back")))
        return self._choose(text, options, objective=self._objective())

    def _apply_pick_die(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        if answer.choice == "back":
            self.stage = "combat" if not attempt.pending.startswith("rune-") else "rune_use"
            return []
        if attempt.pending == "rune":
            if answer.choice == "bonus":
                return self._spend_bonus_rune()
            self.stage = "rune_use"
            die = attempt.dice[option_index(answer.choice)]
            die.locked = True
            die.rune_spent = True
            return [
                Event(
                    "rune",
                    msg(
                        "The Rune on the {color} die is spent; the die is locked.",
                        color=msg(die.color),
                    ),
                )
            ]
        attempt.die = option_index(answer.choice)
        attempt.chosen = [attempt.die]
        if attempt.pending in ("ability-reroll", "rune-reroll"):
            self.stage = "reroll"
        else:
            self.stage = "pick_face"
        return []

    def _prompt_reroll(self) -> Prompt:
        attempt = self._attempt()
        colors = [attempt.dice[i].color for i in attempt.chosen]
        keep = tuple(i for i in range(len(attempt.dice)) if i not in attempt.chosen)
        kept = self._symbols(without=attempt.chosen)
        return Prompt(
            PromptKind.ROLL,
            msg("Reroll {dice}.", dice=listing([self._die_label(i) for i in attempt.chosen])),
            actor=Actor.PLAYER,
            dice=self._faces_request(colors),
            keep=keep,
            objective=self._objective(),
            odds=tally.roll_odds(attempt.card.require, kept, colors, self.dice),
        )

    def _apply_reroll(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        colors = [attempt.dice[i].color for i in attempt.chosen]
        new = self._check_colors(answer, colors)
        for i in attempt.chosen:  # each new die goes to a chosen die of its colour
            match = next(d for d in new if d.color == attempt.dice[i].color)
            new.remove(match)
            attempt.dice[i] = match
        attempt.chosen = []
        self.stage = "combat"
        return [self._rolled_event()]

    def _prompt_pick_face(self) -> Prompt:
        attempt = self._attempt()
        die = attempt.dice[attempt.die]
        faces = list(dict.fromkeys(self.dice.colors[die.color]))
        return self._choose(
            msg("Set the {color} die to which face?", color=msg(die.color)),
            [Option(f, msg(f)) for f in faces],
            objective=self._objective(),
        )

    def _apply_pick_face(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        die = attempt.dice[attempt.die]
        die.face = answer.choice
        attempt.chosen = []
        self.stage = "combat"
        return [self._rolled_event()]

    def _prompt_pick_color(self) -> Prompt:
        attempt = self._attempt()
        options = [
            Option(c, msg(c))
            for c in COLORS
            if c != self._banned() and [d.color for d in attempt.dice].count(c) < MAX_PER_COLOR
        ]
        options.append(Option("back", msg("Back")))
        return self._choose(msg("Add a die of which colour?"), options)

    def _apply_pick_color(self, answer: Input) -> list[Event]:
        if answer.choice == "back":
            self.stage = "combat" if self._attempt().pending == "add" else "rune_use"
            return []
        self._attempt().pool.append(answer.choice)
        self._attempt().die = -1
        self.stage = "roll_added"
        return []

    def _prompt_roll_added(self) -> Prompt:
        color = self._attempt().pool[-1]
        return Prompt(
            PromptKind.ROLL,
            msg("Roll the added {color} die.", color=msg(color)),
            actor=Actor.PLAYER,
            dice=self._faces_request([color]),
            keep=tuple(range(len(self._attempt().dice))),
            objective=self._objective(),
            odds=tally.roll_odds(self._attempt().card.require, self._symbols(), [color], self.dice),
        )

    def _apply_roll_added(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        attempt.dice += self._check_colors(answer, [attempt.pool[-1]])
        self.stage = "combat"
        return [self._rolled_event()]

    def _prompt_pick_symbol(self) -> Prompt:
        options = [Option(s, msg(s)) for s in SYMBOLS]
        options.append(Option("back", msg("Back")))
        return self._choose(
            msg("Which symbol does the ability add?"), options, objective=self._objective()
        )

    def _apply_pick_symbol(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        if answer.choice == "back":
            self.stage = "combat" if attempt.pending == "symbol" else "rune_use"
            return []
        self.stage = "combat"
        if answer.choice == "rune":
            return self._gain_rune()
        attempt.bonus[answer.choice] += 1
        return [self._rolled_event()]

    def _prompt_rune_use(self) -> Prompt:
        """ "After spending a Rune you must either reroll one die ... or activate an
        ability with a Rune" (Combat Step, Runes)."""
        options = []
        if self._unlocked():
            options.append(Option("reroll", msg("Reroll one die from the Unlocked Dice Zone")))
            options.append(Option("set", msg("Ability: set a die to a face")))
        options += [
            Option("symbol", msg("Ability: add a symbol")),
            Option("prevent", msg("Ability: prevent 1 Light Wound")),
            Option("add", msg("Ability: add a die and roll it")),
            Option("other", msg("Another Rune ability (do it on the table)")),
        ]
        return self._choose(
            msg("The Rune is spent: what does it do?"), options, objective=self._objective()
        )

    def _apply_rune_use(self, answer: Input) -> list[Event]:
        attempt = self._attempt()
        choice = answer.choice
        if choice == "reroll":
            attempt.pending = "rune-reroll"
            self.stage = "pick_die"
        elif choice == "set":
            attempt.pending = "rune-set"
            self.stage = "pick_die"
        elif choice == "symbol":
            attempt.pending = "rune-symbol"
            self.stage = "pick_symbol"
        elif choice == "add":
            attempt.pending = "rune-add"
            self.stage = "pick_color"
        elif choice == "prevent":
            self.stage = "combat"
            return self._prevent_light()
        else:
            self.stage = "combat"
            return [
                Event(
                    EventKind.INSTRUCTION,
                    msg("Use the Rune ability on the table (draw an Item...)."),
                )
            ]
        return []
