"""Shared fixtures. Every test gets its own data folder and config path, so nothing
touches the developer's saved games."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture(autouse=True)
def isolated_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "data"
    monkeypatch.setenv("DICETABLE_DATA", str(data))
    monkeypatch.setenv("DICETABLE_CONFIG", str(tmp_path / "config.toml"))
    return data


@pytest.fixture
def shared_dir() -> Path:
    """../shared beside the checkout (the rulebooks, references and photos)."""
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is absent: the shared rulebooks and datasets are not here")
    return SHARED
