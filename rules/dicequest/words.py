"""The game's vocabulary as messages: symbol, colour and face names, counts, lists,
dice pools, needs and rewards. Built from a few fixed templates with messages as
arguments, so every word reaches the screen translated (``device/i18n.translate``
translates nested messages) and the catalogue stays small."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from dicetable.rules.core import Msg, Text, msg
from dicetable.rules.dicequest.data import Card, ThreatCard

SEPARATORS = {", ": "{a}, {b}", " + ": "{a} + {b}", "/": "{a}/{b}", "; ": "{a}; {b}"}


def listing(items: Sequence[Msg], sep: str = ", ", empty: str = "nothing") -> Msg:
    """``a, b, c`` as nested messages (``sep`` is one of SEPARATORS)."""
    if not items:
        return msg(empty)
    joined = items[-1]
    for item in reversed(items[:-1]):
        joined = msg(SEPARATORS[sep], a=item, b=joined)
    return joined


def counted(n: int, word: str) -> Msg:
    return msg("{n} {word}", n=n, word=msg(word))


def symbols_text(counts: Mapping[str, int]) -> Msg:
    return listing([counted(n, s) for s, n in sorted(counts.items()) if n > 0])


def pool_text(colors: Iterable[str]) -> Msg:
    counts = Counter(colors)
    return listing([counted(n, c) for c, n in sorted(counts.items())], empty="no dice")


def token_text(token: Sequence[str]) -> Msg:
    return listing([msg(s) for s in token], " + ")


def tokens_text(tokens: Sequence[Sequence[str]]) -> Msg:
    return listing([token_text(t) for t in tokens], "; ", empty="none")


def needs_text(card: Card, missing: Mapping[str, int] | None = None) -> Msg:
    """What the card requires (or, with ``missing``, what is still missing), each
    requirement with the symbols acceptable for it."""
    parts = []
    for r in card.require:
        n = r.count if missing is None else missing.get(r.symbol, 0)
        if not n:
            continue
        if r.accepts == (r.symbol,):
            parts.append(counted(n, r.symbol))
        else:
            accepts = listing([msg(a) for a in r.accepts], "/")
            parts.append(msg("{n} {word} ({accepts})", n=n, word=msg(r.symbol), accepts=accepts))
    return listing(parts)


REWARD_WORDS = {
    "gold": "take {n} Gold",
    "level_up": "{n} Level Up",
    "basic_item": "{n} Basic Item",
    "legendary_item": "{n} Legendary Item",
}


def rewards_text(rewards: Mapping[str, int], gold_tokens: int = 0) -> Msg:
    parts = [msg(REWARD_WORDS["gold"], n=rewards["gold"])] if rewards.get("gold") else []
    if gold_tokens:
        parts.append(msg("take the {n} Gold on the card", n=gold_tokens))
    parts += [
        msg(REWARD_WORDS[k], n=rewards[k]) for k in REWARD_WORDS if k != "gold" and rewards.get(k)
    ]
    return listing(parts, empty="no reward")


TYPED = "typed-"  # the id of a card typed in at the table: typed-<kind>-<number>


def typed_name(kind: str, number: str, act: int) -> Msg:
    """The name of a card typed in at the table that was given none: its number."""
    if kind == "quest":
        return msg("Typed Quest {n} (Act {act})", n=number, act=act)
    return msg("Typed Adventure {n} (Act {act})", n=number, act=act)


def unnamed(kind: str, number: str, act: int) -> str:
    """The name a card typed in was kept under before names were asked."""
    return f"{'Quest' if kind == 'quest' else 'Adventure'} {number} (Act {act})"


def card_title(card: Card | ThreatCard) -> Msg:
    """The card's name as a message: printed names translate through the catalogue;
    a card typed in at the table under no name of its own (its default, or the
    number it was kept under before names were asked) is shown by its number."""
    if isinstance(card, Card) and card.id.startswith(TYPED):
        number = card.id.rsplit("-", 1)[-1]
        numbered = typed_name(card.kind, number, card.act)
        if card.name in (str(numbered), unnamed(card.kind, number, card.act)):
            return numbered
    return msg(card.name)


def card_text(card: Card) -> Text:
    """A card's full text for the screen's card list, every word translatable."""
    wounds = [
        msg("{n} Light", n=card.light),
        msg("{n} Deadly", n=card.deadly),
        msg("{n} Unblockable", n=card.unblockable),
    ]
    if card.unblockable_per:
        per = listing([msg(s) for s in card.unblockable_per], "/")
        wounds.append(msg("+1 Unblockable per {symbols} kept", symbols=per))
    parts = [
        msg("Party {n}", n=card.party_text()),
        msg("needs {needs}", needs=needs_text(card)),
        msg("wounds: {wounds}", wounds=listing(wounds)),
    ]
    if card.is_adventure:
        tracked = listing([msg(s) for s in card.tracked], "/")
        parts.append(
            msg("tracks {symbols}; rewards {vp} VP", symbols=tracked, vp=str(list(card.rewards)))
        )
    else:
        parts.append(msg("guaranteed: {rewards}", rewards=rewards_text(card.guaranteed)))
        parts.append(
            msg(
                "success: {rewards}, {vp} VP",
                rewards=rewards_text(card.success),
                vp=card.success.get("vp", 0),
            )
        )
    if card.inferred:
        parts.append(msg("inferred: {note}", note=msg(card.inferred)))
    return Text(listing(parts, "; "))
