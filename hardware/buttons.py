"""Phase buttons on GPIO pins (gpiozero): press and hold become ``TableAction``s.

Each button is wired from a GPIO pin to ground and uses the Pi's internal pull-up.
The map of pins to actions comes from the ``[buttons]`` settings; a hold on *back*
undoes the last answer, so it fires *back* only when released before ``hold_time``.

**Held + and −.** Where the app says a held button repeats (``repeats(action)``,
asked once the button has been down ``repeat_delay``: the number entry's *next* and
*back*), its press is sent again and again, faster and faster, until it is let go,
like a held key; that press's hold then never undoes. The app says no for *back* at
the number's least, so a hold on *back* undoes there as everywhere else.

**Debounce is done here**, not by gpiozero's ``bounce_time``, whose meaning differs
per backend (RPi.GPIO drops edges after the first; lgpio delays every edge by the
debounce time; MockPin ignores it). A press is taken on its first edge, so it costs
no latency; a release only counts once the pin has stayed released for ``debounce``
seconds, so contact chatter, during a press or at its end, never makes two presses.

**Threads.** gpiozero calls back on its own threads (lgpio's callback thread, the
caller of ``drive_low`` for mock pins) and the hold and release timers run on timer
threads. Actions leave only through the caller's ``deliver(action)``, which must be
thread-safe and must not block: the Kivy app passes one that schedules the action on
its own thread (``Clock.schedule_once``) or hands it to the table thread
(``Runtime.act``); ``ActionQueue`` serves apps without an event loop and tests.
Nothing here ever touches a widget.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from dicetable.hardware import board
from dicetable.hardware.actions import TableAction

log = logging.getLogger(__name__)

Deliver = Callable[[TableAction], None]
#: whether a button held now repeats its press (asked on a timer thread: it must
#: only read, and quickly)
Repeats = Callable[[TableAction], bool]

#: the presses a held button may repeat (the number entry's − and +)
REPEATABLE = (TableAction.BACK, TableAction.NEXT)
#: a held button starts repeating after this long (a tap never repeats) ...
REPEAT_DELAY_S = 0.4
#: ... first every this many seconds, each gap this much shorter than the last ...
REPEAT_FIRST_S = 0.25
REPEAT_SPEEDUP = 0.8
#: ... down to this gap
REPEAT_FASTEST_S = 0.1


def never(_action: TableAction) -> bool:
    return False


@dataclass(frozen=True)
class ButtonSpec:
    """One button: its settings name, its pin (``"GPIO17"``, ``"BOARD11"`` or a BCM
    number), what a press does and what a hold does (None: a hold is a press)."""

    name: str
    pin: str
    press: TableAction
    hold: TableAction | None = None


#: settings key -> (press, hold); the pins themselves come from the settings
ROLES: dict[str, tuple[TableAction, TableAction | None]] = {
    "confirm": (TableAction.CONFIRM, None),
    "back": (TableAction.BACK, TableAction.UNDO),
    "next": (TableAction.NEXT, None),
    "menu": (TableAction.MENU, None),
}


class ButtonError(RuntimeError):
    """A pin could not be claimed; the message names the pin, its button and why."""


def button_map(settings: Mapping[str, Any]) -> list[ButtonSpec]:
    """The wired buttons from a ``[buttons]`` section (an empty pin: not wired)."""
    specs: list[ButtonSpec] = []
    for name, (press, hold) in ROLES.items():
        pin = _pin_name(settings[name])
        if not pin:
            continue
        for other in specs:
            if other.pin == pin:
                raise ButtonError(
                    f"buttons.{name} = {settings.get(name)!r}: {pin} is already "
                    f"buttons.{other.name}'s pin"
                )
        specs.append(ButtonSpec(name, pin, press, hold))
    return specs


def _pin_name(value: Any) -> str:
    """``17``, ``"17"``, ``"bcm17"`` and ``"GPIO17"`` name one pin: ``"GPIO17"``."""
    text = str(value).strip().upper()
    if text.isdigit():
        return f"GPIO{int(text)}"
    if text.startswith("BCM") and text[3:].isdigit():
        return f"GPIO{int(text[3:])}"
    return text


class _Debounced:
    """One button's press / hold / release logic, fed by gpiozero's edges."""

    def __init__(self, spec: ButtonSpec, device: Any, owner: PhaseButtons) -> None:
        self.spec = spec
        self.device = device
        self.owner = owner
        self.pressed = False
        self.held = False  # the hold (or the repeats) took this press
        self.closed = False
        self.lock = threading.Lock()
        self.release_timer: threading.Timer | None = None
        self.hold_timer: threading.Timer | None = None
        self.repeat_timer: threading.Timer | None = None
        self.gap = 0.0  # seconds to the next repeat

    def on_press(self) -> None:
        action = None
        with self.lock:
            if self.release_timer is not None:  # the pin came back: that was chatter
                self.release_timer.cancel()
                self.release_timer = None
            if self.pressed:
                return
            self.pressed, self.held = True, False
            if self.spec.hold is None:
                action = self.spec.press
            else:
                self.hold_timer = self._timer(self.owner.hold_time, self._on_hold)
            if self.spec.press in REPEATABLE:
                self.gap = self.owner.repeat_first
                self.repeat_timer = self._timer(self.owner.repeat_delay, self._on_repeat)
        if action is not None:
            self.owner.deliver(action)

    def on_release(self) -> None:
        with self.lock:
            if not self.pressed:
                return
            if self.release_timer is not None:
                self.release_timer.cancel()
            self.release_timer = self._timer(self.owner.debounce, self._confirm_release)

    def _confirm_release(self) -> None:
        with self.lock:
            self.release_timer = None
            if self.closed or not self.pressed or self.device.is_pressed:
                return
            for timer in (self.hold_timer, self.repeat_timer):
                if timer is not None:
                    timer.cancel()
            self.hold_timer = self.repeat_timer = None
            if self.spec.hold is not None and not self.held:
                # delivered before the button counts as up, so that a press of another
                # button that follows can never overtake it
                self.owner.deliver(self.spec.press)
            self.pressed = False

    def _on_hold(self) -> None:
        with self.lock:
            self.hold_timer = None
            if self.closed or not self.pressed or self.held:
                return
            self.held = True
        assert self.spec.hold is not None
        self.owner.deliver(self.spec.hold)

    def _on_repeat(self) -> None:
        """Held past ``repeat_delay``: the press again, if the app wants repeats now,
        and again after a gap a little shorter each time."""
        with self.lock:
            self.repeat_timer = None
            if self.closed or not self.pressed:
                return
            if not self.held:  # the first repeat: the hold may not want one
                if not self.owner.repeats(self.spec.press):
                    return
                self.held = True  # the press is the repeats': no undo, no release
            self.repeat_timer = self._timer(self.gap, self._on_repeat)
            self.gap = max(self.owner.repeat_fastest, self.gap * REPEAT_SPEEDUP)
        self.owner.deliver(self.spec.press)

    def _timer(self, seconds: float, then: Callable[[], None]) -> threading.Timer:
        timer = threading.Timer(seconds, then)
        timer.name = f"button-{self.spec.name}"
        timer.daemon = True
        timer.start()
        return timer

    def close(self) -> None:
        with self.lock:
            self.closed = True  # a timer already running sees this and does nothing
            for timer in (self.release_timer, self.hold_timer, self.repeat_timer):
                if timer is not None:
                    timer.cancel()
            self.release_timer = self.hold_timer = self.repeat_timer = None
        self.device.close()


class PhaseButtons:
    """The table's buttons. ``open()`` claims every pin or none (``ButtonError``)."""

    def __init__(
        self,
        specs: Iterable[ButtonSpec],
        deliver: Deliver,
        *,
        hold_time: float,
        debounce: float,
        pull_up: bool = True,
        pin_factory: Any = None,
        repeats: Repeats = never,
        repeat_delay: float = REPEAT_DELAY_S,
        repeat_first: float = REPEAT_FIRST_S,
        repeat_fastest: float = REPEAT_FASTEST_S,
    ) -> None:
        self.specs = list(specs)
        self.deliver = deliver
        self.hold_time = hold_time
        self.debounce = debounce
        self.repeats = repeats
        self.repeat_delay = repeat_delay
        self.repeat_first = repeat_first
        self.repeat_fastest = repeat_fastest
        self.pull_up = pull_up
        self.pin_factory = pin_factory
        self.buttons: list[_Debounced] = []

    def open(self) -> PhaseButtons:
        from gpiozero import Button

        if self.buttons:  # already open
            return self
        try:
            with quiet_fallbacks():
                self._claim(Button)
        except ButtonError:
            self.close()
            raise
        return self

    def _claim(self, button_class: Any) -> None:
        for spec in self.specs:
            try:
                device = button_class(
                    spec.pin,
                    pull_up=self.pull_up,
                    bounce_time=None,  # debounced here, the same on every backend
                    pin_factory=self.pin_factory,
                )
            except Exception as error:  # gpiozero, lgpio and RPi.GPIO raise their own
                raise ButtonError(
                    f"{spec.pin} ({spec.name} button) cannot be claimed: {_why(error)}"
                ) from error
            button = _Debounced(spec, device, self)
            device.when_pressed = button.on_press
            device.when_released = button.on_release
            self.buttons.append(button)

    def close(self) -> None:
        for button in self.buttons:
            button.close()
        self.buttons = []

    def __enter__(self) -> PhaseButtons:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def legend(self) -> list[tuple[str, str, TableAction, TableAction | None]]:
        """(button name, pin, press, hold) for the help screen and the README."""
        return [(s.name, s.pin, s.press, s.hold) for s in self.specs]


