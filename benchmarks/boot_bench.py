"""Boot to screen: from the service's start to the home screen (issue 10: "under 5 s on
a Pi 4"), measured here as a stand-in.

systemd's clock for a ``Type=notify`` unit runs from the fork to ``READY=1``, which the
app sends when the home screen is first shown. This script does the same: it starts
``dicetable run`` with a notify socket of its own, off screen (SDL offscreen), with a
fresh data folder, and times the READY=1 datagram. It also times the pieces a boot
pays for first: the interpreter, the CLI's imports, Kivy's.

A Pi 4's Cortex-A72 (1.5-1.8 GHz) runs pure Python roughly PI4_SLOWDOWN times slower
than a current x86 core; that factor is an estimate, not measured here, so the stand-in
budget (the Pi's 5 s divided by it) is a tripwire for regressions. On a Pi, run it with
``--pi`` for the real budget and the real figure.

Python code runs from bytecode compiled ahead, as on the Pi (pip compiles it when
``systemd/install.sh`` installs the app, and the unit only forbids writing more):
each timed tree gets a bytecode cache of its own (``PYTHONPYCACHEPREFIX``), filled
by one start before the timed ones. ``--no-bytecode`` times a start that compiles
every module first (a fresh checkout run with ``PYTHONDONTWRITEBYTECODE``).

``--baseline REV`` times the app as it was at git revision REV in the same run,
starts of the two taking turns, so a change is judged by a ratio that the noise of
a shared machine hardly moves.

    .venv/bin/python benchmarks/boot_bench.py [--repeats N] [--pi] [--baseline REV]
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PI4_BUDGET = 5.0
PI4_SLOWDOWN = 4.0
STAND_IN_BUDGET = PI4_BUDGET / PI4_SLOWDOWN
READY_TIMEOUT = 60.0

STAGES = {
    "python": "pass",
    "import cli": "import dicetable.device.cli",
    "build cli": "from dicetable.device.cli import build_parser; build_parser()",
    "import kivy app": "import dicetable.ui.app",
}


def app_env(tmp: Path, bytecode: bool = True) -> dict[str, str]:
    keep = ("DICETABLE_", "NOTIFY_", "PYTHONPYCACHEPREFIX", "PYTHONDONTWRITEBYTECODE")
    env = {k: v for k, v in os.environ.items() if not k.startswith(keep)}
    if bytecode:
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "bytecode")
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    env |= {
        "DICETABLE_DATA": str(tmp / "data"),
        "DICETABLE_CONFIG": str(tmp / "config.toml"),
        "SDL_VIDEODRIVER": "offscreen",
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_FILELOG": "1",
        "KIVY_NO_CONSOLELOG": "1",
        "KIVY_LOG_MODE": "PYTHON",
        "KIVY_HOME": str(tmp / "kivy"),
        "GPIOZERO_PIN_FACTORY": "mock",
    }
    return env


def time_stage(code: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def time_to_ready(tmp: Path, env: dict[str, str], watchdog_usec: int | None = None) -> float:
    """Seconds from starting ``dicetable run`` to its READY=1 (the home screen shown)."""
    address = tmp / "notify.sock"
    address.unlink(missing_ok=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(address))
        sock.settimeout(READY_TIMEOUT)
        env = env | {"NOTIFY_SOCKET": str(address)}
        if watchdog_usec:
            env["WATCHDOG_USEC"] = str(watchdog_usec)
        log = (tmp / "app.log").open("w+")  # a file, not a pipe that could fill and block
        start = time.perf_counter()
        app = subprocess.Popen(
            [sys.executable, "-m", "dicetable.device.cli", "run"],
            env=env,
            stdout=log,
            stderr=log,
        )
        try:
            while b"READY=1" not in sock.recv(4096).split(b"\n"):
                pass
            return time.perf_counter() - start
        except TimeoutError:
            raise SystemExit(f"no READY=1 within {READY_TIMEOUT} s") from None
        finally:
            app.send_signal(signal.SIGTERM)
            try:
                app.wait(timeout=10)
            except subprocess.TimeoutExpired:
                app.kill()
                app.wait()
            if app.returncode not in (0, -signal.SIGTERM, 128 + signal.SIGTERM):
                log.seek(0)
                print(log.read()[-2000:], file=sys.stderr)
            log.close()


def baseline_tree(revision: str, tmp: Path) -> dict[str, str]:
    """The app at ``revision`` (``git archive``, the working tree is not touched),
    importable as ``dicetable`` ahead of the installed one: the extra environment."""
    root = Path(__file__).resolve().parents[1]
    tree = tmp / "baseline" / "dicetable"
    tree.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", revision], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return {"PYTHONPATH": str(tree.parent)}


def has_run_command() -> bool:
    from dicetable.device.cli import build_parser

    return "run" in build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--pi", action="store_true", help="on a Pi 4: the 5 s budget itself")
    parser.add_argument("--baseline", metavar="REV", help="also time git revision REV")
    parser.add_argument(
        "--no-bytecode", action="store_true", help="compile every module at each start"
    )
    args = parser.parse_args()
    budget = PI4_BUDGET if args.pi else STAND_IN_BUDGET
    bytecode = not args.no_bytecode

    with tempfile.TemporaryDirectory(prefix="dicetable-boot-") as name:
        tmp = Path(name)
        env = app_env(tmp / "now", bytecode)
        (tmp / "now").mkdir()  # Kivy makes KIVY_HOME, not the folders above it
        print(f"{'stage':28s} {'median s':>9s}  (of {args.repeats}, each a fresh process)")
        for stage, code in STAGES.items():
            try:
                time_stage(code, env)  # fills the bytecode cache
                times = [time_stage(code, env) for _ in range(args.repeats)]
            except subprocess.CalledProcessError:
                print(f"{stage:28s} {'n/a':>9s}  (does not import yet)")
                continue
            print(f"{stage:28s} {statistics.median(times):9.3f}")
        if not has_run_command():
            print("dicetable run is not there yet: no boot-to-screen figure")
            return
        trees = {"now": (tmp / "now", env)}
        if args.baseline:
            base = tmp / "base"
            base.mkdir()
            trees[args.baseline] = (
                base,
                app_env(base, bytecode) | baseline_tree(args.baseline, base),
            )
        for where, tree_env in trees.values():
            (where / "data").mkdir(parents=True, exist_ok=True)
            if bytecode:
                time_to_ready(where, tree_env)  # the bytecode, compiled once as pip does
        times: dict[str, list[float]] = {label: [] for label in trees}
        for _ in range(args.repeats):  # the trees take turns: the same noise for both
            for label, (where, tree_env) in trees.items():
                times[label].append(time_to_ready(where, tree_env))
        for label, taken in times.items():
            median = statistics.median(taken)
            title = "start to READY=1 (home)" if label == "now" else f"  ... at {label}"
            print(f"{title:28s} {median:9.3f}  (min {min(taken):.3f})")
        median = statistics.median(times["now"])
        if args.baseline:
            ratio = median / statistics.median(times[args.baseline])
            print(f"{'now / ' + args.baseline:28s} {ratio:9.2f}")
        verdict = "within" if median <= budget else "OVER"
        where = "Pi 4" if args.pi else f"stand-in: Pi 4's {PI4_BUDGET:g} s / {PI4_SLOWDOWN:g}"
        code = "bytecode compiled ahead" if bytecode else "no bytecode"
        print(
            f"boot to screen: {median:.2f} s, {verdict} the budget of {budget:.2f} s"
            f" ({where}; {code})"
        )


if __name__ == "__main__":
    main()
