"""The guided teach flow, from the settings (or the notice "dice not taught yet"):
choose the dice set, show each face in turn, capture it, save the profile the
reader then uses."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout

from dicetable.device.table.runtime import Runtime
from dicetable.device.table.snapshots import TeachableSet, TraySnapshot
from dicetable.rules.registry import DiceFace, DiceSet
from dicetable.ui import theme
from dicetable.ui.settings import _later, _Page
from dicetable.ui.text import Words, msg
from dicetable.ui.theme import Display
from dicetable.ui.tray_view import TrayView
from dicetable.ui.widgets import (
    FitLabel,
    TapButton,
    WrapLabel,
    scrolling_list,
)


class TeachScreen(_Page):
    """The guided teach flow: choose the dice, show each face in turn, capture it,
    save the profile.

    The chooser lists the dice sets the installed games read with (each game
    declares its own, faces named from its data: ``rules.registry.dice_sets``), the
    one a game is waiting for first. The profile is saved under the name the game
    asks for, so its next roll is read with it. The die is found in the settled tray
    by its body, so a face of symbols only is learnt as well as pips. Once every
    face has been shown, the flow goes round the faces again for whoever wants a
    surer reading (each capture adds an example of the face asked for: elsewhere in
    the tray, turned another way); Save works from the end of the first round on."""

    def __init__(
        self, display: Display, runtime: Runtime, words: Words, on_back: Callable[[], Any]
    ) -> None:
        super().__init__("teach", display, words, msg("Teach a dice set"), on_back)
        d = display
        self.runtime = runtime
        self.chosen: DiceSet | None = None
        self.face = 0
        self.chooser = BoxLayout(orientation="vertical", spacing=d.pad)
        self.chooser.add_widget(
            WrapLabel(
                text=self.t.markup(
                    msg("Which dice will you teach? Each game reads its own set of dice.")
                ),
                font_size=d.primary,
                color=theme.MUTED,
            )
        )
        scroll, self.sets = scrolling_list(d)
        self.chooser.add_widget(scroll)
        self.flow = BoxLayout(orientation="vertical", spacing=d.pad)
        self.which = FitLabel(
            max_font=d.secondary + 2,
            min_font=d.secondary,
            size_hint_y=None,
            height=d.secondary + d.pad,
            color=theme.TABLE,
            halign="left",
        )
        self.flow.add_widget(self.which)
        self.step = FitLabel(
            max_font=d.primary,
            min_font=d.secondary,
            size_hint_y=None,
            # three lines of a long face name ("arrow and rune (on a blue die)")
            height=d.secondary * (4 if d.portrait else 2) + d.pad,
            color=theme.PLAYER,
        )
        self.flow.add_widget(self.step)
        self.preview = TrayView(d)
        self.flow.add_widget(self.preview)
        row = BoxLayout(size_hint_y=None, height=d.touch, spacing=d.pad)
        self.capture = TapButton(
            d, self.t(msg("Capture")), self.take, colour=theme.dim(theme.SUCCESS)
        )
        self.save = TapButton(d, self.t(msg("Save")), self.store, colour=theme.dim(theme.TABLE))
        row.add_widget(self.capture)
        row.add_widget(self.save)
        row.add_widget(TapButton(d, self.t(msg("Other dice")), self.choose))
        self.flow.add_widget(row)
        self.note = FitLabel(
            max_font=d.secondary,
            min_font=d.secondary,
            size_hint_y=None,
            height=d.secondary * 2 + d.pad,
            color=theme.MUTED,
        )
        self.flow.add_widget(self.note)

    def on_pre_enter(self, *_: Any) -> None:
        self.choose()

    def choose(self) -> None:
        """Show the chooser: the sets the games read with, filled in when listed."""
        self.body.clear_widgets()
        self.body.add_widget(self.chooser)
        self.runtime.dice_sets().add_done_callback(
            lambda future: _later(lambda: self._list(future.result()))
        )

    def _list(self, sets: list[TeachableSet]) -> None:
        d = self.display
        self.sets.clear_widgets()
        for teachable in sets:
            dice = teachable.dice
            waiting = teachable.waiting
            button = TapButton(
                d,
                self.t.markup(dice.title),
                partial(self.start, dice),
                colour=theme.dim(theme.PLAYER, 0.6) if waiting else theme.SURFACE_HIGH,
            )
            button.outline = theme.TEXT if waiting else (0, 0, 0, 0)
            self.sets.add_widget(button)
            faces = " · ".join(self.t(face.label) for face in dice.faces)
            if waiting:
                status = msg("A game is waiting for these dice.")
            elif teachable.taught:
                status = msg("Taught: teaching them again replaces them.")
            else:
                status = msg("Not taught yet.")
            self.sets.add_widget(
                WrapLabel(
                    text=self.t.markup(msg("{status} Faces: {faces}", status=status, faces=faces)),
                    font_size=d.primary,
                    color=theme.TEXT if waiting else theme.MUTED,
                )
            )

    def start(self, dice: DiceSet) -> None:
        """Teach ``dice``: its faces are asked for by name, in the set's order."""
        self.chosen = dice
        self.face = 0
        self.note.text = ""
        self.which.text = self.t.markup(dice.title)
        self.body.clear_widgets()
        self.body.add_widget(self.flow)
        names = tuple(face.name for face in dice.faces)
        values = tuple(face.value for face in dice.faces)
        self.runtime.teach(dice.profile, names, values).add_done_callback(
            lambda _f: _later(self._ask)
        )

    @property
    def faces(self) -> tuple[DiceFace, ...]:
        return self.chosen.faces if self.chosen is not None else ()

    def _ask(self) -> None:
        asked = self.faces[self.face % len(self.faces)]
        face = asked.label
        self.runtime.show_face(asked.value, asked.name)  # the demo tray shows it
        if self.face < len(self.faces):
            self.step.text = self.t.markup(
                msg(
                    "Show me face {face}: one die, that face up, in the tray. "
                    "When it is still, press Capture.",
                    face=face,
                )
            )
        else:
            self.step.text = self.t.markup(
                msg(
                    "Every face is learnt: press Save. For a surer reading, show me"
                    " face {face} again, elsewhere in the tray, and press Capture.",
                    face=face,
                )
            )

    def take(self) -> None:
        if self.chosen is None:
            return

        def done(future: Any) -> None:
            missing = future.result()

            def show() -> None:
                if missing == 0:
                    self.note.text = self.t.markup(
                        msg("No still die seen: let it settle, then capture again.")
                    )
                    return
                if isinstance(missing, int):
                    self.note.text = self.t.markup(
                        msg(
                            "{count} dice seen: leave exactly one die in the tray,"
                            " then capture again.",
                            count=missing,
                        )
                    )
                    return
                learnt = self.faces[self.face % len(self.faces)].label
                done = min(self.face + 1, len(self.faces))
                self.note.text = self.t.markup(
                    msg(
                        "Face {face} learnt ({done} of {total}).",
                        face=learnt,
                        done=done,
                        total=len(self.faces),
                    )
                )
                self.face += 1
                self._ask()

            _later(show)

        self.runtime.teach_face(self.face % len(self.faces)).add_done_callback(done)

    def store(self) -> None:
        if self.chosen is None:
            return
        if self.face < len(self.faces):
            self.note.text = self.t.markup(msg("Teach every face first."))
            return
        title = self.chosen.title

        def done(future: Any) -> None:
            future.result()
            _later(
                lambda: setattr(
                    self.note,
                    "text",
                    self.t.markup(
                        msg("Saved: {dice} are read as taught from the next roll on.", dice=title)
                    ),
                )
            )

        self.runtime.teach_save().add_done_callback(done)

    def show_tray(self, tray: TraySnapshot) -> None:
        self.preview.show(tray)
