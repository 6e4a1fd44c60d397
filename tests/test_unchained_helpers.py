"""Helpers for the Dice Throne Adventures "Unchained" tests: answer a game's prompts as
the terminal would, and bring a campaign, a One-Shot Adventure or a Minion Rush to
where a test begins."""

from __future__ import annotations

from dicetable.device.answers import parse
from dicetable.rules.core import Game, PromptKind
from dicetable.rules.unchained.campaign import Campaign
from dicetable.rules.unchained.minion_rush import MinionRush
from dicetable.rules.unchained.one_shot import OneShot


def play(game: Game, *lines: str) -> list:
    """Answer prompts as the terminal would; returns all events."""
    events = []
    for line in lines:
        events += game.apply(parse(line, game.prompt()))
    return events


def texts(events) -> list[str]:
    return [str(e.text) for e in events]


def options(game: Game) -> list[str]:
    return [o.id for o in game.prompt().options]


def campaign(heroes: int = 3) -> Campaign:
    game = Campaign(1)
    play(game, str(heroes), *["barbarian", "monk", "raveness", "paladin"][:heroes])
    return game


def win(game: Campaign, points: int = 10) -> list:
    return play(game, "won", str(points))


def lose(game: Campaign, points: int = 0) -> list:
    """A loss, with its instructions confirmed."""
    events = play(game, "lost", str(points))
    while game.prompt().kind is PromptKind.CONFIRM:
        play(game, "")
    return events


def one_shot(*heroes: str) -> OneShot:
    game = OneShot(1)
    play(game, str(len(heroes)), *heroes)
    return game


def through_setup(game: OneShot) -> None:
    """Answer the starting Loot Chest rolls (asked as 'other') and the map."""
    while game.prompt().kind is not PromptKind.CHOOSE or "other" in options(game):
        prompt = game.prompt()
        if prompt.kind is PromptKind.NUMBER:
            play(game, "5" if "Loot" in str(prompt.text) else "1")
        elif prompt.kind is PromptKind.CHOOSE:
            play(game, "other")
        else:
            play(game, "")


def rush() -> MinionRush:
    game = MinionRush(1)
    play(game, "moon-elf", "", "", "no")
    return game


def defeat(game: MinionRush, loot: str = "3") -> None:
    play(game, "defeated", loot, "other", "")
