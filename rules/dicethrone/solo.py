"""The fan-made Dice Throne solo mode (Moonloop / Phil_Ntl, v3.2), with dicetable as
the boss: the player rolls the boss's dice in the tray, the engine says which to keep,
reads the result, picks the ability and applies it; the player's own turn is reported.

The rules live in one module per part of the rulebook (see ``solo_state``), as
functions of the game's ``SoloState``; this one puts them together: ``PHASES`` names
every step of the rulebook and the functions that ask it, take its answer or make
the Boss's move, and the game runs them on its ``Flow`` (rules/flow.py). It also
holds the result and the view. Readings where the rulebook is silent are listed in
README.md.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from dicetable.rules.core import (
    Actor,
    Event,
    Input,
    InvalidInput,
    Prompt,
    PromptKind,
    expect,
    msg,
)
from dicetable.rules.dicethrone import (
    back_strike,
    boss_turn,
    health,
    kings_hand,
    offensive_roll,
    player_roll,
    player_turn,
    solo_setup,
    table_asked,
)
from dicetable.rules.dicethrone.decks import tokens
from dicetable.rules.dicethrone.heroes import hero_ids, load_hero
from dicetable.rules.dicethrone.solo_setup import BOSSES, DIFFICULTIES
from dicetable.rules.dicethrone.solo_state import (
    BOSS_HEALTH,
    MAX_CP,
    PLAYER_HEALTH,
    Asked,
    Moved,
    Side,
    SoloState,
)
from dicetable.rules.flow import FlowGame, Step

__all__ = ["BOSSES", "BOSS_HEALTH", "MAX_CP", "PHASES", "PLAYER_HEALTH", "DiceThroneSolo"]


def ask_confirm(s: SoloState, data: dict[str, Any]) -> Prompt:
    """Something done by hand at the table, confirmed when done."""
    return Prompt(PromptKind.CONFIRM, data["text"], data.get("actor", Actor.TABLE))


def on_confirm(s: SoloState, data: dict[str, Any], answer: Input, values: list[int]) -> None:
    """Done: nothing for the rules to do."""


#: every step of the game, by the name of its phase in the rulebook
PHASES: dict[str, Asked | Moved] = {
    "confirm": Asked(ask_confirm, on_confirm),
    # 2. Setup
    "boss": Asked(solo_setup.ask_boss, solo_setup.on_boss),
    "set_boss": Moved(solo_setup.run_set_boss),
    "difficulty": Asked(solo_setup.ask_difficulty, solo_setup.on_difficulty),
    "set_difficulty": Moved(solo_setup.run_set_difficulty),
    # 4. Game turn, steps 1 and 2: Salves, the Active Player's turn
    "round": Moved(player_turn.run_round),
    "salves": Asked(player_turn.ask_salves, player_turn.on_salves),
    "player_turn": Moved(player_turn.run_player_turn),
    "menu": Asked(player_turn.ask_menu, player_turn.on_menu),
    "damage": Asked(player_turn.ask_damage, player_turn.on_damage),
    "bonus": Asked(player_turn.ask_bonus, player_turn.on_bonus),
    "defense": Asked(player_turn.ask_defense, player_turn.on_defense),
    "status": Asked(player_turn.ask_status, player_turn.on_status),
    "remove": Asked(player_turn.ask_remove, player_turn.on_remove),
    "boss_cp": Asked(player_turn.ask_boss_cp, player_turn.on_boss_cp),
    "boss_token": Asked(player_turn.ask_boss_token, player_turn.on_boss_token),
    "heal": Asked(player_turn.ask_heal, player_turn.on_heal),
    "cp": Asked(player_turn.ask_cp, player_turn.on_cp),
    "ultimate_hit": Moved(player_turn.run_ultimate_hit),
    # 4. Step 2 with the player's hero known: their rolls read from the tray
    "player_offense": Asked(player_roll.ask_player_offense, player_roll.on_player_offense),
    "player_pick": Asked(player_roll.ask_player_pick, player_roll.on_player_pick),
    "player_ability_roll": Asked(
        player_roll.ask_player_ability_roll, player_roll.on_player_ability_roll
    ),
    "player_defense_roll": Asked(
        player_roll.ask_player_defense_roll, player_roll.on_player_defense_roll
    ),
    "player_upgrade": Asked(player_roll.ask_player_upgrade, player_roll.on_player_upgrade),
    "player_asked_damage": Asked(
        player_roll.ask_player_asked_damage, player_roll.on_player_asked_damage
    ),
    # 4. Game turn, step 3: the Boss's turn and his Offensive Rolling Phase
    "boss_turn": Moved(boss_turn.run_boss_turn),
    "offense": Asked(offensive_roll.ask_offense, offensive_roll.on_offense),
    "resolve": Moved(offensive_roll.run_resolve),
    "blinded": Asked(offensive_roll.ask_blinded, offensive_roll.on_blinded),
    "ability_roll": Asked(offensive_roll.ask_ability_roll, offensive_roll.on_ability_roll),
    "player_defense": Asked(offensive_roll.ask_player_defense, offensive_roll.on_player_defense),
    "counter": Asked(offensive_roll.ask_counter, offensive_roll.on_counter),
    "deal": Moved(offensive_roll.run_deal),
    # what a hero file marks as not public, read off the hero board at the table
    "asked_damage": Asked(table_asked.ask_damage, table_asked.on_damage),
    "asked_defense_damage": Asked(table_asked.ask_defense_damage, table_asked.on_defense_damage),
    "end_boss_turn": Moved(boss_turn.run_end_boss_turn),
    # 6. King's Hand and Back-Strike
    "kings_hand": Asked(kings_hand.ask_kings_hand, kings_hand.on_kings_hand),
    "ultimate_kept": Asked(kings_hand.ask_ultimate_kept, kings_hand.on_ultimate_kept),
    "back_strike": Asked(back_strike.ask_back_strike, back_strike.on_back_strike),
    "back_strike_value": Asked(back_strike.ask_back_strike_value, back_strike.on_back_strike_value),
    "back_strike_roll": Asked(back_strike.ask_back_strike_roll, back_strike.on_back_strike_roll),
    # 7. Evasive
    "evasive": Asked(health.ask_evasive, health.on_evasive),
}


class DiceThroneSolo(FlowGame, SoloState):
    """The game is its ``SoloState`` (what the rule modules read and change, passed
    to them) run by its ``Flow``."""

    id = "dicethrone-solo"
    title = "Dice Throne: fan-made solo mode (v3.2)"
    #: "ask" (the default) asks at the table; a value skips that setup question
    #: player_hero: the hero whose rolls the tray reads (any hero file, the Raveness
    #: included); by_hand, the default, has the player report their turn
    options_allowed: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "boss": ("ask", *BOSSES),
        "difficulty": ("ask", *DIFFICULTIES),
        "player_hero": (player_roll.BY_HAND, *hero_ids()),
    }

    def __init__(self, seed: int, options: dict[str, str] | None = None) -> None:
        FlowGame.__init__(self, seed, options)
        SoloState.__init__(self, rng=random.Random(seed), flow=self.flow, phases=PHASES)
        boss, difficulty = self.options["boss"], self.options["difficulty"]
        if self.options["player_hero"] != player_roll.BY_HAND:
            self.player_hero = load_hero(self.options["player_hero"])
        self.later(
            ("boss", {}) if boss == "ask" else ("set_boss", {"boss": boss}),
            ("difficulty", {})
            if difficulty == "ask"
            else ("set_difficulty", {"level": difficulty}),
        )
        # the last prompt, for the step it was built for (prompt() is asked often)
        self._asked: tuple[Step, tuple[Any, ...], Prompt] | None = None
        self._advance()  # setup chosen by options runs at once
        self.said = []

    def prompt(self) -> Prompt:
        head = self.flow.waiting
        if self.winner or head is None:
            return Prompt(PromptKind.OVER, msg("The game is over."))
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
        prompt = head.ask()
        self._asked = (head, key, prompt)
        return prompt

    def apply(self, answer: Input) -> list[Event]:
        prompt = self.prompt()
        expect(answer, prompt)
        head = self.flow.waiting
        values = [d.value for d in answer.dice if d.value is not None]  # expect checked 1-6
        if head is not None and head.name == "offense" and self.attempt > 0:
            self._check_kept(values, prompt.keep, self.dice)
        if head is not None and head.name == "player_offense" and self.player_attempt > 0:
            self._check_kept(values, prompt.keep, self.player_dice)
        self.said = []
        self.flow.answer(answer)
        self._advance()
        events, self.said = self.said, []
        return events

    def _check_kept(self, values: list[int], keep: tuple[int, ...], rolled: list[int]) -> None:
        kept = Counter(rolled[i] for i in keep)
        if kept - Counter(values):
            shown = " ".join(str(rolled[i]) for i in keep)
            raise InvalidInput(msg("The kept dice ({kept}) must still be in the roll.", kept=shown))

    def _advance(self) -> None:
        """The Boss's moves at the front of the queue; nothing more once one side won."""
        self.flow.advance(stop=lambda: bool(self.winner))
        if self.winner:
            self.flow.clear()

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
            "heroes": self.boss_hero.name,
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
