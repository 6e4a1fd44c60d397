"""The building blocks of every screen: filled boxes, labels that fit, buttons big
enough for a finger, the boss's gauge, value panels and cards.

Labels never cut text: a one-line ``FitLabel`` shrinks its font until the text fits,
but not below the legible minimum it is given; a ``WrapLabel`` grows in height
instead. The screen tests check both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from dicetable.rules.core import msg
from dicetable.ui import theme
from dicetable.ui.theme import Display


class Filled(Widget):
    """Paints ``fill`` behind itself and an optional ``outline`` around it."""

    fill = ListProperty([0, 0, 0, 0])
    outline = ListProperty([0, 0, 0, 0])
    outline_width = NumericProperty(2)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        with self.canvas.before:
            self._fill_colour = Color(*self.fill)
            self._rect = Rectangle(pos=self.pos, size=self.size)
            self._outline_colour = Color(*self.outline)
            self._line = Line(rectangle=(*self.pos, *self.size), width=self.outline_width)
        self.bind(pos=self._redraw, size=self._redraw, fill=self._redraw, outline=self._redraw)

    def _redraw(self, *_: Any) -> None:
        self._fill_colour.rgba = self.fill
        self._rect.pos, self._rect.size = self.pos, self.size
        self._outline_colour.rgba = self.outline
        inset = self.outline_width
        self._line.rectangle = (
            self.x + inset,
            self.y + inset,
            max(0, self.width - 2 * inset),
            max(0, self.height - 2 * inset),
        )


class FilledBox(Filled, BoxLayout):
    pass


class FilledGrid(Filled, GridLayout):
    pass


class FitLabel(Label):
    """One line that always fits: the font shrinks from ``max_font`` down to
    ``min_font``; below that the text would be illegible, so it stops there (and the
    screen tests flag it)."""

    max_font = NumericProperty(20)
    min_font = NumericProperty(12)
    #: a legend that may end in "…" rather than wrap (the full text is shown elsewhere)
    ellipsis = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("color", theme.TEXT)
        kwargs.setdefault("markup", True)
        kwargs.setdefault("halign", "center")
        super().__init__(**kwargs)
        # a layout pass changes the size several times: fit once, before the frame
        self._refit = Clock.create_trigger(self._fit, -1)
        self.bind(text=self._refit, size=self._refit, max_font=self._refit)
        self._fitted: tuple = ()
        self._refit()

    def _fit(self, *_: Any) -> None:
        room_w, room_h = max(1, self.width), self.height
        key = (self.text, room_w, room_h, self.max_font, self.min_font, self.ellipsis)
        if key == self._fitted:
            return
        self._fitted = key
        self.shorten = False
        self.text_size = (None, None)
        self.font_size = self.max_font
        self.texture_update()
        width, height = self.texture_size
        if width > room_w - 6 or height > room_h:
            scale = min((room_w - 6) / max(1, width), room_h / max(1, height))
            self.font_size = max(self.min_font, int(self.max_font * scale))
            self.texture_update()
            while self.font_size > self.min_font and (
                self.texture_size[0] > room_w - 6 or self.texture_size[1] > room_h
            ):
                self.font_size -= 1
                self.texture_update()
        # at the smallest legible size a long text wraps rather than being cut
        self.text_size = (room_w, None)
        self.texture_update()
        if self.ellipsis and self.texture_size[1] > room_h:
            self.shorten = True
            self.shorten_from = "right"
            self.texture_update()

    @property
    def fits(self) -> bool:
        return self.texture_size[1] <= self.height + 1


class WrapLabel(Label):
    """Text that wraps to its width and takes the height it needs (in scroll lists)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("color", theme.TEXT)
        kwargs.setdefault("markup", True)
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("halign", "left")
        kwargs.setdefault("valign", "top")
        super().__init__(**kwargs)
        self.bind(width=self._wrap, texture_size=self._grow)
        self._wrap()

    def _wrap(self, *_: Any) -> None:
        self.text_size = (max(1, self.width - 8), None)

    def _grow(self, *_: Any) -> None:
        self.height = self.texture_size[1] + 4

    @property
    def fits(self) -> bool:
        return self.texture_size[0] <= self.width + 1


class Columns(BoxLayout):
    """Boxes of different heights in side-by-side columns, each column stacked from
    the top (a grid would align each row's boxes to its tallest)."""

    def __init__(self, spacing: float, **kwargs: Any) -> None:
        super().__init__(size_hint_y=None, spacing=spacing, **kwargs)
        self.gap = spacing
        self.cols = 0

    def fill(self, boxes: Sequence[Widget], cols: int) -> None:
        self.clear_widgets()
        self.cols = cols
        columns = [BoxLayout(orientation="vertical", spacing=self.gap) for _ in range(cols)]
        heights = [0.0] * cols
        for box in boxes:
            if box.parent is not None:  # a panel kept from the last picture
                box.parent.remove_widget(box)
            shortest = heights.index(min(heights))
            columns[shortest].add_widget(box)
            heights[shortest] += box.height + self.gap
        for column in columns:
            column.add_widget(Widget())  # the rest of a short column stays empty
            self.add_widget(column)
        self.height = max(heights, default=0)


