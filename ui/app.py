"""The touchscreen app: every screen in one ScreenManager, fed by the runtime.

``TableScreens`` is the whole UI as one widget (tests put it in a window and touch
it); ``DiceTableApp`` is the Kivy App around it that ``dicetable run`` starts, which
also tells systemd when the home screen is up and keeps its watchdog fed from the
UI's own clock while the table thread answers too (``device.liveness``), so a frozen
screen or a stuck table thread gets the app restarted.

Keys stand in for the hardware buttons (demo mode, a keyboard on the Pi): Enter or
Space confirms, Right/Down and Left/Up move the focus, Backspace undoes, Escape or M
opens the menu, digits type dice on the dice pad and numbers on the number entry.

The four buttons play everything: on every page but the game NEXT and BACK move a
focus frame over the page's buttons, CONFIRM presses it and MENU (or a hold on
BACK) goes back a page; on the home page MENU opens the settings.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from dicetable.device.liveness import Watchdog
from dicetable.device.table.runtime import Runtime
from dicetable.device.table.snapshots import GameSnapshot, Notice, TraySnapshot
from dicetable.hardware.actions import TableAction
from dicetable.rules.core import PromptKind
from dicetable.ui import theme
from dicetable.ui.focus import FocusRing, buttons_of, option_order
from dicetable.ui.game_menu import GameMenu
from dicetable.ui.home import HomeScreen, NewGameScreen
from dicetable.ui.number_entry import DigitBuffer, Stepper, clamp
from dicetable.ui.text import Words, msg
from dicetable.ui.theme import Display

log = logging.getLogger(__name__)
#: how long stopping waits for a saved game that was never begun to be deleted
STOP_WAIT_S = 5.0
#: seconds after a page is shown that its focus is framed (its lists are laid out by then)
FOCUS_AFTER = 0.05

KEYS = {
    "enter": TableAction.CONFIRM,
    "numpadenter": TableAction.CONFIRM,
    "spacebar": TableAction.CONFIRM,
    "right": TableAction.NEXT,
    "down": TableAction.NEXT,
    "left": TableAction.BACK,
    "up": TableAction.BACK,
    "backspace": TableAction.UNDO,
    "escape": TableAction.MENU,
    "m": TableAction.MENU,
}


class TableScreens(ScreenManager):
    """Every screen; only the home screen is built at once. The others are built
    the first time they are needed, or in the frames after the home screen is up
    (``warm_up``), so a boot pays for the home screen alone."""

    def __init__(self, runtime: Runtime, display: Display, **kwargs: Any) -> None:
        super().__init__(transition=NoTransition(), **kwargs)
        self.runtime = runtime
        self.display = display
        self.words = Words(runtime.settings["ui.language"])
        self.menu: GameMenu | None = None
        self.playing = False
        self.built: dict[str, Screen] = {}
        self.rings: dict[str, FocusRing] = {}  # the focus on each page but the game
        self.stepper = Stepper()
        self.digits = DigitBuffer()
        self._build()
        runtime.listeners.table.append(self.show_table)
        runtime.listeners.tray.append(self.show_tray)
        runtime.listeners.notices.append(self.show_notices)
        runtime.refresh()  # a game started before the screen was up

    def _build(self) -> None:
        self.built = {}
        self.rings = {}
        self.go("home")
        self.home.show_notices(self.runtime.notices())

    def _make(self, name: str) -> Screen:
        d, rt, t = self.display, self.runtime, self.words
        if name == "home":
            home = HomeScreen(
                d, rt, t, on_new=self.new_game, on_settings=lambda: self.go("settings")
            )
            home.on_teach = lambda: self.go("teach")
            return home
        if name == "new":
            return NewGameScreen(d, rt, t, on_back=lambda: self.go("home"))
        if name == "game":
            from dicetable.ui.game_screen import GameScreen

            screen = GameScreen(d, rt, t, on_action=self.act)
            screen.on_teach = lambda: self.go("teach")
            screen.show_notices(rt.notices())
            return screen
        from dicetable.ui import settings

        back = lambda: self.go("settings")  # noqa: E731
        if name == "settings":
            return settings.SettingsScreen(
                d, rt, t, on_back=self.back_from_settings, go=self.go, on_language=self.set_language
            )
        if name == "buttons":
            return settings.ButtonTestScreen(d, t, on_back=back)
        if name == "calibration":
            return settings.CalibrationScreen(d, rt, t, on_back=back)
        if name == "teach":
            from dicetable.ui.teach_page import TeachScreen

            return TeachScreen(d, rt, t, on_back=back)
        if name == "tray_area":
            from dicetable.ui.tray_area import TrayAreaScreen

            return TrayAreaScreen(d, rt, t, on_back=back)
        if name == "fairness":
            from dicetable.ui.fairness_page import FairnessScreen

            return FairnessScreen(d, rt, t, on_back=back)
        if name == "card_editor":
            from dicetable.ui.card_editor import CardEditorScreen

            return CardEditorScreen(d, rt, t, on_back=back)
        raise KeyError(f"no screen called {name!r}")

    def screen(self, name: str) -> Screen:
        """The screen called ``name``, built (and added) the first time it is asked."""
        if name not in self.built:
            screen = self._make(name)
            self.built[name] = screen
            self.add_widget(screen)
        return self.built[name]

    home = property(lambda self: self.screen("home"))
    new = property(lambda self: self.screen("new"))
    game = property(lambda self: self.screen("game"))
    settings = property(lambda self: self.screen("settings"))
    buttons = property(lambda self: self.screen("buttons"))
    calibration = property(lambda self: self.screen("calibration"))
    teach = property(lambda self: self.screen("teach"))
    tray_area = property(lambda self: self.screen("tray_area"))

    def shown(self) -> bool:
        """Whether what a player needs at once is on screen: the home screen with its
        saved games and high scores filled in (or the game asked for with --game)."""
        return self.current != "home" or self.home.filled

    def warm_up(self, names: tuple[str, ...] = ("game", "new")) -> None:
        """Build the screens a player goes to first, one per frame, once the home
        screen is up: a tap on a game then changes screens without a wait."""
        pending = [n for n in names if n not in self.built]
        if pending:
            self.screen(pending[0])
            Clock.schedule_once(lambda _dt: self.warm_up(tuple(pending[1:])), 0.05)

    def go(self, name: str) -> None:
        self.screen(name)
        self.current = name
        self._frame_focus()

    def ring(self, name: str) -> FocusRing:
        """The focus on page ``name``: its own order when it has one
        (``focus_targets``), else its buttons in reading order."""
        if name not in self.rings:
            screen = self.screen(name)
            targets = getattr(screen, "focus_targets", None) or (lambda: buttons_of(screen))
            self.rings[name] = FocusRing(targets)
        return self.rings[name]

    def _frame_focus(self) -> None:
        """Frame the focus once the page is laid out (lists fill in a frame later)."""

        def frame(_dt: float) -> None:
            if self.current != "game":
                self.ring(self.current).show()

        Clock.schedule_once(frame, FOCUS_AFTER)

    def new_game(self, game_id: str) -> None:
        self.new.choose_game(game_id)
        self.rings.pop("new", None)  # the focus starts on Start
        self.go("new")

    def back_from_settings(self) -> None:
        self.go("game" if self.playing else "home")

    def set_language(self, lang: str) -> None:
        """Language changes at once: save it, then rebuild every screen in it."""

        def rebuild(_future: Any) -> None:
            def job(_dt: float) -> None:
                current = self.current
                game: Any = self.built.get("game")
                state = game.state if game is not None else None
                self.clear_widgets()
                self.words = Words(lang)
                self._build()
                if state is not None:
                    # its log and latest events, told again in the new words
                    told = dataclasses.replace(state, history=tuple(game.history), events=())
                    self.game.show_state(told)
                self.go(current)

            Clock.schedule_once(job)

        self.runtime.save_setting("ui.language", lang).add_done_callback(rebuild)

    # from the runtime (already on the UI thread) -------------------------------------
    def show_table(self, state: GameSnapshot | None) -> None:
        if state is None:
            self.playing = False
            if "game" in self.built:
                self.game.state = None
            self.home.refresh()
            self.go("home")
            return
        self.playing = True
        self.game.show_state(state)
        if self.current in ("home", "new"):
            self.go("game")

    def show_tray(self, tray: TraySnapshot) -> None:
        if self.current == "game":
            self.game.show_tray(tray)
        elif self.current == "calibration":
            self.calibration.show_tray(tray)
        elif self.current == "teach":
            self.teach.show_tray(tray)
        elif self.current == "tray_area":
            self.tray_area.show_tray(tray)
        elif "game" in self.built:  # else it starts with runtime.tray
            self.game.tray = tray
        if self.current == "home":
            self.home.show_tray(tray)

    def show_notices(self, notices: tuple[Notice, ...]) -> None:
        """What is wrong at the table (no camera, a full SD card...), on the home and
        game screens; systemd's status line says the first one too."""
        from dicetable.hardware import notify

        self.home.show_notices(notices)
        if "game" in self.built:
            self.game.show_notices(notices)
        english = Words("en")
        notify.status(english(notices[0].text) if notices else "Running")

    # buttons, keys and on-screen twins ---------------------------------------------
    def act(self, action: TableAction) -> None:
        """A table action from any source, on the UI thread."""
        if self.current == "buttons":
            if self.buttons.press(action):  # Menu twice in a row: the way out
                self.back_from_page()
            return
        if self.menu is not None:
            self.menu.act(action)
            return
        if self.current == "game" and self.game.log_open():
            self.game.log_action(action)
            return
        if self.current != "game":
            self._page_action(action)
            return
        if action is TableAction.MENU:
            self.open_menu()
            return
        state = self.game.state
        if state is not None and self.game.story_open():
            self.game.story_action(action)
            return
        if state is not None and state.prompt.kind is PromptKind.OVER:
            if action is TableAction.CONFIRM:  # the game-over page: home
                self.game.go_home()
            return
        if state is not None and state.prompt.kind is PromptKind.ROLL:
            if action is TableAction.CONFIRM and self.game.typed:  # typed dice win
                self.game.use_typed()
                return
            if action is TableAction.CONFIRM and self.game.wrong_count() is not None:
                self.game.show_wrong_count()  # never the wrong number of dice
                return
            if action is TableAction.CONFIRM:
                self.game.remember_roll()
        if (
            state is not None
            and state.prompt.kind is PromptKind.CHOOSE
            and state.prompt.options
            and action in (TableAction.NEXT, TableAction.BACK)
        ):  # the focus moves down the options as they are shown
            order = option_order(state.prompt)
            at = order.index(state.focus) if state.focus in order else 0
            step = 1 if action is TableAction.NEXT else -1
            self.runtime.focus(order[(at + step) % len(order)])
            return
        if (
            state is not None
            and state.prompt.kind is PromptKind.NUMBER
            and state.prompt.number_range
            and action in (TableAction.NEXT, TableAction.BACK)
        ):
            step = self.stepper.step(1 if action is TableAction.NEXT else -1)
            self.digits.clear()
            self.runtime.focus(clamp(self.game.number + step, state.prompt.number_range))
            return
        self.runtime.act(action)

    def held_repeats(self, action: TableAction) -> bool:
        """Whether a held hardware button repeats now (``hardware.buttons``; asked on
        its timer thread, so it only reads): + and − of the number entry, − only above
        the number's least, where a hold on back undoes as everywhere else."""
        state = self.game.state if "game" in self.built and self.current == "game" else None
        if state is None or self.menu is not None or state.prompt.number_range is None:
            return False
        if state.prompt.kind is not PromptKind.NUMBER or self.game.story_open():
            return False
        low = state.prompt.number_range[0]
        return action is TableAction.NEXT or (action is TableAction.BACK and self.game.number > low)

    def _page_action(self, action: TableAction) -> None:
        """NEXT/BACK move the frame, CONFIRM presses it, MENU (or a hold on BACK)
        goes back a page; MENU on the home page opens the settings."""
        ring = self.ring(self.current)
        if action in (TableAction.NEXT, TableAction.BACK):
            ring.move(1 if action is TableAction.NEXT else -1)
        elif action is TableAction.CONFIRM:
            ring.press()
            self._frame_focus()  # the page may have been drawn anew
        elif self.current == "home":
            if action is TableAction.MENU:
                self.go("settings")
        else:
            self.back_from_page()

    def back_from_page(self) -> None:
        if self.current in ("settings", "new"):
            self.back_from_settings()
        else:
            self.go("settings")

    def forget_unbegun(self) -> None:
        """The app stops on a game that was never answered (`run --game`, a
        screenshot): nothing to resume, so no "0 moves" game is left in the list."""
        state = self.game.state if "game" in self.built else None
        if state is not None and state.inputs == 0:
            self.runtime.leave()
            self.runtime.delete_game(state.saved_id).result(timeout=STOP_WAIT_S)

    def open_menu(self) -> None:
        self.menu = GameMenu(
            self.display,
            self.words,
            [
                (msg("Back to the game"), self.close_menu),
                (msg("Home (the game stays saved)"), self._leave),
                (msg("Settings"), self._menu_settings),
                (msg("Game log"), self._menu_log),
            ],
            on_closed=lambda: setattr(self, "menu", None),
        )

    def _menu_settings(self) -> None:
        self.close_menu()
        self.go("settings")

    def _menu_log(self) -> None:
        self.close_menu()
        self.game.open_log()

    def close_menu(self) -> None:
        if self.menu is not None:
            self.menu.close()
            self.menu = None

    def _leave(self) -> None:
        self.close_menu()
        self.game.go_home()

    def key_down(self, key: str, text: str | None = None) -> bool:
        """A key from the keyboard; True when it meant something here."""
        state = self.game.state if "game" in self.built and self.current == "game" else None
        kind = None if state is None else state.prompt.kind
        typed = text or ""
        digit = len(typed) == 1 and typed in "0123456789"
        if kind is PromptKind.ROLL and digit and typed in "123456":
            if not self.game.typing and self.runtime.tray.state not in ("no_camera", "lost"):
                self.game.toggle_typing()
            self.game.type_die(typed)
            return True
        if kind is PromptKind.NUMBER and state is not None and state.prompt.number_range:
            low, high = state.prompt.number_range
            if digit:
                self.runtime.focus(self.digits.type(typed, low, high))
                return True
            if key == "backspace" and (value := self.digits.erase(low, high)) is not None:
                self.runtime.focus(value)
                return True
        action = KEYS.get(key)
        if action is None:
            return False
        if action is TableAction.CONFIRM:
            self.digits.clear()
        self.act(action)
        return True


