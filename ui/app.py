"""The touchscreen app: every screen in one ScreenManager, fed by the runtime.

``TableScreens`` is the whole UI as one widget (tests put it in a window and touch
it); ``DiceTableApp`` is the Kivy App around it that ``dicetable run`` starts, which
also tells systemd when the home screen is up and keeps its watchdog fed from the
UI's own clock, so a frozen screen gets the app restarted.

Keys stand in for the hardware buttons (demo mode, a keyboard on the Pi): Enter or
Space confirms, Right/Down and Left/Up move the focus, Backspace undoes, Escape or M
opens the menu, digits type dice on the dice pad.
"""

from __future__ import annotations

import logging
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import NoTransition, ScreenManager

from dicetable.device.runtime import Runtime, TableState, TrayState
from dicetable.hardware.actions import TableAction
from dicetable.rules.core import PromptKind
from dicetable.ui import theme
from dicetable.ui.game_screen import GameScreen
from dicetable.ui.home import HomeScreen, NewGameScreen
from dicetable.ui.settings import (
    ButtonTestScreen,
    CalibrationScreen,
    SettingsScreen,
    TeachScreen,
)
from dicetable.ui.text import Words, msg
from dicetable.ui.theme import Display
from dicetable.ui.tray_area import TrayAreaScreen
from dicetable.ui.widgets import FilledBox, TapButton