@contextlib.contextmanager
def quiet_fallbacks() -> Iterator[None]:
    """gpiozero warns once per pin library it cannot load before it gives up; those
    go to the debug log, so a machine without GPIO gets one clear message, not five."""
    from gpiozero.exc import PinFactoryFallback

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PinFactoryFallback)
        yield
    for warning in caught:
        if issubclass(warning.category, PinFactoryFallback):
            log.debug("gpiozero: %s", warning.message)
        else:
            warnings.warn_explicit(
                warning.message, warning.category, warning.filename, warning.lineno
            )


def _why(error: Exception) -> str:
    text = f"{type(error).__name__}: {error}"
    if type(error).__name__ == "BadPinFactory":
        return f"{text} (not a Raspberry Pi, or no GPIO library: install python3-lgpio)"
    if type(error).__name__ == "GPIOPinInUse" or "busy" in str(error).lower():
        return f"{text} (another program or overlay uses it)"
    return text


def on_a_pi() -> bool:
    """A Raspberry Pi (its device tree says so), or a pin factory forced by the
    environment (``GPIOZERO_PIN_FACTORY=mock`` in tests and CI)."""
    return bool(os.environ.get("GPIOZERO_PIN_FACTORY")) or board.is_raspberry_pi()


def open_buttons(
    settings: Mapping[str, Any] | Any, deliver: Deliver, repeats: Repeats = never
) -> PhaseButtons | None:
    """The buttons the ``[buttons]`` settings ask for, or None: ``keyboard`` and
    ``none`` use none; ``auto`` uses GPIO on a Pi only. A pin that cannot be claimed
    is logged once, clearly, and the app goes on without buttons. ``repeats`` says
    when a held button repeats (the number entry's + and −)."""
    section = settings.section("buttons") if hasattr(settings, "section") else dict(settings)
    source = str(section["source"])  # every key: the settings come over their defaults
    if source in ("none", "keyboard"):
        return None
    if source == "auto" and not on_a_pi():
        log.info("not a Raspberry Pi: no GPIO buttons; the keyboard stands in")
        return None
    try:
        buttons = PhaseButtons(
            button_map(section),
            deliver,
            hold_time=float(section["hold_time"]),
            debounce=float(section["debounce"]),
            repeats=repeats,
        ).open()
    except ButtonError as error:
        log.warning("buttons off: %s; the game goes on with the screen and keys", error)
        return None
    wired = ", ".join(f"{s.name}={s.pin}" for s in buttons.specs)
    log.info("buttons on %s (hold back %.1f s to undo)", wired, buttons.hold_time)
    return buttons


class ActionQueue:
    """A thread-safe ``deliver`` for apps without an event loop (the terminal, tests,
    the benchmark): actions wait here until the owner's thread takes them."""

    def __init__(self) -> None:
        self.queue: queue.Queue[tuple[TableAction, float]] = queue.Queue()

    def __call__(self, action: TableAction) -> None:
        self.queue.put((action, time.perf_counter()))

    def get(self, timeout: float = 1.0) -> TableAction | None:
        try:
            return self.queue.get(timeout=timeout)[0]
        except queue.Empty:
            return None

    def drain(self) -> list[TableAction]:
        actions = []
        while True:
            try:
                actions.append(self.queue.get_nowait()[0])
            except queue.Empty:
                return actions
