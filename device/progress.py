"""A progress bar on the terminal for the long commands (teach, eval): on a terminal
one line redrawn in place, elsewhere (a pipe, the journal) a line per tenth."""

from __future__ import annotations

import sys
from typing import TextIO

WIDTH = 30


class Progress:
    def __init__(self, total: int, what: str, stream: TextIO | None = None) -> None:
        self.total = max(1, total)
        self.what = what
        self.stream = stream or sys.stderr
        self.done = 0
        self._tenth = -1
        self._live = self.stream.isatty()

    def step(self, note: str = "") -> None:
        self.done += 1
        share = self.done / self.total
        if self._live:
            filled = round(WIDTH * share)
            bar = "#" * filled + "-" * (WIDTH - filled)
            self.stream.write(f"\r{self.what} [{bar}] {self.done}/{self.total} {note[:30]:<30}")
            if self.done >= self.total:
                self.stream.write("\n")
        elif int(share * 10) > self._tenth:
            self._tenth = int(share * 10)
            self.stream.write(f"{self.what}: {self.done}/{self.total}\n")
        self.stream.flush()
