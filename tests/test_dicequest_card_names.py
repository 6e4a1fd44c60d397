"""A Dicequest card typed in at the table is asked its name first (issue 16, item 5).

The rulebook names its cards: Example: Quest plays the "Stormcaller" Quest card and
Example: Adventure the "Death Dealer" Adventure card (../shared/seeds/dicequest.txt);
what follows the name on the form is what a card prints: Party Size ("If the Party
Size is a range, choose any number of Heroes within that range", Deployment Step),
the symbols required, the wounds, and the rewards (Reward Step; an Adventure's
tracked symbols and its first, second and third rewards, The Adventure Path). The
name is a TEXT question whose default, the card's number, one button press takes.
"""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dicetable.device import dicequest_cards
from dicetable.device.answers import parse
from dicetable.device.cli import main
from dicetable.device.controller import Controller
from dicetable.device.i18n import translate
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.hardware.actions import TableAction
from dicetable.rules.core import Input, InputKind, InvalidInput, PromptKind
from dicetable.rules.dicequest import catalogue
from dicetable.rules.dicequest.game import Dicequest
from dicetable.rules.dicequest.words import card_title

SETUP = ["coop", "1", "practice"]  # solo, Practice: the Act I Adventure is revealed next
#: the rest of an Adventure card after its name: Party Size 1-3, 2 Swords, no other
#: symbol, 1 Light Wound, tracks the required symbol, rewards 5 / 3 / 1 VP
ADVENTURE = ["1", "3", "2", "0", "0", "0", "0", "0", "1", "0", "0", "none"]
ADVENTURE += ["required", "5", "3", "1"]
CLI = [sys.executable, "-m", "dicetable.device.cli"]


def at_the_name(store: Store, seed: int = 1) -> TableSession:
    """A session (as the table starts one) at the name question of an Adventure."""
    session = TableSession.start(store, "dicequest", seed)
    for line in [*SETUP, "type"]:
        session.submit(parse(line, session.prompt()))
    return session


def test_the_name_is_asked_first_and_the_card_is_kept_under_it(isolated_data: Path):
    store = Store.in_dir(isolated_data)
    session = at_the_name(store)
    session.subscribe(dicequest_cards.keeper(isolated_data))
    prompt = session.prompt()
    assert prompt.kind is PromptKind.TEXT
    assert str(prompt.text) == "New Adventure card (Act 1): The card's name, as printed on it?"
    assert prompt.entry is not None and str(prompt.entry.default) == "Typed Adventure 1 (Act 1)"
    session.submit(Input.write("  Death Dealer "))  # spaces around it are trimmed
    assert "Party Size" in str(session.prompt().text)
    events = [e for line in ADVENTURE for e in session.submit(parse(line, session.prompt()))]
    said = [str(e.text) for e in events]
    assert "Card typed in: Death Dealer. It is kept for this game." in said
    assert "Adventure revealed: Death Dealer." in said
    card = session.game.adventure
    assert (card.id, card.name, card.party, card.rewards) == (
        "typed-adventure-1",
        "Death Dealer",
        (1, 3),
        (5, 3, 1),
    )
    kept = catalogue.load(isolated_data)
    assert [(c.id, c.name) for c in kept] == [("typed-adventure-1", "Death Dealer")]
    assert "Death Dealer" in json.dumps(session.view())


def test_one_button_press_takes_the_default_shown_in_the_tables_language(
    isolated_data: Path,
):
    store = Store.in_dir(isolated_data)
    controller = Controller(at_the_name(store))
    confirm = controller.meaning(TableAction.CONFIRM)
    assert translate(confirm, "en") == "Take “Typed Adventure 1 (Act 1)”"
    assert translate(confirm, "es") == "Tomar «Aventura introducida 1 (Acto 1)»"
    controller.act(TableAction.CONFIRM)
    assert store.inputs(controller.session.id)[-1] == {
        "kind": "text",
        "text": "Typed Adventure 1 (Act 1)",
        "source": "button",
    }
    for line in ADVENTURE:
        controller.session.submit(parse(line, controller.session.prompt()))
    card = controller.session.game.adventure
    assert card.name == "Typed Adventure 1 (Act 1)"
    assert translate(card_title(card), "es") == "Aventura introducida 1 (Acto 1)"


@pytest.mark.parametrize(
    ("written", "said"),
    [
        (
            "   ",
            "Nothing written: write the answer (the one offered: “Typed Adventure 1 (Act 1)”).",
        ),
        ("Goblin " * 9, "62 characters is too long: at most 60."),
        (
            "Goblin\x1b[31m Cave",
            "Character 7 (U+001B) is not one that can be shown: write plain text.",
        ),
        (
            "Goblin\u202eCave",
            "Character 7 (U+202E) is not one that can be shown: write plain text.",
        ),
        ("Goblin\nCave", "Character 7 (U+000A) is not one that can be shown: write plain text."),
    ],
)
def test_a_bad_name_gets_one_line_and_the_question_stays(
    isolated_data: Path, written: str, said: str
):
    store = Store.in_dir(isolated_data)
    session = at_the_name(store)
    before = (session.prompt(), json.dumps(session.view()), len(store.inputs(session.id)))
    with pytest.raises(InvalidInput) as refused:
        session.submit(Input.write(written))
    assert str(refused.value.reason) == said and "\n" not in said
    assert translate(refused.value.reason, "es") != said  # a Spanish table reads Spanish
    after = (session.prompt(), json.dumps(session.view()), len(store.inputs(session.id)))
    assert after == before  # nothing kept, still asking the name


