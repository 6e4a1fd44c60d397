"""The building blocks of every screen: filled boxes, labels that fit, buttons big
enough for a finger, the boss's gauge, the notices (value panels and cards are in
``ui.panel_box``).

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
