"""The long run of issue 18's fuzz and fault suite; prints counts, asserts nothing.

* random legal games of every registered game (tests/fuzz_play.py): games played,
  invariant breaks (an exception, no end, a resume or an undo that differs, an
  impossible value);
* SIGKILLs of real `dicetable play`/`resume` processes at random moments: kills,
  answers acknowledged, acknowledged answers lost, and resumes that are not a clean
  replay (game end included);
* the bad-input corpus (tests/bad_inputs.py): inputs tried, clear errors, fine
  inputs that worked, tracebacks, misleading errors, harmful.

    .venv/bin/python benchmarks/fault_bench.py [--games 20] [--kills 240] [--seed 1]

tests/test_fuzz.py and tests/test_bad_inputs.py run a bounded slice of the same.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from bad_inputs import CORPUS, try_case
from fuzz_play import fresh_folder, kill_and_resume, play_random, registered

KILLS_PER_GAME = 8  # kills in one game before the next is played
KILL_GAMES = ("dicethrone-solo", "raveness", "unchained-one-shot", "minidungeon", "dicequest")


def fuzz(games: int, rng: random.Random) -> None:
    played = breaks = answers = 0
    started = time.monotonic()
    for game in registered():
        for _ in range(games):
            folder = fresh_folder()
            result = play_random(game, rng.randrange(2**31), folder, rng)
            shutil.rmtree(folder, ignore_errors=True)
            played += 1
            answers += len(result.lines)
            breaks += bool(result.breaks)
            for problem in result.breaks:
                print(f"  break: {game} seed {result.seed}: {problem}")
    took = time.monotonic() - started
    print(f"random games: {played} played ({answers} answers, {took:.0f} s), {breaks} broke")


def kills(total: int, rng: random.Random) -> None:
    report = Counter()
    started = time.monotonic()
    while report["kills"] < total:
        game = KILL_GAMES[report["games"] % len(KILL_GAMES)]
        folder = fresh_folder()
        played = play_random(game, rng.randrange(2**31), folder / "dry", rng)
        killed = kill_and_resume(played, folder / "live", rng, KILLS_PER_GAME)
        shutil.rmtree(folder, ignore_errors=True)
        report["games"] += 1
        report["kills"] += killed.kills
        report["acknowledged"] += killed.acknowledged
        report["lost"] += killed.lost
        report["broken"] += bool(killed.breaks)
        for problem in killed.breaks:
            print(f"  break: {game} seed {played.seed}: {problem}")
    took = time.monotonic() - started
    print(
        f"SIGKILLs: {report['kills']} kills in {report['games']} games ({took:.0f} s), "
        f"{report['acknowledged']} answers acknowledged, {report['lost']} lost, "
        f"{report['broken']} games whose resume was not a clean replay"
    )


def corpus() -> None:
    kinds = Counter()
    folder = fresh_folder()
    for number, case in enumerate(CORPUS):
        outcome = try_case(case, folder / str(number))
        kinds[outcome.kind] += 1
        if outcome.kind not in ("clear", "works"):
            print(f"  {outcome.kind}: {case.name}: {outcome.detail}")
    shutil.rmtree(folder, ignore_errors=True)
    print(
        f"bad inputs: {len(CORPUS)} tried, {kinds['clear']} clear errors, {kinds['works']} "
        f"fine and worked, {kinds['traceback']} tracebacks, {kinds['misleading']} misleading, "
        f"{kinds['accepted'] + kinds['harmful']} harmful"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games per game")
    parser.add_argument("--kills", type=int, default=240, help="SIGKILLs in all")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    corpus()
    fuzz(args.games, rng)
    kills(args.kills, rng)


if __name__ == "__main__":
    main()
