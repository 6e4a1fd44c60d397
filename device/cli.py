"""The ``dicetable`` command. Each subcommand lives in ``device/commands/<name>.py``
with a ``register(commands)`` function, so a part of the product adds its commands
without touching this file."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import pkgutil
import sys
from pathlib import Path

from dicetable.device import commands, logs
from dicetable.device.config import ConfigError
from dicetable.device.session import ReplayError
from dicetable.device.store import StoreError
from dicetable.rules.core import NotFound

log = logging.getLogger("dicetable")

#: errors that are the user's situation, not a bug: one clear line, exit code 2 (a
#: bare KeyError, AttributeError... is a bug: its traceback goes to the log)
USER_ERRORS = (ConfigError, StoreError, ReplayError, NotFound, ValueError, OSError)
BROKEN_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a writer `head` closed


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
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, not as Python exits
        return code
    except BrokenPipeError:  # `dicetable saves | head`: the reader has had enough
        _silence_stdout()
        return BROKEN_PIPE
    except USER_ERRORS as error:
        print(f"dicetable: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        log.exception("dicetable %s failed", args.command)
        print(
            f"dicetable: bug: {type(error).__name__}: {error} (the traceback is in the log"
            " above; please report it)",
            file=sys.stderr,
        )
        return 1


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so flushing it at exit raises nothing."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # not a real file (a test's capture)
        pass


if __name__ == "__main__":
    sys.exit(main())
