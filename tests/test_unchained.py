"""Dice Throne Adventures "Unchained" (issue 5) as a whole: every mode's script to the
end, sessions, high scores, random games and their replays, power cuts, the data
files, translations and the views. The rules of each mode are tested in
test_unchained_campaign.py, test_unchained_one_shot.py and test_unchained_minion_rush.py.

Rulebook: shared/seeds/dice-throne-adventures-unchained.txt; each test quotes the
line it checks.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_unchained_helpers import (
    campaign,
    one_shot,
    options,
    play,
    rush,
    texts,
    through_setup,
)

from dicetable.device.answers import parse
from dicetable.device.cli import main
from dicetable.device.i18n import catalogue, translate
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.rules.core import Input, InvalidInput, PromptKind
from dicetable.rules.unchained.minion_rush import MinionRush
from dicetable.rules.unchained.one_shot import OneShot

SCRIPTS = Path(__file__).parent / "scripts"


RULEBOOK = "seeds/dice-throne-adventures-unchained.txt"


@pytest.mark.parametrize(
    "script",
    sorted(SCRIPTS.glob("unchained-*.txt")),
    ids=lambda p: p.stem,
)
def test_scripts_play_to_the_end(script: Path, capsys):
    """Issue 5 item 7: every mode plays in the terminal client from start to end."""
    game_id = script.stem.rsplit("-", 1)[0]
    assert main(["play", game_id, "--seed", "1", "--script", str(script)]) == 0
    assert "Game over." in capsys.readouterr().out


def test_high_scores_per_party_and_hero_best_first(tmp_path: Path):
    """Issue 5 item 5: One-Shot and Minion Rush results kept per party and hero, best
    first, through the session."""
    store = Store.in_dir(tmp_path)
    start = ("moon-elf", "", "", "no")
    one = (*start, "defeated", "3", "other", "", "right", "position-9", "level-3", "no")
    two = (*one, "defeated", "3", "other", "", "level-1", "no")
    for lines in (one, two, start):
        session = TableSession.start(store, "unchained-minion-rush", seed=1)
        for line in (*lines, "health", "0"):
            session.submit(parse(line, session.prompt()))
    scores = store.high_scores("unchained-minion-rush")
    assert [s["score"] for s in scores] == [4, 1, 0]
    assert scores[0]["heroes"] == "Moon Elf" and scores[0]["mode"] == "minion-rush"


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_random_one_shots_end_and_replay_identically(data):
    """Property: random table answers keep Health within 0..start+10, Salves within
    0..15, and a replay of the same inputs gives the same view."""
    game = OneShot(7)
    log = []
    for _ in range(120):
        prompt = game.prompt()
        if prompt.kind is PromptKind.OVER:
            break
        if prompt.kind is PromptKind.CHOOSE:
            answer = Input.choose(data.draw(st.sampled_from([o.id for o in prompt.options])))
        elif prompt.kind is PromptKind.NUMBER:
            low, high = prompt.number_range
            answer = Input.enter(data.draw(st.integers(low, high)))
        elif prompt.kind is PromptKind.ROLL:
            answer = Input.roll(data.draw(st.integers(1, 6)))
        else:
            answer = Input.confirm()
        try:
            game.apply(answer)
        except InvalidInput:
            continue
        log.append(answer)
        for hero in game.heroes:
            assert 0 <= hero.health <= hero.start_health + 10
            assert 0 <= hero.salves <= 15
    again = OneShot(7)
    for answer in log:
        again.apply(answer)
    assert again.view() == game.view()


def test_data_errors_name_file_entry_and_field(monkeypatch):
    """Brief: data validated on load, the error naming file, entry and field."""
    from dicetable.rules.unchained import data

    monkeypatch.setattr(data, "load", lambda name: {"heroes": ["A", "A"]})
    data.hero_names.cache_clear()
    try:
        with pytest.raises(data.DataError, match=r"data/heroes.toml: top level: field 'heroes'"):
            data.hero_names()
    finally:
        monkeypatch.undo()
        data.hero_names.cache_clear()


def test_every_message_has_a_spanish_translation():
    """Brief: Spanish for every message of the package."""
    import ast

    spanish = catalogue("es")
    missing = []
    folder = Path(__file__).parents[1] / "rules" / "unchained"
    for source in folder.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", "") == "msg"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                text = node.args[0].value
                if text not in spanish:
                    missing.append(f"{source.name}: {text}")
    assert not missing, "\n".join(missing)


def test_rulebook_quotes_are_in_the_seed(shared_dir: Path):
    """The figures tested here are the rulebook's own."""
    text = (shared_dir / RULEBOOK).read_text()
    for quote in (
        "Boss Health: 85",
        "Upgrade CP: 10",
        "Final Score of 45 points",
        "1 x 2 + 2 x 2 + 3 x 2 = 12 points",
        "Salve Stack Limit is 15",
        "A successful King's Hand roll value is 4-6",
        "Successful roll values: 3-6",
    ):
        assert quote in text, quote


