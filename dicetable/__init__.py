"""dicetable: a Raspberry Pi table assistant for dice board games.

The code lives in five folders that install as this package's subpackages
(``dicetable.device`` is ``device/`` ...; see ``package-dir`` in pyproject.toml and
ARCHITECTURE.md); this folder holds only what makes ``python -m dicetable`` work.
"""
