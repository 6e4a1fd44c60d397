"""One TOML file of settings over documented defaults (``defaults.toml``).

The defaults file is the schema: a key that is not in it is an error, a value must
have the default's type, and ``ALLOWED`` narrows some keys to listed choices or a
range. Every error names the file, the key, the value and what is allowed.
"""

from __future__ import annotations

import math
import os
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from dicetable.rules.data_files import DataError, parse_toml
from dicetable.rules.text_files import TextFileError, read_text

ENV_CONFIG = "DICETABLE_CONFIG"
ENV_DATA = "DICETABLE_DATA"

ALLOWED: dict[str, tuple[Any, ...] | range] = {
    "camera.source": ("auto", "picamera2", "opencv", "folder", "synthetic", "none"),
    "camera.rotation": (0, 90, 180, 270),
    "camera.fps": range(1, 121),
    "buttons.source": ("auto", "gpio", "keyboard", "none"),
    "leds.protocol": ("adalight", "wled-json"),
    "leds.count": range(1, 1025),
    "leds.baudrate": (9600, 57600, 115200, 230400, 460800, 500000, 921600, 1000000, 1500000),
    "leds.offset": range(0, 1024),
    "ui.language": ("en", "es"),
    "ui.orientation": ("landscape", "portrait"),
}
POSITIVE = {
    "camera.timeout",
    "vision.settle_seconds",
    "camera.width",
    "camera.height",
    "buttons.hold_time",
}
FRACTION = {"leds.brightness", "buttons.debounce"}
AREAS = {"camera.tray"}  # [left, top, right, bottom] as fractions of the picture
MAX_FILE_BYTES = 1 << 20  # the documented defaults are 10 kB


class ConfigError(ValueError):
    """A setting that cannot be used; the message says where and what is allowed."""


def defaults_text() -> str:
    return resources.files(__package__).joinpath("defaults.toml").read_text(encoding="utf-8")


def default_path() -> Path:
    if os.environ.get(ENV_CONFIG):
        return Path(os.environ[ENV_CONFIG])
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "dicetable" / "config.toml"


@dataclass(frozen=True)
class Config:
    values: dict[str, dict[str, Any]]
    path: Path | None  # the user's file, or None when only defaults apply
    #: the data folder named on the command line (``--data``): over everything else
    data_folder: Path | None = None

    def __getitem__(self, dotted: str) -> Any:
        section, key = dotted.split(".", 1)
        return self.values[section][key]

    def section(self, name: str) -> dict[str, Any]:
        return dict(self.values[name])

    @property
    def data_dir(self) -> Path:
        """Where games, profiles and logs live: ``--data``, else ``$DICETABLE_DATA``,
        else ``storage.data_dir``, else the XDG data folder."""
        if self.data_folder is not None:
            return self.data_folder
        if os.environ.get(ENV_DATA):
            return Path(os.environ[ENV_DATA])
        if self["storage.data_dir"]:
            return Path(self["storage.data_dir"]).expanduser()
        base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
        return Path(base) / "dicetable"

    def to_toml(self) -> str:
        lines: list[str] = []
        for section, keys in self.values.items():
            lines.append(f"[{section}]")
            lines += [f"{key} = {_toml_value(value)}" for key, value in keys.items()]
            lines.append("")
        return "\n".join(lines)


def load(path: Path | None = None, data_folder: Path | None = None) -> Config:
    """Defaults, overlaid with the user's file when it exists (``path`` or the default);
    ``data_folder`` is the data folder named on the command line, if any."""
    values = tomllib.loads(defaults_text())
    path = path or default_path()
    if not path.exists():
        return Config(values, None, data_folder)
    try:
        user = parse_toml(read_text(path, MAX_FILE_BYTES), str(path))
    except TextFileError as error:
        raise ConfigError(str(error)) from None
    except DataError as error:
        problem = str(error).removeprefix(f"{path}: ")
        raise ConfigError(f"{path}: not valid TOML: {problem}") from None
    for section, keys in user.items():
        if section not in values or not isinstance(keys, dict):
            raise ConfigError(
                f"{path}: unknown section [{section}] (sections: {', '.join(values)})"
            )
        for key, value in keys.items():
            values[section][key] = check(path, f"{section}.{key}", value, values[section])
    return Config(values, path, data_folder)


def check(path: Path, dotted: str, value: Any, section: dict[str, Any]) -> Any:
    key = dotted.split(".", 1)[1]
    if key not in section:
        raise ConfigError(f"{path}: unknown key {dotted} (keys: {', '.join(section)})")
    default = section[key]
    if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if type(value) is not type(default):
        raise ConfigError(
            f"{path}: {dotted} = {value!r} must be a {type(default).__name__} (default {default!r})"
        )
    if isinstance(value, float) and not math.isfinite(value):
        raise ConfigError(f"{path}: {dotted} = {value!r} must be a finite number")
    if dotted in AREAS:
        return _area(path, dotted, value)
    allowed = ALLOWED.get(dotted)
    if isinstance(allowed, range) and value not in allowed:
        raise ConfigError(
            f"{path}: {dotted} = {value!r} must be from {allowed.start} to {allowed.stop - 1}"
        )
    if isinstance(allowed, tuple) and value not in allowed:
        choices = ", ".join(repr(a) for a in allowed)
        raise ConfigError(f"{path}: {dotted} = {value!r} must be one of {choices}")
    if dotted in POSITIVE and value <= 0:
        raise ConfigError(f"{path}: {dotted} = {value!r} must be greater than 0")
    if dotted in FRACTION and not 0 <= value <= 1:
        raise ConfigError(f"{path}: {dotted} = {value!r} must be from 0 to 1")
    return value


def _area(path: Path, dotted: str, value: list[Any]) -> list[float]:
    """Four fractions of the picture, left < right and top < bottom."""
    allowed = "[left, top, right, bottom], numbers from 0 to 1, left < right, top < bottom"
    numbers = [v for v in value if isinstance(v, int | float) and not isinstance(v, bool)]
    if len(value) != 4 or len(numbers) != 4 or not all(0 <= v <= 1 for v in numbers):
        raise ConfigError(f"{path}: {dotted} = {value!r} must be {allowed}")
    left, top, right, bottom = (float(v) for v in numbers)
    if not (left < right and top < bottom):
        raise ConfigError(f"{path}: {dotted} = {value!r} must be {allowed}")
    return [left, top, right, bottom]


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)
