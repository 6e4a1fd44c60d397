"""Spanish covers every message the table shows: the games' prompts, options and
events as they are actually produced in play, the controller's button meanings, and
every text the screens themselves write (``msg("...")`` in ``ui/``).

Issue 9: "Text through a translation catalogue: English complete, Spanish complete
(one of the rulebooks is Spanish)."
"""

from __future__ import annotations

import ast
import random
import string
from pathlib import Path
from typing import Any

import pytest

from dicetable.device.controller import Controller
from dicetable.device.i18n import catalogue
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.hardware.actions import TableAction
from dicetable.rules.core import (
    Die,
    Input,
    InputKind,
    InvalidInput,
    Msg,
    Prompt,
    PromptKind,
)
from dicetable.rules.registry import games

UI = Path(__file__).resolve().parents[1] / "ui"
STEPS = 60


def random_answer(prompt: Prompt, rng: random.Random) -> Input:
    """Any answer that fits the prompt's shape (the game may still refuse it)."""
    if prompt.kind is PromptKind.CHOOSE:
        return Input.choose(rng.choice(prompt.options).id)
    if prompt.kind is PromptKind.NUMBER:
        low, high = prompt.number_range or (0, 10)
        return Input.enter(rng.randint(low, high))
    if prompt.kind is PromptKind.ROLL:
        request = prompt.dice
        assert request is not None
        count = rng.randint(request.least, min(request.count, request.least + 5))
        dice = []
        for _ in range(count):
            face = rng.choice(request.faces) if request.faces else str(rng.randint(1, 6))
            colour = rng.choice(request.colors) if request.colors else ""
            dice.append(Die(int(face) if face.isdigit() else None, face, colour))
        return Input(InputKind.DICE, dice=tuple(dice))
    return Input.confirm()


def play_randomly(session: TableSession, rng: random.Random, steps: int) -> list[Msg]:
    """Play with random answers, collecting every Msg the table would show."""
    shown: list[Msg] = []
    controller = Controller(session)
    for _ in range(steps):
        prompt = session.prompt()
        shown.append(prompt.text)
        shown += [o.label for o in prompt.options]
        shown += [m for m in (prompt.objective,) if m is not None]
        shown += [controller.meaning(a) for a in TableAction]
        shown += view_labels(session.view())
        if prompt.kind is PromptKind.OVER:
            break
        for _attempt in range(20):
            try:
                events = session.submit(random_answer(prompt, rng))
            except InvalidInput as refused:
                shown.append(refused.reason)
                continue
            shown += [e.text for e in events]
            break
        else:
            break
    return shown


def view_labels(view: dict[str, Any]) -> list[str]:
    """The fixed labels of the screen's panels and gauge, which the screen translates
    as they are; numbered names ("Player 2", "Barbarian (1)") are left to the data."""
    labels = [view.get("gauge", {}).get("label", "")]
    for panel in view.get("panels", ()):
        labels += [panel.get("title", "")] + [row[0] for row in panel.get("rows", ())]
    return [t for t in labels if isinstance(t, str) and t and not any(c.isdigit() for c in t)]


def _missing(messages: list[Msg | str], spanish: dict[str, str]) -> set[str]:
    missing = set()
    for message in messages:
        if isinstance(message, Msg):
            missing |= {m for m in _nested(message) if m not in spanish}
        elif message not in spanish:
            missing.add(message)
    return missing


def _nested(message: Msg) -> list[str]:
    """The template and any Msg passed as an argument (translated too)."""
    found = [message.text]
    for value in message.args.values():
        if isinstance(value, Msg):
            found += _nested(value)
    return found


@pytest.mark.parametrize("game_id", sorted(g for g in games() if not g.startswith("test-")))
def test_spanish_covers_what_each_game_says(game_id: str, isolated_data: Path) -> None:
    """Every prompt, option, event, refusal and panel label met in random play has a
    Spanish text."""
    spanish = catalogue("es")
    store = Store.in_dir(isolated_data)
    missing = _missing([games()[game_id].title], spanish)  # shown on the home screen
    for seed in (1, 2, 3):
        session = TableSession.start(store, game_id, seed)
        missing |= _missing(play_randomly(session, random.Random(seed), STEPS), spanish)
    assert not missing, f"{game_id}: no Spanish for {sorted(missing)}"


def _ui_texts() -> set[str]:
    """Every literal the screens pass to ``msg(...)``."""
    texts = set()
    for path in UI.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "msg"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                texts.add(node.args[0].value)
    return texts


def test_spanish_covers_every_screen_text() -> None:
    texts = _ui_texts()
    assert len(texts) > 40, "the scan found too few texts: is ui/ where it should be?"
    missing = sorted(t for t in texts if t not in catalogue("es"))
    assert not missing, f"ui/i18n/es.toml lacks {missing}"


def test_translations_keep_their_arguments() -> None:
    """A translation that renames or drops {an argument} would crash or mislead."""
    formatter = string.Formatter()

    def fields(text: str) -> set[Any]:
        return {name for _, name, _, _ in formatter.parse(text) if name}

    wrong = {
        english: spanish
        for english, spanish in catalogue("es").items()
        if fields(english) != fields(spanish)
    }
    assert not wrong, f"arguments differ: {wrong}"
