"""Nevermore, Feathers and Hex as state: who holds Nevermore, its dial, the Raveness's
Feathers and who is afflicted with Hex. Pure bookkeeping; ``game.py`` asks the table.

Raveness rulebook, "Companion: Nevermore", "Feather", "Hex" and "Rules Clarifications".
"""

from __future__ import annotations

from dataclasses import dataclass

from dicetable.rules.core import Event, EventKind, InvalidInput, Msg, msg
from dicetable.rules.raveness.rules import NevermoreRules

RAVENESS = "raveness"


@dataclass
class Nevermore:
    """``holder`` is a player id (the Raveness's own board is ``"raveness"``), or None
    once the Raveness is defeated ("remove Nevermore from the game")."""

    rules: NevermoreRules
    holder: str | None = RAVENESS
    dial: int = 0
    feathers: int = 0
    hexed: str | None = None

    @property
    def on_opponent(self) -> bool:
        return self.holder is not None and self.holder != RAVENESS

    # Nevermore --------------------------------------------------------------------
    def move_to(self, player: str, names: dict[str, Msg]) -> list[Event]:
        """Activation "Move Nevermore to a chosen player"; to the Raveness, she heals."""
        if self.holder is None:
            raise InvalidInput(msg("Nevermore has been removed from the game."))
        if player == self.holder:
            raise InvalidInput(msg("Nevermore is already there."))
        if player == RAVENESS:
            return self.return_to_raveness(names)
        self.holder = player
        return [
            Event(
                "nevermore",
                msg(
                    "Nevermore moves to {player} (dial {dial}).",
                    player=names[player],
                    dial=self.dial,
                ),
                {"holder": player, "dial": self.dial},
            )
        ]

    def return_to_raveness(self, names: dict[str, Msg]) -> list[Event]:
        """ "Whenever Nevermore is moved to the Raveness, Heal the amount on Nevermore's
        dial. Then reduce the dial to zero." The heal happens now, in this Phase."""
        healed = self.dial
        self.holder = RAVENESS
        self.dial = 0
        return [
            Event(
                EventKind.HEAL,
                msg(
                    "Nevermore returns to the Raveness: she heals {n}; the dial goes to 0.",
                    n=healed,
                ),
                {"holder": RAVENESS, "heal": healed, "dial": 0},
            )
        ]

    def absorb_vitality(self, names: dict[str, Msg]) -> list[Event]:
        """Only while on an opponent: dial +1 (max 3, and still allowed at 3), then that
        opponent receives 1 undefendable damage from an isolated source."""
        if not self.on_opponent:
            raise InvalidInput(msg("Absorb Vitality needs Nevermore on an opponent."))
        assert self.holder is not None
        self.dial = min(self.rules.dial_max, self.dial + 1)
        victim = names[self.holder]
        return [
            Event(
                EventKind.DAMAGE,
                msg(
                    "Absorb Vitality: {player} sets Nevermore's dial to {dial} and receives"
                    " {n} undefendable damage (an isolated source).",
                    player=victim,
                    dial=self.dial,
                    n=self.rules.absorb_damage,
                ),
                {"target": self.holder, "damage": self.rules.absorb_damage, "dial": self.dial},
            )
        ]

    def dial_to_zero_and_return(self, names: dict[str, Msg]) -> list[Event]:
        """Die Roll 6: "reduce Nevermore's dial to 0. Then return Nevermore" (so the
        return heals nothing)."""
        self.dial = 0
        return self.return_to_raveness(names)

    # Feathers ----------------------------------------------------------------------
    def gain_feathers(self, n: int) -> list[Event]:
        room = self.rules.feather_stack - self.feathers
        gained = min(n, room)
        self.feathers += gained
        events = [
            Event(
                "feather",
                msg(
                    "The Raveness gains {n} Feather ({total} held).", n=gained, total=self.feathers
                ),
                {"feathers": self.feathers},
            )
        ]
        if gained < n:
            events.append(
                Event(
                    "feather",
                    msg(
                        "{n} Feather lost to the stack limit of {limit}.",
                        n=n - gained,
                        limit=self.rules.feather_stack,
                    ),
                )
            )
        return events

    def spend_feathers(self, n: int) -> Event:
        if self.feathers < n:
            raise InvalidInput(msg("The Raveness has only {n} Feather.", n=self.feathers))
        self.feathers -= n
        return Event(
            "feather",
            msg("The Raveness spends {n} Feather ({total} left).", n=n, total=self.feathers),
            {"feathers": self.feathers},
        )

    # Hex -----------------------------------------------------------------------------
    def inflict_hex(self, player: str, names: dict[str, Msg]) -> list[Event]:
        """Hex is unique (one player at a time) with a stack limit of 1."""
        if player == RAVENESS:
            raise InvalidInput(msg("The Raveness does not Hex herself."))
        if self.hexed == player:
            return [
                Event("hex", msg("{player} already has Hex (stack limit 1).", player=names[player]))
            ]
        events = []
        if self.hexed is not None:
            events.append(
                Event("hex", msg("Hex is unique: it leaves {player}.", player=names[self.hexed]))
            )
        self.hexed = player
        events.append(
            Event(
                "hex",
                msg(
                    "{player} gains Hex: their 6s are blank until the end of their turn.",
                    player=names[player],
                ),
                {"hexed": player},
            )
        )
        return events

    def remove_hex(self, names: dict[str, Msg]) -> list[Event]:
        if self.hexed is None:
            return []
        player, self.hexed = self.hexed, None
        return [
            Event(
                "hex", msg("Hex is removed from {player}.", player=names[player]), {"hexed": None}
            )
        ]
