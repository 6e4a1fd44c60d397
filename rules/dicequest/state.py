"""The state the Dicequest rule modules share: one Quest Phase's ``Attempt``, and
``TableState``, the table's state (set in ``Dicequest.__init__``) that every rule
module (game_setup, tavern_phase, deployment_step, combat_step, dice_actions,
wound_step, reward_step, adventure_path, threat_phase, final_scoring, card_typing,
table_view) is given and reads and writes: ``s.<name>`` there is declared here.
``Stage`` is one question of the game: ``stage`` names the one asked now, and
``game.STAGES`` says which functions ask it and take its answer."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dicetable.rules.core import (
    Actor,
    Event,
    EventKind,
    Input,
    Msg,
    Option,
    Prompt,
    PromptKind,
    Text,
)
from dicetable.rules.dicequest.data import Card, DiceFaces, ThreatCard
from dicetable.rules.dicequest.party import Player
from dicetable.rules.dicequest.tally import RolledDie
from dicetable.rules.dicequest.typein import CardForm
from dicetable.rules.dicequest.words import card_text, card_title


@dataclass
class Attempt:
    """One Quest Phase: the card, Active Heroes, the Dice Pool and the result."""

    card: Card
    active: list[int] = field(default_factory=list)  # indices into the player's heroes
    pool: list[str] = field(default_factory=list)  # colours, before the roll
    dice: list[RolledDie] = field(default_factory=list)
    bonus: Counter[str] = field(default_factory=Counter)  # symbols from abilities
    bonus_runes: int = 0  # Runes gained from Items and abilities, not yet spent
    prevented: int = 0  # Light Wounds prevented by abilities (Charm of Liothan...)
    self_wounds: int = 0  # Unblockable Light Wounds taken for abilities (Scarifier...)
    rolled: bool = False
    wounds: list[str] = field(default_factory=list)  # still to place: deadly/unblockable/light
    shields_blocking: int = 0
    blocked: Counter[str] = field(default_factory=Counter)
    discarded: list[int] = field(default_factory=list)  # Threat tokens discarded
    chosen: list[int] = field(default_factory=list)  # dice picked for the Reroll token
    level_ups: int = 0  # Level Up rewards still to give
    pending: str = ""  # what the die / face / colour being picked is for
    die: int = -1


class TableState:
    """The table's state, declared once for the rule modules; ``Dicequest.__init__``
    sets it."""

    rng: random.Random
    dice: DiceFaces  # the faces of each colour (inferred default or the player's)
    cards: dict[str, Card]  # every Quest and Adventure card known to this game
    typed_cards: list[Card]  # cards typed in at the table, kept for the game
    threat_deck: list[ThreatCard]  # still face down
    token_reserve: dict[int, list[tuple[str, ...]]]  # Threat tokens by Act
    stage: str  # the question asked now: its functions are ``game.STAGES[stage]``
    mode: str  # "competitive" | "coop"
    difficulty: str  # Difficulty Levels (co-op)
    players: list[Player]
    round: int  # 1..9 on the Adventure Path
    act: int  # 1..3
    turn: int  # index of the player whose turn it is
    adventure: Card | None  # the revealed Adventure of this Act
    adventure_tokens: list[tuple[str, ...]]  # Threat tokens on it
    threat_placed: int  # Threat tokens put on this Adventure (the gauge's max)
    act3_tokens: list[tuple[str, ...]]  # waiting for the Act III Adventure
    threat: ThreatCard | None  # this round's Threat card
    quest_gold: Counter[str]  # Gold tokens on failed Quest cards
    quest_threat: dict[str, tuple[str, ...]]  # Threat on Quests (co-op)
    completed: set[str]  # Quests and Adventures out of play
    attempt: Attempt | None  # the Quest Phase in progress
    adventure_scores: dict[int, int | None]  # player -> score, None: failed
    form: CardForm | None  # a card being typed in
    names_asked: bool  # a card typed in is asked its name (not in games saved before)
    outcome: str  # "", "won", "lost", "ended"
    final_step: int  # which final-scoring question is next
    recent: list[dict[str, str]]  # cards shown this round, for the screen

    @property
    def player(self) -> Player:
        """The player whose turn it is."""
        return self.players[self.turn]

    def choose(
        self, text: Msg, options: list[Option], actor: Actor = Actor.PLAYER, **kw: Any
    ) -> Prompt:
        return Prompt(PromptKind.CHOOSE, text, actor=actor, options=tuple(options), **kw)

    def card_event(self, text: Msg, card: Card) -> Event:
        """A card drawn or revealed: said, and shown with this round's cards."""
        self.recent.append(
            {"title": Text(card_title(card)), "text": card_text(card), "kind": card.kind}
        )
        return Event(EventKind.CARD, text, {"card": card.to_json()})


@dataclass(frozen=True)
class Stage:
    """One question of the game: its prompt, and what its answer does."""

    ask: Callable[[TableState], Prompt]
    answer: Callable[[TableState, Input], list[Event]]


def option_index(option_id: str) -> int:
    """``die3``, ``hero1``, ``token2``: option ids count from 1, like the screen."""
    return int(option_id.lstrip("abcdefghijklmnopqrstuvwxyz")) - 1
