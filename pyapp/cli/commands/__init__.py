"""One module per command of ``python -m pyapp``; :mod:`pyapp.cli.main` discovers them.

Each module defines ``register(subparsers)`` (adding its parser with
``set_defaults(run=run)`` and optionally ``text=...``) and ``run(args) -> dict``.
Modules whose name starts with ``_`` are helpers, not commands.
"""
