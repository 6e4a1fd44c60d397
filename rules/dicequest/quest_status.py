"""What the Quest still needs at every step, and which dice or abilities could
supply it: the hints of the pool, roll and Combat Step prompts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from dicetable.rules.core import (
    Msg,
    msg,
)
from dicetable.rules.dicequest import combat_step, deployment_step, tally
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


def current_attempt(s: TableState) -> Attempt:
    assert s.attempt is not None, f"no Quest in play at stage {s.stage}"
    return s.attempt


def symbols(s: TableState, without: list[int] | None = None) -> Counter[str]:
    attempt = current_attempt(s)
    skip = set(without or ())
    dice = [d for i, d in enumerate(attempt.dice) if i not in skip]
    symbols = tally.result_symbols(dice, s.dice, attempt.bonus)
    if attempt.bonus_runes:
        symbols["rune"] += attempt.bonus_runes
    return symbols


def missing_symbols(s: TableState) -> dict[str, int]:
    attempt = current_attempt(s)
    short = tally.missing(attempt.card.require, symbols(s))
    return {r.symbol: n for r, n in zip(attempt.card.require, short, strict=True) if n}


def missing_text(s: TableState) -> Msg:
    return needs_text(current_attempt(s).card, missing_symbols(s))


def objective(s: TableState) -> Msg | None:
    if s.attempt is None:
        return None
    card = s.attempt.card
    if not card.require:
        return msg("{name}: nothing is required.", name=card_title(card))
    if not s.attempt.rolled:
        return msg("{name} needs {needs}.", name=card_title(card), needs=needs_text(card))
    if not missing_symbols(s):
        return msg("{name}: met.", name=card_title(card))
    return msg("{name}: missing {missing}.", name=card_title(card), missing=missing_text(s))


def status_text(s: TableState) -> Msg:
    if not missing_symbols(s):
        return msg("the Quest is met ({symbols}).", symbols=symbols_text(symbols(s)))
    return msg("missing {missing}.", missing=missing_text(s))


def colors_for(s: TableState, requirement: Requirement) -> list[str]:
    """The colours that can roll a symbol the requirement accepts, leaving out the
    one a Threat card bans ("You cannot roll any die of a marked color")."""
    return [
        c
        for c in COLORS
        if c != deployment_step.banned(s)
        and any(s.dice.can_show(c, a) for a in requirement.accepts)
    ]


def missing_suppliers(s: TableState) -> dict[str, list[str]]:
    """Per missing requirement: the colours that can roll an acceptable symbol."""
    card = current_attempt(s).card
    missing = missing_symbols(s)
    return {r.symbol: colors_for(s, r) for r in card.require if r.symbol in missing}


def pool_hint(s: TableState) -> Msg:
    card = current_attempt(s).card
    wanted = {r.symbol: colors_for(s, r) for r in card.require}
    if not wanted:
        return msg("Nothing is required.")
    return msg(
        "Needs {needs}; dice that can give them: {colors}.",
        needs=needs_text(card),
        colors=_suppliers_text(wanted),
    )


def helpful_dice(s: TableState) -> list[int]:
    """Unlocked dice that some face of their colour would make meet more of the
    card: "the only one that could give you the missing symbol" (Example: Quest,
    step 8). A red Sword still counts: its 2-Swords face would give one more."""
    attempt = current_attempt(s)
    require = attempt.card.require
    met = sum(tally.match(require, symbols(s)))
    return [
        i
        for i in combat_step.unlocked(s)
        if any(
            sum(tally.match(require, symbols(s, without=[i]) + Counter(s.dice.symbols(f)))) > met
            for f in set(s.dice.colors[attempt.dice[i].color])
        )
    ]


def combat_hint(s: TableState) -> Msg:
    attempt = current_attempt(s)
    suppliers = missing_suppliers(s)
    if not suppliers:
        return msg("Go to the Wound Step when you are ready.")
    rerollable = [str(i + 1) for i in helpful_dice(s)]
    helps = _suppliers_text(suppliers)
    if not rerollable:
        return msg(
            "Could supply it: {helps}; no die in the pool can roll it: add a die with an "
            "Item or ability, or use an ability.",
            helps=helps,
        )
    tools = []
    if combat_step.reroll_allowed(s):
        tools.append(msg("the Reroll token"))
    runes = len(combat_step.runes_ready(s)) + attempt.bonus_runes
    if runes:
        tools.append(msg("{n} Runes to spend", n=runes))
    return msg(
        "Could supply it: {helps}; dice to reroll: {dice}; {tools}.",
        helps=helps,
        dice=", ".join(rerollable),
        tools=listing(tools, empty="abilities and Items only"),
    )
