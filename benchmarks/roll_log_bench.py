"""Median time to count the table's rolls for ``dicetable fairness`` and its page.

The roll log is read by replaying every saved game (``device.roll_log``): the cost
grows with the games and answers kept. Measured on the recorded saved games of every
game (tests/saved_games, 46 games, 5323 answers), copied to a temporary folder, then
on that log repeated to ten times as many games; cold (every game replayed, the first
count after a start) and warm (games counted before are not replayed). Wall-clock
and CPU medians in ms.

    .venv/bin/python benchmarks/roll_log_bench.py
"""

from __future__ import annotations

import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from dicetable.device import roll_log as log_module
from dicetable.device.dice_fairness import report
from dicetable.device.roll_log import roll_log
from dicetable.device.store import DB_NAME, Store

SAVED = Path(__file__).resolve().parent.parent / "tests" / "saved_games" / DB_NAME
REPEATS = 5
COPIES = 10  # the second case: the recorded games, ten times over


def _timed(store: Store, data: Path, cold: bool) -> tuple[float, float, int]:
    walls, cpus = [], []
    throws = 0
    for _ in range(REPEATS):
        if cold:  # every game replayed, as the first count after a start
            log_module._COUNTED.clear()
        wall, cpu = time.perf_counter(), time.process_time()
        log = roll_log(store, data)
        report(log.throws)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        throws = len(log.throws)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000, throws


def _copy_games(store: Store, times: int) -> None:
    """Every saved game again, ``times - 1`` more times (same seeds, same answers)."""
    for saved in store.saved_games():
        inputs = store.inputs(saved.id)
        for _ in range(times - 1):
            game_id = store.create_game(saved.game, saved.seed, saved.options, saved.name)
            with store.transaction() as db:
                db.executemany(
                    "INSERT INTO inputs (game_id, seq, input, at) VALUES (?, ?, ?, 0)",
                    [(game_id, seq, _json(data)) for seq, data in enumerate(inputs)],
                )


def _json(data: dict) -> str:
    return json.dumps(data, sort_keys=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        shutil.copy(SAVED, data / DB_NAME)
        store = Store.in_dir(data)
        for label in ("recorded", f"x{COPIES}"):
            if label != "recorded":
                _copy_games(store, COPIES)
            games = len(store.saved_games())
            for cold in (True, False):
                wall, cpu, throws = _timed(store, data, cold)
                print(
                    f"{label:9s} {'cold' if cold else 'warm'} {games:4d} games {throws:6d} dice:"
                    f" {wall:7.1f} ms wall {cpu:7.1f} ms cpu"
                )
        store.close()


if __name__ == "__main__":
    main()
