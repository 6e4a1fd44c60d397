"""A number by buttons or keys: + and − step by one, and faster while they are held
or pressed in quick succession; digit keys type the number itself.

Numbers at the table are small (damage, CP) but their ranges can be wide (0 to 99):
a held button goes 1, 1, 1, then 5 at a time, so 34 is a second and a half away,
not 34 presses; the screen adds −5 and +5 where the range is that large.
"""

from __future__ import annotations

import time
from collections.abc import Callable

#: presses closer than this count as one held button
REPEAT_GAP_S = 0.45
#: after this many quick presses the step grows to ``FAST_STEP``
PRESSES_BEFORE_FAST = 4
FAST_STEP = 5
#: a range at least this wide gets −5 and +5 buttons on the screen
LARGE_RANGE = 20


class Stepper:
    """The step of the next + or − press: one, or ``FAST_STEP`` once held."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.last: int = 0  # +1 or -1: the direction of the last press
        self.at = -1e9
        self.run = 0

    def step(self, direction: int) -> int:
        now = self.clock()
        if direction == self.last and now - self.at < REPEAT_GAP_S:
            self.run += 1
        else:
            self.run = 0
        self.last, self.at = direction, now
        return direction * (FAST_STEP if self.run >= PRESSES_BEFORE_FAST else 1)


class DigitBuffer:
    """Digits typed for a number in ``low..high``: each digit is appended while the
    number stays in range, else it starts a new number (typing 4 then 7 gives 47
    in 0..99; typing 1, 2, 3 in 0..20 gives 3 after 12)."""

    def __init__(self) -> None:
        self.digits = ""

    def clear(self) -> None:
        self.digits = ""

    def type(self, digit: str, low: int, high: int) -> int:
        candidate = (self.digits + digit).lstrip("0") or "0"
        if int(candidate) > high:
            candidate = digit
        self.digits = candidate
        return min(high, max(low, int(candidate)))

    def erase(self, low: int, high: int) -> int | None:
        """Backspace: the last digit goes; None when nothing was typed."""
        if not self.digits:
            return None
        self.digits = self.digits[:-1]
        return min(high, max(low, int(self.digits or low)))


def clamp(value: int, number_range: tuple[int, int]) -> int:
    low, high = number_range
    return min(high, max(low, value))
