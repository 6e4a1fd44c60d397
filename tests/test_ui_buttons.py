# ruff: noqa: F811 (the fixtures of test_ui, imported)
"""Issue 15 item 3: the four hardware buttons alone play the whole product, from the
home screen to game over: every page's focus frame (moved by Next and Back, pressed
by Confirm, scrolled into sight), the number entry (digit keys, a held + that
speeds up, -5/+5 on a wide range), the button test's way out, the game-over page
and back home. Dice come from the camera, as at a real table."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from test_ui import Table, duel_registered, shots, table  # noqa: F401 (fixtures)

from dicetable.hardware.actions import TableAction
from dicetable.rules.core import Event, Game, Input, Prompt, PromptKind, expect, msg
from dicetable.rules.registry import games
from dicetable.ui.focus import option_order
from dicetable.ui.number_entry import FAST_STEP, PRESSES_BEFORE_FAST, DigitBuffer, Stepper
from dicetable.ui.widgets import TapButton

CONFIRM, NEXT, BACK, MENU = (
    TableAction.CONFIRM,
    TableAction.NEXT,
    TableAction.BACK,
    TableAction.MENU,
)


# How long a test waits for a page's focus frame: it is drawn ui.app.FOCUS_AFTER s
# after the page is shown, and three frames of the event loop (about 50 ms at 60
# frames a second) were sometimes too few (a CI run saw no frame on the settings).
FRAME_WAIT = 2.0


def pump_until(ui: Table, until: Callable[[], bool], most_s: float) -> None:
    """Run the app's frames until ``until()``, or ``most_s`` have passed."""
    deadline = time.monotonic() + most_s
    while not until() and time.monotonic() < deadline:
        ui.pump(1)
        time.sleep(0.01)


def framed(ui: Table) -> TapButton:
    """The button the focus frame is on (exactly one on a page), once it is drawn."""

    def focused() -> list[TapButton]:
        root = ui.visible_root()
        return [w for w in root.walk(restrict=True) if isinstance(w, TapButton) and w.focused]

    pump_until(ui, lambda: len(focused()) == 1, FRAME_WAIT)
    found = focused()
    assert len(found) == 1, [getattr(w, "text", "") for w in found]
    return found[0]


def next_until(ui: Table, text: str, limit: int = 40) -> None:
    for _ in range(limit):
        if text in framed(ui).text:
            return
        ui.button(NEXT)
    raise AssertionError(f"no button {text!r} reached with Next")


def test_the_stepper_speeds_up_when_held_and_digits_type_a_number() -> None:
    now = [0.0]
    stepper = Stepper(clock=lambda: now[0])
    steps = []
    for _ in range(PRESSES_BEFORE_FAST + 3):
        now[0] += 0.1  # a held button: presses close together
        steps.append(stepper.step(1))
    assert steps[:PRESSES_BEFORE_FAST] == [1] * PRESSES_BEFORE_FAST
    assert steps[-1] == FAST_STEP
    now[0] += 2  # let go, press again: one at a time again
    assert stepper.step(1) == 1 and stepper.step(-1) == -1
    digits = DigitBuffer()
    assert [digits.type(d, 0, 99) for d in "47"] == [4, 47]
    assert digits.type("5", 0, 99) == 5  # 475 is out of range: a new number
    assert digits.erase(0, 99) == 0 and digits.erase(0, 99) is None
    assert DigitBuffer().type("9", 2, 5) == 5


def test_the_button_test_is_left_by_buttons(table: Table) -> None:
    table.button(MENU)  # on the home page Menu opens the settings
    assert table.screens.current == "settings"
    next_until(table, "Button test")
    table.button(CONFIRM)
    assert table.screens.current == "buttons"
    table.button(NEXT)
    table.button(CONFIRM)
    assert table.screens.buttons.counts[CONFIRM] == 1  # counted, not obeyed
    table.check("button-test-by-buttons")
    table.button(MENU)
    assert table.screens.current == "buttons"  # once is a press to test
    table.button(MENU)
    assert table.screens.current == "settings"
    table.button(MENU)
    assert table.screens.current == "home"


def test_the_focused_option_of_a_long_list_is_scrolled_into_view(table: Table) -> None:
    """The home page's list of games is longer than the screen: Next walks down it and
    every framed button is on screen when framed."""
    from test_ui import _box, _inside

    home = table.screens.home
    for _ in range(len(home.focus_targets())):
        button = framed(table)
        table.pump(2, table=False)
        scroll = button.parent.parent
        assert _inside(_box(button), _box(scroll), slack=6), button.text
        table.button(NEXT)


