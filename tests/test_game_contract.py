"""One contract, run on every registered game (issue 14, item 3), as OpenSpiel runs one
random-simulation test on all its games: a new game folder under ``rules/`` gets it
for free.

From each of ``SEEDS`` seeds, a game is started as a session starts it (its options
checked, so filled in) and played to its end with random legal answers
given through the table's four buttons only (``device.controller``: NEXT and BACK move
the focus, CONFIRM answers, the dice come from the camera), and holds the contract of
``rules/core.py``:

* every prompt is answerable by buttons alone: a CHOOSE has options, a NUMBER a range
  the focus reaches, a TEXT a default that CONFIRM takes (and the game accepts), a
  ROLL takes the dice offered; nothing else is asked;
* a refused answer leaves the game as it was (prompt and view);
* replaying the answers from the seed gives the same prompt, view and events after
  every answer (so resume is exact, and so is undo, which replays all but the last);
  an UNDO pressed mid-game gives the state before the last answer;
* everything the table shows (prompts, options, events, refusals, every word of the
  view) has a Spanish text.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from fuzz_play import colour_faces, random_line
from test_i18n import _missing, untranslated, view_words

from dicetable.device.answers import parse_dice
from dicetable.device.controller import Controller
from dicetable.device.i18n import catalogue
from dicetable.hardware.actions import TableAction
from dicetable.rules.core import (
    Event,
    Game,
    Input,
    InputKind,
    InvalidInput,
    Msg,
    Option,
    Prompt,
    PromptKind,
    TextEntry,
    expect,
)
from dicetable.rules.registry import games

SEEDS = 12  # random games per registered game...
#: ...but fewer for a game whose random games are long and slow to play (Dicequest asks
#: about 2,000 answers, each prompt working out which dice could still help)
FEWER_SEEDS = {"dicequest": 2}
MAX_ANSWERS = 4000  # a game that has not ended by then is stuck
ENDLESS = {"dice-tray": 150}  # games with no end by design: answers each plays
TRIES = 40  # random answers tried before a prompt counts as unanswerable
UNDOS = 3  # UNDO presses per game (each then gives the answer again), at random answers
PROGRESS_BIAS = 0.3  # how often a choice takes the first option (usually "go on")


def snapshot(game: Game, prompt: Prompt | None = None) -> str:
    prompt = game.prompt() if prompt is None else prompt
    return json.dumps([prompt.to_json(), game.view()], sort_keys=True, default=str)


def shown_events(events: list[Event]) -> str:
    return json.dumps([e.to_json() for e in events], sort_keys=True, default=str)


class ReplayTable:
    """What the controller plays on, held to the contract: an undo replays every answer
    but the last from the seed (as ``TableSession`` does on SQLite). The prompt is
    asked of the game once per state (a prompt changes nothing, by the contract)."""

    def __init__(self, game_class: type[Game], seed: int) -> None:
        self.game_class, self.seed = game_class, seed
        self.options = game_class.check_options({})  # as TableSession.start keeps them
        self.game = game_class(seed, self.options)
        self.answers: list[Input] = []
        self.asked: Prompt | None = None

    def prompt(self) -> Prompt:
        if self.asked is None:
            self.asked = self.game.prompt()
        return self.asked

    def snapshot(self) -> str:
        return snapshot(self.game, self.prompt())

    def view(self) -> dict[str, Any]:
        return self.game.view()

    def submit(self, answer: Input) -> list[Event]:
        try:
            events = self.game.apply(answer)
        finally:
            self.asked = None  # a refusal must leave it as it was: asked again to see
        self.answers.append(answer)
        return events

    def undo(self) -> bool:
        if not self.answers:
            return False
        self.answers.pop()
        self.asked = None
        self.game = self.game_class(self.seed, self.options)
        for answer in self.answers:
            self.game.apply(answer)
        return True


@dataclass
class Played:
    answers: list[Input] = field(default_factory=list)
    snapshots: list[str] = field(default_factory=list)  # after each answer, first: start
    events: list[str] = field(default_factory=list)
    shown: list[Msg] = field(default_factory=list)  # prompts, options, events, refusals
    kinds: set[PromptKind] = field(default_factory=set)  # the kinds of prompt answered
    words: list[str] = field(default_factory=list)  # of the views
    breaks: list[str] = field(default_factory=list)
    over: bool = False


def press_to(controller: Controller, target: int, rng: random.Random) -> bool:
    """Presses NEXT or BACK (the way round chosen at random for a choice, towards the
    target for a number) until the focus is on ``target``; False if it never is."""
    prompt = controller.prompt
    if prompt.kind is PromptKind.CHOOSE:
        action = rng.choice((TableAction.NEXT, TableAction.BACK))
        presses = len(prompt.options)
    else:
        low, high = prompt.number_range or (0, 0)
        action = TableAction.NEXT if target >= controller.focus else TableAction.BACK
        presses = high - low + 1
    for _ in range(presses):
        if controller.focus == target:
            return True
        controller.act(action)
    return controller.focus == target


def button_answer(controller: Controller, rng: random.Random, faces, last_roll) -> Input | str:
    """Moves the focus to a random answer (or offers random dice) and says what CONFIRM
    will give; a string says why the prompt cannot be answered by buttons."""
    prompt = controller.prompt
    if prompt.kind is PromptKind.CONFIRM:
        return Input.confirm(source="button")
    if prompt.kind is PromptKind.TEXT:
        if prompt.entry is None:
            return "a text without a default"
        return Input.write(str(prompt.entry.default), source="button")
    if prompt.kind is PromptKind.CHOOSE:
        if not prompt.options:
            return "a choice without options"
        index = 0 if rng.random() < PROGRESS_BIAS else rng.randrange(len(prompt.options))
        if not press_to(controller, index, rng):
            return f"option {index + 1} of {len(prompt.options)} cannot be reached"
        return Input.choose(prompt.options[index].id, source="button")
    if prompt.kind is PromptKind.NUMBER:
        if prompt.number_range is None:
            return "a number without a range"
        low, high = prompt.number_range
        number = rng.randint(low, min(high, low + 6))
        if not press_to(controller, number, rng):
            return f"the number {number} cannot be reached"
        return Input.enter(number, source="button")
    if prompt.kind is PromptKind.ROLL:
        dice = parse_dice(random_line(prompt, rng, faces, last_roll))
        controller.offer_dice(dice)
        return Input(InputKind.DICE, dice=dice, source="camera")
    return f"a prompt of kind {prompt.kind}"


def play_by_buttons(game_class: type[Game], seed: int) -> Played:
    played = Played()
    rng = random.Random(seed)
    table = ReplayTable(game_class, seed)
    controller = Controller(table)  # type: ignore[arg-type]  # the session's three calls
    faces = colour_faces(game_class.id)
    last_roll: tuple[str, ...] = ()
    limit = ENDLESS.get(game_class.id, MAX_ANSWERS)
    played.snapshots.append(table.snapshot())
    undo_at = set(rng.sample(range(1, 200), UNDOS))
    while len(played.answers) < limit:
        prompt = table.prompt()
        played.shown += [prompt.text, *(o.label for o in prompt.options)]
        played.shown += [m for m in (prompt.objective,) if m is not None]
        played.shown += [prompt.entry.default] if prompt.entry is not None else []
        played.shown.append(controller.meaning(TableAction.CONFIRM))  # the others: fixed
        view = table.view()
        played.words += [text for _, text in view_words(view, keys_shown="panels" not in view)]
        if prompt.kind is PromptKind.OVER:
            played.over = True
            break
        before = played.snapshots[-1]
        for attempt in range(TRIES):
            wanted = button_answer(controller, rng, faces, last_roll if attempt % 2 else ())
            if isinstance(wanted, str):
                played.breaks.append(f"answer {len(played.answers) + 1}: {wanted}")
                return played
            try:
                events = controller.act(TableAction.CONFIRM)
            except InvalidInput as refused:
                played.shown.append(refused.reason)
                if table.snapshot() != before:
                    played.breaks.append(f"answer {len(played.answers) + 1}: a refusal changed it")
                    return played
                continue
            given = table.answers[-1]
            if (given.kind, given.choice, given.number, given.text, given.dice) != (
                wanted.kind,
                wanted.choice,
                wanted.number,
                wanted.text,
                wanted.dice,
            ):
                played.breaks.append(f"CONFIRM gave {given}, the focus was on {wanted}")
                return played
            if prompt.kind is PromptKind.ROLL:
                last_roll = tuple(d.name for d in given.dice)
            break
        else:
            played.breaks.append(f"no answer by buttons found to {prompt.text}")
            return played
        played.answers.append(given)
        played.kinds.add(prompt.kind)
        played.events.append(shown_events(events))
        played.shown += [e.text for e in events]
        played.snapshots.append(table.snapshot())
        if len(played.answers) in undo_at and table.prompt().kind is not PromptKind.OVER:
            controller.act(TableAction.UNDO)
            if table.snapshot() != played.snapshots[-2]:
                played.breaks.append(f"answer {len(played.answers)}: UNDO differs")
                return played
            table.submit(given)
            if table.snapshot() != played.snapshots[-1]:
                played.breaks.append(f"answer {len(played.answers)}: given again differs")
                return played
    return played


def replay_differences(game_id: str, seed: int, played: Played) -> list[str]:
    """Where a replay of the answers from the seed leaves the game as played."""
    game_class = games()[game_id]
    game = game_class(seed, game_class.check_options({}))
    if snapshot(game) != played.snapshots[0]:
        return ["the start differs"]
    for number, answer in enumerate(played.answers, start=1):
        if shown_events(game.apply(answer)) != played.events[number - 1]:
            return [f"answer {number}: other events"]
        if snapshot(game) != played.snapshots[number]:
            return [f"answer {number}: another prompt or view"]
    return []


def untranslated_shown(played: Played, spanish: dict[str, str]) -> set[str]:
    """English a Spanish table would show: a message's template and the messages in its
    arguments (names and numbers in it are data), and every word of the views."""
    english = _missing(list(played.shown), spanish)
    for word in played.words:
        english |= set(untranslated(word, spanish))
    return english


@pytest.mark.parametrize("game_id", sorted(games()))
def test_every_game_keeps_the_contract(game_id: str) -> None:
    spanish = catalogue("es")
    english: set[str] = set()
    for seed in range(FEWER_SEEDS.get(game_id, SEEDS)):
        played = play_by_buttons(games()[game_id], seed)
        assert played.breaks == [], f"{game_id} seed {seed}"
        assert played.over or game_id in ENDLESS, f"{game_id} seed {seed}: no end"
        assert replay_differences(game_id, seed, played) == [], f"{game_id} seed {seed}"
        english |= untranslated_shown(played, spanish)
    assert not english, f"{game_id}: no Spanish for {sorted(english)}"


class Leaky(Game):
    """Breaks the contract: a refused answer still counts."""

    id = "test-leaky"
    title = "Leaky"

    def __init__(self, seed: int, options=None) -> None:
        super().__init__(seed, options)
        self.answers = 0

    def prompt(self) -> Prompt:
        if self.answers >= 3:
            return Prompt(PromptKind.OVER, Msg("Game over."))
        options = (Option("a", Msg("Attack")), Option("b", Msg("Defend")))
        return Prompt(PromptKind.CHOOSE, Msg("Your move?"), options=options)

    def apply(self, answer: Input) -> list[Event]:
        expect(answer, self.prompt())
        self.answers += 1
        if answer.choice == "b":
            raise InvalidInput(Msg("Not now."))
        return []

    def view(self) -> dict[str, Any]:
        return {"answers": self.answers}


def test_the_contract_test_catches_a_refusal_that_changes_the_game() -> None:
    breaks = [b for seed in range(5) for b in play_by_buttons(Leaky, seed).breaks]
    assert breaks and all("a refusal changed it" in b for b in breaks)


class Picky(Game):
    """Breaks the contract: it asks a name and refuses its own default, so the
    buttons (which can only take the default) cannot answer."""

    id = "test-picky"
    title = "Picky"

    def prompt(self) -> Prompt:
        entry = TextEntry(Msg("Nameless"))
        return Prompt(PromptKind.TEXT, Msg("Your hero's name?"), entry=entry)

    def apply(self, answer: Input) -> list[Event]:
        expect(answer, self.prompt())
        if answer.text == "Nameless":
            raise InvalidInput(Msg("Give a real name."))
        return []

    def view(self) -> dict[str, Any]:
        return {}


def test_the_contract_test_catches_a_text_its_buttons_cannot_answer() -> None:
    breaks = play_by_buttons(Picky, 1).breaks
    assert breaks == ["no answer by buttons found to Your hero's name?"]


def test_a_dicequest_card_name_is_a_text_the_buttons_answer() -> None:
    """The TEXT kind is met in real play: a Dicequest card typed in is asked its name
    (defaulting to its number), answered by CONFIRM, and the game goes on to its end."""
    played = play_by_buttons(games()["dicequest"], 2)
    assert PromptKind.TEXT in played.kinds and played.over and played.breaks == []
    names = [a.text for a in played.answers if a.kind is InputKind.TEXT]
    assert names and all(n.startswith("Typed ") for n in names)
