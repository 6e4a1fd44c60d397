"""The end of the game: the VP the table counts by hand, the ranking with its tie
rule, and the co-op win rule (Goal of the Game; Winning and Losing)."""

from __future__ import annotations

from typing import Any

from dicetable.rules.core import (
    Actor,
    Event,
    EventKind,
    Input,
    Prompt,
    PromptKind,
    msg,
)
from dicetable.rules.dicequest import game_setup
from dicetable.rules.dicequest.scoring import standings
from dicetable.rules.dicequest.state import TableState
from dicetable.rules.dicequest.words import (
    listing,
)

FINAL_FIELDS: tuple[tuple[str, str], ...] = (
    ("heroes", "{player}: VP on the Heroes in your party?"),
    ("backpack", "{player}: VP on the Items in your Backpack?"),
    ("graduated", "{player}: VP on the graduated Heroes in your Achievements Zone?"),
)


def start_final(s: TableState) -> list[Event]:
    s.stage = "final"
    s.final_step = 0
    return [Event("final", msg("The game ends: count the Victory Points."))]


def prompt_final(s: TableState) -> Prompt:
    player = s.players[s.final_step // len(FINAL_FIELDS)]
    _, text = FINAL_FIELDS[s.final_step % len(FINAL_FIELDS)]
    return Prompt(
        PromptKind.NUMBER,
        msg(text, player=player.title()),
        actor=Actor.PLAYER,
        number_range=(0, 99),
    )


def apply_final(s: TableState, answer: Input) -> list[Event]:
    player = s.players[s.final_step // len(FINAL_FIELDS)]
    key, _ = FINAL_FIELDS[s.final_step % len(FINAL_FIELDS)]
    player.final[key] = answer.number
    s.final_step += 1
    if s.final_step < len(s.players) * len(FINAL_FIELDS):
        return []
    return finish(s)


def finish(s: TableState) -> list[Event]:
    result = final_result(s)
    s.stage = "over"
    events = [
        Event(
            EventKind.SCORE,
            msg("{player}: {vp} VP.", player=p.title(), vp=p.total_vp()),
            {"player": p.number},
        )
        for p in s.players
    ]
    if s.mode == "coop":
        s.outcome = "won" if result["won"] else "lost"
        text = (
            msg("All players win!")
            if result["won"]
            else msg("All players lose: everyone needed {vp} VP.", vp=result["min_vp"])
        )
    else:
        s.outcome = "ended"
        text = msg(
            "Winner: {winners}.",
            winners=listing([msg("Player {n}", n=int(w.split()[-1])) for w in result["winners"]]),
        )
    return [*events, Event("outcome", text, result)]


def final_result(s: TableState) -> dict[str, Any]:
    vp = {p.number: p.total_vp() for p in s.players}
    heroes = {p.number: len(p.heroes) for p in s.players}
    ranks = standings(vp, heroes)
    data: dict[str, Any] = {
        "vp": {f"Player {n}": v for n, v in vp.items()},
        "ranking": [[f"Player {n}" for n in group] for group in ranks],
        "winners": [f"Player {n}" for n in ranks[0]],
        "mode": s.mode if s.mode == "competitive" else f"coop-{s.difficulty}",
        "party": str(len(s.players)),
        "heroes": "; ".join(
            f"{p.name}: {', '.join(h.name for h in p.heroes) or '-'}" for p in s.players
        ),
    }
    if s.mode == "coop":
        data["min_vp"] = game_setup.DIFFICULTY_VP[s.difficulty]
        data["won"] = s.outcome != "lost" and min(vp.values()) >= data["min_vp"]
        data["score"] = min(vp.values())
    else:
        data["score"] = max(vp.values())
    return data


def prompt_over(s: TableState) -> Prompt:
    text = {
        "won": msg("All players win!"),
        "lost": msg("All players lose."),
    }.get(s.outcome, msg("The game is over."))
    return Prompt(PromptKind.OVER, text)


def result(s: TableState) -> dict[str, Any] | None:
    if s.stage != "over":
        return None
    data = final_result(s)
    if s.outcome == "lost":
        data["won"] = False
    return data
