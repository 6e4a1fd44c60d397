"""The LED ring over real serial: pyserial writes to a pseudo-terminal where the ring
simulator checks every frame as firmware would."""

from __future__ import annotations

import json
import logging
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest

from dicetable.device.config import defaults_text
from dicetable.device.session import TableSession
from dicetable.device.store import Store
from dicetable.device.table.light_feed import follow
from dicetable.hardware.leds import (
    LedRing,
    RingError,
    adalight_frame,
    find_ring,
    open_ring,
    wled_json_frame,
)
from dicetable.hardware.ring_patterns import BOSS, PLAYER, Effect, Gauge, Lights
from dicetable.hardware.ring_sim import RingSimulator
from dicetable.rules.core import Input

#: the documented settings (device/defaults.toml), as the app reads them over its file
DEFAULTS = tomllib.loads(defaults_text())
BAUDRATE = DEFAULTS["leds"]["baudrate"]


def a_ring(port: str, count: int, **changed: Any) -> LedRing:
    """A ring with the documented settings but for ``changed``."""
    leds = DEFAULTS["leds"]
    settings = {key: leds[key] for key in ("protocol", "brightness", "baudrate", "offset")}
    return LedRing(port, count, **{**settings, **changed})


def test_adalight_golden_vector():
    """Header 'Ada', count-1 big-endian, hi^lo^0x55 (platform notes 4.3)."""
    frame = adalight_frame([(1, 2, 3), (4, 5, 6), (7, 8, 9)])
    assert frame == b"Ada\x00\x02W" + bytes(range(1, 10))
    big = adalight_frame([(0, 0, 0)] * 300)
    assert big[:6] == b"Ada" + bytes((1, 43, 1 ^ 43 ^ 0x55))
    assert len(big) == 6 + 900


def test_wled_json_frame_sets_every_led_without_a_fade():
    state = json.loads(wled_json_frame([(255, 0, 16), (0, 0, 0)]))
    assert state["seg"]["i"] == ["FF0010", "000000"]
    assert state["tt"] == 0 and state["on"] is True


def test_bad_settings_are_refused_with_the_key():
    with pytest.raises(RingError, match=r"leds.protocol = 'dmx'"):
        a_ring("/dev/null", 24, protocol="dmx")
    with pytest.raises(RingError, match="leds.count"):
        a_ring("/dev/null", 0)


@pytest.fixture
def sim(tmp_path: Path):
    with RingSimulator(12, link=tmp_path / "ttyRING") as simulator:
        yield simulator


def test_a_state_change_reaches_the_ring_and_every_frame_is_valid(sim: RingSimulator):
    with a_ring(sim.port, 12, brightness=1.0) as ring:
        ring.show(Lights(actor="boss", gauge=Gauge(1, 2)))
        frame = sim.wait_for(lambda f: f.pixels[0] == BOSS and f.pixels[6] != BOSS)
        assert frame is not None
        ring.show(Lights(actor="player"))
        assert sim.wait_for(lambda f: f.pixels == (PLAYER,) * 12) is not None
    assert sim.wait_for(lambda f: f.pixels == ((0, 0, 0),) * 12) is not None  # blanked
    assert sim.errors == []


def test_a_still_picture_is_resent_so_wled_keeps_it(sim: RingSimulator):
    """WLED drops realtime mode 2.5 s after the last frame (platform notes 4.1)."""
    with a_ring(sim.port, 12, keepalive=0.1) as ring:
        ring.show(Lights(actor="player"))
        assert sim.wait_for() is not None
        start = sim.received
        time.sleep(0.55)
        assert sim.received - start >= 3
    assert sim.errors == []


def test_unplugging_is_logged_once_and_the_ring_comes_back(
    sim: RingSimulator, caplog: pytest.LogCaptureFixture
):
    caplog.set_level(logging.WARNING, logger="dicetable.hardware.leds")
    with a_ring(sim.port, 12, brightness=1.0, keepalive=0.05, max_backoff=0.1) as ring:
        ring.show(Lights(actor="player"))
        assert sim.wait_for() is not None
        sim.unplug()
        started = time.monotonic()
        for actor in ("boss", "player", "boss"):  # the game goes on meanwhile
            ring.show(Lights(actor=actor))
        assert (
            time.monotonic() - started < 0.2
        )  # show() never waits on the ring (1 s write timeout)
        time.sleep(0.5)
        lost = [r for r in caplog.records if "lost" in r.getMessage()]
        assert len(lost) == 1
        assert not ring.connected
        sim.replug()
        back = sim.received
        assert sim.wait_for(lambda f: f.pixels[0] == BOSS, timeout=3, after=back) is not None
        assert ring.connected
    assert any("back on" in r.getMessage() for r in caplog.records)
    assert sim.errors == []


