"""What every game's TOML data files share: reading them and checking them field by field.

A player who adds a card or a monster must see at once what is wrong, so every error
names the file, the entry and the field. Pure: reads a package's own data with
``importlib.resources`` (or TOML text a caller already read), no other I/O.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any

MISSING: Any = ...  # no default: the field is required


class DataError(ValueError):
    """A data file that does not fit its schema; the text says file, entry and field."""

    @classmethod
    def at(cls, file: str, entry: str, field: str, problem: str, sep: str = " ") -> DataError:
        """``file: entry: field 'name' problem`` (``sep=": "`` when the problem is a noun)."""
        return cls(f"{file}: {entry}: field {field!r}{sep}{problem}")


def parse_toml(text: str, file: str) -> dict[str, Any]:
    """TOML text, with every way it can fail (a syntax error, arrays nested thousands
    deep, a number of thousands of digits) turned into a DataError naming ``file``."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DataError(f"{file}: {error}") from None
    except RecursionError:
        raise DataError(f"{file}: tables or lists nested too deeply to read") from None
    except ValueError as error:  # int(): "Exceeds the limit (4300 digits)"
        raise DataError(f"{file}: a value cannot be read ({error})") from None


def package_text(package: str, *parts: str) -> str:
    """A data file shipped inside ``package`` (``parts`` is its path in the package)."""
    return resources.files(package).joinpath(*parts).read_text(encoding="utf-8")


def read_toml(package: str, *parts: str, file: str | None = None) -> dict[str, Any]:
    """A package's TOML data file, parsed; errors name it as ``file`` (default: the path)."""
    return parse_toml(package_text(package, *parts), file or "/".join(parts))


def kind_name(kind: type | tuple[type, ...]) -> str:
    """A type as a player reads it: ``int`` is "a whole number"."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {int: "a whole number", str: "text", bool: "true/false", list: "a list"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def field_value(
    table: Mapping[str, Any],
    field: str,
    kind: type | tuple[type, ...],
    default: Any,
    fail: Callable[[str, str], DataError],
) -> Any:
    """``table[field]`` checked to be of ``kind``; ``fail(field, problem)`` builds the
    error, so a game with its own way of naming places still shares the checks."""
    if field not in table:
        if default is MISSING:
            raise fail(field, "is missing")
        return default
    value = table[field]
    if (isinstance(value, bool) and kind is int) or not isinstance(value, kind):
        raise fail(field, f"should be {kind_name(kind)}, not {value!r}")
    return value


class Fields:
    """Typed access to one TOML table; a wrong field fails naming the file and the entry."""

    def __init__(self, file: str, entry: str, table: dict[str, Any]) -> None:
        self.file, self.entry, self.table = file, entry, table

    def fail(self, field: str, problem: str) -> DataError:
        return DataError.at(self.file, self.entry, field, problem)

    def get(
        self, field: str, kind: type | tuple[type, ...] = object, default: Any = MISSING
    ) -> Any:
        """The field, of ``kind`` (a bool is not a whole number); ``default`` when absent."""
        return field_value(self.table, field, kind, default, self.fail)

    def one_of(self, field: str, allowed: tuple[str, ...], default: Any = MISSING) -> str:
        value = self.get(field, str, default)
        if value not in allowed:
            raise self.fail(field, f"is {value!r}, not one of {', '.join(allowed)}")
        return value

    def ints(self, field: str, default: Any = MISSING) -> tuple[int, ...]:
        values = self.get(field, list, default)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise self.fail(field, f"should be a list of whole numbers, not {values!r}")
        return tuple(values)

    def strs(self, field: str, default: Any = MISSING) -> tuple[str, ...]:
        values = self.get(field, list, default)
        if not all(isinstance(v, str) for v in values):
            raise self.fail(field, f"should be a list of strings, not {values!r}")
        return tuple(values)
