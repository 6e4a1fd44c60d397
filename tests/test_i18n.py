"""Spanish covers every message the table shows: the games' prompts, options and
events as they are actually produced in play, the controller's button meanings, and
every text the screens themselves write (``msg("...")`` in ``ui/``).

Issue 9: "Text through a translation catalogue: English complete, Spanish complete
(one of the rulebooks is Spanish)."
"""

from __future__ import annotations

import ast
import random
import string
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest

from dicetable.device.controller import Controller
from dicetable.device.i18n import catalogue, translate
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.hardware.actions import TableAction
from dicetable.rules.core import (
    Die,
    Input,
    InputKind,
    InvalidInput,
    Msg,
    Prompt,
    PromptKind,
    Text,
    msg,
)
from dicetable.rules.registry import games

UI = Path(__file__).resolve().parents[1] / "ui"
STEPS = 60


def random_answer(prompt: Prompt, rng: random.Random) -> Input:
    """Any answer that fits the prompt's shape (the game may still refuse it)."""
    if prompt.kind is PromptKind.CHOOSE:
        return Input.choose(rng.choice(prompt.options).id)
    if prompt.kind is PromptKind.NUMBER:
        low, high = prompt.number_range or (0, 10)
        return Input.enter(rng.randint(low, high))
    if prompt.kind is PromptKind.ROLL:
        request = prompt.dice
        assert request is not None
        count = rng.randint(request.least, min(request.count, request.least + 5))
        dice = []
        for _ in range(count):
            face = rng.choice(request.faces) if request.faces else str(rng.randint(1, 6))
            colour = rng.choice(request.colors) if request.colors else ""
            dice.append(Die(int(face) if face.isdigit() else None, face, colour))
        return Input(InputKind.DICE, dice=tuple(dice))
    if prompt.kind is PromptKind.TEXT and prompt.entry is not None:  # a name: its default
        return Input.write(str(prompt.entry.default))
    return Input.confirm()


def play_randomly(session: TableSession, rng: random.Random, steps: int) -> list[Msg]:
    """Play with random answers, collecting every Msg the table would show."""
    shown: list[Msg] = []
    controller = Controller(session)
    for _ in range(steps):
        prompt = session.prompt()
        shown.append(prompt.text)
        shown += [o.label for o in prompt.options]
        shown += [m for m in (prompt.objective,) if m is not None]
        shown += [controller.meaning(a) for a in TableAction]
        shown += view_labels(session.view())
        if prompt.kind is PromptKind.OVER:
            break
        for _attempt in range(20):
            try:
                events = session.submit(random_answer(prompt, rng))
            except InvalidInput as refused:
                shown.append(refused.reason)
                continue
            shown += [e.text for e in events]
            break
        else:
            break
    return shown


def view_labels(view: dict[str, Any]) -> list[str]:
    """The fixed labels of the screen's panels and gauge, which the screen translates
    as they are; numbered names ("Player 2", "Barbarian (1)") are left to the data."""
    labels = [view.get("gauge", {}).get("label", "")]
    for panel in view.get("panels", ()):
        labels += [panel.get("title", "")] + [row[0] for row in panel.get("rows", ())]
    return [t for t in labels if isinstance(t, str) and t and not any(c.isdigit() for c in t)]


def _missing(messages: list[Msg | str], spanish: dict[str, str]) -> set[str]:
    missing = set()
    for message in messages:
        if isinstance(message, Msg):
            missing |= {m for m in _nested(message) if m not in spanish}
        elif message not in spanish:
            missing.add(message)
    return missing


def _nested(message: Msg) -> list[str]:
    """The template and any Msg passed as an argument (translated too)."""
    found = [message.text]
    for value in message.args.values():
        if isinstance(value, Msg):
            found += _nested(value)
    return found


@pytest.mark.parametrize("game_id", sorted(g for g in games() if not g.startswith("test-")))
def test_spanish_covers_what_each_game_says(game_id: str, isolated_data: Path) -> None:
    """Every prompt, option, event, refusal and panel label met in random play has a
    Spanish text."""
    spanish = catalogue("es")
    store = Store.in_dir(isolated_data)
    missing = _missing([games()[game_id].title], spanish)  # shown on the home screen
    for seed in (1, 2, 3):
        session = TableSession.start(store, game_id, seed)
        missing |= _missing(play_randomly(session, random.Random(seed), STEPS), spanish)
    assert not missing, f"{game_id}: no Spanish for {sorted(missing)}"


def _ui_texts() -> set[str]:
    """Every literal the screens pass to ``msg(...)``."""
    texts = set()
    for path in UI.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "msg"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                texts.add(node.args[0].value)
    return texts


