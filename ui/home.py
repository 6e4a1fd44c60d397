"""The home screen (new game, resume, high scores, settings) and the new-game
screen, where a game's difficulty and house rules (its options) are chosen."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from dicetable.device.table.runtime import Runtime
from dicetable.device.table.snapshots import Notice, TraySnapshot
from dicetable.rules.registry import games
from dicetable.ui import ring_view, saves, theme
from dicetable.ui.text import Words, escape, msg
from dicetable.ui.theme import Display
from dicetable.ui.widgets import (
    FitLabel,
    NoticeBox,
    TapButton,
    WrapLabel,
    notice_text,
    page_root,
    scrolling_list,
    title_row,
)

#: the header's camera line for each tray state (``TraySnapshot.state``)
CAMERA_LINES = {
    "starting": (msg("Starting camera…"), theme.TABLE),
    "no_camera": (msg("No camera: dice are typed"), theme.FAILURE),
    "lost": (msg("Camera lost: dice are typed"), theme.FAILURE),
    "empty": (msg("Camera ready"), theme.SUCCESS),
}


def _column(display: Display, title: str, colour: theme.RGBA) -> tuple[BoxLayout, GridLayout]:
    """A titled, scrolling column of buttons or lines."""
    box = BoxLayout(orientation="vertical", spacing=display.pad)
    box.add_widget(
        FitLabel(
            text=f"[b]{title}[/b]",
            color=colour,
            max_font=display.primary,
            min_font=display.secondary,
            size_hint_y=None,
            height=display.touch,
        )
    )
    scroll, grid = scrolling_list(display)
    box.add_widget(scroll)
    return box, grid


class HomeScreen(Screen):
    def __init__(
        self,
        display: Display,
        runtime: Runtime,
        words: Words,
        on_new: Callable[[str], Any],
        on_settings: Callable[[], Any],
        **kwargs: Any,
    ) -> None:
        super().__init__(name="home", **kwargs)
        self.display = display
        self.runtime = runtime
        self.t = words
        d = display
        root = page_root(d)
        header = title_row(d, "dicetable", theme.TABLE, max_font=d.primary + 6)
        # how the camera is (starting, ready, missing): the dice wait on it
        self.camera_line = FitLabel(
            max_font=d.secondary, min_font=d.secondary, halign="right", color=theme.MUTED
        )
        header.add_widget(self.camera_line)
        if ring_view.wanted(runtime.settings):  # the demo's ring, drawn
            header.add_widget(
                ring_view.RingView(lambda: runtime.ring, size_hint_x=None, width=d.touch)
            )
        self.settings_button = TapButton(d, self.t(msg("Settings")), on_settings, size_hint_x=0.45)
        header.add_widget(self.settings_button)
        root.add_widget(header)
        self.root_box = root
        self.notice_box = NoticeBox(d)  # added below the header while there is a notice
        self.on_teach: Callable[[], Any] = on_settings  # the app sets the teach page
        self.filled = False  # saved games and scores shown (READY=1 waits for them)
        self._saves_shown = self._scores_shown = False
        self.show_tray(runtime.tray)
        columns = BoxLayout(orientation="vertical" if d.portrait else "horizontal", spacing=d.pad)
        new_box, self.new_list = _column(d, self.t(msg("New game")), theme.PLAYER)
        resume_box, self.resume_list = _column(d, self.t(msg("Resume")), theme.SUCCESS)
        scores_box, self.scores_list = _column(d, self.t(msg("High scores")), theme.BOSS)
        for box, share in ((new_box, 0.42), (resume_box, 0.3), (scores_box, 0.28)):
            if d.portrait:
                box.size_hint_y = share
            else:  # the games' titles are the longest lines (Spanish ones above all)
                box.size_hint_x = share
            columns.add_widget(box)
        root.add_widget(columns)
        self.add_widget(root)
        for game_id, game in games().items():
            self.new_list.add_widget(
                TapButton(d, self.t.markup(game.title), partial(on_new, game_id), grow=True)
            )

    def focus_targets(self) -> list[TapButton]:
        """Buttons in the order the table most often wants them: a game to resume,
        a new game, then the settings."""
        lists = (self.resume_list, self.new_list)
        found = [w for grid in lists for w in reversed(grid.children) if isinstance(w, TapButton)]
        return [*found, self.settings_button]

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()
        self.show_tray(self.runtime.tray)  # it may have changed on another screen

    def show_tray(self, tray: TraySnapshot) -> None:
        """One short line on the camera: starting, ready or missing (the notice
        below the header says why and what to do)."""
        words, colour = CAMERA_LINES.get(tray.state, CAMERA_LINES["empty"])
        text = self.t.markup(words)
        if text != self.camera_line.text:
            self.camera_line.text = text
            self.camera_line.color = colour

    def show_notices(self, notices: Sequence[Notice]) -> None:
        said = [notice_text(n, self.t) for n in notices]
        links = {i: self.on_teach for i, (_, tappable) in enumerate(said) if tappable}
        self.notice_box.show([text for text, _ in said], links)
        if notices and self.notice_box.parent is None:
            self.root_box.add_widget(self.notice_box, index=len(self.root_box.children) - 1)
        elif not notices and self.notice_box.parent is not None:
            self.root_box.remove_widget(self.notice_box)

    def refresh(self) -> None:
        """Saved games and scores come from the store on the table thread. A store
        that cannot be read says so in the list (the runtime logs why): the home
        screen still comes up, and READY=1 with it."""
        from kivy.clock import Clock

        def later(fill: Callable[[Any], None], grid: GridLayout) -> Callable[[Any], None]:
            def done(future: Any) -> None:
                error = future.exception()
                if error is None:
                    Clock.schedule_once(lambda _dt: fill(future.result()))
                else:
                    Clock.schedule_once(lambda _dt: self._unreadable(grid, error))

            return done

        store = lambda: saves.listed(self.runtime.store)  # noqa: E731 (on the table thread)
        self.runtime.submit(store).add_done_callback(later(self.show_saves, self.resume_list))
        self.runtime.high_scores().add_done_callback(later(self.show_scores, self.scores_list))

    def _unreadable(self, grid: GridLayout, error: BaseException) -> None:
        if grid is self.resume_list:
            self._saves_shown = True
        else:
            self._scores_shown = True
        self.filled = self._saves_shown and self._scores_shown
        grid.clear_widgets()
        grid.add_widget(
            WrapLabel(
                text=self.t.markup(msg("Cannot be read: {why}", why=str(error))),
                font_size=self.display.primary,
                color=theme.FAILURE,
            )
        )

    def show_saves(self, saved: list[saves.SaveLine]) -> None:
        """Each game to resume as game, boss, turn and date, wrapped, never cut."""
        d = self.display
        self._saves_shown = True
        self.filled = self._scores_shown
        self.resume_list.clear_widgets()
        if not saved:
            self.resume_list.add_widget(
                WrapLabel(
                    text=self.t.markup(msg("No game in play.")),
                    font_size=d.primary,
                    color=theme.MUTED,
                )
            )
        all_games = games()
        for line in saved:
            title = all_games[line.game].title if line.game in all_games else line.game
            parts = [f"[b]{self.t.markup(title)}[/b]"]
            if line.boss:
                parts.append(self.t.markup(line.boss))
            if line.turn is not None:
                parts.append(self.t.markup(msg("turn {n}", n=line.turn)))
            parts.append(line.when)
            self.resume_list.add_widget(
                TapButton(
                    d,
                    " · ".join(parts),
                    partial(self.runtime.resume, line.id),
                    grow=True,
                )
            )

    def show_scores(self, scores: Mapping[str, list[dict]]) -> None:
        d = self.display
        self._scores_shown = True
        self.filled = self._saves_shown
        self.scores_list.clear_widgets()
        if not scores:
            self.scores_list.add_widget(
                WrapLabel(
                    text=self.t.markup(msg("No scores yet.")),
                    font_size=d.primary,
                    color=theme.MUTED,
                )
            )
        all_games = games()
        for game_id, rows in scores.items():
            title = all_games[game_id].title if game_id in all_games else game_id
            self.scores_list.add_widget(
                WrapLabel(
                    text=f"[b]{self.t.markup(title)}[/b]", font_size=d.primary, color=theme.BOSS
                )
            )
            for row in rows[:3]:
                mode = self.t(option_name(row["mode"])) if row["mode"] else ""
                who = " · ".join(x for x in (row["heroes"], mode) if x)
                self.scores_list.add_widget(
                    WrapLabel(text=f"[b]{row['score']}[/b]  {escape(who)}", font_size=d.primary)
                )


#: option values players read, where the value itself is a word of the code
OPTION_NAMES = {
    "ask": msg("Ask at the start"),
    "easy": msg("Easy"),
    "normal": msg("Normal"),
    "hard": msg("Hard"),
    "on": msg("On"),
    "off": msg("Off"),
    "rulebook": msg("As in the rulebook"),
    "short": msg("Short"),
    "attempt": msg("On each attempt"),
    "success": msg("On success"),
    "gained": msg("When gained"),
    "level": msg("By level"),
}


def option_name(value: str) -> Any:
    """An option's value as a name ("moon_elf" is "Moon Elf"), never as its id."""
    if value in OPTION_NAMES:
        return OPTION_NAMES[value]
    if value and all(c.islower() or c.isdigit() or c in "_-" for c in value):
        return value.replace("_", " ").replace("-", " ").title()
    return value


