"""Mini Dungeon Adventures played whole: scripts through the terminal client, the
session runtime (undo and resume), and random games to the end that never break the
invariants (issue 7, must show 6)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicetable.device.cli import main
from dicetable.device.i18n import catalogue
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.rules.core import Actor, Input, InvalidInput, Msg, PromptKind
from dicetable.rules.minidungeon import figures as fig
from dicetable.rules.minidungeon.game import MiniDungeon

SCRIPTS = Path(__file__).parent / "scripts"
PROGRESS = ("attack", "door", "chest", "leave", "done", "back", "end")


def play_script(name: str, *args: str, capsys) -> dict:
    code = main(["play", "minidungeon", *args, "--script", str(SCRIPTS / name), "--json"])
    assert code == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    assert lines[-1]["type"] == "over", lines[-1]
    return lines[-1]["result"]


def test_two_heroes_from_the_entrance_to_the_lich_in_room_six(capsys):
    """ "If only two heroes are used, the dungeon boss' lair will be in the sixth room";
    "The heroes clear the dungeon once all monsters (including the dungeon boss) are
    defeated"."""
    result = play_script("minidungeon-six-rooms.txt", "--seed", "3", capsys=capsys)
    assert result["winner"] == "heroes" and result["rooms_cleared"] == 6
    assert result["mode"] == "2 heroes" and result["score"] > 100


def test_the_party_falls(capsys):
    """ "If at any point all hero figures are wounded simultaneously, they are defeated and
    the dungeon boss has won"."""
    result = play_script(
        "minidungeon-party-falls.txt", "--seed", "2", "--option", "dungeon=short", capsys=capsys
    )
    assert result["winner"] == "boss"


def random_answer(game: MiniDungeon, rng: random.Random, luck: int = 1) -> Input:
    """A player who mostly pushes on (attacks, opens doors) but tries everything;
    ``luck`` tilts the dice: heroes roll ``luck``..6 and the boss 1..(7 - luck)."""
    prompt = game.prompt()
    if prompt.kind is PromptKind.ROLL:
        low, high = (1, 7 - luck) if prompt.actor is Actor.BOSS else (luck, 6)
        return Input.roll(*(rng.randint(low, high) for _ in range(prompt.dice.count)))
    if prompt.kind is PromptKind.NUMBER:
        low, high = prompt.number_range
        return Input.enter(rng.randint(low, min(high, low + 4)))
    if prompt.kind is PromptKind.CONFIRM:
        return Input.confirm()
    ids = [o.id for o in prompt.options]
    if "new_quest" in ids:
        return Input.choose(rng.choice(["new_quest", "end", "end"]))
    preferred = [i for i in ids if i in PROGRESS]
    if preferred and rng.random() < 0.75:
        return Input.choose(preferred[0])
    return Input.choose(rng.choice(ids))


def check_invariants(game: MiniDungeon) -> None:
    book = game.book
    assert game.gold >= 0
    for hero in game.heroes:
        assert 0 <= hero.health <= fig.max_health(hero, book), hero
        assert hero.speed_left >= 0, hero
        assert 0 <= hero.mana <= 6
        if hero.health == 0 and not hero.wounded:  # only while the Love Interest rolls
            assert "power of love" in game.prompt().text.text, hero
        assert not hero.wounded or hero.health == 0, hero
        assert fig.backpack_used(hero, book) <= fig.BACKPACK_SLOTS
        assert fig.hands_free(hero, book) >= 0
    for monster in game.room.monsters:
        assert 0 < monster.health <= monster.max_health, monster
        assert monster.speed_left >= 0
    assert game.room.chests >= 0
    json.dumps(game.view())


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31),
    dungeon=st.sampled_from(["short", "short", "rulebook"]),
    town=st.sampled_from(["4", "2"]),
    luck=st.sampled_from([1, 3, 4]),
)
def test_random_games_end_without_breaking_the_rules(seed: int, dungeon: str, town: str, luck: int):
    """Random games, to the end: health within 0..max, gold never negative, speed points
    never below 0, a wrong answer changes nothing, and every game ends with a winner."""
    game = MiniDungeon(seed, {"dungeon": dungeon, "heal_price": town})
    rng = random.Random(seed)
    for step in range(20000):
        if game.prompt().kind is PromptKind.OVER:
            break
        if step % 50 == 0:
            before = json.dumps(game.view())
            wrong = Input.confirm() if game.prompt().kind is PromptKind.NUMBER else Input.enter(-1)
            with pytest.raises(InvalidInput):
                game.apply(wrong)
            assert json.dumps(game.view()) == before
        game.apply(random_answer(game, rng, luck))
        check_invariants(game)
    assert game.prompt().kind is PromptKind.OVER
    assert game.result()["winner"] in ("heroes", "boss")


