"""Kivy's style.kv from a cache (ui/kv_cache.py): the rules a boot loads from it are
the rules Kivy parses, a damaged cache is parsed again, and the app draws the same
home screen with and without it (issue 10, item 3: boot to screen)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from app_process import app_env

from dicetable.ui.kv_cache import CACHE_NAME

RULES = """
import json, sys
import kivy.config
from dicetable.ui import kv_cache
if sys.argv[1] == "cached":
    assert kv_cache.install()
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.lang.parser import global_idmap

def rule(r):
    if r is None:
        return None
    return {
        "name": r.name,
        "properties": {k: p.value for k, p in r.properties.items()},
        "handlers": [(h.name, h.value) for h in r.handlers],
        "children": [rule(c) for c in r.children],
        "canvas": [rule(c) for c in (r.canvas_before, r.canvas_root, r.canvas_after)],
    }

print(json.dumps({
    "rules": [[selector.key, rule(r)] for selector, r in Builder.rules],
    "factory": sorted(Factory.classes),
    "imports": "kivy" in global_idmap,
}))
"""


def kivy_rules(tmp_path: Path, mode: str) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", RULES, mode],
        env=app_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(result.stdout.splitlines()[-1])


def test_rules_from_the_cache_are_the_rules_kivy_parses(tmp_path: Path) -> None:
    parsed = kivy_rules(tmp_path, "plain")
    assert len(parsed["rules"]) > 50 and parsed["imports"]
    cache = tmp_path / "kivy" / CACHE_NAME
    assert not cache.exists()
    assert kivy_rules(tmp_path, "cached") == parsed  # parsed, and written
    assert cache.stat().st_size > 10_000
    written = cache.stat().st_mtime_ns
    assert kivy_rules(tmp_path, "cached") == parsed  # read
    assert cache.stat().st_mtime_ns == written


@pytest.mark.parametrize("content", [b"", b"not a pickle", b"\x80\x05K\x01."])
def test_a_damaged_or_foreign_cache_is_parsed_again(tmp_path: Path, content: bytes) -> None:
    parsed = kivy_rules(tmp_path, "plain")
    cache = tmp_path / "kivy" / CACHE_NAME
    cache.write_bytes(content)
    assert kivy_rules(tmp_path, "cached") == parsed
    assert cache.read_bytes() != content  # written anew


def home_picture(tmp_path: Path, name: str) -> np.ndarray:
    import cv2

    folder = tmp_path / name
    subprocess.run(
        [sys.executable, "-m", "dicetable.device.cli", "run", "--screenshot", str(folder),
         "--seconds", "2"],
        env=app_env(tmp_path),
        capture_output=True,
        timeout=120,
        check=True,
    )  # fmt: skip
    return cv2.imread(str(folder / "first.png"))


def test_the_home_screen_is_drawn_the_same_from_the_cache(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('[camera]\nsource = "none"\n')
    cold = home_picture(tmp_path, "cold")
    assert (tmp_path / "kivy" / CACHE_NAME).exists()
    warm = home_picture(tmp_path, "warm")
    assert cold.shape == warm.shape == (480, 800, 3)
    assert (cold != warm).any(axis=2).mean() < 0.001
