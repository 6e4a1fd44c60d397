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
    EventKind,
    Game,
    Input,
    Msg,
    Prompt,
    PromptKind,
    Text,
    expect,
    msg,
)
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.data import Item, Rulebook, rulebook
from dicetable.rules.minidungeon.defence import Defence
from dicetable.rules.minidungeon.events import Events
from dicetable.rules.minidungeon.exploring import Exploring
from dicetable.rules.minidungeon.figures import Hero
from dicetable.rules.minidungeon.hero_turn import HeroTurn
from dicetable.rules.minidungeon.items import Items
from dicetable.rules.minidungeon.monsters_turn import MonstersTurn
from dicetable.rules.minidungeon.spells import Spells
from dicetable.rules.minidungeon.table import (
    Flow,
    Room,
)
from dicetable.rules.minidungeon.town import Town


class MiniDungeon(HeroTurn, Spells, Items, Defence, Exploring, Events, MonstersTurn, Town, Game):
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
        self._flow = self._game()
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

    # -- the whole game ------------------------------------------------------------

    def _game(self) -> Flow:
        yield from self._forge_heroes()
        while True:
            yield from self._quest()
            if self.winner == "boss":
                self.phase = "over"
                why = (
                    msg("The dungeon boss wins.")  # the dark sacrifice, heroes standing
                    if self.active_heroes()
                    else msg("All the heroes are down: the dungeon boss wins.")
                )
                self.emit(EventKind.GAME_OVER, why)
                return
            self.quests_won += 1
            go_on = yield from self.choose(
                msg(
                    "The dungeon is cleared! Begin a new quest with the same heroes, one level "
                    "higher?"
                ),
                [
                    ("new_quest", msg("New quest at level {n}", n=self.level + 1)),
                    ("end", msg("End the campaign")),
                ],
            )
            if go_on == "end":
                self.winner = "heroes"
                self.phase = "over"
                self.emit(EventKind.GAME_OVER, msg("The heroes have won."))
                return
            yield from self._gain_level()

    def _forge_heroes(self) -> Flow:
        count = yield from self.number(msg("How many heroes enter the dungeon (2 to 4)?"), 2, 4)
        for index in range(1, count + 1):
            cls = yield from self.choose(
                msg("Hero {n}: choose a class.", n=index),
                [(c.id, msg(c.name)) for c in self.book.classes.values()],
            )
            motivation = self.motivation_deck.pop()
            card = self.book.motivations[motivation]
            hero = Hero(index, cls, motivation, mana=self.book.classes[cls].mana)
            hero.health = fig.max_health(hero, self.book)
            self.heroes.append(hero)
            self.emit(
                EventKind.CARD,
                msg(
                    "{hero} draws the motivation {card}.",
                    hero=self.hero_name(hero),
                    card=msg(card.name),
                ),
                card=motivation,
            )
            self.emit(EventKind.CARD, msg(card.text), card=motivation)
            if cls == "mage":
                yield from self._learn_spell(hero)
            if motivation == "avenger":
                bosses = [self.book.mini_boss, self.book.dungeon_boss]
                hero.avenger_target = yield from self.choose(
                    msg(
                        "{hero}, the Avenger: nominate the target of your wrath (+1 attack "
                        "against it).",
                        hero=self.hero_name(hero),
                    ),
                    [(b, msg(self.book.monsters[b].name)) for b in bosses],
                )
        for hero in self.heroes:
            hero.health = fig.max_health(hero, self.book)
            budget = self.book.base["starting_gold"]
            budget = max(budget, self.book.motivations[hero.motivation].starting_gold)
            yield from self._starting_shop(hero, budget)
            hero.health = fig.max_health(hero, self.book)
        self.emit(
            EventKind.INSTRUCTION, msg("Place the heroes outside the entrance of the dungeon.")
        )

    def _learn_spell(self, hero: Hero) -> Flow:
        spells = [s for s in self.book.spells.values() if s.id not in hero.spells]
        if not spells:
            return
        spell = yield from self.choose(
            msg("{hero}: choose a spell from the spellbook.", hero=self.hero_name(hero)),
            [(s.id, msg(s.name)) for s in spells],
        )
        hero.spells.append(spell)

    def _starting_shop(self, hero: Hero, budget: int) -> Flow:
        while True:
            offers = self._shop_offers(hero, budget, markup=0)
            if not offers:
                return
            choice = yield from self.choose(
                msg(
                    "{hero} has {gold} gold to equip at the town store.",
                    hero=self.hero_name(hero),
                    gold=budget,
                ),
                [*offers, ("done", msg("Done shopping"))],
            )
            if choice == "done":
                return
            item = self.book.items[choice]
            budget -= item.price
            yield from self._give(hero, item)

    def _shop_offers(self, hero: Hero, gold: int, markup: int) -> list[tuple[str, Msg]]:
        offers = []
        for item in self.book.items.values():
            price = item.price + markup
            if price > gold or not fig.may_use(hero, item):
                continue
            if not (fig.can_equip(hero, item, self.book) or self._fits_backpack(hero, item)):
                continue
            offers.append(
                (
                    item.id,
                    msg("{item} ({price} gold)", item=msg(item.name), price=price),
                )
            )
        return offers

    def _fits_backpack(self, hero: Hero, item: Item) -> bool:
        size = 1 if item.kind == "potion" or item.dual else 2
        return fig.backpack_used(hero, self.book) + size <= fig.BACKPACK_SLOTS

    def _give(self, hero: Hero, item: Item) -> Flow:
        if fig.receive(hero, item, self.book):
            self.emit(
                "item",
                msg("{hero} takes the {item}.", hero=self.hero_name(hero), item=msg(item.name)),
                item=item.id,
            )
            if item.extra_spell and item.id in hero.hands:
                yield from self._learn_spell(hero)
        else:
            yield from self.confirm(
                msg(
                    "{hero} has no room for the {item}; it stays behind.",
                    hero=self.hero_name(hero),
                    item=msg(item.name),
                )
            )

    # -- a quest: room after room ------------------------------------------------------

    def _quest(self) -> Flow:
        hero_count = len(self.heroes)
        if self.options["dungeon"] == "short":
            self.rooms_total = self.book.rooms_short
        else:
            self.rooms_total = self.book.rooms_two_heroes if hero_count <= 2 else self.book.rooms
        self.room = Room()
        self.retreats = 0
        self.banned = False
        self.round = 0
        self.winner = ""
        self.phase = "dungeon"
        while not self.winner:
            yield from self._round()

    def _round(self) -> Flow:
        self.round += 1
        self.drawn = []
        for hero in self.heroes:
            speed = fig.full_speed(hero, self.book)
            if hero.stunned:
                speed -= speed // 2
                hero.stunned = False
            if "time_bubble" in self.room.effects:
                speed = (speed + 1) // 2
            hero.speed_left = speed
            hero.acted = hero.wounded
            hero.attacks_made = 0
        self.emit(EventKind.INFO, msg("Round {n}.", n=self.round), round=self.round)
        self.phase = "heroes"
        while not self.winner and self.room.trap != "ambush_now":
            waiting = [h for h in self.active_heroes() if not h.acted]
            if not waiting:
                break
            hero = waiting[0]
            if len(waiting) > 1:
                pick = yield from self.choose(
                    msg("Which hero acts now?"),
                    [(f"h{h.index}", self.hero_name(h)) for h in waiting],
                )
                hero = next(h for h in waiting if f"h{h.index}" == pick)
            yield from self._hero_turn(hero)
            hero.acted = True
        if self.room.trap == "ambush_now":
            self.room.trap = "ambush"
        if self.winner:
            return
        self.phase = "monsters"
        yield from self._monsters_turn()
        if self.winner:
            return
        yield from self._end_of_round()

    def _end_of_round(self) -> Flow:
        for hero in self.heroes:
            hero.in_pit = False
            hero.invulnerable = False
            hero.cloak_used = False
            hero.aura = False
            hero.potion_used = False
            hero.zombie_attackers = set()
        for monster in self.room.monsters:
            monster.shield_used = False
            monster.controlled = False
        if self.ritual and self.ritual["active"]:
            yield from self._ritual_check()

    # -- levels ---------------------------------------------------------------------

    def _gain_level(self) -> Flow:
        self.level += 1
        self.quest += 1
        self.ritual = None
        self.emit(
            EventKind.INFO,
            msg("The party reaches level {n}: monsters grow stronger too.", n=self.level),
        )
        for hero in self.heroes:
            stat = yield from self.choose(
                msg("{hero} gains a level: +1 to which stat?", hero=self.hero_name(hero)),
                [
                    ("health", msg("Health (H)")),
                    ("speed", msg("Speed (S)")),
                    ("attack", msg("Attack (A)")),
                ],
            )
            hero.gained[stat] += 1
            hero.wounded = False
            hero.health = fig.max_health(hero, self.book)
            if hero.cls == "mage":
                yield from self._learn_spell(hero)
        yield from self._town(penalty=False)

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
            "generator_modifier": self.retreats + self._level_modifier(),
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
