"""``python -m dicetable``: the same as the ``dicetable`` command."""

from dicetable.device.cli import main

raise SystemExit(main())
