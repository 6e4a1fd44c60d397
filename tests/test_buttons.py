"""Phase buttons through gpiozero's own MockFactory: press, hold, bounce, release
during a hold; a game played with the buttons alone."""

from __future__ import annotations

import itertools
import logging
import time
import tomllib
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from dicetable.device.config import defaults_text
from dicetable.device.controller import Controller
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.hardware.actions import TableAction
from dicetable.hardware.buttons import (
    REPEAT_DELAY_S,
    REPEAT_FASTEST_S,
    REPEAT_FIRST_S,
    REPEATABLE,
    ActionQueue,
    ButtonError,
    ButtonSpec,
    PhaseButtons,
    _Debounced,
    button_map,
    open_buttons,
)
from dicetable.rules.core import (
    Die,
    Event,
    Game,
    Input,
    Option,
    Prompt,
    PromptKind,
    expect,
    msg,
)
from dicetable.rules.registry import games

#: the documented settings (device/defaults.toml), as the app reads them over its file
DEFAULTS = tomllib.loads(defaults_text())
#: the documented hold and debounce times
TIMES = {key: DEFAULTS["buttons"][key] for key in ("hold_time", "debounce")}


def buttons_section(**changed: Any) -> dict[str, Any]:
    """The ``[buttons]`` section as the app reads it: the documented defaults, changed."""
    return {**DEFAULTS["buttons"], **changed}


HOLD = 0.15
DEBOUNCE = 0.02
PINS = {"confirm": 17, "back": 27, "next": 22, "menu": 23}


@pytest.fixture
def mock_pins():
    """gpiozero's conftest pattern: reset() frees the reservations (gpiozero #1087)."""
    saved, Device.pin_factory = Device.pin_factory, MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def table(mock_pins):
    actions = ActionQueue()
    specs = button_map(buttons_section(**{name: f"GPIO{pin}" for name, pin in PINS.items()}))
    with PhaseButtons(specs, actions, hold_time=HOLD, debounce=DEBOUNCE) as buttons:
        pins = {name: mock_pins.pin(pin) for name, pin in PINS.items()}
        yield buttons, pins, actions


def _press(table, name: str, seconds: float = 0.03) -> None:
    """Press and release a button, then wait until the release has been taken (the
    debounce timer), so the next press is a new one even on a busy machine."""
    buttons, pins, _actions = table
    pins[name].drive_low()  # pulled up: pressed is low
    time.sleep(seconds)
    pins[name].drive_high()
    _settled(buttons)


def _settled(buttons: PhaseButtons, timeout: float = 2.0) -> None:
    deadline = time.monotonic() + timeout
    while any(b.pressed for b in buttons.buttons) and time.monotonic() < deadline:
        time.sleep(0.002)


def test_a_press_delivers_its_action_at_once(table):
    _buttons, pins, actions = table
    pins["confirm"].drive_low()
    assert actions.drain() == [TableAction.CONFIRM]  # on the edge, before the release
    pins["confirm"].drive_high()
    for name, action in (("next", TableAction.NEXT), ("menu", TableAction.MENU)):
        _press(table, name)
        assert actions.drain() == [action]


def test_bounce_on_press_and_release_counts_once(table):
    """MockPin does not simulate bounce_time (platform notes 1.1, gotcha 1): ours does."""
    _buttons, pins, actions = table
    pin = pins["next"]
    for _ in range(4):  # chatter as the contact closes
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    time.sleep(0.05)
    for _ in range(3):  # and as it opens
        pin.drive_high()
        pin.drive_low()
    pin.drive_high()
    _settled(table[0])
    time.sleep(DEBOUNCE * 2)
    assert actions.drain() == [TableAction.NEXT]
    _press(table, "next")
    assert actions.drain() == [TableAction.NEXT]  # the next real press still counts


def test_a_hold_on_back_undoes_and_its_release_does_nothing_more(table):
    _buttons, pins, actions = table
    pins["back"].drive_low()
    assert actions.get(timeout=HOLD * 5) is TableAction.UNDO
    pins["back"].drive_high()
    time.sleep(DEBOUNCE * 4)
    assert actions.drain() == []


