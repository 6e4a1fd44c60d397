"""The only package that imports picamera2, gpiozero or pyserial; each adapter has a
simulated twin used by the tests and by demo mode."""
