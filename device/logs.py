"""Logging to stderr, readable in the journal when systemd runs the app.

Under systemd (``JOURNAL_STREAM`` is set) each line starts with ``<N>``, the syslog
priority, so ``journalctl -p warning -u dicetable`` filters by level; the journal adds
its own timestamps. Elsewhere lines carry a time and the logger's name.
"""

from __future__ import annotations

import logging
import os

SYSLOG_PRIORITY = {
    logging.CRITICAL: 2,
    logging.ERROR: 3,
    logging.WARNING: 4,
    logging.INFO: 6,
    logging.DEBUG: 7,
}


class JournalFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        priority = SYSLOG_PRIORITY.get(record.levelno, 6)
        return f"<{priority}>{super().format(record)}"


def setup(verbose: bool = False) -> None:
    handler = logging.StreamHandler()
    if os.environ.get("JOURNAL_STREAM"):
        handler.setFormatter(JournalFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(
            logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s", "%H:%M:%S")
        )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
