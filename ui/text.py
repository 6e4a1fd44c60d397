"""Every text the screens show goes through here, so Spanish (or any catalogue in
``i18n/``) covers the UI's own words, the controller's button meanings and the
games' prompts, panels and cards alike."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dicetable.device.i18n import translate
from dicetable.rules.core import Msg, msg

__all__ = ["Words", "msg", "percent"]


class Words:
    def __init__(self, lang: str = "en") -> None:
        self.lang = lang

    def __call__(self, text: Msg | str, **args: Any) -> str:
        """Translate a Msg, or an English string (a game's view label, or a UI text
        with its arguments)."""
        if isinstance(text, str) and args:
            text = msg(text, **args)
        return translate(text, self.lang)

    def markup(self, text: Msg | str, **args: Any) -> str:
        """The same, safe to show in a markup label (``[`` in a die face or a name)."""
        return escape(self(text, **args))


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")


def percent(chance: Fraction | float) -> str:
    """A chance as people read it: "1.3%", "33.3%", "100%"; "<0.1%" when tiny."""
    value = float(chance) * 100
    if 0 < value < 0.1:
        return "<0.1%"
    shown = f"{value:.1f}".removesuffix(".0")
    return f"{shown}%"
