"""One table at play: its worker thread, the requests the screens make, the tray thread.

Three threads, so that the screen never waits on anything slow:

* the **UI thread** (Kivy's) only draws snapshots and turns touches, keys and button
  presses into requests;
* the **table thread** owns the store (SQLite, fsync on every answer), the
  ``TableSession`` and its ``Controller``; every request runs there, one at a time,
  and its outcome comes back as a ``GameSnapshot``;
* the **tray thread** takes the tray reader's reports (read here, or in the tray
  process) and publishes ``TraySnapshot``s; a settled reading is offered to the
  controller, so CONFIRM (button, key or on-screen twin) uses it.

Everything that reaches the screen goes through ``post``: in the app that is Kivy's
``Clock.schedule_once``, in tests it may simply call. The LED ring is told about each
new table state from the table thread; the ring adapter itself must not block.
Opening devices is ``compose``'s job: the runtime is handed what was found
(``use_devices``). What is wrong at the table is kept in ``notices``.

Over 500 lines on purpose: this is the table's whole request surface (each request
a few lines with its docstring) and its two threads, read in one place; every job
they use lives in a module of its own beside it.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dicetable.device.config import Config, ConfigError
from dicetable.device.controller import Controller
from dicetable.device.corrections import FOLDER as CORRECTIONS
from dicetable.device.corrections import CorrectionLog
from dicetable.device.session import ReplayError, TableSession
from dicetable.device.store import Store, StoreError
from dicetable.device.table import (
    camera_state,
    card_catalogue,
    light_feed,
    notices,
    settings_file,
)
from dicetable.device.table.devices import Devices, reader_for
from dicetable.device.table.dice_sets import DiceSetChoice, title_of
from dicetable.device.table.notices import Notices
from dicetable.device.table.snapshots import (
    DieReading,
    GameSnapshot,
    Notice,
    TeachableSet,
    TraySnapshot,
    die_of,
)
from dicetable.device.table.teach import PIP_FACES, TeachSession, teachable_sets
from dicetable.device.table.tray_process import ReadArea, ThrowDice, TrayLink, UseProfile
from dicetable.device.table.tray_reading import TrayReport, tray_reports
from dicetable.hardware.actions import TableAction
from dicetable.rules.core import Die, Event, Input, InputKind, InvalidInput, Msg, PromptKind
from dicetable.rules.data_files import DataError
from dicetable.rules.registry import game_class, games

if TYPE_CHECKING:
    from dicetable.hardware.camera import FrameSource

log = logging.getLogger(__name__)

Post = Callable[[Callable[[], None]], None]
ACTIONS = (TableAction.BACK, TableAction.NEXT, TableAction.CONFIRM, TableAction.UNDO)
MOST_DICE_THROWN = 8  # the demo tray throws at most this many, whatever a prompt asks
PREVIEW_FPS = 8.0  # previews a second the tray sends the screen while nothing changes
RING_TEST_SECONDS = 0.7  # each actor's colour in the ring test


@dataclass
class Listeners:
    table: list[Callable[[GameSnapshot | None], None]] = field(default_factory=list)
    tray: list[Callable[[TraySnapshot], None]] = field(default_factory=list)
    notices: list[Callable[[tuple[Notice, ...]], None]] = field(default_factory=list)


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
        preview_fps: float = PREVIEW_FPS,
        clock: Callable[[], float] = time.monotonic,
        tray_process: bool = False,
    ) -> None:
        self.settings = settings
        self.post = post
        self.camera = camera
        self.watcher = watcher
        self.ring = ring
        self.status_light: Any = None  # the status LED and buzzer, when enabled
        self.preview_interval = 1.0 / preview_fps
        self.tray_process = tray_process  # read the tray in a process (the app does)
        self.clock = clock
        self.listeners = Listeners()
        self.session: TableSession | None = None
        self.controller: Controller | None = None
        self.tray = TraySnapshot() if camera is None else TraySnapshot("empty")
        self._last_frame: Any = None  # full frame of the latest settled reading
        self._last_box: tuple[int, int, int, int] | None = None  # its tray area, pixels
        self._last_frame_id = 0  # its number: a correction must name it
        # the tray area read for dice ([left, top, right, bottom] fractions of the frame)
        self.tray_area: tuple[float, ...] = tuple(settings["camera.tray"])
        self.teacher: TeachSession | None = None  # while a dice set is being taught
        self._roll_spots: tuple[DieReading, ...] = ()  # dice of the last answered roll
        self._table = ThreadPoolExecutor(max_workers=1, thread_name_prefix="table")
        self._store: Store | None = None
        self._corrections: CorrectionLog | None = None
        self._stop = threading.Event()
        self._tray_thread: threading.Thread | None = None
        self._profile = str(settings["vision.profile"])  # the dice profile read with now
        self._dice_choice = DiceSetChoice()
        self._noticed_sets: set[str] = set()  # the set the "dice" notice is about
        self.tray_link = TrayLink(self._profile, self.tray_area)
        self._devices = threading.Lock()  # devices arrive on a thread of their own
        self._started = False
        self._notices = Notices(post, self.listeners.notices)
        self._camera_seen = False  # a picture came: a failure now is a camera lost
        self._reads = camera is not None and watcher is not None  # there is a tray to read

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
        for device in (self.ring, self.status_light):
            if device is not None:
                device.close()

    @property
    def stopping(self) -> threading.Event:
        """Set once the table stops: a device thread waits on it instead of sleeping."""
        return self._stop

    def use_devices(self, devices: Devices) -> None:
        """Take the camera, reader, ring and status LED ``compose`` opened: the tray
        is read (in a process of its own) from now on, the ring and the LED follow
        the game in play, and a missing camera is said on the screen."""
        with self._devices:
            if self._stop.is_set():  # the app stopped while they were opening
                for device in (devices.ring, devices.status_light):
                    if device is not None:
                        device.close()
                return
            self.camera, self.watcher, self.ring = devices.camera, devices.watcher, devices.ring
            self.status_light = devices.status_light
            self.tray_process = devices.camera is not None or devices.in_tray_process
            self._reads = self.tray_process
            if self._started:
                self._start_tray()
        if devices.why is not None:
            self._show_tray(TraySnapshot("no_camera", message=notices.no_camera_line(devices.why)))
            self.notice("camera", notices.no_camera_words(devices.why))
        elif devices.camera is not None and self.tray.state == "starting":
            self._show_tray(TraySnapshot("empty"))
        if devices.ring is not None or devices.status_light is not None:
            self.submit(self._lights_follow)

    def _lights_follow(self) -> None:
        """The ring and the status LED show the game in play from now on."""
        if self.session is None:
            return
        for lights in (self.ring, self.status_light):
            if lights is not None:
                light_feed.follow(lights, self.session)

    def show_no_camera(self, message: Msg) -> None:
        """The tray reader could not be started: said on the tray view."""
        self._show_tray(TraySnapshot("no_camera", message=message))

    def watch_ring(self, grace: float, every: float) -> None:
        """A ring that does not answer (unplugged, another port) is said on the
        screen after ``grace`` seconds, and the notice goes when it is back; returns
        when the table stops."""
        ring = self.ring
        if ring is None or not hasattr(ring, "connected"):
            return
        if self._stop.wait(grace):
            return
        while True:
            connected = bool(ring.connected)
            port = str(getattr(ring, "port", "") or self.settings["leds.port"])
            self.notice("ring", None if connected else notices.no_ring_words(port))
            if self._stop.wait(every):
                return

    # notices: what the players must know ----------------------------------------------
    def notice(self, topic: str, text: Msg | None) -> None:
        """Say (or, with None, stop saying) something wrong about ``topic`` on the
        screens; any thread may call."""
        self._notices.say(topic, text)

    def notices(self) -> tuple[Notice, ...]:
        return self._notices.shown()

    def submit(self, job: Callable[[], Any]) -> Future:
        """Run ``job`` on the table thread; an unexpected error is logged, not lost."""
        future = self._table.submit(job)
        future.add_done_callback(_log_failure)
        return future

    # requests from the screen (any thread) -----------------------------------------
    def new_game(
        self, game_id: str, options: Mapping[str, str] | None = None, seed: int | None = None
    ) -> Future:
        chosen_seed = secrets.randbelow(2**31) if seed is None else seed

        def job() -> GameSnapshot | None:
            data_dir = self.settings.data_dir
            chosen = card_catalogue.with_catalogue(game_id, options or {}, data_dir)
            try:
                session = TableSession.start(self.store, game_id, chosen_seed, chosen)
            except (StoreError, OSError) as error:  # said on the home screen
                self._not_saved(error, "new game")
                raise
            self.notice("disk", None)
            return self._begin(session)

        return self.submit(job)

    def resume(self, saved_id: int) -> Future:
        def job() -> GameSnapshot | None:
            try:
                session = TableSession.resume(self.store, saved_id)
            except (ReplayError, KeyError) as error:  # said on the home screen
                self.notice("game", notices.cannot_resume_words(saved_id, error))
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

        def job() -> GameSnapshot | None:
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
        return self._offer(lambda controller: controller.offer_dice(dice))

    def offer_text(self, text: str | None) -> Future:
        """Text written on the screen for a TEXT prompt becomes what CONFIRM submits."""
        return self._offer(lambda controller: controller.offer_text(text))

    def _offer(self, give: Callable[[Controller], None]) -> Future:
        def job() -> GameSnapshot | None:
            if self.controller is not None:
                self.controller.prompt  # noqa: B018 (a new prompt resets what was offered)
                give(self.controller)
                return self._publish()
            return None

        return self.submit(job)

    def correct(self, index: int, die: Die, frame_id: int | None = None) -> Future:
        """A die the camera misread, fixed by touch: the fix is used at once and logged
        with the frame, so the reader can be improved from real mistakes. ``frame_id``
        (``TraySnapshot.frame_id``) is the picture the player corrected: when the tray
        has moved on to another, the fix is refused (``notices.DICE_MOVED``)."""

        def job() -> GameSnapshot | None:
            seen = self.tray.dice
            if self.controller is None or not 0 <= index < len(seen):
                return None
            if frame_id is not None and frame_id != self._last_frame_id:
                return self._publish(error=notices.DICE_MOVED)
            self.controller.prompt  # noqa: B018
            dice = list(self.controller.dice or tuple(die_of(d) for d in seen))
            if index >= len(dice):
                return None
            read = seen[index]
            dice[index] = die
            self.controller.offer_dice(tuple(dice))
            self.corrections.log(
                read=dataclasses.asdict(read),
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
        """Write one setting to the user's file (``settings_file``) and use it."""

        def job() -> Config:
            self.settings = settings_file.save_setting(self.settings, dotted, value)
            self.notice("settings", None)  # the file is whole again
            self._use_tray_area(tuple(self.settings["camera.tray"]))
            return self.settings

        return self.submit(job)

    def test_ring(self, step: float = RING_TEST_SECONDS) -> bool:
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
            return teachable_sets(self.settings.data_dir, self._dice_choice.waiting)

        return self.submit(job)

    def teach(
        self,
        name: str,
        faces: tuple[str, ...] = PIP_FACES,
        values: tuple[int | None, ...] | None = None,
    ) -> Future:
        """Start teaching a dice profile: one example of each face, from the tray.
        ``name`` is the profile a game asks for (the plain ``d6`` is kept as
        ``taught-d6``: ``d6`` always names the built-in pip reader)."""

        def job() -> list[str]:
            self.teacher = TeachSession.start(name, faces, values)
            return self.teacher.missing()

        return self.submit(job)

    def teach_face(self, face_index: int) -> Future:
        """The die now settled in the tray shows face ``face_index``: learn it. The
        result is the faces still missing, or the number of dice seen when that is
        not exactly one (0 also when no settled frame came yet)."""

        def job() -> list[str] | int:
            if self.teacher is None or self._last_frame is None:
                return 0
            return self.teacher.learn(self._last_frame, self._last_box, face_index)

        return self.submit(job)

    def teach_save(self) -> Future:
        """Learn and store the profile beside the saved games; returns its path. A
        roll waiting for these dice is read with them from now on."""

        def job() -> Path:
            assert self.teacher is not None
            path = self.teacher.save(self.settings.data_dir)
            self._dice_choice.taught(self.teacher.name)
            prompt = self.session.prompt() if self.session is not None else None
            if prompt is not None and prompt.dice is not None:  # the roll waiting now
                self._use_profile(self._profile_for(prompt.dice.profile))
            elif self._dice_choice.waiting.isdisjoint(self._noticed_sets):
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

    def _begin(self, session: TableSession) -> GameSnapshot | None:
        self.notice("game", None)
        self._dice_notice(None)  # said again if this game's rolls wait for dice
        self.session = session
        self.controller = Controller(session)
        card_catalogue.keep_typed_cards(session, self.settings.data_dir)
        self._roll_spots = ()
        self._lights_follow()  # the ring and LED follow its prompts and events
        return self._publish(
            dataclasses.replace(self._snapshot([], None), history=session.replayed)
        )

    def _act(self, action: TableAction) -> GameSnapshot | None:
        controller = self.controller
        if controller is None:
            return None
        prompt = controller.prompt
        events = self._applied(lambda: controller.act(action))
        if isinstance(events, Msg):
            return self._publish(error=events)
        if action in (TableAction.CONFIRM, TableAction.UNDO):
            self.notice("disk", None)  # written: the card takes answers again
        if action is TableAction.CONFIRM and prompt.kind is PromptKind.ROLL:
            self._rolled()
        return self._publish(events=events)

    def _answer(self, answer: Input) -> GameSnapshot | None:
        session = self.session
        if session is None or self.controller is None:
            return None
        events = self._applied(lambda: session.submit(answer))
        if isinstance(events, Msg):
            return self._publish(error=events)
        self.notice("disk", None)
        if answer.kind is InputKind.DICE:
            self._rolled()
        return self._publish(events=events)

    def _applied(self, apply: Callable[[], list[Event]]) -> list[Event] | Msg:
        """The events of an answer (a button's or a touch's), or why it was not taken:
        refused by the game, or not saved (said in a notice too)."""
        try:
            return apply()
        except InvalidInput as error:
            return error.reason
        except (StoreError, OSError) as error:
            return self._not_saved(error)

    def _not_saved(self, error: BaseException, what: str = "move") -> Msg:
        """A move the store could not write (full or read-only SD card): the game
        stays at its last saved move, and the players are told, on the prompt bar
        and in a notice (what to do) that stays until a move is saved again."""
        log.error("%s not saved: %s", what, error)
        self.notice("disk", notices.disk_words(error, self.settings.data_dir))
        return notices.NOT_SAVED

    def _rolled(self) -> None:
        """Dice were answered: remember where they lay (for keep marks), and do not
        offer the same dice again; the next roll must settle first."""
        self._roll_spots = self.tray.dice
        if self.controller is not None:
            self.controller.offer_dice(())

    def _publish(
        self, state: Any = ..., *, events: list[Event] | None = None, error: Msg | None = None
    ) -> GameSnapshot | None:
        """Post the game's snapshot (``...``: made now) to the screens, then ready the
        tray for the roll it asks for: its dice set and the dice the demo throws."""
        if state is ...:
            state = self._snapshot(events or [], error)
        for listener in self.listeners.table:
            self.post(functools.partial(listener, state))
        request = None if state is None else state.prompt.dice
        if request is not None:
            self._use_profile(self._profile_for(request.profile))
            self._throw(min(request.least, MOST_DICE_THROWN), min(request.count, MOST_DICE_THROWN))
        return state

    def _throw(self, least: int, most: int, face: tuple[int | None, str] | None = None) -> None:
        """The synthetic tray (demo) throws as many dice as the prompt asks for, or
        one die with ``face`` up: here, or in the tray process (told now, or as it
        starts)."""
        camera: Any = self.camera
        if hasattr(camera, "count"):
            camera.count = (least, most)
            camera.shown = face
        self.tray_link.tell(ThrowDice(least, most, face))  # the tray process, now or later

    def show_face(self, value: int | None, face: str) -> Future:
        """The demo tray shows one die with this face up from its next throw (the
        teach flow asks for each face in turn); a real camera is not affected."""
        return self.submit(lambda: self._throw(1, 1, (value, face)))

    def _profile_for(self, wanted: str) -> str:
        """The profile to read a roll with (``dice_sets``); a set that is not taught
        is said in a notice that leads to teaching it."""
        configured = str(self.settings["vision.profile"])
        profile, waiting = self._dice_choice.profile_for(wanted, configured, self.settings.data_dir)
        self._dice_notice(waiting)
        return profile

    def _dice_notice(self, wanted: str | None) -> None:
        """Say which dice set the game is waiting for (None: stop saying it); only
        where a tray is read (typed dice need no teaching)."""
        self._noticed_sets = {wanted} if wanted else set()
        if wanted is None or (self.camera is None and not self.tray_process):
            self.notice("dice", None)
            return
        title = title_of(wanted, self.settings.data_dir)
        self.notice("dice", notices.dice_not_taught_words(title))

    def _use_profile(self, name: str) -> None:
        """Switch the tray reader to ``name``: here, a new reader for the watcher; in
        the tray process, a message to it. A profile that cannot be loaded is logged
        and the reader keeps the one it has."""
        if name == self._profile or (self.camera is None and not self.tray_process):
            return
        if not self.tray_process and hasattr(self.watcher, "reader"):
            reader = reader_for(name, self.settings.data_dir)
            if reader is None:
                return
            self.watcher.reader = reader  # the tray thread takes it on its next frame
        self.tray_link.tell(UseProfile(name))  # the tray process, now or as it starts
        self._profile = name
        log.info("reading dice with profile %r", name)

    def _use_tray_area(self, area: tuple[float, ...]) -> None:
        """Read only this part of the frame from the next frame on: here the tray
        thread reads ``tray_area`` each frame; the tray process is sent it."""
        if area == self.tray_area:
            return
        self.tray_area = area
        self.tray_link.tell(ReadArea(area))  # the tray process, now or as it starts
        log.info("tray area %s", area)

    def _snapshot(self, events: list[Event], error: Msg | None) -> GameSnapshot:
        assert self.session is not None and self.controller is not None
        prompt = self.controller.prompt
        keep = tuple(self._roll_spots[i] for i in prompt.keep if 0 <= i < len(self._roll_spots))
        return GameSnapshot(
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
        """Tray reports in (read on this thread, or from the tray process), screen,
        ring and controller updated, until stopped."""
        reports = (
            self.tray_link.reports(self.settings, self.preview_interval, self._stop)
            if self.tray_process
            else self._reports_here()
        )
        try:
            for report in reports:
                self._take(report)
        except Exception as error:  # the game goes on with typed dice
            log.exception("the tray reader stopped")
            stopped = camera_state.reader_stopped(error)
            self._show_tray(stopped.tray)
            self.notice("camera", stopped.notice)

    def _reports_here(self) -> Iterator[TrayReport]:
        assert self.camera is not None
        yield from tray_reports(
            self.camera,
            self.watcher,
            timeout=float(self.settings["camera.timeout"]),
            preview_interval=self.preview_interval,
            stop=self._stop,
            clock=self.clock,
            area=lambda: self.tray_area,
        )

    def _take(self, report: TrayReport) -> None:
        self._lights_tray(report.state, report.changed)
        if report.state == "settled" and report.changed:
            self._last_frame = report.frame
            self._last_box = report.box
            self._last_frame_id = report.frame_id
            dice = tuple(die_of(d) for d in report.dice)
            self.submit(lambda: self._offer_read(dice))
        seen = camera_state.after(report, self._camera_seen)
        self._camera_seen = seen.camera_seen
        self.notice("camera", seen.notice)
        self._show_tray(seen.tray)

    def _lights_tray(self, state: str, changed: bool) -> None:
        """Rolling dice make the ring spin and the LED blink; settling flashes the
        ring and beeps (``hardware.leds``, ``hardware.status_light``)."""
        if not changed:
            return
        for lights in (self.ring, self.status_light):
            if lights is None:
                continue
            if state == "rolling":
                lights.dice_moving()
            elif state == "settled":
                lights.dice_read()

    def _offer_read(self, dice: tuple[Die, ...]) -> None:
        if self.controller is not None and self.controller.prompt.kind is PromptKind.ROLL:
            self.controller.offer_dice(dice)
            self._publish()

    def _show_tray(self, tray: TraySnapshot) -> None:
        self.tray = tray
        for listener in self.listeners.tray:
            self.post(functools.partial(listener, tray))


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
