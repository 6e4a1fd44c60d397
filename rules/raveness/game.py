"""The Raveness at the table: a companion for the player of the Raveness.

The players play Dice Throne with their own boards and cards; the table keeps
Nevermore (who holds him, his dial), the Raveness's Feathers and Hex, reads the
Nevermore Die Roll from the tray at the holder's Upkeep, offers the Feather spends,
resolves the six outcomes and every Activation, and has a Hexed player's roll
checked against their hero's Roll Objectives with 6s blank (``hexed_roll.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dicetable.rules.core import (
    Actor,
    DiceRequest,
    Event,
    EventKind,
    Input,
    Msg,
    Prompt,
    PromptKind,
    Text,
    msg,
)
from dicetable.rules.dicethrone.heroes import hero_ids, load_hero
from dicetable.rules.flow import FlowGame, Step, choice, choose, instruction, number
from dicetable.rules.raveness.hexed_roll import OTHER_HERO, hex_check
from dicetable.rules.raveness.nevermore import RAVENESS, Nevermore
from dicetable.rules.raveness.rules import nevermore_rules


class RavenessTable(FlowGame):
    id = "raveness"
    title = "The Raveness: Nevermore, Feathers and Hex"

    def __init__(self, seed: int, options: dict[str, str] | None = None) -> None:
        super().__init__(seed, options)
        self.rules = nevermore_rules()
        self.nevermore = Nevermore(self.rules, dial=self.rules.dial_start)
        self.names: dict[str, Msg] = {RAVENESS: msg("Raveness")}
        self.heroes: dict[str, str] = {}
        self.defeated: list[str] = []
        self.active: str | None = None
        self.turn = 0
        self.outcome: str | None = None  # raveness | opponents | tie
        self.flow.later(number(msg("How many opponents?"), 1, 5, self._opponents))

    # setup --------------------------------------------------------------------------
    def _opponents(self, count: int) -> list[Event]:
        def ask(i: int) -> Step:
            def chosen(hero: str) -> list[Event]:
                player = f"opponent-{i}"
                self.heroes[player] = hero
                if hero == OTHER_HERO:
                    self.names[player] = msg("Opponent {i}", i=i)
                elif count > 1:
                    self.names[player] = msg("{hero} ({i})", hero=msg(load_hero(hero).name), i=i)
                else:
                    self.names[player] = msg(load_hero(hero).name)
                if i < count:
                    self.flow.first(ask(i + 1))
                    return []
                return [
                    Event(
                        EventKind.INFO,
                        msg(
                            "Nevermore starts on the Raveness's Hero Board, dial at {dial}.",
                            dial=self.nevermore.dial,
                        ),
                    )
                ]

            return choose(
                msg("Opponent {i}: which hero?", i=i),
                [
                    *((h, msg(load_hero(h).name)) for h in hero_ids() if h != RAVENESS),
                    (OTHER_HERO, msg("Another hero")),
                ],
                chosen,
            )

        self.flow.first(ask(1))
        return []

    @property
    def alive(self) -> list[str]:
        return [p for p in self.names if p not in self.defeated]

    @property
    def opponents(self) -> list[str]:
        return [p for p in self.alive if p != RAVENESS]

    # the menu ------------------------------------------------------------------------
    def main_prompt(self) -> Prompt:
        if self.outcome is not None:
            return super().main_prompt()
        options = [("turn", msg("Next turn: whose Upkeep begins?"))]
        if self.nevermore.holder is not None:
            options.append(("activate", msg("Nevermore is Activated (ability or card)")))
        options.append(("feathers", msg("The Raveness gains Feathers")))
        if self.nevermore.feathers >= self.rules.activate_cost and self.nevermore.holder:
            options.append(
                (
                    "feather-activate",
                    msg("Spend {n} Feathers: Activate Nevermore", n=self.rules.activate_cost),
                )
            )
        options.append(("hex", msg("Inflict Hex on an opponent")))
        if self.nevermore.hexed is not None:
            options.append(("hex-remove", msg("An effect removes Hex")))
            options.append(("hex-roll", msg("Check a roll of the Hexed player")))
        options.append(("defeated", msg("A player is defeated")))
        text = (
            msg("{player}'s turn: what happens?", player=self.names[self.active])
            if self.active
            else msg("Before the first turn: what happens?")
        )
        return choice(text, options, actor=Actor.PLAYER)

    def main_apply(self, answer: Input) -> list[Event]:
        action = answer.choice
        if action == "turn":
            self.flow.first(self._pick(msg("Whose turn begins?"), self.alive, self._turn_begins))
        elif action == "activate":
            self.flow.first(
                choose(
                    msg("How many times is Nevermore Activated?"),
                    [(f"times-{n}", msg("{n} time(s)", n=n)) for n in (1, 2, 3)],
                    lambda times: self._activations(int(times.removeprefix("times-"))),
                )
            )
        elif action == "feathers":
            self.flow.first(
                number(msg("How many Feathers does the Raveness gain?"), 1, 5, self._gain_feathers)
            )
        elif action == "feather-activate":
            spent = self.nevermore.spend_feathers(self.rules.activate_cost)
            return [spent, *self._activations(1)]
        elif action == "hex":
            self.flow.first(
                self._pick(
                    msg("Who gains Hex?"),
                    self.opponents,
                    lambda p: self.nevermore.inflict_hex(p, self.names),
                )
            )
        elif action == "hex-remove":
            return self.nevermore.remove_hex(self.names)
        elif action == "hex-roll":
            self.flow.first(self._hex_roll_step())
        elif action == "defeated":
            return self._ask_defeated()
        return []

    def _pick(self, text: Any, players: list[str], then: Any) -> Step:
        return choose(text, [(p, self.names[p]) for p in players], then)

    # turns ---------------------------------------------------------------------------
    def _turn_begins(self, player: str) -> list[Event]:
        events: list[Event] = []
        if self.active is not None and self.nevermore.hexed == self.active:
            # Hex: "At the conclusion of their turn, remove this token."
            events += self.nevermore.remove_hex(self.names)
        self.active = player
        self.turn += 1
        events.append(
            Event(
                EventKind.INFO,
                msg("Upkeep Phase of {player}.", player=self.names[player]),
                {"active": player},
            )
        )
        if self.nevermore.holder == player and player != RAVENESS:
            self.flow.first(self._die_roll_step(player))
        return events

    # the Nevermore Die Roll ----------------------------------------------------------------
    def _die_roll_step(self, roller: str) -> Step:
        """``roller``: the opponent whose Upkeep it is; the outcome acts on them ("that
        opponent") even when a Feather Activation has moved Nevermore meanwhile."""
        prompt = Prompt(
            PromptKind.ROLL,
            msg(
                "{player} has Nevermore: roll 1 die, the Nevermore Die Roll.",
                player=self.names[roller],
            ),
            actor=Actor.PLAYER,
            dice=DiceRequest(1),
        )

        def rolled(answer: Input) -> list[Event]:
            value = answer.dice[0].value or 0
            self.flow.first(self._feather_window(value, roller))
            return [
                Event(
                    EventKind.ROLLED,
                    msg("Nevermore Die Roll: {value}.", value=value),
                    {"value": value},
                )
            ]

        return Step(prompt, rolled)

    def _feather_window(self, value: int, roller: str) -> Step:
        """The Raveness's own Feathers may change the roll before it resolves (Mirror
        Match: "may only be altered by your own Feather tokens")."""
        f, rules = self.nevermore.feathers, self.rules
        options = [("resolve", msg("Resolve the {value}", value=value))]
        if f >= rules.reroll_cost:
            options.append(("reroll", msg("Spend {n} Feather: re-roll", n=rules.reroll_cost)))
        if f >= rules.adjust_cost and value < 6:
            options.append(
                ("up", msg("Spend {n} Feathers: make it {v}", n=rules.adjust_cost, v=value + 1))
            )
        if f >= rules.adjust_cost and value > 1:
            options.append(
                ("down", msg("Spend {n} Feathers: make it {v}", n=rules.adjust_cost, v=value - 1))
            )
        if f >= rules.activate_cost:
            options.append(
                ("activate", msg("Spend {n} Feathers: Activate Nevermore", n=rules.activate_cost))
            )

        def chosen(option: str) -> list[Event]:
            if option == "resolve":
                return self._resolve(value, roller)
            if option == "reroll":
                spent = self.nevermore.spend_feathers(rules.reroll_cost)
                self.flow.first(self._die_roll_step(roller))
                return [spent]
            if option in ("up", "down"):
                spent = self.nevermore.spend_feathers(rules.adjust_cost)
                new = value + (1 if option == "up" else -1)
                self.flow.first(self._feather_window(new, roller))
                return [
                    spent,
                    Event(
                        EventKind.INFO,
                        msg("The Nevermore Die Roll is now {value}.", value=new),
                        {"value": new},
                    ),
                ]
            spent = self.nevermore.spend_feathers(rules.activate_cost)
            return [spent, *self._activations(1, then=lambda: self._back_to_window(value, roller))]

        return choose(
            msg("Nevermore Die Roll {value}: spend Feathers?", value=value),
            options,
            chosen,
            actor=Actor.PLAYER,
        )

    def _back_to_window(self, value: int, roller: str) -> list[Event]:
        self.flow.first(self._feather_window(value, roller))
        return []

    def _resolve(self, value: int, roller: str) -> list[Event]:
        outcome = self.rules.outcomes[value]
        name = self.names[roller]
        if outcome.effect == "hex":
            return self.nevermore.inflict_hex(roller, self.names)
        if outcome.effect == "activate":
            return [
                Event(
                    EventKind.INFO,
                    msg("The Raveness may Activate Nevermore {n} time(s).", n=outcome.times),
                ),
                *self._activations(outcome.times),
            ]
        if outcome.effect == "discard":
            return self._instruct(msg("{player} discards 1 card of their choice.", player=name))
        if outcome.effect == "cp":
            return self._instruct(
                msg(
                    "{player} loses 1 CP (if they have any); the Raveness gains 1 CP either way.",
                    player=name,
                )
            )
        return self.nevermore.dial_to_zero_and_return(self.names)

    def _instruct(self, text: Any) -> list[Event]:
        event, step = instruction(text)
        self.flow.first(step)
        return [event]

    # Activations ----------------------------------------------------------------------
    def _activations(self, times: int, then: Callable[[], list[Event]] = list) -> list[Event]:
        """Each Activation separately, asked one after another (an earlier one may have
        moved Nevermore): move him, Absorb Vitality, or neither; ``then`` at the end."""
        self.flow.first(self._activation_step(1, times, then))
        return []

    def _activation_step(self, i: int, times: int, then: Callable[[], list[Event]]) -> Step:
        options = [
            (f"move-{p}", msg("Move Nevermore to {player}", player=self.names[p]))
            for p in self.alive
            if p != self.nevermore.holder
        ]
        if self.nevermore.on_opponent:
            options.append(("absorb", msg("Absorb Vitality")))
        options.append(("neither", msg("Neither")))

        def chosen(option: str) -> list[Event]:
            if option == "neither":
                events = [Event(EventKind.INFO, msg("The Raveness chooses neither."))]
            elif option == "absorb":
                events = self.nevermore.absorb_vitality(self.names)
            else:
                events = self.nevermore.move_to(option.removeprefix("move-"), self.names)
            if i < times:
                self.flow.first(self._activation_step(i + 1, times, then))
                return events
            return events + then()

        return choose(
            msg("Activation {i} of {n}: what does Nevermore do?", i=i, n=times),
            options,
            chosen,
            actor=Actor.PLAYER,
        )

    # Feathers, Hex rolls, defeat --------------------------------------------------------------
    def _gain_feathers(self, n: int) -> list[Event]:
        """Feather clarification: spending is an Instant Action, so before gaining past
        the Stack Limit the Raveness may spend 3 to Activate and make room."""
        over = self.nevermore.feathers + n - self.rules.feather_stack
        if (
            over > 0
            and self.nevermore.feathers >= self.rules.activate_cost
            and self.nevermore.holder
        ):

            def chosen(option: str) -> list[Event]:
                if option == "gain":
                    return self.nevermore.gain_feathers(n)
                spent = self.nevermore.spend_feathers(self.rules.activate_cost)
                return [spent, *self.nevermore.gain_feathers(n), *self._activations(1)]

            self.flow.first(
                choose(
                    msg(
                        "{n} Feathers would pass the limit of {limit}: spend some first?",
                        n=n,
                        limit=self.rules.feather_stack,
                    ),
                    [
                        (
                            "activate",
                            msg(
                                "Spend {n} Feathers: Activate Nevermore, then gain",
                                n=self.rules.activate_cost,
                            ),
                        ),
                        ("gain", msg("Gain and lose the excess")),
                    ],
                    chosen,
                    actor=Actor.PLAYER,
                )
            )
            return []
        return self.nevermore.gain_feathers(n)

    def _hex_roll_step(self) -> Step:
        hexed = self.nevermore.hexed
        assert hexed is not None
        name = self.names[hexed]
        prompt = Prompt(
            PromptKind.ROLL,
            msg("{player} is Hexed: roll the dice to check (6s are blank).", player=name),
            actor=Actor.PLAYER,
            dice=DiceRequest(5, min_count=1),
        )

        def rolled(answer: Input) -> list[Event]:
            values = [d.value or 0 for d in answer.dice]
            return hex_check(self.heroes.get(hexed, OTHER_HERO), name, values)

        return Step(prompt, rolled)

    def _ask_defeated(self) -> list[Event]:
        options = [(p, self.names[p]) for p in self.alive]
        if self.nevermore.on_opponent:
            options.append(
                (
                    "together",
                    msg(
                        "The Raveness and {player} at the same time",
                        player=self.names[self.nevermore.holder or ""],
                    ),
                )
            )
        self.flow.first(choose(msg("Who is defeated?"), options, self._defeated))
        return []

    def _defeated(self, who: str) -> list[Event]:
        if who == "together":
            # "the Heal from Nevermore being returned ... would not resolve until after
            # damage calculations. Therefore, the game would conclude in a tie."
            holder = self.nevermore.holder or ""
            self.defeated += [RAVENESS, holder]
            self.nevermore.holder = None
            self.outcome = "tie"
            return [
                Event(
                    EventKind.INFO,
                    msg(
                        "The Raveness and {player} fall together: no heal"
                        " from Nevermore; the game is a tie.",
                        player=self.names[holder],
                    ),
                )
            ]
        self.defeated.append(who)
        events = [
            Event(
                EventKind.INFO,
                msg("{player} is defeated.", player=self.names[who]),
                {"defeated": who},
            )
        ]
        if who == RAVENESS:
            self.nevermore.holder = None
            self.outcome = "opponents"
            return [*events, Event(EventKind.INFO, msg("Nevermore is removed from the game."))]
        if self.nevermore.hexed == who:
            events += self.nevermore.remove_hex(self.names)
        if self.nevermore.holder == who:
            events += self.nevermore.return_to_raveness(self.names)
        if not self.opponents:
            self.outcome = "raveness"
        return events

    # what it looks like ---------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        n = self.nevermore
        panels = [
            {
                "title": "Raveness",
                "actor": "player",
                "rows": [
                    ["Feathers", f"{n.feathers}/{self.rules.feather_stack}"],
                    ["Nevermore", Text(self.names.get(n.holder or "", msg("removed")))],
                    ["Nevermore dial", n.dial],
                ],
            }
        ]
        for player in self.names:
            if player == RAVENESS:
                continue
            panels.append(
                {
                    "title": Text(self.names[player]),
                    "actor": "player",
                    "rows": [
                        ["Hex", "yes" if n.hexed == player else "no"],
                        ["Nevermore", "yes" if n.holder == player else "no"],
                        ["Defeated", "yes" if player in self.defeated else "no"],
                    ],
                }
            )
        return {
            "turn": self.turn,
            "active": self.active,
            "players": {p: Text(name) for p, name in self.names.items()},
            "heroes": self.heroes,
            "nevermore": {"holder": n.holder, "dial": n.dial, "max": self.rules.dial_max},
            "feathers": n.feathers,
            "hexed": n.hexed,
            "defeated": self.defeated,
            "outcome": self.outcome,
            "gauge": {"label": "Nevermore", "value": n.dial, "max": self.rules.dial_max},
            "panels": panels,
        }

    def result(self) -> dict[str, Any] | None:
        if self.outcome is None:
            return None
        return {
            "winner": self.outcome,
            "turns": self.turn,
            "heroes": ", ".join([str(name) for name in self.names.values()]),
        }
