"""Roll Objectives: one small language for what a Dice Throne roll must show.

Every Dice Throne part of dicetable (the solo boss, Unchained, the Raveness, the
``odds`` command) writes requirements in this language, so one parser and one
checker serve them all. Dice are given by their face number (1-6): Dice Throne
dice print the number beside the symbol, and straights need it.

Grammar (case-insensitive; ``+``, ``,`` or ``and`` join terms)::

    3 sword                 at least 3 dice showing Sword (a hero symbol)
    2 sword + 2 pow         both at once, on different dice
    3x6, 2 1-3              counts of a face number or a range of numbers
    fire + magma + soul     one each (a bare name counts 1)
    each fire magma soul    the same, "one each of" the listed symbols
    4 of a kind             4 dice with the same number (also "4oak", "yahtzee" = 5)
    small straight          4 numbers in a row ("ss"); large straight: 5 ("ls")

Hex (the Raveness): a 6 counts as blank, with no symbol and no number
(Raveness rulebook, "Hex"). ``met_by(values, hex=True)`` applies it.

Public API, kept stable for the other engines:
``parse_objective(text, symbols=None) -> Objective``, ``Objective.met_by(dice, hex)``,
``Objective.boss_keep(dice, hex)``, ``Objective.label``, ``ObjectiveError``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from dicetable.rules.core import Die

FACES = range(1, 7)
BLANK = 0  # a hexed 6: no symbol, no number

Kind = Literal["symbols", "kind", "straight"]


class ObjectiveError(ValueError):
    """A roll objective that cannot be read; the message says which part and why."""


@dataclass(frozen=True)
class Need:
    """``count`` dice whose face number is in ``faces``; ``name`` is how it was written."""

    name: str
    faces: frozenset[int]
    count: int


@dataclass(frozen=True)
class Objective:
    """What a roll must show. Build with ``parse_objective``; ``label`` is canonical."""

    kind: Kind
    label: str
    needs: tuple[Need, ...] = ()
    size: int = 0  # of-a-kind count or straight length

    @property
    def dice_needed(self) -> int:
        """The fewest dice that could meet it (5 dice cannot meet 3 Bow + 3 Moon)."""
        return sum(n.count for n in self.needs) if self.kind == "symbols" else self.size

    def met_by(self, dice: Iterable[int | Die], hex: bool = False) -> bool:
        """Whether these dice show the objective. ``hex``: 6s are blank."""
        values = _values(dice, hex)
        if self.kind == "kind":
            counts = Counter(v for v in values if v != BLANK)
            return bool(counts) and max(counts.values()) >= self.size
        if self.kind == "straight":
            return _longest_run(set(values)) >= self.size
        return _matches(self.needs, Counter(values))

    def boss_keep(self, dice: Iterable[int | Die], hex: bool = False) -> tuple[int, ...]:
        """Indices of the dice the solo boss leaves in place (fan solo mode v3.2, 4.
        "Offensive Rolling Phase": roll only the dice that do not match the Roll
        Objective; for a straight keep one each of 2, 3, 4 and 5, and a 1 or a 6 only
        when it is part of a small or large straight)."""
        values = _values(dice, hex)
        if self.kind == "straight":
            return _straight_keep(values)
        if self.kind == "kind":
            counts = Counter(v for v in values if v != BLANK)
            if not counts:
                return ()
            # the most common number; on a tie the higher one (no rule says; documented)
            best = max(counts, key=lambda v: (counts[v], v))
            return tuple(i for i, v in enumerate(values) if v == best)
        return _symbol_keep(self.needs, values)

    def __str__(self) -> str:
        return self.label


def _values(dice: Iterable[int | Die], hex: bool) -> list[int]:
    values: list[int] = []
    for die in dice:
        value = die.value if isinstance(die, Die) else die
        if value is None or value not in FACES:
            raise ObjectiveError(f"die value {value!r} is not a face number 1-6")
        values.append(BLANK if hex and value == 6 else value)
    return values


def _longest_run(present: set[int]) -> int:
    best = run = 0
    for value in FACES:
        run = run + 1 if value in present else 0
        best = max(best, run)
    return best


def _matches(needs: tuple[Need, ...], counts: Counter[int]) -> bool:
    """Hall's condition: every group of needs finds enough dice in the union of its
    faces. Exact even when needs overlap (``2 1-3 + 1 3``)."""
    for size in range(1, len(needs) + 1):
        for group in combinations(needs, size):
            faces = frozenset().union(*(n.faces for n in group))
            if sum(counts[f] for f in faces) < sum(n.count for n in group):
                return False
    return True


def _symbol_keep(needs: tuple[Need, ...], values: list[int]) -> tuple[int, ...]:
    """Keep up to ``count`` matching dice per need, narrowest needs first, so an
    extra Sword is rerolled when the objective still wants a Pow."""
    kept: set[int] = set()
    for need in sorted(needs, key=lambda n: len(n.faces)):
        taken = 0
        for index, value in enumerate(values):
            if taken == need.count:
                break
            if index not in kept and value in need.faces:
                kept.add(index)
                taken += 1
    return tuple(sorted(kept))


def _straight_keep(values: list[int]) -> tuple[int, ...]:
    present = set(values)
    keep_values: set[int] = {v for v in (2, 3, 4, 5) if v in present}
    if {1, 2, 3, 4} <= present:
        keep_values.add(1)
    if {3, 4, 5, 6} <= present:
        keep_values.add(6)
    kept: list[int] = []
    for index, value in enumerate(values):
        if value in keep_values:
            kept.append(index)
            keep_values.discard(value)
    return tuple(kept)


_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "a": 1, "an": 1}
_STRAIGHTS = {"small straight": 4, "ss": 4, "large straight": 5, "ls": 5}
_KIND = re.compile(r"^(\d)\s*(?:x\s*)?(?:of a kind|oak|kind)$")
_TERM = re.compile(r"^(?:(\d|one|two|three|four|five|an?)\s*(?:x\s*)?)?(.+)$")


def parse_objective(text: str, symbols: Mapping[str, Iterable[int]] | None = None) -> Objective:
    """Read an objective. ``symbols`` maps a hero's symbol names (lower case) to the
    face numbers that show them, e.g. ``{"sword": (1, 2, 3), "pow": (6,)}``."""
    source = " ".join(text.lower().replace("’", "'").split())
    if not source:
        raise ObjectiveError("empty roll objective")
    names = {k.lower(): frozenset(v) for k, v in (symbols or {}).items()}
    if source in _STRAIGHTS:
        size = _STRAIGHTS[source]
        return Objective("straight", "small straight" if size == 4 else "large straight", (), size)
    if source == "yahtzee":
        return Objective("kind", "5 of a kind", (), 5)
    kind = _KIND.match(source)
    if kind:
        size = int(kind.group(1))
        if not 2 <= size <= 6:
            raise ObjectiveError(f"{text!r}: of a kind needs 2 to 6 dice")
        return Objective("kind", f"{size} of a kind", (), size)
    if source.startswith(("each ", "one each of ", "1 each of ", "one each ", "1 each ")):
        body = re.sub(r"^(?:one |1 )?each (?:of )?", "", source)
        parts = [p for p in re.split(r"[\s,+]+|\band\b", body) if p]
        needs = tuple(_need("1 " + p, names, text) for p in parts)
    else:
        parts = [p.strip() for p in re.split(r"\+|,|\band\b", source)]
        if any(not p for p in parts):
            raise ObjectiveError(f"{text!r}: an empty term between '+' signs")
        needs = tuple(_need(p, names, text) for p in parts)
    needs = _merge(needs)
    label = " + ".join(f"{n.count} {n.name}" for n in needs)
    return Objective("symbols", label, needs)


def _need(term: str, names: Mapping[str, frozenset[int]], text: str) -> Need:
    match = _TERM.match(term)
    if not match:
        raise ObjectiveError(f"{text!r}: cannot read {term!r}")
    count_text, name = match.group(1), match.group(2).strip()
    count = 1 if count_text is None else _NUMBER_WORDS.get(count_text) or int(count_text)
    if not 1 <= count <= 6:
        raise ObjectiveError(f"{text!r}: {term!r} asks for {count} dice (1 to 6)")
    return Need(*_faces(name, names, text), count)


def _faces(name: str, names: Mapping[str, frozenset[int]], text: str) -> tuple[str, frozenset[int]]:
    if name in names:
        return name, names[name]
    if name.endswith("s") and name[:-1] in names:  # "swords"
        return name[:-1], names[name[:-1]]
    if re.fullmatch(r"[1-6]", name):
        return name, frozenset({int(name)})
    span = re.fullmatch(r"([1-6])\s*-\s*([1-6])", name)
    if span and int(span.group(1)) <= int(span.group(2)):
        low, high = int(span.group(1)), int(span.group(2))
        return f"{low}-{high}", frozenset(range(low, high + 1))
    known = ", ".join(sorted(names)) or "none (give --hero for symbol names)"
    raise ObjectiveError(f"{text!r}: unknown symbol {name!r} (symbols: {known}; or 1-6, 1-3)")


def _merge(needs: tuple[Need, ...]) -> tuple[Need, ...]:
    """``sword + sword`` is ``2 sword``: same faces, counts add up."""
    merged: dict[frozenset[int], Need] = {}
    for need in needs:
        old = merged.get(need.faces)
        merged[need.faces] = (
            need if old is None else Need(old.name, old.faces, old.count + need.count)
        )
    return tuple(merged.values())
