"""Settled, not rolling: the tray states and the vote over frames (notes §3, "reading
before the dice settle / handling false positives" and the frame voting of Yacht Dice)."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np

from dicetable.hardware.synthetic_tray import random_tray, render_tray
from dicetable.vision.reader import DiceReader
from dicetable.vision.reading import DieReading, FrameReading
from dicetable.vision.settle import SettleState, SettleWatcher

FPS = 10


def frames_of(dice, count, *, seed=1, **render):
    """``count`` frames of one scene, each with its own sensor noise."""
    clean = render_tray(dice, seed=seed, noise=0, **render)
    rng = np.random.default_rng(seed)
    for _ in range(count):
        grain = (rng.standard_normal(clean.shape, np.float32) * 3).astype(np.int16)
        yield np.clip(clean.astype(np.int16) + grain, 0, 255).astype(np.uint8)


def feed(watcher, frames, start=0.0):
    updates = []
    for index, frame in enumerate(frames):
        updates.append(watcher.update(frame, start + index / FPS))
    return updates


def rolling_frames(dice, count, seed=1):
    rng = random.Random(seed)
    for step in range(count):
        moved = [
            replace(d, x=d.x + rng.uniform(-30, 30), y=d.y + rng.uniform(-30, 30), angle=step * 40)
            for d in dice
        ]
        yield render_tray(moved, seed=seed, blur=20)


def test_rolling_then_settled_after_the_settle_time():
    dice = random_tray(random.Random(3), 4)
    watcher = SettleWatcher(DiceReader(), settle_seconds=0.5)
    updates = feed(watcher, rolling_frames(dice, 6))
    assert {u.state for u in updates} == {SettleState.ROLLING}
    assert all(u.reading is None for u in updates)
    still = feed(watcher, frames_of(dice, 10), start=1.0)
    settled = [i for i, u in enumerate(still) if u.state == SettleState.SETTLED]
    assert settled and settled[0] >= 5  # not before 0.5 s of stillness at 10 fps
    first = still[settled[0]]
    assert first.changed and first.reading is not None
    assert sorted(d.value for d in first.reading.dice) == sorted(d.value for d in dice)
    assert not any(u.changed for u in still[settled[0] + 1 :])


def test_settle_time_is_configurable():
    dice = random_tray(random.Random(4), 3)
    watcher = SettleWatcher(DiceReader(), settle_seconds=1.5)
    updates = feed(watcher, frames_of(dice, 20))
    first = next(i for i, u in enumerate(updates) if u.state == SettleState.SETTLED)
    assert first >= 15


def test_empty_tray():
    watcher = SettleWatcher(DiceReader(), settle_seconds=0.3)
    updates = feed(watcher, frames_of([], 8))
    assert updates[-1].state == SettleState.EMPTY
    assert updates[-1].reading is not None and updates[-1].reading.dice == ()


def test_hand_in_view_after_a_settled_tray():
    dice = random_tray(random.Random(5), 3)
    watcher = SettleWatcher(DiceReader(), settle_seconds=0.3)
    feed(watcher, frames_of(dice, 6))
    hand = render_tray(dice, seed=1, hand=True, noise=0)
    updates = feed(watcher, [hand, hand, hand], start=1.0)
    assert [u.state for u in updates] == [SettleState.HAND] * 3
    assert updates[0].changed and updates[0].reading is None


class FlakyReader:
    """Reads 5 always, except on chosen frames where it misreads a 3."""

    def __init__(self, bad: set[int]) -> None:
        self.bad = bad
        self.count = 0

    def read(self, frame):
        value = 3 if self.count in self.bad else 5
        self.count += 1
        return FrameReading((DieReading(value, str(value), 10, 10, 20, 0.9, "white"),), 1.0)


def test_one_noisy_frame_cannot_change_the_result():
    frames = list(frames_of([], 12))
    watcher = SettleWatcher(FlakyReader(bad={4, 9}), settle_seconds=0.3)
    updates = feed(watcher, frames)
    results = [u.reading.dice[0].value for u in updates if u.reading is not None]
    assert results and set(results) == {5}
    assert sum(u.changed for u in updates if u.state == SettleState.SETTLED) == 1


def test_no_reading_until_the_frames_agree():
    frames = list(frames_of([], 6))
    watcher = SettleWatcher(FlakyReader(bad={0, 2, 4}), settle_seconds=0.2)
    updates = feed(watcher, frames)
    assert all(u.reading is None for u in updates[:5])


def test_a_settled_tray_is_rechecked_once_per_settle_time():
    """A Pi should not read an untouched tray 15 times a second."""
    reader = FlakyReader(bad=set())
    watcher = SettleWatcher(reader, settle_seconds=0.5)
    updates = feed(watcher, frames_of([], 40))  # 4 s at 10 fps
    assert updates[-1].state == SettleState.SETTLED and updates[-1].reading is not None
    assert reader.count <= 20
    assert sum(u.changed for u in updates) == 2  # rolling at first sight, then settled


def test_hand_reaching_in_before_anything_settled():
    dice = random_tray(random.Random(6), 3)
    watcher = SettleWatcher(DiceReader(), settle_seconds=0.3)
    empty = render_tray([], seed=2, noise=0)
    hand = render_tray(dice, seed=2, hand=True, noise=0)
    updates = feed(watcher, [empty, hand])
    assert updates[-1].state == SettleState.HAND


def test_a_new_scene_that_keeps_still_is_the_new_tray_not_a_hand():
    """After a hand left, the tray no longer looks like the last settled one; once it
    keeps still for the settle time it is read, not taken for a hand for ever."""
    dice = random_tray(random.Random(8), 3)
    watcher = SettleWatcher(DiceReader(), settle_seconds=0.3)
    feed(watcher, frames_of(dice, 8, hand=True))  # a hand held still: settles on it
    updates = feed(watcher, frames_of(dice, 12, seed=2), start=1.0)
    assert updates[0].state in (SettleState.HAND, SettleState.ROLLING)
    assert updates[-1].state == SettleState.SETTLED
    assert sorted(d.value for d in updates[-1].reading.dice) == sorted(d.value for d in dice)


def test_a_hand_held_still_over_the_tray_never_reads_as_settled():
    """Notes §3, false positives: a player's hand resting over the tray for seconds is
    not a settled tray (it is still, but it is a hand); once it leaves, the tray
    settles with the dice under it."""
    dice = random_tray(random.Random(11), 4)
    watcher = SettleWatcher(DiceReader(), settle_seconds=0.3)
    feed(watcher, frames_of(dice, 8))
    held = feed(watcher, frames_of(dice, 35, seed=1, hand=True), start=1.0)  # 3.5 s
    assert {u.state for u in held} == {SettleState.HAND}
    assert all(u.reading is None for u in held)
    left = feed(watcher, frames_of(dice, 12, seed=1), start=4.5)
    assert left[-1].state == SettleState.SETTLED
    assert sorted(d.value for d in left[-1].reading.dice) == sorted(d.value for d in dice)


def test_a_hand_still_over_new_dice_after_a_roll_waits_for_the_hand():
    """The dice were rolled and a hand stays over them: no reading until it goes,
    then the new dice, not the old ones."""
    before = random_tray(random.Random(12), 3)
    after = random_tray(random.Random(13), 3)
    watcher = SettleWatcher(DiceReader(), settle_seconds=0.3)
    feed(watcher, frames_of(before, 8))
    feed(watcher, rolling_frames(after, 4), start=1.0)
    held = feed(watcher, frames_of(after, 40, seed=2, hand=True), start=1.5)
    assert SettleState.SETTLED not in {u.state for u in held}
    assert held[-1].state == SettleState.HAND
    left = feed(watcher, frames_of(after, 12, seed=2), start=6.0)
    assert left[-1].state == SettleState.SETTLED
    assert sorted(d.value for d in left[-1].reading.dice) == sorted(d.value for d in after)


def test_a_change_of_light_is_not_a_hand():
    """A lamp switched on over a settled tray changes every pixel: the tray settles
    again on the same dice instead of calling it a hand for ever."""
    dice = random_tray(random.Random(14), 3)
    watcher = SettleWatcher(DiceReader(), settle_seconds=0.3)
    feed(watcher, frames_of(dice, 8))
    brighter = feed(watcher, frames_of(dice, 12, light=1.25), start=1.0)
    assert brighter[-1].state == SettleState.SETTLED
    assert sorted(d.value for d in brighter[-1].reading.dice) == sorted(d.value for d in dice)


def test_taught_symbol_dice_settle_only_once_a_still_hand_has_gone():
    """The same with hero dice read by a taught profile: the hand resting over them
    is never taken for the tray, and the faces read once it leaves are the dice's
    (the votes compare colours too: a symbol face's body colour, read under the
    symbol, changed from frame to frame, and no reading won the vote)."""
    from dicetable.vision.profiles import make_reader
    from dicetable.vision.teaching import Teacher

    symbols = {1: "sword", 2: "sword", 3: "sword", 4: "shield", 5: "shield", 6: "star"}
    faces = ("sword", "sword", "sword", "shield", "shield", "star")
    teacher = Teacher("hero", faces, (1, 2, 3, 4, 5, 6))
    for seed in range(6):
        dice = random_tray(random.Random(seed), 5, symbols=symbols, colours=("red",))
        image = render_tray(dice, seed=seed, tray="black felt")
        teacher.add_photo(image, [(d.value - 1, d.x, d.y, d.size) for d in dice])
    watcher = SettleWatcher(make_reader(teacher.learn()), settle_seconds=0.3)
    dice = random_tray(random.Random(40), 4, symbols=symbols, colours=("red",))
    feed(watcher, frames_of(dice, 8, tray="black felt"))
    held = feed(watcher, frames_of(dice, 30, hand=True, tray="black felt"), start=1.0)
    assert {u.state for u in held} == {SettleState.HAND}
    left = feed(watcher, frames_of(dice, 10, tray="black felt"), start=4.0)
    assert left[-1].state == SettleState.SETTLED
    read = sorted(d.face for d in left[-1].reading.dice)
    assert read == sorted(faces[d.value - 1] for d in dice)