def test_a_missing_port_is_reported_once_and_never_raises(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    caplog.set_level(logging.WARNING, logger="dicetable.hardware.leds")
    with a_ring(str(tmp_path / "nothing"), 12, max_backoff=0.05) as ring:
        ring.show(Lights(actor="boss"))
        time.sleep(0.3)
        assert not ring.connected
    warnings = [r for r in caplog.records if "not available" in r.getMessage()]
    assert len(warnings) == 1 and "nothing" in warnings[0].getMessage()


def test_wled_json_over_serial(tmp_path: Path):
    with (
        RingSimulator(8, protocol="wled-json") as sim,
        a_ring(sim.port, 8, protocol="wled-json", brightness=1.0) as ring,
    ):
        ring.show(Lights(actor="boss"))
        frame = sim.wait_for(lambda f: f.pixels == (BOSS,) * 8)
        assert frame is not None and frame.protocol == "wled-json"
    assert sim.errors == []


def test_autodetect_finds_a_ring_that_announces_itself(tmp_path: Path):
    with (
        RingSimulator(8, announce="ada") as sketch,
        RingSimulator(8, announce="wled") as wled,
        RingSimulator(8) as quiet,
    ):
        assert find_ring([sketch.port], listen=1.5, baudrate=BAUDRATE) == (
            sketch.port,
            "adalight-sketch",
        )
        assert find_ring([wled.port], listen=0.2, baudrate=BAUDRATE) == (wled.port, "wled")
        assert (
            find_ring([quiet.port, str(tmp_path / "none")], listen=0.2, baudrate=BAUDRATE) is None
        )


def test_the_offset_turns_the_ring_so_the_gauge_starts_at_the_top(sim: RingSimulator):
    with a_ring(sim.port, 12, brightness=1.0, offset=3) as ring:
        ring.show(Lights(actor="boss", gauge=Gauge(1, 12)))
        frame = sim.wait_for(lambda f: f.pixels[3] == BOSS)
        assert frame is not None
        assert [i for i, p in enumerate(frame.pixels) if p == BOSS] == [3]


def test_the_ring_follows_a_session(isolated_data: Path):
    """The dice tray is the player's game; a roll keeps the player's colour."""
    session = TableSession.start(Store.in_dir(isolated_data), "dice-tray", seed=1)
    ring = open_ring({**DEFAULTS["leds"], "port": "sim", "count": 12, "brightness": 1.0})
    assert ring is not None and ring.simulator is not None
    try:
        follow(ring, session)
        assert ring.simulator.wait_for(lambda f: f.pixels == (PLAYER,) * 12) is not None
        ring.dice_moving()
        assert ring.lights.rolling
        ring.dice_read()
        assert ring.lights.effect is Effect.SETTLED and not ring.lights.rolling
        ring.dice_moving()
        session.submit(Input.roll(3, 4, 5))
        assert not ring.lights.rolling
        assert ring.simulator.errors == []
    finally:
        ring.close()


def test_no_port_means_no_ring_except_the_simulator_in_demo_mode():
    assert open_ring(DEFAULTS) is None  # the documented default: no ring
    ring = open_ring({**DEFAULTS["leds"], "count": 8}, demo=True)
    assert ring is not None and ring.simulator is not None
    ring.close()


@pytest.mark.pi
def test_a_real_ring_announces_itself_and_takes_frames():
    found = find_ring(baudrate=BAUDRATE)
    if found is None:
        pytest.skip("no ring announcing itself on a USB serial port")
    port, _kind = found
    with a_ring(port, 24) as ring:
        ring.show(Lights(actor="player"))
        time.sleep(1.0)
        assert ring.connected and ring.writes >= 1
