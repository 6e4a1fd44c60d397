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

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView

from dicetable.device.table.runtime import Runtime
from dicetable.device.table.snapshots import GameSnapshot, Notice
from dicetable.hardware.actions import TableAction
from dicetable.rules.core import Die, Event, Input, Msg, Prompt, PromptKind
from dicetable.ui import game_over, ring_view, story, theme
from dicetable.ui.focus import option_order, scroll_into_view
from dicetable.ui.game_header import GameHeader
from dicetable.ui.number_entry import FAST_STEP, LARGE_RANGE
from dicetable.ui.objective_line import ObjectiveLine, objective_needs
from dicetable.ui.roll_area import RollArea
from dicetable.ui.text import Words, msg
from dicetable.ui.text_question import TextQuestion
from dicetable.ui.theme import Display
from dicetable.ui.tray_view import TrayView
from dicetable.ui.twin_bar import twin_bar
from dicetable.ui.values_column import ValuesColumn
from dicetable.ui.widgets import (
    FilledBox,
    FitLabel,
    HoldButton,
    TapButton,
    TwinButton,
    WrapLabel,
    scrolling_list,
    text_height,
    text_width,
)

#: the events of the last answers listed under the values
EVENTS_KEPT = 6


class GameScreen(RollArea, Screen):
    """The game being played (``RollArea`` answers its rolls)."""

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
        # each answer's events as the rules gave them: a language change tells the
        # log again in the new words
        self.history: list[tuple[Event, ...]] = []
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
        ring = (lambda: self.runtime.ring) if ring_view.wanted(self.runtime.settings) else None
        self.header = GameHeader(d, self.t, ring)
        root.add_widget(self.header)

        body = BoxLayout(
            orientation="vertical" if d.portrait else "horizontal",
            spacing=d.pad,
            padding=(d.pad, 0),
        )
        self.action = BoxLayout(orientation="vertical", spacing=d.pad)
        self.values = ValuesColumn(d, self.t)
        if d.portrait:
            self.action.size_hint_y, self.values.size_hint_y = 0.6, 0.4
            body.add_widget(self.action)
            body.add_widget(self.values)
        else:
            self.values.size_hint_x = self.action.size_hint_x = 0.5
            body.add_widget(self.values)
            body.add_widget(self.action)
        root.add_widget(body)

        self.prompt_bar = FilledBox(
            size_hint_y=None, height=round(d.primary * 1.6), padding=(d.pad, 0)
        )
        self.prompt_line = FitLabel(max_font=d.primary, min_font=d.secondary)
        self.prompt_bar.add_widget(self.prompt_line)
        root.add_widget(self.prompt_bar)
        self.root_box = root
        twins, self.twins = twin_bar(d, self.t, self.on_action)
        root.add_widget(twins)
        self.add_widget(root)

        self.tray_view = TrayView(d, on_die=self.ask_correction)

    # state in ----------------------------------------------------------------------
    def show_state(self, state: GameSnapshot) -> None:
        """Show a new snapshot. The action area is rebuilt only when the question or
        its focus changed; otherwise only texts change (a Pi redraws labels slowly)."""
        previous = self.state
        new_prompt = previous is None or previous.prompt != state.prompt
        answered = previous is not None and previous.inputs != state.inputs
        if state.history is not None or (
            previous is not None and previous.saved_id != state.saved_id
        ):
            self._begin_log(state.history or ())  # another game, or one resumed
        self.state = state
        happened = self._take_events(state.events)
        asked = None if previous is None else previous.prompt.actor
        if answered and story.is_story(happened, asked):
            self.story = story.Story(story.steps(happened))
        if new_prompt or answered:
            self.typed = []
            self.typing = False
            self.focus_set_for = None
        if state.prompt.kind is PromptKind.OVER and self.rank is None:
            self._ask_rank(state)
        self.header.show(state)
        self._show_prompt(state)
        self.values.show(state, self.recent)
        action_key = self._action_key()
        if action_key != self.action_key or answered or happened:
            self.action_key = action_key
            self._show_action(state)
        elif state.prompt.kind is PromptKind.ROLL:
            self._show_tray_status()
            self._show_typed()
        self._show_meanings()

    def _begin_log(self, history: Sequence[Sequence[Event]]) -> None:
        """A game begun or resumed: its log and its latest events are what its saved
        moves caused (a resumed game tells its whole story again)."""
        self.log, self.recent, self.story, self.rank, self.result = [], [], None, None, {}
        self.history = []
        for events in history:
            self._take_events(events)

    def _take_events(self, events: Sequence[Event]) -> list[story.Told]:
        """An answer's events into the log and the latest events (newest answer
        first, each answer's events in their order)."""
        self.recent[:0] = [(str(e.kind), self.t(e.text)) for e in events]
        del self.recent[EVENTS_KEPT:]
        if events:
            self.history.append(tuple(events))
            del self.history[: -story.LOG_KEPT]
        happened = story.told(events, self.t)
        self.log += happened
        del self.log[: -story.LOG_KEPT]
        return happened

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
        """What is wrong at the table, right above the values the players read."""
        self.values.show_notices(notices, self.on_teach)

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
        room = d.width - 4 * d.pad
        wraps = text_width(line, d.secondary) > room and not self.prompt_line.ellipsis
        one_line = round(d.primary * 1.6)
        # a long question takes the lines it needs (a Dicequest pool and its needs)
        tall = text_height(line, d.secondary, room) + d.pad * 2 if wraps else 0
        self.prompt_bar.height = max(one_line, tall, d.secondary * 2 + d.pad * 3 if wraps else 0)
        self.prompt_line.text = line

    def _refuse(self, why: Msg) -> None:
        """A press the screen refuses itself, said in red where the game says its own."""
        self._paint_prompt(why, theme.FAILURE, refused=True, ellipsis=False)

    # the action area ---------------------------------------------------------------
    def _show_action(self, state: GameSnapshot) -> None:
        self.action.clear_widgets()
        prompt = state.prompt
        if self.display.portrait:  # the question takes the room it needs, values the rest
            self.action.size_hint_y = 0.45 if self.story_open() else _portrait_share(prompt)
            tree = self.values.has_tree()
            if tree and prompt.kind is not PromptKind.ROLL:  # the tree needs half the body
                self.action.size_hint_y = min(self.action.size_hint_y, 0.45)
            self.values.size_hint_y = 1 - self.action.size_hint_y
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
        elif prompt.kind is PromptKind.TEXT and prompt.entry is not None:
            self.action.add_widget(TextQuestion.asking(self, prompt.entry))
        else:
            self._over_area(state)

    def _choose_area(self, state: GameSnapshot) -> None:
        """The options as big buttons, the answer that moves the game on first
        (``option_order``); the focused one framed and scrolled into sight."""
        d = self.display
        objective = state.prompt.objective
        if objective is not None:  # a quest's roll goes on: what it still needs
            line = ObjectiveLine(d, None)
            line.show(self._objective_text(state), objective_needs(objective, state.prompt.dice))
            self.action.add_widget(line)
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


def _portrait_share(prompt: Prompt) -> float:
    """How much of the portrait body the action area takes, by kind of question."""
    if prompt.kind in (PromptKind.ROLL, PromptKind.TEXT):  # the tray, the letter pad
        return 0.62
    if prompt.kind is PromptKind.CHOOSE:
        return min(0.62, 0.1 + 0.1 * len(prompt.options))
    if prompt.kind is PromptKind.NUMBER:
        return 0.45
    if prompt.kind is PromptKind.OVER:  # who won, the score, how, the rank
        return 0.55
    return 0.35
