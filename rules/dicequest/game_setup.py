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


def prompt_mode(s: TableState) -> Prompt:
    return s.choose(
        msg("Dicequest: which game?"),
        [
            Option("coop", msg("Solo or co-op (the Threat game)")),
            Option("competitive", msg("Competitive")),
        ],
        Actor.TABLE,
    )


def apply_mode(s: TableState, answer: Input) -> list[Event]:
    s.mode = answer.choice
    s.stage = "players"
    return []


def prompt_players(s: TableState) -> Prompt:
    low = 1 if s.mode == "coop" else 2
    return Prompt(
        PromptKind.NUMBER,
        msg("How many players?"),
        actor=Actor.TABLE,
        number_range=(low, 4),
    )


def apply_players(s: TableState, answer: Input) -> list[Event]:
    s.players = [Player(n + 1) for n in range(answer.number)]
    s.stage = "difficulty" if s.mode == "coop" else "reveal"
    return []


def prompt_difficulty(s: TableState) -> Prompt:
    return s.choose(
        msg("Difficulty level?"),
        [Option(k, msg(v)) for k, v in DIFFICULTY_TEXT.items()],
        Actor.TABLE,
    )


def apply_difficulty(s: TableState, answer: Input) -> list[Event]:
    s.difficulty = answer.choice
    s.stage = "reveal"
    return []