def test_undo_and_resume_replay_the_same_dungeon(isolated_data: Path):
    """Undo is "replay all inputs but the last"; resume is "replay the log": the game is
    built from its seed and inputs alone."""
    store = Store.in_dir(isolated_data)
    session = TableSession.start(store, "minidungeon", 7, {"dungeon": "short"})
    rng = random.Random(7)
    views = []
    for _ in range(120):
        if session.prompt().kind is PromptKind.OVER:
            break
        views.append(json.dumps(session.view()))
        session.submit(random_answer(session.game, rng))
    last = json.dumps(session.view())
    assert session.undo()
    assert json.dumps(session.view()) == views[-1]
    resumed = TableSession.resume(store, session.id)
    assert json.dumps(resumed.view()) == views[-1]
    assert last != views[0]


def test_view_has_the_table_keys():
    """view() carries what a screen and the LED ring need: gauge, turn, panels, cards."""
    game = MiniDungeon(3, {})
    rng = random.Random(3)
    while game.phase != "heroes" or not game.room.monsters:
        game.apply(random_answer(game, rng))
        if game.prompt().kind is PromptKind.OVER:
            break
    view = game.view()
    assert {"gauge", "turn", "panels", "cards", "heroes", "monsters", "gold"} <= set(view)
    if game.room.monsters:
        assert view["gauge"]["max"] >= view["gauge"]["value"] > 0
        actors = {p["actor"] for p in view["panels"]}
        assert actors == {"player", "boss", "table"}


def _templates(message: Msg) -> list[str]:
    found = [message.text]
    for value in message.args.values():
        if isinstance(value, Msg):
            found += _templates(value)
    return found


def test_spanish_covers_long_games():
    """Every prompt, option, objective and event met in long random games (which reach
    town, events, the lair and new quests) has a Spanish text in i18n/es.toml."""
    spanish = catalogue("es")
    missing: set[str] = set()
    for seed in range(12):
        game = MiniDungeon(seed, {"dungeon": "short"})
        rng = random.Random(seed)
        while game.prompt().kind is not PromptKind.OVER:
            prompt = game.prompt()
            shown = [prompt.text, *(o.label for o in prompt.options)]
            shown += [prompt.objective] if prompt.objective else []
            shown += [e.text for e in game.apply(random_answer(game, rng, 1 + seed % 4))]
            missing |= {t for m in shown for t in _templates(m) if t not in spanish}
            missing |= {t for t in _view_labels(game.view()) if t not in spanish}
    assert not missing, sorted(missing)


def _view_labels(view: dict) -> list[str]:
    """The strings a screen translates whole: panel titles and labels, the gauge label,
    card titles and texts (numbered figures up to 12, the most a room's list holds)."""
    labels = [view["gauge"]["label"]] if view.get("gauge") else []
    for panel in view["panels"]:
        if not panel["title"].split()[-1].isdigit() or int(panel["title"].split()[-1]) <= 12:
            labels.append(panel["title"])
        labels += [label for label, _ in panel["rows"]]
    labels += [c[key] for c in view["cards"] for key in ("title", "text")]
    return labels


def test_four_heroes_through_twelve_rooms(capsys):
    """ "The dungeon should have twelve separate rooms" ... "No more than four heroes may be
    used in a game at a time": the full-size dungeon, entrance to the Lich."""
    result = play_script("minidungeon-four-heroes.txt", "--seed", "6", capsys=capsys)
    assert result["winner"] == "heroes" and result["rooms_cleared"] == 12
    assert result["mode"] == "4 heroes"
