"""Mini Dungeon Adventures with the Pi as the dungeon boss.

The game is written as one flow (a generator) that yields a Prompt and receives the
answer, so the rulebook's sequence reads top to bottom: forge the heroes, shop, then
room after room (trap chart, monster generator, placement, rounds of hero turns and
monster turns, event cards), town between rooms, the lair, levels. A generator cannot
be copied, but the table never needs to: undo and resume rebuild the game by replaying
its inputs from the seed, which is exactly how this flow is driven.

Every answer is checked against the current prompt before the flow sees it, and the
flow only offers legal options, so a wrong answer never changes the state.

The flow's parts live in modules named for what they do, joined here: ``hero_turn``,
``spells``, ``items``, ``defence``, ``exploring``, ``events``, ``monsters_turn`` and
``town``, all on the helpers of ``table``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from dicetable.rules.core import (
    Event,
    Game,
    Input,
    Prompt,
    PromptKind,
    Text,
    expect,
    msg,
)
from dicetable.rules.minidungeon import dungeon, exploring
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.data import Rulebook, rulebook
from dicetable.rules.minidungeon.figures import Hero
from dicetable.rules.minidungeon.table import (
    Room,
    TableFlow,
)


class MiniDungeon(Game, TableFlow):
    """The game is its ``TableFlow`` (the state every rule module is given), played by
    the generator of ``dungeon.game``."""

    id = "minidungeon"
    title = "Mini Dungeon Adventures"
    options_allowed: ClassVar[Mapping[str, tuple[str, ...]]] = dict(rulebook().choices)

    def __init__(self, seed: int, options: Mapping[str, str] | None = None) -> None:
        super().__init__(seed, options)
        self.book: Rulebook = rulebook()
        self.rng = random.Random(seed)
        self.heroes: list[Hero] = []
        self.monster_ranges = {k: m.range for k, m in self.book.monsters.items()}
        self.monster_ranges["minion"] = int(self.options["minion_range"])
        self.gold = 0
        self.level = 1
        self.quest = 1
        self.round = 0
        self.rooms_total = 0
        self.rooms_cleared = 0
        self.quests_won = 0
        self.retreats = 0
        self.town_visited_since_clear = False
        self.banned = False
        self.room = Room()
        self.next_room: set[str] = set()
        self.party_cards: list[str] = []
        self.boss_cards: list[str] = []
        self.drawn: list[str] = []  # event cards drawn this round (for the screen)
        self.clairvoyance = 0
        self.ritual: dict[str, Any] | None = None
        self.must_rest = False
        self.greedy = False  # Greed: the Treasure Hunter gives no items
        self.no_retreat = False
        self.free_item = False
        self.glittering = False
        self.sneak_attack_pending = False
        self.foreseen: tuple[Any, list[int]] | None = None  # Visions: rolled before the door
        self.large_turn = 0
        self.uid = 0
        self.winner = ""
        self.phase = "setup"
        self.deck = list(self.book.events)
        self.rng.shuffle(self.deck)
        self.discards: list[str] = []
        self.motivation_deck = list(self.book.motivations)
        self.rng.shuffle(self.motivation_deck)
        self._events: list[Event] = []
        self._flow = dungeon.game(self)
        self._prompt: Prompt = next(self._flow)

    # -- the Game contract ---------------------------------------------------------

    def prompt(self) -> Prompt:
        return self._prompt

    def apply(self, answer: Input) -> list[Event]:
        expect(answer, self._prompt)
        self._events = []
        try:
            self._prompt = self._flow.send(answer)
        except StopIteration:
            self._prompt = Prompt(PromptKind.OVER, msg("The game is over."))
        return self._events

    def result(self) -> dict[str, Any] | None:
        """The rulebook keeps no score; the high-score table ranks parties by dicetable's
        own: 100 a dungeon cleared, 10 a room cleared, plus the gold in the chest."""
        if self._prompt.kind is not PromptKind.OVER:
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
