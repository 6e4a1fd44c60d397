"""What the screen shows: the table, each player's side, the Quest in play and the
Threat gauge for the LED ring (``Game.view``)."""

from __future__ import annotations

from typing import Any

from dicetable.rules.core import Msg, Text, msg
from dicetable.rules.dicequest import (
    adventure_path,
    combat_step,
    game_setup,
    quest_status,
    threat_phase,
    wound_step,
)
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


def view(s: TableState) -> dict[str, Any]:
    """Every word for people is a catalogue key or a ``Text``, so a Spanish screen
    shows Spanish; ids (stage, mode, faces) stay as they are for tools."""
    panels: list[dict[str, Any]] = [
        {
            "title": "Table",
            "actor": "table",
            "rows": [
                ["Mode", MODE_WORDS.get(s.mode, "-")],
                [
                    "Difficulty",
                    DIFFICULTY_WORDS[s.difficulty] if s.mode == "coop" else "-",
                ],
                ["Round", Text("{n} of {total}", n=s.round, total=adventure_path.ROUNDS)],
                ["Act", s.act],
                ["Adventure", Text(card_title(s.adventure)) if s.adventure else "-"],
                ["Threat card", Text(card_title(s.threat)) if s.threat else "-"],
                ["Threat on the Adventure", Text(threat_phase.adventure_tokens_text(s))],
                ["Threat for Act III", Text(tokens_text(s.act3_tokens))],
                [
                    "Gold on Quests",
                    Text(
                        listing(
                            [
                                msg("{name}: {n}", name=known_card_title(s, k), n=n)
                                for k, n in sorted(s.quest_gold.items())
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
                                msg("{name}: {n}", name=known_card_title(s, k), n=token_text(t))
                                for k, t in sorted(s.quest_threat.items())
                            ],
                            "; ",
                            empty="none",
                        )
                    ),
                ],
                [
                    "Board actions",
                    Text(
                        listing([msg(a) for a in adventure_path.board_actions(s)], "; ", "none yet")
                    ),
                ],
                [
                    "Heroes to recruit",
                    "Legendary Heroes" if s.act >= 3 else "Apprentice Heroes",
                ],
            ],
        }
    ]
    if s.mode == "coop":
        panels[0]["rows"].append(["Minimum VP", game_setup.DIFFICULTY_VP[s.difficulty]])
    for player in s.players:
        rows: list[list[Any]] = [
            ["Reroll token", "active" if player.reroll_active else "used"],
            ["VP", player.total_vp()],
            [
                "Quests",
                Text(listing([quest_title(s, q) for q in player.quests], empty="none")),
            ],
            ["VP tokens", player.vp_tokens],
        ]
        rows += [[Text("Hero {n}", n=i + 1), Text(h.label())] for i, h in enumerate(player.heroes)]
        panels.append({"title": Text(player.title()), "actor": "player", "rows": rows})
    attempt_view = None
    if s.attempt is not None:
        attempt = s.attempt
        light, deadly, unblockable = wound_step.open_wounds(s) if attempt.rolled else (0, 0, 0)
        heroes = s.player.heroes
        active = [heroes[i].name for i in attempt.active if i < len(heroes)]
        attempt_view = {
            "card": attempt.card.to_json(),
            "active": active,
            "pool": list(attempt.pool),
            "dice": [d.to_json() for d in attempt.dice],
            "symbols": dict(quest_status.symbols(s)),
            "bonus_runes": attempt.bonus_runes,
            "missing": quest_status.missing_symbols(s) if attempt.rolled else {},
            "could_supply": quest_status.missing_suppliers(s) if attempt.rolled else {},
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
                    ["Symbols", Text(symbols_text(quest_status.symbols(s)))],
                    ["Missing", Text(quest_status.missing_text(s)) if attempt.rolled else "-"],
                    [
                        "Wounds",
                        Text(
                            "{light} light, {deadly} deadly, {unblockable} unblockable",
                            light=light,
                            deadly=deadly,
                            unblockable=unblockable,
                        ),
                    ],
                    ["Runes to spend", len(combat_step.runes_ready(s)) + attempt.bonus_runes],
                    ["Light Wounds prevented", attempt.prevented],
                    ["Active Heroes", Text(listing([msg(n) for n in active], empty="none"))],
                ],
            }
        )
    gauge = None
    if s.mode == "coop" and s.adventure is not None:
        left = len(s.adventure_tokens)
        gauge = {
            "label": "Threat on the Adventure",
            "value": left,
            "max": max(left, s.threat_placed, 1),
        }
    view: dict[str, Any] = {
        "turn": s.round,
        "stage": s.stage,
        "player": s.player.number if s.players and s.stage != "over" else None,
        "panels": panels,
        "cards": [{"title": c["title"], "text": c["text"]} for c in s.recent],
        "players": [p.to_json() for p in s.players],
        "attempt": attempt_view,
        "adventure_scores": {str(k): v for k, v in s.adventure_scores.items()},
        "dice_faces": s.dice.to_json(),
        "outcome": s.outcome,
    }
    if gauge is not None:  # the LED ring shows the Threat left like a boss's health
        view["gauge"] = gauge
    return view


def known_card_title(s: TableState, card_id: str) -> Msg:
    card = s.cards.get(card_id)
    return card_title(card) if card is not None else msg(card_id)


def quest_title(s: TableState, name: str) -> Msg:
    """A Quest in a player's Achievements Zone (kept by name) as the events name it."""
    card = next((c for c in s.cards.values() if c.name == name), None)
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
