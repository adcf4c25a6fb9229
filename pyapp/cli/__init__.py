"""The command line, ``python -m pyapp``: :mod:`.main` parses and runs one module per command of
:mod:`.commands`, prints text or JSON and maps errors to exit codes.

May import: every package but :mod:`pyapp.web`.
"""
