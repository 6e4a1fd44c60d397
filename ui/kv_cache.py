"""Kivy's own rules (``kivy/data/style.kv``) parsed once, not at every boot.

``import kivy.lang`` parses style.kv, about 1300 lines of kv language whose Python
expressions are compiled one by one: 0.08-0.2 s here, several times that on a Pi 4,
all of it before the first frame. The result never changes for one Kivy, so the
parsed rules are kept in a pickle under ``KIVY_HOME`` (written on the first boot,
keyed by Kivy's version, Python's and the text of style.kv) and later boots load
them in a few milliseconds.

``install()`` must run before the first ``import kivy.lang`` (``dicetable run``
calls it while it configures Kivy). It wraps the one place style.kv goes through,
``kivy.lang.parser.Parser``, as the module is imported; any other kv is parsed as
usual. A cache that cannot be read or written is ignored: Kivy parses, as it would
without it.
"""

from __future__ import annotations

import contextlib
import copyreg
import hashlib
import importlib.machinery
import logging
import marshal
import os
import pickle
import sys
import types
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

CACHE_NAME = "dicetable-style-kv.pickle"
#: what a Parser holds after parsing (``kivy.lang.parser.Parser.__slots__``)
PARTS = ("rules", "templates", "dynamic_classes", "directives", "root", "sourcecode")


def install(cache_dir: Path | None = None) -> bool:
    """Cache style.kv's parse from now on; False when ``kivy.lang`` is already
    imported (too late: it has been parsed)."""
    if "kivy.lang.parser" in sys.modules:
        return False
    if cache_dir is None:
        import kivy

        cache_dir = Path(kivy.kivy_home_dir)
    sys.meta_path.insert(0, _ParserHook(cache_dir / CACHE_NAME))
    return True


class _ParserHook:
    """Finds ``kivy.lang.parser`` like the path finder would, and wraps its Parser
    once the module has run, before ``kivy.lang.builder`` parses style.kv with it."""

    def __init__(self, cache: Path) -> None:
        self.cache = cache

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "kivy.lang.parser":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        run = spec.loader.exec_module
        cache = self.cache

        def exec_module(module: types.ModuleType) -> None:
            run(module)
            _cache_style(module.Parser, cache)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def _cache_style(parser_class: type, cache: Path) -> None:
    """Wrap ``Parser.__init__`` in place (Kivy's own methods name the class through
    their module, so a subclass standing in for it would call itself)."""
    import kivy

    style = os.path.join(kivy.kivy_data_dir, "style.kv")
    parse = parser_class.__init__

    def __init__(self: Any, **kwargs: Any) -> None:
        content = kwargs.get("content")
        if kwargs.get("filename") != style or not isinstance(content, str):
            parse(self, **kwargs)
            return
        key = _key(content)
        parts = _load(cache, key)
        if parts is None:
            parse(self, **kwargs)
            _save(cache, key, {part: getattr(self, part) for part in PARTS})
            return
        for part in PARTS:
            setattr(self, part, parts[part])
        self.filename = style
        self.execute_directives()  # `#:kivy` and `#:import`, as a parse does

    parser_class.__init__ = __init__


def _key(content: str) -> str:
    import kivy

    text = f"{kivy.__version__}|{sys.version}|{content}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class _Pickler(pickle.Pickler):
    """Pickles code objects (the rules' compiled expressions) through marshal."""

    dispatch_table = copyreg.dispatch_table.copy()
    dispatch_table[types.CodeType] = lambda code: (marshal.loads, (marshal.dumps(code),))


def _load(cache: Path, key: str) -> dict[str, Any] | None:
    try:
        with cache.open("rb") as handle:
            stored = pickle.load(handle)
    except FileNotFoundError:
        return None
    except Exception as error:  # a damaged or foreign file: parse, and write it anew
        log.warning("kv cache %s not used: %s", cache, error)
        return None
    if not isinstance(stored, dict) or stored.get("key") != key:
        return None  # another Kivy or Python: parse, and write it anew
    return stored.get("parts")


def _save(cache: Path, key: str, parts: dict[str, Any]) -> None:
    temporary = cache.with_suffix(".tmp")
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        with temporary.open("wb") as handle:
            _Pickler(handle, protocol=pickle.HIGHEST_PROTOCOL).dump({"key": key, "parts": parts})
        os.replace(temporary, cache)
    except Exception as error:  # a read-only card: no cache, parse at every boot
        log.info("kv cache %s not written: %s", cache, error)
        with contextlib.suppress(OSError):
            temporary.unlink()
