"""``SettleWatcher``: read the tray only once the dice have stopped, and vote.

A reading taken while a die still spins or a hand is in the tray is how dice readers
lose a player's trust (see shared/reference/dice-vision-notes.md: false rolls on
pick-up, results taken before a last tumble, blurred frames). The watcher compares
each frame with the last on a small grey thumbnail (about a millisecond), keeps the
tray "rolling" while anything moves, calls it "hand in view" while a large region
that is not the settled tray reaches in from an edge, and reads the dice only when
the tray has been still for ``settle_seconds``. The reading it reports is the one
most of the still frames agree on, so one noisy frame cannot change the result.

A hand held perfectly still is still: once the scene keeps still, the watcher asks
whether the region unlike the settled tray is explained by dice (old or new ones,
each a die's square) and, if not, whether it shows the floor less than the settled
tray did there (a hand that stays) or more (a hand that left). Only the first camera
frames, with no settled tray to compare, cannot tell a still hand from a tray.

Time comes from the caller (``now``), so tests replay frames deterministically.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import cv2
import numpy as np

from dicetable.vision.reading import FrameReading

THUMB_WIDTH = 160
# A changed region reaching in from an edge is a hand when what no die explains covers
# more than this many dice's areas.
HAND_DICE = 4


class SettleState(StrEnum):
    """What the watcher makes of the tray on this frame."""

    EMPTY = "empty"
    ROLLING = "rolling"
    HAND = "hand in view"
    SETTLED = "settled"


@dataclass(frozen=True)
class TrayUpdate:
    state: SettleState
    reading: FrameReading | None  # only when SETTLED (or EMPTY: a reading with no dice)
    changed: bool  # the state or the settled reading differs from the last update


class SettleWatcher:
    """Feeds frames to a reader only when the tray is still, and votes over them.

    ``motion`` is the grey-level change that counts as movement, ``moving_share`` the
    share of the thumbnail that must change to call the tray rolling, ``votes`` how
    many still frames a reading needs, ``hand_share`` the share of the frame a region
    reaching in from an edge must cover to be a hand.
    """

    def __init__(
        self,
        reader,
        settle_seconds: float,
        *,
        motion: int = 18,
        moving_share: float = 0.002,
        votes: int = 3,
        hand_share: float = 0.04,
    ) -> None:
        self.reader = reader
        self.settle_seconds = settle_seconds
        self.motion = motion
        self.moving_share = moving_share
        self.votes = votes
        self.hand_share = hand_share
        self._last: np.ndarray | None = None
        self._tray: np.ndarray | None = None  # thumbnail of the last settled tray
        self._tray_dice: list[tuple[float, float, float]] = []  # its dice, thumbnail pixels
        self._still_since: float | None = None
        self._checked_at = float("-inf")
        self._readings: deque[FrameReading] = deque(maxlen=2 * votes + 1)
        self._state: SettleState | None = None
        self._reported: tuple | None = None
        self.last_reading: FrameReading | None = None

    def update(self, frame: np.ndarray, now: float) -> TrayUpdate:
        thumb = _thumbnail(frame)
        moving = self._moving(thumb)
        previous, self._last = self._last, thumb
        if moving:
            self._restart()
        elif self._still_since is None:
            self._still_since = now
        reaching = self._reaching_in(thumb, self._tray, self.hand_share)
        hand = reaching is not None or (
            moving
            and self._tray is None
            and self._reaching_in(thumb, previous, 2 * self.hand_share) is not None
        )
        if hand and (self._still_since is None or now - self._still_since < self.settle_seconds):
            self._readings.clear()
            return self._emit(SettleState.HAND, None)
        if moving:
            return self._emit(SettleState.ROLLING, None)
        current = self._state
        if (
            current in (SettleState.SETTLED, SettleState.EMPTY)
            and current is not None
            and self.last_reading is not None
            and now - self._checked_at < self.settle_seconds
        ):
            # Nothing moved since the tray settled: the result stands; it is checked
            # again every settle time (light changes, a die nudged without a throw),
            # which spares a Pi most reads of a tray nobody touches.
            return self._emit(current, self.last_reading)
        self._checked_at = now
        reading = self.reader.read(frame)
        if reaching is not None and self._hand_held_still(thumb, frame.shape, reading):
            self._readings.clear()
            return self._emit(SettleState.HAND, None)
        self._readings.append(reading)
        if self._still_since is None or now - self._still_since < self.settle_seconds:
            return self._emit(self._state_while_waiting(), None)
        voted = self._vote()
        if voted is None:
            return self._emit(self._state_while_waiting(), None)
        self._tray = thumb
        self._tray_dice = _dice_boxes(voted, frame.shape)
        state = SettleState.SETTLED if voted.dice else SettleState.EMPTY
        return self._emit(state, voted)

    def _hand_held_still(
        self, thumb: np.ndarray, shape: tuple[int, ...], reading: FrameReading
    ) -> bool:
        """A scene unlike the settled tray that keeps still is either the new tray (the
        hand has gone, the dice lie elsewhere) or a hand held still over it. Where no
        die, old or new, explains the difference, and what is there now is further
        from the tray's floor than what was there before, a hand is in view: a hand
        that left shows the floor again, a hand that stays does not."""
        assert self._tray is not None
        dice = self._tray_dice + _dice_boxes(reading, shape)
        region = self._reaching_in(thumb, self._tray, self.hand_share, dice)
        if region is None:
            return False
        outside = thumb[region == 0]
        floor = float(np.median(outside)) if outside.size else float(np.median(thumb))
        now = float(np.median(np.abs(thumb[region > 0].astype(np.float32) - floor)))
        before = float(np.median(np.abs(self._tray[region > 0].astype(np.float32) - floor)))
        return now > before

    def _state_while_waiting(self) -> SettleState:
        # Until the vote is in, the tray keeps the state it had (rolling, or settled
        # on the previous result when only light changed).
        return self._state if self._state is not None else SettleState.ROLLING

    def _restart(self) -> None:
        self._still_since = None
        self._readings.clear()

    def _moving(self, thumb: np.ndarray) -> bool:
        if self._last is None or self._last.shape != thumb.shape:
            return True
        changed = cv2.absdiff(thumb, self._last) > self.motion
        return bool(changed.mean() > self.moving_share)

    def _reaching_in(
        self,
        thumb: np.ndarray,
        reference: np.ndarray | None,
        share: float,
        dice: Sequence[tuple[float, float, float]] = (),
    ) -> np.ndarray | None:
        """The large regions unlike ``reference`` (the settled tray; before the first
        settle, the last frame) reaching in from the frame's edge, as a mask, or None.

        ``dice`` (x, y, side in thumbnail pixels) explain what they cover: dice that
        moved are not a hand, and a region must be much bigger than a die besides.
        A change of light over the whole tray is taken out first (the median
        difference), and a region covering most of the frame is a new light or a
        moved camera, not a hand."""
        if reference is None or reference.shape != thumb.shape:
            return None
        delta = thumb.astype(np.int16) - reference.astype(np.int16)
        delta -= np.int16(np.median(delta))
        changed = (np.abs(delta) > 2 * self.motion).astype(np.uint8)
        differs = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        covered = np.zeros(thumb.shape, np.uint8)
        for x, y, side in dice:
            reach = int(side * 0.6) + 1
            cv2.rectangle(
                covered, (int(x) - reach, int(y) - reach), (int(x) + reach, int(y) + reach), 1, -1
            )
        count, labels, stats, _ = cv2.connectedComponentsWithStats(differs, connectivity=8)
        height, width = thumb.shape
        die = float(np.median([s for _, _, s in dice])) ** 2 if dice else 0.0
        found = np.zeros(thumb.shape, np.uint8)
        for index in range(1, count):
            x, y, w, h, area = stats[index]
            touches = x == 0 or y == 0 or x + w >= width or y + h >= height
            if not touches or area < share * height * width or area > 0.6 * height * width:
                continue
            region = labels[y : y + h, x : x + w] == index
            if dice:  # what no die explains must be much bigger than a die
                area -= int(np.count_nonzero(region & (covered[y : y + h, x : x + w] > 0)))
                if area < max(share * height * width, HAND_DICE * die):
                    continue
            found[y : y + h, x : x + w][region] = 1
        return found if found.any() else None

    def _vote(self) -> FrameReading | None:
        signatures = [_signature(r) for r in self._readings]
        if len(signatures) < self.votes:
            return None
        best, count = Counter(signatures).most_common(1)[0]
        if count < self.votes or count * 2 <= len(signatures):
            return None
        # The most recent reading with the winning result (freshest positions).
        return next(r for r in reversed(self._readings) if _signature(r) == best)

    def _emit(self, state: SettleState, reading: FrameReading | None) -> TrayUpdate:
        signature = _signature(reading) if reading is not None else None
        changed = state != self._state or (
            state in (SettleState.SETTLED, SettleState.EMPTY) and signature != self._reported
        )
        self._state = state
        if reading is not None:
            self._reported = signature
            self.last_reading = reading
        return TrayUpdate(state=state, reading=reading, changed=changed)


def _thumbnail(frame: np.ndarray) -> np.ndarray:
    height, width = frame.shape[:2]
    size = (THUMB_WIDTH, max(1, round(height * THUMB_WIDTH / width)))
    if width > THUMB_WIDTH * 4:  # pick pixels of big frames first, then average
        frame = cv2.resize(frame, (size[0] * 4, size[1] * 4), interpolation=cv2.INTER_NEAREST)
    gray = cv2.cvtColor(cv2.resize(frame, size, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    return cv2.GaussianBlur(gray, (3, 3), 0)


def _dice_boxes(reading: FrameReading, shape: tuple[int, ...]) -> list[tuple[float, float, float]]:
    """The dice of ``reading`` (frame pixels) in thumbnail pixels: centre and side."""
    scale = THUMB_WIDTH / shape[1]
    return [(d.x * scale, d.y * scale, d.size * scale) for d in reading.dice]


def _signature(reading: FrameReading) -> tuple:
    """What a vote compares: the faces, values and colours read, in any order."""
    return tuple(sorted((d.face, d.value or 0, d.reason or "", d.color) for d in reading.dice))
