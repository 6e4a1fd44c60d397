"""The solo mode through the terminal client and the session runtime (issue 4 item 7):
a whole game from a script file, and resume/undo by replay."""

from __future__ import annotations

import json
import os
from pathlib import Path

from dicetable.device.cli import main
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.rules.core import Input, PromptKind
from dicetable.rules.dicethrone.solo import BOSSES

SCRIPT = Path(__file__).parent / "scripts" / "dicethrone-solo-barbarian.txt"


def test_a_whole_game_plays_from_a_script(capsys):
    """tests/scripts/dicethrone-solo-barbarian.txt: setup to the last blow, seed 5."""
    code = main(["play", "dicethrone-solo", "--seed", "5", "--script", str(SCRIPT), "--json"])
    assert code == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    over = [x for x in lines if x["type"] == "over"]
    assert over and over[0]["result"]["winner"] == "boss" and over[0]["result"]["turns"] == 8
    rolls = [x["prompt"] for x in lines if x["type"] == "prompt" and x["prompt"]["objective"]]
    assert rolls and all("/" in r["odds"] or r["odds"] in ("0", "1") for r in rolls)
    assert any(r["keep"] for r in rolls)
    states = [x["view"] for x in lines if x["type"] == "state"]
    assert states[-1]["gauge"]["label"] == "Barbarian"
    assert {p["title"] for p in states[-1]["panels"]} == {"Barbarian", "You"}


def test_a_won_game_enters_the_high_scores(capsys):
    """tests/scripts/dicethrone-solo-shadow-thief-win.txt: the player wins (5. Endgame);
    the result's score (Health left) is saved with its mode."""
    script = SCRIPT.with_name("dicethrone-solo-shadow-thief-win.txt")
    assert main(["play", "dicethrone-solo", "--seed", "4", "--script", str(script)]) == 0
    assert "Game over." in capsys.readouterr().out
    store = Store.in_dir(Path(os.environ["DICETABLE_DATA"]))
    saved = store.saved_games()[-1]
    assert saved.over and saved.game == "dicethrone-solo"
    best = store.high_scores("dicethrone-solo")[0]
    assert (best["mode"], best["heroes"], best["score"]) == ("solo-easy", "Shadow Thief", 17)


def test_the_session_saves_resumes_and_undoes(tmp_path: Path):
    """Resume after a power cut = replay of the log; undo = replay all but the last."""
    store = Store.in_dir(tmp_path)
    session = TableSession.start(store, "dicethrone-solo", 3)
    session.submit(Input.choose("pyromancer"))
    session.submit(Input.choose("hard"))
    while session.prompt().kind is PromptKind.CONFIRM:
        session.submit(Input.confirm())
    session.submit(Input.choose("undefendable"))
    session.submit(Input.enter(7))
    shown = session.view()
    assert shown["gauge"]["value"] == 73
    again = TableSession.resume(store, session.id)
    assert again.view() == shown
    assert again.undo()
    assert again.view()["gauge"]["value"] == 80


def test_spanish_terminal(capsys, tmp_path: Path):
    config = tmp_path / "es.toml"
    config.write_text('[ui]\nlanguage = "es"\n')
    script = tmp_path / "s.txt"
    script.write_text(f"{BOSSES.index('barbarian') + 1}\n2\n")  # the Barbarian, Normal
    main(
        ["--config", str(config), "play", "dicethrone-solo", "--seed", "1", "--script", str(script)]
    )
    out = capsys.readouterr().out
    assert "Elige al Jefe." in out and "Preparación: Jefe Bárbaro con 80 de Vida" in out
