"""The table: settings -> camera -> dice reader -> table session -> screen.

One module per job, none of which calls back into the runtime:

* ``runtime``: the table's worker thread (store, session, controller) and the requests
  the screens make of it, and the tray thread that turns camera reports into snapshots;
* ``snapshots``: what the screens are shown (``GameSnapshot``, ``TraySnapshot``,
  ``Notice``, ``TeachableSet``), the only module of this package a screen imports;
* ``notices``: what is wrong at the table, kept by topic, and every notice's wording;
* ``camera_state``: what a tray report means for the tray view and the camera notice;
* ``tray_process``: the camera and reader in a process of their own, with typed
  messages (``UseProfile``, ``ReadArea``, ``ThrowDice``, ``StopReading``) one way and
  ``TrayReport`` the other; ``tray_reading``: frames in, reports out;
* ``devices``: opening the camera, its reader and the LED ring;
* ``teach``: the teach session ("show me each face");
* ``dice_sets``: which taught dice set reads a roll;
* ``settings_file``: writing one setting to the player's file;
* ``card_catalogue``: the Dicequest cards typed in at the table, kept between games;
* ``compose``: the composition root, the one place that knows every adapter.
"""
