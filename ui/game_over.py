"""The game-over page: who won, the score and how it was made, and where it ranks
among the table's high scores (the store's ``scores`` table, same game and mode)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from dicetable.device.store import Store
from dicetable.rules.core import Msg
from dicetable.ui import theme
from dicetable.ui.text import Words, escape, msg
from dicetable.ui.theme import Display
from dicetable.ui.widgets import TapButton, WrapLabel, scrolling_list

WINNERS = {
    "player": (msg("You won!"), theme.SUCCESS),
    "players": (msg("You won!"), theme.SUCCESS),
    "party": (msg("You won!"), theme.SUCCESS),
    "boss": (msg("The Boss won."), theme.BOSS),
    "dungeon": (msg("The dungeon won."), theme.BOSS),
}
#: the result's figures a player reads, in the order they are shown
RESULT_LINES: dict[str, Msg] = {
    "turns": msg("Turns played"),
    "player_health": msg("Your Health left"),
    "boss_health": msg("Boss Health left"),
    "difficulty": msg("Difficulty"),
    "heroes": msg("Hero"),
    "rounds": msg("Rounds"),
    "level": msg("Level reached"),
    "gold": msg("Gold"),
}
#: how each game's score is made, when its result says no more
SCORE_MADE = {
    "dicethrone-solo": msg("the Health you have left when the Boss falls"),
}


def rank_of(store: Store, game: str, result: Mapping[str, Any]) -> tuple[int, int] | None:
    """The score's place among the high scores of its game and mode, and how many
    there are (the store keeps the game's own score among them)."""
    if "score" not in result:
        return None
    rows = store.high_scores(game, mode=str(result.get("mode", "")), limit=10_000)
    better = sum(1 for row in rows if row["score"] > int(result["score"]))
    return better + 1, max(len(rows), better + 1)


def over_area(
    display: Display,
    words: Words,
    game: str,
    result: Mapping[str, Any],
    rank: tuple[int, int] | None,
    on_home: Callable[[], Any],
) -> list[Widget]:
    """The page's parts: the result in a scrolling list, then the Home button."""
    d = display
    scroll, grid = scrolling_list(d)
    said, colour = WINNERS.get(str(result.get("winner", "")), (msg("Game over."), theme.TABLE))
    grid.add_widget(
        WrapLabel(text=f"[b]{words.markup(said)}[/b]", font_size=d.primary + 6, color=colour)
    )
    if "score" in result:
        grid.add_widget(
            WrapLabel(
                text=f"[b]{words.markup(msg('Score: {score}', score=result['score']))}[/b]",
                font_size=d.primary,
            )
        )
        if game in SCORE_MADE:
            grid.add_widget(
                WrapLabel(
                    text=words.markup(msg("The score is {how}.", how=words(SCORE_MADE[game]))),
                    font_size=d.primary,
                    color=theme.MUTED,
                )
            )
    for key, label in RESULT_LINES.items():
        if key in result and result[key] not in ("", None):
            value = result[key]
            shown = words(value) if isinstance(value, str) else str(value)
            grid.add_widget(
                WrapLabel(
                    text=f"{words.markup(label)}: [b]{escape(shown)}[/b]", font_size=d.primary
                )
            )
    if rank is not None:
        place, total = rank
        ranked = words.markup(msg("High scores: #{n} of {total}", n=place, total=total))
        grid.add_widget(
            WrapLabel(
                text=f"[b]{ranked}[/b]",
                font_size=d.primary,
                color=theme.BOSS,
            )
        )
    home = TapButton(d, words(msg("Home")), on_home, colour=theme.dim(theme.TABLE))
    home.focused = True  # CONFIRM goes home
    row = BoxLayout(size_hint_y=None, height=d.touch)
    row.add_widget(home)
    return [scroll, row]
