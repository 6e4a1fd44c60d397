"""Dicequest companion: the Quest Phase arithmetic from real colour symbol dice, the
wounds, the Adventures and the solo / co-op threat game, and the final scoring.

The players keep their cards, Gold and Items on the table; the companion tracks what
decides the game and is easy to get wrong: the Dice Pool, what the roll meets and
what is still missing (and which dice or abilities could supply it), Runes spent,
the Reroll token, wounds blocked and placed, Adventure Scores and their ranking, the
Threat deck and Threat tokens, and the Victory Points.

Every step is a prompt, so a whole game replays from its seed and answers. Cards the
game does not know are typed in as prompts too (logged, kept for the rest of the
game); cards from the player's catalogue come in the ``catalogue`` option, a
snapshot of the catalogue taken when the game starts, so a saved game never changes
when the catalogue does.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import ClassVar

from dicetable.rules.core import (
    Actor,
    Event,
    EventKind,
    Game,
    Input,
    Msg,
    Option,
    Prompt,
    PromptKind,
    Text,
    expect,
)
from dicetable.rules.data_files import parse_toml
from dicetable.rules.dicequest.adventure_path import (
    ADVENTURE_ROUNDS,
    BOARD_ACTIONS,
    ROUNDS,
    AdventurePath,
)
from dicetable.rules.dicequest.card_typing import CardTyping
from dicetable.rules.dicequest.data import (
    Card,
    DataError,
    DiceFaces,
    card_tables,
    default_dice,
    parse_dice,
    shipped_cards,
    threat_deck,
)
from dicetable.rules.dicequest.final_scoring import FinalScoring
from dicetable.rules.dicequest.game_setup import DIFFICULTY_TEXT, DIFFICULTY_VP, GameSetup
from dicetable.rules.dicequest.party import Player
from dicetable.rules.dicequest.quest_phase import QuestPhase
from dicetable.rules.dicequest.table_view import TableView
from dicetable.rules.dicequest.tavern_phase import TavernPhase
from dicetable.rules.dicequest.threat_phase import ThreatPhase
from dicetable.rules.dicequest.words import card_text, card_title

__all__ = [
    "ADVENTURE_ROUNDS",
    "BOARD_ACTIONS",
    "DIFFICULTY_TEXT",
    "DIFFICULTY_VP",
    "ROUNDS",
    "Dicequest",
]


class Dicequest(
    GameSetup,
    TavernPhase,
    QuestPhase,
    AdventurePath,
    ThreatPhase,
    FinalScoring,
    CardTyping,
    TableView,
    Game,
):
    """A turn is Income, Tavern and Quest Phases (Rounds & Turns); each rule area is a
    mixin named for it, all sharing the ``TableState`` set here. ``stage`` names the
    prompt: ``prompt()`` and ``apply()`` call ``_prompt_<stage>`` / ``_apply_<stage>``."""

    id = "dicequest"
    title = "Dicequest"
    #: ``catalogue``: TOML text of the player's cards (and dice), snapshot at start.
    CATALOGUE: ClassVar[str] = "catalogue"

    @classmethod
    def check_options(cls, options: Mapping[str, str]) -> dict[str, str]:
        rest = {k: v for k, v in options.items() if k != cls.CATALOGUE}
        checked = super().check_options(rest)
        if cls.CATALOGUE in options:
            text = options[cls.CATALOGUE]
            try:
                _load_catalogue(text)
            except DataError as error:
                raise ValueError(f"{cls.id}: option catalogue: {error}") from None
            checked[cls.CATALOGUE] = text
        return checked

    def __init__(self, seed: int, options: Mapping[str, str] | None = None) -> None:
        """The table at the start; ``TableState`` (state.py) says what each is."""
        super().__init__(seed, options)
        self.rng = random.Random(seed)
        extra_cards, dice = _load_catalogue(self.options.get(self.CATALOGUE, ""))
        self.dice = dice or default_dice()
        self.cards = {c.id: c for c in (*shipped_cards(), *extra_cards)}
        self.typed_cards = []
        threats, tokens = threat_deck()
        self.threat_deck = list(threats)
        self.rng.shuffle(self.threat_deck)
        self.token_reserve = {act: list(tokens[act]) for act in (1, 2, 3)}
        for act in (1, 2, 3):
            self.rng.shuffle(self.token_reserve[act])
        self.stage = "mode"
        self.mode = ""
        self.difficulty = "normal"
        self.players = []
        self.round = 0
        self.act = 1
        self.turn = 0
        self.adventure = None
        self.adventure_tokens = []
        self.threat_placed = 0
        self.act3_tokens = []
        self.threat = None
        self.quest_gold = Counter()
        self.quest_threat = {}
        self.completed = set()
        self.attempt = None
        self.adventure_scores = {}
        self.form = None
        self.outcome = ""
        self.final_step = 0
        self.recent = []

    def prompt(self) -> Prompt:
        return getattr(self, f"_prompt_{self.stage}")()

    def apply(self, answer: Input) -> list[Event]:
        expect(answer, self.prompt())
        return getattr(self, f"_apply_{self.stage}")(answer)

    @property
    def player(self) -> Player:
        return self.players[self.turn]

    def _choose(
        self, text: Msg, options: list[Option], actor: Actor = Actor.PLAYER, **kw
    ) -> Prompt:
        return Prompt(PromptKind.CHOOSE, text, actor=actor, options=tuple(options), **kw)

    def _card_event(self, text: Msg, card: Card) -> Event:
        self.recent.append(
            {"title": Text(card_title(card)), "text": card_text(card), "kind": card.kind}
        )
        return Event(EventKind.CARD, text, {"card": card.to_json()})


def _load_catalogue(text: str) -> tuple[tuple[Card, ...], DiceFaces | None]:
    """The ``catalogue`` option: ``[[quest]]``/``[[adventure]]`` tables and optional
    ``[dice]`` (faces and colours) in one TOML text."""
    if not text:
        return (), None
    data = parse_toml(text, "catalogue")
    dice = parse_dice(data.pop("dice"), "catalogue [dice]") if "dice" in data else None
    return card_tables(data, "catalogue"), dice
