"""The prompt/input contract every game relies on (rules/core.py)."""

import pytest

from dicetable.rules.core import (
    DiceRequest,
    Die,
    Input,
    InvalidInput,
    Option,
    Prompt,
    PromptKind,
    expect,
    msg,
)

ROLL = Prompt(PromptKind.ROLL, msg("Roll"), dice=DiceRequest(count=5, min_count=1))


def test_input_round_trips_through_json():
    for answer in (
        Input.roll(1, 6, 3, source="camera"),
        Input(Input.roll().kind, dice=(Die(None, "sword", "red"),)),
        Input.choose("attack"),
        Input.confirm(),
        Input.enter(-3),
    ):
        assert Input.from_json(answer.to_json()) == answer


def test_roll_checks_count_and_values():
    expect(Input.roll(1, 2, 6), ROLL)
    with pytest.raises(InvalidInput, match="Expected 1 to 5 dice, got 6"):
        expect(Input.roll(1, 1, 1, 1, 1, 1), ROLL)
    with pytest.raises(InvalidInput, match="Die 2: 7 is not a d6 value"):
        expect(Input.roll(1, 7), ROLL)
    with pytest.raises(InvalidInput, match="Die 1: 0 is not a d6 value"):
        expect(Input.roll(0), ROLL)


def test_symbol_faces_and_colours_are_checked():
    prompt = Prompt(
        PromptKind.ROLL,
        msg("Roll"),
        dice=DiceRequest(count=1, faces=("sword", "shield"), colors=("red",)),
    )
    expect(Input(Input.roll().kind, dice=(Die(None, "sword", "red"),)), prompt)
    with pytest.raises(InvalidInput, match="'skull' is not a face"):
        expect(Input(Input.roll().kind, dice=(Die(None, "skull", "red"),)), prompt)
    with pytest.raises(InvalidInput, match="colour 'blue'"):
        expect(Input(Input.roll().kind, dice=(Die(None, "sword", "blue"),)), prompt)


def test_choice_and_number_and_kind():
    choose = Prompt(PromptKind.CHOOSE, msg("Pick"), options=(Option("a", msg("A")),))
    expect(Input.choose("a"), choose)
    with pytest.raises(InvalidInput, match="'b' is not one of: a"):
        expect(Input.choose("b"), choose)
    with pytest.raises(InvalidInput, match="Expected choice, got confirm"):
        expect(Input.confirm(), choose)
    number = Prompt(PromptKind.NUMBER, msg("How many"), number_range=(0, 15))
    with pytest.raises(InvalidInput, match="16 is outside 0..15"):
        expect(Input.enter(16), number)
    with pytest.raises(InvalidInput, match="over"):
        expect(Input.confirm(), Prompt(PromptKind.OVER, msg("Over")))


def test_msg_renders_its_arguments():
    assert str(msg("Roll {n} dice", n=3)) == "Roll 3 dice"
    assert str(msg("Plain {braces} stay when there are no args")) == (
        "Plain {braces} stay when there are no args"
    )