def test_spanish_covers_every_screen_text() -> None:
    texts = _ui_texts()
    assert len(texts) > 40, "the scan found too few texts: is ui/ where it should be?"
    missing = sorted(t for t in texts if t not in catalogue("es"))
    assert not missing, f"ui/i18n/es.toml lacks {missing}"


def test_translations_keep_their_arguments() -> None:
    """A translation that renames or drops {an argument} would crash or mislead."""
    formatter = string.Formatter()

    def fields(text: str) -> set[Any]:
        return {name for _, name, _, _ in formatter.parse(text) if name}

    wrong = {
        english: spanish
        for english, spanish in catalogue("es").items()
        if fields(english) != fields(spanish)
    }
    assert not wrong, f"arguments differ: {wrong}"


# --- every word in view() ------------------------------------------------------------

#: view keys whose values are not words for people (ids, states, dice faces), with why
NOT_WORDS = {
    "id": "an id (a card's, a node's): the screen shows the name beside it",
    "actor": "who acts (player/boss/table): the screen shows it as a colour",
    "stage": "the game's state machine step, for tools and tests",
    "phase": "the game's state machine step, for tools and tests",
    "kind": "a machine kind (portal-crawl, zombie...): the name is shown elsewhere",
    "mode": "a mode id (one-shot, coop...): the panels show it in words",
    "difficulty": "a difficulty id (easy, hard...): the panels show it in words",
    "boss": "a Boss id (moon_elf...) when a string: the gauge shows the name",
    "opponent": "an opponent id (vault-witch...): the panels show the name",
    "class": "a hero class id (fighter...): the panels show the hero's name",
    "size": "a monster size id (small, mini_boss...)",
    "specials": "monster special ids (sweep, flight...): events say them in words",
    "next_room": "room ids of the dungeon deck",
    "room_effects": "Mini Dungeon event ids in play (cards[] shows their titles and texts)",
    "party_cards": "Mini Dungeon event card ids (cards[] shows their titles and texts)",
    "boss_cards": "Mini Dungeon event card ids (cards[] shows their titles and texts)",
    "winner": "who won, an id (player, boss, heroes...)",
    "outcome": "how the game ended, an id",
    "active": "the id of the acting player",
    "hexed": "the id of the hexed player",
    "holder": "the id of the Nevermore holder",
    "defeated": "ids of the defeated players (the panels say it in words)",
    "dice": "dice faces as read (sword, 6...): the tray draws them as dice",
    "pool": "dice colours of a pool: drawn as dice",
    "on_top": "node ids of the minion tree",
    "path": "node ids of the minion tree",
    "side": "the minion tree's side id (L/R)",
}
#: whole paths that are not words for people, with why
NOT_WORDS_AT = {
    "tree.text": "the Minion Rush tree as ASCII for the terminal (the screen draws view()['tree'])",
    "heroes.opponent-*": "Raveness: each opponent's hero id (the panels show the name)",
    "attempt.card.*": "Dicequest: the card as a data record (the panel and cards[] show it)",
}
SHOWN_STEPS = 200


#: keys a panel-less view's table panel leaves out (ui/game_screen.py _generic_panels)
NOT_IN_TABLE_PANEL = ("gauge", "turn", "cards", "history", "result", "tree")
EMPTY = ({}, [], None, "")  # values that panel leaves out too


def view_words(view: Any, path: str = "", keys_shown: bool = False) -> list[tuple[str, Any]]:
    """Every string of ``view`` a person may read, with where it is. Keys are words
    too in a view without panels: the screen shows them as labels (a top-level
    mapping's own key excepted: its items become the rows)."""
    found: list[tuple[str, Any]] = []
    if isinstance(view, dict):
        for key, value in view.items():
            if key in NOT_WORDS and not isinstance(value, dict):
                continue
            where = f"{path}.{key}" if path else str(key)
            if any(fnmatch(where, pattern) for pattern in NOT_WORDS_AT):
                continue
            top = not path
            hidden = key in NOT_IN_TABLE_PANEL or isinstance(value, dict) or value in EMPTY
            if keys_shown and not (top and hidden):
                found.append((where + " (key)", key))
            found += view_words(value, where, keys_shown)
    elif isinstance(view, (list, tuple)):
        for value in view:
            found += view_words(value, path + "[]", keys_shown)
    elif isinstance(view, str):
        found.append((path, view))
    return found


def untranslated(text: str | Msg, spanish: dict[str, str]) -> list[str]:
    """What of ``text`` would stay English on a Spanish screen: a plain string is looked
    up whole; a ``Text`` (or ``Msg``) needs its template and every word argument."""
    message = getattr(text, "msg", text)
    if isinstance(message, Msg):
        literal = "".join(part for part, *_ in string.Formatter().parse(message.text))
        wrong = [] if message.text in spanish or not _is_words(literal) else [message.text]
        for value in message.args.values():
            if isinstance(value, (str, Msg)):
                wrong += untranslated(value, spanish)
        return wrong
    return [] if not _is_words(message) or message in spanish else [message]


