"""Adventure rewards by rank and the final ranking: the two places where a tie rule
decides who gets what."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def adventure_rewards(scores: Mapping[int, int], rewards: Sequence[int]) -> dict[int, int]:
    """VP per player from the Adventure Scores of the players who succeeded.

    "If two or more players tie for a rank, each receives the next same Reward, if
    any - e.g., if two players tie for first, both receive the second-place Reward"
    (Completing Adventures). A tied group filling places p..p+k-1 all get the reward
    of place p+k-1; places past the last reward get nothing."""
    gained: dict[int, int] = {}
    place = 0
    for score in sorted(set(scores.values()), reverse=True):
        group = [p for p, s in scores.items() if s == score]
        last = place + len(group) - 1
        for player in group:
            gained[player] = rewards[last] if last < len(rewards) else 0
        place += len(group)
    return gained


def standings(vp: Mapping[int, int], heroes: Mapping[int, int]) -> list[list[int]]:
    """Players from first to last, tied players together: most VP, then most Heroes
    on the Party board; "If still tied, those players share the victory"."""
    keys = sorted({(vp[p], heroes[p]) for p in vp}, reverse=True)
    return [sorted(p for p in vp if (vp[p], heroes[p]) == key) for key in keys]
