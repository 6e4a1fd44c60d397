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
from typing import Any, ClassVar

from dicetable.rules.core import Event, Input, InvalidInput, Prompt, msg
from dicetable.rules.data_files import parse_toml
from dicetable.rules.dicequest import (
    adventure_path,
    card_typing,
    combat_step,
    deployment_step,
    dice_actions,
    final_scoring,
    game_setup,
    reward_step,
    table_view,
    tavern_phase,
    threat_phase,
    wound_step,
)
from dicetable.rules.dicequest.adventure_path import ADVENTURE_ROUNDS, BOARD_ACTIONS, ROUNDS
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
from dicetable.rules.dicequest.game_setup import DIFFICULTY_TEXT, DIFFICULTY_VP
from dicetable.rules.dicequest.state import Stage, TableState
from dicetable.rules.flow import FlowGame

__all__ = [
    "ADVENTURE_ROUNDS",
    "BOARD_ACTIONS",
    "DIFFICULTY_TEXT",
    "DIFFICULTY_VP",
    "ROUNDS",
    "STAGES",
    "Dicequest",
]


def _over(s: TableState, answer: Input) -> list[Event]:
    raise InvalidInput(msg("The game is over."))


#: every question of the game, by the name of its stage, in the rulebook's order
STAGES: dict[str, Stage] = {
    # Setup
    "mode": Stage(game_setup.prompt_mode, game_setup.apply_mode),
    "players": Stage(game_setup.prompt_players, game_setup.apply_players),
    "difficulty": Stage(game_setup.prompt_difficulty, game_setup.apply_difficulty),
    # Adventure Path: an Act's Adventure revealed
    "reveal": Stage(adventure_path.prompt_reveal, adventure_path.apply_reveal),
    # Tavern Phase
    "tavern": Stage(tavern_phase.prompt_tavern, tavern_phase.apply_tavern),
    "recruit": Stage(tavern_phase.prompt_recruit, tavern_phase.apply_recruit),
    "heal": Stage(tavern_phase.prompt_heal, tavern_phase.apply_heal),
    "level": Stage(tavern_phase.prompt_level, tavern_phase.apply_level),
    "graduate": Stage(tavern_phase.prompt_graduate, tavern_phase.apply_graduate),
    # Quest Phase, Deployment Step
    "quest": Stage(deployment_step.prompt_quest, deployment_step.apply_quest),
    "active": Stage(deployment_step.prompt_active, deployment_step.apply_active),
    "pool": Stage(deployment_step.prompt_pool, deployment_step.apply_pool),
    # Quest Phase, Combat Step: the roll, the Reroll token, Runes, abilities
    "roll": Stage(combat_step.prompt_roll, combat_step.apply_roll),
    "combat": Stage(combat_step.prompt_combat, combat_step.apply_combat),
    "reroll": Stage(dice_actions.prompt_reroll, dice_actions.apply_reroll),
    "pick_many": Stage(dice_actions.prompt_pick_many, dice_actions.apply_pick_many),
    "pick_die": Stage(dice_actions.prompt_pick_die, dice_actions.apply_pick_die),
    "pick_face": Stage(dice_actions.prompt_pick_face, dice_actions.apply_pick_face),
    "pick_color": Stage(dice_actions.prompt_pick_color, dice_actions.apply_pick_color),
    "pick_symbol": Stage(dice_actions.prompt_pick_symbol, dice_actions.apply_pick_symbol),
    "roll_added": Stage(dice_actions.prompt_roll_added, dice_actions.apply_roll_added),
    "rune_use": Stage(dice_actions.prompt_rune_use, dice_actions.apply_rune_use),
    # Quest Phase, Wound Step
    "block": Stage(wound_step.prompt_block, wound_step.apply_block),
    "assign": Stage(wound_step.prompt_assign, wound_step.apply_assign),
    # Quest Phase, Reward Step
    "discard": Stage(reward_step.prompt_discard, reward_step.apply_discard),
    "level_up": Stage(reward_step.prompt_level_up, reward_step.apply_level_up),
    # Threat Phase (solo and co-op)
    "threat": Stage(threat_phase.prompt_threat, threat_phase.apply_threat),
    "threaten": Stage(threat_phase.prompt_threaten, threat_phase.apply_threaten),
    # a card the game does not know, typed in
    "typein": Stage(card_typing.prompt_typein, card_typing.apply_typein),
    # Final Scoring
    "final": Stage(final_scoring.prompt_final, final_scoring.apply_final),
    "over": Stage(final_scoring.prompt_over, _over),
}


class Dicequest(FlowGame, TableState):
    """A turn is Income, Tavern and Quest Phases (Rounds & Turns); each rule area is a
    module of functions named for it, all given this game's ``TableState``. ``stage``
    names the question asked now; ``STAGES`` says which functions ask it and take its
    answer, as the game's menu on its ``Flow`` (no other step ever waits)."""

    id = "dicequest"
    title = "Dicequest"
    #: ``catalogue``: TOML text of the player's cards (and dice), snapshot at start.
    CATALOGUE: ClassVar[str] = "catalogue"
    #: ``card_names``: set on every game a session starts, so a card typed in is asked
    #: its name; a game saved before names were asked has no such option and replays
    #: as it was saved, its typed cards unnamed (so does a game built without it).
    CARD_NAMES: ClassVar[str] = "card_names"
    NAMES_ASKED: ClassVar[str] = "asked"

    @classmethod
    def check_options(cls, options: Mapping[str, str]) -> dict[str, str]:
        own = (cls.CATALOGUE, cls.CARD_NAMES)
        rest = {k: v for k, v in options.items() if k not in own}
        checked = super().check_options(rest)
        names = options.get(cls.CARD_NAMES, cls.NAMES_ASKED)
        if names != cls.NAMES_ASKED:
            raise ValueError(f"{cls.id}: option {cls.CARD_NAMES}={names!r} is not one of asked")
        checked[cls.CARD_NAMES] = names
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
        self.names_asked = self.CARD_NAMES in (options or {})  # as given, not as checked
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

    def main_prompt(self) -> Prompt:
        return STAGES[self.stage].ask(self)

    def main_apply(self, answer: Input) -> list[Event]:
        return STAGES[self.stage].answer(self, answer)

    def view(self) -> dict[str, Any]:
        return table_view.view(self)

    def result(self) -> dict[str, Any] | None:
        return final_scoring.result(self)


def _load_catalogue(text: str) -> tuple[tuple[Card, ...], DiceFaces | None]:
    """The ``catalogue`` option: ``[[quest]]``/``[[adventure]]`` tables and optional
    ``[dice]`` (faces and colours) in one TOML text."""
    if not text:
        return (), None
    data = parse_toml(text, "catalogue")
    dice = parse_dice(data.pop("dice"), "catalogue [dice]") if "dice" in data else None
    return card_tables(data, "catalogue"), dice
