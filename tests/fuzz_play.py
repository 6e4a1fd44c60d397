"""Random legal games and SIGKILLed terminal games, for issue 18's fault suite.

``play_random`` plays a registered game with random typed answers (parsed by the
terminal's own parser, so every answer can also be typed into ``dicetable play``)
through a real ``TableSession`` on SQLite, and checks the invariants: no exception
but a refused answer, the game ends, a resume replays to the live state, undo then
the same answer again gives the same state, and nothing impossible in a prompt, a
view or a result. ``kill_and_resume`` plays such a game's answers into real
``dicetable play``/``resume`` processes and SIGKILLs them at random moments: every
answer the process acknowledged must be on disk, and the resumed state must equal a
clean replay, game end included. Used by tests/test_fuzz.py (a bounded slice) and
benchmarks/fault_bench.py (the long run, with counts).
"""

from __future__ import annotations

import json
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dicetable.device.answers import parse
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.rules.core import InvalidInput, Prompt, PromptKind
from dicetable.rules.registry import game_class, games

MAX_ANSWERS = 4000  # a random game that has not ended by then is stuck
TRIES = 40  # random answers tried before a prompt counts as having no legal answer
UNDO_CHECKS = 3  # undo-then-redo checks per game
PROGRESS_BIAS = 0.3  # how often a choice repeats the first option (usually "go on")
ENDLESS = {"dice-tray": 300}  # games with no end by design: answers each plays


def colour_faces(game: str) -> dict[str, tuple[str, ...]]:
    """The faces each colour of die shows, from the game's own data (a roll of colour
    dice is refused whole when one die shows a face its colour does not have)."""
    if game == "dicequest":
        from dicetable.rules.dicequest.data import default_dice

        return dict(default_dice().colors)
    return {}


@dataclass
class Played:
    game: str
    seed: int
    lines: list[str] = field(default_factory=list)  # the typed answers, in order
    breaks: list[str] = field(default_factory=list)  # invariants that did not hold
    refused: int = 0  # random answers the game refused (and changed nothing for)
    over: bool = False


def random_line(
    prompt: Prompt,
    rng: random.Random,
    faces: dict[str, tuple[str, ...]] | None = None,
    last_roll: tuple[str, ...] = (),
) -> str:
    """An answer as a player would type it: dice as digits or face names (with a
    colour when the prompt names colours), a choice by its id, a number, a name or
    Enter. Dice the prompt says to keep stay as they were in ``last_roll``."""
    if prompt.kind is PromptKind.CONFIRM:
        return ""
    if prompt.kind is PromptKind.TEXT:  # Enter (the default) or a name, accents and all
        return rng.choice(("", "", "Goblin Cave", "Cueva del Dragón"))
    if prompt.kind is PromptKind.NUMBER:
        low, high = prompt.number_range or (0, 9)
        return str(rng.randint(low, min(high, low + 6)))
    if prompt.kind is PromptKind.CHOOSE:
        options = [o.id for o in prompt.options]
        return options[0] if rng.random() < PROGRESS_BIAS else rng.choice(options)
    request = prompt.dice
    assert request is not None
    count = rng.randint(request.least, request.count)
    tokens = []
    colours = request.colors
    for index in range(count):
        colour = colours[index % len(colours)] if colours else ""
        shown = (faces or {}).get(colour) or request.faces
        face = rng.choice(shown) if shown else str(rng.randint(1, 6))
        tokens.append(f"{colour}:{face}" if colour else face)
    for index in prompt.keep:
        if index < min(len(tokens), len(last_roll)):
            tokens[index] = last_roll[index]
    return " ".join(tokens)


def impossible(prompt: Prompt, view: dict[str, Any], result: Any) -> str:
    """What in a prompt, a view or a result cannot be, or ""."""
    try:
        json.dumps(view, allow_nan=False, default=str)
    except (TypeError, ValueError) as error:
        return f"view is not finite JSON: {error}"
    if prompt.kind is PromptKind.CHOOSE:
        ids = [o.id for o in prompt.options]
        if not ids or len(set(ids)) != len(ids):
            return f"a choice of {ids!r}"
    if prompt.kind is PromptKind.ROLL:
        request = prompt.dice
        if request is None or not 0 <= request.least <= request.count:
            return f"a roll of {request!r}"
    if prompt.kind is PromptKind.NUMBER:
        low, high = prompt.number_range or (0, 0)
        if low > high:
            return f"a number from {low} to {high}"
    if prompt.kind is PromptKind.OVER:
        if not isinstance(result, dict):
            return f"a result of {result!r}"
        score = result.get("score")
        if score is not None and not (isinstance(score, int) and not isinstance(score, bool)):
            return f"a score of {score!r}"
    gauge = view.get("gauge") if isinstance(view, dict) else None
    top = gauge.get("max") if isinstance(gauge, dict) else None
    if isinstance(top, (int, float)) and (top < 0 or not math.isfinite(top)):
        return f"a gauge of {gauge!r}"
    return ""


def same(a: TableSession, b: TableSession) -> bool:
    return a.view() == b.view() and a.prompt() == b.prompt()


