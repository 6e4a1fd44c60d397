"""What every part of the solo game shares: the two sides of the fight, the limits,
and the step queue's helpers (the game is a queue of steps: steps that need an
answer become the prompt, the rest run at once).

The solo game is split along the fan solo mode v3.2 rulebook: ``solo_setup`` (2.),
``player_turn`` (4. steps 1-2), ``boss_turn`` (4. step 3), ``offensive_roll`` (the
Boss's Offensive Rolling Phase), ``kings_hand``, ``back_strike`` (6.), ``health``
(Evasive and the end, 5. and 7.); ``solo`` puts them together. Each part is a mixin
of ``SoloState``: the state lives in the game object, a step named ``x`` is asked by
``_ask_x``, answered by ``_on_x`` or run at once by ``_run_x``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dicetable.rules.core import (
    Actor,
    DiceRequest,
    Event,
    EventKind,
    Msg,
    Prompt,
    PromptKind,
)
from dicetable.rules.dicethrone.decks import ActionCard, AICard, Decks, tokens
from dicetable.rules.dicethrone.heroes import Hero

PLAYER_HEALTH, BOSS_HEALTH = 50, 80  # 2.1, 2.2.1
MAX_CP = 15
MAX_DAMAGE = 99

Step = tuple[str, dict[str, Any]]


@dataclass
class Shown:
    """What a set of dice effects adds up to."""

    damage: int = 0
    heal: int = 0
    prevent: int = 0
    prevent_half: bool = False


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


class SoloState:
    """The solo game's state (set up in ``DiceThroneSolo.__init__``) and the helpers
    every part uses to queue steps, report events and ask for dice."""

    rng: random.Random
    boss_id: str
    hero: Hero | None
    decks: Decks | None
    difficulty: str
    d: int
    levels: dict[str, int]
    boss: Side
    player: Side
    salve: int
    bonus_damage: int
    back_strike: bool
    ai_pile: list[int]
    ai_discard: list[int]
    action_pile: list[int]
    action_discard: list[int]
    ai_card: AICard | None
    action_card: ActionCard | None
    action_used: bool
    cards: list[dict[str, str]]
    turn: int
    dice: list[int]
    attempt: int
    attempts: int
    winner: str
    queue: list[Step]
    _events: list[Event]

    def _roll_prompt(
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

    def _then(self, *steps: Step) -> None:
        """Run these steps next, in this order, before what was already queued."""
        self.queue[0:0] = list(steps)

    def _say(self, kind: str, text: Msg, **data: Any) -> None:
        self._events.append(Event(kind, text, data))

    def _instruct(self, text: Msg, actor: Actor = Actor.PLAYER) -> None:
        """Something the players do by hand: an event and a confirm, never dropped."""
        self._say(EventKind.INSTRUCTION, text)
        self._then(("confirm", {"text": text, "actor": actor}))

    @property
    def _hero(self) -> Hero:
        assert self.hero is not None
        return self.hero

    @property
    def _decks(self) -> Decks:
        assert self.decks is not None
        return self.decks

    @property
    def _ai(self) -> AICard:
        assert self.ai_card is not None
        return self.ai_card

    @property
    def _current_action(self) -> ActionCard:
        assert self.action_card is not None
        return self.action_card
