"""Tell systemd how the app is doing: ready, alive, stopping (the sd_notify protocol).

A ``Type=notify`` unit waits for ``READY=1`` before it counts the service as started,
and with ``WatchdogSec=`` it kills and restarts a service that stops sending
``WATCHDOG=1``. Sending the pings from the UI's main loop (a Kivy ``Clock`` interval),
not from a helper thread, is what makes a frozen screen get restarted.

The protocol is one datagram per message to the AF_UNIX socket named by
``$NOTIFY_SOCKET`` (a leading ``@`` is Linux's abstract namespace); systemd documents it
as stable and ships a self-contained example (``man/notify-selfcontained-example.py``),
so no library is needed. Outside systemd every call is a no-op, and a failure to send is
logged once and never raised: a missing supervisor must not stop a game.

Wiring for the app (``ui``)::

    from dicetable.hardware import notify

    notify.status("Starting camera")            # shown by `systemctl status dicetable`
    notify.ready()                               # when the home screen is first shown
    interval = notify.watchdog_interval()        # seconds, or None without a watchdog
    if interval:
        Clock.schedule_interval(lambda dt: notify.watchdog(), interval)
    notify.stopping()                            # on_stop, before saving and closing
"""

from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger(__name__)

ENV_SOCKET = "NOTIFY_SOCKET"
ENV_WATCHDOG_USEC = "WATCHDOG_USEC"
ENV_WATCHDOG_PID = "WATCHDOG_PID"

_warned = False


def notify(*fields: str) -> bool:
    """Send ``KEY=value`` fields in one datagram; True when systemd was told.

    A no-op (False) when ``$NOTIFY_SOCKET`` is unset, so the app runs the same from a
    terminal, in tests and under systemd.
    """
    address = os.environ.get(ENV_SOCKET)
    if not address or not fields:
        return False
    if address[0] not in ("/", "@"):
        _warn_once(f"{ENV_SOCKET}={address!r} is not a unix socket path; not notifying")
        return False
    target = "\0" + address[1:] if address[0] == "@" else address
    message = "\n".join(fields).encode("utf-8")
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(target)
            sock.sendall(message)
    except OSError as error:
        _warn_once(f"cannot notify systemd at {address}: {error}")
        return False
    return True


def ready(status_text: str | None = None) -> bool:
    """The app is up (the home screen is showing): systemd ends the start-up wait."""
    fields = ["READY=1"]
    if status_text:
        fields.append(_status_field(status_text))
    return notify(*fields)


def watchdog() -> bool:
    """Still alive. Call it from the UI's main loop every ``watchdog_interval()``."""
    return notify("WATCHDOG=1")


def stopping(status_text: str | None = None) -> bool:
    """The app is shutting down on purpose, so a slow stop is not taken for a hang."""
    fields = ["STOPPING=1"]
    if status_text:
        fields.append(_status_field(status_text))
    return notify(*fields)


def status(text: str) -> bool:
    """A one-line state shown by ``systemctl status`` (e.g. "Camera missing")."""
    return notify(_status_field(text))


def watchdog_interval() -> float | None:
    """Seconds between ``watchdog()`` calls: half of ``WatchdogSec=``, as sd_watchdog_enabled(3)
    advises, or None when systemd expects no pings from this process."""
    try:
        usec = int(os.environ.get(ENV_WATCHDOG_USEC, ""))
    except ValueError:
        return None
    if usec <= 0:
        return None
    pid = os.environ.get(ENV_WATCHDOG_PID)
    if pid and pid != str(os.getpid()):  # meant for another process (e.g. a wrapper)
        return None
    return usec / 2_000_000


def _status_field(text: str) -> str:
    # one line per field: a newline would start a new (bogus) assignment
    return "STATUS=" + " ".join(text.split())


def _warn_once(message: str) -> None:
    global _warned
    if not _warned:
        _warned = True
        log.warning(message)
