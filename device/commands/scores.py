"""``scores``: the high-score tables, best first, per game and mode (party, heroes)."""

from __future__ import annotations

import argparse
import json
import time

from dicetable.device.commands import open_store


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("scores", help="show the high scores, best first")
    parser.add_argument("game", nargs="?", help="only this game (see `dicetable games`)")
    parser.add_argument("--mode", help="only this mode of the game")
    parser.add_argument("--limit", type=int, default=10, help="rows per table (default 10)")
    parser.add_argument("--json", action="store_true", help="one JSON object per score")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    store = open_store(args)
    tables = [
        (game, mode)
        for game, mode in store.score_tables()
        if args.game in (None, game) and args.mode in (None, mode)
    ]
    if not tables and not args.json:
        print("No high scores yet.")
    for game, mode in tables:
        rows = store.high_scores(game, mode, args.limit)
        if args.json:
            for rank, row in enumerate(rows, start=1):
                print(json.dumps({"game": game, "rank": rank, **row}))
            continue
        print(f"{game}" + (f" ({mode})" if mode else ""))
        for rank, row in enumerate(rows, start=1):
            who = ", ".join(part for part in (row["party"], row["heroes"]) if part)
            day = time.strftime("%Y-%m-%d", time.localtime(row["at"]))
            print(f"  {rank:2d}. {row['score']:5d}  {who or '-'}  {day}")
    return 0
