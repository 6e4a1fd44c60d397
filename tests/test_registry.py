"""Games are found by folder; one broken game package never takes the others down."""

import pytest

from dicetable import rules
from dicetable.rules import registry


@pytest.fixture
def fresh_registry():
    registry._load.cache_clear()
    yield
    registry._load.cache_clear()


def test_a_broken_game_package_is_reported_and_the_rest_still_load(
    tmp_path, monkeypatch, fresh_registry, caplog
):
    package = tmp_path / "brokengame"
    package.mkdir()
    (package / "__init__.py").write_text("raise ValueError('decks/boss.toml: entry 3: no cost')\n")
    monkeypatch.setattr(rules, "__path__", [*rules.__path__, str(tmp_path)])
    assert "dice-tray" in registry.games()
    assert registry.broken() == {"brokengame": "ValueError: decks/boss.toml: entry 3: no cost"}
    assert "game package brokengame not loaded" in caplog.text
    with pytest.raises(KeyError, match="brokengame failed to load: ValueError"):
        registry.game_class("brokengame")


def test_every_shipped_game_loads(fresh_registry):
    assert registry.broken() == {}
    assert "dice-tray" in registry.games()
