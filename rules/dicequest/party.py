"""A player's side of the table as the companion tracks it: the Heroes on the Party
board with their wounds, the Reroll token, completed Quests and Victory Point tokens.
Gold, Items and the Market stay on the table; the companion names what to take."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dicetable.rules.core import Msg, Text, msg
from dicetable.rules.dicequest.data import HeroKind

PARTY_SLOTS = 3  # "If you already have 3 Heroes, you must graduate a Hero" (Recruit)


@dataclass
class Hero:
    kind: HeroKind
    expert: bool
    light: int = 0
    deadly: int = 0

    @property
    def name(self) -> str:
        return self.kind.name

    @property
    def defeated(self) -> bool:
        """ "at least 2 Light Wounds or 1 Deadly Wound" (Wound Step, Defeated Heroes)."""
        return self.light >= 2 or self.deadly >= 1

    @property
    def has_ability(self) -> bool:
        """Apprentice Heroes have no ability: it is only a preview (Heroes)."""
        return self.expert or self.kind.level == "legendary"

    def dice(self) -> list[str]:
        """Dice added to the pool; the Blademaster's "If wounded, +1 red die"."""
        extra = [self.kind.wounded_extra] if self.kind.wounded_extra and self.light else []
        return [*self.kind.dice, *(extra if self.has_ability else [])]

    @property
    def level(self) -> str:
        if self.kind.level == "legendary":
            return "legendary"
        return "expert" if self.expert else "apprentice"

    def label(self) -> Msg:
        return msg(
            "{hero} ({level}, {light} Light Wounds)",
            hero=msg(self.name),
            level=msg(self.level),
            light=self.light,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "expert": self.expert,
            "level": self.kind.level,
            "light": self.light,
            "deadly": self.deadly,
            "dice": self.dice(),
        }


@dataclass
class Player:
    number: int
    heroes: list[Hero] = field(default_factory=list)
    reroll_active: bool = True  # the coloured side up
    quests: list[str] = field(default_factory=list)  # names, in the Achievements Zone
    quest_vp: int = 0
    vp_tokens: int = 0
    graduated: int = 0
    final: dict[str, int] = field(default_factory=dict)  # VP counted at the end

    @property
    def name(self) -> str:
        return f"Player {self.number}"

    def title(self) -> Msg:
        return msg("Player {n}", n=self.number)

    def total_vp(self) -> int:
        """Heroes, Backpack items, Achievements (graduated Heroes and Quests), tokens
        ("Goal of the Game")."""
        return self.quest_vp + self.vp_tokens + sum(self.final.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "name": Text(self.title()),
            "heroes": [h.to_json() for h in self.heroes],
            "reroll_active": self.reroll_active,
            "quests": list(self.quests),
            "quest_vp": self.quest_vp,
            "vp_tokens": self.vp_tokens,
            "graduated": self.graduated,
            "final": dict(self.final),
            "vp": self.total_vp(),
        }
