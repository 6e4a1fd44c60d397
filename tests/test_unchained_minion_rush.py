"""Dice Throne Adventures "Unchained" (issue 5): Minion Rush (the Minion tree, its paths
and scoring).

Rulebook: shared/seeds/dice-throne-adventures-unchained.txt; each test quotes the
line it checks.
"""

from __future__ import annotations

from test_unchained_helpers import (
    defeat,
    options,
    play,
    rush,
    texts,
)

from dicetable.rules.core import PromptKind
from dicetable.rules.unchained.minion_rush import MinionRush
from dicetable.rules.unchained.minion_tree import MinionTree, tree_layout


def test_minion_rush_example_scores_12_before_health():
    """Conclusion / Points: "if you were only able to defeat 2 of each Level I/II/III
    Minions ... 1 x 2 + 2 x 2 + 3 x 2 = 12 points"; "add your Health total as bonus
    points"."""
    game = rush()
    defeat(game)  # the Level I start
    play(game, "left", "position-4", "level-1", "no")
    defeat(game)
    play(game, "level-2", "no")  # position 5, the only one left uncovered
    defeat(game)
    play(game, "level-2", "no")  # position 3
    defeat(game)
    play(game, "position-1", "level-3", "no")
    defeat(game)
    play(game, "level-3", "no")  # position 2
    defeat(game)
    assert game.breakdown()["minion_points"] == 12
    events = play(game, "no", "health", "0")  # the Level IV is revealed; the hero falls
    assert game.result()["score"] == 12
    # Conclusion: the table says the score, not only the screen's numbers
    assert "Score 12: 12 points for the Minions defeated + 0 Health." in texts(events)
    play_result = game.result()
    assert (play_result["mode"], play_result["party"], play_result["heroes"]) == (
        "minion-rush",
        "1 hero",
        "Moon Elf",
    )


def test_level_i_first_then_a_path():
    """ "You must first defeat the Level I Minion (green box). Once it has been
    defeated, you must choose to progress left or right"."""
    game = rush()
    assert game.tree.engaged == "start"
    defeat(game)
    assert options(game) == ["left", "right"]


def test_cannot_pass_a_minion_lying_on_top():
    """ "You cannot progress to the next Minion unless all Minions laying on top of it
    are defeated"."""
    tree = MinionTree()
    tree.defeated.append("start")
    tree.path = "left"
    assert {n.id for n in tree.reachable()} == {"4", "5"}
    tree.defeated.append("4")
    assert {n.id for n in tree.reachable()} == {"5"}  # 3 still lies under 5
    tree.defeated.append("5")
    assert [n.id for n in tree.reachable()] == ["3"]


def test_cannot_switch_path_until_the_side_is_done_and_level_iv_scores_6():
    """ "Once you have chosen a path, you cannot switch to the other until all Minions
    have been defeated on a single path"; "Level IV Minion 6"."""
    game = rush()
    defeat(game)
    play(game, "right")
    for _ in range(5):
        prompt = game.prompt()
        if "uncovered" in str(prompt.text):
            assert all(
                o.removeprefix("position-") in ["6", "7", "8", "9", "10"] for o in options(game)
            )
            play(game, options(game)[0])
        play(game, "level-1", "no")
        defeat(game)
    assert game.prompt().kind is PromptKind.CHOOSE and "Solo" in str(game.prompt().text)
    play(game, "no")  # the Level IV: no level asked
    assert game.tree.levels["IV-right"] == 4
    defeat(game)
    assert game.tree.path == "left" or "left" in game.tree.path
    assert game.breakdown()["minion_points"] == 1 + 5 + 6


def test_solo_symbol_minion_is_replaced():
    """Rules Clarifications: "Whenever you reveal a Solo symbol, discard this Minion and
    replace it with a new random Minion of the same level"."""
    game = MinionRush(1)
    play(game, "moon-elf", "", "")
    events = play(game, "yes")
    assert "replace it with a new random Level I Minion" in texts(events)[0]
    play(game, "")
    assert "Solo symbol" in str(game.prompt().text)  # the replacement is checked too
    play(game, "no")
    assert game.tree.engaged == "start"


def test_minion_rush_kings_hand_succeeds_on_4_to_6():
    """King's Hand Tokens: "A successful King's Hand roll value is 4-6"."""
    game = rush()
    play(game, "kings-hand")
    prompt = game.prompt()
    assert prompt.kind is PromptKind.ROLL and str(prompt.odds) == "1/2"
    assert play(game, "3")[0].data["success"] is False
    assert play(game, "kings-hand", "4")[0].data["success"] is True


def test_rush_ends_when_every_minion_is_defeated():
    """Conclusion: "if you defeat all Minions, your Rush has ended"."""
    game = rush()
    defeat(game)
    play(game, "left")
    while not game.over:
        prompt = game.prompt()
        if "uncovered" in str(prompt.text) or "path" in str(prompt.text):
            play(game, options(game)[0])
        elif "which level" in str(prompt.text):
            play(game, "level-2")
        elif "Solo" in str(prompt.text):
            play(game, "no")
        else:
            defeat(game)
    assert len(game.tree.defeated) == len(tree_layout())
    assert game.result()["minion_points"] == 1 + 10 * 2 + 2 * 6
    assert game.result()["score"] == 1 + 20 + 12 + 30


def test_tree_view_gives_the_screen_what_to_draw():
    """Issue 5 item 4: the tree as a picture with revealed, defeated and reachable."""
    game = rush()
    defeat(game)
    play(game, "left")
    tree = game.view()["tree"]
    nodes = {n["id"]: n for n in tree["nodes"]}
    assert nodes["start"]["defeated"] and nodes["start"]["revealed"]
    assert nodes["4"]["reachable"] and nodes["5"]["reachable"] and not nodes["3"]["reachable"]
    assert nodes["IV-left"]["level"] == 4 and not nodes["IV-left"]["revealed"]
    assert (tree["rows"], tree["cols"]) == (5, 7)
    assert any("[S:Ix]" in line for line in tree["text"])
    assert any("[4:?>]" in line for line in tree["text"])
