# ruff: noqa: F811 (the fixtures of test_ui, imported)
"""Games played on the touchscreen: the game screen's panels, cards and prompt, a
roll with the camera (keep marks, unsure dice, a correction), dice typed without
one, whole turns by touch and buttons, a Dice Throne solo turn, the Minion Rush
tree and the panels' long labels (issue 9 items 1, 5 and 7; issue 5 item 4).
Drawn in the offscreen window of ``test_ui`` at 800x480 and 720x1280."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from kivy.uix.label import Label
from test_ui import (  # noqa: F401 (the offscreen window first, then its fixtures)
    Table,
    UnitTestTouch,
    Window,
    assert_prompt_visible,
    duel_registered,
    layout_problems,
    shots,
    table,
)

from dicetable.hardware.actions import TableAction
from dicetable.rules.core import (
    PromptKind,
)
from dicetable.rules.registry import games
from dicetable.ui.focus import option_order
from dicetable.ui.widgets import FitLabel


def test_game_screen_shows_boss_player_cards_and_prompt(table: Table) -> None:
    table.runtime.new_game("test-duel", seed=1)
    table.pump()
    image = table.check("game-choose")
    assert_prompt_visible(table, image)
    game = table.screens.game
    shown = " ".join(w.text for w in game.walk(restrict=True) if isinstance(w, Label))
    for expected in ("Boss Health", "King's Hand", "Barbarian", "Crushing Blow", "Attack"):
        assert expected in shown, expected
    # the twins say what each hardware button does now, with the focus on an option
    assert "Attack" in game.twins[TableAction.CONFIRM].meaning.text
    table.button(TableAction.NEXT)
    assert "Defend" in game.twins[TableAction.CONFIRM].meaning.text
    assert game.option_buttons[1].outline[3] == 1  # the focused option is outlined


def test_roll_with_camera_marks_keep_and_unsure_dice_and_takes_a_correction(
    table: Table, isolated_data: Path
) -> None:
    table.runtime.new_game("test-duel", seed=1)
    table.pump()
    table.tap(table.find_text("Attack"))
    table.feed_tray([2, 5], state="rolling")
    table.check("tray-rolling")
    table.feed_tray([3, 3, 1, 5, 6])
    image = table.check("tray-settled")
    assert_prompt_visible(table, image)
    assert "Settled" in table.screens.game.tray_status.text
    assert table.state.dice and [d.value for d in table.state.dice] == [3, 3, 1, 5, 6]
    # the die read as 1 was unsure: drawn red; a tap on it asks for its true face
    view = table.screens.game.tray_view
    cx, cy, _ = view.die_box(table.runtime.tray.dice[2])
    touch = UnitTestTouch(cx, cy)
    touch.touch_down()
    touch.touch_up()
    table.pump()
    table.check("correction")
    table.tap(table.find_text("4"))
    assert [d.value for d in table.state.dice] == [3, 3, 4, 5, 6]
    logged = table.runtime.corrections.entries()
    assert logged[-1]["read"]["value"] == 1 and logged[-1]["corrected"]["value"] == 4
    assert Path(logged[-1]["frame"]).is_file()
    table.button(TableAction.CONFIRM)
    # the reroll prompt marks the dice to keep (where the first two lay) in green
    assert table.state.prompt.keep == (0, 1)
    table.feed_tray([3, 3, 2, 4, 5])
    assert view.is_kept(table.runtime.tray.dice[0]) and not view.is_kept(table.runtime.tray.dice[2])
    table.check("tray-keep")


def test_dice_typed_without_camera_and_errors_shown(table: Table) -> None:
    table.runtime.new_game("test-duel", seed=1)
    table.pump()
    table.button(TableAction.CONFIRM)  # Attack, the focused option
    assert table.state.prompt.kind is PromptKind.ROLL
    table.button(TableAction.CONFIRM)  # no dice yet: refused, said in red
    image = table.check("dice-pad-error")
    assert "No dice read yet" in table.screens.game.prompt_line.text
    assert_prompt_visible(table, image)
    for face in "1234":
        table.tap(table.find_text(face))
    table.key("enter")  # four dice where five are wanted: refused by the screen
    assert "Type 1 more dice" in table.screens.game.prompt_line.text
    table.tap(table.find_text("5"))
    table.tap(table.find_text("Use these dice"))
    assert table.state.prompt.keep == (0, 1)
    table.check("after-typed-roll")


def test_a_whole_turn_by_touch_buttons_and_undo(table: Table) -> None:
    """Home -> new game -> Start by touch; a turn by buttons, touches and keys; undo."""
    table.tap(table.find_text("Duel"))
    assert table.screens.current == "new"
    table.check("new-game")
    table.tap(table.find_text("Start"))
    assert table.screens.current == "game"
    table.tap(table.find_text("Defend"))
    table.feed_tray([6, 5, 4, 3, 2])
    table.tap(table.screens.game.twins[TableAction.CONFIRM])
    table.feed_tray([6, 6, 4, 3, 2])
    table.button(TableAction.CONFIRM)
    assert table.state.prompt.kind is PromptKind.CONFIRM
    table.check("confirm")
    table.key("spacebar")
    assert table.state.view["turn"] == 2
    assert table.state.inputs == 4
    table.button(TableAction.UNDO)
    assert table.state.inputs == 3 and table.state.prompt.kind is PromptKind.CONFIRM
    table.tap(table.screens.game.twins[TableAction.UNDO])
    assert table.state.inputs == 2


@pytest.mark.skipif("dicethrone-solo" not in games(), reason="the Dice Throne solo engine")
def test_a_full_dice_throne_solo_turn_by_touch_and_buttons(table: Table) -> None:
    """Dice Throne solo (seeds/dicethrone solo rules: "the Boss takes his turn after
    yours"): from the home screen to the player's next turn, every answer given by a
    touch, a hardware button or a key; the Boss's dice come through the camera."""
    rng = random.Random(5)
    table.tap(table.find_text("Dice Throne: fan-made solo"))
    table.tap(table.find_text("Start"))
    assert table.state.game_id == "dicethrone-solo"
    shots = set()
    asked: set[str] = set()
    last: list[int] = []
    rolls_with_keep = 0
    for step in range(120):
        state = table.state
        prompt = state.prompt
        if state.view.get("turn", 0) >= 2:
            break  # the player's second turn has begun: a whole round was played
        assert prompt.kind is not PromptKind.OVER
        kind = prompt.kind
        if kind not in shots:
            shots.add(kind)
            assert_prompt_visible(table, table.check(f"dicethrone-{kind.value}"))
        before = state.inputs
        if table.screens.game.story_open():  # the Boss's turn, told step by step
            table.check("dicethrone-story")
            while table.screens.game.story_open():
                table.button(TableAction.CONFIRM)
            continue
        if kind is PromptKind.CHOOSE:
            ids = [o.id for o in prompt.options]
            # "what happened?" is asked until the player ends the turn: attack, then end
            pick = ids.index("end") if "end" in ids and str(prompt.text) in asked else 0
            asked.add(str(prompt.text))
            if step % 2:  # by touch
                table.tap(table.screens.game.option_buttons[pick])
            else:  # by buttons: Next down the options as shown, then Confirm
                order = option_order(prompt)
                for _ in range(order.index(pick) - order.index(table.state.focus)):
                    table.button(TableAction.NEXT)
                assert table.state.focus == pick
                table.button(TableAction.CONFIRM)
        elif kind is PromptKind.NUMBER:
            table.tap(table.find_text("+"))
            table.key("right")
            table.button(TableAction.CONFIRM)
        elif kind is PromptKind.CONFIRM:
            if step % 2:
                table.tap(table.screens.game.twins[TableAction.CONFIRM])
            else:
                table.key("enter")
        else:
            assert prompt.dice is not None and not prompt.dice.faces
            # the kept dice stay where they lay; the others are thrown again
            kept = {i: last[i] for i in prompt.keep}
            last = [kept.get(i, rng.randint(1, 6)) for i in range(prompt.dice.count)]
            table.feed_tray([*last[:-1]], state="rolling")
            table.feed_tray(last)
            if prompt.keep:
                kept_seen = [
                    d for d in table.runtime.tray.dice if table.screens.game.tray_view.is_kept(d)
                ]
                assert len(kept_seen) == len(prompt.keep)
                rolls_with_keep += 1
                table.check("dicethrone-keep")
            table.button(TableAction.CONFIRM)
        assert table.state.inputs == before + 1, table.screens.game.prompt_line.text
    assert table.state.view["turn"] == 2, "the turn did not come round"
    assert {PromptKind.CHOOSE, PromptKind.NUMBER, PromptKind.CONFIRM, PromptKind.ROLL} <= shots
    assert rolls_with_keep >= 1, "the Boss's reroll (with dice kept) was not played"


def _script_answers(name: str) -> list[str]:
    path = Path(__file__).parent / "scripts" / name
    return [line.split("#")[0].strip() for line in path.read_text().splitlines()]


@pytest.mark.skipif("unchained-minion-rush" not in games(), reason="the Minion Rush engine")
def test_minion_rush_tree_drawn_with_defeated_engaged_and_reachable_cards(table: Table) -> None:
    """Unchained rulebook, Minion Rush: "You must first defeat the Level I Minion ...
    you must choose to progress left or right" and "You cannot progress to the next
    Minion unless all Minions laying on top of it are defeated"; issue 5 item 4: the
    tree is shown as a picture with what is revealed, defeated and reachable. Played
    through the session with the first answers of the rulebook example's script."""
    from dicetable.device.answers import parse
    from dicetable.ui.minion_tree import STATE_COLOURS, card_state

    table.runtime.new_game("unchained-minion-rush", seed=1)
    table.pump()
    answers = [a for a in _script_answers("unchained-minion-rush-example.txt") if a]
    fought = answers.index("level-1") + 4  # start beaten; position 4 revealed, kept, engaged
    for text in answers[:fought]:
        table.runtime.answer(parse(text, table.state.prompt))
        table.pump(2)
    tree = table.state.view["tree"]
    drawn = table.screens.game.values.tree_view
    assert drawn.parent is not None
    assert len(drawn.cards) == len(tree["nodes"]) == 13  # 10 + Level I start + 2 Level IV
    assert drawn.states() == {str(n["id"]): card_state(n) for n in tree["nodes"]}
    states = list(drawn.states().values())
    assert states.count("defeated") == 1 and drawn.states()["start"] == "defeated"
    assert states.count("engaged") == 1 and drawn.states()["4"] == "engaged"
    assert "II" not in drawn.cards["1"].text and "?" in drawn.cards["1"].text  # face down
    image = table.check("minion-rush-tree")
    # the picture really has each card's colour where the card is
    for card in drawn.cards.values():
        x, y = card.to_window(card.x + card.width * 0.15, card.center_y)
        b, g, r = image[int(Window.height - y), int(x)] / 255
        want = theme_dim(*STATE_COLOURS[card.state])
        assert max(abs(r - want[0]), abs(g - want[1]), abs(b - want[2])) < 0.08, card.node_id
    # after the fight is won, the card uncovered on the chosen path becomes reachable
    for text in answers[fought:]:
        if drawn.states()["4"] == "defeated":
            break
        table.runtime.answer(parse(text, table.state.prompt))
        table.pump(2)
    tree = table.state.view["tree"]
    assert drawn.states() == {str(n["id"]): card_state(n) for n in tree["nodes"]}
    assert drawn.states()["5"] == "reachable" and drawn.states()["4"] == "defeated"
    table.check("minion-rush-tree-next")


def theme_dim(colour, strength):
    from dicetable.ui.theme import dim

    return dim(colour, strength)


@pytest.mark.skipif("dicethrone-solo" not in games(), reason="the Dice Throne solo engine")
def test_panel_values_stay_on_the_line_of_long_labels(table: Table) -> None:
    """Issue 9 item 1 ("the player's tracked values"): at 800x480 the "You" panel
    wrapped "Bonus Damage" and dropped its value to the next line. A short value now
    stays at the right of its label, which wraps; longer (Spanish) labels too."""
    from dicetable.ui.panel_box import PanelBox

    table.runtime.new_game("dicethrone-solo", seed=1)
    table.pump()
    table.check("dicethrone-panels")
    labels = [
        w
        for w in table.screens.game.values.panels_grid.walk(restrict=True)
        if isinstance(w, FitLabel) and w.text == "Bonus Damage"
    ]
    assert len(labels) == 1
    name = labels[0]
    row = name.parent
    shown = next(w for w in row.children if w is not name)
    assert shown.text == "[b]0[/b]" and shown.x > name.x
    assert abs(shown.center_y - name.center_y) < 2, "the value left its label's line"
    # Spanish-length labels, a value too wide to share a line, at the panel's width
    width = table.screens.game.values.panel_boxes[0].width
    box = PanelBox(
        table.display,
        "Tú",
        "player",
        [
            ("Daño Extra", "0"),
            ("Fichas de Contraataque guardadas", "12"),
            ("Fichas", "Conmoción, Derribo, Cegado"),
        ],
        width=width,
    )
    box.pos, box.size_hint_x, box.width = (0, 0), None, width
    Window.add_widget(box)
    try:
        table.pump(2, table=False)
        assert [beside for _, beside, _, _ in box.values] == [True, True, False]
        for _, _, label, value in box.values[:2]:
            assert abs(label.center_y - value.center_y) < 2
        problems = layout_problems(box, table.display)
        assert not problems, "\n".join(problems)
    finally:
        Window.remove_widget(box)
