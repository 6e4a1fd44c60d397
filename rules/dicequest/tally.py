"""The Quest Phase arithmetic, where players make mistakes: which required symbols a
result meets (each matched by any one of its acceptable symbols), what is missing,
the excess symbols an Adventure tracks, the wounds to take, and the exact odds of a
roll. Pure functions over symbol counts; the game keeps the state."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from dicetable.rules.dicequest.data import Card, DiceFaces, Requirement

BLOCKED_SHIELD = "shield*"  # a Shield already used to block a wound
THREAT = "threat:"  # requirements made from a Threat token's symbols
ODDS_BUDGET = 20_000  # states x faces per die: ~0.1 s here (benchmarks/dicequest_bench.py)


@dataclass
class RolledDie:
    """A die in the Unlocked (or, once its Rune is spent, the Locked) Dice Zone."""

    color: str
    face: str
    locked: bool = False
    rune_spent: bool = False

    def symbols(self, dice: DiceFaces) -> list[str]:
        shown = list(dice.symbols(self.face))
        if self.rune_spent and "rune" in shown:
            shown.remove("rune")  # "If you spend a Rune, it does not count" (Combat Step)
        return shown

    def to_json(self) -> dict[str, object]:
        return {
            "color": self.color,
            "face": self.face,
            "locked": self.locked,
            "rune_spent": self.rune_spent,
        }


def result_symbols(
    dice: Iterable[RolledDie], faces: DiceFaces, bonus: Mapping[str, int]
) -> Counter[str]:
    """The symbols on the dice plus bonuses from Items and abilities (Reward Step)."""
    counts: Counter[str] = Counter()
    for die in dice:
        counts.update(die.symbols(faces))
    counts.update({k: v for k, v in bonus.items() if v > 0})
    return counts


def match(require: Sequence[Requirement], symbols: Mapping[str, int]) -> list[int]:
    """How many of each requirement the symbols can meet at once: a maximum bipartite
    matching of symbol units to requirement slots (Kuhn's algorithm; counts are small,
    and a greedy count would miss that a Wand taken by "any success" was needed for
    "Wand")."""
    units = [s for s, n in sorted(symbols.items()) for _ in range(max(n, 0))]
    slots = [i for i, r in enumerate(require) for _ in range(r.count)]
    owner: list[int | None] = [None] * len(units)  # unit -> slot

    def accepts(slot: int, symbol: str) -> bool:
        requirement = require[slots[slot]]
        if symbol == BLOCKED_SHIELD:  # it counts for the card, not for a Threat token
            return "shield" in requirement.accepts and not requirement.symbol.startswith(THREAT)
        return symbol in requirement.accepts

    def place(slot: int, seen: set[int]) -> bool:
        for unit, symbol in enumerate(units):
            if unit in seen or not accepts(slot, symbol):
                continue
            seen.add(unit)
            holder = owner[unit]
            if holder is None or place(holder, seen):
                owner[unit] = slot
                return True
        return False

    for slot in range(len(slots)):
        place(slot, set())
    met = [0] * len(require)
    for held in owner:
        if held is not None:
            met[slots[held]] += 1
    return met


def missing(require: Sequence[Requirement], symbols: Mapping[str, int]) -> list[int]:
    return [r.count - m for r, m in zip(require, match(require, symbols), strict=True)]


def succeeds(require: Sequence[Requirement], symbols: Mapping[str, int]) -> bool:
    return not any(missing(require, symbols))


def tracked_excess(
    require: Sequence[Requirement],
    symbols: Mapping[str, int],
    tracked: Iterable[str],
    spent: Sequence[Sequence[str]] = (),
) -> int:
    """The Adventure Score: excess symbols of the tracked types, "only count excess
    symbols that you did not need to succeed" (Tracking Adventure Score). Untracked
    symbols are spent on the requirements first, so the score is the best one the
    result allows. Symbols ``spent`` on Threat tokens (each token the symbols it
    shows) were needed to succeed (Adventure Outcome: "all players succeed if there
    are no Threat tokens on the Adventure card"): they are not excess."""
    tracked = set(tracked)
    wanted = [*require, *threat_requirements(spent)]
    total_needed = sum(r.count for r in wanted)
    untracked = {s: n for s, n in symbols.items() if s not in tracked}
    from_untracked = sum(match(wanted, untracked))
    tracked_total = sum(n for s, n in symbols.items() if s in tracked)
    return max(0, tracked_total - (total_needed - from_untracked))


def threat_requirements(tokens: Sequence[Sequence[str]]) -> list[Requirement]:
    """What discarding these Threat tokens takes: each symbol shown, met by an excess
    symbol of its kind or a Shield ("Shields in your result may be used to discard
    Threat tokens instead of preventing wounds", Threat Phase and Cards)."""
    return [
        Requirement(THREAT + symbol, n, (symbol, "shield"))
        for token in tokens
        for symbol, n in Counter(token).items()
    ]


def can_discard(
    require: Sequence[Requirement],
    symbols: Mapping[str, int],
    tokens: Sequence[Sequence[str]],
    shields_blocking: int = 0,
) -> bool:
    """Can the excess symbols discard all these Threat tokens at once? Each symbol on
    a token needs an excess symbol of its kind or a Shield not used on a wound."""
    counts = Counter({s: n for s, n in symbols.items() if n > 0})
    blocked = min(shields_blocking, counts["shield"])
    counts["shield"] -= blocked
    counts[BLOCKED_SHIELD] += blocked
    wanted = [*require, *threat_requirements(tokens)]
    return sum(match(wanted, counts)) == sum(r.count for r in wanted)


@dataclass(frozen=True)
class Wounds:
    light: int
    deadly: int
    unblockable: int

    @property
    def total(self) -> int:
        return self.light + self.deadly + self.unblockable


def wounds_of(card: Card, symbols: Mapping[str, int], extra_light: int = 0) -> Wounds:
    """Count wounds (Wound Step): the card's Light and Deadly symbols, its Unblockable
    ones, and 1 Unblockable Light Wound per symbol kept that the card names
    (Death Dealer: per Wand kept in the final roll)."""
    per_symbol = sum(symbols.get(s, 0) for s in card.unblockable_per)
    return Wounds(card.light + extra_light, card.deadly, card.unblockable + per_symbol)


def roll_odds(
    require: Sequence[Requirement],
    kept: Mapping[str, int],
    rolling: Sequence[str],
    faces: DiceFaces,
) -> Fraction | None:
    """Exact chance that rolling dice of these colours, with ``kept`` symbols already
    in the result, meets every requirement.

    Symbol counts are capped at what the requirements could use (more never hurts),
    outcomes are counted as whole numbers and divided once at the end, and the
    answer is cached: a prompt is asked for again and again while the table thinks.
    None when the distribution would be too big to count quickly on a Pi (many dice
    for many kinds of symbols): no odds rather than a frozen screen.
    """
    names = tuple(sorted({a for r in require for a in r.accepts}))
    if not names:
        return Fraction(1)
    start = tuple(kept.get(s, 0) for s in names)
    wanted = tuple((r.count, tuple(names.index(a) for a in r.accepts)) for r in require)
    sides = tuple(
        tuple(tuple(Counter(faces.symbols(face))[s] for s in names) for face in faces.colors[c])
        for c in sorted(rolling)
    )
    return _odds(wanted, start, sides)


@lru_cache(maxsize=256)
def _odds(
    wanted: tuple[tuple[int, tuple[int, ...]], ...],
    start: tuple[int, ...],
    sides: tuple[tuple[tuple[int, ...], ...], ...],
) -> Fraction | None:
    cap = [sum(count for count, accepts in wanted if i in accepts) for i in range(len(start))]
    first = tuple(min(n, c) for n, c in zip(start, cap, strict=True))
    ways: dict[tuple[int, ...], int] = {first: 1}
    total = 1
    for die in sides:
        total *= len(die)
        faces = Counter(die)  # a face printed twice is one branch counted twice
        nxt: dict[tuple[int, ...], int] = {}
        if len(ways) * len(faces) > ODDS_BUDGET:
            return None
        for state, n in ways.items():
            for shown, times in faces.items():
                new = tuple(min(a + b, c) for a, b, c in zip(state, shown, cap, strict=True))
                nxt[new] = nxt.get(new, 0) + n * times
        ways = nxt
    # Hall's condition: every set of requirements finds enough symbols that one of
    # them accepts (the max-flow feasibility test, cheap for a handful of needs)
    cuts = []
    for subset in range(1, 1 << len(wanted)):
        chosen = [wanted[i] for i in range(len(wanted)) if subset >> i & 1]
        symbols = sorted({s for _, accepts in chosen for s in accepts})
        cuts.append((sum(count for count, _ in chosen), symbols))
    good = sum(
        n
        for state, n in ways.items()
        if all(sum(state[s] for s in symbols) >= needed for needed, symbols in cuts)
    )
    return Fraction(good, total)
