"""The correction dialog: a tap on a die in the tray view asks what it really
shows, beside the die's own picture cut from the frame the player looked at. The
fix is bound to that frame, so a bumped tray while the dialog is open never
changes the wrong die."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.graphics.texture import Texture
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.modalview import ModalView

from dicetable.device.table.snapshots import TraySnapshot
from dicetable.rules.core import Die
from dicetable.ui import theme
from dicetable.ui.icons import face_button
from dicetable.ui.text import Words, escape, msg
from dicetable.ui.theme import Display
from dicetable.ui.widgets import FilledBox, FitLabel, TapButton

#: the die's picture shows this many times its side (its neighbourhood too)
DIE_MARGIN = 1.6
#: the faces offered when the roll names none: a plain d6
PLAIN_FACES = tuple("123456")


def open_correction(
    display: Display,
    words: Words,
    tray: TraySnapshot,
    index: int,
    faces: Sequence[str],
    profile: str,
    on_fix: Callable[[int, Die, int], Any],
) -> ModalView:
    """The dialog for die ``index`` of ``tray``; a chosen face calls
    ``on_fix(index, die, frame id)``."""
    d = display
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
            text=words.markup(
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
        on_fix(index, Die(value, face, colour), tray.frame_id)

    for face in faces or PLAIN_FACES:
        grid.add_widget(
            face_button(
                d,
                f"[b]{escape(words(face))}[/b]",
                face,
                lambda f=face: pick(f),
                profile=profile,
                size_hint_y=1,
            )
        )
    box.add_widget(grid)
    box.add_widget(TapButton(d, words(msg("Cancel")), lambda: view.dismiss(animation=False)))
    view.add_widget(box)
    view.open(animation=False)
    return view


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
