"""Pure game engines: no I/O, no clock, no global random (see ``core``)."""
