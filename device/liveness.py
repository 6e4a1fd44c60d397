"""The systemd watchdog's ping, sent only while the whole table answers.

``WATCHDOG=1`` comes from the UI loop (a Kivy clock interval), so a frozen screen
stops it; but answers, store writes and the screen's requests run on the table
thread, and a table thread stuck in a rule or a write left the screen pinging while
no answer could be taken. So each beat of the UI loop also hands the table thread a
probe, and the ping goes only when the probe of the previous beat has run: a table
thread that has not answered for a whole interval stops the pings, and systemd
restarts the app once ``WatchdogSec=`` (two intervals) passes without one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from dicetable.hardware import notify


class Watchdog:
    """``beat()`` from the UI loop every ``notify.watchdog_interval()`` seconds."""

    def __init__(
        self,
        on_table_thread: Callable[[Callable[[], None]], Any],
        ping: Callable[[], bool] = notify.watchdog,
    ) -> None:
        self._submit = on_table_thread
        self._ping = ping
        self._answered = threading.Event()
        self._answered.set()  # nothing asked yet: the table is taken as answering

    def beat(self) -> bool:
        """Ping when the table thread ran the last probe, then send the next one;
        True when pinged."""
        table_answers = self._answered.is_set()
        if table_answers:
            self._answered.clear()
            try:
                self._submit(self._answered.set)
            except RuntimeError:  # the table thread is shut down: the app is stopping
                return False
            self._ping()
        return table_answers
