"""``dicetable odds``: the exact chance of a Dice Throne Roll Objective.

dicetable odds "2 sword + 2 pow" --hero barbarian --rolls 3 --keep optimal
dicetable odds "large straight" --keep boss --json
dicetable odds "small straight" --dice 1 2 3 6 6 --rolls 1   # 1 reroll left
"""

from __future__ import annotations

import argparse
import json


def register(commands: argparse._SubParsersAction) -> None:
    odds = commands.add_parser("odds", help="exact odds of a Dice Throne roll objective")
    odds.add_argument("objective", help='e.g. "3 sword", "2 sword + 2 pow", "large straight"')
    odds.add_argument("--hero", help="hero whose symbols the objective names (barbarian...)")
    odds.add_argument(
        "--rolls", type=int, default=3, help="roll attempts (with --dice: attempts still left)"
    )
    odds.add_argument("--keep", choices=("optimal", "boss"), default="optimal")
    odds.add_argument("--count", type=int, default=5, help="dice rolled (default 5)")
    odds.add_argument(
        "--dice", type=int, nargs="+", metavar="N", help="dice on the table now (face numbers)"
    )
    odds.add_argument("--hex", action="store_true", help="Hex: 6s count as blank")
    odds.add_argument("--json", action="store_true")
    odds.set_defaults(func=run_odds)


def run_odds(args: argparse.Namespace) -> int:
    from dicetable.rules.dicethrone.heroes import load_hero
    from dicetable.rules.dicethrone.objectives import parse_objective
    from dicetable.rules.dicethrone.odds import best_keep, chance, chance_from

    symbols = load_hero(args.hero).symbols if args.hero else None
    objective = parse_objective(args.objective, symbols)
    result: dict[str, object] = {"objective": objective.label, "keep": args.keep, "hex": args.hex}
    if args.dice:
        rerolls = args.rolls
        value = chance_from(objective, args.dice, rerolls, args.keep, args.hex)
        if args.keep == "boss":
            keep = objective.boss_keep(args.dice, args.hex)
        else:
            keep = best_keep(objective, args.dice, rerolls, args.hex)
        result.update(dice=args.dice, rolls_left=args.rolls, keep_dice=[i + 1 for i in keep])
        result["keep_values"] = [args.dice[i] for i in keep]
        result["met_now"] = objective.met_by(args.dice, args.hex)
        if args.hero and len(args.dice) == 5:
            met = load_hero(args.hero).met_abilities(args.dice, hex=args.hex)
            result["abilities"] = [f"{a.name} ({t.objective.label})" for a, t in met]
    else:
        value = chance(objective, args.rolls, args.keep, args.count, args.hex)
        result.update(dice=args.count, rolls=args.rolls)
    result.update(probability=str(value), decimal=float(value))
    if args.json:
        print(json.dumps(result))
        return 0
    where = f"from {args.dice}" if args.dice else f"{args.count} dice"
    more = " more" if args.dice else ""
    print(f"{objective.label}: {value} = {float(value):.6f} ({float(value):.2%})")
    print(
        f"  {where}, within {args.rolls}{more} roll(s), keeping {args.keep}"
        + (", Hex" if args.hex else "")
    )
    if args.dice:
        kept = result["keep_dice"]
        if kept:  # positions alone are easy to misread as faces: show both
            shown = " ".join(str(v) for v in result["keep_values"])
            positions = ", ".join(str(i) for i in kept)
            rerolled = len(args.dice) - len(kept)
            print(f"  keep dice {positions} (showing {shown}); re-roll the other {rerolled}")
        else:
            print("  keep no dice: re-roll all")
        if "abilities" in result:
            print(f"  abilities met now: {', '.join(result['abilities']) or 'none'}")
    return 0
