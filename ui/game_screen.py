"""The game screen: one layout for every game, filled from ``GameSnapshot``.

Top: the game and its turn, the boss's gauge. Middle: the tracked values (boss in
violet, players in blue), the cards drawn this turn and what just happened, beside
the *action area*, which takes the shape of the question: the live tray (or a dice
pad) for a roll, big option buttons for a choice, a stepper for a number. Bottom:
the prompt in one line, in the colour of whoever must act, and the on-screen twins
of the hardware buttons with what each does right now.

The screen holds no game logic: it shows snapshots and sends requests to the
runtime, which answers on its own thread.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from kivy.graphics.texture import Texture
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView

from dicetable.device.table.runtime import Runtime
from dicetable.device.table.snapshots import GameSnapshot, Notice, TraySnapshot
from dicetable.hardware.actions import TableAction
from dicetable.rules.core import Die, Input, InputKind, Msg, Prompt, PromptKind
from dicetable.ui import game_over, ring_view, story, theme
from dicetable.ui.focus import option_order, scroll_into_view
from dicetable.ui.icons import face_button
from dicetable.ui.minion_tree import MinionTreeView
from dicetable.ui.number_entry import FAST_STEP, LARGE_RANGE
from dicetable.ui.text import Words, escape, msg, percent
from dicetable.ui.theme import Display
from dicetable.ui.tray_view import TrayView
from dicetable.ui.widgets import (
    CardBox,
    Columns,
    FilledBox,
    FitLabel,
    GaugeBar,
    HoldButton,
    NoticeBox,
    PanelBox,
    TapButton,
    TwinButton,
    WrapLabel,
    notice_text,
    scrolling_list,
    text_width,
)

TWIN_NAMES = {
    TableAction.BACK: msg("Back"),
    TableAction.NEXT: msg("Next"),
    TableAction.CONFIRM: msg("Confirm"),
    TableAction.UNDO: msg("Undo"),
    TableAction.MENU: msg("Menu"),
}
TWIN_COLOURS = {
    TableAction.BACK: theme.MUTED,
    TableAction.NEXT: theme.MUTED,
    TableAction.CONFIRM: theme.SUCCESS,
    TableAction.UNDO: theme.TABLE,
    TableAction.MENU: theme.MUTED,
}
TRAY_STATES = {
    "rolling": msg("Rolling…"),
    "hand": msg("Hand in the tray"),
    "settled": msg("Settled"),
    "empty": msg("Tray empty"),
    "starting": msg("Starting camera…"),
    "no_camera": msg("No camera: type the dice"),
    "lost": msg("Camera lost: type the dice"),
}
EVENTS_KEPT = 6
#: a notice named in a few words, when a more pressing one has the room
NOTICE_NAMES = {
    "disk": msg("moves are not saved"),
    "settings": msg("the settings file has a mistake"),
    "camera": msg("the camera is not working, dice are typed"),
    "buttons": msg("the buttons are off"),
    "ring": msg("the LED ring does not answer"),
}


class GameScreen(Screen):
    def __init__(
        self,
        display: Display,
        runtime: Runtime,
        words: Words,
        on_action: Callable[[TableAction], Any],
        **kwargs: Any,
    ) -> None:
        super().__init__(name="game", **kwargs)
        self.display = display
        self.runtime = runtime
        self.t = words
        self.on_action = on_action
        self.on_teach: Callable[[], Any] = lambda: None  # the app sets the teach page
        self.state: GameSnapshot | None = None
        self.tray = runtime.tray
        self.recent: list[tuple[str, str]] = []  # (event kind, text), newest first
        self.typing = False  # the dice pad is shown instead of the camera
        self.showing_camera = False
        self.action_key: tuple = ()
        self.typed: list[Die] = []
        self.last_roll: tuple[Die, ...] = ()  # the dice last answered (keep advice)
        self.log: list[story.Told] = []  # every event of this game, oldest first
        self.story: story.Story | None = None  # the steps being told, if any
        self.rank: tuple[int, int] | None = None  # the final score's high-score place
        self.result: dict[str, Any] = {}  # the game's result, once it is over
        self.focus_set_for: Prompt | None = None  # the choice whose focus was moved
        self.twins: dict[TableAction, TwinButton] = {}
        self._build()

    # layout ------------------------------------------------------------------------
    def _build(self) -> None:
        d = self.display
        root = FilledBox(orientation="vertical", fill=theme.BACKGROUND, spacing=d.pad)
        # landscape: title beside the gauge; portrait: the gauge gets a row of its own
        header = BoxLayout(
            orientation="vertical" if d.portrait else "horizontal",
            size_hint_y=None,
            height=d.touch * 2 + d.pad if d.portrait else d.touch,
            spacing=d.pad,
            padding=(d.pad, 0),
        )
        self.title = FitLabel(  # a long title ends in "…": the turn is on the bar too
            max_font=d.primary,
            min_font=d.secondary,
            halign="left",
            size_hint_x=1 if d.portrait else 0.4,
            ellipsis=True,
        )
        self.gauge = GaugeBar(d, size_hint_x=1 if d.portrait else 0.6)
        header.add_widget(self.title)
        if ring_view.wanted(self.runtime.settings) and not d.portrait:
            header.add_widget(
                ring_view.RingView(lambda: self.runtime.ring, size_hint_x=None, width=d.touch)
            )
        header.add_widget(self.gauge)
        self.header = header
        root.add_widget(header)

        body = BoxLayout(
            orientation="vertical" if d.portrait else "horizontal",
            spacing=d.pad,
            padding=(d.pad, 0),
        )
        self.action = BoxLayout(orientation="vertical", spacing=d.pad)
        self.info_scroll = ScrollView(do_scroll_x=False, bar_width=d.mm(1.5))
        self.info = GridLayout(cols=1, size_hint_y=None, spacing=d.pad)
        self.info.bind(minimum_height=self.info.setter("height"))
        self.panels_grid = Columns(spacing=d.pad)
        self.cards_list, self.events_list = (
            GridLayout(cols=1, size_hint_y=None, spacing=d.pad) for _ in range(2)
        )
        # a game whose view has a "tree" (Minion Rush) gets it drawn above its values
        self.tree_view = MinionTreeView(d, self.t)
        self.info.add_widget(self.panels_grid)
        for part in (self.cards_list, self.events_list):
            part.bind(minimum_height=part.setter("height"))
            self.info.add_widget(part)
        self.panel_boxes: list[PanelBox] = []
        self.shown_cards: list[tuple[str, str]] = []
        self.shown_events: list[tuple[str, str]] = []
        self.info_scroll.add_widget(self.info)
        if d.portrait:
            self.action.size_hint_y, self.info_scroll.size_hint_y = 0.6, 0.4
            body.add_widget(self.action)
            body.add_widget(self.info_scroll)
        else:
            self.info_scroll.size_hint_x = self.action.size_hint_x = 0.5
            body.add_widget(self.info_scroll)
            body.add_widget(self.action)
        root.add_widget(body)

        self.prompt_bar = FilledBox(
            size_hint_y=None, height=round(d.primary * 1.6), padding=(d.pad, 0)
        )
        self.prompt_line = FitLabel(max_font=d.primary, min_font=d.secondary)
        self.prompt_bar.add_widget(self.prompt_line)
        self.notice_box = NoticeBox(d)  # shown while something is wrong at the table
        root.add_widget(self.prompt_bar)
        self.root_box = root
        root.add_widget(self._twin_bar())
        self.add_widget(root)

        self.tray_view = TrayView(d, on_die=self.ask_correction)

    def _twin_bar(self) -> BoxLayout:
        d = self.display
        for action, name in TWIN_NAMES.items():
            self.twins[action] = TwinButton(
                d,
                self.t(name),
                partial(self.on_action, action),
                TWIN_COLOURS[action],
                with_meaning=action not in (TableAction.UNDO, TableAction.MENU),
            )
        height = round(d.touch * 1.25)
        if not d.portrait:
            bar = BoxLayout(size_hint_y=None, height=height, spacing=d.pad, padding=(d.pad, 0))
            widths = {TableAction.CONFIRM: 1.6, TableAction.UNDO: 0.6, TableAction.MENU: 0.6}
            for action in (
                TableAction.BACK,
                TableAction.NEXT,
                TableAction.CONFIRM,
                TableAction.UNDO,
                TableAction.MENU,
            ):
                self.twins[action].size_hint_x = widths.get(action, 1.0)
                bar.add_widget(self.twins[action])
            return bar
        bar = BoxLayout(
            orientation="vertical",
            size_hint_y=None,
            height=height * 2 + d.pad,
            spacing=d.pad,
            padding=(d.pad, 0),
        )
        widths = {TableAction.CONFIRM: 1.4, TableAction.UNDO: 0.6, TableAction.MENU: 0.6}
        for row_actions in (
            (TableAction.BACK, TableAction.NEXT),
            (TableAction.CONFIRM, TableAction.UNDO, TableAction.MENU),
        ):
            row = BoxLayout(spacing=d.pad)
            for action in row_actions:
                self.twins[action].size_hint_x = widths.get(action, 1.0)
                row.add_widget(self.twins[action])
            bar.add_widget(row)
        return bar

    # state in ----------------------------------------------------------------------
    def show_state(self, state: GameSnapshot) -> None:
        """Show a new snapshot. The action area is rebuilt only when the question or
        its focus changed; otherwise only texts change (a Pi redraws labels slowly)."""
        previous = self.state
        new_prompt = previous is None or previous.prompt != state.prompt
        answered = previous is not None and previous.inputs != state.inputs
        if previous is not None and previous.saved_id != state.saved_id:
            self.log, self.story, self.rank, self.result = [], None, None, {}  # another game
        self.state = state
        for event in reversed(state.events):
            self.recent.insert(0, (str(event.kind), self.t(event.text)))
        del self.recent[EVENTS_KEPT:]
        happened = story.told(state.events, self.t)
        self.log += happened
        del self.log[: -story.LOG_KEPT]
        asked = None if previous is None else previous.prompt.actor
        if answered and story.is_story(happened, asked):
            self.story = story.Story(story.steps(happened))
        if new_prompt or answered:
            self.typed = []
            self.typing = False
            self.focus_set_for = None
        if state.prompt.kind is PromptKind.OVER and self.rank is None:
            self._ask_rank(state)
        self._show_header(state)
        self._show_prompt(state)
        self._show_info(state)
        action_key = self._action_key()
        if action_key != self.action_key or answered or happened:
            self.action_key = action_key
            self._show_action(state)
        elif state.prompt.kind is PromptKind.ROLL:
            self._show_tray_status()
            self._show_typed()
        self._show_meanings()

    def _action_key(self) -> tuple:
        state = self.state
        assert state is not None
        at = None if self.story is None else self.story.at
        return (state.prompt, state.focus, self.typing, state.saved_id, at, self.rank)

    def _show_meanings(self) -> None:
        """What each button does now: the controller's words, but the story's and
        the dice count's when they decide what CONFIRM does."""
        state = self.state
        if state is None:
            return
        meanings = dict(state.meanings)
        if self.story_open():
            meanings[TableAction.CONFIRM] = msg("Go on")
            meanings[TableAction.NEXT] = msg("Go on")
            meanings[TableAction.BACK] = msg("Back")
        elif state.prompt.kind is PromptKind.ROLL and self.typed:
            short = self.typed_short()
            meanings[TableAction.CONFIRM] = short or msg("Use the typed dice")
        elif state.prompt.kind is PromptKind.ROLL and self.wrong_count() is not None:
            meanings[TableAction.CONFIRM] = msg("Wrong number of dice")
        elif state.prompt.kind is PromptKind.OVER:
            meanings[TableAction.CONFIRM] = msg("Home")
        for action, twin in self.twins.items():
            twin.meaning.text = self.t.markup(meanings.get(action, msg("—")))

    # the story of what just happened -------------------------------------------------
    def story_open(self) -> bool:
        return self.story is not None and not self.story.done

    def story_action(self, action: TableAction) -> None:
        """A button while the story is told: go on, go back, or skip it (Undo)."""
        if self.story is None:
            return
        self.story.act(action)
        if self.story.done:
            self.story = None
        if self.state is not None:
            self.action_key = self._action_key()
            self._show_action(self.state)
            self._show_meanings()

    def open_log(self) -> None:
        self.log_view = story.open_log(self.display, self.t, self.log)

    def log_open(self) -> bool:
        view = getattr(self, "log_view", None)
        return view is not None and view.parent is not None

    def log_action(self, action: TableAction) -> None:
        """The log by buttons: NEXT and BACK scroll it, any other button closes it."""
        view = self.log_view
        if action in (TableAction.NEXT, TableAction.BACK):
            page = 0.5 if action is TableAction.BACK else -0.5
            view.scroll.scroll_y = min(1.0, max(0.0, view.scroll.scroll_y + page))
        else:
            view.dismiss(animation=False)

    # the end of the game -------------------------------------------------------------
    def _ask_rank(self, state: GameSnapshot) -> None:
        """The result and its high-score place, read on the table thread."""
        from kivy.clock import Clock

        runtime, game = self.runtime, state.game_id

        def job() -> tuple[dict, tuple[int, int] | None]:
            session = runtime.session
            result = dict((session.game.result() if session else None) or {})
            return result, game_over.rank_of(runtime.store, game, result)

        def done(future: Any) -> None:
            if future.exception() is None:
                Clock.schedule_once(lambda _dt: self._show_rank(*future.result()))

        self.rank = (0, 0)  # asked once
        runtime.submit(job).add_done_callback(done)

    def _show_rank(self, result: dict, rank: tuple[int, int] | None) -> None:
        self.result, self.rank = result, rank
        if self.state is not None and self.state.prompt.kind is PromptKind.OVER:
            self.action_key = self._action_key()
            self._show_action(self.state)

    def go_home(self) -> None:
        """Leave the game (it stays saved; one not begun is not kept)."""
        state = self.state
        self.runtime.leave()
        if state is not None and state.inputs == 0:
            self.runtime.delete_game(state.saved_id)

    def show_notices(self, notices: Sequence[Notice]) -> None:
        """What is wrong at the table, right above the prompt the players read: the
        most pressing in full, the others by name (the home screen has them all in
        full), so the question and its buttons keep their room."""
        first = [notice_text(n, self.t) for n in notices[:1]]
        lines = [text for text, _ in first]
        links = {0: self.on_teach} if first and first[0][1] else {}
        others = [self.t.markup(NOTICE_NAMES.get(n.topic, n.text)) for n in notices[1:]]
        if others:
            lines.append(self.t.markup(msg("Also: {what}", what="; ".join(others))))
        self.notice_box.show(lines, links)
        if notices and self.notice_box.parent is None:
            # on top of the values: the question keeps all its height
            self.info.add_widget(self.notice_box, index=len(self.info.children))
            self.info_scroll.scroll_y = 1
        elif not notices and self.notice_box.parent is not None:
            self.notice_box.parent.remove_widget(self.notice_box)

    def show_tray(self, tray: TraySnapshot) -> None:
        self.tray = tray
        if self.state is None or self.state.prompt.kind is not PromptKind.ROLL:
            return
        camera = tray.state not in ("no_camera", "lost") and not self.typing
        if camera != self.showing_camera:  # the camera came (back) or went
            self._show_action(self.state)
            return
        self.tray_view.show(tray, self.state.keep_spots)
        self._show_tray_status()

    def _show_header(self, state: GameSnapshot) -> None:
        turn = state.view.get("turn")
        title = self.t.markup(state.title)
        if turn is not None:
            title += "  ·  " + self.t.markup(msg("Turn {n}", n=turn))
        self.title.text = f"[b]{title}[/b]"
        gauge = state.view.get("gauge")
        self.gauge.opacity = 1 if gauge else 0
        if self.display.portrait:  # no gauge: its row goes to the body
            d = self.display
            self.header.height = d.touch * 2 + d.pad if gauge else d.touch
            self.gauge.size_hint_y = 1 if gauge else None
            self.gauge.height = 0 if not gauge else self.gauge.height
        if gauge:
            self.gauge.show(
                self.t.markup(_words(gauge["label"])), int(gauge["value"]), int(gauge["max"])
            )

    def _show_prompt(self, state: GameSnapshot) -> None:
        """One line in the colour of whoever acts (red for a refused answer). A text
        too long for one line gets a second one, except for an instruction, which the
        action area shows in full (the bar then ends it with "…")."""
        if state.error is not None:
            self._paint_prompt(state.error, theme.FAILURE, refused=True, ellipsis=False)
        else:
            colour = theme.actor_colour(state.prompt.actor.value)
            ellipsis = state.prompt.kind is PromptKind.CONFIRM
            self._paint_prompt(state.prompt.text, colour, refused=False, ellipsis=ellipsis)

    def _paint_prompt(
        self, text: Msg | str, colour: theme.RGBA, refused: bool, ellipsis: bool
    ) -> None:
        d = self.display
        self.prompt_bar.fill = theme.dim(colour, 0.45 if refused else 0.4)
        self.prompt_bar.outline = colour
        line = "[b]" + self.t.markup(text) + "[/b]"
        self.prompt_line.ellipsis = ellipsis
        long = text_width(line, d.secondary) > d.width - 4 * d.pad
        two_lines = long and not self.prompt_line.ellipsis
        self.prompt_bar.height = (
            d.secondary * 2 + d.pad * 3 if two_lines else round(d.primary * 1.6)
        )
        self.prompt_line.text = line

    def _refuse(self, why: Msg) -> None:
        """A press the screen refuses itself, said in red where the game says its own."""
        self._paint_prompt(why, theme.FAILURE, refused=True, ellipsis=False)

    def _show_info(self, state: GameSnapshot) -> None:
        """Panels are updated in place when only their values changed (most answers),
        so the screen is not rebuilt label by label on every move."""
        d = self.display
        self._show_tree(state.view.get("tree"))
        panels = list(state.view.get("panels") or _generic_panels(state.view))
        width = d.width if d.portrait else d.width / 2
        cols = 2 if width / 2 >= d.mm(36) and len(panels) > 1 else 1
        panel_width = (width - 2 * d.pad) / cols - d.pad
        shown = [
            (
                self.t.markup(_words(panel.get("title", ""))),
                str(panel.get("actor", "table")),
                [
                    (self.t.markup(_words(label)), escape(_value_text(value, self.t)))
                    for label, value in _merged(panel.get("rows", ()))
                ],
                [str(label) for label, _ in _merged(panel.get("rows", ()))],
            )
            for panel in panels
        ]
        boxes = self.panel_boxes
        if len(boxes) != len(shown) or self.panels_grid.cols != cols:
            boxes = []
        fresh = []
        for index, (title, actor, rows, icons) in enumerate(shown):
            box = boxes[index] if index < len(boxes) else None
            if box is None or not box.refresh(title, actor, rows, panel_width):
                box = PanelBox(d, title, actor, rows, width=panel_width, icons=icons)
            fresh.append(box)
        if fresh != self.panel_boxes:
            self.panels_grid.fill(fresh, cols)
            self.panel_boxes = fresh
        cards = [
            (_words(c.get("title", "")), _words(c.get("text", "")))
            for c in state.view.get("cards") or ()
        ]
        if cards != self.shown_cards:
            self.shown_cards = cards
            self.cards_list.clear_widgets()
            for title, text in cards:
                self.cards_list.add_widget(CardBox(d, self.t.markup(title), self.t.markup(text)))
        if self.recent != self.shown_events:
            self.shown_events = list(self.recent)
            self.events_list.clear_widgets()
            for kind, text in self.recent:
                colour = theme.EVENT_COLOURS.get(kind, theme.MUTED)
                self.events_list.add_widget(
                    WrapLabel(text=escape(text), font_size=d.primary, color=colour)
                )

    def _show_tree(self, tree: Any) -> None:
        if not isinstance(tree, Mapping) or not tree.get("nodes"):
            if self.tree_view.parent is not None:
                self.info.remove_widget(self.tree_view)
            return
        if self.tree_view.parent is None:  # on top, under a notice if there is one
            top = len(self.info.children) - (self.notice_box.parent is self.info)
            self.info.add_widget(self.tree_view, index=top)
        self.tree_view.show(tree)

    # the action area ---------------------------------------------------------------
    def _show_action(self, state: GameSnapshot) -> None:
        self.action.clear_widgets()
        prompt = state.prompt
        if self.display.portrait:  # the question takes the room it needs, values the rest
            self.action.size_hint_y = 0.45 if self.story_open() else _portrait_share(prompt)
            tree = self.tree_view.parent is not None
            if tree and prompt.kind is not PromptKind.ROLL:  # the tree needs half the body
                self.action.size_hint_y = min(self.action.size_hint_y, 0.45)
            self.info_scroll.size_hint_y = 1 - self.action.size_hint_y
        if self.story_open():
            assert self.story is not None
            self.action.add_widget(
                story.story_area(self.display, self.t, self.story, self.on_action)
            )
        elif prompt.kind is PromptKind.ROLL:
            self._roll_area(state)
        elif prompt.kind is PromptKind.CHOOSE:
            self._choose_area(state)
        elif prompt.kind is PromptKind.NUMBER:
            self._number_area(state)
        elif prompt.kind is PromptKind.CONFIRM:
            self._confirm_area(state)
        else:
            self._over_area(state)

    def _roll_area(self, state: GameSnapshot) -> None:
        d = self.display
        self.tray_status = FitLabel(
            max_font=d.secondary + 2, min_font=d.secondary, size_hint_y=None, height=d.primary
        )
        self.objective = FitLabel(  # up to two lines: objective, odds, what to keep
            max_font=d.secondary + 2,
            min_font=d.secondary,
            size_hint_y=None,
            height=d.secondary * 2 + d.pad,
            color=theme.TABLE,
        )
        self.action.add_widget(self.tray_status)
        prompt = state.prompt
        if prompt.objective is not None or prompt.keep:
            self.action.add_widget(self.objective)
            self.objective.text = self._objective_text(state)
        camera = self.tray.state not in ("no_camera", "lost")
        self.showing_camera = camera and not self.typing
        row = BoxLayout(size_hint_y=None, height=d.touch, spacing=d.pad)
        self.ready = FitLabel(max_font=d.primary, min_font=d.secondary, size_hint_x=0.6)
        if self.showing_camera:
            self.tray_view.show(self.tray, state.keep_spots)
            if self.tray_view.parent is not None:
                self.tray_view.parent.remove_widget(self.tray_view)
            self.action.add_widget(self.tray_view)
            row.add_widget(self.ready)
        else:
            self.action.add_widget(self._dice_pad(prompt))
            self.use_button = TapButton(
                d,
                self.t(msg("Use these dice")),
                self.use_typed,
                colour=theme.dim(theme.SUCCESS),
                size_hint_x=0.6,
            )
            row.add_widget(self.use_button)
            self._show_typed()
        if camera:
            row.add_widget(
                TapButton(
                    d,
                    self.t(msg("Camera") if self.typing else msg("Type dice")),
                    self.toggle_typing,
                    size_hint_x=0.4,
                )
            )
        self.action.add_widget(row)
        self._show_tray_status()

    def _objective_text(self, state: GameSnapshot) -> str:
        """The objective, its odds as a percentage, and the dice to keep by value."""
        prompt = state.prompt
        parts = []
        if prompt.objective is not None:
            parts.append(self.t.markup(msg("Objective: {what}", what=self.t(prompt.objective))))
        if prompt.odds is not None:
            parts.append(self.t.markup(msg("odds {p}", p=percent(prompt.odds))))
        if prompt.keep:
            parts.append(self.t.markup(msg("keep {dice}, reroll the rest", dice=self._kept(state))))
        return "  ·  ".join(parts)

    def _kept(self, state: GameSnapshot) -> str:
        """The dice to keep named by what they show (never by their place)."""
        keep = state.prompt.keep
        if self.last_roll and all(0 <= i < len(self.last_roll) for i in keep):
            return " ".join(self.t(self.last_roll[i].name) for i in keep)
        if len(state.keep_spots) == len(keep):
            return " ".join(self.t(spot.face or str(spot.value)) for spot in state.keep_spots)
        return self.t(msg("{n} dice", n=len(keep)))

    def _show_tray_status(self) -> None:
        if self.state is None or self.state.prompt.kind is not PromptKind.ROLL:
            return
        tray_text = self.t(TRAY_STATES.get(self.tray.state, msg(self.tray.state)))
        colour = {"settled": theme.SUCCESS, "rolling": theme.TABLE}.get(
            self.tray.state, theme.MUTED
        )
        if self.typing:
            tray_text, colour = self.t(msg("Typing dice")), theme.PLAYER
        self.tray_status.text = f"[b]{escape(tray_text)}[/b]"
        self.tray_status.color = colour
        dice = self.state.dice
        if not self.showing_camera:
            return
        wrong = self.wrong_count()
        if wrong is not None:
            self.ready.text = self.t.markup(wrong)
            self.ready.color = theme.FAILURE
        elif dice:
            faces = " ".join(escape(d.name) for d in dice)
            self.ready.text = self.t.markup(msg("Ready: {dice}", dice=faces))
            self.ready.color = theme.SUCCESS
        else:
            self.ready.text = self.t.markup(msg("Waiting for dice"))
            self.ready.color = theme.MUTED

    def toggle_typing(self) -> None:
        self.typing = not self.typing
        if self.state is not None:
            self.action_key = (
                self.state.prompt,
                self.state.focus,
                self.typing,
                self.state.saved_id,
            )
            self._show_action(self.state)

    def _dice_pad(self, prompt: Prompt) -> BoxLayout:
        """Dice typed by touch: one tap per die, then Use."""
        d = self.display
        pad = BoxLayout(orientation="vertical", spacing=d.pad)
        faces = list(prompt.dice.faces) if prompt.dice and prompt.dice.faces else list("123456")
        colours = list(prompt.dice.colors) if prompt.dice else []
        self.pad_colour = colours[0] if colours else ""
        top = BoxLayout(size_hint_y=None, height=d.touch, spacing=d.pad)
        self.typed_label = FitLabel(max_font=d.primary, min_font=d.secondary, size_hint_x=0.65)
        top.add_widget(self.typed_label)
        top.add_widget(TapButton(d, self.t(msg("Clear")), self.clear_typed, size_hint_x=0.35))
        pad.add_widget(top)
        if colours:
            colour_row = BoxLayout(size_hint_y=None, height=d.touch, spacing=d.pad)
            for name in colours:
                colour_row.add_widget(TapButton(d, self.t(name), partial(self._pick_colour, name)))
            pad.add_widget(colour_row)
        cols = 3 if len(faces) <= 6 else 4
        grid = GridLayout(cols=cols, spacing=d.pad)
        for face in faces:
            grid.add_widget(
                face_button(
                    d,
                    f"[b]{escape(self.t(face))}[/b]",
                    face,
                    lambda f=face: self.type_die(f),
                    profile=prompt.dice.profile if prompt.dice else "",
                    size_hint_y=1,
                )
            )
        pad.add_widget(grid)
        self._show_typed()
        return pad

    def _pick_colour(self, name: str) -> None:
        self.pad_colour = name
        self._show_typed()

    def type_die(self, face: str) -> None:
        request = self.state.prompt.dice if self.state else None
        if request is not None and len(self.typed) >= request.count:
            return
        value = int(face) if face.isdigit() else None
        self.typed.append(Die(value, face, getattr(self, "pad_colour", "")))
        self._show_typed()

    def clear_typed(self) -> None:
        self.typed = []
        self._show_typed()

    def typed_short(self) -> Msg | None:
        """What is missing when fewer dice are typed than the roll asks for: the pad
        never offers to use them ("Type 2 more dice")."""
        request = self.state.prompt.dice if self.state else None
        if request is None or not self.typed or len(self.typed) >= request.least:
            return None
        return msg("Type {missing} more dice", missing=request.least - len(self.typed))

    def use_typed(self) -> None:
        short = self.typed_short()
        if short is not None:
            self._refuse(short)
        elif self.typed:
            self.last_roll = tuple(self.typed)
            self.runtime.answer(Input(InputKind.DICE, dice=tuple(self.typed), source="typed"))

    def wrong_count(self) -> Msg | None:
        """The camera's dice when there are more or fewer than the roll asks for:
        what to do ("6 dice seen, 5 asked: remove one or type them")."""
        state = self.state
        if state is None or state.prompt.dice is None or not state.dice or self.typing:
            return None
        request, seen = state.prompt.dice, len(state.dice)
        if request.least <= seen <= request.count:
            return None
        if seen > request.count:
            return msg(
                "{seen} dice seen, {asked} asked: remove {extra} or type them",
                seen=seen,
                asked=request.count,
                extra=seen - request.count,
            )
        return msg(
            "{seen} dice seen, {asked} asked: add {missing} or type them",
            seen=seen,
            asked=request.least,
            missing=request.least - seen,
        )

    def show_wrong_count(self) -> None:
        wrong = self.wrong_count()
        if wrong is not None and hasattr(self, "ready"):
            self.ready.text = self.t.markup(wrong)
            self.ready.color = theme.FAILURE

    def remember_roll(self) -> None:
        """CONFIRM answers with the camera's dice: keep them for the keep advice."""
        if self.state is not None and self.state.dice:
            self.last_roll = self.state.dice

    def _show_typed(self) -> None:
        if not hasattr(self, "typed_label"):
            return
        request = self.state.prompt.dice if self.state else None
        wanted = "" if request is None else f" ({len(self.typed)}/{request.count})"
        shown = " ".join(escape(f"{d.color}:{d.name}" if d.color else d.name) for d in self.typed)
        self.typed_label.text = (shown or self.t.markup(msg("Tap the faces rolled"))) + wanted
        if hasattr(self, "use_button"):
            short = self.typed_short()
            if request is not None and not self.typed:
                short = msg("Type {count} dice", count=request.least)
            self.use_button.text = self.t(short or msg("Use these dice"))
            self.use_button.base_fill = theme.SURFACE_HIGH if short else theme.dim(theme.SUCCESS)
            self.use_button.fill = self.use_button.base_fill
        self._show_meanings()  # CONFIRM now uses the typed dice

    def _choose_area(self, state: GameSnapshot) -> None:
        """The options as big buttons, the answer that moves the game on first
        (``option_order``); the focused one framed and scrolled into sight."""
        d = self.display
        scroll, grid = scrolling_list(d)
        options = state.prompt.options
        buttons: dict[int, TapButton] = {}
        colour = theme.actor_colour(state.prompt.actor.value)
        for index in option_order(state.prompt):
            option = options[index]
            button = TapButton(
                d,
                self.t.markup(option.label),
                partial(self._choose, option.id),
                colour=theme.dim(colour, 0.5) if index == state.focus else theme.SURFACE_HIGH,
                grow=True,
            )
            if index == state.focus:
                button.outline = theme.TEXT
                button.focused = True
            buttons[index] = button
            grid.add_widget(button)
        self.option_buttons = [buttons[i] for i in range(len(options))]  # prompt order
        self.action.add_widget(scroll)
        order = option_order(state.prompt)
        if order and order[0] != 0 and state.prompt != self.focus_set_for:
            self.focus_set_for = state.prompt  # the focus starts on the first shown
            self.runtime.focus(order[0])
        if 0 <= state.focus < len(self.option_buttons):  # once laid out: into sight
            from kivy.clock import Clock

            focused = self.option_buttons[state.focus]
            Clock.schedule_once(lambda _dt: scroll_into_view(focused), 0)

    def _choose(self, option_id: str) -> None:
        self.runtime.answer(Input.choose(option_id, source="touch"))

    def _jump(self, step: int, low: int, high: int) -> None:
        """A -5/+5 press: the number moved by ``step``, kept inside its range."""
        self.runtime.focus(min(high, max(low, self.number + step)))

    @property
    def number(self) -> int:
        """The number CONFIRM would enter now (the controller's focus)."""
        return 0 if self.state is None else self.state.focus

    def _number_area(self, state: GameSnapshot) -> None:
        """−/+ (held: faster), −5/+5 on a wide range, digit keys type the number.
        The number starts at the range's least (a focus outside it is moved there)."""
        d = self.display
        low, high = state.prompt.number_range or (0, 0)
        if not low <= state.focus <= high:
            self.runtime.focus(low)
        self.action.add_widget(
            FitLabel(
                text=self.t.markup(
                    msg("From {low} to {high} (digit keys type it)", low=low, high=high)
                ),
                color=theme.MUTED,
                max_font=d.secondary,
                min_font=d.secondary,
                size_hint_y=None,
                height=d.secondary * 2 + d.pad,  # two lines in Spanish
            )
        )
        row = BoxLayout(spacing=d.pad)
        minus = HoldButton(d, "[b]−[/b]", lambda: self.on_action(TableAction.BACK), size_hint_y=1)
        plus = HoldButton(d, "[b]+[/b]", lambda: self.on_action(TableAction.NEXT), size_hint_y=1)
        row.add_widget(minus)
        row.add_widget(
            FitLabel(text=f"[b]{state.focus}[/b]", max_font=d.primary * 2, min_font=d.primary)
        )
        row.add_widget(plus)
        self.action.add_widget(row)
        if high - low >= LARGE_RANGE:
            jumps = BoxLayout(size_hint_y=None, height=d.touch, spacing=d.pad)
            for step in (-FAST_STEP, FAST_STEP):
                jumps.add_widget(
                    TapButton(
                        d,
                        f"[b]{step:+d}[/b]".replace("-", "−"),
                        partial(self._jump, step, low, high),
                    )
                )
            self.action.add_widget(jumps)
        self.action.add_widget(
            TapButton(
                d,
                self.t(msg("Enter {n}", n=state.focus)),
                lambda: self.on_action(TableAction.CONFIRM),
                colour=theme.dim(theme.SUCCESS),
            )
        )

    def _confirm_area(self, state: GameSnapshot) -> None:
        d = self.display
        scroll = ScrollView(do_scroll_x=False)
        text = WrapLabel(
            text=self.t.markup(state.prompt.text),
            font_size=d.primary,
            color=theme.actor_colour(state.prompt.actor.value),
        )
        scroll.add_widget(text)
        self.action.add_widget(scroll)
        self.action.add_widget(
            TapButton(
                d,
                self.t(state.meanings.get(TableAction.CONFIRM, msg("Go on"))),
                lambda: self.on_action(TableAction.CONFIRM),
                colour=theme.dim(theme.SUCCESS),
            )
        )

    def _over_area(self, state: GameSnapshot) -> None:
        result = self.result or dict(state.view.get("result") or {})
        rank = self.rank if self.rank != (0, 0) else None
        for part in game_over.over_area(
            self.display, self.t, state.game_id, result, rank, self.go_home
        ):
            self.action.add_widget(part)

    # corrections -------------------------------------------------------------------
    def ask_correction(self, index: int) -> None:
        """A tap on a die: choose what it really shows."""
        if self.state is None or self.state.prompt.kind is not PromptKind.ROLL:
            return
        d = self.display
        request = self.state.prompt.dice
        faces = list(request.faces) if request and request.faces else list("123456")
        tray = self.tray  # the frame the player looks at: the fix is bound to it
        seen = tray.dice[index] if index < len(tray.dice) else None
        view = ModalView(size_hint=(0.9, 0.8), auto_dismiss=True)
        box = FilledBox(orientation="vertical", fill=theme.SURFACE, padding=d.pad, spacing=d.pad)
        read = "?" if seen is None else escape(seen.face or str(seen.value))
        top = BoxLayout(size_hint_y=None, height=d.touch * 2, spacing=d.pad)
        picture = die_picture(tray, seen)
        if picture is not None:  # the die's own picture, cut from the frame
            top.add_widget(
                Image(texture=picture, size_hint_x=None, width=d.touch * 2, fit_mode="contain")
            )
        top.add_widget(
            FitLabel(
                text=self.t.markup(
                    msg("Die {i} was read as {face}. What does it show?", i=index + 1, face=read)
                ),
                max_font=d.primary,
                min_font=d.secondary,
            )
        )
        box.add_widget(top)
        grid = GridLayout(cols=3, spacing=d.pad)
        colour = seen.color if seen else ""

        def pick(face: str) -> None:
            view.dismiss(animation=False)
            value = int(face) if face.isdigit() else None
            self.runtime.correct(index, Die(value, face, colour), frame_id=tray.frame_id)

        for face in faces:
            label = f"[b]{escape(self.t(face))}[/b]"
            grid.add_widget(
                face_button(
                    d,
                    label,
                    face,
                    lambda f=face: pick(f),
                    profile=request.profile if request else "",
                    size_hint_y=1,
                )
            )
        box.add_widget(grid)
        box.add_widget(TapButton(d, self.t(msg("Cancel")), lambda: view.dismiss(animation=False)))
        view.add_widget(box)
        view.open(animation=False)
        self.correction = view


