"""The ``dicetable`` command. Each subcommand lives in ``device/commands/<name>.py``
with a ``register(commands)`` function, so a part of the product adds its commands
without touching this file."""

from __future__ import annotations

import argparse
import importlib
import logging
import pkgutil
import sys
from pathlib import Path

from dicetable.device import commands, logs
from dicetable.device.config import ConfigError
from dicetable.device.session import ReplayError
from dicetable.device.store import StoreError

log = logging.getLogger("dicetable")

#: errors that are the user's situation, not a bug: one clear line, exit code 2
USER_ERRORS = (ConfigError, StoreError, ReplayError, KeyError, ValueError, FileNotFoundError)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dicetable",
        description="Table assistant: reads real dice, plays the boss, keeps the score.",
    )
    parser.add_argument("--config", type=Path, help="settings file (default: see `config`)")
    parser.add_argument("--data", type=Path, help="data folder for saved games and profiles")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        register = getattr(
            importlib.import_module(f"{commands.__name__}.{module.name}"), "register", None
        )
        if register is not None:  # a helper the commands share, not a command
            register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logs.setup(args.verbose)
    try:
        return int(args.func(args) or 0)
    except USER_ERRORS as error:
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        print(f"dicetable: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
