"""The camera changes the reader is measured under (``vision.camera_changes``): each
keeps the labels on the dice they label, and scoring leaves out a die cut by a new
edge. A change that moved a label off its die would score a right reading wrong."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from dicetable.vision.camera_changes import CHANGES, closer, further, turned
from dicetable.vision.evaluation import Label, evaluate
from dicetable.vision.floor_changes import FLOORS, on_floor
from dicetable.vision.reading import DieReading, FrameReading

WIDTH, HEIGHT = 320, 240
MARK = 12  # side of the white square drawn where each label is


def marked(labels: list[Label]) -> np.ndarray:
    """A dark frame with a white square at each label's box."""
    frame = np.full((HEIGHT, WIDTH, 3), 40, np.uint8)
    for lb in labels:
        top_left = (round(lb.x - lb.width / 2), round(lb.y - lb.height / 2))
        bottom_right = (round(lb.x + lb.width / 2), round(lb.y + lb.height / 2))
        cv2.rectangle(frame, top_left, bottom_right, (255, 255, 255), -1)
    return frame


def bright_at(frame: np.ndarray, label: Label) -> bool:
    return bool(frame[round(label.y), round(label.x)].mean() > 200)


LABELS = [Label(0, 100.0, 80.0, MARK, MARK), Label(3, 250.0, 200.0, MARK, 2 * MARK)]


@pytest.mark.parametrize("change", [closer(1.5), closer(2.5), further(2.0), turned])
def test_a_moved_label_stays_on_its_die(change):
    frame, labels = change(marked(LABELS), LABELS)
    kept = [lb for lb in labels if lb.scored]
    assert kept, "the first label's die stays in view"
    assert all(bright_at(frame, lb) for lb in kept)
    assert [lb.face_index for lb in labels] == [lb.face_index for lb in LABELS]


def test_turning_swaps_a_box_s_width_and_height():
    _, labels = turned(marked(LABELS), LABELS)
    assert (labels[1].width, labels[1].height) == (2 * MARK, MARK)


def test_a_closer_camera_is_aimed_at_the_first_die_and_leaves_the_others_unscored():
    frame, labels = closer(2.5)(marked(LABELS), LABELS)
    assert frame.shape == (HEIGHT, WIDTH, 3)
    assert labels[0].scored and abs(labels[0].x - WIDTH / 2) < WIDTH / 4
    assert labels[0].width == pytest.approx(MARK * 2.5, rel=0.05)
    assert not labels[1].scored  # out of view


@pytest.mark.parametrize("name", list(CHANGES))
def test_every_change_keeps_the_frame_a_colour_picture(name):
    frame, labels = CHANGES[name](marked(LABELS), LABELS)
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert len(labels) == len(LABELS)


def test_a_die_cut_by_the_new_edge_is_neither_right_wrong_nor_missed(tmp_path):
    """Scoring a view with a die it leaves unscored: a reading there, right or wrong,
    is no mistake and no extra die, and no reading there is no missed die."""
    cv2.imwrite(str(tmp_path / "tray.png"), marked(LABELS))
    lines = [
        f"{lb.face_index} {lb.x / WIDTH} {lb.y / HEIGHT} {lb.width / WIDTH} {lb.height / HEIGHT}"
        for lb in LABELS
    ]
    (tmp_path / "tray.txt").write_text("\n".join(lines) + "\n")

    def cut_second(frame: np.ndarray, labels: list[Label]) -> tuple[np.ndarray, list[Label]]:
        first, second = labels
        return frame, [first, replace(second, scored=False)]

    def read_as(second: str | None):
        def read(frame: np.ndarray) -> FrameReading:
            die = DieReading(1, "1", x=100.0, y=80.0, size=20.0, confidence=0.9, color="white")
            cut = replace(die, value=int(second or 0), face=second or "", x=250.0, y=200.0)
            return FrameReading(dice=(die,) if second is None else (die, cut), ms=0.0)

        return read

    faces = ("1", "2", "3", "4", "5", "6")
    for second in (None, "4", "2"):  # not seen, read right, read wrong: all fair
        score = evaluate(tmp_path, read_as(second), faces, change=cut_second)
        assert (score.dice, score.right, score.missed, score.extra) == (1, 1, 0, 0)
        assert score.photos_right == 1 and not score.mistakes


def test_a_new_floor_paints_the_board_and_leaves_the_dice_and_labels():
    """``floor_changes``: the board round the dice takes the floor's colour, shaded as
    the board was lit; each die's own pixels and every label stay as they were."""
    board = np.full((HEIGHT, WIDTH, 3), 225, np.uint8)
    labels = [Label(0, 100.0, 80.0, 40, 40), Label(3, 230.0, 160.0, 40, 40)]
    for lb in labels:  # a red die with a dark pip on a white board
        x, y = round(lb.x), round(lb.y)
        cv2.rectangle(board, (x - 18, y - 18), (x + 18, y + 18), (40, 40, 200), -1)
        cv2.circle(board, (x, y), 4, (20, 20, 20), -1)
    green = (60, 110, 40)
    shown, kept = on_floor("", green)(board, labels)
    assert kept == labels
    for lb in labels:
        x, y = round(lb.x), round(lb.y)
        assert np.abs(shown[y, x + 10].astype(int) - (40, 40, 200)).max() <= 8  # the body
        assert shown[y, x].max() <= 30  # the pip
    corner = shown[10, 10].astype(int)
    assert np.abs(corner - np.array(green)).max() <= 10, corner  # the board, now felt
    assert set(FLOORS) >= {"wooden table", "green felt", "granite"}
