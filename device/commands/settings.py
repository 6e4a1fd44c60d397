"""``config``: show the settings in force, with their defaults documented."""

from __future__ import annotations

import argparse

from dicetable.device import config
from dicetable.device.commands import load_config


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("config", help="show the settings in force")
    parser.add_argument("--path", action="store_true", help="print only the file's path")
    parser.add_argument(
        "--defaults", action="store_true", help="print the documented defaults (a starting file)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.path:
        print(args.config or config.default_path())
        return 0
    if args.defaults:
        print(config.defaults_text(), end="")
        return 0
    settings = load_config(args)
    source = settings.path or f"defaults ({config.default_path()} does not exist)"
    print(f"# settings from {source}")
    print(f"# data folder: {settings.data_dir}")
    print(settings.to_toml(), end="")
    return 0