def test_a_release_during_the_hold_is_a_plain_back(table):
    _buttons, _pins, actions = table
    _press(table, "back", seconds=HOLD / 3)
    assert actions.get(timeout=2) is TableAction.BACK
    time.sleep(HOLD)
    assert actions.drain() == []  # the hold timer was cancelled


def test_chatter_in_the_middle_of_a_hold_does_not_cut_it(table):
    _buttons, pins, actions = table
    pins["back"].drive_low()
    time.sleep(HOLD / 3)
    pins["back"].drive_high()  # a glitch shorter than the debounce time
    pins["back"].drive_low()
    assert actions.get(timeout=HOLD * 5) is TableAction.UNDO
    pins["back"].drive_high()
    time.sleep(DEBOUNCE * 4)
    assert actions.drain() == []


# -- a held + or − repeats, faster and faster --------------------------------------------------

#: short repeat timings: a held button repeats after 50 ms, then every 40 ms down to 10
REPEAT = {"repeat_delay": 0.05, "repeat_first": 0.04, "repeat_fastest": 0.01}


@pytest.fixture
def repeating(mock_pins, monkeypatch: pytest.MonkeyPatch):
    """The buttons with a ``repeats`` the test sets (``wanted``), and every gap the
    repeat timers were asked for (``gaps``), so the speed-up is checked without
    timing the machine."""
    wanted: dict[TableAction, bool] = {}
    gaps: list[float] = []
    timer = _Debounced._timer

    def spied(self, seconds, then):
        if then.__name__ == "_on_repeat":
            gaps.append(seconds)
        return timer(self, seconds, then)

    monkeypatch.setattr(_Debounced, "_timer", spied)
    actions = ActionQueue()
    specs = button_map(buttons_section(**{name: f"GPIO{pin}" for name, pin in PINS.items()}))
    with PhaseButtons(
        specs,
        actions,
        hold_time=HOLD,
        debounce=DEBOUNCE,
        repeats=lambda action: wanted.get(action, False),
        **REPEAT,
    ) as buttons:
        pins = {name: mock_pins.pin(pin) for name, pin in PINS.items()}
        yield (buttons, pins, actions), wanted, gaps


def _held(table, name: str, presses: int) -> list[TableAction]:
    """Hold a button until ``presses`` actions came (or two seconds), let it go,
    and return every action it sent, the release's included."""
    buttons, pins, actions = table
    pins[name].drive_low()
    got: list[TableAction] = []
    deadline = time.monotonic() + 2
    while len(got) < presses and time.monotonic() < deadline:
        action = actions.get(timeout=0.1)
        if action is not None:
            got.append(action)
    pins[name].drive_high()
    _settled(buttons)
    time.sleep(REPEAT["repeat_delay"] * 2)
    return got + actions.drain()


def test_a_held_next_repeats_faster_and_faster_until_let_go(repeating):
    table, wanted, gaps = repeating
    wanted[TableAction.NEXT] = True
    sent = _held(table, "next", presses=10)
    assert len(sent) >= 10 and set(sent) == {TableAction.NEXT}
    assert gaps[0] == REPEAT["repeat_delay"]  # the first repeat waits: a tap is one press
    repeats = gaps[1:]
    assert repeats[0] == REPEAT["repeat_first"] and repeats[-1] == REPEAT["repeat_fastest"]
    assert all(later <= sooner for sooner, later in itertools.pairwise(repeats))
    assert repeats[1] < repeats[0]  # it speeds up
    time.sleep(0.1)
    assert table[2].drain() == []  # let go: nothing more


def test_a_tap_never_repeats(repeating):
    table, wanted, _gaps = repeating
    wanted[TableAction.NEXT] = wanted[TableAction.BACK] = True
    _press(table, "next", seconds=0.01)
    _press(table, "back", seconds=0.01)
    time.sleep(REPEAT["repeat_delay"] * 3)
    assert table[2].drain() == [TableAction.NEXT, TableAction.BACK]


