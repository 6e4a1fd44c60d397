"""The app's composition: settings -> camera -> dice reader -> table session -> screen.

Three threads, so that the screen never waits on anything slow:

* the **UI thread** (Kivy's) only draws snapshots and turns touches, keys and button
  presses into requests;
* the **table thread** owns the store (SQLite, fsync on every answer), the
  ``TableSession`` and its ``Controller``; every request runs there, one at a time,
  and its outcome comes back as a ``TableState`` snapshot;
* the **tray thread** reads frames, feeds the vision ``SettleWatcher`` and publishes
  ``TrayState``s (a small preview picture and the dice read); a settled reading is
  offered to the controller, so CONFIRM (button, key or on-screen twin) uses it.

Everything that reaches the screen goes through ``post``: in the app that is Kivy's
``Clock.schedule_once``, in tests it may simply call. The LED ring is told about each
new table state from the table thread; the ring adapter itself must not block.

The app starts with the store only, so the home screen comes up first;
``start_devices`` then brings up the tray process (camera and reader) and the ring
from a thread of their own. What is wrong at the table (a move the SD card cannot
take, a settings file with a mistake, no camera, a ring that does not answer) is kept
as ``Notice``s that the screens show with what to do, until the cause goes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import secrets
import threading
import time
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from dicetable.device import config
from dicetable.device.config import Config, ConfigError
from dicetable.device.controller import Controller
from dicetable.device.corrections import FOLDER as CORRECTIONS
from dicetable.device.corrections import CorrectionLog
from dicetable.device.session import ReplayError, TableSession
from dicetable.device.store import Store, StoreError
from dicetable.hardware.actions import TableAction
from dicetable.rules.core import (
    Die,
    Event,
    Input,
    InputKind,
    InvalidInput,
    Msg,
    Prompt,
    PromptKind,
    msg,
)
from dicetable.rules.dicequest import catalogue
from dicetable.rules.dicequest.data import DataError
from dicetable.rules.dicequest.game import Dicequest
from dicetable.rules.registry import DiceSet, dice_sets, game_class, games

log = logging.getLogger(__name__)

Post = Callable[[Callable[[], None]], None]
FULL_FRAME = (0.0, 0.0, 1.0, 1.0)
ACTIONS = (TableAction.BACK, TableAction.NEXT, TableAction.CONFIRM, TableAction.UNDO)


class FrameSource(Protocol):
    """What the tray thread needs of a camera (``hardware.camera`` provides them)."""

    def start(self) -> None: ...
    def read(self, timeout: float = 1.0) -> Any: ...
    def stop(self) -> None: ...


@dataclass(frozen=True)
class SeenDie:
    """One die as the tray view draws it: where (pixels of the full frame), what was
    read, how sure the reader is, and why it doubts (``reason``)."""

    x: float
    y: float
    size: float
    value: int | None
    face: str
    color: str = ""
    confidence: float = 1.0
    reason: str = ""

    def as_die(self) -> Die:
        return Die(
            self.value, self.face or ("" if self.value is None else str(self.value)), self.color
        )


@dataclass(frozen=True)
class TrayState:
    """What the camera sees now. ``state`` is ``rolling``, ``settled``, ``empty``,
    ``no_camera`` or ``lost``; ``preview`` a small RGB picture (numpy) or None."""

    state: str = "no_camera"
    dice: tuple[SeenDie, ...] = ()
    preview: Any = None
    frame_size: tuple[int, int] = (0, 0)  # width, height of the full frame
    message: Msg | None = None
    frame_seconds: float = 0.0  # time the reader took on the last frame


@dataclass(frozen=True)
class TableState:
    """Everything a game screen shows, made on the table thread in one go."""

    saved_id: int
    game_id: str
    title: str
    prompt: Prompt
    view: Mapping[str, Any]
    focus: int
    dice: tuple[Die, ...]  # dice ready for CONFIRM (read or typed)
    meanings: Mapping[TableAction, Msg]
    events: tuple[Event, ...] = ()  # what the last answer caused
    error: Msg | None = None  # why the last request was refused
    keep_spots: tuple[SeenDie, ...] = ()  # where the dice to keep lie in the tray
    inputs: int = 0


@dataclass(frozen=True)
class Notice:
    """Something wrong at the table that the players must know: what is wrong and
    what to do, in their language. ``topic`` is what it is about (``NOTICE_ORDER``);
    a new notice on a topic replaces the old one, and it goes when the cause does."""

    topic: str
    text: Msg


#: the most pressing first: a move that cannot be saved, then the rest
NOTICE_ORDER = ("disk", "game", "settings", "camera", "dice", "buttons", "ring")
#: the table's own pip dice, taught: read for every plain ``d6`` roll
TAUGHT_D6 = "taught-d6"


def taught_name(profile: str) -> str:
    """The name a dice set is taught under: its own, but ``d6`` (the built-in pip
    reader, which no file may shadow) is kept as ``TAUGHT_D6``."""
    return TAUGHT_D6 if profile == "d6" else profile


@dataclass(frozen=True)
class TeachableSet:
    """A dice set a game reads with, for the teach flow's chooser: whether a game's
    roll is waiting for it and whether it is taught on this table already."""

    dice: DiceSet
    waiting: bool = False
    taught: bool = False


@dataclass
class Listeners:
    table: list[Callable[[TableState | None], None]] = field(default_factory=list)
    tray: list[Callable[[TrayState], None]] = field(default_factory=list)
    notices: list[Callable[[tuple[Notice, ...]], None]] = field(default_factory=list)


@dataclass(frozen=True)
class Devices:
    """What ``open_devices`` found: the camera and its reader (or why there is
    none) and the LED ring (or None)."""

    camera: Any = None
    watcher: Any = None
    ring: Any = None
    why: str | None = None  # why there is no camera
    #: nothing opened here: the tray process opens the camera and says how it went
    in_tray_process: bool = False


class Runtime:
    """One table: a store, at most one game in play, a camera and a ring."""

    def __init__(
        self,
        settings: Config,
        post: Post,
        *,
        camera: FrameSource | None = None,
        watcher: Any = None,
        ring: Any = None,
        preview_fps: float = 8.0,
        clock: Callable[[], float] = time.monotonic,
        tray_process: bool = False,
    ) -> None:
        self.settings = settings
        self.post = post
        self.camera = camera
        self.watcher = watcher
        self.ring = ring
        self.preview_interval = 1.0 / preview_fps
        self.tray_process = tray_process  # read the tray in a process (the app does)
        self.clock = clock
        self.listeners = Listeners()
        self.session: TableSession | None = None
        self.controller: Controller | None = None
        self.tray = TrayState() if camera is None else TrayState("empty")
        self._last_frame: Any = None  # full frame of the latest settled reading
        self._last_box: tuple[int, int, int, int] | None = None  # its tray area, pixels
        # the tray area read for dice ([left, top, right, bottom] fractions of the frame)
        self.tray_area: tuple[float, ...] = tuple(settings["camera.tray"])
        self.teacher: Any = None  # a vision Teacher while a dice set is being taught
        self._roll_spots: tuple[SeenDie, ...] = ()  # dice of the last answered roll
        self._table = ThreadPoolExecutor(max_workers=1, thread_name_prefix="table")
        self._store: Store | None = None
        self._corrections: CorrectionLog | None = None
        self._stop = threading.Event()
        self._tray_thread: threading.Thread | None = None
        self._profile = str(settings["vision.profile"])  # the dice profile read with now
        self._missing_profiles: set[str] = set()  # named by a prompt, not taught here
        self._noticed_sets: set[str] = set()  # the set the "dice" notice is about
        self._tray_conn: Any = None  # the pipe to the tray process, while it runs
        self._tray_send = threading.Lock()  # the table and tray threads both send
        self._devices = threading.Lock()  # devices arrive on a thread of their own
        self._started = False
        self._notices: dict[str, Msg] = {}
        self._camera_seen = False  # a picture came: a failure now is a camera lost
        self._reads = camera is not None and watcher is not None  # there is a tray to read
        self._dice_count: tuple[int, int] | None = None  # dice a throw has (demo tray)

    # life cycle ------------------------------------------------------------------
    def start(self) -> None:
        """Open the store (on the table thread) and start reading the tray."""
        self.submit(self._open_store).result()
        with self._devices:
            self._started = True
            self._start_tray()

    def _start_tray(self) -> None:
        if not self._reads or self._tray_thread is not None:
            return
        self._tray_thread = threading.Thread(target=self._read_tray, name="tray", daemon=True)
        self._tray_thread.start()

    def stop(self) -> None:
        """Stop reading, close the store; a second call does nothing."""
        with self._devices:
            if self._stop.is_set():
                return
            self._stop.set()
        if self._tray_thread is not None:
            self._tray_thread.join(timeout=3)
        self._table.submit(self._close).result(timeout=10)
        self._table.shutdown(wait=True)
        if self.ring is not None:
            self.ring.close()

    def start_devices(self, *, ring_grace: float = 5.0, check_every: float = 1.0) -> None:
        """Start the tray process, which opens the camera and its reader, and open
        the LED ring, on a thread of their own; then watch the ring. The app calls
        it once the home screen is shown: OpenCV, numpy, the dice reader and a Pi
        camera take a second or more to come up, and the table is usable meanwhile
        (the tray says "Starting camera…" until the first picture, dice can be typed).
        None of them is imported in this process, whose interpreter lock the screen
        needs."""

        def body() -> None:
            try:
                self.use_devices(Devices(ring=open_ring_of(self.settings), in_tray_process=True))
            except Exception:  # a bug here must not stop a game: dice can be typed
                log.exception("the camera and LED ring could not be started")
                self._show_tray(TrayState("no_camera", message=msg("The camera did not start")))
                return
            self._watch_ring(ring_grace, check_every)

        threading.Thread(target=body, name="devices", daemon=True).start()

    def use_devices(self, devices: Devices) -> None:
        """Take the camera, reader and ring ``open_devices`` found: the tray is read
        (in a process of its own) from now on, the ring follows the game in play,
        and a missing camera is said on the screen."""
        with self._devices:
            if self._stop.is_set():  # the app stopped while they were opening
                if devices.ring is not None:
                    devices.ring.close()
                return
            self.camera, self.watcher, self.ring = devices.camera, devices.watcher, devices.ring
            self.tray_process = devices.camera is not None or devices.in_tray_process
            self._reads = self.tray_process
            if self._started:
                self._start_tray()
        if devices.why is not None:
            self._show_tray(
                TrayState("no_camera", message=msg("No camera: {why}", why=devices.why))
            )
            self.notice("camera", no_camera_words(devices.why))
        elif devices.camera is not None and self.tray.state == "starting":
            self._show_tray(TrayState("empty"))
        if devices.ring is not None:
            self.submit(self._ring_follows)

    def _ring_follows(self) -> None:
        if self.ring is not None and self.session is not None:
            self.ring.follow(self.session)

    def _watch_ring(self, grace: float, every: float) -> None:
        """A ring that does not answer (unplugged, another port) is said on the
        screen after ``grace`` seconds, and the notice goes when it is back."""
        ring = self.ring
        if ring is None or not hasattr(ring, "connected"):
            return
        if self._stop.wait(grace):
            return
        while True:
            connected = bool(ring.connected)
            port = str(getattr(ring, "port", "") or self.settings["leds.port"])
            self.notice("ring", None if connected else no_ring_words(port))
            if self._stop.wait(every):
                return

    # notices: what the players must know ----------------------------------------------
    def notice(self, topic: str, text: Msg | None) -> None:
        """Say (or, with None, stop saying) something wrong about ``topic`` on the
        screens; a change is posted to the notice listeners, any thread may call."""
        with self._devices:
            if self._notices.get(topic) == text:
                return
            if text is None:
                del self._notices[topic]
            else:
                self._notices[topic] = text
        notices = self.notices()
        for listener in self.listeners.notices:
            self.post(lambda listener=listener: listener(notices))

    def notices(self) -> tuple[Notice, ...]:
        with self._devices:
            shown = dict(self._notices)
        order = {topic: index for index, topic in enumerate(NOTICE_ORDER)}
        return tuple(
            Notice(topic, text)
            for topic, text in sorted(shown.items(), key=lambda item: order.get(item[0], 99))
        )

    def submit(self, job: Callable[[], Any]) -> Future:
        """Run ``job`` on the table thread; an unexpected error is logged, not lost."""
        future = self._table.submit(job)
        future.add_done_callback(_log_failure)
        return future

    # requests from the screen (any thread) -----------------------------------------
    def new_game(self, game_id: str, options: Mapping[str, str] | None = None, seed=None) -> Future:
        seed = secrets.randbelow(2**31) if seed is None else seed

        def job() -> TableState:
            chosen = dict(options or {})
            if game_id == Dicequest.id and Dicequest.CATALOGUE not in chosen:
                chosen[Dicequest.CATALOGUE] = self._dicequest_catalogue()
            try:
                session = TableSession.start(self.store, game_id, seed, chosen)
            except (StoreError, OSError) as error:  # said on the home screen
                self._not_saved(error, "new game")
                raise
            self.notice("disk", None)
            return self._begin(session)

        return self.submit(job)

    def _dicequest_catalogue(self) -> str:
        """The player's kept Dicequest cards, as the game's ``catalogue`` option (a
        snapshot saved with the game, like ``dicetable dicequest play``). A damaged
        card file is said in one line and the game starts with the shipped cards."""
        try:
            return catalogue.snapshot(self.settings.data_dir)
        except DataError as error:
            log.error("Dicequest catalogue not used: %s", error)
            return ""

    def resume(self, saved_id: int) -> Future:
        def job() -> TableState:
            try:
                session = TableSession.resume(self.store, saved_id)
            except (ReplayError, KeyError) as error:  # said on the home screen
                self.notice("game", cannot_resume_words(saved_id, error))
                raise
            return self._begin(session)

        return self.submit(job)

    def refresh(self) -> Future:
        """Publish the current state again (a screen that has just subscribed)."""
        return self.submit(lambda: self._publish(None if self.session is None else ...))

    def leave(self) -> Future:
        """Back to the home screen; the game stays saved exactly as it is."""

        def job() -> None:
            self.session = self.controller = None
            self._publish(None)

        return self.submit(job)

    def act(self, action: TableAction, source: str = "button") -> Future:
        """A button, key or on-screen twin: whatever the controller says it means now."""
        return self.submit(lambda: self._act(action))

    def focus(self, index: int) -> Future:
        """A touch on an option (or a number): move the focus there, like NEXT/BACK."""

        def job() -> TableState | None:
            if self.controller is None:
                return None
            self.controller.prompt  # noqa: B018 (a new prompt resets the focus first)
            self.controller.focus = index
            return self._publish()

        return self.submit(job)

    def answer(self, answer: Input) -> Future:
        """A direct answer by touch (an option tapped, dice typed)."""
        return self.submit(lambda: self._answer(answer))

    def offer_dice(self, dice: tuple[Die, ...]) -> Future:
        """Typed dice (or dice corrected by touch) become the dice CONFIRM will use."""

        def job() -> TableState | None:
            if self.controller is not None:
                self.controller.prompt  # noqa: B018
                self.controller.offer_dice(dice)
                return self._publish()
            return None

        return self.submit(job)

    def correct(self, index: int, die: Die) -> Future:
        """A die the camera misread, fixed by touch: the fix is used at once and logged
        with the frame, so the reader can be improved from real mistakes."""

        def job() -> TableState | None:
            seen = self.tray.dice
            if self.controller is None or not 0 <= index < len(seen):
                return None
            self.controller.prompt  # noqa: B018
            dice = list(self.controller.dice or tuple(d.as_die() for d in seen))
            if index >= len(dice):
                return None
            read = seen[index]
            dice[index] = die
            self.controller.offer_dice(tuple(dice))
            self.corrections.log(
                read=read.__dict__,
                corrected=die.to_json(),
                frame=self._last_frame,
                game=self.session.saved.game if self.session else "",
                saved_id=self.session.id if self.session else None,
            )
            return self._publish()

        return self.submit(job)

    def saved_games(self) -> Future:
        return self.submit(lambda: [g for g in self.store.saved_games() if not g.over])

    def delete_game(self, saved_id: int) -> Future:
        return self.submit(lambda: self.store.delete_game(saved_id))

    def high_scores(self, limit: int = 5) -> Future:
        def job() -> dict[str, list[dict]]:
            return {
                gid: rows for gid in games() if (rows := self.store.high_scores(gid, limit=limit))
            }

        return self.submit(job)

    def save_setting(self, dotted: str, value: Any) -> Future:
        """Write one setting to the user's file (checked like any setting); the file
        keeps only the keys the user changed."""

        def job() -> Config:
            path = self.settings.path or config.default_path()
            section, key = dotted.split(".", 1)
            config.check(path, dotted, value, self.settings.values[section])
            try:
                user = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
            except tomllib.TOMLDecodeError as error:  # never write over the player's file
                raise ConfigError(f"{path}: not valid TOML ({error}); fix it first") from None
            user.setdefault(section, {})[key] = value
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_suffix(".tmp")
            temporary.write_text(Config(user, path).to_toml(), encoding="utf-8")
            try:  # another key with a mistake: the file is left as the player wrote it
                config.load(temporary)
            except ConfigError as error:
                temporary.unlink()
                why = str(error).removeprefix(f"{temporary}: ")
                raise ConfigError(f"{path}: {dotted} not saved: {why}; fix it first") from None
            os.replace(temporary, path)
            self.settings = config.load(path)
            self.notice("settings", None)  # the file is whole again
            self._use_tray_area(tuple(self.settings["camera.tray"]))
            return self.settings

        return self.submit(job)

    def test_ring(self, step: float = 0.7) -> bool:
        """Show the players', the boss's and the table's colours in turn, then go
        back; False when there is no ring. Runs on a thread of its own."""
        ring = self.ring
        if ring is None:
            return False

        def cycle() -> None:
            before = ring.lights
            for actor in ("player", "boss", "table"):
                ring.update(lambda lights, actor=actor: dataclasses.replace(lights, actor=actor))
                if self._stop.wait(step):
                    break
            ring.show(before)

        threading.Thread(target=cycle, name="ring-test", daemon=True).start()
        return True

    # teaching a dice set ("show me each face") ------------------------------------
    def dice_sets(self) -> Future:
        """The dice sets the installed games read with, as ``TeachableSet``: the ones
        a game is waiting for (a roll asked for them, not taught here) first."""

        def job() -> list[TeachableSet]:
            from dicetable.vision.profiles import list_profiles

            taught = set(list_profiles(self.settings.data_dir))
            sets = [
                TeachableSet(
                    dice,
                    dice.profile in self._missing_profiles,
                    taught_name(dice.profile) in taught,
                )
                for dice in dice_sets(self.settings.data_dir)
            ]
            return sorted(sets, key=lambda teachable: not teachable.waiting)

        return self.submit(job)

    def teach(
        self,
        name: str,
        faces: tuple[str, ...] = ("1", "2", "3", "4", "5", "6"),
        values: tuple[int | None, ...] | None = None,
    ) -> Future:
        """Start teaching a dice profile: one example of each face, from the tray.
        ``name`` is the profile a game asks for (the plain ``d6`` is kept as
        ``taught-d6``: ``d6`` always names the built-in pip reader)."""
        from dicetable.vision.teaching import Teacher

        def job() -> list[str]:
            self.teacher = Teacher(taught_name(name), faces, values)
            return self.teacher.missing()

        return self.submit(job)

    def teach_face(self, face_index: int) -> Future:
        """The die now settled in the tray shows face ``face_index``: learn it. The
        result is the faces still missing, or the number of dice seen when that is
        not exactly one (0 also when no settled frame came yet)."""

        def job() -> list[str] | int:
            if self.teacher is None or self._last_frame is None:
                return 0
            frame = self._last_frame
            if self._last_box is not None:  # only the tray: not a spare die beside it
                left, top, right, bottom = self._last_box
                frame = frame[top:bottom, left:right]
            if not self.teacher.add_example(frame, face_index):
                return self.teacher.last_seen
            return self.teacher.missing()

        return self.submit(job)

    def teach_save(self) -> Future:
        """Learn and store the profile beside the saved games; returns its path. A
        roll waiting for these dice is read with them from now on."""

        def job() -> Path:
            assert self.teacher is not None
            path = self.teacher.save(self.settings.data_dir)
            self._missing_profiles.discard(self.teacher.name)
            prompt = self.session.prompt() if self.session is not None else None
            if prompt is not None and prompt.dice is not None:  # the roll waiting now
                self._use_profile(self._profile_for(prompt.dice.profile))
            elif self._missing_profiles.isdisjoint(self._noticed_sets):
                self.notice("dice", None)
            return path

        return self.submit(job)

    @property
    def store(self) -> Store:
        if self._store is None:
            raise RuntimeError("the runtime is not started")
        return self._store

    @property
    def corrections(self) -> CorrectionLog:
        if self._corrections is None:
            self._corrections = CorrectionLog(self.store, self.settings.data_dir / CORRECTIONS)
        return self._corrections

    # table thread ----------------------------------------------------------------
    def _open_store(self) -> None:
        self._store = Store.in_dir(self.settings.data_dir)

    def _close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    def _begin(self, session: TableSession) -> TableState:
        self.notice("game", None)
        self._dice_notice(None)  # said again if this game's rolls wait for dice
        self.session = session
        self.controller = Controller(session)
        if session.saved.game == Dicequest.id:  # cards typed in at the table are kept
            session.subscribe(catalogue.keeper(self.settings.data_dir))
        self._roll_spots = ()
        if self.ring is not None:  # the ring follows the session's prompts and events
            self.ring.follow(session)
        return self._publish()

    def _act(self, action: TableAction) -> TableState | None:
        if self.controller is None:
            return None
        prompt = self.controller.prompt
        try:
            events = self.controller.act(action)
        except InvalidInput as error:
            return self._publish(error=error.reason)
        except (StoreError, OSError) as error:
            return self._publish(error=self._not_saved(error))
        if action in (TableAction.CONFIRM, TableAction.UNDO):
            self.notice("disk", None)  # written: the card takes answers again
        if action is TableAction.CONFIRM and prompt.kind is PromptKind.ROLL:
            self._rolled()
        return self._publish(events=events)

    def _answer(self, answer: Input) -> TableState | None:
        if self.session is None or self.controller is None:
            return None
        try:
            events = self.session.submit(answer)
        except InvalidInput as error:
            return self._publish(error=error.reason)
        except (StoreError, OSError) as error:
            return self._publish(error=self._not_saved(error))
        self.notice("disk", None)
        if answer.kind is InputKind.DICE:
            self._rolled()
        return self._publish(events=events)

    def _not_saved(self, error: BaseException, what: str = "move") -> Msg:
        """A move the store could not write (full or read-only SD card): the game
        stays at its last saved move, and the players are told, on the prompt bar
        and in a notice (what to do) that stays until a move is saved again."""
        log.error("%s not saved: %s", what, error)
        self.notice("disk", disk_words(error, self.settings.data_dir))
        return msg("Not saved: the SD card cannot be written (see the notice above).")

    def _rolled(self) -> None:
        """Dice were answered: remember where they lay (for keep marks), and do not
        offer the same dice again; the next roll must settle first."""
        self._roll_spots = self.tray.dice
        if self.controller is not None:
            self.controller.offer_dice(())

    def _publish(
        self, state: Any = ..., *, events: list[Event] | None = None, error: Msg | None = None
    ) -> TableState | None:
        if state is ...:
            state = self._snapshot(events or [], error)
        for listener in self.listeners.table:
            self.post(lambda listener=listener: listener(state))
        request = None if state is None else state.prompt.dice
        if request is not None:
            self._use_profile(self._profile_for(request.profile))
            self._throw((min(request.least, 8), min(request.count, 8)))
        return state

    def _throw(self, count: tuple[int, int]) -> None:
        """The synthetic tray (demo) throws as many dice as the prompt asks for:
        here, or in the tray process (told now, or as it starts)."""
        self._dice_count = count
        if hasattr(self.camera, "count"):
            self.camera.count = count
        if self.tray_process:
            with self._tray_send:
                if self._tray_conn is not None:
                    with contextlib.suppress(OSError):
                        self._tray_conn.send(("count", count))

    def _profile_for(self, wanted: str) -> str:
        """The profile to read a roll with: the one the prompt names when it was
        taught on this table (``<data_dir>/profiles/``), else the configured one. The
        plain ``d6`` a game asks for means the configured profile, or the table's own
        pip dice when they were taught (``taught-d6``) and nothing else is configured.
        A set that is not taught is said in a notice that leads to teaching it."""
        from dicetable.vision.profiles import list_profiles

        configured = str(self.settings["vision.profile"])
        taught = list_profiles(self.settings.data_dir)
        if not wanted or wanted in ("d6", configured):
            self._dice_notice(None)
            if configured == "d6" and wanted in ("", "d6") and TAUGHT_D6 in taught:
                return TAUGHT_D6
            return configured
        if wanted in taught:
            self._dice_notice(None)
            return wanted
        if wanted not in self._missing_profiles:
            self._missing_profiles.add(wanted)
            log.info(
                "dice profile %r is not taught in %s; reading with %r",
                wanted,
                self.settings.data_dir / "profiles",
                configured,
            )
        self._dice_notice(wanted)
        return configured

    def _dice_notice(self, wanted: str | None) -> None:
        """Say which dice set the game is waiting for (None: stop saying it); only
        where a tray is read (typed dice need no teaching)."""
        self._noticed_sets = {wanted} if wanted else set()
        if wanted is None or (self.camera is None and not self.tray_process):
            self.notice("dice", None)
            return
        known = {dice.profile: dice.title for dice in dice_sets(self.settings.data_dir)}
        self.notice(
            "dice",
            msg(
                "{dice}: not taught on this table yet, so read as plain pips."
                " Teach them in Menu, Settings.",
                dice=known.get(wanted, wanted),
            ),
        )

    def _use_profile(self, name: str) -> None:
        """Switch the tray reader to ``name``: here, a new reader for the watcher; in
        the tray process, a message to it. A profile that cannot be loaded is logged
        and the reader keeps the one it has."""
        if name == self._profile or (self.camera is None and not self.tray_process):
            return
        if self.tray_process:
            with self._tray_send:
                if self._tray_conn is None:  # not started yet: it starts with this one
                    self._profile = name
                    return
                with contextlib.suppress(OSError):
                    self._tray_conn.send(("profile", name))
        elif hasattr(self.watcher, "reader"):
            reader = _reader(name, self.settings.data_dir)
            if reader is None:
                return
            self.watcher.reader = reader  # the tray thread takes it on its next frame
        self._profile = name
        log.info("reading dice with profile %r", name)

    def _use_tray_area(self, area: tuple[float, ...]) -> None:
        """Read only this part of the frame from the next frame on: here the tray
        thread reads ``tray_area`` each frame; the tray process is sent it."""
        if area == self.tray_area:
            return
        self.tray_area = area
        if self.tray_process:
            with self._tray_send:
                if self._tray_conn is not None:  # else the process starts with it
                    with contextlib.suppress(OSError):
                        self._tray_conn.send(("tray", area))
        log.info("tray area %s", area)

    def _snapshot(self, events: list[Event], error: Msg | None) -> TableState:
        assert self.session is not None and self.controller is not None
        prompt = self.controller.prompt
        keep = tuple(self._roll_spots[i] for i in prompt.keep if 0 <= i < len(self._roll_spots))
        return TableState(
            saved_id=self.session.id,
            game_id=self.session.saved.game,
            title=game_class(self.session.saved.game).title,
            prompt=prompt,
            view=self.session.view(),
            focus=self.controller.focus,
            dice=self.controller.dice,
            meanings={a: self.controller.meaning(a) for a in (*ACTIONS, TableAction.MENU)},
            events=tuple(events),
            error=error,
            keep_spots=keep,
            inputs=self.session.count,
        )

    # tray thread -----------------------------------------------------------------
    def _read_tray(self) -> None:
        """Tray records in (from this thread's own reading, or from the tray process),
        screen, ring and controller updated, until stopped."""
        records = self._records_from_process() if self.tray_process else self._records_here()
        try:
            for record in records:
                self._take(record)
        except Exception as error:  # the game goes on with typed dice
            log.exception("the tray reader stopped")
            why = f"the tray reader stopped ({error})"
            self._show_tray(TrayState("no_camera", message=msg("No camera: {why}", why=why)))
            self.notice("camera", no_camera_words(why))

    def _records_here(self) -> Iterator[TrayRecord]:
        assert self.camera is not None
        yield from tray_records(
            self.camera,
            self.watcher,
            timeout=float(self.settings["camera.timeout"]),
            preview_interval=self.preview_interval,
            stop=self._stop,
            clock=self.clock,
            area=lambda: self.tray_area,
        )

    def _records_from_process(self) -> Iterator[TrayRecord]:
        """The camera and the reader in a process of their own: Python threads share
        one interpreter lock, and a reader busy in Python code would make the screen
        stutter; a process only sends its results (and a small preview)."""
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        with self._tray_send:  # the process starts with the profile of the prompt now
            values = {section: dict(keys) for section, keys in self.settings.values.items()}
            values["vision"]["profile"] = self._profile
            values["camera"]["tray"] = list(self.tray_area)
            process = context.Process(
                target=serve_tray,
                args=(values, self.settings.path, theirs, self.preview_interval),
                name="dicetable-tray",
                daemon=True,
            )
            process.start()
            self._tray_conn = ours
            if self._dice_count is not None:
                with contextlib.suppress(OSError):
                    ours.send(("count", self._dice_count))
        said = False  # the process said why it stopped (a camera that cannot open)
        try:
            while not self._stop.is_set():
                if ours.poll(0.5):
                    try:
                        record = ours.recv()
                    except EOFError:
                        if not said:
                            yield TrayRecord("lost", message="the tray process ended")
                        return
                    said = record.state == "lost"
                    yield record
        finally:
            with self._tray_send:
                self._tray_conn = None
                with contextlib.suppress(OSError):
                    ours.send("stop")
            process.join(timeout=3)
            if process.is_alive():
                process.terminate()

    def _take(self, record: TrayRecord) -> None:
        self._ring_tray(record.state, record.changed)
        if record.state == "settled" and record.changed:
            self._last_frame = record.frame
            self._last_box = record.box
            dice = tuple(d.as_die() for d in record.dice)
            self.submit(lambda: self._offer_read(dice))
        message = None
        state = record.state
        if record.message:
            message = msg("Camera lost: {why}", why=record.message)
        if state == "lost" and not self._camera_seen:  # it never gave a picture
            state, message = "no_camera", msg("No camera: {why}", why=record.message)
            self.notice("camera", no_camera_words(record.message or "no picture"))
        elif state == "lost":
            lost = msg(
                "Camera lost: {why}. Type the dice on the screen meanwhile; the camera "
                "is tried again every few seconds.",
                why=(record.message or "no picture").rstrip("."),
            )
            self.notice("camera", lost)
        else:
            self._camera_seen = True
            self.notice("camera", None)  # pictures again
        self._show_tray(
            TrayState(
                state,
                record.dice,
                record.preview,
                record.frame_size,
                message,
                record.spent,
            )
        )

    def _ring_tray(self, state: str, changed: bool) -> None:
        """Rolling dice make the ring spin; settling flashes it (``hardware.leds``)."""
        if self.ring is None or not changed:
            return
        if state == "rolling":
            self.ring.dice_moving()
        elif state == "settled":
            self.ring.dice_read()

    def _offer_read(self, dice: tuple[Die, ...]) -> None:
        if self.controller is not None and self.controller.prompt.kind is PromptKind.ROLL:
            self.controller.offer_dice(dice)
            self._publish()

    def _show_tray(self, tray: TrayState) -> None:
        self.tray = tray
        for listener in self.listeners.tray:
            self.post(lambda listener=listener: listener(tray))


@dataclass(frozen=True)
class TrayRecord:
    """One report from the tray reader: picklable, so it can come from a process."""

    state: str
    dice: tuple[SeenDie, ...] = ()
    preview: Any = None
    frame_size: tuple[int, int] = (0, 0)
    spent: float = 0.0
    changed: bool = True
    frame: Any = None  # the full frame, only with a new settled reading (corrections)
    message: str = ""
    box: tuple[int, int, int, int] | None = None  # the tray area read, pixels of frame


def tray_records(
    camera: FrameSource,
    watcher: Any,
    *,
    timeout: float,
    preview_interval: float,
    stop: threading.Event,
    clock: Callable[[], float] = time.monotonic,
    area: Callable[[], Sequence[float]] = lambda: FULL_FRAME,
) -> Iterator[TrayRecord]:
    """Frames in, readings out, until ``stop``. A camera that fails is reported
    (``lost``) and retried every 2 s; the game goes on with typed dice meanwhile.
    A record is made for every change and otherwise at most once per preview.

    Only the tray ``area`` (asked each frame, so a new one applies at once) is given
    to the watcher: a cup or a spare die beside the tray is never read. The dice come
    back at full-frame pixels and the preview shows the whole frame, so the screen
    draws their outlines on the dice and the player still sees the whole table."""
    from dicetable.hardware.camera import CameraError

    last_preview = 0.0
    started = False
    failed = ""  # the last failure logged
    while not stop.is_set():
        try:
            if not started:
                camera.start()
                started = True
            frame = camera.read(timeout=timeout)
        except CameraError as error:  # the same failure again is not news for the journal
            log.log(logging.DEBUG if str(error) == failed else logging.WARNING, "camera: %s", error)
            failed = str(error)
            yield TrayRecord("lost", message=str(error))
            started = False
            _safe_stop(camera)
            stop.wait(2.0)
            continue
        if frame is None:
            continue
        failed = ""
        now = clock()
        began = time.perf_counter()
        box = tray_box(area(), frame.shape[1], frame.shape[0])
        left, top, right, bottom = box
        update = watcher.update(frame[top:bottom, left:right], now)
        spent = time.perf_counter() - began
        state = str(getattr(update.state, "value", update.state))
        state = "hand" if state == "hand in view" else state
        if update.changed or now - last_preview >= preview_interval:
            last_preview = now
            settled = state == "settled" and update.changed
            yield TrayRecord(
                state,
                _seen(getattr(update, "reading", None), (left, top)),
                _preview(frame),
                (frame.shape[1], frame.shape[0]),
                spent,
                update.changed,
                frame if settled else None,
                box=box,
            )
    if started:
        _safe_stop(camera)


def serve_tray(values: dict, path: Any, conn: Any, preview_interval: float) -> None:
    """The tray process: camera and reader from the settings, records to ``conn``
    until the runtime sends ``"stop"`` (or goes away); ``("profile", name)`` switches
    the reader to another dice profile, ``("tray", area)`` reads another part of the
    frame, ``("count", (least, most))`` sets the dice the demo tray throws."""
    settings = Config(values, path)
    stop = threading.Event()
    area = [tuple(settings["camera.tray"])]  # replaced whole by the listener
    try:
        camera, watcher = _camera_and_watcher(settings)
    except Exception as error:
        conn.send(TrayRecord("lost", message=str(error)))
        return

    def listen() -> None:
        with contextlib.suppress(EOFError, OSError):
            while (message := conn.recv()) != "stop":
                if isinstance(message, tuple) and message[0] == "profile":
                    reader = _reader(message[1], settings.data_dir)
                    if reader is not None:
                        watcher.reader = reader
                if isinstance(message, tuple) and message[0] == "tray":
                    area[0] = tuple(message[1])
                counted = hasattr(camera, "count")  # the synthetic tray (demo)
                if isinstance(message, tuple) and message[0] == "count" and counted:
                    camera.count = tuple(message[1])
        stop.set()

    threading.Thread(target=listen, daemon=True).start()
    for record in tray_records(
        camera,
        watcher,
        timeout=float(settings["camera.timeout"]),
        preview_interval=preview_interval,
        stop=stop,
        area=lambda: area[0],
    ):
        try:
            conn.send(record)
        except (BrokenPipeError, OSError):
            break
    _safe_stop(camera)


def _camera_and_watcher(settings: Config) -> tuple[FrameSource, Any]:
    from dicetable.hardware.camera import open_camera
    from dicetable.vision.profiles import load_profile, make_reader
    from dicetable.vision.settle import SettleWatcher

    camera = open_camera(settings)
    profile = load_profile(settings["vision.profile"], settings.data_dir)
    return camera, SettleWatcher(make_reader(profile), settings["vision.settle_seconds"])


def _reader(profile: str, data_dir: Path) -> Any:
    """A dice reader with a stored profile, or None (logged) when it cannot load."""
    from dicetable.vision.profiles import ProfileError, load_profile, make_reader

    try:
        return make_reader(load_profile(profile, data_dir))
    except ProfileError as error:
        log.warning("dice profile %r: %s; the reader keeps its profile", profile, error)
        return None


def compose(settings: Config, post: Post, *, demo: bool = False) -> Runtime:
    """The runtime the settings ask for, with its camera, reader and LED ring opened
    here (``dicetable run`` opens them after the first frame: ``start_devices``).
    ``demo`` uses the synthetic tray and the simulated ring."""
    if demo:
        settings = demo_settings(settings)
    runtime = Runtime(settings, post)
    runtime.use_devices(open_devices(settings))
    return runtime


def open_devices(settings: Config) -> Devices:
    """Camera and reader, LED ring. A camera or ring that cannot be opened is
    logged and left out (``why``); the game goes on with dice typed on the screen.
    The camera is opened again, and read, in the tray process."""
    camera = watcher = None
    why: str | None = None
    try:
        from dicetable.hardware.camera import CameraError

        try:
            camera, watcher = _camera_and_watcher(settings)
        except (CameraError, OSError, ValueError) as error:
            camera, why = None, str(error)
            log.warning("no camera: %s; dice are typed on the screen", error)
    except ImportError as error:  # a part not installed: say so, play on
        why = str(error)
        log.warning("camera or reader unavailable (%s); dice are typed on the screen", error)
    return Devices(camera, watcher, open_ring_of(settings), why)


def open_ring_of(settings: Config) -> Any:
    """The LED ring the settings ask for, started, or None (logged when it fails)."""
    try:
        from dicetable.hardware.leds import open_ring

        return open_ring(settings)
    except Exception as error:  # the ring is decoration: never stop a game for it
        log.warning("LED ring off: %s", error)
        return None


def no_camera_words(why: str) -> Msg:
    return msg(
        "No camera: {why}. Type the dice on the screen. Check the camera's cable, "
        "then restart the table.",
        why=why.rstrip("."),
    )


def no_ring_words(port: str) -> Msg:
    if port == "auto":  # leds.port = "auto": it looks on every USB serial port
        return msg(
            "No LED ring answers on a USB serial port: the game goes on without it. "
            "Check its USB cable; it comes back by itself."
        )
    return msg(
        "The LED ring does not answer on {port}: the game goes on without it. "
        "Check its USB cable; it comes back by itself.",
        port=port,
    )


def cannot_resume_words(saved_id: int, error: BaseException) -> Msg:
    why = error.args[0] if isinstance(error, KeyError) and error.args else error
    return msg(
        "Saved game #{id} cannot be resumed: {why}. It is kept as it is; start a new "
        "game or resume another.",
        id=saved_id,
        why=str(why).rstrip("."),
    )


def disk_words(error: BaseException, folder: Path) -> Msg:
    """What a write that failed means at the table, and what to do about it."""
    text = str(error)
    if "full" in text or getattr(error, "errno", None) == 28:
        return msg(
            "Not saved: the SD card is full. Every game stays as it was last saved. "
            "Free some space in {folder}, then try again.",
            folder=str(folder),
        )
    if "read-only" in text or "readonly" in text or getattr(error, "errno", None) == 30:
        return msg(
            "Not saved: the SD card has turned read-only (a failing card or a power "
            "problem). Every game stays as it was last saved. Restart the table; if it "
            "happens again, replace the card.",
        )
    return msg("Not saved: {why}. Every game stays as it was last saved.", why=text.rstrip("."))


def demo_settings(settings: Config) -> Config:
    """Demo mode: the synthetic tray, the simulated ring, keys for buttons."""
    values = {section: dict(keys) for section, keys in settings.values.items()}
    values["camera"]["source"] = "synthetic"
    values["leds"]["port"] = "sim"
    values["buttons"]["source"] = "keyboard"
    return Config(values, settings.path)


def tray_box(area: Sequence[float], width: int, height: int) -> tuple[int, int, int, int]:
    """The tray area (fractions left, top, right, bottom) in pixels of a frame of
    ``width`` x ``height``: whole pixels, inside the frame, at least 1 px wide."""
    left, top, right, bottom = (min(max(float(v), 0.0), 1.0) for v in area)
    x0, y0 = min(round(left * width), width - 1), min(round(top * height), height - 1)
    x1, y1 = max(round(right * width), x0 + 1), max(round(bottom * height), y0 + 1)
    return x0, y0, x1, y1


def _seen(reading: Any, origin: tuple[int, int] = (0, 0)) -> tuple[SeenDie, ...]:
    """The vision reading (``FrameReading.dice`` of ``DieReading``) as plain data, at
    full-frame pixels (``origin``: where the part read lies in the frame)."""
    if reading is None:
        return ()
    dice = getattr(reading, "dice", reading)
    return tuple(
        SeenDie(
            x=float(d.x) + origin[0],
            y=float(d.y) + origin[1],
            size=float(d.size),
            value=d.value,
            face=str(d.face or ""),
            color=str(getattr(d, "color", "") or ""),
            confidence=float(getattr(d, "confidence", 1.0)),
            reason=str(getattr(d, "reason", "") or ""),
        )
        for d in dice
    )


def _preview(frame: Any, width: int = 480) -> Any:
    """A small RGB copy for the screen: the UI uploads at most a few of these a second."""
    import cv2

    height = max(1, round(frame.shape[0] * width / frame.shape[1]))
    small = cv2.resize(frame, (width, height), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2RGB)


def _safe_stop(camera: FrameSource) -> None:
    try:
        camera.stop()
    except Exception:
        log.debug("camera stop failed", exc_info=True)


# failures of the table, not of the code: a damaged or newer database, a saved game
# that no longer replays, a wrong setting, a bad card file, a full or
# read-only SD card. Their messages say what and where; a traceback would only hide it.
EXPECTED = (StoreError, ReplayError, ConfigError, DataError, OSError)


def _log_failure(future: Future) -> None:
    """A request that failed: one clear line for an expected failure, the traceback
    for a bug (which is what a traceback is for)."""
    if future.cancelled() or (error := future.exception()) is None:
        return
    if isinstance(error, EXPECTED):
        log.error("table request failed: %s", error)
    else:
        log.error("table request failed: %s", error, exc_info=error)
