"""Translation catalogues, gettext style: the English text is the key.

Every package (``rules/<game>``, ``ui``, ``device``...) may hold ``i18n/<lang>.toml``
files mapping English templates to translations. English needs a catalogue only for
the ids of a game's data files shown as words (Dicequest's "2-swords" face reads "2
swords"); a missing translation falls back to the key, and ``tests/test_i18n.py``
checks that Spanish covers every message the games actually produce.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any

from dicetable.rules.core import Msg, Text

LANGUAGES = ("en", "es")
PACKAGES = ("dicetable.device", "dicetable.ui", "dicetable.rules")


@cache
def catalogue(lang: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for package in _packages_with_i18n():
        path = resources.files(package).joinpath("i18n", f"{lang}.toml")
        if path.is_file():
            try:
                entries = tomllib.loads(path.read_text(encoding="utf-8"))
            except tomllib.TOMLDecodeError as error:
                raise ValueError(f"{package}/i18n/{lang}.toml: {error}") from None
            merged.update(entries)
    return merged


def translate(message: Msg | str, lang: str = "en") -> str:
    """The message in ``lang``; arguments that are messages themselves (a card name,
    an ability) are translated too, and so is a view's ``Text`` (its ``Msg``)."""
    if isinstance(message, Text):
        message = message.msg
    text = message.text if isinstance(message, Msg) else message
    template = catalogue(lang).get(text, text)
    args = message.args if isinstance(message, Msg) else {}
    if not args:
        return template
    return template.format_map(
        {k: translate(v, lang) if isinstance(v, (Msg, Text)) else v for k, v in args.items()}
    )


def translate_view(view: Any, lang: str = "en") -> Any:
    """A game's ``view()`` with its words in ``lang``, keys included (a view without
    panels shows its keys as labels); numbers and other values stay as they are."""
    if isinstance(view, dict):
        return {translate(k, lang): translate_view(v, lang) for k, v in view.items()}
    if isinstance(view, (list, tuple)):
        return [translate_view(v, lang) for v in view]
    if isinstance(view, (str, Msg)):
        return translate(view, lang)
    return view


def _packages_with_i18n() -> list[str]:
    import pkgutil

    from dicetable import rules

    found = list(PACKAGES)
    found += [f"{rules.__name__}.{m.name}" for m in pkgutil.iter_modules(rules.__path__) if m.ispkg]
    return found