def test_a_six_sided_loot_die_is_read_from_the_tray_and_rows_looked_up(monkeypatch):
    """One-Shot Loot Table: a table transcribed into the data file needs no question;
    a Loot die the tray can read is asked as a ROLL."""
    from dicetable.rules.flow import FlowGame
    from dicetable.rules.unchained import data, loot

    transcribed = {
        "loot_die_sides": 6,
        "reward": [
            {"id": "rare", "kind": "loot-card", "rarity": "Rare", "text": "Rare Loot Card"},
            {"id": "gold", "kind": "gold", "text": "Gold"},
        ],
        "row": [{"low": 1, "high": 3, "reward": "gold"}, {"low": 4, "high": 6, "reward": "rare"}],
    }
    real = data.load
    monkeypatch.setattr(data, "load", lambda name: transcribed if name == "t.toml" else real(name))

    class Table(FlowGame):
        id, title = "t", "t"

        def view(self) -> dict:
            return {}

    game = Table(1)
    loot.queue_loot_rolls(game.flow, ["Monk", "Ninja"], "why", solo=False, table_file="t.toml")
    assert game.prompt().kind is PromptKind.ROLL and game.prompt().dice.count == 1
    events = play(game, "5")
    assert events[0].data["reward"] == "rare" and game.prompt().kind is PromptKind.CONFIRM
    events = play(game, "", "2")
    assert "Gold has no effect" in texts(events)[0]
    loot.loot_table.cache_clear()


def test_loot_table_rows_must_not_overlap(monkeypatch):
    """Brief: data validated on load, the error naming file, entry and field."""
    from dicetable.rules.unchained import data, loot

    bad = {
        "loot_die_sides": 6,
        "reward": [{"id": "gold", "kind": "gold", "text": "Gold"}],
        "row": [{"low": 1, "high": 4, "reward": "gold"}, {"low": 3, "high": 6, "reward": "gold"}],
    }
    monkeypatch.setattr(data, "load", lambda name: bad)
    with pytest.raises(data.DataError, match=r"data/bad.toml: row #2: field 'low' overlaps"):
        loot.loot_table("bad.toml")