def test_a_held_back_repeats_when_asked_and_then_never_undoes(repeating):
    table, wanted, _gaps = repeating
    wanted[TableAction.BACK] = True
    sent = _held(table, "back", presses=6)
    time.sleep(HOLD)  # past the hold time: no undo comes late
    sent += table[2].drain()
    assert len(sent) >= 6 and set(sent) == {TableAction.BACK}


def test_a_held_back_undoes_where_nothing_repeats(repeating):
    """The number entry at its least, or any other question: hold on back undoes."""
    table, wanted, gaps = repeating
    wanted[TableAction.NEXT] = True  # only + repeats now
    pins = table[1]
    pins["back"].drive_low()
    assert table[2].get(timeout=HOLD * 5) is TableAction.UNDO
    pins["back"].drive_high()
    time.sleep(DEBOUNCE * 4)
    assert table[2].drain() == [] and gaps == [REPEAT["repeat_delay"]]  # asked once


def test_the_repeat_timings_sit_between_a_tap_and_a_hold():
    """The documented timings: a repeat waits longer than a tap, shorter than a hold,
    and never goes faster than the eye follows."""
    assert 0 < REPEAT_DELAY_S < DEFAULTS["buttons"]["hold_time"]
    assert REPEAT_FASTEST_S < REPEAT_FIRST_S < REPEAT_DELAY_S
    assert REPEATABLE == (TableAction.BACK, TableAction.NEXT)


def test_a_pin_in_use_gives_one_clear_message_and_no_buttons(
    mock_pins, caplog: pytest.LogCaptureFixture
):
    from gpiozero import LED

    with LED(22):  # something else holds GPIO22
        with pytest.raises(ButtonError, match=r"GPIO22 \(next button\) cannot be claimed"):
            PhaseButtons(button_map(buttons_section()), ActionQueue(), **TIMES).open()
        caplog.set_level(logging.WARNING)
        assert open_buttons(buttons_section(source="gpio"), ActionQueue()) is None
        warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1 and "GPIO22 (next button)" in warnings[0]
    # the pins it had claimed before failing were given back
    with PhaseButtons(button_map(buttons_section()), ActionQueue(), **TIMES):
        pass


def test_settings_choose_the_pins_and_none_means_not_wired(mock_pins):
    specs = button_map(buttons_section(confirm="GPIO5", menu=""))
    assert [(s.name, s.pin) for s in specs] == [
        ("confirm", "GPIO5"),
        ("back", "GPIO27"),
        ("next", "GPIO22"),
    ]
    with pytest.raises(ButtonError, match="buttons.next = 'bcm5': GPIO5 is already buttons.co"):
        button_map(buttons_section(confirm="GPIO5", next="bcm5"))
    assert button_map(buttons_section(confirm=6))[0].pin == "GPIO6"
    assert open_buttons(buttons_section(source="keyboard"), ActionQueue()) is None
    assert open_buttons(buttons_section(source="none"), ActionQueue()) is None


