# ruff: noqa: F811 (the fixtures of test_ui, imported)
"""Teaching dice from the touchscreen (issue 3 item 3): the guided "show me each
face" flow for plain dice, and the dice a waiting game asks for (a Dice Throne
hero's), taught by touch and read at the game's next roll."""

from __future__ import annotations

import random
from pathlib import Path

from test_ui import (  # noqa: F401 (the offscreen window first, then its fixtures)
    Table,
    duel_registered,
    shots,
    table,
)

from dicetable.device.table.snapshots import TraySnapshot
from dicetable.hardware.actions import TableAction
from dicetable.rules.core import (
    Input,
    PromptKind,
)
from dicetable.ui.widgets import TapButton, WrapLabel


def test_the_guided_teach_flow_learns_every_face_and_saves_a_profile(
    table: Table, isolated_data: Path
) -> None:
    """Settings -> Dice profiles: "show me each face", capture, save (vision Teacher)."""
    from dicetable.hardware.synthetic_tray import SyntheticDie, render_tray

    table.tap(table.find_text("Settings"))
    table.tap(table.find_text("Dice profiles"))
    assert table.screens.current == "teach"
    table.pump()
    table.tap(table.find_text("Plain dice (pips)"))  # the chooser: the table's own d6
    table.tap(table.find_text("Capture"))  # nothing settled yet: asked to wait
    assert "No still die" in table.screens.teach.note.text
    for value in range(1, 7):
        assert f"face {value}" in table.screens.teach.step.text
        frame = render_tray([SyntheticDie(value, 320, 240, 15 * value, 80)], seed=value)
        table.runtime._last_frame = frame
        table.feed_tray([value], state="rolling")
        if value == 3:
            table.check("teach")
        table.tap(table.find_text("Capture"))
        table.pump()
    table.tap(table.find_text("Save"))
    table.pump(4)
    assert (isolated_data / "profiles" / "taught-d6.npz").is_file() or list(
        (isolated_data / "profiles").glob("taught-d6*")
    )
    assert "Saved: Plain dice (pips)" in table.screens.teach.note.text
    # a plain d6 roll now reads the table's own dice as taught
    assert table.runtime.submit(lambda: table.runtime._profile_for("d6")).result() == "taught-d6"


#: Stand-in looks for the Barbarian's six faces: the renderer cannot print a face's
#: number beside its symbol (as Dice Throne dice do), so each face gets its own mark.
HERO_LOOKS = {1: "sword", 2: "skull", 3: "star", 4: "shield"}  # 5 and 6: pips


def _hero_die(value: int, rng: random.Random, size: float = 62.0):
    from dicetable.hardware.synthetic_tray import DICE_COLOURS, SyntheticDie

    body, pips = DICE_COLOURS["red"]
    x, y = rng.uniform(200, 440), rng.uniform(150, 330)
    face = HERO_LOOKS.get(value, "")
    return SyntheticDie(value, x, y, rng.uniform(0, 90), size, body, pips, face, colour="red")