def play_random(game: str, seed: int, data: Path, rng: random.Random) -> Played:
    """One random legal game through a TableSession on SQLite in ``data``."""
    played = Played(game, seed)
    store = Store.in_dir(data)
    try:
        session = TableSession.start(store, game, seed)
        undo_at = set(rng.sample(range(1, 200), UNDO_CHECKS))
        limit = ENDLESS.get(game, MAX_ANSWERS)
        faces = colour_faces(game)
        last_roll: tuple[str, ...] = ()
        while not session.game.is_over and len(played.lines) < limit:
            prompt = session.prompt()
            for attempt in range(TRIES):  # kept dice as last typed first, then free
                line = random_line(prompt, rng, faces, last_roll if attempt % 2 else ())
                try:
                    session.submit(parse(line, prompt))
                    if prompt.kind is PromptKind.ROLL:
                        last_roll = tuple(line.split())
                    break
                except InvalidInput:
                    played.refused += 1
            else:
                played.breaks.append(f"no legal answer found to {prompt.text}")
                break
            played.lines.append(line)
            problem = impossible(session.prompt(), session.view(), session.game.result())
            if problem:
                played.breaks.append(f"answer {len(played.lines)}: {problem}")
                break
            if len(played.lines) in undo_at and not session.game.is_over:
                before = (session.view(), session.prompt())
                session.undo()
                session.submit(parse(line, session.prompt()))
                if (session.view(), session.prompt()) != before:
                    played.breaks.append(f"answer {len(played.lines)}: undo then redo differs")
        played.over = session.game.is_over
        if not played.over and game not in ENDLESS:
            played.breaks.append(f"did not end in {MAX_ANSWERS} answers")
        resumed = TableSession.resume(store, session.id)
        if not same(resumed, session):
            played.breaks.append("a resume does not replay to the live state")
        saved = store.saved_game(session.id)
        if saved.over != played.over or saved.inputs != len(played.lines):
            played.breaks.append(f"saved {saved.inputs} answers, over={saved.over}")
        expected_score = 1 if played.over and "score" in (session.game.result() or {}) else 0
        if store.has_score(session.id) != bool(expected_score):
            played.breaks.append("the high score does not match the game's end")
    except Exception as error:  # an invariant: no exception but a refused answer
        played.breaks.append(f"{type(error).__name__}: {error}")
    finally:
        store.close()
    return played


def registered() -> list[str]:
    return sorted(games())


# the SIGKILL harness -------------------------------------------------------------
@dataclass
class Killed:
    kills: int = 0
    acknowledged: int = 0
    lost: int = 0  # acknowledged answers not on disk after a kill
    breaks: list[str] = field(default_factory=list)


def _cli(data: Path, *args: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DICETABLE_")}
    env |= {"DICETABLE_DATA": str(data), "DICETABLE_CONFIG": str(data / "none.toml")}
    return subprocess.Popen(
        [sys.executable, "-m", "dicetable.device.cli", *args, "--json"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
    )


def _feed(process: subprocess.Popen[str], lines: list[str], stop_after: int) -> int:
    """Type ``lines`` one by one, each after the last was acknowledged (its "state"
    line: it is on disk); SIGKILL once ``stop_after`` are acknowledged, mid-answer.
    Returns how many were acknowledged."""
    assert process.stdin is not None and process.stdout is not None
    acknowledged = 0
    for line in lines:
        if acknowledged == stop_after:
            process.stdin.write(line + "\n")  # killed while this one is being written
            process.stdin.flush()
            break
        process.stdin.write(line + "\n")
        process.stdin.flush()
        while True:
            out = process.stdout.readline()
            if not out:
                return acknowledged  # the process ended (the game is over)
            kind = json.loads(out).get("type")
            if kind in ("state", "over"):
                acknowledged += 1
                break
            if kind == "error":
                raise RuntimeError(f"a replayed answer was refused: {out.strip()}")
    return acknowledged


def kill_and_resume(played: Played, data: Path, rng: random.Random, kills: int) -> Killed:
    """Replay ``played``'s answers into real processes, SIGKILLing each after a random
    number of acknowledged answers (and a random few milliseconds into the next)."""
    report = Killed()
    lines = played.lines
    done = 0
    game_id: int | None = None
    for round_number in range(kills + 1):
        last = round_number == kills or done >= len(lines)
        if game_id is None:
            process = _cli(data, "play", played.game, "--seed", str(played.seed))
        else:
            process = _cli(data, "resume", str(game_id))
        assert process.stdout is not None
        header = process.stdout.readline()  # the first prompt, or the game over
        if game_id is None:
            game_id = json.loads(header)["game"]
        left = lines[done:]
        stop = len(left) if last else rng.randint(0, max(0, min(len(left), 30)))
        try:
            acknowledged = _feed(process, left, stop)
        except RuntimeError as error:
            report.breaks.append(str(error))
            process.kill()
            process.wait()
            break
        if not last:
            time.sleep(rng.random() * 0.005)
            process.send_signal(signal.SIGKILL)
            report.kills += 1
        else:
            assert process.stdin is not None
            process.stdin.close()
        process.wait(timeout=120)
        if process.stdout is not None:
            process.stdout.close()
        report.acknowledged += acknowledged
        on_disk = _check(data, game_id, played, done + acknowledged, report)
        done = on_disk
        if last or done >= len(lines):
            break
    return report


def _check(data: Path, game_id: int, played: Played, acked: int, report: Killed) -> int:
    """After a kill: every acknowledged answer is on disk, in order; the resumed state
    is a clean replay of what is on disk, its end included. Returns the answers kept."""
    store = Store.in_dir(data)
    try:
        saved = store.saved_game(game_id)
        kept = saved.inputs
        if kept < acked:
            report.lost += acked - kept
            report.breaks.append(f"{acked - kept} acknowledged answers lost")
        session = TableSession.resume(store, game_id)
        clean = game_class(played.game)(played.seed, saved.options)
        for line in played.lines[:kept]:
            clean.apply(parse(line, clean.prompt()))
        if clean.view() != session.view() or clean.prompt() != session.prompt():
            report.breaks.append(f"the resume after {kept} answers is not a clean replay")
        if session.game.is_over != store.saved_game(game_id).over:
            report.breaks.append("the game's end and its over flag disagree")
        return kept
    finally:
        store.close()


def fresh_folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="dicetable-fuzz-"))
