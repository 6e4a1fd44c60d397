// dicetable LED ring: the Adalight protocol on a NeoPixel (WS2812B) ring.
//
// For users without a WLED board: an Arduino Uno/Nano or a Raspberry Pi Pico (RP2040,
// arduino-pico core) drives the ring, and the Pi streams frames over USB serial.
// Wiring and flashing: README.md beside this file.
//
// Protocol (the same as WLED's and Adafruit's Adalight):
//   'A' 'd' 'a' hi lo chk   then (hi * 256 + lo + 1) x R G B
//   chk = hi ^ lo ^ 0x55
// At boot and every second while no frame arrives the board prints "Ada\n", which is
// how `leds.port = "auto"` finds it. When the Pi stops sending for IDLE_BLANK_MS the
// ring goes dark (the app resends its picture at least twice a second while it runs).
//
// Needs the "Adafruit NeoPixel" library (Library Manager).

#include <Adafruit_NeoPixel.h>

#define DATA_PIN 6          // D6 on an Uno/Nano, GP6 on a Pico
#define NUM_LEDS 24         // the ring's LED count (leds.count in the app's settings)
#define COLOR_ORDER NEO_GRB // most WS2812B rings; NEO_RGB or NEO_GRBW for others
#define BAUD 115200         // leds.baudrate
#define MAX_BRIGHTNESS 255  // lower it (e.g. 96) when the ring runs from USB power
#define HELLO_MS 1000UL
#define IDLE_BLANK_MS 15000UL
#define BYTE_TIMEOUT_MS 100UL // a frame that stalls this long is dropped

Adafruit_NeoPixel ring(NUM_LEDS, DATA_PIN, COLOR_ORDER + NEO_KHZ800);

unsigned long lastFrame = 0;
unsigned long lastHello = 0;

// Wait for one byte; -1 when none comes within BYTE_TIMEOUT_MS.
int readByte() {
  unsigned long start = millis();
  while (!Serial.available()) {
    if (millis() - start > BYTE_TIMEOUT_MS) return -1;
  }
  return Serial.read();
}

void setup() {
  ring.begin();
  ring.setBrightness(MAX_BRIGHTNESS);
  ring.clear();
  ring.show();
  Serial.begin(BAUD);
  Serial.print("Ada\n");
  lastHello = lastFrame = millis();
}

// One frame after the 'A' has been read; false when it is malformed or stalls.
bool readFrame() {
  if (readByte() != 'd' || readByte() != 'a') return false;
  int hi = readByte(), lo = readByte(), chk = readByte();
  if (hi < 0 || lo < 0 || chk < 0 || (hi ^ lo ^ 0x55) != chk) return false;
  long count = (long)hi * 256 + lo + 1;
  for (long i = 0; i < count; i++) {
    int r = readByte(), g = readByte(), b = readByte();
    if (r < 0 || g < 0 || b < 0) return false;
    if (i < NUM_LEDS) ring.setPixelColor(i, r, g, b); // extra LEDs are read and ignored
  }
  ring.show();
  return true;
}

void loop() {
  unsigned long now = millis();
  if (Serial.available()) {
    if (Serial.read() == 'A' && readFrame()) lastFrame = millis();
    return;
  }
  if (now - lastFrame > HELLO_MS && now - lastHello > HELLO_MS) {
    Serial.print("Ada\n"); // "I'm here" while idle: autodetect and a health sign
    lastHello = now;
  }
  if (now - lastFrame > IDLE_BLANK_MS) {
    ring.clear();
    ring.show();
    lastFrame = now; // blank once, then keep saying hello
  }
}
