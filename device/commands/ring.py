"""``ring-sim`` and ``ring-test``: the LED ring's simulator, and a wiring check that
shows every pattern on the configured ring (or on the simulator, as pictures)."""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

from dicetable.device.commands import load_config
from dicetable.hardware.ring_patterns import Effect, Gauge, Lights


def register(commands: argparse._SubParsersAction) -> None:
    from dicetable.hardware.leds import RingProtocol

    sim = commands.add_parser(
        "ring-sim",
        help="a simulated LED ring on a pseudo-terminal (point leds.port at it)",
    )
    sim.add_argument("--count", type=int, help="LEDs (default: leds.count)")
    sim.add_argument("--protocol", choices=[p.value for p in RingProtocol])
    sim.add_argument(
        "--announce",
        choices=["ada", "wled", "none"],
        default="ada",
        help="say hello like the Adalight sketch (default) or answer like WLED",
    )
    sim.add_argument("--link", type=Path, help="a stable path (symlink) for the port")
    sim.add_argument("--png", type=Path, help="keep a picture of the ring in this file")
    sim.add_argument("--seconds", type=float, help="stop after this long (default: Ctrl-C)")
    sim.set_defaults(func=run_sim)

    test = commands.add_parser("ring-test", help="show every ring pattern in turn")
    test.add_argument("--port", help='serial port, "auto" or "sim" (default: leds.port)')
    test.add_argument("--count", type=int, help="LEDs (default: leds.count)")
    test.add_argument("--protocol", choices=[p.value for p in RingProtocol])
    test.add_argument("--step", type=float, default=1.5, help="seconds per pattern")
    test.add_argument("--png-dir", type=Path, help="with the simulator: a picture per pattern")
    test.set_defaults(func=run_test)


def run_sim(args: argparse.Namespace) -> int:
    from dicetable.hardware.ring_sim import RingSimulator

    leds = load_config(args).section("leds")
    count = args.count or int(leds["count"])
    protocol = args.protocol or str(leds["protocol"])
    announce = None if args.announce == "none" else args.announce
    with RingSimulator(count, protocol=protocol, announce=announce, link=args.link) as sim:
        print(f"LED ring simulator ({count} LEDs, {protocol}) on {sim.port}", flush=True)
        print(f'set leds.port = "{sim.port}" and run the app; Ctrl-C stops', flush=True)
        shown_errors = 0
        deadline = None if args.seconds is None else time.monotonic() + args.seconds
        try:
            while deadline is None or time.monotonic() < deadline:
                time.sleep(
                    1.0 if deadline is None else min(1.0, max(0.0, deadline - time.monotonic()))
                )
                for error in sim.errors[shown_errors:]:
                    print(f"bad frame: {error}", file=sys.stderr, flush=True)
                shown_errors = len(sim.errors)
                frame = sim.latest
                if frame is not None:
                    print(f"{sim.received:6d} frames  {_swatches(frame.pixels)}", flush=True)
                    if args.png:
                        sim.save_png(args.png)
        except KeyboardInterrupt:
            pass
        return 1 if sim.errors else 0


def _swatches(pixels: tuple[tuple[int, int, int], ...]) -> str:
    """The ring as a row of coloured blocks (24-bit colour), when stdout is a terminal."""
    if not sys.stdout.isatty():
        return " ".join(f"{r:02x}{g:02x}{b:02x}" for r, g, b in pixels)
    return "".join(f"\x1b[48;2;{r};{g};{b}m  " for r, g, b in pixels) + "\x1b[0m"


PATTERNS: list[tuple[str, Lights]] = [
    ("idle", Lights()),
    ("player's turn", Lights(actor="player")),
    ("boss's turn", Lights(actor="boss")),
    ("table's turn", Lights(actor="table")),
    ("boss health 60%", Lights(actor="boss", gauge=Gauge(6, 10))),
    ("dice rolling", Lights(actor="player", rolling=True)),
    ("dice settled and read", Lights(actor="player", effect=Effect.SETTLED)),
    ("objective met", Lights(actor="player", effect=Effect.OBJECTIVE_MET)),
    ("objective missed", Lights(actor="player", effect=Effect.OBJECTIVE_MISSED)),
    ("damage", Lights(actor="boss", gauge=Gauge(3, 10), effect=Effect.DAMAGE)),
    ("game over", Lights(actor="table", over=True, effect=Effect.GAME_OVER)),
]


def run_test(args: argparse.Namespace) -> int:
    from dicetable.hardware.leds import open_ring

    leds = load_config(args).section("leds")
    if args.port:
        leds["port"] = args.port
    if args.count:
        leds["count"] = args.count
    if args.protocol:
        leds["protocol"] = args.protocol
    if not leds["port"]:
        print(
            'dicetable: no ring: set leds.port (or --port PATH, "auto" or "sim")', file=sys.stderr
        )
        return 2
    ring = open_ring(leds)
    assert ring is not None
    if args.png_dir:
        args.png_dir.mkdir(parents=True, exist_ok=True)
    try:
        for number, (name, lights) in enumerate(PATTERNS, start=1):
            print(f"{number:2d}. {name}", flush=True)
            ring.show(replace(lights, effect_at=ring.clock()) if lights.effect else lights)
            time.sleep(args.step * 0.3)  # short effects are still running here
            if ring.simulator is not None and args.png_dir:
                slug = name.replace("'", "").replace(" ", "-").replace("%", "")
                ring.simulator.save_png(args.png_dir / f"{number:02d}-{slug}.png")
            time.sleep(args.step * 0.7)
        written = ring.writes
    finally:
        ring.close()
    if written == 0:
        print(f"dicetable: the ring on {leds['port']} never took a frame", file=sys.stderr)
        return 1
    if ring.simulator is not None and ring.simulator.errors:
        print(f"dicetable: bad frames: {ring.simulator.errors[:3]}", file=sys.stderr)
        return 1
    print(f"{written} frames written to the ring")
    return 0