@pytest.mark.skipif("dicethrone-solo" not in games(), reason="the Dice Throne solo engine")
def test_a_whole_dice_throne_solo_game_with_the_four_buttons_only(table: Table) -> None:
    """Dice Throne solo (seeds/dicethrone solo rules: the game ends when the Boss's
    Health reaches 0) from boot to game over and home again: only Confirm, Next,
    Back and Menu are pressed; the dice are read by the camera."""
    rng = random.Random(11)
    assert table.screens.current == "home"
    next_until(table, "Dice Throne: fan-made solo")
    table.button(CONFIRM)
    assert table.screens.current == "new" and "Start" in framed(table).text
    table.button(CONFIRM)
    assert table.state.game_id == "dicethrone-solo"
    last: list[int] = []
    story_told = numbers = 0
    ended = False
    for _step in range(400):
        state = table.state
        prompt = state.prompt
        game = table.screens.game
        if game.story_open():
            story_told += 1
            table.button(CONFIRM)
            continue
        if prompt.kind is PromptKind.OVER:
            break
        before = state.inputs
        if prompt.kind is PromptKind.CHOOSE:
            ids = [o.id for o in prompt.options]
            # the first turn is ended at once (the Boss's turn is told as a story),
            # then undefendable damage until he falls
            wanted = ids[0]
            if "end" in ids:
                wanted = "end" if not ended else "undefendable"
                ended = True
            order = option_order(prompt)
            if "end" in ids:  # "End my turn" is shown first, and framed
                assert order[0] == ids.index("end") == table.state.focus
            for _ in range(order.index(ids.index(wanted)) - order.index(table.state.focus)):
                table.button(NEXT)
            assert table.state.focus == ids.index(wanted)
            table.button(CONFIRM)
        elif prompt.kind is PromptKind.NUMBER:
            low, high = prompt.number_range
            if "undefendable" in str(prompt.text).lower() or "damage" in str(prompt.text):
                target = min(high, 30)
                while table.state.focus < target:  # held: it speeds up
                    table.button(NEXT)
                while table.state.focus > target:
                    table.button(BACK)
                numbers += 1
            assert table.state.focus >= low
            table.button(CONFIRM)
        elif prompt.kind is PromptKind.CONFIRM:
            table.button(CONFIRM)
        else:
            kept = {i: last[i] for i in prompt.keep if i < len(last)}
            last = [kept.get(i, rng.randint(1, 6)) for i in range(prompt.dice.count)]
            table.feed_tray(last)
            table.button(CONFIRM)
        assert table.state.inputs == before + 1 or table.screens.game.story_open(), (
            table.screens.game.prompt_line.text
        )
    else:
        raise AssertionError("the game did not end")
    assert numbers >= 1 and story_told >= 1
    table.pump(4)
    over = table.check("dicethrone-game-over")
    assert over is not None
    texts = " ".join(getattr(w, "text", "") for w in table.screens.game.action.walk())
    assert "You won!" in texts and "Score:" in texts and "High scores: #1 of 1" in texts
    table.button(CONFIRM)
    table.pump(6)
    assert table.screens.current == "home"
    scores = table.runtime.submit(
        lambda: table.runtime.store.high_scores("dicethrone-solo", limit=5)
    ).result()
    assert len(scores) == 1


def test_a_game_never_answered_is_not_left_behind(table: Table) -> None:
    """Issue 15 item 4: `run --game` and screenshots left "0 moves" games in the
    list; the app now forgets a game it stops on before its first answer."""
    store = table.runtime.store
    table.runtime.new_game("test-duel", seed=1)
    table.pump()
    assert len(table.runtime.submit(store.saved_games).result()) == 1
    table.screens.forget_unbegun()
    table.pump()
    assert table.runtime.submit(store.saved_games).result() == []
    assert table.screens.current == "home"


def test_a_first_question_that_is_a_number_starts_at_its_least(isolated_data) -> None:
    """Mini Dungeon asks "how many heroes (2 to 4)?" first: the focus was 0."""
    from dicetable.device.controller import Controller
    from dicetable.device.session import TableSession
    from dicetable.device.store import Store

    controller = Controller(TableSession.start(Store.in_dir(isolated_data), "minidungeon", 1))
    low, _high = controller.prompt.number_range
    assert controller.focus == low == 2


def test_stopping_forgets_a_game_never_answered_once(shots, isolated_data) -> None:
    """`run --game X --screenshot DIR` stops the app: Kivy says on_stop twice, the
    second time after the table thread has stopped."""
    from kivy.core.window import Window

    from dicetable.device.store import Store
    from dicetable.ui.app import DiceTableApp
    from dicetable.ui.theme import DISPLAYS

    ui = Table(DISPLAYS["landscape"], shots)
    try:
        ui.runtime.new_game("test-duel", seed=1)
        ui.pump()
        assert len(Store.in_dir(isolated_data).saved_games()) == 1
        app = DiceTableApp(ui.runtime, ui.display)
        app.screens = ui.screens
        for listeners in (ui.runtime.listeners.table, ui.runtime.listeners.tray):
            listeners.clear()  # a stopped app draws nothing more (nor the next test)
        app.on_stop()
        app.on_stop()
    finally:
        Window.remove_widget(ui.screens)
    assert Store.in_dir(isolated_data).saved_games() == []


