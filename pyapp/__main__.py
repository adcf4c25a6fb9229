"""``python -m pyapp``: see :mod:`pyapp.cli`."""

import sys

from .cli import main

sys.exit(main())
