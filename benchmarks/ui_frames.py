"""Frame times of the touchscreen while dice are being read (issue 9: "Smooth on a Pi:
the UI thread never blocks on the camera, the reader, the database or the ring").

The real app (every screen, the runtime's table and tray threads) runs off screen
(SDL offscreen) on a dice-tray game. The synthetic tray plays throws in real time at
the camera's frame rate; the real SettleWatcher and DiceReader read it on the tray
thread; settled dice are confirmed (written to SQLite with fsync) as soon as they are
offered. Meanwhile the UI thread's frame intervals are recorded.

If the UI never waits on the camera, reader or store, the frame interval stays at the
frame budget (1/maxfps) whatever the reader costs. Printed: medians and 95th
percentiles of the frame interval, of the UI work per tray update (texture upload and
outlines) and per table state (screen update), and of the reader's time per frame.

    .venv/bin/python benchmarks/ui_frames.py [--seconds 20] [--fps 30] [--portrait]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
os.environ.setdefault("DICETABLE_DATA", tempfile.mkdtemp(prefix="dicetable-bench-"))
os.environ.setdefault("DICETABLE_CONFIG", os.path.join(os.environ["DICETABLE_DATA"], "c.toml"))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--fps", type=int, default=30, help="the UI's maxfps")
    parser.add_argument("--camera-fps", type=int, default=15)
    parser.add_argument("--portrait", action="store_true")
    parser.add_argument(
        "--no-camera", action="store_true", help="the baseline: the same screens, no reading"
    )
    parser.add_argument(
        "--thread",
        action="store_true",
        help="read the tray on a thread of the app's process (default: its own process)",
    )
    args = parser.parse_args()

    from dicetable.device.commands.run import configure_kivy
    from dicetable.ui.theme import DISPLAYS

    display = DISPLAYS["portrait" if args.portrait else "landscape"]
    configure_kivy(display.width, display.height, fullscreen=False)
    from kivy.config import Config

    Config.set("graphics", "maxfps", str(args.fps))

    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.core.window import Window

    from dicetable.device import config
    from dicetable.device.table.compose import demo_settings
    from dicetable.device.table.runtime import Runtime
    from dicetable.hardware.actions import TableAction
    from dicetable.hardware.camera import SyntheticSource
    from dicetable.ui.app import TableScreens
    from dicetable.vision.reader import DiceReader
    from dicetable.vision.settle import SettleWatcher

    settings = demo_settings(config.load())
    settings.values["leds"]["port"] = ""
    camera = SyntheticSource(1280, 960, fps=args.camera_fps, seed=1, count=(3, 6), still=2.0)
    runtime = Runtime(
        settings,
        lambda job: Clock.schedule_once(lambda _dt: job()),
        camera=None if args.no_camera else camera,
        watcher=None if args.no_camera else SettleWatcher(DiceReader(), 0.3),
        tray_process=not args.thread,
    )
    runtime.start()
    EventLoop.ensure_window()
    screens = TableScreens(runtime, display)
    Window.add_widget(screens)

    tray_ms: list[float] = []
    reader_ms: list[float] = []  # the settle watcher's time per frame, reader included
    state_ms: list[float] = []
    show_tray, show_table = screens.show_tray, screens.show_table

    def timed_tray(tray):
        if tray.frame_seconds:
            reader_ms.append(tray.frame_seconds * 1000)
        began = time.perf_counter()
        show_tray(tray)
        tray_ms.append((time.perf_counter() - began) * 1000)

    def timed_table(state):
        began = time.perf_counter()
        show_table(state)
        state_ms.append((time.perf_counter() - began) * 1000)
        if state is not None and state.dice:  # confirm each settled reading
            runtime.act(TableAction.CONFIRM)

    runtime.listeners.tray[:] = [timed_tray]
    runtime.listeners.table[:] = [timed_table]
    runtime.new_game("dice-tray", seed=1)

    frames: list[float] = []
    last = time.perf_counter()
    end = last + args.seconds
    while time.perf_counter() < end:
        EventLoop.idle()
        now = time.perf_counter()
        frames.append((now - last) * 1000)
        last = now
    answered = runtime.submit(lambda: runtime.session.count).result()
    runtime.stop()

    frames = frames[10:]  # the first frames build the screens
    budget = 1000 / args.fps
    where = "none" if args.no_camera else ("a thread" if args.thread else "a process")
    print(f"display {display.name} {display.width}x{display.height}, maxfps {args.fps}")
    print(f"tray read in {where}; synthetic camera 1280x960 at {args.camera_fps} fps")
    print(f"{len(frames)} frames in {args.seconds:.0f} s; {answered} rolls read and answered")
    for name, values in (
        ("frame interval", frames),
        ("UI: tray update", tray_ms),
        ("UI: table state", state_ms),
        ("watcher + reader per frame", reader_ms),
    ):
        if not values:
            continue
        print(
            f"{name:32s} median {statistics.median(values):7.2f} ms  "
            f"p95 {percentile(values, 0.95):7.2f} ms  max {max(values):7.2f} ms  (n={len(values)})"
        )
    late = sum(1 for f in frames if f > 2 * budget)
    print(f"frames over twice the budget ({2 * budget:.0f} ms): {late}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
