"""Random Dicequest games, played to the end through the public prompt/apply loop,
never break the rules' invariants (shared/seeds/dicequest.txt: "Recruit Action"
3 Heroes, "Deployment Step" up to 4 dice per colour, "Defeated Heroes" 2 Light or
1 Deadly, "Rounds & Turns" 9 rounds) and replay identically from seed and inputs."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicetable.rules.core import Die, Input, InvalidInput, PromptKind
from dicetable.rules.dicequest.game import Dicequest

PROGRESS = ("done", "roll", "quest", "go", "deadly", "light", "recruit")


def random_answer(game: Dicequest, rng: random.Random) -> Input:
    prompt = game.prompt()
    if prompt.kind is PromptKind.CONFIRM:
        return Input.confirm()
    if prompt.kind is PromptKind.NUMBER:
        low, high = prompt.number_range
        return Input.enter(rng.randint(low, min(high, low + 4)))
    if prompt.kind is PromptKind.ROLL:
        dice = tuple(Die(None, rng.choice(game.dice.colors[c]), c) for c in prompt.dice.colors)
        return Input(kind=Input.roll().kind, dice=dice)
    ids = [o.id for o in prompt.options]
    ahead = [i for i in ids if i in PROGRESS]
    if ahead and rng.random() < 0.45:
        return Input.choose(rng.choice(ahead))
    return Input.choose(rng.choice(ids))


def check(game: Dicequest) -> None:
    view = game.view()
    json.dumps(view)
    assert 0 <= game.round <= 9 and 1 <= game.act <= 3
    for player in game.players:
        assert len(player.heroes) <= 3
        assert player.total_vp() >= 0
    if game.attempt is not None:
        pool = game.attempt.pool
        assert all(pool.count(c) <= 4 for c in set(pool))
        assert all(not d.rune_spent or d.locked for d in game.attempt.dice)
    if game.stage in ("tavern", "quest"):
        assert not any(h.defeated for p in game.players for h in p.heroes)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 2**32))
def test_random_games_end_and_keep_the_rules(seed: int, moves: int) -> None:
    rng = random.Random(moves)
    game = Dicequest(seed)
    inputs = []
    for _ in range(6000):
        if game.is_over:
            break
        answer = random_answer(game, rng)
        game.apply(answer)
        inputs.append(answer)
        check(game)
    assert game.is_over, f"stuck at stage {game.stage} round {game.round}"
    result = game.result()
    assert result is not None and "score" in result
    again = Dicequest(seed)
    for answer in inputs:
        again.apply(answer)
    assert again.view() == game.view()


def test_a_wrong_answer_changes_nothing() -> None:
    """core.py: apply() raises InvalidInput before changing anything."""
    game = Dicequest(5)
    rng = random.Random(5)
    for _ in range(400):
        if game.is_over:
            break
        before = json.dumps(game.view(), sort_keys=True)
        prompt = game.prompt()
        if prompt.kind is PromptKind.ROLL:
            wrong = Input(
                kind=Input.roll().kind,
                dice=tuple(Die(None, "blank", "purple") for _ in prompt.dice.colors),
            )
            with pytest.raises(InvalidInput):
                game.apply(wrong)
            assert json.dumps(game.view(), sort_keys=True) == before
        game.apply(random_answer(game, rng))
