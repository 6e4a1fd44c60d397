"""``buttons-test``: press the table's buttons and see what each one does (a wiring
check on the Pi, through the same code the app uses)."""

from __future__ import annotations

import argparse
import sys
import time

from dicetable.device.commands import load_config


def register(commands: argparse._SubParsersAction) -> None:
    test = commands.add_parser("buttons-test", help="print the action of each button pressed")
    test.add_argument("--seconds", type=float, help="stop after this long (default: Ctrl-C)")
    test.set_defaults(func=run_test)


def run_test(args: argparse.Namespace) -> int:
    from dicetable.hardware.buttons import ActionQueue, ButtonError, PhaseButtons, button_map

    section = load_config(args).section("buttons")
    actions = ActionQueue()
    try:
        buttons = PhaseButtons(
            button_map(section),
            actions,
            hold_time=float(section["hold_time"]),
            debounce=float(section["debounce"]),
        ).open()
    except ButtonError as error:
        print(f"dicetable: {error}", file=sys.stderr)
        return 2
    with buttons:
        for name, pin, press, hold in buttons.legend():
            extra = f", hold {buttons.hold_time:.1f} s: {hold}" if hold else ""
            print(f"{name:8s} on {pin:7s} press: {press}{extra}", flush=True)
        print("press the buttons; Ctrl-C stops", flush=True)
        deadline = None if args.seconds is None else time.monotonic() + args.seconds
        try:
            while deadline is None or time.monotonic() < deadline:
                action = actions.get(timeout=0.2)
                if action is not None:
                    print(f"{time.strftime('%H:%M:%S')}  {action}", flush=True)
        except KeyboardInterrupt:
            pass
    return 0