class DiceTableApp(App):
    """``on_shown`` runs once the home screen is on the display (after READY=1):
    ``dicetable run`` starts the camera, reader, ring and buttons there."""

    title = "dicetable"

    def __init__(
        self,
        runtime: Runtime,
        display: Display,
        on_shown: Callable[[], Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.runtime = runtime
        self.display = display
        self.on_shown = on_shown
        self.screens: TableScreens | None = None
        self.stopped = False

    def build(self) -> TableScreens:
        Window.clearcolor = theme.BACKGROUND
        self.screens = TableScreens(self.runtime, self.display)
        Window.bind(on_key_down=self._on_key)
        return self.screens

    def on_start(self) -> None:
        Window.bind(on_flip=self._first_flip)
        Window.canvas.ask_update()

    def _first_flip(self, *_: Any) -> None:
        """The first frame that shows the home screen filled in: READY=1 goes on the
        next tick, after this frame is swapped onto the display."""
        if self.screens is None or not self.screens.shown():
            Window.canvas.ask_update()  # look again at the next frame
            return
        Window.unbind(on_flip=self._first_flip)
        Clock.schedule_once(self._shown, 0)

    def _shown(self, _dt: float) -> None:
        from dicetable.hardware import notify

        notify.ready("Home screen shown")
        if self.screens is not None and self.runtime.notices():  # and `systemctl status`
            self.screens.show_notices(self.runtime.notices())
        # systemd's watchdog runs from READY=1 on (TimeoutStartSec= covers the start)
        interval = notify.watchdog_interval()
        if interval:  # pinged while the UI loop and the table thread both answer
            watchdog = Watchdog(self.runtime.submit)
            Clock.schedule_interval(lambda _dt: watchdog.beat(), interval)
        if self.on_shown is not None:
            self.on_shown()
        if self.screens is not None:
            Clock.schedule_once(self._warm_up, 0.1)

    def _warm_up(self, _dt: float) -> None:
        if self.screens is not None:
            self.screens.warm_up()

    def on_stop(self) -> None:
        from dicetable.hardware import notify

        notify.stopping("Stopping")
        if self.screens is not None and not self.stopped:  # Kivy may say it twice
            self.screens.forget_unbegun()
        self.stopped = True
        self.runtime.stop()

    def _on_key(self, _window: Any, code: int, _scan: int, text: str | None, _mods: Any) -> bool:
        return self.screens.key_down(_key_name(code), text) if self.screens else False


def _key_name(code: int) -> str:
    from kivy.core.window import Keyboard

    return next((name for name, value in Keyboard.keycodes.items() if value == code), "")
