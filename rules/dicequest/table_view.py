"""What the screen shows: the table, each player's side, the Quest in play and the
Threat gauge for the LED ring (``Game.view``)."""

from __future__ import annotations

from typing import Any

from dicetable.rules.dicequest.adventure_path import ROUNDS
from dicetable.rules.dicequest.game_setup import DIFFICULTY_VP
from dicetable.rules.dicequest.state import TableState
from dicetable.rules.dicequest.words import (
    needs_text,
    pool_text,
    symbols_text,
    token_text,
    tokens_text,
)


class TableView(TableState):
    """``view()``; a mixin of ``Dicequest``."""

    def view(self) -> dict[str, Any]:
        panels = [
            {
                "title": "Table",
                "actor": "table",
                "rows": [
                    ["Mode", self.mode or "-"],
                    ["Difficulty", self.difficulty if self.mode == "coop" else "-"],
                    ["Round", f"{self.round} of {ROUNDS}"],
                    ["Act", self.act],
                    ["Adventure", self.adventure.name if self.adventure else "-"],
                    ["Threat card", self.threat.name if self.threat else "-"],
                    ["Threat on the Adventure", str(self._tokens_text())],
                    [
                        "Threat for Act III",
                        str(tokens_text(self.act3_tokens)),
                    ],
                    [
                        "Gold on Quests",
                        ", ".join(f"{k}: {v}" for k, v in sorted(self.quest_gold.items()))
                        or "none",
                    ],
                    [
                        "Threat on Quests",
                        "; ".join(
                            f"{self.cards[k].name}: {token_text(t)}"
                            for k, t in sorted(self.quest_threat.items())
                        )
                        or "none",
                    ],
                    ["Board actions", "; ".join(self._board_actions()) or "none yet"],
                    ["Heroes to recruit", "Legendary" if self.act >= 3 else "Apprentice"],
                ],
            }
        ]
        if self.mode == "coop":
            panels[0]["rows"].append(["Minimum VP", DIFFICULTY_VP[self.difficulty]])
        for player in self.players:
            rows: list[list[Any]] = [
                ["Reroll token", "active" if player.reroll_active else "used"],
                ["VP", player.total_vp()],
                ["Quests", ", ".join(player.quests) or "none"],
                ["VP tokens", player.vp_tokens],
            ]
            rows += [[f"Hero {i + 1}", str(h.label())] for i, h in enumerate(player.heroes)]
            panels.append({"title": player.name, "actor": "player", "rows": rows})
        attempt_view = None
        if self.attempt is not None:
            attempt = self.attempt
            light, deadly, unblockable = self._open_wounds() if attempt.rolled else (0, 0, 0)
            heroes = self.player.heroes
            active = [heroes[i].name for i in attempt.active if i < len(heroes)]
            attempt_view = {
                "card": attempt.card.to_json(),
                "active": active,
                "pool": list(attempt.pool),
                "dice": [d.to_json() for d in attempt.dice],
                "symbols": dict(self._symbols()),
                "bonus_runes": attempt.bonus_runes,
                "missing": self._missing() if attempt.rolled else {},
                "could_supply": self._suppliers() if attempt.rolled else {},
                "wounds": {"light": light, "deadly": deadly, "unblockable": unblockable},
                "prevented": attempt.prevented,
            }
            panels.append(
                {
                    "title": attempt.card.name,
                    "actor": "boss",
                    "rows": [
                        ["Needs", str(needs_text(attempt.card))],
                        [
                            "Dice",
                            ", ".join(
                                f"{d.color}:{d.face}" + (" (locked)" if d.locked else "")
                                for d in attempt.dice
                            )
                            or str(pool_text(attempt.pool)),
                        ],
                        ["Symbols", str(symbols_text(self._symbols()))],
                        ["Missing", str(self._missing_text()) if attempt.rolled else "-"],
                        ["Wounds", f"{light} light, {deadly} deadly, {unblockable} unblockable"],
                        ["Runes to spend", len(self._runes_ready()) + attempt.bonus_runes],
                        ["Light Wounds prevented", attempt.prevented],
                        [
                            "Active Heroes",
                            ", ".join(active) or "none",
                        ],
                    ],
                }
            )
        gauge = None
        if self.mode == "coop" and self.adventure is not None:
            left = len(self.adventure_tokens)
            gauge = {
                "label": "Threat on the Adventure",
                "value": left,
                "max": max(left, self.threat_placed, 1),
            }
        view: dict[str, Any] = {
            "turn": self.round,
            "stage": self.stage,
            "player": self.player.number if self.players and self.stage != "over" else None,
            "panels": panels,
            "cards": [{"title": c["title"], "text": c["text"]} for c in self.recent],
            "players": [p.to_json() for p in self.players],
            "attempt": attempt_view,
            "adventure_scores": {str(k): v for k, v in self.adventure_scores.items()},
            "dice_faces": self.dice.to_json(),
            "outcome": self.outcome,
        }
        if gauge is not None:  # the LED ring shows the Threat left like a boss's health
            view["gauge"] = gauge
        return view
