"""The fan-made Dice Throne solo mode (Moonloop / Phil_Ntl, v3.2), with dicetable as
the boss: the player rolls the boss's dice in the tray, the engine says which to keep,
reads the result, picks the ability and applies it; the player's own turn is reported.

The rules live in one module per part of the rulebook (see ``solo_state``); this one
puts them together into the game and holds the prompt/apply loop, the result and the
view. Readings where the rulebook is silent are listed in README.md.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from dicetable.rules.core import (
    Actor,
    Event,
    Game,
    Input,
    InvalidInput,
    Prompt,
    PromptKind,
    expect,
    msg,
)
from dicetable.rules.dicethrone.back_strike import BackStrike
from dicetable.rules.dicethrone.boss_turn import BossTurn
from dicetable.rules.dicethrone.decks import ActionCard, AICard, Decks, tokens
from dicetable.rules.dicethrone.health import Health
from dicetable.rules.dicethrone.heroes import Hero
from dicetable.rules.dicethrone.kings_hand import KingsHand
from dicetable.rules.dicethrone.offensive_roll import ROLL_ATTEMPTS, OffensiveRoll
from dicetable.rules.dicethrone.player_turn import PlayerTurn
from dicetable.rules.dicethrone.solo_setup import BOSSES, DIFFICULTIES, Setup
from dicetable.rules.dicethrone.solo_state import (
    BOSS_HEALTH,
    MAX_CP,
    PLAYER_HEALTH,
    Side,
    Step,
)

__all__ = ["BOSSES", "BOSS_HEALTH", "MAX_CP", "PLAYER_HEALTH", "DiceThroneSolo"]


class DiceThroneSolo(
    Setup, PlayerTurn, KingsHand, BossTurn, OffensiveRoll, BackStrike, Health, Game
):
    id = "dicethrone-solo"
    title = "Dice Throne: fan-made solo mode (v3.2)"
    #: "ask" (the default) asks at the table; a value skips that setup question
    options_allowed: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "boss": ("ask", *BOSSES),
        "difficulty": ("ask", *DIFFICULTIES),
    }

    def __init__(self, seed: int, options: dict[str, str] | None = None) -> None:
        super().__init__(seed, options)
        self.rng = random.Random(seed)
        self.boss_id = ""
        self.hero: Hero | None = None
        self.decks: Decks | None = None
        self.difficulty = ""
        self.d = 0
        self.levels: dict[str, int] = {}
        self.boss = Side(BOSS_HEALTH, 0, {"kings-hand": 2})  # 2.2.1
        self.player = Side(PLAYER_HEALTH, 2)  # 2.1: 50 Health, 2 CP, no bonus tokens
        self.salve = 0
        self.bonus_damage = 0
        self.back_strike = False
        self.ai_pile: list[int] = []
        self.ai_discard: list[int] = []
        self.action_pile: list[int] = []
        self.action_discard: list[int] = []
        self.ai_card: AICard | None = None
        self.action_card: ActionCard | None = None
        self.action_used = False
        self.cards: list[dict[str, str]] = []
        self.turn = 0
        self.dice: list[int] = []
        self.attempt = 0
        self.attempts = ROLL_ATTEMPTS
        self.winner = ""
        boss, difficulty = self.options["boss"], self.options["difficulty"]
        self.queue: list[Step] = [
            ("boss", {}) if boss == "ask" else ("set_boss", {"boss": boss}),
            ("difficulty", {})
            if difficulty == "ask"
            else ("set_difficulty", {"level": difficulty}),
        ]
        self._events: list[Event] = []
        # the last prompt, for the step object it was built for (prompt() is asked often)
        self._asked: tuple[Step, tuple, Prompt] | None = None
        self._advance()  # setup chosen by options runs at once
        self._events = []

    def prompt(self) -> Prompt:
        if self.winner or not self.queue:
            return Prompt(PromptKind.OVER, msg("The game is over."))
        head = self.queue[0]
        key = (
            self.attempt,
            tuple(self.dice),
            len(self.player.tokens),
            len(self.boss.tokens),
            self.boss.cp,
            self.salve,
            self.bonus_damage,
        )
        if self._asked is not None and self._asked[0] is head and self._asked[1] == key:
            return self._asked[2]
        prompt = getattr(self, f"_ask_{head[0]}")(head[1])
        self._asked = (head, key, prompt)
        return prompt

    def _ask_confirm(self, data: dict) -> Prompt:
        return Prompt(PromptKind.CONFIRM, data["text"], data.get("actor", Actor.TABLE))

    def apply(self, answer: Input) -> list[Event]:
        prompt = self.prompt()
        expect(answer, prompt)
        name, data = self.queue[0]
        values = [d.value for d in answer.dice if d.value is not None]  # expect checked 1-6
        if name == "offense" and self.attempt > 0:
            self._check_kept(values, prompt.keep)
        self._events = []
        self.queue.pop(0)
        getattr(self, f"_on_{name}")(data, answer, values)
        self._advance()
        events, self._events = self._events, []
        return events

    def _check_kept(self, values: list[int], keep: tuple[int, ...]) -> None:
        kept = Counter(self.dice[i] for i in keep)
        if kept - Counter(values):
            shown = " ".join(str(self.dice[i]) for i in keep)
            raise InvalidInput(msg("The kept dice ({kept}) must still be in the roll.", kept=shown))

    def _advance(self) -> None:
        while self.queue and not self.winner:
            name, data = self.queue[0]
            step = getattr(self, f"_run_{name}", None)
            if step is None:
                return
            self.queue.pop(0)
            step(data)
        if self.winner:
            self.queue.clear()

    def _on_confirm(self, data: dict, answer: Input, values: list[int]) -> None:
        pass

    def result(self) -> dict[str, Any] | None:
        if not self.winner:
            return None
        result: dict[str, Any] = {
            "winner": self.winner,
            "turns": self.turn,
            "boss": self.boss_id,
            "difficulty": self.difficulty,
            "player_health": self.player.health,
            "boss_health": self.boss.health,
            "mode": f"solo-{self.difficulty}",
            "party": "solo",
            "heroes": self._hero.name,
        }
        if self.winner == "player":
            result["score"] = self.player.health
        return result

    def view(self) -> dict[str, Any]:
        names = tokens()

        def rows(side: Side) -> list[list[Any]]:
            return [[names[t].name, n] for t, n in sorted(side.tokens.items())]

        boss_name = self.hero.name if self.hero else "Boss"
        boss_rows = [["Health", self.boss.health], ["CP", self.boss.cp], *rows(self.boss)]
        if self.hero:
            boss_rows += [
                ["Upgrade", self.hero.ability(a, lv).name] for a, lv in sorted(self.levels.items())
            ]
        player_rows = [
            ["Health", self.player.health],
            ["CP", self.player.cp],
            ["Salve", self.salve],
            ["Bonus Damage", self.bonus_damage],
            ["Back Strike", int(self.back_strike)],  # the face-down card: 0 or 1
            *rows(self.player),
        ]
        return {
            "gauge": {"label": boss_name, "value": self.boss.health, "max": BOSS_HEALTH},
            "turn": self.turn,
            "panels": [
                {"title": boss_name, "actor": "boss", "rows": boss_rows},
                {"title": "You", "actor": "player", "rows": player_rows},
            ],
            "cards": list(self.cards),
            "boss": self.boss_id,
            "difficulty": self.difficulty,
            "dice": list(self.dice),
            "objective": self.ai_card.objective.label if self.ai_card else None,
            "decks": {
                "ai": {"draw": len(self.ai_pile), "discard": len(self.ai_discard)},
                "action": {"draw": len(self.action_pile), "discard": len(self.action_discard)},
            },
            "winner": self.winner or None,
        }