def test_accents_and_other_scripts_are_names(isolated_data: Path):
    session = at_the_name(Store.in_dir(isolated_data))
    session.submit(Input.write("Cueva del Dragón · 龍"))
    assert session.game.form.values["name"] == "Cueva del Dragón · 龍"


def test_a_name_is_saved_as_an_input_and_the_game_resumes_on_either_side(
    isolated_data: Path,
):
    """A power cut while the name is asked, or after it is given, loses nothing shown:
    the name is in the SQLite log like every other answer, and replays."""
    store = Store.in_dir(isolated_data)
    session = at_the_name(store)
    asked = TableSession.resume(Store.in_dir(isolated_data), session.id)
    assert asked.prompt() == session.prompt() and asked.prompt().kind is PromptKind.TEXT
    session.submit(Input.write("Stormcaller's Lair"))
    again = TableSession.resume(Store.in_dir(isolated_data), session.id)
    assert again.prompt() == session.prompt() and "Party Size" in str(again.prompt().text)
    assert store.inputs(session.id)[-1]["text"] == "Stormcaller's Lair"
    for line in ADVENTURE:
        again.submit(parse(line, again.prompt()))
    assert again.game.adventure.name == "Stormcaller's Lair"
    undone = TableSession.resume(Store.in_dir(isolated_data), session.id)
    assert undone.view() == again.view()


def test_a_game_saved_before_names_were_asked_replays_as_it_was():
    """Its options hold no ``card_names``: its form starts at Party Size and its card
    keeps the name it had then (shown by its number, as then)."""
    game = Dicequest(1, {})
    for line in [*SETUP, "type"]:
        game.apply(parse(line, game.prompt()))
    assert "Party Size" in str(game.prompt().text)
    for line in ADVENTURE:
        game.apply(parse(line, game.prompt()))
    assert game.adventure.name == "Adventure 1 (Act 1)"
    assert str(card_title(game.adventure)) == "Typed Adventure 1 (Act 1)"
    assert Dicequest.check_options({})["card_names"] == "asked"
    with pytest.raises(ValueError, match="card_names"):
        Dicequest.check_options({"card_names": "never"})


def test_the_terminal_shows_the_default_and_enter_takes_it(isolated_data: Path, capsys):
    script = isolated_data.parent / "name.txt"
    script.write_text("\n".join([*SETUP, "type", "", *ADVENTURE, "quit"]) + "\n")
    assert main(["play", "dicequest", "--seed", "1", "--script", str(script)]) == 0
    out = capsys.readouterr().out
    assert (
        "? New Adventure card (Act 1): The card's name, as printed on it? "
        "[Enter: “Typed Adventure 1 (Act 1)”]" in out
    )
    assert "Card typed in: Typed Adventure 1 (Act 1). It is kept for this game." in out
    script.write_text("\n".join([*SETUP, "type", "Goblin Cave", *ADVENTURE, "quit"]) + "\n")
    assert main(["play", "dicequest", "--seed", "1", "--script", str(script), "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    texts = [x["prompt"] for x in lines if x["type"] == "prompt" and x["prompt"]["kind"] == "text"]
    assert texts[0]["entry"] == {"default": "Typed Adventure 1 (Act 1)", "max_length": 60}
    assert any(x.get("text") == "Adventure revealed: Goblin Cave." for x in lines)


def test_a_script_line_too_long_for_a_name_stops_with_its_number(isolated_data: Path, capsys):
    script = isolated_data.parent / "long.txt"
    script.write_text("\n".join([*SETUP, "type", "x" * 61]) + "\n")
    assert main(["play", "dicequest", "--seed", "1", "--script", str(script)]) != 0
    err = capsys.readouterr().err
    assert "script line 5" in err and "61 characters is too long: at most 60." in err


def read_until(fd: int, wanted: str, seconds: float = 30.0) -> str:
    """What the terminal printed, read from the pty until ``wanted`` appears."""
    seen = b""
    end = time.monotonic() + seconds
    while wanted.encode() not in seen:
        if time.monotonic() > end:
            raise AssertionError(f"no {wanted!r} in {seen.decode(errors='replace')!r}")
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                seen += os.read(fd, 4096)
            except OSError:  # the client has ended
                break
    return seen.decode(errors="replace")


def test_a_person_at_a_real_terminal_presses_enter_for_the_default(tmp_path: Path):
    """``dicetable play`` on a pseudo-terminal, as at the Pi's console: the name
    question shows its default, a bad name gets its one line, Enter takes the default."""
    env = {**os.environ, "DICETABLE_DATA": str(tmp_path / "data")}
    env["DICETABLE_CONFIG"] = str(tmp_path / "config.toml")
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [*CLI, "play", "dicequest", "--seed", "1"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
    )
    os.close(follower)
    try:
        for line in [*SETUP, "type"]:
            read_until(leader, "\n? ")
            os.write(leader, f"{line}\n".encode())
        read_until(leader, "[Enter: “Typed Adventure 1 (Act 1)”]")
        os.write(leader, ("x" * 61 + "\n").encode())
        read_until(leader, "61 characters is too long: at most 60.")
        os.write(leader, b"\n")
        read_until(leader, "Party Size: the smallest number of Heroes?")
        os.write(leader, b"quit\n")
        read_until(leader, "Saved as game 1.")
        assert process.wait(30) == 0
    finally:
        if process.poll() is None:
            process.kill()
        os.close(leader)
    session = TableSession.resume(Store.in_dir(tmp_path / "data"), 1)
    assert session.game.form.values["name"] == "Typed Adventure 1 (Act 1)"
    inputs = Store.in_dir(tmp_path / "data").inputs(1)
    assert [i["kind"] for i in inputs][-1] == InputKind.TEXT.value