log = logging.getLogger(__name__)

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
    def __init__(self, runtime: Runtime, display: Display, **kwargs: Any) -> None:
        super().__init__(transition=NoTransition(), **kwargs)
        self.runtime = runtime
        self.display = display
        self.words = Words(runtime.settings["ui.language"])
        self.menu: ModalView | None = None
        self.playing = False
        self._build()
        runtime.listeners.table.append(self.show_table)
        runtime.listeners.tray.append(self.show_tray)
        runtime.refresh()  # a game started before the screen was up

    def _build(self) -> None:
        d, rt, t = self.display, self.runtime, self.words
        self.home = HomeScreen(
            d, rt, t, on_new=self.new_game, on_settings=lambda: self.go("settings")
        )
        self.new = NewGameScreen(d, rt, t, on_back=lambda: self.go("home"))
        self.game = GameScreen(d, rt, t, on_action=self.act)
        self.settings = SettingsScreen(
            d, rt, t, on_back=self.back_from_settings, go=self.go, on_language=self.set_language
        )
        self.buttons = ButtonTestScreen(d, t, on_back=lambda: self.go("settings"))
        self.calibration = CalibrationScreen(d, rt, t, on_back=lambda: self.go("settings"))
        self.teach = TeachScreen(d, rt, t, on_back=lambda: self.go("settings"))
        self.tray_area = TrayAreaScreen(d, rt, t, on_back=lambda: self.go("settings"))
        for screen in (
            self.home,
            self.new,
            self.game,
            self.settings,
            self.buttons,
            self.calibration,
            self.teach,
            self.tray_area,
        ):
            self.add_widget(screen)
        self.current = "home"

    def go(self, name: str) -> None:
        self.current = name

    def new_game(self, game_id: str) -> None:
        self.new.choose_game(game_id)
        self.go("new")

    def back_from_settings(self) -> None:
        self.go("game" if self.playing else "home")

    def set_language(self, lang: str) -> None:
        """Language changes at once: save it, then rebuild every screen in it."""

        def rebuild(_future: Any) -> None:
            def job(_dt: float) -> None:
                current, state = self.current, self.game.state
                self.clear_widgets()
                self.words = Words(lang)
                self._build()
                if state is not None:
                    self.game.show_state(state)
                self.current = current

            Clock.schedule_once(job)

        self.runtime.save_setting("ui.language", lang).add_done_callback(rebuild)

    # from the runtime (already on the UI thread) -------------------------------------
    def show_table(self, state: TableState | None) -> None:
        if state is None:
            self.playing = False
            self.game.state = None
            self.home.refresh()
            self.go("home")
            return
        self.playing = True
        self.game.show_state(state)
        if self.current in ("home", "new"):
            self.go("game")

    def show_tray(self, tray: TrayState) -> None:
        if self.current == "game":
            self.game.show_tray(tray)
        elif self.current == "calibration":
            self.calibration.show_tray(tray)
        elif self.current == "teach":
            self.teach.show_tray(tray)
        elif self.current == "tray_area":
            self.tray_area.show_tray(tray)
        else:
            self.game.tray = tray

    # buttons, keys and on-screen twins ---------------------------------------------
    def act(self, action: TableAction) -> None:
        """A table action from any source, on the UI thread."""
        if self.current == "buttons":
            self.buttons.press(action)
            return
        if self.menu is not None:
            self._menu_action(action)
            return
        if action is TableAction.MENU:
            self.open_menu()
            return
        if self.current != "game":
            if action is TableAction.BACK and self.current in (
                "settings",
                "new",
                "calibration",
                "teach",
                "buttons",
            ):
                self.back_from_settings()
            return
        self.runtime.act(action)

    def open_menu(self) -> None:
        d, t = self.display, self.words
        view = ModalView(size_hint=(0.8, 0.8), auto_dismiss=True)
        box = FilledBox(orientation="vertical", fill=theme.SURFACE, padding=d.pad, spacing=d.pad)
        self.menu_items = [
            (msg("Back to the game"), self.close_menu),
            (msg("Home (the game stays saved)"), self._leave),
            (msg("Settings"), lambda: (self.close_menu(), self.go("settings"))),
        ]
        self.menu_focus = 0
        self.menu_buttons = []
        for label, job in self.menu_items:
            button = TapButton(d, t(label), job, size_hint_y=1)
            self.menu_buttons.append(button)
            box.add_widget(button)
        view.add_widget(box)
        view.bind(on_dismiss=lambda *_: setattr(self, "menu", None))
        self.menu = view
        self._show_menu_focus()
        view.open(animation=False)

    def close_menu(self) -> None:
        if self.menu is not None:
            self.menu.dismiss(animation=False)
            self.menu = None

    def _leave(self) -> None:
        self.close_menu()
        self.runtime.leave()

    def _menu_action(self, action: TableAction) -> None:
        """The menu works with the buttons too: NEXT/BACK move, CONFIRM picks."""
        if action in (TableAction.MENU, TableAction.UNDO):
            self.close_menu()
        elif action in (TableAction.NEXT, TableAction.BACK):
            step = 1 if action is TableAction.NEXT else -1
            self.menu_focus = (self.menu_focus + step) % len(self.menu_items)
            self._show_menu_focus()
        elif action is TableAction.CONFIRM:
            self.menu_items[self.menu_focus][1]()

    def _show_menu_focus(self) -> None:
        for index, button in enumerate(self.menu_buttons):
            button.outline = theme.TEXT if index == self.menu_focus else (0, 0, 0, 0)

    def key_down(self, key: str, text: str | None = None) -> bool:
        """A key from the keyboard; True when it meant something here."""
        state = self.game.state
        rolling = (
            self.current == "game" and state is not None and state.prompt.kind is PromptKind.ROLL
        )
        if rolling and text and len(text) == 1 and text in "123456":
            if not self.game.typing and self.runtime.tray.state not in ("no_camera", "lost"):
                self.game.toggle_typing()
            self.game.type_die(text)
            return True
        action = KEYS.get(key)
        if action is None:
            return False
        if (
            action is TableAction.CONFIRM
            and self.current == "game"
            and self.game.typed
            and self.game.state is not None
            and not self.game.state.dice
        ):
            self.game.use_typed()
            return True
        self.act(action)
        return True


class DiceTableApp(App):
    title = "dicetable"

    def __init__(self, runtime: Runtime, display: Display, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.runtime = runtime
        self.display = display
        self.screens: TableScreens | None = None

    def build(self) -> TableScreens:
        Window.clearcolor = theme.BACKGROUND
        self.screens = TableScreens(self.runtime, self.display)
        Window.bind(on_key_down=self._on_key)
        return self.screens

    def on_start(self) -> None:
        from dicetable.hardware import notify

        # on the next frame: the home screen has then been drawn once
        Clock.schedule_once(lambda _dt: notify.ready("Home screen shown"), 0)
        interval = notify.watchdog_interval()
        if interval:
            Clock.schedule_interval(lambda _dt: notify.watchdog(), interval)

    def on_stop(self) -> None:
        from dicetable.hardware import notify

        notify.stopping("Stopping")
        self.runtime.stop()

    def _on_key(self, _window: Any, code: int, _scan: int, text: str | None, _mods: Any) -> bool:
        return self.screens.key_down(_key_name(code), text) if self.screens else False


def _key_name(code: int) -> str:
    from kivy.core.window import Keyboard

    return next((name for name, value in Keyboard.keycodes.items() if value == code), "")
