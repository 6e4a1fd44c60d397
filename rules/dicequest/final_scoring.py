"""The end of the game: the VP the table counts by hand, the ranking with its tie
rule, and the co-op win rule (Goal of the Game; Winning and Losing)."""

from __future__ import annotations

from typing import Any, ClassVar

from dicetable.rules.core import (
    Actor,
    Event,
    EventKind,
    Input,
    Prompt,
    PromptKind,
    msg,
)
from dicetable.rules.dicequest.game_setup import DIFFICULTY_VP
from dicetable.rules.dicequest.scoring import standings
from dicetable.rules.dicequest.state import TableState
from dicetable.rules.dicequest.words import (
    listing,
)


class FinalScoring(TableState):
    """Final scoring and the result; a mixin of ``Dicequest``."""

    FINAL_FIELDS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("heroes", "{player}: VP on the Heroes in your party?"),
        ("backpack", "{player}: VP on the Items in your Backpack?"),
        ("graduated", "{player}: VP on the graduated Heroes in your Achievements Zone?"),
    )

    def _start_final(self) -> list[Event]:
        self.stage = "final"
        self.final_step = 0
        return [Event("final", msg("The game ends: count the Victory Points."))]

    def _prompt_final(self) -> Prompt:
        player = self.players[self.final_step // len(self.FINAL_FIELDS)]
        _, text = self.FINAL_FIELDS[self.final_step % len(self.FINAL_FIELDS)]
        return Prompt(
            PromptKind.NUMBER,
            msg(text, player=player.title()),
            actor=Actor.PLAYER,
            number_range=(0, 99),
        )

    def _apply_final(self, answer: Input) -> list[Event]:
        player = self.players[self.final_step // len(self.FINAL_FIELDS)]
        key, _ = self.FINAL_FIELDS[self.final_step % len(self.FINAL_FIELDS)]
        player.final[key] = answer.number
        self.final_step += 1
        if self.final_step < len(self.players) * len(self.FINAL_FIELDS):
            return []
        return self._finish()

    def _finish(self) -> list[Event]:
        result = self._result()
        self.stage = "over"
        events = [
            Event(
                EventKind.SCORE,
                msg("{player}: {vp} VP.", player=p.title(), vp=p.total_vp()),
                {"player": p.number},
            )
            for p in self.players
        ]
        if self.mode == "coop":
            self.outcome = "won" if result["won"] else "lost"
            text = (
                msg("All players win!")
                if result["won"]
                else msg("All players lose: everyone needed {vp} VP.", vp=result["min_vp"])
            )
        else:
            self.outcome = "ended"
            text = msg(
                "Winner: {winners}.",
                winners=listing(
                    [msg("Player {n}", n=int(w.split()[-1])) for w in result["winners"]]
                ),
            )
        return [*events, Event("outcome", text, result)]

    def _result(self) -> dict[str, Any]:
        vp = {p.number: p.total_vp() for p in self.players}
        heroes = {p.number: len(p.heroes) for p in self.players}
        ranks = standings(vp, heroes)
        data: dict[str, Any] = {
            "vp": {f"Player {n}": v for n, v in vp.items()},
            "ranking": [[f"Player {n}" for n in group] for group in ranks],
            "winners": [f"Player {n}" for n in ranks[0]],
            "mode": self.mode if self.mode == "competitive" else f"coop-{self.difficulty}",
            "party": str(len(self.players)),
            "heroes": "; ".join(
                f"{p.name}: {', '.join(h.name for h in p.heroes) or '-'}" for p in self.players
            ),
        }
        if self.mode == "coop":
            data["min_vp"] = DIFFICULTY_VP[self.difficulty]
            data["won"] = self.outcome != "lost" and min(vp.values()) >= data["min_vp"]
            data["score"] = min(vp.values())
        else:
            data["score"] = max(vp.values())
        return data

    def _prompt_over(self) -> Prompt:
        text = {
            "won": msg("All players win!"),
            "lost": msg("All players lose."),
        }.get(self.outcome, msg("The game is over."))
        return Prompt(PromptKind.OVER, text)

    def result(self) -> dict[str, Any] | None:
        if self.stage != "over":
            return None
        data = self._result()
        if self.outcome == "lost":
            data["won"] = False
        return data
