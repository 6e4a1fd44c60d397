"""``play``, ``resume``, ``saves``, ``delete`` and ``games``: the terminal client and
the saved-game list."""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from pathlib import Path

from dicetable.device.commands import load_config, open_store
from dicetable.device.i18n import translate
from dicetable.device.session import TableSession
from dicetable.device.terminal import ScriptError, Terminal
from dicetable.rules.core import msg
from dicetable.rules.registry import broken, games
from dicetable.rules.text_files import TextFileError, read_text


def register(commands: argparse._SubParsersAction) -> None:
    play = commands.add_parser("play", help="play a game in the terminal")
    play.add_argument("game", help="game id (see `dicetable games`)")
    play.add_argument("--seed", type=int, help="seed for shuffles (default: random)")
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="game option, e.g. difficulty=hard (repeatable)",
    )
    play.add_argument("--name", default="", help="a name for the saved game")
    _add_io(play)
    play.set_defaults(func=run_play)

    resume = commands.add_parser("resume", help="go on with a saved game")
    resume.add_argument("id", type=int, help="saved game number (see `dicetable saves`)")
    _add_io(resume)
    resume.set_defaults(func=run_resume)

    saves = commands.add_parser("saves", help="list saved games")
    saves.add_argument("--json", action="store_true")
    saves.set_defaults(func=run_saves)

    delete = commands.add_parser("delete", help="delete a saved game")
    delete.add_argument("id", type=int)
    delete.set_defaults(func=run_delete)

    listing = commands.add_parser("games", help="list the games and their options")
    listing.set_defaults(func=run_games)


def _add_io(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--script",
        type=Path,
        metavar="FILE",
        help="take answers from FILE, one per line (- for stdin)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON lines")


MAX_SCRIPT_BYTES = 1 << 20  # a whole evening's answers are a few kB


def run_play(args: argparse.Namespace) -> int:
    options = dict(_option(text) for text in args.option)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    script = read_script(args)  # before the game is saved: a bad script leaves no game
    store = open_store(args)
    session = TableSession.start(store, args.game, seed, options, args.name)
    return drive(args, session, script, started=True)


def run_resume(args: argparse.Namespace) -> int:
    script = read_script(args)
    return drive(args, TableSession.resume(open_store(args), args.id), script)


def read_script(args: argparse.Namespace) -> list[str] | None:
    """The lines of ``--script FILE``; None to read standard input."""
    if args.script is None or str(args.script) == "-":
        return None
    try:
        return read_text(args.script, MAX_SCRIPT_BYTES).splitlines()
    except TextFileError as error:
        raise ValueError(f"--script {error}") from None


def drive(
    args: argparse.Namespace,
    session: TableSession,
    script: list[str] | None,
    *,
    started: bool = False,
) -> int:
    """Play ``session`` from the script or standard input. A game ``started`` by this
    command whose script fails before any answer is kept is not left saved, empty."""
    lang = load_config(args)["ui.language"]
    terminal = Terminal(session, sys.stdout, as_json=args.json, lang=lang)
    if not args.json:
        header = msg(
            "{game}, saved game {id} (seed {seed})",
            game=session.saved.game,
            id=session.id,
            seed=session.saved.seed,
        )
        print(translate(header, lang))
    try:
        if script is not None:
            terminal.run(script, script=True)
        else:
            terminal.run(sys.stdin, script=args.script is not None)
    except ScriptError as error:
        if started and session.count == 0:
            session.store.delete_game(session.id)
        print(f"dicetable: {error}", file=sys.stderr)
        return 2
    return 0


def run_saves(args: argparse.Namespace) -> int:
    saved = open_store(args).saved_games()
    if args.json:
        for game in saved:
            print(json.dumps(game.__dict__))
        return 0
    if not saved:
        print("No saved games.")
    for game in saved:
        state = "finished" if game.over else "in play"
        name = f" {game.name!r}" if game.name else ""
        print(f"{game.id:4d}  {game.game}{name}  {state}, {game.inputs} answers")
    return 0


def run_delete(args: argparse.Namespace) -> int:
    open_store(args).delete_game(args.id)
    print(f"Deleted saved game {args.id}.")
    return 0


def run_games(args: argparse.Namespace) -> int:
    for game_id, game in games().items():
        options = "; ".join(f"{k}={'|'.join(v)}" for k, v in game.options_allowed.items())
        print(f"{game_id:22s} {game.title}" + (f"  ({options})" if options else ""))
    for package, error in broken().items():
        print(f"{package:22s} NOT LOADED: {error}")
    return 1 if broken() else 0


def _option(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep:
        raise ValueError(f"--option {text!r}: write NAME=VALUE")
    return name.strip(), value.strip()
