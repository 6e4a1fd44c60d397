"""Untaught reading of dice the team has never photographed (issue 3, item 5: other
dice, trays, lighting and resolutions, >= 95% of pip faces read right; a symbol face
comes back without a value).

Each style of ``hardware.synthetic_tray.DICE_STYLES`` (a big One, red Ones and Fours,
translucent casino dice, rounded corners and small pips, mini dice, marbled, glitter
and metal bodies, engraved gold pips, busy and dark trays, long shadows, a tilted
camera, a phone's lens and JPEG, 720p to 12 MP) is rendered for a fixed set of seeds
and read by the built-in pip reader, one fresh reader per tray. Printed per style: pip
dice read right, symbol faces given a value (wrong), extra dice, and the median
milliseconds per tray (one core).

    .venv/bin/python benchmarks/dice_styles_bench.py [--seeds N] [--style NAME]...
"""

from __future__ import annotations

import argparse
import sys
from statistics import median

import cv2

from dicetable.hardware.synthetic_tray import DICE_STYLES, styled_tray
from dicetable.vision.evaluation import RenderedScore
from dicetable.vision.reader import DiceReader


def score_style(style: str, seeds: range) -> RenderedScore:
    """One fresh reader per tray, each die matched to the reading nearest its centre."""
    score = RenderedScore()
    for seed in seeds:
        dice, image, centres, tilt = styled_tray(style, seed)
        score.add(dice, centres, tilt, DiceReader().read(image), tag=f"seed {seed}: ")
    return score


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=12, help="trays per style")
    parser.add_argument("--style", action="append", choices=sorted(DICE_STYLES))
    parser.add_argument("--verbose", action="store_true", help="list the dice read wrong")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    styles = args.style or list(DICE_STYLES)
    total = RenderedScore()
    print(
        f"{'style':24} {'pip dice right':>20} {'symbols valued':>15} {'extra':>6} {'median ms':>10}"
    )
    for style in styles:
        score = score_style(style, range(args.seeds))
        total.dice += score.dice
        total.right += score.right
        total.symbols += score.symbols
        total.symbols_valued += score.symbols_valued
        total.extra += score.extra
        symbols = f"{score.symbols_valued}/{score.symbols}" if score.symbols else "-"
        print(
            f"{style:24} {score.right:>4}/{score.dice:<4} {100 * score.accuracy:6.2f}%   "
            f"{symbols:>15} {score.extra:>6} {median(score.ms):>10.1f}"
        )
        if args.verbose and score.wrong:
            print("    " + "; ".join(score.wrong))
    print(
        f"{'all styles':24} {total.right:>4}/{total.dice:<4} {100 * total.accuracy:6.2f}%   "
        f"{total.symbols_valued}/{total.symbols:>13} {total.extra:>6}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
