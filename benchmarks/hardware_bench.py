"""Latency of the table's hardware paths, as medians (budget: 20 ms each).

* button edge -> action delivered -> the session's thread takes it (and, for
  CONFIRM on the dice tray, the answer is on disk): gpiozero MockFactory pins, the
  real ``PhaseButtons`` debounce code with the default settings, an ``ActionQueue``
  drained by a thread that stands for the UI thread; a short press on BACK from its
  release edge (it waits for the debounce time, since a hold would undo);
* state change -> LED ring frame complete at the device: the real ``LedRing`` writer
  thread and pyserial, into the ring simulator on a pseudo-terminal; also from a
  session's answer (SQLite write included) to the frame.

On a Pi, lgpio's callback thread adds its own wake-up (well under a millisecond) and
USB serial adds about 7 ms per 24-LED frame at 115200 baud (78 bytes).

Run: .venv/bin/python benchmarks/hardware_bench.py [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from pathlib import Path

from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from dicetable.device import config
from dicetable.device.controller import Controller
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.device.table.light_feed import follow
from dicetable.hardware.actions import TableAction
from dicetable.hardware.buttons import ActionQueue, PhaseButtons, button_map
from dicetable.hardware.leds import LedRing
from dicetable.hardware.ring_patterns import Lights
from dicetable.hardware.ring_sim import RingSimulator
from dicetable.rules.core import Die, Input

PINS = {"confirm": 17, "back": 27, "next": 22}


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(samples) * 1000:7.3f} ms   p95 {p95 * 1000:7.3f} ms"


def bench_buttons(rounds: int, data: Path) -> dict[str, list[float]]:
    """Presses of CONFIRM and NEXT (delivered on the press edge) and short presses of
    BACK (a hold would undo, so BACK is delivered once the release has lasted the
    debounce time: measured from the release edge), with the default settings."""
    Device.pin_factory = MockFactory()
    settings = config.load(Path("/nonexistent")).section("buttons")  # the defaults
    session = TableSession.start(Store.in_dir(data), "dice-tray", seed=1)
    controller = Controller(session)
    actions = ActionQueue()
    results: dict[str, list[float]] = {
        "delivered": [],
        "taken": [],
        "on disk": [],
        "back delivered": [],
    }
    done = threading.Event()
    edge_at = [0.0]

    def ui_thread() -> None:
        while True:
            action, delivered = actions.queue.get()
            if action is None:
                return
            taken = time.perf_counter()
            if action is TableAction.CONFIRM:
                controller.offer_dice((Die(3, "3"), Die(5, "5")))
            controller.act(action)
            finished = time.perf_counter()
            if action is TableAction.BACK:
                results["back delivered"].append(delivered - edge_at[0])
            else:
                results["delivered"].append(delivered - edge_at[0])
                results["taken"].append(taken - edge_at[0])
            if action is TableAction.CONFIRM:
                results["on disk"].append(finished - edge_at[0])
            done.set()

    consumer = threading.Thread(target=ui_thread, daemon=True)
    consumer.start()
    with PhaseButtons(
        button_map(settings),
        actions,
        hold_time=float(settings["hold_time"]),
        debounce=float(settings["debounce"]),
    ) as buttons:
        for round_ in range(rounds):
            name = ("confirm", "next", "back")[round_ % 3]
            pin = Device.pin_factory.pin(PINS[name])
            done.clear()
            edge_at[0] = time.perf_counter()
            pin.drive_low()
            if name == "back":
                time.sleep(0.05)
                edge_at[0] = time.perf_counter()
                pin.drive_high()
                done.wait(1)
            else:
                done.wait(1)
                pin.drive_high()
            while any(b.pressed for b in buttons.buttons):  # the release settles
                time.sleep(0.001)
    actions.queue.put((None, 0.0))  # type: ignore[arg-type]
    consumer.join(1)
    Device.pin_factory.reset()
    return results


def bench_ring(rounds: int, data: Path) -> dict[str, list[float]]:
    results: dict[str, list[float]] = {"state -> frame": [], "answer -> frame": []}
    leds = config.load(Path("/nonexistent")).section("leds")  # the defaults
    with (
        RingSimulator(24) as sim,
        LedRing(
            sim.port, 24, leds["protocol"], 1.0, baudrate=leds["baudrate"], offset=leds["offset"]
        ) as ring,
    ):
        ring.show(Lights(actor="table"))
        sim.wait_for(lambda f: f.pixels[0] == (255, 150, 60))
        for round_ in range(rounds):
            actor = "boss" if round_ % 2 else "player"
            colour = (255, 24, 0) if actor == "boss" else (0, 110, 255)
            seen = sim.received
            start = time.monotonic()
            ring.show(Lights(actor=actor))
            frame = sim.wait_for(lambda f, c=colour: f.pixels[0] == c, after=seen)
            if frame is not None:
                results["state -> frame"].append(frame.at - start)
            time.sleep(0.01)
        session = TableSession.start(Store.in_dir(data), "dice-tray", seed=2)
        follow(ring, session)
        for _ in range(rounds // 4):
            ring.dice_moving()
            time.sleep(0.02)
            seen = sim.received
            start = time.monotonic()
            session.submit(Input.roll(2, 4))
            frame = sim.wait_for(lambda f: f.pixels[0] == (0, 110, 255), after=seen)
            if frame is not None:
                results["answer -> frame"].append(frame.at - start)
    if sim.errors:
        raise SystemExit(f"the simulator saw bad frames: {sim.errors[:3]}")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        buttons = bench_buttons(args.rounds, Path(folder) / "buttons")
        ring = bench_ring(args.rounds, Path(folder) / "ring")
    print(f"button edge -> action delivered          {_ms(buttons['delivered'])}")
    print(f"button edge -> session thread takes it   {_ms(buttons['taken'])}")
    print(f"button edge -> CONFIRM answer on disk    {_ms(buttons['on disk'])}")
    print(f"back release edge -> BACK delivered      {_ms(buttons['back delivered'])}")
    print(f"state change -> ring frame at the device {_ms(ring['state -> frame'])}")
    print(f"answer -> ring frame (SQLite included)   {_ms(ring['answer -> frame'])}")


if __name__ == "__main__":
    main()
