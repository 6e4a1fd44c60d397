"""``run``: the touchscreen app (``--demo`` without Pi hardware).

Kivy reads its settings when it is first imported, so everything Kivy must know
(window size, full screen, logging through ours, no argv parsing, no log files on
the SD card) is set here before the UI is imported.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import threading
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dicetable.device import config
from dicetable.device.commands import load_config
from dicetable.device.config import Config, ConfigError
from dicetable.rules.core import Msg, msg

log = logging.getLogger(__name__)


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("run", help="the touchscreen app (demo mode without a Pi)")
    parser.add_argument(
        "--demo",
        action="store_true",
        help="synthetic camera, simulated LED ring, keys for the buttons",
    )
    parser.add_argument(
        "--size",
        metavar="WxH",
        help="window size (default: from ui.orientation, 800x480 or 720x1280)",
    )
    parser.add_argument("--game", help="start this game at once (see `dicetable games`)")
    parser.add_argument("--seed", type=int, help="seed of the game started with --game")
    parser.add_argument(
        "--screenshot",
        type=Path,
        metavar="DIR",
        help="save pictures of the home and game screens to DIR, then quit",
    )
    parser.add_argument(
        "--seconds", type=float, default=4.0, help="with --screenshot: how long to play first"
    )
    parser.set_defaults(func=run)


def display_for(orientation: str, size: str | None):
    from dicetable.ui.theme import DISPLAYS, Display

    if not size:
        return DISPLAYS[orientation]
    try:
        width, height = (int(part) for part in size.lower().split("x"))
    except ValueError:
        raise ValueError(f"--size {size!r}: write WIDTHxHEIGHT, e.g. 800x480") from None
    base = DISPLAYS["portrait" if height > width else "landscape"]
    return Display(base.name, width, height, base.dpi)


def configure_kivy(width: int, height: int, fullscreen: bool) -> None:
    """Before the first ``import kivy``: our logging, no argv, the window we want."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    from kivy.config import Config

    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "show_cursor", "0" if fullscreen else "1")
    Config.set("graphics", "maxfps", "30")
    Config.set("kivy", "exit_on_escape", "0")  # Escape opens the menu
    # one touch path only: mouse events are dropped while a touch provider is active
    Config.set("input", "mouse", "mouse,disable_on_activity")


def run(args: argparse.Namespace) -> int:
    settings, damaged = load_settings(args)
    if args.demo:
        from dicetable.device.table.compose import demo_settings

        settings = demo_settings(settings)
    display = display_for(settings["ui.orientation"], args.size)
    fullscreen = bool(settings["ui.fullscreen"]) and args.screenshot is None
    configure_kivy(display.width, display.height, fullscreen)

    from kivy.clock import Clock
    from kivy.core.window import Window

    if Window is None:  # no display (no /dev/dri, or a desktop holding it): Kivy said why
        print(
            "dicetable: no display could be opened (see the window messages above);"
            " is the screen connected and free (no desktop running on it)?",
            file=sys.stderr,
        )
        return 1  # a failure the service retries a few times (a late DRM driver)

    from dicetable.device.table.compose import open_buttons_of, start_devices
    from dicetable.device.table.runtime import Runtime
    from dicetable.device.table.snapshots import TraySnapshot
    from dicetable.ui.app import DiceTableApp

    # the home screen comes first; camera, reader, ring and buttons once it is shown
    runtime = Runtime(settings, lambda job: Clock.schedule_once(lambda _dt: job()))
    runtime.tray = TraySnapshot("starting", message=msg("Starting camera…"))
    if damaged is not None:
        runtime.notice("settings", damaged)
    runtime.start()
    buttons: list[Any] = []

    def open_devices() -> None:
        start_devices(runtime)
        threading.Thread(target=open_buttons, name="buttons", daemon=True).start()

    def open_buttons() -> None:
        def deliver(action: Any) -> None:
            def press(_dt: float) -> None:
                if app.screens is not None:
                    app.screens.act(action)

            Clock.schedule_once(press)

        def repeats(action: Any) -> bool:  # a held + or − of the number entry
            return app.screens is not None and app.screens.held_repeats(action)

        opened = open_buttons_of(runtime, deliver, repeats)  # says why it could not
        if opened is not None:
            buttons.append(opened)

    app = DiceTableApp(runtime, display, on_shown=open_devices)
    if args.game:
        runtime.new_game(args.game, seed=args.seed)
    if args.screenshot is not None:
        _pictures(app, args.screenshot, args.seconds, args.game)
    try:
        app.run()
    finally:
        for opened in buttons:
            opened.close()
    return 0


