"""The terminal client and the saved-game commands (issue 2, items 4c and 5)."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from dicetable.device.answers import parse
from dicetable.device.cli import main
from dicetable.rules.core import Die, InvalidInput, Prompt, PromptKind, msg

CLI = [sys.executable, "-m", "dicetable.device.cli"]


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def test_script_plays_and_prints_json(tmp_path: Path, capsys):
    script = tmp_path / "rolls.txt"
    script.write_text("# a comment line\n3 5 6\n1,1\nundo\n66\n")
    assert main(["play", "dice-tray", "--seed", "4", "--script", str(script), "--json"]) == 0
    lines = json_lines(capsys.readouterr().out)
    states = [line["view"] for line in lines if line["type"] == "state"]
    assert states[-1]["history"] == [[3, 5, 6], [6, 6]]
    assert any(line["type"] == "undo" for line in lines)
    assert lines[0]["type"] == "prompt" and lines[0]["prompt"]["kind"] == "roll"


def test_a_script_line_that_does_not_fit_stops_with_its_number(tmp_path: Path, capsys):
    script = tmp_path / "bad.txt"
    script.write_text("1 2\n7\n")
    assert main(["play", "dice-tray", "--script", str(script)]) == 2
    assert "script line 2: '7': Die 1: 7 is not a d6 value" in capsys.readouterr().err


def test_saves_resume_and_delete_from_the_command_line(tmp_path: Path, capsys):
    script = tmp_path / "s.txt"
    script.write_text("2 2\n")
    main(["play", "dice-tray", "--seed", "1", "--name", "test night", "--script", str(script)])
    main(["saves"])
    out = capsys.readouterr().out
    assert "1  dice-tray 'test night'  in play, 1 answers" in out
    script.write_text("4\nview\n")
    main(["resume", "1", "--script", str(script), "--json"])
    states = [x for x in json_lines(capsys.readouterr().out) if x["type"] == "state"]
    assert states[-1]["view"]["history"] == [[2, 2], [4]]
    assert main(["delete", "1"]) == 0
    main(["saves"])
    assert "No saved games." in capsys.readouterr().out
    assert main(["resume", "1"]) == 2
    assert "no saved game 1" in capsys.readouterr().err


def test_unknown_game_and_bad_option_are_clear(capsys):
    assert main(["play", "chess"]) == 2
    assert "no game called 'chess'" in capsys.readouterr().err
    assert main(["play", "dice-tray", "--option", "speed=fast"]) == 2
    assert "unknown option 'speed'" in capsys.readouterr().err


def _read_until_state(process: subprocess.Popen) -> dict:
    for line in process.stdout:
        data = json.loads(line)
        if data["type"] in {"state", "error"}:
            return data
    raise AssertionError("the client ended before showing the state")


def test_sigkill_mid_game_resumes_at_exactly_the_state_shown(tmp_path: Path):
    """A power cut is a SIGKILL: whatever was shown must come back, bit for bit."""
    env = dict(os.environ)
    process = subprocess.Popen(
        [*CLI, "play", "dice-tray", "--seed", "11", "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    shown = None
    for roll in ["1 2 3", "6 6", "4 4 4 4", "5"]:
        process.stdin.write(roll + "\n")
        process.stdin.flush()
        shown = _read_until_state(process)["view"]
    process.stdin.write("2 2 2\n")  # sent, then the power goes before it is shown
    process.stdin.flush()
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    resumed = subprocess.run(
        [*CLI, "resume", "1", "--json", "--script", "-"],
        input="view\n",
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    view = [x for x in json_lines(resumed.stdout) if x["type"] == "state"][-1]["view"]
    # the last roll may or may not have reached the disk, but nothing shown is lost
    assert view["history"][: len(shown["history"])] == shown["history"]
    assert view["history"] in (shown["history"], [*shown["history"], [2, 2, 2]])


def test_a_word_typed_at_a_number_prompt_is_refused_with_the_word():
    prompt = Prompt(PromptKind.NUMBER, msg("How many players?"), number_range=(1, 4))
    with pytest.raises(InvalidInput, match="'three' is not a whole number."):
        parse("three", prompt)


def test_the_terminal_speaks_the_tables_language(tmp_path: Path, capsys):
    """A table set to Spanish reads the client's own words in Spanish (its help, undo,
    the saved-game header, the state) and may type them in Spanish: a Spanish screen
    with English words in between is a screen half the table cannot read."""
    config = tmp_path / "es.toml"
    config.write_text('[ui]\nlanguage = "es"\n')
    script = tmp_path / "s.txt"
    script.write_text("2 2\nver\ndeshacer\ndeshacer\nayuda\n")
    main(["--config", str(config), "play", "dice-tray", "--seed", "1", "--script", str(script)])
    out = capsys.readouterr().out
    assert "dice-tray, partida guardada 1 (semilla 1)" in out
    assert '"historial": [' in out and '"last"' not in out
    assert "Deshecho." in out and "No hay nada que deshacer." in out
    assert "Otras palabras: deshacer" in out
    assert "Undone" not in out and "Answer the prompt" not in out


def test_prompts_name_objective_odds_and_kept_dice_in_the_tables_language():
    """The bracketed notes after a prompt are words too."""
    import io
    from fractions import Fraction

    from dicetable.device.terminal import Terminal

    prompt = Prompt(
        PromptKind.ROLL,
        msg("Roll any dice, 1 to {n}.", n=5),
        objective=msg("Pair of {value}s.", value=6),
        odds=Fraction(1, 4),
        keep=(0, 2),
    )
    terminal = Terminal(None, io.StringIO(), as_json=False, lang="es")  # type: ignore[arg-type]
    assert terminal.describe(prompt) == (
        "Tira los dados que quieras, de 1 a 5. [objetivo: Pareja de 6.]"
        " [probabilidad 25%] [conserva 2 dados]"
    )
    # issue 15 item 6: the dice to keep by the faces they show, never by their place
    terminal.last_roll = (Die(6, "6"), Die(2, "2"), Die(6, "6"))
    assert terminal.describe(prompt).endswith("[probabilidad 25%] [conserva 6 6]")


def test_face_names_are_typed_where_the_help_offers_them():
    """The help says "dice as digits or face names (sword pow)": on a Dice Throne
    hero's dice a name on one face is its number, a name on several asks for it."""
    from dicetable.device.terminal import with_values
    from dicetable.rules.core import DiceRequest, Input

    prompt = Prompt(
        PromptKind.ROLL, msg("Roll"), dice=DiceRequest(5, profile="dicethrone-barbarian")
    )
    answer = with_values(parse("pow 4 pow 5 4", prompt), prompt)
    assert [d.value for d in answer.dice] == [6, 4, 6, 5, 4]
    with pytest.raises(InvalidInput, match="sword is 1, 2, 3 on these dice"):
        with_values(parse("sword 4 4 5 6", prompt), prompt)
    with pytest.raises(InvalidInput, match="'axe' is not a face of these dice"):
        with_values(parse("axe 4 4 5 6", prompt), prompt)
    plain = Prompt(PromptKind.ROLL, msg("Roll"), dice=DiceRequest(2))
    assert with_values(Input.roll(3, 4), plain) == Input.roll(3, 4)


@pytest.mark.parametrize("kind", ["folder", "missing", "binary"])
def test_a_script_that_cannot_be_read_is_named_and_starts_no_game(
    kind: str, tmp_path: Path, capsys
):
    """A wrong --script path is a typing mistake: one clear line, exit 2, and no saved
    game left behind to clutter the list."""
    path = {"folder": tmp_path, "missing": tmp_path / "nope.txt", "binary": tmp_path / "b"}[kind]
    if kind == "binary":
        path.write_bytes(b"\xff\xfe\x00")
    assert main(["play", "dice-tray", "--script", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"dicetable: --script {path}: ") and "Traceback" not in err
    main(["saves"])
    assert "No saved games." in capsys.readouterr().out
