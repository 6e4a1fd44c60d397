"""The dice tray game: values, sum, sets and straights, history."""

from dicetable.rules.core import EventKind, Input
from dicetable.rules.dicetray.game import DiceTray, describe


def test_describe_finds_sets_and_the_longest_straight():
    assert describe([1, 1, 2, 3, 4, 5]) == {
        "values": [1, 1, 2, 3, 4, 5],
        "sum": 16,
        "sets": {"1": 2},
        "straight": [1, 2, 3, 4, 5],
    }
    assert describe([2, 3, 4, 6])["straight"] == []
    assert describe([3, 4, 5, 6])["straight"] == [3, 4, 5, 6]
    assert describe([6, 6, 6, 2])["sets"] == {"6": 3}


def test_rolls_are_kept_in_history_and_reported():
    tray = DiceTray(seed=1)
    events = tray.apply(Input.roll(6, 6, 6))
    assert [e.kind for e in events] == [EventKind.ROLLED, EventKind.OBJECTIVE_MET]
    assert str(events[1].text) == "Three of a kind: 6s."
    tray.apply(Input.roll(2, 3, 4, 5, 1))
    assert tray.view()["history"] == [[6, 6, 6], [1, 2, 3, 4, 5]]
    assert tray.view()["last"]["sum"] == 15
