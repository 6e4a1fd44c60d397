"""Writing one setting to the player's settings file, checked like any setting.

The file keeps only the keys the player changed; a key that does not check, or a file
that is not valid TOML, leaves the file exactly as the player wrote it.
"""

from __future__ import annotations

import os
import tomllib
from typing import Any

from dicetable.device import config
from dicetable.device.config import Config, ConfigError


def save_setting(settings: Config, dotted: str, value: Any) -> Config:
    """Write ``dotted = value`` to the settings' file (atomically: a power cut leaves
    the old file or the new one); returns the settings read back from it."""
    path = settings.path or config.default_path()
    section, key = dotted.split(".", 1)
    config.check(path, dotted, value, settings.values[section])
    try:
        user = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except tomllib.TOMLDecodeError as error:  # never write over the player's file
        raise ConfigError(f"{path}: not valid TOML ({error}); fix it first") from None
    user.setdefault(section, {})[key] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(Config(user, path).to_toml(), encoding="utf-8")
    try:  # another key with a mistake: the file is left as the player wrote it
        config.load(temporary, settings.data_folder)
    except ConfigError as error:
        temporary.unlink()
        why = str(error).removeprefix(f"{temporary}: ")
        raise ConfigError(f"{path}: {dotted} not saved: {why}; fix it first") from None
    os.replace(temporary, path)
    return config.load(path, settings.data_folder)
