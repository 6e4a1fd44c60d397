"""The game screen's answer to a roll: the tray's state, the objective (its faces
drawn as icons), its odds and the dice to keep, then the live tray view or the dice
pad, and the button that uses the dice.

Whatever the players typed is what is answered, by every path (the pad's button,
Enter, the hardware Confirm); the camera's dice are offered only when there are as
many as the roll asks for. A tap on a die in the tray view opens the correction.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView

from dicetable.device.table.runtime import Runtime
from dicetable.device.table.snapshots import GameSnapshot, TraySnapshot
from dicetable.rules.core import Die, Input, InputKind, Msg, Prompt, PromptKind
from dicetable.ui import theme
from dicetable.ui.correction import open_correction
from dicetable.ui.icons import face_button
from dicetable.ui.objective_line import ObjectiveLine, objective_needs
from dicetable.ui.text import Words, escape, msg, percent
from dicetable.ui.theme import Display
from dicetable.ui.tray_view import TrayView
from dicetable.ui.widgets import FitLabel, TapButton

#: a pad of more faces than this has rows of this many (the faces of one die)
PAD_ROW = 6
TRAY_STATES = {
    "rolling": msg("Rolling…"),
    "hand": msg("Hand in the tray"),
    "settled": msg("Settled"),
    "empty": msg("Tray empty"),
    "starting": msg("Starting camera…"),
    "no_camera": msg("No camera: type the dice"),
    "lost": msg("Camera lost: type the dice"),
}


class RollArea:
    """The roll's part of ``GameScreen`` (a mixin: it shares the screen's state)."""

    # what the screen provides
    display: Display
    runtime: Runtime
    t: Words
    state: GameSnapshot | None
    tray: TraySnapshot
    action: BoxLayout
    action_key: tuple
    tray_view: TrayView
    typed: list[Die]
    typing: bool
    showing_camera: bool
    last_roll: tuple[Die, ...]
    correction: ModalView
    objective: ObjectiveLine
    _show_action: Callable[[GameSnapshot], None]
    _show_meanings: Callable[[], None]
    _refuse: Callable[[Msg], None]

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

    def _roll_area(self, state: GameSnapshot) -> None:
        d = self.display
        heading = BoxLayout(size_hint_y=None, height=d.primary, spacing=d.pad)
        self.tray_status = FitLabel(max_font=d.secondary + 2, min_font=d.secondary, ellipsis=True)
        heading.add_widget(self.tray_status)
        # the faces it needs as dice, then up to two lines: objective, odds, what to keep
        self.objective = ObjectiveLine(d, heading)
        self.action.add_widget(heading)
        prompt = state.prompt
        if prompt.objective is not None or prompt.keep:
            self.action.add_widget(self.objective)
            needs = (
                [] if prompt.objective is None else objective_needs(prompt.objective, prompt.dice)
            )
            self.objective.show(self._objective_text(state), needs)
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
        if len(colours) > 1:  # one colour: nothing to pick
            colour_row = BoxLayout(size_hint_y=None, height=d.touch, spacing=d.pad)
            for name in colours:
                colour_row.add_widget(TapButton(d, self.t(name), partial(self._pick_colour, name)))
            pad.add_widget(colour_row)
        # many faces (Dicequest's eleven): rows of six, their icons alone, so every
        # button keeps a finger's height beside the objective at both sizes
        compact = len(faces) > PAD_ROW
        cols = PAD_ROW if compact else 3
        grid = GridLayout(cols=cols, spacing=d.pad)
        for face in faces:
            grid.add_widget(
                face_button(
                    d,
                    f"[b]{escape(self.t(face))}[/b]",
                    face,
                    lambda f=face: self.type_die(f),
                    profile=prompt.dice.profile if prompt.dice else "",
                    icon_only=compact,
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

    def ask_correction(self, index: int) -> None:
        """A tap on a die: choose what it really shows, on the frame looked at."""
        if self.state is None or self.state.prompt.kind is not PromptKind.ROLL:
            return
        request = self.state.prompt.dice
        self.correction = open_correction(
            self.display,
            self.t,
            self.tray,
            index,
            request.faces if request else (),
            request.profile if request else "",
            lambda i, die, frame: self.runtime.correct(i, die, frame_id=frame),
        )
