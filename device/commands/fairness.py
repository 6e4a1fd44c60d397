"""``dicetable fairness``: are the table's dice fair? From every saved game's rolls.

dicetable fairness                     # every dice set and colour rolled here
dicetable fairness --profile dicequest
dicetable fairness --json              # one JSON object per die
"""

from __future__ import annotations

import argparse
import json

from dicetable.device.commands import load_config
from dicetable.device.dice_fairness import BIASED_P, DieReport, report
from dicetable.device.roll_log import roll_log
from dicetable.device.store import Store

BAR_WIDTH = 30  # characters for a face seen as often as the die's most common face


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "fairness", help="face counts and a chi-square test of the dice rolled at this table"
    )
    parser.add_argument("--profile", help="only this dice profile (d6, dicequest, ...)")
    parser.add_argument("--json", action="store_true", help="one JSON object per die")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = load_config(args)
    store = Store.in_dir(settings.data_dir)
    try:
        log = roll_log(store, settings.data_dir)
    finally:
        store.close()
    reports = report(log.throws, args.profile)
    if args.json:
        for die in reports:
            print(json.dumps(die.to_json(), sort_keys=True))
        return 0
    if not reports:
        which = f" with the profile {args.profile!r}" if args.profile else ""
        print(f"No dice rolled{which} in the {log.games} saved games yet.")
    for die in reports:
        print(text(die))
    for line in log.stopped:
        print(f"(not counted past where it stops: {line})")
    return 0


def text(die: DieReport) -> str:
    """A die's report for the terminal: a bar per face, the test, the verdict."""
    verdict = die.verdict
    title = die.profile + (f", {die.color} die" if die.color else "")
    if not verdict.rolls:  # typed dice only: nothing to test, no bars to draw
        lines = [f"{title}: no dice read by the camera yet"]
    else:
        lines = [f"{title}: {verdict.words()}"]
    most = max(verdict.counts.values(), default=0)
    for face, count in verdict.counts.items() if verdict.rolls else ():
        bar = "#" * (round(BAR_WIDTH * count / most) if most else 0)
        share = verdict.shares[face]
        fair = verdict.fair_shares[face]
        lines.append(f"  {face:>10} {count:5d} {share:6.1%} (fair {fair:.1%}) {bar}")
    if verdict.rolls:
        lines.append(
            f"  chi-square {verdict.statistic:.2f}, {verdict.df} degrees of freedom, "
            f"p = {verdict.p:.4f} (biased below {BIASED_P})"
        )
    if die.typed:
        typed = ", ".join(f"{face}: {n}" for face, n in die.typed.items())
        lines.append(f"  typed by hand, not tested: {sum(die.typed.values())} ({typed})")
    if die.strange:
        lines.append(f"  read as a face this die does not have: {die.strange}")
    return "\n".join(lines)
