"""Helpers for the Mini Dungeon Adventures tests: build a party, put it in a room with
monsters, run one rule of the game (a hit, a room, a town visit) from a state set up
by hand, answer prompts."""

from __future__ import annotations

from dicetable.rules.core import Input, PromptKind
from dicetable.rules.flow import Step
from dicetable.rules.minidungeon import exploring
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.figures import Monster
from dicetable.rules.minidungeon.game import MiniDungeon
from dicetable.rules.minidungeon.table import Room


def party(
    classes: tuple[str, ...] = ("fighter", "mage"),
    seed: int = 1,
    options: dict[str, str] | None = None,
) -> MiniDungeon:
    """A game past the forging of heroes, with nothing bought."""
    game = MiniDungeon(seed, options or {})
    game.apply(Input.enter(len(classes)))
    for cls in classes:
        game.apply(Input.choose(cls))
        while "spell" in str(game.prompt().text) or "Avenger" in str(game.prompt().text):
            game.apply(Input.choose(game.prompt().options[0].id))
    while "town store" in str(game.prompt().text):
        game.apply(Input.choose("done"))
    return game


def run(game: MiniDungeon, step: Step) -> None:
    """Make ``step`` (a rule of the game, made a step) the only thing the game waits
    on, as if the game had reached it; once it is done the game is over."""
    game.flow.steps = [step]
    game.flow.advance()
    game.said()


def answer(game: MiniDungeon, *answers: Input | int | str | None) -> list:
    """Answer prompts in order: an int rolls (ROLL) or enters (NUMBER), a str chooses,
    None confirms. Returns every event."""
    events = []
    for value in answers:
        prompt = game.prompt()
        if isinstance(value, Input):
            given = value
        elif value is None:
            given = Input.confirm()
        elif isinstance(value, str):
            given = Input.choose(value)
        elif prompt.kind is PromptKind.NUMBER:
            given = Input.enter(value)
        else:
            given = Input.roll(*([value] * prompt.dice.count))
        events += game.apply(given)
    return events


def texts(events: list) -> list[str]:
    return [str(e.text) for e in events]


def option_ids(game: MiniDungeon) -> list[str]:
    return [o.id for o in game.prompt().options]


def monster(game: MiniDungeon, kind: str) -> Monster:
    """A monster of ``kind`` put in the room."""
    created = exploring.new_monster(game, kind)
    game.room.monsters.append(created)
    return created


def in_room(game: MiniDungeon, number: int = 1, *kinds: str) -> list[Monster]:
    """The heroes in room ``number`` with monsters of ``kinds``."""
    game.room = Room(number=number)
    return [monster(game, k) for k in kinds]


def give(game: MiniDungeon, hero, *items: str) -> None:
    for item in items:
        assert fig.receive(hero, game.book.items[item], game.book)


def explore(game: MiniDungeon, hero, *rolls) -> list:
    """The heroes open the door to the next room; ``rolls`` answer what it asks."""
    run(game, exploring.explore(game, hero))
    return answer(game, *rolls)
