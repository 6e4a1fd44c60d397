"""The symbols of the Boss's dice, asked at the table when no public source gives
them: the Boss's Roll Objectives and abilities are written in symbols, the camera and
the straights read numbers, so dicetable needs which symbol is beside which number.
The hero file holds the usual layout of such dice (its header says so); the players,
who hold the dice, confirm it or read the six faces out."""

from __future__ import annotations

from dataclasses import replace

from dicetable.rules.core import Actor, EventKind, Input, Msg, Option, Prompt, PromptKind, msg
from dicetable.rules.dicethrone.board_positions import BoardPositions
from dicetable.rules.dicethrone.heroes import load_hero

FACES = range(1, 7)


def layout(faces: dict[int, str]) -> Msg:
    """ "1 ninjato, 2 ninjato, ... 6 mask", each symbol translated."""
    return msg(
        "1 {f1}, 2 {f2}, 3 {f3}, 4 {f4}, 5 {f5}, 6 {f6}",
        **{f"f{n}": msg(faces[n]) for n in FACES},
    )


class TableFaces(BoardPositions):
    """Setup questions for a hero file whose faces are not public (a mixin); the
    board positions come next."""

    def _ask_dice_faces(self) -> None:
        """Queue the questions, first thing after the Boss is chosen."""
        if self._hero.faces_public:
            self._ask_board_positions()
        else:
            self._then(("faces_check", {}))

    def _ask_faces_check(self, data: dict) -> Prompt:
        return Prompt(
            PromptKind.CHOOSE,
            msg(
                "No public source gives the {hero}'s dice. Do they show {layout}?",
                hero=msg(self._hero.name),
                layout=layout(dict(self._hero.faces)),
            ),
            Actor.TABLE,
            (
                Option("yes", msg("Yes")),
                Option("no", msg("No: I read each face out")),
            ),
        )

    def _on_faces_check(self, data: dict, answer: Input, values: list[int]) -> None:
        if answer.choice == "yes":
            self._ask_board_positions()
        else:
            self._then(("die_face", {"read": []}))

    def _ask_die_face(self, data: dict) -> Prompt:
        read = data["read"]
        options = [Option(s, msg(s)) for s in self._still_possible(read)]
        return Prompt(
            PromptKind.CHOOSE,
            msg(
                "Which symbol does the {hero}'s die show beside the number {n}?",
                hero=msg(self._hero.name),
                n=len(read) + 1,
            ),
            Actor.TABLE,
            tuple(options),
        )

    def _still_possible(self, read: list[str]) -> list[str]:
        """Every symbol, but once the faces left are as many as the symbols not yet
        read, only those: each symbol is on some face (the abilities need them all)."""
        symbols = list(dict.fromkeys(self._hero.faces[n] for n in FACES))
        missing = [s for s in symbols if s not in read]
        return missing if len(FACES) - len(read) <= len(missing) else symbols

    def _on_die_face(self, data: dict, answer: Input, values: list[int]) -> None:
        read = [*data["read"], answer.choice]
        if len(read) < len(FACES):
            self._then(("die_face", {"read": read}))
            return
        hero = load_hero(self.boss_id, tuple(read))
        self.hero = hero
        self.decks = replace(
            self._decks,
            ai=tuple(
                replace(c, objective=hero.objective(c.objective.label)) for c in self._decks.ai
            ),
        )
        self._say(
            EventKind.INFO,
            msg(
                "The {hero}'s dice: {layout}.", hero=msg(hero.name), layout=layout(dict(hero.faces))
            ),
        )
        self._ask_board_positions()