class NewGameScreen(Screen):
    """A game's options (difficulty, house rules) as rows of choices, then Start."""

    def __init__(
        self,
        display: Display,
        runtime: Runtime,
        words: Words,
        on_back: Callable[[], Any],
        **kwargs: Any,
    ) -> None:
        super().__init__(name="new", **kwargs)
        self.display = display
        self.runtime = runtime
        self.t = words
        self.on_back = on_back
        self.game_id = ""
        self.chosen: dict[str, str] = {}
        self.root_box = page_root(display)
        self.add_widget(self.root_box)

    def choose_game(self, game_id: str) -> None:
        self.game_id = game_id
        game = games()[game_id]
        self.chosen = {name: values[0] for name, values in game.options_allowed.items()}
        self._draw()

    def _draw(self) -> None:
        d = self.display
        game = games()[self.game_id]
        box = self.root_box
        box.clear_widgets()
        box.add_widget(title_row(d, self.t.markup(game.title), theme.PLAYER, d.primary + 4))
        scroll, grid = scrolling_list(d)
        if not game.options_allowed:
            grid.add_widget(
                WrapLabel(
                    text=self.t.markup(
                        msg("No options: the game asks what it needs as it starts.")
                    ),
                    font_size=d.primary,
                    color=theme.MUTED,
                )
            )
        for name, values in game.options_allowed.items():
            grid.add_widget(
                FitLabel(
                    text=self.t.markup(name.replace("_", " ").capitalize()),
                    color=theme.MUTED,
                    max_font=d.secondary,
                    min_font=d.secondary,
                    halign="left",
                    size_hint_y=None,
                    height=d.primary,
                )
            )
            row = GridLayout(cols=min(len(values), 3), size_hint_y=None, spacing=d.pad)
            row.bind(minimum_height=row.setter("height"))
            for value in values:
                on = self.chosen[name] == value
                button = TapButton(
                    d,
                    self.t.markup(option_name(value)),
                    partial(self._set, name, value),
                    colour=theme.dim(theme.PLAYER, 0.6) if on else theme.SURFACE_HIGH,
                )
                button.outline = theme.TEXT if on else (0, 0, 0, 0)
                row.add_widget(button)
            grid.add_widget(row)
        box.add_widget(scroll)
        buttons = BoxLayout(size_hint_y=None, height=d.touch, spacing=d.pad)
        self.back_button = TapButton(d, self.t(msg("Back")), self.on_back)
        self.start_button = TapButton(
            d, self.t(msg("Start")), self.start, colour=theme.dim(theme.SUCCESS)
        )
        buttons.add_widget(self.back_button)
        buttons.add_widget(self.start_button)
        box.add_widget(buttons)

    def focus_targets(self) -> list[TapButton]:
        """Start first (the options chosen are most often the ones to play), then
        the options, then Back."""
        chosen = [w for w in self.root_box.walk(restrict=True) if isinstance(w, TapButton)]
        options = [w for w in chosen if w not in (self.start_button, self.back_button)]
        return [self.start_button, *options, self.back_button]

    def _set(self, name: str, value: str) -> None:
        self.chosen[name] = value
        self._draw()

    def start(self) -> None:
        self.runtime.new_game(self.game_id, dict(self.chosen))