class TapButton(ButtonBehavior, FilledBox):
    """A button at least one finger (9 mm) tall, with a caption that fits. With
    ``grow`` a long caption wraps at the body size and the button grows to hold it
    (list entries: a game's title, a saved game's line). ``focused`` frames it in
    the focus colour: CONFIRM would press it."""

    text = StringProperty("")
    focused = BooleanProperty(False)

    def __init__(
        self,
        display: Display,
        text: str = "",
        on_tap: Callable[[], Any] | None = None,
        colour: theme.RGBA = theme.SURFACE_HIGH,
        font: int | None = None,
        grow: bool = False,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", display.touch)
        super().__init__(fill=colour, padding=(display.pad, 0), **kwargs)
        self.display = display
        self.base_fill = colour
        self.grow = grow
        if grow:
            self.caption: Label = WrapLabel(
                text=text, font_size=font or display.primary, halign="center", valign="middle"
            )
            self.caption.bind(height=self._grow)
        else:
            self.caption = FitLabel(
                text=text, max_font=font or display.primary, min_font=display.secondary
            )
        self.add_widget(self.caption)
        self.bind(text=lambda _, value: setattr(self.caption, "text", value))
        self.text = text
        self._tap = on_tap
        with self.canvas.after:
            self._focus_colour = Color(0, 0, 0, 0)
            self._focus_line = Line(width=FOCUS_WIDTH)
        self.bind(pos=self._frame, size=self._frame, focused=self._frame)

    def _grow(self, *_: Any) -> None:
        self.height = max(self.display.touch, self.caption.height + self.display.pad)

    def _frame(self, *_: Any) -> None:
        self._focus_colour.rgba = theme.FOCUS if self.focused else (0, 0, 0, 0)
        self._focus_line.rectangle = (self.x + 1, self.y + 1, self.width - 2, self.height - 2)

    def press(self) -> None:
        """What a tap does, for CONFIRM on the focused button."""
        if self._tap is not None:
            self._tap()

    def on_press(self) -> None:
        self.fill = theme.dim(theme.TEXT, 0.5)

    def on_release(self) -> None:
        self.fill = self.base_fill
        self.press()


#: the width of the focus frame, in pixels
FOCUS_WIDTH = 3
#: a held button repeats after this long, then at this interval
HOLD_DELAY_S = 0.45
HOLD_REPEAT_S = 0.12


class HoldButton(TapButton):
    """A button that repeats while a finger holds it (+ and − of a number): its
    action runs at the press, then again and again until the finger lifts."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._repeat: Any = None

    def on_press(self) -> None:
        super().on_press()
        self.press()
        self._repeat = Clock.schedule_once(self._again, HOLD_DELAY_S)

    def _again(self, _dt: float) -> None:
        self.press()
        self._repeat = Clock.schedule_once(self._again, HOLD_REPEAT_S)

    def on_release(self) -> None:
        self.fill = self.base_fill
        if self._repeat is not None:
            self._repeat.cancel()
            self._repeat = None


class TwinButton(ButtonBehavior, FilledBox):
    """The on-screen twin of a hardware button: its name (and key) on top, what it
    does right now below, so the focus and every button's meaning are always shown."""

    def __init__(
        self,
        display: Display,
        name: str,
        on_tap: Callable[[], Any],
        colour: theme.RGBA,
        with_meaning: bool = True,
    ) -> None:
        super().__init__(
            orientation="vertical",
            fill=theme.dim(colour, 0.45),
            outline=colour,
            padding=(display.pad, display.pad / 2),
        )
        self.base_fill = theme.dim(colour, 0.45)
        size = display.secondary if with_meaning else display.primary
        self.name = FitLabel(text=name, max_font=size, min_font=display.secondary, color=colour)
        self.meaning = FitLabel(
            text="", max_font=display.secondary + 2, min_font=display.secondary, ellipsis=True
        )
        self.add_widget(self.name)
        if with_meaning:  # Undo and Menu always mean themselves: the name says it
            self.add_widget(self.meaning)
        self._tap = on_tap

    def on_press(self) -> None:
        self.fill = theme.dim(theme.TEXT, 0.5)

    def on_release(self) -> None:
        self.fill = self.base_fill
        self._tap()


class GaugeBar(Filled, BoxLayout):
    """The boss's health (or the dungeon's), as a bar with its numbers on it."""

    def __init__(self, display: Display, colour: theme.RGBA = theme.BOSS, **kwargs: Any) -> None:
        super().__init__(fill=theme.SURFACE, **kwargs)
        self.colour = colour
        self.ratio = 0.0
        with self.canvas.before:
            self._bar_colour = Color(*colour)
            self._bar = Rectangle()
        self.label = FitLabel(max_font=display.primary, min_font=display.secondary)
        self.add_widget(self.label)
        self.bind(pos=self._draw_bar, size=self._draw_bar)

    def show(self, label: str, value: int, maximum: int) -> None:
        self.ratio = 0.0 if maximum <= 0 else max(0.0, min(1.0, value / maximum))
        self.label.text = f"[b]{label}[/b]  {value} / {maximum}"
        self._draw_bar()

    def _draw_bar(self, *_: Any) -> None:
        self._bar.pos = self.pos
        self._bar.size = (self.width * self.ratio, self.height)
        self._bar_colour.rgba = theme.dim(self.colour, 0.75)


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


def text_height(text: str, font_size: float, width: float) -> float:
    """How tall ``text`` is when wrapped to ``width`` at ``font_size``."""
    from kivy.core.text.markup import MarkupLabel

    label = MarkupLabel(text=text, font_size=font_size, text_size=(max(1, width), None))
    label.refresh()
    return float(label.content_height)


def text_width(text: str, font_size: float) -> float:
    """How wide ``text`` (markup allowed) is drawn at ``font_size``."""
    from kivy.core.text.markup import MarkupLabel

    label = MarkupLabel(text=text, font_size=font_size)
    label.refresh()
    return float(label.content_width)


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


class NoticeBox(FilledBox):
    """What is wrong at the table (no camera, a full SD card, a damaged settings
    file...) and what to do: one wrapped line each, in red on a dark red fill, as
    tall as its text. It takes no room when there is nothing to say: the screen
    adds it only while ``texts`` is not empty."""

    def __init__(self, display: Display, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint_y", None)
        super().__init__(
            orientation="vertical",
            fill=theme.dim(theme.FAILURE, 0.25),
            outline=theme.FAILURE,
            padding=(display.pad, display.pad / 2),
            **kwargs,
        )
        self.display = display
        self.texts: tuple[str, ...] = ()
        self.shown_key: tuple = ()
        self.lines: list[Widget] = []

    def show(self, texts: Sequence[str], links: dict[int, Callable[[], Any]] | None = None) -> None:
        """The notices, already translated and escaped for markup; a notice in
        ``links`` is one tappable line that opens what fixes it."""
        links = links or {}
        key = (tuple(texts), tuple(sorted(links)))
        if key == self.shown_key:
            return
        self.shown_key = key
        self.texts = tuple(texts)
        self.clear_widgets()
        self.lines = []
        for index, text in enumerate(self.texts):
            line: Widget
            if index in links:
                line = TapButton(
                    self.display,
                    f"[b]![/b]  {text}",
                    links[index],
                    colour=theme.dim(theme.FAILURE, 0.45),
                    grow=True,
                )
            else:
                line = WrapLabel(
                    text=f"[b]![/b]  {text}", font_size=self.display.primary, color=theme.TEXT
                )
            self.lines.append(line)
        for line in self.lines:
            line.bind(height=self._fit_height)
            self.add_widget(line)
        self._fit_height()

    def _fit_height(self, *_: Any) -> None:
        gaps = self.spacing * max(0, len(self.lines) - 1)
        self.height = sum(line.height for line in self.lines) + self.display.pad + gaps


def notice_text(notice: Any, words: Any) -> tuple[str, bool]:
    """A notice in the players' words, and whether it is the one tappable line of
    dice not taught yet (the teach flow fixes it)."""
    if notice.topic == "dice":
        dice = getattr(notice.text, "args", {}).get("dice", "")
        return words.markup(msg("{dice}: not taught yet. Tap to teach them", dice=dice)), True
    return words.markup(notice.text), False


def scrolling_list(display: Display) -> tuple[ScrollView, GridLayout]:
    """A one-column list inside a vertical scroll view; the list grows with its rows,
    so a long one scrolls instead of squeezing them (every list on the screens)."""
    scroll = ScrollView(do_scroll_x=False, bar_width=display.mm(1.5))
    grid = GridLayout(cols=1, size_hint_y=None, spacing=display.pad)
    grid.bind(minimum_height=grid.setter("height"))
    scroll.add_widget(grid)
    return scroll, grid


def page_root(display: Display) -> FilledBox:
    """A screen's background box, header on top, padded from the display's edges."""
    return FilledBox(
        orientation="vertical", fill=theme.BACKGROUND, padding=display.pad, spacing=display.pad
    )


def title_row(display: Display, title: str, colour: theme.RGBA, max_font: float) -> BoxLayout:
    """A page's top row: its bold title on the left; the page adds its buttons."""
    header = BoxLayout(size_hint_y=None, height=display.touch, spacing=display.pad)
    header.add_widget(
        FitLabel(
            text=f"[b]{title}[/b]",
            color=colour,
            max_font=max_font,
            min_font=display.secondary,
            halign="left",
        )
    )
    return header
