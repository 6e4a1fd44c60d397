"""``dicetable odds``: the exact chance of a Dice Throne Roll Objective, printed as a
percentage ("26.1%"; ``--exact`` adds the fraction). Dice to keep are named by the
faces they show, never by their place in the list.

dicetable odds "3 sword"                         # the one hero with swords: Barbarian
dicetable odds "2 sword + 2 pow" --hero barbarian --rolls 3 --keep optimal
dicetable odds "large straight" --keep boss --json
dicetable odds "small straight" --dice 1 2 3 6 6 --rolls 1   # 1 reroll left
"""

from __future__ import annotations

import argparse
import json
from fractions import Fraction


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
    odds.add_argument("--exact", action="store_true", help="the exact fraction too")
    odds.add_argument("--json", action="store_true")
    odds.set_defaults(func=run_odds)


def run_odds(args: argparse.Namespace) -> int:
    from dicetable.rules.dicethrone.heroes import load_hero
    from dicetable.rules.dicethrone.objectives import parse_objective
    from dicetable.rules.dicethrone.odds import best_keep, chance, chance_from

    hero = args.hero or hero_for(args.objective)
    symbols = load_hero(hero).symbols if hero else None
    objective = parse_objective(args.objective, symbols)
    result: dict[str, object] = {"objective": objective.label, "keep": args.keep, "hex": args.hex}
    kept: list[int] = []  # the dice to keep, by the faces they show
    abilities: list[str] | None = None  # the hero's abilities the dice meet now
    if args.dice:
        rerolls = args.rolls
        value = chance_from(objective, args.dice, rerolls, args.keep, args.hex)
        if args.keep == "boss":
            keep = objective.boss_keep(args.dice, args.hex)
        else:
            keep = best_keep(objective, args.dice, rerolls, args.hex)
        result.update(dice=args.dice, rolls_left=args.rolls, keep_dice=[i + 1 for i in keep])
        kept = [args.dice[i] for i in keep]
        result["keep_values"] = kept
        result["met_now"] = objective.met_by(args.dice, args.hex)
        if hero and len(args.dice) == 5:
            met = load_hero(hero).met_abilities(args.dice, hex=args.hex)
            abilities = [f"{a.name} ({t.objective.label})" for a, t in met]
            result["abilities"] = abilities
    else:
        value = chance(objective, args.rolls, args.keep, args.count, args.hex)
        result.update(dice=args.count, rolls=args.rolls)
    result.update(probability=str(value), decimal=float(value))
    if args.json:
        print(json.dumps(result))
        return 0
    where = f"from {args.dice}" if args.dice else f"{args.count} dice"
    more = " more" if args.dice else ""
    exact = f" = {value}" if args.exact else ""
    print(f"{objective.label}: {percent(value)}{exact}")
    print(
        f"  {where}, within {args.rolls}{more} roll(s), keeping {args.keep}"
        + (
            f", {load_hero(hero).name}'s dice (--hero for another)"
            if hero and not args.hero
            else ""
        )
        + (", Hex" if args.hex else "")
    )
    if args.dice:
        if kept:  # named by the faces they show: a place in the list reads like a face
            shown = " ".join(str(v) for v in kept)
            print(f"  keep {shown}; re-roll the other {len(args.dice) - len(kept)}")
        else:
            print("  keep no dice: re-roll all")
        if abilities is not None:
            print(f"  abilities met now: {', '.join(abilities) or 'none'}")
    return 0


#: the hero whose symbols an objective is read with when several heroes show them
DEFAULT_HERO = "barbarian"


def hero_for(objective: str) -> str | None:
    """The hero an objective's symbol names belong to, when no --hero is given: the
    one hero whose dice show them all (the Barbarian when he is among several);
    None for numbers and straights. Else it says which --hero to give."""
    from dicetable.rules.dicethrone.heroes import hero_ids, load_hero
    from dicetable.rules.dicethrone.objectives import ObjectiveError, parse_objective

    try:
        parse_objective(objective, None)
        return None
    except ObjectiveError:
        pass
    fits = []
    for hero_id in hero_ids():
        try:
            parse_objective(objective, load_hero(hero_id).symbols)
        except ObjectiveError:
            continue
        fits.append(hero_id)
    if len(fits) == 1:
        return fits[0]
    if DEFAULT_HERO in fits:  # several heroes show them: the first box's hero
        return DEFAULT_HERO
    heroes = ", ".join(fits) if fits else ", ".join(hero_ids())
    raise ObjectiveError(
        f"{objective!r} names symbols of {'several heroes' if fits else 'no hero'}:"
        f" give --hero ({heroes})"
    )


def percent(value: Fraction | float) -> str:
    """A chance as people read it: 1.3%, 26.1%, 100%; below 0.1% it says so."""
    share = float(value) * 100
    if 0 < share < 0.1:
        return "<0.1%"
    return f"{share:.1f}".removesuffix(".0") + "%"