@pytest.mark.parametrize("script", sorted(SCRIPTS.glob("unchained-*.txt")), ids=lambda p: p.stem)
def test_every_mode_survives_a_power_cut_and_undo(script: Path, tmp_path: Path):
    """Issue 5 item 7 and the brief: through the session runtime, a resumed game (the
    log replayed) shows exactly what was shown; undo takes back one answer."""
    import json

    store = Store.in_dir(tmp_path)
    session = TableSession.start(store, script.stem.rsplit("-", 1)[0], seed=3)
    answers = [
        raw.split("#", 1)[0].strip()
        for raw in script.read_text().splitlines()
        if raw.strip() and not raw.strip().startswith("#")
    ]
    for i, line in enumerate(answers):
        session.submit(parse(line, session.prompt()))
        if i == len(answers) // 2:
            shown = json.dumps(session.view(), sort_keys=True)
            again = TableSession.resume(store, session.id)
            assert json.dumps(again.view(), sort_keys=True) == shown
            assert session.undo()
            session.submit(parse(line, session.prompt()))
            assert json.dumps(session.view(), sort_keys=True) == shown
    assert session.game.is_over
    assert store.saved_game(session.id).over
    result = session.game.result()
    filed = store.high_scores(session.saved.game)
    assert [(s["score"], s["mode"], s["party"], s["heroes"]) for s in filed] == [
        (result["score"], result["mode"], result["party"], result["heroes"])
    ]
    expected = {"unchained-one-shot": 45, "unchained-minion-rush": 12, "unchained-campaign": 145}
    assert result["score"] == expected[session.saved.game]


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_random_minion_rushes_keep_the_tree_rules(data):
    """Property: a Minion is only ever revealed once every card on top of it is
    defeated, the path only changes when a side is done, the score is the points plus
    Health, and a replay gives the same view."""
    game = MinionRush(5)
    log = []
    for _ in range(200):
        prompt = game.prompt()
        if prompt.kind is PromptKind.OVER:
            assert game.over and game.result() is not None  # never over by accident
            break
        if prompt.kind is PromptKind.CHOOSE:
            answer = Input.choose(data.draw(st.sampled_from([o.id for o in prompt.options])))
        elif prompt.kind is PromptKind.NUMBER:
            low, high = prompt.number_range
            answer = Input.enter(data.draw(st.integers(low, high)))
        elif prompt.kind is PromptKind.ROLL:
            answer = Input.roll(data.draw(st.integers(1, 6)))
        else:
            answer = Input.confirm()
        path_before = game.tree.path
        side_left = path_before and game.tree.remaining(path_before)
        try:
            game.apply(answer)
        except InvalidInput:
            continue
        log.append(answer)
        tree = game.tree
        if tree.engaged is not None:
            node = tree.node(tree.engaged)
            assert all(above in tree.defeated for above in node.on_top)
        if side_left and tree.path != path_before:
            raise AssertionError("the path changed before its side was done")
        assert game.breakdown()["score"] == sum(
            game.rules.points[level] for level in tree.defeated_levels()
        ) + (game.hero.health if game.hero else 0)
    again = MinionRush(5)
    for answer in log:
        again.apply(answer)
    assert again.view() == game.view()


def test_views_are_json_and_panel_labels_translate():
    """Brief: view() is JSON-able; panel labels are English keys the screen translates."""
    import json

    spanish = catalogue("es")
    game = campaign(2)
    for view in (game.view(), rush().view(), one_shot("monk").view()):
        json.dumps(view)
        for panel in view["panels"]:
            for label, _value in panel["rows"]:
                assert label in spanish, label


def test_damage_is_entered_as_the_table_announces_it():
    """One-Shot Boss Battle: the Boss's and each hero's Health dials go down by the
    damage announced ("Keep all Heroes' remaining Health separate"); Minion Rush:
    "If your Health is reduced to 0 ... your Rush has ended"."""
    game = one_shot("monk", "paladin")
    through_setup(game)
    play(game, "boss", "fallen-gunslinger", "", "boss-damage", "20")
    assert game.boss_health == 25 and game.view()["gauge"]["value"] == 25
    play(game, "damage", "hero-2", "7")
    assert [h.health for h in game.heroes] == [30, 23]
    assert game.prompt().kind is PromptKind.CHOOSE
    play(game, "boss-damage", "25")
    assert game.result()["score"] == 30 + 23 + 15

    game = rush()
    play(game, "damage", "12")
    assert game.hero.health == 18 and not game.over
    play(game, "damage", "18")
    assert game.over and game.result()["score"] == 0


def test_two_heroes_with_the_same_name_are_still_two_heroes():
    """One-Shot Player Setup: "Have each Hero set their starting Health"; each hero
    keeps their own dial ("Keep all Heroes' remaining Health separate"). Two players
    entered under the same name ("Other hero") must each be pickable: before the fix
    both were offered as hero-1 and the second could never take damage or a Salve."""
    game = one_shot("other-hero", "other-hero")
    through_setup(game)
    play(game, "damage")
    assert options(game) == ["hero-1", "hero-2"]
    play(game, "hero-2", "5")
    assert [h.health for h in game.heroes] == [30, 25]
    assert [h.name for h in game.heroes] == ["Other hero", "Other hero (2)"]


def test_hero_names_in_messages_are_translated():
    """A hero's name shown in a message is translated like the option that chose it
    (the Spanish screen said "Barbarian" in texts after offering "Bárbaro"); a repeated
    name keeps its number."""
    game = one_shot("barbarian", "other-hero", "other-hero")
    through_setup(game)
    events = play(game, "salve-symbol", "hero-3")
    assert translate(events[0].text, "es") == "Otro héroe (3) gana un Ungüento (1 en mano)."
    events = play(game, "salve-symbol", "hero-1")
    assert translate(events[0].text, "es").startswith("Bárbaro ")
