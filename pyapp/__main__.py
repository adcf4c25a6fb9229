"""``python -m pyapp``: see :mod:`pyapp.cli.main`."""

import sys

try:
    from .cli.main import main
except KeyboardInterrupt:  # Ctrl+C while the modules load: the same one line as later
    sys.stderr.write("error: interrupted\n")
    sys.exit(130)

sys.exit(main())
