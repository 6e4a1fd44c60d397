"""Choosing the game at the table: competitive or solo / co-op, the number of
players and the difficulty level (Solo & Co-op, Difficulty Levels)."""

from __future__ import annotations

from dicetable.rules.core import (
    Actor,
    Event,
    Input,
    Option,
    Prompt,
    PromptKind,
    msg,
)
from dicetable.rules.dicequest.party import Player
from dicetable.rules.dicequest.state import TableState

DIFFICULTY_VP = {  # Difficulty Levels; "at least 15 Victory Points" (Winning and Losing)
    "practice": 15,
    "normal": 15,
    "hard": 15,
    "heroic": 20,
    "legendary": 25,
    "godly": 30,
}
DIFFICULTY_TEXT = {
    "practice": "Practice: no Threat Phase",
    "normal": "Normal: 15 VP each",
    "hard": "Hard: a failed Adventure adds new Threat to Act III",
    "heroic": "Heroic: like Hard, 20 VP each",
    "legendary": "Legendary: a failed Adventure loses, 25 VP each",
    "godly": "Godly: like Legendary, 30 VP each",
}


class GameSetup(TableState):
    """The first prompts of a game; a mixin of ``Dicequest``."""

    def _prompt_mode(self) -> Prompt:
        return self._choose(
            msg("Dicequest: which game?"),
            [
                Option("coop", msg("Solo or co-op (the Threat game)")),
                Option("competitive", msg("Competitive")),
            ],
            Actor.TABLE,
        )

    def _apply_mode(self, answer: Input) -> list[Event]:
        self.mode = answer.choice
        self.stage = "players"
        return []

    def _prompt_players(self) -> Prompt:
        low = 1 if self.mode == "coop" else 2
        return Prompt(
            PromptKind.NUMBER,
            msg("How many players?"),
            actor=Actor.TABLE,
            number_range=(low, 4),
        )

    def _apply_players(self, answer: Input) -> list[Event]:
        self.players = [Player(n + 1) for n in range(answer.number)]
        self.stage = "difficulty" if self.mode == "coop" else "reveal"
        return []

    def _prompt_difficulty(self) -> Prompt:
        return self._choose(
            msg("Difficulty level?"),
            [Option(k, msg(v)) for k, v in DIFFICULTY_TEXT.items()],
            Actor.TABLE,
        )

    def _apply_difficulty(self, answer: Input) -> list[Event]:
        self.difficulty = answer.choice
        self.stage = "reveal"
        return []