def test_the_dice_a_game_waits_for_are_taught_by_touch_and_read_at_its_next_roll(
    table: Table, isolated_data: Path
) -> None:
    """Issue 3, item 3: "Teach it new dice ... a profile file names the faces, e.g.
    Dice Throne hero symbols ... The same teaching is reachable from the touchscreen
    (a guided 'show me each face' flow)". A Dice Throne roll asks for the Barbarian's
    dice, not taught here: a notice leads to Settings, which leads to the chooser
    (the sets of the installed games, faces named from their data, the one waited for
    first); each face is asked for by its name (twice round, one red die in the tray),
    saved as "dicethrone-barbarian", and the waiting roll is read with it."""
    from types import SimpleNamespace

    from dicetable.hardware.synthetic_tray import random_tray, render_tray
    from dicetable.rules.dicethrone.heroes import load_hero
    from dicetable.vision.reader import DiceReader

    runtime = table.runtime
    runtime.camera, runtime.watcher = object(), SimpleNamespace(reader=None)  # a tray is read
    state = runtime.new_game("dicethrone-solo", {"boss": "barbarian", "difficulty": "normal"})
    state = state.result(timeout=5)
    for _ in range(20):
        if state.prompt.kind is PromptKind.ROLL:
            break
        end = any(option.id == "end" for option in state.prompt.options)
        answer = runtime.answer(Input.choose("end")) if end else runtime.act(TableAction.CONFIRM)
        state = answer.result(timeout=5)
    assert state.prompt.dice is not None and state.prompt.dice.profile == "dicethrone-barbarian"
    empty = render_tray([], seed=1, tray="black felt")
    runtime._show_tray(TraySnapshot("empty", (), empty[::2, ::2, ::-1].copy(), (640, 480)))
    table.pump()
    notice = [n for n in runtime.notices() if n.topic == "dice"]
    assert notice and "Dice Throne: the Barbarian's dice" in str(notice[0].text.args["dice"])
    table.check("teach-dice-notice")

    table.screens.go("settings")
    table.pump()
    table.check("teach-settings-waiting")
    table.tap(table.find_text("Teach Dice Throne: the Barbarian's dice"))
    assert table.screens.current == "teach"
    table.pump()
    teach = table.screens.teach
    listed = [w.text for w in teach.sets.children[::-1] if isinstance(w, TapButton)]
    assert listed[0] == "Dice Throne: the Barbarian's dice"  # the one waited for first
    assert {"Dicequest's colour dice", "Plain dice (pips)"} <= set(listed)
    words = [w.text for w in teach.sets.children[::-1] if isinstance(w, WrapLabel)]
    assert "1: sword · 2: sword · 3: sword · 4: heart · 5: heart · 6: pow" in words[0]
    assert "A game is waiting for these dice." in words[0]
    table.check("teach-chooser")
    table.tap(table.find_text("Dice Throne: the Barbarian's dice"))

    faces = load_hero("barbarian").faces
    rng = random.Random(5)
    for shot in range(12):  # each face once, then once more for a surer reading
        value = shot % 6 + 1
        assert f"face {value}: {faces[value]}" in teach.step.text, teach.step.text
        frame = render_tray([_hero_die(value, rng)], seed=shot, tray="black felt")
        runtime._last_frame = frame
        runtime._show_tray(TraySnapshot("settled", (), frame[::2, ::2, ::-1].copy(), (640, 480)))
        table.pump()
        if shot == 2:
            table.check("teach-hero-face")
        table.tap(table.find_text("Capture"))
        table.pump()
        done = min(shot + 1, 6)
        assert f"Face {value}: {faces[value]} learnt ({done} of 6)." in teach.note.text
    table.tap(table.find_text("Save"))
    table.pump(4)
    assert (isolated_data / "profiles" / "dicethrone-barbarian.npz").is_file()
    assert "Saved: Dice Throne: the Barbarian's dice" in teach.note.text
    table.check("teach-hero-saved")

    # the roll that was waiting is read with the taught dice, and the notice is gone
    reader = runtime.watcher.reader
    assert isinstance(reader, DiceReader) and reader.profile.name == "dicethrone-barbarian"
    assert reader.profile.model is not None
    assert not [n for n in runtime.notices() if n.topic == "dice"]
    total = right = 0
    for seed in range(300, 330):
        rolled = random.Random(seed)
        dice = random_tray(rolled, 5, symbols=HERO_LOOKS, colours=("red",), die_size=62)
        reading = reader.read(render_tray(dice, seed=seed, tray="black felt"))
        for die in dice:
            total += 1
            here = [r for r in reading.dice if abs(r.x - die.x) + abs(r.y - die.y) < die.size / 2]
            right += bool(here) and (here[0].value, here[0].face) == (die.value, faces[die.value])
    print(f"taught by touch: {right}/{total} dice read right")
    assert right >= 0.95 * total, f"{right}/{total}"
