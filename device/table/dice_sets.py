"""Which dice profile reads a roll: the set the prompt names, when it is taught here.

A roll names the dice it is thrown with (``DiceRequest.profile``). Taught on this
table (``<data_dir>/profiles/``), the tray reads with that profile; otherwise with the
configured one, and the set is remembered as waiting, so the players can be told to
teach it and the teach chooser lists it first.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from dicetable.device.table.teach import TAUGHT_D6
from dicetable.rules.core import Msg
from dicetable.rules.registry import dice_sets

log = logging.getLogger(__name__)


def title_of(profile: str, data_dir: Path) -> Msg | str:
    """The dice set's title as the games name it (the profile's name when none does)."""
    known = {dice.profile: dice.title for dice in dice_sets(data_dir)}
    return known.get(profile, profile)


@dataclass
class DiceSetChoice:
    """The choice of profile, and the sets a roll waited for that are not taught."""

    waiting: set[str] = field(default_factory=set)  # named by a prompt, not taught here

    def profile_for(self, wanted: str, configured: str, data_dir: Path) -> tuple[str, str | None]:
        """The profile to read a roll asking for ``wanted`` with (``configured``: the
        settings' ``vision.profile``), and the set the
        game waits for (None: nothing to teach). The plain ``d6`` a game asks for
        means the configured profile, or the table's own pip dice when they were
        taught (``taught-d6``) and nothing else is configured."""
        from dicetable.vision.profiles import list_profiles

        taught = list_profiles(data_dir)
        if not wanted or wanted in ("d6", configured):
            if configured == "d6" and wanted in ("", "d6") and TAUGHT_D6 in taught:
                return TAUGHT_D6, None
            return configured, None
        if wanted in taught:
            return wanted, None
        if wanted not in self.waiting:
            self.waiting.add(wanted)
            log.info(
                "dice profile %r is not taught in %s; reading with %r",
                wanted,
                data_dir / "profiles",
                configured,
            )
        return configured, wanted

    def taught(self, name: str) -> None:
        """``name`` was just taught: no roll waits for it any more."""
        self.waiting.discard(name)
