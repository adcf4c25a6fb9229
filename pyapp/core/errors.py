"""Error types raised on unusable input.

Every parsing or validation failure is a ``ValueError`` subclass whose message quotes
the offending input and says what was expected, so the command line and the web app
can show it verbatim (one line, no traceback).
"""


class PegError(ValueError):
    """Base class for every input error of the library."""


class BoardError(PegError):
    """An unknown board id or an unusable custom board grid."""


class HoleError(PegError):
    """A hole name that the board does not have, or that is malformed."""


class NotationError(PegError):
    """A jump or move written in a form that cannot be read."""


class PositionError(PegError):
    """Position text that does not fit the board."""


class IllegalMoveError(PegError):
    """A well-formed jump that the rules forbid in the current position."""


class LimitError(PegError):
    """Input over one of the size limits of :mod:`pyapp.core.limits` (refused before anything is built)."""


class BoardLimitError(LimitError, BoardError):
    """A board whose holes or bounding box are over the limits."""
