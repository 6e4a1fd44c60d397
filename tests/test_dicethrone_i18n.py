"""Spanish covers every message of the Dice Throne engine, the texts and names its data
files show, and keeps every argument name (brief: "Spanish translations for every
message", gettext style with identical argument names)."""

import ast
import string
import tomllib
from importlib import resources
from pathlib import Path

from dicetable.device.i18n import translate
from dicetable.rules.core import Msg, Text
from dicetable.rules.dicethrone.decks import deck_ids, load_decks, tokens
from dicetable.rules.dicethrone.heroes import hero_ids, load_hero
from dicetable.rules.dicethrone.solo import DiceThroneSolo

PACKAGE = Path(__file__).resolve().parents[1] / "rules" / "dicethrone"


def catalogue() -> dict[str, str]:
    text = resources.files("dicetable.rules.dicethrone").joinpath("i18n", "es.toml").read_text()
    return tomllib.loads(text)


def code_messages() -> set[str]:
    found = set()
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("msg", "Msg"):
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.add(first.value)
    return found


def data_texts() -> set[str]:
    found = {t.name for t in tokens().values()} | {"blue", "orange", DiceThroneSolo.title}
    for hero_id in hero_ids():
        hero = load_hero(hero_id)
        found.add(hero.name)
        found |= {a.text for a in hero.abilities if a.text}
        found |= {a.name for a in hero.abilities}
        found |= {t.objective.label for a in hero.abilities for t in a.tiers}
    for boss in deck_ids():
        decks = load_decks(boss)
        found |= {c.objective.label for c in decks.ai}
        found |= {c.name for c in decks.ai} | {c.text for c in decks.ai if c.text}
        found |= {c.name for c in decks.action}
        found |= {c.effect["text"] for c in decks.action if "text" in c.effect}
    return found


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_message_has_a_spanish_translation_with_the_same_arguments():
    spanish = catalogue()
    wanted = code_messages() | data_texts()
    assert len(wanted) > 100
    assert sorted(wanted - set(spanish)) == []
    for english, translated in spanish.items():
        assert fields(english) == fields(translated), english


def _templates(message: Msg) -> list[str]:
    found = [message.text]
    for value in message.args.values():
        if isinstance(value, (Msg, Text)):
            found += _templates(getattr(value, "msg", value))
    return found


def test_every_card_text_on_screen_is_spanish():
    """The cards in view()["cards"] (Boss AI: Roll Objective and Reinforcement; Action:
    colour, cost, effect, bonus) are Text whose every piece is in this package's es.toml,
    at every difficulty D (2.2.2), and read in Spanish."""
    spanish = catalogue()
    for boss in deck_ids():
        decks = load_decks(boss)
        for d in range(4):
            for card in (*decks.ai, *decks.action):
                text = card.describe(d)
                assert isinstance(text, Text)
                assert [t for t in _templates(text.msg) if t not in spanish] == []
                assert translate(text, "es") != str(text)
    ai = load_decks("barbarian").ai[0].describe(2)
    assert ai == "Roll Objective: 3 sword. Reinforcement: the Boss gains 2 King's Hand."
    assert translate(ai, "es") == (
        "Objetivo de Tirada: 3 espadas. Refuerzo: el Jefe gana 2 Mano del Rey."
    )
