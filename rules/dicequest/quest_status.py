"""What the Quest still needs at every step, and which dice or abilities could
supply it: the hints of the pool, roll and Combat Step prompts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from dicetable.rules.core import (
    Msg,
    msg,
)
from dicetable.rules.dicequest import tally
from dicetable.rules.dicequest.data import (
    COLORS,
    Requirement,
)
from dicetable.rules.dicequest.state import Attempt, TableState
from dicetable.rules.dicequest.words import (
    card_title,
    listing,
    needs_text,
    symbols_text,
)


def _suppliers_text(suppliers: Mapping[str, list[str]]) -> Msg:
    """``wand: yellow, green; arrow: blue``: which dice colours can give each symbol."""
    return listing(
        [
            msg(
                "{symbol}: {colors}",
                symbol=msg(s),
                colors=listing([msg(c) for c in colors], empty="abilities and Items only"),
            )
            for s, colors in suppliers.items()
        ],
        "; ",
    )


class QuestStatus(TableState):
    """The result so far and what is missing; a mixin of ``Dicequest``."""

    def _attempt(self) -> Attempt:
        assert self.attempt is not None, f"no Quest in play at stage {self.stage}"
        return self.attempt

    def _symbols(self, without: list[int] | None = None) -> Counter[str]:
        attempt = self._attempt()
        skip = set(without or ())
        dice = [d for i, d in enumerate(attempt.dice) if i not in skip]
        symbols = tally.result_symbols(dice, self.dice, attempt.bonus)
        if attempt.bonus_runes:
            symbols["rune"] += attempt.bonus_runes
        return symbols

    def _missing(self) -> dict[str, int]:
        attempt = self._attempt()
        short = tally.missing(attempt.card.require, self._symbols())
        return {r.symbol: n for r, n in zip(attempt.card.require, short, strict=True) if n}

    def _missing_text(self) -> Msg:
        return needs_text(self._attempt().card, self._missing())

    def _objective(self) -> Msg | None:
        if self.attempt is None:
            return None
        card = self.attempt.card
        if not card.require:
            return msg("{name}: nothing is required.", name=card_title(card))
        if not self.attempt.rolled:
            return msg("{name} needs {needs}.", name=card_title(card), needs=needs_text(card))
        if not self._missing():
            return msg("{name}: met.", name=card_title(card))
        return msg(
            "{name}: missing {missing}.", name=card_title(card), missing=self._missing_text()
        )

    def _status_text(self) -> Msg:
        if not self._missing():
            return msg("the Quest is met ({symbols}).", symbols=symbols_text(self._symbols()))
        return msg("missing {missing}.", missing=self._missing_text())

    def _colors_for(self, requirement: Requirement) -> list[str]:
        """The colours that can roll a symbol the requirement accepts, leaving out the
        one a Threat card bans ("You cannot roll any die of a marked color")."""
        return [
            c
            for c in COLORS
            if c != self._banned() and any(self.dice.can_show(c, a) for a in requirement.accepts)
        ]

    def _suppliers(self) -> dict[str, list[str]]:
        """Per missing requirement: the colours that can roll an acceptable symbol."""
        card = self._attempt().card
        missing = self._missing()
        return {r.symbol: self._colors_for(r) for r in card.require if r.symbol in missing}

    def _pool_hint(self) -> Msg:
        card = self._attempt().card
        wanted = {r.symbol: self._colors_for(r) for r in card.require}
        if not wanted:
            return msg("Nothing is required.")
        return msg(
            "Needs {needs}; dice that can give them: {colors}.",
            needs=needs_text(card),
            colors=_suppliers_text(wanted),
        )

    def _helpful_dice(self) -> list[int]:
        """Unlocked dice that some face of their colour would make meet more of the
        card: "the only one that could give you the missing symbol" (Example: Quest,
        step 8). A red Sword still counts: its 2-Swords face would give one more."""
        attempt = self._attempt()
        require = attempt.card.require
        met = sum(tally.match(require, self._symbols()))
        return [
            i
            for i in self._unlocked()
            if any(
                sum(
                    tally.match(require, self._symbols(without=[i]) + Counter(self.dice.symbols(f)))
                )
                > met
                for f in set(self.dice.colors[attempt.dice[i].color])
            )
        ]

    def _combat_hint(self) -> Msg:
        attempt = self._attempt()
        suppliers = self._suppliers()
        if not suppliers:
            return msg("Go to the Wound Step when you are ready.")
        rerollable = [str(i + 1) for i in self._helpful_dice()]
        helps = _suppliers_text(suppliers)
        if not rerollable:
            return msg(
                "Could supply it: {helps}; no die in the pool can roll it: add a die with an "
                "Item or ability, or use an ability.",
                helps=helps,
            )
        tools = []
        if self._reroll_allowed():
            tools.append(msg("the Reroll token"))
        runes = len(self._runes_ready()) + attempt.bonus_runes
        if runes:
            tools.append(msg("{n} Runes to spend", n=runes))
        return msg(
            "Could supply it: {helps}; dice to reroll: {dice}; {tools}.",
            helps=helps,
            dice=", ".join(rerollable),
            tools=listing(tools, empty="abilities and Items only"),
        )
