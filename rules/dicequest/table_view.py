"""What the screen shows: the table, each player's side, the Quest in play and the
Threat gauge for the LED ring (``Game.view``)."""

from __future__ import annotations

from typing import Any

from dicetable.rules.core import Msg, Text, msg
from dicetable.rules.dicequest.adventure_path import ROUNDS
from dicetable.rules.dicequest.game_setup import DIFFICULTY_VP
from dicetable.rules.dicequest.state import TableState
from dicetable.rules.dicequest.words import (
    card_title,
    listing,
    needs_text,
    pool_text,
    symbols_text,
    token_text,
    tokens_text,
)


class TableView(TableState):
    """``view()``; a mixin of ``Dicequest``."""

    def view(self) -> dict[str, Any]:
        """Every word for people is a catalogue key or a ``Text``, so a Spanish screen
        shows Spanish; ids (stage, mode, faces) stay as they are for tools."""
        panels = [
            {
                "title": "Table",
                "actor": "table",
                "rows": [
                    ["Mode", MODE_WORDS.get(self.mode, "-")],
                    [
                        "Difficulty",
                        DIFFICULTY_WORDS[self.difficulty] if self.mode == "coop" else "-",
                    ],
                    ["Round", Text("{n} of {total}", n=self.round, total=ROUNDS)],
                    ["Act", self.act],
                    ["Adventure", Text(card_title(self.adventure)) if self.adventure else "-"],
                    ["Threat card", Text(card_title(self.threat)) if self.threat else "-"],
                    ["Threat on the Adventure", Text(self._tokens_text())],
                    ["Threat for Act III", Text(tokens_text(self.act3_tokens))],
                    [
                        "Gold on Quests",
                        Text(
                            listing(
                                [
                                    msg("{name}: {n}", name=self._card_title(k), n=n)
                                    for k, n in sorted(self.quest_gold.items())
                                ],
                                empty="none",
                            )
                        ),
                    ],
                    [
                        "Threat on Quests",
                        Text(
                            listing(
                                [
                                    msg("{name}: {n}", name=self._card_title(k), n=token_text(t))
                                    for k, t in sorted(self.quest_threat.items())
                                ],
                                "; ",
                                empty="none",
                            )
                        ),
                    ],
                    [
                        "Board actions",
                        Text(listing([msg(a) for a in self._board_actions()], "; ", "none yet")),
                    ],
                    [
                        "Heroes to recruit",
                        "Legendary Heroes" if self.act >= 3 else "Apprentice Heroes",
                    ],
                ],
            }
        ]
        if self.mode == "coop":
            panels[0]["rows"].append(["Minimum VP", DIFFICULTY_VP[self.difficulty]])
        for player in self.players:
            rows: list[list[Any]] = [
                ["Reroll token", "active" if player.reroll_active else "used"],
                ["VP", player.total_vp()],
                [
                    "Quests",
                    Text(listing([self._quest_title(q) for q in player.quests], empty="none")),
                ],
                ["VP tokens", player.vp_tokens],
            ]
            rows += [
                [Text("Hero {n}", n=i + 1), Text(h.label())] for i, h in enumerate(player.heroes)
            ]
            panels.append({"title": Text(player.title()), "actor": "player", "rows": rows})
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
            dice = [
                msg(
                    "{color}:{face} (locked)" if d.locked else "{color}:{face}",
                    color=msg(d.color),
                    face=msg(d.face),
                )
                for d in attempt.dice
            ]
            panels.append(
                {
                    "title": Text(card_title(attempt.card)),
                    "actor": "boss",
                    "rows": [
                        ["Needs", Text(needs_text(attempt.card))],
                        ["Dice", Text(listing(dice) if dice else pool_text(attempt.pool))],
                        ["Symbols", Text(symbols_text(self._symbols()))],
                        ["Missing", Text(self._missing_text()) if attempt.rolled else "-"],
                        [
                            "Wounds",
                            Text(
                                "{light} light, {deadly} deadly, {unblockable} unblockable",
                                light=light,
                                deadly=deadly,
                                unblockable=unblockable,
                            ),
                        ],
                        ["Runes to spend", len(self._runes_ready()) + attempt.bonus_runes],
                        ["Light Wounds prevented", attempt.prevented],
                        ["Active Heroes", Text(listing([msg(n) for n in active], empty="none"))],
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

    def _card_title(self, card_id: str) -> Msg:
        card = self.cards.get(card_id)
        return card_title(card) if card is not None else msg(card_id)

    def _quest_title(self, name: str) -> Msg:
        """A Quest in a player's Achievements Zone (kept by name) as the events name it."""
        card = next((c for c in self.cards.values() if c.name == name), None)
        return card_title(card) if card is not None else msg(name)


#: the words a panel shows for the setup choices (the choices themselves stay ids)
MODE_WORDS = {"coop": "Co-op", "competitive": "Competitive"}
DIFFICULTY_WORDS = {
    "practice": "Practice",
    "normal": "Normal",
    "hard": "Hard",
    "heroic": "Heroic",
    "legendary": "Legendary",
    "godly": "Godly",
}
