"""What every part of the Mini Dungeon flow shares: the room, the flow helpers that
yield prompts (choose, confirm, roll, number) and the names shown for figures."""

from __future__ import annotations

import random
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dicetable.rules.core import (
    Actor,
    DiceRequest,
    Event,
    EventKind,
    Input,
    Msg,
    Option,
    Prompt,
    PromptKind,
    msg,
)
from dicetable.rules.minidungeon.data import Rulebook
from dicetable.rules.minidungeon.figures import Hero, Monster

Flow = Generator[Prompt, Input, Any]
MAX_GENERATOR = 7
SIZE_ORDER = {"dungeon_boss": 0, "mini_boss": 1, "large": 2, "small": 3}
# Event effects that wait for the next room explored.
NEXT_ROOM_EFFECTS = frozenset(
    {
        "time_bubble", "charge", "extra_zombie", "living_legend", "vicious_battle", "pitch_black",
        "magebane", "bounties_raised", "mind_war", "loud_noises", "trap_door", "cha_aaargh",
    }
)  # fmt: skip


@dataclass
class Room:
    """The room the heroes are in: its monsters, chests and what it was made of."""

    number: int = 0
    lair: bool = False
    monsters: list[Monster] = field(default_factory=list)
    defeated: list[Monster] = field(default_factory=list)
    chests: int = 0
    effects: set[str] = field(default_factory=set)
    trap: str = "none"
    cleared_round: int | None = None
    town_fight: bool = False
    numbers: dict[str, int] = field(default_factory=dict)
    counted: bool = False


def listing(names: list[Msg]) -> Msg:
    """ "Zombie 1, Zombie 2, Skeleton 1" as one message whose names are translated too."""
    if not names:
        return msg("-")
    if len(names) == 1:
        return names[0]
    return msg("{first}, {rest}", first=names[0], rest=listing(names[1:]))


class TableFlow:
    """The game's state, declared once for every rule module (each is given it as
    ``s``; ``MiniDungeon.__init__`` sets it), and the helpers they all use to ask the
    table (generators of prompts) and say events."""

    book: Rulebook
    options: dict[str, str]
    rng: random.Random
    heroes: list[Hero]
    monster_ranges: dict[str, int]  # squares a monster kind reaches
    gold: int  # the party's chest
    level: int
    quest: int
    round: int
    rooms_total: int
    rooms_cleared: int
    quests_won: int
    retreats: int
    town_visited_since_clear: bool
    banned: bool  # Banned from town
    room: Room
    next_room: set[str]  # room effects waiting for the next room
    party_cards: list[str]
    boss_cards: list[str]
    drawn: list[str]  # event cards drawn this round (for the screen)
    clairvoyance: int
    ritual: dict[str, Any] | None
    must_rest: bool
    greedy: bool  # Greed: the Treasure Hunter gives no items
    no_retreat: bool
    free_item: bool
    glittering: bool
    sneak_attack_pending: bool
    foreseen: tuple[Any, list[int]] | None  # Visions: rolled before the door
    large_turn: int
    uid: int  # the last monster's number
    winner: str
    phase: str
    deck: list[str]  # event cards face down
    discards: list[str]
    motivation_deck: list[str]
    _events: list[Event]

    def emit(self, kind: str, text: Msg, **data: Any) -> None:
        self._events.append(Event(kind, text, data))

    def choose(
        self, text: Msg, options: Iterable[tuple[str, Msg]], actor: Actor = Actor.PLAYER
    ) -> Flow:
        answer = yield Prompt(
            PromptKind.CHOOSE,
            text,
            actor=actor,
            options=tuple(Option(i, label) for i, label in options),
        )
        return answer.choice

    def confirm(self, text: Msg, actor: Actor = Actor.TABLE) -> Flow:
        self.emit(EventKind.INSTRUCTION, text)
        yield Prompt(PromptKind.CONFIRM, text, actor=actor)

    def number(self, text: Msg, low: int, high: int, actor: Actor = Actor.TABLE) -> Flow:
        answer = yield Prompt(PromptKind.NUMBER, text, actor=actor, number_range=(low, high))
        return answer.number

    def roll(
        self,
        text: Msg,
        count: int = 1,
        actor: Actor = Actor.PLAYER,
        objective: Msg | None = None,
        odds: Fraction | None = None,
    ) -> Flow:
        answer = yield Prompt(
            PromptKind.ROLL,
            text,
            actor=actor,
            dice=DiceRequest(count=count, profile="d6"),
            objective=objective,
            odds=odds,
        )
        values = [d.value or 0 for d in answer.dice]
        self.emit(
            EventKind.ROLLED,
            msg("Rolled {values}.", values=" ".join(map(str, values))),
            values=values,
        )
        return values

    def yes_no(self, text: Msg, actor: Actor = Actor.TABLE) -> Flow:
        choice = yield from self.choose(text, [("yes", msg("Yes")), ("no", msg("No"))], actor)
        return choice == "yes"

    def pick_many(self, text: Msg, candidates: list[tuple[str, Msg]]) -> Flow:
        """Several answers from one list, one at a time, ending with "no more"."""
        picked: list[str] = []
        while True:
            left = [(i, label) for i, label in candidates if i not in picked]
            if not left:
                return picked
            choice = yield from self.choose(text, [*left, ("none", msg("No more"))], Actor.TABLE)
            if choice == "none":
                return picked
            picked.append(choice)

    def hero_name(self, hero: Hero) -> Msg:
        """ "Mage 2": the class (translated) and the seat number."""
        return msg("{name} {n}", name=msg(self.book.classes[hero.cls].name), n=hero.index)

    def mon_name(self, monster: Monster) -> Msg:
        kind = self.book.monsters[monster.kind]
        if str(monster.label(self.book)) == kind.name:
            return msg(kind.name)
        return msg("{name} {n}", name=msg(kind.name), n=monster.number)

    def active_heroes(self) -> list[Hero]:
        return [h for h in self.heroes if not h.wounded]

    def has_motivation(self, motivation: str) -> Hero | None:
        return next((h for h in self.heroes if h.motivation == motivation), None)

    def item_name(self, item_id: str) -> Msg:
        return msg(self.book.items[item_id].name)
