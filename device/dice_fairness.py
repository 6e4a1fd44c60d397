"""Is a die fair? Pearson's chi-square test of its face counts, and a plain verdict.

Pure: counts in, a ``Verdict`` out. The p-value is the chi-square distribution's
upper tail, computed exactly for any whole number of degrees of freedom (the
regularised upper incomplete gamma function Q(k/2, x/2) has a closed form there),
so no statistics library is needed.

Thresholds, and why:

* ``BIASED_P = 0.01``: a die is called biased when a fair one would give counts this
  uneven less than 1 time in 100. A table checks several dice sets and colours, and
  again as rolls come in; at the usual 0.05 one fair die in twenty would be accused.
* ``MIN_EXPECTED = 5``: the chi-square approximation holds when every face is
  expected at least 5 times (Cochran's rule), so a d6 needs 30 rolls; before that the
  verdict is "too few rolls", never a guess.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from dicetable.rules.core import Msg, msg

BIASED_P = 0.01
MIN_EXPECTED = 5
SMALLEST_P = 0.001  # shown as "p < 0.001" below this


READ_BY_CAMERA = "camera"  # the source a settled reading is answered with


@dataclass(frozen=True)
class Throw:
    """One die that was thrown: which dice set and colour, the face it showed, every
    face of its die (a face printed twice is listed twice), and who said the face
    (``camera``: read, maybe corrected by touch; anything else: a person chose it)."""

    profile: str
    color: str
    face: str
    faces: tuple[str, ...]
    source: str

    @property
    def read(self) -> bool:
        return self.source == READ_BY_CAMERA


class Finding(StrEnum):
    TOO_FEW = "too_few"
    FAIR = "fair"
    BIASED = "biased"


@dataclass(frozen=True)
class Verdict:
    """One die's test: ``counts`` and ``shares`` per face (in the die's order),
    ``fair_shares`` what a fair die gives, the chi-square ``statistic`` with ``df``
    degrees of freedom and its ``p`` value; ``face`` is the face furthest from fair."""

    finding: Finding
    rolls: int
    needed: int
    counts: dict[str, int]
    fair_shares: dict[str, float]
    statistic: float
    df: int
    p: float
    face: str

    @property
    def shares(self) -> dict[str, float]:
        return {f: (n / self.rolls if self.rolls else 0.0) for f, n in self.counts.items()}

    def words(self) -> Msg:
        """The verdict in a sentence a player understands."""
        if self.finding is Finding.TOO_FEW:
            return msg(
                "too few rolls to tell: {rolls} of the {needed} needed",
                rolls=self.rolls,
                needed=self.needed,
            )
        if self.finding is Finding.FAIR:
            return msg("no sign of bias over {rolls} rolls", rolls=self.rolls)
        return msg(
            "face {face} comes up {share}% of the time (a fair die: {fair}%): {p}",
            face=msg(self.face),
            share=round(100 * self.shares[self.face]),
            fair=round(100 * self.fair_shares[self.face]),
            p=p_text(self.p),
        )

    def to_json(self) -> dict:
        return {
            "finding": self.finding.value,
            "rolls": self.rolls,
            "needed": self.needed,
            "counts": self.counts,
            "fair_shares": self.fair_shares,
            "statistic": round(self.statistic, 4),
            "df": self.df,
            "p": self.p,
            "face": self.face,
            "verdict": str(self.words()),
        }


def p_text(p: float) -> str:
    return "p < 0.001" if p < SMALLEST_P else f"p = {p:.3f}"


def judge(counts: Mapping[str, int], faces: Sequence[str]) -> Verdict:
    """Test ``counts`` (face -> times seen) against a fair die with these ``faces``
    (a face printed twice listed twice, so it is expected twice as often). Counts of
    faces the die does not have are the caller's to report; they are left out."""
    sides = Counter(faces)
    fair = {face: sides[face] / len(faces) for face in sides}
    seen = {face: int(counts.get(face, 0)) for face in sides}
    rolls = sum(seen.values())
    needed = math.ceil(MIN_EXPECTED / min(fair.values()))
    statistic = sum(
        (seen[f] - rolls * share) ** 2 / (rolls * share) for f, share in fair.items() if rolls
    )
    df = len(fair) - 1
    p = chi_square_p(statistic, df) if rolls else 1.0
    # the face furthest from fair, by its share of the statistic (ties: the die's order)
    face = max(fair, key=lambda f: _residual(seen[f], rolls, fair[f]))
    if rolls < needed:
        finding = Finding.TOO_FEW
    else:
        finding = Finding.BIASED if p < BIASED_P else Finding.FAIR
    return Verdict(finding, rolls, needed, seen, fair, statistic, df, p, face)


def _residual(seen: int, rolls: int, share: float) -> float:
    expected = rolls * share
    return abs(seen - expected) / math.sqrt(expected) if expected else 0.0


def chi_square_p(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square with ``df`` degrees of freedom: Q(df/2, x/2).

    For a whole a = m: Q = e^-y (1 + y + ... + y^(m-1)/(m-1)!). For a half a = m + 1/2:
    Q = erfc(sqrt y) + e^-y (y^(1/2)/G(3/2) + ... + y^(m-1/2)/G(m+1/2)), with y = x/2."""
    if df < 1:
        raise ValueError(f"a chi-square test needs at least 1 degree of freedom, not {df}")
    if statistic <= 0:
        return 1.0
    y = statistic / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0  # y^0 / 0!
        for i in range(1, df // 2):
            term *= y / i
            total += term
        return min(1.0, math.exp(-y) * total)
    term = math.sqrt(y) / math.gamma(1.5)
    total = 0.0
    for i in range(df // 2):
        total += term
        term *= y / (i + 1.5)
    return min(1.0, math.erfc(math.sqrt(y)) + math.exp(-y) * total)


@dataclass(frozen=True)
class DieReport:
    """One kind of die at the table (a dice set, a colour): the test of the faces the
    camera read, the faces people typed (kept apart: a person chose them), and how
    many readings were of a face this die does not have (a misreading)."""

    profile: str
    color: str
    faces: tuple[str, ...]
    verdict: Verdict
    typed: dict[str, int]
    strange: int

    def to_json(self) -> dict:
        return {
            "profile": self.profile,
            "color": self.color,
            "faces": list(self.faces),
            **self.verdict.to_json(),
            "typed": self.typed,
            "not_on_die": self.strange,
        }


def report(throws: Sequence[Throw], profile: str | None = None) -> list[DieReport]:
    """A report per dice profile and colour (only ``profile`` when given), in the
    order first thrown."""
    groups: dict[tuple[str, str, tuple[str, ...]], list[Throw]] = {}
    for throw in throws:
        if throw.faces and profile in (None, throw.profile):
            groups.setdefault((throw.profile, throw.color, throw.faces), []).append(throw)
    reports = []
    for (name, color, faces), group in groups.items():
        read = Counter(t.face for t in group if t.read and t.face in faces)
        typed = Counter(t.face for t in group if not t.read and t.face in faces)
        strange = sum(1 for t in group if t.face not in faces)
        typed_faces = {face: typed[face] for face in dict.fromkeys(faces)} if typed else {}
        reports.append(DieReport(name, color, faces, judge(read, faces), typed_faces, strange))
    return reports
