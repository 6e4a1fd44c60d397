"""Dice tray: read whatever is rolled and show values, sum, sets and straights."""

from dicetable.rules.core import msg
from dicetable.rules.dicetray.game import DiceTray
from dicetable.rules.registry import DiceFace, DiceSet

GAMES = (DiceTray,)
# Plain pip dice ("d6", as this game and most others ask): taught, the table's own
# dice are read by their faces instead of by counting pips.
DICE_SETS = (
    DiceSet(
        "d6",
        msg("Plain dice (pips)"),
        tuple(
            DiceFace(str(n), n, msg("1 pip") if n == 1 else msg("{n} pips", n=n))
            for n in range(1, 7)
        ),
    ),
)
