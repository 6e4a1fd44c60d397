"""``dicequest``: the player's Dicequest card catalogue, and games that use it.

dicetable dicequest cards            list the kept cards (and the shipped ones)
dicetable dicequest check            validate the catalogue folder
dicetable dicequest add FILE         keep the cards of a TOML file (also: import FILE)
dicetable dicequest new "LINE"       keep one card typed in one line:
    "Goblin Cave; adventure act 1; party 1-3; require 2 sword, 1 rune; light 1; rewards 8 5 3"
dicetable dicequest export [NAME]    every kept card in one TOML file, in the data
                                     folder's dicequest/exports/ (--stdout: printed)
dicetable dicequest remove ID        forget a kept card
dicetable dicequest keep GAME        keep the cards typed in during a saved game
dicetable dicequest play [...]       play with the catalogue (a snapshot is saved
                                     with the game, so it replays unchanged)
"""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path

from dicetable.device.commands import load_config, open_store
from dicetable.device.commands.play import drive, read_script
from dicetable.device.session import TableSession


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("dicequest", help="Dicequest card catalogue")
    sub = parser.add_subparsers(dest="action", required=True)
    cards = sub.add_parser("cards", help="list the cards")
    cards.add_argument("--lines", action="store_true", help="kept cards, one line each")
    cards.set_defaults(func=run_cards)
    sub.add_parser("check", help="validate the catalogue").set_defaults(func=run_check)
    add = sub.add_parser("add", aliases=["import"], help="keep the cards of a TOML file")
    add.add_argument("file", type=Path, help="read, never written")
    add.set_defaults(func=run_add)
    new = sub.add_parser("new", help="keep one card typed in one line")
    new.add_argument("line", help='"Name; adventure act 1; party 1-3; require 2 sword; ..."')
    new.set_defaults(func=run_new)
    export = sub.add_parser("export", help="every kept card in one TOML file")
    export.add_argument("name", nargs="?", default="cards", help="file name (default cards)")
    export.add_argument("--stdout", action="store_true", help="print it instead")
    export.set_defaults(func=run_export)
    remove = sub.add_parser("remove", help="forget a kept card")
    remove.add_argument("id")
    remove.set_defaults(func=run_remove)
    keep = sub.add_parser("keep", help="keep the cards typed in during a saved game")
    keep.add_argument("game", type=int, help="saved game number (see `dicetable saves`)")
    keep.set_defaults(func=run_keep)
    play = sub.add_parser("play", help="play Dicequest with the catalogue")
    play.add_argument("--seed", type=int)
    play.add_argument("--name", default="")
    play.add_argument("--script", type=Path, metavar="FILE")
    play.add_argument("--json", action="store_true")
    play.set_defaults(func=run_play)


def _data_dir(args: argparse.Namespace) -> Path:
    return load_config(args).data_dir


def run_cards(args: argparse.Namespace) -> int:
    from dicetable.rules.dicequest import catalogue
    from dicetable.rules.dicequest.data import shipped_cards

    found = catalogue.read(_data_dir(args))
    if args.lines:
        from dicetable.rules.dicequest.card_line import card_line

        for card in found.cards:
            print(card_line(card))
        return 0
    for origin, cards in (("shipped", shipped_cards()), ("kept", found.cards)):
        for card in cards:
            print(f"{origin:8s} {card.kind:9s} act {card.act}  {card.id:24s} {card.name!r:.60}")
    print(f"{len(found.cards)} kept in {catalogue.cards_dir(_data_dir(args))}")
    for problem in found.problems:
        print(f"dicetable: left out: {problem}", file=sys.stderr)
    return 0


def run_check(args: argparse.Namespace) -> int:
    from dicetable.rules.dicequest import catalogue

    data_dir = _data_dir(args)
    found = catalogue.read(data_dir)
    dice = catalogue.load_dice(data_dir)
    print(f"{len(found.cards)} cards OK" + ("; dice faces OK" if dice else ""))
    for problem in found.problems:
        print(f"dicetable: {problem}", file=sys.stderr)
    return 2 if found.problems else 0


def run_add(args: argparse.Namespace) -> int:
    from dicetable.device import dicequest_cards as cards
    from dicetable.rules.dicequest import catalogue

    data_dir = _data_dir(args)
    for card, replaced in cards.import_file(data_dir, args.file):
        done = "replaced" if replaced else "kept"
        print(f"{done} {card.name!r} in {data_dir / catalogue.card_file(card.id)}")
    return 0


def run_new(args: argparse.Namespace) -> int:
    from dicetable.device import dicequest_cards as cards
    from dicetable.rules.dicequest.card_line import parse_line

    card = parse_line(args.line, "the card's line")
    print(f"kept {card.name!r} ({card.id}) in {cards.add(_data_dir(args), card)}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    from dicetable.device import dicequest_cards as cards
    from dicetable.rules.dicequest import catalogue

    if args.stdout:
        print(catalogue.export_text(_data_dir(args)), end="")
        return 0
    count = len(catalogue.read(_data_dir(args)).cards)
    print(f"exported {count} cards to {cards.export(_data_dir(args), args.name)}")
    return 0


def run_remove(args: argparse.Namespace) -> int:
    from dicetable.device import dicequest_cards as cards

    if cards.remove(_data_dir(args), args.id):
        print(f"forgot {args.id}")
        return 0
    print(f"dicetable: no kept card {args.id!r}", file=sys.stderr)
    return 2


def run_keep(args: argparse.Namespace) -> int:
    from dicetable.device import dicequest_cards as cards
    from dicetable.rules.dicequest.game import Dicequest

    session = TableSession.resume(open_store(args), args.game)
    game = session.game
    if not isinstance(game, Dicequest):
        print(f"dicetable: saved game {args.game} is not Dicequest", file=sys.stderr)
        return 2
    for card in game.typed_cards:
        kept = cards.add(_data_dir(args), card)
        print(f"kept {card.name!r} in {kept}")
    if not game.typed_cards:
        print("no cards were typed in during that game")
    return 0


def run_play(args: argparse.Namespace) -> int:
    """Like ``dicetable play dicequest``, with the catalogue as the game's option."""
    from dicetable.device import dicequest_cards as cards
    from dicetable.rules.dicequest import catalogue
    from dicetable.rules.dicequest.game import Dicequest

    options = {Dicequest.CATALOGUE: catalogue.snapshot(_data_dir(args))}
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    script = read_script(args)  # before the game is saved: a bad script leaves no game
    session = TableSession.start(open_store(args), Dicequest.id, seed, options, args.name)
    session.subscribe(cards.keeper(_data_dir(args)))  # cards typed in are kept
    return drive(args, session, script, started=True)
