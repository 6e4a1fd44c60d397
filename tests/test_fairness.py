"""The fairness of the table's dice (issue 16, item 3): face counts from the roll log
(every saved game's dice answers), a chi-square test against a fair die, a verdict.

Thresholds (device/dice_fairness.py): biased when p < 0.01; no verdict before every
face is expected 5 times (30 rolls of a d6). The tests below check what those mean
on generated logs: a fair die is accused about 1 time in 100, a die showing 6 on 31%
of its rolls is caught over 412 rolls almost always.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from dicetable.device.cli import main
from dicetable.device.commands.fairness import text
from dicetable.device.controller import Controller
from dicetable.device.dice_fairness import (
    BIASED_P,
    Finding,
    Throw,
    chi_square_p,
    judge,
    report,
)
from dicetable.device.roll_log import D6_FACES, roll_log, thrown_dice
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.hardware.actions import TableAction
from dicetable.rules.core import DiceRequest, Die, Input, InputKind, Prompt, PromptKind, msg
from dicetable.rules.dicequest.data import default_dice


@pytest.mark.parametrize(
    ("statistic", "df", "p"),
    [  # critical values of the chi-square distribution (any statistics table)
        (3.841459, 1, 0.05),
        (6.634897, 1, 0.01),
        (5.991465, 2, 0.05),
        (7.814728, 3, 0.05),
        (9.487729, 4, 0.05),
        (11.070498, 5, 0.05),
        (15.086272, 5, 0.01),
        (20.515006, 5, 0.001),
        (4.351460, 5, 0.5),
        (1.0, 5, 0.962566),
        (18.307038, 10, 0.05),
    ],
)
def test_the_p_value_matches_the_chi_square_tables(statistic: float, df: int, p: float) -> None:
    assert chi_square_p(statistic, df) == pytest.approx(p, rel=1e-5)


def test_the_p_value_at_its_edges() -> None:
    assert chi_square_p(0.0, 5) == 1.0
    assert chi_square_p(500.0, 5) < 1e-100
    with pytest.raises(ValueError, match="degree of freedom"):
        chi_square_p(3.0, 0)


def _rolls(rng: random.Random, n: int, weights: list[float]) -> dict[str, int]:
    faces = rng.choices(D6_FACES, weights=weights, k=n)
    return {face: faces.count(face) for face in D6_FACES}


FAIR = [1.0] * 6
LOADED_SIX = [0.69 / 5] * 5 + [0.31]  # face 6 on 31% of rolls, the rest evenly


def test_a_fair_die_is_accused_about_as_often_as_the_threshold_says() -> None:
    rng = random.Random(16)
    accused = sum(
        judge(_rolls(rng, 412, FAIR), D6_FACES).finding is Finding.BIASED for _ in range(400)
    )
    assert accused / 400 <= 3 * BIASED_P  # expected 1%: 4 of 400; 12 would be wrong


def test_a_die_showing_six_on_31_percent_is_caught_over_412_rolls() -> None:
    rng = random.Random(31)
    verdicts = [judge(_rolls(rng, 412, LOADED_SIX), D6_FACES) for _ in range(200)]
    caught = [v for v in verdicts if v.finding is Finding.BIASED]
    assert len(caught) / len(verdicts) >= 0.95
    assert all(v.face == "6" for v in caught)


def test_the_verdicts_in_words() -> None:
    fair = judge({"1": 70, "2": 68, "3": 71, "4": 66, "5": 69, "6": 68}, D6_FACES)
    assert fair.finding is Finding.FAIR
    assert str(fair.words()) == "no sign of bias over 412 rolls"
    loaded = judge({"1": 57, "2": 56, "3": 58, "4": 56, "5": 57, "6": 128}, D6_FACES)
    assert loaded.finding is Finding.BIASED and loaded.face == "6"
    assert str(loaded.words()).startswith("face 6 comes up 31% of the time (a fair die: 17%): p")
    few = judge({"6": 20}, D6_FACES)
    assert few.finding is Finding.TOO_FEW
    assert str(few.words()) == "too few rolls to tell: 20 of the 30 needed"


def test_a_face_printed_twice_is_expected_twice_as_often() -> None:
    red = default_dice().colors["red"]  # blank, blank, sword, sword, 2-swords, shield
    even = {"blank": 100, "sword": 100, "2-swords": 50, "shield": 50}
    assert judge(even, red).finding is Finding.FAIR
    flat = {"blank": 75, "sword": 75, "2-swords": 75, "shield": 75}
    assert judge(flat, red).finding is Finding.BIASED
    # the rarest face (once in six) is expected 5 times only after 30 rolls
    assert judge({}, red).needed == 30


def _play_tray(store: Store, rolls: list[list[int]], source: str) -> None:
    session = TableSession.start(store, "dice-tray", seed=1)
    for values in rolls:
        dice = tuple(Die(v, str(v)) for v in values)
        session.submit(Input(InputKind.DICE, dice=dice, source=source))


def test_the_roll_log_reads_every_saved_game_and_keeps_typed_dice_apart(
    isolated_data: Path,
) -> None:
    rng = random.Random(5)
    store = Store.in_dir(isolated_data)
    read = [rng.choices(range(1, 7), weights=LOADED_SIX, k=6) for _ in range(70)]
    _play_tray(store, read[:35], "camera")
    _play_tray(store, read[35:], "camera")
    _play_tray(store, [[6, 6, 6, 6]] * 10, "typed")  # a person chose these
    log = roll_log(store, isolated_data)
    store.close()
    assert log.games == 3 and not log.stopped
    (die,) = report(log.throws)
    assert die.profile == "d6" and die.color == ""
    assert die.verdict.rolls == 420
    assert sum(die.verdict.counts.values()) == 420
    assert die.typed["6"] == 40 and sum(die.typed.values()) == 40
    assert die.verdict.finding is Finding.BIASED and die.verdict.face == "6"


def test_a_corrected_reading_counts_with_its_corrected_value(isolated_data: Path) -> None:
    store = Store.in_dir(isolated_data)
    controller = Controller(TableSession.start(store, "dice-tray", seed=1))
    controller.prompt  # noqa: B018 (a new prompt clears the dice offered)
    controller.offer_dice((Die(1, "1"), Die(5, "5")))  # as read
    controller.offer_dice((Die(1, "1"), Die(6, "6")))  # the 5 corrected to a 6 by touch
    controller.act(TableAction.CONFIRM)
    throws = roll_log(store, isolated_data).throws
    store.close()
    assert [(t.face, t.source) for t in throws] == [("1", "camera"), ("6", "camera")]


def _roll_prompt(count: int, keep: tuple[int, ...], profile: str = "d6") -> Prompt:
    return Prompt(PromptKind.ROLL, msg("roll"), dice=DiceRequest(count, profile=profile), keep=keep)


def test_dice_kept_in_place_are_not_counted_again() -> None:
    last = tuple(Die(v, str(v)) for v in (1, 2, 2, 5, 6))
    # Dice Throne: "keep 2 5, re-roll 3 dice and enter all 5" (in any order)
    again = tuple(Die(v, str(v)) for v in (5, 3, 2, 2, 4))
    thrown = thrown_dice(_roll_prompt(5, (1, 3)), again, last)
    assert sorted(d.value for d in thrown) == [2, 3, 4]
    # Dicequest: re-roll the 2 chosen dice of 5; the answer holds those 2 alone
    rerolled = (Die(None, "rune", "blue"), Die(None, "wand", "yellow"))
    assert thrown_dice(_roll_prompt(2, (0, 1, 2), "dicequest"), rerolled, last) == rerolled
    # a first roll keeps nothing
    assert thrown_dice(_roll_prompt(5, ()), again, last) == again


def test_a_dice_throne_reroll_in_a_saved_game_counts_the_rerolled_dice(
    isolated_data: Path,
) -> None:
    store = Store.in_dir(isolated_data)
    session = TableSession.start(store, "dicethrone-solo", seed=3, options={"boss": "barbarian"})
    rolls = 0
    while rolls < 2:  # the Boss's first roll and one re-roll
        prompt = session.prompt()
        if prompt.kind is PromptKind.ROLL:
            session.submit(Input.roll(1, 2, 2, 5, 6, source="camera"))
            rolls += 1
        elif prompt.kind is PromptKind.CHOOSE:
            ids = [o.id for o in prompt.options]
            session.submit(Input.choose("end" if "end" in ids else ids[0]))
        elif prompt.kind is PromptKind.NUMBER:
            session.submit(Input.enter(prompt.number_range[0]))
        else:
            session.submit(Input.confirm())
    assert prompt.keep == (1, 3)  # the second roll kept a 2 and the 5
    throws = roll_log(store, isolated_data).throws
    store.close()
    assert [t.face for t in throws] == ["1", "2", "2", "5", "6", "1", "2", "6"]
    assert {t.profile for t in throws} == {"dicethrone-barbarian"}


def test_dicequest_dice_are_tested_per_colour(isolated_data: Path) -> None:
    red = default_dice().colors["red"]
    rng = random.Random(2)
    throws = [Throw("dicequest", "red", rng.choice(red), red, "camera") for _ in range(300)]
    blue = default_dice().colors["blue"]
    throws += [Throw("dicequest", "blue", "rune", blue, "camera") for _ in range(40)]
    throws += [Throw("dicequest", "blue", "sword", blue, "camera")]  # a misreading
    reports = {r.color: r for r in report(throws, "dicequest")}
    assert reports["red"].verdict.finding is Finding.FAIR
    assert reports["blue"].verdict.finding is Finding.BIASED
    assert reports["blue"].verdict.face == "rune" and reports["blue"].strange == 1
    assert report(throws, "d6") == []


def test_a_die_only_typed_in_has_no_bars_and_no_verdict() -> None:
    (die,) = report([Throw("d6", "", "6", D6_FACES, "typed")] * 3)
    assert text(die) == (
        "d6: no dice read by the camera yet\n"
        "  typed by hand, not tested: 3 (1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 3)"
    )


def test_dicetable_fairness_prints_each_die_and_its_verdict(
    isolated_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = Store.in_dir(isolated_data)
    _play_tray(store, [[1, 2, 3, 4, 5, 6]] * 10, "camera")
    _play_tray(store, [[6]], "typed")
    store.close()
    assert main(["fairness"]) == 0
    out = capsys.readouterr().out
    assert "d6: no sign of bias over 60 rolls" in out
    assert "chi-square 0.00, 5 degrees of freedom" in out
    assert "typed by hand, not tested: 1 (1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 1)" in out
    assert main(["fairness", "--json", "--profile", "d6"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    row = json.loads(line)
    assert row["finding"] == "fair" and row["counts"]["6"] == 10 and row["typed"]["6"] == 1
    assert main(["fairness", "--profile", "dicequest"]) == 0
    assert "No dice rolled with the profile 'dicequest' in the 2 saved games" in (
        capsys.readouterr().out
    )
