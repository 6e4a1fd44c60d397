"""Records the saved games and whole-game outputs that tests/test_saved_games.py holds
every later dicetable to.

Run once, with the release whose behaviour is to be kept, before the rules change:

    .venv/bin/python tests/saved_games/record.py

It plays, through the real ``dicetable play`` command and the real ``TableSession`` on
SQLite, every whole-game script in tests/scripts (to the end, and cut half-way by a
``quit``) and random legal games of every registered game (to the end, and cut half-way),
and writes:

* ``dicetable.sqlite3``: the data folder's database holding all those saved games;
* ``expected.json``: the scripts' ``dicetable play`` arguments and, per saved game,
  what the table showed when it was saved (prompt, view, result) and a digest of
  every prompt, view and event on the way;
* ``outputs/<script>.txt``: what the rules said to each script, answer by answer:
  every prompt and every event, whole, as JSON lines (the views on the way are in
  the trace of the script's saved game). The terminal's own wording is left out: it
  belongs to ``device/`` and its tests.

Never re-record to make a failing test pass: a difference is a change of behaviour.
One change is not: Dice Throne heroes (and solo Bosses) added since the recording are
offered as more options; ``recorded_heroes`` keeps the ones there were, and
``without_heroes`` takes the others out of what is compared.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import random
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Collection
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent
sys.path.insert(0, str(TESTS))

from fuzz_play import colour_faces, random_line  # noqa: E402

from dicetable.device.answers import parse  # noqa: E402
from dicetable.device.cli import main  # noqa: E402
from dicetable.device.session import TableSession  # noqa: E402
from dicetable.device.store import DB_NAME, Store  # noqa: E402
from dicetable.rules.core import Input, InvalidInput, PromptKind  # noqa: E402
from dicetable.rules.registry import game_class, games  # noqa: E402

SCRIPTS = TESTS / "scripts"
OUTPUTS = HERE / "outputs"
#: script -> (game, the ``dicetable play`` arguments its tests use)
SCRIPT_GAMES: dict[str, tuple[str, tuple[str, ...]]] = {
    "dicequest-competitive": ("dicequest", ("--seed", "11")),
    "dicequest-solo": ("dicequest", ("--seed", "7")),
    "dicethrone-solo-barbarian": ("dicethrone-solo", ("--seed", "5")),
    "dicethrone-solo-shadow-thief-win": ("dicethrone-solo", ("--seed", "4")),
    "minidungeon-four-heroes": ("minidungeon", ("--seed", "6")),
    "minidungeon-party-falls": ("minidungeon", ("--seed", "2", "--option", "dungeon=short")),
    "minidungeon-six-rooms": ("minidungeon", ("--seed", "3")),
    "raveness-match": ("raveness", ("--seed", "1")),
    "unchained-campaign-witch": ("unchained-campaign", ("--seed", "1")),
    "unchained-minion-rush-example": ("unchained-minion-rush", ("--seed", "1")),
    "unchained-one-shot-example": ("unchained-one-shot", ("--seed", "1")),
}
RANDOM_SEEDS = (1, 2, 3)  # per game: the first is cut half-way, the others play to the end
MAX_ANSWERS = 600  # a random game that has not ended is saved after this many
CUT_AT = 60  # answers of the game cut half-way
ENDLESS = {"dice-tray": 80}  # games with no end by design: answers each plays
TRIES = 40


def play_script(data: Path, name: str, *, cut: bool = False) -> str:
    """``dicetable play`` of a script into ``data``; its whole standard output."""
    game, args = SCRIPT_GAMES[name]
    script = SCRIPTS / f"{name}.txt"
    if cut:
        lines = script.read_text().splitlines()
        script = data / f"{name}-cut.txt"
        data.mkdir(parents=True, exist_ok=True)
        script.write_text("\n".join([*lines[: len(lines) // 2], "quit"]) + "\n")
    os.environ["DICETABLE_DATA"] = str(data)
    os.environ["DICETABLE_CONFIG"] = str(data / "config.toml")
    out = io.StringIO()
    argv = ["play", game, *args, "--script", str(script)]
    with contextlib.redirect_stdout(out):
        code = main(argv)
    if code != 0:
        raise SystemExit(f"{name}: dicetable play exited {code}")
    return out.getvalue()


def script_answers(name: str) -> list[str]:
    """The answers of a script as the terminal reads them (``#`` starts a comment; a
    line that is only a comment is no answer, an empty one is Enter)."""
    answers = []
    for raw in (SCRIPTS / f"{name}.txt").read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if line or not raw.strip().startswith("#"):
            answers.append(line)
    return answers


def transcript(name: str, added: Collection[str] = ()) -> list[str]:
    """Every prompt and event of a script played through a TableSession, as JSON lines,
    without the options offering heroes ``added`` since the recording."""
    game, args = SCRIPT_GAMES[name]
    options = (
        dict(a.split("=", 1) for a in args[args.index("--option") + 1 :: 2])
        if ("--option" in args)
        else {}
    )
    seed = int(args[args.index("--seed") + 1])
    with tempfile.TemporaryDirectory() as folder:
        store = Store.in_dir(Path(folder))
        session = TableSession.start(store, game, seed, options)
        lines = []
        for answer in script_answers(name):
            prompt = session.prompt()
            lines.append(json.dumps(without_heroes(prompt.to_json(), added), sort_keys=True))
            if prompt.kind is PromptKind.OVER:
                break
            events = session.submit(parse(answer, prompt, "script"))
            lines.append(json.dumps([e.to_json() for e in events], sort_keys=True, default=str))
        lines.append(json.dumps(session.prompt().to_json(), sort_keys=True))
        store.close()
    return lines


def play_random(store: Store, game: str, seed: int, limit: int) -> None:
    """A random legal game, typed answers through a TableSession, ``limit`` answers
    at most."""
    rng = random.Random(seed)
    session = TableSession.start(store, game, seed, name=f"random {seed}")
    faces = colour_faces(game)
    last_roll: tuple[str, ...] = ()
    for _ in range(limit):
        prompt = session.prompt()
        if prompt.kind is PromptKind.OVER:
            return
        for attempt in range(TRIES):
            line = random_line(prompt, rng, faces, last_roll if attempt % 2 else ())
            try:
                session.submit(parse(line, prompt))
            except InvalidInput:
                continue
            if prompt.kind is PromptKind.ROLL:
                last_roll = tuple(line.split())
            break
        else:
            raise SystemExit(f"{game} seed {seed}: no legal answer to {prompt.text}")


def hero_choices() -> set[str]:
    """The Dice Throne heroes and solo Bosses a game may offer as options."""
    from dicetable.rules.dicethrone.heroes import hero_ids
    from dicetable.rules.dicethrone.solo_setup import BOSSES

    return set(hero_ids()) | set(BOSSES)


def without_heroes(thing: Any, heroes: Collection[str]) -> Any:
    """``thing`` (JSON) without the options whose id is one of ``heroes``."""
    if isinstance(thing, dict):
        return {k: without_heroes(v, heroes) for k, v in thing.items()}
    if isinstance(thing, list):
        return [
            without_heroes(v, heroes)
            for v in thing
            if not (isinstance(v, dict) and v.keys() == {"id", "label"} and v["id"] in heroes)
        ]
    return thing


def trace(
    game_id: str,
    seed: int,
    options: dict[str, str],
    inputs: list[dict],
    added: Collection[str] = (),
) -> str:
    """A digest of every prompt, view and event of a replay of ``inputs``, without
    the options offering the heroes ``added`` since the recording."""
    game = game_class(game_id)(seed, options)
    digest = hashlib.sha256()

    def add(thing: Any) -> None:
        plain = json.loads(json.dumps(thing, default=str))
        digest.update(json.dumps(without_heroes(plain, added), sort_keys=True).encode())

    add([game.prompt().to_json(), game.view()])
    for data in inputs:
        events = game.apply(Input.from_json(data))
        add([[e.to_json() for e in events], game.prompt().to_json(), game.view()])
    return digest.hexdigest()


def expected(store: Store) -> list[dict[str, Any]]:
    records = []
    for saved in sorted(store.saved_games(), key=lambda s: s.id):
        session = TableSession.resume(store, saved.id)
        records.append(
            {
                "id": saved.id,
                "game": saved.game,
                "name": saved.name,
                "seed": saved.seed,
                "options": saved.options,
                "inputs": saved.inputs,
                "over": saved.over,
                "result": saved.result,
                "prompt": session.prompt().to_json(),
                "view": json.loads(json.dumps(session.view(), default=str)),
                "trace": trace(saved.game, saved.seed, saved.options, store.inputs(saved.id)),
            }
        )
    return records


def record() -> None:
    OUTPUTS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for name in SCRIPT_GAMES:
            (OUTPUTS / f"{name}.txt").write_text("\n".join(transcript(name)) + "\n")
        data = work / "table"
        for name in SCRIPT_GAMES:
            play_script(data, name)
            play_script(data, name, cut=True)
        store = Store.in_dir(data)
        for game in sorted(games()):
            for seed in RANDOM_SEEDS:
                full = ENDLESS.get(game, MAX_ANSWERS)
                play_random(store, game, seed, full if seed != RANDOM_SEEDS[0] else CUT_AT)
        records = expected(store)
        store.close()
        shutil.copyfile(data / DB_NAME, HERE / DB_NAME)
    with contextlib.closing(sqlite3.connect(HERE / DB_NAME)) as db:
        db.execute("VACUUM")  # the fixture as small as its games allow
    scripts = {name: [game, list(args)] for name, (game, args) in SCRIPT_GAMES.items()}
    found = {"scripts": scripts, "games": records, "recorded_heroes": sorted(hero_choices())}
    (HERE / "expected.json").write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    record()
