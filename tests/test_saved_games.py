"""Games saved by an earlier dicetable resume as they were saved, and every whole-game
script gets the prompts and events it got then (issue 14, item 2: behaviour unchanged by a rules
rewrite). The fixture in tests/saved_games was recorded by its ``record.py`` with the
release before the rewrite, through the real ``dicetable play`` and ``TableSession``
on SQLite: mid-play and finished games of every registered game."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from dicetable.device.session import TableSession
from dicetable.device.store import DB_NAME, Store

FIXTURE = Path(__file__).parent / "saved_games"
EXPECTED = json.loads((FIXTURE / "expected.json").read_text())

sys.path.insert(0, str(FIXTURE))
from record import hero_choices, trace, transcript, without_heroes  # noqa: E402  the recorder's own

#: Dice Throne heroes and Bosses added since the recording: more options, not a change
ADDED = hero_choices() - set(EXPECTED["recorded_heroes"])
#: the games that offer Dice Throne's own list of heroes (Unchained keeps its own)
OFFER_DICE_THRONE_HEROES = {"raveness", "dicethrone-solo"}


def added_for(game: str) -> set[str]:
    return ADDED if game in OFFER_DICE_THRONE_HEROES else set()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    """A copy of the saved data folder (opening a database may migrate it)."""
    data = tmp_path_factory.mktemp("saved")
    shutil.copyfile(FIXTURE / DB_NAME, data / DB_NAME)
    opened = Store.in_dir(data)
    yield opened
    opened.close()


def label(record: dict[str, Any]) -> str:
    state = "over" if record["over"] else "mid-play"
    return f"{record['id']}-{record['game']}-{state}"


def test_the_fixture_holds_every_game_mid_play_and_finished():
    from dicetable.rules.registry import games

    endless = {"dice-tray"}
    kept = {(r["game"], r["over"]) for r in EXPECTED["games"]}
    for game in games():
        assert (game, False) in kept, f"no {game} saved mid-play"
        assert game in endless or (game, True) in kept, f"no finished {game}"


@pytest.mark.parametrize("record", EXPECTED["games"], ids=label)
def test_a_saved_game_resumes_as_it_was_saved(store: Store, record: dict[str, Any]):
    session = TableSession.resume(store, record["id"])
    saved = store.saved_game(record["id"])
    assert (saved.game, saved.seed, saved.options) == (
        record["game"],
        record["seed"],
        record["options"],
    )
    assert (saved.inputs, saved.over, saved.result) == (
        record["inputs"],
        record["over"],
        record["result"],
    )
    added = added_for(saved.game)
    assert without_heroes(session.prompt().to_json(), added) == record["prompt"]
    assert json.loads(json.dumps(session.view(), default=str)) == record["view"]
    inputs = store.inputs(record["id"])
    assert trace(saved.game, saved.seed, saved.options, inputs, added) == record["trace"], (
        "a prompt, view or event on the way differs from the one recorded"
    )


def without_questions_added(lines: list[str]) -> list[str]:
    """A transcript without the questions asked since the recording, each a prompt
    line and the line of its events: a Dicequest card typed in is asked its name
    (the scripts give the name such a card was kept under then)."""
    kept: list[str] = []
    skip_events = False
    for line in lines:
        if skip_events:
            skip_events = False
            continue
        if line.startswith("{") and json.loads(line).get("kind") == "text":
            skip_events = True
            continue
        kept.append(line)
    return kept


@pytest.mark.parametrize("name", sorted(EXPECTED["scripts"]))
def test_a_whole_game_script_gets_what_it_got(name: str):
    """Every prompt and event of the script, whole, as recorded."""
    now = without_questions_added(transcript(name, added_for(EXPECTED["scripts"][name][0])))
    then = (FIXTURE / "outputs" / f"{name}.txt").read_text().splitlines()
    for number, (line, recorded) in enumerate(zip(now, then, strict=False), start=1):
        assert line == recorded, f"{name}: transcript line {number} differs"
    assert len(now) == len(then)
