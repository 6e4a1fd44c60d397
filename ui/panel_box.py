"""The values column's boxes: a side's tracked values (``PanelBox``: boss in violet,
players in blue, each row with its token icon) and a card drawn this turn
(``CardBox``). Both are as tall as their text, so nothing is ever cut."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from dicetable.ui import theme
from dicetable.ui.theme import Display
from dicetable.ui.widgets import FilledBox, FitLabel, WrapLabel, text_height, text_width


class PanelBox(FilledBox):
    """One side's tracked values: a title in the side's colour, then rows of label
    and value. A short value stays on its label's line, at the right, and a long
    label wraps beside it ("Bonus Damage", "Daño Extra"); only a value too wide to
    share the line (a list of tokens) goes on a line of its own."""

    def __init__(
        self,
        display: Display,
        title: str,
        actor: str,
        rows: Sequence[tuple[str, str]],
        width: float,
        icons: Sequence[str] = (),
    ) -> None:
        """``icons`` names each row's token icon (``ui.icons.TOKENS``), "" for none."""
        from dicetable.ui.icons import TOKENS, TokenIcon

        colour = theme.actor_colour(actor)
        line = display.primary + display.pad
        inner = width - 2 * display.pad  # inside the padding
        super().__init__(
            orientation="vertical",
            size_hint_y=None,
            fill=theme.dim(colour, 0.22),
            outline=colour,
            padding=display.pad,
        )
        # per row: its label, whether the value sits beside it, the two labels
        self.values: list[tuple[str, bool, FitLabel, FitLabel]] = []
        # a long name ("Ladrón de las Sombras (2)") wraps onto a second line
        title_h = text_height(f"[b]{title}[/b]", display.secondary, inner - LABEL_MARGIN)
        parts: list[Widget] = [
            FitLabel(
                text=f"[b]{title}[/b]",
                color=colour,
                max_font=display.primary,
                min_font=display.secondary,
                size_hint_y=None,
                height=max(line, title_h + display.pad),
            )
        ]
        icon_w = display.secondary + display.pad
        for row_index, (label, value) in enumerate(rows):
            icon = icons[row_index] if row_index < len(icons) else ""
            icon = icon if icon in TOKENS else ""
            value_w = text_width(f"[b]{value}[/b]", display.primary) + LABEL_MARGIN
            beside = _beside(value_w, inner)
            label_room = inner - value_w - display.pad if beside else inner
            if icon:
                label_room -= icon_w + display.pad
            label_h = text_height(label, display.secondary, label_room - LABEL_MARGIN)
            name = FitLabel(
                text=label,
                color=theme.MUTED,
                max_font=display.secondary + 2,
                min_font=display.secondary,
                halign="left",
                size_hint_y=None,
                height=max(line, label_h + display.pad),
            )
            shown = FitLabel(
                text=f"[b]{value}[/b]",
                max_font=display.primary,
                min_font=display.secondary,
                halign="right" if beside else "left",
                size_hint_y=None,
                height=line
                if beside
                else max(line, text_height(value, display.secondary, inner - LABEL_MARGIN)),
            )
            self.values.append((label, beside, name, shown))
            head: Widget = name
            if icon:  # the token drawn before its name
                head = BoxLayout(size_hint_y=None, height=name.height, spacing=display.pad)
                head.add_widget(TokenIcon(name=icon, colour=colour, size_hint_x=None, width=icon_w))
                head.add_widget(name)
            if beside:
                row = BoxLayout(size_hint_y=None, height=name.height, spacing=display.pad)
                shown.height = name.height
                shown.size_hint_x, shown.width = None, value_w
                row.add_widget(head)
                row.add_widget(shown)
                parts.append(row)
            else:
                parts += [head, shown]
        for part in parts:
            self.add_widget(part)
        self.height = sum(p.height for p in parts) + display.pad * 2
        self.display, self.inner = display, inner
        self.heading = (title, actor, width)

    def refresh(
        self, title: str, actor: str, rows: Sequence[tuple[str, str]], width: float
    ) -> bool:
        """New values in the same rows: change the texts and build nothing. False
        when the rows changed shape (the caller builds a new panel)."""
        if (title, actor, width) != self.heading or len(rows) != len(self.values):
            return False
        for (label, beside, _, shown), (new_label, value) in zip(self.values, rows, strict=True):
            value_w = text_width(f"[b]{value}[/b]", self.display.primary) + LABEL_MARGIN
            if new_label != label or _beside(value_w, self.inner) != beside:
                return False
            if beside and value_w > shown.width:  # the label would need to wrap anew
                return False
        for (_, _, _, shown), (_, value) in zip(self.values, rows, strict=True):
            shown.text = f"[b]{value}[/b]"
        return True


#: what a FitLabel keeps free beside its text (see ``FitLabel._fit``)
LABEL_MARGIN = 8


def _beside(value_w: float, inner: float) -> bool:
    """A value sits on its label's line when it leaves the label half the row."""
    return value_w <= inner / 2


class CardBox(FilledBox):
    """A card drawn this turn: its title and its full text."""

    def __init__(self, display: Display, title: str, text: str) -> None:
        super().__init__(
            orientation="vertical",
            size_hint_y=None,
            fill=theme.dim(theme.BOSS, 0.2),
            outline=theme.BOSS,
            padding=display.pad,
        )
        self.title = WrapLabel(text=f"[b]{title}[/b]", font_size=display.primary, color=theme.BOSS)
        self.body = WrapLabel(text=text, font_size=display.primary)
        self.add_widget(self.title)
        self.add_widget(self.body)
        for label in (self.title, self.body):
            label.bind(height=self._grow)
        self._grow()

    def _grow(self, *_: Any) -> None:
        self.height = self.title.height + self.body.height + 2 * self.padding[1] + 4