def die_picture(tray: TraySnapshot, die: Any) -> Texture | None:
    """The die cut from the tray's preview (a margin around it), as a texture."""
    if die is None or tray.preview is None or not tray.frame_size[0]:
        return None
    preview = tray.preview
    scale = preview.shape[1] / tray.frame_size[0]
    half = die.size * scale * DIE_MARGIN / 2
    cx, cy = die.x * scale, die.y * scale
    x0, y0 = max(0, int(cx - half)), max(0, int(cy - half))
    x1, y1 = min(preview.shape[1], int(cx + half)), min(preview.shape[0], int(cy + half))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    crop = preview[y0:y1, x0:x1].copy()
    texture = Texture.create(size=(x1 - x0, y1 - y0), colorfmt="rgb")
    texture.blit_buffer(crop.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
    texture.flip_vertical()
    return texture


#: the die's picture shows this many times its side (its neighbourhood too)
DIE_MARGIN = 1.6


def _portrait_share(prompt: Prompt) -> float:
    """How much of the portrait body the action area takes, by kind of question."""
    if prompt.kind is PromptKind.ROLL:
        return 0.62
    if prompt.kind is PromptKind.CHOOSE:
        return min(0.62, 0.1 + 0.1 * len(prompt.options))
    if prompt.kind is PromptKind.NUMBER:
        return 0.45
    if prompt.kind is PromptKind.OVER:  # who won, the score, how, the rank
        return 0.55
    return 0.35


def _generic_panels(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A game without ``panels`` still shows its simple values (e.g. the dice tray's
    last roll and its sum) as one table panel."""
    rows: list[list[Any]] = []
    for key, value in view.items():
        if key in ("gauge", "turn", "cards", "history", "result", "tree"):
            continue
        if isinstance(value, Mapping):
            rows += [[f"{k}", v] for k, v in value.items() if v not in ({}, [], None, "")]
        elif value not in ({}, [], None, ""):
            rows.append([key, value])
    return [{"title": "Table", "actor": "table", "rows": rows[:8]}] if rows else []


def _merged(rows: Sequence[Sequence[Any]]) -> list[tuple[Any, Any]]:
    """Rows of the same label one after another (the Boss's upgrades) as one row
    with all their values, so a panel lists them all in the room of one."""
    merged: list[tuple[Any, list[Any]]] = []
    for label, value in rows:
        if merged and str(merged[-1][0]) == str(label):
            merged[-1][1].append(value)
        else:
            merged.append((label, [value]))
    return [(label, values[0] if len(values) == 1 else values) for label, values in merged]


def _value_text(value: Any, words: Words) -> str:
    if isinstance(value, bool):
        return words(msg("yes") if value else msg("no"))
    if isinstance(value, (list, tuple)):  # names apart by commas, dice by spaces
        parts = [_value_text(v, words) for v in value]
        return (", " if any(" " in part for part in parts) else " ").join(parts) or "—"
    if isinstance(value, Mapping):
        return ", ".join(f"{words(str(k))} {_value_text(v, words)}" for k, v in value.items())
    if isinstance(value, str):
        return words(value)
    return value if isinstance(value, str) else str(value)


def _words(value: Any) -> str:
    """A view's text as it came (a ``Text`` keeps its message, so it is translated with
    its arguments); anything else as a string."""
    return value if isinstance(value, str) else str(value)