def _is_words(text: str) -> bool:
    """Letters make words; "5/5", "+3", "—", "{first}; {then}" and "" are not."""
    return any(c.isalpha() for c in text)


def long_game_answer(prompt: Prompt, rng: random.Random) -> Input:
    """A random answer, with numbers mostly small: damage then comes in small amounts,
    so a Boss lives for several turns and his cards reach the screen."""
    if prompt.kind is PromptKind.NUMBER and rng.random() < 0.85:
        low, high = prompt.number_range or (0, 10)
        return Input.enter(rng.randint(low, min(high, low + 3)))
    return random_answer(prompt, rng)


def shown_views(game_id: str, seed: int, steps: int = SHOWN_STEPS) -> list[dict[str, Any]]:
    """The views a random game goes through."""
    game = games()[game_id](seed, {})
    rng = random.Random(seed)
    views = [game.view()]
    for _ in range(steps):
        prompt = game.prompt()
        if prompt.kind is PromptKind.OVER:
            break
        for _attempt in range(20):
            try:
                game.apply(long_game_answer(prompt, rng))
            except InvalidInput:
                continue
            break
        else:
            break
        views.append(game.view())
    return views


def untranslated_in_views(game_id: str, seeds: tuple[int, ...]) -> dict[str, str]:
    """English left on a Spanish screen: text -> where in view() it was met."""
    spanish = catalogue("es")
    missing: dict[str, str] = {}
    for seed in seeds:
        for view in shown_views(game_id, seed):
            for where, text in view_words(view, keys_shown="panels" not in view):
                translate(text, "es")  # a Spanish template must fit its arguments
                for english in untranslated(text, spanish):
                    missing.setdefault(english, where)
    return missing


@pytest.mark.parametrize("game_id", sorted(g for g in games() if not g.startswith("test-")))
def test_spanish_covers_every_word_of_each_view(game_id: str) -> None:
    """Every string of view() met in random play (panels, cards, gauge, names, and the
    keys of a view without panels) is Spanish on a Spanish screen: a catalogue key,
    or a Text whose template and word arguments are. Only NOT_WORDS are left out."""
    missing = untranslated_in_views(game_id, (1, 2, 3, 4, 5, 6))
    assert not missing, f"{game_id}: {len(missing)} English texts in view(): {missing}"


def test_view_check_finds_english() -> None:
    """The check itself: a composed English string, a Text with an untranslated word
    argument and an unknown key of a panel-less view are all caught; ids are not."""
    spanish = catalogue("es")
    view = {
        "panels": [{"title": "Player 2", "actor": "player", "rows": [["Health", 3]]}],
        "cards": [{"title": Text("Player {n}", n=2), "text": Text("{a}", a="Unknown thing")}],
        "stage": "combat",
    }
    found = {e for _, t in view_words(view) for e in untranslated(t, spanish)}
    assert found == {"Player 2", "Unknown thing"}
    keys = {e for _, t in view_words({"zzz": 1}, keys_shown=True) for e in untranslated(t, spanish)}
    assert keys == {"zzz"}
    assert untranslated(Text(msg("Turn {n}", n=3)), spanish) == []


def test_text_is_json_english_and_translates() -> None:
    """A view's Text dumps and compares as its English (saved views, --json, tests that
    compare views keep working) and a screen translates it with its arguments."""
    import json

    name = Text("{hero} ({i})", hero=msg("Barbarian"), i=2)
    assert name == "Barbarian (2)" and json.dumps({"name": name}) == '{"name": "Barbarian (2)"}'
    assert translate(name, "es") == "Bárbaro (2)"
    assert translate(Text(msg("Turn {n}", n=Text("Player {n}", n=2))), "es") == "Turno Jugador 2"


def test_catalogues_agree_on_shared_words() -> None:
    """All packages' catalogues merge into one (device/i18n.py), so two packages giving
    one English text different Spanish would let one game show the other's words."""
    import tomllib

    root = Path(__file__).resolve().parents[1]
    first: dict[str, tuple[str, str]] = {}
    clashes = []
    for path in sorted(root.glob("*/i18n/es.toml")) + sorted(root.glob("rules/*/i18n/es.toml")):
        for english, spanish in tomllib.loads(path.read_text(encoding="utf-8")).items():
            where = str(path.relative_to(root))
            seen = first.setdefault(english, (where, spanish))
            if seen[1] != spanish:
                clashes.append(f"{english!r}: {seen} vs {(where, spanish)}")
    assert not clashes, clashes