def load_settings(args: argparse.Namespace) -> tuple[Config, Msg | None]:
    """The settings, and what is wrong with the file when it has a mistake.

    A table must come up even with a typo in its settings file: a key that is not
    valid is left at its default (a file that is not TOML at all: every key), and
    the players are told on screen. Only when the data folder itself would be
    unknown (``storage.data_dir`` unreadable and no ``$DICETABLE_DATA``/``--data``)
    does the error stop the app: opening an empty database elsewhere would look like
    every saved game was lost."""
    try:
        return load_config(args), None
    except ConfigError as error:
        problem = error
    path = args.config or config.default_path()
    values = tomllib.loads(config.defaults_text())
    bad: list[str] = []
    try:
        user = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        user, bad = {}, ["*"]
    for section, keys in user.items():
        if section not in values or not isinstance(keys, dict):
            bad.append(f"[{section}]")
            continue
        for key, value in keys.items():
            try:
                values[section][key] = config.check(
                    path, f"{section}.{key}", value, values[section]
                )
            except ConfigError:
                bad.append(f"{section}.{key}")
    unknown = {"*", "[storage]", "storage.data_dir"} & set(bad)
    if unknown and args.data is None and not os.environ.get(config.ENV_DATA):
        raise problem  # where the saved games are is not known: a person must look
    keys = "every key" if "*" in bad else ", ".join(bad)
    log.error("%s; default settings are used for %s", problem, keys)
    if "*" in bad:
        words = msg(
            "The settings file {path} cannot be read, so default settings are used: "
            "{why}. Fix the file (or delete it), then restart the table.",
            path=str(path),
            why=str(problem).removeprefix(f"{path}: "),
        )
    else:
        words = msg(
            "The settings file {path} has a mistake, so the default is used for {keys}: "
            "{why}. Fix the file, then restart the table.",
            path=str(path),
            keys=", ".join(bad),
            why=str(problem).removeprefix(f"{path}: "),
        )
    return Config(values, path, args.data), words


def _pictures(app, folder: Path, seconds: float, game: str | None) -> None:
    """Save what the screen shows once it is drawn (the home screen filled in, or
    the asked game on it), and again ``seconds`` later, then stop."""
    from kivy.clock import Clock

    folder.mkdir(parents=True, exist_ok=True)

    def ready() -> bool:
        screens = app.screens
        if screens is None or not screens.shown():
            return False
        return game is None or (screens.current == "game" and screens.game.state is not None)

    def later() -> None:
        save_drawn_frame(folder / "later.png", then=lambda _path: app.stop())

    save_drawn_frame(
        folder / "first.png",
        ready,
        then=lambda _path: Clock.schedule_once(lambda _dt: later(), seconds),
    )


def save_drawn_frame(
    path: Path,
    ready: Callable[[], bool] = lambda: True,
    then: Callable[[Path], Any] | None = None,
) -> None:
    """Save the window to ``path`` from the next frame drawn once ``ready()``.

    Read from inside ``on_flip`` (the frame is drawn, not yet swapped): read from a
    clock callback, the GL back buffer holds no frame yet at start (a black picture)
    or an undefined one after a swap."""
    from kivy.core.window import Window

    def on_flip(*_: Any) -> None:
        if not ready():
            Window.canvas.ask_update()  # look again at the next frame
            return
        Window.unbind(on_flip=on_flip)
        saved = Path(Window.screenshot(name=str(path)))
        saved.replace(path)
        print(path)
        if then is not None:
            then(path)

    Window.bind(on_flip=on_flip)
    Window.canvas.ask_update()
