"""The only package that imports picamera2, gpiozero or pyserial; each adapter has a
simulated twin used by the tests and by demo mode.

* ``actions``: the ``TableAction``s a button, a key or an on-screen twin means;
* ``buttons``: GPIO phase buttons (gpiozero; MockFactory in tests), ``open_buttons``;
* ``camera``: frame sources (picamera2, OpenCV, a photo folder, the synthetic tray
  drawn by ``synthetic_tray``), ``open_camera``;
* ``ring_patterns`` (pure), ``table_lights``, ``leds`` (the serial LED ring),
  ``ring_sim`` (its twin on a pseudo-terminal) and ``status_light`` (an RGB LED and a
  buzzer); the table opens them (``device.table.compose``) and tells them the game;
* ``notify``: systemd's readiness and watchdog messages;
* ``firmware/``: the Adalight sketch for a ring without WLED.
"""