class Count(Game):
    """An instruction, then a number from 0 to 40 (a wide range: damage)."""

    id = "test-count"
    title = "Count"

    def __init__(self, seed: int, options: Any = None) -> None:
        super().__init__(seed, options)
        self.answers: list[Any] = []

    def prompt(self) -> Prompt:
        if not self.answers:
            return Prompt(PromptKind.CONFIRM, msg("Place the hero on the map"))
        if len(self.answers) == 1:
            return Prompt(PromptKind.NUMBER, msg("Damage dealt"), number_range=(0, 40))
        return Prompt(PromptKind.OVER, msg("Done"))

    def apply(self, answer: Input) -> list[Event]:
        expect(answer, self.prompt())
        self.answers.append(answer.number if answer.number is not None else "ok")
        return []

    def view(self) -> dict[str, Any]:
        return {}


@pytest.fixture
def gpio_table(table: Table, monkeypatch: pytest.MonkeyPatch):
    """The app's screens fed by gpiozero MockFactory pins, as ``dicetable run`` wires
    them (delivered on the UI thread; ``held_repeats`` says when a hold repeats)."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory
    from kivy.clock import Clock

    from dicetable.hardware.buttons import PhaseButtons, button_map

    monkeypatch.setitem(games(), Count.id, Count)
    saved, Device.pin_factory = Device.pin_factory, MockFactory()
    pins = {"confirm": 17, "back": 27, "next": 22, "menu": 23}
    settings = {name: f"GPIO{pin}" for name, pin in pins.items()}
    try:
        with PhaseButtons(
            button_map(settings),
            lambda action: Clock.schedule_once(lambda _dt: table.screens.act(action)),
            hold_time=0.3,
            debounce=0.02,
            repeats=table.screens.held_repeats,
            repeat_delay=0.05,
            repeat_first=0.04,
            repeat_fastest=0.02,
        ):
            yield table, {name: Device.pin_factory.pin(pin) for name, pin in pins.items()}
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


def hold(ui: Table, pin: Any, until: Callable[[], bool], most_s: float = 20.0) -> None:
    """Hold a GPIO button, the app running, until ``until()`` (or ``most_s``: long, as
    a loaded machine pumps the app's frames slowly; a hold that works ends early)."""
    pin.drive_low()
    pump_until(ui, until, most_s)
    pin.drive_high()
    for _ in range(10):
        ui.pump(1)
        time.sleep(0.01)


def test_a_held_gpio_plus_or_minus_speeds_up_and_back_still_undoes(gpio_table) -> None:
    """Issue 15 item 3: holding + or − speeds up, on the GPIO buttons as on the keys;
    a hold on back at the number's least (where it starts) still undoes."""
    ui, pins = gpio_table
    ui.runtime.new_game("test-count", seed=1)
    ui.pump()
    ui.button(CONFIRM)
    assert ui.state.prompt.kind is PromptKind.NUMBER and ui.state.focus == 0
    assert ui.screens.held_repeats(NEXT) and not ui.screens.held_repeats(BACK)
    seen: list[int] = []

    def watched(target: int) -> Callable[[], bool]:
        def reached() -> bool:
            if not seen or seen[-1] != ui.state.focus:
                seen.append(ui.state.focus)
            return ui.state.focus >= target

        return reached

    hold(ui, pins["next"], watched(30))  # one press, held
    steps = [b - a for a, b in itertools.pairwise([0, *seen]) if b != a]
    assert ui.state.focus >= 30, seen
    assert steps[0] == 1 and FAST_STEP in steps, steps  # one at a time, then by five
    assert ui.state.inputs == 1  # nothing answered, nothing undone
    high = ui.state.focus
    assert ui.screens.held_repeats(BACK)  # above the least, − repeats too
    hold(ui, pins["back"], lambda: ui.state.focus <= high - 2 * FAST_STEP)
    assert ui.state.focus <= high - 2 * FAST_STEP and ui.state.inputs == 1
    hold(ui, pins["back"], lambda: ui.state.focus == 0)  # down to the least
    assert ui.state.focus == 0 and ui.state.inputs == 1
    hold(ui, pins["back"], lambda: ui.state.inputs == 0)  # at the least: undo
    assert ui.state.inputs == 0 and ui.state.prompt.kind is PromptKind.CONFIRM
