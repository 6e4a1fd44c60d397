"""Where the Boss's abilities are on his board, asked at the table when no public
source gives it: the solo Boss picks "first the ability furthest to the right of his
board, and then the one furthest down" (fan solo mode v3.2, 4.), so dicetable needs
the positions. The players hold the board: they read it out once, slot by slot."""

from __future__ import annotations

from dicetable.rules.core import Actor, EventKind, Input, Option, Prompt, PromptKind, msg
from dicetable.rules.dicethrone.heroes import COLUMNS, ROWS
from dicetable.rules.dicethrone.solo_state import SoloState

SLOTS = tuple((column, row) for row in range(1, ROWS + 1) for column in range(1, COLUMNS + 1))
NONE = "none"


class BoardPositions(SoloState):
    """Setup questions for a hero file without board positions (a mixin)."""

    def _ask_board_positions(self) -> None:
        """Queue the questions, first thing after the Boss is chosen."""
        if self._hero.unplaced:
            self._then(("board_slot", {"slot": 0, "placed": {}}))

    def _left(self, placed: dict) -> list:
        return [a for a in self._hero.unplaced if a.id not in placed]

    def _ask_board_slot(self, data: dict) -> Prompt:
        column, row = SLOTS[data["slot"]]
        left = self._left(data["placed"])
        options = [Option(a.id, msg(a.name)) for a in left]
        if len(SLOTS) - data["slot"] > len(left):  # room for a passive or empty panel
            options.append(Option(NONE, msg("No ability there (a passive or an empty panel)")))
        where = (
            msg("top row, column {n} from the left", n=column)
            if row == 1
            else msg("bottom row, column {n} from the left", n=column)
        )
        return Prompt(
            PromptKind.CHOOSE,
            msg(
                "No public source says where the {hero}'s abilities are on his board. "
                "Read it: which ability is in the {where}?",
                hero=msg(self._hero.name),
                where=where,
            ),
            Actor.TABLE,
            tuple(options),
        )

    def _on_board_slot(self, data: dict, answer: Input, values: list[int]) -> None:
        placed = dict(data["placed"])
        if answer.choice != NONE:
            placed[answer.choice] = SLOTS[data["slot"]]
        if self._left(placed):
            self._then(("board_slot", {"slot": data["slot"] + 1, "placed": placed}))
            return
        self.hero = self._hero.placed(placed)
        self._say(
            EventKind.INFO,
            msg(
                "The {hero}'s board is set: the Boss reads it from right to left.",
                hero=msg(self._hero.name),
            ),
        )
