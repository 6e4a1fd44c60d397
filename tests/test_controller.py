"""Buttons alone can play: NEXT/BACK move the focus, CONFIRM answers, UNDO undoes."""

from typing import Any

import pytest

from dicetable.device.controller import Controller
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.hardware.actions import TableAction
from dicetable.rules.core import (
    Die,
    Event,
    Game,
    Input,
    InvalidInput,
    Option,
    Prompt,
    PromptKind,
    expect,
    msg,
)
from dicetable.rules.registry import games


class Pick(Game):
    """A tiny game for the test: choose a colour, enter a number, confirm, done."""

    id = "test-pick"
    title = "Pick"

    def __init__(self, seed: int, options: Any = None) -> None:
        super().__init__(seed, options)
        self.answers: list[Any] = []

    def prompt(self) -> Prompt:
        step = len(self.answers)
        if step == 0:
            options = tuple(Option(c, msg(c.title())) for c in ("red", "green", "blue"))
            return Prompt(PromptKind.CHOOSE, msg("Pick a colour"), options=options)
        if step == 1:
            return Prompt(PromptKind.NUMBER, msg("How many?"), number_range=(2, 4))
        if step == 2:
            return Prompt(PromptKind.CONFIRM, msg("Ready?"))
        return Prompt(PromptKind.OVER, msg("Done"))

    def apply(self, answer: Input) -> list[Event]:
        expect(answer, self.prompt())
        self.answers.append(answer.choice or answer.number or "ok")
        return []

    def view(self) -> dict[str, Any]:
        return {"answers": self.answers}

    def result(self) -> dict[str, Any]:
        return {"score": 10, "mode": "test"}


@pytest.fixture
def controller(isolated_data, monkeypatch) -> Controller:
    monkeypatch.setitem(games(), "test-pick", Pick)
    return Controller(TableSession.start(Store.in_dir(isolated_data), "test-pick", seed=1))


def test_a_game_is_played_with_buttons_alone(controller: Controller):
    assert str(controller.meaning(TableAction.CONFIRM)) == "Red"
    controller.act(TableAction.NEXT)
    controller.act(TableAction.NEXT)
    controller.act(TableAction.NEXT)  # wraps around
    controller.act(TableAction.BACK)
    assert str(controller.meaning(TableAction.CONFIRM)) == "Blue"
    controller.act(TableAction.CONFIRM)
    assert str(controller.meaning(TableAction.CONFIRM)) == "Enter 2"  # starts at the low end
    for _ in range(5):
        controller.act(TableAction.NEXT)
    assert str(controller.meaning(TableAction.CONFIRM)) == "Enter 4"  # capped at the top
    controller.act(TableAction.CONFIRM)
    assert str(controller.meaning(TableAction.NEXT)) == "—"
    events = controller.act(TableAction.CONFIRM)
    assert events[-1].kind == "game_over"
    assert controller.session.view() == {"answers": ["blue", 4, "ok"]}
    store = controller.session.store
    assert store.high_scores("test-pick")[0]["score"] == 10
    controller.act(TableAction.UNDO)  # undoing the ending takes its score back
    assert store.high_scores("test-pick") == []
    assert controller.session.view() == {"answers": ["blue", 4]}


def test_confirm_on_a_roll_needs_dice(isolated_data):
    controller = Controller(TableSession.start(Store.in_dir(isolated_data), "dice-tray", seed=1))
    assert str(controller.meaning(TableAction.CONFIRM)) == "Waiting for dice"
    with pytest.raises(InvalidInput, match="No dice read yet"):
        controller.act(TableAction.CONFIRM)
    controller.offer_dice((Die(4, "4"), Die(4, "4")))
    assert str(controller.meaning(TableAction.CONFIRM)) == "Use these dice"
    controller.act(TableAction.CONFIRM)
    assert controller.session.view()["history"] == [[4, 4]]
