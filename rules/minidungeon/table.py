"""What every part of Mini Dungeon shares: ``DungeonState``, the game's state declared
once (the room, the party's chest, the decks...), the questions it asks the table
(choose, confirm, roll, number: each a step queued first on the game's ``Flow``, with
what to do with the answer) and ``phase``, which makes a rule a step of that flow.

A rule that asks the table cannot wait for the answer in the middle of its body, so
what follows the answer is given to the question as ``then``; a rule that gives a
result (the hero picked, the rolls made) gives it to its own ``then``. A rule made a
``phase`` runs only when its step comes to the front of the flow, so ``s.flow.first(
a(s), b(s))`` reads "a, then b", whatever a asks in between."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import wraps
from typing import Any, Concatenate, ParamSpec

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
from dicetable.rules.flow import Flow, Step
from dicetable.rules.minidungeon.content import Rulebook
from dicetable.rules.minidungeon.figures import Hero, Monster

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


def nothing(*_: Any) -> None:
    """What a question or rule does next when nothing follows it."""


@dataclass(eq=False, repr=False)
class DungeonState:
    """The game's state, declared once for every rule module (each is given it as
    ``s``), and the questions they all ask the table."""

    book: Rulebook
    options: dict[str, str]
    rng: random.Random
    flow: Flow = field(default_factory=Flow)
    heroes: list[Hero] = field(default_factory=list)
    monster_ranges: dict[str, int] = field(default_factory=dict)  # squares a kind reaches
    gold: int = 0  # the party's chest
    level: int = 1
    quest: int = 1
    round: int = 0
    rooms_total: int = 0
    rooms_cleared: int = 0
    quests_won: int = 0
    retreats: int = 0
    town_visited_since_clear: bool = False
    banned: bool = False  # Banned from town
    room: Room = field(default_factory=Room)
    next_room: set[str] = field(default_factory=set)  # room effects for the next room
    party_cards: list[str] = field(default_factory=list)
    boss_cards: list[str] = field(default_factory=list)
    drawn: list[str] = field(default_factory=list)  # event cards drawn this round
    clairvoyance: int = 0
    ritual: dict[str, Any] | None = None
    must_rest: bool = False
    greedy: bool = False  # Greed: the Treasure Hunter gives no items
    no_retreat: bool = False
    free_item: bool = False
    glittering: bool = False
    sneak_attack_pending: bool = False
    foreseen: tuple[Any, list[int]] | None = None  # Visions: rolled before the door
    large_turn: int = 0
    uid: int = 0  # the last monster's number
    winner: str = ""
    phase: str = "setup"
    deck: list[str] = field(default_factory=list)  # event cards face down
    discards: list[str] = field(default_factory=list)
    motivation_deck: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)  # said since the last answer

    # -- saying and asking ----------------------------------------------------------

    def emit(self, kind: str, text: Msg, **data: Any) -> None:
        self.events.append(Event(kind, text, data))

    def said(self) -> list[Event]:
        """The events said since last asked, taken (a step's resolve returns them)."""
        said, self.events = self.events, []
        return said

    def ask(self, prompt: Prompt, then: Callable[[Input], None]) -> None:
        """Queue a question first: the table answers it before anything waiting."""

        def answered(answer: Input) -> list[Event]:
            then(answer)
            return self.said()

        self.flow.first(Step(prompt, answered, name=str(prompt.kind)))

    def afterwards(self, then: Callable[[], None]) -> Step:
        """A step doing ``then`` once the steps queued before it are done."""

        def run(_answer: Input) -> list[Event]:
            then()
            return self.said()

        return Step(None, run, name="afterwards")

    def choose(
        self,
        text: Msg,
        options: Iterable[tuple[str, Msg]],
        then: Callable[[str], None],
        actor: Actor = Actor.PLAYER,
    ) -> None:
        prompt = Prompt(
            PromptKind.CHOOSE,
            text,
            actor=actor,
            options=tuple(Option(i, label) for i, label in options),
        )
        self.ask(prompt, lambda answer: then(answer.choice))

    def confirm(
        self, text: Msg, actor: Actor = Actor.TABLE, then: Callable[[], None] = nothing
    ) -> None:
        """Something the players do by hand: said, then confirmed when done."""
        self.emit(EventKind.INSTRUCTION, text)
        self.ask(Prompt(PromptKind.CONFIRM, text, actor=actor), lambda _answer: then())

    def number(
        self,
        text: Msg,
        low: int,
        high: int,
        then: Callable[[int], None],
        actor: Actor = Actor.TABLE,
    ) -> None:
        prompt = Prompt(PromptKind.NUMBER, text, actor=actor, number_range=(low, high))
        self.ask(prompt, lambda answer: then(answer.number))

    def roll(
        self,
        text: Msg,
        then: Callable[[list[int]], None],
        count: int = 1,
        actor: Actor = Actor.PLAYER,
        objective: Msg | None = None,
        odds: Fraction | None = None,
    ) -> None:
        """Real dice from the tray; ``then`` is given their values, in order."""
        prompt = Prompt(
            PromptKind.ROLL,
            text,
            actor=actor,
            dice=DiceRequest(count=count, profile="d6"),
            objective=objective,
            odds=odds,
        )

        def rolled(answer: Input) -> None:
            values = [d.value or 0 for d in answer.dice]
            self.emit(
                EventKind.ROLLED,
                msg("Rolled {values}.", values=" ".join(map(str, values))),
                values=values,
            )
            then(values)

        self.ask(prompt, rolled)

    def roll_one(
        self,
        text: Msg,
        then: Callable[[int], None],
        actor: Actor = Actor.PLAYER,
        objective: Msg | None = None,
        odds: Fraction | None = None,
    ) -> None:
        """One die (``roll`` of a count of 1); ``then`` is given its value."""
        self.roll(text, lambda values: then(values[0]), 1, actor, objective, odds)

    def yes_no(self, text: Msg, then: Callable[[bool], None], actor: Actor = Actor.TABLE) -> None:
        options = [("yes", msg("Yes")), ("no", msg("No"))]
        self.choose(text, options, lambda choice: then(choice == "yes"), actor)

    def pick_many(
        self,
        text: Msg,
        candidates: list[tuple[str, Msg]],
        then: Callable[[list[str]], None],
        picked: tuple[str, ...] = (),
    ) -> None:
        """Several answers from one list, one at a time, ending with "no more"."""
        left = [(i, label) for i, label in candidates if i not in picked]
        if not left:
            then(list(picked))
            return

        def picked_one(choice: str) -> None:
            if choice == "none":
                then(list(picked))
            else:
                self.pick_many(text, candidates, then, (*picked, choice))

        self.choose(text, [*left, ("none", msg("No more"))], picked_one, Actor.TABLE)

    # -- names and who is there -----------------------------------------------------

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


P = ParamSpec("P")


def phase(
    rule: Callable[Concatenate[DungeonState, P], None],
) -> Callable[Concatenate[DungeonState, P], Step]:
    """Make ``rule`` a step of the game's flow, named for it: calling it queues
    nothing and changes nothing; the step it gives runs the rule when it comes to the
    front of the flow (after the steps queued before it)."""

    @wraps(rule)
    def step(s: DungeonState, /, *args: P.args, **kwargs: P.kwargs) -> Step:
        def run(_answer: Input) -> list[Event]:
            rule(s, *args, **kwargs)
            return s.said()

        return Step(None, run, name=rule.__name__)

    return step
