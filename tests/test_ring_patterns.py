"""The ring's patterns as data: colours per actor, the gauge, effects that expire."""

from dicetable.hardware.ring_patterns import (
    BOSS,
    EFFECT_SECONDS,
    GREEN,
    PLAYER,
    RED,
    Effect,
    Gauge,
    Lights,
    after_answer,
    animated,
    gauge_leds,
    render,
)


def test_the_turn_colour_says_whose_move_it_is():
    assert render(Lights(actor="player"), 12, 0.0) == [PLAYER] * 12
    assert render(Lights(actor="boss"), 12, 0.0) == [BOSS] * 12
    assert len(set(render(Lights(actor="table"), 12, 0.0))) == 1


def test_the_gauge_lights_the_bosss_health_clockwise_from_the_top():
    pixels = render(Lights(actor="boss", gauge=Gauge(15, 30)), 24, 0.0)
    assert pixels[:12] == [BOSS] * 12
    assert all(p != BOSS and p != (0, 0, 0) for p in pixels[12:])  # dim, not off


def test_one_health_left_still_lights_one_led_and_none_lights_none():
    assert gauge_leds(Gauge(1, 50), 24) == 1
    assert gauge_leds(Gauge(0, 50), 24) == 0
    assert gauge_leds(Gauge(50, 50), 24) == 24


def test_a_bad_gauge_in_a_view_is_ignored_not_fatal():
    assert Gauge.from_view({"gauge": {"label": "Boss", "value": 7, "max": 10}}) == Gauge(7, 10)
    assert Gauge.from_view({"gauge": {"value": "x", "max": 10}}) is None
    assert Gauge.from_view({"gauge": {"value": 3, "max": 0}}) is None
    assert Gauge.from_view({"gauge": {"value": 40, "max": 30}}) == Gauge(30, 30)
    assert Gauge.from_view({}) is None


def test_effects_override_then_expire_back_to_the_turn():
    lights = Lights(actor="player").with_effect(Effect.OBJECTIVE_MET, now=10.0)
    assert render(lights, 8, 10.01) == [GREEN] * 8
    assert render(lights, 8, 10.0 + EFFECT_SECONDS[Effect.OBJECTIVE_MET] + 0.01) == [PLAYER] * 8
    damage = Lights(actor="boss").with_effect(Effect.DAMAGE, now=0.0)
    assert render(damage, 8, 0.05) == [RED] * 8


def test_rolling_spins_a_comet():
    lights = Lights(actor="player", rolling=True)
    first, later = render(lights, 24, 0.0), render(lights, 24, 0.1)
    assert first != later
    assert any(p == (0, 0, 0) for p in first)  # a comet, not a full ring
    assert animated(lights, 0.0)
    assert not animated(Lights(actor="player"), 0.0)


def test_after_an_answer_the_most_important_event_wins_and_rolling_stops():
    previous = Lights(actor="player", rolling=True)
    lights = after_answer(
        previous,
        actor="boss",
        over=False,
        view={"gauge": {"label": "Boss", "value": 3, "max": 10}},
        event_kinds=["rolled", "objective_met", "damage"],
        now=5.0,
    )
    assert lights.actor == "boss" and not lights.rolling
    assert lights.effect is Effect.DAMAGE and lights.gauge == Gauge(3, 10)


def test_brightness_scales_every_pixel():
    assert render(Lights(actor="player"), 4, 0.0, brightness=0.5) == [(0, 55, 128)] * 4
    assert render(Lights(actor="player"), 4, 0.0, brightness=0.0) == [(0, 0, 0)] * 4


def test_idle_breathes_and_game_over_shows_a_rainbow():
    idle = Lights()
    assert render(idle, 4, 0.0) != render(idle, 4, 2.0)
    over = render(Lights(actor="table", over=True), 6, 0.0)
    assert len(set(over)) == 6
