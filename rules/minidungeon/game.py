"""Mini Dungeon Adventures with the Pi as the dungeon boss.

The game runs on the ``Flow`` of ``rules/flow.py``, like every game: its rules are
``phase``s named for the rulebook's (``dungeon``: forge the heroes, the quest, the
round, the heroes' turns, the monsters' turn, the end of the round, the levels), each
queueing the steps that follow it and asking the table through ``DungeonState``
(``table.py``), the game's state, declared once. Undo and resume rebuild the game by
replaying its inputs from the seed.

Every answer is checked against the current prompt before a step takes it, and the
rules only offer legal options, so a wrong answer never changes the state.

The rules live in modules named for what they do: ``dungeon``, ``hero_turn``,
``spells``, ``items``, ``defence``, ``exploring``, ``events``, ``monsters_turn`` and
``town``, all on the helpers of ``table``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from dicetable.rules.core import (
    Event,
    Input,
    Prompt,
    PromptKind,
    Text,
    msg,
)
from dicetable.rules.flow import FlowGame
from dicetable.rules.minidungeon import dungeon, exploring
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.data import rulebook
from dicetable.rules.minidungeon.figures import Hero
from dicetable.rules.minidungeon.table import DungeonState


class MiniDungeon(FlowGame, DungeonState):
    """The game is its ``DungeonState`` (the state every rule module is given), played
    by the steps its ``flow`` queues from ``dungeon.game``."""

    id = "minidungeon"
    title = "Mini Dungeon Adventures"
    options_allowed: ClassVar[Mapping[str, tuple[str, ...]]] = dict(rulebook().choices)

    def __init__(self, seed: int, options: Mapping[str, str] | None = None) -> None:
        FlowGame.__init__(self, seed, options)
        book = rulebook()
        DungeonState.__init__(self, book, self.options, random.Random(seed), self.flow)
        self.monster_ranges = {k: m.range for k, m in book.monsters.items()}
        self.monster_ranges["minion"] = int(self.options["minion_range"])
        self.deck = list(book.events)
        self.rng.shuffle(self.deck)
        self.motivation_deck = list(book.motivations)
        self.rng.shuffle(self.motivation_deck)
        self.flow.first(dungeon.game(self))
        self.flow.advance()
        self.said()  # nothing is said before the first question

    # -- the Game contract ---------------------------------------------------------

    def apply(self, answer: Input) -> list[Event]:
        self.events = []  # what was said outside a step (a test's set-up) is not news
        return super().apply(answer)

    def main_prompt(self) -> Prompt:
        """No step waits only once the game has ended."""
        return Prompt(PromptKind.OVER, msg("The game is over."))

    def result(self) -> dict[str, Any] | None:
        """The rulebook keeps no score; the high-score table ranks parties by dicetable's
        own: 100 a dungeon cleared, 10 a room cleared, plus the gold in the chest."""
        if self.prompt().kind is not PromptKind.OVER:
            return None
        return {
            "winner": self.winner,
            "score": self.quests_won * 100 + self.rooms_cleared * 10 + self.gold,
            "quests_won": self.quests_won,
            "rooms_cleared": self.rooms_cleared,
            "gold": self.gold,
            "level": self.level,
            "mode": f"{len(self.heroes)} heroes",
            "party": ", ".join(h.label(self.book) for h in self.heroes),
            "heroes": ", ".join(sorted(self.book.classes[h.cls].name for h in self.heroes)),
        }

    # -- the picture for screens ----------------------------------------------------

    def view(self) -> dict[str, Any]:
        book = self.book
        heroes = [self._hero_view(h) for h in self.heroes]
        monsters = [m.to_json(book) for m in self.room.monsters]
        boss = next(
            (m for m in self.room.monsters if book.monsters[m.kind].size == "dungeon_boss"), None
        )
        if boss is not None:
            gauge = {
                "label": book.monsters[boss.kind].name,
                "value": boss.health,
                "max": boss.max_health,
            }
        else:
            gauge = {
                "label": Text("Room {n}", n=self.room.number),
                "value": sum(m.health for m in self.room.monsters),
                "max": sum(m.max_health for m in (*self.room.monsters, *self.room.defeated)),
            }
        panels = [
            {
                "title": h["name"],
                "actor": "player",
                "rows": [
                    ["Health", f"{h['health']}/{h['max_health']}"],
                    ["Attack", h["attack"]],
                    ["Toughness", h["toughness"]],
                    ["Speed", f"{h['speed_left']}/{h['speed']}"],
                    *([["Mana", h["mana"]]] if h["mana"] or h["class"] == "mage" else []),
                    ["Motivation", h["motivation"]],
                    ["Gear", _listed(h["gear"])],
                    *([["Wounded", "yes"]] if h["wounded"] else []),
                ],
            }
            for h in heroes
        ]
        panels += [
            {
                "title": m["name"],
                "actor": "boss",
                "rows": [
                    ["Health", f"{m['health']}/{m['max_health']}"],
                    ["Attack", m["attack"]],
                    ["Toughness", m["toughness"]],
                    ["Speed", f"{m['speed_left']}/{m['speed']}"],
                ],
            }
            for m in monsters
        ]
        panels.append(
            {
                "title": "Party",
                "actor": "table",
                "rows": [
                    ["Gold", self.gold],
                    ["Level", self.level],
                    ["Room", f"{self.room.number}/{self.rooms_total}"],
                    ["Retreats", self.retreats],
                    ["Chests", self.room.chests],
                ],
            }
        )
        cards = [
            {"title": book.events[c].title, "text": book.events[c].text}
            for c in dict.fromkeys([*self.drawn, *self.party_cards, *self.boss_cards])
        ]
        return {
            "turn": self.round,
            "phase": self.phase,
            "quest": self.quest,
            "level": self.level,
            "room": self.room.number,
            "rooms": self.rooms_total,
            "lair": self.room.lair,
            "gold": self.gold,
            "retreats": self.retreats,
            "generator_modifier": self.retreats + exploring.level_modifier(self),
            "chests": self.room.chests,
            "room_effects": sorted(self.room.effects),
            "next_room": sorted(self.next_room),
            "banned": self.banned,
            "party_cards": list(self.party_cards),
            "boss_cards": list(self.boss_cards),
            "ritual": dict(self.ritual) if self.ritual else None,
            "winner": self.winner,
            "heroes": heroes,
            "monsters": monsters,
            **({"gauge": gauge} if gauge["max"] else {}),  # none at the entrance
            "panels": panels,
            "cards": cards,
        }

    def _hero_view(self, hero: Hero) -> dict[str, Any]:
        book = self.book
        return {
            "index": hero.index,
            "name": Text(self.hero_name(hero)),
            "class": hero.cls,
            "motivation": book.motivations[hero.motivation].name
            if hero.motivation in book.motivations
            else "-",
            "health": hero.health,
            "max_health": fig.max_health(hero, book),
            "attack": fig.attack_value(hero, book),
            "toughness": fig.toughness(hero, book, melee=False),
            "speed": fig.full_speed(hero, book),
            "speed_left": hero.speed_left,
            "mana": hero.mana,
            "spells": [book.spells[s].name for s in hero.spells],
            "gear": [book.items[i].name for i in (*hero.hands, *hero.worn.values())],
            "backpack": [book.items[i].name for i in hero.backpack],
            "wounded": hero.wounded,
            "attacks_made": hero.attacks_made,
        }


def _listed(names: list[str]) -> Text | str:
    """Item names for a panel row, each translated: "Wooden Staff, Shadow Cloak"."""
    if not names:
        return "-"
    listed = msg(names[0])
    for name in names[1:]:
        listed = msg("{first}, {rest}", first=listed, rest=msg(name))
    return Text(listed)
