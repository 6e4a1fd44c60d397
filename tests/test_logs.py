"""Logging through the standard module; under systemd each line carries its syslog
priority so the journal can filter by level (issue 2, item 9)."""

import logging

from dicetable.device import logs


def test_journal_lines_carry_the_syslog_priority(monkeypatch, capsys):
    monkeypatch.setenv("JOURNAL_STREAM", "8:1234")
    logs.setup()
    logging.getLogger("dicetable.camera").warning("camera lost: /dev/video0")
    logging.getLogger("dicetable.store").error("disk full")
    err = capsys.readouterr().err.splitlines()
    assert err == ["<4>dicetable.camera: camera lost: /dev/video0", "<3>dicetable.store: disk full"]


def test_terminal_lines_carry_time_level_and_name(monkeypatch, capsys):
    monkeypatch.delenv("JOURNAL_STREAM", raising=False)
    logs.setup(verbose=True)
    logging.getLogger("dicetable.vision").debug("settled")
    line = capsys.readouterr().err.strip()
    assert line.endswith("DEBUG dicetable.vision: settled")
