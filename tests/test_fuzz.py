"""The fuzz and fault suite's bounded slice (issue 18, item 8): random legal games of
every registered game keep the invariants, and SIGKILLed `dicetable play` processes
lose no acknowledged answer and resume to a clean replay. The long run, with counts,
is benchmarks/fault_bench.py; the machinery is tests/fuzz_play.py."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from fuzz_play import kill_and_resume, play_random, registered

SEEDS = (11, 12)
KILLS = 6


@pytest.mark.parametrize("game", registered())
@pytest.mark.parametrize("seed", SEEDS)
def test_random_legal_games_keep_the_invariants(tmp_path: Path, game: str, seed: int):
    played = play_random(game, seed, tmp_path, random.Random(seed))
    assert played.breaks == []
    assert played.lines


@pytest.mark.parametrize("game", ["dicethrone-solo", "minidungeon"])
def test_sigkilled_games_lose_no_acknowledged_answer(tmp_path: Path, game: str):
    rng = random.Random(5)
    played = play_random(game, 5, tmp_path / "dry", rng)
    assert played.over
    killed = kill_and_resume(played, tmp_path / "live", rng, KILLS)
    assert killed.kills == KILLS, "the game ended before every kill"
    assert (killed.lost, killed.breaks) == (0, [])
