"""What every part of the solo game shares: ``SoloState``, the state of the fight
(the two sides, the decks, the dice), the limits, and the helpers every part uses to
queue steps on the game's ``Flow`` (rules/flow.py), say events and ask for dice.

The solo game is split along the fan solo mode v3.2 rulebook: ``solo_setup`` (2.),
``player_turn`` (4. steps 1-2), ``boss_turn`` (4. step 3), ``offensive_roll`` (the
Boss's Offensive Rolling Phase), ``kings_hand``, ``back_strike`` (6.), ``health``
(Evasive and the end, 5. and 7.): each is functions of a ``SoloState`` passed in;
``solo`` puts them together. A step is queued by the name of its phase and its data
(``("evasive", {"damage": 9})``); ``solo.PHASES`` says which functions ask it and take
its answer (``Asked``), or make the Boss's move at once (``Moved``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
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
    Prompt,
    PromptKind,
)
from dicetable.rules.dicethrone.decks import ActionCard, AICard, Decks, tokens
from dicetable.rules.dicethrone.heroes import Hero
from dicetable.rules.flow import Flow, Step

PLAYER_HEALTH, BOSS_HEALTH = 50, 80  # 2.1, 2.2.1
MAX_CP = 15
MAX_DAMAGE = 99
ROLL_ATTEMPTS = 3  # 4. Offensive Rolling Phase

#: a step as the rules queue it: the name of its phase and its data
Named = tuple[str, dict[str, Any]]


@dataclass
class Side:
    """One side of the fight: Health, CP and status tokens (limits from tokens.toml)."""

    health: int
    cp: int
    tokens: dict[str, int] = field(default_factory=dict)

    def count(self, token: str) -> int:
        return self.tokens.get(token, 0)

    def add(self, token: str, n: int = 1) -> int:
        """Add up to the stack limit; returns how many were actually added."""
        limit = tokens()[token].stack if token in tokens() else 1
        before = self.count(token)
        self.tokens[token] = min(limit, before + n)
        if not self.tokens[token]:
            del self.tokens[token]
        return self.count(token) - before

    def remove(self, token: str, n: int = 1) -> None:
        left = self.count(token) - n
        if left > 0:
            self.tokens[token] = left
        else:
            self.tokens.pop(token, None)


@dataclass(frozen=True)
class Asked:
    """A phase the table answers: its prompt, and what the answer does (given the
    answer's die values too)."""

    ask: Callable[[SoloState, dict[str, Any]], Prompt]
    answer: Callable[[SoloState, dict[str, Any], Input, list[int]], None]


@dataclass(frozen=True)
class Moved:
    """A phase that is the Boss's (or the round's) own move, made at once."""

    run: Callable[[SoloState, dict[str, Any]], None]


@dataclass(eq=False)
class SoloState:
    """The solo game's state, and the helpers every part uses to queue steps, say
    events and ask for dice. ``phases`` maps each step name to its functions."""

    rng: random.Random
    flow: Flow
    phases: Mapping[str, Asked | Moved]
    boss_id: str = ""
    hero: Hero | None = None
    decks: Decks | None = None
    difficulty: str = ""
    d: int = 0
    levels: dict[str, int] = field(default_factory=dict)
    boss: Side = field(default_factory=lambda: Side(BOSS_HEALTH, 0, {"kings-hand": 2}))  # 2.2.1
    player: Side = field(default_factory=lambda: Side(PLAYER_HEALTH, 2))  # 2.1: no tokens
    salve: int = 0
    bonus_damage: int = 0
    back_strike: bool = False
    ai_pile: list[int] = field(default_factory=list)
    ai_discard: list[int] = field(default_factory=list)
    action_pile: list[int] = field(default_factory=list)
    action_discard: list[int] = field(default_factory=list)
    ai_card: AICard | None = None
    action_card: ActionCard | None = None
    action_used: bool = False
    cards: list[dict[str, str]] = field(default_factory=list)
    turn: int = 0
    dice: list[int] = field(default_factory=list)
    attempt: int = 0
    attempts: int = ROLL_ATTEMPTS
    winner: str = ""
    # the player's hero when their rolls are read (``player_roll``), else None
    player_hero: Hero | None = None
    player_levels: dict[str, int] = field(default_factory=dict)
    player_dice: list[int] = field(default_factory=list)
    player_attempt: int = 0
    player_rolled: int = 0  # the turn of the player's last Offensive Roll (one a turn)
    said: list[Event] = field(default_factory=list)  # the events of the answer being taken

    def roll_prompt(
        self,
        text: Msg,
        count: int,
        *,
        keep: tuple[int, ...] = (),
        objective: Msg | None = None,
        odds: Fraction | None = None,
        actor: Actor = Actor.BOSS,
    ) -> Prompt:
        return Prompt(
            PromptKind.ROLL,
            text,
            actor,
            # read by face number (Dice Throne dice print it beside the symbol), so a
            # taught profile naming faces "sword"... works as long as it gives values
            dice=DiceRequest(count, profile=f"dicethrone-{self.boss_id}"),
            keep=keep,
            objective=objective,
            odds=odds,
        )

    def step(self, named: Named) -> Step:
        """The flow's step for a phase by name: a question, or a move made at once."""
        name, data = named
        phase = self.phases[name]
        if isinstance(phase, Moved):
            move = phase.run
            return Step(None, lambda _answer: (move(self, data), [])[1], name)
        asked = phase

        def resolve(answer: Input) -> list[Event]:
            values = [d.value for d in answer.dice if d.value is not None]  # expect: 1-6
            asked.answer(self, data, answer, values)
            return []  # said as they happen, in ``said``

        return Step(lambda: asked.ask(self, data), resolve, name)

    def then(self, *steps: Named) -> None:
        """Run these steps next, in this order, before what was already queued."""
        self.flow.first(*map(self.step, steps))

    def later(self, *steps: Named) -> None:
        """Run these steps after everything queued."""
        self.flow.later(*map(self.step, steps))

    def before(self, name: str, *steps: Named) -> None:
        """Run these steps just before the next step called ``name``."""
        self.flow.before(name, *map(self.step, steps))

    @property
    def queue(self) -> list[tuple[str, Step]]:
        """The waiting steps, by the name of their phase."""
        return [(step.name, step) for step in self.flow.steps]

    def say(self, kind: str, text: Msg, **data: Any) -> None:
        self.said.append(Event(kind, text, data))

    def instruct(self, text: Msg, actor: Actor = Actor.PLAYER) -> None:
        """Something the players do by hand: an event and a confirm, never dropped."""
        self.say(EventKind.INSTRUCTION, text)
        self.then(("confirm", {"text": text, "actor": actor}))

    @property
    def boss_hero(self) -> Hero:
        assert self.hero is not None
        return self.hero

    @property
    def boss_decks(self) -> Decks:
        assert self.decks is not None
        return self.decks

    @property
    def ai(self) -> AICard:
        assert self.ai_card is not None
        return self.ai_card

    @property
    def action(self) -> ActionCard:
        assert self.action_card is not None
        return self.action_card