def test_auto_uses_gpio_only_on_a_pi(mock_pins, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr("dicetable.hardware.board.model", lambda: "")
    assert open_buttons(buttons_section(source="auto"), ActionQueue()) is None
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    buttons = open_buttons(buttons_section(source="auto"), ActionQueue())
    assert buttons is not None
    buttons.close()


# -- a game with the buttons alone ------------------------------------------------------------


class Quest(Game):
    """A small choose / number / confirm / roll flow, like the adventure games'."""

    id = "test-quest"
    title = "Quest"

    def __init__(self, seed: int, options: Any = None) -> None:
        super().__init__(seed, options)
        self.log: list[Any] = []

    def prompt(self) -> Prompt:
        step = len(self.log)
        if step == 0:
            options = tuple(Option(h, msg(h.title())) for h in ("knight", "rogue", "mage"))
            return Prompt(PromptKind.CHOOSE, msg("Choose a hero"), options=options)
        if step == 1:
            return Prompt(PromptKind.NUMBER, msg("Party size"), number_range=(1, 4))
        if step == 2:
            return Prompt(PromptKind.CONFIRM, msg("Place the hero on the map"))
        return Prompt(PromptKind.OVER, msg("Done"))

    def apply(self, answer: Input) -> list[Event]:
        expect(answer, self.prompt())
        self.log.append(answer.choice or answer.number or "ok")
        return []

    def view(self) -> dict[str, Any]:
        return {"log": self.log}


def _ui_thread(controller: Controller, actions: ActionQueue) -> None:
    """What the app's UI thread does with delivered actions."""
    for action in actions.drain():
        controller.act(action)


def test_a_choose_and_confirm_flow_is_played_with_buttons_alone(
    table, isolated_data, monkeypatch: pytest.MonkeyPatch
):
    _buttons, pins, actions = table
    monkeypatch.setitem(games(), "test-quest", Quest)
    session = TableSession.start(Store.in_dir(isolated_data), "test-quest", seed=1)
    controller = Controller(session)
    for name in ("next", "next", "back", "next", "confirm"):  # knight -> rogue -> mage
        _press(table, name)
    _ui_thread(controller, actions)
    assert session.view()["log"] == ["mage"]
    for name in ("next", "next", "confirm"):  # party of 3
        _press(table, name)
    _ui_thread(controller, actions)
    assert session.view()["log"] == ["mage", 3]
    pins["back"].drive_low()  # hold: undo the party size
    assert actions.get(timeout=HOLD * 5) is TableAction.UNDO
    pins["back"].drive_high()
    controller.act(TableAction.UNDO)
    assert session.view()["log"] == ["mage"]
    for name in ("next", "confirm", "confirm"):  # party of 2, then the instruction
        _press(table, name)
    _ui_thread(controller, actions)
    assert session.view()["log"] == ["mage", 2, "ok"]
    assert session.prompt().kind is PromptKind.OVER


def test_the_dice_tray_is_played_with_the_confirm_button(table, isolated_data):
    """Dice tray: roll, the camera reads, CONFIRM takes the reading."""
    _buttons, pins, actions = table
    session = TableSession.start(Store.in_dir(isolated_data), "dice-tray", seed=1)
    controller = Controller(session)
    for values in ((3, 4, 5), (6, 6)):
        controller.offer_dice(tuple(Die(v, str(v)) for v in values))  # from vision
        _press(table, "confirm")
        _ui_thread(controller, actions)
    assert [list(r) for r in session.view()["history"]] == [[3, 4, 5], [6, 6]]
    pins["back"].drive_low()
    assert actions.get(timeout=HOLD * 5) is TableAction.UNDO
    pins["back"].drive_high()
    controller.act(TableAction.UNDO)
    assert [list(r) for r in session.view()["history"]] == [[3, 4, 5]]


def test_close_frees_the_pins(mock_pins):
    spec = ButtonSpec("confirm", "GPIO17", TableAction.CONFIRM)
    with PhaseButtons([spec], ActionQueue(), **TIMES):
        pass
    with PhaseButtons([spec], ActionQueue(), **TIMES) as again:
        assert again.legend() == [("confirm", "GPIO17", TableAction.CONFIRM, None)]


def _real_gpio() -> bool:
    import os

    from dicetable.hardware.board import is_raspberry_pi

    return is_raspberry_pi() and os.environ.get("GPIOZERO_PIN_FACTORY", "") != "mock"


@pytest.mark.pi
@pytest.mark.skipif(not _real_gpio(), reason="needs a Raspberry Pi's GPIO (not the mock)")
def test_the_default_pins_are_claimed_on_a_real_pi():
    with PhaseButtons(button_map(buttons_section()), ActionQueue(), **TIMES) as buttons:
        assert [b.device.is_pressed for b in buttons.buttons] == [False] * 4  # pulled up


@pytest.mark.skipif(_real_gpio(), reason="a real Pi has a pin factory")
def test_without_any_gpio_library_there_is_one_message_and_no_warnings(
    monkeypatch: pytest.MonkeyPatch,
):
    import warnings

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    saved, Device.pin_factory = Device.pin_factory, None
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pytest.raises(ButtonError, match="not a Raspberry Pi, or no GPIO library"):
                PhaseButtons(button_map(buttons_section()), ActionQueue(), **TIMES).open()
        assert [str(w.message) for w in caught] == []
    finally:
        Device.pin_factory = saved
