"""One game at the table: the prompt -> input -> events loop, made crash-safe.

``TableSession`` owns a game (from ``rules``) and its saved record (in ``Store``):

* ``prompt`` / ``view`` show what the game needs and what it looks like now.
* ``submit(answer)`` checks the answer against the game, writes it to the database
  (WAL, synchronous FULL), and only then returns the events for the screen, the LED
  ring and the log. A wrong answer raises ``InvalidInput`` and writes nothing.
* ``undo()`` drops the last input and replays the rest from the seed.
* ``resume(store, id)`` replays the saved log: after a power cut, the table is back
  at exactly the state the players last saw; ``replayed`` holds the events of that
  replay, so the screen's log of the game tells its whole story again.

A session is used from one thread (the UI's); listeners are called on that thread.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dicetable.device.store import NewScore, SavedGame, Store
from dicetable.rules.core import Event, EventKind, Game, Input, InvalidInput, Prompt, msg
from dicetable.rules.registry import game_class

Listener = Callable[["TableSession", list[Event]], None]


class ReplayError(RuntimeError):
    """A saved input no longer fits the game (the rules changed under the save)."""


class TableSession:
    def __init__(self, store: Store, saved: SavedGame) -> None:
        self.store = store
        self.saved = saved
        self.listeners: list[Listener] = []
        self.replayed: tuple[tuple[Event, ...], ...] = ()  # what each saved input caused
        self.game, self.count = self._replay()
        if self.game.is_over:
            self._finish_if_cut()

    @classmethod
    def start(
        cls,
        store: Store,
        game_id: str,
        seed: int,
        options: Mapping[str, str] | None = None,
        name: str = "",
    ) -> TableSession:
        checked = game_class(game_id).check_options(options or {})
        row = store.create_game(game_id, seed, checked, name)
        return cls(store, store.saved_game(row))

    @classmethod
    def resume(cls, store: Store, saved_id: int) -> TableSession:
        return cls(store, store.saved_game(saved_id))

    @property
    def id(self) -> int:
        return self.saved.id

    def prompt(self) -> Prompt:
        return self.game.prompt()

    def view(self) -> dict[str, Any]:
        return self.game.view()

    def subscribe(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def submit(self, answer: Input) -> list[Event]:
        """Apply, persist, then announce. Nothing is shown that is not on disk."""
        try:
            events = self.game.apply(answer)
            # the answer and, when it ends the game, the end itself: one transaction
            result = (self.game.result() or {}) if self.game.is_over else None
            if result is not None:
                self.store.append_input(
                    self.id, self.count, answer.to_json(), result=result, score=self._score(result)
                )
            else:
                self.store.append_input(self.id, self.count, answer.to_json())
        except Exception:  # a wrong answer, a bug or a failed write: nothing half-kept
            self.game, self.count = self._replay()
            raise
        self.count += 1
        if result is not None:
            events.append(Event(EventKind.GAME_OVER, msg("Game over."), result))
        self._announce(events)
        return events

    def undo(self) -> bool:
        """Take back the last input; False when there is nothing to take back."""
        if not self.store.drop_last_input(self.id):
            return False
        self.game, self.count = self._replay()
        self._announce([Event(EventKind.INFO, msg("Undone."), {"inputs": self.count})])
        return True

    def _finish_if_cut(self) -> None:
        """A replay that ends the game, of a game not marked over or without its high
        score (a cut between them, under a dicetable that wrote them apart): finish it
        now, once."""
        result = self.game.result() or {}
        score = self._score(result)
        if not self.saved.over or (score is not None and not self.store.has_score(self.id)):
            self.store.finish_game(self.id, result, score)
            self.saved = self.store.saved_game(self.id)

    def _score(self, result: Mapping[str, Any]) -> NewScore | None:
        """A result with a ``score`` enters the high-score table (``mode``, ``party``
        and ``heroes`` in the result say which table and who)."""
        if "score" not in result:
            return None
        return NewScore(
            self.saved.game,
            int(result["score"]),
            mode=str(result.get("mode", "")),
            party=str(result.get("party", "")),
            heroes=str(result.get("heroes", "")),
            detail=result,
        )

    def _announce(self, events: list[Event]) -> None:
        for listener in list(self.listeners):
            listener(self, events)

    def _replay(self) -> tuple[Game, int]:
        saved = self.saved
        game = game_class(saved.game)(saved.seed, saved.options)
        logged = self.store.inputs(saved.id)
        replayed: list[list[Event]] = []
        for seq, data in enumerate(logged):
            try:
                replayed.append(game.apply(Input.from_json(data)))
            except (InvalidInput, KeyError, ValueError) as error:
                raise ReplayError(
                    f"saved game {saved.id} ({saved.game}): input {seq + 1} of {len(logged)} "
                    f"no longer fits the rules: {error}"
                ) from error
        if replayed and game.is_over:  # as ``submit`` told it
            replayed[-1].append(Event(EventKind.GAME_OVER, msg("Game over."), game.result() or {}))
        self.replayed = tuple(tuple(events) for events in replayed)
        return game, len(logged)
